//! English draughts (american checkers), one test per rule of rules.md.
//! Squares are written algebraically (a1 bottom-left, White at the bottom).

mod draughts_util;

use draughts_util::{after, has_piece, is_king, legal, strs};
use salto::draughts::{Diagonal8, English, Rules};
use salto::{Game, MoveList};

type E = English;

#[test]
fn black_moves_first() {
    let g = salto::draughts::EnglishGame::default();
    let pos = g.start();
    assert_eq!(g.to_move(&pos), 1, "Black is player 1 and moves first");
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let mut got: Vec<String> = list.iter().map(|m| g.format_move(&pos, *m)).collect();
    got.sort();
    assert_eq!(
        got,
        strs(&["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    );
}

#[test]
fn kings_step_one_square() {
    assert_eq!(
        legal::<E>('W', &["Kd4"], &["h8"]),
        strs(&["d4-c3", "d4-c5", "d4-e3", "d4-e5"])
    );
}

#[test]
fn kings_capture_only_an_adjacent_piece() {
    // A piece two squares away cannot be taken...
    assert!(
        legal::<E>('W', &["Kb2"], &["d4"])
            .iter()
            .all(|m| !m.contains('x'))
    );
    // ...and an adjacent one is taken landing just beyond, not further.
    assert_eq!(legal::<E>('W', &["Kd4"], &["e5"]), strs(&["d4xf6(e5)"]));
}

#[test]
fn men_capture_forward() {
    assert_eq!(legal::<E>('W', &["d4"], &["e5"]), strs(&["d4xf6(e5)"]));
}

#[test]
fn men_never_capture_backward() {
    assert_eq!(legal::<E>('W', &["d4"], &["c3"]), strs(&["d4-c5", "d4-e5"]));
}

#[test]
fn any_capture_may_be_chosen_but_a_sequence_must_be_completed() {
    // a1 takes one piece, g3 takes two: both are legal (no maximum capture
    // rule), but g3 may not stop after the first jump.
    assert_eq!(
        legal::<E>('W', &["a1", "g3"], &["b2", "f4", "f6"]),
        strs(&["a1xc3(b2)", "g3xg7(f4,f6)"])
    );
}

#[test]
fn crowning_ends_the_move() {
    // b6 takes c7 and reaches d8: crowned, the move ends there even though
    // the new king could take e7.
    assert_eq!(
        legal::<E>('W', &["b6"], &["c7", "e7"]),
        strs(&["b6xd8(c7)"])
    );
    let pos = after::<E>('W', &["b6"], &["c7", "e7"], "b6xd8(c7)");
    assert!(is_king::<E>(&pos, "d8"));
    assert!(has_piece::<E>(&pos, 1, "e7"));
}

/// English with crowning in the middle of a capture, to show that the test
/// above depends on crowning ending the move.
#[derive(Clone, Copy, Debug, Default)]
struct CrownAndGoOn;

impl Rules for CrownAndGoOn {
    type Geo = Diagonal8;
    const NAME: &'static str = "english-crown-and-go-on";
    const DESCRIPTOR: &'static salto::game::Descriptor = &salto::game::descriptor::OTHER;
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = English::MAN_CAPTURE_DIRS;
    const FLYING_KINGS: bool = false;
    const MAXIMUM_CAPTURE: bool = false;
    const PROMOTE_MID_CAPTURE: bool = true;
    const START: [(usize, usize); 2] = English::START;
    const DEFAULT_DRAW_MOVES: u32 = 40;
}

#[test]
fn crowning_mid_capture_would_go_on() {
    assert_eq!(
        legal::<CrownAndGoOn>('W', &["b6"], &["c7", "e7"]),
        strs(&["b6xf6(c7,e7)"])
    );
}

#[test]
fn black_men_move_down_the_board() {
    assert_eq!(legal::<E>('B', &["h2"], &["d4"]), strs(&["d4-c3", "d4-e3"]));
}
