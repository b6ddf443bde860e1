//! The referee: plays one game between Hub engines with Salto's own rules.
//! Every move an engine sends is checked against the legal moves; the
//! runner keeps the clocks; the game ends by the variant's rules
//! ([`Game::outcome`], no legal move, repetition of the position's hash),
//! by adjudication, or by an engine's failure, which loses the game for it.

use super::engine::{EngineError, EngineSpec, HubEngine, quote};
use super::ranking::{PointsScheme, Standing, places};
use crate::game::{Game, MoveList, Outcome};
use std::time::Duration;

/// How long each engine may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock per engine: `base` seconds, plus `inc` after each move.
    Clock { base: f64, inc: f64 },
    /// A fixed time per move, seconds.
    MoveTime(f64),
    /// A fixed depth per move (no clock; the hang timeout applies).
    Depth(u32),
    /// A fixed node count per move (no clock; the hang timeout applies).
    Nodes(u64),
}

impl TimeControl {
    /// Parses `BASE+INC` in seconds (`10+0.1`, `60`); `M:SS` is accepted for
    /// the base (`1:30+1`).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let secs = |t: &str| -> Option<f64> {
            let t = t.trim();
            let v = match t.split_once(':') {
                Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
                None => t.parse::<f64>().ok()?,
            };
            (v.is_finite() && v >= 0.0).then_some(v)
        };
        match (secs(base), secs(inc)) {
            (Some(b), Some(i)) if b > 0.0 => Ok(TimeControl::Clock { base: b, inc: i }),
            _ => Err(format!(
                "bad time control '{text}': expected BASE+INC in seconds, e.g. 10+0.1"
            )),
        }
    }
}

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
    /// Processes started so far (1 when it never had to be restarted).
    pub starts: u32,
}

impl EngineSlot {
    pub fn new(spec: EngineSpec) -> Self {
        EngineSlot {
            spec,
            engine: None,
            starts: 0,
        }
    }

    /// The running engine, (re)started if needed.
    pub fn ensure(
        &mut self,
        params: &[(String, String)],
        timeout: Duration,
    ) -> Result<&mut HubEngine, EngineError> {
        if self.engine.as_ref().is_some_and(|e| !e.is_alive())
            && let Some(e) = self.engine.take()
        {
            e.kill();
        }
        if self.engine.is_none() {
            self.starts += 1;
            let e = HubEngine::start(&self.spec, params, timeout)?;
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
}

impl EndKind {
    /// True when a player's failure (not the game) ended it.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            EndKind::Illegal
                | EndKind::Flag
                | EndKind::Hung
                | EndKind::Crash
                | EndKind::StartFailed
                | EndKind::EngineError
        )
    }

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
        }
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

impl GameRecord {
    /// The result of a two-player game from engine `e`'s view: 1, 1/2 or 0
    /// points; `None` when `e` did not play or the game was aborted.
    pub fn points_of_engine(&self, e: usize) -> Option<f64> {
        if self.kind == EndKind::Aborted {
            return None;
        }
        self.seats
            .iter()
            .position(|&s| s == e)
            .map(|seat| self.points[seat])
    }
}

struct GameState<G: Game> {
    pos: G::Position,
    hashes: Vec<u64>,
    moves: Vec<String>,
    pdn_moves: Vec<String>,
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
    fn play(&mut self, game: &G, mv: G::Move) {
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
pub fn play_game<G: Game>(
    game: &G,
    opening: &Opening<G>,
    seats: &[usize],
    slots: &mut [EngineSlot],
    cfg: &RefereeConfig,
) -> GameRecord {
    let n = game.num_players();
    let timeout = Duration::from_secs_f64(cfg.timeout.max(0.001));
    let start_timeout = Duration::from_secs_f64(cfg.start_timeout.max(0.001));
    let mut st = GameState::<G> {
        pos: opening.root.clone(),
        hashes: vec![game.hash(&opening.root)],
        moves: Vec::new(),
        pdn_moves: Vec::new(),
    };
    for &mv in &opening.moves {
        st.play(game, mv);
    }
    let root_hub = game.format_hub_position(&opening.root);
    let mut record = GameRecord {
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
        opening_plies: opening.moves.len(),
        root_to_move: game.to_move(&opening.root),
        first_player: game.to_move(&game.start()),
        final_fen: String::new(),
        think_time: vec![0.0; n],
    };
    let linear = PointsScheme::linear(n);
    let scheme = cfg.points.as_ref().unwrap_or(&linear);
    // Ends the game; `standings` empty for an aborted game.
    let finish = |mut rec: GameRecord,
                  st: GameState<G>,
                  kind: EndKind,
                  standings: Vec<Standing>,
                  culprit: Option<usize>,
                  mut reason: String| {
        if !standings.is_empty() {
            rec.places = places(&standings);
            rec.points = scheme.points(&rec.places);
            let first: Vec<usize> = (0..n).filter(|&s| rec.places[s] == 0).collect();
            rec.winner = (first.len() == 1).then(|| first[0]);
            // Say how the players still racing were ordered.
            if n > 2
                && standings
                    .iter()
                    .any(|s| matches!(s, Standing::Racing(Some(_))))
                && let Some(d) = distances_text(game, &st.pos, &rec.names)
            {
                reason.push_str(&format!("; distances to winning: {d}"));
            }
        }
        rec.kind = kind;
        rec.culprit = culprit;
        rec.reason = reason;
        rec.final_fen = game.format_fen(&st.pos);
        rec.moves = st.moves;
        rec.pdn_moves = st.pdn_moves;
        rec
    };

    // Start (or restart) every engine and tell it a new game begins.
    let mut failed: Vec<(usize, String)> = Vec::new();
    for (seat, &e) in seats.iter().enumerate() {
        let slot = &mut slots[e];
        let ok = slot
            .ensure(&cfg.game_params, start_timeout)
            .and_then(|eng| eng.new_game());
        if let Err(err) = ok {
            slot.kill();
            failed.push((seat, err.to_string()));
        }
    }
    if failed.len() == n {
        return finish(
            record,
            st,
            EndKind::Aborted,
            Vec::new(),
            None,
            format!("no engine could start: {}", failed[0].1),
        );
    }
    if let Some((seat, msg)) = failed.into_iter().next() {
        let name = record.names[seat].clone();
        let standing = standings(game, &st.pos, None, Some(seat), true);
        return finish(
            record,
            st,
            EndKind::StartFailed,
            standing,
            Some(seat),
            format!("{name} failed to start: {msg}"),
        );
    }

    // Each seat's limit: its engine's own, else the match's.
    let tcs: Vec<TimeControl> = seats
        .iter()
        .map(|&e| slots[e].spec.limit.unwrap_or(cfg.tc))
        .collect();
    let mut clocks: Vec<f64> = tcs
        .iter()
        .map(|tc| match tc {
            TimeControl::Clock { base, .. } => *base,
            _ => 0.0,
        })
        .collect();
    // Scores reported by the engines, converted to player 0's view, one
    // per ply played by an engine.
    let mut scores: Vec<Option<f64>> = Vec::new();
    let mut list = MoveList::new();
    loop {
        let mover = game.to_move(&st.pos);
        match game.outcome(&st.pos) {
            Some(Outcome::Win(p)) => {
                let p = p.min(n - 1);
                let name = record.names[p].clone();
                let standing = standings(game, &st.pos, Some(p), None, true);
                return finish(
                    record,
                    st,
                    EndKind::Rules,
                    standing,
                    None,
                    format!("{name} wins by the rules"),
                );
            }
            Some(Outcome::Draw) => {
                let standing = standings(game, &st.pos, None, None, true);
                let reason = if distances_text(game, &st.pos, &record.names).is_some() {
                    "the move-count rule ended the game: ranked by distance to winning"
                } else {
                    "draw by the move-count rule"
                };
                return finish(record, st, EndKind::DrawRule, standing, None, reason.into());
            }
            None => {}
        }
        list.clear();
        game.generate(&st.pos, &mut list);
        if list.is_empty() {
            let name = record.names[mover].clone();
            let standing = standings(game, &st.pos, None, Some(mover), true);
            return finish(
                record,
                st,
                EndKind::Rules,
                standing,
                None,
                format!("{name} has no legal move"),
            );
        }
        if cfg.repetition {
            let window = (game.reversible_plies(&st.pos) as usize).min(st.hashes.len() - 1);
            let h = game.hash(&st.pos);
            let count = st.hashes[st.hashes.len() - 1 - window..]
                .iter()
                .filter(|&&x| x == h)
                .count();
            if count >= 3 {
                let standing = standings(game, &st.pos, None, None, false);
                return finish(
                    record,
                    st,
                    EndKind::Repetition,
                    standing,
                    None,
                    "draw by threefold repetition".into(),
                );
            }
        }
        if cfg.max_plies > 0 && st.moves.len() >= cfg.max_plies as usize {
            let reason = if distances_text(game, &st.pos, &record.names).is_some() {
                format!(
                    "{} plies played (the runner's limit): ranked by distance to winning",
                    st.moves.len()
                )
            } else {
                format!("draw: {} plies played (the runner's limit)", st.moves.len())
            };
            let standing = standings(game, &st.pos, None, None, true);
            return finish(record, st, EndKind::MaxPlies, standing, None, reason);
        }
        if let (Some(adj), 2) = (cfg.adjudication, n)
            && let Some((winner, reason)) = adjudicate(&adj, &scores, st.moves.len())
        {
            let standing = standings(game, &st.pos, winner, None, false);
            return finish(record, st, EndKind::Adjudicated, standing, None, reason);
        }

        // Ask the engine.
        let e = seats[mover];
        let name = record.names[mover].clone();
        let mut position = format!("pos pos={}", quote(&root_hub));
        if !st.moves.is_empty() {
            position.push_str(&format!(" moves=\"{}\"", st.moves.join(" ")));
        }
        let (levels, limit) = match tcs[mover] {
            TimeControl::Clock { inc, .. } => (
                vec![format!(
                    "level time={:.3} inc={inc}",
                    clocks[mover].max(0.0)
                )],
                Some(clocks[mover]),
            ),
            TimeControl::MoveTime(t) => (vec![format!("level move-time={t}")], Some(t)),
            TimeControl::Depth(d) => (vec![format!("level depth={d}")], None),
            TimeControl::Nodes(nn) => (vec![format!("level nodes={nn}")], None),
        };
        let wait = match limit {
            Some(l) => Duration::from_secs_f64((l + cfg.margin).max(0.0)),
            None => timeout,
        };
        let slot = &mut slots[e];
        let answer = match slot.ensure(&cfg.game_params, start_timeout) {
            Ok(eng) => eng.think(&position, &levels, |start| start + wait),
            Err(err) => Err(err),
        };
        let fen = game.format_fen(&st.pos);
        let fail = |kind: EndKind, reason: String| (kind, reason);
        let failure = match answer {
            Ok(r) => {
                record.think_time[mover] += r.elapsed.as_secs_f64();
                let used = r.elapsed.as_secs_f64();
                match limit {
                    Some(l) if used > l + cfg.margin => Some(fail(
                        EndKind::Flag,
                        format!(
                            "{name} loses on time ({used:.3}s used, {l:.3}s left, margin {}s)",
                            cfg.margin
                        ),
                    )),
                    _ => match game.parse_move(&st.pos, &r.mv) {
                        Err(err) => Some(fail(
                            EndKind::Illegal,
                            format!("{name} played illegal move \"{}\" in {fen}: {err}", r.mv),
                        )),
                        Ok(mv) => {
                            if let TimeControl::Clock { inc, .. } = tcs[mover] {
                                clocks[mover] = clocks[mover] - used + inc;
                            }
                            let s = r.score.map(|s| if mover == 0 { s } else { -s });
                            scores.push(s);
                            st.play(game, mv);
                            None
                        }
                    },
                }
            }
            Err(EngineError::Timeout(_)) => {
                let synced = slots[e]
                    .engine
                    .as_mut()
                    .is_some_and(|eng| eng.stop_and_sync(Duration::from_secs(1)));
                if !synced {
                    slots[e].kill();
                }
                Some(match limit {
                    Some(l) => fail(
                        EndKind::Flag,
                        format!(
                            "{name} loses on time (no move within {l:.3}s + margin {}s)",
                            cfg.margin
                        ),
                    ),
                    None => fail(
                        EndKind::Hung,
                        format!("{name} hung: no move within {}s", cfg.timeout),
                    ),
                })
            }
            Err(err @ EngineError::Died(_)) | Err(err @ EngineError::Spawn(_)) => {
                slots[e].kill();
                Some(fail(
                    EndKind::Crash,
                    format!("{name} crashed in {fen}: {err}"),
                ))
            }
            Err(err) => Some(fail(
                EndKind::EngineError,
                format!("{name} failed in {fen}: {err}"),
            )),
        };
        if let Some((kind, reason)) = failure {
            let standing = standings(game, &st.pos, None, Some(mover), true);
            return finish(record, st, kind, standing, Some(mover), reason);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_time_controls_parse() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base: 10.0,
                inc: 0.1
            })
        );
        assert_eq!(
            TimeControl::parse_clock("1:30+1"),
            Ok(TimeControl::Clock {
                base: 90.0,
                inc: 1.0
            })
        );
        assert_eq!(
            TimeControl::parse_clock("60"),
            Ok(TimeControl::Clock {
                base: 60.0,
                inc: 0.0
            })
        );
        assert!(TimeControl::parse_clock("x+1").is_err());
        assert!(TimeControl::parse_clock("0+1").is_err());
        assert!(TimeControl::parse_clock("-5+1").is_err());
    }

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
