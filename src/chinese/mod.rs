//! Chinese checkers on the 121-hole star, for 2, 3, 4 or 6 players (and 3
//! players with 2 sets, 2 players with 3 sets), with the house rules of
//! rules.md: `foreign-corners`, `unused-corners`, `spoiling`, `max-moves`.
//!
//! - this file: the option types ([`ChineseOptions`]) and the [`Game`]
//!   implementation itself: the start, making moves, the hash, the end of
//!   the game and the ranking distance.
//! - [`board`]: geometry tables built at compile time.
//! - [`position`]: the game built from its options ([`Chinese`]),
//!   positions, moves, the Zobrist keys and the home test.
//! - [`movegen`]: steps, jump chains, the home rule, foreign corners, swaps,
//!   the forced pass.
//! - [`notation`]: moves, the Hub position string, the FEN-like form.
//! - [`eval`]: a distance-to-home evaluation.
//!
//! See docs/chinese.md for the game, its options and the text forms.

pub mod board;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod weights;

pub use position::{Chinese, Move, MoveKind, Position};

use board::{BOARD, bit, opposite};
use position::{NO_PLAYER, peg_key, turn_key};

use crate::game::descriptor::PDN_RESULTS;
use crate::game::text::named_enum;
use crate::game::{Descriptor, Game, MoveList, Outcome, ParseResult, Score};

named_enum!(
    /// May a peg end its move in a foreign corner?
    ForeignCorners { Pass = "pass", Stop = "stop" }
);
named_enum!(
    /// What the corners no one plays hold.
    UnusedCorners { Empty = "empty", Filled = "filled" }
);
named_enum!(
    /// The rule against pegs that block a target corner.
    Spoiling { Swap = "swap", Fill = "fill", None = "none" }
);

/// The options of chinese checkers (rules.md, "Chinese checkers").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChineseOptions {
    /// 2, 3, 4 or 6.
    pub players: u8,
    /// Sets per player (1; 2 with 3 players; 3 with 2).
    pub sets: u8,
    pub foreign_corners: ForeignCorners,
    pub unused_corners: UnusedCorners,
    pub spoiling: Spoiling,
    /// End the game after this many moves per player (0 = unlimited).
    pub max_moves: u32,
    /// The evaluation's weights: `None` for the shipped ones
    /// (`weights/chinese.txt`, the default), else the hand ones
    /// ([`weights::HAND`], `eval=hand`) or those of an `eval-file`.
    pub weights: Option<[i32; weights::TERMS]>,
}

impl Default for ChineseOptions {
    fn default() -> Self {
        ChineseOptions {
            players: 2,
            sets: 1,
            foreign_corners: ForeignCorners::Pass,
            unused_corners: UnusedCorners::Empty,
            spoiling: Spoiling::Swap,
            max_moves: 0,
            weights: None,
        }
    }
}

/// Chinese checkers in the registry (`variant.rs`).
pub const DESCRIPTOR: &Descriptor = &Descriptor {
    name: "chinese",
    hub_name: "chinese",
    aliases: &[],
    draw_moves: 0,
    // rules.md: no draw rule; `max-moves` ends endless games.
    repetition_draw: false,
    pdn_game_type: None,
    pdn_results: PDN_RESULTS,
    bench_fens: &[],
    bench_depth: 5,
    options: &[
        "players",
        "sets",
        "foreign-corners",
        "unused-corners",
        "spoiling",
        "max-moves",
    ],
    board: "star",
    book: None,
    endgame_databases: false,
};

impl Game for Chinese {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        DESCRIPTOR.name
    }

    fn descriptor(&self) -> &'static Descriptor {
        DESCRIPTOR
    }

    /// The start position: each set in its corner, neutral pegs in the
    /// unused corners under `unused-corners=filled`, the player in corner A
    /// to move.
    fn start(&self) -> Position {
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

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn to_move(&self, pos: &Position) -> usize {
        pos.to_move as usize
    }

    /// Legal moves; an explicit pass when the player has none; empty only
    /// when the game is over.
    fn generate(&self, pos: &Position, out: &mut MoveList<Move>) {
        movegen::generate(self, pos, out)
    }

    fn count_moves(&self, pos: &Position) -> u64 {
        movegen::count_moves(self, pos)
    }

    /// The position after `mv` (which must be legal).
    fn play(&self, pos: &Position, mv: Move) -> Position {
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

    fn hash(&self, pos: &Position) -> u64 {
        pos.hash
    }

    fn hash_from_scratch(&self, pos: &Position) -> u64 {
        let mut h = turn_key(pos.to_move as usize);
        for (c, &s) in pos.sets.iter().enumerate() {
            for i in board::Bits(s) {
                h ^= peg_key(c, i);
            }
        }
        for i in board::Bits(pos.neutral) {
            h ^= peg_key(6, i);
        }
        h
    }

    /// No captures: nothing is noisy.
    fn is_noisy(&self, _pos: &Position, _mv: Move) -> bool {
        false
    }

    fn is_unstable(&self, _pos: &Position) -> bool {
        false
    }

    /// The end of the game: the player who just moved is checked first, then
    /// the others in turn order; the first with all sets home wins. Under
    /// `max-moves` the game ends unresolved (reported as a draw) once every
    /// player has made that many moves.
    fn outcome(&self, pos: &Position) -> Option<Outcome> {
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

    /// The distance to home that ranks the players of an unfinished game
    /// (rules.md, `max-moves`): the sum over the player's pegs of the
    /// distance to the farthest free target hole. A peg already in its
    /// target corner counts 0 (the home rule keeps it there); any other peg
    /// counts the hex distance to the farthest hole of its set's target
    /// corner that the set's own pegs do not hold (holes held by other
    /// players count as free: they can be swapped or must be vacated). A
    /// player whose sets are all home has distance 0.
    fn distance_to_win(&self, pos: &Position, p: usize) -> Option<u32> {
        let mut total = 0u32;
        let mut s = self.player_sets[p];
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            let target = BOARD.corner[opposite(c)];
            let free = target & !pos.sets[c];
            for h in board::Bits(pos.sets[c] & !target) {
                let from = BOARD.coord[h];
                let far = board::Bits(free)
                    .map(|t| {
                        let to = BOARD.coord[t];
                        board::distance((from.0 as i32, from.1 as i32), (to.0 as i32, to.1 as i32))
                    })
                    .max()
                    .unwrap_or(0);
                total += far as u32;
            }
        }
        Some(total)
    }

    /// Every move is reversible (pegs are never removed), so this is the
    /// number of plies since the position was set up: a repetition check
    /// should look back over the whole history it has.
    fn reversible_plies(&self, pos: &Position) -> u32 {
        pos.plies
    }

    /// rules.md: "There is no draw rule in the seed."
    fn repetition_is_draw(&self) -> bool {
        false
    }

    fn evaluate(&self, pos: &Position) -> Score {
        self.evaluate_player(pos, pos.to_move as usize)
    }

    fn evaluate_for(&self, pos: &Position, player: usize) -> Score {
        self.evaluate_player(pos, player)
    }

    /// The turn goes to the next player; the ply counter (and so
    /// `max-moves`) does not move.
    fn pass_turn(&self, pos: &Position) -> Option<Position> {
        let mut p = self.play(pos, Move::PASS);
        p.plies = pos.plies;
        Some(p)
    }

    /// Minus the player's distance to home, in [`weights::STEP`] units.
    fn greedy_value(&self, pos: &Position, player: usize) -> Score {
        -weights::STEP * self.distance_to_home(pos, player)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> ParseResult<Move> {
        notation::parse_move(self, pos, text)
    }

    fn format_move(&self, _pos: &Position, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_fen(&self, text: &str) -> ParseResult<Position> {
        notation::parse_fen(self, text)
    }

    fn format_fen(&self, pos: &Position) -> String {
        notation::format_fen(pos)
    }

    fn parse_hub_position(&self, text: &str) -> ParseResult<Position> {
        notation::parse_hub(self, text)
    }

    fn format_hub_position(&self, pos: &Position) -> String {
        notation::format_hub(self, pos)
    }
}
