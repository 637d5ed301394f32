//! The page's view of a session as JSON: the boards of the shown position (every piece with
//! its board and square), the legal moves a person may make there (from cell, landing cell,
//! SAN, wide UCI text), the last move, check, the move list, clocks, analysis and status.

use super::lines::{pv_moves, score_text, white_centipawns};
use super::session::PageSession;
use super::settings::Mode;
use serde_json::{json, Value};
use vorpal_engine::{BoardId, Color, Move, Piece, PieceKind, Position, Square};

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

/// Every piece of `pos` as `{board, square, piece}`.
fn pieces(pos: &Position) -> Vec<Value> {
    let mut out = Vec::new();
    for &board in pos.boards() {
        for sq in Square::all() {
            if let Some(p) = pos.piece_on(board, sq) {
                out.push(json!({"board": board_letter(board), "square": sq.to_string(), "piece": piece_code(p)}));
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
fn move_json(pos: &Position, mv: Move) -> Value {
    let (to, to_board) = landing(pos, mv);
    json!({
        "from": mv.from().to_string(),
        "fromBoard": board_letter(mv.from_board()),
        "to": to.to_string(),
        "toBoard": board_letter(to_board),
        // For castling the rook's square is accepted as a drop target too.
        "alt": mv.to().to_string(),
        "uci": pos.move_to_wide(mv),
        "san": pos.move_to_san(mv),
        "promo": mv.promotion().map(|k| k.letter().to_string()),
        "capture": mv.is_capture(),
        "castle": mv.is_castle(),
    })
}

/// The checked king's cell of `pos`, if the side to move is in check.
fn check_cell(pos: &Position) -> Option<Value> {
    pos.in_check().then(|| {
        let us = pos.side_to_move();
        json!({"board": board_letter(pos.king_board(us)), "square": pos.king_square(us).to_string()})
    })
}

impl PageSession {
    /// The move tree for the page: every node of the game in PGN order.
    fn nodes_json(&self) -> Vec<Value> {
        self.tree
            .preorder()
            .into_iter()
            .map(|id| {
                let n = self.tree.node(id);
                json!({
                    "id": id,
                    "parent": n.parent,
                    "san": n.san,
                    "uci": n.uci,
                    "ply": n.ply,
                    "comment": n.comment,
                    "children": n.children,
                })
            })
            .collect()
    }

    /// True when the page may see the engine's word on `pos`: it is about `pos` (kept after the
    /// search stops), and the person does not play the engine without asking to see it.
    fn analysis_shown(&self, pos: &Position) -> bool {
        !self.engine_hidden() && self.analysis.position.as_ref() == Some(pos)
    }

    /// The analysis lines about the shown position.
    fn lines_json(&self, pos: &Position) -> Vec<Value> {
        if !self.analysis_shown(pos) {
            return Vec::new();
        }
        self.analysis
            .lines
            .values()
            .map(|l| {
                let pv: Vec<Value> = pv_moves(pos, &l.pv)
                    .into_iter()
                    .map(|(san, uci)| json!({"san": san, "uci": uci}))
                    .collect();
                let first = pos.parse_uci(l.pv.first().map_or("", String::as_str)).ok();
                json!({
                    "multipv": l.multipv,
                    "depth": l.depth,
                    "nodes": l.nodes,
                    "nps": l.nps,
                    "score": l.score.map(|s| score_text(s, pos.side_to_move())),
                    "cp": l.score.map(|s| white_centipawns(s, pos.side_to_move())),
                    "pv": pv,
                    "best": first.map(|mv| move_json(pos, mv)),
                })
            })
            .collect()
    }

    /// The whole view of the session for the page.
    pub fn view(&self) -> Value {
        let pos = self.shown();
        let rules = pos.rules();
        let legal: Vec<Value> = if self.person_may_move() {
            pos.legal_moves().iter().map(|&mv| move_json(pos, mv)).collect()
        } else {
            Vec::new()
        };
        let node = self.tree.node(self.cursor);
        let last = node
            .parent
            .zip(node.mv)
            .map(|(p, mv)| move_json(&self.tree.node(p).position, mv));
        let line = self.tree.line(self.cursor);
        let moves: Vec<Value> = line[1..]
            .iter()
            .map(|&id| {
                let n = self.tree.node(id);
                json!({"san": n.san, "uci": n.uci, "node": id})
            })
            .collect();
        let hidden = self.engine_hidden();
        let thinking = self.search.as_ref().map(|s| {
            json!({"analysis": s.analysis, "engine": self.engine[s.slot].name, "side": if s.position.side_to_move() == Color::White {"white"} else {"black"}})
        });
        let engines: Vec<Value> = self
            .engine
            .iter()
            .enumerate()
            .filter(|(slot, _)| self.engine_in_use(*slot))
            .map(|(_, e)| json!({"index": e.index, "name": e.name, "ready": e.ready, "failed": e.failed, "options": e.options}))
            .collect();
        let configured: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
        let clocks = self.clock_now().map(|left| {
            let c = self.clocks.as_ref();
            json!({
                "white": left[0],
                "black": left[1],
                "running": c.is_some_and(|c| c.since.is_some()),
                "turn": if c.is_some_and(|c| c.turn == Color::Black) { "black" } else { "white" },
            })
        });
        let human = match self.settings.mode {
            Mode::Play { human } => Some(if human == Color::White { "white" } else { "black" }),
            _ => None,
        };
        let (game_result, _) = self.game_result();
        json!({
            "version": self.version,
            "variant": rules.variant.name(),
            "chess960": rules.is_chess960(),
            "enPassant": rules.ep_mode().name(),
            "boards": rules.boards(),
            "files": rules.variant.files(),
            "turn": if pos.side_to_move() == Color::White { "white" } else { "black" },
            "pieces": pieces(pos),
            "legal": legal,
            "last": last,
            "check": check_cell(pos),
            "fen": pos.to_fen(),
            "moves": moves,
            "cursor": line.iter().position(|&n| n == self.cursor).unwrap_or(0),
            "node": self.cursor,
            "nodes": self.nodes_json(),
            "mainLine": self.tree.on_main_line(self.cursor),
            "startMove": self.tree.start().fullmove_number(),
            "startBlack": self.tree.start().side_to_move() == Color::Black,
            "result": self.result.as_ref().map(|(r, why)| json!({"result": r, "text": why})),
            "gameResult": game_result,
            "message": self.message,
            "mode": self.settings.mode.name(),
            "human": human,
            "engineHidden": hidden,
            "showEngine": self.show_engine,
            "thinking": thinking,
            "lines": self.lines_json(pos),
            "tablebase": self.analysis.tablebase.as_ref().filter(|_| self.analysis_shown(pos)),
            "clocks": clocks,
            "engines": engines,
            "configuredEngines": configured,
            "variants": self.variant_names(),
            "players": self.players,
            "pgn": self.pgn_text(),
            "review": self.review_json(),
            "status": self.status_text(),
        })
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
