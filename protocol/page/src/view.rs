//! The page's view of a session: the boards of the shown position (every piece with its board
//! and square), the legal moves a person may make there (from cell, landing cell, SAN, wide
//! UCI text), the last move, check, the move list, clocks, analysis and status.
//!
//! Each part is a derived struct whose fields are written in their declared order, which is
//! the alphabetical order the page has always received (the views were built with
//! `serde_json`'s map, which sorts its keys). Absent values are `null`.

use super::lines::{pv_moves, score_text, white_centipawns};
use super::pgn_file::{clock_text, eval_cp};
use super::review::ReviewView;
use super::session::PageSession;
use super::settings::Mode;
use serde::Serialize;
use vorpal_engine::{BoardId, Color, Move, Piece, PieceKind, Position, Square};

/// Everything the page shows of a session (`GET /api/state`, and the `state` of every answer).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View<'a> {
    /// Boards of the variant (1 to 3).
    boards: usize,
    /// The checked king's cell.
    check: Option<Cell>,
    chess960: bool,
    clocks: Option<ClocksView>,
    /// The names of the engines offered.
    configured_engines: Vec<&'a str>,
    /// The shown node's place in the shown line (0: the start).
    cursor: usize,
    /// The en passant option's name.
    en_passant: &'static str,
    /// True while the person plays the engine without asking to see its thoughts.
    engine_hidden: bool,
    /// The engines in use.
    engines: Vec<EngineView<'a>>,
    fen: String,
    /// Files of each board.
    files: u8,
    /// The result for the PGN (`*` while the game goes on).
    game_result: String,
    /// The person's colour in play mode.
    human: Option<&'static str>,
    /// The move that led to the shown position.
    last: Option<MoveView>,
    /// The moves a person may make in the shown position.
    legal: Vec<MoveView>,
    /// The engine's lines about the shown position.
    lines: Vec<LineView>,
    /// True when the shown node is on the main line.
    main_line: bool,
    /// The last command's error.
    message: Option<&'a str>,
    mode: &'static str,
    /// The shown line's moves.
    moves: Vec<LineMove<'a>>,
    /// The shown node.
    node: usize,
    /// Every node of the move tree, in PGN order.
    nodes: Vec<NodeView<'a>>,
    pgn: String,
    /// Each side's clock at the shown node as the PGN's `[%clk]` gives it (White, Black): the
    /// latest of the side's moves up to there. Absent when the game has no clock comments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pgn_clocks: Option<[Option<String>; 2]>,
    pieces: Vec<PieceView>,
    players: &'a [String; 2],
    /// The result when the shown node ends the game.
    result: Option<ResultView<'a>>,
    /// The game report.
    review: Option<ReviewView<'a>>,
    show_engine: bool,
    start_black: bool,
    start_move: u16,
    /// The one-line status.
    status: String,
    /// The tablebase verdict about the shown position.
    tablebase: Option<&'a str>,
    /// The search in progress.
    thinking: Option<Thinking<'a>>,
    /// The side to move.
    turn: &'static str,
    variant: &'static str,
    /// The variant menu.
    variants: Vec<String>,
    /// Changes with every update.
    version: u64,
}

/// A cell: the board letter and the square.
#[derive(Debug, Serialize)]
struct Cell {
    board: String,
    square: String,
}

/// A piece on its cell; `piece` is the colour and kind (`wp`, `bN`).
#[derive(Debug, Serialize)]
struct PieceView {
    board: String,
    piece: String,
    square: String,
}

/// One move as the page needs it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveView {
    /// For castling the rook's square, accepted as a drop target too.
    alt: String,
    capture: bool,
    castle: bool,
    from: String,
    from_board: String,
    /// The promotion piece's letter.
    promo: Option<String>,
    san: String,
    /// Where the moved piece lands (the king's cell for castling).
    to: String,
    to_board: String,
    /// Wide UCI text.
    uci: String,
}

/// A move of the shown line.
#[derive(Debug, Serialize)]
struct LineMove<'a> {
    node: usize,
    san: &'a str,
    uci: &'a str,
}

/// A node of the move tree.
#[derive(Debug, Serialize)]
struct NodeView<'a> {
    children: &'a [usize],
    /// The mover's clock after the move, from the PGN's `[%clk]` (`3:12`, `1:03:12`).
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<String>,
    comment: Option<&'a str>,
    /// The PGN's `[%eval]` after the move, as written (`0.31`, `#-2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    eval: Option<&'a str>,
    /// The same in centipawns from White's side (mates near ±10000).
    #[serde(rename = "evalCp", skip_serializing_if = "Option::is_none")]
    eval_cp: Option<i32>,
    id: usize,
    /// The move's NAGs: its mark (`!` 1 … `?!` 6) first.
    nags: &'a [u8],
    parent: Option<usize>,
    ply: usize,
    san: &'a str,
    uci: &'a str,
}

/// An engine line; scores from White's view.
#[derive(Debug, Serialize)]
struct LineView {
    /// Its first move.
    best: Option<MoveView>,
    cp: Option<i32>,
    depth: u32,
    multipv: u32,
    nodes: Option<u64>,
    nps: Option<u64>,
    /// The legal prefix of the variation.
    pv: Vec<PvMove>,
    /// `+0.35`, `#-3`.
    score: Option<String>,
}

/// A move of an engine line.
#[derive(Debug, Serialize)]
struct PvMove {
    san: String,
    uci: String,
}

/// The game's end at the shown node: `1-0` and why.
#[derive(Debug, Serialize)]
struct ResultView<'a> {
    result: &'a str,
    text: &'a str,
}

/// The search in progress: analysis or a move search, by which engine, for which side.
#[derive(Debug, Serialize)]
struct Thinking<'a> {
    analysis: bool,
    engine: &'a str,
    side: &'static str,
}

/// An engine slot in use.
#[derive(Debug, Serialize)]
struct EngineView<'a> {
    /// The range of its `UCI_Elo` (`[600, 2800]`), when it lists one.
    #[serde(rename = "eloRange")]
    elo_range: Option<[i64; 2]>,
    failed: Option<&'a str>,
    index: usize,
    name: &'a str,
    options: &'a [String],
    ready: bool,
}

/// The clocks in milliseconds.
#[derive(Debug, Serialize)]
struct ClocksView {
    black: i64,
    running: bool,
    turn: &'static str,
    white: i64,
}

fn side_name(side: Color) -> &'static str {
    if side == Color::White {
        "white"
    } else {
        "black"
    }
}

fn piece_code(p: Piece) -> String {
    let c = if p.color() == Color::White { 'w' } else { 'b' };
    let k = if p.kind() == PieceKind::Pawn {
        'p'
    } else {
        p.kind().letter()
    };
    format!("{c}{k}")
}

fn board_letter(b: BoardId) -> String {
    b.letter().to_string()
}

/// Every piece of `pos`.
fn pieces(pos: &Position) -> Vec<PieceView> {
    let mut out = Vec::new();
    for &board in pos.boards() {
        for sq in Square::all() {
            if let Some(p) = pos.piece_on(board, sq) {
                out.push(PieceView {
                    board: board_letter(board),
                    piece: piece_code(p),
                    square: sq.to_string(),
                });
            }
        }
    }
    out
}

/// Where the moved piece ends (the king's cell for castling).
fn landing(pos: &Position, mv: Move) -> (Square, BoardId) {
    if mv.is_castle() {
        let after = pos.after(mv);
        let us = pos.side_to_move();
        (after.king_square(us), after.king_board(us))
    } else {
        (mv.to(), mv.to_board())
    }
}

/// One move as the page needs it.
fn move_view(pos: &Position, mv: Move) -> MoveView {
    let (to, to_board) = landing(pos, mv);
    MoveView {
        alt: mv.to().to_string(),
        capture: mv.is_capture(),
        castle: mv.is_castle(),
        from: mv.from().to_string(),
        from_board: board_letter(mv.from_board()),
        promo: mv.promotion().map(|k| k.letter().to_string()),
        san: pos.move_to_san(mv),
        to: to.to_string(),
        to_board: board_letter(to_board),
        uci: pos.move_to_wide(mv),
    }
}

/// The checked king's cell of `pos`, if the side to move is in check.
fn check_cell(pos: &Position) -> Option<Cell> {
    pos.in_check().then(|| {
        let us = pos.side_to_move();
        Cell {
            board: board_letter(pos.king_board(us)),
            square: pos.king_square(us).to_string(),
        }
    })
}

impl PageSession {
    /// The move tree for the page: every node of the game in PGN order.
    fn node_views(&self) -> Vec<NodeView<'_>> {
        self.tree
            .preorder()
            .into_iter()
            .map(|id| {
                let n = self.tree.node(id);
                NodeView {
                    children: &n.children,
                    clock: n.clk.as_deref().and_then(clock_text),
                    comment: n.comment.as_deref(),
                    eval: n.eval.as_deref(),
                    eval_cp: n.eval.as_deref().and_then(eval_cp),
                    id,
                    nags: &n.nags,
                    parent: n.parent,
                    ply: n.ply,
                    san: &n.san,
                    uci: &n.uci,
                }
            })
            .collect()
    }

    /// True when the page may see the engine's word on `pos`: it is about `pos` (kept after the
    /// search stops), and the person does not play the engine without asking to see it.
    fn analysis_shown(&self, pos: &Position) -> bool {
        !self.engine_hidden() && self.analysis.position.as_ref() == Some(pos)
    }

    /// The analysis lines about the shown position.
    fn line_views(&self, pos: &Position) -> Vec<LineView> {
        if !self.analysis_shown(pos) {
            return Vec::new();
        }
        self.analysis
            .lines
            .values()
            .map(|l| {
                let pv = pv_moves(pos, &l.pv)
                    .into_iter()
                    .map(|(san, uci)| PvMove { san, uci })
                    .collect();
                let first = pos.parse_uci(l.pv.first().map_or("", String::as_str)).ok();
                LineView {
                    best: first.map(|mv| move_view(pos, mv)),
                    cp: l.score.map(|s| white_centipawns(s, pos.side_to_move())),
                    depth: l.depth,
                    multipv: l.multipv,
                    nodes: l.nodes,
                    nps: l.nps,
                    pv,
                    score: l.score.map(|s| score_text(s, pos.side_to_move())),
                }
            })
            .collect()
    }

    /// The whole view of the session for the page.
    pub fn view(&self) -> View<'_> {
        let pos = self.shown();
        let rules = pos.rules();
        let legal = if self.person_may_move() {
            pos.legal_moves().iter().map(|&mv| move_view(pos, mv)).collect()
        } else {
            Vec::new()
        };
        let node = self.tree.node(self.cursor);
        let last = node
            .parent
            .zip(node.mv)
            .map(|(p, mv)| move_view(&self.tree.node(p).position, mv));
        let line = self.tree.line(self.cursor);
        let moves = line[1..]
            .iter()
            .map(|&id| {
                let n = self.tree.node(id);
                LineMove {
                    node: id,
                    san: &n.san,
                    uci: &n.uci,
                }
            })
            .collect();
        let thinking = self.search.as_ref().map(|s| Thinking {
            analysis: s.analysis,
            engine: &self.engine[s.slot].name,
            side: side_name(s.position.side_to_move()),
        });
        let engines = self
            .engine
            .iter()
            .enumerate()
            .filter(|(slot, _)| self.engine_in_use(*slot))
            .map(|(_, e)| EngineView {
                elo_range: e.elo_range.map(|(lo, hi)| [lo, hi]),
                failed: e.failed.as_deref(),
                index: e.index,
                name: &e.name,
                options: &e.options,
                ready: e.ready,
            })
            .collect();
        let clocks = self.clock_now().map(|left| {
            let c = self.clocks.as_ref();
            ClocksView {
                black: left[1],
                running: c.is_some_and(|c| c.since.is_some()),
                turn: if c.is_some_and(|c| c.turn == Color::Black) {
                    "black"
                } else {
                    "white"
                },
                white: left[0],
            }
        });
        let human = match self.settings.mode {
            Mode::Play { human } => Some(side_name(human)),
            _ => None,
        };
        let (game_result, _) = self.game_result();
        View {
            boards: rules.boards(),
            check: check_cell(pos),
            chess960: rules.is_chess960(),
            clocks,
            configured_engines: self.engines.iter().map(|e| e.name.as_str()).collect(),
            cursor: line.iter().position(|&n| n == self.cursor).unwrap_or(0),
            en_passant: rules.ep_mode().name(),
            engine_hidden: self.engine_hidden(),
            engines,
            fen: pos.to_fen(),
            files: rules.variant.files(),
            game_result,
            human,
            last,
            legal,
            lines: self.line_views(pos),
            main_line: self.tree.on_main_line(self.cursor),
            message: self.message.as_deref(),
            mode: self.settings.mode.name(),
            moves,
            node: self.cursor,
            nodes: self.node_views(),
            pgn: self.pgn_text(),
            pgn_clocks: self.pgn_clocks(),
            pieces: pieces(pos),
            players: &self.players,
            result: self.result.as_ref().map(|(result, text)| ResultView { result, text }),
            review: self.review_view(),
            show_engine: self.show_engine,
            start_black: self.tree.start().side_to_move() == Color::Black,
            start_move: self.tree.start().fullmove_number(),
            status: self.status_text(),
            tablebase: self.analysis.tablebase.as_deref().filter(|_| self.analysis_shown(pos)),
            thinking,
            turn: side_name(pos.side_to_move()),
            variant: rules.variant.name(),
            variants: self.variant_names(),
            version: self.version,
        }
    }

    /// Each side's `[%clk]` after its latest move up to the shown node.
    fn pgn_clocks(&self) -> Option<[Option<String>; 2]> {
        let mut clocks = [None, None];
        for id in self.tree.path(self.cursor) {
            let n = self.tree.node(id);
            if let (Some(clk), Some(parent)) = (&n.clk, n.parent) {
                let mover = self.tree.node(parent).position.side_to_move();
                clocks[mover.index()] = clock_text(clk);
            }
        }
        let any = self
            .tree
            .preorder()
            .into_iter()
            .any(|id| self.tree.node(id).clk.is_some());
        any.then_some(clocks)
    }

    /// The one-line status: result, an engine's failure, or whose turn it is. (Errors of
    /// commands are sent apart, as `message`, so the page shows them in one place.)
    fn status_text(&self) -> String {
        let pos = self.shown();
        let side = if pos.side_to_move() == Color::White {
            "White"
        } else {
            "Black"
        };
        if let Some((r, why)) = &self.result {
            return format!("{why} ({r})");
        }
        if let Some(r) = self.imported_result_at(self.cursor) {
            let who = match r {
                "1-0" => "White won",
                "0-1" => "Black won",
                "1/2-1/2" => "Drawn",
                _ => "Ended",
            };
            return format!("{who} ({r}, the imported game's result)");
        }
        let check = if pos.in_check() { " (check)" } else { "" };
        match (&self.alert, &self.search) {
            (Some(m), _) => format!("{side} to move{check} — {m}"),
            (None, Some(s)) if !s.analysis => {
                format!("{side} to move{check}: {} is thinking", self.engine[s.slot].name)
            }
            _ => format!("{side} to move{check}"),
        }
    }
}
