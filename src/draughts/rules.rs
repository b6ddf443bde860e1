//! Rule sets as constants. A variant is a zero-sized type implementing
//! [`Rules`]; the generic move generator reads the constants, and the
//! compiler removes the branches that a variant does not take.
//!
//! Every constant cites the rule of `rules.md` (in ../shared/spec) it
//! implements: the trait's documentation says what each constant means,
//! and each rule set's values cite the table row or section they come from
//! (turkish and hex in their own files).

use super::geometry::{Diagonal8, Diagonal10, Geometry};
use crate::game::Descriptor;
use std::fmt::Debug;

/// How the squares of a variant are numbered (notation.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// Reading order from the top-left of the diagram (international,
    /// english, spanish, hex).
    ReadingOrder,
    /// Rank by rank from a1, left to right (brazilian, turkish).
    FromA1,
}

/// The order of the squares in the Hub `pos=` string (protocol.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HubLayout {
    /// The squares in reading order of the diagram (international and
    /// spanish: squares 1..N; brazilian: b8, d8, ...; turkish: a8 ... h1);
    /// `w`/`W` are White's pieces and the first letter names the player to
    /// move.
    ReadingOrder,
    /// pydraughts' english layout: the first mover's view, squares N..1,
    /// with the first mover (Black) written as `w`/`W`.
    FirstMoverView,
}

/// A rule set of the draughts family.
pub trait Rules: Copy + Send + Sync + Debug + Default + 'static {
    /// The board.
    type Geo: Geometry;

    /// The variant's name in the protocol.
    const NAME: &'static str;

    /// Everything about the variant that is not its rules (names, PDN,
    /// bench positions, the shipped book): the registry in `variant.rs`
    /// lists it.
    const DESCRIPTOR: &'static Descriptor;

    /// The rule set's own key, where its data is kept apart from every
    /// other rule set's (the endgame databases' folder): `NAME`, unless an
    /// option changes the rules (`turkish-immediate`).
    const KEY: &'static str = Self::NAME;

    /// The trained pattern weights shipped in the binary (weights/*.bin,
    /// docs/evaluation.md), for the rule sets whose trained weights measured
    /// better than the hand evaluation. `None`: the hand evaluation plays,
    /// and `init` says so.
    const WEIGHTS: Option<&'static [u8]> = None;

    /// The directions in which each player's men capture. rules.md, table
    /// "men capture": forward and backward (international, brazilian; hex:
    /// all six directions) or forward only (english, spanish; turkish:
    /// forward and sideways).
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2];

    /// The directions in which each player's men make a quiet step. rules.md:
    /// "Men move one step diagonally forward" (turkish: forward or sideways;
    /// hex: the two forward neighbours).
    const MAN_STEP_DIRS: [&'static [usize]; 2] = <Self::Geo as Geometry>::MAN_STEPS;

    /// Some quiet man steps can be stepped back (turkish men step left and
    /// right), so a man move does not end the repetition window
    /// (`Position::window`). rules.md, repetition: the 3rd occurrence of a
    /// position is a draw, whatever moved in between.
    const MEN_STEP_BACK: bool = false;

    /// Kings fly: they move and capture at any distance along a free line.
    /// rules.md, table "kings" and "king capture": fly (international,
    /// brazilian, spanish, turkish, hex) or one step (english).
    const FLYING_KINGS: bool;

    /// The maximum capture rule (rules.md, "maximum capture rule"): every
    /// variant except english, where "any capture sequence" may be chosen.
    const MAXIMUM_CAPTURE: bool;

    /// Among the longest captures only those taking the most kings are legal.
    /// rules.md, "Spanish tie-break" (only spanish).
    const KING_TIEBREAK: bool = false;

    /// Removal is immediate: a jumped piece leaves the board at once.
    /// rules.md, "immediate removal" (turkish only); otherwise "deferred
    /// removal": jumped pieces block and cannot be jumped twice.
    const IMMEDIATE_REMOVAL: bool = false;

    /// A piece may not reverse direction between two jumps. rules.md,
    /// Turkish: "a piece may not reverse direction (a 180-degree turn)". With
    /// deferred removal the jumped piece already blocks the way back.
    const NO_REVERSE: bool = false;

    /// A man that reaches the far row during a capture is crowned and its
    /// move ends there. rules.md, table "promotion", english.
    const CROWN_ENDS_MOVE: bool = false;

    /// A man that reaches the far row during a capture is crowned at once
    /// and goes on capturing as a king. rules.md, Turkish,
    /// `turkish-promotion=immediate`. When false (and `CROWN_ENDS_MOVE` is
    /// false) "promotion at the end" applies: it goes on as a man.
    const PROMOTE_MID_CAPTURE: bool = false;

    /// The player who moves first: 0 = White, 1 = Black. rules.md, table
    /// "moves first" (Black in english).
    const FIRST_PLAYER: u8 = 0;

    /// The internal squares (reading order, see [`Geometry`]) of the men of
    /// each player at the start, as ranges `[from, to)`. rules.md, table
    /// "men each"; notation.md gives the squares.
    const START: [(usize, usize); 2];

    /// The draw rule's default count, in moves by each side. rules.md,
    /// "Draw rules of the draughts variants".
    const DEFAULT_DRAW_MOVES: u32;

    /// The move-count draw rule counts only while the board holds nothing
    /// but kings. rules.md, draw rules, hex: "30 moves each with only kings
    /// on the board and no capture".
    const DRAW_KINGS_ONLY: bool = false;

    /// Draws by material: the game is drawn when the material on the board
    /// matches an entry and its count of plies has passed since the last
    /// capture. Empty for every game but russian (docs/variants.md,
    /// "Russian draughts"); off with the move-count rule (`draw-moves=0`).
    const MATERIAL_DRAWS: &'static [MaterialDraw] = &[];

    /// Endgame knowledge, not a rule: the most pieces (men and kings
    /// together) against which a lone king mostly holds the draw, measured
    /// with the endgame databases (docs/evaluation.md, "King endings"). The
    /// evaluation calls an ending drawish when the weaker side has a king
    /// and the stronger side no more pieces than this, whatever the
    /// material ([`crate::draughts::eval::is_drawish`]). 0: no such rule.
    const KING_HOLDS_AGAINST: u32 = 0;

    /// How the game is won, part 1: a player with no legal move (no piece
    /// left, or all blocked) *wins* instead of losing. docs/variants.md,
    /// "Antidraughts" (lidraughts' antidraughts).
    const NO_MOVE_WINS: bool = false;

    /// How the game is won, part 2: the first player to crown a king wins
    /// at once. docs/variants.md, "Breakthrough" (lidraughts'
    /// breakthrough).
    const CROWNING_WINS: bool = false;

    /// The square numbers of notation.md.
    const NUMBERING: Numbering = Numbering::ReadingOrder;

    /// Algebraic square names (`a1`) are accepted on input (notation.md:
    /// brazilian, turkish).
    const ALGEBRAIC: bool = false;

    /// The Hub position string's layout (protocol.md, "Positions").
    const HUB_LAYOUT: HubLayout = HubLayout::ReadingOrder;
}

/// The diagonal directions, for the constants below.
pub(super) mod dirs {
    use super::super::geometry::{DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
    pub const ALL: &[usize] = &[UP_LEFT, DOWN_RIGHT, UP_RIGHT, DOWN_LEFT];
    pub const WHITE_FORWARD: &[usize] = &[UP_LEFT, UP_RIGHT];
    pub const BLACK_FORWARD: &[usize] = &[DOWN_RIGHT, DOWN_LEFT];
}

/// International draughts (FMJD) on 10x10.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct International;

impl Rules for International {
    /// rules.md, "The diagonal family", table row "board": 10x10, 50
    /// squares (notation.md, "International (10x10)").
    type Geo = Diagonal10;
    const NAME: &'static str = "international";
    const DESCRIPTOR: &'static Descriptor = &Descriptor {
        hub_name: "normal",
        aliases: &["10x10"],
        pdn_results: ["2-0", "0-2", "1-1"],
        bench_fens: &[
            // Opening and middlegames.
            "W:W27,28,32,33,34,35,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,16,17,18,19,20,23",
            "B:W25,27,28,30,32,33,34,35,37,38,39,40,43,44,45,48:B3,7,8,9,12,13,14,15,16,17,18,19,20,21,22,23",
            "W:W24,27,28,29,31,32,33,35,36,38,39,42,43,47:B4,6,8,9,11,12,13,14,16,17,18,19,22,23",
            "W:W26,31,32,33,37,38,43:B8,12,13,17,18,19,22",
            // Endgames, with and without kings.
            "W:W32,36,41:B10,15,19",
            "W:WK46,33,38:B9,K5",
            "B:WK28,35:BK3,17,4",
        ],
        ..Descriptor::draughts(
            Self::NAME,
            Self::DEFAULT_DRAW_MOVES,
            Some(20),
            12,
            Some(include_bytes!("../../books/international.bin")),
        )
    };
    const WEIGHTS: Option<&'static [u8]> = Some(include_bytes!("../../weights/international.bin"));
    /// Table row "men capture": forward and backward.
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [dirs::ALL, dirs::ALL];
    /// Table row "kings": fly, any distance on a free diagonal; "king
    /// capture": at distance.
    const FLYING_KINGS: bool = true;
    /// Table row "choice of capture": maximum capture.
    const MAXIMUM_CAPTURE: bool = true;
    /// Table row "men each": 20 (4 rows), White on squares 31-50, Black on
    /// 1-20 (notation.md).
    const START: [(usize, usize); 2] = [(30, 50), (0, 20)];
    /// rules.md, "Draw rules of the draughts variants": 60 moves each with
    /// no capture and no man move.
    const DEFAULT_DRAW_MOVES: u32 = 60;
    /// Three kings do not beat a king that holds the long diagonal
    /// (endgame database, 4 pieces: docs/evaluation.md, "King endings").
    const KING_HOLDS_AGAINST: u32 = 3;
}

/// Brazilian draughts: the international rules on 8x8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Brazilian;

impl Rules for Brazilian {
    /// rules.md, "The diagonal family", table row "board": 8x8, 32 squares.
    type Geo = Diagonal8;
    const NAME: &'static str = "brazilian";
    const DESCRIPTOR: &'static Descriptor = &Descriptor::draughts(
        Self::NAME,
        Self::DEFAULT_DRAW_MOVES,
        Some(26),
        14,
        Some(include_bytes!("../../books/brazilian.bin")),
    );
    const WEIGHTS: Option<&'static [u8]> = Some(include_bytes!("../../weights/brazilian.bin"));
    /// Table row "men capture": forward and backward.
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [dirs::ALL, dirs::ALL];
    /// Table row "kings": fly; "king capture": at distance.
    const FLYING_KINGS: bool = true;
    /// Table row "choice of capture": maximum capture.
    const MAXIMUM_CAPTURE: bool = true;
    /// Table row "men each": 12 (3 rows).
    const START: [(usize, usize); 2] = [(20, 32), (0, 12)];
    /// rules.md, "Draw rules of the draughts variants": 60 moves each.
    const DEFAULT_DRAW_MOVES: u32 = 60;
    /// Two kings do not beat one; three mostly do (endgame database, 4
    /// pieces: docs/evaluation.md, "King endings").
    const KING_HOLDS_AGAINST: u32 = 2;
    /// notation.md, "Brazilian (8x8 diagonal)": dark squares counted from
    /// a1, and algebraic names accepted.
    const NUMBERING: Numbering = Numbering::FromA1;
    const ALGEBRAIC: bool = true;
}

/// English draughts (american checkers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct English;

impl Rules for English {
    /// rules.md, "The diagonal family", table row "board": 8x8, 32 squares.
    type Geo = Diagonal8;
    const NAME: &'static str = "english";
    const DESCRIPTOR: &'static Descriptor = &Descriptor {
        aliases: &["american", "checkers"],
        bench_fens: &[
            "B:W18,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,15",
            "W:W17,21,22,24,25,27,28,30:B2,3,5,6,9,11,12,14",
            "W:WK10,22,27:B3,K25,12",
        ],
        ..Descriptor::draughts(
            Self::NAME,
            Self::DEFAULT_DRAW_MOVES,
            Some(21),
            14,
            Some(include_bytes!("../../books/english.bin")),
        )
    };
    const WEIGHTS: Option<&'static [u8]> = Some(include_bytes!("../../weights/english.bin"));
    /// Table row "men capture": forward only.
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [dirs::WHITE_FORWARD, dirs::BLACK_FORWARD];
    /// Table row "kings": one step, any diagonal; "king capture": short.
    const FLYING_KINGS: bool = false;
    /// Table row "choice of capture": free, any capture sequence.
    const MAXIMUM_CAPTURE: bool = false;
    /// Table row "promotion": a man that reaches the far row is crowned and
    /// its move ends there.
    const CROWN_ENDS_MOVE: bool = true;
    /// Table row "moves first": Black.
    const FIRST_PLAYER: u8 = 1;
    /// Table row "men each": 12 (3 rows).
    const START: [(usize, usize); 2] = [(20, 32), (0, 12)];
    /// rules.md, "Draw rules of the draughts variants": 40 moves each.
    const DEFAULT_DRAW_MOVES: u32 = 40;
    /// protocol.md, "Positions": pydraughts' layout, from the first
    /// mover's view.
    const HUB_LAYOUT: HubLayout = HubLayout::FirstMoverView;
}

/// Spanish draughts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spanish;

impl Rules for Spanish {
    /// rules.md, "The diagonal family", table row "board": 8x8, 32 squares.
    type Geo = Diagonal8;
    const NAME: &'static str = "spanish";
    const DESCRIPTOR: &'static Descriptor = &Descriptor::draughts(
        Self::NAME,
        Self::DEFAULT_DRAW_MOVES,
        Some(24),
        14,
        Some(include_bytes!("../../books/spanish.bin")),
    );
    const WEIGHTS: Option<&'static [u8]> = Some(include_bytes!("../../weights/spanish.bin"));
    /// Table row "men capture": forward only.
    const MAN_CAPTURE_DIRS: [&'static [usize]; 2] = [dirs::WHITE_FORWARD, dirs::BLACK_FORWARD];
    /// Table row "kings": fly; "king capture": at distance.
    const FLYING_KINGS: bool = true;
    /// Table row "choice of capture": maximum capture ...
    const MAXIMUM_CAPTURE: bool = true;
    /// ... and among sequences of equal length, one that captures the most
    /// kings ("Spanish tie-break").
    const KING_TIEBREAK: bool = true;
    /// Table row "men each": 12 (3 rows).
    const START: [(usize, usize); 2] = [(20, 32), (0, 12)];
    /// rules.md, "Draw rules of the draughts variants": 60 moves each.
    const DEFAULT_DRAW_MOVES: u32 = 60;
    /// Two kings do not beat one; three mostly do (endgame database, 4
    /// pieces: docs/evaluation.md, "King endings").
    const KING_HOLDS_AGAINST: u32 = 2;
}

/// One draw rule by material ([`Rules::MATERIAL_DRAWS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialDraw {
    /// Both sides have the same number of pieces, `min` to `max`, and the
    /// same number of kings, one or more.
    Equal { min: u32, max: u32, plies: u32 },
    /// One side has `pieces` pieces, one or more of them kings, the other a
    /// lone king. With `long_diagonal`, only while the lone king stands on
    /// the long diagonal (the one through a1, `file == rank`) and no piece
    /// of the stronger side does.
    LoneKing {
        pieces: u32,
        long_diagonal: bool,
        plies: u32,
    },
}
