//! Formatting the engine's lines: `error`, `info`, `done`, and the `hub`
//! answer. Every token is `key=value` with no `=` or `"` inside a value, so
//! that pydraughts' token splitter reads them.

use crate::game::{SCORE_WIN, SCORE_WIN_MIN, Score};

/// The longest error message sent (the rest is cut, so that a 1 MB line is
/// not echoed back).
const MAX_MESSAGE: usize = 200;

/// Makes `text` safe inside a quoted value: no `"`, no `=`-free guarantee
/// needed inside quotes, no control characters, bounded length.
pub fn sanitize(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    super::command::shorten(&cleaned, MAX_MESSAGE)
}

/// `error message="..."`.
pub fn error(msg: &str) -> String {
    format!("error message=\"{}\"", sanitize(msg))
}

/// A score in men with two decimals, from the side to move; a win in n
/// plies is 100 - n/100 (Scan's form), a loss its negative.
pub fn score(s: Score) -> String {
    if s.abs() >= SCORE_WIN_MIN {
        let plies = (SCORE_WIN - s.abs()).clamp(0, 9999);
        let men = 100.0 - plies as f64 / 100.0;
        let v = if s < 0 { -men } else { men };
        format!("{v:.2}")
    } else {
        let v = s as f64 / 100.0;
        // Avoid "-0.00".
        if s == 0 {
            "0.00".to_string()
        } else {
            format!("{v:.2}")
        }
    }
}

/// One `info` line, fields in Scan's order.
pub fn info(depth: u32, mean_depth: f64, s: Score, nodes: u64, time: f64, pv: &[String]) -> String {
    let time = if time.is_finite() && time > 0.0 {
        time
    } else {
        0.0
    };
    let nps = if time > 0.0 {
        nodes as f64 / time / 1e6
    } else {
        0.0
    };
    let mean_depth = if mean_depth.is_finite() {
        mean_depth.max(0.0)
    } else {
        0.0
    };
    format!(
        "info depth={depth} mean-depth={mean_depth:.1} score={} nodes={nodes} time={time:.3} nps={nps:.2} pv=\"{}\"",
        score(s),
        pv.join(" ")
    )
}

/// `done move=<move> [ponder=<move>]`.
pub fn done(mv: &str, ponder: Option<&str>) -> String {
    match ponder {
        Some(p) => format!("done move={mv} ponder={p}"),
        None => format!("done move={mv}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_in_men_with_two_decimals() {
        assert_eq!(score(25), "0.25");
        assert_eq!(score(-100), "-1.00");
        assert_eq!(score(0), "0.00");
        assert_eq!(score(-3), "-0.03");
    }

    #[test]
    fn forced_wins_are_100_minus_plies_over_100() {
        assert_eq!(score(SCORE_WIN - 5), "99.95");
        assert_eq!(score(-(SCORE_WIN - 12)), "-99.88");
        assert_eq!(score(SCORE_WIN), "100.00");
    }

    #[test]
    fn info_fields_come_in_scans_order_and_quote_the_pv() {
        let line = info(
            12,
            11.43,
            25,
            1_500_000,
            1.0,
            &["32-28".into(), "19-23".into()],
        );
        assert_eq!(
            line,
            "info depth=12 mean-depth=11.4 score=0.25 nodes=1500000 time=1.000 nps=1.50 pv=\"32-28 19-23\""
        );
        assert!(info(1, f64::NAN, 0, 5, 0.0, &[]).contains("nps=0.00"));
    }

    #[test]
    fn error_messages_cannot_break_the_quoting() {
        let e = error("bad \"x\"\nline");
        assert_eq!(e, "error message=\"bad 'x' line\"");
        let long = "y".repeat(10_000);
        assert!(error(&long).len() < 300);
    }
}
