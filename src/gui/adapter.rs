//! The engine-facing part of the GUI server, and the only one: a game
//! (root, moves played, the position shown) behind a game-independent
//! trait object, and the search of the position shown through the engine
//! facade ([`crate::session::Session`]). Everything else in `crate::gui`
//! speaks square numbers and move text.

use crate::game::{Game, MoveList, Outcome, ParseError, ParseResult};
use crate::search::{Control, Info, Limits};
use crate::session::review::{self, Mark};
use crate::session::{self, format};
use crate::variant::{GameVisitor, Options, dispatch};
use serde::Serialize;

/// The transposition table of a GUI search, MiB (one search at a time).
const HASH_MIB: usize = 32;

/// A legal move as the page needs it: its Hub text and the squares it
/// touches. `from`/`to` are `None` only for a chinese `pass`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveView {
    pub text: String,
    pub from: Option<usize>,
    pub to: Option<usize>,
    pub captured: Vec<usize>,
}

impl MoveView {
    /// Splits a move in Hub form (`32-28`, `28x19x23x24`, `113*91`, `pass`)
    /// into its squares. The GUI always plays with numeric notation.
    pub fn from_text(text: &str) -> MoveView {
        let nums: Vec<usize> = text
            .split(['-', 'x', '*'])
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        MoveView {
            text: text.to_string(),
            from: nums.first().copied(),
            to: nums.get(1).copied(),
            captured: nums.get(2..).map(<[usize]>::to_vec).unwrap_or_default(),
        }
    }
}

/// One report of a running search, ready for the page.
#[derive(Clone, Debug, Serialize)]
pub struct SearchInfo {
    pub depth: u32,
    /// In men, as protocol.md prints it (wins are 100 - plies/100).
    pub score: String,
    pub nodes: u64,
    pub nps: u64,
    pub time: f64,
    pub pv: Vec<MoveView>,
    /// The rank of this line (1 for the best).
    pub multipv: usize,
}

/// One position of a game analysis, for the score graph.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReviewPoint {
    /// Moves played before this position.
    pub ply: usize,
    /// In men from the first player's view (player 0).
    pub score: f64,
    pub depth: u32,
    /// The best move here (Hub form), if the game goes on.
    pub best: Option<String>,
    /// The mark of the move that led here, and the better move then.
    pub mark: Option<Mark>,
    pub better: Option<String>,
    /// What that move lost, in men (two players).
    pub loss: Option<f64>,
}

/// A game analysis of the whole line, to run on another thread: it reports
/// its progress (positions done, of how many) and returns one point per
/// position (fewer when stopped).
pub type ReviewJob =
    Box<dyn FnOnce(&Control, &mut dyn FnMut(usize, usize)) -> Vec<ReviewPoint> + Send + 'static>;

/// The position shown, as the page needs it.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    pub fen: String,
    pub hub: String,
    pub to_move: usize,
    pub legal: Vec<MoveView>,
    /// Why the game is over (`None` while it goes on).
    pub result: Option<GameEnd>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameEnd {
    /// The winning player (index in turn order), `None` for a draw.
    pub winner: Option<usize>,
    pub reason: String,
}

/// A search of the current position, to run on another thread: it reports
/// each iteration and returns the best move's Hub text.
pub type SearchJob =
    Box<dyn FnOnce(&Control, &mut dyn FnMut(SearchInfo)) -> Option<String> + Send + 'static>;

/// One game in the GUI: a root position and a line of moves from it, of
/// which the first `ply` are shown.
pub trait Session: Send {
    fn players(&self) -> usize;
    /// The player who moves first in the variant's start position.
    fn first_player(&self) -> usize;
    /// The position after the first `ply` moves.
    fn snapshot(&self) -> Snapshot;
    /// Every move of the line, in Hub form.
    fn line(&self) -> Vec<String>;
    /// The line in PDN's short form (`28x19` where that names one move).
    fn pdn_line(&self) -> Vec<String>;
    fn ply(&self) -> usize;
    /// The root as FEN when it is not the start position.
    fn custom_root(&self) -> Option<String>;
    /// The Hub `pos` line of the shown position for another engine: the
    /// root and the moves to it, so that the engine knows the game's
    /// repetitions and draw counts, not only the position.
    fn engine_position(&self) -> String;
    /// The player to move at the root.
    fn root_to_move(&self) -> usize;
    /// Plays a move at the shown position, cutting the line there.
    fn play(&mut self, text: &str) -> ParseResult<()>;
    /// Shows the position after `ply` moves of the line.
    fn goto(&mut self, ply: usize) -> ParseResult<()>;
    /// A new root (FEN or Hub string, empty for the start) and line.
    fn load(&mut self, root: &str, moves: &[String]) -> ParseResult<()>;
    /// The search of the shown position.
    fn search_job(&self, limits: Limits) -> SearchJob;
    /// The analysis of every position of the line.
    fn review_job(&self, limits: Limits) -> ReviewJob;
}

struct GameSession<G: Game> {
    game: G,
    root: G::Position,
    custom: bool,
    moves: Vec<G::Move>,
    /// `positions[i]` is the position after `i` moves (`positions[0]` the root).
    positions: Vec<G::Position>,
    ply: usize,
}

impl<G: Game> GameSession<G> {
    fn new(game: G) -> Self {
        let root = game.start();
        GameSession {
            game,
            root: root.clone(),
            custom: false,
            moves: Vec::new(),
            positions: vec![root],
            ply: 0,
        }
    }

    fn shown(&self) -> &G::Position {
        &self.positions[self.ply]
    }

    /// Hashes of the positions before the shown one, oldest first.
    fn history(&self) -> Vec<u64> {
        self.positions[..self.ply]
            .iter()
            .map(|p| self.game.hash(p))
            .collect()
    }

    fn end(&self, legal: &MoveList<G::Move>) -> Option<GameEnd> {
        let g = &self.game;
        let pos = self.shown();
        match g.outcome(pos) {
            Some(Outcome::Win(p)) => {
                return Some(GameEnd {
                    winner: Some(p),
                    reason: "won by the rules".into(),
                });
            }
            Some(Outcome::Draw) => {
                return Some(GameEnd {
                    winner: None,
                    reason: "the move-count rule ended the game".into(),
                });
            }
            None => {}
        }
        if legal.is_empty() {
            let n = g.num_players();
            let loser = g.to_move(pos);
            return Some(GameEnd {
                winner: (n == 2).then_some(1 - loser.min(1)),
                reason: "no legal move".into(),
            });
        }
        // Threefold repetition, within the reversible plies.
        let window = (g.reversible_plies(pos) as usize).min(self.ply);
        let h = g.hash(pos);
        let count = self.positions[self.ply - window..=self.ply]
            .iter()
            .filter(|p| g.hash(p) == h)
            .count();
        (count >= 3).then(|| GameEnd {
            winner: None,
            reason: "threefold repetition".into(),
        })
    }
}

impl<G: Game> Session for GameSession<G> {
    fn players(&self) -> usize {
        self.game.num_players()
    }

    fn first_player(&self) -> usize {
        self.game.to_move(&self.game.start())
    }

    fn snapshot(&self) -> Snapshot {
        let g = &self.game;
        let pos = self.shown();
        let mut list = MoveList::new();
        g.generate(pos, &mut list);
        let result = self.end(&list);
        let legal = if result.is_some() {
            Vec::new()
        } else {
            list.iter()
                .map(|&m| MoveView::from_text(&g.format_move(pos, m)))
                .collect()
        };
        Snapshot {
            fen: g.format_fen(pos),
            hub: g.format_hub_position(pos),
            to_move: g.to_move(pos),
            legal,
            result,
        }
    }

    fn line(&self) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(&m, p)| self.game.format_move(p, m))
            .collect()
    }

    fn pdn_line(&self) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(&m, p)| crate::tournament::play::short_move(&self.game, p, m))
            .collect()
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn custom_root(&self) -> Option<String> {
        self.custom.then(|| self.game.format_fen(&self.root))
    }

    fn engine_position(&self) -> String {
        use crate::hubwire::quote;
        let mut line = format!(
            "pos pos={}",
            quote(&self.game.format_hub_position(&self.root))
        );
        if self.ply > 0 {
            let moves = self.line()[..self.ply].join(" ");
            line.push_str(&format!(" moves={}", quote(&moves)));
        }
        line
    }

    fn root_to_move(&self) -> usize {
        self.game.to_move(&self.root)
    }

    fn play(&mut self, text: &str) -> ParseResult<()> {
        let mut list = MoveList::new();
        self.game.generate(self.shown(), &mut list);
        if self.end(&list).is_some() {
            return Err(ParseError::new("the game is over"));
        }
        let mv = self.game.parse_move(self.shown(), text)?;
        let next = self.game.play(self.shown(), mv);
        self.moves.truncate(self.ply);
        self.positions.truncate(self.ply + 1);
        self.moves.push(mv);
        self.positions.push(next);
        self.ply += 1;
        Ok(())
    }

    fn goto(&mut self, ply: usize) -> ParseResult<()> {
        if ply > self.moves.len() {
            return Err(ParseError(format!(
                "ply {ply} is beyond the end of the game ({} moves)",
                self.moves.len()
            )));
        }
        self.ply = ply;
        Ok(())
    }

    fn load(&mut self, root: &str, moves: &[String]) -> ParseResult<()> {
        let g = self.game;
        let root = root.trim();
        let start = if root.is_empty() {
            g.start()
        } else if root.contains(':') {
            g.parse_fen(root)
                .map_err(|e| ParseError(format!("bad FEN: {e}")))?
        } else {
            g.parse_hub_position(root)
                .map_err(|e| ParseError(format!("bad position string: {e}")))?
        };
        let mut fresh = GameSession::new(g);
        fresh.custom = start != g.start();
        fresh.root = start.clone();
        fresh.positions = vec![start];
        for (i, m) in moves.iter().enumerate() {
            fresh
                .play(m)
                .map_err(|e| ParseError(format!("move {} '{m}': {e}", i + 1)))?;
        }
        *self = fresh;
        Ok(())
    }

    fn review_job(&self, limits: Limits) -> ReviewJob {
        self.review(limits)
    }

    fn search_job(&self, limits: Limits) -> SearchJob {
        let game = self.game;
        let root = self.shown().clone();
        let history = self.history();
        Box::new(move |control, report| {
            let mut engine = session::Session::new(game, HASH_MIB, 1);
            engine.set_root(root.clone(), history);
            let mut on_info = |i: &Info<G::Move>| {
                let pv = format::pv(&game, &root, &i.pv);
                report(SearchInfo {
                    depth: i.depth,
                    score: format::score(i.score),
                    nodes: i.nodes,
                    nps: if i.time > 0.0 {
                        (i.nodes as f64 / i.time) as u64
                    } else {
                        0
                    },
                    time: i.time,
                    pv: pv.iter().map(|t| MoveView::from_text(t)).collect(),
                    multipv: i.multipv,
                });
            };
            let r = engine.search(&limits, control, &mut on_info);
            let mut list = MoveList::new();
            game.generate(&root, &mut list);
            let best = r.best.filter(|b| list.iter().any(|m| m == b));
            best.or_else(|| list.first().copied())
                .map(|m| game.format_move(&root, m))
        })
    }
}

impl<G: Game> GameSession<G> {
    fn review(&self, limits: Limits) -> ReviewJob {
        let game = self.game;
        let positions = self.positions.clone();
        let played = self.line();
        Box::new(move |control, progress| {
            let evals = review::evaluate(game, &positions, &limits, HASH_MIB, control, progress);
            let players = game.num_players();
            evals
                .iter()
                .enumerate()
                .map(|(ply, e)| {
                    let judged = ply
                        .checked_sub(1)
                        .and_then(|i| review::judge(&evals, i, &played[i], players));
                    let j = judged.unwrap_or(review::MoveJudgement {
                        loss: None,
                        mark: None,
                        better: None,
                    });
                    ReviewPoint {
                        ply,
                        score: review::white_view(e),
                        depth: e.depth,
                        best: e.best.clone(),
                        mark: j.mark,
                        better: j.better,
                        loss: j.loss.map(|l| l as f64 / 100.0),
                    }
                })
                .collect()
        })
    }
}

struct Build;

impl GameVisitor for Build {
    type Output = Box<dyn Session>;
    fn visit<G: Game>(self, game: G) -> Box<dyn Session> {
        Box::new(GameSession::new(game))
    }
}

/// A session of the game `opts` selects, at its start position.
pub fn new_session(opts: &Options) -> ParseResult<Box<dyn Session>> {
    dispatch(opts, Build)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn move_text_splits_into_squares() {
        let m = MoveView::from_text("28x19x23x24");
        assert_eq!((m.from, m.to), (Some(28), Some(19)));
        assert_eq!(m.captured, vec![23, 24]);
        let p = MoveView::from_text("pass");
        assert_eq!((p.from, p.to), (None, None));
        assert_eq!(MoveView::from_text("113*91").to, Some(91));
    }

    #[test]
    fn sessions_play_take_back_and_reject_illegal_moves() {
        let mut s = new_session(&Options::new(Variant::English)).unwrap();
        let first = s.snapshot().legal[0].text.clone();
        s.play(&first).unwrap();
        assert_eq!(s.ply(), 1);
        assert!(s.play("1-99").is_err());
        s.goto(0).unwrap();
        assert_eq!(s.line(), vec![first]);
        assert!(s.goto(2).is_err());
        assert!(s.load("B:W1:B2", &[]).is_err());
    }

    /// Another engine gets the root and the moves to the shown position
    /// (its repetitions and draw counts), cut where the board is shown.
    #[test]
    fn an_external_engine_gets_the_moves_to_the_shown_position() {
        let mut s = new_session(&Options::new(Variant::International)).unwrap();
        let start = s.engine_position();
        assert!(start.starts_with("pos pos=") && !start.contains("moves="));
        s.play("32-28").unwrap();
        s.play("19-23").unwrap();
        s.play("28x19").unwrap();
        assert_eq!(
            s.engine_position(),
            format!("{start} moves=\"32-28 19-23 28x19x23\"")
        );
        s.goto(1).unwrap();
        assert_eq!(s.engine_position(), format!("{start} moves=32-28"));
    }
}
