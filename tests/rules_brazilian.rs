//! Brazilian draughts: the international rules on 8x8, squares numbered from
//! a1. One test per rule of rules.md; squares written algebraically.

mod draughts_util;

use draughts_util::{after, has_piece, is_king, legal, strs};
use salto::draughts::Brazilian;
use salto::{Game, MoveList};

type B = Brazilian;

#[test]
fn white_starts_on_squares_1_to_12_numbered_from_a1() {
    let g = salto::draughts::BrazilianGame::default();
    let pos = g.start();
    assert_eq!(g.format_fen(&pos), "W:W1-12:B21-32");
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let mut got: Vec<String> = list.iter().map(|m| g.format_move(&pos, *m)).collect();
    got.sort();
    assert_eq!(
        got,
        strs(&["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"])
    );
}

#[test]
fn men_capture_backward() {
    assert_eq!(legal::<B>('W', &["e5"], &["f4"]), strs(&["e5xg3(f4)"]));
}

#[test]
fn kings_fly() {
    assert_eq!(
        legal::<B>('W', &["Ka1"], &["e5"]),
        strs(&["a1xf6(e5)", "a1xg7(e5)", "a1xh8(e5)"])
    );
}

#[test]
fn maximum_capture_wins_over_capturing_a_king() {
    assert_eq!(
        legal::<B>('W', &["d4", "f4"], &["Kc5", "g5", "g7"]),
        strs(&["f4xf8(g5,g7)"])
    );
}

#[test]
fn no_king_tiebreak() {
    assert_eq!(
        legal::<B>('W', &["d4", "f4"], &["Kc5", "g5"]),
        strs(&["d4xb6(c5)", "f4xh6(g5)"])
    );
}

#[test]
fn man_crossing_the_far_row_mid_capture_stays_a_man() {
    assert_eq!(
        legal::<B>('W', &["b6"], &["c7", "e7"]),
        strs(&["b6xf6(c7,e7)"])
    );
    let pos = after::<B>('W', &["b6"], &["c7", "e7"], "b6xf6(c7,e7)");
    assert!(has_piece::<B>(&pos, 0, "f6"));
    assert!(!is_king::<B>(&pos, "f6"));
}

#[test]
fn a_jumped_piece_cannot_be_jumped_twice() {
    assert_eq!(
        legal::<B>('W', &["c3"], &["d4", "f4", "f2", "d2"]),
        strs(&["c3xc3(d2,d4,f2,f4)"])
    );
}

#[test]
fn algebraic_squares_are_accepted() {
    let g = salto::draughts::BrazilianGame::default();
    let pos = g.start();
    let a = g.parse_move(&pos, "c3-d4").expect("algebraic move");
    let n = g.parse_move(&pos, "10-14").expect("numeric move");
    assert_eq!(a, n);
}
