//! Hexagonal draughts, one test per rule of rules.md ("Hexagonal
//! draughts" and the hex draw rule). Cells are numbered as in notation.md:
//! cell 46 is the centre (q 0, r 0); its neighbours are 47 right, 45 left,
//! 35 up-left, 36 up-right, 56 down-left, 57 down-right.

use salto::draughts::{Draughts, Hex};
use salto::game::Outcome;
use salto::variant::{Options, Variant};
use salto::{Game, MoveList};

fn game() -> Draughts<Hex> {
    Draughts::new(&Options::new(Variant::Hex))
}

/// The legal moves of `fen`, in Hub text, sorted.
fn moves(fen: &str) -> Vec<String> {
    let g = game();
    let pos = g.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let mut v: Vec<String> = list.iter().map(|&m| g.format_move(&pos, m)).collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The FEN after the move written `text`.
fn after(fen: &str, text: &str) -> String {
    let g = game();
    let pos = g.parse_fen(fen).unwrap();
    let mv = g
        .parse_move(&pos, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.format_fen(&g.play(&pos, mv))
}

#[test]
fn start_position_has_thirteen_men_each_on_the_two_nearest_rows_white_first() {
    let g = game();
    assert_eq!(g.format_fen(&g.start()), "W:W79-91:B1-13");
    assert_eq!(g.to_move(&g.start()), 0);
}

#[test]
fn men_step_to_their_two_forward_neighbours_only() {
    assert_eq!(moves("W:W46:B1"), sorted(&["46-35", "46-36"]));
    assert_eq!(moves("B:W91:B46"), sorted(&["46-56", "46-57"]));
    // On the left edge a white man has only its up-right neighbour.
    assert_eq!(moves("W:W41:B1"), sorted(&["41-31"]));
}

#[test]
fn men_capture_in_all_six_directions() {
    // (victim, landing cell) for right, left, up-left, up-right, down-left,
    // down-right from the centre.
    for (victim, land) in [(47, 48), (45, 44), (35, 25), (36, 27), (56, 65), (57, 67)] {
        let fen = format!("W:W46:B{victim}");
        assert_eq!(moves(&fen), vec![format!("46x{land}x{victim}")], "{fen}");
    }
}

#[test]
fn kings_move_any_distance_along_the_three_lines() {
    // Alone in the centre a king reaches 10 cells on each of three lines.
    let m = moves("W:WK46:B7");
    assert_eq!(m.len(), 30, "{m:?}");
    assert!(m.iter().all(|s| s.contains('-')));
    for t in ["46-41", "46-51", "46-1", "46-91", "46-86", "46-6"] {
        assert!(m.contains(&t.to_string()), "{t} missing");
    }
}

#[test]
fn a_king_captures_at_distance_landing_on_any_empty_cell_beyond() {
    assert_eq!(
        moves("W:WK41:B44"),
        sorted(&[
            "41x45x44", "41x46x44", "41x47x44", "41x48x44", "41x49x44", "41x50x44", "41x51x44"
        ])
    );
}

#[test]
fn a_king_must_land_where_the_capture_goes_on() {
    // Jumping 44, only the landings 47 and 48 see the man on 37; the
    // maximum capture rule forces one of them and the second jump.
    assert_eq!(
        moves("W:WK41:B44,37"),
        sorted(&[
            "41x28x37x44",
            "41x20x37x44",
            "41x13x37x44",
            "41x27x37x44",
            "41x18x37x44",
            "41x10x37x44",
            "41x3x37x44",
        ])
    );
}

#[test]
fn a_jumped_piece_stays_until_the_end_and_cannot_be_jumped_twice() {
    // After jumping 48 the king cannot turn back over it (it would land on
    // 47 with the same piece taken twice), and 48 still blocks the line.
    assert_eq!(
        moves("W:WK46:B48"),
        sorted(&["46x49x48", "46x50x48", "46x51x48"])
    );
}

#[test]
fn the_start_cell_counts_as_empty_and_routes_with_the_same_captures_are_one_move() {
    // 46 x47 -> 48, x37 -> 27, x36 -> 46 (its own start cell), and the
    // same loop the other way round: one move.
    let fen = "W:W46:B47,37,36";
    assert_eq!(moves(fen), sorted(&["46x46x36x37x47"]));
    assert_eq!(after(fen, "46x46x36x37x47"), "B:W46:B");
}

#[test]
fn maximum_capture_and_a_king_counts_as_one_piece() {
    // One king on 47, or the two men on 35 and 16: the men must be taken.
    assert_eq!(moves("W:W46:BK47,35,16"), sorted(&["46x8x16x35"]));
}

#[test]
fn capturing_is_compulsory() {
    assert_eq!(moves("W:W46,80:B47"), sorted(&["46x48x47"]));
}

#[test]
fn promotion_only_when_the_move_ends_on_the_far_row() {
    // Through cell 1 and on to 14: the man stays a man.
    assert_eq!(moves("W:W16:B8,7"), sorted(&["16x14x7x8"]));
    assert_eq!(after("W:W16:B8,7", "16x14x7x8"), "B:W14:B");
    // Ending on the far row crowns it, by a capture or a step.
    assert_eq!(after("W:W16:B8", "16x1x8"), "B:WK1:B");
    assert_eq!(after("W:W7:B60", "7-1"), "B:WK1:B60");
    assert_eq!(after("B:W30:B85", "85-91"), "W:W30:BK91");
}

#[test]
fn a_player_without_a_legal_move_has_none() {
    // White's man on 7 can only step to 1, where a black man stands and
    // cannot be jumped (no cell beyond).
    assert_eq!(moves("W:W7:B1"), Vec::<String>::new());
}

#[test]
fn draw_after_thirty_moves_each_with_only_kings_and_no_capture() {
    let g = game();
    let run = |fen: &str| -> Vec<Option<Outcome>> {
        let mut pos = g.parse_fen(fen).unwrap();
        let mut seen = Vec::new();
        let shuttle = [["86-87", "1-2"], ["87-86", "2-1"]];
        for ply in 0..60 {
            let text = shuttle[(ply / 2) % 2][ply % 2];
            let mv = g
                .parse_move(&pos, text)
                .unwrap_or_else(|e| panic!("ply {ply} {text}: {e}"));
            pos = g.play(&pos, mv);
            seen.push(g.outcome(&pos));
        }
        seen
    };
    let kings_only = run("W:WK86:BK1");
    assert!(
        kings_only[..59].iter().all(Option::is_none),
        "{kings_only:?}"
    );
    assert_eq!(kings_only[59], Some(Outcome::Draw));
    // With a man on the board the rule does not count.
    let with_man = run("W:WK86,79:BK1");
    assert!(with_man.iter().all(Option::is_none));
}

#[test]
fn hub_position_string_lists_cells_1_to_91() {
    let g = game();
    let s = g.format_hub_position(&g.start());
    assert_eq!(
        s,
        format!("W{}{}{}", "b".repeat(13), "e".repeat(65), "w".repeat(13))
    );
    assert_eq!(g.parse_hub_position(&s).unwrap(), g.start());
    let err = g.parse_hub_position("Wbbb").unwrap_err().to_string();
    assert!(err.contains("92"), "{err}");
}

#[test]
fn bad_fen_gets_a_precise_error() {
    let g = game();
    let err = |t: &str| g.parse_fen(t).unwrap_err().to_string();
    assert!(err("W:W92:B1").contains("92"), "{}", err("W:W92:B1"));
    assert!(err("W:W3:B50").contains("promotion"), "{}", err("W:W3:B50"));
    assert!(
        err("W:W60-73:B1").contains("at most 13"),
        "{}",
        err("W:W60-73:B1")
    );
    assert!(err("W:Wa1:B1").contains("a1"), "{}", err("W:Wa1:B1"));
}
