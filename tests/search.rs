//! The generic search, checked on toy games whose values are known exactly
//! (see `search_toys`): exact win distances, draws by repetition (with the
//! game history) and by move count, the quiescence rule, limits, time,
//! stop and ponder, multi-PV, threads and determinism.

mod search_toys;

use salto::game::{SCORE_WIN, Score};
use salto::search::{Control, Info, Limits, SearchResult, Searcher};
use salto::{Game, MoveList};
use search_toys::*;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const ONE_WAY: Line = Line {
    cells: 10,
    one_way: true,
    draw_plies: 0,
};

/// A two-way line: cyclic, never ends by itself (searches until stopped).
const TWO_WAY: Line = Line {
    cells: 16,
    one_way: false,
    draw_plies: 0,
};

fn search<G: Game>(
    game: G,
    pos: &G::Position,
    history: &[u64],
    limits: &Limits,
    threads: usize,
) -> (SearchResult<G::Move>, Vec<Info<G::Move>>) {
    let mut s = Searcher::new(game, 4, threads);
    let control = Control::new();
    let mut infos = Vec::new();
    let r = s.search(pos, history, limits, &control, &mut |i| {
        infos.push(i.clone())
    });
    (r, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// The exact value of `mv` in `pos` from the mover's view.
fn exact_after(pos: &LinePos, mv: LineMove, memo: &mut HashMap<LinePos, Score>) -> Score {
    exact_after_in(&ONE_WAY, pos, mv, memo)
}

fn exact_after_in(
    game: &Line,
    pos: &LinePos,
    mv: LineMove,
    memo: &mut HashMap<LinePos, Score>,
) -> Score {
    let c = line_exact(game, &game.play(pos, mv), memo);
    if c > 0 { -c + 1 } else { -c - 1 }
}

#[test]
fn search_finds_the_exact_win_distance_of_one_way_line_games() {
    let mut memo = HashMap::new();
    for seed in 0..16 {
        let pos = random_line(&ONE_WAY, seed, 3);
        let exact = line_exact(&ONE_WAY, &pos, &mut memo);
        let (r, _) = search(ONE_WAY, &pos, &[], &depth(64), 1);
        assert_eq!(
            r.score,
            exact,
            "seed {seed}: {} side {}",
            ONE_WAY.format_fen(&pos),
            pos.side
        );
        let best = r.best.expect("a move");
        assert_eq!(
            exact_after(&pos, best, &mut memo),
            exact,
            "seed {seed}: best move is not optimal"
        );
        // The principal variation is a line of legal moves.
        let mut p = pos.clone();
        for &m in &r.pv {
            let mut l = MoveList::new();
            ONE_WAY.generate(&p, &mut l);
            assert!(l.contains(&m), "seed {seed}: illegal PV move");
            p = ONE_WAY.play(&p, m);
        }
    }
}

#[test]
fn two_threads_find_the_same_exact_values() {
    let mut memo = HashMap::new();
    for seed in 100..106 {
        let pos = random_line(&ONE_WAY, seed, 3);
        let exact = line_exact(&ONE_WAY, &pos, &mut memo);
        let (r, _) = search(ONE_WAY, &pos, &[], &depth(64), 2);
        assert_eq!(r.score, exact, "seed {seed}");
        assert_eq!(exact_after(&pos, r.best.expect("move"), &mut memo), exact);
    }
}

#[test]
fn multipv_reports_the_k_best_root_moves_with_exact_scores() {
    let mut memo = HashMap::new();
    let mut checked = 0;
    let game = Line {
        cells: 12,
        one_way: true,
        draw_plies: 0,
    };
    for seed in 200..600 {
        if checked == 8 {
            break;
        }
        let pos = random_line(&game, seed, 4);
        let mut l = MoveList::new();
        game.generate(&pos, &mut l);
        if l.len() < 3 {
            continue;
        }
        let limits = Limits {
            depth: Some(40),
            multipv: 3,
            ..Limits::default()
        };
        let (_, infos) = search(game, &pos, &[], &limits, 1);
        let last: Vec<_> = infos.iter().filter(|i| i.depth == 40).collect();
        assert_eq!(last.len(), 3, "seed {seed}");
        let mut exact: Vec<Score> = l
            .iter()
            .map(|&m| exact_after_in(&game, &pos, m, &mut memo))
            .collect();
        exact.sort_unstable_by(|a, b| b.cmp(a));
        for (k, info) in last.iter().enumerate() {
            assert_eq!(info.multipv, k + 1);
            assert_eq!(info.score, exact[k], "seed {seed} line {}", k + 1);
            assert_eq!(
                exact_after_in(&game, &pos, info.pv[0], &mut memo),
                info.score
            );
        }
        assert_ne!(last[0].pv[0], last[1].pv[0]);
        assert_ne!(last[1].pv[0], last[2].pv[0]);
        assert_ne!(last[0].pv[0], last[2].pv[0]);
        checked += 1;
    }
    assert!(checked >= 5);
}

#[test]
fn a_position_with_a_capture_pending_is_never_evaluated_statically() {
    let before = UNSTABLE_EVALS.load(Ordering::Relaxed);
    for seed in 300..310 {
        let pos = random_line(&TWO_WAY, seed, 5);
        let _ = search(TWO_WAY, &pos, &[], &depth(7), 1);
        let pos = random_line(&ONE_WAY, seed, 4);
        let _ = search(ONE_WAY, &pos, &[], &depth(5), 1);
    }
    assert_eq!(UNSTABLE_EVALS.load(Ordering::Relaxed), before);
}

// Repetition. Node 0 (player 0 to move, statically lost): move 1 loses at
// once (node 3 has no move); move 2 leads to node 2, where player 1 can
// go back to 0 (a repetition) or to 4, which loses for player 1.
static REP_SIDE: [u8; 6] = [0, 1, 1, 0, 0, 1];
static REP_EDGES: [&[u8]; 6] = [&[1, 2], &[3], &[0, 4], &[], &[5], &[]];
static REP_VALUE: [Score; 6] = [-500, -500, -500, -500, 0, 0];

#[test]
fn repeating_a_position_within_the_search_is_a_draw() {
    let g = Graph {
        side: &REP_SIDE,
        edges: &REP_EDGES,
        value: &REP_VALUE,
        draw_plies: 0,
    };
    let (r, _) = search(g, &g.at(0, 0), &[], &depth(12), 1);
    assert_eq!(r.score, 0);
    assert_eq!(r.best, Some(2));
}

// Node 0: move 1 loses in 2 plies, move 2 loses in 4 plies (2, 4, 5, 6).
static LOSS_SIDE: [u8; 11] = [0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 1];
static LOSS_EDGES: [&[u8]; 11] = [
    &[1, 2],
    &[3],
    &[4],
    &[],
    &[5],
    &[6],
    &[],
    &[],
    &[],
    &[],
    &[],
];
static LOSS_VALUE: [Score; 11] = [0; 11];

fn loss_graph(draw_plies: u32) -> Graph {
    Graph {
        side: &LOSS_SIDE,
        edges: &LOSS_EDGES,
        value: &LOSS_VALUE,
        draw_plies,
    }
}

#[test]
fn the_third_occurrence_counting_the_game_before_the_root_is_a_draw() {
    let g = loss_graph(0);
    let h = |n: u8| g.hash(&g.at(n, 0));
    let root = g.at(0, 10);
    // Without history: the slower loss, in 4 plies.
    let (r, _) = search(g, &root, &[], &depth(10), 1);
    assert_eq!(r.score, -(SCORE_WIN - 4));
    // Node 2 (after move 2) occurred twice before: reaching it again is the
    // third occurrence, a draw.
    let hist = [h(7), h(2), h(8), h(2)];
    let (r, _) = search(g, &root, &hist, &depth(10), 1);
    assert_eq!(r.score, 0);
    assert_eq!(r.best, Some(2));
    // Once before is only the second occurrence.
    let hist = [h(7), h(8), h(9), h(2)];
    let (r, _) = search(g, &root, &hist, &depth(10), 1);
    assert_eq!(r.score, -(SCORE_WIN - 4));
    // An irreversible move since (small reversible count) hides the history.
    let hist = [h(7), h(2), h(8), h(2)];
    let (r, _) = search(g, &g.at(0, 1), &hist, &depth(10), 1);
    assert_eq!(r.score, -(SCORE_WIN - 4));
}

#[test]
fn the_move_count_rule_draws_inside_the_search() {
    let (r, _) = search(loss_graph(3), &loss_graph(3).at(0, 0), &[], &depth(10), 1);
    assert_eq!(
        r.score, 0,
        "the rule ends the game at ply 3, before the loss at ply 4"
    );
    assert_eq!(r.best, Some(2));
    let (r, _) = search(loss_graph(5), &loss_graph(5).at(0, 0), &[], &depth(10), 1);
    assert_eq!(r.score, -(SCORE_WIN - 4));
}

#[test]
fn a_position_without_legal_moves_has_no_best_move() {
    let g = loss_graph(0);
    let (r, _) = search(g, &g.at(3, 0), &[], &depth(5), 1);
    assert_eq!(r.best, None);
    assert!(r.score <= -(SCORE_WIN - 10));
}

#[test]
fn depth_limit_is_respected_and_one_thread_is_deterministic() {
    let pos = random_line(&TWO_WAY, 7, 5);
    let (a, infos) = search(TWO_WAY, &pos, &[], &depth(8), 1);
    let (b, _) = search(TWO_WAY, &pos, &[], &depth(8), 1);
    assert_eq!(a.depth, 8);
    assert_eq!(infos.last().map(|i| i.depth), Some(8));
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
    assert!(a.nodes > 100);
}

#[test]
fn node_limit_is_respected() {
    let pos = random_line(&TWO_WAY, 8, 5);
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let (r, _) = search(TWO_WAY, &pos, &[], &limits, 1);
    assert!(r.nodes >= 5_000 && r.nodes < 5_100, "{}", r.nodes);
    assert!(r.best.is_some());
}

/// How many times a timing test repeats before it judges the fastest run.
const TIMING_RUNS: usize = 8;

/// The shortest of `TIMING_RUNS` timed searches (the machine is shared: one run
/// can lose the processor for tens of milliseconds, a systematic overrun
/// shows in all of them).
fn timed(limits: &Limits, threads: usize) -> Duration {
    let pos = random_line(&TWO_WAY, 9, 5);
    let mut s = Searcher::new(TWO_WAY, 8, threads);
    let control = Control::new();
    (0..TIMING_RUNS)
        .map(|_| {
            let t = Instant::now();
            let r = s.search(&pos, &[], limits, &control, &mut |_| {});
            let e = t.elapsed();
            assert!(r.best.is_some());
            e
        })
        .min()
        .unwrap_or_default()
}

#[test]
fn move_time_of_50_ms_is_never_exceeded() {
    let limits = Limits {
        move_time: Some(0.05),
        ..Limits::default()
    };
    for threads in [1, 2] {
        let e = timed(&limits, threads);
        assert!(e < Duration::from_millis(50), "{e:?}");
    }
}

#[test]
fn a_short_clock_with_1_ms_increment_is_never_exceeded() {
    for &(time, inc) in &[(0.05, 0.001), (0.01, 0.001), (0.003, 0.001)] {
        let limits = Limits {
            time: Some(time),
            inc,
            ..Limits::default()
        };
        for threads in [1, 2] {
            let e = timed(&limits, threads);
            let allowed = Duration::from_secs_f64(time);
            assert!(e < allowed, "time {time} inc {inc}: {e:?}");
        }
    }
}

#[test]
fn an_empty_clock_still_gets_a_legal_move() {
    for time in [0.0, -1.0, f64::NAN] {
        let limits = Limits {
            time: Some(time),
            inc: 0.001,
            ..Limits::default()
        };
        let e = timed(&limits, 1);
        assert!(e < Duration::from_millis(20), "{e:?}");
    }
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let pos = random_line(&TWO_WAY, 10, 5);
    let mut s = Searcher::new(TWO_WAY, 8, 2);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut l = MoveList::new();
    TWO_WAY.generate(&pos, &mut l);
    // Best of several runs: a systematic delay shows in all of them, a
    // scheduling hiccup of the shared machine in one.
    let mut fastest = Duration::MAX;
    for _ in 0..TIMING_RUNS {
        let control = Control::new();
        let t = Instant::now();
        let r = std::thread::scope(|sc| {
            sc.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                control.stop();
            });
            s.search(&pos, &[], &limits, &control, &mut |_| {})
        });
        let e = t.elapsed();
        assert!(e >= Duration::from_millis(100), "{e:?}");
        assert!(l.contains(&r.best.expect("move")));
        fastest = fastest.min(e);
        if fastest < Duration::from_millis(150) {
            break;
        }
    }
    assert!(fastest < Duration::from_millis(150), "{fastest:?}");
}

#[test]
fn pondering_ignores_the_clock_until_ponder_hit() {
    let pos = random_line(&TWO_WAY, 11, 5);
    let mut s = Searcher::new(TWO_WAY, 8, 1);
    let control = Control::new();
    let limits = Limits {
        move_time: Some(0.03),
        ..Limits::default()
    };
    // Best of several: a shared machine can delay any one run.
    let mut after_hit = Duration::MAX;
    for _ in 0..TIMING_RUNS {
        control.reset(true);
        let t = Instant::now();
        let r = std::thread::scope(|sc| {
            sc.spawn(|| {
                std::thread::sleep(Duration::from_millis(80));
                control.ponder_hit();
            });
            s.search(&pos, &[], &limits, &control, &mut |_| {})
        });
        let end = Instant::now();
        assert!(
            end - t >= Duration::from_millis(80),
            "ended while pondering"
        );
        assert!(r.best.is_some());
        let hit = control.ponder_hit_time().expect("ponder-hit time");
        after_hit = after_hit.min(end - hit);
    }
    assert!(after_hit < Duration::from_millis(30), "{after_hit:?}");
    // Pondering with a depth limit that is reached early still waits.
    control.reset(true);
    let t = Instant::now();
    std::thread::scope(|sc| {
        sc.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            control.stop();
        });
        s.search(&pos, &[], &depth(2), &control, &mut |_| {})
    });
    assert!(t.elapsed() >= Duration::from_millis(50));
}

#[test]
fn one_legal_move_under_a_clock_is_answered_at_once() {
    let g = loss_graph(0);
    let limits = Limits {
        time: Some(100.0),
        ..Limits::default()
    };
    let mut fastest = Duration::MAX;
    for _ in 0..TIMING_RUNS {
        let t = Instant::now();
        let (r, _) = search(g, &g.at(2, 0), &[], &limits, 1);
        assert_eq!(r.best, Some(4));
        fastest = fastest.min(t.elapsed());
        if fastest < Duration::from_millis(50) {
            break;
        }
    }
    assert!(fastest < Duration::from_millis(50), "{fastest:?}");
}

#[test]
fn ponder_move_is_legal_after_the_best_move() {
    let pos = random_line(&TWO_WAY, 12, 5);
    let (r, _) = search(TWO_WAY, &pos, &[], &depth(6), 1);
    let after = TWO_WAY.play(&pos, r.best.expect("move"));
    let mut l = MoveList::new();
    TWO_WAY.generate(&after, &mut l);
    assert!(l.contains(&r.ponder.expect("ponder move")));
}
