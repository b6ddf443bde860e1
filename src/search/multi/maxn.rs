//! Max^n (Luckhardt and Irani) with shallow pruning (Korf): every node
//! returns a score for each player, and the player to move picks the child
//! best for itself.
//!
//! Shallow pruning needs bounds: [`Game::evaluate_for`] must sum to at most
//! 0 over the players (true for chinese checkers, whose evaluation measures
//! each player against the best of the others; a test checks it), wins and
//! losses are ±(`SCORE_WIN` - ply) and no component is below `-SCORE_WIN`.
//! Once the player to move has `x`, the player above can get at most
//! `-x + (players - 2) * SCORE_WIN`; when that is no better than what it
//! already has, the rest of the node is cut. With two players this is
//! alpha-beta's shallow cut; with more it fires only near decided games, as
//! the literature found (Sturtevant 2003).
//!
//! The table keeps only the best move of each node, for ordering.

use super::{Ctx, MAX_PLAYERS, Scores, clamp_eval, store_root};
use crate::game::{Game, MoveList, Outcome, SCORE_INF, SCORE_WIN, Score};
use crate::search::driver::{MAX_PLY, RootMove, sort_root_moves};
use crate::search::tt::Bound;

/// One iteration at the root; `root_moves` sorted by the root player's
/// component.
pub(super) fn root<G: Game>(
    ctx: &mut Ctx<'_, G>,
    root: &G::Position,
    depth: i32,
    root_moves: &mut [RootMove<G::Move>],
) {
    let game = ctx.game;
    let me = ctx.root_player;
    ctx.nodes += 1;
    let mut best = -SCORE_INF;
    for i in 0..root_moves.len() {
        let mv = root_moves[i].mv;
        let child = game.play(root, mv);
        let v = node(ctx, &child, depth - 1, 1, None);
        if ctx.stopped {
            return;
        }
        root_moves[i].set_line(v[me], ctx.pv.line(1));
        if v[me] > best {
            best = v[me];
            root_moves[..=i].rotate_right(1);
        }
    }
    sort_root_moves(root_moves);
    store_root(ctx, root, &root_moves[0], depth);
}

/// The score vector of a finished game.
fn outcome_scores<G: Game>(ctx: &Ctx<'_, G>, o: Outcome, pos: &G::Position, ply: usize) -> Scores {
    let mut v = [0; MAX_PLAYERS];
    for (p, s) in v.iter_mut().enumerate().take(ctx.players) {
        *s = ctx.outcome_for(o, pos, p, ply);
    }
    v
}

fn eval_scores<G: Game>(ctx: &Ctx<'_, G>, pos: &G::Position) -> Scores {
    let mut v = [0; MAX_PLAYERS];
    for (p, s) in v.iter_mut().enumerate().take(ctx.players) {
        *s = clamp_eval(ctx.game.evaluate_for(pos, p));
    }
    v
}

/// The best the player above can still get once the player to move has
/// `x` (see the module documentation).
#[inline]
fn parent_ceiling(players: usize, x: Score) -> Score {
    (players as Score - 2).saturating_mul(SCORE_WIN) - x
}

/// The score vector of `pos`. `parent` is the player who moved into `pos`
/// and the best component it has so far (for shallow pruning).
fn node<G: Game>(
    ctx: &mut Ctx<'_, G>,
    pos: &G::Position,
    depth: i32,
    ply: usize,
    parent: Option<Score>,
) -> Scores {
    let game = ctx.game;
    ctx.pv.clear(ply);
    if ctx.tick() {
        return [0; MAX_PLAYERS];
    }
    if let Some(o) = game.outcome(pos) {
        return outcome_scores(ctx, o, pos, ply);
    }
    if depth <= 0 || ply >= MAX_PLY - 1 {
        ctx.leaf(ply);
        return eval_scores(ctx, pos);
    }
    let mut list = MoveList::new();
    game.generate(pos, &mut list);
    if list.is_empty() {
        ctx.leaf(ply);
        return eval_scores(ctx, pos);
    }
    let me = game.to_move(pos);
    let tt_idx = ctx.tt_move(pos, list.len());
    let moves: Vec<(u8, G::Move)> = list.iter().map(|&m| (0, m)).collect();
    ctx.order_moves(std::slice::from_ref(pos), &moves, tt_idx, ply, depth);
    let order = std::mem::take(&mut ctx.order[ply]);
    let mut best: Option<(Scores, usize)> = None;
    for &(_, i) in order.iter() {
        let mv = list[i as usize];
        let child = game.play(pos, mv);
        let v = node(ctx, &child, depth - 1, ply + 1, best.map(|b| b.0[me]));
        if ctx.stopped {
            ctx.order[ply] = order;
            return [0; MAX_PLAYERS];
        }
        if best.is_none_or(|b| v[me] > b.0[me]) {
            best = Some((v, i as usize));
            ctx.pv.update(ply, mv);
            if let Some(p) = parent
                && parent_ceiling(ctx.players, v[me]) <= p
            {
                ctx.reward(pos, mv, ply, depth);
                break;
            }
        }
    }
    ctx.order[ply] = order;
    let Some((v, idx)) = best else {
        return eval_scores(ctx, pos);
    };
    ctx.tt.store(
        game.hash(pos) ^ ctx.key,
        Some(idx as u16),
        0,
        depth.clamp(0, 255) as u8,
        Bound::Upper,
    );
    v
}
