//! The transposition table: shared by every search thread, lock-free.
//!
//! An entry is two `AtomicU64` words: `key ^ data` and `data`. A reader
//! accepts an entry only when the two words xor back to its own hash, so a
//! half-written entry (one word from one thread, one from another) is simply
//! a miss: threads can never read a torn entry as valid (Hyatt's lockless
//! hashing). Entries sit in buckets of four (one 64-byte cache line);
//! replacement prefers the same key, then the shallowest and oldest entry.

use crate::game::{SCORE_EGDB_MIN, Score};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

/// One decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the best move in the position's generated move list, if any.
    pub move_index: Option<u16>,
    /// Score relative to the node (wins count plies from the node).
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    pub bound: Bound,
}

impl Entry {
    /// The score this entry proves for a search of `depth` at `ply` with
    /// window (`alpha`, `beta`), if it is deep enough and its bound decides
    /// the window: the table cutoff every alpha-beta search here shares.
    #[inline]
    pub fn cutoff(&self, depth: i32, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
        if (self.depth as i32) < depth {
            return None;
        }
        let s = score_from_tt(self.score, ply);
        let cut = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        cut.then_some(s)
    }
}

const ENTRIES_PER_BUCKET: usize = 4;
const NO_MOVE: u64 = 0xFFFF;

/// The table. Sized in MiB; one entry is 16 bytes.
pub struct Tt {
    words: Words,
    buckets: usize,
    age: AtomicU64,
}

fn pack(move_index: Option<u16>, score: Score, depth: u8, bound: Bound, age: u8) -> u64 {
    let m = move_index.map_or(NO_MOVE, |i| i as u64);
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16) as u16 as u64;
    m | (s << 16) | ((depth as u64) << 32) | ((bound as u64) << 40) | (((age & 0x3F) as u64) << 42)
}

fn unpack(data: u64) -> Option<(Entry, u8)> {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let m = data & 0xFFFF;
    Some((
        Entry {
            move_index: if m == NO_MOVE { None } else { Some(m as u16) },
            score: (((data >> 16) & 0xFFFF) as u16 as i16) as Score,
            depth: ((data >> 32) & 0xFF) as u8,
            bound,
        },
        ((data >> 42) & 0x3F) as u8,
    ))
}

/// The table's memory: zeroed words, aligned to [`HUGE_PAGE`] and (on
/// Linux) advised for transparent huge pages. A probe is a random access
/// into many megabytes: with 4 KiB pages most probes also miss the TLB
/// (measured: the first load of `probe` was a quarter of the bench's
/// time). Huge pages need no system call beyond `madvise`, and where the
/// kernel declines, the table works as before.
struct Words {
    ptr: std::ptr::NonNull<AtomicU64>,
    len: usize,
    layout: std::alloc::Layout,
}

/// The alignment of the table (one x86-64 huge page).
const HUGE_PAGE: usize = 2 << 20;

// SAFETY: `Words` owns its allocation (freed only in `drop`) and hands out
// nothing but `&[AtomicU64]`; moving the owner to another thread moves no
// data, and `AtomicU64` is `Send`.
unsafe impl Send for Words {}
// SAFETY: shared access goes only through `&[AtomicU64]`, whose every
// operation is atomic; `AtomicU64` is `Sync`.
unsafe impl Sync for Words {}

impl Words {
    /// `len` zeroed words, or `None` when the memory cannot be had.
    fn try_new(len: usize) -> Option<Self> {
        let len = len.max(1);
        let size = len.saturating_mul(std::mem::size_of::<AtomicU64>());
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<AtomicU64>()
        };
        // Sizes near isize::MAX have no layout: no memory for them either.
        let layout = std::alloc::Layout::from_size_align(size, align).ok()?;
        // SAFETY: the layout has a non-zero size (`len` is at least 1); a
        // null result is handled just below.
        let raw = unsafe { std::alloc::alloc(layout) } as *mut AtomicU64;
        let ptr = std::ptr::NonNull::new(raw)?;
        advise_huge_pages(raw as *mut u8, layout.size());
        // SAFETY: the allocation holds `layout.size()` bytes; all-zero bytes
        // are a valid `AtomicU64`. Zeroing after the advice lets the first
        // touch of each 2 MiB range take a huge page.
        unsafe { std::ptr::write_bytes(raw as *mut u8, 0, layout.size()) };
        let len = layout.size() / std::mem::size_of::<AtomicU64>();
        Some(Words { ptr, len, layout })
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` points to `len` initialised (zeroed in `try_new`) words,
        // suitably aligned, that live as long as `self`; they are only ever
        // accessed through atomic operations, so shared slices are sound.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Words {
    fn drop(&mut self) {
        // SAFETY: `ptr` was allocated in `try_new` with this very layout and is
        // freed only here, once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    // From the C library that the standard library links anyway.
    unsafe extern "C" {
        fn madvise(
            addr: *mut std::ffi::c_void,
            len: usize,
            advice: std::ffi::c_int,
        ) -> std::ffi::c_int;
    }
    /// `MADV_HUGEPAGE` of <sys/mman.h>.
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    if len >= HUGE_PAGE && (ptr as usize).is_multiple_of(HUGE_PAGE) {
        // SAFETY: the range is one allocation of ours; the advice changes no
        // contents. A failure (old kernel, THP off) only means small pages.
        let _ = unsafe { madvise(ptr as *mut std::ffi::c_void, len, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// A win score (a mate or an endgame database win, which count plies from
/// the root) is stored relative to the node, not the root.
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score >= SCORE_EGDB_MIN {
        score + ply as Score
    } else if score <= -SCORE_EGDB_MIN {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= SCORE_EGDB_MIN {
        score - ply as Score
    } else if score <= -SCORE_EGDB_MIN {
        score + ply as Score
    } else {
        score
    }
}

impl Tt {
    /// A table of about `mib` MiB (at least one bucket). When that much
    /// memory cannot be had, half as much is tried, and so on: the size
    /// actually allocated is [`Tt::mib`]. Only when not even the smallest
    /// table can be allocated does this abort, as any allocation would.
    pub fn new(mib: usize) -> Self {
        let mut mib = mib.max(1);
        loop {
            if let Some(tt) = Self::try_new(mib) {
                return tt;
            }
            if mib == 1 {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u64; 1 << 17]>());
            }
            log::warn!(
                "a table of {mib} MiB cannot be allocated; trying {} MiB",
                mib / 2
            );
            mib /= 2;
        }
    }

    /// A table of about `mib` MiB, or `None` when the memory cannot be had.
    pub fn try_new(mib: usize) -> Option<Self> {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (16 * ENTRIES_PER_BUCKET)).max(1);
        let words = Words::try_new(buckets.checked_mul(ENTRIES_PER_BUCKET * 2)?)?;
        Some(Tt {
            words,
            buckets,
            age: AtomicU64::new(0),
        })
    }

    /// The table's size in MiB (rounded down; 0 below 1 MiB).
    pub fn mib(&self) -> usize {
        (self.buckets * ENTRIES_PER_BUCKET * 16) >> 20
    }

    /// Empties the table (`new-game`).
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become cheaper to
    /// replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn current_age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & 0x3F) as u8
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        (((hash as u128) * (self.buckets as u128)) >> 64) as usize * ENTRIES_PER_BUCKET * 2
    }

    /// Asks the processor to fetch the bucket of `hash` into the cache (the
    /// search calls it as soon as it knows a child's hash, so that the
    /// child's probe finds the line there).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.words.as_ptr().wrapping_add(self.bucket(hash));
            // SAFETY: a prefetch is a hint; it never faults, whatever the
            // address (this one is inside the table anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The entry stored for `hash`, if any.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let base = self.bucket(hash);
        for i in 0..ENTRIES_PER_BUCKET {
            let k = self.words[base + 2 * i].load(Ordering::Relaxed);
            let d = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            if k ^ d == hash && d != 0 {
                return unpack(d).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores an entry for `hash`. `score` must already be node-relative
    /// ([`score_to_tt`]).
    pub fn store(&self, hash: u64, move_index: Option<u16>, score: Score, depth: u8, bound: Bound) {
        let base = self.bucket(hash);
        let age = self.current_age();
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let k = self.words[base + 2 * i].load(Ordering::Relaxed);
            let d = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            let Some((old, old_age)) = unpack(d) else {
                // An empty slot.
                victim = i;
                victim_value = i32::MIN;
                continue;
            };
            if k ^ d == hash {
                // Same position: keep a deeper entry of this search unless
                // the new one is exact.
                if old_age == age && bound != Bound::Exact && (old.depth as i32) > depth as i32 + 2
                {
                    return;
                }
                // Keep the old move when the new entry has none.
                let mv = move_index.or(old.move_index);
                self.write(base + 2 * i, hash, pack(mv, score, depth, bound, age));
                return;
            }
            let stale = (age.wrapping_sub(old_age) & 0x3F) as i32;
            let value = old.depth as i32 - 8 * stale;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        self.write(
            base + 2 * victim,
            hash,
            pack(move_index, score, depth, bound, age),
        );
    }

    #[inline]
    fn write(&self, at: usize, hash: u64, data: u64) {
        self.words[at].store(hash ^ data, Ordering::Relaxed);
        self.words[at + 1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entry_reads_back() {
        let tt = Tt::new(1);
        tt.store(0x1234_5678_9abc_def0, Some(7), -123, 9, Bound::Lower);
        let e = tt.probe(0x1234_5678_9abc_def0).expect("hit");
        assert_eq!(e.move_index, Some(7));
        assert_eq!(e.score, -123);
        assert_eq!(e.depth, 9);
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn a_table_that_cannot_be_had_is_none_and_new_falls_back_to_a_smaller_one() {
        // More than the address space: the allocator refuses it at once.
        assert!(Tt::try_new(usize::MAX >> 20).is_none());
        assert!(Tt::try_new(1 << 40).is_none());
        assert_eq!(Tt::new(3).mib(), 3);
    }

    #[test]
    fn win_scores_are_stored_relative_to_the_node() {
        let s = crate::game::SCORE_WIN - 10;
        assert_eq!(score_from_tt(score_to_tt(s, 4), 4), s);
        assert_eq!(score_from_tt(score_to_tt(s, 4), 6), s - 2);
        assert_eq!(score_from_tt(score_to_tt(-s, 4), 6), -s + 2);
        assert_eq!(score_to_tt(55, 9), 55);
    }

    /// `n` distinct hashes that all fall into one bucket of `tt` (they
    /// share their high bits, which pick the bucket).
    fn same_bucket(tt: &Tt, n: u64) -> Vec<u64> {
        let hashes: Vec<u64> = (0..n).map(|i| 0xA5A5_0000_0000_0000 | (i + 1)).collect();
        assert!(hashes.iter().all(|&h| tt.bucket(h) == tt.bucket(hashes[0])));
        hashes
    }

    #[test]
    fn concurrent_writers_never_produce_a_torn_entry() {
        // Two threads write different entries for 16 hashes of ONE bucket
        // (4 slots), so that they keep overwriting each other's slots; the
        // data encodes the hash, so a reader that accepted a half-written
        // slot (one word from each writer) would see another hash's data.
        let tt = Tt::new(1);
        let hashes = same_bucket(&tt, 16);
        let (tt, hashes) = (&tt, &hashes);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                s.spawn(move || {
                    for i in 0..200_000usize {
                        let h = hashes[(i * 7 + t as usize) % hashes.len()];
                        tt.store(
                            h,
                            Some((h & 0x1FF) as u16),
                            (t as i32) * 7,
                            (h & 0x3F) as u8,
                            Bound::Exact,
                        );
                        let r = hashes[(i * 5 + 3) % hashes.len()];
                        if let Some(e) = tt.probe(r) {
                            assert_eq!(e.move_index, Some((r & 0x1FF) as u16));
                            assert_eq!(e.depth, (r & 0x3F) as u8);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        // One word from one entry, the other from another: no hit.
        let tt = Tt::new(1);
        let h = same_bucket(&tt, 2);
        tt.store(h[0], Some(1), 10, 5, Bound::Exact);
        let base = tt.bucket(h[0]);
        let other = pack(Some(2), 20, 6, Bound::Lower, tt.current_age());
        for slot in 0..ENTRIES_PER_BUCKET {
            tt.words[base + 2 * slot + 1].store(other, Ordering::Relaxed);
        }
        assert!(tt.probe(h[0]).is_none());
        assert!(tt.probe(h[1]).is_none());
    }

    #[test]
    fn a_full_bucket_replaces_its_shallowest_entry() {
        let tt = Tt::new(1);
        let h = same_bucket(&tt, 5);
        for (i, depth) in [10u8, 3, 10, 10].into_iter().enumerate() {
            tt.store(h[i], Some(i as u16), 0, depth, Bound::Exact);
        }
        tt.store(h[4], Some(4), 0, 5, Bound::Exact);
        assert!(tt.probe(h[1]).is_none(), "the shallowest entry goes");
        for i in [0, 2, 3, 4] {
            assert_eq!(tt.probe(h[i]).map(|e| e.move_index), Some(Some(i as u16)));
        }
    }

    #[test]
    fn entries_of_older_searches_are_replaced_first() {
        let tt = Tt::new(1);
        let h = same_bucket(&tt, 5);
        for (i, depth) in [12u8, 10, 10, 11].into_iter().enumerate() {
            tt.store(h[i], None, 0, depth, Bound::Exact);
        }
        tt.new_search();
        // Refreshed in this search: worth its full depth again.
        tt.store(h[1], None, 0, 10, Bound::Exact);
        // The others lose 8 plies of value for their age: h[2] (10 - 8) is
        // now the cheapest, below the fresh h[1] of the same depth.
        tt.store(h[4], None, 0, 1, Bound::Exact);
        assert!(tt.probe(h[2]).is_none(), "the stale entry goes");
        for i in [0, 1, 3, 4] {
            assert!(tt.probe(h[i]).is_some(), "entry {i} stays");
        }
    }

    #[test]
    fn a_deeper_entry_of_this_search_is_kept_unless_the_new_one_is_exact() {
        let tt = Tt::new(1);
        let h = 0x0123_4567_89AB_CDEF;
        tt.store(h, Some(3), 50, 12, Bound::Lower);
        // Shallower (by more than 2), not exact: ignored.
        tt.store(h, Some(4), 60, 5, Bound::Upper);
        let e = tt.probe(h).expect("hit");
        assert_eq!((e.move_index, e.score, e.depth), (Some(3), 50, 12));
        // Exact: replaces, and keeps the old move when it brings none.
        tt.store(h, None, 70, 5, Bound::Exact);
        let e = tt.probe(h).expect("hit");
        assert_eq!((e.move_index, e.score, e.depth), (Some(3), 70, 5));
        // In a later search a shallower entry replaces it too.
        tt.new_search();
        tt.store(h, Some(9), 80, 1, Bound::Upper);
        let e = tt.probe(h).expect("hit");
        assert_eq!((e.move_index, e.depth, e.bound), (Some(9), 1, Bound::Upper));
    }

    #[test]
    fn clear_forgets_everything() {
        let tt = Tt::new(1);
        let h = same_bucket(&tt, 4);
        for &x in &h {
            tt.store(x, Some(1), 0, 1, Bound::Exact);
        }
        tt.clear();
        assert!(h.iter().all(|&x| tt.probe(x).is_none()));
    }
}
