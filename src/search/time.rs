//! Time management: turns [`Limits`] into a soft limit (start no iteration
//! that cannot finish in time) and a hard limit (abort the search), both
//! measured from the moment the clock starts (the search's start, or
//! `ponder-hit` when pondering).

use super::{Control, Limits};
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
/// Even a tiny clock gets at least this much search time, seconds.
pub const MIN_THINK: f64 = 0.0005;

/// The two limits of one search, in seconds from the clock's start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    /// Start no new iteration after this.
    pub soft: Option<f64>,
    /// Abort the search at this point.
    pub hard: Option<f64>,
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
            let share = t / mtg + inc * 0.9;
            let ceiling = if mtg <= 1.0 {
                t
            } else {
                t * MAX_CLOCK_FRACTION + inc * 0.9
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
    /// seconds should not be started.
    pub fn stop_iterating(&self, control: &Control, next_iteration: f64) -> bool {
        let Some(c) = self.clock(control) else {
            return false;
        };
        self.soft.is_some_and(|s| c >= s) || self.hard.is_some_and(|h| c + next_iteration > h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
