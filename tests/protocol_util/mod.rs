//! Shared by the protocol tests: start the real binary and talk to it
//! through pipes; ask the library what is legal.

#![allow(dead_code)]

use salto::game::Game;
use salto::variant::{GameVisitor, Options, Variant};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `salto` with pipes on stdin, stdout and stderr.
pub struct Salto {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Salto {
    /// `salto hub`.
    pub fn start() -> Self {
        Self::start_with(&["hub"])
    }

    pub fn start_with(args: &[&str]) -> Self {
        let mut s = Self::start_program(env!("CARGO_BIN_EXE_salto"), args);
        s.book_off();
        s
    }

    /// `salto hub` with its opening book as shipped (on where one ships):
    /// the other constructors turn it off, as these tests are about the
    /// search and the protocol.
    pub fn start_with_book() -> Self {
        Self::start_program(env!("CARGO_BIN_EXE_salto"), &["hub"])
    }

    /// `set-param name=book value=false`, which answers nothing.
    pub fn book_off(&mut self) {
        self.send("set-param name=book value=false");
    }

    fn start_program(program: &str, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .env("SALTO_EGDB", "off")
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the salto binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    return;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Salto {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
        }
    }

    /// Starts `salto hub` through `sh -c` with a shell prefix, e.g.
    /// `ulimit -v 2000000;` (a limit on the engine's address space).
    pub fn start_limited(prefix: &str) -> Self {
        let cmd = format!("{prefix} exec \"$0\" hub");
        let mut s = Self::start_program("sh", &["-c", &cmd, env!("CARGO_BIN_EXE_salto")]);
        s.book_off();
        s
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The engine's resident memory (VmRSS of /proc/PID/status), KiB.
    pub fn rss_kib(&self) -> Option<u64> {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to salto");
        stdin.flush().expect("flush to salto");
    }

    /// The next line within `ms`, `info` included.
    pub fn recv_raw(&self, ms: u64) -> Option<String> {
        match self.lines.recv_timeout(Duration::from_millis(ms)) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line that is not `info`, within `ms`.
    pub fn recv(&self, ms: u64) -> Option<String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with("info ") => continue,
                Ok(l) => return Some(l),
                Err(_) => return None,
            }
        }
    }

    /// The next non-`info` line, which must start with `prefix` (10 s).
    pub fn expect(&self, prefix: &str) -> String {
        match self.recv(10_000) {
            Some(l) if l.starts_with(prefix) => l,
            other => panic!("expected a line starting with '{prefix}', got {other:?}"),
        }
    }

    /// Asserts that nothing but `info` comes within `ms`.
    pub fn silent(&self, ms: u64) {
        if let Some(l) = self.recv(ms) {
            panic!("expected no answer, got '{l}'");
        }
    }

    /// `ping` and the lines before `pong` (info excluded).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("ping");
        let mut before = Vec::new();
        loop {
            match self.recv(10_000) {
                Some(l) if l == "pong" => return before,
                Some(l) => before.push(l),
                None => panic!("no pong within 10 s; got {before:?}"),
            }
        }
    }

    /// `hub` ... `wait`, `init` ... `ready`; returns the `id`/`param` lines.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("hub");
        let mut lines = Vec::new();
        loop {
            let l = self.expect("");
            if l == "wait" {
                break;
            }
            lines.push(l);
        }
        self.send("init");
        assert_eq!(self.expect("ready"), "ready");
        lines
    }

    /// Closes stdin (end of input) and waits up to `ms` for the exit.
    pub fn close_and_wait(&mut self, ms: u64) -> ExitStatus {
        self.stdin.take();
        self.wait(ms)
    }

    pub fn wait(&mut self, ms: u64) -> ExitStatus {
        let deadline = Instant::now() + Duration::from_millis(ms);
        loop {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("salto did not exit within {ms} ms");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// What the engine wrote on stderr so far (must stay empty).
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }
}

impl Drop for Salto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of argument `key` of a Hub line (`salto::hubwire`).
pub fn arg(line: &str, key: &str) -> Option<String> {
    let (_, args) = salto::hubwire::tokenize(line).unwrap_or_else(|e| panic!("'{line}': {e}"));
    args.into_iter()
        .find(|a| a.name == key)
        .and_then(|a| a.value)
}

/// The `move` of a `done` line.
pub fn done_move(line: &str) -> String {
    arg(line, "move").unwrap_or_else(|| panic!("no move in '{line}'"))
}

/// The `ponder` of a `done` line, if any.
pub fn done_ponder(line: &str) -> Option<String> {
    arg(line, "ponder")
}

/// Is the variant implemented in this build?
pub fn implemented(v: Variant) -> bool {
    struct Probe;
    impl GameVisitor for Probe {
        type Output = ();
        fn visit<G: Game>(self, _: G) {}
    }
    salto::variant::dispatch(&Options::new(v), Probe).is_ok()
}

/// Plays `moves` (Hub text) from the start of `v`, then checks `candidate`:
/// `Ok(())` if legal there, else the reason.
pub fn legal_after(v: Variant, moves: &[String], candidate: &str) -> Result<(), String> {
    legal_line(&Options::new(v), moves, &[candidate])
}

/// Plays `moves` (Hub text) from the start of the game `opts` selects, then
/// `line` move by move: `Ok(())` if every move of `line` is legal in turn,
/// else the reason.
pub fn legal_line(opts: &Options, moves: &[String], line: &[&str]) -> Result<(), String> {
    struct Replay<'a>(&'a [String], &'a [&'a str]);
    impl GameVisitor for Replay<'_> {
        type Output = Result<(), String>;
        fn visit<G: Game>(self, g: G) -> Result<(), String> {
            let mut p = g.start();
            let all = self
                .0
                .iter()
                .map(String::as_str)
                .chain(self.1.iter().copied());
            for m in all {
                let mv = g.parse_move(&p, m).map_err(|e| format!("{m}: {e}"))?;
                p = g.play(&p, mv);
            }
            Ok(())
        }
    }
    salto::variant::dispatch(opts, Replay(moves, line)).map_err(|e| e.0)?
}

/// Checks a `done` line after `moves`: its move legal, its ponder move
/// legal after it.
pub fn legal_done(opts: &Options, moves: &[String], done: &str) -> Result<(), String> {
    let (mv, ponder) = (done_move(done), done_ponder(done));
    let line: Vec<&str> = std::iter::once(mv.as_str())
        .chain(ponder.as_deref())
        .collect();
    legal_line(opts, moves, &line).map_err(|e| format!("{e} (in {done})"))
}

/// A random game from the start: up to `plies` plies, each move chosen by
/// a xorshift generator from `seed`, stopping before a position where the
/// game is over (so that the last position can always be searched). The
/// positions (start included) and the moves.
pub fn walk<G: Game>(g: &G, seed: u64, plies: usize) -> (Vec<G::Position>, Vec<G::Move>) {
    let mut p = g.start();
    let (mut positions, mut moves) = (vec![p.clone()], Vec::new());
    let mut seed = seed | 1;
    for _ in 0..plies {
        let mut list = salto::MoveList::new();
        g.generate(&p, &mut list);
        if list.is_empty() || g.outcome(&p).is_some() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = list[(seed % list.len() as u64) as usize];
        let next = g.play(&p, mv);
        let mut after = salto::MoveList::new();
        g.generate(&next, &mut after);
        if after.is_empty() || g.outcome(&next).is_some() {
            break;
        }
        moves.push(mv);
        positions.push(next.clone());
        p = next;
    }
    (positions, moves)
}

/// The moves of [`walk`] in Hub text, for the game `opts` selects.
pub fn random_game(opts: &Options, seed: u64, plies: usize) -> Vec<String> {
    struct Walk(u64, usize);
    impl GameVisitor for Walk {
        type Output = Vec<String>;
        fn visit<G: Game>(self, g: G) -> Vec<String> {
            let (positions, moves) = walk(&g, self.0, self.1);
            positions
                .iter()
                .zip(&moves)
                .map(|(p, m)| g.format_move(p, *m))
                .collect()
        }
    }
    salto::variant::dispatch(opts, Walk(seed, plies)).unwrap_or_default()
}

/// A game of up to `plies` plies from the start of `v`, each move chosen by
/// a fixed pseudo-random rule, in Hub text; it stops before the game ends.
pub fn some_game(v: Variant, plies: usize) -> Vec<String> {
    random_game(&Options::new(v), 0x9E37_79B9_7F4A_7C15, plies)
}

/// Every variant with its defaults and the option sets that change the
/// rules or the notation, each as the full list of `set-param` lines that
/// selects it from any other (`sets=1` first, so that no step is a
/// combination that is not a game).
pub fn option_sets() -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut add = |v: Variant, kv: &[(&str, &str)]| {
        let mut params: Vec<(String, String)> = vec![("variant".into(), v.name().into())];
        for (k, val) in [
            ("sets", "1"),
            ("players", "2"),
            ("turkish-promotion", "end"),
            ("notation", "numeric"),
            ("foreign-corners", "pass"),
            ("unused-corners", "empty"),
            ("spoiling", "swap"),
        ]
        .iter()
        .chain(kv)
        {
            params.push((k.to_string(), val.to_string()));
        }
        out.push(params);
    };
    for v in Variant::ALL {
        add(v, &[]);
    }
    add(Variant::Turkish, &[("turkish-promotion", "immediate")]);
    add(Variant::International, &[("notation", "algebraic")]);
    add(Variant::English, &[("notation", "algebraic")]);
    for p in ["3", "4", "6"] {
        add(Variant::Chinese, &[("players", p)]);
    }
    add(Variant::Chinese, &[("players", "3"), ("sets", "2")]);
    add(Variant::Chinese, &[("sets", "3")]);
    add(Variant::Chinese, &[("foreign-corners", "stop")]);
    add(
        Variant::Chinese,
        &[("players", "3"), ("unused-corners", "filled")],
    );
    add(Variant::Chinese, &[("spoiling", "fill")]);
    out
}

/// The options a list of `set-param` lines selects.
pub fn options_of(params: &[(String, String)]) -> Options {
    let mut opts = Options::default();
    for (k, v) in params {
        opts.set(k, v).expect("a valid option");
    }
    opts
}

/// A Hub position string for the start of `v` (what `pos pos=` takes).
pub fn start_string(v: Variant) -> Option<String> {
    struct Start;
    impl GameVisitor for Start {
        type Output = String;
        fn visit<G: Game>(self, g: G) -> String {
            g.format_hub_position(&g.start())
        }
    }
    salto::variant::dispatch(&Options::new(v), Start).ok()
}
