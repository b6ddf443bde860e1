//! The search: one generic searcher over [`Game`] for every variant.
//!
//! The surface here is what the protocol, `salto analyse`, `salto bench` and
//! the match runner use: a [`Searcher`] that owns the transposition table and
//! the helper threads, [`Limits`] for one search, a shared [`Control`] to stop
//! it or end pondering from another thread, and [`Info`] reports.

use crate::game::{Game, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// The searcher: transposition table, thread count, history tables. One per
/// engine; reused across searches until `new_game`.
pub struct Searcher<G: Game> {
    game: G,
    hash_mib: usize,
    threads: usize,
}

impl<G: Game> Searcher<G> {
    pub fn new(game: G, hash_mib: usize, threads: usize) -> Self {
        Searcher {
            game,
            hash_mib: hash_mib.max(1),
            threads: threads.max(1),
        }
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mib(&mut self, mib: usize) {
        self.hash_mib = mib.max(1);
    }

    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (the table, the history): `new-game`.
    pub fn new_game(&mut self) {}

    /// Searches `root`. `history` holds the hashes of the game's positions
    /// before `root`, oldest first (for repetition draws). `on_info` is
    /// called from the searching thread. Returns when a limit is reached or
    /// `control.stop` is set (and, while `control.pondering`, never on time).
    pub fn search(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        // Placeholder until the search lands (issue 5): the first legal move.
        let _ = (history, limits, control, &mut *on_info);
        let mut list = crate::game::MoveList::new();
        self.game.generate(root, &mut list);
        let best = list.first().copied();
        SearchResult {
            best,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: best.into_iter().collect(),
        }
    }
}
