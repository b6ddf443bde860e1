//! The game built from its options ([`Chinese`]), positions, moves, the
//! Zobrist keys and the home test. The [`crate::Game`] implementation that
//! plays on them is in the parent module.

use super::board::{ALL, BOARD, HOLES, bit, opposite};
use super::{ChineseOptions, ForeignCorners, Spoiling, UnusedCorners};
use crate::game::{ParseError, ParseResult, zobrist};

/// No player owns this set.
pub const NO_PLAYER: u8 = 255;

/// Chinese checkers with its options: who plays which corners and the house
/// rules. Built once from [`ChineseOptions`]; everything the move generator needs
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
    /// The evaluation's weights (the shipped ones, [`super::weights::HAND`]
    /// or an `eval-file`'s), centi-men per unit of each term.
    pub(crate) weights: [i32; super::weights::TERMS],
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
    pub fn new(opts: impl Into<ChineseOptions>) -> ParseResult<Chinese> {
        let opts = opts.into();
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
            weights: opts.weights.unwrap_or(*super::weights::shipped()),
        })
    }

    /// The game with default options for this many players and sets.
    pub fn with_players(players: u8, sets: u8) -> ParseResult<Chinese> {
        Chinese::new(ChineseOptions {
            players,
            sets,
            ..ChineseOptions::default()
        })
    }

    /// The player owning the set that starts in corner `c`, if it is in play.
    pub fn owner(&self, c: usize) -> Option<usize> {
        (self.owner[c] != NO_PLAYER).then_some(self.owner[c] as usize)
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
        pos.hash = crate::game::Game::hash_from_scratch(self, &pos);
        pos
    }

    /// The set (start corner) of the peg on hole `h`, if a set's peg is there.
    #[inline]
    pub fn set_at(&self, pos: &Position, h: usize) -> Option<usize> {
        let b = bit(h);
        pos.sets.iter().position(|&s| s & b != 0)
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
}
