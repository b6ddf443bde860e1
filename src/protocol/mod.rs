//! The Hub protocol (docs/protocol.md): a reader thread turns lines into
//! [`Command`] values, one [`Controller`] owns the engine, and a single
//! writer thread owns stdout and flushes every line.
//!
//! ```text
//! stdin ─► reader ─► Event::Line(Command) ─┐
//!                                           ├─► Controller ─► Box<dyn EngineApi> (Engine<G>: a Session<G>)
//! search thread ─► Event::SearchFinished ──┘          │
//! stdout ◄── writer ◄── info / done / pong / error ◄──┘
//! ```

pub mod command;
pub mod egdb;
pub mod engine;
pub mod reply;

pub use command::{Command, GoMode, Level, PosArgs};
pub use engine::{DispatchFactory, EngineApi, EngineFactory};

use crate::game::ParseError;
use crate::game::text::shorten;
use crate::search::Algorithm;
use crate::search::Limits;
use crate::variant::{Options, Variant};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// Lines longer than this are rejected (with one error) without being kept
/// in memory; a 1 MB line is still read and parsed.
pub const MAX_LINE: usize = 16 << 20;

/// The most root lines `set-param name=multipv` asks for.
pub const MAX_MULTIPV: usize = 512;

/// What the controller reacts to.
#[derive(Debug)]
pub enum Event {
    /// A parsed line, or why it could not be parsed.
    Line(Result<Command, ParseError>),
    /// End of input: quit.
    Eof,
    /// The search with this id has ended by itself.
    SearchFinished(u64),
}

/// The most threads `set-param name=threads` accepts: the machine's cores.
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// A field of /proc/meminfo (`MemTotal`, `MemAvailable`) in MiB; `None`
/// where there is no such file.
pub fn meminfo_mib(field: &str) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.split(':').next() == Some(field))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The largest table `hash` may ask for: 65536 MiB, or half the machine's
/// memory if that is less (the table is really allocated).
pub fn max_hash_mib() -> usize {
    meminfo_mib("MemTotal").map_or(65536, |m| (m / 2).clamp(1, 65536))
}

/// An integer parameter in `lo ..= hi` (a fraction is rounded down); a
/// value outside is an error naming the range, as `hub` advertises it.
fn int_param(name: &str, value: &str, lo: usize, hi: usize) -> Result<usize, ParseError> {
    let x = command::parse_real(name, value)?.floor();
    if x < lo as f64 || x > hi as f64 {
        return Err(ParseError(format!(
            "{name}={} is out of range: {name} takes {lo} to {hi}; it stays as it was",
            shorten(value.trim(), 40)
        )));
    }
    Ok(x as usize)
}

/// The running search, as the controller sees it.
struct Running {
    id: u64,
    /// `go ponder` without `ponder-hit` or `stop` yet: `done` is held back.
    pondering: bool,
    /// The `done` line of a ponder search that ended before `ponder-hit`.
    held: Option<String>,
}

/// What handling one command asks of the loop.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Owns the engine and carries out commands, one at a time.
pub struct Controller<F: EngineFactory> {
    factory: F,
    opts: Options,
    engine: Option<Box<dyn EngineApi>>,
    /// Why there is no engine (an option combination that is not a game).
    engine_error: Option<String>,
    threads: usize,
    hash_mib: usize,
    ponder: bool,
    search_algorithm: Algorithm,
    /// The `multipv` parameter: root lines reported per iteration.
    multipv: usize,
    limits: Limits,
    /// The last `pos` that succeeded, replayed when a rule option changes.
    last_pos: Option<PosArgs>,
    out: Sender<String>,
    events: Sender<Event>,
    running: Option<Running>,
    next_id: u64,
    /// The opening book parameters (`book`, `book-file`, ...).
    book: crate::book::Settings,
    /// The endgame database settings (`egdb-path`, `egdb-pieces`).
    egdb: egdb::HubEgdb,
    /// `egdb::generation()` when the last search started.
    egdb_generation: u64,
    /// The output as the database's background work sees it (emptied at
    /// the end of `run`).
    egdb_out: Arc<std::sync::Mutex<Option<Sender<String>>>>,
}

fn fresh_limits() -> Limits {
    Limits {
        multipv: 1,
        ..Limits::default()
    }
}

impl<F: EngineFactory> Controller<F> {
    /// A controller for the default game (international). `out` receives
    /// every output line; `events` is the sender of the controller's own
    /// event queue (search threads report there).
    pub fn new(factory: F, out: Sender<String>, events: Sender<Event>) -> Self {
        let opts = Options::default();
        let hash_mib = 64.min(max_hash_mib());
        let threads = 1;
        let (engine, engine_error) = match factory.build(&opts, hash_mib, threads) {
            Ok(mut e) => {
                e.set_search(Algorithm::DEFAULT);
                (Some(e), None)
            }
            Err(e) => (None, Some(e.0)),
        };
        let book = crate::book::Settings::default();
        let engine = engine.map(|mut e| {
            let _ = e.set_book(&book);
            e
        });
        let egdb_out = Arc::new(std::sync::Mutex::new(Some(out.clone())));
        Controller {
            book,
            factory,
            opts,
            engine,
            engine_error,
            threads,
            hash_mib,
            ponder: false,
            search_algorithm: Algorithm::DEFAULT,
            multipv: 1,
            limits: fresh_limits(),
            last_pos: None,
            out,
            events,
            running: None,
            next_id: 0,
            egdb: egdb::HubEgdb::new(false),
            egdb_generation: crate::egdb::generation(),
            egdb_out,
        }
    }

    /// Uses the standard database place (`$SALTO_EGDB`, the user's data
    /// folder) when no `egdb-path` is given, and builds the small
    /// databases there on first use: the `salto hub` process.
    pub fn with_standard_egdb(mut self) -> Self {
        self.egdb = egdb::HubEgdb::new(true);
        self
    }

    /// Sets the search's database up for the current options and says
    /// what it found (`info egdb=...`, `error` for a bad file or path).
    fn egdb_setup(&mut self) {
        use egdb::Note;
        // The background build and the loader hold this, not a sender of
        // their own: at quit it is emptied, so the writer thread ends.
        let out = self.egdb_out.clone();
        let line = |n: Note| match n {
            Note::Info(m) => format!("info egdb=\"{}\"", reply::sanitize(&m)),
            Note::Error(m) => reply::error(&m),
        };
        let sink: egdb::Sink = Arc::new(move |n| {
            if let Ok(o) = out.lock()
                && let Some(o) = o.as_ref()
            {
                let _ = o.send(line(n));
            }
        });
        for n in self.egdb.setup(&self.opts, sink) {
            self.send(line(n));
        }
    }

    fn send(&self, line: String) {
        let _ = self.out.send(line);
    }

    fn error(&self, msg: &str) {
        self.send(reply::error(msg));
    }

    /// Runs until `quit` or end of input.
    pub fn run(&mut self, events: Receiver<Event>) {
        while let Ok(ev) = events.recv() {
            let flow = match ev {
                Event::Eof => Flow::Quit,
                Event::SearchFinished(id) => {
                    self.search_finished(id);
                    Flow::Continue
                }
                Event::Line(Err(e)) => {
                    self.error(&e.0);
                    Flow::Continue
                }
                Event::Line(Ok(cmd)) => self.guarded(cmd),
            };
            if flow == Flow::Quit {
                break;
            }
        }
        self.abort_search();
        if let Ok(mut o) = self.egdb_out.lock() {
            *o = None;
        }
    }

    /// Handles a command, turning a panic in the game code into an error
    /// line and a fresh engine rather than a dead process.
    fn guarded(&mut self, cmd: Command) -> Flow {
        let what = format!("{cmd:?}");
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.handle(cmd))) {
            Ok(flow) => flow,
            Err(_) => {
                log::error!("internal error while handling {what}");
                self.error(&format!(
                    "internal error while handling: {}",
                    shorten(&what, 60)
                ));
                self.running = None;
                self.rebuild_engine_after_panic();
                Flow::Continue
            }
        }
    }

    fn rebuild_engine_after_panic(&mut self) {
        self.last_pos = None;
        match self.factory.build(&self.opts, self.hash_mib, self.threads) {
            Ok(mut e) => {
                e.set_search(self.search_algorithm);
                self.book_into(&mut e);
                self.engine = Some(e);
            }
            Err(e) => {
                self.engine = None;
                self.engine_error = Some(e.0);
            }
        }
    }

    fn search_finished(&mut self, id: u64) {
        let Some(run) = &self.running else { return };
        if run.id != id || run.held.is_some() {
            return; // a search that was already ended and answered
        }
        let done = self.engine.as_mut().and_then(|e| e.finish());
        let pondering = run.pondering;
        match done {
            Some(line) if pondering => {
                if let Some(r) = self.running.as_mut() {
                    r.held = Some(line);
                }
            }
            Some(line) => {
                self.running = None;
                self.send(line);
            }
            None => self.running = None,
        }
    }

    /// Stops the running search (if any) and writes its `done`.
    fn end_search(&mut self) {
        let Some(run) = self.running.take() else {
            return;
        };
        let done = match run.held {
            Some(line) => Some(line),
            None => self.engine.as_mut().and_then(|e| {
                e.control().stop();
                e.finish()
            }),
        };
        if let Some(line) = done {
            self.send(line);
        }
    }

    /// Stops the running search without answering (quit).
    fn abort_search(&mut self) {
        if self.running.take().is_some()
            && let Some(e) = self.engine.as_mut()
        {
            e.control().stop();
            let _ = e.finish();
        }
    }

    fn handle(&mut self, cmd: Command) -> Flow {
        if let Some(run) = self.running.as_mut() {
            match cmd {
                Command::Ping => {
                    self.send("pong".into());
                    return Flow::Continue;
                }
                Command::Stop => {
                    self.end_search();
                    return Flow::Continue;
                }
                Command::PonderHit => {
                    if run.held.is_some() {
                        self.end_search();
                    } else if run.pondering {
                        run.pondering = false;
                        if let Some(e) = &self.engine {
                            e.control().ponder_hit();
                        }
                    }
                    return Flow::Continue;
                }
                Command::Quit => return Flow::Quit,
                // Any other command ends the search and is carried out
                // after `done`.
                _ => self.end_search(),
            }
        }
        match cmd {
            Command::Hub => self.hub(),
            Command::Init => self.init(),
            Command::Ping => self.send("pong".into()),
            Command::Stop | Command::PonderHit => {} // idle: silently ignored
            Command::NewGame => self.new_game(),
            Command::Quit => return Flow::Quit,
            Command::SetParam { name, value } => {
                if let Err(e) = self.set_param(&name, &value) {
                    self.error(&e.0);
                }
            }
            Command::Pos(p) => match self.engine_mut() {
                Ok(engine) => match engine.set_position(&p) {
                    Ok(()) => {
                        self.last_pos = Some(p);
                        self.limits = fresh_limits();
                    }
                    Err(e) => self.error(&e.0),
                },
                Err(e) => self.error(&e.0),
            },
            Command::Level(levels) => {
                for l in levels {
                    let lim = &mut self.limits;
                    match l {
                        Level::Depth(d) => lim.depth = Some(d),
                        Level::Nodes(n) => lim.nodes = Some(n),
                        Level::MoveTime(t) => lim.move_time = Some(t),
                        Level::Moves(m) => lim.moves_to_go = Some(m),
                        Level::Time(t) => lim.time = Some(t),
                        Level::Inc(i) => lim.inc = i,
                        Level::Infinite => lim.infinite = true,
                    }
                }
            }
            Command::Go(mode) => self.go(mode),
        }
        Flow::Continue
    }

    fn engine_mut(&mut self) -> Result<&mut Box<dyn EngineApi>, ParseError> {
        let why = self.engine_error.clone();
        self.engine.as_mut().ok_or_else(|| {
            ParseError(why.unwrap_or_else(|| "no game is set up (set-param name=variant)".into()))
        })
    }

    /// The callback a job thread calls when it ends, for job `next_id`.
    fn on_finish(&self) -> Box<dyn FnOnce() + Send> {
        let id = self.next_id;
        let events = self.events.clone();
        Box::new(move || {
            let _ = events.send(Event::SearchFinished(id));
        })
    }

    /// Takes in what starting a job (search or `init`) gave.
    fn launched(&mut self, ponder: bool, started: Result<engine::GoStart, ParseError>) {
        match started {
            Ok(engine::GoStart::Immediate(line)) => self.send(line),
            Ok(engine::GoStart::Nothing) => {}
            Ok(engine::GoStart::Started) => {
                self.running = Some(Running {
                    id: self.next_id,
                    pondering: ponder,
                    held: None,
                });
                self.next_id += 1;
            }
            Err(e) => self.error(&e.0),
        }
    }

    fn go(&mut self, mode: GoMode) {
        if self.egdb.needs_setup(&self.opts) {
            self.egdb_setup();
        }
        // The database changed since the table was filled (set up again,
        // or a background build completed): its scores are stale.
        let generation = crate::egdb::generation();
        if generation != self.egdb_generation {
            self.egdb_generation = generation;
            if let Some(e) = self.engine.as_mut() {
                e.new_game();
            }
        }
        let ponder = mode == GoMode::Ponder;
        let mut limits = std::mem::replace(&mut self.limits, fresh_limits());
        limits.multipv = self.multipv;
        let (out, finished) = (self.out.clone(), self.on_finish());
        let started = self
            .engine_mut()
            .and_then(|e| e.go(limits, ponder, out, finished));
        self.launched(ponder, started);
    }

    /// `init`: the table asked for is allocated on a job thread, and
    /// `ready` comes when it is there (`ping` is answered meanwhile).
    fn init(&mut self) {
        self.egdb_setup();
        if let Some(note) = self.opts.evaluation_note() {
            self.send(format!("info message={}", crate::hubwire::quote(&note)));
        }
        let (out, finished) = (self.out.clone(), self.on_finish());
        match self.engine.as_mut() {
            Some(e) => {
                let started = e.prepare(Some("ready".into()), out, finished);
                let failed = started.is_err();
                self.launched(false, started);
                if failed {
                    self.send("ready".into());
                }
            }
            None => self.send("ready".into()),
        }
    }

    /// `new-game`: the table is emptied on a job thread at once (a host
    /// sends the game's first `pos` and `go` right after; they wait for
    /// it, `ping` does not).
    fn new_game(&mut self) {
        let (out, finished) = (self.out.clone(), self.on_finish());
        if let Some(e) = self.engine.as_mut() {
            e.new_game();
            let started = e.prepare(None, out, finished);
            self.launched(false, started);
        }
    }

    /// The table size: the engine's (smaller than asked when the memory
    /// could not be had).
    fn table_mib(&self) -> usize {
        self.engine.as_ref().map_or(self.hash_mib, |e| e.hash_mib())
    }

    fn hub(&self) {
        let o = &self.opts;
        let mut lines = vec![format!(
            "id name=Salto version={} author=\"the Salto authors\"",
            env!("CARGO_PKG_VERSION")
        )];
        lines.push(format!(
            "param name=variant value={} type=enum values=\"{}\"",
            o.variant.descriptor().hub_name,
            Variant::hub_names()
        ));
        lines.push(format!(
            "param name=threads value={} type=int min=1 max={}",
            self.threads,
            max_threads()
        ));
        let hash_mib = self.table_mib();
        lines.push(format!(
            "param name=hash value={hash_mib} type=int min=1 max={}",
            max_hash_mib()
        ));
        let tt = (hash_mib.max(1).ilog2() + 16).clamp(16, 30);
        lines.push(format!(
            "param name=tt-size value={tt} type=int min=16 max=30"
        ));
        lines.push(format!("param name=ponder value={} type=bool", self.ponder));
        lines.push(format!(
            "param name=players value={} type=enum values=\"2 3 4 6\"",
            o.players
        ));
        lines.push(format!(
            "param name=sets value={} type=enum values=\"1 2 3\"",
            o.sets
        ));
        lines.push(format!(
            "param name=foreign-corners value={} type=enum values=\"pass stop\"",
            o.foreign_corners
        ));
        lines.push(format!(
            "param name=unused-corners value={} type=enum values=\"empty filled\"",
            o.unused_corners
        ));
        lines.push(format!(
            "param name=spoiling value={} type=enum values=\"swap fill none\"",
            o.spoiling
        ));
        lines.push(format!(
            "param name=turkish-promotion value={} type=enum values=\"end immediate\"",
            o.turkish_promotion
        ));
        lines.push(format!(
            "param name=notation value={} type=enum values=\"numeric algebraic\"",
            o.notation
        ));
        lines.push(format!(
            "param name=draw-moves value={} type=int min=0 max=1000",
            o.draw_moves.unwrap_or(o.variant.descriptor().draw_moves)
        ));
        lines.push(format!(
            "param name=max-moves value={} type=int min=0 max=1000000",
            o.max_moves
        ));
        lines.push(format!(
            "param name=eval value={} type=enum values=\"default hand\"",
            o.eval.name()
        ));
        lines.push("param name=eval-file value=\"\" type=string".into());
        lines.push(format!(
            "param name=search value={} type=enum values=\"{}\"",
            self.search_algorithm,
            Algorithm::names()
        ));
        lines.push(format!(
            "param name=multipv value={} type=int min=1 max={MAX_MULTIPV}",
            self.multipv
        ));
        lines.extend(self.egdb.params());
        lines.extend(self.book.hub_params());
        lines.push("wait".into());
        for l in lines {
            self.send(l);
        }
    }

    fn set_param(&mut self, name: &str, value: &str) -> Result<(), ParseError> {
        let lname = name.trim().to_ascii_lowercase();
        if let Some(r) = self.egdb.set_param(&lname, value) {
            return r.map_err(ParseError);
        }
        if let Some(r) = self.book.set_hub_param(&lname, value) {
            r.map_err(ParseError)?;
            return match self.engine.as_mut() {
                Some(e) => e.set_book(&self.book),
                None => Ok(()),
            };
        }
        match lname.as_str() {
            "threads" => {
                let n = int_param(&lname, value, 1, max_threads())?;
                self.threads = n;
                if let Some(e) = self.engine.as_mut() {
                    e.set_threads(n);
                }
            }
            "hash" | "tt-size" => {
                let mib = if lname == "hash" {
                    int_param(&lname, value, 1, max_hash_mib())?
                } else {
                    // 2^n entries of 16 bytes: n = 22 is 64 MiB.
                    let n = int_param(&lname, value, 16, 30)?;
                    let mib = 1usize << (n - 16);
                    if mib > max_hash_mib() {
                        return Err(ParseError(format!(
                            "tt-size={n} is {mib} MiB, more than hash allows ({} MiB, half the memory); it stays as it was",
                            max_hash_mib()
                        )));
                    }
                    mib
                };
                // Only recorded here: the table is allocated at `init` or
                // before the next search, on the job thread.
                if mib != self.table_mib() {
                    self.hash_mib = mib;
                    if let Some(e) = self.engine.as_mut() {
                        e.set_hash_mib(mib);
                    }
                }
            }
            "draw-moves" | "max-moves" => {
                let hi = if lname == "draw-moves" {
                    1000
                } else {
                    1_000_000
                };
                let n = int_param(&lname, value, 0, hi)?;
                let mut o = self.opts.clone();
                o.set_known(&lname, &n.to_string())?;
                if o != self.opts || self.engine.is_none() {
                    self.switch_options(o)?;
                }
            }
            "ponder" => {
                self.ponder = match value.trim().to_ascii_lowercase().as_str() {
                    "true" | "1" | "yes" | "on" => true,
                    "false" | "0" | "no" | "off" => false,
                    _ => {
                        return Err(ParseError(format!(
                            "bad value '{}' for ponder: expected true or false",
                            shorten(value, 40)
                        )));
                    }
                }
            }
            "multipv" => self.multipv = int_param(&lname, value, 1, MAX_MULTIPV)?,
            "search" => {
                let a = Algorithm::parse(value)?;
                self.search_algorithm = a;
                if let Some(e) = self.engine.as_mut() {
                    e.set_search(a);
                }
            }
            _ => {
                let mut o = self.opts.clone();
                let known = o
                    .set_known(&lname, value)
                    .map_err(|e| ParseError(shorten(&e.0, 150)))?;
                // Also when nothing changed but there is no engine: the
                // user asks for a game, say why it cannot be played.
                if known && (o != self.opts || self.engine.is_none()) {
                    self.switch_options(o)?;
                }
            }
        }
        Ok(())
    }

    /// Gives a new engine the book parameters; a book that cannot be used
    /// is said in one `error` line and the engine plays without it.
    fn book_into(&self, e: &mut Box<dyn EngineApi>) {
        if let Err(err) = e.set_book(&self.book) {
            self.error(&err.0);
        }
    }

    /// Rebuilds the engine for new rule options. A new variant starts from
    /// its start position; other option changes replay the last `pos`.
    fn switch_options(&mut self, o: Options) -> Result<(), ParseError> {
        let variant_changed = o.variant != self.opts.variant;
        if let Err(e) = o.validate() {
            // Options that need several set-param lines (chinese players and
            // sets) may pass through a combination that is not a game: keep
            // it, and say so when a position or a search is asked for.
            self.opts = o;
            self.engine = None;
            self.engine_error = Some(e.0);
            if variant_changed {
                self.last_pos = None;
            }
            return Ok(());
        }
        self.hash_mib = self.table_mib();
        let mut engine = self.factory.build(&o, self.hash_mib, self.threads)?;
        engine.set_search(self.search_algorithm);
        self.book_into(&mut engine);
        self.opts = o;
        self.engine_error = None;
        if variant_changed {
            self.last_pos = None;
        } else if let Some(p) = &self.last_pos
            && let Err(e) = engine.set_position(p)
        {
            self.last_pos = None;
            self.engine = Some(engine);
            return Err(ParseError(format!(
                "the last position is not valid under the new rules, so the position is the start: {e}"
            )));
        }
        self.engine = Some(engine);
        Ok(())
    }
}

/// Reads one line of at most `MAX_LINE` bytes into `buf` (without its line
/// end). `Ok(None)` at end of input; `Ok(Some(false))` for a line that was
/// too long (its bytes are dropped).
fn read_line_limited<R: BufRead>(r: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if any { Some(!too_long) } else { None });
        }
        any = true;
        let (part, found, used) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true, i + 1),
            None => (chunk, false, chunk.len()),
        };
        if !too_long {
            if buf.len() + part.len() > MAX_LINE {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        r.consume(used);
        if found {
            return Ok(Some(!too_long));
        }
    }
}

/// Turns the bytes of one line into an event (`None` for a blank line).
pub fn line_event(bytes: &[u8]) -> Option<Event> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Err(e) => Some(Event::Line(Err(ParseError(format!(
            "the line is not valid UTF-8 (bad byte at offset {})",
            e.valid_up_to()
        ))))),
        Ok(text) => match command::parse_line(text) {
            Ok(None) => None,
            Ok(Some(c)) => Some(Event::Line(Ok(c))),
            Err(e) => Some(Event::Line(Err(e))),
        },
    }
}

/// The reader thread: lines of `input` become events until end of input.
pub fn spawn_reader<R: Read + Send + 'static>(input: R, tx: Sender<Event>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut r = BufReader::with_capacity(1 << 16, input);
        let mut buf = Vec::new();
        loop {
            match read_line_limited(&mut r, &mut buf) {
                Ok(Some(true)) => {
                    if let Some(ev) = line_event(&buf)
                        && tx.send(ev).is_err()
                    {
                        return;
                    }
                }
                Ok(Some(false)) => {
                    let e = ParseError(format!(
                        "line too long (more than {MAX_LINE} bytes), ignored"
                    ));
                    if tx.send(Event::Line(Err(e))).is_err() {
                        return;
                    }
                }
                Ok(None) | Err(_) => {
                    let _ = tx.send(Event::Eof);
                    return;
                }
            }
        }
    })
}

/// The writer thread: the only code that writes the protocol's output; it
/// flushes after every line.
pub fn spawn_writer<W: Write + Send + 'static>(mut w: W) -> (Sender<String>, JoinHandle<()>) {
    let (tx, rx) = channel::<String>();
    let h = std::thread::spawn(move || {
        for line in rx {
            log::debug!("> {line}");
            if w.write_all(line.as_bytes()).is_err()
                || w.write_all(b"\n").is_err()
                || w.flush().is_err()
            {
                // The reader of our output is gone: nothing left to say.
                return;
            }
        }
    });
    (tx, h)
}

/// Runs a Hub session on stdin/stdout until `quit` or end of input.
pub fn run_hub() -> ExitCode {
    // A panic must not print on stderr (pydraughts reads it as protocol);
    // the log gets it instead.
    std::panic::set_hook(Box::new(|info| log::error!("panic: {info}")));
    let (out, writer) = spawn_writer(std::io::stdout());
    let (etx, erx) = channel();
    spawn_reader(std::io::stdin(), etx.clone());
    {
        let mut c = Controller::new(DispatchFactory, out, etx).with_standard_egdb();
        c.run(erx);
    }
    let _ = writer.join();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests;
