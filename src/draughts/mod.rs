//! The draughts family: one generic move generator driven by a `Rules` trait
//! of constants and a board `Geometry` (international, brazilian, english,
//! spanish; turkish and hex slot in as further rule sets and geometries).
//!
//! - [`bitboard`]: the bitboard trait over `u64` and `u128`.
//! - [`geometry`]: squares, bit layout, direction shifts.
//! - [`rules`]: the rule constants of each variant, citing rules.md.
//! - [`position`]: positions, moves, copy-make with an incremental hash.
//! - [`movegen`]: the generator.
//! - [`notation`]: squares, moves, FEN and Hub position strings.
//! - [`eval`]: the static evaluation.

pub mod antidraughts;
pub mod bitboard;
pub mod breakthrough;
pub mod eval;
pub mod geometry;
pub mod hex;
pub mod layout;
pub mod movegen;
pub mod notation;
pub mod pattern;
pub mod position;
pub mod rules;
pub mod russian;
pub mod turkish;
pub mod weights;

pub use antidraughts::Antidraughts;
pub use bitboard::Bitboard;
pub use breakthrough::Breakthrough;
pub use geometry::{Diagonal8, Diagonal10, Geometry};
pub use hex::{Hex, Hex91};
pub use position::{Bb, Move, Position};
pub use rules::{Brazilian, English, International, Rules, Spanish};
pub use russian::Russian;
pub use turkish::{Orthogonal8, Turkish, TurkishImmediate};

use crate::game::text::named_enum;
use crate::game::{Game, MoveList, Outcome, ParseResult, Reductions, Score, Tablebase};
use std::marker::PhantomData;

named_enum!(
    /// Turkish promotion: at the end of the move, or at once mid-capture
    /// (selects [`Turkish`] or [`TurkishImmediate`]).
    TurkishPromotion { End = "end", Immediate = "immediate" }
);
named_enum!(
    /// How squares are printed: numbers, or algebraic (brazilian, turkish).
    Notation { Numeric = "numeric", Algebraic = "algebraic" }
);

/// The run-time options of a draughts game (rules.md, "Options").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DraughtsOptions {
    /// The move-count draw rule in moves by each side; `None` is the rule
    /// set's [`Rules::DEFAULT_DRAW_MOVES`] (0 disables the rule).
    pub draw_moves: Option<u32>,
    pub notation: Notation,
    /// The evaluation (`eval`, `eval-file`).
    pub eval: weights::EvalChoice,
}

impl Default for DraughtsOptions {
    fn default() -> Self {
        DraughtsOptions {
            draw_moves: None,
            notation: Notation::Numeric,
            eval: weights::EvalChoice::Default,
        }
    }
}

/// Late move pruning ([`Game::prunes_late_moves`]) is for boards of more
/// squares than this.
pub const LMP_MIN_SQUARES: usize = 32;

/// A draughts game: a rule set plus the run-time options (draw count,
/// square names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draughts<R: Rules> {
    /// The move-count draw rule in plies (0 = off).
    pub draw_plies: u32,
    /// Print squares algebraically (variants with algebraic names only).
    pub algebraic: bool,
    /// The pattern evaluation's weights, compiled for the rule set
    /// ([`pattern::Compiled`]); `None`: the hand evaluation.
    pub weights: Option<&'static pattern::Compiled>,
    /// The endgame database the search consults ([`Game::tablebase`]):
    /// none unless attached ([`Draughts::with_tablebase`]).
    pub tablebase: TablebaseRef<Position<Bb<R>>>,
    rules: PhantomData<R>,
}

/// A game's endgame database, compared and printed by address (a game is
/// `Copy`, `Eq` and `Debug`; the database is none of these).
#[derive(Clone, Copy)]
pub struct TablebaseRef<P: 'static>(pub Option<&'static dyn Tablebase<P>>);

impl<P> Default for TablebaseRef<P> {
    fn default() -> Self {
        TablebaseRef(None)
    }
}

impl<P> PartialEq for TablebaseRef<P> {
    fn eq(&self, other: &Self) -> bool {
        match (self.0, other.0) {
            (Some(a), Some(b)) => std::ptr::addr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl<P> Eq for TablebaseRef<P> {}

impl<P> std::fmt::Debug for TablebaseRef<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Some(..)" } else { "None" })
    }
}

impl<R: Rules> Default for Draughts<R> {
    fn default() -> Self {
        Draughts {
            draw_plies: 2 * R::DEFAULT_DRAW_MOVES,
            algebraic: false,
            weights: weights::EvalChoice::Default
                .weights::<R>()
                .map(pattern::compile::<R>),
            tablebase: TablebaseRef(None),
            rules: PhantomData,
        }
    }
}

impl<R: Rules> Draughts<R> {
    /// The game with the options' draw count and notation.
    pub fn new(opts: impl Into<DraughtsOptions>) -> Self {
        let opts = opts.into();
        Draughts {
            draw_plies: 2 * opts.draw_moves.unwrap_or(R::DEFAULT_DRAW_MOVES),
            algebraic: R::ALGEBRAIC && opts.notation == Notation::Algebraic,
            weights: opts.eval.weights::<R>().map(pattern::compile::<R>),
            tablebase: TablebaseRef(None),
            rules: PhantomData,
        }
    }

    /// The game with `tablebase` as its endgame database.
    pub fn with_tablebase(mut self, tablebase: &'static dyn Tablebase<Position<Bb<R>>>) -> Self {
        self.tablebase = TablebaseRef(Some(tablebase));
        self
    }

    /// The men of both players at the start.
    fn start_men() -> [Bb<R>; 2] {
        let mut men = [Bb::<R>::ZERO; 2];
        for (s, &(lo, hi)) in R::START.iter().enumerate() {
            for sq in lo..hi {
                men[s] |= R::Geo::bit_of(sq);
            }
        }
        men
    }
}

/// Whether a draw rule by material ([`Rules::MATERIAL_DRAWS`]) ends the
/// game in `pos`.
fn material_draw<R: Rules>(pos: &Position<Bb<R>>) -> bool {
    let pieces = [pos.pieces[0].count(), pos.pieces[1].count()];
    let kings = [
        (pos.pieces[0] & pos.kings).count(),
        (pos.pieces[1] & pos.kings).count(),
    ];
    R::MATERIAL_DRAWS.iter().any(|rule| match *rule {
        rules::MaterialDraw::Equal { min, max, plies } => {
            pos.since_capture >= plies
                && pieces[0] == pieces[1]
                && (min..=max).contains(&pieces[0])
                && kings[0] == kings[1]
                && kings[0] >= 1
        }
        rules::MaterialDraw::LoneKing {
            pieces: n,
            long_diagonal,
            plies,
        } => {
            pos.since_capture >= plies
                && (0..2).any(|strong| {
                    let weak = 1 - strong;
                    pieces[strong] == n
                        && kings[strong] >= 1
                        && pieces[weak] == 1
                        && kings[weak] == 1
                        && (!long_diagonal || {
                            let diagonal = long_diagonal_of::<R::Geo>();
                            (pos.pieces[weak] & diagonal).any()
                                && !(pos.pieces[strong] & diagonal).any()
                        })
                })
        }
    })
}

/// The squares with `file == rank`: the long diagonal through a1.
fn long_diagonal_of<G: Geometry>() -> G::BB {
    (0..G::SQUARES)
        .filter(|&sq| {
            let (file, rank) = G::coords(sq);
            file == rank
        })
        .fold(G::BB::default(), |b, sq| b | G::bit_of(sq))
}

impl<R: Rules> Game for Draughts<R> {
    type Position = Position<Bb<R>>;
    type Move = Move<Bb<R>>;

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn descriptor(&self) -> &'static crate::game::Descriptor {
        R::DESCRIPTOR
    }

    fn start(&self) -> Self::Position {
        let [w, b] = Self::start_men();
        Position::new(w, b, Bb::<R>::ZERO, R::FIRST_PLAYER)
    }

    fn to_move(&self, pos: &Self::Position) -> usize {
        pos.side as usize
    }

    #[inline]
    fn generate(&self, pos: &Self::Position, out: &mut MoveList<Self::Move>) {
        movegen::generate::<R>(pos, out)
    }

    #[inline]
    fn count_moves(&self, pos: &Self::Position) -> u64 {
        movegen::count_moves::<R>(pos)
    }

    #[inline]
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position {
        let mut next = pos.play(mv);
        if R::MEN_STEP_BACK && !mv.is_capture() && !mv.promote && !pos.kings.has(mv.from as u32) {
            // A man step that a man step can undo keeps the window open.
            let back = Bb::<R>::bit(mv.from as u32);
            let to = Bb::<R>::bit(mv.to as u32);
            if R::MAN_STEP_DIRS[pos.side as usize & 1]
                .iter()
                .any(|&d| <R::Geo as Geometry>::step(to, d) == back)
            {
                next.window = pos.window.saturating_add(1);
            }
        }
        next
    }

    /// From, to and the number of pieces taken: cheap, and the same move
    /// in different positions gets the same key.
    #[inline]
    fn move_key(&self, _pos: &Self::Position, mv: Self::Move) -> u64 {
        // A quiet move takes none: no count (the default target counts
        // bits in software, and the picker keys every move of a node).
        let taken = if mv.captured.any() {
            mv.captured.count() as u64
        } else {
            0
        };
        mv.from as u64 | (mv.to as u64) << 8 | taken << 16
    }

    #[inline]
    fn hash(&self, pos: &Self::Position) -> u64 {
        pos.hash
    }

    fn hash_from_scratch(&self, pos: &Self::Position) -> u64 {
        pos.compute_hash()
    }

    #[inline]
    fn is_noisy(&self, _pos: &Self::Position, mv: Self::Move) -> bool {
        mv.is_capture()
    }

    #[inline]
    fn is_unstable(&self, pos: &Self::Position) -> bool {
        movegen::has_capture::<R>(pos)
    }

    #[inline]
    fn is_threatened(&self, pos: &Self::Position) -> bool {
        movegen::opponent_has_capture::<R>(pos)
    }

    #[inline]
    fn promotions(&self, pos: &Self::Position, out: &mut MoveList<Self::Move>) {
        movegen::generate_promotions::<R>(pos, out)
    }

    fn reductions(&self) -> Reductions {
        Reductions::Steps
    }

    /// On the boards of more than 32 squares (international, turkish,
    /// hex): measured there at about +33, +37 and +17 Elo (600, 400 and 400
    /// games); on the 8x8 diagonal boards it gained nothing (english +14,
    /// brazilian -15, spanish +2; lab/2026-12-01-late-move-pruning.md).
    fn prunes_late_moves(&self) -> bool {
        <R::Geo as Geometry>::SQUARES > LMP_MIN_SQUARES
    }

    fn outcome(&self, pos: &Self::Position) -> Option<Outcome> {
        // The goals other than "no legal move loses" (constants: free
        // for the games without them).
        if R::CROWNING_WINS && pos.kings.any() {
            // In play only the last move can have crowned: the side that
            // made it, unless a set-up position gave the other side one.
            let last = 1 - pos.side as usize;
            let winner = if (pos.kings & pos.pieces[last]).any() {
                last
            } else {
                1 - last
            };
            return Some(Outcome::Win(winner));
        }
        if R::NO_MOVE_WINS && movegen::count_moves::<R>(pos) == 0 {
            return Some(Outcome::Win(pos.side as usize));
        }
        if self.draw_plies > 0
            && ((pos.reversible >= self.draw_plies
                && !(R::DRAW_KINGS_ONLY && (pos.occupied() & !pos.kings).any()))
                || (!R::MATERIAL_DRAWS.is_empty() && material_draw::<R>(pos)))
        {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn reversible_plies(&self, pos: &Self::Position) -> u32 {
        pos.window
    }

    #[inline]
    fn evaluate(&self, pos: &Self::Position) -> Score {
        match self.weights {
            Some(c) => pattern::evaluate_compiled::<R>(pos, c),
            // Antidraughts' goal is the reverse: the hand evaluation's
            // material and advancement count against the side that has
            // them (trained weights learn the sign themselves).
            None if R::NO_MOVE_WINS => -eval::evaluate::<R>(pos),
            None => eval::evaluate::<R>(pos),
        }
    }

    #[inline]
    fn tablebase(&self) -> Option<&'static dyn Tablebase<Self::Position>> {
        self.tablebase.0
    }

    fn parse_move(&self, pos: &Self::Position, text: &str) -> ParseResult<Self::Move> {
        notation::parse_move::<R>(pos, text)
    }

    fn format_move(&self, _pos: &Self::Position, mv: Self::Move) -> String {
        notation::format_move::<R>(&mv, self.algebraic)
    }

    fn parse_fen(&self, text: &str) -> ParseResult<Self::Position> {
        notation::parse_fen::<R>(text)
    }

    fn format_fen(&self, pos: &Self::Position) -> String {
        notation::format_fen::<R>(pos, self.algebraic)
    }

    fn parse_hub_position(&self, text: &str) -> ParseResult<Self::Position> {
        notation::parse_hub::<R>(text)
    }

    fn format_hub_position(&self, pos: &Self::Position) -> String {
        notation::format_hub::<R>(pos)
    }
}

/// International draughts.
pub type InternationalGame = Draughts<International>;
/// Brazilian draughts.
pub type BrazilianGame = Draughts<Brazilian>;
/// English draughts.
pub type EnglishGame = Draughts<English>;
/// Spanish draughts.
pub type SpanishGame = Draughts<Spanish>;
/// Turkish draughts, promotion at the end (`turkish-promotion=end`).
pub type TurkishGame = Draughts<Turkish>;
/// Turkish draughts, promotion mid-capture (`turkish-promotion=immediate`).
pub type TurkishImmediateGame = Draughts<TurkishImmediate>;
/// Hexagonal draughts.
pub type HexGame = Draughts<Hex>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese::Chinese;

    /// Late move pruning is on where it was measured to gain (the boards
    /// of more than 32 squares) and off elsewhere (docs/strength.md).
    #[test]
    fn late_moves_are_pruned_on_the_large_boards_only() {
        assert!(InternationalGame::default().prunes_late_moves());
        assert!(TurkishGame::default().prunes_late_moves());
        assert!(TurkishImmediateGame::default().prunes_late_moves());
        assert!(HexGame::default().prunes_late_moves());
        assert!(!BrazilianGame::default().prunes_late_moves());
        assert!(!EnglishGame::default().prunes_late_moves());
        assert!(!SpanishGame::default().prunes_late_moves());
        let chinese = Chinese::new(crate::chinese::ChineseOptions::default()).expect("a game");
        assert!(!chinese.prunes_late_moves());
    }

    /// The threat test looks at the player not to move: white 32 can
    /// take black 27 (landing on 21), black 27 cannot take 32 (38 is
    /// occupied).
    #[test]
    fn a_threat_is_a_capture_the_opponent_could_make() {
        let game = InternationalGame::default();
        let white = game.parse_fen("W:W32,38:B27").expect("fen");
        assert!(game.is_unstable(&white));
        assert!(!game.is_threatened(&white));
        let black = game.parse_fen("B:W32,38:B27").expect("fen");
        assert!(!game.is_unstable(&black));
        assert!(game.is_threatened(&black));
        let quiet = game.parse_fen("W:W46:B5").expect("fen");
        assert!(!game.is_threatened(&quiet));
    }
}
