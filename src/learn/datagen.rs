//! Self-play data: games of Salto against itself from random openings,
//! searched at fixed nodes or depth on one thread with a fresh table per
//! game, so that game `i` of a run depends only on the seed and `i`. A run
//! of `N` games split into shards `K/N` writes the same games in the same
//! order: the shards' files concatenate into the single run's file.

use super::data::{Sample, encode};
use super::train::both_have_kings;
use crate::draughts::Draughts;
use crate::draughts::position::Bb;
use crate::draughts::rules::Rules;
use crate::game::{Game, MoveList, Outcome, Score, zobrist};
use crate::search::{Control, Limits, Searcher};

/// What one run plays.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games of the whole run (all shards).
    pub games: u64,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Uniformly random plies from the start before the searched game.
    pub random_plies: u32,
    pub seed: u64,
    /// This shard, 1-based, of `shards`.
    pub shard: u64,
    pub shards: u64,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
    pub hash_mib: usize,
    /// Label each written position with a search of this many nodes (one
    /// table per game, the positions in game order) instead of the score
    /// of the search that played the move: games played fast, labels
    /// searched deeper. `None`: the game's own scores.
    pub score_nodes: Option<u64>,
    /// Write no position where both players have a king (and spend no
    /// label search on it): the positions `salto train --skip-both-kings`
    /// would leave out anyway.
    pub skip_both_kings: bool,
}

impl Config {
    /// The game indices of this shard: a contiguous range, so that shards
    /// `1..=N` in order cover `0..games` in order.
    pub fn range(&self) -> std::ops::Range<u64> {
        let k = self.shard - 1;
        (k * self.games / self.shards)..((k + 1) * self.games / self.shards)
    }
}

fn rng_for(seed: u64, index: u64) -> u64 {
    let mut s = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    zobrist::splitmix64(&mut s)
}

/// A random opening: `plies` uniformly random moves from the start, tried
/// again while the game ends during them.
fn opening<G: Game>(game: &G, plies: u32, rng: &mut u64) -> G::Position {
    'retry: for _ in 0..1000 {
        let mut pos = game.start();
        for _ in 0..plies {
            let mut list = MoveList::new();
            game.generate(&pos, &mut list);
            if list.is_empty() || game.outcome(&pos).is_some() {
                continue 'retry;
            }
            let i = (zobrist::splitmix64(rng) % list.len() as u64) as usize;
            pos = game.play(&pos, list[i]);
        }
        let mut list = MoveList::new();
        game.generate(&pos, &mut list);
        if !list.is_empty() && game.outcome(&pos).is_none() {
            return pos;
        }
    }
    game.start()
}

/// One self-play game: every searched position with the player to move
/// and the search score (from that player's view), and the winner (`None`
/// for a draw), with the positions' hashes in the same order (the history
/// a search of a later position is given).
pub struct Played<P> {
    pub positions: Vec<(P, usize, i16)>,
    pub hashes: Vec<u64>,
    pub winner: Option<usize>,
}

/// A search score as a training label: clamped to +-32,000 so that it
/// fits an `i16` (win scores beyond it all read as the same win).
fn label(score: Score) -> i16 {
    score.clamp(-32_000, 32_000) as i16
}

/// The winner of a two-player game stopped without one (its move limit or
/// the run's `max_plies`), for a game that ranks unfinished games
/// ([`Game::distance_to_win`], chinese checkers): the nearer player, `None`
/// for a tie and for the draughts games (a draw).
fn ranked<G: Game>(game: &G, pos: &G::Position) -> Option<usize> {
    match (game.distance_to_win(pos, 0), game.distance_to_win(pos, 1)) {
        (Some(a), Some(b)) if a < b => Some(0),
        (Some(a), Some(b)) if b < a => Some(1),
        _ => None,
    }
}

/// Plays game `index` of the run: Salto against itself from a random
/// opening, one thread and a fresh table, so that the game depends only on
/// the seed and `index`. A position repeated for the third time ends a
/// game that counts repetitions as draws.
pub fn self_play<G: Game>(game: G, cfg: &Config, index: u64) -> Played<G::Position> {
    let mut rng = rng_for(cfg.seed, index);
    let mut pos = opening(&game, cfg.random_plies, &mut rng);
    let mut searcher = Searcher::new(game, cfg.hash_mib, 1);
    let control = Control::new();
    let limits = Limits {
        depth: cfg.depth,
        nodes: cfg.nodes,
        ..Limits::default()
    };
    let mut history: Vec<u64> = Vec::new();
    let mut positions = Vec::new();
    let winner = loop {
        if history.len() as u32 >= cfg.max_plies {
            break ranked(&game, &pos);
        }
        match game.outcome(&pos) {
            Some(Outcome::Draw) => break ranked(&game, &pos),
            Some(Outcome::Win(p)) => break Some(p),
            None => {}
        }
        let h = game.hash(&pos);
        if game.repetition_is_draw() {
            let window = game.reversible_plies(&pos) as usize;
            let seen = history
                .iter()
                .rev()
                .take(window)
                .filter(|&&x| x == h)
                .count();
            if seen >= 2 {
                break None;
            }
        }
        let r = searcher.search(&pos, &history, &limits, &control, &mut |_| {});
        let to_move = game.to_move(&pos);
        let Some(best) = r.best else {
            break Some(1 - to_move);
        };
        positions.push((pos.clone(), to_move, label(r.score)));
        history.push(h);
        pos = game.play(&pos, best);
    };
    Played {
        positions,
        hashes: history,
        winner,
    }
}

/// The result for `player` of a game won by `winner`: 0 loss, 1 draw, 2 win.
pub fn result_for(winner: Option<usize>, player: usize) -> u8 {
    match winner {
        None => 1,
        Some(w) if w == player => 2,
        Some(_) => 0,
    }
}

/// Plays game `index` of the run and returns its quiet positions with the
/// search score and the result. With [`Config::score_nodes`], each quiet
/// position is searched again for its label, on a table of its own that
/// the game's positions share in order, with the game's positions before
/// it as history (so that the label knows the repetitions the player knew).
/// With [`Config::skip_both_kings`], the positions where both players have
/// a king are neither searched again nor written.
pub fn play_game<R: Rules>(game: Draughts<R>, cfg: &Config, index: u64) -> Vec<Sample<Bb<R>>> {
    let played = self_play(game, cfg, index);
    let hashes = played.hashes;
    let mut labeller = cfg.score_nodes.map(|n| {
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        (Searcher::new(game, cfg.hash_mib, 1), limits, Control::new())
    });
    let winner = played.winner;
    played
        .positions
        .into_iter()
        .enumerate()
        .filter(|(_, (pos, _, _))| {
            let both_kings = cfg.skip_both_kings && both_have_kings::<R>(pos);
            !game.is_unstable(pos) && !both_kings
        })
        .map(|(i, (pos, side, score))| {
            let score = match &mut labeller {
                Some((searcher, limits, control)) => {
                    let r = searcher.search(&pos, &hashes[..i], limits, control, &mut |_| {});
                    label(r.score)
                }
                None => score,
            };
            Sample {
                pos,
                score,
                result: result_for(winner, side),
            }
        })
        .collect()
}

/// The records of games `indices`, in order.
pub fn encode_games<R: Rules>(
    game: Draughts<R>,
    cfg: &Config,
    indices: std::ops::Range<u64>,
) -> (Vec<u8>, u64) {
    let mut out = Vec::new();
    let mut n = 0;
    for i in indices {
        for s in play_game(game, cfg, i) {
            encode::<R>(&s, &mut out);
            n += 1;
        }
    }
    (out, n)
}
