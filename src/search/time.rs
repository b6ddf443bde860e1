//! Time management: turns [`Limits`] into a soft limit (start no iteration
//! that cannot finish in time) and a hard limit (abort the search), both
//! measured from the moment the clock starts (the search's start, or
//! `ponder-hit` when pondering).
//!
//! A fixed move time (`move-time` without a clock) is a budget to spend:
//! the search goes on into the next iteration until the hard limit stops it
//! in the node loop, and plays the best move of the partial iteration (the
//! root keeps the move that beat the first one in front, so a partial
//! iteration never plays a move worse than the last complete one's best).
//! Under a clock the soft limit is scaled by [`Stability`]: more time when
//! the best move changes or the score falls between iterations, less when
//! one move has stayed best for several iterations.

use super::{Control, Limits};
use crate::game::Score;
use std::time::Instant;

/// Moves we assume are left when the clock does not say (`moves` absent).
pub const DEFAULT_MOVES_TO_GO: f64 = 30.0;
/// The most we spend on one move with a long clock: this many times the
/// even share of the remaining time.
pub const HARD_SHARE_FACTOR: f64 = 4.0;
/// The soft limit as a fraction of the even share.
pub const SOFT_SHARE_FACTOR: f64 = 0.6;
/// Never plan to use more than this fraction of the remaining clock on one
/// move (unless it is the last move before the time control).
pub const MAX_CLOCK_FRACTION: f64 = 0.35;
/// Fixed part of the safety margin kept back for process and pipe latency,
/// seconds.
pub const MARGIN_FIXED: f64 = 0.004;
/// Proportional part of the safety margin.
pub const MARGIN_FRACTION: f64 = 0.08;
/// The safety margin is never more than this, seconds.
pub const MARGIN_MAX: f64 = 0.05;
/// Seconds of the clock held back as a reserve against latency the engine
/// does not see (a loaded machine, pipes, the host's own overhead): only
/// the time above it is shared out over the moves, and below it the
/// increment is spent in proportion, so a clock that has run down builds
/// back up to about `CLOCK_RESERVE + 3 inc` instead of living on the
/// increment (issue #18: 293 time losses in 1,435 games at 1 s + 0.01 s
/// with no reserve).
pub const CLOCK_RESERVE: f64 = 0.25;
/// The share of the increment a move may spend (at or above the reserve).
pub const INC_SHARE: f64 = 0.9;
/// Even a tiny clock gets at least this much search time, seconds.
pub const MIN_THINK: f64 = 0.0005;
/// Stability scaling: each change of the best move between iterations adds
/// this much weight; the weight halves every iteration.
pub const CHANGE_WEIGHT: f64 = 0.6;
pub const CHANGE_DECAY: f64 = 0.5;
/// A score drop of this many centi-men between iterations scales the time
/// by 2 (a rise scales it down, within the bounds below).
pub const DROP_SCALE: f64 = 150.0;
pub const DROP_MIN: f64 = 0.8;
pub const DROP_MAX: f64 = 1.6;
/// The best move unchanged for this many iterations: one move dominates.
pub const STABLE_ITERATIONS: u32 = 4;
/// The scale when one move dominates.
pub const STABLE_SCALE: f64 = 0.7;
/// The bounds of the whole scale.
pub const SCALE_MIN: f64 = 0.5;
pub const SCALE_MAX: f64 = 2.5;

/// The factor on the soft limit: `changes` is the decayed count of best
/// move changes, `drop` how far the score fell since the last iteration
/// (centi-men, negative when it rose), `stable` the iterations the best
/// move has stayed the same.
pub fn stability_scale(changes: f64, drop: Score, stable: u32) -> f64 {
    let instability = 1.0 + CHANGE_WEIGHT * changes;
    let falling = (1.0 + drop as f64 / DROP_SCALE).clamp(DROP_MIN, DROP_MAX);
    let dominant = if stable >= STABLE_ITERATIONS {
        STABLE_SCALE
    } else {
        1.0
    };
    (instability * falling * dominant).clamp(SCALE_MIN, SCALE_MAX)
}

/// What the iterations so far said about the best move: fed the best move
/// and score of each complete iteration, gives the soft limit's scale.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stability {
    best: Option<u16>,
    score: Option<Score>,
    changes: f64,
    stable: u32,
}

impl Stability {
    /// Records an iteration that ended with root move `best` (its index in
    /// the root's move list) scored `score`; returns the new scale.
    pub fn update(&mut self, best: u16, score: Score) -> f64 {
        self.changes *= CHANGE_DECAY;
        match self.best {
            Some(b) if b == best => self.stable += 1,
            Some(_) => {
                self.changes += 1.0;
                self.stable = 0;
            }
            None => {}
        }
        // Scores near a win are distances, not values: cap the drop.
        let drop = self.score.map_or(0, |prev| {
            (prev as i64 - score as i64).clamp(-1000, 1000) as Score
        });
        self.best = Some(best);
        self.score = Some(score);
        stability_scale(self.changes, drop, self.stable)
    }
}

/// The two limits of one search, in seconds from the clock's start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    /// Start no new iteration after this.
    pub soft: Option<f64>,
    /// Abort the search at this point.
    pub hard: Option<f64>,
    /// A fixed move time and no clock: iterate until the hard limit.
    pub fixed: bool,
    search_start: Instant,
    pondering_at_start: bool,
}

fn margin(available: f64) -> f64 {
    (MARGIN_FIXED + MARGIN_FRACTION * available).min(MARGIN_MAX)
}

impl TimeManager {
    pub fn new(limits: &Limits, pondering: bool) -> Self {
        let (soft, hard) = Self::budget(limits);
        TimeManager {
            soft,
            hard,
            fixed: limits.move_time.is_some() && limits.time.is_none() && !limits.infinite,
            search_start: Instant::now(),
            pondering_at_start: pondering,
        }
    }

    /// Soft and hard limits for these limits, seconds (`None`: no limit).
    pub fn budget(limits: &Limits) -> (Option<f64>, Option<f64>) {
        if limits.infinite {
            return (None, None);
        }
        let clean = |x: f64| if x.is_finite() { x.max(0.0) } else { 0.0 };
        let mut soft: Option<f64> = None;
        let mut hard: Option<f64> = None;
        if let Some(mt) = limits.move_time {
            let mt = clean(mt);
            let h = (mt - margin(mt)).max(MIN_THINK);
            soft = Some(h);
            hard = Some(h);
        }
        if let Some(t) = limits.time {
            let t = clean(t);
            let inc = clean(limits.inc);
            let mtg = match limits.moves_to_go {
                Some(m) if m > 0 => (m as f64).min(DEFAULT_MOVES_TO_GO * 2.0),
                _ => DEFAULT_MOVES_TO_GO,
            };
            let above = (t - CLOCK_RESERVE).max(0.0);
            let inc_share = INC_SHARE * inc * (t / CLOCK_RESERVE).min(1.0);
            // Without an increment a clock below the reserve still spreads
            // what is left.
            let share = (above / mtg + inc_share).max(t / (mtg * HARD_SHARE_FACTOR));
            // The most one move may take: a fraction of the time above the
            // reserve plus the increment's share, so that even a move that
            // runs to its hard limit every time keeps the reserve.
            let ceiling = if mtg <= 1.0 {
                t
            } else {
                (above * MAX_CLOCK_FRACTION + inc_share).max(t / (mtg * HARD_SHARE_FACTOR))
            };
            let ceiling = (ceiling.min(t) - margin(t)).max(MIN_THINK);
            let h = (share * HARD_SHARE_FACTOR).min(ceiling);
            let s = (share * SOFT_SHARE_FACTOR).min(h);
            soft = Some(soft.map_or(s, |x: f64| x.min(s)));
            hard = Some(hard.map_or(h, |x: f64| x.min(h)));
        }
        (soft, hard)
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.search_start
    }

    /// Seconds since the search started (for reports).
    pub fn elapsed(&self) -> f64 {
        self.search_start.elapsed().as_secs_f64()
    }

    /// Seconds on the clock: since the start, or since `ponder-hit` when
    /// the search began as a ponder search. `None` while still pondering.
    pub fn clock(&self, control: &Control) -> Option<f64> {
        if self.pondering_at_start {
            if control.pondering.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            let at = control.ponder_hit_time().unwrap_or(self.search_start);
            return Some(at.elapsed().as_secs_f64());
        }
        Some(self.elapsed())
    }

    /// True when the hard limit has passed.
    pub fn hard_expired(&self, control: &Control) -> bool {
        match (self.hard, self.clock(control)) {
            (Some(h), Some(c)) => c >= h,
            _ => false,
        }
    }

    /// True when a new iteration that would take about `next_iteration`
    /// seconds should not be started, the soft limit scaled by `scale`
    /// (see [`Stability`]).
    pub fn stop_iterating(&self, control: &Control, next_iteration: f64, scale: f64) -> bool {
        self.clock(control)
            .is_some_and(|c| self.stop_at(c, next_iteration, scale))
    }

    /// [`Self::stop_iterating`] at `clock` seconds on the clock. A fixed
    /// move time starts the next iteration whenever time is left: the hard
    /// limit ends it, and its partial result is used.
    pub fn stop_at(&self, clock: f64, next_iteration: f64, scale: f64) -> bool {
        if self.fixed {
            return self.hard.is_some_and(|h| clock >= h);
        }
        let hard = self.hard.unwrap_or(f64::INFINITY);
        self.soft.is_some_and(|s| clock >= (s * scale).min(hard)) || clock + next_iteration > hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manager(limits: &Limits) -> TimeManager {
        TimeManager::new(limits, false)
    }

    #[test]
    fn a_fixed_move_time_iterates_until_the_hard_limit() {
        let t = manager(&Limits {
            move_time: Some(1.0),
            ..Limits::default()
        });
        assert!(t.fixed);
        let h = t.hard.expect("hard");
        // An iteration predicted to overrun is still started ...
        assert!(!t.stop_at(0.5, 10.0, 1.0));
        assert!(!t.stop_at(h - 0.001, 10.0, 1.0));
        // ... whatever the stability says; the hard limit ends it.
        assert!(!t.stop_at(0.5, 10.0, SCALE_MIN));
        assert!(t.stop_at(h, 0.0, 1.0));
    }

    #[test]
    fn a_clock_stops_at_the_scaled_soft_limit_or_a_predicted_overrun() {
        let t = manager(&Limits {
            time: Some(60.0),
            ..Limits::default()
        });
        assert!(!t.fixed);
        let (s, h) = (t.soft.expect("soft"), t.hard.expect("hard"));
        assert!(s < h);
        assert!(!t.stop_at(s * 0.9, 0.0, 1.0));
        assert!(t.stop_at(s, 0.0, 1.0));
        // Unstable: more time; dominant: less.
        assert!(!t.stop_at(s * 1.5, 0.0, 2.0));
        assert!(t.stop_at(s * 0.6, 0.0, 0.5));
        // Never past the hard limit, whatever the scale.
        assert!(t.stop_at(h, 0.0, 1e9));
        // An iteration that cannot finish is not started.
        assert!(t.stop_at(s * 0.5, h, 1.0));
        // A clock with a move time too is not fixed.
        let both = manager(&Limits {
            time: Some(60.0),
            move_time: Some(1.0),
            ..Limits::default()
        });
        assert!(!both.fixed);
    }

    #[test]
    fn the_scale_grows_with_changes_and_drops_and_shrinks_when_stable() {
        assert_eq!(stability_scale(0.0, 0, 0), 1.0);
        assert!(stability_scale(1.0, 0, 0) > 1.0);
        assert!(stability_scale(2.0, 0, 0) > stability_scale(1.0, 0, 0));
        assert!(stability_scale(0.0, 50, 0) > 1.0);
        assert!(stability_scale(0.0, -50, 0) < 1.0);
        assert_eq!(stability_scale(0.0, 0, STABLE_ITERATIONS), STABLE_SCALE);
        assert_eq!(stability_scale(100.0, 10_000, 0), SCALE_MAX);
        assert!(stability_scale(0.0, -10_000, 99) >= SCALE_MIN);
    }

    #[test]
    fn stability_counts_changes_and_decays_them() {
        let mut st = Stability::default();
        assert_eq!(st.update(3, 10), 1.0);
        let changed = st.update(5, 10);
        assert!(changed > 1.0, "{changed}");
        let calmer = st.update(5, 10);
        assert!(calmer < changed && calmer > 1.0, "{calmer}");
        // The same move for long enough: less than the even share.
        let mut last = 0.0;
        for _ in 0..STABLE_ITERATIONS + 2 {
            last = st.update(5, 10);
        }
        assert!(last < 1.0, "{last}");
        // A falling score asks for more.
        assert!(st.update(5, -100) > last);
        // Win distances do not blow up the drop.
        let mut w = Stability::default();
        w.update(0, crate::game::SCORE_WIN - 5);
        assert!(w.update(0, -crate::game::SCORE_WIN + 5) <= SCALE_MAX);
    }

    #[test]
    fn move_time_keeps_a_safety_margin() {
        let l = Limits {
            move_time: Some(0.05),
            ..Limits::default()
        };
        let (s, h) = TimeManager::budget(&l);
        let h = h.expect("hard");
        assert!(h < 0.05 && h > 0.03, "{h}");
        assert!(s.expect("soft") <= h);
    }

    #[test]
    fn clock_budget_stays_within_the_clock() {
        for &(t, inc, mtg) in &[
            (0.05, 0.001, None),
            (0.001, 0.001, None),
            (60.0, 0.0, None),
            (1.0, 0.0, Some(1)),
            (0.0, 0.0, None),
            (-3.0, 1.0, None),
        ] {
            let l = Limits {
                time: Some(t),
                inc,
                moves_to_go: mtg,
                ..Limits::default()
            };
            let (s, h) = TimeManager::budget(&l);
            let (s, h) = (s.expect("soft"), h.expect("hard"));
            assert!(s <= h);
            assert!(h <= f64::max(t, 0.0).max(MIN_THINK), "t={t} h={h}");
        }
    }

    /// Plays out a clock: every move spends `spend(soft, hard)` of the
    /// budget, then the increment is added. Returns the smallest clock seen
    /// after the first 20 moves and the clock at the end.
    fn play_clock(t0: f64, inc: f64, moves: usize, spend: impl Fn(f64, f64) -> f64) -> (f64, f64) {
        let mut t = t0;
        let mut low = f64::INFINITY;
        for i in 0..moves {
            let (s, h) = TimeManager::budget(&Limits {
                time: Some(t),
                inc,
                ..Limits::default()
            });
            let used = spend(s.expect("soft"), h.expect("hard"));
            t = t - used + inc;
            assert!(t > 0.0, "move {i}: the clock ran out ({t})");
            if i >= 20 {
                low = low.min(t);
            }
        }
        (low, t)
    }

    #[test]
    fn a_clock_keeps_its_reserve_over_a_long_game() {
        // Every move spends twice its soft limit (a search that always
        // finds the position unstable), or the whole hard limit.
        for spend in [|s: f64, _h: f64| 2.0 * s, |_s: f64, h: f64| h] {
            for &(t0, inc) in &[(1.0, 0.01), (10.0, 0.1), (3.0, 0.0), (0.5, 0.5)] {
                let (low, end) = play_clock(t0, inc, 400, spend);
                let floor = if inc > 0.0 { 0.8 * CLOCK_RESERVE } else { 0.0 };
                assert!(low >= floor.min(t0), "{t0}+{inc}: the clock fell to {low}");
                if inc > 0.0 {
                    // ... and the reserve is not hoarded: the clock stays
                    // near it, not near the start.
                    assert!(
                        end < CLOCK_RESERVE + 20.0 * inc,
                        "{t0}+{inc}: ends at {end}"
                    );
                }
            }
        }
    }

    #[test]
    fn below_the_reserve_a_move_spends_less_than_the_increment() {
        for &t in &[0.02, 0.1, 0.2] {
            let (s, _) = TimeManager::budget(&Limits {
                time: Some(t),
                inc: 0.01,
                ..Limits::default()
            });
            assert!(s.expect("soft") < 0.01 * INC_SHARE, "t={t}");
        }
        // Well above it a move spends more than the increment.
        let (s, _) = TimeManager::budget(&Limits {
            time: Some(5.0),
            inc: 0.01,
            ..Limits::default()
        });
        assert!(s.expect("soft") > 0.01);
    }
}
