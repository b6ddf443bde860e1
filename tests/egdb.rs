//! Endgame databases: every variant's database up to 3 pieces (english 4)
//! is built with the generator and then checked by code of this file that
//! shares nothing with the generator but the engine's legal moves:
//!
//! - its own enumeration of positions (nested loops over squares, not the
//!   index), which must find exactly as many positions as the index counts,
//!   each of which must probe to a value;
//! - a consistency pass: every position's value equals the best value of
//!   its successors (read through `Database::probe`, so the index is shared
//!   here);
//! - an independent solver (dense ids from a hash map, successor lists,
//!   value iteration to a fixed point) whose values must equal the
//!   database's for every position: this catches a drawn cycle mislabelled
//!   as won, which a consistency pass cannot;
//! - the published count for english 1 king v 1 king.
//!
//! International 4 pieces takes minutes: `#[ignore]`d, run by hand.

use rayon::prelude::*;
use salto::draughts::{
    Bb, Bitboard, Brazilian, Draughts, English, Geometry, Hex, International, Position, Rules,
    Spanish, Turkish, TurkishImmediate,
};
use salto::egdb::build::{BuildOptions, SliceReport, build_all};
use salto::egdb::{Database, Wdl};
use salto::{Game, MoveList};
use std::collections::HashMap;
use std::path::PathBuf;

/// A directory under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("salto-egdb-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    TempDir(d)
}

/// Every (white men, white kings, black men, black kings) with both sides
/// on the board and at most `n` pieces.
fn materials(n: u32) -> Vec<[u32; 4]> {
    let mut out = Vec::new();
    for wm in 0..=n {
        for wk in 0..=n {
            for bm in 0..=n {
                for bk in 0..=n {
                    let total = wm + wk + bm + bk;
                    if total <= n && wm + wk > 0 && bm + bk > 0 {
                        out.push([wm, wk, bm, bk]);
                    }
                }
            }
        }
    }
    out
}

/// Every placement of the material `counts`: the four sets white men,
/// white kings, black men, black kings; men never on their promotion row.
fn placements<R: Rules>(counts: [u32; 4]) -> Vec<[Bb<R>; 4]> {
    fn rec<R: Rules>(
        counts: [u32; 4],
        kind: usize,
        left: u32,
        from: usize,
        sets: &mut [Bb<R>; 4],
        out: &mut Vec<[Bb<R>; 4]>,
    ) {
        if left == 0 {
            if kind == 3 {
                out.push(*sets);
            } else {
                rec::<R>(counts, kind + 1, counts[kind + 1], 0, sets, out);
            }
            return;
        }
        let occupied = sets[0] | sets[1] | sets[2] | sets[3];
        for sq in from..R::Geo::SQUARES {
            let b = R::Geo::bit_of(sq);
            if (occupied & b).any() {
                continue;
            }
            let man_of = match kind {
                0 => Some(0),
                2 => Some(1),
                _ => None,
            };
            if man_of.is_some_and(|s| (R::Geo::PROMOTION[s] & b).any()) {
                continue;
            }
            sets[kind] |= b;
            rec::<R>(counts, kind, left - 1, sq + 1, sets, out);
            sets[kind] ^= b;
        }
    }
    let mut out = Vec::new();
    let mut sets = [Bb::<R>::ZERO; 4];
    rec::<R>(counts, 0, counts[0], 0, &mut sets, &mut out);
    out
}

fn position<R: Rules>(s: [Bb<R>; 4], side: u8) -> Position<Bb<R>> {
    Position::new(s[0] | s[1], s[2] | s[3], s[1] | s[3], side)
}

/// Every position with at most `n` pieces, both sides to move.
fn all_positions<R: Rules>(n: u32) -> Vec<Position<Bb<R>>> {
    let mut out = Vec::new();
    for m in materials(n) {
        for s in placements::<R>(m) {
            out.push(position::<R>(s, 0));
            out.push(position::<R>(s, 1));
        }
    }
    out
}

/// The value the successors give, from the database.
fn from_successors<R: Rules>(db: &Database, pos: &Position<Bb<R>>) -> Option<Wdl> {
    let game = Draughts::<R>::default();
    let mut list = MoveList::new();
    game.generate(pos, &mut list);
    let mut best = Wdl::Loss;
    for &mv in list.iter() {
        match db.probe::<R>(&game.play(pos, mv))? {
            Wdl::Loss => return Some(Wdl::Win),
            Wdl::Draw => best = Wdl::Draw,
            Wdl::Win => {}
        }
    }
    Some(best)
}

type Key<B> = (B, B, B, u8);

fn key<B: Bitboard>(p: &Position<B>) -> Key<B> {
    (p.pieces[0], p.pieces[1], p.kings, p.side)
}

/// Values by value iteration over explicit successor lists.
fn solve<R: Rules>(positions: &[Position<Bb<R>>]) -> Vec<Wdl> {
    let game = Draughts::<R>::default();
    let ids: HashMap<Key<Bb<R>>, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i as u32))
        .collect();
    // Successors: an id, or u32::MAX for "the player to move has no piece"
    // (lost).
    const GONE: u32 = u32::MAX;
    let succ: Vec<Vec<u32>> = positions
        .par_iter()
        .map(|p| {
            let mut list = MoveList::new();
            game.generate(p, &mut list);
            list.iter()
                .map(|&mv| {
                    let q = game.play(p, mv);
                    if q.pieces[q.side as usize].is_empty() {
                        GONE
                    } else {
                        *ids.get(&key(&q))
                            .expect("successor outside the enumeration")
                    }
                })
                .collect()
        })
        .collect();
    let mut val: Vec<Option<Wdl>> = vec![None; positions.len()];
    loop {
        let next: Vec<Option<Wdl>> = (0..positions.len())
            .into_par_iter()
            .map(|i| {
                if val[i].is_some() {
                    return val[i];
                }
                let v = |j: u32| {
                    if j == GONE {
                        Some(Wdl::Loss)
                    } else {
                        val[j as usize]
                    }
                };
                if succ[i].iter().any(|&j| v(j) == Some(Wdl::Loss)) {
                    Some(Wdl::Win)
                } else if succ[i].iter().all(|&j| v(j) == Some(Wdl::Win)) {
                    Some(Wdl::Loss)
                } else {
                    None
                }
            })
            .collect();
        let changed = next != val;
        val = next;
        if !changed {
            break;
        }
    }
    val.into_iter().map(|v| v.unwrap_or(Wdl::Draw)).collect()
}

/// The distance to conversion the successors give a won or lost position
/// (test code of its own): no move, 0; a win, 1 + the least distance of a
/// lost successor (a successor of another material counts 0); a loss, 1 +
/// the greatest distance of a successor; saturating at 255.
fn dtc_from_successors<R: Rules>(db: &Database, pos: &Position<Bb<R>>, won: bool) -> Option<u8> {
    let game = Draughts::<R>::default();
    let mut list = MoveList::new();
    game.generate(pos, &mut list);
    let count = |p: &Position<Bb<R>>| {
        let k = p.kings;
        [
            (p.pieces[0] & !k).count(),
            (p.pieces[0] & k).count(),
            (p.pieces[1] & !k).count(),
            (p.pieces[1] & k).count(),
        ]
    };
    let mut best: Option<u32> = None;
    for &mv in list.iter() {
        let next = game.play(pos, mv);
        let (v, d) = if count(&next) == count(pos) {
            let (v, d) = db.probe_dtc::<R>(&next)?;
            (v, d? as u32)
        } else {
            (db.probe::<R>(&next)?, 0)
        };
        if !won || v == Wdl::Loss {
            let pick = if won { u32::min } else { u32::max };
            best = Some(best.map_or(d, |b| pick(b, d)));
        }
    }
    Some(best.map_or(0, |b| (b + 1).min(255)) as u8)
}

/// Builds `R` up to `n` pieces; checks the enumeration against the index,
/// the consistency of every value, and (up to `solve_n` pieces) the
/// values against the independent solver.
fn check<R: Rules>(name: &str, n: u32, solve_n: u32) -> (Database, TempDir, Vec<SliceReport>) {
    let dir = temp_dir(name);
    let reports = build_all::<R>(&BuildOptions {
        dtc_pieces: 4,
        root: &dir.0,
        pieces: n,
        progress: false,
        memory: None,
        shard: (1, 1),
    })
    .expect("build");
    let indexed: u64 = reports.iter().map(|r| 2 * r.count).sum();
    let db = Database::open::<R>(&dir.0, n);
    let mut enumerated = 0u64;
    let mut bad: Vec<String> = Vec::new();
    for m in materials(n) {
        let sets = placements::<R>(m);
        enumerated += 2 * sets.len() as u64;
        bad.extend(
            sets.par_iter()
                .flat_map_iter(|&s| [position::<R>(s, 0), position::<R>(s, 1)])
                .filter_map(|p| {
                    let stored = db.probe::<R>(&p);
                    let want = from_successors::<R>(&db, &p);
                    let fen = || Draughts::<R>::default().format_fen(&p);
                    if stored.is_none() || stored != want {
                        return Some(format!(
                            "{} stored {stored:?}, successors say {want:?}",
                            fen()
                        ));
                    }
                    let stored_dtc = db.probe_dtc::<R>(&p).and_then(|(_, d)| d);
                    let want_dtc = match want {
                        Some(Wdl::Draw) | None => Some(0),
                        Some(v) => dtc_from_successors::<R>(&db, &p, v == Wdl::Win),
                    };
                    (stored_dtc != want_dtc).then(|| {
                        format!(
                            "{} distance {stored_dtc:?}, successors say {want_dtc:?}",
                            fen()
                        )
                    })
                })
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(
        enumerated, indexed,
        "{name}: the index counts every position once"
    );
    assert!(
        bad.is_empty(),
        "{name}: {} inconsistent, e.g. {:?}",
        bad.len(),
        &bad[..bad.len().min(5)]
    );
    if solve_n > 0 {
        let small = all_positions::<R>(solve_n);
        let vals = solve::<R>(&small);
        let wrong = small
            .iter()
            .zip(&vals)
            .filter(|(p, v)| db.probe::<R>(p) != Some(**v))
            .count();
        assert_eq!(
            wrong, 0,
            "{name}: values differ from the independent solver"
        );
    }
    (db, dir, reports)
}

fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The positions of the 5- and 6-piece english slices (counted by the
/// index, nothing built) plus the one-sided positions give Schaeffer et
/// al.'s published totals: 148,688,232 and 2,503,611,964 (docs/egdb.md; the
/// 6-piece database built by hand on 2026-12-02 has exactly the index's
/// 4,852,171,352 positions, both sides to move).
#[test]
fn english_5_and_6_piece_slices_count_the_published_totals() {
    use salto::egdb::Material;
    use salto::egdb::index::{Board, Indexer};
    let board = Board::of::<English>();
    for (n, published) in [(5u32, 148_688_232u64), (6, 2_503_611_964)] {
        let two_sided: u64 = Material::all_up_to(n)
            .into_iter()
            .filter(|m| m.pieces() == n)
            .map(|m| Indexer::new(&board, m).count)
            .sum();
        let one_sided: u64 = 2
            * (0..=n as u64)
                .map(|k| choose(28, k) * choose(32 - k, n as u64 - k))
                .sum::<u64>();
        assert_eq!(two_sided + one_sided, published, "{n} pieces");
    }
}

#[test]
fn english_up_to_4_pieces_and_the_published_counts() {
    let (db, _dir, reports) = check::<English>("english", 4, 3);
    // Schaeffer et al.'s table of checkers positions by piece count (one
    // side to move, positions with one side's pieces only included):
    // 2: 6,972; 3: 261,224; 4: 7,092,774 (docs/egdb.md). The database
    // leaves out the one-sided positions: one colour with k men and n - k
    // kings, men on 28 squares, kings on the 32 - k left.
    for (n, published) in [(2u32, 6_972u64), (3, 261_224), (4, 7_092_774)] {
        let two_sided: u64 = reports
            .iter()
            .filter(|r| r.material.pieces() == n)
            .map(|r| r.count)
            .sum();
        let one_sided: u64 = 2
            * (0..=n as u64)
                .map(|k| choose(28, k) * choose(32 - k, n as u64 - k))
                .sum::<u64>();
        assert_eq!(two_sided + one_sided, published, "{n} pieces");
    }
    let s = db.slice("0101".parse().unwrap()).expect("slice 0101");
    // 1 king v 1 king, White to move: 230 wins, 654 draws, 108 losses
    // (docs/egdb.md cites the published figures).
    assert_eq!(s.counts()[0], [230, 654, 108]);
    assert_eq!(s.counts()[1], [230, 654, 108]);
}

#[test]
fn international_up_to_3_pieces() {
    check::<International>("international", 3, 2);
}

#[test]
fn brazilian_up_to_3_pieces() {
    check::<Brazilian>("brazilian", 3, 3);
}

#[test]
fn spanish_up_to_3_pieces() {
    check::<Spanish>("spanish", 3, 3);
}

#[test]
fn turkish_up_to_3_pieces() {
    check::<Turkish>("turkish", 3, 2);
    check::<TurkishImmediate>("turkish-immediate", 3, 2);
}

#[test]
fn hex_up_to_3_pieces() {
    check::<Hex>("hex", 3, 2);
}

#[test]
#[ignore = "minutes: run by hand (cargo test --release --test egdb -- --ignored)"]
fn international_up_to_4_pieces() {
    check::<International>("international4", 4, 0);
}

#[test]
fn bad_files_are_skipped_and_rebuilt_and_finished_ones_reused() {
    let dir = temp_dir("files");
    let opts = BuildOptions {
        dtc_pieces: 0,
        root: &dir.0,
        pieces: 3,
        progress: false,
        memory: None,
        shard: (1, 1),
    };
    let first = build_all::<English>(&opts).expect("build");
    assert!(first.iter().all(|r| !r.reused));
    let path = |m: &str| dir.0.join("english").join(format!("{m}.egdb"));
    let good = std::fs::read(path("0101")).expect("read");
    // Truncated, corrupt payload, wrong material in the header, missing.
    std::fs::write(path("0101"), &good[..good.len() - 1]).expect("write");
    let mut corrupt = std::fs::read(path("0110")).expect("read");
    let last = corrupt.len() - 1;
    corrupt[last] ^= 0x40;
    std::fs::write(path("0110"), &corrupt).expect("write");
    std::fs::copy(path("0201"), path("0102")).expect("copy");
    std::fs::remove_file(path("1010")).expect("remove");
    let db = Database::open::<English>(&dir.0, 3);
    for m in ["0101", "0110", "0102", "1010"] {
        assert!(
            db.slice(m.parse().unwrap()).is_none(),
            "{m} must not be trusted"
        );
    }
    assert!(db.slice("0201".parse().unwrap()).is_some());
    // Kings on 1 and 32 (english numbers), White to move: slice 0101 is
    // unreadable, so the probe knows nothing.
    let game = Draughts::<English>::default();
    let pos = game.parse_fen("W:WK1:BK32").expect("fen");
    assert_eq!(db.probe::<English>(&pos), None);
    // A second build rebuilds exactly the four bad slices.
    let second = build_all::<English>(&opts).expect("rebuild");
    let rebuilt: Vec<String> = second
        .iter()
        .filter(|r| !r.reused)
        .map(|r| r.material.to_string())
        .collect();
    assert_eq!(rebuilt.len(), 4, "{rebuilt:?}");
    assert_eq!(std::fs::read(path("0101")).expect("read"), good);
    let db = Database::open::<English>(&dir.0, 3);
    assert!(db.probe::<English>(&pos).is_some());
    assert_eq!(db.probe_dtc::<English>(&pos).and_then(|p| p.1), None);

    // Distances added later: the slices up to 2 pieces get .dtc files,
    // their .egdb files stay as they were, and a bad .dtc is skipped (the
    // value still probes, without a distance) and rewritten by the next
    // build.
    let with_dtc = BuildOptions {
        dtc_pieces: 2,
        ..opts
    };
    let egdb_before: Vec<Vec<u8>> = second
        .iter()
        .map(|r| std::fs::read(path(&r.material.to_string())).expect("read"))
        .collect();
    let third = build_all::<English>(&with_dtc).expect("add distances");
    for (r, before) in third.iter().zip(&egdb_before) {
        let m = r.material.to_string();
        assert_eq!(r.reused, r.material.pieces() > 2, "{m}");
        assert_eq!(r.dtc, r.material.pieces() <= 2, "{m}");
        assert_eq!(&std::fs::read(path(&m)).expect("read"), before, "{m}");
    }
    let dtc_path = dir.0.join("english").join("0101.dtc");
    let db = Database::open::<English>(&dir.0, 3);
    let (value, dtc) = db.probe_dtc::<English>(&pos).expect("probe");
    assert!(dtc.is_some());
    let mut bad = std::fs::read(&dtc_path).expect("read");
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&dtc_path, &bad).expect("write");
    let db = Database::open::<English>(&dir.0, 3);
    assert_eq!(db.probe_dtc::<English>(&pos), Some((value, None)));
    let fourth = build_all::<English>(&with_dtc).expect("repair distances");
    let rebuilt: Vec<String> = fourth
        .iter()
        .filter(|r| !r.reused)
        .map(|r| r.material.to_string())
        .collect();
    assert_eq!(rebuilt, ["0101"]);
    let db = Database::open::<English>(&dir.0, 3);
    assert_eq!(db.probe_dtc::<English>(&pos), Some((value, dtc)));
}

#[test]
fn a_cut_file_is_never_read_and_an_interrupted_build_resumes() {
    use salto::egdb::file::{self, FileState};
    use salto::egdb::place;
    let dir = temp_dir("resume");
    let opts = options(&dir.0, 3, 3);
    build_all::<English>(&opts).expect("build");
    let scan = place::scan::<English>(&dir.0);
    assert_eq!(scan.complete, 3, "{}", scan.summary());
    assert_eq!(scan.bad().count(), 0);
    let path = |m: &str, ext: &str| dir.0.join("english").join(format!("{m}.{ext}"));
    let board = salto::egdb::index::Board::of::<English>();
    let m = |s: &str| s.parse::<salto::egdb::Material>().unwrap();

    // A slice cut in the middle of its payload, as a crash in a copy would
    // leave it: the quick check (header and length) and the load both
    // refuse it, and the folder is complete only below it.
    let whole = std::fs::read(path("0201", "egdb")).expect("read");
    std::fs::write(path("0201", "egdb"), &whole[..whole.len() / 2]).expect("cut");
    assert!(matches!(
        file::check(&path("0201", "egdb"), "english", &board, m("0201"), false),
        FileState::Bad(_)
    ));
    assert!(file::read(&path("0201", "egdb"), "english", &board, m("0201")).is_err());
    let scan = place::scan::<English>(&dir.0);
    assert_eq!(scan.complete, 2, "{}", scan.summary());
    assert_eq!(scan.bad().count(), 1);
    assert!(
        Database::open::<English>(&dir.0, 3)
            .slice(m("0201"))
            .is_none()
    );

    // An interrupted build: a distance file cut, another slice never
    // renamed into place (its temporary file, of a process that is gone,
    // left behind). The next build rebuilds exactly those, removes the
    // stale temporary file, and the result is the uninterrupted one.
    let dtc_whole = std::fs::read(path("1010", "dtc")).expect("read");
    std::fs::write(path("1010", "dtc"), &dtc_whole[..100]).expect("cut");
    let tmp = dir.0.join("english").join("0102.egdb.4000000000.tmp");
    std::fs::rename(path("0102", "egdb"), &tmp).expect("move away");
    let again = build_all::<English>(&opts).expect("resume");
    let mut rebuilt: Vec<String> = again
        .iter()
        .filter(|r| !r.reused)
        .map(|r| r.material.to_string())
        .collect();
    rebuilt.sort();
    assert_eq!(rebuilt, ["0102", "0201", "1010"]);
    assert!(!tmp.exists(), "the stale temporary file is removed");
    assert_eq!(std::fs::read(path("0201", "egdb")).expect("read"), whole);
    assert_eq!(std::fs::read(path("1010", "dtc")).expect("read"), dtc_whole);
    assert_eq!(place::scan::<English>(&dir.0).complete, 3);
    let leftovers = std::fs::read_dir(dir.0.join("english"))
        .expect("list")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count();
    assert_eq!(leftovers, 0);
}

/// The options of a quiet build without a memory limit.
fn options(root: &std::path::Path, pieces: u32, dtc_pieces: u32) -> BuildOptions<'_> {
    BuildOptions {
        dtc_pieces,
        root,
        pieces,
        progress: false,
        memory: None,
        shard: (1, 1),
    }
}

#[test]
fn slice_files_are_stored_compressed_and_version_1_files_are_still_read() {
    use salto::egdb::file;
    let dir = temp_dir("compressed");
    let opts = options(&dir.0, 3, 3);
    build_all::<English>(&opts).expect("build");
    let board = salto::egdb::index::Board::of::<English>();
    let (mut stored, mut plain) = (0, 0);
    for entry in std::fs::read_dir(dir.0.join("english")).expect("folder") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("read");
        assert_eq!(
            bytes[8..12],
            file::VERSION.to_le_bytes(),
            "{}",
            path.display()
        );
        let m: salto::egdb::Material = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse().ok())
            .expect("material");
        let count = salto::egdb::index::Indexer::new(&board, m).count;
        stored += bytes.len();
        plain += file::HEADER
            + if path.extension().is_some_and(|e| e == "dtc") {
                file::dtc_len(count)
            } else {
                file::payload_len(count)
            };
    }
    assert!(
        stored * 2 < plain,
        "{stored} bytes stored for {plain} uncompressed"
    );

    // A slice written as version 1 wrote it (the values as they are) is
    // read, checked and probed as before.
    let m: salto::egdb::Material = "0201".parse().unwrap();
    let path = dir.0.join("english").join("0201.egdb");
    let slice = file::read(&path, "english", &board, m).expect("read");
    // The file at `path` as version 1 would hold `values`: its header with
    // that version, length and checksum, then the values as they are.
    let as_version_1 = |path: &std::path::Path, values: &[u8]| {
        let mut v1 = std::fs::read(path).expect("read")[..file::HEADER].to_vec();
        v1[8..12].copy_from_slice(&file::VERSION_PLAIN.to_le_bytes());
        v1[48..56].copy_from_slice(&(values.len() as u64).to_le_bytes());
        v1[56..64].copy_from_slice(&file::checksum(values).to_le_bytes());
        v1.extend_from_slice(values);
        v1
    };
    let v1 = as_version_1(&path, &slice.data);
    let game = Draughts::<English>::default();
    let pos = game.parse_fen("W:WK1,K5:BK32").expect("fen");
    let before = Database::open::<English>(&dir.0, 3).probe::<English>(&pos);
    assert!(before.is_some());
    std::fs::write(&path, &v1).expect("write");
    // Its distances too, read once and written again compressed below.
    let dpath = path.with_extension("dtc");
    let dtc = file::read_dtc(&dpath, "english", &board, m).expect("distances");
    std::fs::write(&dpath, as_version_1(&dpath, &dtc)).expect("write");
    assert_eq!(
        file::read_dtc_versioned(&dpath, "english", &board, m).expect("v1 distances"),
        (dtc.clone(), file::VERSION_PLAIN)
    );
    assert_eq!(
        file::check(&path, "english", &board, m, false),
        file::FileState::Complete
    );
    assert_eq!(
        file::read(&path, "english", &board, m).expect("v1").data,
        slice.data
    );
    assert_eq!(
        Database::open::<English>(&dir.0, 3).probe::<English>(&pos),
        before
    );
    // The next build reuses it and writes it again compressed.
    let again = build_all::<English>(&opts).expect("build again");
    assert!(again.iter().all(|r| r.reused));
    let (v2, version) = file::read_versioned(&path, "english", &board, m).expect("v2");
    assert_eq!(version, file::VERSION);
    assert_eq!(v2.data, slice.data);
    assert_eq!(
        file::read_dtc_versioned(&dpath, "english", &board, m).expect("v2 distances"),
        (dtc, file::VERSION)
    );

    // A compressed file whose checksum is right but whose block table
    // does not fit the slice: refused at load, never a panic.
    let mut bad = std::fs::read(dir.0.join("english").join("0102.egdb")).expect("read");
    bad[68..72].copy_from_slice(&7u32.to_le_bytes());
    let sum = file::checksum(&bad[file::HEADER..]);
    bad[56..64].copy_from_slice(&sum.to_le_bytes());
    let bad_path = dir.0.join("english").join("0102.egdb");
    std::fs::write(&bad_path, &bad).expect("write");
    let m: salto::egdb::Material = "0102".parse().unwrap();
    let err = file::read(&bad_path, "english", &board, m).expect_err("bad table");
    assert!(err.contains("corrupt"), "{err}");
    assert!(Database::open::<English>(&dir.0, 3).slice(m).is_none());
}

#[test]
fn two_shards_built_at_once_on_one_folder_give_the_files_of_one_build() {
    let whole = temp_dir("shards-whole");
    build_all::<English>(&options(&whole.0, 3, 3)).expect("build");
    let shared = temp_dir("shards");
    let dir = shared.0.to_string_lossy().to_string();
    // Two processes at once, as GNU parallel runs them (docs/egdb.md).
    let shards: Vec<_> = ["1/2", "2/2"]
        .iter()
        .map(|k| {
            std::process::Command::new(env!("CARGO_BIN_EXE_salto"))
                .args(["egdb", "build", "--variant", "english", "--pieces", "3"])
                .args([
                    "--dtc-pieces",
                    "3",
                    "--threads",
                    "1",
                    "--shard",
                    k,
                    "--dir",
                    &dir,
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("start a shard")
        })
        .collect();
    for child in shards {
        let out = child.wait_with_output().expect("shard");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut names: Vec<_> = std::fs::read_dir(whole.0.join("english"))
        .expect("folder")
        .map(|e| e.expect("entry").file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2 * 16, "16 slices to 3 pieces, with distances");
    for name in &names {
        let a = std::fs::read(whole.0.join("english").join(name)).expect("whole");
        let b = std::fs::read(shared.0.join("english").join(name)).expect("shard");
        assert!(a == b, "{name:?} differs");
    }
    // A bad share is refused.
    let err = match build_all::<English>(&BuildOptions {
        shard: (3, 2),
        ..options(&shared.0, 3, 3)
    }) {
        Err(e) => e,
        Ok(_) => panic!("shard 3/2 accepted"),
    };
    assert!(err.contains("3/2"), "{err}");
}

#[test]
fn a_build_above_its_memory_limit_stops_at_the_slice_and_keeps_the_ones_before() {
    let dir = temp_dir("memory-limit");
    let opts = BuildOptions {
        dtc_pieces: 3,
        root: &dir.0,
        pieces: 3,
        progress: false,
        memory: Some(salto::egdb::build::build_memory(20_000, true)),
        shard: (1, 1),
    };
    let err = match build_all::<English>(&opts) {
        Err(e) => e,
        Ok(_) => panic!("english 3 pieces fitted in the memory of 20,000 positions"),
    };
    assert!(
        err.contains("--memory") && err.contains("needs about"),
        "{err}"
    );
    let two_pieces = std::fs::read_dir(dir.0.join("english"))
        .expect("folder")
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let digits: u32 = name.chars().take(4).filter_map(|c| c.to_digit(10)).sum();
            name.ends_with(".egdb") && digits == 2
        })
        .count();
    assert_eq!(two_pieces, 4, "the 2-piece slices are kept");
    // Without the limit the build goes on from there.
    let done = build_all::<English>(&BuildOptions {
        memory: None,
        shard: (1, 1),
        ..opts
    })
    .expect("build");
    assert!(done.iter().filter(|r| r.reused).count() >= 4);
    assert!(done.iter().any(|r| !r.reused && r.material.pieces() == 3));
}
