//! Move ordering: the staged move picker of the two-player search, killer
//! moves per ply, the history table, and the late move reduction table.

use crate::game::{Game, MoveList};

/// History scores stay within ±this (gravity towards 0 keeps them fresh).
pub const HISTORY_MAX: i32 = 1 << 14;
/// Log2 of the history table size (per player).
const HISTORY_BITS: u32 = 14;

/// Two quiet moves per ply that caused a cutoff.
#[derive(Clone)]
pub struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + PartialEq> Killers<M> {
    pub fn new(plies: usize) -> Self {
        Killers {
            slots: vec![[None, None]; plies],
        }
    }

    #[inline]
    pub fn get(&self, ply: usize) -> [Option<M>; 2] {
        self.slots[ply]
    }

    #[inline]
    pub fn add(&mut self, ply: usize, mv: M) {
        let s = &mut self.slots[ply];
        if s[0] != Some(mv) {
            s[1] = s[0];
            s[0] = Some(mv);
        }
    }
}

/// Quiet-move success per player, indexed by the game's move key.
#[derive(Clone)]
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

impl History {
    pub fn new() -> Self {
        History {
            table: vec![0; 2 << HISTORY_BITS],
        }
    }

    #[inline]
    fn index(key: u64, player: usize) -> usize {
        let h = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - HISTORY_BITS)) as usize;
        ((player & 1) << HISTORY_BITS) | h
    }

    #[inline]
    pub fn get(&self, key: u64, player: usize) -> i32 {
        self.table[Self::index(key, player)]
    }

    #[inline]
    fn update(&mut self, key: u64, player: usize, bonus: i32) {
        let e = &mut self.table[Self::index(key, player)];
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }

    /// The move caused a cutoff at this depth.
    pub fn reward(&mut self, key: u64, player: usize, depth: i32) {
        self.update(key, player, (depth * depth).min(HISTORY_MAX / 4));
    }

    /// The move was tried before the one that cut off.
    pub fn punish(&mut self, key: u64, player: usize, depth: i32) {
        self.update(key, player, -(depth * depth).min(HISTORY_MAX / 4));
    }
}

/// Ordering bonus of a noisy move (a capture): above every killer and
/// history score.
pub const NOISY_BONUS: i32 = 1 << 24;
/// Ordering bonus of the first and second killer: above every history score
/// (which stays within ±[`HISTORY_MAX`]).
pub const KILLER_BONUS: [i32; 2] = [1 << 22, 1 << 21];

/// Where a [`MovePicker`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    /// The table's move comes first, before anything is scored (it often
    /// cuts off alone).
    #[default]
    TableMove,
    /// The other moves are not scored yet.
    Score,
    /// The other moves come best first: captures, then the two killers,
    /// then the quiet moves by history.
    Ordered,
}

/// The staged move picker of one node of the two-player search: the table
/// move, then captures, killers and quiet moves by history. Captures,
/// killers and quiets are ranked by score bands ([`NOISY_BONUS`],
/// [`KILLER_BONUS`]) in one selection sort, so the order (ties included) is
/// the one every bench signature was measured with. The buffers live with
/// the search thread, one picker per ply, so that no node clears kilobytes
/// of arrays.
#[derive(Default)]
pub struct MovePicker {
    stage: Stage,
    table_move: Option<usize>,
    /// The moves to pick: each the ordering score times 2^16 plus the
    /// move's index (below 2^16), so that one swap moves both; the picked
    /// ones come first.
    order: Vec<i64>,
    /// Moves picked from `order` so far.
    taken: usize,
    /// Per move index: the history key, once computed, and whether the move
    /// is noisy (set when the move is picked or scored).
    keys: Vec<Option<u64>>,
    noisy: Vec<bool>,
    /// Quiet moves searched so far (they lose history on a cutoff).
    quiets: Vec<u16>,
}

impl MovePicker {
    /// Starts a node of `n` moves; `table_move` is the table's move index,
    /// if it is one of them.
    pub fn reset(&mut self, n: usize, table_move: Option<usize>) {
        self.stage = Stage::TableMove;
        self.table_move = table_move.filter(|&i| i < n);
        self.order.clear();
        self.taken = 0;
        self.quiets.clear();
        self.keys.clear();
        self.keys.resize(n, None);
        self.noisy.clear();
        self.noisy.resize(n, false);
    }

    /// The index of the next move to search, `None` when all are done.
    /// `to_move` is the player to move (the history is per player).
    pub fn next<G: Game>(
        &mut self,
        game: &G,
        pos: &G::Position,
        moves: &MoveList<G::Move>,
        history: &History,
        killers: [Option<G::Move>; 2],
        to_move: usize,
    ) -> Option<usize> {
        if self.stage == Stage::TableMove {
            self.stage = Stage::Score;
            if let Some(t) = self.table_move {
                self.noisy[t] = game.is_noisy(pos, moves[t]);
                return Some(t);
            }
        }
        if self.stage == Stage::Score {
            // Every move but the table move, scored for the selection sort.
            self.stage = Stage::Ordered;
            let table_move = self.table_move;
            debug_assert_eq!(self.noisy.len(), moves.len(), "reset with the node's moves");
            let (noisy_of, keys) = (&mut self.noisy[..], &mut self.keys[..]);
            self.order.extend(
                moves
                    .iter()
                    .zip(noisy_of.iter_mut().zip(keys.iter_mut()))
                    .enumerate()
                    .filter(|&(j, _)| Some(j) != table_move)
                    .map(|(j, (&mv, (noisy_slot, key_slot)))| {
                        let noisy = game.is_noisy(pos, mv);
                        *noisy_slot = noisy;
                        let key = game.move_key(pos, mv);
                        *key_slot = Some(key);
                        let mut s = history.get(key, to_move);
                        if noisy {
                            s += NOISY_BONUS;
                        } else if killers[0] == Some(mv) {
                            s += KILLER_BONUS[0];
                        } else if killers[1] == Some(mv) {
                            s += KILLER_BONUS[1];
                        }
                        (s as i64) << 16 | j as i64
                    }),
            );
        }
        // Selection sort step: the best score left, the first on ties.
        let rest = self.order.get_mut(self.taken..).filter(|r| !r.is_empty())?;
        let mut best = rest[0] >> 16;
        let mut bi = 0;
        for (k, &e) in rest.iter().enumerate().skip(1) {
            if e >> 16 > best {
                best = e >> 16;
                bi = k;
            }
        }
        rest.swap(0, bi);
        self.taken += 1;
        Some((rest[0] & 0xffff) as usize)
    }

    /// Whether move `i` (already picked) is noisy.
    #[inline]
    pub fn is_noisy(&self, i: usize) -> bool {
        self.noisy[i]
    }

    /// The history key of move `i` (computed when it was scored, or now).
    pub fn key<G: Game>(
        &self,
        game: &G,
        pos: &G::Position,
        moves: &MoveList<G::Move>,
        i: usize,
    ) -> u64 {
        self.keys[i].unwrap_or_else(|| game.move_key(pos, moves[i]))
    }

    /// Move `i` was searched as a quiet move without a cutoff.
    pub fn searched_quiet(&mut self, i: usize) {
        self.quiets.push(i as u16);
    }

    /// The quiet moves searched without a cutoff, in order.
    pub fn quiets(&self) -> &[u16] {
        &self.quiets
    }
}

/// Divisor of the late move reduction formula ln(depth)·ln(moves)/divisor.
pub const LMR_DIVISOR: f64 = 2.0;

/// [`crate::game::Reductions::Logarithmic`]: plies by which the
/// `searched`-th move (0-based) at `depth` is reduced, before the PV and
/// killer corrections.
#[inline]
pub fn log_reduction(depth: i32, searched: usize) -> i32 {
    static TABLE: once_cell::sync::Lazy<Vec<[u8; 64]>> = once_cell::sync::Lazy::new(|| {
        (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        *r = ((d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as u8;
                    }
                }
                row
            })
            .collect()
    });
    TABLE[(depth.max(0) as usize).min(63)][searched.min(63)] as i32
}

/// [`crate::game::Reductions::Steps`]: plies by which the `searched`-th
/// quiet move (0-based) of a node with `depth` plies left is reduced: none
/// below depth 2 or for the first move (the first three at a PV node),
/// else one ply, and two from the fifth move of a null-window node on.
#[inline]
pub fn step_reduction(depth: i32, searched: usize, pv: bool) -> i32 {
    if depth < 2 || searched < if pv { 3 } else { 1 } {
        0
    } else if !pv && searched >= 4 {
        2
    } else {
        1
    }
}

/// Late move pruning applies this many plies or fewer from the horizon ...
pub const LMP_MAX_DEPTH: i32 = 2;
/// ... and keeps this many moves per ply of depth.
pub const LMP_MOVES_PER_PLY: usize = 4;

/// Late move pruning (for games whose [`crate::game::Game::prunes_late_moves`]
/// is true): at a null-window node at most [`LMP_MAX_DEPTH`] plies from
/// the horizon, in a quiet position (no capture pending, `unstable` false)
/// where the opponent threatens no capture (`threatened`, asked only when
/// the rest holds), only the first `LMP_MOVES_PER_PLY * depth` moves (best
/// first by the move ordering) are searched: the number returned. `None`:
/// every move is searched.
#[inline]
pub fn late_move_limit(
    depth: i32,
    pv: bool,
    unstable: bool,
    threatened: impl FnOnce() -> bool,
) -> Option<usize> {
    (!pv && (1..=LMP_MAX_DEPTH).contains(&depth) && !unstable && !threatened())
        .then(|| LMP_MOVES_PER_PLY * depth as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_stays_bounded() {
        let mut h = History::new();
        for _ in 0..10_000 {
            h.reward(42, 0, 20);
        }
        assert!(h.get(42, 0) <= HISTORY_MAX);
        assert!(h.get(42, 0) > HISTORY_MAX / 2);
        assert_eq!(h.get(42, 1), 0);
    }

    #[test]
    fn killers_keep_two_distinct_moves() {
        let mut k = Killers::new(4);
        k.add(1, 5u32);
        k.add(1, 5u32);
        assert_eq!(k.get(1), [Some(5), None]);
        k.add(1, 6u32);
        assert_eq!(k.get(1), [Some(6), Some(5)]);
    }

    /// The order a picker gives at the international start position (9
    /// quiet moves) with a table move, two killers and some history.
    #[test]
    fn the_picker_gives_the_table_move_then_killers_then_history() {
        use crate::draughts::InternationalGame;
        let g = InternationalGame::default();
        let pos = g.start();
        let mut moves = MoveList::new();
        g.generate(&pos, &mut moves);
        assert_eq!(moves.len(), 9);
        let me = g.to_move(&pos);
        let mut history = History::new();
        history.reward(g.move_key(&pos, moves[5]), me, 4);
        history.reward(g.move_key(&pos, moves[7]), me, 6);
        history.punish(g.move_key(&pos, moves[0]), me, 3);
        let killers = [Some(moves[2]), Some(moves[8])];
        let mut picker = MovePicker::default();
        picker.reset(moves.len(), Some(4));
        let mut order = Vec::new();
        while let Some(i) = picker.next(&g, &pos, &moves, &history, killers, me) {
            assert!(!picker.is_noisy(i));
            order.push(i);
        }
        // Table move, killers, history 36 and 16, the zeros in the order
        // the selection sort leaves them, the punished move last.
        assert_eq!(order, [4, 2, 8, 7, 5, 3, 6, 1, 0]);
        // A table move out of range is ignored.
        picker.reset(moves.len(), Some(99));
        assert_eq!(
            picker.next(&g, &pos, &moves, &History::new(), [None, None], me),
            Some(0)
        );
    }

    #[test]
    fn late_moves_at_depth_are_reduced_more() {
        assert_eq!(log_reduction(1, 10), 0);
        assert!(log_reduction(10, 20) > log_reduction(3, 4));
    }

    #[test]
    fn late_moves_are_pruned_only_near_the_horizon_in_quiet_unthreatened_positions() {
        assert_eq!(late_move_limit(1, false, false, || false), Some(4));
        assert_eq!(late_move_limit(2, false, false, || false), Some(8));
        // Deeper, on the PV, with a capture pending or threatened: all moves.
        assert_eq!(late_move_limit(3, false, false, || false), None);
        assert_eq!(late_move_limit(0, false, false, || false), None);
        assert_eq!(late_move_limit(1, true, false, || false), None);
        assert_eq!(late_move_limit(1, false, true, || false), None);
        assert_eq!(late_move_limit(1, false, false, || true), None);
        // The threat test is not run where it cannot matter.
        assert_eq!(
            late_move_limit(5, false, false, || panic!("asked for nothing")),
            None
        );
    }

    #[test]
    fn step_reductions_are_larger_off_the_pv() {
        // Never below depth 2, never the first move.
        assert_eq!(step_reduction(1, 10, false), 0);
        assert_eq!(step_reduction(8, 0, false), 0);
        // A null-window node: one ply from the second move, two from the fifth.
        assert_eq!(step_reduction(2, 1, false), 1);
        assert_eq!(step_reduction(8, 3, false), 1);
        assert_eq!(step_reduction(8, 4, false), 2);
        // A PV node keeps its first three moves and reduces one ply at most.
        assert_eq!(step_reduction(8, 2, true), 0);
        assert_eq!(step_reduction(8, 3, true), 1);
        assert_eq!(step_reduction(20, 40, true), 1);
    }
}
