//! The windows of the pattern evaluation ([`super::pattern`]): which
//! squares each window covers, how a window's men become a table index,
//! the window pairs, and the layout of one rule set's weight vector. Only
//! geometry and rules: below the hand evaluation (whose tables hold a
//! layout), the weights files and the pattern evaluation.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::position::{Bb, Position};
use super::rules::Rules;

/// Weights are in 1/SCALE centi-men.
pub const SCALE: i32 = 8;

/// The most squares of one window (3^8 = 6561 entries).
pub const MAX_SQUARES: usize = 8;

/// A run of consecutive bits of a window: `(b >> shift) & mask`, placed at
/// `dest` of the gathered number.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    shift: u32,
    mask: u64,
    dest: u32,
}

/// One window, with its gathering runs and base-3 tables for each colour.
#[derive(Clone, Debug)]
pub struct Window {
    /// The internal squares, White's view (digit `i` is square `squares[i]`).
    pub squares: Vec<usize>,
    runs: [[Run; MAX_SQUARES]; 2],
    nruns: [usize; 2],
    /// The same squares as masks of the low and high 64 bits, per colour,
    /// for the processor's bit-gather instruction (`pext`), and the
    /// number of squares in the low word.
    pext: [[u64; 2]; 2],
    pext_low: [u32; 2],
    /// Gathered bits -> base-3 index with digit 1 on each set bit.
    b3: [Vec<u16>; 2],
    /// The window's first entry in the pattern weights.
    pub offset: usize,
    /// 3^k.
    pub size: usize,
}

impl Window {
    fn new<G: Geometry>(squares: Vec<usize>, offset: usize) -> Self {
        let k = squares.len();
        let mut runs = [[Run::default(); MAX_SQUARES]; 2];
        let mut nruns = [0; 2];
        let mut b3 = [vec![0u16; 1 << k], vec![0u16; 1 << k]];
        let mut pext = [[0u64; 2]; 2];
        let mut pext_low = [0u32; 2];
        for c in 0..2 {
            // (bit, digit) in bit order.
            let mut bits: Vec<(u32, usize)> = squares
                .iter()
                .enumerate()
                .map(|(digit, &sq)| {
                    let s = if c == 0 { sq } else { G::SQUARES - 1 - sq };
                    (G::SQUARE_BIT[s] as u32, digit)
                })
                .collect();
            bits.sort_unstable();
            for &(b, _) in &bits {
                pext[c][(b / 64) as usize] |= 1u64 << (b % 64);
            }
            pext_low[c] = pext[c][0].count_ones();
            let mut j = 0;
            while j < k {
                let mut len = 1;
                while j + len < k && bits[j + len].0 == bits[j].0 + len as u32 {
                    len += 1;
                }
                runs[c][nruns[c]] = Run {
                    shift: bits[j].0,
                    mask: (1u64 << len) - 1,
                    dest: j as u32,
                };
                nruns[c] += 1;
                j += len;
            }
            for (g, v) in b3[c].iter_mut().enumerate() {
                *v = (0..k)
                    .filter(|&j| g & (1 << j) != 0)
                    .map(|j| 3u16.pow(bits[j].1 as u32))
                    .sum();
            }
        }
        Window {
            size: 3usize.pow(k as u32),
            squares,
            runs,
            nruns,
            pext,
            pext_low,
            b3,
            offset,
        }
    }

    #[inline(always)]
    pub(super) fn gather<B: Bitboard>(&self, c: usize, b: B) -> usize {
        let mut g = 0u64;
        for r in &self.runs[c][..self.nruns[c]] {
            g |= (b.bits_from(r.shift) & r.mask) << r.dest;
        }
        g as usize
    }

    /// [`Window::gather`] with the `pext` instruction.
    ///
    /// # Safety
    /// The processor must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn gather_pext<B: Bitboard>(&self, c: usize, b: B) -> usize {
        use std::arch::x86_64::_pext_u64;
        let m = &self.pext[c];
        // SAFETY: the caller guarantees BMI2.
        let mut g = unsafe { _pext_u64(b.bits_from(0), m[0]) };
        if B::BITS > 64 {
            // SAFETY: as above.
            g |= unsafe { _pext_u64(b.bits_from(64), m[1]) } << self.pext_low[c];
        }
        g as usize
    }

    /// [`Window::index`] with the `pext` instruction.
    ///
    /// # Safety
    /// The processor must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub unsafe fn index_pext<B: Bitboard>(&self, c: usize, own: B, opp: B) -> usize {
        let t = &self.b3[c];
        // SAFETY: the caller guarantees BMI2.
        unsafe { t[self.gather_pext(c, own)] as usize + 2 * t[self.gather_pext(c, opp)] as usize }
    }

    /// The entry of colour `c`'s men `own` against the opponent's `opp`.
    #[inline(always)]
    pub fn index<B: Bitboard>(&self, c: usize, own: B, opp: B) -> usize {
        let t = &self.b3[c];
        t[self.gather(c, own)] as usize + 2 * t[self.gather(c, opp)] as usize
    }
}

/// Two windows that read the same squares: a White window and the Black
/// window turned half a turn onto it (the windows of the diagonal and
/// turkish boards are placed symmetrically, so every window there has
/// such a partner; on the hex board 16 of 45 have one). One gather of each
/// player's men over the shared mask gives both windows' indices:
/// `table[g]` holds the White window's base-3 value of the gathered bits
/// `g` in its low 16 bits and the Black window's in its high 16 bits, so
/// with `x = table[white men]` and `y = table[black men]`, `x + 2y` has
/// White's index (own men digit 1, opponent's 2) in its low half and
/// `2x + y` has Black's in its high half (3^8 - 1 < 2^16: no carry).
#[derive(Clone, Debug)]
pub struct Pair {
    /// The shared mask: low and high 64 bits, squares in the low word.
    pext: [u64; 2],
    pext_low: u32,
    /// The same mask as runs of consecutive bits (portable gather).
    runs: [Run; MAX_SQUARES],
    nruns: usize,
    /// Gathered bits -> the two windows' base-3 values (low, high half).
    pub(super) table: [u32; 256],
    /// First weight (`2 * offset`) of the White and the Black window.
    pub(super) white: usize,
    pub(super) black: usize,
    /// First entry (`offset`) of the White and the Black window.
    pub(super) white_entry: usize,
    pub(super) black_entry: usize,
}

impl Pair {
    #[inline(always)]
    pub(super) fn gather<B: Bitboard>(&self, b: B) -> usize {
        let mut g = 0u64;
        for r in &self.runs[..self.nruns] {
            g |= (b.bits_from(r.shift) & r.mask) << r.dest;
        }
        g as usize
    }

    /// # Safety
    /// The processor must have BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn gather_pext<B: Bitboard>(&self, b: B) -> usize {
        use std::arch::x86_64::_pext_u64;
        // SAFETY: the caller guarantees BMI2.
        let mut g = unsafe { _pext_u64(b.bits_from(0), self.pext[0]) };
        if B::BITS > 64 {
            // SAFETY: as above.
            g |= unsafe { _pext_u64(b.bits_from(64), self.pext[1]) } << self.pext_low;
        }
        g as usize
    }
}

/// Pairs every White window with the Black window on the same squares;
/// returns the pairs and the (window, colour) left over (none on the
/// diagonal and turkish boards; evaluated one by one).
fn pair_windows(windows: &[Window]) -> (Vec<Pair>, Vec<(usize, usize)>) {
    let mut pairs = Vec::new();
    let mut black_used = vec![false; windows.len()];
    let mut single = Vec::new();
    for (i, w) in windows.iter().enumerate() {
        let partner =
            (0..windows.len()).find(|&j| !black_used[j] && windows[j].pext[1] == w.pext[0]);
        let Some(j) = partner else {
            single.push((i, 0));
            continue;
        };
        black_used[j] = true;
        let b = &windows[j];
        let mut t = [0u32; 256];
        for (g, v) in t.iter_mut().enumerate().take(w.b3[0].len()) {
            *v = w.b3[0][g] as u32 | (b.b3[1][g] as u32) << 16;
        }
        pairs.push(Pair {
            pext: w.pext[0],
            pext_low: w.pext_low[0],
            runs: w.runs[0],
            nruns: w.nruns[0],
            table: t,
            white: 2 * w.offset,
            black: 2 * b.offset,
            white_entry: w.offset,
            black_entry: b.offset,
        });
    }
    for (j, used) in black_used.iter().enumerate() {
        if !used {
            single.push((j, 1));
        }
    }
    (pairs, single)
}

/// The features of one rule set: its windows and the sizes of the weight
/// vector.
#[derive(Clone, Debug)]
pub struct Layout {
    pub windows: Vec<Window>,
    /// The windows paired for the evaluation ([`Pair`]) and the
    /// (window, colour) without a partner.
    pub pairs: Vec<Pair>,
    pub single: Vec<(usize, usize)>,
    /// Pattern entries (the sum of 3^k).
    pub entries: usize,
    /// Pieces at the start: the phase runs from this (opening) to 0.
    pub phase_max: i32,
    /// A hash of the windows and features: a weights file must carry it.
    pub id: u64,
    /// The hand features of the evaluation ([`super::eval::NF`]), which have
    /// weights in the same vector.
    pub features: usize,
    /// `phase_max * SCALE`, the divisor of the blended sum, and its
    /// reciprocal for [`divide`].
    pub(super) divisor: i64,
    pub(super) reciprocal: u128,
}

/// Bits of the fixed-point reciprocal in [`divide`].
const RECIPROCAL_SHIFT: u32 = 60;
/// [`divide`] is exact for dividends below this (and divisors up to 2^12).
const DIVIDEND_LIMIT: u64 = 1 << 48;

/// `x / d` rounded towards zero, as Rust's `/`, by a multiplication with
/// `r = ceil(2^60 / d)`: for `|x| < 2^48` and `d <= 2^12`,
/// `floor(|x| r / 2^60) = floor(|x| / d)` (the error `|x| (r - 2^60/d)
/// / 2^60 < 2^48 / 2^60` is smaller than the `1/d >= 2^-12` that separates
/// `|x|/d` from the next integer). A division instruction is some
/// twenty cycles; this is a few.
#[inline(always)]
pub(super) fn divide(x: i64, d: i64, r: u128) -> i64 {
    let a = x.unsigned_abs();
    if a >= DIVIDEND_LIMIT {
        return x / d;
    }
    let q = ((a as u128 * r) >> RECIPROCAL_SHIFT) as i64;
    if x < 0 { -q } else { q }
}

/// The windows of a geometry: blocks of `w` files by `h` ranks at steps
/// of half a block, the last one flush with the far edge; duplicates and
/// windows of fewer than 3 squares are dropped.
fn blocks<G: Geometry>(w: u8, h: u8) -> Vec<Vec<usize>> {
    let anchors = |n: u8, size: u8| -> Vec<u8> {
        let mut a: Vec<u8> = (0..=n.saturating_sub(size))
            .step_by((size / 2).max(1) as usize)
            .collect();
        let last = n.saturating_sub(size);
        if a.last() != Some(&last) {
            a.push(last);
        }
        a
    };
    let mut out: Vec<Vec<usize>> = Vec::new();
    for r0 in anchors(G::RANKS, h) {
        for f0 in anchors(G::FILES, w) {
            let sq: Vec<usize> = (0..G::SQUARES)
                .filter(|&s| {
                    let (f, r) = G::coords(s);
                    f >= f0 && f < f0 + w && r >= r0 && r < r0 + h
                })
                .collect();
            if sq.len() >= 3 && !out.contains(&sq) {
                out.push(sq);
            }
        }
    }
    out
}

impl Layout {
    pub fn build<R: Rules>(features: usize) -> Self {
        let mut chosen = Vec::new();
        for (w, h) in [(4u8, 4u8), (4, 2), (2, 2)] {
            let b = blocks::<R::Geo>(w, h);
            if b.iter().all(|s| s.len() <= MAX_SQUARES) {
                chosen = b;
                break;
            }
        }
        let mut windows = Vec::new();
        let mut offset = 0;
        let mut id: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |x: u64| {
            id ^= x;
            id = id.wrapping_mul(0x100_0000_01b3);
        };
        mix(<R::Geo as Geometry>::SQUARES as u64);
        mix(features as u64);
        for sq in chosen {
            mix(sq.len() as u64);
            for &s in &sq {
                mix(s as u64);
            }
            let w = Window::new::<R::Geo>(sq, offset);
            offset += w.size;
            windows.push(w);
        }
        let phase_max = R::START
            .iter()
            .map(|&(a, b)| (b - a) as i32)
            .sum::<i32>()
            .max(1);
        let (pairs, single) = pair_windows(&windows);
        let divisor = phase_max as i64 * SCALE as i64;
        assert!(divisor <= 1 << 12, "phase divisor too large for `divide`");
        Layout {
            windows,
            pairs,
            single,
            entries: offset,
            phase_max,
            id,
            features,
            divisor,
            reciprocal: (1u128 << RECIPROCAL_SHIFT).div_ceil(divisor as u128),
        }
    }

    /// The number of weights: two phases of every entry and feature.
    pub fn weight_count(&self) -> usize {
        2 * (self.entries + self.features)
    }
}

/// The pattern entries of a position: White's (added) and Black's
/// (subtracted), one per window each.
pub fn entries<R: Rules>(layout: &Layout, pos: &Position<Bb<R>>) -> (Vec<u32>, Vec<u32>) {
    let men = [pos.pieces[0] & !pos.kings, pos.pieces[1] & !pos.kings];
    let w = layout
        .windows
        .iter()
        .map(|win| (win.offset + win.index(0, men[0], men[1])) as u32)
        .collect();
    let b = layout
        .windows
        .iter()
        .map(|win| (win.offset + win.index(1, men[1], men[0])) as u32)
        .collect();
    (w, b)
}

/// The share of the opening phase, `0..=phase_max`.
#[inline(always)]
pub fn phase<R: Rules>(layout: &Layout, pos: &Position<Bb<R>>) -> i32 {
    (pos.occupied().count() as i32).min(layout.phase_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::zobrist;

    #[test]
    fn division_by_the_reciprocal_is_exact() {
        let mut seed = 1u64;
        for d in 1..=(1i64 << 12) {
            let r = (1u128 << RECIPROCAL_SHIFT).div_ceil(d as u128);
            let check = |x: i64| assert_eq!(divide(x, d, r), x / d, "{x} / {d}");
            for k in [0, 1, 2, d - 1, d, d + 1, 7 * d - 1, 7 * d] {
                check(k);
                check(-k);
            }
            let limit = DIVIDEND_LIMIT as i64;
            for x in [limit - 1, limit, limit + 1, i64::MAX, i64::MIN + 1] {
                check(x);
                check(-x);
            }
            for _ in 0..50 {
                let x = (zobrist::splitmix64(&mut seed) >> 15) as i64 - (1 << 48);
                check(x);
                check(x >> (zobrist::splitmix64(&mut seed) % 40));
            }
        }
    }
}
