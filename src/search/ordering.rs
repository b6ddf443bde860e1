//! Move ordering: killer moves per ply, the history table, and the late
//! move reduction table.

/// History scores stay within ±this (gravity towards 0 keeps them fresh).
pub const HISTORY_MAX: i32 = 1 << 14;
/// Log2 of the history table size (per player).
const HISTORY_BITS: u32 = 14;

/// Two quiet moves per ply that caused a cutoff.
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

/// Divisor of the late move reduction formula ln(depth)·ln(moves)/divisor.
pub const LMR_DIVISOR: f64 = 2.0;

/// Plies by which the `searched`-th move (0-based) at `depth` is reduced.
#[inline]
pub fn lmr_reduction(depth: i32, searched: usize) -> i32 {
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

    #[test]
    fn late_moves_at_depth_are_reduced_more() {
        assert_eq!(lmr_reduction(1, 10), 0);
        assert!(lmr_reduction(10, 20) > lmr_reduction(3, 4));
    }
}
