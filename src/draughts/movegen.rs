//! The generic move generator of the draughts family, driven by the
//! constants of a [`Rules`] type and its [`Geometry`].
//!
//! Captures are found by a depth-first search per piece. With deferred
//! removal the jumped pieces stay in the occupancy (they block) and are
//! excluded from the pieces that can be jumped; the moving piece's origin
//! counts as empty. Moves are kept de-duplicated by (from, to, captured).

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::position::{Bb, Move, Position};
use super::rules::Rules;
use crate::game::MoveList;

type G<R> = <R as Rules>::Geo;

/// One captured piece in the capture score; the low bits count kings.
const CAPTURE_UNIT: u32 = 256;
/// "No previous direction" for the first jump of a sequence.
const NO_DIR: usize = usize::MAX;

/// All legal moves of `pos`, de-duplicated, into `out` (cleared first).
#[inline]
pub fn generate<R: Rules>(pos: &Position<Bb<R>>, out: &mut MoveList<Move<Bb<R>>>) {
    out.clear();
    if pos.side == 0 {
        generate_side::<R, 0>(pos, out)
    } else {
        generate_side::<R, 1>(pos, out)
    }
}

/// The number of legal moves of `pos` (perft's bulk count).
#[inline]
pub fn count_moves<R: Rules>(pos: &Position<Bb<R>>) -> u64 {
    if pos.side == 0 {
        count_side::<R, 0>(pos)
    } else {
        count_side::<R, 1>(pos)
    }
}

/// True when the player to move can capture (and so must).
#[inline]
pub fn has_capture<R: Rules>(pos: &Position<Bb<R>>) -> bool {
    side_can_capture::<R>(pos, pos.side)
}

/// True when the player not to move could capture if it were its turn (a
/// threat the side to move has to meet).
#[inline]
pub fn opponent_has_capture<R: Rules>(pos: &Position<Bb<R>>) -> bool {
    side_can_capture::<R>(pos, pos.side ^ 1)
}

/// The quiet moves of `pos` that crown a man (a man's step onto its
/// crowning row), into `out` (cleared first). Only meaningful when no
/// capture is pending (a capture would be forced instead).
pub fn generate_promotions<R: Rules>(pos: &Position<Bb<R>>, out: &mut MoveList<Move<Bb<R>>>) {
    out.clear();
    if pos.side == 0 {
        promotions_side::<R, 0>(pos, out)
    } else {
        promotions_side::<R, 1>(pos, out)
    }
}

fn promotions_side<R: Rules, const S: usize>(
    pos: &Position<Bb<R>>,
    out: &mut MoveList<Move<Bb<R>>>,
) {
    let own = pos.pieces[S];
    let empty = G::<R>::BOARD & !(own | pos.pieces[1 - S]);
    man_steps::<R, S>(own & !pos.kings, empty & G::<R>::PROMOTION[S], out);
}

/// The steps of `men` (of player `S`) onto the squares of `targets`.
#[inline(always)]
fn man_steps<R: Rules, const S: usize>(
    men: Bb<R>,
    targets: Bb<R>,
    out: &mut MoveList<Move<Bb<R>>>,
) {
    for &d in R::MAN_STEP_DIRS[S] {
        let shift = G::<R>::DIRS[d].shift;
        let dest = G::<R>::step(men, d) & targets;
        for to in dest.iter() {
            out.push(Move {
                captured: Bb::<R>::ZERO,
                from: (to as i32 - shift) as u8,
                to: to as u8,
                promote: (Bb::<R>::bit(to) & G::<R>::PROMOTION[S]).any(),
            });
        }
    }
}

/// True when `side` (0 White, 1 Black) could capture, whoever is to move.
#[inline(always)]
fn side_can_capture<R: Rules>(pos: &Position<Bb<R>>, side: u8) -> bool {
    if side & 1 == 0 {
        has_capture_side::<R, 0>(pos)
    } else {
        has_capture_side::<R, 1>(pos)
    }
}

/// The first jumps of the men of one side, found in bulk.
struct ManJumps<B> {
    /// `by_dir[i]`: the men that can jump in direction
    /// `MAN_CAPTURE_DIRS[S][i]` (restricted to jumps over kings when the
    /// king tie-break applies and some man can take a king).
    by_dir: [B; 8],
    /// The men that can jump at all.
    any: B,
    /// No jump can be continued (and no man is crowned mid-capture): every
    /// capture of the men is one jump, and `by_dir` lists them all.
    simple: bool,
}

/// The squares from which a jump in direction `d` is possible: an enemy
/// piece next in `d` and an empty square beyond.
#[inline(always)]
fn jump_sources<R: Rules>(opp: Bb<R>, empty: Bb<R>, d: usize) -> Bb<R> {
    G::<R>::step(G::<R>::step(empty, d ^ 1) & opp, d ^ 1)
}

/// Finds the men's first jumps in bulk, and whether any could go on. A man
/// that jumped in direction `d` can go on only in a direction `e != d ^ 1`
/// (the way back holds the jumped piece); from its landing square such a
/// jump neither passes the jumped piece nor lands on the start square, so
/// the board before the move decides it.
#[inline(always)]
fn man_jumps<R: Rules, const S: usize>(
    men: Bb<R>,
    opp: Bb<R>,
    kings: Bb<R>,
    empty: Bb<R>,
) -> ManJumps<Bb<R>> {
    let dirs = R::MAN_CAPTURE_DIRS[S];
    let mut sources = [Bb::<R>::ZERO; 8];
    let mut jumps = ManJumps {
        by_dir: [Bb::<R>::ZERO; 8],
        any: Bb::<R>::ZERO,
        simple: true,
    };
    for (i, &d) in dirs.iter().enumerate() {
        sources[i] = jump_sources::<R>(opp, empty, d);
        jumps.by_dir[i] = men & sources[i];
        jumps.any |= jumps.by_dir[i];
    }
    if jumps.any.is_empty() {
        return jumps;
    }
    for (i, &d) in dirs.iter().enumerate() {
        let j = jumps.by_dir[i];
        if j.is_empty() {
            continue;
        }
        let land = G::<R>::step(G::<R>::step(j, d), d);
        for (k, &e) in dirs.iter().enumerate() {
            if e != d ^ 1 && (land & sources[k]).any() {
                jumps.simple = false;
                return jumps;
            }
        }
        if R::PROMOTE_MID_CAPTURE && (land & G::<R>::PROMOTION[S]).any() {
            jumps.simple = false;
            return jumps;
        }
    }
    if R::KING_TIEBREAK {
        let opp_kings = opp & kings;
        if opp_kings.any() {
            let mut on_kings = [Bb::<R>::ZERO; 8];
            let mut found = false;
            for (i, &d) in dirs.iter().enumerate() {
                on_kings[i] = jumps.by_dir[i] & jump_sources::<R>(opp_kings, empty, d);
                found |= on_kings[i].any();
            }
            if found {
                jumps.by_dir = on_kings;
            }
        }
    }
    jumps
}

#[inline(always)]
fn generate_side<R: Rules, const S: usize>(pos: &Position<Bb<R>>, out: &mut MoveList<Move<Bb<R>>>) {
    let own = pos.pieces[S];
    let opp = pos.pieces[1 - S];
    let empty = G::<R>::BOARD & !(own | opp);
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let jumps = man_jumps::<R, S>(men, opp, pos.kings, empty);
    let king_captures = kings.any() && kings_capture::<R>(kings, opp, empty);
    if king_captures || !jumps.simple {
        generate_captures::<R, S>(pos, out);
    } else if jumps.any.any() {
        for (i, &d) in R::MAN_CAPTURE_DIRS[S].iter().enumerate() {
            let shift = G::<R>::DIRS[d].shift;
            for from in jumps.by_dir[i].iter() {
                let to = (from as i32 + 2 * shift) as u32;
                out.push(Move {
                    captured: Bb::<R>::bit((from as i32 + shift) as u32),
                    from: from as u8,
                    to: to as u8,
                    promote: G::<R>::PROMOTION[S].has(to),
                });
            }
        }
    } else {
        generate_quiet::<R, S>(pos, out);
    }
}

#[inline(always)]
fn count_side<R: Rules, const S: usize>(pos: &Position<Bb<R>>) -> u64 {
    let own = pos.pieces[S];
    let opp = pos.pieces[1 - S];
    let empty = G::<R>::BOARD & !(own | opp);
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let jumps = man_jumps::<R, S>(men, opp, pos.kings, empty);
    let king_captures = kings.any() && kings_capture::<R>(kings, opp, empty);
    if king_captures || !jumps.simple {
        let mut list = MoveList::new();
        generate_captures::<R, S>(pos, &mut list);
        list.len() as u64
    } else if jumps.any.any() {
        jumps.by_dir.iter().map(|b| b.count() as u64).sum()
    } else {
        count_quiet::<R, S>(pos)
    }
}

/// The men of side `S` that can make a first jump.
#[inline(always)]
fn men_that_capture<R: Rules, const S: usize>(men: Bb<R>, opp: Bb<R>, empty: Bb<R>) -> Bb<R> {
    let mut found = Bb::<R>::ZERO;
    for &d in R::MAN_CAPTURE_DIRS[S] {
        found |= men & G::<R>::step(G::<R>::step(empty, d ^ 1) & opp, d ^ 1);
    }
    found
}

/// True when one of `kings` can capture (all directions, flying or not).
#[inline(always)]
fn kings_capture<R: Rules>(kings: Bb<R>, opp: Bb<R>, empty: Bb<R>) -> bool {
    for d in 0..G::<R>::DIRS.len() {
        let mut ray = G::<R>::step(kings, d);
        loop {
            if (G::<R>::step(ray & opp, d) & empty).any() {
                return true;
            }
            if !R::FLYING_KINGS {
                break;
            }
            ray &= empty;
            if ray.is_empty() {
                break;
            }
            ray = G::<R>::step(ray, d);
        }
    }
    false
}

#[inline(always)]
fn has_capture_side<R: Rules, const S: usize>(pos: &Position<Bb<R>>) -> bool {
    let own = pos.pieces[S];
    let opp = pos.pieces[1 - S];
    let empty = G::<R>::BOARD & !(own | opp);
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    men_that_capture::<R, S>(men, opp, empty).any()
        || (kings.any() && kings_capture::<R>(kings, opp, empty))
}

/// The state of the capture search of one position.
struct Captures<'a, R: Rules> {
    out: &'a mut MoveList<Move<Bb<R>>>,
    /// The enemy pieces.
    opp: Bb<R>,
    /// All kings (for the king tie-break).
    kings: Bb<R>,
    /// The empty squares, with the moving piece's origin.
    empty: Bb<R>,
    /// The bit the moving piece started on.
    from: u8,
    /// The best capture score so far (maximum capture rule).
    best: u32,
}

impl<R: Rules> Captures<'_, R> {
    /// The score of capturing `piece`: one unit, plus one if it is a king
    /// and the king tie-break applies.
    #[inline(always)]
    fn value(&self, piece: Bb<R>) -> u32 {
        if R::KING_TIEBREAK && (piece & self.kings).any() {
            CAPTURE_UNIT + 1
        } else {
            CAPTURE_UNIT
        }
    }

    /// The squares a piece may land on or pass over, given the pieces
    /// captured so far.
    #[inline(always)]
    fn free(&self, captured: Bb<R>) -> Bb<R> {
        if R::IMMEDIATE_REMOVAL {
            self.empty | captured
        } else {
            self.empty
        }
    }

    /// Records a finished capture sequence.
    #[inline]
    fn add(&mut self, to: Bb<R>, captured: Bb<R>, score: u32, promote: bool) {
        if R::MAXIMUM_CAPTURE {
            if score < self.best {
                return;
            }
            if score > self.best {
                self.out.clear();
                self.best = score;
            }
        }
        let mv = Move {
            captured,
            from: self.from,
            to: to.lowest() as u8,
            promote,
        };
        // One or two jumps cannot repeat a (from, to, captured) triple on
        // the diagonal boards, but a king on the hex board can; check all.
        if captured.count() >= 2 && self.out.iter().any(|m| *m == mv) {
            return;
        }
        self.out.push(mv);
    }

    /// Goes on with a man standing on `cur` after capturing `captured`;
    /// `last` is the direction of the last jump.
    fn man<const S: usize>(&mut self, cur: Bb<R>, captured: Bb<R>, score: u32, last: usize) {
        let free = self.free(captured);
        let mut extended = false;
        for &d in R::MAN_CAPTURE_DIRS[S] {
            if R::NO_REVERSE && d == last ^ 1 {
                continue;
            }
            let mid = G::<R>::step(cur, d);
            if (mid & self.opp & !captured).is_empty() {
                continue;
            }
            let land = G::<R>::step(mid, d);
            if (land & free).is_empty() {
                continue;
            }
            extended = true;
            let cap = captured | mid;
            let sc = score + self.value(mid);
            if (land & G::<R>::PROMOTION[S]).any() {
                if R::CROWN_ENDS_MOVE {
                    self.add(land, cap, sc, true);
                    continue;
                }
                if R::PROMOTE_MID_CAPTURE {
                    self.king(land, cap, sc, d, true);
                    continue;
                }
            }
            self.man::<S>(land, cap, sc, d);
        }
        if !extended && score != 0 {
            let promote = (cur & G::<R>::PROMOTION[S]).any();
            self.add(cur, captured, score, promote);
        }
    }

    /// True when a king that has just captured in direction `d` cannot go
    /// on in the opposite direction: with deferred removal the captured
    /// piece blocks the way back, and `NO_REVERSE` forbids it outright.
    #[inline(always)]
    fn reverse_blocked() -> bool {
        !R::IMMEDIATE_REMOVAL || R::NO_REVERSE
    }

    /// Goes on with a king standing on `cur` (a man crowned mid-capture):
    /// every direction but the way back.
    fn king(&mut self, cur: Bb<R>, captured: Bb<R>, score: u32, last: usize, promote: bool) {
        let mut extended = false;
        for d in 0..G::<R>::DIRS.len() {
            if Self::reverse_blocked() && d == last ^ 1 {
                continue;
            }
            extended |= self.king_dir(cur, captured, score, d, promote);
        }
        if !extended && score != 0 {
            self.add(cur, captured, score, promote);
        }
    }

    /// The captures of a king on `cur` that start in direction `d`; returns
    /// whether there is one. Going on straight ahead (in `d` again) is the
    /// same from every landing square, so it is searched once, from the
    /// first; each landing square then tries the other directions.
    fn king_dir(
        &mut self,
        cur: Bb<R>,
        captured: Bb<R>,
        score: u32,
        d: usize,
        promote: bool,
    ) -> bool {
        let free = self.free(captured);
        let sq = if R::FLYING_KINGS {
            // The first occupied square of the ray.
            let blockers = G::<R>::ray(cur.lowest(), d) & !free;
            if blockers.is_empty() {
                return false;
            }
            let b = if G::<R>::DIRS[d].shift > 0 {
                blockers.lowest()
            } else {
                blockers.highest()
            };
            Bb::<R>::bit(b)
        } else {
            G::<R>::step(cur, d)
        };
        if (sq & self.opp & !captured).is_empty() {
            return false;
        }
        let first = G::<R>::step(sq, d);
        if (first & free).is_empty() {
            return false;
        }
        let cap = captured | sq;
        let sc = score + self.value(sq);
        let straight = self.king_dir(first, cap, sc, d, promote);
        let free_after = self.free(cap);
        // Free choice with flying kings (russian): the capture goes on
        // whenever it can, so a landing square where it ends is a move only
        // when no landing square of this jump goes on. (Under the maximum
        // capture rule such ends are dropped by their score anyway.)
        let defer = !R::MAXIMUM_CAPTURE && R::FLYING_KINGS;
        let mut ends = Bb::<R>::ZERO;
        let mut any_extended = straight;
        let mut land = first;
        loop {
            let mut extended = straight;
            for e in 0..G::<R>::DIRS.len() {
                if e == d || (Self::reverse_blocked() && e == d ^ 1) {
                    continue;
                }
                extended |= self.king_dir(land, cap, sc, e, promote);
            }
            if !extended {
                if defer {
                    ends |= land;
                } else {
                    self.add(land, cap, sc, promote);
                }
            }
            any_extended |= extended;
            if !R::FLYING_KINGS {
                break;
            }
            land = G::<R>::step(land, d);
            if (land & free_after).is_empty() {
                break;
            }
        }
        if defer && !any_extended {
            for sq in ends.iter() {
                self.add(Bb::<R>::bit(sq), cap, sc, promote);
            }
        }
        true
    }
}

fn generate_captures<R: Rules, const S: usize>(
    pos: &Position<Bb<R>>,
    out: &mut MoveList<Move<Bb<R>>>,
) {
    let own = pos.pieces[S];
    let opp = pos.pieces[1 - S];
    let empty = G::<R>::BOARD & !(own | opp);
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let mut cap = Captures::<R> {
        out,
        opp,
        kings: pos.kings,
        empty,
        from: 0,
        best: 0,
    };
    for b in men_that_capture::<R, S>(men, opp, empty).iter() {
        let from = Bb::<R>::bit(b);
        cap.from = b as u8;
        cap.empty = empty | from;
        cap.man::<S>(from, Bb::<R>::ZERO, 0, NO_DIR);
    }
    if kings.is_empty() {
        return;
    }
    for d in 0..G::<R>::DIRS.len() {
        for b in kings_capturing_in::<R>(kings, opp, empty, d).iter() {
            let from = Bb::<R>::bit(b);
            cap.from = b as u8;
            cap.empty = empty | from;
            cap.king_dir(from, Bb::<R>::ZERO, 0, d, false);
        }
    }
}

/// The kings that can make a first capture in direction `d`: those whose
/// first occupied square in `d` is an enemy piece with an empty square
/// behind it. Found in bulk by walking back from those enemy pieces.
#[inline(always)]
fn kings_capturing_in<R: Rules>(kings: Bb<R>, opp: Bb<R>, empty: Bb<R>, d: usize) -> Bb<R> {
    let targets = opp & G::<R>::step(empty, d ^ 1);
    let mut before = G::<R>::step(targets, d ^ 1);
    let mut found = before & kings;
    if R::FLYING_KINGS {
        before &= empty;
        while before.any() {
            before = G::<R>::step(before, d ^ 1);
            found |= before & kings;
            before &= empty;
        }
    }
    found
}

fn generate_quiet<R: Rules, const S: usize>(
    pos: &Position<Bb<R>>,
    out: &mut MoveList<Move<Bb<R>>>,
) {
    let own = pos.pieces[S];
    let empty = G::<R>::BOARD & !(own | pos.pieces[1 - S]);
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    man_steps::<R, S>(men, empty, out);
    for k in kings.iter() {
        let from = Bb::<R>::bit(k);
        for d in 0..G::<R>::DIRS.len() {
            let mut t = G::<R>::step(from, d) & empty;
            while t.any() {
                out.push(Move {
                    captured: Bb::<R>::ZERO,
                    from: k as u8,
                    to: t.lowest() as u8,
                    promote: false,
                });
                if !R::FLYING_KINGS {
                    break;
                }
                t = G::<R>::step(t, d) & empty;
            }
        }
    }
}

#[inline(always)]
fn count_quiet<R: Rules, const S: usize>(pos: &Position<Bb<R>>) -> u64 {
    let own = pos.pieces[S];
    let empty = G::<R>::BOARD & !(own | pos.pieces[1 - S]);
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let mut n = 0u32;
    for &d in R::MAN_STEP_DIRS[S] {
        n += (G::<R>::step(men, d) & empty).count();
    }
    if kings.any() {
        for d in 0..G::<R>::DIRS.len() {
            let mut t = G::<R>::step(kings, d) & empty;
            while t.any() {
                n += t.count();
                if !R::FLYING_KINGS {
                    break;
                }
                t = G::<R>::step(t, d) & empty;
            }
        }
    }
    n as u64
}

/// All legal moves by the full capture search only (no bulk single-jump
/// path): the reference the fast paths are tested against.
pub fn generate_by_search<R: Rules>(pos: &Position<Bb<R>>, out: &mut MoveList<Move<Bb<R>>>) {
    out.clear();
    fn side<R: Rules, const S: usize>(pos: &Position<Bb<R>>, out: &mut MoveList<Move<Bb<R>>>) {
        if has_capture_side::<R, S>(pos) {
            generate_captures::<R, S>(pos, out);
        } else {
            generate_quiet::<R, S>(pos, out);
        }
    }
    if pos.side == 0 {
        side::<R, 0>(pos, out)
    } else {
        side::<R, 1>(pos, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{Brazilian, English, International, Spanish};
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// A random legal-looking position: up to `n` pieces a side, some kings,
    /// no man on its own promotion row.
    fn random_position<R: Rules>(rng: &mut SmallRng, n: usize) -> Position<Bb<R>> {
        let squares = G::<R>::SQUARES;
        let mut pieces = [Bb::<R>::ZERO; 2];
        let mut kings = Bb::<R>::ZERO;
        for s in 0..2 {
            for _ in 0..rng.random_range(1..=n) {
                let b = G::<R>::bit_of(rng.random_range(0..squares));
                if ((pieces[0] | pieces[1]) & b).any() {
                    continue;
                }
                pieces[s] |= b;
                if rng.random_range(0..4) == 0 || (b & G::<R>::PROMOTION[s]).any() {
                    kings |= b;
                }
            }
        }
        Position::new(pieces[0], pieces[1], kings, rng.random_range(0..2))
    }

    fn sorted<B: Bitboard>(list: &MoveList<Move<B>>) -> Vec<(u8, u8, B, bool)> {
        let mut v: Vec<_> = list
            .iter()
            .map(|m| (m.from, m.to, m.captured, m.promote))
            .collect();
        v.sort_by_key(|x| (x.0, x.1, format!("{:?}", x.2)));
        v
    }

    fn fast_paths_agree_with_search<R: Rules>() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut fast = MoveList::new();
        let mut full = MoveList::new();
        for i in 0..20_000 {
            let pos = random_position::<R>(&mut rng, 4 + i % 16);
            generate::<R>(&pos, &mut fast);
            generate_by_search::<R>(&pos, &mut full);
            assert_eq!(sorted(&fast), sorted(&full), "{} {pos:?}", R::NAME);
            assert_eq!(
                count_moves::<R>(&pos),
                full.len() as u64,
                "{} {pos:?}",
                R::NAME
            );
            assert_eq!(has_capture::<R>(&pos), full.iter().any(|m| m.is_capture()));
        }
    }

    /// The promotions the quiescence search plays are exactly the legal
    /// quiet moves that crown a man, on random positions without a capture.
    fn promotions_are_the_crowning_quiet_moves<R: Rules>() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut all = MoveList::new();
        let mut promos = MoveList::new();
        let mut seen = 0;
        for i in 0..20_000 {
            let pos = random_position::<R>(&mut rng, 4 + i % 16);
            if has_capture::<R>(&pos) {
                continue;
            }
            generate::<R>(&pos, &mut all);
            generate_promotions::<R>(&pos, &mut promos);
            let mut want = MoveList::new();
            for &m in all.iter().filter(|m| m.promote) {
                want.push(m);
            }
            assert_eq!(sorted(&promos), sorted(&want), "{} {pos:?}", R::NAME);
            seen += promos.len();
        }
        assert!(seen > 100, "{}: only {seen} promotions", R::NAME);
    }

    #[test]
    fn promotions_in_the_quiescence_search_are_the_crowning_moves() {
        promotions_are_the_crowning_quiet_moves::<International>();
        promotions_are_the_crowning_quiet_moves::<Brazilian>();
        promotions_are_the_crowning_quiet_moves::<English>();
        promotions_are_the_crowning_quiet_moves::<Spanish>();
    }

    #[test]
    fn bulk_single_jumps_agree_with_the_capture_search() {
        fast_paths_agree_with_search::<International>();
        fast_paths_agree_with_search::<Brazilian>();
        fast_paths_agree_with_search::<English>();
        fast_paths_agree_with_search::<Spanish>();
    }
}
