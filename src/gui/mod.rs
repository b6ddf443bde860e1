//! `salto gui`: a local web page to play, analyse and watch every game.
//!
//! A small HTTP server (tiny_http) serves the page (HTML, CSS and
//! JavaScript embedded in the binary) and a JSON API; engine moves and
//! search reports stream to the page as Server-Sent Events. There is one
//! table (game, seats, analysis switch) shared by every open page. The page
//! draws what the server sends and never implements rules: legal moves, the
//! position after a move and the end of the game all come from Salto's own
//! rules through [`adapter`]. See docs/gui.md.
//!
//! - [`adapter`]: the game session and its search (the engine-facing part).
//! - [`layout`]: the squares' places on the diagram, players, pieces.
//! - [`pdn`]: reading PDN files for the Watch view.

pub mod adapter;
pub mod layout;
pub mod pdn;

use crate::game::{ParseError, ParseResult};
use crate::search::{Control, Limits};
use crate::tournament::engine::{EngineHooks, EngineSpec, HubEngine};
use crate::tournament::pdn::{PdnHeader, today, write_game};
use crate::tournament::play::{EndKind, GameRecord};
use crate::variant::{
    ForeignCorners, Notation, Options, Spoiling, TurkishPromotion, UnusedCorners, Variant,
};
use adapter::{SearchInfo, Session};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// The largest request body accepted (a PDN file of a long match).
const MAX_BODY: usize = 8 << 20;
/// How often an idle event stream sends a keep-alive comment (this is also
/// how a closed page is noticed).
const KEEPALIVE: Duration = Duration::from_secs(10);

/// Who plays a seat.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Seat {
    /// `false`: a person clicks the moves.
    #[serde(default)]
    pub engine: bool,
    /// The engine's depth limit (plies).
    #[serde(default)]
    pub depth: Option<u32>,
    /// The engine's time per move, seconds.
    #[serde(default)]
    pub movetime: Option<f64>,
    /// Another Hub engine (a name given with `salto gui --engine`) instead
    /// of Salto's own search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<String>,
}

impl Seat {
    fn human() -> Seat {
        Seat {
            engine: false,
            depth: None,
            movetime: None,
            external: None,
        }
    }

    fn limits(&self) -> Limits {
        self.limits_on(None)
    }

    /// The engine's limits; with no depth or time per move of its own and
    /// a clock running, the clock's (time left, increment), as a Hub host
    /// sends them.
    fn limits_on(&self, clock: Option<(f64, f64)>) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            move_time: self.movetime,
            multipv: 1,
            ..Limits::default()
        };
        if l.depth.is_none() && l.move_time.is_none() {
            match clock {
                Some((left, inc)) => {
                    l.time = Some(left.max(0.001));
                    l.inc = inc;
                }
                None => l.move_time = Some(1.0),
            }
        }
        l
    }

    fn check(&self) -> ParseResult<()> {
        if let Some(d) = self.depth
            && !(1..=60).contains(&d)
        {
            return Err(ParseError(format!("depth {d} is out of range (1..=60)")));
        }
        if let Some(t) = self.movetime
            && !(t.is_finite() && t > 0.0 && t <= 3600.0)
        {
            return Err(ParseError(format!(
                "movetime {t} is out of range (0 to 3600 seconds)"
            )));
        }
        Ok(())
    }
}

/// A game's clock: `base` seconds each, plus `inc` after every move.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
pub struct Clock {
    pub base: f64,
    #[serde(default)]
    pub inc: f64,
}

impl Clock {
    /// Parses `BASE+INC` in seconds (`60+1`, `0.5`), as `salto match --tc`.
    pub fn parse(text: &str) -> ParseResult<Clock> {
        match crate::tournament::play::TimeControl::parse_clock(text).map_err(ParseError)? {
            crate::tournament::play::TimeControl::Clock { base, inc } => Ok(Clock { base, inc }),
            _ => Err(ParseError(format!("bad time control '{text}'"))),
        }
    }

    fn check(&self) -> ParseResult<()> {
        let ok = |x: f64, lo: f64| x.is_finite() && x >= lo && x <= 86_400.0;
        if ok(self.base, 0.01) && ok(self.inc, 0.0) {
            Ok(())
        } else {
            Err(ParseError(format!(
                "clock {}+{} is out of range (0.01 to 86400 seconds, increment 0 or more)",
                self.base, self.inc
            )))
        }
    }
}

/// The clocks of a game: time left per player, the running one's turn
/// started at `since`.
struct Clocks {
    clock: Clock,
    left: Vec<f64>,
    since: std::time::Instant,
    /// Counts the turns, so that a flag timer of an old turn does nothing.
    turn: u64,
    /// The player whose time ran out.
    flag: Option<usize>,
}

impl Clocks {
    fn new(clock: Clock, players: usize) -> Clocks {
        Clocks {
            clock,
            left: vec![clock.base; players],
            since: std::time::Instant::now(),
            turn: 0,
            flag: None,
        }
    }

    /// The time left of `player` now, if it is the one to move.
    fn left_now(&self, player: usize, to_move: usize) -> f64 {
        let left = self.left.get(player).copied().unwrap_or(0.0);
        if player == to_move && self.flag.is_none() {
            left - self.since.elapsed().as_secs_f64()
        } else {
            left
        }
    }

    /// `mover` has moved: its time is charged, the increment added.
    fn moved(&mut self, mover: usize) {
        if self.flag.is_some() {
            return;
        }
        let used = self.since.elapsed().as_secs_f64();
        if let Some(l) = self.left.get_mut(mover) {
            *l -= used;
            if *l < 0.0 {
                self.flag = Some(mover);
                *l = 0.0;
                return;
            }
            *l += self.clock.inc;
        }
        self.since = std::time::Instant::now();
        self.turn += 1;
    }

    fn view(&self, to_move: usize, over: bool) -> Value {
        let running = (!over && self.flag.is_none()).then_some(to_move);
        json!({
            "base": self.clock.base,
            "inc": self.clock.inc,
            "left": self.left,
            "running": running,
            "elapsed": if running.is_some() { self.since.elapsed().as_secs_f64() } else { 0.0 },
            "flag": self.flag,
        })
    }
}

/// The game and its options as the page chooses them.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GameChoice {
    pub variant: String,
    #[serde(default)]
    pub players: Option<u8>,
    #[serde(default)]
    pub sets: Option<u8>,
    /// Rule options by their protocol name (`draw-moves`, `spoiling`, ...).
    #[serde(default)]
    pub options: std::collections::BTreeMap<String, Value>,
}

impl GameChoice {
    fn options(&self) -> ParseResult<Options> {
        let mut o = Options::new(self.variant.parse()?);
        if let Some(p) = self.players {
            o.set("players", &p.to_string())?;
        }
        if let Some(s) = self.sets {
            o.set("sets", &s.to_string())?;
        }
        for (name, v) in &self.options {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            o.set(name, &text)?;
        }
        // The page reads square numbers from the moves.
        o.notation = Notation::Numeric;
        o.validate()?;
        Ok(o)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum SearchKind {
    Play,
    Analyse,
}

struct Running {
    id: u64,
    kind: SearchKind,
    control: Arc<Control>,
}

/// The one table the page shows.
struct Table {
    opts: Options,
    layout: layout::Layout,
    session: Box<dyn Session>,
    seats: Vec<Seat>,
    analysing: bool,
    search: Option<Running>,
    next_id: u64,
    info: Option<SearchInfo>,
    /// The analysis' lines of the last iteration (`multipv` of them).
    lines: Vec<SearchInfo>,
    /// Lines the analysis reports.
    multipv: usize,
    /// The game analysis, running or done.
    review: Option<Review>,
    /// The clocks, when the game has a time control.
    clocks: Option<Clocks>,
    /// The tags of a game loaded from PDN.
    tags: Vec<(String, String)>,
}

/// The most lines the analysis shows.
const MAX_LINES: usize = 8;

/// A game analysis ("Analyse game"): of the line it was started on.
struct Review {
    id: u64,
    line: Vec<String>,
    control: Arc<Control>,
    running: bool,
    done: usize,
    total: usize,
    /// One per position when it has finished.
    points: Vec<adapter::ReviewPoint>,
    depth: Option<u32>,
    movetime: Option<f64>,
}

impl Review {
    fn view(&self) -> Value {
        json!({
            "running": self.running,
            "done": self.done,
            "total": self.total,
            "points": self.points,
            "depth": self.depth,
            "movetime": self.movetime,
        })
    }
}

struct Shared {
    /// The time control of a new game that names none (`salto gui --tc`).
    clock: Option<Clock>,
    /// The other Hub engines a seat may be (`salto gui --engine`), each
    /// started when a seat first needs it and kept for its game's
    /// parameters.
    engines: Vec<EngineSpec>,
    running_engines: Mutex<Vec<RunningEngine>>,
    table: Mutex<Table>,
    streams: Mutex<Vec<Sender<String>>>,
}

/// An external engine, started for these game parameters (or not yet).
type RunningEngine = Option<(Vec<(String, String)>, HubEngine)>;

/// Locks a mutex even if a thread panicked while holding it (the state
/// stays usable: every change is made in one step).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    fn broadcast(&self, event: &str, data: &Value) {
        let text = format!("event: {event}\ndata: {data}\n\n");
        lock(&self.streams).retain(|s| s.send(text.clone()).is_ok());
    }
}

/// An answer to a request: status, content type, body.
struct Reply {
    status: u16,
    kind: &'static str,
    body: String,
}

impl Reply {
    fn json(v: &Value) -> Reply {
        Reply {
            status: 200,
            kind: "application/json",
            body: v.to_string(),
        }
    }
    fn error(status: u16, msg: impl std::fmt::Display) -> Reply {
        Reply {
            status,
            kind: "application/json",
            body: json!({ "error": msg.to_string() }).to_string(),
        }
    }
    fn text(kind: &'static str, body: &str) -> Reply {
        Reply {
            status: 200,
            kind,
            body: body.to_string(),
        }
    }
}

impl From<ParseError> for Reply {
    fn from(e: ParseError) -> Reply {
        Reply::error(400, e)
    }
}

impl Table {
    fn new(opts: Options) -> ParseResult<Table> {
        let layout = layout::layout(&opts)?;
        let session = adapter::new_session(&opts)?;
        let n = session.players();
        Ok(Table {
            opts,
            layout,
            session,
            seats: vec![Seat::human(); n],
            analysing: false,
            search: None,
            next_id: 1,
            info: None,
            lines: Vec::new(),
            multipv: 1,
            review: None,
            clocks: None,
            tags: Vec::new(),
        })
    }

    /// Stops and forgets the running search (its result is ignored).
    fn cancel(&mut self) {
        if let Some(r) = self.search.take() {
            r.control.stop();
        }
        self.info = None;
        self.lines.clear();
    }

    /// Whose time ran out, if anyone's.
    fn flag(&self) -> Option<usize> {
        self.clocks.as_ref().and_then(|c| c.flag)
    }

    /// Plays a move at the shown position and runs the clocks.
    fn play(&mut self, mv: &str) -> ParseResult<()> {
        if self.flag().is_some() {
            return Err(ParseError::new("the game is over: time ran out"));
        }
        let mover = self.session.snapshot().to_move;
        self.session.play(mv)?;
        if let Some(c) = self.clocks.as_mut() {
            c.moved(mover);
        }
        Ok(())
    }

    /// The result: the rules', or a flag on time.
    fn result(&self, snap: &adapter::Snapshot) -> Option<adapter::GameEnd> {
        if let Some(loser) = self.flag() {
            let n = self.session.players();
            return Some(adapter::GameEnd {
                winner: (n == 2).then_some(1 - loser.min(1)),
                reason: format!("{} lost on time", self.layout_name(loser)),
            });
        }
        snap.result.clone()
    }

    fn layout_name(&self, player: usize) -> String {
        self.layout
            .players
            .get(player)
            .map_or_else(|| format!("Player {}", player + 1), |p| p.name.clone())
    }

    /// Stops and forgets the game analysis.
    fn cancel_review(&mut self) {
        if let Some(r) = self.review.take() {
            r.control.stop();
        }
    }

    /// Forgets a game analysis of another line than the one on the table.
    fn drop_stale_review(&mut self) {
        if self
            .review
            .as_ref()
            .is_some_and(|r| r.line != self.session.line())
        {
            self.cancel_review();
        }
    }

    /// The table as the page sees it. `version` grows with every state
    /// made (always under the table's lock), so that the page can drop an
    /// answer that arrives after a newer event.
    fn state(&self) -> Value {
        static VERSION: AtomicU64 = AtomicU64::new(1);
        let version = VERSION.fetch_add(1, Ordering::Relaxed);
        let snap = self.session.snapshot();
        let pieces = layout::pieces(&self.opts, &snap.fen).unwrap_or_default();
        let line = self.session.line();
        let ply = self.session.ply();
        let last = ply
            .checked_sub(1)
            .and_then(|i| line.get(i))
            .map(|t| adapter::MoveView::from_text(t));
        json!({
            "version": version,
            "variant": self.opts.variant.name(),
            "players": self.opts.players,
            "sets": self.opts.sets,
            "layout": self.layout,
            "pieces": pieces,
            "fen": snap.fen,
            "hub": snap.hub,
            "to_move": snap.to_move,
            "legal": snap.legal,
            "result": self.result(&snap),
            "clock": self.clocks.as_ref().map(|c| c.view(snap.to_move, snap.result.is_some())),
            "line": line,
            "pdn_line": self.session.pdn_line(),
            "ply": ply,
            "first_player": self.session.first_player(),
            "root_to_move": self.session.root_to_move(),
            "last": last,
            "seats": self.seats,
            "analysing": self.analysing,
            "searching": self.search.as_ref().map(|r| r.kind),
            "info": self.info,
            "lines": self.lines,
            "multipv": self.multipv,
            "review": self.review.as_ref().map(Review::view),
            "tags": self.tags,
        })
    }

    /// The game as PDN.
    fn pdn(&self) -> String {
        let snap = self.session.snapshot();
        let n = self.session.players();
        let names: Vec<String> = (0..n)
            .map(|p| match self.seats.get(p) {
                Some(s) if s.engine => match (s.depth, s.movetime) {
                    (Some(d), _) => format!("salto depth {d}"),
                    (None, Some(t)) => format!("salto {t} s"),
                    _ => "salto".into(),
                },
                _ => "human".into(),
            })
            .collect();
        let (kind, winner, reason) = match &snap.result {
            None => (EndKind::Unterminated, None, "unfinished".to_string()),
            Some(end) => (
                if end.reason.contains("repetition") {
                    EndKind::Repetition
                } else if end.winner.is_none() {
                    EndKind::DrawRule
                } else {
                    EndKind::Rules
                },
                end.winner,
                end.reason.clone(),
            ),
        };
        let line = self.session.line();
        let pdn_line = self.session.pdn_line();
        let ply = self.session.ply();
        let rec = GameRecord {
            seats: (0..n).collect(),
            names,
            points: vec![0.0; n],
            places: Vec::new(),
            winner,
            kind,
            culprit: None,
            reason,
            root_fen: self.session.custom_root(),
            moves: line[..ply].to_vec(),
            pdn_moves: pdn_line[..ply].to_vec(),
            comments: Vec::new(),
            opening_plies: 0,
            root_to_move: self.session.root_to_move(),
            first_player: self.session.first_player(),
            final_fen: snap.fen,
            think_time: vec![0.0; n],
        };
        let header = PdnHeader {
            event: "salto gui",
            site: "salto gui",
            variant: self.opts.variant.name(),
            round: 1,
            date: &today(),
        };
        write_game(&header, &rec)
    }
}

/// After a change to the table: drops a review the change made stale, arms
/// the clock's flag, starts the search the table now needs, and sends the
/// new state to every page (returned too).
fn settle(shared: &Arc<Shared>, mut t: MutexGuard<'_, Table>) -> Value {
    t.drop_stale_review();
    arm_flag(shared, &t);
    kick(shared, &mut t);
    let state = t.state();
    drop(t);
    shared.broadcast("state", &state);
    state
}

/// Starts whatever search the table needs now: the engine's move when an
/// engine seat is to move, else the analysis when it is switched on.
fn kick(shared: &Arc<Shared>, t: &mut Table) {
    if t.search.is_some() {
        return;
    }
    let snap = t.session.snapshot();
    if snap.result.is_some() || t.flag().is_some() {
        return;
    }
    let seat = t.seats.get(snap.to_move).cloned().unwrap_or(Seat::human());
    let clock = t
        .clocks
        .as_ref()
        .map(|c| (c.left_now(snap.to_move, snap.to_move), c.clock.inc));
    let (kind, limits) = if seat.engine {
        (SearchKind::Play, seat.limits_on(clock))
    } else if t.analysing {
        (
            SearchKind::Analyse,
            Limits {
                infinite: true,
                multipv: t.multipv,
                ..Limits::default()
            },
        )
    } else {
        return;
    };
    let id = t.next_id;
    t.next_id += 1;
    let control = Arc::new(Control::new());
    t.search = Some(Running {
        id,
        kind,
        control: control.clone(),
    });
    if kind == SearchKind::Play
        && let Some(name) = &seat.external
    {
        external_move(shared, t, id, name, &limits, snap.to_move);
        return;
    }
    let job = t.session.search_job(limits);
    let sh = shared.clone();
    let spawned = std::thread::Builder::new()
        .name("gui-search".into())
        .stack_size(64 << 20)
        .spawn(move || {
            let mut report = |info: SearchInfo| {
                {
                    let mut t = lock(&sh.table);
                    if t.search.as_ref().map(|r| r.id) != Some(id) {
                        return;
                    }
                    if info.multipv <= 1 {
                        t.info = Some(info.clone());
                        t.lines.clear();
                    }
                    let k = info.multipv.max(1) - 1;
                    if k == t.lines.len() {
                        t.lines.push(info.clone());
                    } else if k < t.lines.len() {
                        t.lines[k] = info.clone();
                    }
                }
                sh.broadcast("info", &json!({ "id": id, "kind": kind, "info": info }));
            };
            let best = job(&control, &mut report);
            let mut t = lock(&sh.table);
            if t.search.as_ref().map(|r| r.id) != Some(id) {
                return;
            }
            t.search = None;
            if kind == SearchKind::Play
                && let Some(mv) = best
                && let Err(e) = t.play(&mv)
            {
                log::error!("the engine's move {mv} was refused: {e}");
                sh.broadcast("error", &json!({ "error": e.to_string() }));
                return;
            }
            settle(&sh, t);
        });
    if let Err(e) = spawned {
        t.search = None;
        shared.broadcast(
            "error",
            &json!({ "error": format!("cannot start a search: {e}") }),
        );
    }
}

/// The `level` lines of a search's limits, as a Hub host sends them.
fn level_lines(l: &Limits) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(d) = l.depth {
        out.push(format!("level depth={d}"));
    }
    if let Some(t) = l.move_time {
        out.push(format!("level move-time={t}"));
    }
    if let Some(t) = l.time {
        out.push(format!("level time={t:.3} inc={}", l.inc));
    }
    out
}

/// An engine seat played by another Hub engine: on its own thread, the
/// engine (started for this game's parameters if it is not running) gets
/// the shown position and the seat's limits, and its move is played like
/// Salto's. A failing engine makes the seat a person's, with an error.
fn external_move(
    shared: &Arc<Shared>,
    t: &mut Table,
    id: u64,
    name: &str,
    limits: &Limits,
    player: usize,
) {
    let Some(index) = shared.engines.iter().position(|e| e.name == name) else {
        t.search = None;
        return;
    };
    let spec = shared.engines[index].clone();
    let params = crate::tournament::play::game_params(&t.opts);
    let position = t.session.engine_position();
    // "Move now" stops this control: the engine is sent `stop`.
    let control = t
        .search
        .as_ref()
        .map_or_else(|| Arc::new(Control::new()), |r| r.control.clone());
    let levels = level_lines(limits);
    // The engine's own time, and some slack: a hung engine ends the wait.
    let wait = limits
        .move_time
        .or(limits.time)
        .map_or(Duration::from_secs(600), |s| {
            Duration::from_secs_f64(s + 10.0)
        });
    let sh = shared.clone();
    let spawned = std::thread::Builder::new()
        .name("gui-engine".into())
        .spawn(move || {
            let slot = lock(&sh.running_engines)
                .get_mut(index)
                .and_then(Option::take);
            let engine = match slot {
                Some((p, e)) if p == params && e.is_alive() => Ok(e),
                other => {
                    if let Some((_, e)) = other {
                        e.quit();
                    }
                    HubEngine::start(
                        &spec,
                        &params,
                        Duration::from_secs(20),
                        &EngineHooks::default(),
                    )
                }
            };
            let answer = engine.and_then(|mut e| {
                let r = e.think_stoppable(&position, &levels, |at| at + wait, control);
                if let Some(s) = lock(&sh.running_engines).get_mut(index) {
                    *s = Some((params, e));
                }
                r
            });
            let mut t = lock(&sh.table);
            if t.search.as_ref().map(|r| r.id) != Some(id) {
                return;
            }
            t.search = None;
            let played = answer
                .map_err(|e| e.to_string())
                .and_then(|r| t.play(&r.mv).map_err(|e| format!("its move {}: {e}", r.mv)));
            if let Err(e) = played {
                if let Some(seat) = t.seats.get_mut(player) {
                    seat.engine = false;
                    seat.external = None;
                }
                sh.broadcast(
                    "error",
                    &json!({ "error": format!("engine {}: {e}; the seat is a person's now", spec.name) }),
                );
            }
            settle(&sh, t);
        });
    if let Err(e) = spawned {
        t.search = None;
        log::error!("cannot start the engine thread: {e}");
    }
}

/// Every external engine a seat names is one of `salto gui --engine`.
fn check_external(shared: &Shared, seats: &[Seat]) -> ParseResult<()> {
    for s in seats {
        if let Some(name) = &s.external
            && !shared.engines.iter().any(|e| &e.name == name)
        {
            let names: Vec<&str> = shared.engines.iter().map(|e| e.name.as_str()).collect();
            return Err(ParseError(format!(
                "no engine named '{}' (salto gui --engine gives: {})",
                crate::game::text::shorten(name, 40),
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )));
        }
    }
    Ok(())
}

/// Watches the running clock: when the player to move runs out of time
/// in this turn, the game ends on the flag (and a thinking engine stops).
fn arm_flag(shared: &Arc<Shared>, t: &Table) {
    let Some(c) = &t.clocks else { return };
    let snap = t.session.snapshot();
    if c.flag.is_some() || snap.result.is_some() {
        return;
    }
    let (turn, left) = (c.turn, c.left_now(snap.to_move, snap.to_move));
    let sh = shared.clone();
    let spawned = std::thread::Builder::new()
        .name("gui-clock".into())
        .spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(left.max(0.0) + 0.005));
            let mut t = lock(&sh.table);
            let to_move = t.session.snapshot().to_move;
            let Some(c) = t.clocks.as_mut() else { return };
            if c.turn != turn || c.flag.is_some() || c.left_now(to_move, to_move) > 0.0 {
                return;
            }
            c.flag = Some(to_move);
            c.left[to_move] = 0.0;
            t.cancel();
            let state = t.state();
            drop(t);
            sh.broadcast("state", &state);
        });
    if let Err(e) = spawned {
        log::error!("cannot start the clock thread: {e}");
    }
}

fn parse_json<T: for<'de> Deserialize<'de>>(body: &str) -> Result<T, Reply> {
    let body = if body.trim().is_empty() { "{}" } else { body };
    serde_json::from_str(body).map_err(|e| Reply::error(400, format!("bad JSON request: {e}")))
}

#[derive(Deserialize)]
struct NewRequest {
    #[serde(flatten)]
    game: GameChoice,
    #[serde(default)]
    seats: Option<Vec<Seat>>,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// A time control (`{"base": 60, "inc": 1}`); none: no clocks.
    #[serde(default)]
    clock: Option<Clock>,
}

fn check_seats(seats: &[Seat], players: usize) -> ParseResult<()> {
    if seats.len() != players {
        return Err(ParseError(format!(
            "{} seats given for a game of {players} players",
            seats.len()
        )));
    }
    seats.iter().try_for_each(Seat::check)
}

/// A fresh table for `req`, not yet installed.
fn build_table(req: &NewRequest) -> ParseResult<Table> {
    let opts = req.game.options()?;
    let mut t = Table::new(opts)?;
    if let Some(seats) = &req.seats {
        check_seats(seats, t.session.players())?;
        t.seats = seats.clone();
    }
    let fen = req.fen.as_deref().unwrap_or("");
    if !fen.trim().is_empty() || !req.moves.is_empty() {
        t.session.load(fen, &req.moves)?;
    }
    if let Some(c) = req.clock {
        c.check()?;
        t.clocks = Some(Clocks::new(c, t.session.players()));
    }
    Ok(t)
}

/// Loads game `index` of a PDN text into a fresh table. The variant comes
/// from the tags when they name one, else from `current`.
fn load_pdn(text: &str, index: usize, current: &Options) -> ParseResult<(Table, Vec<String>)> {
    let games = pdn::parse(text)?;
    let g = games.get(index).ok_or_else(|| {
        ParseError(format!(
            "game {} asked for, the file has {}",
            index + 1,
            games.len()
        ))
    })?;
    let mut opts = g.options(current)?;
    opts.notation = Notation::Numeric;
    let mut t = Table::new(opts)?;
    t.session.load(g.tag("FEN").unwrap_or(""), &g.moves)?;
    t.session.goto(0)?;
    t.tags = g.tags.clone();
    let titles = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let who: Vec<&str> = g
                .tags
                .iter()
                .filter(|(n, _)| n == "White" || n == "Black" || n.starts_with("Player"))
                .map(|(_, v)| v.as_str())
                .collect();
            format!("{}. {} ({} moves)", i + 1, who.join(" - "), g.moves.len())
        })
        .collect();
    Ok((t, titles))
}

/// The values a named rule option takes (`None` for a number).
fn option_values(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "turkish-promotion" => TurkishPromotion::NAMES,
        "foreign-corners" => ForeignCorners::NAMES,
        "unused-corners" => UnusedCorners::NAMES,
        "spoiling" => Spoiling::NAMES,
        _ => return None,
    })
}

/// The list of games and their options for the page's menus, from the
/// variant descriptors: a choice for named values, a number field with the
/// default for numbers (`draw-moves`, `max-moves`).
fn games() -> Value {
    let variants: Vec<Value> = Variant::ALL
        .into_iter()
        .map(|v| {
            let d = v.descriptor();
            let defaults = Options::new(v);
            let has = |name: &str| d.options.contains(&name);
            let options: Vec<Value> = d
                .options
                .iter()
                .filter(|n| !matches!(**n, "players" | "sets"))
                .map(|n| match option_values(n) {
                    Some(values) => json!({"name": n, "values": values}),
                    None => json!({"name": n, "number": defaults.value(n)}),
                })
                .collect();
            json!({
                "name": d.name,
                "players": if has("players") { vec![2, 3, 4, 6] } else { vec![2] },
                "sets": has("sets"),
                "options": options,
            })
        })
        .collect();
    json!({ "variants": variants })
}

/// An asset: from the binary, or from the directory in `SALTO_GUI_ASSETS`
/// when that is set (for working on the page without rebuilding).
fn asset(kind: &'static str, name: &str, embedded: &str) -> Reply {
    if let Some(dir) = std::env::var_os("SALTO_GUI_ASSETS")
        && let Ok(text) = std::fs::read_to_string(std::path::Path::new(&dir).join(name))
    {
        return Reply::text(kind, &text);
    }
    Reply::text(kind, embedded)
}

/// Decodes `%XX` escapes (and, in a query, `+` for a blank) as a browser
/// encodes them; a `%` not followed by two hex digits stays as it is, and
/// bytes that do not make UTF-8 become U+FFFD.
pub fn percent_decode(text: &str, plus_is_space: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let hex = |c: u8| (c as char).to_digit(16);
        if b == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(if plus_is_space && b == b'+' { b' ' } else { b });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A request as the handlers see it: the method, the decoded path, the
/// decoded query parameters in order, the body.
pub struct Request<'a> {
    pub method: &'a str,
    pub path: String,
    pub query: Vec<(String, String)>,
    pub body: &'a str,
}

impl<'a> Request<'a> {
    /// Splits and decodes `url` (`/path?name=value&...`).
    pub fn new(method: &'a str, url: &str, body: &'a str) -> Request<'a> {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let query = query
            .split('&')
            .filter(|kv| !kv.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                (percent_decode(k, true), percent_decode(v, true))
            })
            .collect();
        Request {
            method,
            path: percent_decode(path, false),
            query,
            body,
        }
    }

    /// The first value of query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn json<T: for<'de> Deserialize<'de>>(&self) -> Result<T, Reply> {
        parse_json(self.body)
    }
}

/// What a handler did.
enum Answer {
    /// The table changed: start what it needs, send the state to everyone.
    Changed,
    /// This answer, nothing else.
    Reply(Reply),
    /// This state, also sent to every page.
    Broadcast(Value),
}

type Handler = fn(&Arc<Shared>, &mut Table, &Request) -> Result<Answer, Reply>;

/// The routes: path, method, handler.
const ROUTES: &[(&str, &str, Handler)] = &[
    ("/", "GET", |_, _, _| Ok(Answer::Reply(index_page()))),
    ("/index.html", "GET", |_, _, _| {
        Ok(Answer::Reply(index_page()))
    }),
    ("/app.js", "GET", |_, _, _| {
        Ok(Answer::Reply(asset(
            "text/javascript; charset=utf-8",
            "app.js",
            APP_JS,
        )))
    }),
    ("/style.css", "GET", |_, _, _| {
        Ok(Answer::Reply(asset(
            "text/css; charset=utf-8",
            "style.css",
            STYLE_CSS,
        )))
    }),
    ("/api/games", "GET", |sh, _, _| {
        let mut g = games();
        g["engines"] = json!(
            sh.engines
                .iter()
                .map(|e| e.name.clone())
                .collect::<Vec<_>>()
        );
        Ok(Answer::Reply(Reply::json(&g)))
    }),
    ("/api/state", "GET", |_, t, _| {
        Ok(Answer::Reply(Reply::json(&t.state())))
    }),
    ("/api/pdn", "GET", |_, t, _| {
        Ok(Answer::Reply(Reply::text(
            "application/x-pdn; charset=utf-8",
            &t.pdn(),
        )))
    }),
    // Served by `stream_events`; here only for its 405.
    ("/api/events", "GET", |_, _, _| {
        Err(Reply::error(400, "an event stream"))
    }),
    ("/api/new", "POST", api_new),
    ("/api/move", "POST", api_move),
    ("/api/undo", "POST", api_undo),
    ("/api/goto", "POST", api_goto),
    ("/api/position", "POST", api_position),
    ("/api/seats", "POST", api_seats),
    ("/api/analyse", "POST", api_analyse),
    ("/api/review", "POST", api_review),
    ("/api/stop", "POST", api_stop),
    ("/api/watch", "POST", api_watch),
    ("/api/replay", "POST", api_replay),
];

fn index_page() -> Reply {
    asset("text/html; charset=utf-8", "index.html", INDEX_HTML)
}

fn api_new(shared: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    let mut req: NewRequest = r.json()?;
    if req.clock.is_none() {
        req.clock = shared.clock;
    }
    if let Some(seats) = &req.seats {
        check_external(shared, seats)?;
    }
    let fresh = build_table(&req)?;
    t.cancel();
    t.cancel_review();
    let (analysing, multipv) = (t.analysing, t.multipv);
    *t = fresh;
    t.analysing = analysing;
    t.multipv = multipv;
    Ok(Answer::Changed)
}

fn api_move(_: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    #[derive(Deserialize)]
    struct M {
        #[serde(rename = "move")]
        mv: String,
    }
    let req: M = r.json()?;
    let snap = t.session.snapshot();
    if t.seats.get(snap.to_move).is_some_and(|s| s.engine) {
        return Err(Reply::error(409, "it is the engine's turn"));
    }
    t.cancel();
    t.play(&req.mv)?;
    Ok(Answer::Changed)
}

fn api_undo(_: &Arc<Shared>, t: &mut Table, _: &Request) -> Result<Answer, Reply> {
    t.cancel();
    let mut ply = t.session.ply();
    if ply == 0 {
        return Err(Reply::error(409, "nothing to take back"));
    }
    ply -= 1;
    // Back to a position where a person is to move.
    while ply > 0 {
        if t.session.goto(ply).is_err() {
            break;
        }
        let to_move = t.session.snapshot().to_move;
        if !t.seats.get(to_move).is_some_and(|s| s.engine) {
            break;
        }
        ply -= 1;
    }
    t.session.goto(ply)?;
    Ok(Answer::Changed)
}

fn api_goto(_: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    #[derive(Deserialize)]
    struct G {
        ply: usize,
    }
    let req: G = r.json()?;
    t.cancel();
    t.session.goto(req.ply)?;
    Ok(Answer::Changed)
}

fn api_position(_: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    #[derive(Deserialize)]
    struct P {
        fen: String,
    }
    let req: P = r.json()?;
    if req.fen.trim().is_empty() {
        return Err(Reply::error(
            400,
            "empty position: give a FEN or a Hub position string",
        ));
    }
    t.session.load(&req.fen, &[])?;
    t.cancel();
    t.tags.clear();
    Ok(Answer::Changed)
}

fn api_seats(shared: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    #[derive(Deserialize)]
    struct S {
        seats: Vec<Seat>,
    }
    let req: S = r.json()?;
    check_external(shared, &req.seats)?;
    check_seats(&req.seats, t.session.players())?;
    t.cancel();
    t.seats = req.seats;
    Ok(Answer::Changed)
}

fn api_analyse(_: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    #[derive(Deserialize)]
    struct A {
        on: bool,
        #[serde(default)]
        multipv: Option<usize>,
    }
    let req: A = r.json()?;
    if let Some(k) = req.multipv {
        if !(1..=MAX_LINES).contains(&k) {
            return Err(Reply::error(
                400,
                format!("multipv {k} is out of range (1..={MAX_LINES})"),
            ));
        }
        if k != t.multipv {
            t.multipv = k;
            // A running analysis starts again with the new count.
            if t.search
                .as_ref()
                .is_some_and(|s| s.kind == SearchKind::Analyse)
            {
                t.cancel();
            }
        }
    }
    t.analysing = req.on;
    if !req.on
        && t.search
            .as_ref()
            .is_some_and(|r| r.kind == SearchKind::Analyse)
    {
        t.cancel();
    }
    Ok(Answer::Changed)
}

fn api_review(shared: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    #[derive(Deserialize)]
    struct R {
        #[serde(default)]
        cancel: bool,
        #[serde(default)]
        depth: Option<u32>,
        #[serde(default)]
        movetime: Option<f64>,
    }
    let req: R = r.json()?;
    if req.cancel {
        t.cancel_review();
        return Ok(Answer::Changed);
    }
    let seat = Seat {
        engine: true,
        depth: req.depth,
        movetime: req.movetime,
        external: None,
    };
    seat.check()?;
    let limits = seat.limits();
    t.cancel_review();
    start_review(shared, t, limits, req.depth, req.movetime);
    Ok(Answer::Changed)
}

/// Starts the game analysis of the table's line on its own thread: it
/// sends `review` events with its progress, and the state when done.
fn start_review(
    shared: &Arc<Shared>,
    t: &mut Table,
    limits: Limits,
    depth: Option<u32>,
    movetime: Option<f64>,
) {
    let id = t.next_id;
    t.next_id += 1;
    let control = Arc::new(Control::new());
    let line = t.session.line();
    t.review = Some(Review {
        id,
        total: line.len() + 1,
        line,
        control: control.clone(),
        running: true,
        done: 0,
        points: Vec::new(),
        depth,
        movetime,
    });
    let job = t.session.review_job(limits);
    let sh = shared.clone();
    let spawned = std::thread::Builder::new()
        .name("gui-review".into())
        .stack_size(64 << 20)
        .spawn(move || {
            let mut progress = |done: usize, total: usize| {
                {
                    let mut t = lock(&sh.table);
                    match t.review.as_mut() {
                        Some(r) if r.id == id => r.done = done,
                        _ => return,
                    }
                }
                sh.broadcast("review", &json!({ "id": id, "done": done, "total": total }));
            };
            let points = job(&control, &mut progress);
            let mut t = lock(&sh.table);
            match t.review.as_mut() {
                Some(r) if r.id == id && !control.should_stop() => {
                    r.running = false;
                    r.points = points;
                }
                _ => return,
            }
            let state = t.state();
            drop(t);
            sh.broadcast("state", &state);
        });
    if let Err(e) = spawned {
        t.review = None;
        shared.broadcast(
            "error",
            &json!({ "error": format!("cannot start the analysis: {e}") }),
        );
    }
}

fn api_stop(_: &Arc<Shared>, t: &mut Table, _: &Request) -> Result<Answer, Reply> {
    // The engine plays the best move found so far; an analysis stops (and
    // stays off).
    match &t.search {
        Some(r) if r.kind == SearchKind::Play => r.control.stop(),
        Some(_) => {
            t.analysing = false;
            t.cancel();
        }
        None => {}
    }
    Ok(Answer::Reply(Reply::json(&t.state())))
}

fn api_watch(_: &Arc<Shared>, t: &mut Table, r: &Request) -> Result<Answer, Reply> {
    let index = match r.param("game") {
        None => 0,
        Some(g) => g
            .trim()
            .parse::<usize>()
            .ok()
            .and_then(|g| g.checked_sub(1))
            .ok_or_else(|| Reply::error(400, "game= must be a number from 1"))?,
    };
    let (fresh, titles) = load_pdn(r.body, index, &t.opts)?;
    t.cancel();
    t.cancel_review();
    *t = fresh;
    let mut state = t.state();
    state["games"] = json!(titles);
    state["game"] = json!(index + 1);
    Ok(Answer::Broadcast(state))
}

fn api_replay(_: &Arc<Shared>, _: &mut Table, r: &Request) -> Result<Answer, Reply> {
    // Stateless: the position after some moves, as Salto's rules see it
    // (the browser test checks the page against it).
    let req: NewRequest = r.json()?;
    let fresh = build_table(&req)?;
    let s = fresh.session.snapshot();
    let pieces = layout::pieces(&fresh.opts, &s.fen).unwrap_or_default();
    Ok(Answer::Reply(Reply::json(&json!({
        "fen": s.fen, "to_move": s.to_move, "legal": s.legal,
        "result": s.result, "pieces": pieces,
    }))))
}

/// Answers one API or asset request (everything but the event stream):
/// the route of its path, 405 for a known path with another method, 404
/// for an unknown one.
fn route(shared: &Arc<Shared>, req: &Request) -> Reply {
    let same_path: Vec<&(&str, &str, Handler)> =
        ROUTES.iter().filter(|(p, _, _)| *p == req.path).collect();
    let Some(&&(_, _, handler)) = same_path.iter().find(|(_, m, _)| *m == req.method) else {
        return match same_path.first() {
            Some((_, m, _)) => Reply::error(405, format!("{} takes {m}", req.path)),
            None => Reply::error(404, format!("no such page: {}", req.path)),
        };
    };
    let mut t = lock(&shared.table);
    match handler(shared, &mut t, req) {
        Err(reply) | Ok(Answer::Reply(reply)) => reply,
        Ok(Answer::Broadcast(state)) => {
            drop(t);
            shared.broadcast("state", &state);
            Reply::json(&state)
        }
        Ok(Answer::Changed) => {
            let state = settle(shared, t);
            Reply::json(&state)
        }
    }
}

/// Serves one event stream until the page goes away.
fn stream_events(shared: &Arc<Shared>, req: tiny_http::Request) {
    let (tx, rx): (Sender<String>, Receiver<String>) = channel();
    let first = {
        let t = lock(&shared.table);
        format!("event: state\ndata: {}\n\n", t.state())
    };
    lock(&shared.streams).push(tx);
    let mut w = req.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    if w.write_all(head.as_bytes())
        .and_then(|_| w.write_all(first.as_bytes()))
        .and_then(|_| w.flush())
        .is_err()
    {
        return;
    }
    loop {
        let text = match rx.recv_timeout(KEEPALIVE) {
            Ok(t) => t,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
            Err(_) => return,
        };
        if w.write_all(text.as_bytes())
            .and_then(|_| w.flush())
            .is_err()
        {
            return;
        }
    }
}

fn handle(shared: &Arc<Shared>, mut req: tiny_http::Request) {
    let method = req.method().as_str().to_ascii_uppercase();
    let url = req.url().to_string();
    if method == "GET" && Request::new(&method, &url, "").path == "/api/events" {
        stream_events(shared, req);
        return;
    }
    let mut body = Vec::new();
    let read = req
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    let reply = if read.is_err() {
        Reply::error(400, "cannot read the request body")
    } else if body.len() > MAX_BODY {
        Reply::error(413, format!("request body over {} MiB", MAX_BODY >> 20))
    } else {
        match String::from_utf8(body) {
            Ok(text) => route(shared, &Request::new(&method, &url, &text)),
            Err(_) => Reply::error(400, "the request body is not UTF-8"),
        }
    };
    let mut response = tiny_http::Response::from_string(reply.body).with_status_code(reply.status);
    if let Ok(h) = tiny_http::Header::from_bytes("Content-Type", reply.kind) {
        response.add_header(h);
    }
    if let Ok(h) = tiny_http::Header::from_bytes("Cache-Control", "no-store") {
        response.add_header(h);
    }
    let _ = req.respond(response);
}

/// A running GUI server.
pub struct Server {
    pub addr: SocketAddr,
    http: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Serves until [`Server::stop`] (or for ever: see [`Server::wait`]).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Stops accepting requests.
    pub fn stop(mut self) {
        self.http.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts the server on `host:port` (port 0: any free port) with an
/// international game on the table.
pub fn start(host: &str, port: u16) -> Result<Server, String> {
    start_with(host, port, None, Vec::new())
}

/// [`start`], with a time control for every new game that names none and
/// other Hub engines a seat may be.
pub fn start_with(
    host: &str,
    port: u16,
    clock: Option<Clock>,
    engines: Vec<EngineSpec>,
) -> Result<Server, String> {
    if let Some(c) = clock {
        c.check().map_err(|e| e.to_string())?;
    }
    let http = tiny_http::Server::http((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let addr = http
        .server_addr()
        .to_ip()
        .ok_or_else(|| "the server has no IP address".to_string())?;
    let table = Table::new(Options::new(Variant::International)).map_err(|e| e.to_string())?;
    let mut table = table;
    if let Some(c) = clock {
        table.clocks = Some(Clocks::new(c, table.session.players()));
    }
    let running_engines = Mutex::new(engines.iter().map(|_| None).collect());
    let shared = Arc::new(Shared {
        clock,
        engines,
        running_engines,
        table: Mutex::new(table),
        streams: Mutex::new(Vec::new()),
    });
    let http = Arc::new(http);
    let h = http.clone();
    let thread = std::thread::Builder::new()
        .name("gui-http".into())
        .spawn(move || {
            for req in h.incoming_requests() {
                let sh = shared.clone();
                let spawned = std::thread::Builder::new()
                    .name("gui-request".into())
                    .spawn(move || handle(&sh, req));
                if let Err(e) = spawned {
                    log::error!("cannot start a request thread: {e}");
                }
            }
        })
        .map_err(|e| format!("cannot start the server thread: {e}"))?;
    Ok(Server {
        addr,
        http,
        thread: Some(thread),
    })
}
