//! The referee: plays one game between Hub engines with Salto's own rules.
//! Every move an engine sends is checked against the legal moves; the
//! runner keeps the clocks; the game ends by the variant's rules
//! ([`Game::outcome`], no legal move, repetition of the position's hash),
//! by adjudication, or by an engine's failure, which loses the game for it.

use super::engine::{EngineError, EngineHooks, EngineSpec, HubEngine, ThinkResult, quote};
use super::ranking::{PointsScheme, Standing, places};
pub use super::time_control::TimeControl;
use crate::game::{Game, MoveList, Outcome};
use std::time::{Duration, Instant};

/// When to end a game early on the engines' own scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjudication {
    /// Adjudicate a draw from this full move on ...
    pub draw_after: Option<u32>,
    /// ... when both engines' scores stay within this many men of 0.
    pub draw_score: f64,
    /// Adjudicate a win when both engines agree that one side is ahead by
    /// at least this many men.
    pub win_score: Option<f64>,
    /// For this many consecutive plies.
    pub plies: u32,
}

impl Adjudication {
    /// Parses `draw=80,win=10.0,moves=N[,drawscore=0.1]`: `draw=M` draws
    /// from full move M on when every score of the last `moves` plies is
    /// within `drawscore` (default 0.10 men) of 0; `win=S` gives the game
    /// when every score of the last `moves` plies says the same side is
    /// ahead by S men or more; `moves` defaults to 4 plies.
    pub fn parse(text: &str) -> Result<Adjudication, String> {
        let mut a = Adjudication {
            draw_after: None,
            draw_score: 0.10,
            win_score: None,
            plies: 4,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("adjudicate: '{part}' is not of the form NAME=VALUE"))?;
            let num: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("adjudicate: bad number '{v}' for {k}"))?;
            match k.trim() {
                "draw" => a.draw_after = Some(num as u32),
                "drawscore" | "draw-score" => a.draw_score = num,
                "win" => a.win_score = Some(num),
                "moves" => a.plies = (num as u32).max(1),
                other => {
                    return Err(format!(
                        "adjudicate: unknown parameter '{other}' (expected draw, drawscore, win, moves)"
                    ));
                }
            }
        }
        Ok(a)
    }
}

/// The referee's settings for every game of a match.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    pub tc: TimeControl,
    /// Extra time an engine may use beyond its clock before it loses, seconds.
    pub margin: f64,
    /// The longest wait for a move without a clock (fixed-depth and
    /// fixed-node searches), seconds.
    pub timeout: f64,
    /// The longest wait for each step of an engine's start-up (`hub` to
    /// `wait`, `init` to `ready`), seconds.
    pub start_timeout: f64,
    pub adjudication: Option<Adjudication>,
    /// End the game as a draw after this many plies (0: never).
    pub max_plies: u32,
    /// Draw on the third occurrence of a position.
    pub repetition: bool,
    /// The `set-param` lines that select the game (variant and options).
    pub game_params: Vec<(String, String)>,
    /// Points per finishing place (default [`PointsScheme::linear`]).
    pub points: Option<PointsScheme>,
    /// The log and the interrupt flag every engine gets.
    pub hooks: EngineHooks,
}

/// Where a game starts: a root position (the variant's start or a FEN) and
/// the opening moves played from it before the engines take over.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    pub root: G::Position,
    /// The root is not the variant's start (the PDN gets a FEN tag).
    pub custom_root: bool,
    pub moves: Vec<G::Move>,
}

/// One engine of the match in one worker: started on first use, restarted
/// when it has died.
pub struct EngineSlot {
    pub spec: EngineSpec,
    engine: Option<HubEngine>,
}

impl EngineSlot {
    pub fn new(spec: EngineSpec) -> Self {
        EngineSlot { spec, engine: None }
    }

    /// The running engine, (re)started if needed.
    pub fn ensure(
        &mut self,
        params: &[(String, String)],
        timeout: Duration,
        hooks: &EngineHooks,
    ) -> Result<&mut HubEngine, EngineError> {
        if self.engine.as_ref().is_some_and(|e| !e.is_alive())
            && let Some(e) = self.engine.take()
        {
            e.kill();
        }
        if self.engine.is_none() {
            let e = HubEngine::start(&self.spec, params, timeout, hooks)?;
            self.engine = Some(e);
        }
        self.engine
            .as_mut()
            .ok_or_else(|| EngineError::Spawn("engine vanished".into()))
    }

    /// Kills the process; the next use starts a new one.
    pub fn kill(&mut self) {
        if let Some(e) = self.engine.take() {
            e.kill();
        }
    }

    /// Quits the process politely.
    pub fn quit(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// The rules decided it: no legal move, a home corner filled.
    Rules,
    /// A draw by a move-count rule ([`Outcome::Draw`]).
    DrawRule,
    /// Third occurrence of a position.
    Repetition,
    /// Adjudicated on the engines' scores.
    Adjudicated,
    /// The runner's ply limit.
    MaxPlies,
    /// An illegal or unparsable move.
    Illegal,
    /// Over the clock (with margin).
    Flag,
    /// No move within the hang timeout (no clock).
    Hung,
    /// The process died.
    Crash,
    /// The process could not be started or did not complete the handshake.
    StartFailed,
    /// `error` instead of `done`, or a malformed `done`.
    EngineError,
    /// No engine could play: the game is not counted.
    Aborted,
    /// The runner was stopped (SIGINT, SIGTERM): the game is not counted.
    Interrupted,
    /// Still being played (the GUI's current game): no result yet.
    Unterminated,
}

impl EndKind {
    pub fn name(self) -> &'static str {
        match self {
            EndKind::Rules => "rules",
            EndKind::DrawRule => "draw-rule",
            EndKind::Repetition => "repetition",
            EndKind::Adjudicated => "adjudication",
            EndKind::MaxPlies => "max-plies",
            EndKind::Illegal => "illegal-move",
            EndKind::Flag => "time-forfeit",
            EndKind::Hung => "hung",
            EndKind::Crash => "crash",
            EndKind::StartFailed => "start-failed",
            EndKind::EngineError => "engine-error",
            EndKind::Aborted => "aborted",
            EndKind::Interrupted => "interrupted",
            EndKind::Unterminated => "unterminated",
        }
    }

    /// Every ending, in declaration order.
    pub const ALL: [EndKind; 14] = [
        EndKind::Rules,
        EndKind::DrawRule,
        EndKind::Repetition,
        EndKind::Adjudicated,
        EndKind::MaxPlies,
        EndKind::Illegal,
        EndKind::Flag,
        EndKind::Hung,
        EndKind::Crash,
        EndKind::StartFailed,
        EndKind::EngineError,
        EndKind::Aborted,
        EndKind::Interrupted,
        EndKind::Unterminated,
    ];

    /// The ending [`EndKind::name`] names.
    pub fn from_name(name: &str) -> Option<EndKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The engine index of each player (seat).
    pub seats: Vec<usize>,
    /// The engine names by seat.
    pub names: Vec<String>,
    /// The points of each seat from its place (0 for all when aborted).
    pub points: Vec<f64>,
    /// The place of each seat, 0 = first, tied seats sharing a place (see
    /// [`super::ranking`]); empty when aborted.
    pub places: Vec<usize>,
    /// The winning seat: the only seat in first place, if there is one.
    pub winner: Option<usize>,
    pub kind: EndKind,
    /// The seat whose failure ended the game, if any.
    pub culprit: Option<usize>,
    /// The termination in words.
    pub reason: String,
    /// The root position as FEN when it is not the variant's start.
    pub root_fen: Option<String>,
    /// The moves from the root in Hub form (opening moves first).
    pub moves: Vec<String>,
    /// The same moves in PDN's short form (`28x19` when unambiguous).
    pub pdn_moves: Vec<String>,
    /// A comment per move (see [`annotation`]); empty for opening moves.
    pub comments: Vec<String>,
    pub opening_plies: usize,
    /// The player to move at the root.
    pub root_to_move: usize,
    /// The player who moves first from the variant's start (numbered moves
    /// begin with them).
    pub first_player: usize,
    pub final_fen: String,
    /// Seconds each seat spent thinking.
    pub think_time: Vec<f64>,
}

struct GameState<G: Game> {
    pos: G::Position,
    hashes: Vec<u64>,
    moves: Vec<String>,
    pdn_moves: Vec<String>,
    comments: Vec<String>,
}

/// A move as PDN writes it: a capture as `fromxto` when that names one
/// legal move, else the Hub form with every captured square.
pub fn short_move<G: Game>(game: &G, pos: &G::Position, mv: G::Move) -> String {
    let full = game.format_move(pos, mv);
    let parts: Vec<&str> = full.split('x').collect();
    if parts.len() > 2 {
        let short = format!("{}x{}", parts[0], parts[1]);
        if game.parse_move(pos, &short).ok() == Some(mv) {
            return short;
        }
    }
    full
}

impl<G: Game> GameState<G> {
    fn play(&mut self, game: &G, mv: G::Move, comment: String) {
        self.comments.push(comment);
        self.moves.push(game.format_move(&self.pos, mv));
        self.pdn_moves.push(short_move(game, &self.pos, mv));
        self.pos = game.play(&self.pos, mv);
        self.hashes.push(game.hash(&self.pos));
    }
}

/// The standing of every seat: `winner` first, `failed` last, the others
/// by their distance to winning when `by_distance` (else tied).
fn standings<G: Game>(
    game: &G,
    pos: &G::Position,
    winner: Option<usize>,
    failed: Option<usize>,
    by_distance: bool,
) -> Vec<Standing> {
    (0..game.num_players())
        .map(|p| {
            if Some(p) == winner {
                Standing::Winner
            } else if Some(p) == failed {
                Standing::Failed
            } else if by_distance {
                Standing::Racing(game.distance_to_win(pos, p))
            } else {
                Standing::Racing(None)
            }
        })
        .collect()
}

/// The players' distances to winning as text (`x 12, y 30`), or `None`
/// when the game does not measure them.
fn distances_text<G: Game>(game: &G, pos: &G::Position, names: &[String]) -> Option<String> {
    let d: Option<Vec<u32>> = (0..game.num_players())
        .map(|p| game.distance_to_win(pos, p))
        .collect();
    d.map(|d| {
        d.iter()
            .zip(names)
            .map(|(d, n)| format!("{n} {d}"))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// Plays one game. `seats[p]` is the index in `slots` of the engine that
/// plays player `p`. Never panics on engine behaviour: every failure ends
/// the game with the failing seat losing.
///
/// The game is four steps: [`Referee::start`] (engines up, `new-game`,
/// `ping`/`pong` before any clock runs), then in turn
/// [`Referee::check_end`] (rules, repetition, ply limit, adjudication),
/// [`Referee::ask`] (one search) and [`Referee::apply`] (clock and
/// legality), each of which may return the [`End`].
pub fn play_game<G: Game>(
    game: &G,
    opening: &Opening<G>,
    seats: &[usize],
    slots: &mut [EngineSlot],
    cfg: &RefereeConfig,
) -> GameRecord {
    let mut r = Referee::new(game, opening, seats, slots, cfg);
    let end = match r.start(slots) {
        Err(end) => end,
        Ok(()) => loop {
            if let Some(end) = r.check_end() {
                break end;
            }
            match r.ask(slots).and_then(|answer| r.apply(answer)) {
                Ok(()) => {}
                Err(end) => break end,
            }
        },
    };
    r.finish(end)
}

/// How a game ended, before the record is filled in.
pub struct End {
    pub kind: EndKind,
    /// Every seat's standing; empty for a game that does not count.
    pub standings: Vec<Standing>,
    /// The seat whose failure ended the game.
    pub culprit: Option<usize>,
    pub reason: String,
}

/// One game in progress.
struct Referee<'a, G: Game> {
    game: &'a G,
    cfg: &'a RefereeConfig,
    record: GameRecord,
    st: GameState<G>,
    /// The Hub form of the root position.
    root_hub: String,
    /// Each seat's limit: its engine's own, else the match's.
    tcs: Vec<TimeControl>,
    /// Each seat's margin: its engine's own, else the match's.
    margins: Vec<f64>,
    /// Seconds left on each seat's clock.
    clocks: Vec<f64>,
    /// Scores reported by the engines, converted to player 0's view, one
    /// per ply played by an engine.
    scores: Vec<Option<f64>>,
    list: MoveList<G::Move>,
}

/// What [`Referee::ask`] got: the engine's answer and the limit it had.
struct Asked {
    result: ThinkResult,
    limit: Option<f64>,
}

impl<'a, G: Game> Referee<'a, G> {
    fn new(
        game: &'a G,
        opening: &Opening<G>,
        seats: &[usize],
        slots: &[EngineSlot],
        cfg: &'a RefereeConfig,
    ) -> Self {
        let n = game.num_players();
        let mut st = GameState::<G> {
            pos: opening.root.clone(),
            hashes: vec![game.hash(&opening.root)],
            moves: Vec::new(),
            pdn_moves: Vec::new(),
            comments: Vec::new(),
        };
        for &mv in &opening.moves {
            st.play(game, mv, String::new());
        }
        let tcs: Vec<TimeControl> = seats
            .iter()
            .map(|&e| slots[e].spec.limit.unwrap_or(cfg.tc))
            .collect();
        let clocks = tcs
            .iter()
            .map(|tc| match tc {
                TimeControl::Clock { base, .. } => *base,
                _ => 0.0,
            })
            .collect();
        Referee {
            game,
            cfg,
            record: GameRecord {
                seats: seats.to_vec(),
                names: seats.iter().map(|&e| slots[e].spec.name.clone()).collect(),
                points: vec![0.0; n],
                places: Vec::new(),
                winner: None,
                kind: EndKind::Aborted,
                culprit: None,
                reason: String::new(),
                root_fen: opening.custom_root.then(|| game.format_fen(&opening.root)),
                moves: Vec::new(),
                pdn_moves: Vec::new(),
                comments: Vec::new(),
                opening_plies: opening.moves.len(),
                root_to_move: game.to_move(&opening.root),
                first_player: game.to_move(&game.start()),
                final_fen: String::new(),
                think_time: vec![0.0; n],
            },
            st,
            root_hub: game.format_hub_position(&opening.root),
            tcs,
            margins: seats
                .iter()
                .map(|&e| slots[e].spec.margin.unwrap_or(cfg.margin))
                .collect(),
            clocks,
            scores: Vec::new(),
            list: MoveList::new(),
        }
    }

    fn start_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.cfg.start_timeout.max(0.001))
    }

    /// An [`End`] with the standings of every seat (see [`standings`]).
    fn end(
        &self,
        kind: EndKind,
        winner: Option<usize>,
        culprit: Option<usize>,
        by_distance: bool,
        reason: String,
    ) -> End {
        End {
            kind,
            standings: standings(self.game, &self.st.pos, winner, culprit, by_distance),
            culprit,
            reason,
        }
    }

    /// A game that does not count.
    fn uncounted(kind: EndKind, reason: String) -> End {
        End {
            kind,
            standings: Vec::new(),
            culprit: None,
            reason,
        }
    }

    /// Starts (or restarts) every engine, tells it a new game begins and
    /// waits for its `pong`, so that nothing done before (starting,
    /// clearing the table) is charged to its clock.
    fn start(&mut self, slots: &mut [EngineSlot]) -> Result<(), End> {
        let n = self.record.seats.len();
        let timeout = self.start_timeout();
        let mut failed: Vec<(usize, EngineError)> = Vec::new();
        for (seat, &e) in self.record.seats.iter().enumerate() {
            let slot = &mut slots[e];
            let ok = slot
                .ensure(&self.cfg.game_params, timeout, &self.cfg.hooks)
                .and_then(|eng| {
                    eng.new_game()?;
                    eng.sync(Instant::now() + timeout)
                });
            if let Err(err) = ok {
                slot.kill();
                failed.push((seat, err));
            }
        }
        if self.cfg.hooks.interrupted() {
            return Err(Self::uncounted(EndKind::Interrupted, "interrupted".into()));
        }
        if failed.len() == n {
            return Err(Self::uncounted(
                EndKind::Aborted,
                format!("no engine could start: {}", failed[0].1),
            ));
        }
        match failed.into_iter().next() {
            Some((seat, err)) => Err(self.end(
                EndKind::StartFailed,
                None,
                Some(seat),
                true,
                format!("{} failed to start: {err}", self.record.names[seat]),
            )),
            None => Ok(()),
        }
    }

    /// Whether the game is over before the side to move is asked: the
    /// rules, repetition, the ply limit, adjudication.
    fn check_end(&mut self) -> Option<End> {
        let (game, cfg) = (self.game, self.cfg);
        let pos = &self.st.pos;
        let names = &self.record.names;
        let ranked = distances_text(game, pos, names).is_some();
        match game.outcome(pos) {
            Some(Outcome::Win(p)) => {
                let p = p.min(names.len() - 1);
                let reason = format!("{} wins by the rules", names[p]);
                return Some(self.end(EndKind::Rules, Some(p), None, true, reason));
            }
            Some(Outcome::Draw) => {
                let reason = if ranked {
                    "the move-count rule ended the game: ranked by distance to winning"
                } else {
                    "draw by the move-count rule"
                };
                return Some(self.end(EndKind::DrawRule, None, None, true, reason.into()));
            }
            None => {}
        }
        self.list.clear();
        game.generate(pos, &mut self.list);
        if self.list.is_empty() {
            let mover = game.to_move(pos);
            let reason = format!("{} has no legal move", names[mover]);
            // The rules end it; the player without a move is last.
            let mut end = self.end(EndKind::Rules, None, Some(mover), true, reason);
            end.culprit = None;
            return Some(end);
        }
        if cfg.repetition {
            let hashes = &self.st.hashes;
            let window = (game.reversible_plies(pos) as usize).min(hashes.len() - 1);
            let h = game.hash(pos);
            let count = hashes[hashes.len() - 1 - window..]
                .iter()
                .filter(|&&x| x == h)
                .count();
            if count >= 3 {
                let reason = "draw by threefold repetition".to_string();
                return Some(self.end(EndKind::Repetition, None, None, false, reason));
            }
        }
        let plies = self.st.moves.len();
        if cfg.max_plies > 0 && plies >= cfg.max_plies as usize {
            let reason = if ranked {
                format!("{plies} plies played (the runner's limit): ranked by distance to winning")
            } else {
                format!("draw: {plies} plies played (the runner's limit)")
            };
            return Some(self.end(EndKind::MaxPlies, None, None, true, reason));
        }
        if let (Some(adj), 2) = (cfg.adjudication, names.len())
            && let Some((winner, reason)) = adjudicate(&adj, &self.scores, plies)
        {
            return Some(self.end(EndKind::Adjudicated, winner, None, false, reason));
        }
        None
    }

    /// Asks the side to move's engine for a move.
    fn ask(&mut self, slots: &mut [EngineSlot]) -> Result<Asked, End> {
        let mover = self.game.to_move(&self.st.pos);
        let e = self.record.seats[mover];
        let mut position = format!("pos pos={}", quote(&self.root_hub));
        if !self.st.moves.is_empty() {
            position.push_str(&format!(" moves=\"{}\"", self.st.moves.join(" ")));
        }
        let clock = self.clocks[mover];
        let (level, limit) = match self.tcs[mover] {
            TimeControl::Clock { inc, .. } => (
                format!("level time={:.3} inc={inc}", clock.max(0.0)),
                Some(clock),
            ),
            TimeControl::MoveTime(t) => (format!("level move-time={t}"), Some(t)),
            TimeControl::Depth(d) => (format!("level depth={d}"), None),
            TimeControl::Nodes(nn) => (format!("level nodes={nn}"), None),
        };
        let margin = self.margins[mover];
        let wait = match limit {
            Some(l) => Duration::from_secs_f64((l + margin).max(0.0)),
            None => Duration::from_secs_f64(self.cfg.timeout.max(0.001)),
        };
        let answer = slots[e]
            .ensure(&self.cfg.game_params, self.start_timeout(), &self.cfg.hooks)
            .and_then(|eng| eng.think(&position, &[level], |start| start + wait));
        let name = &self.record.names[mover];
        let fen = self.game.format_fen(&self.st.pos);
        let (kind, reason) = match answer {
            Ok(result) => return Ok(Asked { result, limit }),
            Err(EngineError::Interrupted) => {
                slots[e].kill();
                return Err(Self::uncounted(EndKind::Interrupted, "interrupted".into()));
            }
            Err(EngineError::Timeout(_)) => {
                let synced = slots[e]
                    .engine
                    .as_mut()
                    .is_some_and(|eng| eng.stop_and_sync(Duration::from_secs(1)));
                if !synced {
                    slots[e].kill();
                }
                match limit {
                    Some(l) => (
                        EndKind::Flag,
                        format!("{name} loses on time (no move within {l:.3}s + margin {margin}s)"),
                    ),
                    None => (
                        EndKind::Hung,
                        format!("{name} hung: no move within {}s", self.cfg.timeout),
                    ),
                }
            }
            Err(err @ EngineError::Died(_)) | Err(err @ EngineError::Spawn(_)) => {
                slots[e].kill();
                (EndKind::Crash, format!("{name} crashed in {fen}: {err}"))
            }
            Err(err) => (
                EndKind::EngineError,
                format!("{name} failed in {fen}: {err}"),
            ),
        };
        Err(self.end(kind, None, Some(mover), true, reason))
    }

    /// Charges the clock and plays the engine's move, or ends the game on
    /// a flag or an illegal move.
    fn apply(&mut self, asked: Asked) -> Result<(), End> {
        let mover = self.game.to_move(&self.st.pos);
        let r = asked.result;
        let used = r.elapsed.as_secs_f64();
        let margin = self.margins[mover];
        self.record.think_time[mover] += used;
        let name = &self.record.names[mover];
        if let Some(l) = asked.limit
            && used > l + margin
        {
            let reason =
                format!("{name} loses on time ({used:.3}s used, {l:.3}s left, margin {margin}s)");
            return Err(self.end(EndKind::Flag, None, Some(mover), true, reason));
        }
        let mv = match self.game.parse_move(&self.st.pos, &r.mv) {
            Ok(mv) => mv,
            Err(err) => {
                let fen = self.game.format_fen(&self.st.pos);
                let reason = format!("{name} played illegal move \"{}\" in {fen}: {err}", r.mv);
                return Err(self.end(EndKind::Illegal, None, Some(mover), true, reason));
            }
        };
        if let TimeControl::Clock { inc, .. } = self.tcs[mover] {
            self.clocks[mover] += inc - used;
        }
        self.scores
            .push(r.score.map(|s| if mover == 0 { s } else { -s }));
        self.st.play(self.game, mv, annotation(&r));
        Ok(())
    }

    /// Fills in the record: places and points from the standings.
    fn finish(self, end: End) -> GameRecord {
        let Referee {
            game,
            cfg,
            mut record,
            st,
            ..
        } = self;
        let n = record.seats.len();
        let mut reason = end.reason;
        if !end.standings.is_empty() {
            let linear = PointsScheme::linear(n);
            let scheme = cfg.points.as_ref().unwrap_or(&linear);
            record.places = places(&end.standings);
            record.points = scheme.points(&record.places);
            let first: Vec<usize> = (0..n).filter(|&s| record.places[s] == 0).collect();
            record.winner = (first.len() == 1).then(|| first[0]);
            // Say how the players still racing were ordered.
            if n > 2
                && end
                    .standings
                    .iter()
                    .any(|s| matches!(s, Standing::Racing(Some(_))))
                && let Some(d) = distances_text(game, &st.pos, &record.names)
            {
                reason.push_str(&format!("; distances to winning: {d}"));
            }
        }
        record.kind = end.kind;
        record.culprit = end.culprit;
        record.reason = reason;
        record.final_fen = game.format_fen(&st.pos);
        record.moves = st.moves;
        record.pdn_moves = st.pdn_moves;
        record.comments = st.comments;
        record
    }
}

/// The PDN comment of an engine's move, the tournament managers'
/// convention: `-0.12/14 0.31s` (score from the mover's view in men,
/// depth, time), from its last `info`; the time is the runner's own
/// measure when the engine gave none.
pub fn annotation(r: &ThinkResult) -> String {
    let time = r.time.unwrap_or(r.elapsed.as_secs_f64());
    let mut s = String::new();
    if let Some(score) = r.score {
        // No "-0.00".
        s.push_str(&format!("{:+.2}", (score * 100.0).round() / 100.0 + 0.0));
        if let Some(d) = r.depth {
            s.push_str(&format!("/{d}"));
        }
        s.push(' ');
    }
    s.push_str(&format!("{time:.2}s"));
    s
}

/// Checks the adjudication rules on the scores so far (player 0's view).
fn adjudicate(
    adj: &Adjudication,
    scores: &[Option<f64>],
    plies: usize,
) -> Option<(Option<usize>, String)> {
    let k = adj.plies as usize;
    if scores.len() < k {
        return None;
    }
    let last: Vec<f64> = scores[scores.len() - k..]
        .iter()
        .copied()
        .collect::<Option<_>>()?;
    if let Some(w) = adj.win_score {
        if last.iter().all(|&s| s >= w) {
            return Some((
                Some(0),
                format!(
                    "adjudicated: both engines scored {w} men or more for player 1 over {k} plies"
                ),
            ));
        }
        if last.iter().all(|&s| s <= -w) {
            return Some((
                Some(1),
                format!(
                    "adjudicated: both engines scored {w} men or more for player 2 over {k} plies"
                ),
            ));
        }
    }
    if let Some(m) = adj.draw_after
        && plies >= 2 * m as usize
        && last.iter().all(|s| s.abs() <= adj.draw_score)
    {
        return Some((
            None,
            format!(
                "adjudicated draw: scores within {} men over {k} plies after move {m}",
                adj.draw_score
            ),
        ));
    }
    None
}

/// The `set-param` lines that select the game in every engine: the variant
/// (by its Hub name, Scan's `normal` for international) and every option of
/// the variant's descriptor that is not the default.
pub fn game_params(opts: &crate::variant::Options) -> Vec<(String, String)> {
    let d = crate::variant::Options::new(opts.variant);
    let desc = opts.variant.descriptor();
    let mut p = vec![("variant".to_string(), desc.hub_name.to_string())];
    for &name in desc.options {
        let value = opts.value(name);
        if value != d.value(name)
            && let Some(v) = value
        {
            p.push((name.to_string(), v));
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_win_needs_every_recent_score_beyond_threshold() {
        let adj = Adjudication::parse("win=3,moves=3").unwrap_or_else(|e| panic!("{e}"));
        let s = [Some(0.0), Some(3.5), Some(4.0), Some(3.0)];
        let r = adjudicate(&adj, &s, 10);
        assert_eq!(r.map(|x| x.0), Some(Some(0)));
        let s = [Some(3.5), Some(2.0), Some(4.0), Some(3.0)];
        assert!(adjudicate(&adj, &s, 10).is_none());
        let s = [Some(-3.5), Some(-4.0), Some(-3.0)];
        assert_eq!(adjudicate(&adj, &s, 10).map(|x| x.0), Some(Some(1)));
        // A missing score blocks adjudication.
        let s = [Some(3.5), None, Some(4.0)];
        assert!(adjudicate(&adj, &s, 10).is_none());
    }

    #[test]
    fn adjudication_draw_waits_for_its_move_number() {
        let adj =
            Adjudication::parse("draw=10,drawscore=0.2,moves=2").unwrap_or_else(|e| panic!("{e}"));
        let s = [Some(0.1), Some(-0.1)];
        assert!(adjudicate(&adj, &s, 19).is_none());
        assert_eq!(adjudicate(&adj, &s, 20).map(|x| x.0), Some(None));
        let s = [Some(0.3), Some(-0.1)];
        assert!(adjudicate(&adj, &s, 20).is_none());
        assert!(Adjudication::parse("draw=x").is_err());
        assert!(Adjudication::parse("lose=3").is_err());
    }
}
