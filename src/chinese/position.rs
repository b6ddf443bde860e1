//! The game with its options ([`Chinese`]), positions, moves, making moves,
//! the Zobrist hash and the end of the game.

use super::board::{ALL, BOARD, HOLES, bit, opposite};
use crate::game::{Outcome, ParseError, ParseResult, zobrist};
use crate::variant::{ForeignCorners, Options, Spoiling, UnusedCorners, Variant};

/// No player owns this set.
pub const NO_PLAYER: u8 = 255;

/// Chinese checkers with its options: who plays which corners and the house
/// rules. Built once from [`Options`]; everything the move generator needs
/// per set is precomputed here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chinese {
    pub(crate) players: u8,
    pub(crate) sets: u8,
    pub(crate) foreign: ForeignCorners,
    pub(crate) unused: UnusedCorners,
    pub(crate) spoiling: Spoiling,
    pub(crate) max_moves: u32,
    /// The player (index in turn order) owning the set that starts in each
    /// corner, or [`NO_PLAYER`].
    pub(crate) owner: [u8; 6],
    /// The sets (a mask of start corners) of each player.
    pub(crate) player_sets: [u8; 6],
    /// For each set: the holes a peg outside its target may end a move on
    /// (everything but the foreign corners under `foreign-corners=pass`).
    pub(crate) end_mask: [u128; 6],
    /// The corners no set starts in and no set aims at.
    pub(crate) unused_mask: u128,
}

/// A position: the pegs of each set (by start corner), the neutral pegs, the
/// player to move and the hash.
///
/// `plies` counts the moves played since the position was set up (passes
/// included); it drives `max-moves` and [`crate::Game::reversible_plies`].
/// It is not part of the hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The pegs of the set that started in corner A..F.
    pub sets: [u128; 6],
    /// Neutral pegs (`unused-corners=filled`).
    pub neutral: u128,
    /// Every peg.
    pub occ: u128,
    /// The player to move (index in turn order).
    pub to_move: u8,
    /// Plies played since the position was set up.
    pub plies: u32,
    /// Zobrist hash (pegs and the player to move).
    pub hash: u64,
}

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MoveKind {
    /// The forced pass of a player with no legal move.
    #[default]
    Pass,
    /// A step or a jump chain to an empty hole.
    Normal,
    /// A swap with another player's peg in the mover's target corner.
    Swap,
}

/// A move: start and end hole (0-based) and its kind. Jump paths are not
/// kept: two moves with the same ends are the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub kind: MoveKind,
}

impl Move {
    pub const PASS: Move = Move {
        from: 0,
        to: 0,
        kind: MoveKind::Pass,
    };
    #[inline]
    pub fn normal(from: usize, to: usize) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            kind: MoveKind::Normal,
        }
    }
    #[inline]
    pub fn swap(from: usize, to: usize) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            kind: MoveKind::Swap,
        }
    }
}

/// Zobrist keys: one per (set or neutral, hole), then one per player to move.
static KEYS: [u64; 7 * HOLES + 6] = zobrist::keys(0xC41E_5E5C_4EC4_E125);

#[inline(always)]
pub(crate) fn peg_key(set: usize, hole: usize) -> u64 {
    KEYS[set * HOLES + hole]
}

#[inline(always)]
pub(crate) fn turn_key(player: usize) -> u64 {
    KEYS[7 * HOLES + player]
}

/// The corners of each player's sets, for each (players, sets) combination
/// of rules.md, players in turn order.
fn seating(players: u8, sets: u8) -> Option<&'static [&'static [usize]]> {
    Some(match (players, sets) {
        (2, 1) => &[&[0], &[3]],
        (3, 1) => &[&[0], &[2], &[4]],
        (4, 1) => &[&[0], &[1], &[3], &[4]],
        (6, 1) => &[&[0], &[1], &[2], &[3], &[4], &[5]],
        (2, 3) => &[&[0, 2, 4], &[1, 3, 5]],
        (3, 2) => &[&[0, 1], &[2, 3], &[4, 5]],
        _ => return None,
    })
}

impl Chinese {
    /// The game the options select; an error for an impossible combination.
    pub fn new(opts: &Options) -> ParseResult<Chinese> {
        let seats = seating(opts.players, opts.sets).ok_or_else(|| {
            ParseError(format!(
                "chinese checkers cannot be played by {} players with {} sets each (players 2, 3, 4 or 6 with sets=1; players=3 sets=2; players=2 sets=3)",
                opts.players, opts.sets
            ))
        })?;
        let mut owner = [NO_PLAYER; 6];
        let mut player_sets = [0u8; 6];
        for (p, corners) in seats.iter().enumerate() {
            for &c in corners.iter() {
                owner[c] = p as u8;
                player_sets[p] |= 1 << c;
            }
        }
        let mut end_mask = [ALL; 6];
        let mut unused_mask = 0;
        for c in 0..6 {
            if opts.foreign_corners == ForeignCorners::Pass {
                for f in 0..6 {
                    if f != c && f != opposite(c) {
                        end_mask[c] &= !BOARD.corner[f];
                    }
                }
            }
            if owner[c] == NO_PLAYER && owner[opposite(c)] == NO_PLAYER {
                unused_mask |= BOARD.corner[c];
            }
        }
        Ok(Chinese {
            players: opts.players,
            sets: opts.sets,
            foreign: opts.foreign_corners,
            unused: opts.unused_corners,
            spoiling: opts.spoiling,
            max_moves: opts.max_moves,
            owner,
            player_sets,
            end_mask,
            unused_mask,
        })
    }

    /// The game with default options for this many players and sets.
    pub fn with_players(players: u8, sets: u8) -> ParseResult<Chinese> {
        let mut o = Options::new(Variant::Chinese);
        o.players = players;
        o.sets = sets;
        Chinese::new(&o)
    }

    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The options this game was built from.
    pub fn options(&self) -> Options {
        let mut o = Options::new(Variant::Chinese);
        o.players = self.players;
        o.sets = self.sets;
        o.foreign_corners = self.foreign;
        o.unused_corners = self.unused;
        o.spoiling = self.spoiling;
        o.max_moves = self.max_moves;
        o
    }

    /// The player owning the set that starts in corner `c`, if it is in play.
    pub fn owner(&self, c: usize) -> Option<usize> {
        (self.owner[c] != NO_PLAYER).then_some(self.owner[c] as usize)
    }

    /// The start corners of player `p`'s sets, as a mask of corner indices.
    pub fn sets_of(&self, p: usize) -> u8 {
        self.player_sets[p]
    }

    /// A position from its pegs and the player to move; computes `occ` and
    /// the hash.
    pub fn make_position(&self, sets: [u128; 6], neutral: u128, to_move: usize) -> Position {
        let mut pos = Position {
            sets,
            neutral,
            occ: sets.iter().fold(neutral, |m, s| m | s),
            to_move: to_move as u8,
            plies: 0,
            hash: 0,
        };
        pos.hash = self.compute_hash(&pos);
        pos
    }

    /// The start position: each set in its corner, neutral pegs in the
    /// unused corners under `unused-corners=filled`, the player in corner A
    /// to move.
    pub fn start_position(&self) -> Position {
        let mut sets = [0u128; 6];
        for (c, s) in sets.iter_mut().enumerate() {
            if self.owner[c] != NO_PLAYER {
                *s = BOARD.corner[c];
            }
        }
        let neutral = if self.unused == UnusedCorners::Filled {
            self.unused_mask
        } else {
            0
        };
        self.make_position(sets, neutral, 0)
    }

    pub fn compute_hash(&self, pos: &Position) -> u64 {
        let mut h = turn_key(pos.to_move as usize);
        for (c, &s) in pos.sets.iter().enumerate() {
            for i in super::board::Bits(s) {
                h ^= peg_key(c, i);
            }
        }
        for i in super::board::Bits(pos.neutral) {
            h ^= peg_key(6, i);
        }
        h
    }

    /// The set (start corner) of the peg on hole `h`, if a set's peg is there.
    #[inline]
    pub fn set_at(&self, pos: &Position, h: usize) -> Option<usize> {
        let b = bit(h);
        pos.sets.iter().position(|&s| s & b != 0)
    }

    /// The position after `mv` (which must be legal).
    pub fn play_move(&self, pos: &Position, mv: Move) -> Position {
        let mut p = *pos;
        let (from, to) = (mv.from as usize, mv.to as usize);
        match mv.kind {
            MoveKind::Pass => {}
            MoveKind::Normal => {
                if let Some(c) = self.set_at(pos, from) {
                    let m = bit(from) | bit(to);
                    p.sets[c] ^= m;
                    p.occ ^= m;
                    p.hash ^= peg_key(c, from) ^ peg_key(c, to);
                }
            }
            MoveKind::Swap => {
                if let (Some(c), Some(v)) = (self.set_at(pos, from), self.set_at(pos, to)) {
                    let m = bit(from) | bit(to);
                    p.sets[c] ^= m;
                    p.sets[v] ^= m;
                    p.hash ^= peg_key(c, from) ^ peg_key(c, to) ^ peg_key(v, from) ^ peg_key(v, to);
                }
            }
        }
        let next = (pos.to_move as usize + 1) % self.players as usize;
        p.hash ^= turn_key(pos.to_move as usize) ^ turn_key(next);
        p.to_move = next as u8;
        p.plies = pos.plies.saturating_add(1);
        p
    }

    /// True when the set that started in corner `c` is home: its own pegs
    /// fill the target corner (`swap`, `none`), or under `fill` the target
    /// corner is full and holds at least one of its pegs.
    #[inline]
    pub fn set_home(&self, pos: &Position, c: usize) -> bool {
        let t = BOARD.corner[opposite(c)];
        match self.spoiling {
            Spoiling::Fill => pos.occ & t == t && pos.sets[c] & t != 0,
            Spoiling::Swap | Spoiling::None => pos.sets[c] & t == t,
        }
    }

    /// True when every set of player `p` is home.
    #[inline]
    pub fn has_won(&self, pos: &Position, p: usize) -> bool {
        let mut s = self.player_sets[p];
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            if !self.set_home(pos, c) {
                return false;
            }
            s &= s - 1;
        }
        true
    }

    /// The distance to home that ranks the players of an unfinished game
    /// (rules.md, `max-moves`): the sum over the player's pegs of the
    /// distance to the farthest free target hole. A peg already in its
    /// target corner counts 0 (the home rule keeps it there); any other peg
    /// counts the hex distance to the farthest hole of its set's target
    /// corner that the set's own pegs do not hold (holes held by other
    /// players count as free: they can be swapped or must be vacated). A
    /// player whose sets are all home has distance 0.
    pub fn ranking_distance(&self, pos: &Position, p: usize) -> u32 {
        let mut total = 0u32;
        let mut s = self.player_sets[p];
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            let target = BOARD.corner[opposite(c)];
            let free = target & !pos.sets[c];
            for h in super::board::Bits(pos.sets[c] & !target) {
                let from = BOARD.coord[h];
                let far = super::board::Bits(free)
                    .map(|t| {
                        let to = BOARD.coord[t];
                        super::board::distance(
                            (from.0 as i32, from.1 as i32),
                            (to.0 as i32, to.1 as i32),
                        )
                    })
                    .max()
                    .unwrap_or(0);
                total += far as u32;
            }
        }
        total
    }

    /// The end of the game: the player who just moved is checked first, then
    /// the others in turn order; the first with all sets home wins. Under
    /// `max-moves` the game ends unresolved (reported as a draw) once every
    /// player has made that many moves.
    pub fn game_outcome(&self, pos: &Position) -> Option<Outcome> {
        let n = self.players as usize;
        let mover = (pos.to_move as usize + n - 1) % n;
        for i in 0..n {
            let p = (mover + i) % n;
            if self.has_won(pos, p) {
                return Some(Outcome::Win(p));
            }
        }
        if self.max_moves > 0 && pos.plies as u64 >= self.max_moves as u64 * n as u64 {
            return Some(Outcome::Draw);
        }
        None
    }
}
