//! `vorpal-datagen`: well-formed output, deterministic games, resuming and crash recovery.

use crate::common::datagen::{quick, scratch};
use std::collections::BTreeMap;
use std::path::Path;
use vorpal_engine::{Position, Rules};
use vorpal_tuning::datagen::{self, parse_line, read_progress};

/// The data of each recorded game, keyed by game index.
fn games_of(out: &Path) -> BTreeMap<u64, String> {
    let cfg = quick(out, 0);
    let entries = read_progress(&cfg.progress_path()).unwrap().entries;
    let text = std::fs::read_to_string(out).unwrap();
    let mut start = 0;
    let mut games = BTreeMap::new();
    for e in entries {
        games.insert(e.index, text[start..e.text_end as usize].to_string());
        start = e.text_end as usize;
    }
    assert_eq!(start, text.len(), "the progress file covers the whole data file");
    games
}

#[test]
fn lines_are_well_formed_and_resuming_continues() {
    let dir = scratch("resume");
    let out = dir.join("a.txt");
    let first = datagen::run(&quick(&out, 2)).unwrap();
    assert_eq!((first.games, first.games_total), (2, 2));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(first.positions > 0, "some positions kept");
    assert_eq!(text.lines().count() as u64, first.positions);
    for (index, game) in games_of(&out) {
        let entries = read_progress(&quick(&out, 0).progress_path()).unwrap().entries;
        let entry = entries.iter().find(|e| e.index == index).unwrap();
        assert_eq!(game.lines().count() as u64, entry.positions);
        let results: Vec<f64> = game.lines().map(|l| parse_line(l).unwrap().result).collect();
        assert!(results.windows(2).all(|w| w[0] == w[1]), "one result per game");
        for line in game.lines() {
            let parts: Vec<&str> = line.rsplitn(3, " | ").collect();
            assert_eq!(parts.len(), 3, "three fields: {line}");
            let l = parse_line(line).unwrap();
            let pos = Position::from_fen(&l.fen, Rules::default()).unwrap();
            assert_eq!(pos.to_fen(), l.fen, "pipe FEN round-trips");
            assert!(!pos.in_check(), "no position in check: {line}");
            assert!(l.score.abs() < 30_000, "no mate scores: {line}");
            assert!([0.0, 0.5, 1.0].contains(&l.result));
            assert!(
                ["1.0", "0.5", "0.0"].contains(&parts[0]),
                "result written as 1.0/0.5/0.0"
            );
        }
    }

    // Asking for more games continues after the recorded ones.
    let second = datagen::run(&quick(&out, 3)).unwrap();
    assert_eq!((second.games, second.games_total), (1, 3));
    let resumed = std::fs::read_to_string(&out).unwrap();
    assert!(resumed.starts_with(&text), "earlier output kept");
    assert_eq!(games_of(&out).len(), 3);

    // Nothing left to do: a rerun plays no game.
    let third = datagen::run(&quick(&out, 3)).unwrap();
    assert_eq!((third.games, third.games_total), (0, 3));

    // The resumed file equals one run of three games: games depend only on seed and index.
    let fresh = dir.join("b.txt");
    datagen::run(&quick(&fresh, 3)).unwrap();
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), resumed);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn interrupted_game_is_cut_off_and_settings_must_match() {
    let dir = scratch("recover");
    let out = dir.join("a.txt");
    datagen::run(&quick(&out, 1)).unwrap();
    let good = std::fs::read_to_string(&out).unwrap();
    // A run killed in the middle of writing a game leaves a partial line behind.
    std::fs::write(
        &out,
        format!("{good}rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1"),
    )
    .unwrap();
    let progress = quick(&out, 0).progress_path();
    let mut p = std::fs::read_to_string(&progress).unwrap();
    p.push_str("1 99");
    std::fs::write(&progress, p).unwrap();
    let s = datagen::run(&quick(&out, 2)).unwrap();
    assert_eq!((s.games, s.games_total), (1, 2));
    assert!(std::fs::read_to_string(&out).unwrap().starts_with(&good));
    assert_eq!(games_of(&out).len(), 2);

    // Other settings would produce other games: refused.
    let mut other = quick(&out, 3);
    other.nodes = Some(301);
    assert!(datagen::run(&other).is_err());
    // A data file without its progress record is not appended to.
    std::fs::remove_file(&progress).unwrap();
    assert!(datagen::run(&quick(&out, 3)).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn parallel_workers_play_the_same_games() {
    let dir = scratch("parallel");
    let (one, two) = (dir.join("one.txt"), dir.join("two.txt"));
    datagen::run(&quick(&one, 4)).unwrap();
    let mut cfg = quick(&two, 4);
    cfg.threads = 2;
    let s = datagen::run(&cfg).unwrap();
    assert_eq!(s.games, 4);
    assert_eq!(games_of(&one), games_of(&two), "same games whatever the thread count");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn depth_limit_and_parse_errors() {
    let dir = scratch("depth");
    let out = dir.join("d.txt");
    let mut cfg = quick(&out, 1);
    cfg.nodes = None;
    cfg.depth = Some(2);
    let s = datagen::run(&cfg).unwrap();
    assert_eq!(s.games, 1);
    cfg.depth = None;
    assert!(datagen::run(&cfg).is_err(), "a limit is required");
    assert!(parse_line("8/8/8/8/8/8/8/8 w - - 0 1 | x | 1.0").is_err());
    assert!(parse_line("8/8/8/8/8/8/8/8 w - - 0 1 | 12 | 2").is_err());
    let l = parse_line("4k3/8/8/8/8/8/|P7/4K3 w - - 0 1 | -35 | 0.5").unwrap();
    assert_eq!(
        (l.fen.as_str(), l.score, l.result),
        ("4k3/8/8/8/8/8/|P7/4K3 w - - 0 1", -35, 0.5)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_recorded_score_belongs_to_the_move_played() {
    use vorpal_engine::search::{Bound, Report, Score, SearchControl, SearchOptions, Searcher};
    use vorpal_engine::{Color, Game};
    // A hard cap just above the soft limit cuts many last iterations: the move played and the
    // score written must still be those of one completed iteration, as the search reported it.
    let cfg = datagen::DatagenConfig {
        nodes: Some(1_500),
        max_nodes: Some(1_700),
        ..datagen::DatagenConfig::default()
    };
    let limits = cfg.limits();
    assert_eq!((limits.soft_nodes, limits.nodes), (Some(1_500), Some(1_700)));
    let options = SearchOptions {
        threads: 1,
        hash_mb: 4,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::new(options);
    let control = SearchControl::new();
    let mut game = Game::new(Position::startpos());
    let (mut cut, mut searched) = (0, 0);
    while game.outcome().is_none() && searched < 60 {
        let mut last = None;
        let m = datagen::search_move(&mut searcher, &game, &limits, &control, &mut |r| {
            if let Report::Info(info) = r {
                if info.bound == Bound::Exact && info.multipv == 1 {
                    last = Some(info);
                }
            }
        })
        .expect("a legal move");
        let info = last.expect("an iteration completed");
        assert_eq!(m.mv, info.pv[0], "the move of the last completed iteration is played");
        assert_eq!(m.depth, info.depth);
        let white = game.position().side_to_move() == Color::White;
        if let Score::Cp(cp) = info.score {
            assert_eq!(
                m.score,
                if white { cp } else { -cp },
                "the score of that iteration is written"
            );
        }
        cut += (m.nodes >= 1_700) as u32;
        searched += 1;
        assert!(game.play(m.mv));
    }
    assert!(cut > 5, "only {cut} of {searched} searches reached the hard cap");
    // Without a hard cap given, it is four times the soft limit.
    let default = datagen::DatagenConfig::default().limits();
    assert_eq!((default.soft_nodes, default.nodes), (Some(5_000), Some(20_000)));
}
