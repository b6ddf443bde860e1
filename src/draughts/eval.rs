//! Static evaluation of draughts positions. A placeholder with material only
//! (man 100, king 300); the search work replaces it.

use super::bitboard::Bitboard;
use super::position::{Bb, Position};
use super::rules::Rules;
use crate::game::Score;

/// Material from the view of the player to move: man 100, king 300.
pub fn evaluate<R: Rules>(pos: &Position<Bb<R>>) -> Score {
    let s = pos.side as usize;
    let material = |side: usize| {
        let p = pos.pieces[side];
        let kings = (p & pos.kings).count() as Score;
        let men = p.count() as Score - kings;
        100 * men + 300 * kings
    };
    material(s) - material(1 - s)
}
