//! The pattern evaluation: weight tables indexed by the men on small
//! windows of the board, plus the hand features of [`super::eval`] with
//! learned weights, in two phases (opening and ending) blended by the
//! number of pieces on the board. docs/evaluation.md describes it and how
//! the weights are learned (`salto datagen`, `salto train`).
//!
//! Everything is derived from the geometry and the rules:
//!
//! - the *windows* are blocks of files and ranks (`Geometry::coords`):
//!   4x4 where such a block holds at most [`MAX_SQUARES`] squares (the
//!   diagonal boards: 8 dark squares), else 4x2 (the orthogonal and hex
//!   boards), overlapping by half a block;
//! - each window indexes its own table with the state of its squares
//!   (empty, own man, opponent man: `3^k` entries). Kings are not in the
//!   windows; they are features of their own (count and centrality);
//! - Black uses the same tables through the board turned half a turn
//!   (internal square `i` <-> `SQUARES - 1 - i`, which swaps the players'
//!   directions and crowning rows on every board): a pattern and its
//!   colour-reversed mirror score the same for their owners.

use super::bitboard::Bitboard;
use super::eval::{self, NF, Tables};
use super::geometry::Geometry;
use super::position::{Bb, Position};
use super::rules::Rules;
use super::weights::{SCALE, Weights};
use crate::game::Score;

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
    fn gather<B: Bitboard>(&self, c: usize, b: B) -> usize {
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
    unsafe fn gather_pext<B: Bitboard>(&self, c: usize, b: B) -> usize {
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
    table: [u32; 256],
    /// First weight (`2 * offset`) of the White and the Black window.
    white: usize,
    black: usize,
    /// First entry (`offset`) of the White and the Black window.
    white_entry: usize,
    black_entry: usize,
}

impl Pair {
    #[inline(always)]
    fn gather<B: Bitboard>(&self, b: B) -> usize {
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
    unsafe fn gather_pext<B: Bitboard>(&self, b: B) -> usize {
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
    /// `phase_max * SCALE`, the divisor of the blended sum, and its
    /// reciprocal for [`divide`].
    divisor: i64,
    reciprocal: u128,
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
fn divide(x: i64, d: i64, r: u128) -> i64 {
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
    pub fn build<R: Rules>() -> Self {
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
        mix(NF as u64);
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
            divisor,
            reciprocal: (1u128 << RECIPROCAL_SHIFT).div_ceil(divisor as u128),
        }
    }

    /// The number of weights: two phases of every entry and feature.
    pub fn weight_count(&self) -> usize {
        2 * (self.entries + NF)
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

/// The pattern evaluation from the view of the player to move, in
/// centi-men, with weights `w` (checked against the layout when loaded).
#[inline(always)]
pub fn evaluate<R: Rules>(pos: &Position<Bb<R>>, w: &Weights) -> Score {
    evaluate_by::<R>(
        pos,
        w,
        |pair, b| pair.gather(b),
        |win, c, own, opp| win.index(c, own, opp),
    )
}

/// [`evaluate`] with the `pext` instruction.
///
/// # Safety
/// The processor must have BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi2")]
pub unsafe fn evaluate_bmi2<R: Rules>(pos: &Position<Bb<R>>, w: &Weights) -> Score {
    // SAFETY: this function is compiled for and called only on BMI2.
    evaluate_by::<R>(
        pos,
        w,
        |pair, b| unsafe { pair.gather_pext(b) },
        |win, c, own, opp| unsafe { win.index_pext(c, own, opp) },
    )
}

/// The pattern sums (opening, ending), White's windows minus Black's.
/// `men` must be disjoint and `p` exactly the layout's pattern weights.
#[inline(always)]
fn pattern_sums<B: Bitboard>(
    layout: &Layout,
    p: &[i16],
    men: [B; 2],
    gather: impl Fn(&Pair, B) -> usize,
    index: impl Fn(&Window, usize, B, B) -> usize,
) -> (i32, i32) {
    let (mut open, mut end) = (0i32, 0i32);
    for pair in &layout.pairs {
        // A gather has at most MAX_SQUARES (8) bits: `as u8` keeps it.
        let x = pair.table[gather(pair, men[0]) as u8 as usize];
        let y = pair.table[gather(pair, men[1]) as u8 as usize];
        let iw = pair.white + 2 * ((x + 2 * y) & 0xffff) as usize;
        let ib = pair.black + 2 * ((2 * x + y) >> 16) as usize;
        // SAFETY: the two men sets are disjoint, so both halves are
        // base-3 numbers of the window's digits (0, 1 or 2 each), below
        // its 3^k entries; a window's entries end at most at
        // `layout.entries`, and `p` holds two weights for each (checked by
        // the caller).
        let (wo, we, bo, be) = unsafe {
            (
                *p.get_unchecked(iw),
                *p.get_unchecked(iw + 1),
                *p.get_unchecked(ib),
                *p.get_unchecked(ib + 1),
            )
        };
        open += wo as i32 - bo as i32;
        end += we as i32 - be as i32;
    }
    for &(wi, c) in &layout.single {
        let win = &layout.windows[wi];
        let i = 2 * (win.offset + index(win, c, men[c], men[1 - c]));
        if let Some(a) = p.get(i..i + 2) {
            let sign = 1 - 2 * c as i32;
            open += sign * a[0] as i32;
            end += sign * a[1] as i32;
        }
    }
    (open, end)
}

#[inline(always)]
fn evaluate_by<R: Rules>(
    pos: &Position<Bb<R>>,
    w: &Weights,
    gather: impl Fn(&Pair, Bb<R>) -> usize,
    index: impl Fn(&Window, usize, Bb<R>, Bb<R>) -> usize,
) -> Score {
    let t: &Tables<Bb<R>> = eval::tables::<R>();
    let layout = &t.layout;
    if w.pattern.len() != 2 * layout.entries || w.dense.len() != 2 * NF {
        // Weights are checked against the layout when they are loaded
        // (`Weights::check`), so this does not happen; if it did, the
        // hand evaluation is a safe answer.
        return eval::evaluate::<R>(pos);
    }
    let white = pos.pieces[0] & !pos.kings;
    let men = [white, pos.pieces[1] & !pos.kings & !white];
    let (mut open, mut end) = pattern_sums(layout, &w.pattern, men, gather, index);
    let f = eval::feature_difference::<R>(t, pos);
    let d = &w.dense;
    for (k, &x) in f.iter().enumerate() {
        open += d[2 * k] as i32 * x;
        end += d[2 * k + 1] as i32 * x;
    }
    let ph = phase::<R>(layout, pos);
    let n = layout.phase_max;
    let blend = open as i64 * ph as i64 + end as i64 * (n - ph) as i64;
    let mut s = divide(blend, layout.divisor, layout.reciprocal) as Score;
    if eval::is_drawish::<R>(pos) {
        s /= eval::DRAWISH_DIVISOR;
    }
    if pos.side == 0 { s } else { -s }
}

/// Weights made ready for the search. The hand features that are a sum
/// of one value per man and square ([`eval::FOLDED`]: men, advancement,
/// centre, side edge, back rank) are added into the window tables, each
/// square's value into the entries of one window that holds it (own man
/// on it), so the evaluation reads them with the patterns instead of
/// counting them; both phases of an entry are packed in one `i64`
/// (opening + ending * 2^32), so one load and one addition serve both.
/// The back rank counts only while the opponent has men: the evaluation
/// takes it out again when he has none. The sums are exactly those of
/// [`evaluate`] (integer sums in another order; a test compares them on
/// random games of every variant).
///
/// Folding needs the per-square values to be colour-symmetric (Black
/// reads the tables through the board turned half a turn), true of every
/// board here; where it is not, or the weights do not fit the layout, the
/// table is empty and [`evaluate_compiled`] evaluates as [`evaluate`].
pub struct Compiled {
    pub weights: &'static Weights,
    /// Per pattern entry: `opening + ending << 32`, folded features
    /// included; empty when not folded.
    table: Vec<i64>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("variant", &self.weights.variant)
            .field("folded", &!self.table.is_empty())
            .finish()
    }
}

/// Two compilations of equal weights are equal.
impl PartialEq for Compiled {
    fn eq(&self, other: &Self) -> bool {
        self.weights == other.weights
    }
}

impl Eq for Compiled {}

impl Compiled {
    /// Folds `w`'s per-square features into the window tables of rule set
    /// `R` (see [`Compiled`]).
    pub fn build<R: Rules>(w: &'static Weights) -> Self {
        Compiled {
            weights: w,
            table: fold::<R>(w).unwrap_or_default(),
        }
    }
}

/// The folded tables of [`Compiled`], or `None` where folding does not
/// apply.
fn fold<R: Rules>(w: &Weights) -> Option<Vec<i64>> {
    let t = eval::tables::<R>();
    let layout = &t.layout;
    if w.pattern.len() != 2 * layout.entries || w.dense.len() != 2 * NF {
        return None;
    }
    let n = <R::Geo as Geometry>::SQUARES;
    // Each square's folded value in both phases, White's view; Black's
    // must be the same through the board turned half a turn.
    let mut value = vec![(0i64, 0i64); n];
    for (sq, v) in value.iter_mut().enumerate() {
        let fw = eval::square_features::<R>(t, 0, sq);
        let fb = eval::square_features::<R>(t, 1, n - 1 - sq);
        if eval::FOLDED.iter().any(|&k| fw[k] != fb[k]) {
            return None;
        }
        for &k in &eval::FOLDED {
            v.0 += w.dense[2 * k] as i64 * fw[k] as i64;
            v.1 += w.dense[2 * k + 1] as i64 * fw[k] as i64;
        }
    }
    let mut owner = vec![usize::MAX; n];
    for (i, win) in layout.windows.iter().enumerate() {
        for &sq in &win.squares {
            if owner[sq] == usize::MAX {
                owner[sq] = i;
            }
        }
    }
    if owner.contains(&usize::MAX) {
        return None;
    }
    // Every entry small enough that no sum of one entry per window and
    // colour comes near the end of an i32 (the unpacking needs it).
    let limit = i32::MAX as i64 / (4 * layout.windows.len() as i64).max(1);
    let mut table = vec![0i64; layout.entries];
    for (i, win) in layout.windows.iter().enumerate() {
        for e in 0..win.size {
            let (mut open, mut end) = (
                w.pattern[2 * (win.offset + e)] as i64,
                w.pattern[2 * (win.offset + e) + 1] as i64,
            );
            let mut digits = e;
            for &sq in &win.squares {
                if digits % 3 == 1 && owner[sq] == i {
                    open += value[sq].0;
                    end += value[sq].1;
                }
                digits /= 3;
            }
            if open.abs() > limit || end.abs() > limit {
                return None;
            }
            table[win.offset + e] = open + (end << 32);
        }
    }
    Some(table)
}

/// The compiled weights of `w` for rule set `R`, built on first use and
/// kept for the life of the program (weights are `'static`: embedded, or
/// loaded and kept once per content by [`super::weights::intern`]).
pub fn compile<R: Rules>(w: &'static Weights) -> &'static Compiled {
    use std::any::TypeId;
    use std::sync::{Mutex, OnceLock};
    type Registry = Mutex<Vec<(usize, TypeId, &'static Compiled)>>;
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    let key = (w as *const Weights as usize, TypeId::of::<R>());
    let reg = REGISTRY.get_or_init(|| Mutex::new(Vec::new()));
    let mut guard = match reg.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(&(_, _, c)) = guard.iter().find(|e| (e.0, e.1) == key) {
        return c;
    }
    let c: &'static Compiled = Box::leak(Box::new(Compiled::build::<R>(w)));
    guard.push((key.0, key.1, c));
    c
}

/// The pattern evaluation with compiled weights: [`evaluate`]'s value.
#[inline(always)]
pub fn evaluate_compiled<R: Rules>(pos: &Position<Bb<R>>, c: &Compiled) -> Score {
    compiled_by::<R>(
        pos,
        c,
        |pair, b| pair.gather(b),
        |win, c, own, opp| win.index(c, own, opp),
    )
}

/// [`evaluate_compiled`] with the `pext` instruction.
///
/// # Safety
/// The processor must have BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi2")]
pub unsafe fn evaluate_compiled_bmi2<R: Rules>(pos: &Position<Bb<R>>, c: &Compiled) -> Score {
    // SAFETY: this function is compiled for and called only on BMI2.
    compiled_by::<R>(
        pos,
        c,
        |pair, b| unsafe { pair.gather_pext(b) },
        |win, c, own, opp| unsafe { win.index_pext(c, own, opp) },
    )
}

#[inline(always)]
fn compiled_by<R: Rules>(
    pos: &Position<Bb<R>>,
    c: &Compiled,
    gather: impl Fn(&Pair, Bb<R>) -> usize,
    index: impl Fn(&Window, usize, Bb<R>, Bb<R>) -> usize,
) -> Score {
    let t: &Tables<Bb<R>> = eval::tables::<R>();
    let layout = &t.layout;
    let tab = &c.table;
    let d = &c.weights.dense;
    if tab.len() != layout.entries || d.len() != 2 * NF {
        return evaluate_by::<R>(pos, c.weights, gather, index);
    }
    let white = pos.pieces[0] & !pos.kings;
    let men = [white, pos.pieces[1] & !pos.kings & !white];
    let mut acc = 0i64;
    for pair in &layout.pairs {
        // A gather has at most MAX_SQUARES (8) bits: `as u8` keeps it.
        let x = pair.table[gather(pair, men[0]) as u8 as usize];
        let y = pair.table[gather(pair, men[1]) as u8 as usize];
        let iw = pair.white_entry + ((x + 2 * y) & 0xffff) as usize;
        let ib = pair.black_entry + ((2 * x + y) >> 16) as usize;
        // SAFETY: as in `pattern_sums`: both halves are base-3 numbers of
        // the window's digits, below its 3^k entries, and a window's
        // entries end at most at `layout.entries`, the table's length
        // (checked above).
        let (a, b) = unsafe { (*tab.get_unchecked(iw), *tab.get_unchecked(ib)) };
        acc = acc.wrapping_add(a).wrapping_sub(b);
    }
    for &(wi, c) in &layout.single {
        let win = &layout.windows[wi];
        if let Some(&a) = tab.get(win.offset + index(win, c, men[c], men[1 - c])) {
            acc = if c == 0 {
                acc.wrapping_add(a)
            } else {
                acc.wrapping_sub(a)
            };
        }
    }
    // The opening sum is the low 32 bits (it fits an i32), the ending
    // sum the rest.
    let mut open = acc as i32;
    let mut end = (acc.wrapping_sub(open as i64) >> 32) as i32;

    // The features not folded: kings, king centrality, structure, the
    // back rank taken out where the opponent has no men, tempo.
    let mut f = [0 as Score; NF];
    let kings = pos.kings;
    for p in 0..2 {
        let sign = 1 - 2 * p as Score;
        let own = pos.pieces[p];
        let opp = pos.pieces[1 - p];
        let m = own & !kings;
        if kings.any() {
            let k = own & kings;
            f[1] += sign * k.count() as Score;
            let mut centre = 0;
            for (r, &ring) in t.rings.iter().enumerate().skip(1) {
                centre += r as Score * (k & ring).count() as Score;
            }
            f[9] += sign * centre;
        }
        if (opp & !kings).is_empty() {
            f[5] -= sign * (m & t.back_rank[p]).count() as Score;
        }
        let [support, wings, runaway] = eval::structure::<R>(t, pos, p, m, opp);
        f[6] += sign * support;
        f[7] += sign * wings;
        f[8] += sign * runaway;
    }
    f[eval::TEMPO] = if pos.side == 0 { 1 } else { -1 };
    for k in [1, 5, 6, 7, 8, 9, eval::TEMPO] {
        open += d[2 * k] as i32 * f[k];
        end += d[2 * k + 1] as i32 * f[k];
    }
    let ph = phase::<R>(layout, pos);
    let n = layout.phase_max;
    let blend = open as i64 * ph as i64 + end as i64 * (n - ph) as i64;
    let mut s = divide(blend, layout.divisor, layout.reciprocal) as Score;
    if eval::is_drawish::<R>(pos) {
        s /= eval::DRAWISH_DIVISOR;
    }
    if pos.side == 0 { s } else { -s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{
        Brazilian, Draughts, English, Hex, International, Spanish, Turkish, TurkishImmediate,
    };
    use crate::game::testing::random_line;
    use crate::game::{Game, MoveList, zobrist};

    /// The position with colours swapped and the board turned half a turn.
    fn mirror<R: Rules>(pos: &Position<Bb<R>>) -> Position<Bb<R>> {
        let n = <R::Geo as Geometry>::SQUARES;
        let flip = |b: Bb<R>| {
            let mut out = Bb::<R>::ZERO;
            for sq in 0..n {
                if b.has(<R::Geo as Geometry>::SQUARE_BIT[sq] as u32) {
                    out |= <R::Geo as Geometry>::bit_of(n - 1 - sq);
                }
            }
            out
        };
        Position::new(
            flip(pos.pieces[1]),
            flip(pos.pieces[0]),
            flip(pos.kings),
            pos.side ^ 1,
        )
    }

    /// Random weights, so that every window and feature counts.
    fn random_weights<R: Rules>(seed: u64) -> Weights {
        let layout = &eval::tables::<R>().layout;
        let mut s = seed;
        let mut r = || (zobrist::splitmix64(&mut s) % 2001) as i16 - 1000;
        Weights {
            variant: R::NAME.to_string(),
            layout: layout.id,
            pattern: (0..2 * layout.entries).map(|_| r()).collect(),
            dense: (0..2 * NF).map(|_| r()).collect(),
        }
    }

    /// Random positions from random games, the mirror scores the same for
    /// the player to move, with random weights and with the hand ones.
    fn colour_symmetric<R: Rules>() {
        let g = Draughts::<R>::default();
        let w = random_weights::<R>(7);
        let mut seed = 11u64;
        for game in 0..20 {
            for pos in random_line(&g, 20 + 7 * game, &mut seed)
                .into_iter()
                .skip(1)
            {
                let m = mirror::<R>(&pos);
                assert_eq!(
                    evaluate::<R>(&pos, &w),
                    evaluate::<R>(&m, &w),
                    "{} {}",
                    R::NAME,
                    g.format_fen(&pos)
                );
                assert_eq!(eval::evaluate::<R>(&pos), eval::evaluate::<R>(&m));
            }
        }
    }

    #[test]
    fn features_are_colour_symmetric_in_every_variant() {
        colour_symmetric::<International>();
        colour_symmetric::<Brazilian>();
        colour_symmetric::<English>();
        colour_symmetric::<Spanish>();
        colour_symmetric::<Turkish>();
        colour_symmetric::<TurkishImmediate>();
        colour_symmetric::<Hex>();
    }

    /// The hand weights in pattern form give the hand evaluation exactly.
    fn hand_in_pattern_form<R: Rules>() {
        let g = Draughts::<R>::default();
        let w = Weights::hand::<R>();
        let mut seed = 5u64;
        let mut pos = g.start();
        for _ in 0..80 {
            assert_eq!(evaluate::<R>(&pos, &w), eval::evaluate::<R>(&pos));
            let mut list = MoveList::new();
            g.generate(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let i = (zobrist::splitmix64(&mut seed) % list.len() as u64) as usize;
            pos = g.play(&pos, list[i]);
        }
    }

    #[test]
    fn hand_weights_reproduce_the_hand_evaluation() {
        hand_in_pattern_form::<International>();
        hand_in_pattern_form::<English>();
        hand_in_pattern_form::<Turkish>();
        hand_in_pattern_form::<Hex>();
    }

    /// The `pext` gather gives the same indices as the portable one.
    fn pext_agrees<R: Rules>() {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt") {
            let g = Draughts::<R>::default();
            let w = random_weights::<R>(3);
            let mut seed = 9u64;
            let mut pos = g.start();
            for _ in 0..100 {
                // SAFETY: checked just above.
                let fast = unsafe { evaluate_bmi2::<R>(&pos, &w) };
                assert_eq!(fast, evaluate::<R>(&pos, &w));
                let mut list = MoveList::new();
                g.generate(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                let i = (zobrist::splitmix64(&mut seed) % list.len() as u64) as usize;
                pos = g.play(&pos, list[i]);
            }
        }
    }

    #[test]
    fn the_pext_gather_agrees_with_the_portable_one() {
        pext_agrees::<International>();
        pext_agrees::<English>();
        pext_agrees::<Turkish>();
        pext_agrees::<Hex>();
    }

    /// The evaluation as first written: each window's index computed
    /// from scratch for each colour ([`entries`]), summed in window order.
    fn reference<R: Rules>(pos: &Position<Bb<R>>, w: &Weights) -> Score {
        let t = eval::tables::<R>();
        let (we, be) = entries::<R>(&t.layout, pos);
        let (mut open, mut end) = (0i32, 0i32);
        for (a, b) in we.iter().zip(&be) {
            let (a, b) = (2 * *a as usize, 2 * *b as usize);
            open += w.pattern[a] as i32 - w.pattern[b] as i32;
            end += w.pattern[a + 1] as i32 - w.pattern[b + 1] as i32;
        }
        for (k, &x) in eval::feature_difference::<R>(t, pos).iter().enumerate() {
            open += w.dense[2 * k] as i32 * x;
            end += w.dense[2 * k + 1] as i32 * x;
        }
        let ph = phase::<R>(&t.layout, pos) as i64;
        let n = t.layout.phase_max as i64;
        let mut s = ((open as i64 * ph + end as i64 * (n - ph)) / (n * SCALE as i64)) as Score;
        if eval::is_drawish::<R>(pos) {
            s /= eval::DRAWISH_DIVISOR;
        }
        if pos.side == 0 { s } else { -s }
    }

    /// The paired evaluation (both gathers) and the compiled one (the
    /// per-square features folded into the windows) give exactly the
    /// per-window one on random games, with random weights, the shipped
    /// ones and the hand ones.
    fn paired_agrees<R: Rules>() {
        let g = Draughts::<R>::default();
        let mut sets = vec![random_weights::<R>(13)];
        if let Some(w) = crate::draughts::weights::embedded::<R>() {
            sets.push(w.clone());
        }
        sets.push(Weights::hand::<R>());
        // Compiled weights keep a `'static` reference: leaked (tests only).
        let compiled: Vec<Compiled> = sets
            .iter()
            .map(|w| Compiled::build::<R>(Box::leak(Box::new(w.clone()))))
            .collect();
        for c in &compiled {
            assert!(!c.table.is_empty(), "{}: not folded", R::NAME);
        }
        let mut seed = 21u64;
        for game in 0..30 {
            let mut pos = g.start();
            for _ in 0..(10 + 5 * game) {
                for (w, c) in sets.iter().zip(&compiled) {
                    let want = reference::<R>(&pos, w);
                    assert_eq!(evaluate::<R>(&pos, w), want, "{}", g.format_fen(&pos));
                    assert_eq!(eval::evaluate_weights::<R>(&pos, w), want);
                    assert_eq!(
                        evaluate_compiled::<R>(&pos, c),
                        want,
                        "{}",
                        g.format_fen(&pos)
                    );
                    assert_eq!(eval::evaluate_compiled::<R>(&pos, c), want);
                }
                let mut list = MoveList::new();
                g.generate(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                let i = (zobrist::splitmix64(&mut seed) % list.len() as u64) as usize;
                pos = g.play(&pos, list[i]);
            }
        }
    }

    #[test]
    fn the_paired_windows_give_the_per_window_evaluation() {
        paired_agrees::<International>();
        paired_agrees::<Brazilian>();
        paired_agrees::<English>();
        paired_agrees::<Spanish>();
        paired_agrees::<Turkish>();
        paired_agrees::<TurkishImmediate>();
        paired_agrees::<Hex>();
    }

    #[test]
    fn every_window_has_a_partner_on_the_square_boards() {
        fn check<R: Rules>(all: bool) {
            let l = &eval::tables::<R>().layout;
            assert_eq!(
                2 * l.pairs.len() + l.single.len(),
                2 * l.windows.len(),
                "{}",
                R::NAME
            );
            if all {
                assert!(l.single.is_empty(), "{}", R::NAME);
            }
        }
        check::<International>(true);
        check::<English>(true);
        check::<Turkish>(true);
        // The hex board's blocks of files and ranks do not map onto each
        // other when the board is turned: most go one by one.
        check::<Hex>(false);
    }

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

    #[test]
    fn windows_fit_every_board() {
        fn check<R: Rules>(expect: usize) {
            let l = &eval::tables::<R>().layout;
            assert!(l.windows.iter().all(|w| w.squares.len() <= MAX_SQUARES));
            assert_eq!(l.windows.len(), expect, "{}", R::NAME);
            // Every square is in some window.
            for s in 0..<R::Geo as Geometry>::SQUARES {
                assert!(
                    l.windows.iter().any(|w| w.squares.contains(&s)),
                    "{} {s}",
                    R::NAME
                );
            }
        }
        check::<International>(16);
        check::<English>(9);
        check::<Turkish>(21);
        check::<Hex>(check_hex());
        fn check_hex() -> usize {
            eval::tables::<Hex>().layout.windows.len()
        }
    }
}
