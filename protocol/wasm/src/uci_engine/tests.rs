use super::*;

/// Feeds `lines` and steps any search to its end (at most `slices` slices); the output.
fn run(engine: &mut UciEngine, lines: &[&str], slices: usize) -> String {
    for line in lines {
        engine.command(line);
    }
    for _ in 0..slices {
        if engine.step(SLICE) != Step::Searching {
            break;
        }
    }
    engine.take_output()
}

fn bestmove(output: &str) -> Option<&str> {
    output.lines().find_map(|l| l.strip_prefix("bestmove "))
}

#[test]
fn uci_lists_the_options_a_browser_can_use() {
    let mut engine = UciEngine::new();
    let out = run(&mut engine, &["uci", "isready"], 0);
    assert!(out.starts_with("id name Vorpal "), "{out}");
    assert!(out.ends_with("uciok\nreadyok\n"), "{out}");
    assert!(out.contains("option name UCI_Variant type combo default alice var alice"));
    assert!(out.contains("option name MultiPV type spin"));
    assert!(out.contains("option name Skill Level type spin"));
    assert!(out.contains("option name UCI_Elo type spin"));
    assert!(!out.contains("EvalFile") && !out.contains("AliceTbPath") && !out.contains("Debug Log File"));
    let refused = run(&mut engine, &["setoption name EvalFile value net.nnue"], 0);
    assert!(refused.starts_with("info string error setoption:"), "{refused}");
}

#[test]
fn a_depth_search_gives_the_lines_and_move_of_a_whole_search() {
    let mut engine = UciEngine::new();
    let out = run(
        &mut engine,
        &[
            "setoption name Threads value 1",
            "position startpos moves e2e4",
            "go depth 6",
        ],
        1000,
    );
    assert_eq!(engine.state(), Step::Idle);
    let depths: Vec<&str> = out.lines().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(depths.len(), 6, "{out}");
    let mv = bestmove(&out).unwrap().split(' ').next().unwrap();
    let pos = Position::startpos().after(Position::startpos().parse_move("e2e4").unwrap());
    assert!(pos.is_legal(pos.parse_move(mv).unwrap()), "{out}");
    // The same search in one piece visits the same nodes.
    let mut searcher = Searcher::new(Settings::default().search_options());
    let mut game = Game::new(Position::startpos());
    game.play(Position::startpos().parse_move("e2e4").unwrap());
    let control = SearchControl::new();
    let whole = searcher.search(&game, &Limits::depth(6), &control, &mut |_| {});
    let last = depths.last().unwrap();
    assert!(
        last.contains(&format!(" nodes {} ", whole.nodes)),
        "{last} vs {}",
        whole.nodes
    );
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove() {
    let mut engine = UciEngine::new();
    assert_eq!(engine.command("go infinite"), Step::Searching);
    for _ in 0..3 {
        assert_eq!(engine.step(SLICE), Step::Searching);
    }
    assert_eq!(bestmove(&engine.take_output()), None);
    assert_eq!(engine.command("stop"), Step::Idle);
    let out = engine.take_output();
    assert!(bestmove(&out).is_some(), "{out}");
    assert_eq!(engine.command("stop"), Step::Idle);
    assert_eq!(engine.take_output(), "");
}

#[test]
fn perft_mate_and_bad_input() {
    let mut engine = UciEngine::new();
    let out = run(&mut engine, &["go perft 3"], 0);
    let expected = format!("\nNodes searched: {}\n", perft::perft(&Position::startpos(), 3));
    assert!(out.ends_with(&expected), "{out}");
    let mated = "position fen rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3";
    let out = run(&mut engine, &[mated, "go depth 3"], 10);
    assert_eq!(out, "info depth 0 score mate 0\nbestmove (none)\n");
    let out = run(
        &mut engine,
        &["position fen 8/8/8 w - - 0 1", "frobnicate", "go depth x"],
        10,
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string error ")).collect();
    assert_eq!(errors.len(), 3, "{out}");
    assert!(bestmove(&out).is_some());
}

#[test]
fn a_variant_announces_itself() {
    let mut engine = UciEngine::new();
    let out = run(&mut engine, &["setoption name UCI_Variant value minialice"], 0);
    assert!(out.starts_with("info string variant minialice files "), "{out}");
}
