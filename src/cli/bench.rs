//! `salto bench`: a fixed set of positions per variant searched to a fixed
//! depth on one thread with a fixed table size. Prints the node count of
//! each position, the total (the bench signature: the same binary always
//! prints the same count) and the speed.

use super::positions::positions;
use crate::game::{Game, ParseError};
use crate::search::{Control, Features, Limits, Searcher};
use crate::variant::{GameVisitor, Options, Variant, dispatch};
use clap::Args;
use std::process::ExitCode;

/// Table size of every bench search, MiB.
pub const BENCH_HASH_MIB: usize = 16;

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Only this variant (default: every variant that is implemented).
    #[arg(long)]
    pub variant: Option<String>,
    /// Search depth (default: each variant's bench depth).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search threads (the node count is a signature only with 1).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print only the total.
    #[arg(long)]
    pub quiet: bool,
    /// Turn late move reductions off (for measuring them).
    #[arg(long, hide = true)]
    pub no_lmr: bool,
    /// Turn the evaluation cache off (for measuring it: the nodes are the
    /// same).
    #[arg(long, hide = true)]
    pub no_eval_cache: bool,
    /// Draughts evaluation, as `--eval` elsewhere (for measuring its speed;
    /// the signature is the default's).
    #[arg(long, hide = true)]
    pub eval: Option<String>,
    /// Compare Hub engines instead (repeatable; specs as `salto match
    /// --engine`): each searches every position of `--positions` at
    /// `--movetime`, `--depth` or `--nodes`, side by side.
    #[arg(long, value_name = "SPEC")]
    pub engine: Vec<String>,
    /// The position file (one FEN per line, `#` comments) instead of the
    /// variant's bench positions (with or without --engine).
    #[arg(long, value_name = "FILE")]
    pub positions: Option<std::path::PathBuf>,
    /// With --engine: seconds per move.
    #[arg(long)]
    pub movetime: Option<f64>,
    /// With --engine: nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// With --engine: passes over the position set (the engines' order
    /// alternates); the table shows each position's median.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// With --engine: the longest wait for a search at a fixed depth or
    /// node count, seconds.
    #[arg(long, default_value_t = 300.0)]
    pub timeout: f64,
}

/// What one variant's bench gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchCount {
    pub nodes: u64,
    pub micros: u128,
}

struct BenchRun {
    variant: Variant,
    /// FENs to search instead of the variant's bench positions.
    fens: Option<Vec<String>>,
    features: Features,
    depth: Option<u32>,
    threads: usize,
    quiet: bool,
}

impl GameVisitor for BenchRun {
    type Output = Result<BenchCount, ParseError>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let depth = self.depth.unwrap_or(self.variant.descriptor().bench_depth);
        let mut total = BenchCount::default();
        let set = match &self.fens {
            Some(fens) => fens
                .iter()
                .map(|f| game.parse_fen(f))
                .collect::<Result<Vec<_>, _>>()?,
            None => positions(&game, self.variant)?,
        };
        for (i, pos) in set.iter().enumerate() {
            let mut s = Searcher::new(game, BENCH_HASH_MIB, self.threads);
            s.set_features(self.features);
            let control = Control::new();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let t0 = std::time::Instant::now();
            let r = s.search(pos, &[], &limits, &control, &mut |_| {});
            let micros = t0.elapsed().as_micros();
            if !self.quiet {
                outln!(
                    "bench variant={} position={} depth={} nodes={} time={:.3} best={}",
                    game.name(),
                    i + 1,
                    r.depth,
                    r.nodes,
                    micros as f64 / 1e6,
                    r.best.map_or("none".into(), |m| game.format_move(pos, m))
                );
            }
            total.nodes += r.nodes;
            total.micros += micros;
        }
        Ok(total)
    }
}

/// Runs the bench of the given variants; returns the total count.
pub fn bench(
    features: Features,
    variants: &[Variant],
    depth: Option<u32>,
    threads: usize,
    quiet: bool,
) -> Result<BenchCount, ParseError> {
    bench_eval(features, variants, depth, threads, quiet, None, None)
}

/// [`bench`] with an `eval` option for the draughts variants.
fn bench_eval(
    features: Features,
    variants: &[Variant],
    depth: Option<u32>,
    threads: usize,
    quiet: bool,
    eval: Option<&str>,
    fens: Option<Vec<String>>,
) -> Result<BenchCount, ParseError> {
    let mut total = BenchCount::default();
    for &v in variants {
        let run = BenchRun {
            variant: v,
            fens: fens.clone(),
            features,
            depth,
            threads,
            quiet,
        };
        let mut opts = Options::new(v);
        if let Some(e) = eval {
            opts.set("eval", e)?;
        }
        let c = dispatch(&opts, run)??;
        total.nodes += c.nodes;
        total.micros += c.micros;
    }
    Ok(total)
}

/// The variants `dispatch` can build.
pub fn implemented_variants() -> Vec<Variant> {
    struct Probe;
    impl GameVisitor for Probe {
        type Output = ();
        fn visit<G: Game>(self, _game: G) {}
    }
    Variant::ALL
        .into_iter()
        .filter(|&v| dispatch(&Options::new(v), Probe).is_ok())
        .collect()
}

pub fn run(args: BenchArgs) -> ExitCode {
    if !args.engine.is_empty() {
        return compare(&args);
    }
    if args.movetime.is_some() || args.nodes.is_some() {
        return super::fail("--movetime and --nodes go with --engine");
    }
    if args.threads == 0 || args.threads > 256 {
        return super::fail(format!(
            "threads {} is out of range (1..=256)",
            args.threads
        ));
    }
    if let Some(d) = args.depth
        && (d == 0 || d > 64)
    {
        return super::fail(format!("depth {d} is out of range (1..=64)"));
    }
    let variants = match &args.variant {
        Some(v) => match v.parse::<Variant>() {
            Ok(v) => vec![v],
            Err(e) => return super::fail(e),
        },
        None => implemented_variants(),
    };
    // A position file: its positions instead of the variant's (one
    // variant, international unless --variant says otherwise).
    let (variants, fens) = match &args.positions {
        Some(file) => {
            let v = variants.first().copied().filter(|_| args.variant.is_some());
            let v = v.unwrap_or(Variant::International);
            match super::compare::load_positions(&Options::new(v), Some(file)) {
                Ok(p) => (vec![v], Some(p.into_iter().map(|p| p.fen).collect())),
                Err(e) => return super::fail(e),
            }
        }
        None => (variants, None),
    };
    let features = Features {
        lmr: !args.no_lmr,
        eval_cache: !args.no_eval_cache,
        ..Features::default()
    };
    match bench_eval(
        features,
        &variants,
        args.depth,
        args.threads,
        args.quiet,
        args.eval.as_deref(),
        fens,
    ) {
        Ok(c) => {
            let secs = c.micros as f64 / 1e6;
            let nps = if secs > 0.0 {
                c.nodes as f64 / secs
            } else {
                0.0
            };
            outln!(
                "bench total nodes={} time={:.3} nps={:.0}",
                c.nodes,
                secs,
                nps
            );
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(e),
    }
}

/// `salto bench --engine ...`: see [`super::compare`].
fn compare(args: &BenchArgs) -> ExitCode {
    use super::compare::{Compare, load_positions, report, run};
    use crate::tournament::{EngineSpec, TimeControl};
    let limit = match (args.movetime, args.depth, args.nodes) {
        (Some(t), None, None) if t.is_finite() && t > 0.0 => TimeControl::MoveTime(t),
        (None, Some(d), None) if (1..=64).contains(&d) => TimeControl::Depth(d),
        (None, None, Some(n)) if n > 0 => TimeControl::Nodes(n),
        _ => {
            return super::fail(
                "with --engine give one limit: --movetime S (S > 0), --depth D (1..=64) or --nodes N (N > 0)",
            );
        }
    };
    if args.runs == 0 || args.runs > 1000 {
        return super::fail(format!("runs {} is out of range (1..=1000)", args.runs));
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return super::fail("--timeout must be a positive number of seconds");
    }
    let specs: Vec<EngineSpec> = match args.engine.iter().map(|e| EngineSpec::parse(e)).collect() {
        Ok(s) => s,
        Err(e) => return super::fail(e),
    };
    let variant = match args
        .variant
        .as_deref()
        .unwrap_or("international")
        .parse::<Variant>()
    {
        Ok(v) => v,
        Err(e) => return super::fail(e),
    };
    let opts = Options::new(variant);
    let positions = match load_positions(&opts, args.positions.as_deref()) {
        Ok(p) => p,
        Err(e) => return super::fail(e),
    };
    let c = Compare {
        specs,
        positions,
        limit,
        runs: args.runs,
        timeout: args.timeout,
        game_params: super::matches::game_params(&opts),
    };
    let hooks = crate::tournament::engine::EngineHooks::default();
    let quiet = args.quiet;
    let all = run(&c, &hooks, &mut |l| {
        if !quiet {
            outln!("{l}");
        }
    });
    for l in report(&c, &all) {
        outln!("{l}");
    }
    ExitCode::SUCCESS
}
