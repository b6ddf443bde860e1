//! Repetition windows of the draughts games: `Game::reversible_plies` must
//! cover every earlier position that can recur, or the search and the match
//! runner miss repetitions (rules.md: the 3rd occurrence is a draw).

use salto::Game;
use salto::draughts::{InternationalGame, TurkishGame};

#[test]
fn turkish_sideways_man_steps_keep_the_repetition_window_open() {
    let g = TurkishGame::default();
    // One man each, far apart: they can step sideways back and forth.
    let start = g.parse_fen("W:Wd3:Be6").expect("valid FEN");
    let mut pos = start;
    let mut seen = vec![g.hash(&pos)];
    for (i, mv) in ["d3-c3", "e6-f6", "c3-d3", "f6-e6"].iter().enumerate() {
        let m = g.parse_move(&pos, mv).expect("legal move");
        pos = g.play(&pos, m);
        seen.push(g.hash(&pos));
        assert_eq!(g.reversible_plies(&pos), i as u32 + 1, "after {mv}");
    }
    // Back at the start: the window reaches the first occurrence.
    assert_eq!(g.hash(&pos), seen[0]);
    assert!(g.reversible_plies(&pos) as usize >= seen.len() - 1);
    // A forward step cannot be undone: the window closes.
    let m = g.parse_move(&pos, "d3-d4").expect("legal move");
    assert_eq!(g.reversible_plies(&g.play(&pos, m)), 0);
}

#[test]
fn diagonal_man_steps_close_the_repetition_window() {
    let g = InternationalGame::default();
    let pos = g.parse_fen("W:W32,K46:B19").expect("valid FEN");
    let king = g.play(&pos, g.parse_move(&pos, "46-41").expect("legal"));
    assert_eq!(g.reversible_plies(&king), 1);
    let man = g.play(&pos, g.parse_move(&pos, "32-28").expect("legal"));
    assert_eq!(g.reversible_plies(&man), 0);
}
