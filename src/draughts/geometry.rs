//! Board geometries: which squares exist, where each lives in the bitboard,
//! and the directions a piece can step in.
//!
//! A step in direction `d` is a shift of the bitboard by `DIRS[d].shift`
//! followed by a mask `DIRS[d].mask` of the squares a step can reach (this
//! drops ghost squares of a padded layout and the bits that would wrap round
//! an edge). The diagonal boards use Scan's padded layout: the dark squares
//! in reading order, with one ghost bit after every two rows, so that every
//! diagonal step is the same shift everywhere on the board and falls on a
//! ghost bit (or off the word) when it leaves the board.

use super::bitboard::Bitboard;
use std::fmt::Debug;

/// One direction of movement: a shift and the squares it can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction<B> {
    pub shift: i32,
    pub mask: B,
}

/// A board: its squares, its bit layout and its directions.
///
/// Squares have an *internal index* `0..SQUARES`: reading order of the
/// diagram with White at the bottom (top row first, left to right). The
/// variants' square numbers (notation.md) are computed from it.
pub trait Geometry: Copy + Send + Sync + Debug + Default + 'static {
    /// The bitboard type.
    type BB: Bitboard;
    /// The number of squares in play.
    const SQUARES: usize;
    /// The bit of each square, by internal index.
    const SQUARE_BIT: &'static [u8];
    /// All squares in play.
    const BOARD: Self::BB;
    /// The directions. `d` and `d ^ 1` are opposite directions.
    const DIRS: &'static [Direction<Self::BB>];
    /// The directions in which each player's men step (player 0 = White,
    /// moving up the diagram; 1 = Black, moving down).
    const MAN_STEPS: [&'static [usize]; 2];
    /// The row on which each player's men are crowned (the far row).
    const PROMOTION: [Self::BB; 2];
    /// Files and ranks of the diagram, for algebraic square names.
    const FILES: u8;
    const RANKS: u8;
    /// (file, rank) of a square by internal index; file 0 is `a`, rank 0 is
    /// the bottom row (rank 1). Only boards with algebraic names need it.
    fn coords(sq: usize) -> (u8, u8);

    /// One step of every square of `b` in direction `d`.
    #[inline(always)]
    fn step(b: Self::BB, d: usize) -> Self::BB {
        let dir = &Self::DIRS[d];
        b.shift(dir.shift) & dir.mask
    }

    /// The squares from bit `bit` (exclusive) to the edge of the board in
    /// direction `d`. The default steps; a geometry may use a table.
    #[inline(always)]
    fn ray(bit: u32, d: usize) -> Self::BB {
        let mut out = Self::BB::ZERO;
        let mut b = Self::step(Self::BB::bit(bit), d);
        while b.any() {
            out |= b;
            b = Self::step(b, d);
        }
        out
    }

    /// The internal index of the square at bit `bit`, if it is one.
    fn square_of_bit(bit: u32) -> Option<usize> {
        Self::SQUARE_BIT.iter().position(|&b| b as u32 == bit)
    }

    /// The bit of the square with internal index `sq`.
    #[inline(always)]
    fn bit_of(sq: usize) -> Self::BB {
        Self::BB::bit(Self::SQUARE_BIT[sq] as u32)
    }
}

/// Bit of internal square `i` in Scan's padded layout of a diagonal board
/// with `per_row` dark squares a row: one ghost bit per two rows.
const fn diag_bit(i: usize, per_row: usize) -> u8 {
    (i + i / (2 * per_row)) as u8
}

const fn diag_bits<const N: usize>(per_row: usize) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = diag_bit(i, per_row);
        i += 1;
    }
    out
}

const fn diag_mask(from: usize, to: usize, per_row: usize) -> u64 {
    let mut m = 0u64;
    let mut i = from;
    while i < to {
        m |= 1u64 << diag_bit(i, per_row);
        i += 1;
    }
    m
}

/// The rays of a padded diagonal board: `[d][bit]` = the squares from
/// `bit` (exclusive) to the edge in direction `d` (directions as in
/// `DIRS`: up-left, down-right, up-right, down-left).
const fn diag_rays(per_row: usize) -> [[u64; 64]; 4] {
    let n = 2 * per_row * per_row;
    let board = diag_mask(0, n, per_row);
    let p = per_row as i32;
    let shifts = [-(p + 1), p + 1, -p, p];
    let mut out = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut bit = 0;
        while bit < 64 {
            if board & (1u64 << bit) != 0 {
                let mut ray = 0u64;
                let mut cur = bit as i32 + shifts[d];
                while cur >= 0 && cur < 64 && board & (1u64 << cur) != 0 {
                    ray |= 1u64 << cur;
                    cur += shifts[d];
                }
                out[d][bit] = ray;
            }
            bit += 1;
        }
        d += 1;
    }
    out
}

/// (file, rank) of internal square `i` of a diagonal board whose top-left
/// corner is light (square 1 is b8 / b10).
fn diag_coords(i: usize, per_row: usize) -> (u8, u8) {
    let rows = 2 * per_row;
    let r = i / per_row;
    let k = i % per_row;
    let col = if r.is_multiple_of(2) {
        2 * k + 1
    } else {
        2 * k
    };
    (col as u8, (rows - 1 - r) as u8)
}

/// Direction indices of the diagonal boards.
pub const UP_LEFT: usize = 0;
pub const DOWN_RIGHT: usize = 1;
pub const UP_RIGHT: usize = 2;
pub const DOWN_LEFT: usize = 3;

macro_rules! diagonal_geometry {
    ($(#[$m:meta])* $name:ident, $per_row:expr) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl $name {
            const N: usize = 2 * $per_row * $per_row;
            const BITS_TABLE: [u8; 2 * $per_row * $per_row] = diag_bits($per_row);
            const MASK: u64 = diag_mask(0, Self::N, $per_row);
            const RAYS: [[u64; 64]; 4] = diag_rays($per_row);
        }

        impl Geometry for $name {
            type BB = u64;
            const SQUARES: usize = Self::N;
            const SQUARE_BIT: &'static [u8] = &Self::BITS_TABLE;
            const BOARD: u64 = Self::MASK;
            const DIRS: &'static [Direction<u64>] = &[
                Direction { shift: -($per_row + 1), mask: Self::MASK },
                Direction { shift: $per_row + 1, mask: Self::MASK },
                Direction { shift: -$per_row, mask: Self::MASK },
                Direction { shift: $per_row, mask: Self::MASK },
            ];
            const MAN_STEPS: [&'static [usize]; 2] = [&[UP_LEFT, UP_RIGHT], &[DOWN_RIGHT, DOWN_LEFT]];
            const PROMOTION: [u64; 2] = [
                diag_mask(0, $per_row, $per_row),
                diag_mask(Self::N - $per_row, Self::N, $per_row),
            ];
            const FILES: u8 = 2 * $per_row;
            const RANKS: u8 = 2 * $per_row;
            fn coords(sq: usize) -> (u8, u8) {
                diag_coords(sq, $per_row)
            }
            #[inline(always)]
            fn ray(bit: u32, d: usize) -> u64 {
                static RAYS: [[u64; 64]; 4] = $name::RAYS;
                RAYS[d & 3][(bit & 63) as usize]
            }
        }
    };
}

diagonal_geometry!(
    /// The 10x10 board of international draughts: 50 dark squares in 54
    /// bits (Scan's layout); steps are shifts by 5 and 6.
    Diagonal10,
    5
);
diagonal_geometry!(
    /// The 8x8 board of brazilian, english and spanish draughts: 32 dark
    /// squares in 35 bits; steps are shifts by 4 and 5.
    Diagonal8,
    4
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every diagonal step computed by shifting agrees with the step computed
    /// on (file, rank) coordinates, and leaving the board gives nothing.
    fn steps_match_coordinates<G: Geometry<BB = u64>>() {
        let deltas: [(i32, i32); 4] = [(-1, 1), (1, -1), (1, 1), (-1, -1)];
        for sq in 0..G::SQUARES {
            let (f, r) = G::coords(sq);
            for (d, &(df, dr)) in deltas.iter().enumerate() {
                let (nf, nr) = (f as i32 + df, r as i32 + dr);
                let target = (0..G::SQUARES).find(|&t| G::coords(t) == (nf as u8, nr as u8));
                let on_board = nf >= 0 && nr >= 0 && nf < G::FILES as i32 && nr < G::RANKS as i32;
                let got = G::step(G::bit_of(sq), d);
                match target.filter(|_| on_board) {
                    Some(t) => assert_eq!(got, G::bit_of(t), "square {sq} dir {d}"),
                    None => assert_eq!(got, 0, "square {sq} dir {d} leaves the board"),
                }
            }
        }
    }

    #[test]
    fn diagonal_steps_match_coordinates() {
        steps_match_coordinates::<Diagonal10>();
        steps_match_coordinates::<Diagonal8>();
    }

    /// The ray tables agree with stepping.
    fn rays_match_steps<G: Geometry<BB = u64>>() {
        for sq in 0..G::SQUARES {
            let bit = G::SQUARE_BIT[sq] as u32;
            for d in 0..4 {
                let mut want = 0u64;
                let mut b = G::step(1u64 << bit, d);
                while b != 0 {
                    want |= b;
                    b = G::step(b, d);
                }
                assert_eq!(G::ray(bit, d), want, "square {sq} dir {d}");
            }
        }
    }

    #[test]
    fn diagonal_rays_match_steps() {
        rays_match_steps::<Diagonal10>();
        rays_match_steps::<Diagonal8>();
    }

    #[test]
    fn square_one_is_b10_and_fifty_is_i1() {
        assert_eq!(Diagonal10::coords(0), (1, 9));
        assert_eq!(Diagonal10::coords(45), (0, 0));
        assert_eq!(Diagonal10::coords(49), (8, 0));
        assert_eq!(Diagonal8::coords(28), (0, 0));
    }
}
