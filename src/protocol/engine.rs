//! The engine for one game: a [`Session`] and the thread that searches it.
//! [`Engine<G>`] is fully monomorphised; the controller holds it as a
//! `Box<dyn EngineApi>` so that switching games is a rebuild, not a branch.

use super::command::PosArgs;
use crate::game::{Game, ParseError};
use crate::search::Algorithm;
use crate::search::{Control, Info, Limits, Searcher};
use crate::session::{Session, Start, format};
use crate::variant::{GameVisitor, Options};
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

/// The search thread's stack: the search recurses with a move list on each
/// frame (see `crate::search`); only the pages touched are committed.
const SEARCH_STACK: usize = 64 << 20;

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
    /// Sets the position (`pos`); on error nothing changes.
    fn set_position(&mut self, p: &PosArgs) -> Result<(), ParseError>;
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
    fn set_search(&mut self, a: Algorithm);
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
    /// The opening book parameters (docs/book.md); `Err` when the book
    /// asked for cannot be used (the engine then plays without one).
    fn set_book(&mut self, _settings: &crate::book::Settings) -> Result<(), ParseError> {
        Ok(())
    }
}

/// What a search thread hands back: the session, and the `done` line.
type Searching<G> = JoinHandle<(Session<G>, Option<String>)>;

/// The engine for game `G`.
pub struct Engine<G: Game> {
    /// Away in the search thread while a search runs.
    session: Option<Session<G>>,
    thread: Option<Searching<G>>,
    /// What rebuilds the session if a search thread dies: the settings, and
    /// the position searched (root, history) with a legal answer for it.
    game: G,
    /// The table size asked for, or the one allocated once applied.
    hash_mib: usize,
    /// `hash_mib` is still to be applied to the session's table.
    table_pending: bool,
    /// `new-game` came: the table is to be emptied on the next job thread.
    clear_pending: bool,
    threads: usize,
    algorithm: Algorithm,
    searched: Option<(G::Position, Vec<u64>, String)>,
    control: Arc<Control>,
    /// The opening book in use (none until `set_book`).
    book: crate::book::Probe,
}

impl<G: Game> Engine<G> {
    pub fn new(game: G, hash_mib: usize, threads: usize) -> Self {
        Engine {
            // The smallest table now; the one asked for on the job thread.
            session: Some(Session::new(game, 1, threads)),
            thread: None,
            game,
            hash_mib,
            table_pending: true,
            clear_pending: false,
            threads,
            algorithm: Algorithm::DEFAULT,
            searched: None,
            control: Arc::new(Control::new()),
            book: crate::book::Probe::default(),
        }
    }

    /// The session, after waiting for a running search (the controller
    /// never calls into the engine during a search without `finish`).
    pub(crate) fn session(&mut self) -> &mut Session<G> {
        let s = self.take_session();
        self.session.insert(s)
    }

    /// The session moved out (rebuilt with the settings, and the smallest
    /// table until the next job thread, if a search thread died with it).
    fn take_session(&mut self) -> Session<G> {
        self.finish_thread();
        match self.session.take() {
            Some(s) => s,
            None => {
                let mut s = Session::new(self.game, 1, self.threads);
                s.searcher().set_algorithm(self.algorithm);
                if let Some((root, history, _)) = &self.searched {
                    s.set_root(root.clone(), history.clone());
                }
                self.table_pending = true;
                s
            }
        }
    }

    fn finish_thread(&mut self) -> Option<String> {
        let handle = self.thread.take()?;
        match handle.join() {
            Ok((mut session, done)) => {
                if !self.table_pending {
                    self.hash_mib = session.searcher().table_mib().max(1);
                }
                self.session = Some(session);
                done
            }
            Err(_) => {
                // The search panicked (a bug, logged by the panic hook): the
                // session is rebuilt on the same position when next needed;
                // answer with a legal move anyway.
                log::error!("the search thread panicked; rebuilding the searcher");
                self.searched.as_ref().map(|(_, _, answer)| answer.clone())
            }
        }
    }
}

/// Where the `pos` command's position starts (`pos=` wins over `fen=`).
fn start_of(p: &PosArgs) -> Start<'_> {
    match (&p.pos, &p.fen) {
        (Some(s), _) => Start::Hub(s),
        (None, Some(f)) => Start::Fen(f),
        (None, None) => Start::Initial,
    }
}

impl<G: Game> EngineApi for Engine<G> {
    fn set_position(&mut self, p: &PosArgs) -> Result<(), ParseError> {
        Ok(self.session().set_position(start_of(p), &p.moves)?)
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
        let session = self.take_session();
        self.spawn_job(session, out, finished, move |_, _| line)
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        self.session().searcher().set_threads(threads);
    }

    fn new_game(&mut self) {
        self.finish_thread();
        self.clear_pending = true;
    }

    fn set_search(&mut self, a: Algorithm) {
        self.algorithm = a;
        self.session().searcher().set_algorithm(a);
    }

    fn go(
        &mut self,
        limits: Limits,
        ponder: bool,
        out: Sender<String>,
        finished: Box<dyn FnOnce() + Send>,
    ) -> Result<GoStart, ParseError> {
        let session = self.take_session();
        let game = *session.game();
        let root = session.root().clone();
        let list = session.legal_moves();
        let Some(&first) = list.first() else {
            self.session = Some(session);
            return Err(ParseError("no legal move".into()));
        };
        let first = format::done(&game.format_move(&root, first), None);
        if list.len() == 1 && !ponder {
            self.session = Some(session);
            return Ok(GoStart::Immediate(first));
        }
        // A book move answers at once (`go think`, not pondering or
        // analysing), after an `info` line that says so.
        if !ponder
            && !limits.infinite
            && let Some(a) = self.book.answer(&game, &root, session.history().len())
        {
            let _ = out.send(a.info);
            self.session = Some(session);
            return Ok(GoStart::Immediate(a.done));
        }
        self.searched = Some((root.clone(), session.history().to_vec(), first));
        // A fresh control per search: a late `stop` for the previous search
        // cannot reach this one.
        let control = Arc::new(Control::new());
        control.reset(ponder);
        self.control = control.clone();
        let multipv = limits.multipv;
        self.spawn_job(session, out, finished, move |session, out| {
            let mut on_info = |info: &Info<G::Move>| {
                let pv = format::pv(&game, &root, &info.pv);
                let line = format::info(
                    info.depth,
                    info.mean_depth,
                    info.score,
                    info.nodes,
                    info.time,
                    &pv,
                );
                let line = if multipv > 1 {
                    format::with_multipv(&line, info.multipv)
                } else {
                    line
                };
                let _ = out.send(line);
            };
            let result = session.search(&limits, &control, &mut on_info);
            format::done_line(&game, &root, &result)
        })
    }

    fn control(&self) -> Arc<Control> {
        self.control.clone()
    }

    fn finish(&mut self) -> Option<String> {
        self.finish_thread()
    }

    fn set_book(&mut self, settings: &crate::book::Settings) -> Result<(), ParseError> {
        let probe = crate::book::Probe::new(&self.game, settings);
        self.book = probe.clone().unwrap_or_default();
        probe
            .map(|_| ())
            .map_err(|e| ParseError(format!("{e}; the engine plays without a book")))
    }
}

impl<G: Game> Engine<G> {
    /// Runs `job` on a new thread with the session, after applying a
    /// pending table size and `new-game` there; the thread hands the session
    /// back with the job's answer (the `done` or `ready` line).
    fn spawn_job<F>(
        &mut self,
        mut session: Session<G>,
        out: Sender<String>,
        finished: Box<dyn FnOnce() + Send>,
        job: F,
    ) -> Result<GoStart, ParseError>
    where
        F: FnOnce(&mut Session<G>, &Sender<String>) -> Option<String> + Send + 'static,
    {
        let resize = self.table_pending.then_some(self.hash_mib);
        let clear = self.clear_pending;
        self.table_pending = false;
        self.clear_pending = false;
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                if let Some(mib) = resize
                    && let Err(e) = resize_table(session.searcher(), mib)
                {
                    let _ = out.send(super::reply::error(&e));
                }
                if clear {
                    session.searcher().new_game();
                }
                let done = job(&mut session, &out);
                finished();
                (session, done)
            });
        match spawned {
            Ok(h) => {
                self.thread = Some(h);
                Ok(GoStart::Started)
            }
            Err(e) => {
                // The session went with the closure: a fresh one next time.
                self.clear_pending = clear;
                Err(ParseError(format!("cannot start the search thread: {e}")))
            }
        }
    }
}

/// Memory left for other programs when a table is sized by what the
/// machine has available, MiB.
const MEMORY_RESERVE_MIB: usize = 256;

/// Resizes the searcher's table to `mib` MiB, or as much as the machine
/// has available (the old table is freed first) when that is less; `Err`
/// says what was kept when the size asked for could not be had.
pub fn resize_table<G: Game>(searcher: &mut Searcher<G>, mib: usize) -> Result<(), String> {
    let old = searcher.table_mib();
    let available = super::meminfo_mib("MemAvailable")
        .map(|free| (free + old).saturating_sub(MEMORY_RESERVE_MIB).max(1));
    let ask = available.map_or(mib, |a| mib.min(a));
    searcher.set_hash_mib(ask);
    let got = searcher.table_mib();
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
        Box::new(Engine::new(game, self.hash_mib, self.threads))
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
