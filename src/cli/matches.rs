//! `salto match`: an engine-vs-engine match between Hub engines, a
//! gauntlet or a round robin, all of it or one shard; `salto match merge`
//! adds shards' results up.

use super::{GameArgs, fail};
use crate::game::Game;
use crate::tournament::engine::EngineHooks;
use crate::tournament::ranking::PointsScheme;
use crate::tournament::runner::{Shard, Tournament, merge_pdn, merge_summaries};
use crate::tournament::{
    Adjudication, EngineSpec, MatchConfig, OpeningChoice, RefereeConfig, Sprt, TimeControl,
    run_match,
};
use crate::variant::{GameVisitor, Options, Variant, dispatch};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Subcommand, Debug)]
pub enum MatchCommand {
    /// Add up the results of a match's shards: their --json outputs (and PDN files).
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' JSON summaries (`salto match --shard K/N --json > FILE`).
    #[arg(required = true, value_name = "JSON")]
    pub files: Vec<PathBuf>,
    /// The shards' PDN files, merged (in the schedule's order) into --pdn.
    #[arg(long = "pdn-in", value_name = "PDN")]
    pub pdn_in: Vec<PathBuf>,
    /// Write the merged games here.
    #[arg(long, value_name = "FILE", requires = "pdn_in")]
    pub pdn: Option<PathBuf>,
    /// Print the merged summary as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    #[command(flatten)]
    pub game: GameArgs,
    /// An engine: "cmd=PROGRAM [args=\"A B\"] [name=NAME] [dir=DIR] [depth=D|nodes=N|movetime=S|tc=B+I]
    /// [margin=S] [param.NAME=VALUE ...]". Give one per player (two for draughts), or more with
    /// --gauntlet/--round-robin. An engine's own depth/nodes/movetime/tc and margin replace the
    /// match's for it.
    #[arg(long, value_name = "SPEC", required = true)]
    pub engine: Vec<String>,
    /// Number of games (per pairing with --gauntlet/--round-robin; default 2, or 100000 with --sprt).
    #[arg(long)]
    pub games: Option<u64>,
    /// The first engine plays each of the others (two-player games).
    #[arg(long, conflicts_with = "round_robin")]
    pub gauntlet: bool,
    /// Every engine plays every other (two-player games).
    #[arg(long)]
    pub round_robin: bool,
    /// Play only the K-th of N slices of the schedule (the same games as the whole run; merge the
    /// --json outputs with `salto match merge`). Needs --seed.
    #[arg(long, value_name = "K/N", requires = "seed", conflicts_with = "sprt")]
    pub shard: Option<String>,
    /// Stop early by a sequential test: elo0=0,elo1=5,alpha=0.05,beta=0.05.
    #[arg(long, value_name = "PARAMS")]
    pub sprt: Option<String>,
    /// Clock per engine: BASE+INC in seconds, e.g. 10+0.1.
    #[arg(long, value_name = "BASE+INC", conflicts_with_all = ["movetime", "depth", "nodes"])]
    pub tc: Option<String>,
    /// Fixed time per move, seconds.
    #[arg(long, value_name = "SECONDS", conflicts_with_all = ["depth", "nodes"])]
    pub movetime: Option<f64>,
    /// Fixed depth per move, plies.
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Extra seconds an engine may exceed its clock before it loses.
    #[arg(long, default_value_t = 0.1)]
    pub margin: f64,
    /// Longest wait for a move without a clock (--depth, --nodes), seconds.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Longest wait for each step of an engine's start-up (hub/wait, init/ready), seconds.
    #[arg(long, default_value_t = 10.0)]
    pub start_timeout: f64,
    /// Openings file: one opening per line (moves from the start, a FEN, or a FEN and moves).
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Generate openings: this many random plies, kept when balanced.
    #[arg(long, value_name = "PLIES")]
    pub random_openings: Option<u32>,
    /// With --random-openings: the largest |score| (men) of a kept opening.
    #[arg(long, default_value_t = 0.5)]
    pub balance: f64,
    /// With --random-openings: the depth of the balance search.
    #[arg(long, default_value_t = 4)]
    pub balance_depth: u32,
    /// End games early on the engines' scores: draw=MOVE,drawscore=MEN,win=MEN,moves=PLIES.
    #[arg(long, value_name = "RULES")]
    pub adjudicate: Option<String>,
    /// Draw a game after this many plies (0: no limit).
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
    /// Points per finishing place, first place first: `linear` (default: 1 for first, 0 for
    /// last, evenly spaced), `win` (1 for first, 0 else) or one number per place, e.g. 3,1,0.
    #[arg(long, value_name = "LIST")]
    pub points: Option<String>,
    /// Games played at the same time (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write the games to this PDN file.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Keep a journal of the finished games in this file and, when it exists, resume the match
    /// it holds: only the games it lacks are played (run the same command again after a kill).
    /// Needs --seed.
    #[arg(long, value_name = "FILE", requires = "seed")]
    pub resume: Option<PathBuf>,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Seed for the random openings (default: from the clock, printed in the summary).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The PDN Event tag.
    #[arg(long, default_value = "salto match")]
    pub event: String,
    /// The PDN Site tag: where the match is played (free text).
    #[arg(long, default_value = "?")]
    pub site: String,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

pub use crate::tournament::play::game_params;

struct RunMatch {
    variant: Variant,
    cfg: MatchConfig,
    json: bool,
    points: Option<String>,
}

impl GameVisitor for RunMatch {
    type Output = Result<String, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let mut cfg = self.cfg;
        // Repetition is a draw in every two-sided game of rules.md; chinese
        // checkers has no draw rule (the ply limit ends endless games).
        cfg.referee.repetition =
            game.num_players() == 2 && self.variant.descriptor().repetition_draw;
        cfg.referee.points = self
            .points
            .as_deref()
            .map(|p| PointsScheme::parse(p, game.num_players()))
            .transpose()?;
        let summary = run_match(game, &cfg)?;
        Ok(if self.json {
            summary.json()
        } else {
            summary.report()
        })
    }
}

fn config(a: &MatchArgs, opts: &Options) -> Result<MatchConfig, String> {
    let shard = a.shard.as_deref().map(Shard::parse).transpose()?;
    let engines = a
        .engine
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    let tc = if let Some(t) = &a.tc {
        TimeControl::parse_clock(t)?
    } else if let Some(m) = a.movetime {
        if !(m.is_finite() && m > 0.0) {
            return Err(format!(
                "--movetime must be a positive number of seconds, got {m}"
            ));
        }
        TimeControl::MoveTime(m)
    } else if let Some(d) = a.depth {
        TimeControl::Depth(d.max(1))
    } else if let Some(n) = a.nodes {
        TimeControl::Nodes(n.max(1))
    } else if engines.iter().all(|e| e.limit.is_some()) {
        // Every engine has its own limit: the match's is never used.
        TimeControl::Depth(1)
    } else {
        return Err(
            "give a time control: --tc BASE+INC, --movetime S, --depth D or --nodes N (or depth=, nodes=, movetime=, tc= in every --engine)"
                .into(),
        );
    };
    for (name, v) in [
        ("--margin", a.margin),
        ("--timeout", a.timeout),
        ("--start-timeout", a.start_timeout),
        ("--balance", a.balance),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(format!("{name} must be a number of at least 0, got {v}"));
        }
    }
    let adjudication = a
        .adjudicate
        .as_deref()
        .map(Adjudication::parse)
        .transpose()?;
    let openings = if let Some(path) = &a.openings {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the openings file {}: {e}", path.display()))?;
        OpeningChoice::File(text)
    } else if let Some(plies) = a.random_openings {
        OpeningChoice::Random {
            plies,
            balance: (a.balance * 100.0).round() as i32,
            depth: a.balance_depth.max(1),
        }
    } else {
        OpeningChoice::Start
    };
    let games = a.games.unwrap_or(if sprt.is_some() { 100_000 } else { 2 });
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    Ok(MatchConfig {
        engines,
        games,
        tournament: if a.gauntlet {
            Tournament::Gauntlet
        } else if a.round_robin {
            Tournament::RoundRobin
        } else {
            Tournament::Match
        },
        shard,
        sprt,
        referee: RefereeConfig {
            tc,
            margin: a.margin,
            timeout: a.timeout,
            start_timeout: a.start_timeout,
            adjudication,
            max_plies: a.max_plies,
            repetition: true,
            game_params: game_params(opts),
            // Parsed once the game (and its number of players) is known.
            points: None,
            hooks: EngineHooks::default(),
        },
        openings,
        concurrency: a.concurrency.max(1),
        pdn: a.pdn.clone(),
        resume: a.resume.clone(),
        event: a.event.clone(),
        site: a.site.clone(),
        seed,
        progress: !a.quiet,
    })
}

/// Exit status of a match stopped by SIGINT or SIGTERM (after the
/// partial report).
const EXIT_INTERRUPTED: u8 = 130;

/// SIGINT and SIGTERM set `flag` (the runner then stops every engine and
/// reports what was played); a second one exits at once.
fn catch_signals(flag: &Arc<AtomicBool>) -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    for sig in [SIGINT, SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(flag))
            .and_then(|_| signal_hook::flag::register(sig, Arc::clone(flag)))
            .map_err(|e| format!("cannot catch signal {sig}: {e}"))?;
    }
    Ok(())
}

fn merge(m: MergeArgs) -> ExitCode {
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let mut texts = Vec::new();
    for f in &m.files {
        match read(f) {
            Ok(t) => texts.push((f.display().to_string(), t)),
            Err(e) => return fail(e),
        }
    }
    let summary = match merge_summaries(&texts) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(out) = &m.pdn {
        let mut pdns = Vec::new();
        for f in &m.pdn_in {
            match read(f) {
                Ok(t) => pdns.push(t),
                Err(e) => return fail(e),
            }
        }
        if let Err(e) = crate::fsutil::write_atomic(out, merge_pdn(&pdns).as_bytes()) {
            return fail(format!("cannot write {}: {e}", out.display()));
        }
    }
    outln!(
        "{}",
        if m.json {
            summary.json()
        } else {
            summary.report()
        }
    );
    ExitCode::SUCCESS
}

pub fn run(mut a: MatchArgs) -> ExitCode {
    if let Some(MatchCommand::Merge(m)) = a.command.take() {
        return merge(m);
    }
    let opts = match a.game.options() {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    let cfg = match config(&a, &opts) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let interrupt = Arc::clone(&cfg.referee.hooks.interrupt);
    if let Err(e) = catch_signals(&interrupt) {
        return fail(e);
    }
    let visitor = RunMatch {
        variant: opts.variant,
        cfg,
        json: a.json,
        points: a.points.clone(),
    };
    match dispatch(&opts, visitor) {
        Ok(Ok(text)) => {
            outln!("{text}");
            if interrupt.load(Ordering::SeqCst) {
                ExitCode::from(EXIT_INTERRUPTED)
            } else {
                ExitCode::SUCCESS
            }
        }
        Ok(Err(e)) => fail(e),
        Err(e) => fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_params_name_international_as_scan_does() {
        let p = game_params(&Options::new(Variant::International));
        assert_eq!(p, vec![("variant".to_string(), "normal".to_string())]);
        let mut o = Options::new(Variant::Turkish);
        o.draw_moves = Some(25);
        let p = game_params(&o);
        assert!(p.contains(&("variant".to_string(), "turkish".to_string())));
        assert!(p.contains(&("draw-moves".to_string(), "25".to_string())));
    }
}
