//! The engine facade (in the manner of Stockfish's `Engine`): one game, its
//! current position with the history behind it, and the searcher. It speaks
//! no text protocol: the Hub controller, `salto analyse` and the match
//! runner's opening filter all set positions and search through it, and
//! turn its values into text with [`format`].
//!
//! ```text
//! Session::new(game) ─► set_position(Start, moves) ─► search(limits, control, on_info) ─► SearchResult
//! ```

pub mod format;
pub mod review;

use crate::game::{Game, MoveList, ParseError};
use crate::search::Searcher;
use crate::search::{Control, Info, Limits, SearchResult};
use std::fmt;

/// Where a position comes from, before any moves are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start<'a> {
    /// The game's start position.
    Initial,
    /// The game's FEN.
    Fen(&'a str),
    /// A Hub `pos=` string.
    Hub(&'a str),
}

/// Why a position could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The FEN does not parse.
    Fen(ParseError),
    /// The Hub position string does not parse.
    Hub(ParseError),
    /// Move `number` (from 1), `text`, is not legal where it is played.
    Move {
        number: usize,
        text: String,
        error: ParseError,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Fen(e) => write!(f, "bad FEN: {e}"),
            SetupError::Hub(e) => write!(f, "bad position string: {e}"),
            SetupError::Move {
                number,
                text,
                error,
            } => write!(
                f,
                "illegal move {number}: {} ({error})",
                crate::game::text::shorten(text, 40)
            ),
        }
    }
}

impl From<SetupError> for ParseError {
    fn from(e: SetupError) -> Self {
        ParseError(e.to_string())
    }
}

/// The position `start` with `moves` (in any form the game parses) played
/// from it, and the hashes of the positions before it, oldest first (for
/// repetition draws).
pub fn setup<G: Game, S: AsRef<str>>(
    game: &G,
    start: Start<'_>,
    moves: &[S],
) -> Result<(G::Position, Vec<u64>), SetupError> {
    let mut pos = match start {
        Start::Initial => game.start(),
        Start::Fen(f) => game.parse_fen(f).map_err(SetupError::Fen)?,
        Start::Hub(h) => game.parse_hub_position(h).map_err(SetupError::Hub)?,
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let mv = game
            .parse_move(&pos, text)
            .map_err(|error| SetupError::Move {
                number: i + 1,
                text: text.to_string(),
                error,
            })?;
        history.push(game.hash(&pos));
        pos = game.play(&pos, mv);
    }
    Ok((pos, history))
}

/// A search that stands in for the real one in the Hub controller's unit
/// tests: a toy game searched for real ends at once, and those tests need a
/// search that takes wall time and obeys `stop`, `ponder-hit` and the
/// clock. A plain function, so that no trait forwards the searcher's
/// settings.
#[cfg(test)]
pub(crate) type StandIn<G> = fn(
    &<G as Game>::Position,
    &Limits,
    &Control,
    &mut dyn FnMut(&Info<<G as Game>::Move>),
) -> SearchResult<<G as Game>::Move>;

/// One game being played or analysed: the searcher, the current position
/// and the positions before it.
pub struct Session<G: Game> {
    searcher: Searcher<G>,
    root: G::Position,
    history: Vec<u64>,
    #[cfg(test)]
    pub(crate) stand_in: Option<StandIn<G>>,
}

impl<G: Game> Session<G> {
    /// A session at the start position, with a table of `hash_mib` MiB
    /// (allocated at the first search) and `threads` search threads.
    pub fn new(game: G, hash_mib: usize, threads: usize) -> Self {
        Session {
            searcher: Searcher::new(game, hash_mib, threads),
            root: game.start(),
            history: Vec::new(),
            #[cfg(test)]
            stand_in: None,
        }
    }

    pub fn game(&self) -> &G {
        self.searcher.game()
    }

    /// The searcher, for its settings (table size, threads, algorithm,
    /// features) and `new_game`.
    pub fn searcher(&mut self) -> &mut Searcher<G> {
        &mut self.searcher
    }

    /// Sets the position: `start`, then `moves`. On error nothing changes.
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        start: Start<'_>,
        moves: &[S],
    ) -> Result<(), SetupError> {
        let (root, history) = setup(self.game(), start, moves)?;
        self.root = root;
        self.history = history;
        Ok(())
    }

    /// Sets the position to `root`, reached through the positions whose
    /// hashes `history` holds (oldest first).
    pub fn set_root(&mut self, root: G::Position, history: Vec<u64>) {
        self.root = root;
        self.history = history;
    }

    /// The current position.
    pub fn root(&self) -> &G::Position {
        &self.root
    }

    /// The hashes of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> MoveList<G::Move> {
        let mut list = MoveList::new();
        self.game().generate(&self.root, &mut list);
        list
    }

    /// Searches the current position. `on_info` gets each completed
    /// iteration (see [`crate::search::Searcher::search`]).
    pub fn search(
        &mut self,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        #[cfg(test)]
        if let Some(search) = self.stand_in {
            return search(&self.root, limits, control, on_info);
        }
        self.searcher
            .search(&self.root, &self.history, limits, control, on_info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::InternationalGame;

    #[test]
    fn a_bad_move_names_its_number_and_leaves_the_position() {
        let g = InternationalGame::default();
        let mut s = Session::new(g, 1, 1);
        s.set_position(Start::Initial, &["32-28"])
            .expect("a legal move");
        let before = *s.root();
        let e = s
            .set_position(Start::Initial, &["32-28", "32-28"])
            .expect_err("an illegal move");
        assert!(e.to_string().starts_with("illegal move 2: 32-28 ("), "{e}");
        assert_eq!(s.root(), &before);
        assert_eq!(s.history().len(), 1);
        let e = s
            .set_position(Start::Fen("X"), &[] as &[&str])
            .expect_err("bad FEN");
        assert!(e.to_string().starts_with("bad FEN: "), "{e}");
    }
}
