//! Searches for games of more than two players (chinese checkers with 3, 4
//! or 6 players), and the one-ply greedy baseline.
//!
//! - [`Algorithm::Paranoid`]: the root player against a coalition of all
//!   the others; plain alpha-beta on scores from the root player's view, so
//!   the table, move ordering and iterative deepening carry over.
//! - [`Algorithm::Brs`]: Best-Reply Search (Schadd and Winands 2011): between
//!   two moves of the root player only the single strongest reply of any
//!   opponent is searched (the others "pass", [`Game::pass_turn`]).
//! - [`Algorithm::Maxn`]: max^n with shallow pruning: every player maximises
//!   its own component of a score vector ([`Game::evaluate_for`] for each
//!   player).
//! - [`Algorithm::Greedy`]: one ply, the move that maximises
//!   [`Game::greedy_value`] (for chinese checkers: the least distance to
//!   home); a baseline for measurements, also with two players.
//!
//! [`GameSearcher`] is what the protocol, `salto analyse` and the match
//! runner use: the two-player [`Searcher`] when the game has two players
//! (whatever `search` says, except `greedy`), these searches otherwise. The
//! multi-player searches share the two-player searcher's transposition table
//! (keys are xored with the algorithm and the root player, so entries of
//! different searches never mix) and its time manager; they run on one
//! thread.

mod alphabeta;
mod greedy;
mod maxn;

use super::ordering::{History, Killers};
use super::time::TimeManager;
use super::tt::{Bound, Tt, score_to_tt};
use super::worker::{MAX_PLY, RootMove};
use super::{Control, Features, Info, Limits, SearchResult, Searcher};
use crate::game::{Game, MoveList, Outcome, ParseError, ParseResult, SCORE_INF, SCORE_WIN, Score};
use std::fmt;
use std::sync::atomic::Ordering;

/// The search algorithm for games of more than two players (the `search`
/// option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Paranoid,
    Brs,
    Maxn,
    Greedy,
}

impl Algorithm {
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Paranoid,
        Algorithm::Brs,
        Algorithm::Maxn,
        Algorithm::Greedy,
    ];

    /// The default: the strongest in the measurements of docs/strength.md.
    pub const DEFAULT: Algorithm = Algorithm::Brs;

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Paranoid => "paranoid",
            Algorithm::Brs => "brs",
            Algorithm::Maxn => "maxn",
            Algorithm::Greedy => "greedy",
        }
    }

    /// The names, blank-separated (for `param ... values="..."`).
    pub fn names() -> String {
        Self::ALL.map(|a| a.name()).join(" ")
    }

    /// Parses a name (case and surrounding blanks ignored).
    pub fn parse(text: &str) -> ParseResult<Algorithm> {
        let t = text.trim().to_ascii_lowercase();
        Self::ALL
            .into_iter()
            .find(|a| a.name() == t)
            .ok_or_else(|| {
                ParseError(format!(
                    "bad value '{}' for search: expected one of {}",
                    crate::protocol::command::shorten(text, 40),
                    Self::names()
                ))
            })
    }

    /// A number xored into table keys so that entries of different searches
    /// (and root players) never mix.
    fn key(self, root_player: usize) -> u64 {
        const K: [u64; 4] = [
            0x6A09_E667_F3BC_C908,
            0xBB67_AE85_84CA_A73B,
            0x3C6E_F372_FE94_F82B,
            0xA54F_F53A_5F1D_36F1,
        ];
        K[self as usize] ^ (root_player as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Default for Algorithm {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = ParseError;
    fn from_str(s: &str) -> ParseResult<Self> {
        Self::parse(s)
    }
}

/// The searcher of an engine: the two-player [`Searcher`] (which owns the
/// table) and the algorithm for more than two players.
pub struct GameSearcher<G: Game> {
    two: Searcher<G>,
    algorithm: Algorithm,
}

impl<G: Game> GameSearcher<G> {
    pub fn new(game: G, hash_mib: usize, threads: usize) -> Self {
        GameSearcher {
            two: Searcher::new(game, hash_mib, threads),
            algorithm: Algorithm::DEFAULT,
        }
    }

    pub fn game(&self) -> &G {
        self.two.game()
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn set_algorithm(&mut self, a: Algorithm) {
        self.algorithm = a;
    }

    /// The algorithm that will actually run: the two-player search for two
    /// players unless `greedy` is asked for.
    pub fn effective_algorithm(&self) -> Option<Algorithm> {
        if self.algorithm == Algorithm::Greedy || self.two.game().num_players() > 2 {
            Some(self.algorithm)
        } else {
            None
        }
    }

    pub fn set_hash_mib(&mut self, mib: usize) {
        self.two.set_hash_mib(mib)
    }

    pub fn table_mib(&self) -> usize {
        self.two.table_mib()
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.two.set_threads(threads)
    }

    pub fn set_features(&mut self, f: Features) {
        self.two.set_features(f)
    }

    pub fn new_game(&mut self) {
        self.two.new_game()
    }

    /// Searches `root` like [`Searcher::search`], with the algorithm the
    /// game and the `search` option select.
    pub fn search(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        match self.effective_algorithm() {
            None => self.two.search(root, history, limits, control, on_info),
            Some(algorithm) => {
                let game = *self.two.game();
                let tt = self.two.table();
                tt.new_search();
                search(game, tt, algorithm, root, limits, control, on_info)
            }
        }
    }
}

/// Nodes between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 256;

/// The most players a score vector holds.
pub const MAX_PLAYERS: usize = 6;

/// A max^n score vector: one score per player.
pub type Scores = [Score; MAX_PLAYERS];

/// What one multi-player search carries from node to node.
pub(crate) struct Ctx<'a, G: Game> {
    pub game: G,
    pub tt: &'a Tt,
    control: &'a Control,
    limits: &'a Limits,
    time: TimeManager,
    pub nodes: u64,
    next_check: u64,
    pub stopped: bool,
    pub root_player: usize,
    pub players: usize,
    /// Xored into every table key.
    pub key: u64,
    /// The principal variation from each ply.
    pub pv: Vec<Vec<G::Move>>,
    pub killers: Killers<G::Move>,
    /// One history table per player.
    pub history: Vec<History>,
    /// Ordering scratch per ply: (ordering score, move index).
    pub order: Vec<Vec<(i32, u16)>>,
    leaf_ply_sum: u64,
    leaf_count: u64,
}

/// An evaluation is kept clear of the win scores.
#[inline]
pub(crate) fn clamp_eval(s: Score) -> Score {
    s.clamp(
        -crate::game::SCORE_WIN_MIN + 1,
        crate::game::SCORE_WIN_MIN - 1,
    )
}

impl<'a, G: Game> Ctx<'a, G> {
    /// Counts a node and looks at the limits; true when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if let Some(limit) = self.limits.nodes
            && !self.limits.infinite
            && self.nodes >= limit
        {
            self.stopped = true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if self.control.should_stop() || self.time.hard_expired(self.control) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Counts a leaf for the mean depth.
    #[inline]
    pub fn leaf(&mut self, ply: usize) {
        self.leaf_ply_sum += ply as u64;
        self.leaf_count += 1;
    }

    /// The score of a finished game for `player`: a win in `ply` plies, a
    /// loss, or (unresolved under `max-moves`) the evaluation.
    pub fn outcome_for(&self, o: Outcome, pos: &G::Position, player: usize, ply: usize) -> Score {
        match o {
            Outcome::Win(p) if p == player => SCORE_WIN - ply as Score,
            Outcome::Win(_) => -(SCORE_WIN - ply as Score),
            Outcome::Draw => clamp_eval(self.game.evaluate_for(pos, player)),
        }
    }

    /// `pv[ply]` becomes `mv` followed by `pv[ply + 1]`.
    pub fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Fills `order[ply]` with the indices of `moves`, best first: the
    /// table's move, killers, then the mover's history; from depth 2 on the
    /// mover's greedy gain counts too (cheap next to the subtree). Move
    /// `(k, mv)` is played from `froms[k]` (BRS orders the replies of several
    /// opponents together, each by its own history and gain).
    pub fn order_moves(
        &mut self,
        froms: &[G::Position],
        moves: &[(u8, G::Move)],
        tt_idx: Option<usize>,
        ply: usize,
        depth: i32,
    ) {
        let game = self.game;
        let killers = self.killers.get(ply);
        let gains = depth >= 2;
        let bases: Vec<Score> = if gains {
            froms
                .iter()
                .map(|p| game.greedy_value(p, game.to_move(p)))
                .collect()
        } else {
            Vec::new()
        };
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        for (i, &(k, mv)) in moves.iter().enumerate() {
            let from = &froms[k as usize];
            let s = if Some(i) == tt_idx {
                1 << 28
            } else if killers[0] == Some(mv) {
                1 << 24
            } else if killers[1] == Some(mv) {
                1 << 23
            } else {
                let mover = game.to_move(from);
                let mut s = self.history[mover].get(game.move_key(from, mv), 0);
                if gains {
                    let gain = game.greedy_value(&game.play(from, mv), mover) - bases[k as usize];
                    s += gain.clamp(-1000, 1000) * 64;
                }
                s
            };
            order.push((s, i as u16));
        }
        order.sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
        self.order[ply] = order;
    }

    /// A move caused a cutoff: remember it for ordering.
    pub fn reward(&mut self, pos: &G::Position, mv: G::Move, ply: usize, depth: i32) {
        let mover = self.game.to_move(pos);
        self.killers.add(ply, mv);
        let key = self.game.move_key(pos, mv);
        self.history[mover].reward(key, 0, depth);
    }

    /// The table's move index for `pos`, if any.
    pub fn tt_move(&self, pos: &G::Position, n: usize) -> Option<usize> {
        self.tt
            .probe(self.game.hash(pos) ^ self.key)
            .and_then(|e| e.move_index)
            .map(|i| i as usize)
            .filter(|&i| i < n)
    }
}

/// Runs one multi-player search: iterative deepening over `algorithm`,
/// reports after each iteration, and the answer.
pub fn search<G: Game>(
    game: G,
    tt: &Tt,
    algorithm: Algorithm,
    root: &G::Position,
    limits: &Limits,
    control: &Control,
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let pondering = control.pondering.load(Ordering::SeqCst);
    let time = TimeManager::new(limits, pondering);
    let root_player = game.to_move(root);
    let players = game.num_players().clamp(1, MAX_PLAYERS);
    // Best-Reply Search needs null moves; without them it is paranoid.
    let algorithm = if algorithm == Algorithm::Brs && game.pass_turn(root).is_none() {
        Algorithm::Paranoid
    } else {
        algorithm
    };
    let mut ctx = Ctx {
        game,
        tt,
        control,
        limits,
        time,
        nodes: 0,
        next_check: CHECK_INTERVAL,
        stopped: false,
        root_player,
        players,
        key: algorithm.key(root_player),
        pv: (0..MAX_PLY + 2)
            .map(|_| Vec::with_capacity(MAX_PLY))
            .collect(),
        killers: Killers::new(MAX_PLY + 2),
        history: (0..players).map(|_| History::new()).collect(),
        order: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
        leaf_ply_sum: 0,
        leaf_count: 0,
    };
    let mut root_moves = RootMove::all(&game, root);
    let mut completed = 0u32;
    if algorithm == Algorithm::Greedy {
        if let Some(mv) = greedy::choose(game, root) {
            root_moves.sort_by_key(|rm| rm.mv != mv);
            let after = game.play(root, mv);
            root_moves[0].score = match game.outcome(&after) {
                Some(o) => ctx.outcome_for(o, &after, root_player, 1),
                None => clamp_eval(game.evaluate_for(&after, root_player)),
            };
            completed = 1;
            ctx.nodes = root_moves.len() as u64 + 1;
            on_info(&report(&ctx, &root_moves, 1, time.elapsed(), root));
        }
    } else if !root_moves.is_empty() {
        completed = iterate(&mut ctx, algorithm, root, &mut root_moves, on_info);
    }
    // Never return early while pondering or analysing without end (no
    // limit at all counts as no end: greedy is done at once, and a search
    // may run out of depth).
    let endless = limits.infinite
        || (limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.move_time.is_none()
            && limits.time.is_none());
    while !control.should_stop() && (control.pondering.load(Ordering::SeqCst) || endless) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let Some(best) = root_moves.first() else {
        return SearchResult {
            best: None,
            ponder: None,
            score: -SCORE_WIN,
            depth: 0,
            nodes: ctx.nodes,
            pv: Vec::new(),
        };
    };
    let pv = legal_prefix(&game, root, &best.pv);
    SearchResult {
        best: Some(best.mv),
        ponder: pv.get(1).copied(),
        score: best.score,
        depth: completed,
        nodes: ctx.nodes,
        pv,
    }
}

/// Iterative deepening; returns the last completed depth.
fn iterate<G: Game>(
    ctx: &mut Ctx<'_, G>,
    algorithm: Algorithm,
    root: &G::Position,
    root_moves: &mut [RootMove<G::Move>],
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> u32 {
    let limits = ctx.limits;
    let max_depth = if limits.infinite {
        MAX_PLY as u32 - 8
    } else {
        limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8)
    };
    let clocked = !limits.infinite
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && (limits.time.is_some() || limits.move_time.is_some());
    let mut completed = 0;
    let mut last_iter_time = 0.0f64;
    for depth in 1..=max_depth {
        let iter_start = std::time::Instant::now();
        ctx.leaf_ply_sum = 0;
        ctx.leaf_count = 0;
        match algorithm {
            Algorithm::Maxn => maxn::root(ctx, root, depth as i32, root_moves),
            Algorithm::Brs => alphabeta::root(ctx, root, depth as i32, root_moves, true),
            _ => alphabeta::root(ctx, root, depth as i32, root_moves, false),
        }
        if ctx.stopped {
            break;
        }
        completed = depth;
        on_info(&report(ctx, root_moves, depth, ctx.time.elapsed(), root));
        if clocked && root_moves.len() == 1 && !ctx.control.pondering.load(Ordering::Relaxed) {
            break;
        }
        let t = iter_start.elapsed().as_secs_f64();
        let growth = if last_iter_time > 1e-4 {
            (t / last_iter_time).clamp(1.5, 8.0)
        } else {
            4.0
        };
        last_iter_time = t;
        if ctx.time.stop_iterating(ctx.control, t * growth) {
            break;
        }
        // A decided game does not change with more depth.
        let best = root_moves[0].score;
        if clocked
            && best.abs() >= crate::game::SCORE_WIN_MIN
            && (SCORE_WIN - best.abs()) as u32 <= depth
        {
            break;
        }
    }
    completed
}

fn report<G: Game>(
    ctx: &Ctx<'_, G>,
    root_moves: &[RootMove<G::Move>],
    depth: u32,
    time: f64,
    root: &G::Position,
) -> Info<G::Move> {
    let rm = &root_moves[0];
    Info {
        depth,
        mean_depth: if ctx.leaf_count > 0 {
            ctx.leaf_ply_sum as f64 / ctx.leaf_count as f64
        } else {
            depth as f64
        },
        score: rm.score,
        nodes: ctx.nodes,
        time,
        pv: legal_prefix(&ctx.game, root, &rm.pv),
        multipv: 1,
    }
}

/// The longest prefix of `line` that is a legal sequence from `root` (a
/// Best-Reply line skips players, so it is legal only up to the first
/// reply that is not the next player's).
pub fn legal_prefix<G: Game>(game: &G, root: &G::Position, line: &[G::Move]) -> Vec<G::Move> {
    let mut out = Vec::with_capacity(line.len());
    let mut pos = root.clone();
    let mut list = MoveList::new();
    for &mv in line {
        list.clear();
        game.generate(&pos, &mut list);
        if !list.iter().any(|m| *m == mv) {
            break;
        }
        out.push(mv);
        pos = game.play(&pos, mv);
    }
    out
}

/// Stores the root's best move (for the next iteration's ordering).
fn store_root<G: Game>(ctx: &Ctx<'_, G>, root: &G::Position, rm: &RootMove<G::Move>, depth: i32) {
    if rm.score > -SCORE_INF && depth > 0 {
        ctx.tt.store(
            ctx.game.hash(root) ^ ctx.key,
            Some(rm.index),
            score_to_tt(rm.score, 0),
            depth.min(255) as u8,
            Bound::Exact,
        );
    }
}
