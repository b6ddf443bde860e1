//! The multi-player searches (src/search/multi/): a forced win found in a
//! constructed 3-player endgame, pass handling, and long self-play with
//! every algorithm, player count and option staying legal.

use salto::chinese::board::{BOARD, HOLES, bit};
use salto::chinese::{Chinese, Move, Position};
use salto::game::{Game, MoveList, Outcome, SCORE_WIN, SCORE_WIN_MIN, ranked_score};
use salto::search::{Algorithm, Searcher};
use salto::search::{Control, Limits, SearchResult};
use salto::{Options, Variant};

const SEARCHES: [Algorithm; 3] = [Algorithm::Paranoid, Algorithm::Brs, Algorithm::Maxn];

fn game(opts: &[(&str, &str)]) -> Chinese {
    let mut o = Options::new(Variant::Chinese);
    for (k, v) in opts {
        o.set(k, v).expect("a valid option");
    }
    Chinese::new(&o).expect("a valid game")
}

fn holes(numbers: &[usize]) -> u128 {
    numbers.iter().fold(0, |m, &n| m | bit(n - 1))
}

fn search(g: Chinese, a: Algorithm, pos: &Position, limits: Limits) -> SearchResult<Move> {
    let mut s = Searcher::new(g, 4, 1);
    s.set_algorithm(a);
    s.search(pos, &[], &limits, &Control::new(), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn moves(g: &Chinese, pos: &Position) -> Vec<Move> {
    let mut l = MoveList::new();
    g.generate(pos, &mut l);
    l.iter().copied().collect()
}

fn wins_now(g: &Chinese, pos: &Position, p: usize) -> bool {
    moves(g, pos)
        .into_iter()
        .any(|m| g.outcome(&g.play(pos, m)) == Some(Outcome::Win(p)))
}

/// A hole outside corner D next to `target` and not next to `other`.
fn feeder(target: usize, other: usize, taken: u128) -> usize {
    (0..HOLES)
        .find(|&h| {
            BOARD.corner[3] & bit(h) == 0
                && BOARD.adjacent[target - 1] & bit(h) != 0
                && BOARD.adjacent[other - 1] & bit(h) == 0
                && taken & bit(h) == 0
        })
        .expect("a hole next to the target")
}

/// Three players (A, C, E). Player 1 (set A, target D) has eight pegs in
/// D and two pegs outside, each next to one of the two empty holes 112 and
/// 113: it wins with its second move, whatever the others do (they sit in
/// their start corners and may not stop in D, a foreign corner for them).
fn two_moves_from_home(g: &Chinese) -> Position {
    let mut sets = [0u128; 6];
    let a1 = feeder(112, 113, 0);
    let a2 = feeder(113, 112, bit(a1));
    sets[0] = holes(&[114, 115, 116, 117, 118, 119, 120, 121]) | bit(a1) | bit(a2);
    sets[2] = BOARD.corner[2];
    sets[4] = BOARD.corner[4];
    g.make_position(sets, 0, 0)
}

#[test]
fn every_search_finds_the_forced_win_of_a_three_player_endgame() {
    let g = game(&[("players", "3")]);
    let pos = two_moves_from_home(&g);
    assert!(!wins_now(&g, &pos, 0), "the win needs two moves");
    for a in SEARCHES {
        let r = search(g, a, &pos, depth(4));
        let best = r.best.expect("a move");
        assert!(
            r.score >= SCORE_WIN_MIN,
            "{a}: score {} is not a win",
            r.score
        );
        // Paranoid and max^n see the win on ply 4 (the root player's second
        // move); BRS on ply 3 (one reply between the two moves).
        let plies = if a == Algorithm::Brs { 3 } else { 4 };
        assert_eq!(r.score, SCORE_WIN - plies, "{a}");
        // Whatever both opponents reply, the root player then wins at once.
        let after = g.play(&pos, best);
        for r1 in moves(&g, &after) {
            let p1 = g.play(&after, r1);
            for r2 in moves(&g, &p1) {
                let p2 = g.play(&p1, r2);
                assert!(
                    wins_now(&g, &p2, 0),
                    "{a}: {} does not keep the win",
                    g.format_move(&pos, best)
                );
            }
        }
    }
}

#[test]
fn greedy_takes_a_win_in_one_and_otherwise_the_largest_step_home() {
    let g = game(&[("players", "3")]);
    let pos = two_moves_from_home(&g);
    let r = search(g, Algorithm::Greedy, &pos, depth(1));
    let best = r.best.expect("a move");
    let gain = |m: Move| g.distance_to_home(&pos, 0) - g.distance_to_home(&g.play(&pos, m), 0);
    let most = moves(&g, &pos).into_iter().map(gain).max().expect("moves");
    assert!(most > 0);
    assert_eq!(gain(best), most);
    // One move from home: greedy wins.
    let mut sets = [0u128; 6];
    let a1 = feeder(112, 113, 0);
    sets[0] = holes(&[113, 114, 115, 116, 117, 118, 119, 120, 121]) | bit(a1);
    sets[2] = BOARD.corner[2];
    sets[4] = BOARD.corner[4];
    let near = g.make_position(sets, 0, 0);
    let r = search(g, Algorithm::Greedy, &near, depth(1));
    let after = g.play(&near, r.best.expect("a move"));
    assert_eq!(g.outcome(&after), Some(Outcome::Win(0)));
    assert!(r.score >= SCORE_WIN_MIN);
}

/// Player 1's nine pegs and a peg of player 2 fill D under `spoiling=none`:
/// player 1 has no legal move and has not won.
fn blocked(g: &Chinese, to_move: usize) -> Position {
    let mut sets = [0u128; 6];
    sets[0] = holes(&[113, 114, 115, 116, 117, 118, 119, 120, 121]);
    sets[2] = (BOARD.corner[2] & !holes(&[111])) | holes(&[112]);
    sets[4] = BOARD.corner[4];
    g.make_position(sets, 0, to_move)
}

#[test]
fn a_player_without_moves_passes_and_searches_through_passes_work() {
    let g = game(&[("players", "3"), ("spoiling", "none")]);
    let stuck = blocked(&g, 0);
    assert_eq!(moves(&g, &stuck), vec![Move::PASS]);
    assert_eq!(g.outcome(&stuck), None);
    for a in Algorithm::ALL {
        // The root player must pass.
        let r = search(g, a, &stuck, depth(3));
        assert_eq!(r.best, Some(Move::PASS), "{a}");
        assert_eq!(g.format_move(&stuck, Move::PASS), "pass");
        // Another player searches lines in which player 1 passes.
        for p in [1, 2] {
            let pos = blocked(&g, p);
            let r = search(g, a, &pos, depth(4));
            let best = r.best.expect("a move");
            assert!(moves(&g, &pos).contains(&best), "{a}: illegal {best:?}");
            assert_ne!(best, Move::PASS, "{a}");
            check_line(&g, &pos, &r.pv);
        }
    }
}

/// `line` is a legal sequence from `pos`.
fn check_line(g: &Chinese, pos: &Position, line: &[Move]) {
    let mut p = *pos;
    for &m in line {
        assert!(moves(g, &p).contains(&m), "pv move {m:?} is illegal");
        p = g.play(&p, m);
    }
}

/// Plays `plies` moves (or to the end) with every player searching with
/// `a` on a small node budget; every move and every line must be legal,
/// and the hash right.
fn self_play(g: Chinese, a: Algorithm, plies: usize, nodes: u64) -> usize {
    let mut s = Searcher::new(g, 4, 1);
    s.set_algorithm(a);
    let mut pos = g.start();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut played = 0;
    while played < plies && g.outcome(&pos).is_none() {
        let r = s.search(&pos, &[], &limits, &Control::new(), &mut |_| {});
        let best = r.best.expect("a move while the game goes on");
        assert!(moves(&g, &pos).contains(&best), "{a}: illegal move");
        check_line(&g, &pos, &r.pv);
        assert_eq!(r.pv.first(), Some(&best), "{a}: pv starts with the move");
        pos = g.play(&pos, best);
        assert_eq!(g.hash(&pos), g.hash_from_scratch(&pos));
        played += 1;
    }
    played
}

#[test]
fn long_self_play_stays_legal_for_every_search_player_count_and_option() {
    let configs: [&[(&str, &str)]; 6] = [
        &[("players", "3")],
        &[("players", "4"), ("spoiling", "fill")],
        &[("players", "6"), ("foreign-corners", "stop")],
        &[("players", "3"), ("sets", "2"), ("spoiling", "none")],
        &[("players", "4"), ("unused-corners", "filled")],
        &[("players", "3"), ("max-moves", "12")],
    ];
    for opts in configs {
        let g = game(opts);
        for a in SEARCHES {
            let n = self_play(g, a, 72, 800);
            assert!(n >= 36, "{opts:?} {a}: only {n} plies");
        }
        // Greedy is cheap: a whole game's worth.
        self_play(g, Algorithm::Greedy, 400, 1);
    }
    // Two players: greedy is the only algorithm that changes anything.
    let g = game(&[]);
    self_play(g, Algorithm::Greedy, 200, 1);
    let mut s = Searcher::new(g, 4, 1);
    for a in SEARCHES {
        s.set_algorithm(a);
        assert_eq!(s.effective_algorithm(), None);
    }
    s.set_algorithm(Algorithm::Greedy);
    assert_eq!(s.effective_algorithm(), Some(Algorithm::Greedy));
}

#[test]
fn algorithm_names_round_trip_and_bad_names_say_what_is_accepted() {
    for a in Algorithm::ALL {
        assert_eq!(Algorithm::parse(a.name()), Ok(a));
        assert_eq!(
            Algorithm::parse(&format!(" {} ", a.name().to_uppercase())),
            Ok(a)
        );
    }
    let e = Algorithm::parse("mcts").expect_err("not an algorithm");
    assert!(e.0.contains("paranoid brs maxn greedy"), "{}", e.0);
}

/// Plays `plies` moves from the start, each the mover's move that brings
/// its pegs closest to home (the one-ply greedy search).
fn greedy_opening(g: Chinese, plies: usize) -> Position {
    let mut pos = g.start();
    for _ in 0..plies {
        let r = search(g, Algorithm::Greedy, &pos, depth(1));
        pos = g.play(&pos, r.best.expect("a move"));
    }
    pos
}

#[test]
fn a_game_ended_by_max_moves_scores_the_place_reached() {
    // rules.md, max-moves: an unresolved game is ranked by distance to
    // home, least first. After one move of player 1 toward home, player 1
    // is first alone.
    for players in ["2", "3"] {
        let g = game(&[("players", players), ("max-moves", "1")]);
        let n = g.num_players();
        let pos = greedy_opening(g, 1);
        let d: Vec<u32> = (0..n)
            .map(|p| g.distance_to_win(&pos, p).expect("a distance"))
            .collect();
        assert!(d[1..].iter().all(|&x| x > d[0]), "{d:?}");
        assert_eq!(ranked_score(&g, &pos, 0, 3), Some(SCORE_WIN - 3));
        let behind = ranked_score(&g, &pos, 1, 3).expect("a score");
        if n == 2 {
            assert_eq!(behind, -(SCORE_WIN - 3));
        } else {
            // Second and third share the places behind the first.
            assert!(behind < 0 && behind > -SCORE_WIN_MIN, "{behind}");
            assert_eq!(ranked_score(&g, &pos, 2, 3), Some(behind));
        }
    }
    // At the start every distance is the same: a tie, not a win.
    let g = game(&[("players", "2"), ("max-moves", "1")]);
    assert_eq!(ranked_score(&g, &g.start(), 0, 0), Some(0));
    // Draughts has no such ranking: its unresolved games are draws.
    let d = salto::draughts::InternationalGame::default();
    assert_eq!(ranked_score(&d, &d.start(), 0, 0), None);
}

/// Plays `plies` moves from the start: player 1 the greedy move, the others
/// the move that leaves them farthest from home.
fn lopsided_opening(g: Chinese, plies: usize) -> Position {
    let mut pos = g.start();
    for _ in 0..plies {
        let p = g.to_move(&pos);
        let mv = if p == 0 {
            search(g, Algorithm::Greedy, &pos, depth(1))
                .best
                .expect("a move")
        } else {
            moves(&g, &pos)
                .into_iter()
                .max_by_key(|&m| g.distance_to_win(&g.play(&pos, m), p))
                .expect("a move")
        };
        pos = g.play(&pos, mv);
    }
    pos
}

#[test]
fn the_search_scores_the_place_it_reaches_at_max_moves() {
    // Every player makes 2 moves; player 1, far ahead, is to move at its
    // last move: every line of 2 (or, with 3 players, 3) plies ends the
    // game with player 1 first, a win, not a draw or an evaluation.
    for (players, d) in [("2", 2), ("3", 3)] {
        let g = game(&[("players", players), ("max-moves", "2")]);
        let n = g.num_players();
        let pos = lopsided_opening(g, n);
        assert_eq!(g.to_move(&pos), 0);
        for a in [Algorithm::Brs, Algorithm::Paranoid] {
            let r = search(g, a, &pos, depth(d));
            assert!(
                r.score >= SCORE_WIN_MIN,
                "{players} players, {a}: score {}",
                r.score
            );
        }
    }
}

#[test]
fn repetition_is_a_draw_in_draughts_only() {
    // rules.md: draughts draws by repetition; chinese checkers has no draw
    // rule, so its search scores a repetition by the evaluation.
    assert!(!game(&[]).repetition_is_draw());
    let d = salto::draughts::InternationalGame::default();
    assert!(d.repetition_is_draw());
}
