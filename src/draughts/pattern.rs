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
use super::layout::{Layout, Pair, Window, divide, phase};
use super::position::{Bb, Position};
use super::rules::Rules;
use super::weights::Weights;
use crate::game::Score;

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
pub fn evaluate_compiled_portable<R: Rules>(pos: &Position<Bb<R>>, c: &Compiled) -> Score {
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

/// The pattern evaluation with weights `w` (this module), compiled
/// twice like [`eval::evaluate`].
#[inline]
pub fn evaluate_weights<R: Rules>(pos: &Position<Bb<R>>, w: &Weights) -> Score {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has both (checked just above).
        return unsafe { evaluate_bmi2::<R>(pos, w) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has `popcnt` (checked just above).
        return unsafe { weights_popcnt::<R>(pos, w) };
    }
    evaluate::<R>(pos, w)
}

/// The pattern evaluation with compiled weights ([`Compiled`]:
/// the same values as [`evaluate_weights`], fewer instructions), compiled
/// three times like [`evaluate_weights`].
#[inline]
pub fn evaluate_compiled<R: Rules>(pos: &Position<Bb<R>>, c: &Compiled) -> Score {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has both (checked just above).
        return unsafe { evaluate_compiled_bmi2::<R>(pos, c) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has `popcnt` (checked just above).
        return unsafe { compiled_popcnt::<R>(pos, c) };
    }
    evaluate_compiled_portable::<R>(pos, c)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn compiled_popcnt<R: Rules>(pos: &Position<Bb<R>>, c: &Compiled) -> Score {
    evaluate_compiled_portable::<R>(pos, c)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn weights_popcnt<R: Rules>(pos: &Position<Bb<R>>, w: &Weights) -> Score {
    evaluate::<R>(pos, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::layout::{MAX_SQUARES, entries};
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
        let mut s = ((open as i64 * ph + end as i64 * (n - ph))
            / (n * crate::draughts::layout::SCALE as i64)) as Score;
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
                    assert_eq!(evaluate_weights::<R>(&pos, w), want);
                    assert_eq!(
                        evaluate_compiled::<R>(&pos, c),
                        want,
                        "{}",
                        g.format_fen(&pos)
                    );
                    assert_eq!(evaluate_compiled::<R>(&pos, c), want);
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
