//! Fitting the pattern evaluation's weights to self-play data.
//!
//! The model is the pattern evaluation itself ([`crate::draughts::pattern`])
//! in floating point: for a position with opening share `a` and drawish
//! factor `c` (1, or 1/4 in a drawish king ending),
//! `e = c (a open + (1 - a) end)`, where `open` and `end` sum the weights of
//! White's window entries, minus Black's, plus the feature weights times
//! White's features minus Black's. The loss is the logistic loss between
//! `sigmoid(e / K)` and the target `lambda result + (1 - lambda)
//! sigmoid(score / K)` (White's view), with `K` fitted first so that
//! `sigmoid(score / K)` best predicts the results. Adam minimises it plus
//! `l2 * sum (w - w0)^2`, where `w0` is the starting point (the hand
//! evaluation: no pattern weights, the hand constants).
//!
//! Every sum is taken over fixed chunks of examples in a fixed order, so a
//! run gives the same weights for the same data, seed and options whatever
//! the number of threads.

use super::data::Sample;
use crate::draughts::bitboard::Bitboard;
use crate::draughts::eval::{self, DRAWISH_DIVISOR, NF};
use crate::draughts::layout;
use crate::draughts::position::Bb;
use crate::draughts::rules::Rules;
use crate::draughts::weights::{SCALE, Weights};
use crate::game::zobrist;
use rayon::prelude::*;

/// Examples per chunk of a sum (fixed, so the sums do not depend on the
/// thread count).
const CHUNK: usize = 2048;

/// The positions as features.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    /// Windows per position.
    pub nwin: usize,
    /// White's and Black's entries, `nwin` per position.
    pub white: Vec<u32>,
    pub black: Vec<u32>,
    /// White's features minus Black's, `NF` per position.
    pub dense: Vec<f32>,
    /// Opening share.
    pub a: Vec<f32>,
    /// Drawish factor.
    pub c: Vec<f32>,
    /// Search score and result (0, 0.5, 1), White's view.
    pub score: Vec<f32>,
    pub result: Vec<f32>,
    /// The game of each example, as far as the data tells
    /// ([`game_numbers`]): the validation split holds out whole games.
    pub game: Vec<u32>,
}

/// A number per sample that changes where a new game must begin: the data
/// has no game marks, but `salto datagen` writes each game's positions
/// together and in order, and no move adds a piece, so a sample with more
/// pieces than the one before starts a new game. Two games can share a
/// number (when the next game starts with no more pieces than the last
/// one ended with), never one game two numbers.
pub fn game_numbers(counts: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let mut out = Vec::new();
    let (mut g, mut prev) = (0u32, u32::MAX);
    for c in counts {
        if c > prev {
            g += 1;
        }
        prev = c;
        out.push(g);
    }
    out
}

/// Whether both players have a king (`salto train --skip-both-kings`).
pub fn both_have_kings<R: Rules>(pos: &crate::draughts::position::Position<Bb<R>>) -> bool {
    (pos.pieces[0] & pos.kings).any() && (pos.pieces[1] & pos.kings).any()
}

impl Examples {
    pub fn len(&self) -> usize {
        self.a.len()
    }

    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// The features of the samples (in parallel, in order).
    pub fn from_samples<R: Rules>(samples: &[Sample<Bb<R>>]) -> Self {
        let t = eval::tables::<R>();
        let layout = &t.layout;
        let parts: Vec<Examples> = samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut ex = Examples {
                    nwin: layout.windows.len(),
                    ..Examples::default()
                };
                for s in chunk {
                    let (w, b) = layout::entries::<R>(layout, &s.pos);
                    ex.white.extend(w);
                    ex.black.extend(b);
                    let f = eval::feature_difference::<R>(t, &s.pos);
                    ex.dense.extend(f.iter().map(|&x| x as f32));
                    ex.a.push(layout::phase::<R>(layout, &s.pos) as f32 / layout.phase_max as f32);
                    ex.c.push(if eval::is_drawish::<R>(&s.pos) {
                        1.0 / DRAWISH_DIVISOR as f32
                    } else {
                        1.0
                    });
                    let sign = if s.pos.side == 0 { 1.0 } else { -1.0 };
                    ex.score.push(sign * s.score as f32);
                    let r = s.result as f32 / 2.0;
                    ex.result.push(if s.pos.side == 0 { r } else { 1.0 - r });
                }
                ex
            })
            .collect();
        let mut out = Examples {
            nwin: layout.windows.len(),
            ..Examples::default()
        };
        for p in parts {
            out.append(&p);
        }
        out.game = game_numbers(
            samples
                .iter()
                .map(|s| (s.pos.pieces[0] | s.pos.pieces[1]).count()),
        );
        out
    }

    fn append(&mut self, o: &Examples) {
        self.white.extend_from_slice(&o.white);
        self.black.extend_from_slice(&o.black);
        self.dense.extend_from_slice(&o.dense);
        self.a.extend_from_slice(&o.a);
        self.c.extend_from_slice(&o.c);
        self.score.extend_from_slice(&o.score);
        self.result.extend_from_slice(&o.result);
        self.game.extend_from_slice(&o.game);
    }

    /// The examples `idx`, in that order.
    pub fn select(&self, idx: &[usize]) -> Examples {
        let mut out = Examples {
            nwin: self.nwin,
            ..Examples::default()
        };
        for &i in idx {
            let n = self.nwin;
            out.white.extend_from_slice(&self.white[i * n..(i + 1) * n]);
            out.black.extend_from_slice(&self.black[i * n..(i + 1) * n]);
            out.dense
                .extend_from_slice(&self.dense[i * NF..(i + 1) * NF]);
            out.a.push(self.a[i]);
            out.c.push(self.c[i]);
            out.score.push(self.score[i]);
            out.result.push(self.result[i]);
            if let Some(&g) = self.game.get(i) {
                out.game.push(g);
            }
        }
        out
    }

    /// The model's evaluation of example `i` (White's view, centi-men);
    /// `entries` is the number of pattern entries (feature weights follow).
    #[inline]
    fn predict(&self, w: &[f32], entries: usize, i: usize) -> f32 {
        let (mut open, mut end) = (0f32, 0f32);
        let n = self.nwin;
        for k in 0..n {
            let a = 2 * self.white[i * n + k] as usize;
            let b = 2 * self.black[i * n + k] as usize;
            open += w[a] - w[b];
            end += w[a + 1] - w[b + 1];
        }
        for k in 0..NF {
            let x = self.dense[i * NF + k];
            open += w[2 * (entries + k)] * x;
            end += w[2 * (entries + k) + 1] * x;
        }
        let a = self.a[i];
        self.c[i] * (a * open + (1.0 - a) * end)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Logistic loss of prediction `p` against target `t`.
fn cross_entropy(p: f32, t: f32) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6) as f64;
    let t = t as f64;
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// A sum over chunks of `0..n`, in a fixed order.
fn chunked_sum(n: usize, f: impl Fn(std::ops::Range<usize>) -> f64 + Sync) -> f64 {
    let starts: Vec<usize> = (0..n).step_by(CHUNK).collect();
    let parts: Vec<f64> = starts
        .par_iter()
        .map(|&s| f(s..(s + CHUNK).min(n)))
        .collect();
    parts.iter().sum()
}

/// The `K` for which `sigmoid(score / K)` best predicts the results
/// (golden-section search on the mean logistic loss).
pub fn fit_k(ex: &Examples) -> f32 {
    let loss = |k: f32| {
        chunked_sum(ex.len(), |r| {
            r.map(|i| cross_entropy(sigmoid(ex.score[i] / k), ex.result[i]))
                .sum()
        }) / ex.len().max(1) as f64
    };
    let (mut lo, mut hi) = (10f32, 3000f32);
    let g = 0.618_034f32;
    for _ in 0..60 {
        let m1 = hi - g * (hi - lo);
        let m2 = lo + g * (hi - lo);
        if loss(m1) < loss(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo + hi) / 2.0
}

/// Training options.
#[derive(Clone, Debug)]
pub struct Options {
    pub epochs: usize,
    /// Weight of the game result in the target (1 - lambda: the score).
    pub lambda: f32,
    /// Adam's step size, centi-men; it falls linearly to a tenth.
    pub lr: f32,
    pub l2: f32,
    /// Examples per Adam step.
    pub batch: usize,
    /// Share of the examples held out for validation.
    pub validation: f64,
    pub seed: u64,
    /// `K`; fitted when `None`.
    pub k: Option<f32>,
    /// Train the feature weights only (the pattern weights stay).
    pub features_only: bool,
    /// Train the pattern weights only (the feature weights stay).
    pub patterns_only: bool,
    /// Features (indices into [`eval::FEATURE_NAMES`]) whose two weights
    /// keep their starting values, for example the material, whose
    /// value fitted to short self-play games may not suit deeper play.
    pub frozen: Vec<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            epochs: 20,
            lambda: 0.5,
            lr: 1.0,
            l2: 1e-7,
            batch: 16384,
            validation: 0.1,
            seed: 1,
            k: None,
            features_only: false,
            patterns_only: false,
            frozen: Vec::new(),
        }
    }
}

/// What one epoch gave.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
}

/// The outcome of a training run.
#[derive(Clone, Debug)]
pub struct Trained {
    /// Weights in centi-men (pattern entries, then features; two phases
    /// each), those of the epoch with the least validation loss.
    pub w: Vec<f32>,
    pub k: f32,
    pub reports: Vec<EpochReport>,
    pub start_validation_loss: f64,
    pub train_size: usize,
    pub validation_size: usize,
}

/// One chunk's gradient: sparse pattern terms (weight index, value), the
/// feature weights' gradient, and the chunk's summed loss.
type ChunkGradient = (Vec<(u32, f32)>, Vec<f32>, f64);

/// Mean loss of weights `w` on `ex` against the blended target.
fn mean_loss(ex: &Examples, w: &[f32], entries: usize, k: f32, lambda: f32) -> f64 {
    chunked_sum(ex.len(), |r| {
        r.map(|i| {
            let t = lambda * ex.result[i] + (1.0 - lambda) * sigmoid(ex.score[i] / k);
            cross_entropy(sigmoid(ex.predict(w, entries, i) / k), t)
        })
        .sum()
    }) / ex.len().max(1) as f64
}

/// Shuffles `v` with the random stream `s`.
fn shuffle<T>(v: &mut [T], s: &mut u64) {
    for i in (1..v.len()).rev() {
        let j = (zobrist::splitmix64(s) % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

/// The validation and the training examples (indices; the training ones
/// shuffled): whole games ([`Examples::game`]), drawn at random, are held
/// out until they make up the share `validation` of the examples, so that
/// no game has positions on both sides (positions of one game share its
/// result, and a split by position lets the validation loss reward a fit
/// that tells games apart). Examples without game numbers, or of fewer
/// than 10 games, are split by position. At least one game is kept for
/// training.
pub fn split(all: &Examples, validation: f64, s: &mut u64) -> (Vec<usize>, Vec<usize>) {
    let n = all.len();
    let nval = ((n as f64 * validation) as usize).min(n.saturating_sub(1));
    let games = all.game.last().map_or(0, |&g| g as usize + 1);
    if all.game.len() != n || games < 10 {
        let mut order: Vec<usize> = (0..n).collect();
        shuffle(&mut order, s);
        let tr = order.split_off(nval);
        return (order, tr);
    }
    let mut size = vec![0usize; games];
    for &g in &all.game {
        size[g as usize] += 1;
    }
    let mut order: Vec<usize> = (0..games).collect();
    shuffle(&mut order, s);
    let mut held = vec![false; games];
    let mut taken = 0;
    for &g in &order {
        if taken >= nval {
            break;
        }
        if taken + size[g] < n {
            held[g] = true;
            taken += size[g];
        }
    }
    let (val, mut tr): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| held[all.game[i] as usize]);
    shuffle(&mut tr, s);
    (val, tr)
}

/// Trains from `w0` (pattern entries then features, two phases each, in
/// centi-men); `on_epoch` sees each epoch's losses.
pub fn train(
    all: &Examples,
    entries: usize,
    w0: &[f32],
    opts: &Options,
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> Trained {
    let mut s = opts.seed;
    let (val_idx, tr_idx) = split(all, opts.validation, &mut s);
    let val = all.select(&val_idx);
    let tr = all.select(&tr_idx);
    let k = opts.k.unwrap_or_else(|| fit_k(&tr));
    let lambda = opts.lambda;
    let nw = w0.len();
    let mut w = w0.to_vec();
    let mut m = vec![0f32; nw];
    let mut v = vec![0f32; nw];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    // Which weights move: the pattern entries and the features, less what
    // the options keep.
    let mut trainable = vec![true; nw];
    for (j, t) in trainable.iter_mut().enumerate() {
        let feature = j >= 2 * entries;
        *t = if feature {
            !opts.patterns_only && !opts.frozen.contains(&((j - 2 * entries) / 2))
        } else {
            !opts.features_only
        };
    }
    let start_validation_loss = mean_loss(&val, &w, entries, k, lambda);
    let mut best = (start_validation_loss, w.clone());
    let mut reports = Vec::new();
    let batch = opts.batch.max(1);
    let steps_total = (opts.epochs * tr.len().div_ceil(batch)).max(1) as f32;
    let mut idx: Vec<usize> = (0..tr.len()).collect();
    for epoch in 1..=opts.epochs {
        shuffle(&mut idx, &mut s);
        let mut train_loss = 0f64;
        for b in idx.chunks(batch) {
            // Gradient of the batch's mean loss, summed chunk by chunk.
            let parts: Vec<ChunkGradient> = b
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut sparse = Vec::with_capacity(chunk.len() * 4 * tr.nwin);
                    let mut dense = vec![0f32; 2 * NF];
                    let mut loss = 0f64;
                    for &i in chunk {
                        let e = tr.predict(&w, entries, i);
                        let t = lambda * tr.result[i] + (1.0 - lambda) * sigmoid(tr.score[i] / k);
                        let p = sigmoid(e / k);
                        loss += cross_entropy(p, t);
                        let g = (p - t) / k * tr.c[i];
                        let (go, ge) = (g * tr.a[i], g * (1.0 - tr.a[i]));
                        let n = tr.nwin;
                        for q in 0..n {
                            let a = 2 * tr.white[i * n + q];
                            let bb = 2 * tr.black[i * n + q];
                            sparse.push((a, go));
                            sparse.push((a + 1, ge));
                            sparse.push((bb, -go));
                            sparse.push((bb + 1, -ge));
                        }
                        for q in 0..NF {
                            let x = tr.dense[i * NF + q];
                            dense[2 * q] += go * x;
                            dense[2 * q + 1] += ge * x;
                        }
                    }
                    (sparse, dense, loss)
                })
                .collect();
            let mut grad = vec![0f32; nw];
            let scale = 1.0 / b.len() as f32;
            for (sparse, dense, loss) in &parts {
                for &(j, g) in sparse {
                    grad[j as usize] += g * scale;
                }
                for (q, &g) in dense.iter().enumerate() {
                    grad[2 * entries + q] += g * scale;
                }
                train_loss += loss;
            }
            step += 1;
            let lr = opts.lr * (1.0 - 0.9 * (step - 1) as f32 / steps_total);
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            for j in 0..nw {
                if !trainable[j] {
                    continue;
                }
                let g = grad[j] + 2.0 * opts.l2 * (w[j] - w0[j]);
                if g == 0.0 && m[j] == 0.0 {
                    continue;
                }
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                w[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
            }
        }
        let validation_loss = mean_loss(&val, &w, entries, k, lambda);
        let r = EpochReport {
            epoch,
            train_loss: train_loss / tr.len().max(1) as f64,
            validation_loss,
        };
        on_epoch(&r);
        if validation_loss < best.0 {
            best = (validation_loss, w.clone());
        }
        reports.push(r);
    }
    Trained {
        w: best.1,
        k,
        reports,
        start_validation_loss,
        train_size: tr.len(),
        validation_size: val.len(),
    }
}

/// The weights scaled so that a man is worth 100 in the mean of the two
/// phases, as in the hand evaluation (the search's margins are in those
/// units); the scale does not change which move the evaluation prefers.
pub fn normalise(w: &mut [f32], entries: usize) {
    let man = (w[2 * entries] + w[2 * entries + 1]) / 2.0;
    if man > 1.0 {
        let f = 100.0 / man;
        for x in w.iter_mut() {
            *x *= f;
        }
    }
}

/// Starting weights in centi-men: the hand evaluation.
pub fn start_weights<R: Rules>() -> Vec<f32> {
    from_weights(&Weights::hand::<R>())
}

/// File weights to centi-men.
pub fn from_weights(w: &Weights) -> Vec<f32> {
    w.pattern
        .iter()
        .chain(&w.dense)
        .map(|&x| x as f32 / SCALE as f32)
        .collect()
}

/// Centi-men to file weights (rounded, clamped to i16).
pub fn to_weights<R: Rules>(w: &[f32]) -> Weights {
    let layout = &eval::tables::<R>().layout;
    let q = |x: f32| (x * SCALE as f32).round().clamp(-32_000.0, 32_000.0) as i16;
    let np = 2 * layout.entries;
    Weights {
        variant: R::NAME.to_string(),
        layout: layout.id,
        pattern: w[..np].iter().map(|&x| q(x)).collect(),
        dense: w[np..].iter().map(|&x| q(x)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{Draughts, English};
    use crate::game::testing::random_line;

    /// `n` english positions after a random number (0 to 79) of random
    /// plies from the start, with score 0 and the result `result` draws
    /// from the same random stream.
    fn random_samples(
        mut seed: u64,
        n: usize,
        mut result: impl FnMut(&mut u64) -> u8,
    ) -> Vec<Sample<Bb<English>>> {
        let g = Draughts::<English>::default();
        let mut samples = Vec::new();
        while samples.len() < n {
            let plies = (zobrist::splitmix64(&mut seed) % 80) as usize;
            let line = random_line(&g, plies, &mut seed);
            let pos = line[line.len() - 1];
            let result = result(&mut seed);
            samples.push(Sample {
                pos,
                score: 0,
                result,
            });
        }
        samples
    }

    /// `salto train --skip-both-kings` leaves out a position only when
    /// each player has a king.
    #[test]
    fn skip_both_kings_needs_a_king_on_each_side() {
        use crate::draughts::International;
        use crate::draughts::notation::parse_fen;
        let both = |f: &str| match parse_fen::<International>(f) {
            Ok(p) => both_have_kings::<International>(&p),
            Err(e) => panic!("{f}: {e}"),
        };
        assert!(both("W:WK10,20:BK40"));
        assert!(both("B:WK10:BK40,K45,30"));
        assert!(!both("W:WK10,20:B40,45"));
        assert!(!both("W:W10,20:BK40"));
        assert!(!both("W:W10,20:B40"));
    }

    /// Random positions of random english games, labelled by a known
    /// weight set (score = its evaluation, result drawn from its
    /// probability): training from the hand weights moves the feature
    /// weights to the known ones.
    #[test]
    fn training_recovers_known_weights() {
        type R = English;
        let layout = &eval::tables::<R>().layout;
        let entries = layout.entries;
        let mut truth = start_weights::<R>();
        // Known: men 100, kings 250, advance 8 (opening) / 2 (ending).
        let f = 2 * entries;
        truth[f] = 100.0;
        truth[f + 1] = 100.0;
        truth[f + 2] = 250.0;
        truth[f + 3] = 250.0;
        truth[f + 4] = 8.0;
        truth[f + 5] = 2.0;
        let samples = random_samples(3, 20_000, |_| 1);
        let mut ex = Examples::from_samples::<R>(&samples);
        // Patterns can partly stand in for material (the windows cover
        // the men), so the known weights are recovered on the features
        // alone.
        ex.nwin = 0;
        ex.white.clear();
        ex.black.clear();
        for i in 0..ex.len() {
            let e = ex.predict(&truth, entries, i);
            ex.score[i] = e;
        }
        let opts = Options {
            epochs: 30,
            lambda: 0.0,
            lr: 2.0,
            l2: 0.0,
            batch: 4096,
            k: Some(150.0),
            ..Options::default()
        };
        let t = train(&ex, entries, &start_weights::<R>(), &opts, &mut |_| {});
        let got = &t.w[f..f + 6];
        assert!(
            t.reports.last().map(|r| r.validation_loss).unwrap_or(1.0) < t.start_validation_loss
        );
        assert!((got[2] - 250.0).abs() < 25.0, "kings {got:?}");
        assert!((got[4] - 8.0).abs() < 2.5, "advance opening {got:?}");
        assert!((got[5] - 2.0).abs() < 2.5, "advance ending {got:?}");
        // Deterministic.
        let t2 = train(&ex, entries, &start_weights::<R>(), &opts, &mut |_| {});
        assert_eq!(t.w, t2.w);
    }

    /// `frozen` features keep their starting weights while the others
    /// move: the same synthetic set as above, with men and kings frozen.
    #[test]
    fn frozen_features_keep_their_starting_weights() {
        type R = English;
        let entries = eval::tables::<R>().layout.entries;
        let samples = random_samples(5, 4_000, |seed| (zobrist::splitmix64(seed) % 3) as u8);
        let ex = Examples::from_samples::<R>(&samples);
        let w0 = start_weights::<R>();
        let opts = Options {
            epochs: 3,
            lambda: 1.0,
            frozen: vec![0, 1],
            ..Options::default()
        };
        let t = train(&ex, entries, &w0, &opts, &mut |_| {});
        let f = 2 * entries;
        assert_eq!(&t.w[f..f + 4], &w0[f..f + 4], "men and kings moved");
        assert_ne!(t.w[..f], w0[..f], "no pattern weight moved");
        assert_ne!(t.w[f + 4..], w0[f + 4..], "no other feature moved");
    }
    /// Consecutive random games (every position kept, as `salto datagen`
    /// writes them) get one game number each, and the validation split
    /// puts no game on both sides.
    #[test]
    fn validation_split_holds_out_whole_games() {
        let g = Draughts::<English>::default();
        let mut samples = Vec::new();
        let mut game_of = Vec::new();
        let mut seed = 9u64;
        for k in 0..40u32 {
            for pos in random_line(&g, 59, &mut seed) {
                samples.push(Sample {
                    pos,
                    score: 0,
                    result: 1,
                });
                game_of.push(k);
            }
        }
        let ex = Examples::from_samples::<English>(&samples);
        assert_eq!(ex.game, game_of);
        let (val, tr) = split(&ex, 0.2, &mut 1);
        assert_eq!(val.len() + tr.len(), ex.len());
        assert!(val.len() >= ex.len() / 5 && !tr.is_empty());
        let held: std::collections::HashSet<u32> = val.iter().map(|&i| ex.game[i]).collect();
        assert!(tr.iter().all(|&i| !held.contains(&ex.game[i])));
        // A game number that only rises with the piece count.
        assert_eq!(
            game_numbers([24, 24, 20, 24, 3, 5, 5]),
            [0, 0, 0, 1, 1, 2, 2]
        );
    }
}
