//! Where the databases live and what is there: the standard place (the
//! user's data folder), the scan of a rule set's folder (which slices are
//! complete, which are missing or bad), and the build of the small
//! databases on first use, in the background (docs/egdb.md, "The
//! standard place").

use super::build::{BuildOptions, build_all};
use super::file::{self, FileState};
use super::index::{Board, Indexer, MAX_PIECES};
use super::{Material, dtc_path, rules_key, slice_path};
use crate::draughts::Rules;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The value of `SALTO_EGDB` that turns the standard place off (no
/// database is looked for there, none is built).
pub const OFF: &str = "off";

/// The standard place of the databases: `$SALTO_EGDB` when set (`off`:
/// none), else `$XDG_DATA_HOME/salto/egdb`, else
/// `~/.local/share/salto/egdb` (`%APPDATA%\salto\egdb` on Windows).
/// `None` when it is off or no home folder is known.
pub fn standard_root() -> Option<PathBuf> {
    standard_root_from(&|k| std::env::var_os(k).filter(|v| !v.is_empty()))
}

/// [`standard_root`] with the environment given as a function (tests).
pub fn standard_root_from(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    if let Some(v) = env("SALTO_EGDB") {
        return (v != OFF).then(|| PathBuf::from(v));
    }
    let data = env("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| env("APPDATA").map(PathBuf::from))
        .or_else(|| env("HOME").map(|h| PathBuf::from(h).join(".local").join("share")))?;
    Some(data.join("salto").join("egdb"))
}

/// One slice as found on disk.
#[derive(Clone, Debug)]
pub struct SliceFiles {
    pub material: Material,
    pub values: FileState,
    pub dtc: FileState,
    /// Bytes of both files that look complete.
    pub bytes: u64,
}

/// What a rule set's folder holds.
#[derive(Clone, Debug)]
pub struct Scan {
    pub key: &'static str,
    pub dir: PathBuf,
    /// Every slice of 2 to `looked` pieces.
    pub slices: Vec<SliceFiles>,
    /// The most pieces looked at: up to the first piece count without
    /// any file (or [`MAX_PIECES`]).
    pub looked: u32,
    /// The largest piece count whose slices, and those of every smaller
    /// count, all look complete (0: none).
    pub complete: u32,
}

impl Scan {
    /// The slices of exactly `n` pieces.
    pub fn of(&self, n: u32) -> impl Iterator<Item = &SliceFiles> {
        self.slices.iter().filter(move |s| s.material.pieces() == n)
    }

    /// The slices whose values file is there but cannot be used.
    pub fn bad(&self) -> impl Iterator<Item = (&SliceFiles, &str)> {
        self.slices.iter().filter_map(|s| match &s.values {
            FileState::Bad(e) => Some((s, e.as_str())),
            _ => None,
        })
    }

    /// A one-line summary: what is complete, what else was found.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if self.complete >= 2 {
            let n = self.of_up_to(self.complete);
            let dtc = self
                .slices
                .iter()
                .filter(|s| s.material.pieces() <= self.complete && s.dtc == FileState::Complete)
                .count();
            parts.push(format!(
                "2-{} pieces complete ({n} slices, {dtc} with distances)",
                self.complete
            ));
        } else {
            parts.push("no complete piece count".into());
        }
        for p in self.complete + 1..=self.looked {
            let total = self.of(p).count();
            let ok = self
                .of(p)
                .filter(|s| s.values == FileState::Complete)
                .count();
            if ok > 0 {
                parts.push(format!("{p} pieces: {ok} of {total} slices"));
            }
        }
        let bad = self.bad().count();
        if bad > 0 {
            parts.push(format!("{bad} bad files"));
        }
        parts.join(", ")
    }

    fn of_up_to(&self, n: u32) -> usize {
        self.slices
            .iter()
            .filter(|s| s.material.pieces() <= n)
            .count()
    }
}

/// Looks at the folder of `R` under `root`: every slice's files, by
/// header and length (not by checksum: see [`file::check`]). Piece counts
/// are looked at up to the first one without any file.
pub fn scan<R: Rules>(root: &Path) -> Scan {
    let key = rules_key::<R>();
    let board = Board::of::<R>();
    let mut slices = Vec::new();
    // Complete up to 1 piece (nothing to hold) until a count fails.
    let mut complete = 1;
    let mut looked = 0;
    let all = Material::all_up_to(MAX_PIECES as u32);
    for n in 2..=MAX_PIECES as u32 {
        let mut any = false;
        let mut all_ok = true;
        for &m in all.iter().filter(|m| m.pieces() == n) {
            let values = file::check(&slice_path(root, key, m), key, &board, m, false);
            let dtc = file::check(&dtc_path(root, key, m), key, &board, m, true);
            let mut bytes = 0;
            for (st, path) in [
                (&values, slice_path(root, key, m)),
                (&dtc, dtc_path(root, key, m)),
            ] {
                if *st == FileState::Complete {
                    bytes += std::fs::metadata(path).map_or(0, |md| md.len());
                }
            }
            any |= values != FileState::Missing || dtc != FileState::Missing;
            all_ok &= values == FileState::Complete;
            slices.push(SliceFiles {
                material: m,
                values,
                dtc,
                bytes,
            });
        }
        looked = n;
        if all_ok && complete == n - 1 {
            complete = n;
        }
        if !any {
            break;
        }
    }
    if complete == 1 {
        complete = 0;
    }
    Scan {
        key,
        dir: root.join(key),
        slices,
        looked,
        complete,
    }
}

/// The positions (both sides to move) a build of `R` to `n` pieces
/// handles: the fixed measure of its work.
pub fn positions<R: Rules>(n: u32) -> u64 {
    let board = Board::of::<R>();
    Material::all_up_to(n)
        .iter()
        .map(|&m| 2 * Indexer::new(&board, m).count)
        .sum()
}

/// The most positions a build on first use may handle: about ten
/// seconds of one core (docs/egdb.md has the measurements).
pub const FIRST_USE_POSITIONS: u64 = 16_000_000;

/// The piece count built on first use for `R`: the largest (at most 4)
/// whose build handles at most [`FIRST_USE_POSITIONS`] positions.
pub fn first_use_pieces<R: Rules>() -> u32 {
    (2..=4)
        .take_while(|&n| positions::<R>(n) <= FIRST_USE_POSITIONS)
        .last()
        .unwrap_or(0)
}

/// The builds running in this process, by folder: one at a time each.
static BUILDING: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Builds `R` under `root` up to `pieces` (with distances) on a thread of
/// its own with one worker, one piece count after another, calling
/// `done(n)` after each count `n` is complete and `failed(message)` if the
/// build cannot go on. Returns at once; false when a build of this folder
/// already runs in this process (nothing is started).
pub fn spawn_build<R: Rules>(
    root: PathBuf,
    pieces: u32,
    done: impl Fn(u32) + Send + 'static,
    failed: impl Fn(String) + Send + 'static,
) -> bool {
    let dir = root.join(rules_key::<R>());
    {
        let Ok(mut b) = BUILDING.lock() else {
            return false;
        };
        if !b.get_or_insert_with(HashSet::new).insert(dir.clone()) {
            return false;
        }
    }
    let spawned = std::thread::Builder::new()
        .name("egdb-build".into())
        .spawn({
            let dir = dir.clone();
            move || {
                build_in_background::<R>(&root, pieces, &done, &failed);
                if let Ok(mut b) = BUILDING.lock()
                    && let Some(set) = b.as_mut()
                {
                    set.remove(&dir);
                }
            }
        });
    if let Err(e) = spawned {
        log::error!("egdb: cannot start the build thread: {e}");
        if let Ok(mut b) = BUILDING.lock()
            && let Some(set) = b.as_mut()
        {
            set.remove(&dir);
        }
        return false;
    }
    true
}

fn build_in_background<R: Rules>(
    root: &Path,
    pieces: u32,
    done: &dyn Fn(u32),
    failed: &dyn Fn(String),
) {
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(|_| "egdb-build-worker".into())
        .build()
    {
        Ok(p) => p,
        Err(e) => return failed(format!("cannot start the build worker: {e}")),
    };
    for n in 2..=pieces {
        let opts = BuildOptions {
            root,
            pieces: n,
            dtc_pieces: n,
            progress: false,
            memory: None,
            shard: (1, 1),
        };
        let start = std::time::Instant::now();
        match pool.install(|| build_all::<R>(&opts)) {
            Ok(rows) => {
                log::info!(
                    "egdb: {} {n} pieces complete in {} ({} slices built, {:.1} s)",
                    rules_key::<R>(),
                    root.display(),
                    rows.iter().filter(|r| !r.reused).count(),
                    start.elapsed().as_secs_f64()
                );
                done(n);
            }
            Err(e) => return failed(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{English, Hex, International, Spanish, Turkish};
    use std::ffi::OsString;

    #[test]
    fn the_standard_place_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        let at = |pairs| standard_root_from(&env(pairs));
        assert_eq!(
            at(&[("SALTO_EGDB", "/db"), ("HOME", "/h")]),
            Some("/db".into())
        );
        assert_eq!(at(&[("SALTO_EGDB", "off"), ("HOME", "/h")]), None);
        assert_eq!(
            at(&[("XDG_DATA_HOME", "/x"), ("HOME", "/h")]),
            Some("/x/salto/egdb".into())
        );
        // A relative XDG_DATA_HOME is ignored, as the XDG rules ask.
        assert_eq!(
            at(&[("XDG_DATA_HOME", "x"), ("HOME", "/h")]),
            Some("/h/.local/share/salto/egdb".into())
        );
        assert_eq!(at(&[]), None);
    }

    #[test]
    fn first_use_builds_stay_small() {
        // Fixed work: the positions each build handles.
        assert_eq!(first_use_pieces::<International>(), 3);
        assert_eq!(first_use_pieces::<English>(), 4);
        assert_eq!(first_use_pieces::<Spanish>(), 4);
        assert_eq!(first_use_pieces::<Turkish>(), 3);
        assert_eq!(first_use_pieces::<Hex>(), 3);
        assert_eq!(positions::<English>(4), 12_418_632 + 392_064 + 6_976);
    }
}
