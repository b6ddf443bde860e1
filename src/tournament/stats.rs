//! Match statistics: score, Elo difference with a 95% interval, likelihood
//! of superiority and the sequential probability ratio test.
//!
//! The model is the one cutechess-cli prints and fastchess calls
//! "trinomial": each game is an independent draw of 1, 1/2 or 0 points; the
//! mean score `s` and its standard error come from the observed W/D/L; the
//! Elo difference is the logistic `-400 log10(1/s - 1)` and its interval is
//! the image of `s ± 1.96 · stderr`. The SPRT is the GSPRT of Michel van den
//! Bergh on logistic Elo (fastchess's default `--sprt model=logistic`): the
//! log-likelihood ratio under the normal approximation,
//! `LLR = N (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²)`, with `s0`, `s1` the scores
//! that `elo0` and `elo1` imply and `σ²` the observed per-game variance. No
//! BayesElo draw model is used.
//!
//! Beside it, the pentanomial model (fastchess's default): the two games
//! of an opening, colours swapped, are one sample whose score is 0, 1/4,
//! 1/2, 3/4 or 1 ([`Penta`]). Opening bias cancels within a pair, so the
//! pairs' variance is the honest one; the same interval and GSPRT formulas
//! apply with pairs for games. The SPRT of a two-engine match runs on the
//! pentanomial model.

use serde::{Deserialize, Serialize};

/// The 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The same games seen from the opponent.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Points: 1 a win, 1/2 a draw.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The mean score per game, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The games as per-game scores 1, 1/2, 0.
    pub fn sample(&self) -> ScoreSample {
        ScoreSample {
            games: self.games(),
            sum: self.points(),
            sum_sq: self.wins as f64 + 0.25 * self.draws as f64,
        }
    }

    /// The variance of one game's score around the mean (population form).
    pub fn variance(&self) -> Option<f64> {
        self.sample().variance()
    }

    /// The Elo difference the score implies; `None` without games or with a
    /// score of 0 or 1 (an infinite difference).
    pub fn elo(&self) -> Option<f64> {
        self.sample().elo()
    }

    /// The 95% interval of the Elo difference, `(low, high)`. An end is
    /// infinite when the score interval reaches 0 or 1.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        self.sample().elo_interval()
    }

    /// Likelihood of superiority: the probability that this engine is the
    /// stronger, from wins and losses only (draws carry no information
    /// here), `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`.
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return None;
        }
        let x = (self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt();
        Some(0.5 * (1.0 + erf(x)))
    }
}

/// Per-game scores in [0, 1], the model behind every Elo estimate here:
/// W/D/L ([`Wdl::sample`]) and an engine's score against the field in a
/// multi-player game (the fraction of the
/// other players it finished ahead of, ties half). Games are independent;
/// the scores within one game are not, which is why the interval is taken
/// over games and not over the pairwise results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreSample {
    pub games: u64,
    pub sum: f64,
    pub sum_sq: f64,
}

impl ScoreSample {
    pub fn add(&mut self, x: f64) {
        self.games += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// Both samples together.
    pub fn merged(&self, o: &ScoreSample) -> ScoreSample {
        ScoreSample {
            games: self.games + o.games,
            sum: self.sum + o.sum,
            sum_sq: self.sum_sq + o.sum_sq,
        }
    }

    /// The mean score, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        (self.games > 0).then(|| self.sum / self.games as f64)
    }

    /// The per-game variance around the mean (population form).
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        Some((self.sum_sq / self.games as f64 - s * s).max(0.0))
    }

    /// The Elo difference against an average opponent of the field.
    pub fn elo(&self) -> Option<f64> {
        self.score().and_then(score_to_elo)
    }

    /// Its 95% interval: `s ± 1.96 sqrt(var/N)` mapped through the
    /// logistic formula; an end is infinite when it reaches 0 or 1.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let se = (self.variance()? / self.games as f64).sqrt();
        let to_elo = |x: f64| {
            if x <= 0.0 {
                f64::NEG_INFINITY
            } else if x >= 1.0 {
                f64::INFINITY
            } else {
                -400.0 * (1.0 / x - 1.0).log10()
            }
        };
        Some((to_elo(s - Z95 * se), to_elo(s + Z95 * se)))
    }
}

/// Game pairs (one opening, colours swapped) by the first engine's points
/// in the pair: `counts[k]` pairs scored `k / 2` points (0 to 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penta {
    pub counts: [u64; 5],
}

impl Penta {
    /// Adds a pair that scored `points` (0, 0.5, ..., 2).
    pub fn add(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The pairs as samples of the mean score per game (0, 1/4, ..., 1).
    pub fn sample(&self) -> ScoreSample {
        let mut s = ScoreSample::default();
        for (k, &c) in self.counts.iter().enumerate() {
            let x = k as f64 / 4.0;
            s.games += c;
            s.sum += c as f64 * x;
            s.sum_sq += c as f64 * x * x;
        }
        s
    }

    pub fn merged(&self, o: &Penta) -> Penta {
        let mut p = *self;
        for (a, b) in p.counts.iter_mut().zip(o.counts) {
            *a += b;
        }
        p
    }

    /// `[LL, LD, DD/WL, WD, WW]` counts as text: `0 3 10 4 1`.
    pub fn text(&self) -> String {
        let c: Vec<String> = self.counts.iter().map(|c| c.to_string()).collect();
        c.join(" ")
    }
}

/// The logistic Elo difference for a mean score strictly between 0 and 1.
pub fn score_to_elo(s: f64) -> Option<f64> {
    (s > 0.0 && s < 1.0).then(|| -400.0 * (1.0 / s - 1.0).log10())
}

/// The expected score for an Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-14 (series near 0, continued fraction
/// for the tail).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let ax = x.abs();
    let r = if ax < 2.5 {
        // Maclaurin series: 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = ax;
        let mut sum = ax;
        let x2 = ax * ax;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() || n > 200.0 {
                break;
            }
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else {
        1.0 - erfc_tail(ax)
    };
    if x < 0.0 { -r } else { r }
}

/// erfc(x) for x >= 2.5 by its continued fraction (Lentz).
fn erfc_tail(x: f64) -> f64 {
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + ...)))))
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..300 {
        let a = k as f64 / 2.0;
        d = x + a * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = x + a / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * f)
}

/// What an SPRT has decided so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted: the difference is at most `elo0`.
    H0,
    /// H1 accepted: the difference is at least `elo1`.
    H1,
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (any order; alpha and
    /// beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut elo0 = None;
        let mut elo1 = None;
        let mut alpha = 0.05;
        let mut beta = 0.05;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("sprt: '{part}' is not of the form NAME=VALUE"))?;
            let x: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("sprt: bad number '{v}' for {k}"))?;
            match k.trim() {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                other => {
                    return Err(format!(
                        "sprt: unknown parameter '{other}' (expected elo0, elo1, alpha, beta)"
                    ));
                }
            }
        }
        let elo0 = elo0.ok_or("sprt: elo0 is missing")?;
        let elo1 = elo1.ok_or("sprt: elo1 is missing")?;
        if elo1 <= elo0 {
            return Err(format!("sprt: elo1 ({elo1}) must be above elo0 ({elo0})"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("sprt: {name} must be between 0 and 0.5, got {p}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower bound of the LLR: below it H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound of the LLR: above it H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for these results (0 while
    /// the variance is 0: no information yet).
    ///
    /// While every game has had the same result the observed variance is 0
    /// and the normal approximation says nothing; the LLR is then computed
    /// as if one more game had been drawn (so that a run of wins does end
    /// the test, as it should).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let same = [wdl.wins, wdl.draws, wdl.losses]
            .iter()
            .filter(|&&c| c > 0)
            .count()
            == 1;
        let wdl = if same && wdl.draws == 0 {
            Wdl::new(wdl.wins, 1, wdl.losses)
        } else {
            *wdl
        };
        self.llr_sample(&wdl.sample())
    }

    /// The LLR on the pentanomial model: the same GSPRT with game pairs as
    /// the samples. While every pair has had the same result, one more
    /// pair of two draws is counted (as [`Sprt::llr`] does with games).
    pub fn llr_penta(&self, penta: &Penta) -> f64 {
        let same = penta.counts.iter().filter(|&&c| c > 0).count() == 1;
        let penta = if same && penta.counts[2] == 0 {
            let mut p = *penta;
            p.counts[2] += 1;
            p
        } else {
            *penta
        };
        self.llr_sample(&penta.sample())
    }

    /// The GSPRT log-likelihood ratio of samples of the mean score.
    fn llr_sample(&self, sample: &ScoreSample) -> f64 {
        let (Some(x), Some(var)) = (sample.score(), sample.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let n = sample.games as f64;
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        n * (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * var)
    }

    /// The decision for an LLR.
    pub fn decide_llr(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::H1
        } else if llr <= self.lower_bound() {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz & Stegun table 7.1.
        assert!(close(erf(0.0), 0.0, 1e-15));
        assert!(close(erf(0.5), 0.520_499_877_813_046_5, 1e-13));
        assert!(close(erf(1.0), 0.842_700_792_949_714_9, 1e-13));
        assert!(close(erf(2.0), 0.995_322_265_018_952_7, 1e-13));
        assert!(close(erf(3.0), 0.999_977_909_503_001_4, 1e-13));
        assert!(close(erf(-1.0), -0.842_700_792_949_714_9, 1e-13));
        assert!(close(erf(6.0), 1.0, 1e-15));
    }

    #[test]
    fn even_score_is_zero_elo() {
        let w = Wdl::new(30, 40, 30);
        assert_eq!(w.score(), Some(0.5));
        assert!(close(w.elo().unwrap_or(f64::NAN), 0.0, 1e-12));
        assert!(close(w.los().unwrap_or(f64::NAN), 0.5, 1e-12));
        let (lo, hi) = w.elo_interval().unwrap_or((f64::NAN, f64::NAN));
        assert!(close(lo, -hi, 1e-9));
    }

    /// W=50 D=30 L=20 worked by hand:
    /// s = 65/100 = 0.65; Elo = -400 log10(1/0.65 - 1) = 107.5381;
    /// var = (50·0.35² + 30·0.15² + 20·0.65²)/100 = 0.1525;
    /// se = sqrt(0.1525/100) = 0.0390512; s ± 1.96 se = [0.573461, 0.726539];
    /// Elo interval = [51.4180, 169.7454];
    /// LOS = ½(1 + erf(30/√140)) = 0.999832
    #[test]
    fn elo_interval_and_los_for_known_results() {
        let w = Wdl::new(50, 30, 20);
        assert!(close(w.score().unwrap_or(0.0), 0.65, 1e-12));
        assert!(close(w.variance().unwrap_or(0.0), 0.1525, 1e-12));
        assert!(close(w.elo().unwrap_or(0.0), 107.5381, 1e-3));
        let (lo, hi) = w.elo_interval().unwrap_or((0.0, 0.0));
        assert!(close(lo, 51.4180, 2e-3), "low {lo}");
        assert!(close(hi, 169.7454, 2e-3), "high {hi}");
        let los = w.los().unwrap_or(0.0);
        assert!(close(los, 0.999_832, 1e-5), "los {los}");
        // The opponent's view mirrors it.
        let f = w.flipped();
        assert!(close(f.elo().unwrap_or(0.0), -107.5381, 1e-3));
        assert!(close(f.los().unwrap_or(1.0), 1.0 - los, 1e-12));
    }

    /// Field scores 1, 1/2, 1/2, 0, 1 (a 3-player engine placed 1st, 2nd,
    /// 2nd, 3rd, 1st) by hand: mean 0.6, variance 0.14; se = sqrt(0.14/5)
    /// = 0.167332; s ± 1.96 se = [0.272035, 0.927965];
    /// Elo 70.4365, interval [-170.9940, 443.9944].
    /// Scores 1, 1/2, 0 in a W/D/L give the same numbers as the Wdl form.
    #[test]
    fn field_score_interval_for_known_scores() {
        let mut f = ScoreSample::default();
        for x in [1.0, 0.5, 0.5, 0.0, 1.0] {
            f.add(x);
        }
        assert!(close(f.score().unwrap_or(0.0), 0.6, 1e-12));
        assert!(close(f.variance().unwrap_or(0.0), 0.14, 1e-12));
        assert!(close(f.elo().unwrap_or(0.0), 70.4365, 1e-3));
        let (lo, hi) = f.elo_interval().unwrap_or((0.0, 0.0));
        assert!(close(lo, -170.9940, 2e-3), "low {lo}");
        assert!(close(hi, 443.9944, 2e-3), "high {hi}");
        let mut g = ScoreSample::default();
        for _ in 0..50 {
            g.add(1.0);
        }
        for _ in 0..30 {
            g.add(0.5);
        }
        for _ in 0..20 {
            g.add(0.0);
        }
        let w = Wdl::new(50, 30, 20);
        let (a, b) = (g.elo_interval(), w.elo_interval());
        let ((a0, a1), (b0, b1)) = (a.unwrap_or_default(), b.unwrap_or((1.0, 1.0)));
        assert!(close(a0, b0, 1e-9) && close(a1, b1, 1e-9));
        assert_eq!(ScoreSample::default().elo(), None);
    }

    #[test]
    fn perfect_scores_have_no_finite_elo() {
        assert_eq!(Wdl::new(10, 0, 0).elo(), None);
        assert_eq!(Wdl::new(0, 0, 0).elo(), None);
        assert_eq!(Wdl::new(0, 5, 0).los(), None);
        let (lo, hi) = Wdl::new(10, 0, 0).elo_interval().unwrap_or((0.0, 0.0));
        // Variance 0: the interval collapses onto the infinite point.
        assert!(lo.is_infinite() && hi.is_infinite());
    }

    /// elo0=0, elo1=5, alpha=beta=0.05 with W=50 D=30 L=20 by hand:
    /// s0 = 0.5, s1 = 1/(1+10^(-5/400)) = 0.5071951;
    /// LLR = 100 · 0.0071951 · (1.3 - 1.0071951) / (2 · 0.1525) = 0.6907.
    /// Bounds: ln(0.05/0.95) = -2.9444, ln(0.95/0.05) = 2.9444.
    #[test]
    fn sprt_llr_for_known_results() {
        let sprt = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap_or(Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.0,
            beta: 0.0,
        });
        let llr = sprt.llr(&Wdl::new(50, 30, 20));
        assert!(close(llr, 0.6907, 1e-3), "llr {llr}");
        assert!(close(sprt.upper_bound(), 2.944_439, 1e-5));
        assert!(close(sprt.lower_bound(), -2.944_439, 1e-5));
        let decide = |w: &Wdl| sprt.decide_llr(sprt.llr(w));
        assert_eq!(decide(&Wdl::new(50, 30, 20)), SprtDecision::Continue);
        // Ten times the games: the LLR scales with N.
        assert_eq!(decide(&Wdl::new(500, 300, 200)), SprtDecision::H1);
        assert_eq!(decide(&Wdl::new(200, 300, 500)), SprtDecision::H0);
    }

    /// All wins: computed with one virtual draw. W=20 D=1: s = 20.5/21,
    /// var = (20·(0.5/21)² + (0.5 - 20.5/21)²)/21 = 0.0113379,
    /// LLR = 21 · 0.0071951 · (41/21 - 1.0071951) / (2 · 0.0113379) = 6.2981.
    #[test]
    fn sprt_all_wins_use_one_virtual_draw() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let llr = sprt.llr(&Wdl::new(20, 0, 0));
        assert!(close(llr, 6.2981, 1e-3), "llr {llr}");
        assert_eq!(sprt.llr(&Wdl::new(0, 0, 0)), 0.0);
        // All draws: the variance stays 0 and the test learns nothing.
        assert_eq!(sprt.llr(&Wdl::new(0, 7, 0)), 0.0);
        assert!(sprt.llr(&Wdl::new(0, 0, 20)) < sprt.lower_bound());
    }

    #[test]
    fn sprt_parse_rejects_bad_input() {
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.9").is_err());
        assert!(Sprt::parse("elo0=0,elo1=x").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
        assert!(Sprt::parse("elo1=5, elo0=-1").is_ok());
    }

    #[test]
    fn pentanomial_pairs_give_the_per_game_score() {
        let mut p = Penta::default();
        for pts in [2.0, 1.0, 1.0, 1.5, 0.5, 1.0] {
            p.add(pts);
        }
        assert_eq!(p.counts, [0, 1, 3, 1, 1]);
        assert_eq!(p.pairs(), 6);
        let s = p.sample();
        assert!(close(s.score().unwrap_or(0.0), 7.0 / 12.0, 1e-12));
        // Pairs of 1 point (a win and a loss, or two draws) have no spread:
        // the same games as independent trinomial results would.
        let mut flat = Penta::default();
        flat.add(1.0);
        flat.add(1.0);
        assert_eq!(flat.sample().variance(), Some(0.0));
        assert_eq!(p.merged(&flat).counts, [0, 1, 5, 1, 1]);
    }

    #[test]
    fn pentanomial_sprt_for_known_pairs() {
        let sprt = Sprt::parse("elo0=0,elo1=10").unwrap_or_else(|e| panic!("{e}"));
        let p = Penta {
            counts: [5, 20, 50, 30, 10],
        };
        // 115 pairs, mean 62.5/115: 115 (s1 - s0)(2x - s0 - s1) / (2 var).
        let (s0, s1) = (0.5, elo_to_score(10.0));
        let s = p.sample();
        let (x, var) = (s.score().unwrap_or(0.0), s.variance().unwrap_or(1.0));
        let want = 115.0 * (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * var);
        assert!(close(sprt.llr_penta(&p), want, 1e-9));
        assert!(close(x, 62.5 / 115.0, 1e-12), "{x}");
        // All pairs won: one virtual pair of draws keeps the LLR finite.
        let ww = Penta {
            counts: [0, 0, 0, 0, 8],
        };
        assert!(sprt.llr_penta(&ww).is_finite() && sprt.llr_penta(&ww) > 0.0);
        assert_eq!(sprt.llr_penta(&Penta::default()), 0.0);
    }
}
