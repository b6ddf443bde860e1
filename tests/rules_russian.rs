//! Russian draughts (shashki, lidraughts' and pydraughts' `russian`): the
//! 8x8 board numbered from a1, men that capture backward, flying kings,
//! free choice among captures, and the man crowned mid-capture that goes
//! on as a king. One test per rule of docs/variants.md, "Russian"; every
//! expected list was also checked against pydraughts 0.6.7.

mod draughts_util;

use draughts_util::{after, has_piece, is_king, legal, strs};
use salto::draughts::{Draughts, Russian};
use salto::{Game, MoveList, Outcome};

type R = Russian;

#[test]
fn white_starts_on_squares_1_to_12_numbered_from_a1_and_moves_first() {
    let g = Draughts::<R>::default();
    let pos = g.start();
    assert_eq!(g.format_fen(&pos), "W:W1-12:B21-32");
    assert_eq!(g.to_move(&pos), 0);
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let mut got: Vec<String> = list.iter().map(|m| g.format_move(&pos, *m)).collect();
    got.sort();
    assert_eq!(
        got,
        strs(&["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"])
    );
}

#[test]
fn men_capture_backward() {
    assert_eq!(legal::<R>('W', &["e5"], &["f4"]), strs(&["e5xg3(f4)"]));
}

#[test]
fn kings_fly_and_capture_at_distance() {
    assert_eq!(
        legal::<R>('W', &["Ka1"], &["e5"]),
        strs(&["a1xf6(e5)", "a1xg7(e5)", "a1xh8(e5)"])
    );
}

#[test]
fn free_choice_among_captures_not_the_longest() {
    // International rules would allow only the capture of two.
    assert_eq!(
        legal::<R>('W', &["a3", "e3"], &["b4", "f4", "f6"]),
        strs(&["a3xc5(b4)", "e3xe7(f4,f6)"])
    );
}

#[test]
fn a_chosen_capture_is_played_to_its_end() {
    // e3xg5 alone stops while g5xe7 is still open: not a move.
    let moves = legal::<R>('W', &["e3"], &["f4", "f6"]);
    assert_eq!(moves, strs(&["e3xe7(f4,f6)"]));
}

#[test]
fn a_man_crowned_mid_capture_goes_on_capturing_as_a_king() {
    // b6xd8 crowns the man on d8; as a king it flies over f6 (a man could
    // not: e7 is empty) and chooses g5 or h4.
    assert_eq!(
        legal::<R>('W', &["b6"], &["c7", "f6"]),
        strs(&["b6xg5(c7,f6)", "b6xh4(c7,f6)"])
    );
    let pos = after::<R>('W', &["b6"], &["c7", "f6"], "b6xh4(c7,f6)");
    assert!(has_piece::<R>(&pos, 0, "h4"));
    assert!(is_king::<R>(&pos, "h4"));
}

#[test]
fn a_man_crowned_mid_capture_that_cannot_go_on_stays_crowned() {
    let pos = after::<R>('W', &["d6"], &["e7"], "d6xf8(e7)");
    assert!(is_king::<R>(&pos, "f8"));
}

#[test]
fn a_king_lands_where_its_capture_goes_on() {
    // After c3 the king may stop on d4, e5, f6, g7 or h8, but only from e5
    // does the capture go on (over f4): the other landings are not moves.
    assert_eq!(
        legal::<R>('W', &["Ka1"], &["c3", "f4"]),
        strs(&["a1xg3(c3,f4)", "a1xh2(c3,f4)"])
    );
}

#[test]
fn a_jumped_piece_stays_until_the_move_ends_and_cannot_be_jumped_twice() {
    assert_eq!(
        legal::<R>('W', &["c3"], &["d4", "f4", "f2", "d2"]),
        strs(&["c3xc3(d2,d4,f2,f4)"])
    );
}

#[test]
fn draw_after_15_moves_each_of_kings_only_without_capture() {
    let g = Draughts::<R>::default();
    let shuffle = ["30-27", "3-6", "27-30", "6-3"];
    let start = g.parse_fen("W:WK30,21:BK3,12").expect("fen");
    let mut pos = start;
    for ply in 0..30 {
        assert_eq!(g.outcome(&pos), None, "drawn early, at ply {ply}");
        let text = shuffle[ply % 4];
        let mv = g.parse_move(&pos, text).expect("king move");
        pos = g.play(&pos, mv);
    }
    assert_eq!(g.outcome(&pos), Some(Outcome::Draw));
    // A man move starts the count again.
    let mv = g.parse_move(&start, "21-25").expect("man move");
    let after_man = g.play(&start, mv);
    assert_eq!(g.reversible_plies(&after_man), 0);
}

#[test]
fn algebraic_squares_are_accepted() {
    let g = Draughts::<R>::default();
    let pos = g.start();
    let a = g.parse_move(&pos, "c3-d4").expect("algebraic move");
    let n = g.parse_move(&pos, "10-14").expect("numeric move");
    assert_eq!(a, n);
}
