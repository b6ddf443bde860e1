//! Where games start: openings read from a file, or generated (random legal
//! moves from the start, kept only when a short search finds them
//! balanced), or just the variant's start.

use super::play::Opening;
use crate::game::{Game, MoveList};
use crate::search::{Control, Limits};
use crate::session::Session;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// True for the tokens of a move line that are not moves: move numbers
/// (`1.`, `12...`) and results.
fn is_noise(tok: &str) -> bool {
    let t = tok.trim_end_matches('.');
    (t.len() < tok.len() && t.chars().all(|c| c.is_ascii_digit()))
        || matches!(tok, "*" | "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2")
}

/// Parses an opening file: one opening per line, either a FEN, a FEN
/// followed by moves, or moves from the start (move numbers and results are
/// skipped). Blank lines and lines starting with `#` are ignored.
pub fn parse_openings<G: Game>(game: &G, text: &str) -> Result<Vec<Opening<G>>, String> {
    let start = game.start();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let lineno = i + 1;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // A whole-line FEN (some FENs may hold blanks), else a FEN as the
        // first word, else moves from the start.
        let (root, rest) = if let Ok(p) = game.parse_fen(line) {
            (p, &tokens[tokens.len()..])
        } else if let Ok(p) = game.parse_fen(tokens[0]) {
            (p, &tokens[1..])
        } else {
            (start.clone(), &tokens[..])
        };
        let mut pos = root.clone();
        let mut moves = Vec::new();
        for tok in rest.iter().filter(|t| !is_noise(t)) {
            let mv = game.parse_move(&pos, tok).map_err(|e| {
                format!(
                    "openings line {lineno}: move {} '{tok}' in {}: {e}",
                    moves.len() + 1,
                    game.format_fen(&pos)
                )
            })?;
            pos = game.play(&pos, mv);
            moves.push(mv);
        }
        let mut list = MoveList::new();
        game.generate(&pos, &mut list);
        if list.is_empty() || game.outcome(&pos).is_some() {
            return Err(format!(
                "openings line {lineno}: the game is already over after this opening"
            ));
        }
        out.push(Opening {
            custom_root: root != start,
            root,
            moves,
        });
    }
    if out.is_empty() {
        return Err("the openings file holds no opening".into());
    }
    Ok(out)
}

/// Generates random openings: `plies` random legal moves from the start,
/// kept when a search to `depth` scores the result within `balance` centi-men
/// of equality (after `MAX_TRIES` tries the last one is kept).
pub struct RandomOpenings<G: Game> {
    game: G,
    plies: u32,
    balance: i32,
    depth: u32,
    rng: StdRng,
    session: Session<G>,
}

const MAX_TRIES: u32 = 200;

impl<G: Game> RandomOpenings<G> {
    pub fn new(game: G, plies: u32, balance: i32, depth: u32, seed: u64) -> Self {
        RandomOpenings {
            game,
            plies,
            balance,
            depth,
            rng: StdRng::seed_from_u64(seed),
            session: Session::new(game, 16, 1),
        }
    }

    /// The next opening.
    pub fn next_opening(&mut self) -> Opening<G> {
        let g = self.game;
        let start = g.start();
        let mut list = MoveList::new();
        let mut last = None;
        for _ in 0..MAX_TRIES {
            let mut pos = start.clone();
            let mut moves = Vec::new();
            let mut hashes = vec![g.hash(&pos)];
            let mut ok = true;
            for _ in 0..self.plies {
                list.clear();
                g.generate(&pos, &mut list);
                if list.is_empty() || g.outcome(&pos).is_some() {
                    ok = false;
                    break;
                }
                let mv = list[self.rng.random_range(0..list.len())];
                pos = g.play(&pos, mv);
                hashes.push(g.hash(&pos));
                moves.push(mv);
            }
            list.clear();
            g.generate(&pos, &mut list);
            if !ok || list.is_empty() || g.outcome(&pos).is_some() {
                continue;
            }
            hashes.pop();
            let limits = Limits {
                depth: Some(self.depth),
                multipv: 1,
                ..Limits::default()
            };
            self.session.searcher().new_game();
            self.session.set_root(pos, hashes);
            let r = self.session.search(&limits, &Control::new(), &mut |_| {});
            let opening = Opening {
                root: start.clone(),
                custom_root: false,
                moves,
            };
            if r.score.abs() <= self.balance {
                return opening;
            }
            last = Some(opening);
        }
        log::warn!("no balanced opening in {MAX_TRIES} tries; using an unbalanced one");
        last.unwrap_or(Opening {
            root: start,
            custom_root: false,
            moves: Vec::new(),
        })
    }
}

/// The openings of a match, numbered from 0: fixed ones cycle; generated
/// ones are made in order, so that opening `i` is the same whatever the
/// concurrency.
pub struct Book<G: Game> {
    fixed: Vec<Opening<G>>,
    random: Option<RandomOpenings<G>>,
    generated: Vec<Opening<G>>,
}

impl<G: Game> Book<G> {
    /// Only the variant's start.
    pub fn start_only(game: &G) -> Self {
        Book {
            fixed: vec![Opening {
                root: game.start(),
                custom_root: false,
                moves: Vec::new(),
            }],
            random: None,
            generated: Vec::new(),
        }
    }

    pub fn fixed(openings: Vec<Opening<G>>) -> Self {
        Book {
            fixed: openings,
            random: None,
            generated: Vec::new(),
        }
    }

    pub fn random(generator: RandomOpenings<G>) -> Self {
        Book {
            fixed: Vec::new(),
            random: Some(generator),
            generated: Vec::new(),
        }
    }

    /// Opening number `i`.
    pub fn get(&mut self, i: usize) -> Opening<G> {
        if let Some(generator) = self.random.as_mut() {
            while self.generated.len() <= i {
                let o = generator.next_opening();
                self.generated.push(o);
            }
            return self.generated[i].clone();
        }
        self.fixed[i % self.fixed.len().max(1)].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_and_results_are_noise() {
        assert!(is_noise("1."));
        assert!(is_noise("12..."));
        assert!(is_noise("2-0"));
        assert!(!is_noise("32-28"));
        assert!(!is_noise("28x19"));
        assert!(!is_noise("12"));
    }
}
