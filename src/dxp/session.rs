//! One DXP connection: the games played over it, in either role. Salto
//! referees both sides with its own rules: the opponent's moves must be
//! legal, the game ends by the rules (no legal move, a draw rule, the
//! third repetition) or by the move limit of the GAMEREQ, and anything
//! malformed or out of order gets a CHAT saying what was wrong plus a
//! refusal (GAMEACC, BACKACC) or the end of the game (GAMEEND), never a
//! crash. The moves themselves come from a [`Player`]: a Hub engine.

use super::conn::{Conn, Incoming};
use super::message::{Color, Message, Setup};
use crate::game::{Game, MoveList, Outcome};
use crate::hubwire::quote;
use crate::tournament::engine::{EngineHooks, EngineSpec};
use crate::tournament::play::{EngineSlot, TimeControl};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// Who thinks for Salto's side.
pub trait Player {
    /// Gets ready for a new game.
    fn new_game(&mut self) -> Result<(), String>;
    /// A move (Hub form) for the position `root` (Hub form) after `moves`,
    /// with `left` seconds on the clock and `moves_to_go` moves to play in
    /// it (`None`: the rest of the game); and the time it took.
    fn think(
        &mut self,
        root: &str,
        moves: &[String],
        left: f64,
        moves_to_go: Option<u32>,
    ) -> Result<(String, Duration), String>;
}

/// A Hub engine as the [`Player`] (Salto's own `salto hub` by default).
pub struct HubPlayer {
    slot: EngineSlot,
    params: Vec<(String, String)>,
    hooks: EngineHooks,
}

impl HubPlayer {
    pub fn new(spec: EngineSpec) -> Self {
        HubPlayer {
            slot: EngineSlot::new(spec),
            // Scan's name for international draughts.
            params: vec![("variant".into(), "normal".into())],
            hooks: EngineHooks::default(),
        }
    }
}

const START_TIMEOUT: Duration = Duration::from_secs(30);

impl Player for HubPlayer {
    fn new_game(&mut self) -> Result<(), String> {
        let r = self
            .slot
            .ensure(&self.params, START_TIMEOUT, &self.hooks)
            .and_then(|e| {
                e.new_game()?;
                e.sync(Instant::now() + START_TIMEOUT)
            });
        r.map_err(|e| {
            self.slot.kill();
            e.to_string()
        })
    }

    fn think(
        &mut self,
        root: &str,
        moves: &[String],
        left: f64,
        moves_to_go: Option<u32>,
    ) -> Result<(String, Duration), String> {
        let mut position = format!("pos pos={}", quote(root));
        if !moves.is_empty() {
            position.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        let (level, wait) = match self.slot.spec.limit {
            Some(TimeControl::Depth(d)) => (format!("level depth={d}"), 600.0),
            Some(TimeControl::Nodes(n)) => (format!("level nodes={n}"), 600.0),
            Some(TimeControl::MoveTime(t)) => (format!("level move-time={t}"), t + 10.0),
            Some(TimeControl::Clock { .. }) | None => {
                let mut l = format!("level time={:.3}", left.max(0.0));
                if let Some(m) = moves_to_go {
                    l.push_str(&format!(" moves={m}"));
                }
                (l, left.max(0.0) + 10.0)
            }
        };
        let r = self
            .slot
            .ensure(&self.params, START_TIMEOUT, &self.hooks)
            .and_then(|e| e.think(&position, &[level], |s| s + Duration::from_secs_f64(wait)));
        match r {
            Ok(t) => Ok((t.mv, t.elapsed)),
            Err(e) => {
                self.slot.kill();
                Err(e.to_string())
            }
        }
    }
}

/// How a game ended, from Salto's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Result3 {
    Win,
    Draw,
    Loss,
    /// Ended before a result (GAMEEND without a reason, a broken
    /// connection, an error).
    Unfinished,
}

/// One game played over DXP.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub opponent: String,
    pub color: Color,
    pub result: Result3,
    pub reason: String,
    /// The moves, Hub form.
    pub moves: Vec<String>,
}

impl std::fmt::Display for GameReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, b) = match self.color {
            Color::White => ("Salto", self.opponent.as_str()),
            Color::Black => (self.opponent.as_str(), "Salto"),
        };
        let score = match (&self.result, self.color) {
            (Result3::Draw, _) => "1-1",
            (Result3::Win, Color::White) | (Result3::Loss, Color::Black) => "2-0",
            (Result3::Loss, Color::White) | (Result3::Win, Color::Black) => "0-2",
            (Result3::Unfinished, _) => "*",
        };
        write!(
            f,
            "{w} - {b} {score} ({}, {} plies): {}",
            self.reason,
            self.moves.len(),
            self.moves.join(" ")
        )
    }
}

/// Time and move limits of a game, from its GAMEREQ.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub minutes: u32,
    pub moves: u32,
}

struct Current<G: Game> {
    opponent: String,
    me: usize,
    root_hub: String,
    positions: Vec<G::Position>,
    hashes: Vec<u64>,
    moves: Vec<String>,
    /// Seconds left on Salto's clock.
    clock: f64,
    limits: Limits,
    /// Salto sent GAMEEND and waits for the answer.
    ending: Option<(Result3, String)>,
}

impl<G: Game> Current<G> {
    fn pos(&self) -> &G::Position {
        &self.positions[self.positions.len() - 1]
    }
}

/// What the caller should do after a message.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Go,
    /// The other side wants no more games, or the connection is gone.
    Stop,
}

/// The players' pieces as DXP writes them, and the Hub letters.
const DXP_PIECES: [(char, char); 5] = [('e', 'e'), ('w', 'w'), ('z', 'b'), ('W', 'W'), ('Z', 'B')];

/// A GAMEREQ position as a Hub position (`W` + 50 squares).
pub fn setup_to_hub(s: &Setup) -> String {
    let side = if s.to_move == Color::White { 'W' } else { 'B' };
    let squares: String = s
        .squares
        .chars()
        .map(|c| {
            DXP_PIECES
                .iter()
                .find(|(d, _)| *d == c)
                .map_or('e', |(_, h)| *h)
        })
        .collect();
    format!("{side}{squares}")
}

/// A move's squares from its Hub form: from, to, captured (sorted).
fn move_squares(text: &str) -> Option<(u8, u8, Vec<u8>)> {
    let nums: Vec<u8> = text
        .split(['-', 'x'])
        .map(|s| s.parse().ok())
        .collect::<Option<_>>()?;
    if nums.len() < 2 {
        return None;
    }
    let mut caps = nums[2..].to_vec();
    caps.sort_unstable();
    Some((nums[0], nums[1], caps))
}

/// One connection, in either role.
pub struct Session<'a, G: Game, S: Read + Write, P: Player> {
    game: &'a G,
    conn: Conn<S>,
    player: P,
    name: String,
    current: Option<Current<G>>,
    /// Every game finished on this connection.
    pub reports: Vec<GameReport>,
}

impl<'a, G: Game, S: Read + Write, P: Player> Session<'a, G, S, P> {
    pub fn new(game: &'a G, conn: Conn<S>, player: P, name: &str) -> Self {
        Session {
            game,
            conn,
            player,
            name: name.to_string(),
            current: None,
            reports: Vec::new(),
        }
    }

    /// The player back, for the next connection.
    pub fn into_player(self) -> P {
        self.player
    }

    fn send(&mut self, m: Message) -> Result<(), String> {
        self.conn
            .send(&m)
            .map_err(|e| format!("the connection broke while sending: {e}"))
    }

    fn chat(&mut self, text: &str) -> Result<(), String> {
        log::warn!(target: "dxp", "{text}");
        self.send(Message::Chat(format!("Salto: {text}")))
    }

    /// The follower: answers GAMEREQs and plays until the other side
    /// closes the connection or wants no more games, or `max_games` games
    /// are over.
    pub fn serve(&mut self, max_games: Option<usize>) -> Result<(), String> {
        loop {
            if max_games.is_some_and(|m| self.reports.len() >= m) && self.current.is_none() {
                return Ok(());
            }
            if self.step(true)? == Flow::Stop {
                self.abandon("the connection closed");
                return Ok(());
            }
        }
    }

    /// The initiator: asks for `games` games, Salto playing `first` in the
    /// first and the colours alternating.
    pub fn initiate(&mut self, games: usize, first: Color, limits: Limits) -> Result<(), String> {
        for g in 0..games {
            let mine = if g % 2 == 0 { first } else { first.other() };
            self.send(Message::GameReq {
                version: 1,
                name: self.name.clone(),
                follower: mine.other(),
                minutes: limits.minutes,
                moves: limits.moves,
                setup: None,
            })?;
            // The answer: GAMEACC (CHAT may come first).
            let opponent = loop {
                match self.conn.recv() {
                    Incoming::Message(Message::GameAcc { name, code: 0 }) => break name,
                    Incoming::Message(Message::GameAcc { name, code }) => {
                        return Err(format!("{name} refused the game (GAMEACC code {code})"));
                    }
                    Incoming::Message(Message::Chat(t)) => log::info!(target: "dxp", "chat: {t}"),
                    Incoming::Closed => return Err("the follower closed the connection".into()),
                    Incoming::Message(m) => {
                        self.chat(&format!("expected GAMEACC, got {}", m.format()))?;
                    }
                    Incoming::Malformed(e) => self.chat(&format!("cannot read {e}"))?,
                }
            };
            let root = self.game.start();
            self.begin(opponent, mine, root, limits)?;
            while self.current.is_some() {
                if self.step(false)? == Flow::Stop {
                    self.abandon("the connection closed");
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Starts a game (the GAMEACC, if any, is already sent).
    fn begin(
        &mut self,
        opponent: String,
        mine: Color,
        root: G::Position,
        limits: Limits,
    ) -> Result<(), String> {
        let hash = self.game.hash(&root);
        self.current = Some(Current {
            opponent,
            me: mine.player(),
            root_hub: self.game.format_hub_position(&root),
            positions: vec![root],
            hashes: vec![hash],
            moves: Vec::new(),
            clock: f64::from(limits.minutes) * 60.0,
            limits,
            ending: None,
        });
        Ok(())
    }

    /// Records the game in progress as unfinished.
    fn abandon(&mut self, why: &str) {
        if let Some(c) = self.current.take() {
            self.reports.push(GameReport {
                opponent: c.opponent,
                color: Color::of_player(c.me),
                result: Result3::Unfinished,
                reason: why.to_string(),
                moves: c.moves,
            });
        }
    }

    /// Ends the game in progress with `result` (GAMEEND sent or received).
    fn finish(&mut self, result: Result3, reason: String) {
        if let Some(c) = self.current.take() {
            log::info!(target: "dxp", "game over: {result:?} ({reason})");
            self.reports.push(GameReport {
                opponent: c.opponent,
                color: Color::of_player(c.me),
                result,
                reason,
                moves: c.moves,
            });
        }
    }

    /// Sends GAMEEND with `reason` and waits for the answer.
    fn end_game(&mut self, reason: u8, result: Result3, why: String) -> Result<(), String> {
        self.send(Message::GameEnd { reason, stop: 0 })?;
        if let Some(c) = self.current.as_mut() {
            c.ending = Some((result, why));
        }
        Ok(())
    }

    /// The game's end by the rules, if the position has one: the result
    /// for Salto and why.
    fn judged(&self) -> Option<(Result3, String)> {
        let c = self.current.as_ref()?;
        let pos = c.pos();
        let mover = self.game.to_move(pos);
        let me_to_move = mover == c.me;
        match self.game.outcome(pos) {
            Some(Outcome::Win(p)) if p == c.me => {
                return Some((Result3::Win, "won by the rules".into()));
            }
            Some(Outcome::Win(_)) => return Some((Result3::Loss, "lost by the rules".into())),
            Some(Outcome::Draw) => {
                return Some((Result3::Draw, "draw by the move-count rule".into()));
            }
            None => {}
        }
        let mut list = MoveList::new();
        self.game.generate(pos, &mut list);
        if list.is_empty() {
            return Some(if me_to_move {
                (Result3::Loss, "Salto has no legal move".into())
            } else {
                (Result3::Win, "the opponent has no legal move".into())
            });
        }
        let window = (self.game.reversible_plies(pos) as usize).min(c.hashes.len() - 1);
        let h = self.game.hash(pos);
        let seen = c.hashes[c.hashes.len() - 1 - window..]
            .iter()
            .filter(|&&x| x == h)
            .count();
        if seen >= 3 {
            return Some((Result3::Draw, "draw by threefold repetition".into()));
        }
        if c.limits.moves > 0 && c.moves.len() >= 2 * c.limits.moves as usize {
            return Some((
                Result3::Unfinished,
                format!("the game's {} moves are played", c.limits.moves),
            ));
        }
        None
    }

    /// One step: Salto's move when it is its turn, else one message.
    fn step(&mut self, follower: bool) -> Result<Flow, String> {
        if let Some(c) = &self.current
            && c.ending.is_none()
            && self.game.to_move(c.pos()) == c.me
        {
            return self.my_turn().map(|_| Flow::Go);
        }
        match self.conn.recv() {
            Incoming::Closed => Ok(Flow::Stop),
            Incoming::Malformed(e) => {
                let why = format!("cannot read {e}");
                self.chat(&why)?;
                if e.starts_with("'R") && follower {
                    // A game request we cannot read: refused, another welcome.
                    self.send(Message::GameAcc {
                        name: self.name.clone(),
                        code: 2,
                    })?;
                } else if self.current.as_ref().is_some_and(|c| c.ending.is_none()) {
                    self.end_game(0, Result3::Unfinished, why)?;
                }
                Ok(Flow::Go)
            }
            Incoming::Message(m) => self.on_message(m, follower),
        }
    }

    fn my_turn(&mut self) -> Result<(), String> {
        if let Some((result, why)) = self.judged() {
            let reason = match result {
                Result3::Loss => 1,
                Result3::Draw => 2,
                Result3::Win => 3,
                Result3::Unfinished => 0,
            };
            return self.end_game(reason, result, why);
        }
        let Some(c) = self.current.as_ref() else {
            return Ok(());
        };
        let my_moves = c.moves.len() / 2;
        let mtg = (c.limits.moves > 0)
            .then(|| (c.limits.moves as usize).saturating_sub(my_moves).max(1) as u32);
        let (root, moves, clock) = (c.root_hub.clone(), c.moves.clone(), c.clock);
        let left = if c.limits.minutes == 0 { 1.0 } else { clock };
        let answer = self.player.think(&root, &moves, left, mtg);
        let pos = self.current.as_ref().map(|c| c.pos().clone());
        let Some(pos) = pos else { return Ok(()) };
        let played = answer.and_then(|(text, used)| {
            self.game
                .parse_move(&pos, &text)
                .map(|mv| (mv, used))
                .map_err(|e| format!("the engine's move '{text}' is illegal: {e}"))
        });
        let (mv, used) = match played {
            Ok(x) => x,
            Err(e) => {
                self.chat(&format!("cannot move: {e}"))?;
                return self.end_game(
                    0,
                    Result3::Unfinished,
                    format!("Salto's engine failed: {e}"),
                );
            }
        };
        let hub = self.game.format_move(&pos, mv);
        let Some((from, to, captured)) = move_squares(&hub) else {
            return Err(format!("cannot send the move '{hub}' in DXP"));
        };
        self.send(Message::Move {
            seconds: used.as_secs_f64().round() as u32,
            from,
            to,
            captured,
        })?;
        self.apply(&pos, mv, hub, Some(used));
        Ok(())
    }

    fn apply(&mut self, pos: &G::Position, mv: G::Move, hub: String, used: Option<Duration>) {
        let next = self.game.play(pos, mv);
        if let Some(c) = self.current.as_mut() {
            c.hashes.push(self.game.hash(&next));
            c.positions.push(next);
            c.moves.push(hub);
            if let Some(u) = used {
                c.clock -= u.as_secs_f64();
            }
        }
    }

    /// The legal move that matches a MOVE message.
    fn find_move(
        &self,
        pos: &G::Position,
        from: u8,
        to: u8,
        captured: &[u8],
    ) -> Option<(G::Move, String)> {
        let mut caps = captured.to_vec();
        caps.sort_unstable();
        let mut list = MoveList::new();
        self.game.generate(pos, &mut list);
        list.iter().find_map(|&mv| {
            let hub = self.game.format_move(pos, mv);
            (move_squares(&hub) == Some((from, to, caps.clone()))).then_some((mv, hub))
        })
    }

    fn on_message(&mut self, m: Message, follower: bool) -> Result<Flow, String> {
        match m {
            Message::Chat(t) => {
                log::info!(target: "dxp", "chat: {t}");
                Ok(Flow::Go)
            }
            Message::GameReq {
                version,
                name,
                follower: color,
                minutes,
                moves,
                setup,
            } if follower => {
                self.abandon("a new GAMEREQ came");
                let refuse = |s: &mut Self, code: u8, why: String| -> Result<Flow, String> {
                    s.chat(&format!("game refused: {why}"))?;
                    s.send(Message::GameAcc {
                        name: s.name.clone(),
                        code,
                    })?;
                    Ok(Flow::Go)
                };
                if version != 1 {
                    return refuse(self, 1, format!("protocol version {version}, not 01"));
                }
                let root = match &setup {
                    None => self.game.start(),
                    Some(s) => match self.game.parse_hub_position(&setup_to_hub(s)) {
                        Ok(p) => p,
                        Err(e) => return refuse(self, 2, format!("bad position: {e}")),
                    },
                };
                let mut list = MoveList::new();
                self.game.generate(&root, &mut list);
                if list.is_empty() {
                    return refuse(self, 2, "no legal move in the position".into());
                }
                if let Err(e) = self.player.new_game() {
                    return refuse(self, 2, format!("the engine could not start: {e}"));
                }
                self.send(Message::GameAcc {
                    name: self.name.clone(),
                    code: 0,
                })?;
                self.begin(name, color, root, Limits { minutes, moves })?;
                Ok(Flow::Go)
            }
            Message::GameEnd { reason, stop } => {
                let Some(c) = self.current.as_mut() else {
                    // An answer to nothing: nothing to do.
                    return Ok(if stop == 1 { Flow::Stop } else { Flow::Go });
                };
                if let Some((result, why)) = c.ending.take() {
                    self.finish(result, why);
                } else {
                    self.send(Message::GameEnd { reason: 0, stop: 0 })?;
                    let (result, why) = self.judged().unwrap_or(match reason {
                        1 => (Result3::Win, "the opponent gave up".into()),
                        2 => (Result3::Draw, "the opponent claimed a draw".into()),
                        3 => (Result3::Loss, "the opponent claimed a win".into()),
                        _ => (Result3::Unfinished, "the opponent ended the game".into()),
                    });
                    self.finish(result, why);
                }
                Ok(if stop == 1 { Flow::Stop } else { Flow::Go })
            }
            Message::Move {
                from, to, captured, ..
            } => {
                let Some(c) = self.current.as_ref() else {
                    self.chat("MOVE outside a game: ignored")?;
                    return Ok(Flow::Go);
                };
                if c.ending.is_some() {
                    self.chat("MOVE after GAMEEND: ignored")?;
                    return Ok(Flow::Go);
                }
                let pos = c.pos().clone();
                let fen = self.game.format_fen(&pos);
                match self.find_move(&pos, from, to, &captured) {
                    Some((mv, hub)) => {
                        self.apply(&pos, mv, hub, None);
                    }
                    None => {
                        let text = Message::Move {
                            seconds: 0,
                            from,
                            to,
                            captured,
                        }
                        .format();
                        let why = format!("illegal move {} in {fen}", &text[5..]);
                        self.chat(&why)?;
                        self.end_game(0, Result3::Unfinished, why)?;
                    }
                }
                Ok(Flow::Go)
            }
            Message::BackReq { move_no, color } => {
                let target = self.current.as_ref().and_then(|c| {
                    let root_black = usize::from(self.game.to_move(&c.positions[0]) == 1);
                    let ply = (move_no as usize).checked_sub(1)? * 2 + color.player();
                    let ply = ply.checked_sub(root_black)?;
                    (c.ending.is_none() && ply <= c.moves.len()).then_some(ply)
                });
                match (target, self.current.as_mut()) {
                    (Some(ply), Some(c)) => {
                        c.moves.truncate(ply);
                        c.positions.truncate(ply + 1);
                        c.hashes.truncate(ply + 1);
                        self.send(Message::BackAcc { code: 0 })?;
                    }
                    _ => {
                        self.chat(&format!(
                            "cannot take back to move {move_no} {}",
                            color.letter()
                        ))?;
                        self.send(Message::BackAcc { code: 2 })?;
                    }
                }
                Ok(Flow::Go)
            }
            other => {
                self.chat(&format!("unexpected message {}: ignored", other.format()))?;
                Ok(Flow::Go)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::InternationalGame;
    use std::collections::VecDeque;
    use std::io::Cursor;

    /// The other side: fixed input, the output collected.
    struct Pipe {
        input: Cursor<Vec<u8>>,
        output: Vec<u8>,
    }
    impl Read for Pipe {
        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
            self.input.read(b)
        }
    }
    impl Write for Pipe {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.output.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A player with scripted answers (or none to start with).
    struct Scripted {
        starts: bool,
        answers: VecDeque<Result<String, String>>,
    }
    impl Player for Scripted {
        fn new_game(&mut self) -> Result<(), String> {
            if self.starts {
                Ok(())
            } else {
                Err("no such program".into())
            }
        }
        fn think(
            &mut self,
            _: &str,
            _: &[String],
            _: f64,
            _: Option<u32>,
        ) -> Result<(String, Duration), String> {
            let a = self.answers.pop_front().unwrap_or(Err("no answer".into()));
            a.map(|m| (m, Duration::from_millis(1500)))
        }
    }

    /// Serves `input` to a follower; returns what it sent (CHATs apart)
    /// and its reports.
    fn follow(input: &[&str], player: Scripted) -> (Vec<String>, Vec<String>, Vec<GameReport>) {
        let mut bytes = Vec::new();
        for m in input {
            bytes.extend_from_slice(m.as_bytes());
            bytes.push(0);
        }
        let game = InternationalGame::default();
        let pipe = Pipe {
            input: Cursor::new(bytes),
            output: Vec::new(),
        };
        let mut s = Session::new(&game, Conn::new(pipe, Box::new(|_, _| {})), player, "Salto");
        s.serve(None).unwrap_or_else(|e| panic!("{e}"));
        let out = String::from_utf8_lossy(&s.conn.stream().output).into_owned();
        let (chats, sent): (Vec<String>, Vec<String>) = out
            .split('\0')
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .partition(|m| m.starts_with('C'));
        (sent, chats, s.reports)
    }

    fn req(follower: char, setup: &str) -> String {
        format!("R01{:<32}{follower}001000{setup}", "test")
    }

    #[test]
    fn an_engine_that_does_not_start_refuses_the_game() {
        let p = Scripted {
            starts: false,
            answers: VecDeque::new(),
        };
        let (sent, chats, reports) = follow(&[&req('W', "A")], p);
        assert_eq!(sent, vec![format!("A{:<32}2", "Salto")]);
        assert!(chats[0].contains("could not start"), "{chats:?}");
        assert!(reports.is_empty());
    }

    #[test]
    fn an_engine_failure_or_illegal_move_ends_the_game_cleanly() {
        for answer in [Err("crashed".to_string()), Ok("32-99".to_string())] {
            let p = Scripted {
                starts: true,
                answers: VecDeque::from([Ok("32-28".to_string()), answer]),
            };
            let (sent, chats, reports) = follow(&[&req('W', "A"), "M0001192300", "E00"], p);
            // Accepted, 32-28 after 1.5 s (2 s), then the end.
            assert_eq!(sent[1..], ["M0002322800".to_string(), "E00".to_string()]);
            assert!(chats[0].contains("cannot move"), "{chats:?}");
            assert_eq!(reports.len(), 1);
            assert_eq!(reports[0].result, Result3::Unfinished);
            assert!(
                reports[0].reason.contains("engine failed"),
                "{}",
                reports[0].reason
            );
            assert_eq!(reports[0].moves, vec!["32-28", "19-23"]);
        }
    }

    #[test]
    fn without_a_legal_move_salto_gives_up_and_reports_the_loss() {
        // White man on 28, black (Salto) man on 23, white to move: 28x19
        // takes Salto's last piece.
        let mut squares = ['e'; 50];
        squares[27] = 'w';
        squares[22] = 'z';
        let setup = format!("BW{}", squares.iter().collect::<String>());
        let p = Scripted {
            starts: true,
            answers: VecDeque::new(),
        };
        let (sent, _, reports) = follow(&[&req('Z', &setup), "M000028190123", "E00"], p);
        assert_eq!(sent[1..], ["E10".to_string()]);
        assert_eq!(reports[0].result, Result3::Loss);
        assert_eq!(reports[0].moves, vec!["28x19x23"]);
        assert!(
            reports[0].to_string().starts_with("test - Salto 2-0"),
            "{}",
            reports[0]
        );
    }

    #[test]
    fn a_connection_closed_before_the_acknowledgement_leaves_the_game_unfinished() {
        let p = Scripted {
            starts: true,
            answers: VecDeque::new(),
        };
        let (sent, _, reports) = follow(&[&req('Z', "A"), "M0000322800"], p);
        // GAMEACC; the player has no move, so E00; then the other side
        // is gone before confirming it.
        assert_eq!(sent[1..], ["E00".to_string()]);
        assert_eq!(reports[0].result, Result3::Unfinished);
        assert_eq!(reports[0].reason, "the connection closed");
    }
}
