//! How long each engine of a match may think: `--tc`, `--movetime`,
//! `--depth`, `--nodes`, and an engine's own `tc=` and friends. Used by the
//! engine specs ([`super::engine`]) and the referee ([`super::play`]).

/// How long each engine may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock per engine: `base` seconds, plus `inc` after each move.
    Clock { base: f64, inc: f64 },
    /// A fixed time per move, seconds.
    MoveTime(f64),
    /// A fixed depth per move (no clock; the hang timeout applies).
    Depth(u32),
    /// A fixed node count per move (no clock; the hang timeout applies).
    Nodes(u64),
}

impl TimeControl {
    /// Parses `BASE+INC` in seconds (`10+0.1`, `60`); `M:SS` is accepted for
    /// the base (`1:30+1`).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let secs = |t: &str| -> Option<f64> {
            let t = t.trim();
            let v = match t.split_once(':') {
                Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
                None => t.parse::<f64>().ok()?,
            };
            (v.is_finite() && v >= 0.0).then_some(v)
        };
        match (secs(base), secs(inc)) {
            (Some(b), Some(i)) if b > 0.0 => Ok(TimeControl::Clock { base: b, inc: i }),
            _ => Err(format!(
                "bad time control '{text}': expected BASE+INC in seconds, e.g. 10+0.1"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_time_controls_parse() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base: 10.0,
                inc: 0.1
            })
        );
        assert_eq!(
            TimeControl::parse_clock("1:30+1"),
            Ok(TimeControl::Clock {
                base: 90.0,
                inc: 1.0
            })
        );
        assert_eq!(
            TimeControl::parse_clock("60"),
            Ok(TimeControl::Clock {
                base: 60.0,
                inc: 0.0
            })
        );
        assert!(TimeControl::parse_clock("x+1").is_err());
        assert!(TimeControl::parse_clock("0+1").is_err());
        assert!(TimeControl::parse_clock("-5+1").is_err());
    }
}
