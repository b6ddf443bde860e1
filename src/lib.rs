//! Salto: a game engine for the jumping games (draughts in several rule sets,
//! hexagonal draughts, chinese checkers), spoken to in the Hub protocol.

pub mod book;
pub mod chinese;
pub mod cli;
pub mod draughts;
pub mod dxp;
pub mod egdb;
pub mod fsutil;
pub mod game;
pub mod gui;
pub mod hubwire;
pub mod learn;
pub mod protocol;
pub mod search;
pub mod session;
pub mod tournament;
pub mod variant;

pub use game::{Game, MoveList, Outcome, ParseError, ParseResult, Score};
pub use variant::{GameVisitor, Options, Variant, dispatch};
