//! `salto egdb build|verify|info`: endgame databases (docs/egdb.md).

use super::{GameArgs, fail};
use crate::draughts::{Draughts, Rules};
use crate::egdb::build::{BuildOptions, SliceReport, build_all};
use crate::egdb::file::FileState;
use crate::egdb::place;
use crate::egdb::verify::verify_slice;
use crate::egdb::{Database, Material, rules_key};
use crate::variant::{RulesVisitor, dispatch_rules};
use clap::{Args, Subcommand};
use indicatif::ProgressBar;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub command: EgdbCommand,
}

#[derive(Subcommand, Debug)]
pub enum EgdbCommand {
    /// Build every slice up to N pieces (finished slice files are kept and skipped).
    Build(BuildArgs),
    /// Check that every stored value equals the best of its successors' values.
    Verify(EgdbCommon),
    /// Win/draw/loss counts and sizes of the built slices.
    Info(InfoArgs),
    /// What the database folder holds for every rule set, and what is missing.
    List(ListArgs),
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// The database root (default: the standard place, $SALTO_EGDB or
    /// ~/.local/share/salto/egdb).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct EgdbCommon {
    #[command(flatten)]
    pub game: GameArgs,
    /// The most pieces on the board (both sides together).
    #[arg(long, default_value_t = 4)]
    pub pieces: u32,
    /// The database root: slices go to DIR/<variant>/<material>.egdb
    /// (default: the standard place, $SALTO_EGDB or ~/.local/share/salto/egdb,
    /// where the engine looks).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub common: EgdbCommon,
    /// Also write the distance-to-conversion files (<material>.dtc, one
    /// byte a position) of the slices of at most this many pieces; 0: none.
    /// Added to finished slices without rewriting them.
    #[arg(long, default_value_t = 4)]
    pub dtc_pieces: u32,
    /// The most memory one slice's build may take (e.g. 8G, 512M, or
    /// bytes): the build holds only the finished slices that later slices
    /// lead to, and stops with an error at a slice that would need more,
    /// before allocating it. Default: no limit.
    #[arg(long, value_parser = parse_size)]
    pub memory: Option<u64>,
    /// Build only the K-th of N shares of the slices (every N-th slice of
    /// the build order), for N builds at once on one folder (GNU parallel,
    /// or machines sharing the folder): a share reads the others' slices
    /// from the folder, waiting for the ones its slices lead to. See
    /// docs/egdb.md.
    #[arg(long, value_name = "K/N", value_parser = crate::cli::datagen::parse_shard)]
    pub shard: Option<(u64, u64)>,
}

/// A size in bytes: a number with an optional K, M, G or T suffix (powers
/// of 1024; `GiB`, `GB` and `g` read the same).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let shift = match unit
        .trim()
        .to_ascii_lowercase()
        .trim_end_matches("ib")
        .trim_end_matches('b')
    {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => {
            return Err(format!(
                "{s:?}: expected a size such as 8G, 512M or 1000000 (bytes)"
            ));
        }
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("{s:?}: expected a size such as 8G, 512M or 1000000 (bytes)"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!("{s:?}: the size must be above 0"));
    }
    Ok((v * (1u64 << shift) as f64) as u64)
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub common: EgdbCommon,
    /// One line per slice, not only per piece count.
    #[arg(long)]
    pub slices: bool,
}

enum Job {
    Build {
        dtc_pieces: u32,
        memory: Option<u64>,
        shard: (u64, u64),
    },
    Verify,
    Info {
        slices: bool,
    },
}

struct Run<'a> {
    job: Job,
    args: &'a EgdbCommon,
    dir: PathBuf,
}

/// `--dir`, else the standard place.
fn root(dir: &Option<PathBuf>) -> Result<PathBuf, String> {
    match dir {
        Some(d) => Ok(d.clone()),
        None => place::standard_root().ok_or_else(|| {
            format!(
                "no standard database folder (SALTO_EGDB is '{}' or no home folder is known): give --dir",
                place::OFF
            )
        }),
    }
}

/// Win, draw and loss counts (both sides to move) and sizes by piece count.
#[derive(Default, Clone, Copy)]
struct Totals {
    slices: u64,
    positions: u64,
    wdl: [u64; 3],
    bytes: u64,
    seconds: f64,
}

fn print_totals(rows: &[SliceReport], per_slice: bool) {
    let max = rows.iter().map(|r| r.material.pieces()).max().unwrap_or(0);
    let mut by = vec![Totals::default(); max as usize + 1];
    outln!(
        "pieces  slices       positions            wins           draws          losses        bytes  seconds"
    );
    for r in rows {
        let t = &mut by[r.material.pieces() as usize];
        t.slices += 1;
        t.positions += 2 * r.count;
        for s in 0..2 {
            for k in 0..3 {
                t.wdl[k] += r.wdl[s][k];
            }
        }
        t.bytes += r.bytes;
        t.seconds += r.seconds;
        if per_slice {
            let w = r.wdl;
            outln!(
                "  {}  white to move {}/{}/{}  black to move {}/{}/{}  ({} a side, {} bytes)",
                r.material,
                w[0][0],
                w[0][1],
                w[0][2],
                w[1][0],
                w[1][1],
                w[1][2],
                r.count,
                r.bytes
            );
        }
    }
    for (p, t) in by.iter().enumerate().filter(|(_, t)| t.slices > 0) {
        outln!(
            "{p:>6} {:>7} {:>15} {:>15} {:>15} {:>15} {:>12} {:>8.1}",
            t.slices,
            t.positions,
            t.wdl[0],
            t.wdl[1],
            t.wdl[2],
            t.bytes,
            t.seconds
        );
    }
}

impl RulesVisitor for Run<'_> {
    type Output = ExitCode;
    fn visit<R: Rules>(self, _game: Draughts<R>) -> ExitCode {
        let a = self.args;
        let start = Instant::now();
        match self.job {
            Job::Build {
                dtc_pieces,
                memory,
                shard,
            } => {
                let opts = BuildOptions {
                    root: &self.dir,
                    pieces: a.pieces,
                    dtc_pieces,
                    progress: true,
                    memory,
                    shard,
                };
                match build_all::<R>(&opts) {
                    Ok(rows) => {
                        outln!(
                            "egdb {} up to {} pieces in {}: built {} slices, reused {}, {} with distances, longest distance built {} plies ({:.1} s)",
                            rules_key::<R>(),
                            a.pieces,
                            self.dir.display(),
                            rows.iter().filter(|r| !r.reused).count(),
                            rows.iter().filter(|r| r.reused).count(),
                            rows.iter().filter(|r| r.dtc).count(),
                            rows.iter().map(|r| r.levels).max().unwrap_or(0),
                            start.elapsed().as_secs_f64()
                        );
                        print_totals(&rows, false);
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(e),
                }
            }
            Job::Verify => {
                let db = Database::open::<R>(&self.dir, a.pieces);
                let materials = Material::all_up_to(a.pieces);
                let bar = ProgressBar::new(
                    materials
                        .iter()
                        .map(|&m| 2 * crate::egdb::index::Indexer::new(&db.board, m).count)
                        .sum(),
                );
                let mut bad = 0u64;
                let mut bad_dtc = 0u64;
                let mut with_dtc = 0u64;
                let mut checked = 0u64;
                let mut missing = Vec::new();
                for m in materials {
                    bar.set_message(format!("{m}"));
                    let r = verify_slice::<R>(&db, m, &bar);
                    checked += r.checked;
                    bad += r.mismatches;
                    bad_dtc += r.dtc_mismatches;
                    with_dtc += r.dtc as u64;
                    if r.dtc_mismatches > 0 {
                        bar.println(format!(
                            "slice {m}: {} positions with a wrong distance",
                            r.dtc_mismatches
                        ));
                    }
                    if r.missing {
                        missing.push(m.to_string());
                    }
                    if r.mismatches > 0 {
                        bar.println(format!(
                            "slice {m}: {} inconsistent positions",
                            r.mismatches
                        ));
                    }
                }
                bar.finish_and_clear();
                outln!(
                    "egdb verify {} up to {} pieces: {checked} positions checked, {bad} inconsistent, {with_dtc} slices with distances, {bad_dtc} wrong distances, {} slices missing or unreadable{} ({:.1} s)",
                    rules_key::<R>(),
                    a.pieces,
                    missing.len(),
                    if missing.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", missing.join(" "))
                    },
                    start.elapsed().as_secs_f64()
                );
                if bad == 0 && bad_dtc == 0 && missing.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Job::Info { slices } => {
                let db = Database::open::<R>(&self.dir, a.pieces);
                let mut rows = Vec::new();
                let mut missing = Vec::new();
                for m in Material::all_up_to(a.pieces) {
                    match db.slice(m) {
                        Some(s) => rows.push(SliceReport {
                            material: m,
                            count: s.indexer.count,
                            wdl: s.counts(),
                            levels: 0,
                            dtc: false,
                            reused: true,
                            seconds: 0.0,
                            bytes: std::fs::metadata(crate::egdb::slice_path(
                                &self.dir,
                                rules_key::<R>(),
                                m,
                            ))
                            .map_or(0, |md| md.len()),
                        }),
                        None => missing.push(m.to_string()),
                    }
                }
                outln!(
                    "egdb {} in {}: {} slices readable, {} missing or unreadable{}",
                    rules_key::<R>(),
                    self.dir.display(),
                    rows.len(),
                    missing.len(),
                    if missing.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", missing.join(" "))
                    }
                );
                print_totals(&rows, slices);
                if slices {
                    for r in &rows {
                        if let Some((pos, d)) = db.longest_win::<R>(r.material) {
                            outln!(
                                "  {}  longest win, White to move: {d} plies to conversion: {}",
                                r.material,
                                crate::draughts::notation::format_fen::<R>(&pos, false)
                            );
                        }
                    }
                }
                if missing.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Runs `salto egdb ...`.
pub fn run(args: EgdbArgs) -> ExitCode {
    let (job, common) = match &args.command {
        EgdbCommand::Build(b) => (
            Job::Build {
                dtc_pieces: b.dtc_pieces,
                memory: b.memory,
                shard: b.shard.unwrap_or((1, 1)),
            },
            &b.common,
        ),
        EgdbCommand::Verify(c) => (Job::Verify, c),
        EgdbCommand::Info(i) => (Job::Info { slices: i.slices }, &i.common),
        EgdbCommand::List(l) => return list(l),
    };
    if common.pieces < 2 || common.pieces as usize > crate::egdb::index::MAX_PIECES {
        return fail(format!(
            "--pieces {}: expected 2 to {}",
            common.pieces,
            crate::egdb::index::MAX_PIECES
        ));
    }
    let opts = match common.game.options() {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    let dir = match root(&common.dir) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let run = || {
        dispatch_rules(
            &opts,
            Run {
                job,
                args: common,
                dir,
            },
        )
    };
    let result = match common.threads {
        Some(t) => match rayon::ThreadPoolBuilder::new().num_threads(t).build() {
            Ok(pool) => pool.install(run),
            Err(e) => return fail(format!("cannot start {t} threads: {e}")),
        },
        None => run(),
    };
    result.unwrap_or_else(fail)
}

/// `salto egdb list`: for every rule set, what its folder holds (complete
/// piece counts, partial ones, bad files) and the command that builds the
/// next piece count.
fn list(args: &ListArgs) -> ExitCode {
    use crate::variant::{Options, TurkishPromotion, Variant};
    let dir = match root(&args.dir) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    outln!("egdb in {}", dir.display());
    // Every draughts rule set of the registry, with each value of an
    // option that changes the rules (turkish-promotion).
    let mut sets: Vec<(Options, &str)> = Vec::new();
    for v in Variant::ALL
        .into_iter()
        .filter(|v| v.descriptor().endgame_databases)
    {
        sets.push((Options::new(v), ""));
        if v.descriptor().options.contains(&"turkish-promotion") {
            let mut immediate = Options::new(v);
            immediate.turkish_promotion = TurkishPromotion::Immediate;
            sets.push((immediate, " --option turkish-promotion=immediate"));
        }
    }
    let mut bad = 0;
    for (opts, flag) in sets {
        let Ok(scan) = dispatch_rules(&opts, ScanVisitor(&dir)) else {
            continue;
        };
        let bytes: u64 = scan.slices.iter().map(|s| s.bytes).sum();
        outln!("{}: {} ({bytes} bytes)", scan.key, scan.summary());
        for (s, e) in scan.bad() {
            bad += 1;
            outln!("  bad {}.egdb: {e}", s.material);
        }
        for s in &scan.slices {
            if let FileState::Bad(e) = &s.dtc {
                bad += 1;
                outln!("  bad {}.dtc: {e}", s.material);
            }
        }
        let next = scan.complete.max(1) + 1;
        if next as usize <= crate::egdb::index::MAX_PIECES {
            let missing: Vec<String> = scan
                .slices
                .iter()
                .filter(|s| s.material.pieces() <= next && s.values != FileState::Complete)
                .map(|s| s.material.to_string())
                .collect();
            let all = Material::all_up_to(next).len();
            let shown = missing
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
            outln!(
                "  missing for {next} pieces: {} of {all} slices ({shown}{}); build: salto egdb build --variant {}{flag} --pieces {next}{}",
                missing.len(),
                if missing.len() > 12 { " ..." } else { "" },
                opts.variant.descriptor().name,
                args.dir
                    .as_ref()
                    .map(|d| format!(" --dir {}", d.display()))
                    .unwrap_or_default()
            );
        }
    }
    if bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// [`place::scan`] for the rule set a visitor is dispatched to.
struct ScanVisitor<'a>(&'a std::path::Path);

impl RulesVisitor for ScanVisitor<'_> {
    type Output = place::Scan;
    fn visit<R: Rules>(self, _game: Draughts<R>) -> place::Scan {
        place::scan::<R>(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn memory_sizes_read_with_their_units() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("8GiB"), Ok(8 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("1.5K"), Ok(1536));
        assert_eq!(parse_size("1000000"), Ok(1_000_000));
        assert!(parse_size("8X").is_err());
        assert!(parse_size("G").is_err());
        assert!(parse_size("0").is_err());
    }
}
