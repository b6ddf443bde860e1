//! Endgame databases: win/draw/loss for every position of the draughts
//! games with few pieces, built by Salto itself (`salto egdb build`) and
//! probed by the search. See docs/egdb.md.
//!
//! - [`index`]: the perfect index of a material configuration.
//! - [`file`]: the slice files (header, checksum, 2 bits a position).
//! - [`build`]: the generator (retrograde analysis).
//! - [`verify`]: the consistency pass over built files.
//! - [`place`]: the standard place, what a folder holds, the build on
//!   first use; [`hub`]: the Hub parameters and what `init` does.
//! - this module: materials, values, the lazily loaded database and the
//!   process-wide database the search probes.
//!
//! A database value is the game-theoretic one: the move-count draw rules
//! (and repetition) are not part of it.

pub mod build;
pub mod file;
pub mod index;
pub mod place;
pub mod verify;

use crate::draughts::{Bb, Bitboard, Position, Rules};
pub use crate::game::Wdl;
use crate::game::{SCORE_EGDB_MIN, SCORE_WIN_MIN, Score, Tablebase};
use index::{Board, Indexer};
use once_cell::sync::OnceCell;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

// Scores of database wins count plies from the root like mate scores:
// their band, `SCORE_EGDB_MIN` up to `SCORE_WIN_MIN`, is the game layer's
// (the transposition table and the score format know it); the ranks and
// distances below fill it exactly.
const _: () = assert!(SCORE_EGDB_MIN == SCORE_WIN_MIN - (RANKS + 1) * RANK_WIDTH);
/// The highest database score, below every mate score.
const SCORE_EGDB_MAX: Score = SCORE_WIN_MIN - 1;
/// The score band of one conversion rank: the distance, the ply, and the
/// evaluation tie-break of a slice without distances all fit in it.
const RANK_WIDTH: Score = 1024;
/// Conversion ranks: pieces + men - 2, at most 2 * MAX_PIECES - 2.
const RANKS: Score = 2 * index::MAX_PIECES as Score - 1;
/// Where the scores of wins without a stored distance start in a rank's
/// band (below every distance: 255 + MAX_PLY < 512).
const NO_DTC: Score = 512;

/// The conversion rank of a material: pieces + men. Every capture and
/// every crowning lowers it (a capture removes a piece and turns no king
/// back into a man; a crowning turns a man into a king), so a won line
/// that always lowers (rank, distance) ends.
pub fn rank(m: Material) -> Score {
    (m.pieces() + m.men()) as Score - 2
}

/// The search score of a database value at `ply` from the root, from the
/// view of the player to move. `dtc` is the stored distance to conversion
/// (plies to leaving the slice with best play) when there is one; `eval`
/// (called only without a distance) is the static evaluation, same view.
///
/// A win scores `SCORE_EGDB_MAX - RANK_WIDTH * rank - ply - dtc`: a
/// conversion into a won slice of lower rank always scores above staying,
/// and within a slice the shortest way out scores highest, so the winning
/// side makes progress and never repeats. Without a distance (or beyond
/// 254 plies) a win scores below every distance of its rank, ordered by
/// the evaluation (clamped). A loss is the negation, a draw 0.
pub fn score(
    wdl: Wdl,
    m: Material,
    dtc: Option<u8>,
    ply: usize,
    eval: impl FnOnce() -> Score,
) -> Score {
    let base = SCORE_EGDB_MAX - RANK_WIDTH * rank(m).clamp(0, RANKS) - ply.min(255) as Score;
    let sign = match wdl {
        Wdl::Draw => return 0,
        Wdl::Win => 1,
        Wdl::Loss => -1,
    };
    let win = match dtc {
        Some(d) if d != file::DTC_UNKNOWN => base - d as Score,
        _ => base - NO_DTC - 128 + (sign * eval() / 4).clamp(-127, 127),
    };
    sign * win
}

/// A material configuration: white men, white kings, black men, black
/// kings. Written as four digits (`1201` = 1 white man, 2 white kings, no
/// black man, 1 black king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub wm: u8,
    pub wk: u8,
    pub bm: u8,
    pub bk: u8,
}

impl Material {
    pub fn counts(self) -> [u32; 4] {
        [
            self.wm as u32,
            self.wk as u32,
            self.bm as u32,
            self.bk as u32,
        ]
    }

    /// Whether one move from a position of this material (either side to
    /// move) may lead to `after`: the mover keeps its pieces or crowns one
    /// man, the other side loses none or some of its men and kings. A
    /// build keeps in memory only the finished slices that a slice still to
    /// build may lead to.
    pub fn may_lead_to(self, after: Material) -> bool {
        let side =
            |m: u8, k: u8, m2: u8, k2: u8| (m2 == m && k2 == k) || (m2 + 1 == m && k2 == k + 1);
        let lost = |m: u8, k: u8, m2: u8, k2: u8| m2 <= m && k2 <= k;
        (side(self.wm, self.wk, after.wm, after.wk) && lost(self.bm, self.bk, after.bm, after.bk))
            || (side(self.bm, self.bk, after.bm, after.bk)
                && lost(self.wm, self.wk, after.wm, after.wk))
    }

    pub fn pieces(self) -> u32 {
        self.counts().iter().sum()
    }

    pub fn men(self) -> u32 {
        (self.wm + self.bm) as u32
    }

    /// The material of a position.
    pub fn of<B: Bitboard>(pos: &Position<B>) -> Material {
        let k = pos.kings;
        let c = |b: B| b.count() as u8;
        Material {
            wm: c(pos.pieces[0] & !k),
            wk: c(pos.pieces[0] & k),
            bm: c(pos.pieces[1] & !k),
            bk: c(pos.pieces[1] & k),
        }
    }

    /// Every material with both sides on the board and 2 to `n` pieces,
    /// in an order in which every slice comes after the slices its moves
    /// lead to (fewer pieces first; then fewer men, as a crowning turns a
    /// man into a king).
    pub fn all_up_to(n: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let n = n.min(index::MAX_PIECES as u32) as u8;
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    for bk in 0..=n - wm - wk - bm {
                        let m = Material { wm, wk, bm, bk };
                        if wm + wk > 0 && bm + bk > 0 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}{}", self.wm, self.wk, self.bm, self.bk)
    }
}

impl FromStr for Material {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let d: Vec<u8> = s
            .bytes()
            .filter(|b| b.is_ascii_digit())
            .map(|b| b - b'0')
            .collect();
        if d.len() != 4 || s.len() != 4 {
            return Err(format!(
                "bad material '{s}': expected four digits (white men, white kings, black men, black kings)"
            ));
        }
        Ok(Material {
            wm: d[0],
            wk: d[1],
            bm: d[2],
            bk: d[3],
        })
    }
}

/// The name of a rule set's database directory: its `Rules::KEY` (the
/// variant's name; `turkish-immediate` for turkish with promotion
/// mid-capture: different rules, different values).
pub fn rules_key<R: Rules>() -> &'static str {
    R::KEY
}

/// The file of a slice under the database root `root`.
pub fn slice_path(root: &Path, key: &str, m: Material) -> PathBuf {
    root.join(key).join(format!("{m}.egdb"))
}

/// The distance file of a slice under the database root `root`.
pub fn dtc_path(root: &Path, key: &str, m: Material) -> PathBuf {
    root.join(key).join(format!("{m}.dtc"))
}

/// One slice in memory: its index and its values, 2 bits a position,
/// White to move first.
#[derive(Debug)]
pub struct Slice {
    pub indexer: Indexer,
    pub data: Vec<u8>,
}

impl Slice {
    /// The value of index `i` with `side` to move.
    #[inline]
    pub fn get(&self, side: u8, i: u64) -> Option<Wdl> {
        let g = side as u64 * self.indexer.count + i;
        let byte = *self.data.get((g / 4) as usize)?;
        Wdl::from_code(byte >> (2 * (g % 4)))
    }

    /// The value of a position of this slice.
    #[inline]
    pub fn value<R: Rules>(&self, board: &Board, pos: &Position<Bb<R>>) -> Option<Wdl> {
        self.get(pos.side, self.indexer.index(board.split::<R>(pos)))
    }

    /// Win, draw and loss counts with White (0) and Black (1) to move.
    pub fn counts(&self) -> [[u64; 3]; 2] {
        let mut out = [[0u64; 3]; 2];
        for (side, c) in out.iter_mut().enumerate() {
            for i in 0..self.indexer.count {
                match self.get(side as u8, i) {
                    Some(Wdl::Win) => c[0] += 1,
                    Some(Wdl::Draw) => c[1] += 1,
                    Some(Wdl::Loss) => c[2] += 1,
                    None => {}
                }
            }
        }
        out
    }
}

/// A database of one rule set on disk, loaded lazily slice by slice. A
/// missing, truncated or mismatched file is reported once (log) and
/// skipped: its positions probe as unknown.
pub struct Database {
    pub key: &'static str,
    pub root: PathBuf,
    pub pieces: u32,
    pub board: Board,
    slices: HashMap<Material, OnceCell<Option<Arc<Slice>>>>,
    dtc: HashMap<Material, OnceCell<Option<Vec<u8>>>>,
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Database({}, {}, {} pieces)",
            self.key,
            self.root.display(),
            self.pieces
        )
    }
}

impl Database {
    /// The database of `R` under `root`, up to `pieces` pieces. Reads
    /// nothing yet.
    pub fn open<R: Rules>(root: &Path, pieces: u32) -> Database {
        let materials = Material::all_up_to(pieces);
        Database {
            key: rules_key::<R>(),
            root: root.to_path_buf(),
            pieces,
            board: Board::of::<R>(),
            slices: materials.iter().map(|&m| (m, OnceCell::new())).collect(),
            dtc: materials.iter().map(|&m| (m, OnceCell::new())).collect(),
        }
    }

    /// The slice of `m`, loaded on first use; `None` when it is not part of
    /// this database or its file is missing or bad.
    pub fn slice(&self, m: Material) -> Option<&Arc<Slice>> {
        let cell = self.slices.get(&m)?;
        cell.get_or_init(|| {
            let path = slice_path(&self.root, self.key, m);
            match file::read(&path, self.key, &self.board, m) {
                Ok(s) => {
                    log::info!("egdb: loaded {}", path.display());
                    Some(Arc::new(s))
                }
                Err(e) => {
                    report_bad(&path, &e, "playing without it");
                    None
                }
            }
        })
        .as_ref()
    }

    /// The distances of slice `m` (one byte a position, White to move
    /// first), loaded on first use; `None` when the file is missing (logged
    /// as information: distances are optional) or bad (logged as a
    /// warning).
    pub fn dtc(&self, m: Material) -> Option<&[u8]> {
        let cell = self.dtc.get(&m)?;
        cell.get_or_init(|| {
            let path = dtc_path(&self.root, self.key, m);
            if !path.exists() {
                log::info!("egdb: no distances {}", path.display());
                return None;
            }
            match file::read_dtc(&path, self.key, &self.board, m) {
                Ok(d) => {
                    log::info!("egdb: loaded {}", path.display());
                    Some(d)
                }
                Err(e) => {
                    report_bad(&path, &e, "the slice plays without distances");
                    None
                }
            }
        })
        .as_deref()
    }

    /// The value of `pos` (both sides on the board, at most `pieces`
    /// pieces) and its distance to conversion when stored.
    pub fn probe_dtc<R: Rules>(&self, pos: &Position<Bb<R>>) -> Option<(Wdl, Option<u8>)> {
        let m = Material::of(pos);
        let slice = self.slice(m)?;
        let i = slice.indexer.index(self.board.split::<R>(pos));
        let wdl = slice.get(pos.side, i)?;
        let dtc = self
            .dtc(m)
            .and_then(|d| d.get((pos.side as u64 * slice.indexer.count + i) as usize))
            .copied();
        Some((wdl, dtc))
    }

    /// The won position of slice `m` with the longest stored distance to
    /// conversion (below 255) with White to move and no capture pending,
    /// and that distance; `None` without distances or wins.
    pub fn longest_win<R: Rules>(&self, m: Material) -> Option<(Position<Bb<R>>, u8)> {
        let slice = self.slice(m)?;
        let dtc = self.dtc(m)?;
        let mut best: Option<(u64, u8)> = None;
        for i in 0..slice.indexer.count {
            let d = dtc[i as usize];
            if d == file::DTC_UNKNOWN
                || best.is_some_and(|(_, b)| d <= b)
                || slice.get(0, i) != Some(Wdl::Win)
            {
                continue;
            }
            let pos = self.board.join::<R>(slice.indexer.unindex(i), 0);
            if !crate::draughts::movegen::has_capture::<R>(&pos) {
                best = Some((i, d));
            }
        }
        let (i, d) = best?;
        Some((self.board.join::<R>(slice.indexer.unindex(i), 0), d))
    }

    /// The value of `pos` for the player to move, if its slice is loaded.
    /// A side without pieces has lost.
    pub fn probe<R: Rules>(&self, pos: &Position<Bb<R>>) -> Option<Wdl> {
        let own = pos.pieces[pos.side as usize & 1];
        let opp = pos.pieces[1 - (pos.side as usize & 1)];
        if own.is_empty() {
            return Some(Wdl::Loss);
        }
        if opp.is_empty() {
            return Some(Wdl::Win);
        }
        if own.count() + opp.count() > self.pieces {
            return None;
        }
        self.slice(Material::of(pos))?.value::<R>(&self.board, pos)
    }
}

/// Who hears of a file that fails at load (a Hub session: an `error`
/// line), besides the log.
type Reporter = Arc<dyn Fn(String) + Send + Sync>;
static REPORTER: RwLock<Option<Reporter>> = RwLock::new(None);

/// Sets who hears of files that fail at load (`None`: the log only).
pub fn set_reporter(r: Option<Reporter>) {
    if let Ok(mut g) = REPORTER.write() {
        *g = r;
    }
}

/// A file that cannot be used: logged, and told to the reporter.
fn report_bad(path: &Path, e: &str, what: &str) {
    let msg = format!("egdb {}: {e}; {what}", path.display());
    log::warn!("{msg}");
    let r = REPORTER.read().ok().and_then(|g| g.clone());
    if let Some(r) = r {
        r(msg);
    }
}

/// The process-wide database settings (Hub `egdb-path`, `egdb-pieces`).
static LIMIT: AtomicU32 = AtomicU32::new(0);
static ROOT: RwLock<Option<PathBuf>> = RwLock::new(None);
/// The databases opened so far under `ROOT`, one per rule set.
static OPEN: RwLock<Vec<Arc<Database>>> = RwLock::new(Vec::new());

/// Sets the database the search probes: its root directory and the most
/// pieces to probe (0 turns probing off). Opened databases are dropped
/// (nothing changes when the settings are the same).
pub fn configure(root: Option<PathBuf>, pieces: u32) {
    if let Ok(mut r) = ROOT.write() {
        if *r == root && LIMIT.load(Ordering::Acquire) == pieces {
            return;
        }
        *r = root;
    }
    GENERATION.fetch_add(1, Ordering::AcqRel);
    if let Ok(mut open) = OPEN.write() {
        open.clear();
    }
    LIMIT.store(pieces, Ordering::Release);
}

/// Counts the calls of [`configure`]: a search table filled before the
/// last one holds scores the database now contradicts.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The number of [`configure`] calls so far.
pub fn generation() -> u64 {
    GENERATION.load(Ordering::Acquire)
}

/// The current settings: root and piece limit.
pub fn settings() -> (Option<PathBuf>, u32) {
    let root = ROOT.read().ok().and_then(|r| r.clone());
    (root, LIMIT.load(Ordering::Acquire))
}

/// The process-wide database of `R`, opened on first use.
fn global<R: Rules>() -> Option<Arc<Database>> {
    let key = rules_key::<R>();
    if let Ok(open) = OPEN.read()
        && let Some(db) = open.iter().find(|d| d.key == key)
    {
        return Some(db.clone());
    }
    let root = ROOT.read().ok()?.clone()?;
    let db = Arc::new(Database::open::<R>(&root, LIMIT.load(Ordering::Acquire)));
    let mut open = OPEN.write().ok()?;
    if let Some(d) = open.iter().find(|d| d.key == key) {
        return Some(d.clone());
    }
    open.push(db.clone());
    Some(db)
}

/// Probes the process-wide database: `None` when probing is off, the
/// position has more pieces than the limit, or its slice is not loaded.
#[inline]
pub fn probe<R: Rules>(pos: &Position<Bb<R>>) -> Option<Wdl> {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == 0 || pos.occupied().count() > limit {
        return None;
    }
    global::<R>()?.probe::<R>(pos)
}

/// [`probe`] where no capture is pending (`None` when the player to move
/// must capture: the search resolves captures itself), with the distance
/// to conversion in plies when the slice has one stored (not 255, "255 or
/// more").
pub fn probe_quiet<R: Rules>(pos: &Position<Bb<R>>) -> Option<(Wdl, Option<u8>)> {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == 0
        || pos.occupied().count() > limit
        || crate::draughts::movegen::has_capture::<R>(pos)
    {
        return None;
    }
    let db = global::<R>()?;
    if pos.pieces[0].is_empty() || pos.pieces[1].is_empty() {
        return db.probe::<R>(pos).map(|w| (w, None));
    }
    let (wdl, dtc) = db.probe_dtc::<R>(pos)?;
    Some((wdl, dtc.filter(|&d| d != file::DTC_UNKNOWN)))
}

/// The search score of `pos` at `ply` (see [`score`]) when the
/// process-wide database holds it and no capture is pending; `eval` is the
/// static evaluation of the player to move, called only for a win or loss
/// without a stored distance.
#[inline]
pub fn probe_score<R: Rules>(
    pos: &Position<Bb<R>>,
    ply: usize,
    eval: impl FnOnce() -> Score,
) -> Option<Score> {
    let limit = LIMIT.load(Ordering::Relaxed);
    let n = pos.occupied().count();
    if limit == 0 || n > limit || crate::draughts::movegen::has_capture::<R>(pos) {
        return None;
    }
    if pos.pieces[0].is_empty() || pos.pieces[1].is_empty() {
        return None;
    }
    let (wdl, dtc) = global::<R>()?.probe_dtc::<R>(pos)?;
    Some(score(wdl, Material::of(pos), dtc, ply, eval))
}

/// The process-wide database of rule set `R` as the search consults it
/// ([`Tablebase`]): [`probe_quiet`] and [`probe_score`], under the settings
/// of [`configure`]. [`crate::variant::dispatch`] attaches it to the
/// draughts games it builds.
pub struct Egdb<R>(PhantomData<fn() -> R>);

impl<R: Rules> Egdb<R> {
    /// The one handle a game holds.
    pub const HANDLE: &'static Egdb<R> = &Egdb(PhantomData);
}

impl<R: Rules> Tablebase<Position<Bb<R>>> for Egdb<R> {
    /// Probing is on (`egdb-pieces` above 0 and a folder set).
    fn enabled(&self) -> bool {
        LIMIT.load(Ordering::Relaxed) > 0
    }

    #[inline]
    fn probe(&self, pos: &Position<Bb<R>>) -> Option<(Wdl, Option<u8>)> {
        probe_quiet::<R>(pos)
    }

    #[inline]
    fn score(&self, pos: &Position<Bb<R>>, ply: usize, eval: &dyn Fn() -> Score) -> Option<Score> {
        probe_score::<R>(pos, ply, eval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn materials_come_in_dependency_order() {
        let all = Material::all_up_to(4);
        for (i, m) in all.iter().enumerate() {
            // Every slice a capture or a crowning leads to comes earlier.
            for later in &all[i + 1..] {
                let fewer_pieces = later.pieces() < m.pieces();
                let crowned = later.pieces() == m.pieces() && later.men() < m.men();
                assert!(!fewer_pieces && !crowned, "{later} after {m}");
            }
        }
        assert_eq!("1201".parse::<Material>().unwrap().to_string(), "1201");
        assert!("12a1".parse::<Material>().is_err());
        assert!("120".parse::<Material>().is_err());
    }

    #[test]
    fn scores_order_conversions_distances_and_plies() {
        let m = |s: &str| s.parse::<Material>().unwrap();
        let e = || 0;
        assert_eq!(score(Wdl::Draw, m("0301"), Some(3), 1, e), 0);
        // Every database score is in the band the table adjusts, below mates.
        for mat in Material::all_up_to(index::MAX_PIECES as u32) {
            for ply in [0, 1, 127] {
                for dtc in [Some(0), Some(254), None] {
                    for ev in [-100_000, 0, 100_000] {
                        let s = score(Wdl::Win, mat, dtc, ply, || ev);
                        assert!((SCORE_EGDB_MIN..SCORE_WIN_MIN).contains(&s), "{mat} {s}");
                        assert_eq!(score(Wdl::Loss, mat, dtc, ply, || -ev), -s);
                    }
                }
            }
        }
        // Shorter is better, a conversion beats any distance, a distance
        // beats none.
        let win = |mat: &str, d: Option<u8>, ply: usize| score(Wdl::Win, m(mat), d, ply, e);
        assert!(win("0301", Some(3), 1) > win("0301", Some(5), 1));
        assert!(win("0301", Some(3), 1) > win("0301", Some(3), 2));
        assert!(win("0201", Some(200), 127) > win("0301", Some(0), 0));
        assert!(win("0401", Some(254), 127) > win("1301", Some(0), 0));
        assert!(win("0301", Some(254), 127) > win("0301", None, 0));
        assert!(win("0301", Some(254), 127) > win("0301", Some(255), 0));
        assert!(win("0301", None, 5) > win("1301", Some(0), 0));
        assert!(
            score(Wdl::Win, m("0301"), None, 5, || 300) > score(Wdl::Win, m("0301"), None, 5, || 0)
        );
    }
}
