//! The game abstraction that everything above the rules is generic over:
//! perft, search, bench, the Hub engine and the match runner.
//!
//! A game is a small `Copy` value. For most draughts variants it is a
//! zero-sized type; games with run-time options (Chinese checkers, the draw
//! counts, Turkish promotion) carry those options in the value. The protocol
//! picks the game once by name ([`crate::variant`]) and from there on all code
//! is monomorphised: no dynamic dispatch and no variant checks in hot loops.

pub mod descriptor;
pub mod movelist;
pub mod text;
pub mod zobrist;

pub use descriptor::Descriptor;
pub use movelist::MoveList;

use std::fmt;

/// A search score in centi-men (100 = one man), from the view of the player
/// to move.
pub type Score = i32;

/// The score of a won position reached at ply 0; a win in `n` plies scores
/// `SCORE_WIN - n`.
pub const SCORE_WIN: Score = 30_000;
/// Scores at or beyond this magnitude are wins or losses.
pub const SCORE_WIN_MIN: Score = SCORE_WIN - 1_000;
/// Larger than any score; the bound of a full window.
pub const SCORE_INF: Score = 32_000;
/// A drawn position.
pub const SCORE_DRAW: Score = 0;
/// Scores from this up to [`SCORE_WIN_MIN`] are endgame-database wins
/// (losses below the negation): like wins they count plies from the root,
/// and the transposition table stores them relative to the node. The
/// database lays its ranks and distances out in this band (egdb/).
pub const SCORE_EGDB_MIN: Score = SCORE_WIN_MIN - 16 * 1024;

/// The value of a position for the player to move, as an endgame
/// database knows it ([`Tablebase`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

impl Wdl {
    /// The 2-bit code of the files (0 is never written).
    pub fn code(self) -> u8 {
        match self {
            Wdl::Win => 1,
            Wdl::Loss => 2,
            Wdl::Draw => 3,
        }
    }

    pub fn from_code(c: u8) -> Option<Wdl> {
        match c & 3 {
            1 => Some(Wdl::Win),
            2 => Some(Wdl::Loss),
            3 => Some(Wdl::Draw),
            _ => None,
        }
    }

    /// The value for the other player.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An endgame database as the search consults it (as a chess search calls
/// its tablebase probe; the position never does). Implemented by egdb/ for
/// the draughts rule sets; a game hands one out by [`Game::tablebase`].
pub trait Tablebase<P>: Sync {
    /// Whether the database may answer at all now (a search that starts
    /// when it is off does not ask it). Default: yes.
    fn enabled(&self) -> bool {
        true
    }

    /// The value of `pos` for the player to move, and its distance to
    /// conversion in plies when one is stored, when the database is on,
    /// holds `pos`, and no capture is pending.
    fn probe(&self, pos: &P) -> Option<(Wdl, Option<u8>)>;

    /// The search score of the database's value of `pos` at `ply` from the
    /// root (wins count plies like mates, in the band from
    /// [`SCORE_EGDB_MIN`], and order by distance to conversion), under the
    /// conditions of [`Tablebase::probe`]. `eval`, the static evaluation of
    /// the player to move, is asked only for a win or loss without a stored
    /// distance.
    fn score(&self, pos: &P, ply: usize, eval: &dyn Fn() -> Score) -> Option<Score>;
}

/// The most moves a position of any game can have (de-duplicated).
pub const MAX_MOVES: usize = 512;

/// How a game ends without looking at the move list (that case, "no legal
/// move", is a loss in every draughts game and handled by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player with this index (see [`Game::to_move`]) has won.
    Win(usize),
    /// Drawn by a rule that needs no history (a move-count rule).
    Draw,
}

/// The score for `player` of a game that ended without a winner, when the
/// game ranks its players by [`Game::distance_to_win`] (chinese checkers
/// after `max-moves`, rules.md: least distance first). First place alone is
/// a win in `ply` plies, last place alone a loss; the places between (and
/// ties) are spread evenly between them by the number of players finished
/// behind less the number ahead, as the match runner's linear points are.
/// `None` when the game has no such ranking (the result is a draw).
pub fn ranked_score<G: Game>(
    game: &G,
    pos: &G::Position,
    player: usize,
    ply: usize,
) -> Option<Score> {
    let n = game.num_players();
    let mine = game.distance_to_win(pos, player)?;
    let (mut ahead, mut behind) = (0i32, 0i32);
    for p in (0..n).filter(|&p| p != player) {
        let d = game.distance_to_win(pos, p)?;
        if d < mine {
            ahead += 1;
        } else if d > mine {
            behind += 1;
        }
    }
    let others = (n as i32 - 1).max(1);
    let win = SCORE_WIN - ply as Score;
    Some(if behind == others {
        win
    } else if ahead == others {
        -win
    } else {
        (behind - ahead) * (SCORE_WIN_MIN - 1) / others
    })
}

/// The score of a game that ended with `o`, for `player`, `ply` plies from
/// the root: a win or a loss by its distance, a game ended by the move limit
/// by [`ranked_score`]. `None` for a draw that has no ranking (the caller
/// scores it: a draw, or the evaluation where repetition is not a draw).
pub fn outcome_score<G: Game>(
    game: &G,
    pos: &G::Position,
    o: Outcome,
    player: usize,
    ply: usize,
) -> Option<Score> {
    let win = SCORE_WIN - ply as Score;
    match o {
        Outcome::Win(p) if p == player => Some(win),
        Outcome::Win(_) => Some(-win),
        Outcome::Draw => ranked_score(game, pos, player, ply),
    }
}

/// How a game's search reduces its late quiet moves (`Game::reductions`);
/// each family's choice is measured in docs/strength.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reductions {
    /// From depth 3 and the fourth move: ln(depth) * ln(moves) / 2 plies,
    /// one less at a PV node and for a killer move, none into or out of a
    /// pending capture.
    Logarithmic,
    /// From depth 2, every quiet move after the first (after the third at
    /// a PV node): one ply, and two from the fifth move of a null-window
    /// node on.
    Steps,
}

/// An error in text that came from outside: a position, a move, an option.
/// The message says what is wrong and where, so that a user can act on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl ParseError {
    pub fn new(msg: impl Into<String>) -> Self {
        ParseError(msg.into())
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl From<String> for ParseError {
    fn from(s: String) -> Self {
        ParseError(s)
    }
}

impl From<&str> for ParseError {
    fn from(s: &str) -> Self {
        ParseError(s.to_string())
    }
}

pub type ParseResult<T> = Result<T, ParseError>;

/// One game (a rule set with its options).
///
/// Players are numbered from 0 in turn order. In the two-sided draughts
/// games 0 is White and 1 is Black, whoever moves first (Black in english).
pub trait Game: Copy + Send + Sync + fmt::Debug + 'static {
    /// A full position: pieces, player to move, the hash and the counters the
    /// draw rules need. Small and copied, never undone.
    type Position: Clone + PartialEq + Eq + Send + Sync + fmt::Debug;
    /// A move. Two moves are equal exactly when the rules say they are the
    /// same move (draughts: same from, to and captured set).
    type Move: Copy + PartialEq + Eq + Send + Sync + fmt::Debug + Default + 'static;

    /// The variant's name as the protocol spells it (`international`, ...).
    fn name(&self) -> &'static str;

    /// Everything about the game that is not its rules (names, PDN, the
    /// shipped book, ...). Games outside the registry (the tests' toy
    /// games) return [`descriptor::OTHER`].
    fn descriptor(&self) -> &'static Descriptor;

    /// The start position.
    fn start(&self) -> Self::Position;

    /// How many players take part (2 for every draughts game).
    fn num_players(&self) -> usize {
        2
    }

    /// The index of the player to move.
    fn to_move(&self, pos: &Self::Position) -> usize;

    /// All legal moves, de-duplicated. An empty list means the player to move
    /// has no legal move (a loss in draughts). Games that pass instead of
    /// losing (chinese checkers) generate an explicit pass move.
    fn generate(&self, pos: &Self::Position, out: &mut MoveList<Self::Move>);

    /// The number of legal moves (perft's bulk count at the last ply).
    fn count_moves(&self, pos: &Self::Position) -> u64 {
        let mut list = MoveList::new();
        self.generate(pos, &mut list);
        list.len() as u64
    }

    /// The position after `mv`, which must be legal in `pos`.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// A number that stands for what `mv` does (the search's history
    /// heuristic indexes a table with it). Equal moves in different
    /// positions should get equal keys where possible. The default, the
    /// Zobrist difference the move makes, is exact but plays the move; a game
    /// may override it with something cheaper (for example from and to).
    fn move_key(&self, pos: &Self::Position, mv: Self::Move) -> u64 {
        self.hash(&self.play(pos, mv)) ^ self.hash(pos)
    }

    /// The Zobrist hash of the position (kept incrementally by `play`).
    fn hash(&self, pos: &Self::Position) -> u64;

    /// The hash recomputed from scratch (tests compare it with `hash`).
    fn hash_from_scratch(&self, pos: &Self::Position) -> u64;

    /// How the search reduces late quiet moves.
    fn reductions(&self) -> Reductions {
        Reductions::Logarithmic
    }

    /// Whether the two-player search prunes late moves near the horizon
    /// ([`crate::search::ordering::late_move_limit`]): measured for the
    /// draughts games (docs/strength.md); chinese checkers measured no gain.
    fn prunes_late_moves(&self) -> bool {
        false
    }

    /// True for moves the quiescence search must look at (captures).
    fn is_noisy(&self, pos: &Self::Position, mv: Self::Move) -> bool;

    /// True when a static evaluation of `pos` would be wrong because a
    /// forced sequence is pending (in draughts: the player to move must
    /// capture).
    fn is_unstable(&self, pos: &Self::Position) -> bool;

    /// True when the player not to move could capture if it were its turn:
    /// a threat that a static evaluation of `pos` does not see. Default:
    /// never (games without captures).
    fn is_threatened(&self, _pos: &Self::Position) -> bool {
        false
    }

    /// The quiet moves the quiescence search also plays out from a quiet
    /// position, against standing pat on the static evaluation: in
    /// draughts, a man's step onto its crowning row. `out` is cleared
    /// first. Default: none.
    fn promotions(&self, _pos: &Self::Position, out: &mut MoveList<Self::Move>) {
        out.clear();
    }

    /// A result decided by the position alone: a completed chinese checkers
    /// corner, a draw by a move-count rule. `None` while the game goes on.
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome>;

    /// How far `player` still is from winning, for ranking the players of
    /// a game that ended without a winner (chinese checkers after
    /// `max-moves`, rules.md) and the losers of a won game: lower is closer,
    /// 0 for a player who has reached the goal. `None` (the default) for
    /// games without such a measure: their unfinished games are draws.
    fn distance_to_win(&self, _pos: &Self::Position, _player: usize) -> Option<u32> {
        None
    }

    /// Plies since the last irreversible move (capture, man move, ...). No
    /// position older than that can repeat, so repetition checks stop there.
    fn reversible_plies(&self, pos: &Self::Position) -> u32;

    /// Whether a repeated position is a draw by the rules (every draughts
    /// game, rules.md). Where it is not (chinese checkers), the search
    /// scores a repetition by the evaluation, as a line that makes no
    /// progress, instead of as a draw a player behind would aim for.
    fn repetition_is_draw(&self) -> bool {
        true
    }

    /// A static evaluation from the view of the player to move, in centi-men.
    fn evaluate(&self, pos: &Self::Position) -> Score;

    /// The evaluation from the view of `player` (multi-player searches).
    fn evaluate_for(&self, pos: &Self::Position, player: usize) -> Score {
        let s = self.evaluate(pos);
        if player == self.to_move(pos) { s } else { -s }
    }

    /// The position with the turn handed to the next player without a move
    /// (a null move), for searches that let one opponent reply out of turn
    /// (Best-Reply Search). `None` when the game has no such notion; the
    /// caller then falls back to a search that needs none.
    fn pass_turn(&self, _pos: &Self::Position) -> Option<Self::Position> {
        None
    }

    /// What a one-ply greedy player maximises for `player` after its move
    /// (`search=greedy`). Default: [`Game::evaluate_for`].
    fn greedy_value(&self, pos: &Self::Position, player: usize) -> Score {
        self.evaluate_for(pos, player)
    }

    /// The endgame database the search consults for this game ([`Tablebase`]),
    /// when one is attached (the draughts games built by
    /// [`crate::variant::dispatch`]). The default: none.
    fn tablebase(&self) -> Option<&'static dyn Tablebase<Self::Position>> {
        None
    }

    /// Parses a move in any accepted form and matches it against the legal
    /// moves of `pos`; illegal and ambiguous moves are errors.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> ParseResult<Self::Move>;

    /// The move in Hub form (captures list every captured square).
    fn format_move(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// Parses the variant's FEN (PDN FEN for draughts).
    fn parse_fen(&self, text: &str) -> ParseResult<Self::Position>;

    /// The position as FEN.
    fn format_fen(&self, pos: &Self::Position) -> String;

    /// Parses the Hub `pos=` string of protocol.md.
    fn parse_hub_position(&self, text: &str) -> ParseResult<Self::Position>;

    /// The position as a Hub `pos=` string.
    fn format_hub_position(&self, pos: &Self::Position) -> String;
}

/// The longest prefix of `line` that is a legal sequence from `root` (a
/// Best-Reply line skips players, so it is legal only up to the first
/// reply that is not the next player's).
pub fn legal_prefix<G: Game>(game: &G, root: &G::Position, line: &[G::Move]) -> Vec<G::Move> {
    let mut out = Vec::with_capacity(line.len());
    let mut pos = root.clone();
    let mut list = MoveList::new();
    for &mv in line {
        list.clear();
        game.generate(&pos, &mut list);
        if !list.iter().any(|m| *m == mv) {
            break;
        }
        out.push(mv);
        pos = game.play(&pos, mv);
    }
    out
}

/// Helpers shared by the tests of the games, the search and the training.
#[cfg(test)]
pub mod testing {
    use super::{Game, MoveList, zobrist};

    /// A random game of `game`: its start, then the position after each
    /// of up to `plies` uniformly random moves drawn from the stream
    /// `seed` (fewer when the game ends or a player has no move).
    pub fn random_line<G: Game>(game: &G, plies: usize, seed: &mut u64) -> Vec<G::Position> {
        let mut pos = game.start();
        let mut out = vec![pos.clone()];
        let mut list = MoveList::new();
        for _ in 0..plies {
            list.clear();
            game.generate(&pos, &mut list);
            if list.is_empty() || game.outcome(&pos).is_some() {
                break;
            }
            let i = (zobrist::splitmix64(seed) % list.len() as u64) as usize;
            pos = game.play(&pos, list[i]);
            out.push(pos.clone());
        }
        out
    }
}
