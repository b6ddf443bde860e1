//! The bench position set of each game (`salto bench` searches it, `salto
//! bench --engine` compares engines on it): the start, the hand-set
//! positions of the variant's descriptor, and positions played out from the
//! start with a fixed seed. Below both commands.

use crate::game::{Game, MoveList, ParseError, zobrist};
use crate::variant::Variant;

/// A position reached by `plies` pseudo-random moves from the start
/// (splitmix64 with a fixed seed: the same every run).
fn playout<G: Game>(game: &G, seed: u64, plies: u32) -> G::Position {
    let mut state = seed;
    let mut pos = game.start();
    for _ in 0..plies {
        let mut list = MoveList::new();
        game.generate(&pos, &mut list);
        if list.is_empty() || game.outcome(&pos).is_some() {
            break;
        }
        let i = (zobrist::splitmix64(&mut state) % list.len() as u64) as usize;
        let next = game.play(&pos, list[i]);
        // Do not stop in a finished game.
        let mut after = MoveList::new();
        game.generate(&next, &mut after);
        if after.is_empty() {
            break;
        }
        pos = next;
    }
    pos
}

/// The bench positions of `game`: the start, the hand-set ones of its
/// descriptor, played-out ones.
pub fn positions<G: Game>(game: &G, variant: Variant) -> Result<Vec<G::Position>, ParseError> {
    let mut out = vec![game.start()];
    for f in variant.descriptor().bench_fens {
        out.push(
            game.parse_fen(f)
                .map_err(|e| ParseError(format!("bench position '{f}': {e}")))?,
        );
    }
    for (k, plies) in [12u32, 24, 36, 48].into_iter().enumerate() {
        out.push(playout(game, 0xBE4C_0000 + k as u64, plies));
    }
    Ok(out)
}
