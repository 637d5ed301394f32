//! Popeye's `PostKeyPlay` in direct play: the diagram is the position after the key, the
//! defender to move. Written as Popeye writes the play after a key: ` threat:` with the
//! threats (or ` zugzwang.`), each with its play, then every defence that is not beaten by all
//! the threats nor by a shorter win than the threat (Popeye shows no variation shorter than
//! the threat), with the attacker's shortest winning continuations and their play, or
//! `refutes.`.

use super::battle::{shortest, wins};
use super::notation::{popeye_defence, popeye_move};
use crate::solve::text::attack_lines_in;
use vorpal_engine::solve::{SolveControl, SolveOptions, Stipulation};
use vorpal_engine::Position;

/// The lines of the play after the key from `pos` (the defender to move), the attacker having
/// `stipulation.moves - 1` moves after the key.
pub fn post_key_play(
    pos: &Position,
    stipulation: &Stipulation,
    options: &SolveOptions,
    control: &SolveControl,
) -> Vec<String> {
    let options = SolveOptions {
        tries: false,
        variations: true,
        ..options.clone()
    };
    let left = stipulation.moves.saturating_sub(1).max(1);
    let mut out = Vec::new();
    let mut threats = None;
    if !pos.in_check() {
        let mut passed = *pos;
        passed.make_null_move();
        threats = shortest(&passed, stipulation, left, &options, control);
        match &threats {
            None => out.push(" zugzwang.".to_string()),
            Some((_, lines)) => {
                out.push(" threat:".to_string());
                out.extend(attack_lines_in(&passed, lines, 2, true, popeye_move));
            }
        }
    }
    let mut defences: Vec<_> = pos.legal_moves().into_iter().map(|d| (pos.move_to_uci(d), d)).collect();
    defences.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, d) in defences {
        let r = pos.after(d);
        let replies = shortest(&r, stipulation, left, &options, control);
        // A defence against which every threat still wins is not shown, nor one after which
        // the attacker wins sooner than it threatened: Popeye's threat enforcer leaves out the
        // variations shorter than the threat, and the key's own continuation solver, which
        // shows them after a key, is missing in the play after the key.
        if let (Some((t, threat_lines)), Some((s, _))) = (&threats, &replies) {
            if s < t {
                continue;
            }
            let still = wins(&r, stipulation, *t, &options, control);
            let holds = threat_lines
                .iter()
                .all(|threat| still.iter().any(|w| w.mv.same_play(threat.mv)));
            if holds {
                continue;
            }
        }
        out.push(format!("{:6}1...{}", "", popeye_defence(pos, d)));
        match replies {
            None => out.push(format!("{:8}refutes.", "")),
            Some((_, lines)) => out.extend(attack_lines_in(&r, &lines, 2, true, popeye_move)),
        }
    }
    out
}
