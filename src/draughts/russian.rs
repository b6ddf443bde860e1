//! Russian draughts (shashki), the 8x8 game lidraughts and pydraughts call
//! `russian`: the rules as [`Rules`] constants for the generic draughts
//! generator, and everything else about the game in its descriptor.
//! docs/variants.md, "Russian", gives each rule with its source.

use super::geometry::Diagonal8;
use super::rules::{MaterialDraw, Numbering, Rules, dirs};
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
    /// The endings with a count of their own, in moves by each side since
    /// the last capture (as lidraughts plays them; pydraughts 0.6.7,
    /// `Game.is_draw`): equal pieces and equal kings (one or more), 4-5
    /// pieces each: 30 moves, 6-7 each: 60; 2 pieces with a king against a
    /// lone king: 5; 3 pieces with a king against a lone king on the long
    /// diagonal that the stronger side does not hold: 5. (3 kings against
    /// 1, 15 moves, is the move-count rule's case already.)
    const MATERIAL_DRAWS: &'static [MaterialDraw] = &[
        MaterialDraw::Equal {
            min: 4,
            max: 5,
            plies: 60,
        },
        MaterialDraw::Equal {
            min: 6,
            max: 7,
            plies: 120,
        },
        MaterialDraw::LoneKing {
            pieces: 2,
            long_diagonal: false,
            plies: 10,
        },
        MaterialDraw::LoneKing {
            pieces: 3,
            long_diagonal: true,
            plies: 10,
        },
    ];
    /// Squares counted from a1 as in brazilian (pydraughts' and lidraughts'
    /// numbering); algebraic names accepted.
    const NUMBERING: Numbering = Numbering::FromA1;
    const ALGEBRAIC: bool = true;
}
