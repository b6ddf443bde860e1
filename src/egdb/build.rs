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
//! The propagation runs in order of distance to conversion (DTC: plies to
//! leaving the slice by a capture, a crowning or the end of the game, the
//! winner leaving as fast as it can, the loser as late as it can): a
//! position without a move has distance 0; a win by a move out of the
//! slice and a loss whose every move leaves it have distance 1; the
//! positions decided from a frontier of distance `d` have distance `d + 1`
//! (a win from its nearest lost successor, a loss from its farthest won
//! one, which is the last to be decided). The distances are kept when asked
//! (`.dtc` files, one byte a position, saturating at 255).
//!
//! The move-count draw rules are not part of the values (docs/egdb.md).

use super::file;
use super::index::{Board, Indexer};
use super::{Material, Slice, Wdl, dtc_path, rules_key, slice_path};
use crate::draughts::{Bb, Bitboard, Geometry, Position, Rules, movegen};
use crate::game::MoveList;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
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
    /// The longest distance to conversion of a decided position (plies);
    /// 0 when the slice was not built.
    pub levels: u32,
    /// The slice has a distance file (written or found); `bytes` does not
    /// count it.
    pub dtc: bool,
    /// Loaded from a finished file instead of built.
    pub reused: bool,
    pub seconds: f64,
    /// The size of the slice's file on disk (compressed).
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

/// A built slice: its values, the longest distance to conversion, and the
/// distances (one byte a position, White to move first) when asked.
pub struct Built {
    pub slice: Slice,
    pub levels: u32,
    pub dtc: Option<Vec<u8>>,
}

/// Builds one slice; every slice its moves lead to must be in `solved`.
/// With `want_dtc` the distances to conversion are kept too.
pub fn build_slice<R: Rules>(
    solved: &Solved,
    m: Material,
    want_dtc: bool,
    bar: &ProgressBar,
) -> Result<Built, String> {
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

    let dtc: Vec<AtomicU8> = if want_dtc {
        (0..total)
            .into_par_iter()
            .map(|_| AtomicU8::new(0))
            .collect()
    } else {
        Vec::new()
    };

    // 1. The initial pass: decided positions with their distance (0: no
    //    move; 1: a move out of the slice wins, or every move leaves it),
    //    marked in bitmaps (a bit a position) so that a frontier costs the
    //    same memory however many positions it holds.
    let mut frontier = Bitmap::new(total);
    let at_one = Bitmap::new(total);
    (0..total as usize)
        .into_par_iter()
        .with_min_len(1024)
        .for_each_init(MoveList::new, |list, g| {
            let g = g as u64;
            if g.is_multiple_of(65_536) {
                bar.inc(65_536.min(total - g));
            }
            let side = (g / n) as u8;
            let pos = board.join::<R>(ix.unindex(g % n), side);
            movegen::generate::<R>(&pos, list);
            if list.is_empty() {
                state[g as usize].store(LOSS, Ordering::Relaxed);
                frontier.set(g);
                return;
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
                        at_one.set(g);
                        return;
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
                if v == LOSS {
                    at_one.set(g);
                }
                return;
            }
            moves_left[g as usize].store(inside as u8, Ordering::Relaxed);
            if can_draw {
                state[g as usize].store(CAN_DRAW, Ordering::Relaxed);
            }
        });

    // 2. Propagation, one distance at a time: the positions of distance d
    //    (`frontier`) decide their predecessors, which form distance d + 1.
    //    The distance-1 positions of the first pass join at d = 1, so only
    //    an empty frontier after that ends the propagation.
    let mut next = Bitmap::new(total);
    let mut levels = 0u32;
    let mut d = 0u32;
    loop {
        if d == 1 {
            frontier.or_with(&at_one);
        }
        let size = frontier.count();
        if size == 0 && d > 0 {
            break;
        }
        if size > 0 {
            levels = d;
        }
        if want_dtc {
            let v = d.min(file::DTC_UNKNOWN as u32) as u8;
            frontier.for_each(|g| dtc[g as usize].store(v, Ordering::Relaxed));
        }
        bar.set_message(format!("{m}: distance {d}, {size} new"));
        d += 1;
        frontier.for_each(|g| {
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
                        next.set(pg);
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
                    next.set(pg);
                }
            });
        });
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
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
    let dtc = want_dtc.then(|| dtc.into_iter().map(AtomicU8::into_inner).collect());
    Ok(Built {
        slice: Slice { indexer: ix, data },
        levels,
        dtc,
    })
}

/// A set of positions of a slice, a bit each, which threads may add to at
/// once: the frontiers of the propagation.
struct Bitmap {
    words: Vec<AtomicU64>,
}

impl Bitmap {
    fn new(bits: u64) -> Self {
        Bitmap {
            words: (0..bits.div_ceil(64))
                .into_par_iter()
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    fn set(&self, g: u64) {
        self.words[(g / 64) as usize].fetch_or(1 << (g % 64), Ordering::Relaxed);
    }

    fn count(&self) -> u64 {
        self.words
            .par_iter()
            .map(|w| w.load(Ordering::Relaxed).count_ones() as u64)
            .sum()
    }

    fn or_with(&mut self, other: &Bitmap) {
        self.words
            .par_iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a.get_mut() |= b.load(Ordering::Relaxed));
    }

    fn clear(&mut self) {
        self.words.par_iter_mut().for_each(|w| *w.get_mut() = 0);
    }

    /// Calls `f` on every position in the set, in parallel.
    fn for_each(&self, f: impl Fn(u64) + Sync) {
        self.words
            .par_iter()
            .enumerate()
            .with_min_len(16)
            .for_each(|(i, w)| {
                let mut bits = w.load(Ordering::Relaxed);
                while bits != 0 {
                    let b = bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    f(i as u64 * 64 + b);
                }
            });
    }
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
    /// Write distance-to-conversion files for the slices of at most this
    /// many pieces (0: none).
    pub dtc_pieces: u32,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// The most memory a slice's build may need, in bytes (its working
    /// arrays and the finished slices held for its exits; see
    /// [`build_memory`]): a slice above it stops the build with an error
    /// before anything is allocated. `None`: no limit.
    pub memory: Option<u64>,
    /// `(K, N)`: build only the K-th (from 1) of N shares of the slices
    /// (every N-th slice of the build order), reading the other shares'
    /// slices from the folder as their builds write them (waiting for
    /// them when a slice of this share leads to one not yet there).
    /// `(1, 1)`: every slice.
    pub shard: (u64, u64),
}

/// How often a shard looks again for a slice that another shard builds.
const SHARD_POLL: Duration = Duration::from_secs(2);

/// The memory, in bytes, that building a slice of `positions` positions
/// (both sides to move) takes: a state, a move counter and, with
/// distances, a distance byte a position; three bitmaps (two frontiers and
/// the positions of distance 1); the packed values (2 bits a position).
/// The finished slices it leads to come on top.
pub fn build_memory(positions: u64, dtc: bool) -> u64 {
    positions * (2 + dtc as u64) + 3 * positions.div_ceil(64) * 8 + positions.div_ceil(4)
}

fn gib(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}

/// The slice `m` that shard `owner` builds, read from `path` once it is
/// there and reads back correctly (a file is renamed into place only when
/// whole, and a bad one is rebuilt by its owner).
fn wait_for_slice(
    path: &Path,
    key: &str,
    board: &Board,
    m: Material,
    bar: &ProgressBar,
    owner: (u64, u64),
) -> Slice {
    let mut said = false;
    loop {
        if let Ok(s) = file::read(path, key, board, m) {
            return s;
        }
        if !said {
            said = true;
            bar.println(format!(
                "waiting for slice {m}, which shard {}/{} builds ({})",
                owner.0,
                owner.1,
                path.display()
            ));
            log::info!(
                "egdb: waiting for slice {m} from shard {}/{}",
                owner.0,
                owner.1
            );
        }
        std::thread::sleep(SHARD_POLL);
    }
}

/// Builds (or reuses the finished files of) every slice of `R` up to
/// `opts.pieces` pieces under `opts.root`, in dependency order. A finished
/// file that reads back correctly is reused; a bad one is reported and
/// rebuilt. Returns one report a slice.
pub fn build_all<R: Rules>(opts: &BuildOptions) -> Result<Vec<SliceReport>, String> {
    if !R::DESCRIPTOR.endgame_databases {
        return Err(format!(
            "{} has no endgame databases: the builder's values assume that a player without a \
             legal move loses, and this game ends otherwise (docs/variants.md)",
            R::NAME
        ));
    }
    let key = rules_key::<R>();
    let board = Board::of::<R>();
    // What an interrupted write left (the finished files are kept).
    file::remove_stale_temps(&opts.root.join(key));
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
    let (share, shares) = opts.shard;
    if share == 0 || share > shares {
        return Err(format!(
            "shard {share}/{shares}: expected K/N with 1 <= K <= N"
        ));
    }
    let own = |i: usize| i as u64 % shares == share - 1;
    for (i, (&m, &size)) in materials.iter().zip(&sizes).enumerate() {
        let path = slice_path(opts.root, key, m);
        let dpath = dtc_path(opts.root, key, m);
        let want_dtc = m.pieces() <= opts.dtc_pieces;
        // Only the finished slices that this one or a later one of this
        // share may lead to stay in memory (the others are on disk).
        solved.slices.retain(|&done, _| {
            (i..materials.len()).any(|j| own(j) && materials[j].may_lead_to(done))
        });
        if !own(i) {
            // Another shard builds it: read it (when it is there) only if
            // a slice of this share leads to it.
            if (i + 1..materials.len()).any(|j| own(j) && materials[j].may_lead_to(m)) {
                let owner = i as u64 % shares + 1;
                let slice = wait_for_slice(&path, key, &board, m, &bar, (owner, shares));
                solved.slices.insert(m, Arc::new(slice));
            }
            bar.inc(size);
            continue;
        }
        let held: u64 = solved.slices.values().map(|s| s.data.len() as u64).sum();
        let need = build_memory(size, want_dtc) + held;
        if let Some(limit) = opts.memory
            && need > limit
        {
            return Err(format!(
                "slice {m} needs about {} to build ({size} positions, and {} of the finished slices it leads to), above the limit of {} (--memory); the slices before it are built and kept",
                gib(need),
                gib(held),
                gib(limit)
            ));
        }
        let start = Instant::now();
        let mut levels = 0;
        let existing = if path.exists() {
            match file::read_versioned(&path, key, &board, m) {
                // The values, and whether the file is of the format before
                // compression.
                Ok((s, version)) => Some((s, version == file::VERSION_PLAIN)),
                Err(e) => {
                    bar.println(format!("{}: {e}; rebuilding", path.display()));
                    log::warn!("egdb: {}: {e}; rebuilding", path.display());
                    None
                }
            }
        } else {
            None
        };
        // The distances, when they read back correctly: their values are
        // kept only when the file is of the format before compression and
        // the slice is reused (to be written again compressed).
        let mut dtc_plain = None;
        let dtc_ok = want_dtc
            && dpath.exists()
            && match file::read_dtc_versioned(&dpath, key, &board, m) {
                Ok((d, version)) => {
                    if version == file::VERSION_PLAIN && existing.is_some() {
                        dtc_plain = Some(d);
                    }
                    true
                }
                Err(e) => {
                    bar.println(format!("{}: {e}; rebuilding", dpath.display()));
                    log::warn!("egdb: {}: {e}; rebuilding", dpath.display());
                    false
                }
            };
        let reused = existing.is_some() && (dtc_ok || !want_dtc);
        let slice = match existing {
            Some((s, plain)) if reused => {
                bar.inc(size);
                // Files of the format before compression are written again
                // compressed (the values were just read and checked).
                if plain {
                    file::write(&path, key, &s)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                }
                if let Some(d) = dtc_plain.take() {
                    file::write_dtc(&dpath, key, &s.indexer, &d)
                        .map_err(|e| format!("cannot write {}: {e}", dpath.display()))?;
                }
                s
            }
            existing => {
                bar.set_message(format!("{m}"));
                let built = build_slice::<R>(&solved, m, want_dtc, &bar)?;
                levels = built.levels;
                match &existing {
                    // Only the distances were missing: the values found
                    // again must be the stored ones.
                    Some((old, _)) if old.data != built.slice.data => {
                        return Err(format!(
                            "{}: the stored values differ from the ones built again for the distances (rebuild the slice: delete the file)",
                            path.display()
                        ));
                    }
                    // The stored values, in the format before compression:
                    // written again compressed.
                    Some((_, true)) | None => file::write(&path, key, &built.slice)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
                    Some((_, false)) => {}
                }
                if let Some(d) = &built.dtc {
                    file::write_dtc(&dpath, key, &built.slice.indexer, d)
                        .map_err(|e| format!("cannot write {}: {e}", dpath.display()))?;
                }
                built.slice
            }
        };
        reports.push(SliceReport {
            material: m,
            count: slice.indexer.count,
            wdl: slice.counts(),
            levels,
            dtc: want_dtc,
            reused,
            seconds: start.elapsed().as_secs_f64(),
            bytes: std::fs::metadata(&path).map_or(0, |md| md.len()),
        });
        solved.slices.insert(m, Arc::new(slice));
    }
    bar.finish_and_clear();
    Ok(reports)
}
