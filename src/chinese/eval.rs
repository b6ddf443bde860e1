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
//! A player's *badness* is the sum over their sets, each term weighted
//! ([`HAND`]: the constants of [`super::weights`] in holes, times [`STEP`]; the default is
//! `weights/chinese.txt`, which holds the hand weights: those learned from
//! 2-player self-play measured worse, docs/evaluation.md). The
//! score of player `p` is `least badness of the others - p's badness`
//! (centi-men): with two players
//! the plain difference; with more, `p` measured against the opponent
//! closest to winning. Summed over all players this is never positive,
//! which max^n's shallow pruning relies on (src/search/multi/maxn.rs).

use super::Spoiling;
use super::board::{BOARD, Bits, opposite};
use super::position::{Chinese, Position};
use super::weights::*;
use crate::game::Score;

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

    /// Adds the term counts of set `c` (of a player whose pegs are `own`;
    /// `exposed_mask`: the other players' target corners) to `t`.
    fn set_terms(
        &self,
        pos: &Position,
        c: usize,
        own: u128,
        exposed_mask: u128,
        t: &mut [i32; TERMS],
    ) {
        let pegs = pos.sets[c];
        let count = pegs.count_ones() as i32;
        if count == 0 {
            return;
        }
        let table = &BOARD.tip_distance[opposite(c)];
        let mut sum = 0i32;
        let mut back = 0i32;
        for h in Bits(pegs) {
            let d = table[h] as i32;
            sum += d;
            back = back.max(d);
        }
        t[0] += sum - HOME_DISTANCE;
        // Stragglers: the last peg against the mean (rounded up).
        let mean = (sum + count - 1) / count;
        t[1] += (back - mean - STRAGGLER_SLACK).max(0);
        // Pegs left in the start corner once the set has moved on.
        let home = (pegs & BOARD.corner[c]).count_ones() as i32;
        t[2] += home * (LEFT_HOME_FROM - mean).clamp(0, LEFT_HOME_MAX);
        // Blockers in the target corner.
        let target = BOARD.corner[opposite(c)];
        let others = pos.occ & target & !pegs;
        match self.spoiling {
            Spoiling::Swap => {
                let hard = (others & (own | pos.neutral)).count_ones() as i32;
                t[3] += others.count_ones() as i32 - hard;
                t[4] += hard;
                t[6] += (pegs & exposed_mask).count_ones() as i32;
            }
            Spoiling::None => t[4] += others.count_ones() as i32,
            Spoiling::Fill => t[5] += others.count_ones() as i32,
        }
    }

    /// Player `p`'s term counts, summed over their sets (the weights of
    /// [`HAND`] or the learned ones turn them into the badness).
    pub fn player_terms(&self, pos: &Position, p: usize) -> [i32; TERMS] {
        let own = self.pegs_of(pos, p);
        let exposed = self.others_targets(p);
        let mut t = [0; TERMS];
        let mut s = self.player_sets[p];
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            self.set_terms(pos, c, own, exposed, &mut t);
        }
        t
    }

    /// Player `p`'s badness in centi-men: the game's weights times the
    /// player's term counts.
    pub fn badness(&self, pos: &Position, p: usize) -> i32 {
        let t = self.player_terms(pos, p);
        t.iter().zip(self.weights.iter()).map(|(a, b)| a * b).sum()
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
        best_other - own
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// The hand weights are the constants times STEP: the evaluation with
    /// them is the one every bench signature was measured with.
    #[test]
    fn hand_weights_are_the_constants_in_centi_men() {
        let g = game(2, "swap");
        let pos = g.start();
        let t = g.player_terms(&pos, 0);
        assert_eq!(t[0], g.distance_to_home(&pos, 0));
        assert_eq!(
            g.badness(&pos, 0),
            t.iter().zip(HAND).map(|(a, b)| a * b).sum::<i32>()
        );
    }

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

    /// The game with the hand weights (the tests below check the terms'
    /// directions in their units).
    fn game(players: u8, spoiling: &str) -> Chinese {
        let o = crate::chinese::ChineseOptions {
            players,
            spoiling: spoiling.parse().expect("a spoiling value"),
            weights: Some(HAND),
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
        assert!(g.badness(&far, 0) - g.badness(&near, 0) > STEP * extra);
    }

    #[test]
    fn blockers_cost_most_under_none_and_help_under_fill() {
        // At the start, set D fills A's target corner (and A stands in D's).
        let extra = |s: &str| {
            let g = game(2, s);
            let pos = g.start();
            g.badness(&pos, 0) - STEP * g.distance_to_home(&pos, 0)
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
