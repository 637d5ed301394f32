//! Direct, self and reflex play (`#n`, `=n`, `s#n`, `s=n`, `r#n`, `semi-r#n`): keys, tries with
//! their refutations, and
//! the threat and variation tree (Popeye's `option try` and `option vari`).
//!
//! `wins(p, n)`: the attacker, to move in `p`, reaches the goal within `n` of its moves against
//! every defence. In direct play the attacker's last move reaches the goal; in self play the
//! defender's move does (the defender, forced to mate, avoids it as long as it can). Both are
//! full-width AND/OR searches; the proof table remembers, per position, the shortest length
//! proven to win and the longest proven to fail, so transpositions and the repeated calls of
//! the variation tree cost nothing.

use super::goal::{goal_reached, has_goal_move, may_give_check, may_have_check, may_reach};
use super::stipulation::{Goal, Play, Stipulation};
use super::table::ProofTable;
use super::{NodeCounter, SolveControl, SolveOptions};
use crate::tablebase::{Tablebases, Wdl};
use crate::types::Move;
use crate::Position;
use rayon::prelude::*;

/// An attacker's move and the play after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackLine {
    /// The move.
    pub mv: Move,
    /// The number of moves (this one included) within which it wins (for a try: the
    /// stipulated number).
    pub length: u32,
    /// With variations: the threats (the attacker's moves that would win in the fewest moves
    /// if the defender could pass), each with its own play. Empty when the defender is in
    /// check after `mv`, or in zugzwang (no threat), or without variations.
    pub threats: Vec<AttackLine>,
    /// With variations: the defences shown (those that defeat at least one threat, all of
    /// them without a threat), each with the attacker's shortest winning continuations.
    pub defences: Vec<DefenceLine>,
    /// For a try: the defences that refute it.
    pub refutations: Vec<Move>,
}

/// A defence and the attacker's continuations that still win, all of the shortest length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefenceLine {
    /// The defender's move.
    pub mv: Move,
    /// The attacker's winning replies.
    pub replies: Vec<AttackLine>,
}

/// The keys and tries of a direct or self play problem, in move generation order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DirectSolution {
    /// The first moves that win within the stipulated length.
    pub keys: Vec<AttackLine>,
    /// With tries: first moves refuted by at least one and at most `max_refutations` defences.
    pub tries: Vec<AttackLine>,
    /// Reflex play (`r#n`) whose attacker can reach the goal at once: those moves, which it
    /// must play, so the problem has no solution (Popeye prints them with `?!?`).
    pub forced: Vec<Move>,
    /// Reflex play's goal: after a try's refutation, the attacker's moves that reach it at
    /// once are forced, and that is why the try fails (Popeye prints them with `?!?`).
    pub reflex_goal: Option<Goal>,
}

/// The position after the legal move `mv` (the solver only plays generated legal moves, so the
/// debug re-check of every make is left to the engine's own tests: it would dominate here).
#[inline(always)]
pub(crate) fn child(pos: &Position, mv: Move) -> Position {
    let mut next = *pos;
    next.make_unchecked(mv);
    next
}

/// The move of `moves` that plays the same piece between the same cells as `mv` (a threat
/// stays the same threat when the defence has removed or added the piece on its target).
fn same_move_in(moves: &[Move], mv: Move) -> Option<Move> {
    moves.iter().copied().find(|m| m.same_play(mv))
}

/// One thread's prover.
struct Prover<'a> {
    play: Play,
    goal: Goal,
    pruning: bool,
    variations: bool,
    table: &'a ProofTable,
    /// Endgame tables, present only for direct mates with the prunings on (see
    /// [`Prover::table_mate`]).
    tablebases: Option<&'a Tablebases>,
    /// Popeye's `Threat t` (see [`SolveOptions::max_threat`]).
    max_threat: Option<u32>,
    nodes: NodeCounter<'a>,
}

impl Prover<'_> {
    /// The endgame tables' verdict on `p` for a direct mate: the number of moves in which the
    /// side to move mates by force (`Some(Some(d))`), cannot (`Some(None)`: a draw or a loss),
    /// or `None` when the tables do not cover `p` (more men, other rules, no file). Exact: the
    /// tables hold the shortest forced mate under the same rules, counted as problemists count,
    /// and ignore the fifty-move rule as problems do.
    fn table_mate(&self, p: &Position) -> Option<Option<u32>> {
        let probe = self.tablebases?.probe(p).ok()??;
        Some((probe.wdl == Wdl::Win).then(|| probe.dtm()).flatten())
    }

    /// The tables' verdict on `q`, the defender to move after the attacker's move that began
    /// `n` moves: whether the attacker mates within the `n - 1` moves left (`None`: no table).
    fn table_defender_loses(&self, q: &Position, n: u32) -> Option<bool> {
        let probe = self.tablebases?.probe(q).ok()??;
        Some(probe.wdl == Wdl::Loss && probe.dtm().is_some_and(|d| d < n))
    }

    /// True when the attacker, to move in `p`, wins within `n` moves.
    fn wins(&self, p: &Position, n: u32) -> bool {
        if n == 0 || !self.nodes.tick() {
            return false;
        }
        if let Some(mate) = self.table_mate(p) {
            return mate.is_some_and(|d| d <= n);
        }
        // Proven results: the shortest win and the longest failure known for this position.
        if self.pruning {
            if let Some(v) = self.table.probe(p.key()) {
                let (win, fail) = (u32::from(v >> 8), u32::from(v & 0xFF));
                if win != 0 && win <= n {
                    return true;
                }
                if fail >= n {
                    return false;
                }
            }
        }
        let result = match self.play {
            Play::Direct => self.direct_attack(p, n),
            // Reflex: an attacker able to reach the goal in one move would have to: it fails.
            Play::Reflex if has_goal_move(p, self.goal, self.pruning) => false,
            _ => self.self_attack(p, n),
        };
        if self.pruning && !self.nodes.control.stopped() {
            let n = n.min(255) as u16;
            self.table.update(p.key(), |old| {
                let old = old.unwrap_or(0);
                let (mut win, mut fail) = (old >> 8, old & 0xFF);
                if result {
                    win = if win == 0 { n } else { win.min(n) };
                } else {
                    fail = fail.max(n);
                }
                (win << 8) | fail
            });
        }
        result
    }

    /// Direct play: some move wins. Checks are tried first (they leave the defender the
    /// fewest replies); at the last move only a move that may reach the goal is made.
    fn direct_attack(&self, p: &Position, n: u32) -> bool {
        if n == 1 && self.pruning && self.goal == Goal::Mate && !may_have_check(p) {
            // The last move must mate, and no move here can even give check.
            return false;
        }
        let moves = p.legal_moves();
        if n == 1 {
            // The last move must reach the goal; for mate only a checking move can.
            return moves
                .iter()
                .any(|&m| (!self.pruning || may_reach(p, m, self.goal)) && goal_reached(&child(p, m), self.goal));
        }
        let mut quiet = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            if may_give_check(p, m) {
                let q = child(p, m);
                if q.in_check() {
                    if self.defender_loses(&q, n) {
                        return true;
                    }
                    continue;
                }
            }
            quiet.push(m);
        }
        quiet.into_iter().any(|m| self.defender_loses(&child(p, m), n))
    }

    /// Self play: some move leaves the defender only losing replies.
    fn self_attack(&self, p: &Position, n: u32) -> bool {
        p.legal_moves().iter().any(|&m| self.defender_loses(&child(p, m), n))
    }

    /// Popeye's `Threat t`: the attacker's move (made: `q`, which began `n` moves) is not
    /// tried when `t` or more of the attacker's moves follow it and it neither checks nor
    /// threatens to win within `t` moves.
    fn lacks_short_threat(&self, q: &Position, n: u32) -> bool {
        let Some(t) = self.max_threat else {
            return false;
        };
        if n - 1 < t || q.in_check() {
            return false;
        }
        let mut passed = *q;
        passed.make_null_move();
        !self.wins(&passed, t)
    }

    /// The defender is to move in `q` after the attacker's move, which began `n` moves.
    fn defender_loses(&self, q: &Position, n: u32) -> bool {
        if self.lacks_short_threat(q, n) {
            return false;
        }
        let moves = q.legal_moves();
        match self.play {
            Play::Direct => {
                if moves.is_empty() {
                    return q.in_check() == (self.goal == Goal::Mate);
                }
                if let Some(lost) = self.table_defender_loses(q, n) {
                    return lost;
                }
                n > 1 && moves.iter().all(|&d| self.wins(&child(q, d), n - 1))
            }
            Play::Reflex | Play::SemiReflex => {
                if moves.is_empty() {
                    return false;
                }
                // A defender that can reach the goal in one move must: the attacker wins.
                if has_goal_move(q, self.goal, self.pruning) {
                    return true;
                }
                n > 1 && moves.iter().all(|&d| self.wins(&child(q, d), n - 1))
            }
            _ => {
                if moves.is_empty() {
                    return false;
                }
                // Every last defence must mate: none can when no move can give check.
                if n == 1 && self.pruning && self.goal == Goal::Mate && !may_have_check(q) {
                    return false;
                }
                // At the last move every defence must reach the goal: a move that cannot
                // give check refutes a self mate at once.
                if n == 1 && self.pruning && moves.iter().any(|&d| !may_reach(q, d, self.goal)) {
                    return false;
                }
                moves.iter().all(|&d| self.defence_fails(q, d, n))
            }
        }
    }

    /// True when the defence `d` (in `q`, the attacker's move having begun `n` moves) loses.
    fn defence_fails(&self, q: &Position, d: Move, n: u32) -> bool {
        let r = child(q, d);
        match self.play {
            Play::Direct => self.wins(&r, n - 1),
            _ => goal_reached(&r, self.goal) || (n > 1 && self.wins(&r, n - 1)),
        }
    }

    /// The attacker's moves in `p` that win within exactly `n` moves or fewer.
    fn winning_moves(&self, p: &Position, n: u32) -> Vec<Move> {
        p.legal_moves()
            .into_iter()
            .filter(|&m| self.defender_loses(&child(p, m), n))
            .collect()
    }

    /// The shortest length `s <= max` in which the attacker wins from `p`, with its moves.
    fn shortest_win(&self, p: &Position, max: u32) -> Option<(u32, Vec<Move>)> {
        (1..=max).find_map(|s| {
            let moves = self.winning_moves(p, s);
            (!moves.is_empty()).then_some((s, moves))
        })
    }

    /// The play after the attacker's move `mv` (made: `q`), which began `n` moves.
    fn attack_line(&self, mv: Move, q: &Position, n: u32, refutations: Vec<Move>) -> AttackLine {
        let mut line = AttackLine {
            mv,
            length: n,
            threats: Vec::new(),
            defences: Vec::new(),
            refutations,
        };
        if !self.variations
            || !matches!(
                self.play,
                Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex
            )
        {
            return line;
        }
        let defences = q.legal_moves();
        if defences.is_empty() || (n <= 1 && self.play == Play::Direct) {
            return line;
        }
        // Self and reflex play end with the defender's goal: at the last move (in self play
        // every move reaches it), and in reflex play as soon as it can (it must).
        let reflex = matches!(self.play, Play::Reflex | Play::SemiReflex);
        if n <= 1 || (reflex && has_goal_move(q, self.goal, self.pruning)) {
            line.defences = self
                .goal
                .moves_reaching(q)
                .into_iter()
                .map(|d| DefenceLine {
                    mv: d,
                    replies: Vec::new(),
                })
                .collect();
            // The defender's goal comes at once: the line is a one-mover.
            line.length = 1;
            return line;
        }
        // The threat: what the attacker would do if the defender could pass.
        let mut threat_len = None;
        if !q.in_check() {
            let mut passed = *q;
            passed.make_null_move();
            if let Some((t, moves)) = self.shortest_win(&passed, n - 1) {
                threat_len = Some(t);
                line.threats = moves
                    .into_iter()
                    .map(|m| self.attack_line(m, &child(&passed, m), t, Vec::new()))
                    .collect();
            }
        }
        for &d in defences.iter() {
            if line.refutations.contains(&d) {
                continue;
            }
            let r = child(q, d);
            // In self play a defence that reaches the goal before the last move is a win for the
            // attacker that Popeye does not show (a key that wins at once has length 1: its
            // defences are shown above, as the last move).
            if self.play == Play::SelfPlay && goal_reached(&r, self.goal) {
                continue;
            }
            let Some((s, replies)) = self.shortest_win(&r, n - 1) else {
                continue;
            };
            // A defence against which every threat still wins is not shown, nor one after
            // which the attacker wins sooner than it threatened (Popeye's threat enforcer
            // leaves out the variations shorter than the threat).
            if let Some(t) = threat_len {
                if s < t {
                    continue;
                }
                let replies_here = r.legal_moves();
                let threats_hold = line.threats.iter().all(|threat| {
                    same_move_in(&replies_here, threat.mv).is_some_and(|m| self.defender_loses(&child(&r, m), t))
                });
                if threats_hold {
                    continue;
                }
            }
            let replies = replies
                .into_iter()
                .map(|m| self.attack_line(m, &child(&r, m), s, Vec::new()))
                .collect();
            line.defences.push(DefenceLine { mv: d, replies });
        }
        line
    }
}

/// What one root move turned out to be.
enum RootResult {
    Key(AttackLine),
    Try(AttackLine),
    Neither,
}

/// Solves a direct or self play stipulation from `pos`.
pub(crate) fn solve_direct(
    pos: &Position,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> DirectSolution {
    let table = ProofTable::new(if options.pruning { options.table_bits } else { 16 });
    let n = stipulation.moves;
    let prover = || Prover {
        play: stipulation.play,
        goal: stipulation.goal,
        pruning: options.pruning,
        variations: options.variations,
        table: &table,
        // The tables answer "the side to move forces mate", so only direct mates use them.
        // (Not under `Threat`: it leaves out winning lines the tables would count.)
        tablebases: options.tablebases.as_deref().filter(|_| {
            options.pruning
                && options.max_threat.is_none()
                && stipulation.play == Play::Direct
                && stipulation.goal == Goal::Mate
        }),
        max_threat: options.max_threat,
        nodes: NodeCounter::new(control),
    };
    // Reflex play: an attacker that can reach the goal at once must, so nothing is a key.
    if stipulation.play == Play::Reflex && has_goal_move(pos, stipulation.goal, options.pruning) {
        return DirectSolution {
            forced: stipulation.goal.moves_reaching(pos),
            ..DirectSolution::default()
        };
    }
    let roots: Vec<Move> = pos.legal_moves().into_iter().collect();
    let results: Vec<RootResult> = roots
        .par_iter()
        .map(|&m| {
            let prover = prover();
            let q = child(pos, m);
            if !prover.nodes.tick() {
                return RootResult::Neither;
            }
            if prover.defender_loses(&q, n) {
                control.found_one(options.max_solutions);
                // The key's play is that of its shortest win (Popeye's continuation solver: a
                // key that wins sooner threatens only what it has time for).
                let shortest = (1..n).find(|&k| prover.defender_loses(&q, k)).unwrap_or(n);
                return RootResult::Key(prover.attack_line(m, &q, shortest, Vec::new()));
            }
            if !options.tries || prover.lacks_short_threat(&q, n) {
                return RootResult::Neither;
            }
            let mut refutations = Vec::new();
            for &d in q.legal_moves().iter() {
                if !prover.defence_fails(&q, d, n) {
                    refutations.push(d);
                    if refutations.len() > options.max_refutations {
                        return RootResult::Neither;
                    }
                }
            }
            if refutations.is_empty() || control.stopped() {
                return RootResult::Neither;
            }
            RootResult::Try(prover.attack_line(m, &q, n, refutations))
        })
        .collect();
    let mut solution = DirectSolution {
        reflex_goal: (stipulation.play == Play::Reflex).then_some(stipulation.goal),
        ..DirectSolution::default()
    };
    for result in results {
        match result {
            RootResult::Key(line) => solution.keys.push(line),
            RootResult::Try(line) => solution.tries.push(line),
            RootResult::Neither => {}
        }
    }
    solution
}
