//! The perfect index of a material configuration: a bijection between the
//! positions of one slice (one side to move) and `0..count`.
//!
//! Squares are the internal square indices of the [`Geometry`] (reading
//! order, at most 128), held as `u128` sets. A slice's position is four
//! sets: white men, white kings, black men, black kings. The rank is built
//! from combinatorial (colex) ranks:
//!
//! 1. the white men among the squares a white man can stand on (not White's
//!    promotion row);
//! 2. the black men among the squares a black man can stand on that no white
//!    man holds (their number depends on the white men, so a table of
//!    offsets by white-men rank keeps the index dense);
//! 3. the white kings among the squares no man holds;
//! 4. the black kings among the squares still empty.
//!
//! Every index stands for exactly one position and back: no holes.

use super::Material;
use crate::draughts::{Bb, Bitboard, Geometry, Position, Rules};
use once_cell::sync::Lazy;

/// The most pieces a slice may hold (the binomial table's `k`).
pub const MAX_PIECES: usize = 8;

/// `BINOMIAL[n][k]` = C(n, k) for n <= 128, k <= MAX_PIECES.
static BINOMIAL: Lazy<Vec<[u64; MAX_PIECES + 1]>> = Lazy::new(|| {
    let mut t = vec![[0u64; MAX_PIECES + 1]; 129];
    for n in 0..=128 {
        t[n][0] = 1;
        for k in 1..=MAX_PIECES {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
        }
    }
    t
});

/// C(n, k).
#[inline]
pub fn binomial(n: u32, k: u32) -> u64 {
    if k as usize > MAX_PIECES || n > 128 {
        return 0;
    }
    BINOMIAL[n as usize][k as usize]
}

/// The squares of `avail` below `sq`.
#[inline]
fn below(avail: u128, sq: u32) -> u32 {
    (avail & ((1u128 << sq) - 1)).count_ones()
}

/// The `p`-th (from 0) square of `avail`.
#[inline]
fn select(mut avail: u128, p: u32) -> u32 {
    for _ in 0..p {
        avail &= avail - 1;
    }
    avail.trailing_zeros()
}

/// The colex rank of the squares `set` (a subset of `avail`) among the
/// subsets of `avail` of the same size.
#[inline]
pub fn rank_subset(set: u128, avail: u128) -> u64 {
    let mut r = 0;
    let mut s = set;
    let mut i = 1;
    while s != 0 {
        let sq = s.trailing_zeros();
        r += binomial(below(avail, sq), i);
        s &= s - 1;
        i += 1;
    }
    r
}

/// The subset of `avail` with `k` squares and colex rank `r`.
#[inline]
pub fn unrank_subset(mut r: u64, k: u32, avail: u128) -> u128 {
    let mut set = 0u128;
    let mut p = avail.count_ones();
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r.
        p -= 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        r -= binomial(p, i);
        set |= 1u128 << select(avail, p);
    }
    set
}

/// A board as the index sees it: squares, the squares men may stand on, and
/// the map between bitboard bits and squares.
#[derive(Clone, Debug)]
pub struct Board {
    /// All squares (`SQUARES` low bits).
    pub all: u128,
    /// The squares White's (0) and Black's (1) men may stand on.
    pub man_squares: [u128; 2],
    /// Square of each bitboard bit (255 for a ghost bit).
    pub bit_square: [u8; 256],
    /// Bitboard bit of each square.
    pub square_bit: Vec<u8>,
}

impl Board {
    /// The board of rule set `R`.
    pub fn of<R: Rules>() -> Board {
        let n = R::Geo::SQUARES;
        assert!(n <= 128, "the index handles boards of at most 128 squares");
        let mut bit_square = [255u8; 256];
        let mut square_bit = Vec::with_capacity(n);
        let mut man_squares = [0u128; 2];
        for sq in 0..n {
            let bit = R::Geo::SQUARE_BIT[sq];
            bit_square[bit as usize] = sq as u8;
            square_bit.push(bit);
            for (side, m) in man_squares.iter_mut().enumerate() {
                if !R::Geo::PROMOTION[side].has(bit as u32) {
                    *m |= 1u128 << sq;
                }
            }
        }
        let all = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        Board {
            all,
            man_squares,
            bit_square,
            square_bit,
        }
    }

    /// The squares of the bits of `b`.
    #[inline]
    pub fn squares<B: Bitboard>(&self, b: B) -> u128 {
        let mut s = 0u128;
        for bit in b.iter() {
            s |= 1u128 << self.bit_square[(bit & 255) as usize];
        }
        s
    }

    /// The bitboard of the squares of `s`.
    #[inline]
    pub fn bits<B: Bitboard>(&self, mut s: u128) -> B {
        let mut b = B::ZERO;
        while s != 0 {
            b |= B::bit(self.square_bit[s.trailing_zeros() as usize] as u32);
            s &= s - 1;
        }
        b
    }

    /// White men, white kings, black men, black kings of a position.
    #[inline]
    pub fn split<R: Rules>(&self, pos: &Position<Bb<R>>) -> [u128; 4] {
        let k = pos.kings;
        [
            self.squares(pos.pieces[0] & !k),
            self.squares(pos.pieces[0] & k),
            self.squares(pos.pieces[1] & !k),
            self.squares(pos.pieces[1] & k),
        ]
    }

    /// The position with these four sets and `side` to move.
    pub fn join<R: Rules>(&self, sets: [u128; 4], side: u8) -> Position<Bb<R>> {
        let w: Bb<R> = self.bits(sets[0] | sets[1]);
        let b: Bb<R> = self.bits(sets[2] | sets[3]);
        let k: Bb<R> = self.bits(sets[1] | sets[3]);
        Position::new(w, b, k, side)
    }
}

/// The index of one material configuration (one side to move; the slice
/// file stores White to move, then Black to move).
#[derive(Clone, Debug)]
pub struct Indexer {
    pub material: Material,
    all: u128,
    man_squares: [u128; 2],
    /// `offsets[r]`: the first men index of white-men rank `r`; the last
    /// entry is the number of men placements.
    offsets: Vec<u64>,
    /// Placements of the kings for any placement of the men.
    kings: u64,
    /// Ways to place the black kings once the white kings stand.
    black_kings: u64,
    /// Positions of one side to move.
    pub count: u64,
}

impl Indexer {
    pub fn new(board: &Board, m: Material) -> Indexer {
        let [wm, wk, bm, bk] = m.counts();
        let white_ways = binomial(board.man_squares[0].count_ones(), wm);
        let mut offsets = Vec::with_capacity(white_ways as usize + 1);
        let mut acc = 0u64;
        for r in 0..white_ways {
            offsets.push(acc);
            let wmen = unrank_subset(r, wm, board.man_squares[0]);
            acc += binomial((board.man_squares[1] & !wmen).count_ones(), bm);
        }
        offsets.push(acc);
        let empty = board.all.count_ones() - wm - bm;
        let black_kings = binomial(empty - wk, bk);
        let kings = binomial(empty, wk) * black_kings;
        Indexer {
            material: m,
            all: board.all,
            man_squares: board.man_squares,
            offsets,
            kings,
            black_kings,
            count: acc * kings,
        }
    }

    /// The index of the four sets (which must have this material, with men
    /// on squares they may stand on).
    #[inline]
    pub fn index(&self, s: [u128; 4]) -> u64 {
        let rw = rank_subset(s[0], self.man_squares[0]);
        let rb = rank_subset(s[2], self.man_squares[1] & !s[0]);
        let empty = self.all & !(s[0] | s[2]);
        let rwk = rank_subset(s[1], empty);
        let rbk = rank_subset(s[3], empty & !s[1]);
        (self.offsets[rw as usize] + rb) * self.kings + rwk * self.black_kings + rbk
    }

    /// The four sets of index `i < count`.
    pub fn unindex(&self, i: u64) -> [u128; 4] {
        let [wm, wk, bm, bk] = self.material.counts();
        let men = i / self.kings;
        let k = i % self.kings;
        let rw = self.offsets.partition_point(|&o| o <= men) - 1;
        let rb = men - self.offsets[rw];
        let wmen = unrank_subset(rw as u64, wm, self.man_squares[0]);
        let bmen = unrank_subset(rb, bm, self.man_squares[1] & !wmen);
        let empty = self.all & !(wmen | bmen);
        let wkings = unrank_subset(k / self.black_kings, wk, empty);
        let bkings = unrank_subset(k % self.black_kings, bk, empty & !wkings);
        [wmen, wkings, bmen, bkings]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{English, Hex, International, Turkish};

    fn round_trip<R: Rules>(m: Material) {
        let board = Board::of::<R>();
        let ix = Indexer::new(&board, m);
        let step = (ix.count / 20_000).max(1);
        let mut i = 0;
        while i < ix.count {
            let s = ix.unindex(i);
            assert_eq!(ix.index(s), i, "{m:?} index {i}");
            let pos = board.join::<R>(s, 0);
            assert_eq!(board.split::<R>(&pos), s);
            i += step;
        }
    }

    #[test]
    fn index_round_trips_on_every_board() {
        for m in ["1111", "2011", "0202", "1010", "0301", "3001"] {
            let m: Material = m.parse().unwrap();
            round_trip::<International>(m);
            round_trip::<English>(m);
            round_trip::<Turkish>(m);
            round_trip::<Hex>(m);
        }
    }

    #[test]
    fn counts_match_direct_formulas() {
        let board = Board::of::<English>();
        // Kings only: 32 * 31 (the published 1 king v 1 king count, 992).
        assert_eq!(Indexer::new(&board, "0101".parse().unwrap()).count, 992);
        assert_eq!(Indexer::new(&board, "0201".parse().unwrap()).count, 14_880);
        // One man each: 28 * 28 minus the 24 squares both can stand on.
        assert_eq!(
            Indexer::new(&board, "1010".parse().unwrap()).count,
            28 * 28 - 24
        );
    }
}
