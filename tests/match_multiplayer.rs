//! Multi-player matches against fake engines on a toy race game (see
//! `match_support::race`): places by the rules and by distance to winning,
//! points per place, the place table, Elo against the field, pairwise
//! results, per-seat statistics, failures, the JSON summary, the progress
//! line and the PDN.

mod match_support;

use match_support::race::Race;
use match_support::{race_engine_dir, race_spec, test_config};
use salto::tournament::ranking::PointsScheme;
use salto::tournament::{EngineSpec, MatchConfig, MatchSummary, run_match};
use std::path::Path;

fn engines(dir: &Path, modes: &[(&str, &str)]) -> Vec<EngineSpec> {
    modes
        .iter()
        .map(|(mode, name)| {
            EngineSpec::parse(&race_spec(dir, mode, name)).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

fn config(engines: Vec<EngineSpec>, games: u64) -> MatchConfig {
    let mut cfg = test_config(engines, games, Vec::new());
    cfg.referee.repetition = false;
    cfg
}

fn run(cfg: &MatchConfig) -> MatchSummary {
    run_match(Race { players: 3 }, cfg).unwrap_or_else(|e| panic!("match failed: {e}"))
}

/// fast always wins; medium is always closer to the goal than slow when
/// fast gets there, whatever the seats, so the places are 1st, 2nd, 3rd in
/// every rotation.
#[test]
fn losers_of_a_won_game_are_placed_by_distance_to_winning() {
    let dir = race_engine_dir("multi-places");
    let pdn = dir.join("games.pdn");
    let mut cfg = config(
        engines(
            &dir,
            &[("slow", "slow"), ("fast", "fast"), ("medium", "medium")],
        ),
        3,
    );
    cfg.pdn = Some(pdn.clone());
    let s = run(&cfg);
    assert_eq!(s.games, 3);
    assert_eq!(s.places, vec![vec![0, 0, 3], vec![3, 0, 0], vec![0, 3, 0]]);
    assert_eq!(s.wins, vec![0, 3, 0]);
    // Default points: 1, 1/2, 0.
    assert_eq!(s.points, vec![0.0, 3.0, 1.5]);
    assert_eq!(s.points_scheme, vec![1.0, 0.5, 0.0]);
    // Pairwise from the places.
    let p = &s.pairs;
    assert_eq!((p[1][2].wins, p[1][2].draws, p[1][2].losses), (3, 0, 0));
    assert_eq!((p[0][2].wins, p[0][2].losses), (0, 3));
    assert_eq!(p[2][0], p[0][2].flipped());
    // Field scores 0, 1, 1/2: slow and fast have no finite Elo, medium 0.
    assert_eq!(s.field[2].score(), Some(0.5));
    assert_eq!(s.field[2].elo(), Some(0.0));
    assert_eq!(s.field[1].elo(), None);
    // Each seat held the winner once.
    assert_eq!(s.seat_wins, vec![1, 1, 1]);
    assert_eq!(s.seat_points, vec![1.5, 1.5, 1.5]);
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    assert_eq!(text.matches("[Result \"*\"]").count(), 3, "{text}");
    assert!(text.contains("[Player1 \"slow\"]\n[Player2 \"fast\"]\n[Player3 \"medium\"]"));
    assert!(text.contains("[Places \"3 1 2\"]"), "{text}");
    assert!(text.contains("distances to winning: slow "), "{text}");
}

#[test]
fn points_option_changes_the_points_not_the_places() {
    let dir = race_engine_dir("multi-points");
    let mut cfg = config(
        engines(
            &dir,
            &[("slow", "slow"), ("fast", "fast"), ("medium", "medium")],
        ),
        3,
    );
    cfg.referee.points = Some(PointsScheme::parse("3,1,0", 3).unwrap_or_else(|e| panic!("{e}")));
    let s = run(&cfg);
    assert_eq!(s.points, vec![0.0, 9.0, 3.0]);
    assert_eq!(s.places, vec![vec![0, 0, 3], vec![3, 0, 0], vec![0, 3, 0]]);
    // The field score does not depend on the points scheme.
    assert_eq!(s.field[2].score(), Some(0.5));
    let json = s.json();
    assert!(json.contains("\"points_per_place\":[3,1,0]"), "{json}");
}

/// Three slow engines stopped after 7 plies: seat 1 has moved 3 times,
/// seats 2 and 3 twice: seat 1 is first, the others tie for second and
/// share the points of 2nd and 3rd place.
#[test]
fn ply_limit_ranks_by_distance_and_ties_share_places() {
    let dir = race_engine_dir("multi-limit");
    let mut cfg = config(
        engines(&dir, &[("slow", "a"), ("slow", "b"), ("slow", "c")]),
        3,
    );
    cfg.referee.max_plies = 7;
    let s = run(&cfg);
    assert_eq!(s.ends.get("max-plies"), Some(&3));
    assert_eq!(s.seat_points, vec![3.0, 0.75, 0.75]);
    assert_eq!(s.seat_wins, vec![3, 0, 0]);
    // Each engine sat in each seat once: one first place, two ties for 2nd.
    for e in 0..3 {
        assert_eq!(s.places[e], vec![1, 2, 0]);
        assert!((s.points[e] - 1.5).abs() < 1e-12);
    }
    assert_eq!(s.pairs[0][1].draws, 1);
    assert_eq!(s.pairs[0][1].wins, 1);
    assert_eq!(s.pairs[0][1].losses, 1);
    let line = s.progress_line(3);
    assert!(
        line.starts_with("games 3/3  a 1.5 (50%), b 1.5 (50%), c 1.5 (50%)"),
        "{line}"
    );
    assert!(line.contains("a vs field elo +0.0 ["), "{line}");
}

/// An engine that plays an illegal move is placed last; the others are
/// placed by their distance when the game stopped (fast ahead of slow).
#[test]
fn failing_engine_is_last_and_the_others_are_placed_by_distance() {
    let dir = race_engine_dir("multi-fail");
    let mut cfg = config(
        engines(
            &dir,
            &[("illegal2", "bad"), ("slow", "slow"), ("fast", "fast")],
        ),
        3,
    );
    cfg.referee.points = Some(PointsScheme::parse("win", 3).unwrap_or_else(|e| panic!("{e}")));
    let s = run(&cfg);
    assert_eq!(s.games, 3);
    assert_eq!(s.failures[0].get("illegal-move"), Some(&3));
    assert_eq!(s.places, vec![vec![0, 0, 3], vec![0, 3, 0], vec![3, 0, 0]]);
    assert_eq!(s.points, vec![0.0, 0.0, 3.0]);
    let json = s.json();
    for key in [
        "\"places\":[0,0,3]",
        "\"seat_wins\":[",
        "\"pairs\":[{\"a\":\"bad\",\"b\":\"slow\",\"wins\":0,\"draws\":0,\"losses\":3",
        "\"field_score\":0,",
        "\"field_elo\":null",
    ] {
        assert!(json.contains(key), "{key} missing from {json}");
    }
    let report = s.report();
    assert!(
        report.contains("Points per place (1st first): 1, 0, 0"),
        "{report}"
    );
    assert!(
        report.contains("fast vs") || report.contains("vs fast: +0 =0 -3"),
        "{report}"
    );
}

/// rules.md's ranking distance for chinese checkers: the sum over a
/// player's pegs outside the target of the distance to the farthest target
/// hole its set does not hold; 0 at home.
#[test]
fn chinese_distance_to_win_follows_rules_md() {
    use salto::Game;
    use salto::chinese::Chinese;
    use salto::chinese::board::{BOARD, TIPS, bit};
    let hole = |q: i32, r: i32| {
        BOARD
            .coord
            .iter()
            .position(|&(a, b)| a as i32 == q && b as i32 == r)
            .unwrap_or_else(|| panic!("no hole at {q},{r}"))
    };
    let g = Chinese::with_players(2, 1).unwrap_or_else(|e| panic!("{e}"));
    // Both sets home: 0.
    let mut sets = [0u128; 6];
    sets[0] = BOARD.corner[3];
    sets[3] = BOARD.corner[0];
    let home = g.make_position(sets, 0, 0);
    assert_eq!(g.distance_to_win(&home, 0), Some(0));
    assert_eq!(g.distance_to_win(&home, 1), Some(0));
    // Player 1 (corner A, target D): one peg on the tip of A, the other
    // nine in D but not on D's tip. The only free target hole is D's tip
    // (-4, 8); from A's tip (4, -8) that is 16 holes away.
    let tip_d = bit(hole(TIPS[3].0, TIPS[3].1));
    sets[0] = (BOARD.corner[3] & !tip_d) | bit(hole(TIPS[0].0, TIPS[0].1));
    let pos = g.make_position(sets, 0, 0);
    assert_eq!(g.distance_to_win(&pos, 0), Some(16));
    // The same peg on the centre (0, 0): 8.
    sets[0] = (BOARD.corner[3] & !tip_d) | bit(hole(0, 0));
    let pos = g.make_position(sets, 0, 0);
    assert_eq!(g.distance_to_win(&pos, 0), Some(8));
    // The start: every peg counts the farthest hole of the empty target.
    let start = g.start();
    let d = g.distance_to_win(&start, 0).unwrap_or(0);
    assert_eq!(Some(d), g.distance_to_win(&start, 1));
    assert!((10 * 12..=10 * 16).contains(&d), "{d}");
}
