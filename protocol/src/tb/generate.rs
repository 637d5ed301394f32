//! `vorpal tb generate`: the tables asked for, each after those it converts into, with a
//! progress line (material, elapsed time, time left estimated from the sizes) on stderr.

use super::args::GenerateArgs as Args;
use crate::status;
use crate::uci::output::{to_stderr, to_stdout};
use serde_json::json;
use std::time::Instant;
use vorpal_engine::tablebase::{generate, GenStats, Material, Tablebases};

/// The materials asked for and every table they lead to, in generation order.
fn plan(args: &Args) -> Vec<Material> {
    super::plan::plan(&args.materials, args.all)
}

/// Entries a material's generation handles (its share of the time).
fn weight(m: &Material) -> f64 {
    let kings = if m.has_pawns() { 32.0 } else { 16.0 };
    kings * 128f64.powi(m.men() as i32 - 1)
}

fn clock(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Runs `vorpal tb generate`.
pub fn run(args: Args) -> i32 {
    let dir = args.dir.clone();
    if let Err(e) = std::fs::create_dir_all(&dir) {
        to_stderr(&format!("error: cannot create {}: {e}\n", dir.display()));
        return status::ERROR_LINE;
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            to_stderr(&format!("error: cannot start the threads: {e}\n"));
            return status::ERROR_LINE;
        }
    };
    pool.install(|| run_plan(&args, &dir))
}

fn run_plan(args: &Args, dir: &std::path::Path) -> i32 {
    let tables = match Tablebases::open(dir) {
        Ok(t) => t,
        Err(e) => {
            to_stderr(&format!("error: {e}\n"));
            return status::ERROR_LINE;
        }
    };
    let list = plan(args);
    // Refused before any work: what the generator cannot make (five men with pawns).
    if let Some(e) = list.iter().find_map(|m| m.check_generable().err()) {
        to_stderr(&format!("error: {e}\n"));
        return status::ERROR_LINE;
    }
    // Tables already present and sound are kept (unless --force).
    let todo: Vec<Material> = list
        .into_iter()
        .filter(|m| {
            let keep = !args.force && matches!(tables.check(m), Ok(true));
            if keep {
                to_stderr(&format!("{m}: present, kept\n"));
            }
            !keep
        })
        .collect();
    let total: f64 = todo.iter().map(weight).sum();
    let start = Instant::now();
    let mut done = 0.0;
    for (i, m) in todo.iter().enumerate() {
        let elapsed = start.elapsed().as_secs_f64();
        let left = if done > 0.0 {
            elapsed * (total - done) / done
        } else {
            f64::NAN
        };
        let eta = if left.is_nan() { "?".to_string() } else { clock(left) };
        to_stderr(&format!(
            "[{}/{}] {m}: generating (elapsed {}, left about {eta})\n",
            i + 1,
            todo.len(),
            clock(elapsed)
        ));
        let result = generate(m, &tables, &mut |line| to_stderr(&format!("  {line}\n")));
        match result {
            Ok(stats) => {
                done += weight(m);
                report(&stats, args.json);
            }
            Err(e) => {
                to_stderr(&format!("error: {e}\n"));
                return status::ERROR_LINE;
            }
        }
    }
    to_stderr(&format!(
        "{} tables made in {}\n",
        todo.len(),
        clock(start.elapsed().as_secs_f64())
    ));
    status::SUCCESS
}

fn report(s: &GenStats, json: bool) {
    if json {
        let side = |i: usize| {
            let st = &s.sides[i];
            let longest = |l: &Option<(u32, String)>| {
                l.as_ref()
                    .map(|(p, fen)| json!({"plies": p, "moves": p.div_ceil(2), "fen": fen}))
            };
            json!({
                "wins": st.wins, "draws": st.draws, "losses": st.losses,
                "longest_win": longest(&st.longest_win), "longest_loss": longest(&st.longest_loss),
            })
        };
        let dtz = s.dtz.as_ref().map(|d| {
            let one = |st: &vorpal_engine::tablebase::DtzStats| {
                json!({
                    "wins_within_fifty": st.wins_within_fifty,
                    "wins_beyond_fifty": st.wins_beyond_fifty,
                    "losses_beyond_fifty": st.losses_beyond_fifty,
                    "longest_win": st.longest_win.as_ref().map(|(p, fen)| json!({"plies": p, "fen": fen})),
                })
            };
            json!({"white_to_move": one(&d[0]), "black_to_move": one(&d[1])})
        });
        let o = json!({
            "material": s.material.to_string(),
            "white_to_move": side(0),
            "black_to_move": side(1),
            "seconds": (s.seconds * 1000.0).round() / 1000.0,
            "file_bytes": s.file_bytes,
            "dtz": dtz,
        });
        to_stdout(&format!("{o}\n"));
        return;
    }
    let side = |i: usize| {
        let st = &s.sides[i];
        let longest = st
            .longest_win
            .as_ref()
            .map(|(p, fen)| format!(", longest mate {} ({fen})", p.div_ceil(2)))
            .unwrap_or_default();
        format!("{} won, {} drawn, {} lost{longest}", st.wins, st.draws, st.losses)
    };
    to_stdout(&format!(
        "{}: {:.1} s, {} bytes\n  White to move: {}\n  Black to move: {}\n",
        s.material,
        s.seconds,
        s.file_bytes,
        side(0),
        side(1)
    ));
    if let Some(d) = &s.dtz {
        for (name, st) in [("White", &d[0]), ("Black", &d[1])] {
            to_stdout(&format!(
                "  {name} to move, fifty-move rule: {} wins stand, {} wins are draws, {} losses are draws\n",
                st.wins_within_fifty, st.wins_beyond_fifty, st.losses_beyond_fifty
            ));
        }
    }
}
