//! Learning the weights of the chinese checkers evaluation's terms
//! ([`crate::chinese::eval`]) from 2-player self-play: the data records of
//! `salto datagen --variant chinese` and the fit of `salto train --variant
//! chinese`.
//!
//! A record, integers little-endian: the term counts of the player to move
//! ([`TERMS`] `i16`, in the order of [`crate::chinese::weights::TERM_NAMES`]),
//! the opponent's, then the game's result for the player to move (`u8`: 0
//! loss, 1 draw, 2 win): 29 bytes, no header, so that shards concatenate.
//! Every searched position of a game is recorded (chinese checkers has no
//! captures, so no position is left out as unquiet).
//!
//! The fit is a logistic regression of the result on the difference of the
//! two players' term counts (the evaluation is the weights times the
//! opponent's term counts less the player's own), by Newton's method, then
//! scaled so that a hole of distance keeps its hand value ([`HAND`]`[0]`,
//! 10 centi-men): the evaluation's scale, which the search's margins
//! assume, stays the same. A term that never differs between the players
//! in the data, or that is frozen, keeps its hand weight.

use super::datagen::{Config, result_for, self_play};
use crate::chinese::Chinese;
use crate::chinese::weights::{HAND, TERMS};
use std::path::PathBuf;

/// Bytes per record.
pub const RECORD_SIZE: usize = 4 * TERMS + 1;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The player to move's term counts.
    pub mover: [i16; TERMS],
    /// The opponent's.
    pub other: [i16; TERMS],
    /// 0 loss, 1 draw, 2 win, for the player to move.
    pub result: u8,
}

/// Appends the record of `s` to `out`.
pub fn encode(s: &Sample, out: &mut Vec<u8>) {
    for v in s.mover.iter().chain(&s.other) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.push(s.result);
}

/// The sample in one record; an error says what is wrong with it.
pub fn decode(rec: &[u8]) -> Result<Sample, String> {
    if rec.len() != RECORD_SIZE {
        return Err(format!(
            "record of {} bytes, expected {RECORD_SIZE}",
            rec.len()
        ));
    }
    let v = |k: usize| i16::from_le_bytes([rec[2 * k], rec[2 * k + 1]]);
    let result = rec[RECORD_SIZE - 1];
    if result > 2 {
        return Err(format!("result {result}, expected 0, 1 or 2"));
    }
    Ok(Sample {
        mover: std::array::from_fn(v),
        other: std::array::from_fn(|k| v(TERMS + k)),
        result,
    })
}

/// The samples of `files`, in order; an error names the file and the
/// record that is wrong.
pub fn read_files(files: &[PathBuf]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        if bytes.len() % RECORD_SIZE != 0 {
            return Err(format!(
                "{}: {} bytes is not a whole number of {RECORD_SIZE}-byte chinese records (is it data of another variant?)",
                f.display(),
                bytes.len()
            ));
        }
        for (i, rec) in bytes.chunks(RECORD_SIZE).enumerate() {
            out.push(decode(rec).map_err(|e| format!("{}: record {i}: {e}", f.display()))?);
        }
    }
    Ok(out)
}

/// The records of games `indices` of the run, in order.
pub fn encode_games(game: Chinese, cfg: &Config, indices: std::ops::Range<u64>) -> (Vec<u8>, u64) {
    let clamp = |t: [i32; TERMS]| t.map(|v| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16);
    let mut out = Vec::new();
    let mut n = 0;
    for i in indices {
        let played = self_play(game, cfg, i);
        for (pos, p, _) in &played.positions {
            let s = Sample {
                mover: clamp(game.player_terms(pos, *p)),
                other: clamp(game.player_terms(pos, 1 - *p)),
                result: result_for(played.winner, *p),
            };
            encode(&s, &mut out);
            n += 1;
        }
    }
    (out, n)
}

/// What a fit gave.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The learned weights (centi-men per unit of each term).
    pub weights: [i32; TERMS],
    /// The evaluation's logistic scale: `sigmoid(eval / k)` predicts the
    /// result.
    pub k: f64,
    /// Terms fitted (the others keep their hand weights: frozen, or never
    /// different between the players in the data).
    pub active: [bool; TERMS],
    pub train_size: usize,
    pub validation_size: usize,
    /// Mean logistic loss on the held-out examples: the learned weights',
    /// and the hand weights' (with their own best scale).
    pub validation_loss: f64,
    pub hand_validation_loss: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn loss(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The features (opponent's terms minus own) and the target of a sample.
fn features(s: &Sample) -> ([f64; TERMS], f64) {
    (
        std::array::from_fn(|k| s.other[k] as f64 - s.mover[k] as f64),
        s.result as f64 / 2.0,
    )
}

/// Solves `a x = b` (Gaussian elimination with partial pivoting); `None`
/// when `a` is singular.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for c in 0..N {
        let p = (c..N).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c];
        for r in c + 1..N {
            let f = a[r][c] / pivot[c];
            for (x, y) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * y;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; N];
    for r in (0..N).rev() {
        let s: f64 = (r + 1..N).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// The logistic regression of the targets on the features of `data`, over
/// the `active` terms only (the others' coefficients stay 0): Newton's
/// method from 0, with a tiny ridge so that the system is never singular.
fn regress(data: &[([f64; TERMS], f64)], active: &[bool; TERMS]) -> [f64; TERMS] {
    let mut v = [0.0; TERMS];
    for _ in 0..25 {
        let mut g = [0.0; TERMS];
        let mut h = [[0.0; TERMS]; TERMS];
        for (x, t) in data {
            let z: f64 = (0..TERMS).map(|k| v[k] * x[k]).sum();
            let p = sigmoid(z);
            let w = p * (1.0 - p);
            for i in 0..TERMS {
                g[i] += (p - t) * x[i];
                for j in 0..TERMS {
                    h[i][j] += w * x[i] * x[j];
                }
            }
        }
        for i in 0..TERMS {
            h[i][i] += 1e-6 * data.len().max(1) as f64;
            if !active[i] {
                // Fixed at 0: a row and column of the identity.
                g[i] = 0.0;
                h[i] = [0.0; TERMS];
                for row in h.iter_mut() {
                    row[i] = 0.0;
                }
                h[i][i] = 1.0;
            }
        }
        let Some(step) = solve(h, g) else { break };
        let mut moved = 0f64;
        for k in 0..TERMS {
            v[k] -= step[k];
            moved = moved.max(step[k].abs());
        }
        if moved < 1e-10 {
            break;
        }
    }
    v
}

fn mean_loss(data: &[([f64; TERMS], f64)], v: &[f64; TERMS]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|(x, t)| loss(sigmoid((0..TERMS).map(|k| v[k] * x[k]).sum()), *t))
        .sum();
    sum / data.len().max(1) as f64
}

/// Fits the weights to `samples` (the terms of `frozen`, indices into
/// [`crate::chinese::weights::TERM_NAMES`], keep their hand weights; distance
/// is never frozen, it sets the scale), holding out the last share
/// `validation` of them (`salto datagen` writes games whole and in order,
/// so the held-out tail is whole games but for the first). An error when
/// the data cannot set the scale (the distance term does not predict the
/// results).
pub fn fit(samples: &[Sample], validation: f64, frozen: &[usize]) -> Result<Fit, String> {
    let data: Vec<_> = samples.iter().map(features).collect();
    let nval = ((data.len() as f64 * validation) as usize).min(data.len().saturating_sub(1));
    let (tr, val) = data.split_at(data.len() - nval);
    let active: [bool; TERMS] = std::array::from_fn(|k| {
        (k == 0 || !frozen.contains(&k)) && tr.iter().any(|(x, _)| x[k] != 0.0)
    });
    if !active[0] {
        return Err("the players' distances never differ in the data".into());
    }
    // A term kept at its hand weight moves with the scale, as distance
    // does: it joins the distance feature in the ratio of the hand weights.
    let folded: Vec<_> = tr
        .iter()
        .map(|(x, t)| {
            let mut x = *x;
            for k in 1..TERMS {
                if !active[k] {
                    x[0] += HAND[k] as f64 / HAND[0] as f64 * x[k];
                }
            }
            (x, *t)
        })
        .collect();
    let v = regress(&folded, &active);
    if v[0] <= 0.0 {
        return Err(format!(
            "the fitted distance coefficient is {:.6}: the data does not say that being nearer home wins",
            v[0]
        ));
    }
    // The scale that keeps a hole of distance at its hand value.
    let k = HAND[0] as f64 / v[0];
    let weights: [i32; TERMS] = std::array::from_fn(|i| {
        if active[i] {
            (v[i] * k).round() as i32
        } else {
            HAND[i]
        }
    });
    // The hand weights with their own best scale, for comparison.
    let hand: Vec<_> = tr
        .iter()
        .map(|(x, t)| {
            let e: f64 = (0..TERMS).map(|i| HAND[i] as f64 * x[i]).sum();
            let mut f = [0.0; TERMS];
            f[0] = e;
            (f, *t)
        })
        .collect();
    let mut one = [false; TERMS];
    one[0] = true;
    let s = regress(&hand, &one)[0];
    let hand_v: [f64; TERMS] = std::array::from_fn(|i| HAND[i] as f64 * s);
    let learned_v: [f64; TERMS] = std::array::from_fn(|i| weights[i] as f64 / k);
    Ok(Fit {
        weights,
        k,
        active,
        train_size: tr.len(),
        validation_size: val.len(),
        validation_loss: mean_loss(val, &learned_v),
        hand_validation_loss: mean_loss(val, &hand_v),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::zobrist;

    #[test]
    fn records_round_trip_and_bad_ones_are_refused() {
        let s = Sample {
            mover: [120, 3, -4, 0, 1, 2, i16::MAX],
            other: [i16::MIN, 0, 1, 2, 3, 4, 5],
            result: 2,
        };
        let mut out = Vec::new();
        encode(&s, &mut out);
        assert_eq!(out.len(), RECORD_SIZE);
        assert_eq!(decode(&out), Ok(s));
        assert!(decode(&out[1..]).unwrap_err().contains("bytes"));
        out[RECORD_SIZE - 1] = 3;
        assert!(decode(&out).unwrap_err().contains("result"));
    }

    /// Samples labelled by known weights (the result drawn from the
    /// logistic model of a known evaluation): the fit finds the weights
    /// back, keeps the hand weight of a term that never varies or is
    /// frozen, and beats the hand weights on held-out data.
    #[test]
    fn the_fit_recovers_known_weights() {
        let truth = [10, 25, 4, 10, 60, -30, 7];
        let k = 150.0;
        let mut seed = 3u64;
        let mut r = |m: u64| (zobrist::splitmix64(&mut seed) % m) as i32;
        let mut samples = Vec::new();
        for _ in 0..60_000 {
            let mut mover = [0i16; TERMS];
            let mut other = [0i16; TERMS];
            for t in [0, 1, 2, 3, 6] {
                mover[t] = r(if t == 0 { 120 } else { 10 }) as i16;
                other[t] = r(if t == 0 { 120 } else { 10 }) as i16;
            }
            let e: f64 = (0..TERMS)
                .map(|i| truth[i] as f64 * (other[i] - mover[i]) as f64)
                .sum();
            let u = r(1 << 15) as f64 / (1 << 15) as f64;
            let result = if u < sigmoid(e / k) { 2 } else { 0 };
            samples.push(Sample {
                mover,
                other,
                result,
            });
        }
        let f = fit(&samples, 0.1, &[]).expect("a fit");
        assert_eq!(f.weights[0], 10);
        for i in [1, 2, 3, 6] {
            assert!(
                (f.weights[i] - truth[i]).abs() <= 2,
                "{i}: {:?} against {truth:?}",
                f.weights
            );
        }
        // Never different between the players: the hand weights.
        assert_eq!((f.weights[4], f.weights[5]), (HAND[4], HAND[5]));
        assert!(!f.active[4] && !f.active[5]);
        assert!((f.k - k).abs() < 15.0, "K {}", f.k);
        assert!(f.validation_loss < f.hand_validation_loss);
        // Block-swap frozen (truth = hand = 10): its hand weight, and the
        // others still found.
        let g = fit(&samples, 0.1, &[3]).expect("a fit");
        assert_eq!(g.weights[3], HAND[3]);
        assert!(!g.active[3] && g.active[1]);
        assert!((g.weights[1] - truth[1]).abs() <= 2, "{:?}", g.weights);
    }
}
