//! Chinese checkers rules (rules.md "Chinese checkers"), one hand-made
//! position per rule. Positions are in the FEN-like form of docs/chinese.md
//! (`player:aHOLES:dHOLES:xHOLES`), holes numbered as in notation.md.

use salto::chinese::Chinese;
use salto::variant::{Options, Variant};
use salto::{Game, MoveList, Outcome};
use std::collections::BTreeSet;

fn game(players: u8, sets: u8, opts: &[(&str, &str)]) -> Chinese {
    let mut o = Options::new(Variant::Chinese);
    o.players = players;
    o.sets = sets;
    for (k, v) in opts {
        o.set(k, v).unwrap();
    }
    Chinese::new(&o).unwrap()
}

fn moves(g: &Chinese, fen: &str) -> BTreeSet<String> {
    let pos = g.parse_fen(fen).unwrap();
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    list.iter().map(|&m| g.format_move(&pos, m)).collect()
}

fn moves_from(g: &Chinese, fen: &str, from: usize) -> BTreeSet<String> {
    let prefix = [format!("{from}-"), format!("{from}*")];
    moves(g, fen)
        .into_iter()
        .filter(|m| prefix.iter().any(|p| m.starts_with(p.as_str())))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn play(g: &Chinese, fen: &str, mv: &str) -> String {
    let pos = g.parse_fen(fen).unwrap();
    let m = g.parse_move(&pos, mv).unwrap();
    let next = g.play(&pos, m);
    assert_eq!(g.hash(&next), g.hash_from_scratch(&next));
    g.format_fen(&next)
}

#[test]
fn start_positions_put_each_set_in_its_corner_and_player_a_first() {
    let g = game(2, 1, &[]);
    assert_eq!(g.format_fen(&g.start()), "1:a1-10:d112-121");
    let hub = g.format_hub_position(&g.start());
    assert_eq!(hub.len(), 122);
    assert!(hub.starts_with("1aaaaaaaaaa."));
    assert!(hub.ends_with(".dddddddddd"));
    let g = game(4, 1, &[]);
    assert_eq!(
        g.format_fen(&g.start()),
        "1:a1-10:b20-23,33-35,45-46,56:d112-121:e66,76-77,87-89,99-102"
    );
    let g = game(2, 3, &[]);
    assert_eq!(g.start().sets.iter().filter(|&&s| s != 0).count(), 6);
    assert_eq!(g.owner(0), Some(0));
    assert_eq!(g.owner(1), Some(1));
    assert_eq!(g.owner(2), Some(0));
    let g = game(3, 2, &[]);
    assert_eq!(
        (g.owner(1), g.owner(2), g.owner(5)),
        (Some(0), Some(1), Some(2))
    );
}

#[test]
fn unused_corners_filled_hold_ten_neutral_pegs_each() {
    for (players, sets, neutral) in [(2, 1, 40), (4, 1, 20), (3, 1, 0), (6, 1, 0), (3, 2, 0)] {
        let g = game(players, sets, &[("unused-corners", "filled")]);
        assert_eq!(g.start().neutral.count_ones(), neutral, "{players} players");
        let g = game(players, sets, &[]);
        assert_eq!(g.start().neutral, 0);
    }
    let g = game(4, 1, &[("unused-corners", "filled")]);
    assert!(
        g.format_fen(&g.start())
            .ends_with(":x11-14,24-26,36-37,47,75,85-86,96-98,108-111")
    );
}

#[test]
fn a_step_into_the_target_corner_may_swap_with_another_players_peg() {
    // A's peg on 104 is next to 113 in corner D (its target), held by D.
    let fen = "1:a104:d113";
    let g = game(2, 1, &[]);
    assert!(moves_from(&g, fen, 104).contains("104*113"));
    assert_eq!(play(&g, fen, "104*113"), "2:a113:d104");
    // The `-` form is accepted for a swap too; the engine writes `*`.
    let pos = g.parse_fen(fen).unwrap();
    let m = g.parse_move(&pos, "104-113").unwrap();
    assert_eq!(g.format_move(&pos, m), "104*113");
    for spoiling in ["fill", "none"] {
        let g = game(2, 1, &[("spoiling", spoiling)]);
        assert!(!moves_from(&g, fen, 104).iter().any(|m| m.contains('*')));
    }
}

#[test]
fn a_jump_chain_may_end_with_a_swap_and_the_displaced_peg_goes_to_the_start_hole() {
    // 79 jumps over 91 to 104, then over 113 towards 117, held by D: a swap.
    let fen = "1:a79:d91,113,117";
    let g = game(2, 1, &[]);
    let m = moves_from(&g, fen, 79);
    assert!(m.contains("79-104"));
    assert!(m.contains("79*117"));
    assert_eq!(play(&g, fen, "79*117"), "2:a117:d79,91,113");
    // A swap ends the move: nothing beyond 117 is reachable through it.
    assert!(m.iter().all(|m| !m.ends_with("-121")));
}

#[test]
fn no_swap_with_the_players_own_other_set_or_a_neutral_peg() {
    // 3 players with 2 sets: player 1 has A and B. A's target is D.
    let g = game(3, 2, &[]);
    assert!(!moves_from(&g, "1:a104:b113", 104).contains("104*113"));
    assert!(moves_from(&g, "1:a104:c113", 104).contains("104*113"));
    assert!(moves_from(&g, "1:a104:d113", 104).contains("104*113"));
    let g = game(2, 1, &[]);
    assert!(!moves_from(&g, "1:a104:x113", 104).contains("104*113"));
}

#[test]
fn home_rule_a_peg_in_its_target_corner_moves_only_within_it() {
    // A's peg on 112 (in D): 103 and 104 are outside D, the jump over 104
    // lands outside D; 116 and the jump over 113 to 114 stay inside.
    let fen = "1:a104,112:d113";
    let g = game(2, 1, &[("spoiling", "none")]);
    assert_eq!(moves_from(&g, fen, 112), set(&["112-114", "112-116"]));
    // A peg outside its target may pass through it in a chain: 103 jumps
    // 112 into 116 (in D), then 113 out to 105.
    let m = moves_from(&g, "1:a103:d112,113", 103);
    assert!(m.contains("103-116") && m.contains("103-105"), "{m:?}");
    let g = game(2, 1, &[]);
    assert_eq!(
        moves_from(&g, fen, 112),
        set(&["112-114", "112-116", "112*113"])
    );
}

#[test]
fn foreign_corners_pass_a_jump_may_cross_a_foreign_corner_but_not_stop_there() {
    // 18 jumps over 19 into 20 (corner B, foreign to A), then over 32 to 43.
    let fen = "1:a18:d19,32";
    let g = game(2, 1, &[]);
    let m = moves_from(&g, fen, 18);
    assert!(m.contains("18-43"));
    assert!(!m.contains("18-20"));
    let g = game(2, 1, &[("foreign-corners", "stop")]);
    let m = moves_from(&g, fen, 18);
    assert!(m.contains("18-43"));
    assert!(m.contains("18-20"));
}

#[test]
fn foreign_corners_a_step_into_a_foreign_corner_is_refused_under_pass() {
    // 19 is the hexagon hole next to 20 (B) and 10 (A, the peg's own start).
    let g = game(2, 1, &[]);
    let m = moves_from(&g, "1:a19:d121", 19);
    assert!(!m.contains("19-20"));
    assert!(
        m.contains("19-10"),
        "a peg may go back into its own start corner"
    );
    let g = game(2, 1, &[("foreign-corners", "stop")]);
    assert!(moves_from(&g, "1:a19:d121", 19).contains("19-20"));
}

#[test]
fn neutral_pegs_can_be_jumped_but_never_move() {
    let g = game(2, 1, &[("unused-corners", "filled")]);
    let fen = "1:a61:d121:x62";
    assert!(moves_from(&g, fen, 61).contains("61-63"));
    assert!(moves(&g, fen).iter().all(|m| !m.starts_with("62")));
    let pos = g.parse_fen("2:a61:d121:x62").unwrap();
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    assert!(list.iter().all(|m| m.from as usize + 1 == 121));
}

#[test]
fn a_move_ends_on_a_hole_other_than_its_start_and_counts_once_per_end() {
    // 61 jumps 62 to 63 and 60 to 59; around 61 and back is not a move.
    let g = game(2, 1, &[]);
    let m = moves_from(&g, "1:a61:d60,62,121", 61);
    assert!(!m.contains("61-61"));
    assert_eq!(m.iter().filter(|x| x.as_str() == "61-63").count(), 1);
    let pos = g.parse_fen("1:a61:d60,62,121").unwrap();
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let ends: BTreeSet<_> = list.iter().map(|m| (m.from, m.to)).collect();
    assert_eq!(ends.len(), list.len());
}

#[test]
fn a_player_without_a_legal_move_must_pass_and_only_then() {
    // Player 1's nine pegs fill D but for 121, held by D's last peg.
    let fen = "1:a112-120:d121";
    let g = game(2, 1, &[("spoiling", "none")]);
    assert_eq!(moves(&g, fen), set(&["pass"]));
    assert_eq!(play(&g, fen, "pass"), "2:a112-120:d121");
    // Under swap the same player swaps instead.
    let g = game(2, 1, &[]);
    // (by steps from 119 and 120, by jumps from 116 and 118)
    assert_eq!(
        moves(&g, fen),
        set(&["116*121", "118*121", "119*121", "120*121"])
    );
    let pos = g.parse_fen(fen).unwrap();
    let err = g.parse_move(&pos, "pass").unwrap_err();
    assert!(err.0.contains("may not pass"), "{err}");
    // Under fill the corner is full with A's pegs in it: player 1 has won.
    let g = game(2, 1, &[("spoiling", "fill")]);
    let pos = g.parse_fen(fen).unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    assert!(moves(&g, fen).is_empty());
}

#[test]
fn fill_a_win_completed_by_another_players_move() {
    // Player 2 steps 107-115 into the last free hole of D: D is full and
    // holds A's pegs, so player 1 wins on player 2's move.
    let fen = "2:a112-114,116-121:d107";
    let g = game(2, 1, &[("spoiling", "fill")]);
    let pos = g.parse_fen(fen).unwrap();
    assert_eq!(g.outcome(&pos), None);
    let next = g.play(&pos, g.parse_move(&pos, "107-115").unwrap());
    assert_eq!(g.outcome(&next), Some(Outcome::Win(0)));
    let mut list = MoveList::new();
    g.generate(&next, &mut list);
    assert!(list.is_empty(), "no moves once the game is over");
    // Under none (and swap) the corner must hold the set's own pegs.
    for spoiling in ["none", "swap"] {
        let g = game(2, 1, &[("spoiling", spoiling)]);
        let pos = g.parse_fen(fen).unwrap();
        let next = g.play(&pos, g.parse_move(&pos, "107-115").unwrap());
        assert_eq!(g.outcome(&next), None);
    }
}

#[test]
fn a_set_is_home_when_its_own_pegs_fill_the_target_corner() {
    let g = game(2, 1, &[]);
    let pos = g.parse_fen("2:a112-121:d1").unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    let pos = g.parse_fen("2:a112-120:d1").unwrap();
    assert_eq!(g.outcome(&pos), None);
    // With 3 sets a player wins only when all three are home.
    let g = game(2, 3, &[]);
    let pos = g
        .parse_fen("2:a112-121:c11-14,24-26,36,37,47:e20-23,33-35,45,46")
        .unwrap();
    assert_eq!(g.outcome(&pos), None);
    let pos = g
        .parse_fen("2:a112-121:c11-14,24-26,36,37,47:e20-23,33-35,45,46,56")
        .unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
}

#[test]
fn game_end_checks_the_mover_first_then_the_others_in_turn_order() {
    // 3 players (A, C, E): players 1 (A, target D) and 2 (C, target F) both home.
    let g = game(3, 1, &[]);
    let pegs = "a112-121:c11-14,24-26,36,37,47:e1";
    // Player 1 to move: player 3 moved last; order 3, 1, 2: player 1 wins.
    let pos = g.parse_fen(&format!("1:{pegs}")).unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    // Player 3 to move: player 2 moved last and is checked first.
    let pos = g.parse_fen(&format!("3:{pegs}")).unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(1)));
    // Player 2 to move: player 1 moved last.
    let pos = g.parse_fen(&format!("2:{pegs}")).unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
}

#[test]
fn turns_pass_clockwise_through_the_players_in_play() {
    let g = game(4, 1, &[]);
    let mut pos = g.start();
    let mut seen = Vec::new();
    for _ in 0..5 {
        seen.push(g.to_move(&pos));
        let mut list = MoveList::new();
        g.generate(&pos, &mut list);
        let from = list[0].from as usize;
        // The peg moved belongs to the corner of the player to move.
        let corner = (0..6)
            .find(|&c| pos.sets[c] & (1u128 << from) != 0)
            .unwrap();
        assert_eq!(g.owner(corner), Some(g.to_move(&pos)));
        pos = g.play(&pos, list[0]);
    }
    assert_eq!(seen, vec![0, 1, 2, 3, 0]);
}

#[test]
fn hash_includes_the_player_to_move() {
    let g = game(3, 1, &[]);
    let a = g.parse_fen("1:a1-10:c75,85,86,96-98,108-111:e66").unwrap();
    let b = g.parse_fen("2:a1-10:c75,85,86,96-98,108-111:e66").unwrap();
    assert_ne!(g.hash(&a), g.hash(&b));
    let pass = g.parse_fen("1:a112-120:c121:e66").unwrap();
    assert_eq!(g.hash(&pass), g.hash_from_scratch(&pass));
}

#[test]
fn max_moves_ends_the_game_unresolved_after_that_many_moves_each() {
    let g = game(2, 1, &[("max-moves", "2")]);
    let mut pos = g.start();
    for ply in 0..4 {
        assert_eq!(g.outcome(&pos), None, "ply {ply}");
        assert_eq!(g.reversible_plies(&pos), ply);
        let mut list = MoveList::new();
        g.generate(&pos, &mut list);
        pos = g.play(&pos, list[0]);
    }
    assert_eq!(g.outcome(&pos), Some(Outcome::Draw));
}

#[test]
fn hub_position_strings_round_trip_and_bad_ones_say_what_is_wrong() {
    let g = game(2, 1, &[("unused-corners", "filled")]);
    let hub = g.format_hub_position(&g.start());
    assert_eq!(g.parse_hub_position(&hub).unwrap(), g.start());
    assert_eq!(hub.matches('x').count(), 40);
    let err = |s: &str| g.parse_hub_position(s).unwrap_err().0;
    assert!(err(&hub[..121]).contains("121 characters; expected 122"));
    let bad = format!("1{}", ".".repeat(60) + "z" + &".".repeat(60));
    assert!(
        err(&bad).contains("hole 61: unknown character 'z'"),
        "{}",
        err(&bad)
    );
    // `e` is corner E's set (empty is `.`), not in play with 2 players.
    let bad = format!("1{}", ".".repeat(60) + "e" + &".".repeat(60));
    assert!(
        err(&bad).contains("corner E is not in play"),
        "{}",
        err(&bad)
    );
    let bad = format!("1{}", "a".repeat(11) + &".".repeat(110));
    assert!(err(&bad).contains("11 pegs"), "{}", err(&bad));
    let bad = format!("3{}", ".".repeat(121));
    assert!(err(&bad).contains("player to move"), "{}", err(&bad));
}

#[test]
fn fen_text_round_trips_and_bad_fen_says_what_is_wrong() {
    let g = game(6, 1, &[]);
    let fen = g.format_fen(&g.start());
    assert_eq!(g.parse_fen(&fen).unwrap(), g.start());
    assert_eq!(
        g.parse_fen("1:D112-121:A1-10:b20-23,33-35,45-46,56:c75,85,86,96-98,108-111:e66,76-77,87-89,99-102:f11-14,24-26,36,37,47")
            .unwrap(),
        g.start()
    );
    let err = |s: &str| g.parse_fen(s).unwrap_err().0;
    assert!(err("1:a1-10:a11").contains("twice"));
    assert!(err("1:a1-10:b10").contains("hole 10 holds two pegs"));
    assert!(err("1:a0-3").contains("'0' is not a hole"));
    assert!(err("1:a5-3").contains("runs backwards"));
    assert!(err("1:g5").contains("set letter"));
    assert!(err("7:a5").contains("player to move"));
    assert!(err("1:a1-11").contains("11 pegs"));
    let g2 = game(2, 1, &[]);
    assert!(
        g2.parse_fen("1:b20")
            .unwrap_err()
            .0
            .contains("corner B is not in play")
    );
}

#[test]
fn bad_moves_say_what_is_wrong() {
    let g = game(2, 1, &[]);
    let pos = g.start();
    let err = |s: &str| g.parse_move(&pos, s).unwrap_err().0;
    assert!(err("7").contains("expected from-to"));
    assert!(err("0-5").contains("not a hole number"));
    assert!(err("61-62").contains("no peg on hole 61"));
    assert!(err("112-104").contains("not player 1's"));
    assert!(err("1-2").contains("cannot reach"));
    assert_eq!(
        g.format_move(&pos, g.parse_move(&pos, " 7-15 ").unwrap()),
        "7-15"
    );
}
