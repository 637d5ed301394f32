//! Tests of the Popeye input reader.

use super::*;

/// Every prefix of a real problem file, and the file with each word dropped or doubled,
/// is read without a panic, and a problem that reads is set up without one.
#[test]
fn damaged_input_never_panics() {
    let text = include_str!("../../../../tests/data/popeye-alice-examples.inp");
    let cut: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(7).collect();
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut variants: Vec<String> = cut.iter().map(|&i| text[..i].to_string()).collect();
    for i in 0..words.len() {
        let mut dropped = words.clone();
        dropped.remove(i);
        variants.push(dropped.join(" "));
        let mut doubled = words.clone();
        doubled.insert(i, words[i]);
        variants.push(doubled.join("\n"));
    }
    let mut read = 0;
    for input in &variants {
        for problem in parse(input).into_iter().flatten() {
            read += usize::from(problem.tasks(vorpal_engine::Rules::default()).is_ok());
        }
    }
    assert!(read > 100, "only {read} problems set up");
}

#[test]
fn reads_a_problem_with_twins_and_options() {
    let text = "begin\nauthor A. Composer\norigin Somewhere 2025\npieces white kh1 rg2 white AliceB bf7\n  black rd2 black AliceB kf8\nstip h#2\noption try vari maxsol 3 nocastling e1h1\ntwin move h1 h2\ntwin cont add black AliceB Pb6 remove d2\nend\n";
    let problems = parse(text);
    assert_eq!(problems.len(), 1);
    let p = problems[0].as_ref().unwrap();
    assert_eq!(p.headers, ["A. Composer", "Somewhere 2025"]);
    assert_eq!(p.pieces.len(), 5);
    assert_eq!(p.pieces[2].board, BoardId::B);
    assert_eq!(p.stipulation.as_ref().unwrap().1, "h#2");
    assert!(p.options.tries && p.options.variations);
    assert_eq!(p.options.max_solutions, Some(3));
    assert_eq!(p.options.no_castling.len(), 2);
    assert_eq!(p.twins.len(), 2);
    let ep = parse("pieces white ke1 black ke8 pd5\nstip #1\noption enpassant d7 d6 d5");
    assert_eq!(ep[0].as_ref().unwrap().options.en_passant, Square::parse("d6"));
    let bad = parse("pieces white ke1 black ke8 pd5\nstip #1\noption enpassant d7d5");
    assert_eq!(bad[0].as_ref().unwrap_err().line, 3);
    assert!(p.twins[1].continued);
    assert_eq!(p.twins[1].ops.len(), 2);
}

/// A `condition` twin may set Alice again (with more changes after it); another condition
/// or none is refused at the word.
#[test]
fn a_condition_twin_names_alice_again() {
    let head = "pieces white ke1 qd1 black ke8\nstip #2\n";
    let good = parse(&format!("{head}twin condition alice rotate 90\n"));
    let p = good[0].as_ref().unwrap();
    assert_eq!(p.twins[0].ops.len(), 2);
    assert_eq!(p.twins[0].ops[0], TwinOp::Condition);
    let tasks = p.tasks(vorpal_engine::Rules::default()).unwrap();
    assert_eq!(tasks.len(), 2);
    assert!(tasks[1].change.starts_with("AliceChess"), "{}", tasks[1].change);
    // The rotation after it still applies: e1, d1, e8 turn to h5, h4, a5.
    assert_eq!(tasks[1].position.to_fen(), "8/8/8/k6K/7Q/8/8/8 w - - 0 1");
    for (input, word) in [("twin cond circe", "circe"), ("twin condition", "condition")] {
        let bad = parse(&format!("{head}{input}\n"));
        assert_eq!(bad[0].as_ref().unwrap_err().word, word, "{input}");
    }
}

#[test]
fn an_a_to_b_stipulation_splits_start_and_diagram() {
    let text = "begin\npieces white ke1 ra1 black ke8\nstip a=>b1\npieces white ke1 ra2 black ke8\nend\n";
    let problems = parse(text);
    let p = problems[0].as_ref().unwrap();
    let start = p.start_pieces.as_ref().unwrap();
    assert_eq!(start.len(), 3);
    assert!(start.iter().any(|x| x.square == Square::parse("a1").unwrap()));
    assert_eq!(p.pieces.len(), 3);
    assert!(p.pieces.iter().any(|x| x.square == Square::parse("a2").unwrap()));
    let task = &p.tasks(vorpal_engine::Rules::default()).unwrap()[0];
    // Black starts (no whitetoplay): after two half moves Black is to move on the diagram.
    assert_eq!(task.start.unwrap().side_to_move(), Color::Black);
    assert_eq!(task.position.side_to_move(), Color::Black);
    // Other stipulations keep one diagram.
    let dia = parse("pieces white ke1 black ke8\nstip dia2\n");
    assert!(dia[0].as_ref().unwrap().start_pieces.is_none());
}

#[test]
fn errors_name_the_line_and_word_and_the_next_problem_is_read() {
    let text = "begin\npieces white ke1 black ke8\nstip #2\nfrobnicate\nnext\npieces white ke1 ke2 black ke8\nstip #2\nnext\npieces white ke1 black ke8 aliceb pe1\nstip #2\nnext\npieces white ke1 black ke8\nstip #2.5\nnext\npieces white ke1 nb1 black ke8\nstip #1\nnext\npieces white ke1 black ke8\nstip dia3.7\nnext\npieces white ke1 black ke8\nstip #1\nend";
    let problems = parse(text);
    let errors: Vec<String> = problems
        .iter()
        .map(|p| match p {
            Ok(p) => p
                .ignored
                .first()
                .map_or("ok".into(), |e| format!("ignored {} {}", e.line, e.word)),
            Err(e) => format!("{} {}", e.line, e.word),
        })
        .collect();
    assert_eq!(
        errors,
        [
            "ignored 4 frobnicate",
            "6 ke2",
            "9 pe1",
            "13 #2.5",
            "15 nb1",
            "19 dia3.7",
            "ok"
        ]
    );
}

#[test]
fn unknown_items_are_ignored_as_popeye_ignores_them() {
    // An unknown keyword is skipped; an unknown option ends its option list (the words after
    // it are unknown keywords then); Alice on a later line than `condition` is still read,
    // another condition on its line is refused.
    let text = "begin\ncondition alice\nfoo bar\noption vari frobnicate noboard\nstip #2\npieces white kc1 black ka8\nnext\ncondition\nalice\noption noboard\npieces white kc1 black ka8\nstip #2\nnext\ncondition alice circe\nstip #2\nend";
    let problems = parse(text);
    let first = problems[0].as_ref().unwrap();
    let ignored: Vec<_> = first.ignored.iter().map(|e| (e.line, e.word.as_str())).collect();
    assert_eq!(ignored, [(3, "foo"), (3, "bar"), (4, "frobnicate"), (4, "noboard")]);
    assert!(first.options.variations && !first.options.no_board);
    assert!(first.stipulation.is_some() && first.pieces.len() == 2);
    let second = problems[1].as_ref().unwrap();
    assert!(second.ignored.is_empty() && second.options.no_board);
    assert_eq!(problems[2].as_ref().unwrap_err().word, "circe");
}
