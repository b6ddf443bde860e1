//! Strength check (ignored: it plays 100 games): the engine at depth d+2
//! against itself at depth d, from varied openings (seeded random first
//! plies), both colours per opening. Run with
//! `cargo test --release --test search_selfplay -- --ignored --nocapture`;
//! the result is written down in docs/performance.md.

use salto::draughts::InternationalGame;
use salto::game::{Game, MoveList, Outcome, zobrist};
use salto::search::{Control, Limits, Searcher};

/// Plays one game; returns 1.0, 0.5 or 0.0 for the player with `deep` as
/// White (index 0).
fn play<G: Game>(game: G, start: &G::Position, depths: [u32; 2], max_plies: usize) -> f64 {
    let mut searchers = [Searcher::new(game, 8, 1), Searcher::new(game, 8, 1)];
    let mut pos = start.clone();
    let mut history: Vec<u64> = Vec::new();
    for _ in 0..max_plies {
        if let Some(o) = game.outcome(&pos) {
            return match o {
                Outcome::Draw => 0.5,
                Outcome::Win(p) => {
                    if p == 0 {
                        1.0
                    } else {
                        0.0
                    }
                }
            };
        }
        let h = game.hash(&pos);
        if history.iter().filter(|&&x| x == h).count() >= 2 {
            return 0.5;
        }
        let side = game.to_move(&pos);
        let limits = Limits {
            depth: Some(depths[side]),
            ..Limits::default()
        };
        let r = searchers[side].search(&pos, &history, &limits, &Control::new(), &mut |_| {});
        let Some(m) = r.best else {
            return if side == 0 { 0.0 } else { 1.0 };
        };
        history.push(h);
        pos = game.play(&pos, m);
    }
    0.5
}

#[test]
#[ignore]
fn deeper_search_scores_well_above_half() {
    let g = InternationalGame::default();
    let (d, games) = (2u32, 100usize);
    let mut points = 0.0;
    let mut wdl = [0, 0, 0];
    for i in 0..games / 2 {
        let mut state = 0x5E1F_0000 + i as u64;
        let mut pos = g.start();
        for _ in 0..6 {
            let mut l = MoveList::new();
            g.generate(&pos, &mut l);
            let k = (zobrist::splitmix64(&mut state) % l.len() as u64) as usize;
            pos = g.play(&pos, l[k]);
        }
        for deep_is_white in [true, false] {
            let depths = if deep_is_white {
                [d + 2, d]
            } else {
                [d, d + 2]
            };
            let r = play(g, &pos, depths, 300);
            let p = if deep_is_white { r } else { 1.0 - r };
            points += p;
            wdl[if p == 1.0 {
                0
            } else if p == 0.5 {
                1
            } else {
                2
            }] += 1;
        }
    }
    println!(
        "depth {} vs depth {d}: {points} / {games} (+{} ={} -{})",
        d + 2,
        wdl[0],
        wdl[1],
        wdl[2]
    );
    assert!(points / games as f64 > 0.6);
}
