//! The command lines of `vorpal-match` (parsed by clap): a match ([`MatchArgs`], with the
//! options SPSA shares, [`MatchOptions`]), `openings` ([`OpeningsArgs`]) and `merge`
//! ([`MergeArgs`]). Options that take `key=value` settings (`--engine`, `--each`, `--sprt`,
//! `--resign`, `--draw`) read every following word up to the next option.

use crate::arg_values::{positive_count, positive_seconds, switch, variant_help};
use crate::matches::schedule::{parse_shard, Tournament};
use clap::{ArgAction, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;
use vorpal_client::engine_args::EngineGroups;
use vorpal_engine::{EnPassant, Rules, Variant};

/// The rules of the games: `--variant`, `--chess960`, `--enpassant`.
#[derive(clap::Args, Clone, Debug)]
pub struct RuleArgs {
    #[arg(long, value_name = "NAME", default_value = "alice", help = variant_help())]
    pub variant: Variant,
    /// Chess960 castling (UCI_Chess960); without --openings every game starts
    /// from one of the 960 arrays, in seeded random order
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = switch, verbatim_doc_comment)]
    pub chess960: Option<bool>,
    /// En passant option (AliceEnPassant): off, normal or double [default: off]
    #[arg(long, value_name = "MODE")]
    pub enpassant: Option<EnPassant>,
}

impl RuleArgs {
    /// The rules asked for, or the option the variant does not have.
    pub fn rules(&self) -> Result<Rules, String> {
        let mut rules = Rules {
            variant: self.variant,
            ..Rules::default()
        };
        if let Some(on) = self.chess960 {
            rules = rules.with_chess960(on);
        }
        if let Some(mode) = self.enpassant {
            rules = rules.with_ep(mode);
        }
        if rules.chess960 && !rules.is_chess960() {
            return Err(format!("--chess960: {} has no castling", rules.variant.name()));
        }
        if rules.en_passant != rules.ep_mode() {
            return Err(format!("--enpassant: {} has no en passant", rules.variant.name()));
        }
        Ok(rules)
    }
}

/// The order of the openings.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The book's order.
    #[default]
    Sequential,
    /// Shuffled by --seed.
    Random,
}

/// Who meets whom.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TournamentArg {
    /// Every engine against every other.
    #[default]
    #[value(alias = "roundrobin")]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl From<TournamentArg> for Tournament {
    fn from(t: TournamentArg) -> Tournament {
        match t {
            TournamentArg::RoundRobin => Tournament::RoundRobin,
            TournamentArg::Gauntlet => Tournament::Gauntlet,
        }
    }
}

/// The engines and the games, as a match and SPSA's batches play them.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchOptions {
    #[command(flatten)]
    pub engines: EngineGroups,
    /// Settings for every engine, as after --engine (repeatable)
    #[arg(long, value_name = "SETTING", num_args = 1.., action = ArgAction::Append)]
    pub each: Vec<String>,
    /// Time control for every engine (as --each tc=SPEC)
    #[arg(long, value_name = "SPEC")]
    pub tc: Option<String>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// FEN/EPD lines (any FEN form), move lists or PGN [default: the start position]
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Opening order: sequential, or random (shuffled by --seed)
    #[arg(long, value_name = "ORDER", value_enum, default_value_t, hide_possible_values = true)]
    pub order: Order,
    /// Use at most N plies of each book line
    #[arg(long, value_name = "N")]
    pub opening_plies: Option<usize>,
    /// Games in parallel
    #[arg(long, value_name = "N", default_value = "1", value_parser = positive_count)]
    pub concurrency: usize,
    /// Resign adjudication: movecount=M score=CP
    #[arg(long, value_name = "SETTING", num_args = 1.., action = ArgAction::Set)]
    pub resign: Option<Vec<String>>,
    /// Draw adjudication: movenumber=K movecount=M score=CP
    #[arg(long, value_name = "SETTING", num_args = 1.., action = ArgAction::Set)]
    pub draw: Option<Vec<String>>,
    /// Adjudicate a draw after N moves
    #[arg(long, value_name = "N")]
    pub maxmoves: Option<u32>,
    /// Overrun tolerated before a loss on time, in ms [default: 100]
    #[arg(long, value_name = "MS")]
    pub timemargin: Option<u64>,
    /// Longest wait for an untimed move (nodes/depth), in seconds [default: 60]
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub move_timeout: Option<Duration>,
    /// Longest wait for uciok/readyok, in seconds [default: 10]
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub startup_timeout: Option<Duration>,
    /// The PGN Event tag
    #[arg(long, value_name = "NAME", default_value = "vorpal-match")]
    pub event: String,
    /// The PGN Site tag
    #[arg(long, value_name = "NAME", default_value = "?")]
    pub site: String,
    /// No per-game progress lines
    #[arg(long)]
    pub quiet: bool,
}

/// A match: the engines, the games and the outputs.
#[derive(clap::Args, Clone, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub options: MatchOptions,
    /// Seed for the opening order
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Rounds (one opening, every pairing, colours swapped) [default: 1]
    #[arg(long, value_name = "N", conflicts_with = "games")]
    pub rounds: Option<u64>,
    /// Total games (rounded up to whole rounds)
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Who meets whom: round-robin, or gauntlet (the first engine against
    /// each of the others)
    #[arg(
        long,
        value_name = "KIND",
        value_enum,
        default_value_t,
        hide_possible_values = true,
        verbatim_doc_comment
    )]
    pub tournament: TournamentArg,
    /// PGN output (results go to FILE with .results unless --results)
    #[arg(long, visible_alias = "pgnout", value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Results output (one line per game)
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Continue the match found in the outputs
    #[arg(long)]
    pub resume: bool,
    /// Play only pairs p with p % n == i (merge the outputs afterwards)
    #[arg(long, value_name = "i/n", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Sequential test: elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]
    #[arg(long, value_name = "SETTING", num_args = 0.., action = ArgAction::Set)]
    pub sprt: Option<Vec<String>>,
    /// Print the schedule (a line per game: number, pair, round, colours, opening) and
    /// play nothing
    #[arg(long, verbatim_doc_comment)]
    pub list_games: bool,
}

/// The format of a generated book.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BookFormat {
    /// One FEN per line.
    #[default]
    #[value(alias = "epd")]
    Fen,
    /// PGN games.
    Pgn,
}

/// Generate a book of balanced openings
#[derive(clap::Args, Clone, Debug)]
pub struct OpeningsArgs {
    /// Openings wanted
    #[arg(long, value_name = "N", value_parser = positive_count)]
    pub count: usize,
    /// Random plies of each opening
    #[arg(long, value_name = "K", default_value_t = 8)]
    pub plies: usize,
    /// Seed of the random moves
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Nodes of the search that scores each candidate
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub nodes: u64,
    /// Keep openings scoring within CP of equality
    #[arg(long, value_name = "CP", default_value_t = 100)]
    pub window: i32,
    /// The book file to write
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Book format: fen (or epd), or pgn
    #[arg(
        long,
        value_name = "FORMAT",
        value_enum,
        default_value_t,
        hide_possible_values = true
    )]
    pub format: BookFormat,
    /// Search threads [default: all cores]
    #[arg(long, value_name = "T", default_value_t = 0, hide_default_value = true)]
    pub threads: usize,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Combine the outputs of shards (or of several matches)
#[derive(clap::Args, Clone, Debug)]
pub struct MergeArgs {
    /// The PGN or results files to combine
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
    /// The combined PGN (results beside it unless --results)
    #[arg(long, visible_alias = "out", value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// The combined results
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// The sequential test of the combined games (as a match's --sprt)
    #[arg(long, value_name = "SETTING", num_args = 0.., action = ArgAction::Set)]
    pub sprt: Option<Vec<String>>,
}
