//! Bitboards: one bit per square (or per ghost square of a padded layout).
//! The generic move generator works over this trait; `u64` serves the 10x10
//! and 8x8 boards, `u128` the 91-cell hexagonal board.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares as a machine word.
pub trait Bitboard:
    Copy
    + Eq
    + Default
    + Debug
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The number of bits of the word.
    const BITS: u32;

    /// The set holding only bit `i` (`i < BITS`).
    fn bit(i: u32) -> Self;
    /// Shifts towards higher bits by `s` (`s > 0`) or towards lower bits
    /// (`s < 0`); bits shifted out are lost. With a constant `s` the branch
    /// folds away.
    fn shift(self, s: i32) -> Self;
    /// The number of bits set.
    fn count(self) -> u32;
    /// The index of the lowest set bit (`BITS` when empty).
    fn lowest(self) -> u32;
    /// The index of the highest set bit (meaningless when empty).
    fn highest(self) -> u32;
    /// The set without its lowest bit.
    fn clear_lowest(self) -> Self;
    /// The 64 bits from bit `shift` up, as a `u64` (`shift < BITS`); the
    /// pattern evaluation gathers its windows' squares with it.
    fn bits_from(self, shift: u32) -> u64;

    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        (self & Self::bit(i)).any()
    }
    /// Iterates over the indices of the set bits, lowest first.
    #[inline(always)]
    fn iter(self) -> Bits<Self> {
        Bits(self)
    }
}

/// The indices of the bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits<B>(pub B);

impl<B: Bitboard> Iterator for Bits<B> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let i = self.0.lowest();
            self.0 = self.0.clear_lowest();
            Some(i)
        }
    }
}

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(i: u32) -> Self {
                (1 as $t) << i
            }
            #[inline(always)]
            fn shift(self, s: i32) -> Self {
                if s >= 0 { self << s } else { self >> (-s) }
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn bits_from(self, shift: u32) -> u64 {
                (self >> shift) as u64
            }
        }
    };
}

impl_bitboard!(u64);
impl_bitboard!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn check<B: Bitboard>() {
        let b = B::bit(3) | B::bit(B::BITS - 1);
        assert_eq!(b.count(), 2);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, B::BITS - 1]);
        assert_eq!(B::bit(3).shift(2), B::bit(5));
        assert_eq!(B::bit(3).shift(-3), B::bit(0));
        assert!(B::bit(3).shift(-4).is_empty());
        assert!(B::bit(B::BITS - 1).shift(1).is_empty());
        assert_eq!(B::ZERO.lowest(), B::BITS);
        assert_eq!(b.highest(), B::BITS - 1);
        assert_eq!(B::bit(3).highest(), 3);
    }

    #[test]
    fn bitboard_operations_on_u64_and_u128() {
        check::<u64>();
        check::<u128>();
    }
}
