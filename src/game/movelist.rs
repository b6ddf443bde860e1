//! A move list on the stack: no allocation in move generation. A position
//! with more than [`MAX_MOVES`] moves (no legal game position of the
//! diagonal variants comes near; a hand-made chinese checkers position with
//! three sets a player can) moves the list to the heap instead of failing.

use super::MAX_MOVES;
use std::mem::MaybeUninit;

/// Up to [`MAX_MOVES`] moves stored inline, any number on the heap.
pub struct MoveList<M: Copy> {
    /// The number of moves stored inline (0 once they moved to `spill`).
    len: usize,
    items: [MaybeUninit<M>; MAX_MOVES],
    /// All the moves, once more than [`MAX_MOVES`] were pushed; empty (and
    /// unallocated) until then.
    spill: Vec<M>,
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> MoveList<M> {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; MAX_MOVES],
            spill: Vec::new(),
        }
    }

    /// Appends a move; past [`MAX_MOVES`] the list moves to the heap.
    #[inline]
    pub fn push(&mut self, m: M) {
        if self.spill.is_empty() {
            if self.len < MAX_MOVES {
                self.items[self.len] = MaybeUninit::new(m);
                self.len += 1;
                return;
            }
            self.spill_to_heap();
        }
        self.spill.push(m);
    }

    #[cold]
    fn spill_to_heap(&mut self) {
        let mut spill = Vec::with_capacity(2 * MAX_MOVES);
        spill.extend_from_slice(self.as_slice());
        self.len = 0;
        self.spill = spill;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len + self.spill.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    /// Shortens the list to `len` moves.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
        }
        self.spill.truncate(len);
    }

    #[inline]
    pub fn as_slice(&self) -> &[M] {
        if !self.spill.is_empty() {
            return &self.spill;
        }
        // SAFETY: `len <= MAX_MOVES` (checked by `push`) and the first `len`
        // items were written by `push` (`truncate` and `clear` only lower
        // `len`); `MaybeUninit<M>` has the layout of `M`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const M, self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        if !self.spill.is_empty() {
            return &mut self.spill;
        }
        // SAFETY: as in `as_slice`; `&mut self` makes the slice unique.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut M, self.len) }
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    /// Removes the move at `i`, replacing it with the last one.
    #[inline]
    pub fn swap_remove(&mut self, i: usize) -> M {
        if !self.spill.is_empty() {
            return self.spill.swap_remove(i);
        }
        let slice = self.as_mut_slice();
        let m = slice[i];
        let last = slice.len() - 1;
        slice.swap(i, last);
        self.len -= 1;
        m
    }
}

impl<M: Copy> std::ops::Deref for MoveList<M> {
    type Target = [M];
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy> std::ops::DerefMut for MoveList<M> {
    fn deref_mut(&mut self) -> &mut [M] {
        self.as_mut_slice()
    }
}

impl<'a, M: Copy> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_len_and_swap_remove() {
        let mut l: MoveList<u32> = MoveList::new();
        assert!(l.is_empty());
        for i in 0..10 {
            l.push(i);
        }
        assert_eq!(l.len(), 10);
        assert_eq!(l.swap_remove(2), 2);
        assert_eq!(l.len(), 9);
        assert_eq!(l[2], 9);
        l.truncate(3);
        assert_eq!(l.as_slice(), &[0, 1, 9]);
    }

    #[test]
    fn more_than_max_moves_move_to_the_heap_and_keep_their_order() {
        let n = 3 * MAX_MOVES as u32 + 7;
        let mut l: MoveList<u32> = MoveList::new();
        for i in 0..n {
            l.push(i);
        }
        assert_eq!(l.len(), n as usize);
        assert!(l.iter().copied().eq(0..n));
        assert_eq!(l.swap_remove(0), 0);
        assert_eq!(l[0], n - 1);
        assert_eq!(l.len(), n as usize - 1);
        l.truncate(MAX_MOVES + 1);
        assert_eq!(l.len(), MAX_MOVES + 1);
        l.truncate(2);
        assert_eq!(l.as_slice(), &[n - 1, 1]);
        l.clear();
        assert!(l.is_empty());
        // Back to the inline storage.
        l.push(5);
        assert_eq!(l.as_slice(), &[5]);
    }
}
