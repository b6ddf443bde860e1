//! The engine for one game: position, move history, searcher, and the search
//! thread. [`Engine<G, B>`] is fully monomorphised; the controller holds it
//! as a `Box<dyn EngineApi>` so that switching games is a rebuild, not a
//! branch.

use super::command::PosArgs;
use super::reply;
use crate::game::{Game, MoveList, ParseError};
use crate::search::multi::{Algorithm, GameSearcher};
use crate::search::{Control, Info, Limits, SearchResult};
use crate::variant::{GameVisitor, Options};
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

/// The search thread's stack: the search recurses with a move list on each
/// frame (see `crate::search`); only the pages touched are committed.
const SEARCH_STACK: usize = 64 << 20;

/// What the protocol needs from a searcher. [`GameSearcher`] is the real one;
/// the controller's tests use a slow stand-in to test stop and ping timing.
pub trait Backend<G: Game>: Send + 'static {
    fn build(game: G, hash_mib: usize, threads: usize) -> Self;
    /// Resizes the table; when the memory cannot be had, a smaller table is
    /// kept ([`Backend::table_mib`] says how large).
    fn set_hash_mib(&mut self, mib: usize);
    /// The size of the table actually allocated, MiB.
    fn table_mib(&self) -> usize;
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

impl<G: Game> Backend<G> for GameSearcher<G> {
    fn build(game: G, hash_mib: usize, threads: usize) -> Self {
        GameSearcher::new(game, hash_mib, threads)
    }
    fn set_hash_mib(&mut self, mib: usize) {
        GameSearcher::set_hash_mib(self, mib)
    }
    fn table_mib(&self) -> usize {
        GameSearcher::table_mib(self)
    }
    fn set_threads(&mut self, threads: usize) {
        GameSearcher::set_threads(self, threads)
    }
    fn new_game(&mut self) {
        GameSearcher::new_game(self)
    }
    fn search(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        GameSearcher::search(self, root, history, limits, control, on_info)
    }
    fn set_algorithm(&mut self, a: Algorithm) {
        GameSearcher::set_algorithm(self, a)
    }
}

/// What starting a search gave.
#[derive(Debug, PartialEq, Eq)]
pub enum GoStart {
    /// The answer is known at once (one legal move): this `done` line.
    Immediate(String),
    /// A search thread runs; it sends `Event::SearchFinished(id)` when done.
    Started,
    /// Nothing to do and nothing to say (`new-game` with nothing pending).
    Nothing,
}

/// The game-independent face of an engine.
pub trait EngineApi: Send {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// Sets the position (`pos`); on error nothing changes.
    fn set_position(&mut self, p: &PosArgs) -> Result<(), ParseError>;
    /// The current position as a Hub string.
    fn hub_position(&self) -> String;
    /// Asks for a table of `mib` MiB. Nothing is allocated here: the table
    /// is resized on the job thread of the next [`EngineApi::prepare`] or
    /// [`EngineApi::go`], where the host expects to wait.
    fn set_hash_mib(&mut self, mib: usize);
    /// The table size: the one asked for until it is applied, then the one
    /// allocated (smaller when the memory could not be had).
    fn hash_mib(&self) -> usize;
    /// `init` and `new-game`: applies a pending table size and empties the
    /// table after `new-game` on a job thread, like a search whose `done`
    /// line is `line` (`ready` for `init`, nothing for `new-game`).
    fn prepare(
        &mut self,
        line: Option<String>,
        out: Sender<String>,
        finished: Box<dyn FnOnce() + Send>,
    ) -> Result<GoStart, ParseError>;
    fn set_threads(&mut self, threads: usize);
    /// Forgets what was learnt; the table is emptied by the next
    /// [`EngineApi::prepare`] or [`EngineApi::go`].
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
pub struct Engine<G: Game, B: Backend<G> = GameSearcher<G>> {
    game: G,
    backend: Option<B>,
    /// The table size asked for, or the one allocated once applied.
    hash_mib: usize,
    /// `hash_mib` is still to be applied to the backend's table.
    table_pending: bool,
    /// `new-game` came: the table is to be emptied before the next search.
    clear_pending: bool,
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
            // The smallest table now; the one asked for on the job thread.
            backend: Some(B::build(game, 1, threads)),
            hash_mib,
            table_pending: true,
            clear_pending: false,
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
        let b = match self.backend.take() {
            Some(b) => b,
            None => self.fresh_backend(),
        };
        self.backend.insert(b)
    }

    /// A backend with the smallest table (the one asked for is applied on
    /// the next job thread).
    fn fresh_backend(&mut self) -> B {
        let mut b = B::build(self.game, 1, self.threads);
        b.set_algorithm(self.algorithm);
        self.table_pending = true;
        b
    }

    fn finish_thread(&mut self) -> Option<String> {
        let handle = self.thread.take()?;
        match handle.join() {
            Ok((backend, done)) => {
                if !self.table_pending {
                    self.hash_mib = backend.table_mib().max(1);
                }
                self.backend = Some(backend);
                done
            }
            Err(_) => {
                // The search panicked (a bug, logged by the panic hook):
                // rebuild the searcher and answer with a legal move anyway.
                log::error!("the search thread panicked; rebuilding the searcher");
                let b = self.fresh_backend();
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
    let line = crate::search::multi::legal_prefix(game, root, pv);
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
        self.finish_thread();
        self.hash_mib = mib;
        self.table_pending = true;
    }

    fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    fn prepare(
        &mut self,
        line: Option<String>,
        out: Sender<String>,
        finished: Box<dyn FnOnce() + Send>,
    ) -> Result<GoStart, ParseError> {
        self.finish_thread();
        if !self.table_pending && !self.clear_pending {
            return Ok(line.map_or(GoStart::Nothing, GoStart::Immediate));
        }
        self.control = Arc::new(Control::new());
        self.spawn_job(out, finished, move |_, _| line)
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        self.backend().set_threads(threads);
    }

    fn new_game(&mut self) {
        self.finish_thread();
        self.clear_pending = true;
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
        // A fresh control per search: a late `stop` for the previous search
        // cannot reach this one.
        let control = Arc::new(Control::new());
        control.reset(ponder);
        self.control = control.clone();
        let root = self.root.clone();
        let history = self.history.clone();
        self.spawn_job(out, finished, move |backend, out| {
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
            done_line(&game, &root, &result)
        })
    }

    fn control(&self) -> Arc<Control> {
        self.control.clone()
    }

    fn finish(&mut self) -> Option<String> {
        self.finish_thread()
    }
}

impl<G: Game, B: Backend<G>> Engine<G, B> {
    /// Runs `job` on a new thread with the backend, after applying a
    /// pending table size and `new-game` there; the thread hands the backend
    /// back with the job's answer (the `done` or `ready` line).
    fn spawn_job<F>(
        &mut self,
        out: Sender<String>,
        finished: Box<dyn FnOnce() + Send>,
        job: F,
    ) -> Result<GoStart, ParseError>
    where
        F: FnOnce(&mut B, &Sender<String>) -> Option<String> + Send + 'static,
    {
        let mut backend = match self.backend.take() {
            Some(b) => b,
            None => self.fresh_backend(),
        };
        let resize = self.table_pending.then_some(self.hash_mib);
        let clear = self.clear_pending;
        self.table_pending = false;
        self.clear_pending = false;
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                if let Some(mib) = resize
                    && let Err(e) = resize_table(&mut backend, mib)
                {
                    let _ = out.send(reply::error(&e));
                }
                if clear {
                    backend.new_game();
                }
                let done = job(&mut backend, &out);
                finished();
                (backend, done)
            });
        match spawned {
            Ok(h) => {
                self.thread = Some(h);
                Ok(GoStart::Started)
            }
            Err(e) => {
                // The backend went with the closure: a fresh one next time.
                self.clear_pending = clear;
                Err(ParseError(format!("cannot start the search thread: {e}")))
            }
        }
    }
}

/// Memory left for other programs when a table is sized by what the
/// machine has available, MiB.
const MEMORY_RESERVE_MIB: usize = 256;

/// Resizes the backend's table to `mib` MiB, or as much as the machine has
/// available (the old table is freed first) when that is less; `Err` says
/// what was kept when the size asked for could not be had.
pub fn resize_table<G: Game, B: Backend<G>>(backend: &mut B, mib: usize) -> Result<(), String> {
    let old = backend.table_mib();
    let available = super::meminfo_mib("MemAvailable")
        .map(|free| (free + old).saturating_sub(MEMORY_RESERVE_MIB).max(1));
    let ask = available.map_or(mib, |a| mib.min(a));
    backend.set_hash_mib(ask);
    let got = backend.table_mib();
    if got >= mib {
        return Ok(());
    }
    let why = match available {
        Some(a) if a < mib => format!("only {a} MiB of memory is available"),
        _ => "the allocation failed".to_string(),
    };
    Err(format!(
        "a table of {mib} MiB cannot be had ({why}): the table has {got} MiB"
    ))
}

/// Builds the engine for whatever game [`crate::variant::dispatch`] picks.
pub struct EngineVisitor {
    pub hash_mib: usize,
    pub threads: usize,
}

impl GameVisitor for EngineVisitor {
    type Output = Box<dyn EngineApi>;
    fn visit<G: Game>(self, game: G) -> Box<dyn EngineApi> {
        Box::new(Engine::<G, GameSearcher<G>>::new(
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
