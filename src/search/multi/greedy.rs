//! The one-ply greedy baseline: the move after which the mover's
//! [`Game::greedy_value`] is highest (a winning move first). Ties are broken
//! by a hash of the resulting position, so that games differ without a
//! random generator and a search is reproducible.

use crate::game::{Game, MoveList, Outcome, SCORE_WIN, Score};

/// The greedy move, `None` without a legal move.
pub fn choose<G: Game>(game: G, root: &G::Position) -> Option<G::Move> {
    let me = game.to_move(root);
    let mut list = MoveList::new();
    game.generate(root, &mut list);
    let mut best: Option<(Score, u64, G::Move)> = None;
    for &mv in list.iter() {
        let child = game.play(root, mv);
        let value = match game.outcome(&child) {
            Some(Outcome::Win(p)) if p == me => SCORE_WIN,
            _ => game.greedy_value(&child, me),
        };
        let tie = game.hash(&child).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if best.is_none_or(|(v, t, _)| (value, tie) > (v, t)) {
            best = Some((value, tie, mv));
        }
    }
    best.map(|(_, _, mv)| mv)
}
