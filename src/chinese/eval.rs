//! The chinese checkers evaluation, for any number of players and sets.
//!
//! Everything is counted in holes of distance ("how many steps this set is
//! from home"), then scaled by [`STEP`] centi-men per hole. For each set:
//!
//! - **distance**: the sum over its pegs of the hex distance to the tip of
//!   its target corner (precomputed per hole in `board::BOARD`), minus 20 (a
//!   filled corner), so a set at home scores 0;
//! - **stragglers**: [`STRAGGLER`] per hole by which the set's last peg
//!   trails the set's mean distance by more than [`STRAGGLER_SLACK`] (a peg
//!   left behind has no pegs to jump over and costs many single steps);
//! - **pegs left home**: [`LEFT_HOME`] per peg still in the start corner,
//!   scaled by how far the rest of the set has moved on;
//! - **blocking**: pegs of other sets in the set's target corner. Under
//!   `spoiling=swap` a peg of another player can be swapped out
//!   ([`BLOCK_SWAP`] each); a peg of the player's own other set, or any
//!   peg under `spoiling=none`, stays until it leaves ([`BLOCK_HARD`] each);
//!   under `spoiling=fill` every occupied hole helps ([`FILL_BONUS`] each);
//! - **swap threats**: under `spoiling=swap`, [`SWAP_EXPOSED`] per peg of
//!   the set standing in another player's target corner (it can be swapped
//!   back out of the way).
//!
//! A player's *badness* is the sum over their sets. The score of player `p`
//! is `STEP * (least badness of the others - p's badness)`: with two players
//! the plain difference; with more, `p` measured against the opponent
//! closest to winning. Summed over all players this is never positive,
//! which max^n's shallow pruning relies on (src/search/multi/maxn.rs).

use super::Spoiling;
use super::board::{BOARD, Bits, opposite};
use super::position::{Chinese, Position};
use crate::game::Score;

/// The value of one hole of distance, in centi-men.
pub const STEP: Score = 10;

/// The sum of tip distances of a completely filled corner (0 + 2*1 + 3*2 + 4*3).
pub const HOME_DISTANCE: i32 = 20;
/// Holes of penalty per hole the last peg trails beyond the slack.
pub const STRAGGLER: i32 = 1;
/// How far (holes) the last peg may trail the set's mean distance for free.
pub const STRAGGLER_SLACK: i32 = 3;
/// Holes of penalty per peg in the start corner, per hole the set's mean
/// distance is below [`LEFT_HOME_FROM`] (capped at [`LEFT_HOME_MAX`] steps).
pub const LEFT_HOME: i32 = 1;
pub const LEFT_HOME_FROM: i32 = 12;
pub const LEFT_HOME_MAX: i32 = 6;
/// Holes of penalty per swappable blocker in the target corner.
pub const BLOCK_SWAP: i32 = 1;
/// Holes of penalty per blocker that cannot be swapped out.
pub const BLOCK_HARD: i32 = 6;
/// Holes of bonus per other peg filling the target under `spoiling=fill`.
pub const FILL_BONUS: i32 = 3;
/// Holes of penalty per peg standing in another player's target corner
/// under `spoiling=swap`.
pub const SWAP_EXPOSED: i32 = 2;

impl Chinese {
    /// Player `p`'s distance to home: the distance term alone (see the
    /// module documentation), 0 when every set is home.
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

    /// The pegs of player `p`'s sets.
    fn pegs_of(&self, pos: &Position, p: usize) -> u128 {
        let mut m = 0u128;
        let mut s = self.player_sets[p];
        while s != 0 {
            m |= pos.sets[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        m
    }

    /// The target corners of the players other than `p`.
    fn others_targets(&self, p: usize) -> u128 {
        let mut m = 0u128;
        for c in 0..6 {
            if self.owner[c] != super::position::NO_PLAYER && self.owner[c] as usize != p {
                m |= BOARD.corner[opposite(c)];
            }
        }
        m
    }

    /// How far set `c` (of player `p`, whose pegs are `own`) is from home,
    /// in holes, with every term of the module documentation.
    fn set_badness(&self, pos: &Position, c: usize, own: u128, exposed_mask: u128) -> i32 {
        let pegs = pos.sets[c];
        let count = pegs.count_ones() as i32;
        if count == 0 {
            return 0;
        }
        let table = &BOARD.tip_distance[opposite(c)];
        let mut sum = 0i32;
        let mut back = 0i32;
        for h in Bits(pegs) {
            let d = table[h] as i32;
            sum += d;
            back = back.max(d);
        }
        let mut bad = sum - HOME_DISTANCE;
        // Stragglers: the last peg against the mean (rounded up).
        let mean = (sum + count - 1) / count;
        bad += STRAGGLER * (back - mean - STRAGGLER_SLACK).max(0);
        // Pegs left in the start corner once the set has moved on.
        let home = (pegs & BOARD.corner[c]).count_ones() as i32;
        bad += LEFT_HOME * home * (LEFT_HOME_FROM - mean).clamp(0, LEFT_HOME_MAX);
        // Blockers in the target corner.
        let target = BOARD.corner[opposite(c)];
        let others = pos.occ & target & !pegs;
        match self.spoiling {
            Spoiling::Swap => {
                let hard = (others & (own | pos.neutral)).count_ones() as i32;
                let soft = others.count_ones() as i32 - hard;
                bad += BLOCK_SWAP * soft + BLOCK_HARD * hard;
                bad += SWAP_EXPOSED * (pegs & exposed_mask).count_ones() as i32;
            }
            Spoiling::None => bad += BLOCK_HARD * others.count_ones() as i32,
            Spoiling::Fill => bad -= FILL_BONUS * others.count_ones() as i32,
        }
        bad
    }

    /// Player `p`'s badness: the sum over their sets.
    pub fn badness(&self, pos: &Position, p: usize) -> i32 {
        let own = self.pegs_of(pos, p);
        let exposed = self.others_targets(p);
        let mut total = 0;
        let mut s = self.player_sets[p];
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            total += self.set_badness(pos, c, own, exposed);
        }
        total
    }

    /// The evaluation from player `p`'s view.
    pub fn evaluate_player(&self, pos: &Position, p: usize) -> Score {
        let n = self.players as usize;
        let own = self.badness(pos, p);
        let best_other = (0..n)
            .filter(|&o| o != p)
            .map(|o| self.badness(pos, o))
            .min()
            .unwrap_or(own);
        STEP * (best_other - own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn start_is_balanced_and_home_is_zero() {
        for (p, s) in [(2, 1), (3, 1), (4, 1), (6, 1), (2, 3), (3, 2)] {
            let g = Chinese::with_players(p, s).unwrap();
            let pos = g.start();
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
        let pos = g.start();
        // Every first move leaves the corner towards the target.
        let mut list = crate::game::MoveList::new();
        g.generate(&pos, &mut list);
        let after = g.play(&pos, list[0]);
        assert!(g.evaluate_player(&after, 0) > 0);
        assert!(g.evaluate_player(&after, 1) < 0);
    }

    fn game(players: u8, spoiling: &str) -> Chinese {
        let o = crate::chinese::ChineseOptions {
            players,
            spoiling: spoiling.parse().expect("a spoiling value"),
            ..Default::default()
        };
        Chinese::new(o).expect("a game")
    }

    /// Two players: set A has nine pegs in D (hole 112 free) and one on
    /// hole index `last`; set D is home (in A).
    fn nine_home(g: &Chinese, last: usize) -> Position {
        let mut sets = [0u128; 6];
        sets[0] = (BOARD.corner[3] & !(1u128 << 111)) | (1u128 << last);
        sets[3] = BOARD.corner[0];
        g.make_position(sets, 0, 0)
    }

    #[test]
    fn a_straggler_costs_more_than_its_distance() {
        let g = game(2, "swap");
        // The last peg of A at the centre (hole 61), then farther back
        // (hole 31): the badness grows by more than the extra distance.
        let near = nine_home(&g, 60);
        let far = nine_home(&g, 30);
        let extra = g.distance_to_home(&far, 0) - g.distance_to_home(&near, 0);
        assert!(extra > 0);
        assert!(g.badness(&far, 0) - g.badness(&near, 0) > extra);
    }

    #[test]
    fn blockers_cost_most_under_none_and_help_under_fill() {
        // At the start, set D fills A's target corner (and A stands in D's).
        let extra = |s: &str| {
            let g = game(2, s);
            let pos = g.start();
            g.badness(&pos, 0) - g.distance_to_home(&pos, 0)
        };
        let (swap, none, fill) = (extra("swap"), extra("none"), extra("fill"));
        assert!(none > swap, "none {none} swap {swap}");
        assert!(swap > fill, "swap {swap} fill {fill}");
        assert!(fill < 0, "fill {fill}");
    }

    #[test]
    fn scores_of_all_players_never_sum_above_zero() {
        use crate::game::{Game, MoveList};
        for (players, sets) in [(3, 1), (4, 1), (6, 1), (3, 2)] {
            for spoiling in ["swap", "none", "fill"] {
                let o = crate::chinese::ChineseOptions {
                    players,
                    sets,
                    spoiling: spoiling.parse().expect("a spoiling value"),
                    ..Default::default()
                };
                let g = Chinese::new(o).expect("a game");
                let mut pos = g.start();
                let mut list = MoveList::new();
                for ply in 0..300u64 {
                    let sum: Score = (0..players as usize).map(|p| g.evaluate_for(&pos, p)).sum();
                    assert!(sum <= 0, "{players}/{sets} {spoiling} ply {ply}: {sum}");
                    list.clear();
                    g.generate(&pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    // A fixed pseudo-random walk.
                    let k = (ply.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % list.len();
                    pos = g.play(&pos, list[k]);
                }
            }
        }
    }
}
