//! Turkish draughts, one test per rule of rules.md ("Turkish draughts").
//! Positions are PDN FEN with algebraic squares (notation.md); moves are
//! compared in Hub text, squares numbered from a1 (a1 = 1, h8 = 64).

use salto::draughts::{Draughts, Turkish, TurkishImmediate};
use salto::variant::{Options, Variant};
use salto::{Game, MoveList};

fn end_game() -> Draughts<Turkish> {
    Draughts::new(&Options::new(Variant::Turkish))
}

fn immediate_game() -> Draughts<TurkishImmediate> {
    let mut o = Options::new(Variant::Turkish);
    o.set("turkish-promotion", "immediate").unwrap();
    Draughts::new(&o)
}

/// The legal moves of `fen`, in Hub text, sorted.
fn moves<G: Game>(game: &G, fen: &str) -> Vec<String> {
    let pos = game.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut list = MoveList::new();
    game.generate(&pos, &mut list);
    let mut v: Vec<String> = list.iter().map(|&m| game.format_move(&pos, m)).collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The position after the move written `text` from `fen`, as FEN.
fn after<G: Game>(game: &G, fen: &str, text: &str) -> String {
    let pos = game.parse_fen(fen).unwrap();
    let mv = game
        .parse_move(&pos, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    game.format_fen(&game.play(&pos, mv))
}

#[test]
fn start_position_has_sixteen_men_each_on_ranks_2_3_and_6_7_white_first() {
    let g = end_game();
    assert_eq!(g.format_fen(&g.start()), "W:W9-24:B41-56");
    assert_eq!(g.to_move(&g.start()), 0);
    assert_eq!(g.parse_fen("W:Wa2-h3:Ba6-h7").unwrap(), g.start());
}

#[test]
fn men_step_forward_or_sideways_never_backward() {
    // White man d4 (28): d5 (36), c4 (27), e4 (29); never d3 or diagonally.
    assert_eq!(
        moves(&end_game(), "W:Wd4:Bh8"),
        sorted(&["28-36", "28-27", "28-29"])
    );
    // A black man moves down the board: d4 -> d3 (20), c4, e4.
    assert_eq!(
        moves(&end_game(), "B:Wa2:Bd4"),
        sorted(&["28-20", "28-27", "28-29"])
    );
}

#[test]
fn kings_move_like_rooks_along_free_lines() {
    // King a1 (1) with a white man on a3 (17): up only to a2, right to h1.
    let m = moves(&end_game(), "W:WKa1,a3:Bh8");
    for t in ["1-9", "1-2", "1-8"] {
        assert!(m.contains(&t.to_string()), "{t} missing from {m:?}");
    }
    assert!(
        !m.contains(&"1-25".to_string()),
        "a king cannot pass its own man"
    );
    assert_eq!(m.iter().filter(|s| s.starts_with("1-")).count(), 8);
}

#[test]
fn men_capture_forward_and_sideways_but_not_backward() {
    // d4 with black men on d5 (36), c4 (27) and d3 (20, behind).
    assert_eq!(
        moves(&end_game(), "W:Wd4:Bd5,c4,d3"),
        sorted(&["28x44x36", "28x26x27"])
    );
}

#[test]
fn a_king_captures_at_distance_and_lands_on_any_empty_square_beyond() {
    // King a1, black man a5 (33): lands a6, a7 or a8 (41, 49, 57).
    assert_eq!(
        moves(&end_game(), "W:WKa1:Ba5"),
        sorted(&["1x41x33", "1x49x33", "1x57x33"])
    );
}

#[test]
fn immediate_removal_opens_a_line_through_a_captured_square() {
    // King e1 jumps e2, lands e3/e4, jumps c4 to b4, jumps b3 to b2, then
    // runs right along rank 2 over e2 (already removed) to jump g2 -> h2.
    let m = moves(&end_game(), "W:WKe1:Be2,c4,b3,g2");
    assert_eq!(m, sorted(&["5x16x13x15x18x27"]));
}

#[test]
fn a_capture_may_end_on_a_square_emptied_by_the_same_capture() {
    // King d1 jumps d3 to d5, c5 to b5, b3... : after the king jumps a
    // piece and later passes over its square, the square is free; here the
    // king's path ends on the square of the first captured piece.
    let g = end_game();
    // King a3 jumps c3 (19) landing d3..h3; from f3 up over f5 (38) to f6;
    // left over d6 (44) to c6; down over c4 (27) to c3 (19), where the
    // first captured man stood.
    let fen = "W:WKa3:Bc3,f5,d6,c4";
    let m = moves(&g, fen);
    assert!(m.contains(&"17x19x19x27x38x44".to_string()), "{m:?}");
    let next = after(&g, fen, "17x19x19x27x38x44");
    assert_eq!(next, "B:WK19:B");
}

#[test]
fn no_180_degree_turn_between_two_jumps() {
    // King d4 jumps d6 (44) upward; turning back down to jump d2 (12) would
    // be a 180-degree turn, so every capture takes one piece.
    assert_eq!(
        moves(&end_game(), "W:WKd4:Bd6,d2"),
        sorted(&["28x52x44", "28x60x44", "28x4x12"])
    );
}

#[test]
fn maximum_capture_counts_pieces_and_a_king_counts_as_one() {
    // d4 can take the king on c4 (one piece) or the men on d5 and d7 (two).
    assert_eq!(
        moves(&end_game(), "W:Wd4:BKc4,d5,d7"),
        sorted(&["28x60x36x52"])
    );
}

#[test]
fn capturing_is_compulsory() {
    let m = moves(&end_game(), "W:Wd4,a2:Bd5");
    assert_eq!(m, sorted(&["28x44x36"]));
}

#[test]
fn promotion_at_the_end_a_man_crossing_the_last_rank_goes_on_as_a_man() {
    // b6 jumps b7 to b8; as a man it cannot reach e8 (not adjacent), so the
    // move ends on b8 and the man is crowned there.
    let g = end_game();
    let fen = "W:Wb6:Bb7,e8";
    assert_eq!(moves(&g, fen), sorted(&["42x58x50"]));
    assert_eq!(after(&g, fen, "42x58x50"), "B:WK58:B61");
    // A man on the last rank captures sideways as a man, and is crowned at
    // the end: b6 x b7 -> b8, x c8 -> d8, x e8 -> f8.
    let fen = "W:Wb6:Bb7,c8,e8";
    assert_eq!(moves(&g, fen), sorted(&["42x62x50x59x61"]));
    assert_eq!(after(&g, fen, "42x62x50x59x61"), "B:WK62:B");
}

#[test]
fn immediate_promotion_crowns_mid_capture_and_goes_on_as_a_king() {
    // turkish-promotion=immediate: crowned on b8, the king jumps e8 at
    // distance and lands on f8, g8 or h8.
    let g = immediate_game();
    let fen = "W:Wb6:Bb7,e8";
    assert_eq!(
        moves(&g, fen),
        sorted(&["42x62x50x61", "42x63x50x61", "42x64x50x61"])
    );
    assert_eq!(after(&g, fen, "42x63x50x61"), "B:WK63:B");
}

#[test]
fn a_quiet_move_to_the_last_rank_crowns() {
    let g = end_game();
    assert_eq!(after(&g, "W:Wc7:Bh5", "51-59"), "B:WK59:B40");
}

#[test]
fn a_player_without_a_legal_move_has_none() {
    // Black man b2 hemmed in by white men on a2, c2 and b1: a2 and b1 have
    // no square beyond them, c2 has d2 behind it.
    let g = end_game();
    assert_eq!(moves(&g, "B:Wa2,c2,b1,d2:Bb2"), Vec::<String>::new());
}

#[test]
fn squares_are_numbered_from_a1_and_algebraic_input_is_accepted() {
    let g = end_game();
    let a = g.parse_fen("W:WKa1,h1:Ba8,h8").unwrap();
    let n = g.parse_fen("W:WK1,8:B57,64").unwrap();
    assert_eq!(a, n);
    let mv = g.parse_move(&n, "a1-a2").unwrap();
    assert_eq!(g.format_move(&n, mv), "1-9");
    let mut o = Options::new(Variant::Turkish);
    o.set("notation", "algebraic").unwrap();
    let ga: Draughts<Turkish> = Draughts::new(&o);
    assert_eq!(ga.format_move(&n, mv), "a1-a2");
}

#[test]
fn hub_position_string_lists_a8_to_h1() {
    let g = end_game();
    let s = g.format_hub_position(&g.start());
    assert_eq!(s.len(), 65);
    assert_eq!(
        s,
        format!(
            "W{}{}{}{}{}",
            "e".repeat(8),
            "b".repeat(16),
            "e".repeat(16),
            "w".repeat(16),
            "e".repeat(8)
        )
    );
    assert_eq!(g.parse_hub_position(&s).unwrap(), g.start());
}

#[test]
fn bad_position_text_gets_a_precise_error() {
    let g = end_game();
    let err = |t: &str| g.parse_hub_position(t).unwrap_err().to_string();
    assert!(err("W").contains("65"), "{}", err("W"));
    let bad = format!("W{}", "x".repeat(64));
    assert!(err(&bad).contains("character 2"), "{}", err(&bad));
    let ferr = |t: &str| g.parse_fen(t).unwrap_err().to_string();
    assert!(ferr("W:Wi9:B1").contains("i9"), "{}", ferr("W:Wi9:B1"));
    assert!(ferr("W:W65:B1").contains("65"), "{}", ferr("W:W65:B1"));
    // A white man on rank 8 would have been crowned.
    assert!(
        ferr("W:Wa8:B1").contains("promotion"),
        "{}",
        ferr("W:Wa8:B1")
    );
    assert!(
        ferr("W:W1-17:B64").contains("at most 16"),
        "{}",
        ferr("W:W1-17:B64")
    );
}
