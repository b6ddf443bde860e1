//! The engine for one game: position, move history, searcher, and the search
//! thread. [`Engine<G, B>`] is fully monomorphised; the controller holds it
//! as a `Box<dyn EngineApi>` so that switching games is a rebuild, not a
//! branch.

use super::command::PosArgs;
use super::reply;
use crate::game::{Game, MoveList, ParseError};
use crate::search::{Algorithm, Searcher};
use crate::search::{Control, Info, Limits, SearchResult};
use crate::variant::{GameVisitor, Options};
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

/// The search thread's stack: the search recurses with a move list on each
/// frame (see `crate::search`); only the pages touched are committed.
const SEARCH_STACK: usize = 64 << 20;

/// What the protocol needs from a searcher. [`Searcher`] is the real one;
/// the controller's tests use a slow stand-in to test stop and ping timing.
pub trait Backend<G: Game>: Send + 'static {
    fn build(game: G, hash_mib: usize, threads: usize) -> Self;
    fn set_hash_mib(&mut self, mib: usize);
    fn set_threads(&mut self, threads: usize);
    fn new_game(&mut self);
    fn search(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move>;
    /// The `search` option (multi-player algorithm); ignored by default.
    fn set_algorithm(&mut self, _a: Algorithm) {}
}

impl<G: Game> Backend<G> for Searcher<G> {
    fn build(game: G, hash_mib: usize, threads: usize) -> Self {
        Searcher::new(game, hash_mib, threads)
    }
    fn set_hash_mib(&mut self, mib: usize) {
        Searcher::set_hash_mib(self, mib)
    }
    fn set_threads(&mut self, threads: usize) {
        Searcher::set_threads(self, threads)
    }
    fn new_game(&mut self) {
        Searcher::new_game(self)
    }
    fn search(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        Searcher::search(self, root, history, limits, control, on_info)
    }
    fn set_algorithm(&mut self, a: Algorithm) {
        Searcher::set_algorithm(self, a)
    }
}

/// What starting a search gave.
#[derive(Debug, PartialEq, Eq)]
pub enum GoStart {
    /// The answer is known at once (one legal move): this `done` line.
    Immediate(String),
    /// A search thread runs; it sends `Event::SearchFinished(id)` when done.
    Started,
}

/// The game-independent face of an engine.
pub trait EngineApi: Send {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// Sets the position (`pos`); on error nothing changes.
    fn set_position(&mut self, p: &PosArgs) -> Result<(), ParseError>;
    /// The current position as a Hub string.
    fn hub_position(&self) -> String;
    fn set_hash_mib(&mut self, mib: usize);
    fn set_threads(&mut self, threads: usize);
    fn new_game(&mut self);
    /// The `search` option: the algorithm for more than two players (and
    /// `greedy` for any number).
    fn set_search(&mut self, _a: Algorithm) {}
    /// Starts a search of the current position. `finished` is called from
    /// the search thread when the search is over.
    fn go(
        &mut self,
        limits: Limits,
        ponder: bool,
        out: Sender<String>,
        finished: Box<dyn FnOnce() + Send>,
    ) -> Result<GoStart, ParseError>;
    /// The control of the running search (stop, ponder-hit).
    fn control(&self) -> Arc<Control>;
    /// Waits for the search thread and returns its `done` line (`None` if
    /// no search ran). The caller stops the search first if it must end now.
    fn finish(&mut self) -> Option<String>;
}

/// The engine for game `G` searched by `B`.
pub struct Engine<G: Game, B: Backend<G> = Searcher<G>> {
    game: G,
    backend: Option<B>,
    hash_mib: usize,
    threads: usize,
    root: G::Position,
    /// Hashes of the positions before `root`, oldest first.
    history: Vec<u64>,
    control: Arc<Control>,
    thread: Option<JoinHandle<(B, Option<String>)>>,
    /// The `search` option, applied to a rebuilt backend too.
    algorithm: Algorithm,
}

impl<G: Game, B: Backend<G>> Engine<G, B> {
    pub fn new(game: G, hash_mib: usize, threads: usize) -> Self {
        Engine {
            game,
            backend: Some(B::build(game, hash_mib, threads)),
            hash_mib,
            threads,
            root: game.start(),
            history: Vec::new(),
            control: Arc::new(Control::new()),
            thread: None,
            algorithm: Algorithm::DEFAULT,
        }
    }

    fn backend(&mut self) -> &mut B {
        // The backend is away only while a search thread runs, and the
        // controller never calls into the engine then without `finish`.
        self.finish_thread();
        let (game, hash, threads, a) = (self.game, self.hash_mib, self.threads, self.algorithm);
        self.backend.get_or_insert_with(|| {
            let mut b = B::build(game, hash, threads);
            b.set_algorithm(a);
            b
        })
    }

    fn finish_thread(&mut self) -> Option<String> {
        let handle = self.thread.take()?;
        match handle.join() {
            Ok((backend, done)) => {
                self.backend = Some(backend);
                done
            }
            Err(_) => {
                // The search panicked (a bug, logged by the panic hook):
                // rebuild the searcher and answer with a legal move anyway.
                log::error!("the search thread panicked; rebuilding the searcher");
                let mut b = B::build(self.game, self.hash_mib, self.threads);
                b.set_algorithm(self.algorithm);
                self.backend = Some(b);
                let mut list = MoveList::new();
                self.game.generate(&self.root, &mut list);
                list.first()
                    .map(|m| reply::done(&self.game.format_move(&self.root, *m), None))
            }
        }
    }
}

/// The moves of `pv` from `root` in Hub form, cut at the first move that is
/// not legal (a defensive check: `play` needs legal moves).
pub fn format_pv<G: Game>(game: &G, root: &G::Position, pv: &[G::Move]) -> Vec<String> {
    let line = crate::game::legal_prefix(game, root, pv);
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        out.push(game.format_move(&pos, mv));
        pos = game.play(&pos, mv);
    }
    out
}

/// The `done` line for a search result, checking that the move and the
/// ponder move are legal (falling back to the first legal move).
fn done_line<G: Game>(game: &G, root: &G::Position, r: &SearchResult<G::Move>) -> Option<String> {
    let mut list = MoveList::new();
    game.generate(root, &mut list);
    let best = match r.best {
        Some(b) if list.iter().any(|m| *m == b) => b,
        _ => *list.first()?,
    };
    let after = game.play(root, best);
    let ponder = r.ponder.filter(|p| {
        let mut l2 = MoveList::new();
        game.generate(&after, &mut l2);
        l2.iter().any(|m| m == p)
    });
    let ponder_text = ponder.map(|p| game.format_move(&after, p));
    Some(reply::done(
        &game.format_move(root, best),
        ponder_text.as_deref(),
    ))
}

impl<G: Game, B: Backend<G>> EngineApi for Engine<G, B> {
    fn name(&self) -> &'static str {
        self.game.name()
    }

    fn set_position(&mut self, p: &PosArgs) -> Result<(), ParseError> {
        self.finish_thread();
        let g = self.game;
        let start = if let Some(s) = &p.pos {
            g.parse_hub_position(s)
                .map_err(|e| ParseError(format!("bad position string: {e}")))?
        } else if let Some(f) = &p.fen {
            g.parse_fen(f)
                .map_err(|e| ParseError(format!("bad FEN: {e}")))?
        } else {
            g.start()
        };
        let mut history = Vec::with_capacity(p.moves.len());
        let mut cur = start;
        for (i, text) in p.moves.iter().enumerate() {
            let mv = g.parse_move(&cur, text).map_err(|e| {
                ParseError(format!(
                    "illegal move {}: {} ({e})",
                    i + 1,
                    super::command::shorten(text, 40)
                ))
            })?;
            history.push(g.hash(&cur));
            cur = g.play(&cur, mv);
        }
        self.root = cur;
        self.history = history;
        Ok(())
    }

    fn hub_position(&self) -> String {
        self.game.format_hub_position(&self.root)
    }

    fn set_hash_mib(&mut self, mib: usize) {
        self.hash_mib = mib;
        self.backend().set_hash_mib(mib);
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        self.backend().set_threads(threads);
    }

    fn new_game(&mut self) {
        self.backend().new_game();
    }

    fn set_search(&mut self, a: Algorithm) {
        self.algorithm = a;
        self.backend().set_algorithm(a);
    }

    fn go(
        &mut self,
        limits: Limits,
        ponder: bool,
        out: Sender<String>,
        finished: Box<dyn FnOnce() + Send>,
    ) -> Result<GoStart, ParseError> {
        self.finish_thread();
        let game = self.game;
        let mut list = MoveList::new();
        game.generate(&self.root, &mut list);
        if list.is_empty() {
            return Err(ParseError("no legal move".into()));
        }
        if list.len() == 1 && !ponder {
            return Ok(GoStart::Immediate(reply::done(
                &game.format_move(&self.root, list[0]),
                None,
            )));
        }
        let mut backend = match self.backend.take() {
            Some(b) => b,
            None => {
                let mut b = B::build(game, self.hash_mib, self.threads);
                b.set_algorithm(self.algorithm);
                b
            }
        };
        // A fresh control per search: a late `stop` for the previous search
        // cannot reach this one.
        let control = Arc::new(Control::new());
        control.reset(ponder);
        self.control = control.clone();
        let root = self.root.clone();
        let history = self.history.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let mut on_info = |info: &Info<G::Move>| {
                    let pv = format_pv(&game, &root, &info.pv);
                    let _ = out.send(reply::info(
                        info.depth,
                        info.mean_depth,
                        info.score,
                        info.nodes,
                        info.time,
                        &pv,
                    ));
                };
                let result = backend.search(&root, &history, &limits, &control, &mut on_info);
                let done = done_line(&game, &root, &result);
                finished();
                (backend, done)
            });
        match spawned {
            Ok(h) => {
                self.thread = Some(h);
                Ok(GoStart::Started)
            }
            Err(e) => Err(ParseError(format!("cannot start the search thread: {e}"))),
        }
    }

    fn control(&self) -> Arc<Control> {
        self.control.clone()
    }

    fn finish(&mut self) -> Option<String> {
        self.finish_thread()
    }
}

/// Builds the engine for whatever game [`crate::variant::dispatch`] picks.
pub struct EngineVisitor {
    pub hash_mib: usize,
    pub threads: usize,
}

impl GameVisitor for EngineVisitor {
    type Output = Box<dyn EngineApi>;
    fn visit<G: Game>(self, game: G) -> Box<dyn EngineApi> {
        Box::new(Engine::<G, Searcher<G>>::new(
            game,
            self.hash_mib,
            self.threads,
        ))
    }
}

/// Builds engines from options; the controller's tests swap in their own.
pub trait EngineFactory {
    fn build(
        &self,
        opts: &Options,
        hash_mib: usize,
        threads: usize,
    ) -> Result<Box<dyn EngineApi>, ParseError>;
}

/// The real factory: [`crate::variant::dispatch`].
pub struct DispatchFactory;

impl EngineFactory for DispatchFactory {
    fn build(
        &self,
        opts: &Options,
        hash_mib: usize,
        threads: usize,
    ) -> Result<Box<dyn EngineApi>, ParseError> {
        crate::variant::dispatch(opts, EngineVisitor { hash_mib, threads })
    }
}
