//! The game as a tree of moves, as on lichess: every node is a position reached by one move
//! from its parent; a node's first child continues its line (the main line from the root),
//! the others are variations. A move made in an earlier position adds a variation and keeps
//! what was there; variations can be promoted or deleted. Each node keeps its SAN (with `/A`),
//! its wide UCI text and a comment.

use vorpal_client::arbiter::Arbiter;
use vorpal_engine::game::outcome;
use vorpal_engine::{EndReason, GameResult, Move, Position};

/// One position of the tree and the move that reached it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The node this move was played from (None for the root, the start position).
    pub parent: Option<usize>,
    /// The move that reached this node (None for the root).
    pub mv: Option<Move>,
    /// The move's SAN with the Alice `/A` suffix ("" for the root).
    pub san: String,
    /// The move's wide UCI text ("" for the root).
    pub uci: String,
    /// The position after the move.
    pub position: Position,
    /// Continuations: the first continues the line, the others are variations.
    pub children: Vec<usize>,
    /// The comment after the move (before the first move for the root).
    pub comment: Option<String>,
    /// The move's NAGs in PGN order: its mark (`!` 1 … `?!` 6) and any others (`$14`).
    pub nags: Vec<u8>,
    /// Moves from the start position.
    pub ply: usize,
    /// The mover's clock after the move, as a PGN `[%clk]` command wrote it (`0:03:12`).
    pub clk: Option<String>,
    /// The evaluation after the move, as a PGN `[%eval]` command wrote it (`0.31`, `#-2`).
    pub eval: Option<String>,
}

/// A game with its variations. Node 0 is the start position; deleted nodes stay in the arena
/// but are reachable from no node.
#[derive(Clone, Debug)]
pub struct GameTree {
    nodes: Vec<Node>,
}

impl GameTree {
    /// A tree holding only `start`.
    pub fn new(start: Position) -> GameTree {
        GameTree {
            nodes: vec![Node {
                parent: None,
                mv: None,
                san: String::new(),
                uci: String::new(),
                position: start,
                children: Vec::new(),
                comment: None,
                nags: Vec::new(),
                ply: 0,
                clk: None,
                eval: None,
            }],
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.nodes[0].position
    }

    /// Node `id` (the root when `id` is out of range).
    pub fn node(&self, id: usize) -> &Node {
        self.nodes.get(id).unwrap_or(&self.nodes[0])
    }

    /// True when `id` is a node reachable from the root.
    pub fn contains(&self, id: usize) -> bool {
        let mut at = id;
        loop {
            let Some(n) = self.nodes.get(at) else { return false };
            match n.parent {
                None => return at == 0,
                Some(p) => {
                    if !self.nodes[p].children.contains(&at) {
                        return false;
                    }
                    at = p;
                }
            }
        }
    }

    /// Sets the comment of node `id` (an empty text removes it).
    pub fn set_comment(&mut self, id: usize, text: &str) {
        if let Some(n) = self.nodes.get_mut(id) {
            let t = text.trim();
            n.comment = (!t.is_empty()).then(|| t.to_string());
        }
    }

    /// Sets the move mark of node `id` (a NAG 1-6, or None to remove it); its other NAGs stay.
    pub fn set_mark(&mut self, id: usize, mark: Option<u8>) {
        if let Some(n) = self.nodes.get_mut(id) {
            n.nags.retain(|&g| !(1..=6).contains(&g));
            if let Some(m) = mark {
                n.nags.insert(0, m);
            }
        }
    }

    /// Adds a NAG to node `id` (a second move mark replaces the first).
    pub fn add_nag(&mut self, id: usize, nag: u8) {
        if (1..=6).contains(&nag) {
            self.set_mark(id, Some(nag));
        } else if let Some(n) = self.nodes.get_mut(id) {
            if !n.nags.contains(&nag) {
                n.nags.push(nag);
            }
        }
    }

    /// Sets node `id`'s `[%clk]` and `[%eval]` values where given.
    pub fn set_commands(&mut self, id: usize, clk: Option<String>, eval: Option<String>) {
        if let Some(n) = self.nodes.get_mut(id) {
            n.clk = clk.or(n.clk.take());
            n.eval = eval.or(n.eval.take());
        }
    }

    /// Adds `comment` to node `id`'s comment (an empty one adds nothing).
    pub fn append_comment(&mut self, id: usize, comment: &str) {
        let comment = comment.trim();
        if comment.is_empty() {
            return;
        }
        if let Some(n) = self.nodes.get_mut(id) {
            n.comment = Some(match n.comment.take() {
                Some(c) => format!("{c} {comment}"),
                None => comment.to_string(),
            });
        }
    }

    /// Plays `mv` (legal in node `parent`'s position) and returns the child: the existing one
    /// when the move was already there, otherwise a new last child (a variation when the
    /// position had a continuation).
    pub fn add(&mut self, parent: usize, mv: Move) -> usize {
        if let Some(&c) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].mv == Some(mv))
        {
            return c;
        }
        let before = self.nodes[parent].position;
        let node = Node {
            parent: Some(parent),
            mv: Some(mv),
            san: before.move_to_san(mv),
            uci: before.move_to_wide(mv),
            position: before.after(mv),
            children: Vec::new(),
            comment: None,
            nags: Vec::new(),
            ply: self.nodes[parent].ply + 1,
            clk: None,
            eval: None,
        };
        self.nodes.push(node);
        let id = self.nodes.len() - 1;
        self.nodes[parent].children.push(id);
        id
    }

    /// The nodes from the root to `id`, both included.
    pub fn path(&self, id: usize) -> Vec<usize> {
        let mut out = vec![id];
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            out.push(p);
            at = p;
        }
        out.reverse();
        out
    }

    /// The moves from the start position to `id`.
    pub fn moves_to(&self, id: usize) -> Vec<Move> {
        self.path(id).iter().filter_map(|&n| self.nodes[n].mv).collect()
    }

    /// The last node of `id`'s line (following first children).
    pub fn line_end(&self, id: usize) -> usize {
        let mut at = id;
        while let Some(&c) = self.nodes[at].children.first() {
            at = c;
        }
        at
    }

    /// The nodes of `id`'s whole line: the root to `id`, then first children to the end.
    pub fn line(&self, id: usize) -> Vec<usize> {
        let mut out = self.path(id);
        let mut at = id;
        while let Some(&c) = self.nodes[at].children.first() {
            out.push(c);
            at = c;
        }
        out
    }

    /// The main line's nodes after the root.
    #[cfg(test)]
    pub fn main_line(&self) -> Vec<usize> {
        self.line(0)[1..].to_vec()
    }

    /// True when `id` lies on the main line.
    pub fn on_main_line(&self, id: usize) -> bool {
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            if self.nodes[p].children.first() != Some(&at) {
                return false;
            }
            at = p;
        }
        true
    }

    /// The referee's game from the start to `id` (for the engine's `position` command).
    pub fn arbiter_to(&self, id: usize) -> Arbiter {
        let mut a = Arbiter::new(*self.start());
        for mv in self.moves_to(id) {
            a.play(mv);
        }
        a
    }

    /// How the game ends at `id` by the rules (mate, stalemate, repetition, fifty moves, bare
    /// kings), if it does.
    pub fn outcome_at(&self, id: usize) -> Option<(GameResult, EndReason)> {
        let path = self.path(id);
        let history: Vec<Position> = path[..path.len() - 1].iter().map(|&n| self.nodes[n].position).collect();
        outcome(&self.nodes[id].position, &history)
    }

    /// Makes the variation holding `id` the continuation at its branching point (one step up,
    /// as on lichess); returns false when `id` is on its parent's main continuation all the way.
    pub fn promote(&mut self, id: usize) -> bool {
        let mut at = id;
        while let Some(p) = self.nodes[at].parent {
            let children = &mut self.nodes[p].children;
            if let Some(i) = children.iter().position(|&c| c == at).filter(|&i| i > 0) {
                let c = children.remove(i);
                children.insert(0, c);
                return true;
            }
            at = p;
        }
        false
    }

    /// Removes `id` and everything after it; returns its parent (None for the root, which
    /// cannot be removed).
    pub fn delete(&mut self, id: usize) -> Option<usize> {
        let parent = self.nodes.get(id)?.parent?;
        self.nodes[parent].children.retain(|&c| c != id);
        Some(parent)
    }

    /// True when node `id` lies in the subtree of `root` (or is `root`).
    pub fn is_under(&self, id: usize, root: usize) -> bool {
        self.path(id).contains(&root)
    }

    /// Number of reachable nodes other than the root.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![0];
        while let Some(n) = stack.pop() {
            count += self.nodes[n].children.len();
            stack.extend(&self.nodes[n].children);
        }
        count
    }

    /// The reachable nodes in PGN order (each node, then its continuation's variations...):
    /// depth first with the first child first.
    pub fn preorder(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![0];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.nodes[n].children.iter().rev());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::numbered;

    fn play(t: &mut GameTree, at: usize, san: &str) -> usize {
        let mv = t.node(at).position.parse_move(san).unwrap();
        t.add(at, mv)
    }

    fn names(t: &GameTree, ids: Vec<usize>) -> Vec<String> {
        ids.iter().map(|&n| t.node(n).san.clone()).collect()
    }

    #[test]
    fn a_move_in_an_earlier_position_keeps_the_line() {
        let mut t = GameTree::new(Position::startpos());
        let mut at = 0;
        for san in ["Nf3", "e6", "Ne5/A", "Bc5", "Nxf7", "Bg1/A"] {
            at = play(&mut t, at, san);
        }
        let e6 = t.main_line()[1];
        let d4 = play(&mut t, e6, "d4");
        assert_eq!(names(&t, t.main_line()), ["Nf3", "e6", "Ne5/A", "Bc5", "Nxf7", "Bg1/A"]);
        assert_eq!(names(&t, t.line(d4)[1..].to_vec()), ["Nf3", "e6", "d4"]);
        assert!(!t.on_main_line(d4) && t.on_main_line(at));
        assert_eq!(t.len(), 7);
        // The same move again goes to the same node.
        assert_eq!(play(&mut t, e6, "d4"), d4);
        assert!(t.promote(d4));
        assert_eq!(names(&t, t.main_line()), ["Nf3", "e6", "d4"]);
        assert!(!t.promote(d4));
        let old = t.node(e6).children[1];
        assert_eq!(t.delete(old), Some(e6));
        assert_eq!(t.len(), 3);
        assert!(!t.contains(at) && t.contains(d4));
        assert_eq!(t.delete(0), None);
    }

    #[test]
    fn outcomes_and_numbers() {
        let mut t = GameTree::new(Position::startpos());
        let mut at = 0;
        for san in ["e4", "d5", "Be2", "dxe4", "Bb5"] {
            at = play(&mut t, at, san);
        }
        assert_eq!(t.node(at).san, "Bb5/A#");
        assert_eq!(t.outcome_at(at).map(|o| o.1), Some(EndReason::Checkmate));
        assert_eq!(t.outcome_at(t.node(at).parent.unwrap()), None);
        let before = t.node(t.node(at).parent.unwrap()).position;
        assert_eq!(numbered(&before, "Bb5/A#"), "3. Bb5/A#");
        assert_eq!(numbered(&t.node(1).position, "d5"), "1... d5");
        assert_eq!(t.arbiter_to(at).moves().len(), 5);
        assert_eq!(t.preorder().len(), 6);
    }
}
