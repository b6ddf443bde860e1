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

/// `fen` with `plies` plies since the last capture (and none since the
/// last man move).
fn ending(g: &Draughts<R>, fen: &str, plies: u32) -> salto::draughts::Position<u64> {
    let mut pos = g.parse_fen(fen).expect("fen");
    pos.since_capture = plies;
    pos
}

/// `fen` is drawn after `plies` plies without a capture, not one before.
fn drawn_after(g: &Draughts<R>, fen: &str, plies: u32) {
    assert_eq!(g.outcome(&ending(g, fen, plies - 1)), None, "{fen}");
    assert_eq!(
        g.outcome(&ending(g, fen, plies)),
        Some(Outcome::Draw),
        "{fen}"
    );
}

/// No material rule draws `fen`, however long since the last capture.
fn never_drawn(g: &Draughts<R>, fen: &str) {
    assert_eq!(g.outcome(&ending(g, fen, 500)), None, "{fen}");
}

#[test]
fn draw_with_equal_kings_and_pieces_4_or_5_each_after_30_moves_without_capture() {
    let g = Draughts::<R>::default();
    // 4 pieces each, one king each; nothing can capture.
    let fen = "W:WK4,1,2,3:BK29,30,31,32";
    drawn_after(&g, fen, 60);
    // A man move does not start the count again (only a capture does).
    let pos = ending(&g, fen, 59);
    let mv = g.parse_move(&pos, "2-6").expect("man move");
    let next = g.play(&pos, mv);
    assert_eq!(next.since_capture, 60);
    assert_eq!(g.outcome(&next), Some(Outcome::Draw));
    // Unequal kings: no such draw.
    let fen = "W:WK4,K1,2,3:BK29,30,31,32";
    never_drawn(&g, fen);
    // No king: no such draw.
    let fen = "W:W4,1,2,3:B29,30,31,32";
    never_drawn(&g, fen);
}

#[test]
fn draw_with_equal_kings_and_pieces_6_or_7_each_after_60_moves_without_capture() {
    let g = Draughts::<R>::default();
    let fen = "W:WK4,1,2,3,5,6:BK29,27,28,30,31,32";
    assert_eq!(g.outcome(&ending(&g, fen, 60)), None);
    drawn_after(&g, fen, 120);
}

#[test]
fn draw_with_2_pieces_and_a_king_against_a_lone_king_after_5_moves() {
    let g = Draughts::<R>::default();
    let fen = "W:WK4,2:BK29";
    drawn_after(&g, fen, 10);
    // Either side may be the stronger one.
    let fen = "B:WK4:BK29,31";
    assert_eq!(g.outcome(&ending(&g, fen, 10)), Some(Outcome::Draw));
    // Two men (no king) against a lone king: no such draw.
    let fen = "W:W2,3:BK29";
    never_drawn(&g, fen);
}

#[test]
fn draw_with_3_pieces_and_a_king_against_a_lone_king_on_the_long_diagonal_after_5_moves() {
    let g = Draughts::<R>::default();
    // The lone king on d4 (14), on a1-h8; White off it.
    let fen = "W:WK4,2,3:BK14";
    drawn_after(&g, fen, 10);
    // The lone king off the long diagonal (d6, 22): no such draw.
    let fen = "W:WK4,2,3:BK22";
    never_drawn(&g, fen);
    // The stronger side holds the long diagonal too (b2, 5): no such draw.
    let fen = "W:WK4,2,5:BK14";
    never_drawn(&g, fen);
}

#[test]
fn draw_moves_0_turns_the_material_draws_off_too() {
    let g = Draughts::<R>::new(salto::draughts::DraughtsOptions {
        draw_moves: Some(0),
        ..Default::default()
    });
    assert_eq!(g.outcome(&ending(&g, "W:WK4,2:BK29", 500)), None);
}

#[test]
fn a_capture_starts_the_material_count_again() {
    let g = Draughts::<R>::default();
    // White's king on g1 takes the man on e3: 2 pieces with a king each
    // side is no rule's case, the count is 0 after the capture.
    let pos = ending(&g, "W:WK4,2:BK29,11", 50);
    let mv = g.parse_move(&pos, "4x18").expect("capture");
    assert_eq!(g.play(&pos, mv).since_capture, 0);
}
