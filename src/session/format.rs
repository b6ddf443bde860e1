//! The session's values as text, the one place for it: scores, principal
//! variations, `info` and `done` lines (protocol.md). The Hub protocol and
//! `salto analyse` print with these.

use crate::game::{Game, MoveList, SCORE_EGDB_MIN, SCORE_WIN, SCORE_WIN_MIN, Score};
use crate::search::SearchResult;

/// A score in men with two decimals, from the side to move; a win in n
/// plies is 100 - n/100 (Scan's form), a loss its negative. The band
/// below the wins in n plies (endgame database wins, from
/// [`SCORE_EGDB_MIN`], and a game ranked by place at `max-moves`) prints
/// from 90.00 to 97.99 in the same order, below the wins the search can
/// see (at most `MAX_PLY` = 128 plies: 98.72 and up), as Scan prints its
/// bitbase wins (pydraughts reads a score above 90 as a win), not as
/// hundreds of men.
pub fn score(s: Score) -> String {
    if s.abs() >= SCORE_WIN_MIN {
        let plies = (SCORE_WIN - s.abs()).clamp(0, 9999);
        let men = 100.0 - plies as f64 / 100.0;
        let v = if s < 0 { -men } else { men };
        format!("{v:.2}")
    } else if s.abs() >= SCORE_EGDB_MIN {
        let band = i64::from(SCORE_WIN_MIN - SCORE_EGDB_MIN);
        let hundredths = i64::from(s.abs() - SCORE_EGDB_MIN) * 800 / band;
        let men = 90.0 + hundredths as f64 / 100.0;
        let v = if s < 0 { -men } else { men };
        format!("{v:.2}")
    } else {
        format!("{:.2}", s as f64 / 100.0)
    }
}

/// The moves of `pv` from `root` in Hub form, cut at the first move that is
/// not legal (a defensive check: `play` needs legal moves).
pub fn pv<G: Game>(game: &G, root: &G::Position, pv: &[G::Move]) -> Vec<String> {
    let line = crate::game::legal_prefix(game, root, pv);
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        out.push(game.format_move(&pos, mv));
        pos = game.play(&pos, mv);
    }
    out
}

/// One Hub `info` line, fields in Scan's order.
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

/// An `info` line with `multipv=K` after its depth (the `multipv`
/// parameter, protocol.md): `info depth=9 multipv=2 mean-depth=...`.
pub fn with_multipv(info_line: &str, k: usize) -> String {
    match info_line.split_once(' ').and_then(|(head, rest)| {
        let (depth, tail) = rest.split_once(' ')?;
        Some(format!("{head} {depth} multipv={k} {tail}"))
    }) {
        Some(line) => line,
        None => format!("{info_line} multipv={k}"),
    }
}

/// `done move=<move> [ponder=<move>]`.
pub fn done(mv: &str, ponder: Option<&str>) -> String {
    match ponder {
        Some(p) => format!("done move={mv} ponder={p}"),
        None => format!("done move={mv}"),
    }
}

/// The `done` line for a search result, checking that the move and the
/// ponder move are legal (falling back to the first legal move); `None`
/// when `root` has no legal move.
pub fn done_line<G: Game>(
    game: &G,
    root: &G::Position,
    r: &SearchResult<G::Move>,
) -> Option<String> {
    let mut list = MoveList::new();
    game.generate(root, &mut list);
    let best = match r.best {
        Some(b) if list.iter().any(|m| *m == b) => b,
        _ => *list.first()?,
    };
    let after = game.play(root, best);
    let ponder = r.ponder.filter(|p| {
        let mut l2 = MoveList::new();
        game.generate(&after, &mut l2);
        l2.iter().any(|m| m == p)
    });
    let ponder_text = ponder.map(|p| game.format_move(&after, p));
    Some(done(&game.format_move(root, best), ponder_text.as_deref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_in_men_with_two_decimals() {
        assert_eq!(score(25), "0.25");
        assert_eq!(score(-100), "-1.00");
        assert_eq!(score(-150), "-1.50");
        assert_eq!(score(0), "0.00");
        assert_eq!(score(-3), "-0.03");
    }

    #[test]
    fn forced_wins_are_100_minus_plies_over_100() {
        assert_eq!(score(SCORE_WIN - 5), "99.95");
        assert_eq!(score(SCORE_WIN - 7), "99.93");
        assert_eq!(score(-(SCORE_WIN - 12)), "-99.88");
        assert_eq!(score(SCORE_WIN), "100.00");
    }

    /// Database wins print between 90 and 99 men, below the wins in n
    /// plies the search can find and above any evaluation, ordered as the
    /// scores are.
    #[test]
    fn database_wins_print_from_90_to_99_men() {
        assert_eq!(score(SCORE_EGDB_MIN), "90.00");
        assert_eq!(score(-SCORE_EGDB_MIN), "-90.00");
        assert_eq!(score(SCORE_WIN_MIN - 1), "97.99");
        assert_eq!(
            score(SCORE_EGDB_MIN - 1),
            format!("{:.2}", (SCORE_EGDB_MIN - 1) as f64 / 100.0)
        );
        let men = |s| score(s).parse::<f64>().unwrap();
        let mut last = men(SCORE_EGDB_MIN);
        for s in (SCORE_EGDB_MIN..SCORE_WIN_MIN).step_by(37) {
            assert!(men(s) >= last && men(s) < 98.0, "{s}");
            last = men(s);
        }
        let longest_mate = SCORE_WIN - crate::search::MAX_PLY as Score;
        assert!(men(longest_mate) > last);
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
        assert_eq!(
            with_multipv(&info(3, 3.0, 0, 1, 1.0, &["1-2".into()]), 2),
            "info depth=3 multipv=2 mean-depth=3.0 score=0.00 nodes=1 time=1.000 nps=0.00 pv=\"1-2\""
        );
    }
}
