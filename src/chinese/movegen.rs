//! Move generation: steps, jump chains (a search over landing holes with a
//! visited set), the home rule, foreign corners and swaps.
//!
//! For each peg the generator computes two masks: the empty holes the peg
//! may end on (steps and jump chains) and the occupied holes it may swap
//! with. Every set bit is one move, so moves are distinct by construction.

use super::Spoiling;
use super::board::{BOARD, Bits, bit, opposite};
use super::position::{Chinese, Move, Position};
use crate::game::MoveList;

/// Each byte value spread to eight bytes of 0 or 1 (bit `k` to byte `k`).
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut k = 0;
        while k < 8 {
            if v & (1 << k) != 0 {
                t[v] |= 1 << (8 * k);
            }
            k += 1;
        }
        v += 1;
    }
    t
};

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
        // The board as bytes (1 = a peg): a byte load is cheaper than a
        // variable shift of a u128 in the jump search.
        let mut cell = [0u8; 128];
        for (i, chunk) in cell.chunks_exact_mut(8).enumerate() {
            let byte = (pos.occ >> (8 * i)) as u8;
            chunk.copy_from_slice(&SPREAD[byte as usize].to_le_bytes());
        }
        // Visited landing holes: `mark[h] == stamp` (a new stamp per peg).
        let mut mark = [0u32; 128];
        let mut stamp = 0u32;
        // The search stack of landing holes; each hole is pushed at most once.
        let mut stack = [0u8; 128];
        let mut s = mine;
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            let target = BOARD.corner[opposite(c)];
            let swap_mask = if swapping { others & target } else { 0 };
            for from in Bits(pos.sets[c]) {
                let from_bit = bit(from);
                let at_home = target & from_bit != 0;
                // Home rule: every landing hole inside the target corner.
                let (land_mask, end_mask) = if at_home {
                    (target, target)
                } else {
                    (!0u128, self.end_mask[c])
                };
                let occ = pos.occ & !from_bit;
                let free = !occ & land_mask;
                let adj = BOARD.adjacent[from];
                let mut ends = adj & free;
                let mut swaps = adj & swap_mask;
                // Jump chains: a depth-first search over landing holes.
                stamp += 1;
                mark[from] = stamp;
                cell[from] = 0;
                let mut visited = 0u128;
                let mut top = 0;
                let mut x = from;
                loop {
                    for &(over, land) in &BOARD.jumps6[x] {
                        if cell[over as usize] == 0 {
                            continue;
                        }
                        if cell[land as usize] == 0 {
                            if mark[land as usize] != stamp {
                                mark[land as usize] = stamp;
                                let lb = bit(land as usize);
                                if at_home && target & lb == 0 {
                                    continue;
                                }
                                visited |= lb;
                                stack[top] = land;
                                top += 1;
                            }
                        } else if swap_mask != 0 {
                            swaps |= swap_mask & bit(land as usize);
                        }
                    }
                    if top == 0 {
                        break;
                    }
                    top -= 1;
                    x = stack[top] as usize;
                }
                cell[from] = 1;
                ends |= visited;
                ends &= end_mask;
                f(from, ends, swaps);
            }
        }
    }
}

/// All legal moves: an explicit pass when the player to move has none,
/// nothing when the game is over.
pub(super) fn generate(g: &Chinese, pos: &Position, out: &mut MoveList<Move>) {
    if crate::game::Game::outcome(g, pos).is_some() {
        return;
    }
    g.for_each_peg(pos, |from, ends, swaps| {
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
pub(super) fn count_moves(g: &Chinese, pos: &Position) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi1") {
            // SAFETY: the CPU has the features the function is built for.
            return unsafe { count_popcnt(g, pos) };
        }
    }
    count_portable(g, pos)
}

/// [`count_moves`] built with the `popcnt` and `bmi1`
/// instructions (the default x86-64 target counts bits in software,
/// which was 18% of perft's instructions).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
unsafe fn count_popcnt(g: &Chinese, pos: &Position) -> u64 {
    count_portable(g, pos)
}

#[inline(always)]
fn count_portable(g: &Chinese, pos: &Position) -> u64 {
    if crate::game::Game::outcome(g, pos).is_some() {
        return 0;
    }
    let mut n = 0u64;
    g.for_each_peg(pos, |_, ends, swaps| {
        n += (ends.count_ones() + swaps.count_ones()) as u64;
    });
    n.max(1)
}
