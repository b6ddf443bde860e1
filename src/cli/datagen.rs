//! `salto datagen`: self-play training data (docs/training.md).

use super::GameArgs;
use crate::chinese::Chinese;
use crate::draughts::Draughts;
use crate::draughts::rules::Rules;
use crate::game::Game;
use crate::learn::chinese;
use crate::learn::datagen::{Config, encode_games};
use crate::variant::Variant;
use crate::variant::{RulesVisitor, dispatch_rules};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
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
    /// Label each written position with a search of this many nodes
    /// instead of the score of the search that played the move (games
    /// played at --nodes, labels searched deeper). Not for chinese checkers.
    #[arg(long)]
    pub score_nodes: Option<u64>,
    /// Write no position where both players have a king (no label search
    /// is spent on them): the positions `salto train --skip-both-kings`
    /// leaves out. Not for chinese checkers.
    #[arg(long)]
    pub skip_both_kings: bool,
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
    /// The output file (overwritten, unless --resume continues it).
    #[arg(long)]
    pub out: PathBuf,
    /// Continue the run that wrote --out (same command), from the games its
    /// progress file (`OUT.progress`) records as written; without that file,
    /// start afresh.
    #[arg(long)]
    pub resume: bool,
}

/// `OUT.progress`: how much of the output a run has written and synced,
/// rewritten (atomically) after each batch. Bytes past `bytes` (a batch cut
/// by a kill, perhaps in the middle of a record) are not data: a resume
/// cuts them off and plays their games again.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Progress {
    datagen: u32,
    /// A hash of the run's options (game, search, seed, shard).
    fingerprint: String,
    games_done: u64,
    positions: u64,
    bytes: u64,
}

/// The progress file of the output `out`.
pub fn progress_path(out: &std::path::Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".progress");
    PathBuf::from(p)
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
    resume: bool,
    /// [`Progress::fingerprint`].
    fingerprint: String,
}

impl Run {
    /// Plays the shard's games on `threads` threads, in batches, and writes
    /// their records in game order (`encode`: the records of one game and
    /// their count), with a progress bar.
    fn write(&self, encode: &(dyn Fn(u64) -> (Vec<u8>, u64) + Sync)) -> Result<(), String> {
        let range = self.cfg.range();
        let (mut file, mut progress) = self.open()?;
        let cannot = |e: std::io::Error| format!("cannot write {}: {e}", self.out.display());
        let bar = ProgressBar::new(range.end - range.start);
        bar.set_position(progress.games_done);
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
        let mut positions = progress.positions;
        // Batches of games in parallel, written in game order.
        let batch = 4 * self.threads as u64;
        let mut start = range.start + progress.games_done;
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
                file.write_all(&bytes).map_err(cannot)?;
                progress.bytes += bytes.len() as u64;
                positions += n;
            }
            // The batch is on the disk before the progress file says so.
            file.sync_data().map_err(cannot)?;
            progress.games_done = end - range.start;
            progress.positions = positions;
            self.save(&progress)?;
            let secs = t0.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{positions} positions ({:.0}/s)",
                positions as f64 / secs
            ));
            start = end;
        }
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

impl Run {
    /// The output file, open at its end, and what it holds: a resumed run's
    /// file cut back to what its progress file confirms, or a new one.
    fn open(&self) -> Result<(std::fs::File, Progress), String> {
        let out = self.out.display();
        let cannot = |e: std::io::Error| format!("cannot write {out}: {e}");
        let path = progress_path(&self.out);
        if self.resume && path.exists() {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let p: Progress = serde_json::from_str(&text)
                .map_err(|e| format!("{} is not a datagen progress file: {e}", path.display()))?;
            if p.fingerprint != self.fingerprint {
                return Err(format!(
                    "{} is of another run (other options): give the same options, or leave out --resume to start afresh",
                    path.display()
                ));
            }
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .open(&self.out)
                .map_err(|e| format!("cannot open {out} to resume it: {e}"))?;
            let len = file.metadata().map_err(cannot)?.len();
            if len < p.bytes {
                return Err(format!(
                    "{out} has {len} bytes, fewer than the {} its progress file confirms: it was changed since; leave out --resume to start afresh",
                    p.bytes
                ));
            }
            // What was written after the last confirmed batch is not data.
            file.set_len(p.bytes).map_err(cannot)?;
            use std::io::Seek;
            file.seek(std::io::SeekFrom::End(0)).map_err(cannot)?;
            if p.games_done > 0 {
                errln!(
                    "datagen: resuming {out} after {} games ({} positions)",
                    p.games_done,
                    p.positions
                );
            }
            return Ok((file, p));
        }
        let file =
            std::fs::File::create(&self.out).map_err(|e| format!("cannot create {out}: {e}"))?;
        let p = Progress {
            datagen: 1,
            fingerprint: self.fingerprint.clone(),
            games_done: 0,
            positions: 0,
            bytes: 0,
        };
        self.save(&p)?;
        Ok((file, p))
    }

    fn save(&self, p: &Progress) -> Result<(), String> {
        let path = progress_path(&self.out);
        let text = serde_json::to_string(p).map_err(|e| e.to_string())?;
        crate::fsutil::write_atomic(&path, format!("{text}\n").as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
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
    if args.score_nodes == Some(0) {
        return super::fail("--score-nodes must be at least 1");
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
        score_nodes: args.score_nodes,
        skip_both_kings: args.skip_both_kings,
    };
    let fingerprint = crate::tournament::journal::fingerprint(&format!("{:?}|{cfg:?}", args.game));
    let run = Run {
        cfg,
        threads: args.threads,
        out: args.out,
        resume: args.resume,
        fingerprint,
    };
    if opts.variant == Variant::Chinese {
        if run.cfg.score_nodes.is_some() {
            return super::fail(
                "--score-nodes is for the draughts games: chinese checkers data is labelled by its results only",
            );
        }
        if run.cfg.skip_both_kings {
            return super::fail(
                "--skip-both-kings is for the draughts games: chinese checkers has no kings",
            );
        }
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
