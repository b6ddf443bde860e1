//! International draughts, one test per rule of rules.md (diagonal family).
//! Squares are written algebraically (a1 bottom-left, White at the bottom).

mod draughts_util;

use draughts_util::{after, has_piece, is_king, legal, strs};
use salto::draughts::{Diagonal10, International, Rules};
use salto::{Game, MoveList};

type I = International;

#[test]
fn men_step_diagonally_forward_from_the_start() {
    let g = salto::draughts::InternationalGame::default();
    let pos = g.start();
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let mut got: Vec<String> = list.iter().map(|m| g.format_move(&pos, *m)).collect();
    got.sort();
    assert_eq!(
        got,
        strs(&[
            "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"
        ])
    );
}

#[test]
fn men_capture_backward() {
    assert_eq!(legal::<I>('W', &["e5"], &["f4"]), strs(&["e5xg3(f4)"]));
}

#[test]
fn capture_is_compulsory() {
    assert_eq!(
        legal::<I>('W', &["d4", "h2"], &["c5"]),
        strs(&["d4xb6(c5)"])
    );
}

#[test]
fn maximum_capture_wins_over_capturing_a_king() {
    // d4 could take the king on c5; f4 takes two men, which is more.
    assert_eq!(
        legal::<I>('W', &["d4", "f4"], &["Kc5", "g5", "g7"]),
        strs(&["f4xf8(g5,g7)"])
    );
}

#[test]
fn a_king_counts_as_one_piece() {
    assert_eq!(
        legal::<I>('W', &["d4", "f4"], &["Kc5", "g5"]),
        strs(&["d4xb6(c5)", "f4xh6(g5)"])
    );
}

#[test]
fn flying_king_moves_any_distance() {
    let got = legal::<I>('W', &["Ka1"], &["j10"]);
    assert_eq!(
        got,
        strs(&[
            "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8", "a1-i9"
        ])
    );
}

#[test]
fn flying_king_lands_on_any_empty_square_beyond_the_captured_piece() {
    assert_eq!(
        legal::<I>('W', &["Ka1"], &["e5"]),
        strs(&[
            "a1xf6(e5)",
            "a1xg7(e5)",
            "a1xh8(e5)",
            "a1xi9(e5)",
            "a1xj10(e5)"
        ])
    );
}

#[test]
fn flying_king_must_land_where_the_capture_goes_on() {
    assert_eq!(
        legal::<I>('W', &["Ka1"], &["e5", "h6"]),
        strs(&["a1xi5(e5,h6)", "a1xj4(e5,h6)"])
    );
}

#[test]
fn flying_king_captures_at_distance_only_over_one_piece() {
    // Two pieces in a row on the diagonal cannot be jumped.
    assert!(
        legal::<I>('W', &["Ka1"], &["d4", "e5"])
            .iter()
            .all(|m| !m.contains('x'))
    );
}

#[test]
fn man_crossing_the_far_row_mid_capture_stays_a_man() {
    // f8 takes g9 landing on h10 (the far row), must go on over i9 as a man
    // and ends on j8: no promotion.
    assert_eq!(
        legal::<I>('W', &["f8"], &["g9", "i9"]),
        strs(&["f8xj8(g9,i9)"])
    );
    let pos = after::<I>('W', &["f8"], &["g9", "i9"], "f8xj8(g9,i9)");
    assert!(has_piece::<I>(&pos, 0, "j8"));
    assert!(
        !is_king::<I>(&pos, "j8"),
        "crowned in the middle of a capture"
    );
}

#[test]
fn man_ending_a_capture_on_the_far_row_is_crowned() {
    let pos = after::<I>('W', &["f8"], &["g9"], "f8xh10(g9)");
    assert!(is_king::<I>(&pos, "h10"));
}

#[test]
fn man_stepping_onto_the_far_row_is_crowned() {
    let pos = after::<I>('W', &["g9"], &["b2"], "g9-h10");
    assert!(is_king::<I>(&pos, "h10"));
    let pos = after::<I>('B', &["g9"], &["b2"], "b2-a1");
    assert!(is_king::<I>(&pos, "a1"));
}

/// The international rules with immediate removal, to show that the
/// blocking test below depends on deferred removal.
#[derive(Clone, Copy, Debug, Default)]
struct ImmediateRemoval;

impl Rules for ImmediateRemoval {
    type Geo = Diagonal10;
    const NAME: &'static str = "international-immediate";
    const DESCRIPTOR: &'static salto::game::Descriptor = &salto::game::descriptor::OTHER;
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = International::MAN_CAPTURE_DIRS;
    const FLYING_KINGS: bool = true;
    const MAXIMUM_CAPTURE: bool = true;
    const IMMEDIATE_REMOVAL: bool = true;
    const NO_REVERSE: bool = true;
    const START: [(usize, usize); 2] = International::START;
    const DEFAULT_DRAW_MOVES: u32 = 60;
}

#[test]
fn a_jumped_piece_blocks_until_the_move_ends() {
    // a1 x c3, e5 x f4, g3 x f2 lands on e1; from e1 the way to b4 (and a
    // fourth capture) runs over c3, which was jumped and still blocks.
    let white = ["Ka1"];
    let black = ["c3", "f4", "f2", "b4"];
    let got = legal::<I>('W', &white, &black);
    assert_eq!(got, strs(&["a1xe1(c3,f2,f4)"]));
    // With immediate removal the same position has the fourth capture.
    let immediate = legal::<ImmediateRemoval>('W', &white, &black);
    assert!(immediate.iter().any(|m| m.contains("b4")), "{immediate:?}");
}

#[test]
fn a_piece_cannot_be_jumped_twice_and_a_circuit_is_one_move() {
    // Four men around e3: the man on c3 takes all four and comes back to
    // c3 (its start square counts as empty); both directions round the
    // circuit are the same move, and no piece is taken twice.
    assert_eq!(
        legal::<I>('W', &["c3"], &["d4", "f4", "f2", "d2"]),
        strs(&["c3xc3(d2,d4,f2,f4)"])
    );
}

#[test]
fn a_king_may_end_its_capture_on_its_start_square() {
    let got = legal::<I>('W', &["Kc3"], &["d4", "f4", "f2", "d2"]);
    assert!(got.contains(&"c3xc3(d2,d4,f2,f4)".to_string()), "{got:?}");
    assert!(got.iter().all(|m| m.matches(',').count() == 3), "{got:?}");
}

#[test]
fn no_legal_move_when_blocked() {
    // The white man on a1 cannot move: b2 holds a black man with c3 taken.
    assert!(legal::<I>('W', &["a1"], &["b2", "c3"]).is_empty());
}

#[test]
fn draw_after_60_moves_each_without_capture_or_man_move() {
    let g = salto::draughts::InternationalGame::default();
    let mut pos = g.parse_fen("W:WK47,31:BK1,16").expect("fen");
    let shuffle = ["47-42", "1-6", "42-47", "6-1"];
    for ply in 0..120 {
        assert_eq!(g.outcome(&pos), None, "ply {ply}");
        let mv = g.parse_move(&pos, shuffle[ply % 4]).expect("legal");
        pos = g.play(&pos, mv);
    }
    assert_eq!(g.reversible_plies(&pos), 120);
    assert_eq!(g.outcome(&pos), Some(salto::Outcome::Draw));
    // A man move starts the count again.
    let pos = g.play(&pos, g.parse_move(&pos, "31-26").expect("legal"));
    assert_eq!(g.reversible_plies(&pos), 0);
    assert_eq!(g.outcome(&pos), None);
}
