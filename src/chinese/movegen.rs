//! Move generation: steps, jump chains (a search over landing holes with a
//! visited set), the home rule, foreign corners and swaps.
//!
//! For each peg the generator computes two masks: the empty holes the peg
//! may end on (steps and jump chains) and the occupied holes it may swap
//! with. Every set bit is one move, so moves are distinct by construction.

use super::board::{BOARD, Bits, bit, opposite};
use super::position::{Chinese, Move, Position};
use crate::game::MoveList;
use crate::variant::Spoiling;

impl Chinese {
    /// Calls `f(from, ends, swaps)` for every peg of the player to move:
    /// `ends` are the holes it may move to, `swaps` the holes it may swap
    /// with.
    #[inline(always)]
    fn for_each_peg<F: FnMut(usize, u128, u128)>(&self, pos: &Position, mut f: F) {
        let p = pos.to_move as usize;
        let mine = self.player_sets[p];
        let own_pegs = {
            let mut m = 0u128;
            let mut s = mine;
            while s != 0 {
                m |= pos.sets[s.trailing_zeros() as usize];
                s &= s - 1;
            }
            m
        };
        // Pegs of other players: the only pegs a swap may displace.
        let others = pos.occ & !own_pegs & !pos.neutral;
        let swapping = self.spoiling == Spoiling::Swap;
        let mut s = mine;
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            let target = BOARD.corner[opposite(c)];
            let swap_mask = if swapping { others & target } else { 0 };
            for from in Bits(pos.sets[c]) {
                let at_home = target & bit(from) != 0;
                // Home rule: every landing hole inside the target corner.
                let (land_mask, end_mask) = if at_home {
                    (target, target)
                } else {
                    (!0u128, self.end_mask[c])
                };
                let occ = pos.occ & !bit(from);
                let free = !occ & land_mask;
                let adj = BOARD.adjacent[from];
                let mut ends = adj & free;
                let mut swaps = adj & swap_mask;
                // Jump chains: a depth-first search over landing holes.
                let mut visited = bit(from);
                let mut stack = [0u8; 128];
                let mut top = 0;
                let mut x = from;
                loop {
                    let jumps = &BOARD.jumps[x];
                    for &(over, land) in jumps.iter().take(BOARD.num_jumps[x] as usize) {
                        if occ & bit(over as usize) == 0 {
                            continue;
                        }
                        let lb = bit(land as usize);
                        if free & lb != 0 {
                            if visited & lb == 0 {
                                visited |= lb;
                                stack[top] = land;
                                top += 1;
                            }
                        } else {
                            swaps |= swap_mask & lb;
                        }
                    }
                    if top == 0 {
                        break;
                    }
                    top -= 1;
                    x = stack[top] as usize;
                }
                ends |= visited & !bit(from);
                ends &= end_mask;
                f(from, ends, swaps);
            }
        }
    }

    /// All legal moves: an explicit pass when the player to move has none,
    /// nothing when the game is over.
    pub fn generate_moves(&self, pos: &Position, out: &mut MoveList<Move>) {
        if self.game_outcome(pos).is_some() {
            return;
        }
        self.for_each_peg(pos, |from, ends, swaps| {
            for to in Bits(ends) {
                out.push(Move::normal(from, to));
            }
            for to in Bits(swaps) {
                out.push(Move::swap(from, to));
            }
        });
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    /// The number of legal moves (a pass counts as one).
    pub fn count_legal(&self, pos: &Position) -> u64 {
        if self.game_outcome(pos).is_some() {
            return 0;
        }
        let mut n = 0u64;
        self.for_each_peg(pos, |_, ends, swaps| {
            n += (ends.count_ones() + swaps.count_ones()) as u64;
        });
        n.max(1)
    }
}
