//! The incremental Zobrist hash agrees with the hash recomputed from scratch
//! along thousands of random plies per variant.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use salto::{Game, GameVisitor, MoveList, Options, Variant, dispatch};

/// Plays random games until `plies` plies were played in all; returns the
/// number of plies checked.
struct RandomPlayout {
    plies: usize,
    seed: u64,
}

impl GameVisitor for RandomPlayout {
    type Output = usize;
    fn visit<G: Game>(self, game: G) -> usize {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut pos = game.start();
        let mut game_plies = 0;
        let mut list = MoveList::new();
        for ply in 0..self.plies {
            assert_eq!(
                game.hash(&pos),
                game.hash_from_scratch(&pos),
                "{}: ply {ply}: incremental hash differs in {}",
                game.name(),
                game.format_fen(&pos)
            );
            game.generate(&pos, &mut list);
            if list.is_empty() || game_plies >= 300 {
                pos = game.start();
                game_plies = 0;
                continue;
            }
            let mv = list[rng.random_range(0..list.len())];
            let next = game.play(&pos, mv);
            assert_ne!(
                game.hash(&next),
                game.hash(&pos),
                "{}: a move left the hash unchanged",
                game.name()
            );
            pos = next;
            game_plies += 1;
        }
        self.plies
    }
}

fn check(variant: Variant) {
    check_options(Options::new(variant));
}

fn check_options(opts: Options) {
    let n = dispatch(
        &opts,
        RandomPlayout {
            plies: 20_000,
            seed: 7,
        },
    )
    .expect("dispatch");
    assert_eq!(n, 20_000);
}

#[test]
fn zobrist_incremental_matches_scratch_international() {
    check(Variant::International);
}

#[test]
fn zobrist_incremental_matches_scratch_brazilian() {
    check(Variant::Brazilian);
}

#[test]
fn zobrist_incremental_matches_scratch_english() {
    check(Variant::English);
}

#[test]
fn zobrist_incremental_matches_scratch_spanish() {
    check(Variant::Spanish);
}

#[test]
fn zobrist_incremental_matches_scratch_turkish() {
    check(Variant::Turkish);
}

#[test]
fn zobrist_incremental_matches_scratch_turkish_immediate_promotion() {
    let mut opts = Options::new(Variant::Turkish);
    opts.set("turkish-promotion", "immediate").expect("option");
    check_options(opts);
}

#[test]
fn zobrist_incremental_matches_scratch_hex() {
    check(Variant::Hex);
}
