//! The move-count draw rule of the diagonal variants (rules.md, "Draw rules
//! of the draughts variants"): the game is drawn after N moves by each side
//! in a row with no capture and no man move (N = 40 in english, 60 in
//! brazilian, spanish and turkish); a man move starts the count again, and
//! `draw-moves=0` turns the rule off.

use salto::Game;
use salto::draughts::{BrazilianGame, EnglishGame, SpanishGame, TurkishGame};

/// A position with one king and one man a side, the four king moves of a
/// shuffle (white, black, white, black) and a white man move.
struct Setup {
    fen: &'static str,
    shuffle: [&'static str; 4],
    man_move: &'static str,
}

fn play<G: Game>(game: &G, pos: &G::Position, text: &str) -> G::Position {
    let mv = game
        .parse_move(pos, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    game.play(pos, mv)
}

/// The king shuffle: each side alternates its two king moves, whatever
/// the other side did (so a man move can stand in for one of white's).
struct Shuffle<'a, G: Game> {
    game: &'a G,
    setup: &'a Setup,
    pos: G::Position,
    /// King moves made so far by white and by black.
    made: [usize; 2],
}

impl<'a, G: Game> Shuffle<'a, G> {
    fn new(game: &'a G, setup: &'a Setup) -> Self {
        let pos = game.parse_fen(setup.fen).expect("fen");
        Shuffle {
            game,
            setup,
            pos,
            made: [0, 0],
        }
    }

    /// One king move of the side to move.
    fn king_move(&mut self) {
        let side = self.game.to_move(&self.pos);
        let text = self.setup.shuffle[2 * (self.made[side] % 2) + side];
        self.pos = play(self.game, &self.pos, text);
        self.made[side] += 1;
    }

    /// `plies` king moves; no draw may come before the last.
    fn run(&mut self, plies: usize) {
        for ply in 0..plies {
            assert_eq!(
                self.game.outcome(&self.pos),
                None,
                "drawn early, at ply {ply}"
            );
            self.king_move();
        }
    }
}

/// The rule of `moves` moves each: not drawn one ply before, drawn at
/// `2 * moves` plies, and a man move starts the count again.
fn check_rule<G: Game>(game: &G, s: &Setup, moves: usize) {
    let mut sh = Shuffle::new(game, s);
    sh.run(2 * moves - 1);
    assert_eq!(
        game.outcome(&sh.pos),
        None,
        "drawn after {} plies",
        2 * moves - 1
    );
    let mut drawn = Shuffle::new(game, s);
    drawn.run(2 * moves);
    assert_eq!(game.reversible_plies(&drawn.pos), 2 * moves as u32);
    assert_eq!(game.outcome(&drawn.pos), Some(salto::Outcome::Draw));
    // A man move (after 2N - 2 plies, white to move) starts the count again.
    let mut sh = Shuffle::new(game, s);
    sh.run(2 * moves - 2);
    sh.pos = play(game, &sh.pos, s.man_move);
    assert_eq!(game.reversible_plies(&sh.pos), 0);
    sh.run(2 * moves - 1);
    assert_eq!(
        game.outcome(&sh.pos),
        None,
        "drawn before 2N plies after the man move"
    );
    sh.king_move();
    assert_eq!(game.outcome(&sh.pos), Some(salto::Outcome::Draw));
}

/// With `draw-moves=0` no count draws, however long.
fn check_off<G: Game>(game: &G, s: &Setup) {
    let mut sh = Shuffle::new(game, s);
    sh.run(400);
    assert_eq!(game.reversible_plies(&sh.pos), 400);
    assert_eq!(game.outcome(&sh.pos), None);
}

const ENGLISH: Setup = Setup {
    fen: "W:WK30,21:BK3,12",
    shuffle: ["30-26", "3-7", "26-30", "7-3"],
    man_move: "21-17",
};
const BRAZILIAN: Setup = Setup {
    fen: "W:WK30,21:BK3,12",
    shuffle: ["30-27", "3-6", "27-30", "6-3"],
    man_move: "21-25",
};
const SPANISH: Setup = Setup {
    fen: "W:WK30,24:BK3,12",
    shuffle: ["30-26", "3-8", "26-30", "8-3"],
    man_move: "24-20",
};
const TURKISH: Setup = Setup {
    fen: "W:WKa1,d3:BKh8,e6",
    shuffle: ["1-2", "64-63", "2-1", "63-64"],
    man_move: "20-28",
};

#[test]
fn english_draw_after_40_moves_each_without_capture_or_man_move() {
    check_rule(&EnglishGame::default(), &ENGLISH, 40);
}

#[test]
fn brazilian_draw_after_60_moves_each_without_capture_or_man_move() {
    check_rule(&BrazilianGame::default(), &BRAZILIAN, 60);
}

#[test]
fn spanish_draw_after_60_moves_each_without_capture_or_man_move() {
    check_rule(&SpanishGame::default(), &SPANISH, 60);
}

#[test]
fn turkish_draw_after_60_moves_each_without_capture_or_man_move() {
    check_rule(&TurkishGame::default(), &TURKISH, 60);
}

#[test]
fn draw_moves_0_turns_the_move_count_rule_off() {
    let mut e = EnglishGame::default();
    e.draw_plies = 0;
    check_off(&e, &ENGLISH);
    let mut b = BrazilianGame::default();
    b.draw_plies = 0;
    check_off(&b, &BRAZILIAN);
    let mut s = SpanishGame::default();
    s.draw_plies = 0;
    check_off(&s, &SPANISH);
    let mut t = TurkishGame::default();
    t.draw_plies = 0;
    check_off(&t, &TURKISH);
}

#[test]
fn draw_moves_sets_the_count() {
    // `draw-moves=5` on english: drawn after 5 moves each.
    let mut e = EnglishGame::default();
    e.draw_plies = 10;
    check_rule(&e, &ENGLISH, 5);
}
