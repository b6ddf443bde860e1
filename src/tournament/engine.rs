//! The client side of the Hub protocol: one engine process with its own
//! pipes, a reader thread that timestamps every line it reads, and the
//! requests the match runner needs (handshake, `new-game`, one search,
//! `stop`, `quit`), each with a deadline so that a hung engine cannot hang
//! the match.

use super::time_control::TimeControl;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The log target of the protocol traffic: `salto match --log FILE`
/// writes every line to (`<`) and from (`>`) every engine with its name
/// and the time, `[2026-11-30T21:40:27.123Z INFO  match] scan < go think`.
pub const TRAFFIC: &str = "match";

/// What every engine of a match shares besides its spec: the flag a
/// signal sets to stop everything.
#[derive(Clone, Debug, Default)]
pub struct EngineHooks {
    /// Set (by SIGINT/SIGTERM) to end every wait at once.
    pub interrupt: Arc<AtomicBool>,
}

impl EngineHooks {
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::SeqCst)
    }
}

/// How to start one engine, from `--engine "cmd=... name=... param.x=y"`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory, if not the current one.
    pub dir: Option<PathBuf>,
    /// `set-param` lines sent after the game's own parameters.
    pub params: Vec<(String, String)>,
    /// This engine's own limit (`depth=`, `nodes=`, `movetime=`, `tc=`),
    /// instead of the match's.
    pub limit: Option<TimeControl>,
    /// This engine's own margin over its clock (`margin=`), seconds,
    /// instead of the match's `--margin`.
    pub margin: Option<f64>,
}

/// Splits text into blank-separated words; a double-quoted stretch keeps its
/// blanks (`name="a b"` is one word `name=a b`), and `\"` is a quote.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            '\\' if quoted => match chars.next() {
                Some(n) => cur.push(n),
                None => return Err(format!("dangling backslash in '{text}'")),
            },
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(format!("unterminated quote in '{text}'"));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

impl EngineSpec {
    /// Parses `cmd=PROGRAM [args="A B"] [name=NAME] [dir=DIR]
    /// [depth=D | nodes=N | movetime=S | tc=BASE+INC] [margin=S] [param.NAME=VALUE ...]`.
    /// A `cmd` with blanks (quoted) is split into the program and its first
    /// arguments.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut cmd: Option<Vec<String>> = None;
        let mut args = Vec::new();
        let mut dir = None;
        let mut params = Vec::new();
        let mut limit = None;
        let mut margin = None;
        let number = |k: &str, v: &str| -> Result<f64, String> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(|| format!("engine '{text}': {k}={v} is not a positive number"))
        };
        for word in split_words(text)? {
            let (k, v) = word.split_once('=').ok_or_else(|| {
                format!(
                    "engine '{text}': '{word}' is not of the form KEY=VALUE (keys: cmd, args, name, dir, depth, nodes, movetime, tc, margin, param.NAME)"
                )
            })?;
            match k {
                "cmd" => cmd = Some(split_words(v)?),
                "args" => args = split_words(v)?,
                "name" => name = Some(v.to_string()),
                "dir" => dir = Some(PathBuf::from(v)),
                "depth" => limit = Some(TimeControl::Depth(number(k, v)? as u32)),
                "nodes" => limit = Some(TimeControl::Nodes(number(k, v)? as u64)),
                "movetime" => limit = Some(TimeControl::MoveTime(number(k, v)?)),
                "tc" => limit = Some(TimeControl::parse_clock(v)?),
                "margin" => {
                    margin = Some(
                        v.parse::<f64>()
                            .ok()
                            .filter(|x| x.is_finite() && *x >= 0.0)
                            .ok_or_else(|| {
                                format!("engine '{text}': margin={v} is not a number of seconds of at least 0")
                            })?,
                    )
                }
                _ => match k.strip_prefix("param.") {
                    Some(p) if !p.is_empty() => params.push((p.to_string(), v.to_string())),
                    _ => {
                        return Err(format!(
                            "engine '{text}': unknown key '{k}' (keys: cmd, args, name, dir, depth, nodes, movetime, tc, margin, param.NAME)"
                        ));
                    }
                },
            }
        }
        let mut cmd = cmd
            .filter(|c| !c.is_empty())
            .ok_or_else(|| format!("engine '{text}': cmd=PROGRAM is missing"))?;
        let program = cmd.remove(0);
        cmd.extend(args);
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&program)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| program.clone())
        });
        Ok(EngineSpec {
            name,
            cmd: program,
            args: cmd,
            dir,
            params,
            limit,
            margin,
        })
    }
}

/// One parsed Hub line: the command word and its arguments (`None` for a
/// bare flag).
#[derive(Clone, Debug, PartialEq)]
pub struct HubLine {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl HubLine {
    /// Reads a line of an engine's output ([`crate::hubwire::tokenize`]).
    pub fn parse(line: &str) -> Result<HubLine, String> {
        let (command, args) = crate::hubwire::tokenize(line)?;
        Ok(HubLine {
            command,
            args: args.into_iter().map(|a| (a.name, a.value)).collect(),
        })
    }

    /// The value of argument `key`, if given with a value.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_deref())
    }
}

pub use crate::hubwire::quote;

/// What went wrong talking to an engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// No answer before the deadline; says what was awaited.
    Timeout(String),
    /// The process closed its output or a write to it failed.
    Died(String),
    /// The engine sent `error message=...` while searching.
    Reported(String),
    /// A reply that is not what the protocol says (e.g. `done` with no move).
    Protocol(String),
    /// The runner was told to stop (SIGINT, SIGTERM).
    Interrupted,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(m) => write!(f, "could not start: {m}"),
            EngineError::Timeout(m) => write!(f, "no answer in time ({m})"),
            EngineError::Died(m) => write!(f, "engine died ({m})"),
            EngineError::Reported(m) => write!(f, "engine error: {m}"),
            EngineError::Protocol(m) => write!(f, "protocol violation: {m}"),
            EngineError::Interrupted => write!(f, "interrupted"),
        }
    }
}

enum Event {
    Line(String, Instant),
    Eof,
}

/// The answer to one `go think`.
#[derive(Clone, Debug, PartialEq)]
pub struct ThinkResult {
    /// The move text of `done move=...`.
    pub mv: String,
    /// The last `info score=` (men, from the mover's view), if any.
    pub score: Option<f64>,
    /// The last `info depth=`, if any.
    pub depth: Option<u32>,
    /// The last `info time=` (seconds), if any.
    pub time: Option<f64>,
    /// The last `info nodes=`, if any.
    pub nodes: Option<u64>,
    /// From sending `go` to reading `done`.
    pub elapsed: Duration,
}

/// A running Hub engine.
pub struct HubEngine {
    pub spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    /// The `id name=` the engine announced.
    pub id_name: Option<String>,
    dead: bool,
    hooks: EngineHooks,
    /// While [`HubEngine::think_stoppable`] waits: `stop` is sent once
    /// when this control is stopped (a host's "move now").
    stop_on: Option<(Arc<crate::search::Control>, bool)>,
}

impl HubEngine {
    /// Starts the process and runs the handshake: `hub` ... `wait`, the
    /// `set-param` lines (`game_params` first, then the spec's), `init` ...
    /// `ready`. Each wait is bounded by `timeout`.
    pub fn start(
        spec: &EngineSpec,
        game_params: &[(String, String)],
        timeout: Duration,
        hooks: &EngineHooks,
    ) -> Result<HubEngine, EngineError> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &spec.dir {
            command.current_dir(d);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group, so that a wrapper script's children
            // are killed with it.
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.cmd)))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineError::Spawn("no stdout pipe".into()))?;
        let (tx, rx) = mpsc::channel();
        let label = spec.name.clone();
        std::thread::Builder::new()
            .name(format!("hub-reader-{label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf)
                                .trim_end_matches(['\n', '\r'])
                                .to_string();
                            log::info!(target: TRAFFIC, "{label} > {line}");
                            if tx.send(Event::Line(line, Instant::now())).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| EngineError::Spawn(format!("reader thread: {e}")))?;
        let mut engine = HubEngine {
            spec: spec.clone(),
            child,
            stdin,
            rx,
            id_name: None,
            dead: false,
            hooks: hooks.clone(),
            stop_on: None,
        };
        engine.handshake(game_params, timeout)?;
        Ok(engine)
    }

    fn handshake(
        &mut self,
        game_params: &[(String, String)],
        timeout: Duration,
    ) -> Result<(), EngineError> {
        self.send("hub")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv_line(deadline, "wait after hub")?;
            let parsed = HubLine::parse(&line).unwrap_or(HubLine {
                command: String::new(),
                args: vec![],
            });
            match parsed.command.as_str() {
                "wait" => break,
                "id" => self.id_name = parsed.get("name").map(str::to_string),
                _ => {}
            }
        }
        let params: Vec<(String, String)> = game_params
            .iter()
            .chain(self.spec.params.iter())
            .cloned()
            .collect();
        for (k, v) in params {
            self.send(&format!("set-param name={} value={}", quote(&k), quote(&v)))?;
        }
        self.send("init")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv_line(deadline, "ready after init")?;
            match HubLine::parse(&line).map(|l| l.command) {
                Ok(c) if c == "ready" => return Ok(()),
                Ok(c) if c == "error" => log::warn!("{}: {line}", self.spec.name),
                _ => {}
            }
        }
    }

    /// False once the process has been seen to die.
    pub fn is_alive(&self) -> bool {
        !self.dead
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::info!(target: TRAFFIC, "{} < {line}", self.spec.name);
        let Some(stdin) = self.stdin.as_mut() else {
            self.dead = true;
            return Err(EngineError::Died("input closed".into()));
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        ok.map_err(|e| {
            self.dead = true;
            EngineError::Died(format!("write failed: {e}"))
        })
    }

    fn recv_event(
        &mut self,
        deadline: Instant,
        what: &str,
    ) -> Result<(String, Instant), EngineError> {
        // Wake up now and then to see whether the runner was interrupted,
        // or the host asks for the move now.
        let got = loop {
            if self.hooks.interrupted() {
                return Err(EngineError::Interrupted);
            }
            if let Some((control, sent)) = &mut self.stop_on
                && !*sent
                && control.should_stop()
            {
                *sent = true;
                self.send("stop")?;
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(wait.min(Duration::from_millis(50))) {
                Err(RecvTimeoutError::Timeout) if !wait.is_zero() => {}
                other => break other,
            }
        };
        match got {
            Ok(Event::Line(l, at)) => Ok((l, at)),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map(|s| format!(", {s}"))
                    .unwrap_or_default();
                Err(EngineError::Died(format!(
                    "end of output while waiting for {what}{status}"
                )))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(what.to_string())),
        }
    }

    fn recv_line(&mut self, deadline: Instant, what: &str) -> Result<String, EngineError> {
        self.recv_event(deadline, what).map(|(l, _)| l)
    }

    /// Throws away lines already read (stale answers to earlier commands).
    fn drain(&mut self) {
        while let Ok(ev) = self.rx.try_recv() {
            if let Event::Eof = ev {
                self.dead = true;
            }
        }
    }

    /// `new-game`: the next search is unrelated to the last.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("new-game")
    }

    /// `ping`, then waits for `pong` until `deadline`: the engine has done
    /// everything asked before (e.g. clearing its table on `new-game`), so
    /// no clock is charged for it. Other lines are skipped.
    pub fn sync(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.drain();
        self.send("ping")?;
        loop {
            let line = self.recv_line(deadline, "pong after ping")?;
            if line.trim() == "pong" {
                return Ok(());
            }
        }
    }

    /// One search: sends `position` (a full `pos ...` line), the `level`
    /// lines and `go think`, then waits for `done` until `deadline`. An
    /// `error` line while waiting ends the search with
    /// [`EngineError::Reported`].
    pub fn think(
        &mut self,
        position: &str,
        levels: &[String],
        deadline: impl Fn(Instant) -> Instant,
    ) -> Result<ThinkResult, EngineError> {
        self.drain();
        if self.dead {
            return Err(EngineError::Died("end of output before the search".into()));
        }
        self.send(position)?;
        for l in levels {
            self.send(l)?;
        }
        self.send("go think")?;
        let started = Instant::now();
        let deadline = deadline(started);
        let mut score = None;
        let mut depth = None;
        let mut time = None;
        let mut nodes = None;
        loop {
            let (line, at) = self.recv_event(deadline, "done after go think")?;
            let Ok(parsed) = HubLine::parse(&line) else {
                continue;
            };
            match parsed.command.as_str() {
                "info" => {
                    if let Some(s) = parsed
                        .get("score")
                        .and_then(|s| s.parse::<f64>().ok())
                        .filter(|s| s.is_finite())
                    {
                        score = Some(s);
                    }
                    if let Some(d) = parsed.get("depth").and_then(|d| d.parse::<u32>().ok()) {
                        depth = Some(d);
                    }
                    if let Some(t) = parsed
                        .get("time")
                        .and_then(|t| t.parse::<f64>().ok())
                        .filter(|t| t.is_finite())
                    {
                        time = Some(t);
                    }
                    if let Some(n) = parsed.get("nodes").and_then(|n| n.parse::<u64>().ok()) {
                        nodes = Some(n);
                    }
                }
                "done" => {
                    let mv = parsed
                        .get("move")
                        .map(str::to_string)
                        .or_else(|| {
                            // Scan's positional form: `done 32-28`.
                            parsed
                                .args
                                .first()
                                .filter(|(_, v)| v.is_none())
                                .map(|(k, _)| k.clone())
                        })
                        .ok_or_else(|| EngineError::Protocol(format!("'{line}' has no move")))?;
                    return Ok(ThinkResult {
                        mv,
                        score,
                        depth,
                        time,
                        nodes,
                        elapsed: at.saturating_duration_since(started),
                    });
                }
                "error" => {
                    let msg = parsed.get("message").unwrap_or(&line).to_string();
                    return Err(EngineError::Reported(msg));
                }
                _ => {}
            }
        }
    }

    /// [`HubEngine::think`], and when `control` is stopped during the
    /// search, `stop` is sent to the engine (once), which then answers
    /// with the best move it has: a host's "move now".
    pub fn think_stoppable(
        &mut self,
        position: &str,
        levels: &[String],
        deadline: impl Fn(Instant) -> Instant,
        control: Arc<crate::search::Control>,
    ) -> Result<ThinkResult, EngineError> {
        self.stop_on = Some((control, false));
        let r = self.think(position, levels, deadline);
        self.stop_on = None;
        r
    }

    /// After a search ran out of time: `stop`, then wait up to `grace` for
    /// its `done`. Returns true when the engine answered (it is in step
    /// again); false when it did not (the caller should kill it).
    pub fn stop_and_sync(&mut self, grace: Duration) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + grace;
        loop {
            match self.recv_line(deadline, "done after stop") {
                Ok(l) if l.starts_with("done") => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }

    /// Ends the process: `quit`, a short wait, then a kill.
    pub fn quit(mut self) {
        self.shutdown(Duration::from_millis(300));
    }

    /// Kills the process at once.
    pub fn kill(mut self) {
        self.shutdown(Duration::ZERO);
    }

    fn shutdown(&mut self, grace: Duration) {
        if !grace.is_zero() && !self.dead {
            let _ = self.send("quit");
        }
        self.stdin = None;
        let until = Instant::now() + grace;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            if Instant::now() >= until {
                self.kill_group();
                let _ = self.child.kill();
                let _ = self.child.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.dead = true;
    }

    #[cfg(unix)]
    fn kill_group(&mut self) {
        // The engine leads its own process group (see `start`).
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    #[cfg(not(unix))]
    fn kill_group(&mut self) {}
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.shutdown(Duration::from_millis(100));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_spec_parses_quoted_command_and_params() {
        let s = EngineSpec::parse(r#"cmd="./salto hub" name=d4 param.threads=1 param.hash=8"#);
        let s = s.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.cmd, "./salto");
        assert_eq!(s.args, vec!["hub".to_string()]);
        assert_eq!(s.name, "d4");
        assert_eq!(
            s.params,
            vec![
                ("threads".to_string(), "1".to_string()),
                ("hash".to_string(), "8".to_string())
            ]
        );
        let s = EngineSpec::parse("cmd=/usr/bin/scan args=hub depth=6")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.name, "scan");
        assert_eq!(s.limit, Some(TimeControl::Depth(6)));
        assert_eq!(s.args, vec!["hub".to_string()]);
    }

    #[test]
    fn engine_spec_rejects_missing_cmd_and_unknown_keys() {
        assert!(EngineSpec::parse("name=x").is_err());
        assert!(EngineSpec::parse("cmd=x colour=red").is_err());
        assert!(EngineSpec::parse("cmd=x justaword").is_err());
        assert!(EngineSpec::parse("cmd=\"x").is_err());
        assert!(EngineSpec::parse("cmd=x depth=-1").is_err());
        assert!(EngineSpec::parse("cmd=x tc=fast").is_err());
    }

    #[test]
    fn hub_lines_parse_quoted_values_blanks_and_flags() {
        let l = HubLine::parse(r#"info depth=3 score=-0.25 pv="32-28 19-23""#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.command, "info");
        assert_eq!(l.get("score"), Some("-0.25"));
        assert_eq!(l.get("pv"), Some("32-28 19-23"));
        let l =
            HubLine::parse("done move = 32x23x28 ponder=19-23").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.get("move"), Some("32x23x28"));
        assert_eq!(l.get("ponder"), Some("19-23"));
        let l = HubLine::parse("error message=\"\"").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.get("message"), Some(""));
        let l = HubLine::parse("go think").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.args, vec![("think".to_string(), None)]);
    }
}
