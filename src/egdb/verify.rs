//! The consistency pass over built files (`salto egdb verify`): every
//! position's stored value must equal the best value of its successors, with
//! the successors' values read from the files too and the moves from the
//! engine's generator.
//!
//! What it shares with the generator: the engine's move generator and the
//! index (it reads the files through [`Database`]). What it does not: the
//! retrograde propagation (it evaluates every position forward, one ply).
//! A consistent labelling can still call a drawn cycle won; the tests
//! (tests/egdb.rs) close that gap for small piece counts with a separate
//! solver of their own.

use super::{Database, Material, Wdl};
use crate::draughts::{Rules, movegen};
use crate::game::MoveList;
use indicatif::ProgressBar;
use rayon::prelude::*;

/// The result of checking one slice.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    pub material: Material,
    /// Positions checked (both sides to move).
    pub checked: u64,
    /// Positions whose value disagrees with their successors'.
    pub mismatches: u64,
    /// The slice (or one its moves lead to) could not be loaded.
    pub missing: bool,
    /// Positions whose stored distance to conversion disagrees with their
    /// successors' (only when the slice has a distance file).
    pub dtc_mismatches: u64,
    /// The slice has a distance file that was checked.
    pub dtc: bool,
}

/// The distance to conversion a decided position must have given its
/// successors' values and distances: no move, 0; a win, 1 + the least
/// distance of a lost successor (0 for one out of the slice); a loss, 1 +
/// the greatest distance of a successor (0 out of the slice); saturating at
/// 255. `None` for a draw, or when a successor is unknown.
pub fn dtc_of_successors<R: Rules>(
    db: &Database,
    pos: &crate::draughts::Position<crate::draughts::Bb<R>>,
    wdl: Wdl,
    list: &mut MoveList<crate::draughts::Move<crate::draughts::Bb<R>>>,
) -> Option<u32> {
    movegen::generate::<R>(pos, list);
    if list.is_empty() {
        return Some(0);
    }
    let m = Material::of(pos);
    let mut best: Option<u32> = None;
    for &mv in list.iter() {
        let next = pos.play(mv);
        let inside = Material::of(&next) == m;
        let (v, d) = if inside {
            let (v, d) = db.probe_dtc::<R>(&next)?;
            (v, d? as u32)
        } else {
            (db.probe::<R>(&next)?, 0)
        };
        match (wdl, v) {
            (Wdl::Win, Wdl::Loss) => best = Some(best.map_or(d, |b| b.min(d))),
            (Wdl::Loss, _) => best = Some(best.map_or(d, |b| b.max(d))),
            _ => {}
        }
    }
    match wdl {
        Wdl::Draw => None,
        _ => best.map(|b| (b + 1).min(super::file::DTC_UNKNOWN as u32)),
    }
}

/// The value a position must have given its successors' values, or `None`
/// when a successor's value is unknown.
pub fn best_of_successors<R: Rules>(
    db: &Database,
    pos: &crate::draughts::Position<crate::draughts::Bb<R>>,
    list: &mut MoveList<crate::draughts::Move<crate::draughts::Bb<R>>>,
) -> Option<Wdl> {
    movegen::generate::<R>(pos, list);
    let mut best = Wdl::Loss;
    for &mv in list.iter() {
        match db.probe::<R>(&pos.play(mv))?.flip() {
            Wdl::Win => return Some(Wdl::Win),
            Wdl::Draw => best = Wdl::Draw,
            Wdl::Loss => {}
        }
    }
    Some(best)
}

/// Checks every position of slice `m`.
pub fn verify_slice<R: Rules>(db: &Database, m: Material, bar: &ProgressBar) -> VerifyReport {
    let Some(slice) = db.slice(m) else {
        return VerifyReport {
            material: m,
            checked: 0,
            mismatches: 0,
            missing: true,
            dtc_mismatches: 0,
            dtc: false,
        };
    };
    let dtc = db.dtc(m);
    let n = slice.indexer.count;
    let (mismatches, missing, dtc_mismatches) = (0..2 * n as usize)
        .into_par_iter()
        .with_min_len(1024)
        .map_init(MoveList::new, |list, g| {
            let g = g as u64;
            if g.is_multiple_of(65_536) {
                bar.inc(65_536.min(2 * n - g));
            }
            let side = (g / n) as u8;
            let pos = db.board.join::<R>(slice.indexer.unindex(g % n), side);
            let stored = slice.get(side, g % n);
            let (bad, missing) = match best_of_successors::<R>(db, &pos, list) {
                Some(v) if Some(v) == stored => (0u64, 0u64),
                Some(_) => (1, 0),
                None => (0, 1),
            };
            let bad_dtc = match (dtc, stored) {
                (Some(d), Some(v)) if v != Wdl::Draw => {
                    let s = d[g as usize];
                    match dtc_of_successors::<R>(db, &pos, v, list) {
                        Some(want) => u64::from(want != s as u32),
                        None => 1,
                    }
                }
                _ => 0,
            };
            (bad, missing, bad_dtc)
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    VerifyReport {
        material: m,
        checked: 2 * n,
        mismatches,
        missing: missing > 0,
        dtc_mismatches,
        dtc: dtc.is_some(),
    }
}
