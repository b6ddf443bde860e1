//! Antidraughts (lidraughts' and pydraughts' `antidraughts`): the moves of
//! international draughts, the goal reversed. One test per rule of
//! docs/variants.md, "Antidraughts".

use salto::draughts::{Antidraughts, Draughts, International};
use salto::game::SCORE_WIN_MIN;
use salto::search::{Control, Limits, Searcher};
use salto::variant::{Options, Variant};
use salto::{Game, MoveList, Outcome};

type R = Antidraughts;

fn game() -> Draughts<R> {
    Draughts::<R>::default()
}

fn moves<G: Game>(g: &G, pos: &G::Position) -> Vec<String> {
    let mut list = MoveList::new();
    g.generate(pos, &mut list);
    let mut v: Vec<String> = list.iter().map(|m| g.format_move(pos, *m)).collect();
    v.sort();
    v
}

#[test]
fn the_moves_are_those_of_international_draughts() {
    // Compulsory maximum capture, flying kings, men capturing backward: the
    // same lists as international draughts' in the same positions.
    let i = Draughts::<International>::default();
    let a = game();
    for fen in [
        "W:W31-50:B1-20",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        "W:W28:B19,23",
    ] {
        let (pi, pa) = (i.parse_fen(fen).unwrap(), a.parse_fen(fen).unwrap());
        assert_eq!(moves(&a, &pa), moves(&i, &pi), "{fen}");
    }
}

#[test]
fn a_player_with_no_piece_left_wins() {
    let g = game();
    let pos = g.parse_fen("W:W:B19").unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    let pos = g.parse_fen("B:W28:B").unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(1)));
}

#[test]
fn a_player_whose_pieces_are_all_blocked_wins() {
    // White's man on 46 has 41 taken by a black man backed by 37: no move.
    let g = game();
    let pos = g.parse_fen("W:W46:B41,37").unwrap();
    assert!(moves(&g, &pos).is_empty());
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    // The same position in international draughts is White's loss, decided
    // by the caller from the empty move list: no outcome of its own.
    let i = Draughts::<International>::default();
    assert_eq!(i.outcome(&i.parse_fen("W:W46:B41,37").unwrap()), None);
}

#[test]
fn a_player_who_can_move_has_not_won() {
    let g = game();
    assert_eq!(g.outcome(&g.start()), None);
    assert_eq!(g.outcome(&g.parse_fen("W:W28:B19").unwrap()), None);
}

#[test]
fn the_search_gives_its_last_piece_away() {
    // 28-23 forces 19x28 and leaves White without a piece: a win. 28-22
    // keeps it.
    let g = game();
    let pos = g.parse_fen("W:W28:B19").unwrap();
    let mut s = Searcher::new(g, 4, 1);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let r = s.search(&pos, &[], &limits, &Control::new(), &mut |_| {});
    let best = r.best.expect("a move");
    assert_eq!(g.format_move(&pos, best), "28-23");
    assert!(r.score >= SCORE_WIN_MIN, "score {}", r.score);
}

#[test]
fn there_is_no_move_count_draw_rule_and_no_endgame_database() {
    let d = Variant::Antidraughts.descriptor();
    assert_eq!(d.draw_moves, 0);
    assert!(!d.endgame_databases);
    assert_eq!(d.hub_name, "antidraughts");
    struct Tb;
    impl salto::variant::GameVisitor for Tb {
        type Output = bool;
        fn visit<G: Game>(self, game: G) -> bool {
            game.tablebase().is_some()
        }
    }
    assert_eq!(
        salto::variant::dispatch(&Options::new(Variant::Antidraughts), Tb),
        Ok(false)
    );
    let dir = std::env::temp_dir().join(format!("salto-anti-egdb-{}", std::process::id()));
    let opts = salto::egdb::build::BuildOptions {
        root: &dir,
        pieces: 2,
        dtc_pieces: 2,
        progress: false,
        memory: None,
        shard: (1, 1),
    };
    let e = salto::egdb::build::build_all::<R>(&opts).unwrap_err();
    assert!(e.contains("antidraughts has no endgame databases"), "{e}");
    assert!(!dir.exists());
}
