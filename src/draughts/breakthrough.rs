//! Breakthrough draughts, the game lidraughts and pydraughts call
//! `breakthrough`: the international rules, and the first player to crown
//! a king wins. docs/variants.md, "Breakthrough", gives each rule with its
//! source.

use super::geometry::Diagonal10;
use super::rules::{International, Rules, dirs};
use crate::game::Descriptor;

/// Breakthrough draughts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakthrough;

impl Rules for Breakthrough {
    /// The international board, 10x10, squares 1-50.
    type Geo = Diagonal10;
    const NAME: &'static str = "breakthrough";
    /// No book, no endgame databases, no PDN GameType; `bt` is Scan's
    /// name for it.
    const DESCRIPTOR: &'static Descriptor = &Descriptor::international_goal(Self::NAME, &["bt"]);
    /// The moves are international draughts' to the last detail.
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [dirs::ALL, dirs::ALL];
    const FLYING_KINGS: bool = true;
    const MAXIMUM_CAPTURE: bool = true;
    const START: [(usize, usize); 2] = International::START;
    /// No draw rule (lidraughts; pydraughts 0.6.7, `Game.is_draw`: "there
    /// is no draw"): every move before the first king is a man's step
    /// forward or a capture, so a position never repeats and every game
    /// ends, by a crowning or by a player left without a move (who loses).
    const DEFAULT_DRAW_MOVES: u32 = 0;
    /// The goal: the first crowning wins. A man that passes the far row
    /// during a capture is not crowned (international rules), so only a
    /// move that ends there wins.
    const CROWNING_WINS: bool = true;
}
