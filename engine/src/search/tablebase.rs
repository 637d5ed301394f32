//! The endgame tables in the search: at the root the best table move is played with its
//! `mate N` score; inside the tree a position in the tables gets its win, draw or loss as a
//! score in the band just below the mates (`TB_WIN`). A win or loss whose mate is further
//! away than the plies left on the fifty-move clock is taken from the tables only when its
//! material's distance-to-zeroing file shows the next capture or pawn move (or the mate) within them; at
//! the root the winner then plays the move that keeps it soonest. Otherwise the search goes on
//! without the table there. A damaged file is reported once at the root and the search goes on
//! without it.

use super::report::{Bound, Report, Score, SearchInfo, SearchResult};
use super::thread::{RootMove, ThreadState};
use super::{root::wdl, TB_WIN};
use crate::clock::Instant;
use crate::tablebase::{within_fifty_move_clock, MoveProbe, Probe, Tablebases, Wdl, MAX_MEN};
use crate::types::Move;
use crate::Position;

/// Among the winning moves of a root whose mate lies beyond the fifty-move clock, the one that
/// reaches a capture (or the mate) soonest, when that comes within the clock.
fn soonest_safe_win(tb: &Tablebases, pos: &Position, moves: &[MoveProbe]) -> Option<MoveProbe> {
    let clock = pos.halfmove_clock();
    let mut best: Option<(u32, MoveProbe)> = None;
    for m in moves.iter().filter(|m| m.result.wdl == Wdl::Win) {
        let child = pos.after(m.mv);
        let plies = if child.halfmove_clock() == 0 {
            // The move captures: what follows counts from a fresh clock.
            match tb.probe(&child) {
                Ok(Some(p)) if tb.stands_under_fifty_move_rule(&child, p) => 1,
                _ => continue,
            }
        } else {
            match tb.probe_dtz(&child) {
                Ok(Some(z)) => z + 1,
                _ => continue,
            }
        };
        if within_fifty_move_clock(plies, clock) && best.is_none_or(|(b, _)| plies < b) {
            best = Some((plies, *m));
        }
    }
    best.map(|(_, m)| m)
}

/// The reported score of a move's result.
fn score_of(p: Probe) -> Score {
    match (p.wdl, p.dtm()) {
        (Wdl::Win, Some(n)) => Score::Mate(n as i32),
        (Wdl::Loss, Some(n)) => Score::Mate(-(n as i32)),
        _ => Score::Cp(0),
    }
}

/// The line of best table moves from `pos` after `first` (at most `max` moves).
fn table_line(tb: &Tablebases, pos: &Position, first: Move, max: usize) -> Vec<Move> {
    let mut line = vec![first];
    let mut p = pos.after(first);
    while line.len() < max {
        match tb.probe_moves(&p) {
            Ok(Some(moves)) if !moves.is_empty() => {
                line.push(moves[0].mv);
                p = p.after(moves[0].mv);
            }
            _ => break,
        }
    }
    line
}

/// At the root: the best table moves as the search result, or `None` when the tables do
/// not decide the root (not in the tables, a damaged file, or a win the fifty-move rule
/// could turn into a draw).
pub(crate) fn tablebase_root(
    tb: &Tablebases,
    pos: &Position,
    root_moves: &[RootMove],
    multipv: usize,
    start: Instant,
    report: &mut dyn FnMut(Report),
) -> Option<SearchResult> {
    let moves: Vec<MoveProbe> = match tb.probe_moves(pos) {
        Ok(Some(moves)) => moves
            .into_iter()
            .filter(|m| root_moves.iter().any(|r| r.mv == m.mv))
            .collect(),
        Ok(None) => return None,
        Err(e) => {
            report(Report::Note(format!("{e}; searching without the table")));
            return None;
        }
    };
    let mut moves = moves;
    let first = *moves.first()?;
    if !first.result.mate_within_clock(pos.halfmove_clock()) {
        // The quickest mate is beyond the clock: play for the soonest capture when it comes in
        // time, else leave the root to the search.
        let safe = soonest_safe_win(tb, pos, &moves)?;
        moves.retain(|m| m.mv != safe.mv);
        moves.insert(0, safe);
    }
    let best = moves[0];
    let ms = start.elapsed().as_millis() as u64;
    let mut first_pv = Vec::new();
    for (i, m) in moves.iter().take(multipv.max(1)).enumerate() {
        let score = score_of(m.result);
        let pv = table_line(tb, pos, m.mv, m.result.plies.map_or(1, |p| p as usize + 1).min(24));
        if i == 0 {
            first_pv = pv.clone();
            let text = match (m.result.wdl, m.result.dtm()) {
                (Wdl::Win, Some(n)) => format!("tablebase: mate in {n}"),
                (Wdl::Loss, Some(n)) => format!("tablebase: mated in {n}"),
                _ => "tablebase: draw".to_string(),
            };
            report(Report::Note(text));
        }
        report(Report::Info(SearchInfo {
            depth: 1,
            seldepth: pv.len() as u32,
            multipv: i as u32 + 1,
            score,
            bound: Bound::Exact,
            wdl: wdl(score),
            nodes: 0,
            nps: 0,
            hashfull: 0,
            time_ms: ms,
            pv,
        }));
    }
    Some(SearchResult {
        best: Some(best.mv),
        ponder: first_pv.get(1).copied(),
        score: score_of(best.result),
        depth: 1,
        completed_best: Some(best.mv),
        nodes: 0,
    })
}

impl ThreadState<'_> {
    /// The table's score of `pos` at `ply` (not the root), when the tables hold it: a win is
    /// `TB_WIN - ply`, a loss its negation, a draw 0.
    #[inline]
    pub(crate) fn tablebase_score(&self, pos: &Position, ply: usize) -> Option<i32> {
        let tb = self.shared.tablebases?;
        if pos.piece_count() as usize > MAX_MEN {
            return None;
        }
        let p = tb.probe(pos).ok()??;
        if !tb.stands_under_fifty_move_rule(pos, p) {
            return None;
        }
        Some(match p.wdl {
            Wdl::Win => TB_WIN - ply as i32,
            Wdl::Loss => -TB_WIN + ply as i32,
            Wdl::Draw => 0,
        })
    }
}
