//! The generator: retrograde analysis of one material configuration after
//! another, generic over the draughts [`Rules`].
//!
//! A slice holds every position of one material with either side to move.
//! Its moves either stay in it (quiet moves that crown nothing) or leave it
//! (captures and crownings) for a slice built before. The analysis:
//!
//! 1. **Initial pass**, every position: generate the legal moves with the
//!    engine's generator. No move: a loss. A move out of the slice whose
//!    result is a loss for the opponent: a win. A move out to a draw marks
//!    the position "can draw". The moves that stay are counted.
//! 2. **Propagation**, level by level from the positions just decided:
//!    every predecessor inside the slice (found by un-moving a quiet king
//!    move or man step of the player who just moved, kept only when that
//!    player had no capture, so the move was legal) of a lost position is a
//!    win; a predecessor of a won position loses one counted move, and when
//!    none is left (and it cannot draw by leaving) it is a loss.
//! 3. Whatever is undecided at the end is a draw.
//!
//! The move-count draw rules are not part of the values (docs/egdb.md).

use super::file;
use super::index::{Board, Indexer};
use super::{Material, Slice, Wdl, rules_key, slice_path};
use crate::draughts::{Bb, Bitboard, Geometry, Position, Rules, movegen};
use crate::game::MoveList;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;
/// The position can draw by a move out of the slice.
const CAN_DRAW: u8 = 4;

/// What the build of one slice found.
#[derive(Clone, Debug)]
pub struct SliceReport {
    pub material: Material,
    /// Positions a side to move.
    pub count: u64,
    /// Win, draw, loss with White and Black to move.
    pub wdl: [[u64; 3]; 2],
    /// Propagation levels (plies of the longest decided line inside it).
    pub levels: u32,
    /// Loaded from a finished file instead of built.
    pub reused: bool,
    pub seconds: f64,
    pub bytes: u64,
}

/// The finished slices a build looks its exits up in.
pub struct Solved {
    pub board: Board,
    pub slices: HashMap<Material, Arc<Slice>>,
}

impl Solved {
    /// The value of `pos` (a position after a move out of the slice being
    /// built) for its player to move.
    fn value<R: Rules>(&self, pos: &Position<Bb<R>>) -> Option<Wdl> {
        let s = pos.side as usize & 1;
        if pos.pieces[s].is_empty() {
            return Some(Wdl::Loss);
        }
        if pos.pieces[1 - s].is_empty() {
            return Some(Wdl::Win);
        }
        self.slices
            .get(&Material::of(pos))?
            .value::<R>(&self.board, pos)
    }
}

/// Builds one slice; every slice its moves lead to must be in `solved`.
pub fn build_slice<R: Rules>(
    solved: &Solved,
    m: Material,
    bar: &ProgressBar,
) -> Result<(Slice, u32), String> {
    let board = &solved.board;
    let ix = Indexer::new(board, m);
    let n = ix.count;
    let total = 2 * n;
    let state: Vec<AtomicU8> = (0..total)
        .into_par_iter()
        .map(|_| AtomicU8::new(0))
        .collect();
    let moves_left: Vec<AtomicU8> = (0..total)
        .into_par_iter()
        .map(|_| AtomicU8::new(0))
        .collect();
    let error = AtomicBool::new(false);
    let fail = |msg: String| {
        if !error.swap(true, Ordering::Relaxed) {
            log::error!("egdb: {msg}");
        }
    };

    // 1. The initial pass.
    let mut frontier: Vec<u64> = (0..total as usize)
        .into_par_iter()
        .with_min_len(1024)
        .map_init(MoveList::new, |list, g| {
            let g = g as u64;
            if g.is_multiple_of(65_536) {
                bar.inc(65_536.min(total - g));
            }
            let side = (g / n) as u8;
            let pos = board.join::<R>(ix.unindex(g % n), side);
            movegen::generate::<R>(&pos, list);
            if list.is_empty() {
                state[g as usize].store(LOSS, Ordering::Relaxed);
                return Some(g);
            }
            let mut inside = 0u32;
            let mut can_draw = false;
            for &mv in list.iter() {
                let next = pos.play(mv);
                if Material::of(&next) == m {
                    inside += 1;
                    continue;
                }
                match solved.value::<R>(&next) {
                    Some(Wdl::Loss) => {
                        state[g as usize].store(WIN, Ordering::Relaxed);
                        return Some(g);
                    }
                    Some(Wdl::Draw) => can_draw = true,
                    Some(Wdl::Win) => {}
                    None => fail(format!(
                        "slice {m}: a move leads to {}, which is not built",
                        Material::of(&next)
                    )),
                }
            }
            if inside > 255 {
                fail(format!("slice {m}: {inside} moves, more than 255"));
            }
            if inside == 0 {
                let v = if can_draw { DRAW } else { LOSS };
                state[g as usize].store(v, Ordering::Relaxed);
                return (v == LOSS).then_some(g);
            }
            moves_left[g as usize].store(inside as u8, Ordering::Relaxed);
            if can_draw {
                state[g as usize].store(CAN_DRAW, Ordering::Relaxed);
            }
            None
        })
        .flatten()
        .collect();

    // 2. Propagation.
    let mut levels = 0;
    while !frontier.is_empty() {
        levels += 1;
        bar.set_message(format!("{m}: level {levels}, {} new", frontier.len()));
        frontier = frontier
            .par_iter()
            .with_min_len(256)
            .fold(Vec::new, |mut next, &g| {
                let side = (g / n) as u8;
                let q = board.join::<R>(ix.unindex(g % n), side);
                let won = state[g as usize].load(Ordering::Relaxed) & 3 == WIN;
                predecessors::<R>(&q, |p| {
                    let pg = p.side as u64 * n + ix.index(board.split::<R>(&p));
                    let cell = &state[pg as usize];
                    let cur = cell.load(Ordering::Relaxed);
                    if cur & 3 != 0 {
                        return;
                    }
                    if !won {
                        // The mover can reach a lost position: a win.
                        if cell
                            .compare_exchange(
                                cur,
                                (cur & !3) | WIN,
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            )
                            .is_ok()
                        {
                            next.push(pg);
                        }
                        return;
                    }
                    let before = moves_left[pg as usize].fetch_sub(1, Ordering::Relaxed);
                    if before == 0 {
                        fail(format!(
                            "slice {m}: an un-move without its move (index {pg})"
                        ));
                    } else if before == 1
                        && cur & CAN_DRAW == 0
                        && cell
                            .compare_exchange(cur, LOSS, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                    {
                        next.push(pg);
                    }
                });
                next
            })
            .reduce(Vec::new, |mut a, mut b| {
                if a.len() < b.len() {
                    std::mem::swap(&mut a, &mut b);
                }
                a.extend(b);
                a
            });
    }
    if error.load(Ordering::Relaxed) {
        return Err(format!("slice {m} failed (see the log)"));
    }

    // 3. Pack; the undecided are draws.
    let mut data = vec![0u8; file::payload_len(n)];
    data.par_iter_mut().enumerate().for_each(|(b, byte)| {
        let mut v = 0u8;
        for k in 0..4 {
            let g = b * 4 + k;
            if g as u64 >= total {
                break;
            }
            let s = state[g].load(Ordering::Relaxed) & 3;
            v |= (if s == 0 { DRAW } else { s }) << (2 * k);
        }
        *byte = v;
    });
    Ok((Slice { indexer: ix, data }, levels))
}

/// Calls `f` with every position from which the player who just moved
/// (not `q.side`) reached `q` by a quiet move that stays in the slice: a
/// king move, or a man step that crowns nothing; the position must have no
/// capture (else the move was not legal).
fn predecessors<R: Rules>(q: &Position<Bb<R>>, mut f: impl FnMut(Position<Bb<R>>)) {
    let mover = 1 - (q.side as usize & 1);
    let empty = R::Geo::BOARD & !q.occupied();
    let mut emit = |from: Bb<R>, to: Bb<R>, king: bool| {
        let mut pieces = q.pieces;
        pieces[mover] ^= from | to;
        let kings = if king { q.kings ^ from ^ to } else { q.kings };
        let p = Position::new(pieces[0], pieces[1], kings, mover as u8);
        if !movegen::has_capture::<R>(&p) {
            f(p);
        }
    };
    let own = q.pieces[mover];
    for bit in (own & q.kings).iter() {
        let at = Bb::<R>::bit(bit);
        for d in 0..R::Geo::DIRS.len() {
            let mut b = R::Geo::step(at, d);
            while (b & empty).any() {
                emit(b, at, true);
                if !R::FLYING_KINGS {
                    break;
                }
                b = R::Geo::step(b, d);
            }
        }
    }
    for bit in (own & !q.kings).iter() {
        let at = Bb::<R>::bit(bit);
        for &d in R::MAN_STEP_DIRS[mover] {
            let b = R::Geo::step(at, d ^ 1);
            if (b & empty).any() {
                emit(b, at, false);
            }
        }
    }
}

/// Settings of a build.
pub struct BuildOptions<'a> {
    pub root: &'a Path,
    pub pieces: u32,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// Builds (or reuses the finished files of) every slice of `R` up to
/// `opts.pieces` pieces under `opts.root`, in dependency order. A finished
/// file that reads back correctly is reused; a bad one is reported and
/// rebuilt. Returns one report a slice.
pub fn build_all<R: Rules>(opts: &BuildOptions) -> Result<Vec<SliceReport>, String> {
    let key = rules_key::<R>();
    let board = Board::of::<R>();
    let materials = Material::all_up_to(opts.pieces);
    let sizes: Vec<u64> = materials
        .iter()
        .map(|&m| 2 * Indexer::new(&board, m).count)
        .collect();
    let bar = if opts.progress {
        let b = ProgressBar::new(sizes.iter().sum());
        b.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {percent}% {human_pos}/{human_len} eta {eta} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        b.enable_steady_tick(Duration::from_millis(500));
        b
    } else {
        ProgressBar::hidden()
    };
    let mut solved = Solved {
        board: board.clone(),
        slices: HashMap::new(),
    };
    let mut reports = Vec::new();
    for (&m, &size) in materials.iter().zip(&sizes) {
        let path = slice_path(opts.root, key, m);
        let start = Instant::now();
        let mut reused = false;
        let mut levels = 0;
        let slice = if path.exists() {
            match file::read(&path, key, &board, m) {
                Ok(s) => {
                    reused = true;
                    bar.inc(size);
                    Some(s)
                }
                Err(e) => {
                    bar.println(format!("{}: {e}; rebuilding", path.display()));
                    log::warn!("egdb: {}: {e}; rebuilding", path.display());
                    None
                }
            }
        } else {
            None
        };
        let slice = match slice {
            Some(s) => s,
            None => {
                bar.set_message(format!("{m}"));
                let (s, l) = build_slice::<R>(&solved, m, &bar)?;
                levels = l;
                file::write(&path, key, &s)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                s
            }
        };
        reports.push(SliceReport {
            material: m,
            count: slice.indexer.count,
            wdl: slice.counts(),
            levels,
            reused,
            seconds: start.elapsed().as_secs_f64(),
            bytes: (file::HEADER + slice.data.len()) as u64,
        });
        solved.slices.insert(m, Arc::new(slice));
    }
    bar.finish_and_clear();
    Ok(reports)
}
