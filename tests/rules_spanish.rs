//! Spanish draughts, one test per rule of rules.md.
//! Squares are written algebraically (a1 bottom-left, White at the bottom).

mod draughts_util;

use draughts_util::{legal, strs};
use salto::draughts::Spanish;
use salto::{Game, MoveList};

type S = Spanish;

#[test]
fn white_moves_first_from_squares_21_to_32() {
    let g = salto::draughts::SpanishGame::default();
    let pos = g.start();
    assert_eq!(g.to_move(&pos), 0);
    assert_eq!(g.format_fen(&pos), "W:W21-32:B1-12");
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    assert_eq!(list.len(), 7);
}

#[test]
fn men_never_capture_backward() {
    assert_eq!(legal::<S>('W', &["d4"], &["c3"]), strs(&["d4-c5", "d4-e5"]));
}

#[test]
fn kings_fly() {
    assert_eq!(
        legal::<S>('W', &["Ka1"], &["e5"]),
        strs(&["a1xf6(e5)", "a1xg7(e5)", "a1xh8(e5)"])
    );
}

#[test]
fn maximum_capture_comes_before_kings() {
    assert_eq!(
        legal::<S>('W', &["d4", "f4"], &["Kc5", "g5", "g7"]),
        strs(&["f4xf8(g5,g7)"])
    );
}

#[test]
fn king_tiebreak_among_single_captures() {
    // Taking the king on c5 or the man on g5 is one piece either way; the
    // tie-break makes only the king capture legal.
    assert_eq!(
        legal::<S>('W', &["d4", "f4"], &["Kc5", "g5"]),
        strs(&["d4xb6(c5)"])
    );
}

#[test]
fn king_tiebreak_among_longest_captures() {
    // Both sequences take two pieces; f4's takes a king.
    assert_eq!(
        legal::<S>('W', &["a3", "f4"], &["b4", "d6", "g5", "Kg7"]),
        strs(&["f4xf8(g5,g7)"])
    );
}
