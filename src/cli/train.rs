//! `salto train`: fits the pattern evaluation's weights to `salto datagen`
//! files (docs/training.md).

use super::GameArgs;
use crate::chinese::weights::{HAND, TERM_NAMES, format_weights};
use crate::draughts::Draughts;
use crate::draughts::eval;
use crate::draughts::rules::Rules;
use crate::draughts::weights::Weights;
use crate::learn::chinese;
use crate::learn::data::read_files;
use crate::learn::train::{self, Examples, from_weights, start_weights, to_weights};
use crate::variant::Variant;

use crate::learn::name_indices;
use crate::variant::{RulesVisitor, dispatch_rules};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Data files from `salto datagen` (concatenated in this order).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the training data.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// Adam's step size in centi-men (falls linearly to a tenth).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f32,
    /// L2 regularisation towards the starting weights.
    #[arg(long, default_value_t = 1e-7)]
    pub l2: f32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Share of the positions held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Seed of the shuffles (the result is the same for a seed, whatever
    /// the thread count).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The sigmoid scale K (default: fitted to the data).
    #[arg(long)]
    pub k: Option<f32>,
    /// Start from these weights instead of the hand evaluation.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Train the hand features' weights only (no pattern weights).
    #[arg(long)]
    pub features_only: bool,
    /// Train the pattern weights only (the features keep their weights).
    #[arg(long, conflicts_with = "features_only")]
    pub patterns_only: bool,
    /// Hand features whose weights keep their starting values, by name
    /// (comma-separated: man, king, advance, centre, side-edge, back-rank,
    /// support, wing-imbalance, runaway, king-centre, tempo).
    #[arg(long, value_delimiter = ',', conflicts_with = "patterns_only")]
    pub freeze: Vec<String>,
    /// Keep the trained scale instead of rescaling so that a man is 100.
    #[arg(long)]
    pub no_normalise: bool,
    /// Leave out the positions where both players have a king (with flying
    /// kings mostly long drawn king endings, which teach a linear evaluation
    /// that kings are worth little).
    #[arg(long)]
    pub skip_both_kings: bool,
    /// Threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

struct Run(TrainArgs);

impl RulesVisitor for Run {
    type Output = Result<(), String>;
    fn visit<R: Rules>(self, _game: Draughts<R>) -> Self::Output {
        let a = self.0;
        let frozen = name_indices(&a.freeze, &eval::FEATURE_NAMES, "feature")?;
        let t0 = std::time::Instant::now();
        let mut samples = read_files::<R>(&a.data)?;
        if a.skip_both_kings {
            let before = samples.len();
            samples.retain(|s| !train::both_have_kings::<R>(&s.pos));
            errln!(
                "train: left out {} of {} positions where both players have a king",
                before - samples.len(),
                before
            );
        }
        if samples.len() < 10 {
            return Err(format!("only {} positions in the data", samples.len()));
        }
        let ex = Examples::from_samples::<R>(&samples);
        drop(samples);
        let layout = &eval::tables::<R>().layout;
        let w0 = match &a.init {
            Some(p) => {
                let w = Weights::load(p).map_err(|e| e.0)?;
                w.check::<R>().map_err(|e| e.0)?;
                from_weights(&w)
            }
            None => start_weights::<R>(),
        };
        errln!(
            "train: {} positions, {} windows, {} weights, read in {:.1} s",
            ex.len(),
            layout.windows.len(),
            layout.weight_count(),
            t0.elapsed().as_secs_f64()
        );
        let opts = train::Options {
            epochs: a.epochs,
            lambda: a.lambda,
            lr: a.lr,
            l2: a.l2,
            batch: a.batch,
            validation: a.validation,
            seed: a.seed,
            k: a.k,
            features_only: a.features_only,
            patterns_only: a.patterns_only,
            frozen,
        };
        let mut t = train::train(&ex, layout.entries, &w0, &opts, &mut |r| {
            errln!(
                "epoch {:3}  train loss {:.6}  validation loss {:.6}  ({:.0} s)",
                r.epoch,
                r.train_loss,
                r.validation_loss,
                t0.elapsed().as_secs_f64()
            );
        });
        errln!(
            "train: K = {:.1}, {} training and {} validation positions, validation loss {:.6} at the start, best {:.6}",
            t.k,
            t.train_size,
            t.validation_size,
            t.start_validation_loss,
            t.reports
                .iter()
                .map(|r| r.validation_loss)
                .fold(t.start_validation_loss, f64::min)
        );
        if !a.no_normalise {
            train::normalise(&mut t.w, layout.entries);
        }
        let w = to_weights::<R>(&t.w);
        let names = eval::FEATURE_NAMES;
        for (k, name) in names.iter().enumerate() {
            errln!(
                "  {:15} opening {:8.2}  ending {:8.2}",
                name,
                t.w[2 * layout.entries + 2 * k],
                t.w[2 * layout.entries + 2 * k + 1]
            );
        }
        crate::fsutil::write_atomic(&a.out, &w.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
        errln!("train: wrote {}", a.out.display());
        Ok(())
    }
}

/// Chinese checkers: fits the weights of the evaluation's terms to
/// 2-player data (the result alone; `--epochs`, `--lambda` and the other
/// options of the pattern trainer do not apply) and writes them in the
/// text form of `weights/chinese.txt`.
fn train_chinese(a: &TrainArgs) -> Result<(), String> {
    let t0 = std::time::Instant::now();
    let samples = chinese::read_files(&a.data)?;
    if samples.len() < 10 {
        return Err(format!("only {} positions in the data", samples.len()));
    }
    let frozen = name_indices(&a.freeze, &TERM_NAMES, "term")?;
    let f = chinese::fit(&samples, a.validation, &frozen)?;
    errln!(
        "train: {} training and {} validation positions (the last ones), K = {:.1}, validation loss {:.6} (hand weights {:.6}), {:.1} s",
        f.train_size,
        f.validation_size,
        f.k,
        f.validation_loss,
        f.hand_validation_loss,
        t0.elapsed().as_secs_f64()
    );
    for (k, name) in TERM_NAMES.iter().enumerate() {
        errln!(
            "  {:13} {:5}  (hand {:4}){}",
            name,
            f.weights[k],
            HAND[k],
            if f.active[k] {
                ""
            } else if frozen.contains(&k) {
                "  frozen"
            } else {
                "  not in the data"
            }
        );
    }
    let text = format!(
        "# Chinese checkers evaluation weights, centi-men per unit of each term\n# (src/chinese/eval.rs), from salto train on {} positions.\n{}",
        samples.len(),
        format_weights(&f.weights)
    );
    crate::fsutil::write_atomic(&a.out, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    errln!("train: wrote {}", a.out.display());
    Ok(())
}

pub fn run(args: TrainArgs) -> ExitCode {
    let opts = match args.game.options() {
        Ok(o) => o,
        Err(e) => return super::fail(e),
    };
    if let Some(n) = args.threads {
        if n == 0 || n > 256 {
            return super::fail(format!("threads {n} is out of range (1..=256)"));
        }
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.validation) {
        return super::fail("--lambda must be in 0..=1 and --validation in 0..1");
    }
    if opts.variant == Variant::Chinese {
        return match train_chinese(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => super::fail(e),
        };
    }
    match dispatch_rules(&opts, Run(args)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => super::fail(e),
        Err(e) => super::fail(e),
    }
}
