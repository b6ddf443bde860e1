//! Notation (notation.md) and position strings (protocol.md) of the diagonal
//! variants: square numbers, round trips on random positions, the accepted
//! move forms and the errors.

mod draughts_util;

use draughts_util::number;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use salto::draughts::notation::format_move_short;
use salto::draughts::{Brazilian, Draughts, English, International, Rules, Spanish};
use salto::variant::Notation;
use salto::{Game, GameVisitor, MoveList, Options, Variant, dispatch};

#[test]
fn international_squares_follow_the_fmjd_numbering() {
    type I = International;
    assert_eq!(number::<I>("b10"), 1);
    assert_eq!(number::<I>("j10"), 5);
    assert_eq!(number::<I>("a9"), 6);
    assert_eq!(number::<I>("a1"), 46);
    assert_eq!(number::<I>("i1"), 50);
}

#[test]
fn english_and_spanish_squares_follow_the_english_numbering() {
    for (name, n) in [("b8", 1), ("h8", 4), ("a7", 5), ("a1", 29), ("g1", 32)] {
        assert_eq!(number::<English>(name), n, "{name}");
        assert_eq!(number::<Spanish>(name), n, "{name}");
    }
}

#[test]
fn brazilian_squares_count_from_a1() {
    type B = Brazilian;
    for (name, n) in [
        ("a1", 1),
        ("c1", 2),
        ("g1", 4),
        ("b2", 5),
        ("a3", 9),
        ("b4", 13),
        ("h8", 32),
    ] {
        assert_eq!(number::<B>(name), n, "{name}");
    }
}

#[test]
fn hub_start_strings() {
    let i = Draughts::<International>::default();
    let s = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
    assert_eq!(i.format_hub_position(&i.start()), s);
    assert_eq!(i.parse_hub_position(&s), Ok(i.start()));

    // pydraughts' english: first mover's view (squares 32..1), Black as `w`,
    // `W` when Black is to move.
    let e = Draughts::<English>::default();
    let s = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
    assert_eq!(e.format_hub_position(&e.start()), s);
    assert_eq!(e.parse_hub_position(&s), Ok(e.start()));

    // brazilian: reading order b8, d8, ..., g1.
    let b = Draughts::<Brazilian>::default();
    assert_eq!(b.format_hub_position(&b.start()), s);
    assert_eq!(b.parse_hub_position(&s), Ok(b.start()));
}

#[test]
fn english_hub_string_puts_square_32_first_and_swaps_colours() {
    let e = Draughts::<English>::default();
    // White (player 0) to move, a white king on 32 (g1), a black man on 1.
    let pos = e.parse_fen("W:WK32:B1").expect("fen");
    let s = e.format_hub_position(&pos);
    assert_eq!(
        &s[..2],
        "BB",
        "White to move is `B`; White's king on 32 is `B`"
    );
    assert_eq!(&s[32..], "w", "Black's man on square 1 is `w`, last");
    assert_eq!(e.parse_hub_position(&s), Ok(pos));
}

#[test]
fn fen_accepts_ranges_kings_and_wrappers() {
    let g = Draughts::<International>::default();
    let a = g.parse_fen("W:W31-50:B1-20").expect("fen");
    assert_eq!(a, g.start());
    assert_eq!(g.parse_fen("[FEN \"W:W31-50:B1-20.\"]"), Ok(a));
    assert_eq!(
        g.parse_fen("W:B1-20:W31-50"),
        Ok(a),
        "colour fields in any order"
    );
    let k = g.parse_fen("B:WK4,31:BK7,K8-10,20").expect("fen");
    assert_eq!(g.format_fen(&k), "B:WK4,31:BK7,K8,K9,K10,20");
}

#[test]
fn fen_errors_say_what_and_where() {
    let g = Draughts::<International>::default();
    let err = |t: &str| g.parse_fen(t).expect_err(t).to_string();
    assert!(err("W:W31-51:B1").contains("51"));
    assert!(err("W:W31,31:B1").contains("twice"));
    assert!(err("Q:W31:B1").contains("W or B"));
    assert!(err("W:W3:B1").contains("promotion row"));
    assert!(err("W:W31:B46").contains("promotion row"));
    assert!(err("W:W21-50:B1").contains("30 pieces"));
    assert!(err("W:X31:B1").contains("'X'"));
    assert!(err("").contains("empty"));
    let b = Draughts::<Brazilian>::default();
    assert!(
        b.parse_fen("W:Wa2:B32")
            .expect_err("light")
            .to_string()
            .contains("light square")
    );
    assert!(
        b.parse_fen("W:Wi9:B32")
            .expect_err("off")
            .to_string()
            .contains("not on")
    );
}

#[test]
fn hub_position_errors_say_what_and_where() {
    let g = Draughts::<English>::default();
    let e = g.parse_hub_position("Wbbb").expect_err("short").to_string();
    assert!(e.contains("33") && e.contains('4'), "{e}");
    let bad = format!("W{}x{}", "e".repeat(10), "e".repeat(21));
    let e = g
        .parse_hub_position(&bad)
        .expect_err("bad char")
        .to_string();
    assert!(e.contains("'x'") && e.contains("12"), "{e}");
    let bad = format!("X{}", "e".repeat(32));
    assert!(g.parse_hub_position(&bad).is_err());
}

#[test]
fn short_long_and_path_forms_of_a_capture() {
    // English: c3 takes d4 and d6, or b4 and b6, landing on c7 either way.
    type E = English;
    let g = Draughts::<E>::default();
    let fen = draughts_util::fen::<E>('W', &["c3"], &["d4", "d6", "b4", "b6"]);
    let pos = g.parse_fen(&fen).expect("fen");
    let (c3, c7, e5) = (number::<E>("c3"), number::<E>("c7"), number::<E>("e5"));
    let (d4, d6) = (number::<E>("d4"), number::<E>("d6"));
    let short = format!("{c3}x{c7}");
    let err = g
        .parse_move(&pos, &short)
        .expect_err("ambiguous")
        .to_string();
    assert!(err.contains("ambiguous"), "{err}");
    let long = g
        .parse_move(&pos, &format!("{c3}x{c7}x{d6}x{d4}"))
        .expect("long form");
    let path = g
        .parse_move(&pos, &format!("{c3}x{e5}x{c7}"))
        .expect("path form");
    assert_eq!(long, path);
    let hub = format!("{c3}x{c7}x{}x{}", d4.min(d6), d4.max(d6));
    assert_eq!(
        g.format_move(&pos, long),
        hub,
        "captured squares in number order"
    );
    assert_eq!(format_move_short::<E>(&pos, &long, false), hub);
    // Where the ends are unique, the short form is accepted and printed.
    let g = Draughts::<International>::default();
    let pos = g.parse_fen("W:W32:B27").expect("fen");
    let mv = g.parse_move(&pos, "32x21").expect("short form");
    assert_eq!(g.format_move(&pos, mv), "32x21x27");
    assert_eq!(
        format_move_short::<International>(&pos, &mv, false),
        "32x21"
    );
}

#[test]
fn move_errors_say_what() {
    let g = Draughts::<International>::default();
    let pos = g.start();
    let err = |t: &str| g.parse_move(&pos, t).expect_err(t).to_string();
    assert!(err("32-29").contains("illegal"));
    assert!(err("32-51").contains("51"));
    assert!(err("32").contains("two squares"));
    assert!(err("32-x28").contains("mixes"));
    assert!(err("").contains("empty"));
    assert!(err("ab-cd").contains("not a square"));
}

#[test]
fn brazilian_algebraic_notation_option() {
    let mut opts = Options::new(Variant::Brazilian);
    opts.notation = Notation::Algebraic;
    let g = Draughts::<Brazilian>::new(&opts);
    let pos = g.start();
    let mv = g.parse_move(&pos, "10-14").expect("numeric input");
    assert_eq!(g.format_move(&pos, mv), "c3-d4");
    assert_eq!(g.parse_move(&pos, "c3-d4"), Ok(mv));
    assert_eq!(g.parse_fen(&g.format_fen(&pos)), Ok(pos));
}

/// Round trips along random games: FEN, Hub string and every legal move.
struct RoundTrips {
    plies: usize,
}

impl GameVisitor for RoundTrips {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut pos = game.start();
        let mut list = MoveList::new();
        let mut n = 0;
        for _ in 0..self.plies {
            let fen = game.format_fen(&pos);
            let back = game
                .parse_fen(&fen)
                .unwrap_or_else(|e| panic!("{}: {fen}: {e}", game.name()));
            assert_eq!(game.hash(&back), game.hash(&pos), "{}: {fen}", game.name());
            assert_eq!(game.format_fen(&back), fen);
            let hub = game.format_hub_position(&pos);
            let back = game
                .parse_hub_position(&hub)
                .unwrap_or_else(|e| panic!("{hub}: {e}"));
            assert_eq!(game.hash(&back), game.hash(&pos), "{}: {hub}", game.name());
            game.generate(&pos, &mut list);
            for &mv in list.iter() {
                let text = game.format_move(&pos, mv);
                let parsed = game
                    .parse_move(&pos, &text)
                    .unwrap_or_else(|e| panic!("{fen}: {text}: {e}"));
                assert_eq!(parsed, mv, "{}: {fen}: {text}", game.name());
                n += 1;
            }
            if list.is_empty() {
                pos = game.start();
            } else {
                pos = game.play(&pos, list[rng.random_range(0..list.len())]);
            }
        }
        assert!(n > self.plies, "too few moves checked");
    }
}

fn round_trips(variant: Variant) {
    dispatch(&Options::new(variant), RoundTrips { plies: 3000 }).expect("dispatch");
}

#[test]
fn round_trips_international() {
    round_trips(Variant::International);
}

#[test]
fn round_trips_brazilian() {
    round_trips(Variant::Brazilian);
}

#[test]
fn round_trips_english() {
    round_trips(Variant::English);
}

#[test]
fn round_trips_spanish() {
    round_trips(Variant::Spanish);
}

#[test]
fn short_form_round_trips_on_random_positions() {
    fn run<R: Rules>()
    where
        R::Geo: salto::draughts::Geometry<BB = u64>,
    {
        let g = Draughts::<R>::default();
        let mut rng = SmallRng::seed_from_u64(5);
        let mut pos = g.start();
        let mut list = MoveList::new();
        for _ in 0..3000 {
            g.generate(&pos, &mut list);
            for &mv in list.iter() {
                let t = format_move_short::<R>(&pos, &mv, false);
                assert_eq!(g.parse_move(&pos, &t), Ok(mv), "{t}");
            }
            pos = if list.is_empty() {
                g.start()
            } else {
                g.play(&pos, list[rng.random_range(0..list.len())])
            };
        }
    }
    run::<International>();
    run::<Brazilian>();
    run::<English>();
    run::<Spanish>();
}
