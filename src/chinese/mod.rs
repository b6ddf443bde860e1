//! Chinese checkers on the 121-hole star, for 2, 3, 4 or 6 players (and 3
//! players with 2 sets, 2 players with 3 sets), with the house rules of
//! rules.md: `foreign-corners`, `unused-corners`, `spoiling`, `max-moves`.
//!
//! - [`board`]: geometry tables built at compile time.
//! - [`position`]: the game with its options ([`Chinese`]), positions,
//!   moves, the hash and the end of the game.
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

pub use position::{Chinese, Move, MoveKind, Position};

use crate::game::{Game, MoveList, Outcome, ParseResult, Score};

impl Game for Chinese {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "chinese"
    }

    fn start(&self) -> Position {
        self.start_position()
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
        self.generate_moves(pos, out)
    }

    fn count_moves(&self, pos: &Position) -> u64 {
        self.count_legal(pos)
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        self.play_move(pos, mv)
    }

    fn hash(&self, pos: &Position) -> u64 {
        pos.hash
    }

    fn hash_from_scratch(&self, pos: &Position) -> u64 {
        self.compute_hash(pos)
    }

    /// No captures: nothing is noisy.
    fn is_noisy(&self, _pos: &Position, _mv: Move) -> bool {
        false
    }

    fn is_unstable(&self, _pos: &Position) -> bool {
        false
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        self.game_outcome(pos)
    }

    /// Every move is reversible (pegs are never removed), so this is the
    /// number of plies since the position was set up: a repetition check
    /// should look back over the whole history it has.
    /// The rules.md ranking distance ([`Chinese::ranking_distance`]).
    fn distance_to_win(&self, pos: &Position, player: usize) -> Option<u32> {
        Some(self.ranking_distance(pos, player))
    }

    fn reversible_plies(&self, pos: &Position) -> u32 {
        pos.plies
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
        let mut p = self.play_move(pos, Move::PASS);
        p.plies = pos.plies;
        Some(p)
    }

    /// Minus the player's distance to home, in [`eval::STEP`] units.
    fn greedy_value(&self, pos: &Position, player: usize) -> Score {
        -eval::STEP * self.distance_to_home(pos, player)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> ParseResult<Move> {
        self.parse_move_text(pos, text)
    }

    fn format_move(&self, _pos: &Position, mv: Move) -> String {
        self.move_text(mv)
    }

    fn parse_fen(&self, text: &str) -> ParseResult<Position> {
        self.parse_fen_text(text)
    }

    fn format_fen(&self, pos: &Position) -> String {
        self.fen_text(pos)
    }

    fn parse_hub_position(&self, text: &str) -> ParseResult<Position> {
        self.parse_hub(text)
    }

    fn format_hub_position(&self, pos: &Position) -> String {
        self.hub_text(pos)
    }
}
