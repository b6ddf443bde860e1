//! The search: one generic searcher over [`Game`] for every variant.
//!
//! The surface here is what the protocol, `salto analyse`, `salto bench` and
//! the match runner use: a [`Searcher`] that owns the transposition table
//! and runs the search the game needs (two-player PVS on several threads in
//! [`worker`], the searches for more players in [`multi`], both through the
//! iterative-deepening [`driver`]), [`Limits`] for one search, a shared
//! [`Control`] to stop it or end pondering from another thread, and
//! [`Info`] reports.

pub mod driver;
pub mod multi;
pub mod ordering;
pub mod time;
pub mod tt;
pub mod worker;

pub use driver::MAX_PLY;
pub use multi::Algorithm;

use crate::game::{Game, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use time::TimeManager;
use tt::Tt;

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

/// One report of the search: after each completed iteration, and after an
/// iteration cut off by a limit when it changed the best move (the move
/// played), so the last report always starts with that move.
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
    /// The per-thread cache of static evaluations
    /// ([`worker::EvalCache`]): the same scores and nodes either way, so
    /// only `salto bench --no-eval-cache` and the tests turn it off.
    pub eval_cache: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            lmr: true,
            aspiration: true,
            eval_cache: true,
        }
    }
}

/// Stack size of the helper threads. The search recurses up to [`MAX_PLY`]
/// plies with a move list (`MAX_MOVES` moves) on each frame: about 1 MB
/// with 16-byte moves. The main search runs on the caller's thread, which
/// needs that much stack too (the default 2 MB of a spawned thread is
/// enough for every game here).
pub(crate) const SEARCH_STACK: usize = 64 << 20;

/// Searches with less time than this (seconds) run on one thread. A fixed
/// move time now runs to its hard limit, so joining the helpers lies on the
/// way to the deadline; on a loaded machine that overran 50 ms with the old
/// 0.02 s threshold (tests/search.rs), and 2 threads did not gain at 0.1 s
/// per move anyway (docs/strength.md).
pub const HELPER_MIN_TIME: f64 = 0.1;

/// The searcher of an engine: the transposition table, the thread count,
/// the feature switches and the algorithm for more than two players. One per
/// engine; reused across searches until `new_game`.
///
/// A two-player game runs the principal variation search of [`worker`]
/// (whatever the algorithm says, except `greedy`); a game of more than two
/// players runs the [`multi`] search the algorithm names. Both share the
/// table (the multi-player searches xor their keys with the algorithm and
/// the root player, so entries of different searches never mix), the time
/// manager and the iterative-deepening [`driver`].
pub struct Searcher<G: Game> {
    game: G,
    hash_mib: usize,
    threads: usize,
    /// Allocated when the size is set, not on the clock of a search.
    tt: Option<Tt>,
    features: Features,
    algorithm: Algorithm,
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
            algorithm: Algorithm::DEFAULT,
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

    /// Threads of the two-player search (the multi-player searches run on
    /// one).
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

    /// The algorithm for more than two players (the `search` option).
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn set_algorithm(&mut self, a: Algorithm) {
        self.algorithm = a;
    }

    /// The algorithm that will actually run: `None` for the two-player
    /// search (two players, unless `greedy` is asked for).
    pub fn effective_algorithm(&self) -> Option<Algorithm> {
        if self.algorithm == Algorithm::Greedy || self.game.num_players() > 2 {
            Some(self.algorithm)
        } else {
            None
        }
    }

    /// The transposition table (allocated if it is not).
    pub fn table(&mut self) -> &Tt {
        self.tt.get_or_insert_with(|| Tt::new(self.hash_mib))
    }

    /// Forgets everything learnt (the table): `new-game`. The history and
    /// killer tables live in one search's workers and start empty anyway.
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
        let (threads, features) = (self.threads, self.features);
        let algorithm = self.effective_algorithm();
        let tt = self.table();
        tt.new_search();
        let done = match algorithm {
            None => worker::search(
                game, tt, threads, features, root, history, limits, control, time, on_info,
            ),
            Some(a) => multi::search(game, tt, a, root, limits, control, time, on_info),
        };
        if let Some(hard) = time.hard {
            // The budget used, for measuring the time manager (`RUST_LOG=info`).
            // A fixed move time is the budget; under a clock the soft limit
            // is printed before its stability scaling.
            let budget = limits.move_time.filter(|_| time.fixed).unwrap_or(hard);
            let used = time.elapsed();
            log::info!(
                "time used {used:.3} s of {budget:.3} s ({:.0}%), soft {:?}, hard {hard:.3}",
                100.0 * used / budget.max(1e-9),
                time.soft
            );
        }
        driver::result(&game, tt, root, done)
    }
}
