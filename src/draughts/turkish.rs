//! Turkish draughts (rules.md, "Turkish draughts"): the 8x8 board with all
//! 64 squares and orthogonal steps as a [`Geometry`], and the rules as
//! [`Rules`] constants for the generic draughts generator, in two rule sets
//! for the two values of `turkish-promotion`.
//!
//! Internal index = bit = reading order of the diagram (a8 = 0, h8 = 7,
//! a7 = 8, ..., h1 = 63). Up and down are shifts by 8 (bits shifted out of
//! the word vanish); left and right are shifts by 1 masked so that a step
//! cannot wrap round to the other edge.

use super::geometry::{Direction, Geometry};
use super::rules::{HubLayout, Numbering, Rules};
use crate::game::Descriptor;

/// Direction indices (`d ^ 1` is the opposite of `d`).
pub const UP: usize = 0;
pub const DOWN: usize = 1;
pub const LEFT: usize = 2;
pub const RIGHT: usize = 3;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// Rank 8 (the top row of the diagram) and rank 1.
const RANK_8: u64 = 0xFF;
const RANK_1: u64 = 0xFF << 56;

const BITS: [u8; 64] = {
    let mut out = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = i as u8;
        i += 1;
    }
    out
};

/// The 8x8 board with all squares in play and orthogonal directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orthogonal8;

impl Geometry for Orthogonal8 {
    type BB = u64;
    const SQUARES: usize = 64;
    const SQUARE_BIT: &'static [u8] = &BITS;
    const BOARD: u64 = u64::MAX;
    const DIRS: &'static [Direction<u64>] = &[
        Direction {
            shift: -8,
            mask: u64::MAX,
        },
        Direction {
            shift: 8,
            mask: u64::MAX,
        },
        Direction {
            shift: -1,
            mask: !FILE_H,
        },
        Direction {
            shift: 1,
            mask: !FILE_A,
        },
    ];
    /// rules.md: "Men move one square straight forward or sideways".
    const MAN_STEPS: [&'static [usize]; 2] = [&[UP, LEFT, RIGHT], &[DOWN, LEFT, RIGHT]];
    const PROMOTION: [u64; 2] = [RANK_8, RANK_1];
    const FILES: u8 = 8;
    const RANKS: u8 = 8;
    fn coords(sq: usize) -> (u8, u8) {
        ((sq % 8) as u8, (7 - sq / 8) as u8)
    }
}

/// Turkish draughts with `turkish-promotion=end` (the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Turkish;

/// Turkish draughts with `turkish-promotion=immediate`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurkishImmediate;

/// Both rule sets are one game (`turkish-promotion` chooses between them).
const DESCRIPTOR: &Descriptor = &Descriptor {
    options: &["turkish-promotion", "draw-moves"],
    board: "orthogonal",
    ..Descriptor::draughts(
        "turkish",
        <Turkish as Rules>::DEFAULT_DRAW_MOVES,
        Some(30),
        10,
        Some(include_bytes!("../../books/turkish.bin")),
    )
};

macro_rules! turkish_rules {
    ($name:ident, $mid_capture:expr, $key:expr) => {
        impl Rules for $name {
            type Geo = Orthogonal8;
            const DESCRIPTOR: &'static Descriptor = DESCRIPTOR;
            /// The endgame databases of the two promotion rules differ.
            const KEY: &'static str = $key;
            const WEIGHTS: Option<&'static [u8]> =
                Some(include_bytes!("../../weights/turkish.bin"));
            const NAME: &'static str = "turkish";
            /// rules.md: "Men capture by jumping an adjacent enemy piece
            /// forward or sideways".
            const MAN_CAPTURE_DIRS: [&'static [usize]; 2] =
                [&[UP, LEFT, RIGHT], &[DOWN, LEFT, RIGHT]];
            /// rules.md: "Kings move any distance along a free rank or file
            /// ... capture at distance".
            const FLYING_KINGS: bool = true;
            /// rules.md: men move "one square forward or sideways"; a
            /// sideways step can be stepped back.
            const MEN_STEP_BACK: bool = true;
            /// rules.md: "the maximum capture rule applies (kings count as
            /// one piece; any tie is a free choice)".
            const MAXIMUM_CAPTURE: bool = true;
            /// rules.md: "Removal is immediate".
            const IMMEDIATE_REMOVAL: bool = true;
            /// Two kings beat one (endgame database, 3 pieces:
            /// docs/evaluation.md, "King endings"): a king holds only
            /// against one piece.
            const KING_HOLDS_AGAINST: u32 = 1;
            /// rules.md: "a piece may not reverse direction (a 180-degree
            /// turn) between two jumps".
            const NO_REVERSE: bool = true;
            /// rules.md: `turkish-promotion` = `end` (false) or `immediate`
            /// (true): crowned at once, the man goes on capturing as a king.
            const PROMOTE_MID_CAPTURE: bool = $mid_capture;
            /// rules.md: White on ranks 2 and 3 (rows 6-7 of the diagram,
            /// internal 40..56), Black on ranks 6 and 7 (internal 8..24).
            const START: [(usize, usize); 2] = [(40, 56), (8, 24)];
            /// rules.md, draw rules: 60 moves each with no capture and no
            /// man move.
            const DEFAULT_DRAW_MOVES: u32 = 60;
            /// notation.md: every square counted from a1, rank by rank.
            const NUMBERING: Numbering = Numbering::FromA1;
            const ALGEBRAIC: bool = true;
            /// protocol.md: a8, b8, ..., h8, a7, ..., h1.
            const HUB_LAYOUT: HubLayout = HubLayout::ReadingOrder;
        }
    };
}

turkish_rules!(Turkish, false, "turkish");
turkish_rules!(TurkishImmediate, true, "turkish-immediate");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::notation;

    #[test]
    fn orthogonal_steps_agree_with_files_and_ranks() {
        let deltas: [(i32, i32); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];
        for sq in 0..64 {
            let (f, r) = Orthogonal8::coords(sq);
            for (d, &(df, dr)) in deltas.iter().enumerate() {
                let (nf, nr) = (f as i32 + df, r as i32 + dr);
                let got = Orthogonal8::step(Orthogonal8::bit_of(sq), d);
                if (0..8).contains(&nf) && (0..8).contains(&nr) {
                    let t = (0..64).find(|&t| Orthogonal8::coords(t) == (nf as u8, nr as u8));
                    assert_eq!(Some(got), t.map(Orthogonal8::bit_of), "square {sq} dir {d}");
                } else {
                    assert_eq!(got, 0, "square {sq} dir {d} leaves the board");
                }
            }
        }
    }

    #[test]
    fn squares_count_from_a1_and_have_algebraic_names() {
        // notation.md: 1 = a1, 8 = h1, 9 = a2, 57 = a8, 64 = h8.
        for (n, name) in [
            (1, "a1"),
            (8, "h1"),
            (9, "a2"),
            (57, "a8"),
            (64, "h8"),
            (28, "d4"),
        ] {
            let sq = notation::square_of_number::<Turkish>(n).unwrap();
            assert_eq!(notation::algebraic_name::<Turkish>(sq), name);
            assert_eq!(notation::number_of_square::<Turkish>(sq), n);
            assert_eq!(notation::parse_square::<Turkish>(name), Ok(sq));
        }
    }
}
