//! A basic evaluation: how far each player's pegs still have to go.
//!
//! A player's *distance* is the sum, over the pegs of all their sets, of the
//! hex distance from the peg to the tip of the set's target corner, minus
//! 20 per set (the distance of a set that fills its target corner), so a
//! player whose sets are all home has distance 0 (or close to it under
//! `spoiling=fill`).
//!
//! The score of player `p` is `STEP * (best opponent's distance - p's
//! distance)`: with two players the plain difference; with more, `p` is
//! measured against the opponent closest to winning (the one that matters
//! in a race). Scores are in the engine's centi-men, one hole of distance
//! worth [`STEP`]. The search may refine this later.

use super::board::{BOARD, Bits, opposite};
use super::position::{Chinese, Position};
use crate::game::Score;

/// The value of one hole of distance, in centi-men.
pub const STEP: Score = 10;

/// The sum of tip distances of a completely filled corner (0 + 2*1 + 3*2 + 4*3).
pub const HOME_DISTANCE: i32 = 20;

impl Chinese {
    /// Player `p`'s distance to home (see the module documentation).
    pub fn distance_to_home(&self, pos: &Position, p: usize) -> i32 {
        let mut total = 0i32;
        let mut s = self.player_sets[p];
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            let table = &BOARD.tip_distance[opposite(c)];
            for h in Bits(pos.sets[c]) {
                total += table[h] as i32;
            }
            total -= HOME_DISTANCE;
        }
        total
    }

    /// The evaluation from player `p`'s view.
    pub fn evaluate_player(&self, pos: &Position, p: usize) -> Score {
        let n = self.players as usize;
        let own = self.distance_to_home(pos, p);
        let best_other = (0..n)
            .filter(|&o| o != p)
            .map(|o| self.distance_to_home(pos, o))
            .min()
            .unwrap_or(own);
        STEP * (best_other - own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_home_is_zero() {
        for (p, s) in [(2, 1), (3, 1), (4, 1), (6, 1), (2, 3), (3, 2)] {
            let g = Chinese::with_players(p, s).unwrap();
            let pos = g.start_position();
            for pl in 0..p as usize {
                assert_eq!(g.evaluate_player(&pos, pl), 0);
                // A set at its start: 16 + 2*15 + 3*14 + 4*13 = 140 from the target tip.
                assert_eq!(
                    g.distance_to_home(&pos, pl),
                    s as i32 * (140 - HOME_DISTANCE)
                );
            }
        }
        let g = Chinese::with_players(2, 1).unwrap();
        let mut sets = [0u128; 6];
        sets[0] = BOARD.corner[3];
        sets[3] = BOARD.corner[0];
        let pos = g.make_position(sets, 0, 0);
        assert_eq!(g.distance_to_home(&pos, 0), 0);
        assert_eq!(g.distance_to_home(&pos, 1), 0);
    }

    #[test]
    fn a_peg_moved_forward_improves_its_players_score() {
        let g = Chinese::with_players(2, 1).unwrap();
        let pos = g.start_position();
        // Every first move leaves the corner towards the target.
        let mut list = crate::game::MoveList::new();
        g.generate_moves(&pos, &mut list);
        let after = g.play_move(&pos, list[0]);
        assert!(g.evaluate_player(&after, 0) > 0);
        assert!(g.evaluate_player(&after, 1) < 0);
    }
}
