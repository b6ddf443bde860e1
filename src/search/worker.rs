//! The two-player search: principal variation search with aspiration
//! windows at the root, and the quiescence search, one [`Worker`] per
//! thread behind the iterative-deepening [`driver`]. The main thread and the
//! Lazy SMP helpers run the same code; only the main thread watches the
//! clock and reports.

use super::driver::{self, Finished, Leaves, MAX_PLY, PvTable, RootMove, RootSearch, clamp_eval};
use super::ordering::{
    History, Killers, MovePicker, late_move_limit, log_reduction, step_reduction,
};
use super::time::TimeManager;
use super::tt::{Bound, Entry, Tt, score_to_tt};
use super::{Control, Features, HELPER_MIN_TIME, Info, Limits, SEARCH_STACK};
use crate::game::{
    Game, MoveList, Outcome, Reductions, SCORE_DRAW, SCORE_INF, SCORE_WIN, SCORE_WIN_MIN, Score,
    Tablebase,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Aspiration windows start at this half-width (centi-men) from depth
/// [`ASPIRATION_MIN_DEPTH`] on, and double after every failure.
pub const ASPIRATION_DELTA: Score = 20;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Logarithmic late move reductions apply from this remaining depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... to moves after this many have been searched.
pub const LMR_MIN_MOVES: usize = 3;
/// Size of the table of a multi-PV search's lines after the first (MiB).
const SIDE_TABLE_MIB: usize = 16;
/// Nodes between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 256;
/// Slots of each thread's [`EvalCache`] (8 bytes each: 256 KiB).
pub const EVAL_CACHE_SLOTS: usize = 1 << 15;

/// The static evaluations a thread made lately, by position hash: the
/// leaves of a search recur (a reduced move searched again, the next
/// iteration, transpositions below the table's depth-0 horizon), and an
/// evaluation costs far more than a look-up. One slot per hash's low
/// bits, always replaced; a slot holds the hash's top 48 bits and the
/// (clamped) score in the low 16, 0 when empty. Like the transposition
/// table it relies on the hash standing for the position (what
/// `Game::evaluate` reads), so the scores, and the nodes, are those of
/// the evaluation itself (a unit test compares them).
pub struct EvalCache {
    slots: Vec<u64>,
}

impl EvalCache {
    /// A cache of `slots` slots (rounded up to a power of two).
    pub fn new(slots: usize) -> Self {
        EvalCache {
            slots: vec![0; slots.max(1).next_power_of_two()],
        }
    }

    #[inline(always)]
    fn slot(&self, hash: u64) -> usize {
        hash as usize & (self.slots.len() - 1)
    }

    /// The cached score of the position with hash `hash`.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<Score> {
        let e = self.slots[self.slot(hash)];
        (e != 0 && (e ^ hash) >> 16 == 0).then_some(e as u16 as i16 as Score)
    }

    /// Caches `score` (scores outside `i16` are not kept).
    #[inline]
    pub fn put(&mut self, hash: u64, score: Score) {
        if let Ok(s) = i16::try_from(score) {
            let i = self.slot(hash);
            self.slots[i] = (hash & !0xffff) | s as u16 as u64;
        }
    }
}

/// What the threads of one search share besides the table.
pub struct Shared<'a> {
    pub tt: &'a Tt,
    pub control: &'a Control,
    /// Set by the main thread to end the helpers (and itself) early.
    pub abort: AtomicBool,
    /// Nodes per thread, published every [`CHECK_INTERVAL`] nodes.
    pub nodes: Vec<AtomicU64>,
    pub limits: &'a Limits,
    /// Switches for measuring the selective parts (all on by default).
    pub features: super::Features,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// The kind of a node: on the principal variation (full window, its line
/// kept, no table cutoff) or not (null window). A type parameter rather
/// than a `bool`, so each kind compiles to its own code.
pub trait NodeType {
    const PV: bool;
}

/// A node on the principal variation.
pub struct Pv;
/// A node searched with a null window.
pub struct NonPv;

impl NodeType for Pv {
    const PV: bool = true;
}

impl NodeType for NonPv {
    const PV: bool = false;
}

/// What the move loop of one node needs to know about it.
struct Node<'p, G: Game> {
    pos: &'p G::Position,
    ply: usize,
    /// The remaining depth, and that of the children.
    depth: i32,
    new_depth: i32,
    /// A forced move: the children keep the depth.
    extended: bool,
    to_move: usize,
    /// A capture is pending (no reductions).
    unstable: bool,
    /// Moves searched after which the rest are pruned
    /// ([`late_move_limit`]); `usize::MAX` for none.
    move_limit: usize,
    killers: [Option<G::Move>; 2],
}

pub struct Worker<'a, G: Game> {
    game: G,
    shared: &'a Shared<'a>,
    id: usize,
    pub nodes: u64,
    next_check: u64,
    pub stopped: bool,
    /// Hashes of the game before the root, the root, then the search path.
    path: Vec<u64>,
    root_index: usize,
    killers: Killers<G::Move>,
    history: History,
    pv: PvTable<G::Move>,
    pickers: Vec<MovePicker>,
    leaves: Leaves,
    pub root_moves: Vec<RootMove<G::Move>>,
    time: Option<TimeManager>,
    root_pos: G::Position,
    eval_cache: EvalCache,
    tablebase: Option<&'static dyn Tablebase<G::Position>>,
    /// Multi-PV: the lines of the last complete iteration, best first (empty
    /// with one line). The first line is searched exactly as a single-line
    /// search would search it: the lines after it store into `side`, not
    /// the shared table, and leave `history`, `killers` and the root order
    /// as they found them ([`Self::secondary_lines`]).
    lines: Vec<RootMove<G::Move>>,
    side: Option<Tt>,
    /// True while the lines after the first are searched.
    in_side: bool,
}

/// Runs the two-player search: the main search on the calling thread (no
/// thread start on the clock, and `on_info` is called directly) and
/// `threads - 1` Lazy SMP helpers that share the table.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Game>(
    game: G,
    tt: &Tt,
    threads: usize,
    features: Features,
    root: &G::Position,
    history: &[u64],
    limits: &Limits,
    control: &Control,
    time: TimeManager,
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> Finished<G::Move> {
    // Helpers cannot help in a few milliseconds, and starting and joining
    // them costs scheduler latency on a loaded machine.
    let threads = if time.hard.is_some_and(|h| h < HELPER_MIN_TIME) {
        1
    } else {
        threads
    };
    let shared = Shared {
        tt,
        control,
        abort: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        limits,
        features,
    };
    let shared = &shared;
    let (root_moves, depth) = std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let b = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(SEARCH_STACK);
            let h = b.spawn_scoped(s, move || {
                let mut w = Worker::new(game, shared, id, root, history, None);
                let depth = driver::iterate(&mut w, limits, control, None, &mut |_| {});
                w.publish_nodes();
                ThreadResult {
                    root_moves: w.root_moves,
                    depth,
                    leaves: w.leaves,
                }
            });
            match h {
                Ok(h) => helpers.push(h),
                Err(e) => log::warn!("cannot start search thread {id}: {e}"),
            }
        }
        let mut w = Worker::new(game, shared, 0, root, history, Some(time));
        let depth = driver::iterate(&mut w, limits, control, Some(&time), on_info);
        w.finish_lines();
        shared.abort.store(true, Ordering::SeqCst);
        w.publish_nodes();
        let done: Vec<ThreadResult<G::Move>> =
            helpers.into_iter().filter_map(|h| h.join().ok()).collect();
        let main = ThreadResult {
            root_moves: w.root_moves,
            depth,
            leaves: w.leaves,
        };
        let (best, helper) = best_thread(main, done, limits.multipv.max(1));
        // A helper's answer is played: report its line last.
        if helper && let Some(rm) = best.root_moves.first() {
            on_info(&driver::info(
                rm,
                rm.pv.clone(),
                best.depth,
                &best.leaves,
                shared.total_nodes(),
                time.start(),
                1,
            ));
        }
        (best.root_moves, best.depth)
    });
    Finished {
        root_moves,
        depth,
        nodes: shared.total_nodes(),
        key: 0,
    }
}

/// What one thread of a search leaves: its root moves (best first), the
/// depth of its last completed iteration and the leaves of its last one.
struct ThreadResult<M> {
    root_moves: Vec<RootMove<M>>,
    depth: u32,
    leaves: Leaves,
}

/// Lazy SMP's choice of the answer: the main thread's, unless a helper
/// completed a deeper iteration (the odd helpers search one ply deeper, and
/// the main thread stops at its own iteration's end), in which case the
/// deepest helper's (the first of equals). Only with one line asked for: a
/// multi-PV report is the main thread's. Returns the answer and whether it
/// is a helper's.
fn best_thread<M>(
    main: ThreadResult<M>,
    helpers: Vec<ThreadResult<M>>,
    multipv: usize,
) -> (ThreadResult<M>, bool) {
    if multipv > 1 {
        return (main, false);
    }
    let mut best = main;
    let mut helper = false;
    for h in helpers {
        let scored = h.root_moves.first().is_some_and(|rm| rm.score > -SCORE_INF);
        if scored && h.depth > best.depth {
            best = h;
            helper = true;
        }
    }
    (best, helper)
}

impl<G: Game> RootSearch<G> for Worker<'_, G> {
    fn root_moves(&self) -> &[RootMove<G::Move>] {
        &self.root_moves
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Lazy SMP: odd helpers search one ply deeper than their turn.
    fn search_depth(&self, depth: u32, max_depth: u32) -> u32 {
        if self.id % 2 == 1 {
            (depth + 1).min(max_depth.max(depth))
        } else {
            depth
        }
    }

    fn iteration(
        &mut self,
        depth: u32,
        start: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> bool {
        // Helpers search the first line only: the report is the main
        // thread's (`best_thread`).
        let multipv = if self.is_main() {
            self.shared.limits.multipv.max(1).min(self.root_moves.len())
        } else {
            1
        };
        self.leaves = Leaves::default();
        self.aspiration(depth as i32);
        if self.stopped {
            return false;
        }
        if self.is_main() {
            report(&self.line_info(0, depth, start));
        }
        if multipv > 1 {
            if !self.secondary_lines(depth as i32, multipv) {
                return false;
            }
            if self.is_main() {
                for pv_idx in 1..multipv {
                    report(&self.line_info(pv_idx, depth, start));
                }
            }
        }
        true
    }

    fn best_info(&self, depth: u32, start: Instant) -> Info<G::Move> {
        self.line_info(0, depth, start)
    }
}

/// The score of a finished game for the player to move at `ply`: a win or
/// loss in `ply` plies, a draw, or (a game ended without a winner and
/// ranked by distance) the place reached ([`crate::game::ranked_score`]).
fn outcome_score<G: Game>(game: &G, pos: &G::Position, o: Outcome, ply: usize) -> Score {
    crate::game::outcome_score(game, pos, o, game.to_move(pos), ply).unwrap_or(SCORE_DRAW)
}

impl<'a, G: Game> Worker<'a, G> {
    /// The report of root line `pv_idx` (0 for the best).
    fn line_info(&self, pv_idx: usize, depth: u32, start: Instant) -> Info<G::Move> {
        let rm = match self.lines.get(pv_idx) {
            Some(rm) if pv_idx > 0 => rm,
            _ => &self.root_moves[pv_idx],
        };
        let nodes = self.total_nodes();
        driver::info(
            rm,
            rm.pv.clone(),
            depth,
            &self.leaves,
            nodes,
            start,
            pv_idx + 1,
        )
    }

    pub fn new(
        game: G,
        shared: &'a Shared<'a>,
        id: usize,
        root: &G::Position,
        history: &[u64],
        time: Option<TimeManager>,
    ) -> Self {
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 2);
        path.extend_from_slice(history);
        let root_index = path.len();
        path.push(game.hash(root));
        let root_moves = RootMove::all(&game, root);
        Worker {
            game,
            shared,
            id,
            nodes: 0,
            next_check: CHECK_INTERVAL,
            stopped: false,
            path,
            root_index,
            killers: Killers::new(MAX_PLY + 2),
            history: History::new(),
            pv: PvTable::new(),
            pickers: (0..MAX_PLY + 2).map(|_| MovePicker::default()).collect(),
            leaves: Leaves::default(),
            root_moves,
            time,
            root_pos: root.clone(),
            eval_cache: EvalCache::new(if shared.features.eval_cache {
                EVAL_CACHE_SLOTS
            } else {
                1
            }),
            // Off at the start of the search: not asked at every node.
            tablebase: game.tablebase().filter(|t| t.enabled()),
            lines: Vec::new(),
            side: None,
            in_side: false,
        }
    }

    /// Looks at the stop flags, and on the main thread at the clock and the
    /// node limit.
    fn check_stop(&mut self) {
        if self.nodes < self.next_check {
            if self.is_main()
                && let Some(limit) = self.shared.limits.nodes
                && !self.shared.limits.infinite
                && self.total_nodes() >= limit
            {
                self.shared.abort.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
            return;
        }
        self.next_check = self.nodes + CHECK_INTERVAL;
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.shared.abort.load(Ordering::Relaxed) || self.shared.control.should_stop() {
            self.stopped = true;
            return;
        }
        if self.is_main()
            && let Some(t) = &self.time
            && t.hard_expired(self.shared.control)
        {
            self.shared.abort.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    /// Nodes of every thread (exact for this one, recent for the others).
    pub fn total_nodes(&self) -> u64 {
        let others: u64 = self
            .shared
            .nodes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.id)
            .map(|(_, n)| n.load(Ordering::Relaxed))
            .sum();
        others + self.nodes
    }

    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// True when the position at `ply` (hash `hash`, already on the path at
    /// index `root_index + ply`) repeats: once within the search (or the
    /// root), or twice in the game before the root (the third occurrence).
    fn is_repetition(&self, hash: u64, ply: usize, reversible: u32) -> bool {
        let idx = self.root_index + ply;
        let step = self.game.num_players().max(1);
        let mut d = step;
        let mut before_root = 0;
        while d <= reversible as usize && d <= idx {
            let i = idx - d;
            if self.path[i] == hash {
                if i >= self.root_index {
                    return true;
                }
                before_root += 1;
                if before_root >= 2 {
                    return true;
                }
            }
            d += step;
        }
        false
    }

    /// Multi-PV: after the first line of an iteration at `depth`, the
    /// lines 2 to `multipv`, each the best of the root moves not yet in a
    /// line, kept in [`Self::lines`]. They read the shared table but store
    /// into a table of their own, and the root order, the history and the
    /// killers are put back as the first line left them, so that the next
    /// iteration's first line is the single-line search's, score for score.
    /// False when the search was stopped.
    fn secondary_lines(&mut self, depth: i32, multipv: usize) -> bool {
        let root_moves = self.root_moves.clone();
        let history = self.history.clone();
        let killers = self.killers.clone();
        if self.side.is_none() {
            self.side = Some(Tt::new(SIDE_TABLE_MIB));
        }
        self.in_side = true;
        for pv_idx in 1..multipv {
            // Never above the line before: the window ends there, and a
            // move that fails high (the first line's search found it no
            // better, this one does: the selective search is not exact)
            // shows the score of the line before.
            let above = self.root_moves[pv_idx - 1].score;
            self.root_search(depth, -SCORE_INF, above.saturating_add(1), pv_idx);
            if self.stopped {
                break;
            }
            let line = &mut self.root_moves[pv_idx];
            line.score = line.score.min(above);
        }
        self.in_side = false;
        if self.stopped {
            return false;
        }
        self.lines = self.root_moves[..multipv].to_vec();
        self.root_moves = root_moves;
        self.history = history;
        self.killers = killers;
        true
    }

    /// Multi-PV, at the end of the search: the root moves in the order of
    /// the last complete iteration's lines, the rest after them. A first
    /// line changed by a stopped iteration stays first (it is the move
    /// played, as with one line).
    fn finish_lines(&mut self) {
        if self.lines.is_empty() {
            return;
        }
        let first = self.root_moves[0].clone();
        let mut ordered: Vec<RootMove<G::Move>> = Vec::with_capacity(self.root_moves.len());
        if first.mv != self.lines[0].mv {
            ordered.push(first);
        }
        for rm in std::mem::take(&mut self.lines) {
            if !ordered.iter().any(|o| o.mv == rm.mv) {
                ordered.push(rm);
            }
        }
        for rm in &self.root_moves {
            if !ordered.iter().any(|o| o.mv == rm.mv) {
                ordered.push(rm.clone());
            }
        }
        self.root_moves = ordered;
    }

    /// The table of the lines after the first while they are searched.
    #[inline]
    fn side_table(&self) -> Option<&Tt> {
        if self.in_side {
            self.side.as_ref()
        } else {
            None
        }
    }

    /// The table entry of `hash`: the shared table's, or while the lines
    /// after the first are searched, their own table's first.
    #[inline]
    fn probe(&self, hash: u64) -> Option<Entry> {
        self.side_table()
            .and_then(|side| side.probe(hash))
            .or_else(|| self.shared.tt.probe(hash))
    }

    /// Stores into the shared table, or while the lines after the first
    /// are searched, into their own.
    #[inline]
    fn store(&self, hash: u64, move_index: Option<u16>, score: Score, depth: u8, bound: Bound) {
        self.side_table()
            .unwrap_or(self.shared.tt)
            .store(hash, move_index, score, depth, bound);
    }

    /// Searches the first root line with an aspiration window around its
    /// last score, widening until the score falls inside.
    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[0].score;
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if self.shared.features.aspiration
            && depth >= ASPIRATION_MIN_DEPTH
            && prev.abs() < SCORE_WIN_MIN
        {
            (prev - delta, prev + delta)
        } else {
            (-SCORE_INF, SCORE_INF)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, 0);
            if self.stopped {
                return;
            }
            if score <= alpha && alpha > -SCORE_INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-SCORE_INF);
            } else if score >= beta && beta < SCORE_INF {
                beta = (score + delta).min(SCORE_INF);
            } else {
                return;
            }
            delta = delta.saturating_mul(2);
            if delta > 1000 {
                alpha = -SCORE_INF;
                beta = SCORE_INF;
            }
        }
    }

    /// The root: searches `root_moves[first..]` (multi-PV skips the lines
    /// already found) and sorts them by score.
    fn root_search(&mut self, depth: i32, mut alpha: Score, beta: Score, first: usize) -> Score {
        let root = self.root_pos.clone();
        self.path.truncate(self.root_index + 1);
        self.nodes += 1;
        let mut best = -SCORE_INF;
        for i in first..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = self.game.play(&root, mv);
            let score = if i == first {
                -self.alphabeta::<Pv>(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let mut s = -self.alphabeta::<NonPv>(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.alphabeta::<Pv>(&child, depth - 1, -beta, -alpha, 1);
                }
                s
            };
            if self.stopped {
                return best;
            }
            if score > best {
                best = score;
            }
            if i == first || score > alpha {
                self.root_moves[i].set_line(score, self.pv.line(1));
                if score > alpha {
                    alpha = score;
                    // The new best goes first at once, so that a search
                    // stopped in this iteration still plays it.
                    self.root_moves[first..=i].rotate_right(1);
                    if alpha >= beta {
                        break;
                    }
                }
            } else {
                self.root_moves[i].score = -SCORE_INF;
            }
        }
        driver::sort_root_moves(&mut self.root_moves[first..]);
        if first == 0 && !self.stopped {
            let rm = &self.root_moves[0];
            let bound = if rm.score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            driver::store_root(self.shared.tt, self.path[self.root_index], rm, depth, bound);
        }
        best
    }

    /// Counts a node at `ply` and looks at what ends it before any search:
    /// a stop, the end of the game, a repetition. Otherwise puts its hash
    /// on the path and returns it.
    fn enter(&mut self, pos: &G::Position, ply: usize) -> Result<u64, Score> {
        let game = self.game;
        self.pv.clear(ply);
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return Err(0);
        }
        if let Some(o) = game.outcome(pos) {
            return Err(outcome_score(&game, pos, o, ply));
        }
        let hash = game.hash(pos);
        self.path.truncate(self.root_index + ply);
        if self.is_repetition(hash, ply, game.reversible_plies(pos)) {
            return Err(if game.repetition_is_draw() {
                SCORE_DRAW
            } else {
                self.static_eval(pos, hash)
            });
        }
        self.path.push(hash);
        Ok(hash)
    }

    /// Principal variation search (fail-soft negamax) at a node of kind `N`.
    fn alphabeta<N: NodeType>(
        &mut self,
        pos: &G::Position,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
    ) -> Score {
        let game = self.game;
        let hash = match self.enter(pos, ply) {
            Ok(hash) => hash,
            Err(score) => return score,
        };
        if ply > 0
            && let Some(s) = self.probe_tablebase(pos, ply)
        {
            return s;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce_node(pos, alpha, beta, ply);
        }
        // Mate distance pruning: no line from here beats a win already found
        // closer to the root.
        alpha = alpha.max(-(SCORE_WIN - ply as Score));
        beta = beta.min(SCORE_WIN - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }

        let mut table_move = None;
        if let Some(e) = self.probe(hash) {
            table_move = e.move_index.map(|i| i as usize);
            if !N::PV
                && let Some(s) = e.cutoff(depth, ply, alpha, beta)
            {
                return s;
            }
        }

        let mut moves: MoveList<G::Move> = MoveList::new();
        game.generate(pos, &mut moves);
        if moves.is_empty() {
            return -(SCORE_WIN - ply as Score);
        }
        // A forced move costs no depth.
        let extended = moves.len() == 1 && ply < 2 * MAX_PLY / 3;
        let unstable = game.is_unstable(pos);
        let move_limit = if game.prunes_late_moves() {
            late_move_limit(depth, N::PV, unstable, || game.is_threatened(pos))
        } else {
            None
        };
        let node = Node {
            pos,
            ply,
            depth,
            new_depth: depth - 1 + extended as i32,
            extended,
            to_move: game.to_move(pos),
            unstable,
            move_limit: move_limit.unwrap_or(usize::MAX),
            killers: self.killers.get(ply),
        };
        let mut picker = std::mem::take(&mut self.pickers[ply]);
        picker.reset(moves.len(), table_move);
        let searched = self.search_moves::<N>(&node, &moves, &mut picker, alpha, beta);
        self.pickers[ply] = picker;
        let Some((best, best_idx)) = searched else {
            return 0;
        };
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(
            hash,
            best_idx.map(|i| i as u16),
            score_to_tt(best, ply),
            depth.clamp(0, 255) as u8,
            bound,
        );
        best
    }

    /// The move loop of [`Self::alphabeta`]: the best score and move index,
    /// `None` when the search was stopped.
    fn search_moves<N: NodeType>(
        &mut self,
        node: &Node<'_, G>,
        moves: &MoveList<G::Move>,
        picker: &mut MovePicker,
        mut alpha: Score,
        beta: Score,
    ) -> Option<(Score, Option<usize>)> {
        let game = self.game;
        let (pos, ply) = (node.pos, node.ply);
        let mut best = -SCORE_INF;
        let mut best_idx = None;
        let mut searched = 0usize;
        while let Some(i) =
            picker.next(&game, pos, moves, &self.history, node.killers, node.to_move)
        {
            if searched >= node.move_limit && best > -SCORE_WIN_MIN {
                break;
            }
            let mv = moves[i];
            let child = game.play(pos, mv);
            if node.new_depth > 0 {
                self.shared.tt.prefetch(game.hash(&child));
            }
            let is_noisy = picker.is_noisy(i);
            let score = self.child_score::<N>(node, &child, mv, searched, is_noisy, alpha, beta);
            if self.stopped {
                return None;
            }
            searched += 1;
            if score > best {
                best = score;
                best_idx = Some(i);
                if score > alpha {
                    alpha = score;
                    if N::PV {
                        self.pv.update(ply, mv);
                    }
                    if score >= beta {
                        if !is_noisy {
                            self.reward_quiet(node, moves, picker, i);
                        }
                        break;
                    }
                }
            }
            if !is_noisy {
                picker.searched_quiet(i);
            }
        }
        Some((best, best_idx))
    }

    /// The score of `child` (after `mv`, the `searched`-th move of `node`):
    /// the first move with the full window, the others with a null window,
    /// late quiet moves reduced, and searched again when they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn child_score<N: NodeType>(
        &mut self,
        node: &Node<'_, G>,
        child: &G::Position,
        mv: G::Move,
        searched: usize,
        is_noisy: bool,
        alpha: Score,
        beta: Score,
    ) -> Score {
        let (ply, depth, new_depth) = (node.ply, node.depth, node.new_depth);
        if searched == 0 {
            return -self.alphabeta::<N>(child, new_depth, -beta, -alpha, ply + 1);
        }
        let mut r = 0;
        if self.shared.features.lmr && !is_noisy && !node.extended {
            r = match self.game.reductions() {
                Reductions::Steps => step_reduction(depth, searched, N::PV),
                Reductions::Logarithmic
                    if depth >= LMR_MIN_DEPTH
                        && searched >= LMR_MIN_MOVES
                        && !node.unstable
                        && !self.game.is_unstable(child) =>
                {
                    let killer = node.killers[0] == Some(mv) || node.killers[1] == Some(mv);
                    log_reduction(depth, searched) - N::PV as i32 - killer as i32
                }
                Reductions::Logarithmic => 0,
            };
            r = r.clamp(0, (new_depth - 1).max(0));
        }
        let mut s = -self.alphabeta::<NonPv>(child, new_depth - r, -alpha - 1, -alpha, ply + 1);
        if s > alpha && r > 0 && !self.stopped {
            s = -self.alphabeta::<NonPv>(child, new_depth, -alpha - 1, -alpha, ply + 1);
        }
        if N::PV && s > alpha && s < beta && !self.stopped {
            s = -self.alphabeta::<Pv>(child, new_depth, -beta, -alpha, ply + 1);
        }
        s
    }

    /// Quiet move `i` cut off: it becomes a killer and gains history; the
    /// quiet moves searched before it lose history.
    fn reward_quiet(
        &mut self,
        node: &Node<'_, G>,
        moves: &MoveList<G::Move>,
        picker: &MovePicker,
        i: usize,
    ) {
        let game = self.game;
        let (pos, to_move, depth) = (node.pos, node.to_move, node.depth);
        self.killers.add(node.ply, moves[i]);
        self.history
            .reward(picker.key(&game, pos, moves, i), to_move, depth);
        for &q in picker.quiets() {
            let k = picker.key(&game, pos, moves, q as usize);
            self.history.punish(k, to_move, depth);
        }
    }

    /// The endgame database's score of `pos` at `ply`, when the game has a
    /// database ([`Game::tablebase`]) that holds it.
    #[inline]
    fn probe_tablebase(&self, pos: &G::Position, ply: usize) -> Option<Score> {
        let game = self.game;
        self.tablebase?.score(pos, ply, &|| game.evaluate(pos))
    }

    /// The static evaluation of `pos` (hash `hash`), clamped below the
    /// win scores, through the [`EvalCache`] when it is on.
    #[inline]
    fn static_eval(&mut self, pos: &G::Position, hash: u64) -> Score {
        if !self.shared.features.eval_cache {
            return clamp_eval(self.game.evaluate(pos));
        }
        if let Some(s) = self.eval_cache.get(hash) {
            return s;
        }
        let s = clamp_eval(self.game.evaluate(pos));
        self.eval_cache.put(hash, s);
        s
    }

    /// The quiescence search at a node whose terminal and repetition checks
    /// are done. A position with a capture pending is searched on (never
    /// evaluated statically); a stable one stands pat on its evaluation or
    /// crowns a man ([`Game::promotions`]: a promotion the evaluation does
    /// not see; lab/2026-12-02-quiescence-promotions.md).
    fn quiesce_node(
        &mut self,
        pos: &G::Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let game = self.game;
        let mut moves: MoveList<G::Move> = MoveList::new();
        let mut best = -SCORE_INF;
        if !game.is_unstable(pos) || ply >= MAX_PLY - 1 {
            self.leaves.add(ply);
            if ply > 0
                && let Some(s) = self.probe_tablebase(pos, ply)
            {
                return s;
            }
            let stand = self.static_eval(pos, game.hash(pos));
            if stand >= beta || ply >= MAX_PLY - 1 {
                return stand;
            }
            game.promotions(pos, &mut moves);
            best = stand;
            alpha = alpha.max(stand);
        } else {
            game.generate(pos, &mut moves);
            if moves.is_empty() {
                return -(SCORE_WIN - ply as Score);
            }
        }
        for &mv in moves.iter() {
            let child = game.play(pos, mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiesce(&mut self, pos: &G::Position, alpha: Score, beta: Score, ply: usize) -> Score {
        self.pv.clear(ply);
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        if let Some(o) = self.game.outcome(pos) {
            return outcome_score(&self.game, pos, o, ply);
        }
        self.quiesce_node(pos, alpha, beta, ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{EnglishGame, HexGame, InternationalGame, TurkishGame};
    use crate::game::testing::random_line;
    use crate::search::{Control, Searcher};

    /// Positions of random games of `game`.
    fn random_positions<G: Game>(game: &G, games: u64, plies: usize) -> Vec<G::Position> {
        let mut seed = 17u64;
        (0..games)
            .flat_map(|_| random_line(game, plies - 1, &mut seed))
            .collect()
    }

    /// Through a small cache (many replacements), every position of
    /// random games, looked at twice in a row and again later, gets its
    /// own evaluation back or nothing.
    fn cache_agrees<G: Game>(game: G) {
        let positions = random_positions(&game, 20, 120);
        let mut cache = EvalCache::new(256);
        for round in 0..2 {
            for pos in &positions {
                let h = game.hash(pos);
                let want = clamp_eval(game.evaluate(pos));
                match cache.get(h) {
                    Some(s) => assert_eq!(s, want, "round {round}"),
                    None => cache.put(h, want),
                }
                assert_eq!(cache.get(h), Some(want));
            }
        }
    }

    #[test]
    fn the_eval_cache_returns_the_evaluation() {
        cache_agrees(InternationalGame::default());
        cache_agrees(EnglishGame::default());
        cache_agrees(TurkishGame::default());
        cache_agrees(HexGame::default());
    }

    /// The same search with and without the cache: the same nodes, score
    /// and line.
    fn search_agrees<G: Game>(game: G, depth: u32) {
        let positions = random_positions(&game, 3, 30);
        for pos in positions.iter().step_by(10) {
            let mut results = Vec::new();
            for eval_cache in [false, true] {
                let mut s = Searcher::new(game, 4, 1);
                s.set_features(Features {
                    eval_cache,
                    ..Features::default()
                });
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                let r = s.search(pos, &[], &limits, &Control::new(), &mut |_| {});
                results.push((r.nodes, r.score, r.pv));
            }
            assert_eq!(results[0], results[1]);
        }
    }

    #[test]
    fn the_eval_cache_changes_no_search() {
        search_agrees(InternationalGame::default(), 7);
        search_agrees(EnglishGame::default(), 9);
    }
}

#[cfg(test)]
mod best_thread_tests {
    use super::*;

    /// A thread's result: one root move per score given, best first, after
    /// an iteration of `depth`.
    fn thread(depth: u32, scores: &[Score]) -> ThreadResult<u8> {
        let root_moves = scores
            .iter()
            .enumerate()
            .map(|(i, &score)| RootMove {
                mv: i as u8,
                index: i as u16,
                score,
                pv: vec![i as u8],
            })
            .collect();
        ThreadResult {
            root_moves,
            depth,
            leaves: Leaves::default(),
        }
    }

    fn best_move(r: &(ThreadResult<u8>, bool)) -> (u32, u8, bool) {
        (r.0.depth, r.0.root_moves[0].mv, r.1)
    }

    #[test]
    fn smp_plays_the_deepest_completed_iteration() {
        let mut helper = thread(9, &[30, 10]);
        helper.root_moves.swap(0, 1);
        helper.root_moves[0].score = 40;
        let r = best_thread(thread(8, &[20, 10]), vec![helper], 1);
        assert_eq!(best_move(&r), (9, 1, true));
    }

    #[test]
    fn smp_keeps_the_main_answer_at_equal_or_lower_depth() {
        let r = best_thread(
            thread(8, &[20]),
            vec![thread(8, &[50]), thread(7, &[60])],
            1,
        );
        assert_eq!(best_move(&r), (8, 0, false));
        assert_eq!(r.0.root_moves[0].score, 20);
    }

    #[test]
    fn smp_takes_the_deepest_of_several_helpers() {
        let r = best_thread(
            thread(8, &[20]),
            vec![thread(9, &[25]), thread(10, &[30]), thread(10, &[35])],
            1,
        );
        assert_eq!(best_move(&r), (10, 0, true));
        assert_eq!(r.0.root_moves[0].score, 30, "the first of equal depths");
    }

    #[test]
    fn smp_ignores_an_unscored_helper_and_multi_pv() {
        let r = best_thread(thread(8, &[20]), vec![thread(9, &[-SCORE_INF])], 1);
        assert!(!r.1);
        let r = best_thread(thread(8, &[20, 10]), vec![thread(9, &[30, 5])], 2);
        assert_eq!(best_move(&r), (8, 0, false));
        let r = best_thread(thread(8, &[20]), vec![thread(9, &[])], 1);
        assert!(!r.1, "a helper without root moves");
    }
}
