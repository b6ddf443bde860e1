//! The books shipped in the binary (books/*.bin, built with the commands
//! of docs/book.md; each game's descriptor names its own), decoded once on
//! first use.

use super::Book;
use crate::game::Game;
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Each shipped book once decoded (`None`: it did not decode or match).
type Decoded = HashMap<&'static str, Option<Arc<Book>>>;

static DECODED: Lazy<Mutex<Decoded>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// The shipped book of `game`, if one ships and it is for this game's rules
/// (a book that does not decode or does not match is logged and skipped).
pub fn book<G: Game>(game: &G) -> Option<Arc<Book>> {
    let name = game.name();
    let bytes = game.descriptor().book?;
    let mut cache = DECODED.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(name)
        .or_insert_with(
            || match Book::decode(bytes).and_then(|b| b.check_for(game).map(|()| b)) {
                Ok(b) => Some(Arc::new(b)),
                Err(e) => {
                    log::error!("the shipped {name} book is not usable: {e}");
                    None
                }
            },
        )
        .clone()
}
