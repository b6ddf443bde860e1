//! Russian draughts (shashki), the 8x8 game lidraughts and pydraughts call
//! `russian`: the rules as [`Rules`] constants for the generic draughts
//! generator, and everything else about the game in its descriptor.
//! docs/variants.md, "Russian", gives each rule with its source.

use super::geometry::Diagonal8;
use super::rules::{Numbering, Rules, dirs};
use crate::game::Descriptor;

/// Russian draughts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Russian;

impl Rules for Russian {
    /// The 8x8 board, 32 dark squares, a1 dark and in White's lower left.
    type Geo = Diagonal8;
    const NAME: &'static str = "russian";
    /// PDN 3.0: GameType 25 is russian draughts. No book yet.
    const DESCRIPTOR: &'static Descriptor = &Descriptor {
        aliases: &["shashki"],
        ..Descriptor::draughts(Self::NAME, Self::DEFAULT_DRAW_MOVES, Some(25), 14, None)
    };
    /// Round 1 (lab/2026-12-04-russian.md): +239 and +218 Elo over the
    /// hand evaluation at 5000 nodes.
    const WEIGHTS: Option<&'static [u8]> = Some(include_bytes!("../../weights/russian.bin"));
    /// Men capture forward and backward.
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [dirs::ALL, dirs::ALL];
    /// Kings fly: they move and capture at any distance on a free diagonal.
    const FLYING_KINGS: bool = true;
    /// Free choice among captures: any capture sequence may be chosen (not
    /// the longest), but the chosen one is played to its end.
    const MAXIMUM_CAPTURE: bool = false;
    /// A man that reaches the far row during a capture is crowned at once
    /// and goes on capturing as a king, in the same move.
    const PROMOTE_MID_CAPTURE: bool = true;
    /// 12 men each on the first three rows: White on a1-h3, Black on a6-h8.
    const START: [(usize, usize); 2] = [(20, 32), (0, 12)];
    /// A draw when for 15 moves by each side only kings moved and nothing
    /// was captured.
    const DEFAULT_DRAW_MOVES: u32 = 15;
    /// Squares counted from a1 as in brazilian (pydraughts' and lidraughts'
    /// numbering); algebraic names accepted.
    const NUMBERING: Numbering = Numbering::FromA1;
    const ALGEBRAIC: bool = true;
}
