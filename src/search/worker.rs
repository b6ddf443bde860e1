//! One search thread: iterative deepening, principal variation search with
//! aspiration windows, and the quiescence search. The main thread and the
//! Lazy SMP helpers run the same code; only the main thread watches the
//! clock and reports.

use super::ordering::{History, Killers, lmr_reduction};
use super::time::TimeManager;
use super::tt::{Bound, Tt, score_to_tt};
use super::{Control, Info, Limits};
use crate::game::{
    Game, MoveList, Outcome, SCORE_DRAW, SCORE_INF, SCORE_WIN, SCORE_WIN_MIN, Score,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The deepest ply the search goes to (iterations stop below it).
pub const MAX_PLY: usize = 128;
/// Aspiration windows start at this half-width (centi-men) from depth
/// [`ASPIRATION_MIN_DEPTH`] on, and double after every failure.
pub const ASPIRATION_DELTA: Score = 20;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Late move reductions apply from this remaining depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... to moves after this many have been searched.
pub const LMR_MIN_MOVES: usize = 3;
/// Nodes between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 256;

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

/// Per-ply scratch space for move ordering (kept between nodes so that no
/// node clears kilobytes of arrays).
#[derive(Default)]
struct NodeBuf {
    /// Indices of the moves still to pick, and their ordering scores.
    order: Vec<u16>,
    scores: Vec<i32>,
    /// Per move index: the history key, once computed, and whether the move
    /// is noisy.
    keys: Vec<Option<u64>>,
    noisy: Vec<bool>,
    /// Quiet moves searched so far (they lose history on a cutoff).
    quiets: Vec<u16>,
}

impl NodeBuf {
    fn reset(&mut self, n: usize) {
        self.order.clear();
        self.scores.clear();
        self.quiets.clear();
        self.keys.clear();
        self.keys.resize(n, None);
        self.noisy.clear();
        self.noisy.resize(n, false);
    }
}

/// A root move with its score in the current iteration and its line.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    /// Index in the root's generated move list (what the table stores).
    pub index: u16,
    pub score: Score,
    pub prev_score: Score,
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
                prev_score: -SCORE_INF,
                pv: vec![mv],
            })
            .collect()
    }
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
    pv: Vec<Vec<G::Move>>,
    bufs: Vec<NodeBuf>,
    leaf_ply_sum: u64,
    leaf_count: u64,
    pub root_moves: Vec<RootMove<G::Move>>,
    pub completed_depth: u32,
    time: Option<TimeManager>,
    root_pos: G::Position,
}

#[inline]
fn outcome_score(o: Outcome, to_move: usize, ply: usize) -> Score {
    match o {
        Outcome::Draw => SCORE_DRAW,
        Outcome::Win(p) if p == to_move => SCORE_WIN - ply as Score,
        Outcome::Win(_) => -(SCORE_WIN - ply as Score),
    }
}

#[inline]
fn clamp_eval(s: Score) -> Score {
    s.clamp(-SCORE_WIN_MIN + 1, SCORE_WIN_MIN - 1)
}

impl<'a, G: Game> Worker<'a, G> {
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
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            bufs: (0..MAX_PLY + 2).map(|_| NodeBuf::default()).collect(),
            leaf_ply_sum: 0,
            leaf_count: 0,
            root_moves,
            completed_depth: 0,
            time,
            root_pos: root.clone(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
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

    /// Iterative deepening. The main thread reports through `report` and
    /// stops on its limits; helpers run until aborted.
    pub fn iterate(&mut self, report: &mut dyn FnMut(&Info<G::Move>)) {
        if self.root_moves.is_empty() {
            return;
        }
        let limits = self.shared.limits;
        let multipv = limits.multipv.max(1).min(self.root_moves.len());
        let max_depth = if limits.infinite {
            MAX_PLY as u32 - 8
        } else {
            limits
                .depth
                .unwrap_or(MAX_PLY as u32 - 8)
                .clamp(1, MAX_PLY as u32 - 8)
        };
        // One legal move under a clock: answer at once (after one ply, for
        // a score).
        let only_move = self.is_main()
            && self.root_moves.len() == 1
            && !limits.infinite
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && (limits.time.is_some() || limits.move_time.is_some())
            && !self.shared.control.pondering.load(Ordering::Relaxed);
        let start = std::time::Instant::now();
        let mut last_iter_time = 0.0f64;
        let mut depth = 1u32;
        while depth <= max_depth {
            // Lazy SMP: odd helpers search one ply deeper than their turn.
            let search_depth = if self.id % 2 == 1 {
                (depth + 1).min(max_depth.max(depth))
            } else {
                depth
            };
            let iter_start = std::time::Instant::now();
            self.leaf_ply_sum = 0;
            self.leaf_count = 0;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.aspiration(search_depth as i32, pv_idx, multipv);
                if self.stopped {
                    break;
                }
                if self.is_main() {
                    let info = self.info(search_depth, pv_idx, start.elapsed().as_secs_f64());
                    report(&info);
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = search_depth;
            let t = iter_start.elapsed().as_secs_f64();
            if self.is_main() {
                if only_move {
                    break;
                }
                // Guess the next iteration from the growth of the last two.
                let growth = if last_iter_time > 1e-4 {
                    (t / last_iter_time).clamp(1.5, 6.0)
                } else {
                    3.0
                };
                last_iter_time = t;
                if let Some(tm) = &self.time
                    && tm.stop_iterating(self.shared.control, t * growth)
                {
                    break;
                }
                // A win or loss found within the depth searched will not change.
                let best = self.root_moves[0].score;
                if !limits.infinite
                    && limits.depth.is_none()
                    && best.abs() >= SCORE_WIN_MIN
                    && (SCORE_WIN - best.abs()) as u32 <= search_depth
                    && (limits.time.is_some() || limits.move_time.is_some())
                {
                    break;
                }
            }
            depth += 1;
        }
    }

    fn info(&self, depth: u32, pv_idx: usize, time: f64) -> Info<G::Move> {
        let rm = &self.root_moves[pv_idx];
        Info {
            depth,
            mean_depth: if self.leaf_count > 0 {
                self.leaf_ply_sum as f64 / self.leaf_count as f64
            } else {
                depth as f64
            },
            score: rm.score,
            nodes: self.total_nodes(),
            time,
            pv: rm.pv.clone(),
            multipv: pv_idx + 1,
        }
    }

    /// Searches one root line with an aspiration window around its last
    /// score, widening until the score falls inside.
    fn aspiration(&mut self, depth: i32, pv_idx: usize, multipv: usize) {
        let prev = self.root_moves[pv_idx].score;
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if self.shared.features.aspiration
            && multipv == 1
            && depth >= ASPIRATION_MIN_DEPTH
            && prev.abs() < SCORE_WIN_MIN
        {
            (prev - delta, prev + delta)
        } else {
            (-SCORE_INF, SCORE_INF)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, pv_idx);
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
                -self.alphabeta(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut s = -self.alphabeta(&child, depth - 1, -alpha - 1, -alpha, 1, false);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.alphabeta(&child, depth - 1, -beta, -alpha, 1, true);
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
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
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
        // Keep the order of moves that did not raise alpha (stable sort).
        self.root_moves[first..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        let idx = self.root_moves[first].index;
        let s = self.root_moves[first].score;
        if s > -SCORE_INF && depth > 0 && !self.stopped {
            let h = self.path[self.root_index];
            let bound = if s >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if first == 0 {
                self.shared
                    .tt
                    .store(h, Some(idx), score_to_tt(s, 0), depth.min(255) as u8, bound);
            }
        }
        best
    }

    /// Principal variation search (fail-soft negamax).
    fn alphabeta(
        &mut self,
        pos: &G::Position,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        is_pv: bool,
    ) -> Score {
        let game = self.game;
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        let to_move = game.to_move(pos);
        if let Some(o) = game.outcome(pos) {
            return outcome_score(o, to_move, ply);
        }
        let hash = game.hash(pos);
        let idx = self.root_index + ply;
        self.path.truncate(idx);
        if self.is_repetition(hash, ply, game.reversible_plies(pos)) {
            return SCORE_DRAW;
        }
        self.path.push(hash);
        if ply > 0
            && let Some(wdl) = game.egdb_probe(pos)
        {
            return crate::egdb::score(wdl, clamp_eval(game.evaluate(pos)));
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

        let tt = self.shared.tt;
        let entry = tt.probe(hash);
        let mut tt_move = None;
        if let Some(e) = entry {
            tt_move = e.move_index;
            if !is_pv && let Some(s) = e.cutoff(depth, ply, alpha, beta) {
                return s;
            }
        }

        let mut moves: MoveList<G::Move> = MoveList::new();
        game.generate(pos, &mut moves);
        if moves.is_empty() {
            return -(SCORE_WIN - ply as Score);
        }
        let n = moves.len();
        let unstable = game.is_unstable(pos);
        // A forced move costs no depth.
        let extension = if n == 1 && ply < 2 * MAX_PLY / 3 {
            1
        } else {
            0
        };
        let new_depth = depth - 1 + extension;

        let tt_idx = tt_move.map(|i| i as usize).filter(|&i| i < n);
        let killers = self.killers.get(ply);
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        buf.reset(n);
        let mut tt_done = false;
        let mut scored = false;
        let mut taken = 0usize;

        let orig_alpha = alpha;
        let mut best = -SCORE_INF;
        let mut best_idx: Option<usize> = None;
        let mut searched = 0usize;

        loop {
            // Pick the next move: the table's first, then the rest ordered
            // by captures, killers and history (scored only if needed).
            let i = match tt_idx {
                Some(t) if !tt_done => {
                    tt_done = true;
                    buf.noisy[t] = game.is_noisy(pos, moves[t]);
                    t
                }
                _ => {
                    if !scored {
                        scored = true;
                        for (j, &mv) in moves.iter().enumerate() {
                            if Some(j) == tt_idx {
                                continue;
                            }
                            let nz = game.is_noisy(pos, mv);
                            buf.noisy[j] = nz;
                            let key = game.move_key(pos, mv);
                            buf.keys[j] = Some(key);
                            let mut s = self.history.get(key, to_move);
                            if nz {
                                s += 1 << 24;
                            } else if killers[0] == Some(mv) {
                                s += 1 << 22;
                            } else if killers[1] == Some(mv) {
                                s += 1 << 21;
                            }
                            buf.order.push(j as u16);
                            buf.scores.push(s);
                        }
                    }
                    if taken >= buf.order.len() {
                        break;
                    }
                    // Selection sort step.
                    let mut bi = taken;
                    for k in taken + 1..buf.order.len() {
                        if buf.scores[k] > buf.scores[bi] {
                            bi = k;
                        }
                    }
                    buf.order.swap(taken, bi);
                    buf.scores.swap(taken, bi);
                    taken += 1;
                    buf.order[taken - 1] as usize
                }
            };

            let mv = moves[i];
            let child = game.play(pos, mv);
            if new_depth > 0 {
                tt.prefetch(game.hash(&child));
            }
            let is_noisy = buf.noisy[i];
            let score = if searched == 0 {
                -self.alphabeta(&child, new_depth, -beta, -alpha, ply + 1, is_pv)
            } else {
                let mut r = 0;
                if self.shared.features.lmr
                    && depth >= LMR_MIN_DEPTH
                    && searched >= LMR_MIN_MOVES
                    && !is_noisy
                    && !unstable
                    && extension == 0
                    && !game.is_unstable(&child)
                {
                    r = lmr_reduction(depth, searched);
                    if is_pv {
                        r -= 1;
                    }
                    if killers[0] == Some(mv) || killers[1] == Some(mv) {
                        r -= 1;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut s =
                    -self.alphabeta(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.alphabeta(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && is_pv && !self.stopped {
                    s = -self.alphabeta(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if self.stopped {
                self.bufs[ply] = buf;
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                best_idx = Some(i);
                if score > alpha {
                    alpha = score;
                    if is_pv {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        line.extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if !is_noisy {
                            self.killers.add(ply, mv);
                            let key = buf.keys[i].unwrap_or_else(|| game.move_key(pos, mv));
                            self.history.reward(key, to_move, depth);
                            for &q in &buf.quiets {
                                let q = q as usize;
                                let k = buf.keys[q].unwrap_or_else(|| game.move_key(pos, moves[q]));
                                self.history.punish(k, to_move, depth);
                            }
                        }
                        break;
                    }
                }
            }
            if !is_noisy {
                buf.quiets.push(i as u16);
            }
        }
        self.bufs[ply] = buf;

        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        tt.store(
            hash,
            best_idx.map(|i| i as u16),
            score_to_tt(best, ply),
            depth.clamp(0, 255) as u8,
            bound,
        );
        best
    }

    /// The quiescence search at a node whose terminal and repetition checks
    /// are done: a stable position is evaluated; one with a capture pending
    /// is searched on (never evaluated statically).
    fn quiesce_node(
        &mut self,
        pos: &G::Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let game = self.game;
        if !game.is_unstable(pos) || ply >= MAX_PLY - 1 {
            self.leaf_ply_sum += ply as u64;
            self.leaf_count += 1;
            let eval = clamp_eval(game.evaluate(pos));
            return match game.egdb_probe(pos) {
                Some(wdl) if ply > 0 => crate::egdb::score(wdl, eval),
                _ => eval,
            };
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        game.generate(pos, &mut moves);
        if moves.is_empty() {
            return -(SCORE_WIN - ply as Score);
        }
        let mut best = -SCORE_INF;
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
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_stop();
        if self.stopped {
            return 0;
        }
        if let Some(o) = self.game.outcome(pos) {
            return outcome_score(o, self.game.to_move(pos), ply);
        }
        self.quiesce_node(pos, alpha, beta, ply)
    }
}
