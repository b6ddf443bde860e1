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
use crate::tournament::pdn::{PdnHeader, today, write_game};
use crate::tournament::play::{EndKind, GameRecord};
use crate::variant::{
    DESCRIPTORS, ForeignCorners, Notation, Options, Spoiling, TurkishPromotion, UnusedCorners,
    Variant,
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
}

impl Seat {
    fn human() -> Seat {
        Seat {
            engine: false,
            depth: None,
            movetime: None,
        }
    }

    fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            move_time: self.movetime,
            multipv: 1,
            ..Limits::default()
        };
        if l.depth.is_none() && l.move_time.is_none() {
            l.move_time = Some(1.0);
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
    /// The tags of a game loaded from PDN.
    tags: Vec<(String, String)>,
}

struct Shared {
    table: Mutex<Table>,
    streams: Mutex<Vec<Sender<String>>>,
}

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
            tags: Vec::new(),
        })
    }

    /// Stops and forgets the running search (its result is ignored).
    fn cancel(&mut self) {
        if let Some(r) = self.search.take() {
            r.control.stop();
        }
        self.info = None;
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
            "result": snap.result,
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

/// Starts whatever search the table needs now: the engine's move when an
/// engine seat is to move, else the analysis when it is switched on.
fn kick(shared: &Arc<Shared>, t: &mut Table) {
    if t.search.is_some() {
        return;
    }
    let snap = t.session.snapshot();
    if snap.result.is_some() {
        return;
    }
    let seat = t.seats.get(snap.to_move).cloned().unwrap_or(Seat::human());
    let (kind, limits) = if seat.engine {
        (SearchKind::Play, seat.limits())
    } else if t.analysing {
        (
            SearchKind::Analyse,
            Limits {
                infinite: true,
                multipv: 1,
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
                    t.info = Some(info.clone());
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
                && let Err(e) = t.session.play(&mv)
            {
                log::error!("the engine's move {mv} was refused: {e}");
                sh.broadcast("error", &json!({ "error": e.to_string() }));
                return;
            }
            kick(&sh, &mut t);
            let state = t.state();
            drop(t);
            sh.broadcast("state", &state);
        });
    if let Err(e) = spawned {
        t.search = None;
        shared.broadcast(
            "error",
            &json!({ "error": format!("cannot start a search: {e}") }),
        );
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
    Ok(t)
}

/// The variant a PDN game names in its tags (`Variant`, else `GameType`),
/// if any.
fn pdn_variant(g: &pdn::PdnGame) -> Option<Variant> {
    if let Some(v) = g.tag("Variant").and_then(|v| v.parse().ok()) {
        return Some(v);
    }
    let number: u32 = g.tag("GameType")?.split(',').next()?.trim().parse().ok()?;
    DESCRIPTORS
        .iter()
        .find(|d| d.pdn_game_type == Some(number))
        .map(|d| d.variant)
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
    // The tags name the variant (and the players); the other options (sets,
    // rule choices) are not in PDN: those of the game on the table are kept
    // when it is the same variant.
    let mut opts = current.clone();
    if let Some(v) = pdn_variant(g)
        && v != current.variant
    {
        opts = Options::new(v);
    }
    if opts.variant == Variant::Chinese {
        let n = g
            .tags
            .iter()
            .filter(|(n, _)| n.starts_with("Player"))
            .count();
        if n >= 2 && n != opts.players as usize {
            opts.set("players", &n.to_string())?;
            opts.sets = 1;
        }
    }
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
    let variants: Vec<Value> = DESCRIPTORS
        .iter()
        .map(|d| {
            let defaults = Options::new(d.variant);
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

/// Answers one API or asset request (everything but the event stream).
fn route(shared: &Arc<Shared>, method: &str, url: &str, body: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let get = method == "GET";
    let post = method == "POST";
    let mut t = lock(&shared.table);
    let reply = match (path, get, post) {
        ("/" | "/index.html", true, _) => {
            return asset("text/html; charset=utf-8", "index.html", INDEX_HTML);
        }
        ("/app.js", true, _) => return asset("text/javascript; charset=utf-8", "app.js", APP_JS),
        ("/style.css", true, _) => return asset("text/css; charset=utf-8", "style.css", STYLE_CSS),
        ("/api/games", true, _) => return Reply::json(&games()),
        ("/api/state", true, _) => return Reply::json(&t.state()),
        ("/api/pdn", true, _) => return Reply::text("application/x-pdn; charset=utf-8", &t.pdn()),
        ("/api/new", _, true) => {
            let req: NewRequest = match parse_json(body) {
                Ok(r) => r,
                Err(e) => return e,
            };
            match build_table(&req) {
                Ok(fresh) => {
                    t.cancel();
                    let analysing = t.analysing;
                    *t = fresh;
                    t.analysing = analysing;
                    Ok(())
                }
                Err(e) => Err(e),
            }
        }
        ("/api/move", _, true) => {
            #[derive(Deserialize)]
            struct M {
                #[serde(rename = "move")]
                mv: String,
            }
            let req: M = match parse_json(body) {
                Ok(r) => r,
                Err(e) => return e,
            };
            let snap = t.session.snapshot();
            if t.seats.get(snap.to_move).is_some_and(|s| s.engine) {
                return Reply::error(409, "it is the engine's turn");
            }
            t.cancel();
            t.session.play(&req.mv)
        }
        ("/api/undo", _, true) => {
            t.cancel();
            let mut ply = t.session.ply();
            if ply == 0 {
                return Reply::error(409, "nothing to take back");
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
            t.session.goto(ply)
        }
        ("/api/goto", _, true) => {
            #[derive(Deserialize)]
            struct G {
                ply: usize,
            }
            let req: G = match parse_json(body) {
                Ok(r) => r,
                Err(e) => return e,
            };
            t.cancel();
            t.session.goto(req.ply)
        }
        ("/api/position", _, true) => {
            #[derive(Deserialize)]
            struct P {
                fen: String,
            }
            let req: P = match parse_json(body) {
                Ok(r) => r,
                Err(e) => return e,
            };
            if req.fen.trim().is_empty() {
                return Reply::error(400, "empty position: give a FEN or a Hub position string");
            }
            t.cancel();
            t.tags.clear();
            t.session.load(&req.fen, &[])
        }
        ("/api/seats", _, true) => {
            #[derive(Deserialize)]
            struct S {
                seats: Vec<Seat>,
            }
            let req: S = match parse_json(body) {
                Ok(r) => r,
                Err(e) => return e,
            };
            match check_seats(&req.seats, t.session.players()) {
                Ok(()) => {
                    t.cancel();
                    t.seats = req.seats;
                    Ok(())
                }
                Err(e) => Err(e),
            }
        }
        ("/api/analyse", _, true) => {
            #[derive(Deserialize)]
            struct A {
                on: bool,
            }
            let req: A = match parse_json(body) {
                Ok(r) => r,
                Err(e) => return e,
            };
            t.analysing = req.on;
            if !req.on
                && t.search
                    .as_ref()
                    .is_some_and(|r| r.kind == SearchKind::Analyse)
            {
                t.cancel();
            }
            Ok(())
        }
        ("/api/stop", _, true) => {
            // The engine plays the best move found so far; an analysis
            // stops (and stays off).
            match &t.search {
                Some(r) if r.kind == SearchKind::Play => r.control.stop(),
                Some(_) => {
                    t.analysing = false;
                    t.cancel();
                }
                None => {}
            }
            return Reply::json(&t.state());
        }
        ("/api/watch", _, true) => {
            let index = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("game="))
                .map(|v| v.parse::<usize>().ok().and_then(|g| g.checked_sub(1)));
            let index = match index {
                None => 0,
                Some(Some(i)) => i,
                Some(None) => return Reply::error(400, "game= must be a number from 1"),
            };
            match load_pdn(body, index, &t.opts) {
                Ok((fresh, titles)) => {
                    t.cancel();
                    *t = fresh;
                    let mut state = t.state();
                    state["games"] = json!(titles);
                    state["game"] = json!(index + 1);
                    drop(t);
                    shared.broadcast("state", &state);
                    return Reply::json(&state);
                }
                Err(e) => Err(e),
            }
        }
        ("/api/replay", _, true) => {
            // Stateless: the position after some moves, as Salto's rules
            // see it (the browser test checks the page against it).
            let req: NewRequest = match parse_json(body) {
                Ok(r) => r,
                Err(e) => return e,
            };
            return match build_table(&req) {
                Ok(fresh) => {
                    let s = fresh.session.snapshot();
                    let pieces = layout::pieces(&fresh.opts, &s.fen).unwrap_or_default();
                    Reply::json(&json!({
                        "fen": s.fen, "to_move": s.to_move, "legal": s.legal,
                        "result": s.result, "pieces": pieces,
                    }))
                }
                Err(e) => e.into(),
            };
        }
        (
            "/" | "/index.html" | "/app.js" | "/style.css" | "/api/games" | "/api/state"
            | "/api/pdn" | "/api/events",
            _,
            _,
        ) => return Reply::error(405, format!("{path} takes GET")),
        (
            "/api/new" | "/api/move" | "/api/undo" | "/api/goto" | "/api/position" | "/api/seats"
            | "/api/analyse" | "/api/stop" | "/api/watch" | "/api/replay",
            _,
            _,
        ) => return Reply::error(405, format!("{path} takes POST")),
        _ => return Reply::error(404, format!("no such page: {path}")),
    };
    match reply {
        Ok(()) => {
            kick(shared, &mut t);
            let state = t.state();
            drop(t);
            shared.broadcast("state", &state);
            Reply::json(&state)
        }
        Err(e) => e.into(),
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
    if method == "GET" && url.split('?').next() == Some("/api/events") {
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
            Ok(text) => route(shared, &method, &url, &text),
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
    let http = tiny_http::Server::http((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let addr = http
        .server_addr()
        .to_ip()
        .ok_or_else(|| "the server has no IP address".to_string())?;
    let table = Table::new(Options::new(Variant::International)).map_err(|e| e.to_string())?;
    let shared = Arc::new(Shared {
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
