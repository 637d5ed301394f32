//! The board diagram: board A on the left, board B (and C) to its right, each with rank and
//! file labels, White at the bottom.
//!
//! ```text
//!               Board A                                   Board B
//!  +---+---+---+---+---+---+---+---+        +---+---+---+---+---+---+---+---+
//!  | r | n | b | q | k | b | n | r | 8      |   |   |   |   |   |   |   |   | 8
//!  +---+---+---+---+---+---+---+---+        +---+---+---+---+---+---+---+---+
//!  ...
//!    a   b   c   d   e   f   g   h            a   b   c   d   e   f   g   h
//! ```

use vorpal_engine::{Color, Position, Square};

/// Spaces between two boards.
const GAP: &str = "     ";

/// Every board side by side (A, B and, in three-board Alice, C) and the side to move, one line
/// per `\n`, no trailing spaces. Mini Alice boards have four files.
pub fn diagram(pos: &Position) -> String {
    let files = pos.rules().variant.files();
    let boards = pos.boards();
    let rule = format!("+{}", "---+".repeat(files as usize));
    let width = rule.len();
    let labels: String = (0..files).map(|f| format!("  {} ", (b'a' + f) as char)).collect();
    // Each board's block is its grid plus " N" (the rank label); blocks are joined by GAP.
    let row = |cells: &dyn Fn(usize) -> String| {
        let parts: Vec<String> = (0..boards.len())
            .map(|i| format!("{:<w$}", cells(i), w = width + 2))
            .collect();
        format!(" {}", parts.join(GAP)).trim_end().to_string()
    };
    let mut lines = vec![row(&|i| format!("{:^width$}", format!("Board {}", boards[i].letter())))];
    lines.push(row(&|_| rule.clone()));
    for rank in (0..8u8).rev() {
        lines.push(row(&|i| {
            let mut s = String::from("|");
            for file in 0..files {
                let c = pos
                    .piece_on(boards[i], Square::from_coords(file, rank))
                    .map_or(' ', |p| p.letter());
                s.push_str(&format!(" {c} |"));
            }
            format!("{s} {}", rank + 1)
        }));
        lines.push(row(&|_| rule.clone()));
    }
    lines.push(row(&|_| labels.clone()));
    lines.push(String::new());
    let side = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let check = if pos.in_check() { ", in check" } else { "" };
    lines.push(format!(" {side} to move{check}"));
    lines.join("\n")
}

/// The `d` command's text: the diagram, then `Fen:`, `Key:` and `Checkers:` lines.
pub fn describe(pos: &Position) -> String {
    let checkers: Vec<String> = pos.checkers().into_iter().map(|sq| sq.to_string()).collect();
    let checkers = if checkers.is_empty() {
        String::new()
    } else {
        format!(" {}", checkers.join(" "))
    };
    format!(
        "{}\n\nFen: {}\nKey: {:016X}\nCheckers:{checkers}",
        diagram(pos),
        pos.to_fen(),
        pos.key()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::{Rules, Variant};

    #[test]
    fn boards_side_by_side() {
        let pos = Position::from_fen(
            "rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            Rules::default(),
        )
        .unwrap();
        let text = describe(&pos);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("Board A") && lines[0].contains("Board B"));
        // Rank 5: black pawn on e5 of board B; rank 4: white pawn on e4 of board B.
        assert_eq!(
            lines[8],
            " |   |   |   |   |   |   |   |   | 5     |   |   |   |   | p |   |   |   | 5"
        );
        assert_eq!(
            lines[10],
            " |   |   |   |   |   |   |   |   | 4     |   |   |   |   | P |   |   |   | 4"
        );
        assert!(text.lines().all(|l| !l.ends_with(' ')));
        assert!(text.contains("\nFen: rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"));
        assert!(text.ends_with("Checkers:"));
    }

    #[test]
    fn three_boards_and_four_files() {
        for (variant, width) in [(Variant::Alice3, 114), (Variant::MiniAlice, 42)] {
            let pos = Position::from_fen(variant.start_fen(), Rules::for_variant(variant)).unwrap();
            let text = diagram(&pos);
            assert_eq!(text.lines().nth(1).unwrap().len(), width, "{text}");
            assert_eq!(
                text.lines().next().unwrap().matches("Board").count(),
                pos.boards().len()
            );
        }
    }
}
