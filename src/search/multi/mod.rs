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
//! [`crate::search::Searcher`] runs them for more than two players (and
//! greedy whenever asked for), through the same iterative-deepening
//! [`driver`] and table as the two-player search (keys are xored with the
//! algorithm and the root player, so entries of different searches never
//! mix); they run on one thread.

mod alphabeta;
mod greedy;
mod maxn;

use super::driver::{self, Finished, Leaves, MAX_PLY, PvTable, RootMove, RootSearch, clamp_eval};
use super::ordering::{History, Killers};
use super::time::TimeManager;
use super::tt::{Bound, Tt};
use super::{Control, Info, Limits};
use crate::game::{Game, Outcome, ParseError, ParseResult, SCORE_INF, Score, legal_prefix};
use std::fmt;
use std::time::Instant;

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
                    crate::game::text::shorten(text, 40),
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
    pub pv: PvTable<G::Move>,
    pub killers: Killers<G::Move>,
    /// One history table per player.
    pub history: Vec<History>,
    /// Ordering scratch per ply: (ordering score, move index).
    pub order: Vec<Vec<(i32, u16)>>,
    leaves: Leaves,
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
        self.leaves.add(ply);
    }

    /// The score of a finished game for `player`: a win in `ply` plies, a
    /// loss, or (unresolved under `max-moves`) the place reached by
    /// distance ([`crate::game::ranked_score`]), else the evaluation.
    pub fn outcome_for(&self, o: Outcome, pos: &G::Position, player: usize, ply: usize) -> Score {
        crate::game::outcome_score(&self.game, pos, o, player, ply)
            .unwrap_or_else(|| clamp_eval(self.game.evaluate_for(pos, player)))
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

/// One multi-player search as the driver sees it.
struct Multi<'a, 'p, G: Game> {
    ctx: Ctx<'a, G>,
    algorithm: Algorithm,
    root: &'p G::Position,
    root_moves: Vec<RootMove<G::Move>>,
}

impl<G: Game> Multi<'_, '_, G> {
    /// The report of the best line (its legal prefix: a Best-Reply line
    /// skips players).
    fn report(&self, depth: u32, start: Instant) -> Info<G::Move> {
        self.line_report(0, depth, start)
    }

    /// The report of root line `i` (0 for the best).
    fn line_report(&self, i: usize, depth: u32, start: Instant) -> Info<G::Move> {
        let rm = &self.root_moves[i];
        let pv = legal_prefix(&self.ctx.game, self.root, &rm.pv);
        driver::info(
            rm,
            pv,
            depth,
            &self.ctx.leaves,
            self.ctx.nodes,
            start,
            i + 1,
        )
    }
}

impl<G: Game> RootSearch<G> for Multi<'_, '_, G> {
    fn root_moves(&self) -> &[RootMove<G::Move>] {
        &self.root_moves
    }

    fn iteration(
        &mut self,
        depth: u32,
        start: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> bool {
        let (ctx, root, root_moves) = (&mut self.ctx, self.root, &mut self.root_moves);
        ctx.leaves = Leaves::default();
        match self.algorithm {
            Algorithm::Maxn => maxn::root(ctx, root, depth as i32, root_moves),
            Algorithm::Brs => alphabeta::root(ctx, root, depth as i32, root_moves, true),
            _ => alphabeta::root(ctx, root, depth as i32, root_moves, false),
        }
        if self.ctx.stopped {
            return false;
        }
        // Multi-PV: the lines with a score (paranoid and BRS give the
        // moves below the k-th no exact score).
        let lines = self.ctx.limits.multipv.max(1).min(self.root_moves.len());
        for i in 0..lines {
            if i > 0 && self.root_moves[i].score <= -SCORE_INF {
                break;
            }
            report(&self.line_report(i, depth, start));
        }
        true
    }

    fn best_info(&self, depth: u32, start: Instant) -> Info<G::Move> {
        self.report(depth, start)
    }
}

/// The greedy baseline as the driver sees it: one iteration.
struct Greedy<'a, 'p, G: Game>(Multi<'a, 'p, G>);

impl<G: Game> RootSearch<G> for Greedy<'_, '_, G> {
    const ITERATIVE: bool = false;

    fn root_moves(&self) -> &[RootMove<G::Move>] {
        &self.0.root_moves
    }

    fn iteration(
        &mut self,
        _depth: u32,
        start: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> bool {
        let m = &mut self.0;
        let (game, root) = (m.ctx.game, m.root);
        let Some(mv) = greedy::choose(game, root) else {
            return false;
        };
        m.root_moves.sort_by_key(|rm| rm.mv != mv);
        let after = game.play(root, mv);
        let me = m.ctx.root_player;
        m.root_moves[0].score = match game.outcome(&after) {
            Some(o) => m.ctx.outcome_for(o, &after, me, 1),
            None => clamp_eval(game.evaluate_for(&after, me)),
        };
        m.ctx.nodes = m.root_moves.len() as u64 + 1;
        report(&m.report(1, start));
        true
    }

    fn best_info(&self, depth: u32, start: Instant) -> Info<G::Move> {
        self.0.report(depth, start)
    }
}

/// Runs one multi-player search of `algorithm` (greedy also with two
/// players) through the iterative-deepening driver.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Game>(
    game: G,
    tt: &Tt,
    algorithm: Algorithm,
    root: &G::Position,
    limits: &Limits,
    control: &Control,
    time: TimeManager,
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> Finished<G::Move> {
    let root_player = game.to_move(root);
    let players = game.num_players().clamp(1, MAX_PLAYERS);
    // Best-Reply Search needs null moves; without them it is paranoid.
    let algorithm = if algorithm == Algorithm::Brs && game.pass_turn(root).is_none() {
        Algorithm::Paranoid
    } else {
        algorithm
    };
    let key = algorithm.key(root_player);
    let ctx = Ctx {
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
        key,
        pv: PvTable::new(),
        killers: Killers::new(MAX_PLY + 2),
        history: (0..players).map(|_| History::new()).collect(),
        order: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
        leaves: Leaves::default(),
    };
    let mut m = Multi {
        ctx,
        algorithm,
        root,
        root_moves: RootMove::all(&game, root),
    };
    let depth = if algorithm == Algorithm::Greedy {
        let mut g = Greedy(m);
        let depth = driver::iterate(&mut g, limits, control, Some(&time), on_info);
        m = g.0;
        depth
    } else {
        driver::iterate(&mut m, limits, control, Some(&time), on_info)
    };
    Finished {
        root_moves: m.root_moves,
        depth,
        nodes: m.ctx.nodes,
        key,
    }
}

/// Stores the root's best move (for the next iteration's ordering).
fn store_root<G: Game>(ctx: &Ctx<'_, G>, root: &G::Position, rm: &RootMove<G::Move>, depth: i32) {
    driver::store_root(
        ctx.tt,
        ctx.game.hash(root) ^ ctx.key,
        rm,
        depth,
        Bound::Exact,
    );
}
