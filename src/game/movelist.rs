//! A fixed-capacity move list on the stack: no allocation in move generation.

use super::MAX_MOVES;
use std::mem::MaybeUninit;

/// Up to [`MAX_MOVES`] moves, stored inline.
pub struct MoveList<M: Copy> {
    len: usize,
    items: [MaybeUninit<M>; MAX_MOVES],
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
        }
    }

    /// Appends a move. Panics if the list is full: `MAX_MOVES` is chosen
    /// above the most moves any legal position of any game can have.
    #[inline]
    pub fn push(&mut self, m: M) {
        assert!(self.len < MAX_MOVES, "move list overflow");
        self.items[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Shortens the list to `len` moves.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: `len <= MAX_MOVES` (checked by `push`) and the first `len`
        // items were written by `push` (`truncate` and `clear` only lower
        // `len`); `MaybeUninit<M>` has the layout of `M`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const M, self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
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
}
