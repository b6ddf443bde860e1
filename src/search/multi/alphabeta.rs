//! Paranoid search and Best-Reply Search: alpha-beta on scores from the
//! root player's view. The root player maximises; below it either every
//! opponent moves in turn and minimises (paranoid), or, between two moves of
//! the root player, only the one reply of any opponent that is worst for
//! the root player is played, the other opponents passing (BRS).

use super::{Ctx, clamp_eval, store_root};
use crate::game::{Game, MoveList, SCORE_INF, Score};
use crate::search::driver::{MAX_PLY, RootMove, sort_root_moves};
use crate::search::tt::{Bound, score_to_tt};

/// One iteration at the root: scores `root_moves` (best first; a move that
/// fails low gets `-SCORE_INF`). The best so far goes first at once, so a
/// stopped iteration still plays it.
pub(super) fn root<G: Game>(
    ctx: &mut Ctx<'_, G>,
    root: &G::Position,
    depth: i32,
    root_moves: &mut [RootMove<G::Move>],
    brs: bool,
) {
    let game = ctx.game;
    ctx.nodes += 1;
    // Multi-PV: a move is searched against the k-th best score so far, so
    // the k best get exact scores (k = 1: plain alpha-beta at the root).
    let k = ctx.limits.multipv.max(1);
    let mut top: Vec<Score> = Vec::with_capacity(k + 1);
    let mut best = -SCORE_INF;
    for i in 0..root_moves.len() {
        let alpha = if top.len() >= k {
            top[k - 1]
        } else {
            -SCORE_INF
        };
        let mv = root_moves[i].mv;
        let child = game.play(root, mv);
        let score = node(ctx, &child, depth - 1, alpha, SCORE_INF, 1, brs);
        if ctx.stopped {
            return;
        }
        if i == 0 || score > alpha {
            root_moves[i].set_line(score, ctx.pv.line(1));
            let at = top.partition_point(|&s| s >= score);
            top.insert(at, score);
            top.truncate(k);
            if score > best {
                best = score;
                root_moves[..=i].rotate_right(1);
            }
        } else {
            root_moves[i].score = -SCORE_INF;
        }
    }
    sort_root_moves(root_moves);
    store_root(ctx, root, &root_moves[0], depth);
}

/// The value of `pos` for the root player within (alpha, beta), fail-soft.
fn node<G: Game>(
    ctx: &mut Ctx<'_, G>,
    pos: &G::Position,
    depth: i32,
    mut alpha: Score,
    mut beta: Score,
    ply: usize,
    brs: bool,
) -> Score {
    let game = ctx.game;
    ctx.pv.clear(ply);
    if ctx.tick() {
        return 0;
    }
    let root_player = ctx.root_player;
    if let Some(o) = game.outcome(pos) {
        return ctx.outcome_for(o, pos, root_player, ply);
    }
    if depth <= 0 || ply >= MAX_PLY - 1 {
        ctx.leaf(ply);
        return clamp_eval(game.evaluate_for(pos, root_player));
    }
    let hash = game.hash(pos) ^ ctx.key;
    let mut tt_move = None;
    if let Some(e) = ctx.tt.probe(hash) {
        tt_move = e.move_index;
        if let Some(s) = e.cutoff(depth, ply, alpha, beta) {
            return s;
        }
    }
    let maximising = game.to_move(pos) == root_player;
    // The replies: (position the move is played from, move). For BRS at an
    // opponent's turn, the moves of every opponent, each from the position
    // where the earlier opponents passed.
    let mut froms: Vec<G::Position> = Vec::new();
    let mut moves: Vec<(u8, G::Move)> = Vec::new();
    let mut list = MoveList::new();
    game.generate(pos, &mut list);
    moves.extend(list.iter().map(|&m| (0u8, m)));
    froms.push(pos.clone());
    if brs && !maximising {
        let mut cur = pos.clone();
        for k in 1..ctx.players - 1 {
            let Some(next) = game.pass_turn(&cur) else {
                break;
            };
            cur = next;
            list.clear();
            game.generate(&cur, &mut list);
            moves.extend(list.iter().map(|&m| (k as u8, m)));
            froms.push(cur.clone());
        }
    }
    if moves.is_empty() {
        // The game is over without an outcome (never for chinese): score
        // the position as it stands.
        ctx.leaf(ply);
        return clamp_eval(game.evaluate_for(pos, root_player));
    }
    let n = moves.len();
    let tt_idx = tt_move.map(|i| i as usize).filter(|&i| i < n);
    ctx.order_moves(&froms, &moves, tt_idx, ply, depth);
    let order = std::mem::take(&mut ctx.order[ply]);
    let (orig_alpha, orig_beta) = (alpha, beta);
    let mut best = if maximising { -SCORE_INF } else { SCORE_INF };
    let mut best_idx = None;
    for &(_, i) in order.iter() {
        let (k, mv) = moves[i as usize];
        let from = &froms[k as usize];
        let mut child = game.play(from, mv);
        if brs && !maximising && game.outcome(&child).is_none() {
            // The opponents after the one that replied pass: the root
            // player moves next.
            for _ in k as usize + 1..ctx.players - 1 {
                match game.pass_turn(&child) {
                    Some(c) => child = c,
                    None => break,
                }
            }
        }
        let s = node(ctx, &child, depth - 1, alpha, beta, ply + 1, brs);
        if ctx.stopped {
            ctx.order[ply] = order;
            return 0;
        }
        let better = if maximising { s > best } else { s < best };
        if better {
            best = s;
            best_idx = Some(i);
            if maximising && s > alpha {
                alpha = s;
                ctx.pv.update(ply, mv);
            } else if !maximising && s < beta {
                beta = s;
                ctx.pv.update(ply, mv);
            }
            if alpha >= beta {
                ctx.reward(from, mv, ply, depth);
                break;
            }
        }
    }
    ctx.order[ply] = order;
    let bound = if maximising {
        if best >= orig_beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    } else if best <= orig_alpha {
        Bound::Upper
    } else if best < orig_beta {
        Bound::Exact
    } else {
        Bound::Lower
    };
    ctx.tt.store(
        hash,
        best_idx,
        score_to_tt(best, ply),
        depth.clamp(0, 255) as u8,
        bound,
    );
    best
}
