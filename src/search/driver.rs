//! The iterative-deepening driver shared by every search: the depth limit,
//! the stop rules between iterations (soft clock, a single legal move, a
//! decided game), the wait while pondering, the root moves with their lines,
//! the root's table entry and the final answer. The algorithms (two-player
//! PVS in [`super::worker`], paranoid, Best-Reply, max^n and greedy in
//! [`super::multi`]) plug in behind [`RootSearch`].

use super::time::{Stability, TimeManager};
use super::tt::{Bound, Tt, score_to_tt};
use super::{Control, Info, Limits, SearchResult};
use crate::game::{Game, MoveList, SCORE_INF, SCORE_WIN, SCORE_WIN_MIN, Score, legal_prefix};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The deepest ply the search goes to (iterations stop below it).
pub const MAX_PLY: usize = 128;
/// The deepest iteration: a few plies below [`MAX_PLY`] for extensions.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 8;
/// The next iteration is assumed to take this many times the last one,
/// within these bounds of the measured growth of the last two.
const GROWTH_FIRST: f64 = 3.0;
const GROWTH_MIN: f64 = 1.5;
const GROWTH_MAX: f64 = 6.0;

/// A root move with its score in the current iteration and its line.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    /// Index in the root's generated move list (what the table stores).
    pub index: u16,
    pub score: Score,
    pub pv: Vec<M>,
}

impl<M: Copy> RootMove<M> {
    /// The root's legal moves in generation order, not yet scored.
    pub fn all<G: Game<Move = M>>(game: &G, root: &G::Position) -> Vec<RootMove<M>> {
        let mut list = MoveList::new();
        game.generate(root, &mut list);
        list.iter()
            .enumerate()
            .map(|(i, &mv)| RootMove {
                mv,
                index: i as u16,
                score: -SCORE_INF,
                pv: vec![mv],
            })
            .collect()
    }

    /// The move scored `score`, its line continuing with `rest`.
    pub fn set_line(&mut self, score: Score, rest: &[M]) {
        self.score = score;
        self.pv.clear();
        self.pv.push(self.mv);
        self.pv.extend_from_slice(rest);
    }
}

/// Sorts root moves best first, keeping the order of equal scores (moves
/// that did not raise alpha keep their place).
pub fn sort_root_moves<M>(moves: &mut [RootMove<M>]) {
    moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
}

/// The principal variation from each ply: `line(ply)` is the best line
/// found from the node at `ply`.
pub struct PvTable<M> {
    lines: Vec<Vec<M>>,
}

impl<M: Copy> PvTable<M> {
    pub fn new() -> Self {
        PvTable {
            lines: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
        }
    }

    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// The line at `ply` becomes `mv` followed by the line at `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: M) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    pub fn line(&self, ply: usize) -> &[M] {
        &self.lines[ply]
    }
}

impl<M: Copy> Default for PvTable<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// The sum and count of the leaf plies of one iteration (the selective
/// depth of the reports).
#[derive(Clone, Copy, Debug, Default)]
pub struct Leaves {
    sum: u64,
    count: u64,
}

impl Leaves {
    #[inline]
    pub fn add(&mut self, ply: usize) {
        self.sum += ply as u64;
        self.count += 1;
    }

    /// The mean leaf ply, or `depth` when no leaf was reached.
    pub fn mean(&self, depth: u32) -> f64 {
        if self.count > 0 {
            self.sum as f64 / self.count as f64
        } else {
            depth as f64
        }
    }
}

/// An evaluation is kept clear of the win scores.
#[inline]
pub fn clamp_eval(s: Score) -> Score {
    s.clamp(-SCORE_WIN_MIN + 1, SCORE_WIN_MIN - 1)
}

/// The report of one root line.
pub fn info<M: Clone>(
    rm: &RootMove<M>,
    pv: Vec<M>,
    depth: u32,
    leaves: &Leaves,
    nodes: u64,
    start: Instant,
    multipv: usize,
) -> Info<M> {
    Info {
        depth,
        mean_depth: leaves.mean(depth),
        score: rm.score,
        nodes,
        time: start.elapsed().as_secs_f64(),
        pv,
        multipv,
    }
}

/// An algorithm as the driver sees it: one iteration at a given depth over
/// the root moves.
pub trait RootSearch<G: Game> {
    /// False for a one-shot search: the driver stops after its first
    /// iteration.
    const ITERATIVE: bool = true;

    /// The root moves, best first after each complete iteration.
    fn root_moves(&self) -> &[RootMove<G::Move>];

    /// The thread that watches the clock and reports (Lazy SMP helpers are
    /// not).
    fn is_main(&self) -> bool {
        true
    }

    /// The depth to search in the iteration numbered `depth` (Lazy SMP
    /// helpers search some iterations one ply deeper).
    fn search_depth(&self, depth: u32, _max_depth: u32) -> u32 {
        depth
    }

    /// Runs one iteration to `depth`, reporting each line through `report`
    /// (`start`: when the search started). False when the search was
    /// stopped before the iteration completed.
    fn iteration(
        &mut self,
        depth: u32,
        start: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> bool;

    /// The report of the first root line as it stands, at `depth`.
    fn best_info(&self, depth: u32, start: Instant) -> Info<G::Move>;
}

/// The deepest iteration `limits` allow.
pub fn max_depth(limits: &Limits) -> u32 {
    if limits.infinite {
        MAX_DEPTH
    } else {
        limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

/// True when the search runs on the clock alone (no depth or node limit).
fn clocked(limits: &Limits) -> bool {
    !limits.infinite
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && (limits.time.is_some() || limits.move_time.is_some())
}

/// The time the next iteration will take, from the last two.
fn next_iteration_time(last: f64, previous: f64) -> f64 {
    let growth = if previous > 1e-4 {
        (last / previous).clamp(GROWTH_MIN, GROWTH_MAX)
    } else {
        GROWTH_FIRST
    };
    last * growth
}

/// Iterative deepening of `search` until a limit says stop; returns the
/// last completed depth. The main thread (the one with `time`) then waits
/// while pondering or analysing without end ([`wait_for_end`]).
pub fn iterate<G: Game, S: RootSearch<G>>(
    search: &mut S,
    limits: &Limits,
    control: &Control,
    time: Option<&TimeManager>,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> u32 {
    let start = time.map_or_else(Instant::now, |t| t.start());
    let mut completed = 0;
    if !search.root_moves().is_empty() {
        let max_depth = max_depth(limits);
        let clocked = clocked(limits);
        let mut last_iter_time = 0.0f64;
        let mut stability = Stability::default();
        let mut reported_best = None;
        for depth in 1..=max_depth {
            let search_depth = search.search_depth(depth, max_depth);
            let iter_start = Instant::now();
            if !search.iteration(search_depth, start, report) {
                // The cut-off iteration put a new best move first, which is
                // the move played: the last report says so.
                let best = search.root_moves().first().map(|rm| rm.mv);
                if search.is_main() && reported_best.is_some() && best != reported_best {
                    report(&search.best_info(search_depth, start));
                }
                break;
            }
            completed = search_depth;
            reported_best = search.root_moves().first().map(|rm| rm.mv);
            if !S::ITERATIVE {
                break;
            }
            if !search.is_main() {
                continue;
            }
            // One legal move under a clock: answer at once (after one ply,
            // for a score).
            if clocked
                && search.root_moves().len() == 1
                && !control.pondering.load(Ordering::Relaxed)
            {
                break;
            }
            let t = iter_start.elapsed().as_secs_f64();
            let next = next_iteration_time(t, last_iter_time);
            last_iter_time = t;
            let best = &search.root_moves()[0];
            let scale = stability.update(best.index, best.score);
            if let Some(tm) = time
                && tm.stop_iterating(control, next, scale)
            {
                break;
            }
            // A win or loss found within the depth searched will not change.
            let best = search.root_moves()[0].score;
            if clocked
                && best.abs() >= SCORE_WIN_MIN
                && (SCORE_WIN - best.abs()) as u32 <= search_depth
            {
                break;
            }
        }
    }
    if search.is_main() {
        wait_for_end(limits, control);
    }
    completed
}

/// Never return early while pondering or analysing without end (no limit at
/// all counts as no end): wait for `stop` or `ponder-hit`.
pub fn wait_for_end(limits: &Limits, control: &Control) {
    let endless = limits.infinite
        || (limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.move_time.is_none()
            && limits.time.is_none());
    while !control.should_stop() && (control.pondering.load(Ordering::SeqCst) || endless) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Stores the root's best move after an iteration (for the next one's
/// ordering, and for the reply lookup of [`result`]). `key` is xored into
/// the hash (0 for the two-player search).
pub fn store_root<M>(tt: &Tt, hash: u64, rm: &RootMove<M>, depth: i32, bound: Bound) {
    if rm.score > -SCORE_INF && depth > 0 {
        tt.store(
            hash,
            Some(rm.index),
            score_to_tt(rm.score, 0),
            depth.min(255) as u8,
            bound,
        );
    }
}

/// What a search leaves behind for [`result`].
pub struct Finished<M> {
    pub root_moves: Vec<RootMove<M>>,
    pub depth: u32,
    pub nodes: u64,
    /// Xored into the table keys by this search.
    pub key: u64,
}

/// The answer of a search: the best root move, its line (legal prefix) and
/// the expected reply (from the table when the line is one move long).
pub fn result<G: Game>(
    game: &G,
    tt: &Tt,
    root: &G::Position,
    done: Finished<G::Move>,
) -> SearchResult<G::Move> {
    let Some(best) = done.root_moves.first() else {
        return SearchResult {
            best: None,
            ponder: None,
            score: -SCORE_WIN,
            depth: 0,
            nodes: done.nodes,
            pv: Vec::new(),
        };
    };
    let mut pv = legal_prefix(game, root, &best.pv);
    if pv.len() < 2 {
        // Look the reply up in the table, for pondering.
        let after = game.play(root, best.mv);
        if let Some(idx) = tt
            .probe(game.hash(&after) ^ done.key)
            .and_then(|e| e.move_index)
        {
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
        depth: done.depth,
        nodes: done.nodes,
        pv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::InternationalGame;

    type Mv = <InternationalGame as Game>::Move;

    /// A search that records the depths it was asked for, ends each
    /// iteration with `score` and stops at `stop_at`.
    struct Fake<const ITER: bool> {
        root_moves: Vec<RootMove<Mv>>,
        depths: Vec<u32>,
        score: Score,
        stop_at: Option<u32>,
        /// The stopped iteration puts the second move first.
        new_best_on_stop: bool,
    }

    impl<const ITER: bool> Fake<ITER> {
        fn new(moves: usize, score: Score, stop_at: Option<u32>) -> Self {
            let g = InternationalGame::default();
            let mut root_moves = RootMove::all(&g, &g.start());
            root_moves.truncate(moves);
            Fake {
                root_moves,
                depths: Vec::new(),
                score,
                stop_at,
                new_best_on_stop: false,
            }
        }
    }

    impl<const ITER: bool> RootSearch<InternationalGame> for Fake<ITER> {
        const ITERATIVE: bool = ITER;

        fn root_moves(&self) -> &[RootMove<Mv>] {
            &self.root_moves
        }

        fn iteration(
            &mut self,
            depth: u32,
            start: Instant,
            report: &mut dyn FnMut(&Info<Mv>),
        ) -> bool {
            if self.stop_at == Some(depth) {
                if self.new_best_on_stop {
                    self.root_moves.swap(0, 1);
                }
                return false;
            }
            self.depths.push(depth);
            self.root_moves[0].set_line(self.score, &[]);
            report(&self.best_info(depth, start));
            true
        }

        fn best_info(&self, depth: u32, start: Instant) -> Info<Mv> {
            let rm = &self.root_moves[0];
            let pv = vec![rm.mv];
            info(rm, pv, depth, &Leaves::default(), 1, start, 1)
        }
    }

    fn run<const ITER: bool>(f: &mut Fake<ITER>, limits: &Limits) -> (u32, usize) {
        let control = Control::new();
        let time = TimeManager::new(limits, false);
        let mut reports = 0;
        let depth = iterate(f, limits, &control, Some(&time), &mut |_| reports += 1);
        (depth, reports)
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn the_depth_limit_is_clamped() {
        assert_eq!(max_depth(&depth(0)), 1);
        assert_eq!(max_depth(&depth(7)), 7);
        assert_eq!(max_depth(&depth(1000)), MAX_DEPTH);
        assert_eq!(max_depth(&Limits::default()), MAX_DEPTH);
        let infinite = Limits {
            depth: Some(3),
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(max_depth(&infinite), MAX_DEPTH);
    }

    #[test]
    fn the_next_iteration_is_estimated_from_the_growth_of_the_last_two() {
        assert_eq!(next_iteration_time(1.0, 0.0), GROWTH_FIRST);
        assert_eq!(next_iteration_time(1.0, 0.5), 2.0);
        assert_eq!(next_iteration_time(1.0, 0.9), GROWTH_MIN);
        assert_eq!(next_iteration_time(1.0, 0.01), GROWTH_MAX);
    }

    #[test]
    fn iterations_run_to_the_depth_limit_and_each_reports() {
        let mut f = Fake::<true>::new(5, 10, None);
        assert_eq!(run(&mut f, &depth(6)), (6, 6));
        assert_eq!(f.depths, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn a_stopped_iteration_does_not_count() {
        let mut f = Fake::<true>::new(5, 10, Some(4));
        assert_eq!(run(&mut f, &depth(9)), (3, 3));
    }

    #[test]
    fn a_new_best_move_from_a_stopped_iteration_is_reported_last() {
        let mut f = Fake::<true>::new(5, 10, Some(4));
        f.new_best_on_stop = true;
        let control = Control::new();
        let mut last = Vec::new();
        let mut reports = 0;
        let done = iterate(&mut f, &depth(9), &control, None, &mut |i| {
            reports += 1;
            last = i.pv.clone();
        });
        assert_eq!((done, reports), (3, 4));
        assert_eq!(last, [f.root_moves[0].mv]);
        // Without a new best move, no extra report.
        let mut f = Fake::<true>::new(5, 10, Some(4));
        assert_eq!(run(&mut f, &depth(9)), (3, 3));
    }

    #[test]
    fn a_one_shot_search_runs_one_iteration() {
        let mut f = Fake::<false>::new(5, 10, None);
        assert_eq!(run(&mut f, &depth(9)), (1, 1));
    }

    #[test]
    fn no_root_move_is_no_iteration() {
        let mut f = Fake::<true>::new(0, 10, None);
        assert_eq!(run(&mut f, &depth(9)), (0, 0));
    }

    #[test]
    fn on_the_clock_one_legal_move_and_a_found_win_end_the_search() {
        let clock = Limits {
            time: Some(1000.0),
            ..Limits::default()
        };
        let mut one = Fake::<true>::new(1, 10, None);
        assert_eq!(run(&mut one, &clock).0, 1);
        // A win in 3 plies is certain from depth 3 on.
        let mut win = Fake::<true>::new(5, SCORE_WIN - 3, None);
        assert_eq!(run(&mut win, &clock).0, 3);
        // Not under a depth limit: the depth asked for is searched.
        let mut win = Fake::<true>::new(5, SCORE_WIN - 3, None);
        assert_eq!(run(&mut win, &depth(5)).0, 5);
    }

    #[test]
    fn an_endless_search_waits_for_stop() {
        let control = Control::new();
        let stopped = AtomicBoolFlag::default();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                stopped.set();
                control.stop();
            });
            wait_for_end(&Limits::default(), &control);
            assert!(stopped.get(), "returned before stop");
        });
        // With a limit and no pondering: no wait.
        wait_for_end(&depth(3), &Control::new());
    }

    #[derive(Default)]
    struct AtomicBoolFlag(std::sync::atomic::AtomicBool);

    impl AtomicBoolFlag {
        fn set(&self) {
            self.0.store(true, Ordering::SeqCst);
        }
        fn get(&self) -> bool {
            self.0.load(Ordering::SeqCst)
        }
    }
}
