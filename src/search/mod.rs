//! The search: one generic searcher over [`Game`] for every variant.
//!
//! The surface here is what the protocol, `salto analyse`, `salto bench` and
//! the match runner use: a [`Searcher`] that owns the transposition table and
//! the helper threads, [`Limits`] for one search, a shared [`Control`] to stop
//! it or end pondering from another thread, and [`Info`] reports.

pub mod multi;
pub mod ordering;
pub mod time;
pub mod tt;
pub mod worker;

pub use worker::MAX_PLY;

use crate::game::{Game, MoveList, Score};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use time::TimeManager;
use tt::Tt;
use worker::{Shared, Worker};

/// The limits of one search, as `level` and the command line set them. All
/// `None` / `false`: search until stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after this depth (plies) is complete.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move, seconds.
    pub move_time: Option<f64>,
    /// Time left on the clock, seconds (excluding the coming increment).
    pub time: Option<f64>,
    /// Increment per move, seconds.
    pub inc: f64,
    /// Moves to the next time control (0 or `None`: the rest of the game).
    pub moves_to_go: Option<u32>,
    /// Search until stopped, whatever the other limits say.
    pub infinite: bool,
    /// Report the K best root moves (1 = normal search).
    pub multipv: usize,
}

/// Shared between the searching threads and the controller: the controller
/// sets `stop` to end the search, and clears `pondering` on `ponder-hit`
/// (the clock starts then).
#[derive(Debug)]
pub struct Control {
    pub stop: AtomicBool,
    pub pondering: AtomicBool,
    ponder_hit_at: std::sync::Mutex<Option<Instant>>,
}

impl Default for Control {
    fn default() -> Self {
        Self::new()
    }
}

impl Control {
    pub fn new() -> Self {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponder_hit_at: std::sync::Mutex::new(None),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Ends pondering: from now on the search runs on its normal clock.
    pub fn ponder_hit(&self) {
        if let Ok(mut at) = self.ponder_hit_at.lock() {
            *at = Some(Instant::now());
        }
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// When `ponder_hit` was called, if it was.
    pub fn ponder_hit_time(&self) -> Option<Instant> {
        self.ponder_hit_at.lock().ok().and_then(|at| *at)
    }

    /// Makes the control ready for a new search.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        if let Ok(mut at) = self.ponder_hit_at.lock() {
            *at = None;
        }
    }
}

/// One report of the search: after each completed iteration, and when the
/// best move changes.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    /// Mean depth of the leaves reached (selective depth), plies.
    pub mean_depth: f64,
    /// From the view of the player to move at the root, centi-men.
    pub score: Score,
    pub nodes: u64,
    /// Seconds since the search started.
    pub time: f64,
    pub pv: Vec<M>,
    /// 1-based rank of this line with multi-PV (1 otherwise).
    pub multipv: usize,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply, legal after `best`.
    pub ponder: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}

/// Switches for the selective parts of the search, for measuring what
/// each is worth (`salto analyse` and the tests turn them off). All on by
/// default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Late move reductions.
    pub lmr: bool,
    /// Aspiration windows at the root.
    pub aspiration: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            lmr: true,
            aspiration: true,
        }
    }
}

/// Stack size of the helper threads. The search recurses up to [`MAX_PLY`]
/// plies with a move list (`MAX_MOVES` moves) on each frame: about 1 MB
/// with 16-byte moves. The main search runs on the caller's thread, which
/// needs that much stack too (the default 2 MB of a spawned thread is
/// enough for every game here).
const SEARCH_STACK: usize = 64 << 20;

/// Searches with less time than this (seconds) run on one thread.
pub const HELPER_MIN_TIME: f64 = 0.02;

/// The searcher: transposition table, thread count, history tables. One per
/// engine; reused across searches until `new_game`.
pub struct Searcher<G: Game> {
    game: G,
    hash_mib: usize,
    threads: usize,
    /// Allocated when the size is set, not on the clock of a search.
    tt: Option<Tt>,
    features: Features,
}

impl<G: Game> Searcher<G> {
    pub fn new(game: G, hash_mib: usize, threads: usize) -> Self {
        let hash_mib = hash_mib.max(1);
        Searcher {
            game,
            hash_mib,
            threads: threads.max(1),
            tt: Some(Tt::new(hash_mib)),
            features: Features::default(),
        }
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mib(&mut self, mib: usize) {
        let mib = mib.max(1);
        if mib != self.hash_mib || self.tt.is_none() {
            self.tt = None;
            self.tt = Some(Tt::new(mib));
        }
        self.hash_mib = mib;
    }

    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// The size of the table actually allocated, MiB: less than
    /// [`Searcher::hash_mib`] when that much memory could not be had.
    pub fn table_mib(&self) -> usize {
        self.tt.as_ref().map_or(0, Tt::mib)
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn features(&self) -> Features {
        self.features
    }

    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// The transposition table (allocated if it is not), for the
    /// multi-player searches of [`multi`], which share it.
    pub fn table(&mut self) -> &Tt {
        self.tt.get_or_insert_with(|| Tt::new(self.hash_mib))
    }

    /// Forgets everything learnt (the table, the history): `new-game`.
    pub fn new_game(&mut self) {
        if let Some(tt) = &self.tt {
            tt.clear();
        }
    }

    /// Searches `root`. `history` holds the hashes of the game's positions
    /// before `root`, oldest first (for repetition draws). `on_info` is
    /// called from the calling thread. Returns when a limit is reached or
    /// `control.stop` is set (and, while `control.pondering`, never on time;
    /// a search that ends early while pondering or under `infinite` waits
    /// for `stop` or `ponder-hit`).
    pub fn search(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let pondering = control.pondering.load(Ordering::SeqCst);
        let time = TimeManager::new(limits, pondering);
        let game = self.game;
        let tt = self.tt.get_or_insert_with(|| Tt::new(self.hash_mib));
        tt.new_search();
        let tt: &Tt = tt;
        // Helpers cannot help in a few milliseconds, and starting and
        // joining them costs scheduler latency on a loaded machine.
        let threads = if time.hard.is_some_and(|h| h < HELPER_MIN_TIME) {
            1
        } else {
            self.threads
        };
        let shared = Shared {
            tt,
            control,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            limits,
            features: self.features,
        };
        let shared = &shared;
        let outcome = std::thread::scope(|s| {
            let mut helpers = Vec::new();
            for id in 1..threads {
                let b = std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(SEARCH_STACK);
                let h = b.spawn_scoped(s, move || {
                    let mut w = Worker::new(game, shared, id, root, history, None);
                    w.iterate(&mut |_| {});
                    w.publish_nodes();
                });
                match h {
                    Ok(h) => helpers.push(h),
                    Err(e) => log::warn!("cannot start search thread {id}: {e}"),
                }
            }
            // The main search runs on the calling thread: no thread start on
            // the clock, and `on_info` is called directly.
            let mut w = Worker::new(game, shared, 0, root, history, Some(time));
            w.iterate(on_info);
            // Never return early while pondering or analysing without end:
            // wait for stop or ponder-hit.
            while !control.should_stop()
                && (control.pondering.load(Ordering::SeqCst) || limits.infinite)
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            shared.abort.store(true, Ordering::SeqCst);
            w.publish_nodes();
            for h in helpers {
                let _ = h.join();
            }
            Some((w.root_moves, w.completed_depth))
        });
        let nodes = shared.total_nodes();
        let (root_moves, depth) = outcome.unwrap_or_else(|| (Vec::new(), 0));
        let Some(best) = root_moves.first() else {
            // No legal move (or no thread): the first legal move if any.
            let mut list = MoveList::new();
            game.generate(root, &mut list);
            let best = list.first().copied();
            return SearchResult {
                best,
                ponder: None,
                score: if best.is_some() {
                    0
                } else {
                    -crate::game::SCORE_WIN
                },
                depth: 0,
                nodes,
                pv: best.into_iter().collect(),
            };
        };
        let mut pv = best.pv.clone();
        if pv.len() < 2 {
            // Look the reply up in the table, for pondering.
            let after = game.play(root, best.mv);
            if let Some(idx) = tt.probe(game.hash(&after)).and_then(|e| e.move_index) {
                let mut list = MoveList::new();
                game.generate(&after, &mut list);
                if let Some(&reply) = list.get(idx as usize) {
                    pv.truncate(1);
                    pv.push(reply);
                }
            }
        }
        SearchResult {
            best: Some(best.mv),
            ponder: pv.get(1).copied(),
            score: best.score,
            depth,
            nodes,
            pv,
        }
    }
}
