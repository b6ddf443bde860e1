//! Hexagonal draughts (rules.md, "Hexagonal draughts"): the 91-cell board
//! as a [`Geometry`] and the rules as [`Rules`] constants for the generic
//! draughts generator.
//!
//! Cells are notation.md's axial coordinates (q, r), -5 <= r <= 5 and
//! max(-5, -5-r) <= q <= min(5, 5-r), numbered by r, then q (so the internal
//! index, reading order, is the cell number minus one). Cell (q, r) lives
//! at bit q + 12r + 60 of a `u128` (design.md): bits 0..=120, rows 12 bits
//! apart with at least one ghost bit between them, so the six neighbours
//! are the shifts +-1, +-11 and +-12 masked with the board, and a step off
//! the board lands on a ghost bit or leaves the word.

use super::geometry::{Direction, Geometry};
use super::rules::{HubLayout, Numbering, Rules};
use crate::game::Descriptor;

/// The number of cells.
pub const CELLS: usize = 91;

/// Direction indices of the hex board (`d ^ 1` is the opposite of `d`):
/// up-left (q, r-1), down-right (q, r+1), up-right (q+1, r-1), down-left
/// (q-1, r+1), left (q-1, r), right (q+1, r).
pub const UP_LEFT: usize = 0;
pub const DOWN_RIGHT: usize = 1;
pub const UP_RIGHT: usize = 2;
pub const DOWN_LEFT: usize = 3;
pub const LEFT: usize = 4;
pub const RIGHT: usize = 5;

/// (dq, dr) of each direction index.
pub const DELTAS: [(i32, i32); 6] = [(0, -1), (0, 1), (1, -1), (-1, 1), (-1, 0), (1, 0)];

/// True for the (q, r) of a cell of the board.
pub const fn on_board(q: i32, r: i32) -> bool {
    let lo = if -5 > -5 - r { -5 } else { -5 - r };
    let hi = if 5 < 5 - r { 5 } else { 5 - r };
    r >= -5 && r <= 5 && q >= lo && q <= hi
}

/// The bit of cell (q, r).
pub const fn bit_of_qr(q: i32, r: i32) -> u8 {
    (q + 12 * r + 60) as u8
}

/// (q, r) of every cell by internal index (cell number - 1).
pub const CELL_QR: [(i8, i8); CELLS] = cell_coords();

const fn cell_coords() -> [(i8, i8); CELLS] {
    let mut out = [(0i8, 0i8); CELLS];
    let mut k = 0;
    let mut r = -5;
    while r <= 5 {
        let mut q = -5;
        while q <= 5 {
            if on_board(q, r) {
                out[k] = (q as i8, r as i8);
                k += 1;
            }
            q += 1;
        }
        r += 1;
    }
    out
}

const CELL_BITS: [u8; CELLS] = {
    let mut out = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        out[i] = bit_of_qr(CELL_QR[i].0 as i32, CELL_QR[i].1 as i32);
        i += 1;
    }
    out
};

/// The cells of rows `r` in `lo..=hi`.
const fn rows_mask(lo: i8, hi: i8) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < CELLS {
        let r = CELL_QR[i].1;
        if r >= lo && r <= hi {
            m |= 1u128 << CELL_BITS[i];
        }
        i += 1;
    }
    m
}

const BOARD_MASK: u128 = rows_mask(-5, 5);

/// The 91-cell hexagonal board in a padded `u128`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hex91;

impl Geometry for Hex91 {
    type BB = u128;
    const SQUARES: usize = CELLS;
    const SQUARE_BIT: &'static [u8] = &CELL_BITS;
    const BOARD: u128 = BOARD_MASK;
    const DIRS: &'static [Direction<u128>] = &[
        Direction {
            shift: -12,
            mask: BOARD_MASK,
        },
        Direction {
            shift: 12,
            mask: BOARD_MASK,
        },
        Direction {
            shift: -11,
            mask: BOARD_MASK,
        },
        Direction {
            shift: 11,
            mask: BOARD_MASK,
        },
        Direction {
            shift: -1,
            mask: BOARD_MASK,
        },
        Direction {
            shift: 1,
            mask: BOARD_MASK,
        },
    ];
    /// rules.md: "A man moves one cell to either of its two forward
    /// neighbours"; notation.md: White's are up-left and up-right, Black's
    /// down-left and down-right.
    const MAN_STEPS: [&'static [usize]; 2] = [&[UP_LEFT, UP_RIGHT], &[DOWN_RIGHT, DOWN_LEFT]];
    /// rules.md: "the far row (the 6-cell row on the opponent's side)":
    /// r = -5 (cells 1-6) for White, r = 5 (cells 86-91) for Black.
    const PROMOTION: [u128; 2] = [rows_mask(-5, -5), rows_mask(5, 5)];
    /// Hex cells have no algebraic names; (q + 5, 5 - r) keeps `coords`
    /// one-to-one.
    const FILES: u8 = 11;
    const RANKS: u8 = 11;
    fn coords(sq: usize) -> (u8, u8) {
        let (q, r) = CELL_QR[sq];
        ((q + 5) as u8, (5 - r) as u8)
    }
}

/// All six directions: men capture and kings move along all of them.
const ALL: &[usize] = &[UP_LEFT, DOWN_RIGHT, UP_RIGHT, DOWN_LEFT, LEFT, RIGHT];

/// Hexagonal draughts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hex;

impl Rules for Hex {
    type Geo = Hex91;
    const NAME: &'static str = "hex";
    const DESCRIPTOR: &'static Descriptor = &Descriptor {
        aliases: &["hexagonal"],
        board: "hex",
        ..Descriptor::draughts(
            Self::NAME,
            Self::DEFAULT_DRAW_MOVES,
            None,
            11,
            Some(include_bytes!("../../books/hex.bin")),
        )
    };
    const WEIGHTS: Option<&'static [u8]> = Some(include_bytes!("../../weights/hex.bin"));
    /// rules.md: "A man captures by jumping an adjacent enemy piece in any
    /// of the six directions (forward, backward or along its row)".
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [ALL, ALL];
    /// rules.md: "A king moves any number of empty cells along any of the
    /// six straight lines ... It captures at distance".
    const FLYING_KINGS: bool = true;
    /// rules.md: "Capturing is compulsory; maximum capture rule".
    const MAXIMUM_CAPTURE: bool = true;
    /// rules.md: "13 men each, on the two rows nearest the player":
    /// White on cells 79-91, Black on 1-13 (notation.md).
    const START: [(usize, usize); 2] = [(78, 91), (0, 13)];
    /// rules.md, draw rules: "30 moves by each side ... with only kings on
    /// the board and no capture".
    const DEFAULT_DRAW_MOVES: u32 = 30;
    const DRAW_KINGS_ONLY: bool = true;
    /// Two kings do not beat one (endgame database, 3 pieces:
    /// docs/evaluation.md, "King endings"; three not measured).
    const KING_HOLDS_AGAINST: u32 = 2;
    /// notation.md: cells count row by row from the top, left to right.
    const NUMBERING: Numbering = Numbering::ReadingOrder;
    /// protocol.md: the 92-character string lists cells 1..91.
    const HUB_LAYOUT: HubLayout = HubLayout::ReadingOrder;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::bitboard::Bitboard;

    /// The cell number of (q, r), straight from notation.md's definition.
    fn number(q: i32, r: i32) -> Option<usize> {
        let mut k = 0;
        for rr in -5..=5 {
            for qq in -5..=5 {
                if on_board(qq, rr) {
                    k += 1;
                    if (qq, rr) == (q, r) {
                        return Some(k);
                    }
                }
            }
        }
        None
    }

    #[test]
    fn layout_steps_agree_with_the_axial_neighbour_rule_for_every_cell() {
        assert_eq!(
            (0..CELLS)
                .filter(|&i| Hex91::BOARD.has(CELL_BITS[i] as u32))
                .count(),
            91
        );
        assert_eq!(Hex91::BOARD.count(), 91);
        for (i, &(q, r)) in CELL_QR.iter().enumerate() {
            let (q, r) = (q as i32, r as i32);
            assert_eq!(number(q, r), Some(i + 1));
            for (d, &(dq, dr)) in DELTAS.iter().enumerate() {
                let got = Hex91::step(Hex91::bit_of(i), d);
                match number(q + dq, r + dr) {
                    Some(n) => assert_eq!(got, Hex91::bit_of(n - 1), "cell {} dir {d}", i + 1),
                    None => assert_eq!(got, 0, "cell {} dir {d} leaves the board", i + 1),
                }
                // A step and the opposite step come back.
                if got != 0 {
                    assert_eq!(Hex91::step(got, d ^ 1), Hex91::bit_of(i));
                }
            }
        }
    }

    #[test]
    fn cell_46_has_the_neighbours_of_notation_md() {
        let cell = |n: usize| Hex91::bit_of(n - 1);
        let nb = |d: usize| Hex91::step(cell(46), d);
        assert_eq!(nb(RIGHT), cell(47));
        assert_eq!(nb(LEFT), cell(45));
        assert_eq!(nb(UP_LEFT), cell(35));
        assert_eq!(nb(UP_RIGHT), cell(36));
        assert_eq!(nb(DOWN_LEFT), cell(56));
        assert_eq!(nb(DOWN_RIGHT), cell(57));
        assert_eq!(CELL_QR[45], (0, 0));
        assert_eq!(CELL_BITS[45], 60);
    }

    #[test]
    fn promotion_rows_are_the_six_cell_rows() {
        let cells = |m: u128| -> Vec<usize> {
            (0..CELLS)
                .filter(|&i| m.has(CELL_BITS[i] as u32))
                .map(|i| i + 1)
                .collect()
        };
        assert_eq!(cells(Hex91::PROMOTION[0]), (1..=6).collect::<Vec<_>>());
        assert_eq!(cells(Hex91::PROMOTION[1]), (86..=91).collect::<Vec<_>>());
    }
}
