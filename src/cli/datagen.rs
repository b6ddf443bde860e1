//! `salto datagen`: self-play training data (docs/training.md).

use super::GameArgs;
use crate::chinese::Chinese;
use crate::draughts::Draughts;
use crate::draughts::rules::Rules;
use crate::game::Game;
use crate::learn::datagen::{Config, encode_games};
use crate::learn::{RulesVisitor, chinese, dispatch_rules};
use crate::variant::Variant;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Games of the whole run (all shards together).
    #[arg(long)]
    pub games: u64,
    /// Search depth per move (default: --nodes 3000).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Uniformly random plies from the start before the searched game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only shard K of N (1-based): the shards' files, concatenated
    /// in order 1..N, equal the file of the whole run.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Threads playing games at once (the output is the same for any count).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash table per game, MiB.
    #[arg(long, default_value_t = 4)]
    pub hash: usize,
    /// The output file (overwritten).
    #[arg(long)]
    pub out: PathBuf,
}

/// `K/N` with `1 <= K <= N`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("bad --shard '{s}': expected K/N with 1 <= K <= N, for example 2/8");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

struct Run {
    cfg: Config,
    threads: usize,
    out: PathBuf,
}

impl Run {
    /// Plays the shard's games on `threads` threads, in batches, and writes
    /// their records in game order (`encode`: the records of one game and
    /// their count), with a progress bar.
    fn write(&self, encode: &(dyn Fn(u64) -> (Vec<u8>, u64) + Sync)) -> Result<(), String> {
        let range = self.cfg.range();
        let file = std::fs::File::create(&self.out)
            .map_err(|e| format!("cannot create {}: {e}", self.out.display()))?;
        let mut file = std::io::BufWriter::new(file);
        let bar = ProgressBar::new(range.end - range.start);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg}, {per_sec}, eta {eta}",
            )
            .map_err(|e| e.to_string())?
            .progress_chars("=> "),
        );
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| e.to_string())?;
        let t0 = std::time::Instant::now();
        let mut positions = 0u64;
        // Batches of games in parallel, written in game order.
        let batch = 4 * self.threads as u64;
        let mut start = range.start;
        while start < range.end {
            let end = (start + batch).min(range.end);
            let parts: Vec<(Vec<u8>, u64)> = pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map(|i| {
                        let r = encode(i);
                        bar.inc(1);
                        r
                    })
                    .collect()
            });
            for (bytes, n) in parts {
                file.write_all(&bytes)
                    .map_err(|e| format!("cannot write {}: {e}", self.out.display()))?;
                positions += n;
            }
            let secs = t0.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{positions} positions ({:.0}/s)",
                positions as f64 / secs
            ));
            start = end;
        }
        file.flush()
            .map_err(|e| format!("cannot write {}: {e}", self.out.display()))?;
        bar.finish();
        errln!(
            "datagen: {} games, {positions} positions in {:.1} s, written to {}",
            range.end - range.start,
            t0.elapsed().as_secs_f64(),
            self.out.display()
        );
        Ok(())
    }
}

impl RulesVisitor for Run {
    type Output = Result<(), String>;
    fn visit<R: Rules>(self, game: Draughts<R>) -> Self::Output {
        self.write(&|i| encode_games(game, &self.cfg, i..i + 1))
    }
}

pub fn run(args: DatagenArgs) -> ExitCode {
    let opts = match args.game.options() {
        Ok(o) => o,
        Err(e) => return super::fail(e),
    };
    let (shard, shards) = match args.shard.as_deref().map(parse_shard).transpose() {
        Ok(s) => s.unwrap_or((1, 1)),
        Err(e) => return super::fail(e),
    };
    if args.threads == 0 || args.threads > 256 {
        return super::fail(format!(
            "threads {} is out of range (1..=256)",
            args.threads
        ));
    }
    let nodes = if args.depth.is_none() && args.nodes.is_none() {
        Some(3000)
    } else {
        args.nodes
    };
    let cfg = Config {
        games: args.games,
        depth: args.depth,
        nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        shard,
        shards,
        max_plies: args.max_plies,
        hash_mib: args.hash.clamp(1, 4096),
    };
    let run = Run {
        cfg,
        threads: args.threads,
        out: args.out,
    };
    if opts.variant == Variant::Chinese {
        let game = match Chinese::new(opts.chinese()) {
            Ok(g) if g.num_players() == 2 => g,
            Ok(_) => {
                return super::fail(
                    "chinese checkers data is for 2 players (the learned weights serve every player count)",
                );
            }
            Err(e) => return super::fail(e),
        };
        return match run.write(&|i| chinese::encode_games(game, &run.cfg, i..i + 1)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => super::fail(e),
        };
    }
    match dispatch_rules(&opts, run) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => super::fail(e),
        Err(e) => super::fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse() {
        assert_eq!(parse_shard("2/8"), Ok((2, 8)));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("x").is_err());
    }
}
