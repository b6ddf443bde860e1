//! Breakthrough draughts (lidraughts' and pydraughts' `breakthrough`): the
//! moves of international draughts; the first player to crown a king wins.
//! One test per rule of docs/variants.md, "Breakthrough".

use salto::draughts::{Breakthrough, Draughts, International};
use salto::game::SCORE_WIN_MIN;
use salto::search::{Control, Limits, Searcher};
use salto::variant::Variant;
use salto::{Game, MoveList, Outcome};

type R = Breakthrough;

fn game() -> Draughts<R> {
    Draughts::<R>::default()
}

fn play(g: &Draughts<R>, fen: &str, mv: &str) -> <Draughts<R> as Game>::Position {
    let pos = g.parse_fen(fen).unwrap();
    let m = g.parse_move(&pos, mv).unwrap();
    g.play(&pos, m)
}

#[test]
fn the_moves_are_those_of_international_draughts() {
    let i = Draughts::<International>::default();
    let b = game();
    for fen in [
        "W:W31-50:B1-20",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        "W:W13:B7,8,45",
    ] {
        let (pi, pb) = (i.parse_fen(fen).unwrap(), b.parse_fen(fen).unwrap());
        let (mut li, mut lb) = (MoveList::new(), MoveList::new());
        i.generate(&pi, &mut li);
        b.generate(&pb, &mut lb);
        let ti: Vec<String> = li.iter().map(|m| i.format_move(&pi, *m)).collect();
        let tb: Vec<String> = lb.iter().map(|m| b.format_move(&pb, *m)).collect();
        assert_eq!(tb, ti, "{fen}");
    }
}

#[test]
fn the_first_player_to_crown_a_king_wins() {
    let g = game();
    let pos = play(&g, "W:W6:B45", "6-1");
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    let pos = play(&g, "B:W6:B45", "45-50");
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(1)));
    // The same crowning in international draughts ends nothing.
    let i = Draughts::<International>::default();
    let p = i.parse_fen("W:W6:B45").unwrap();
    let m = i.parse_move(&p, "6-1").unwrap();
    assert_eq!(i.outcome(&i.play(&p, m)), None);
}

#[test]
fn a_man_that_passes_the_far_row_during_a_capture_is_not_crowned_and_has_not_won() {
    // 13x2 over 8 reaches the far row, but the capture goes on (maximum
    // capture) over 7 to 11: no king, no win.
    let g = game();
    let pos = play(&g, "W:W13:B7,8,45", "13x11");
    assert_eq!(pos.kings, 0);
    assert_eq!(g.outcome(&pos), None);
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // As in international draughts: the caller's rule, no outcome of its own.
    let g = game();
    let pos = g.parse_fen("W:W46:B41,37").unwrap();
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    assert!(list.is_empty());
    assert_eq!(g.outcome(&pos), None);
}

#[test]
fn the_search_sees_a_crowning_as_a_win() {
    // White's man on 11 crowns in two moves; Black's on 35 needs three.
    let g = game();
    let pos = g.parse_fen("W:W11:B35").unwrap();
    let mut s = Searcher::new(g, 4, 1);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let r = s.search(&pos, &[], &limits, &Control::new(), &mut |_| {});
    assert!(r.score >= SCORE_WIN_MIN, "score {}", r.score);
}

#[test]
fn there_is_no_draw_rule_and_no_endgame_database() {
    let d = Variant::Breakthrough.descriptor();
    assert_eq!(d.draw_moves, 0);
    assert!(!d.endgame_databases);
    assert_eq!(d.hub_name, "breakthrough");
}
