//! Antidraughts (losing draughts, "give-away"), the game lidraughts and
//! pydraughts call `antidraughts`: the international rules with the goal
//! reversed. docs/variants.md, "Antidraughts", gives each rule with its
//! source.

use super::geometry::Diagonal10;
use super::rules::{International, Rules, dirs};
use crate::game::Descriptor;

/// Antidraughts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Antidraughts;

impl Rules for Antidraughts {
    /// The international board, 10x10, squares 1-50.
    type Geo = Diagonal10;
    const NAME: &'static str = "antidraughts";
    /// No book, no endgame databases, no PDN GameType.
    const DESCRIPTOR: &'static Descriptor =
        &Descriptor::international_goal(Self::NAME, &["losing", "giveaway"]);
    /// The moves are international draughts' to the last detail.
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [dirs::ALL, dirs::ALL];
    const FLYING_KINGS: bool = true;
    const MAXIMUM_CAPTURE: bool = true;
    const START: [(usize, usize); 2] = International::START;
    /// No move-count draw rule: as lidraughts plays it (pydraughts 0.6.7,
    /// `Game.is_draw`), the only draw is by repetition.
    const DEFAULT_DRAW_MOVES: u32 = 0;
    /// The goal: a player who cannot move (no piece left, or all blocked)
    /// has won.
    const NO_MOVE_WINS: bool = true;
}
