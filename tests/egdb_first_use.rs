//! Endgame databases on a fresh machine (docs/egdb.md, "The standard
//! place"): with `SALTO_EGDB` pointing at an empty folder, `salto hub`
//! answers `init` within a second, builds the small databases in the
//! background, and within a minute scores international 2 kings against
//! 1 king as a draw and english 2 kings against 1 king as a win. A third
//! engine without databases (`SALTO_EGDB=off`) is the control: it scores
//! the international position as neither.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Hub {
    fn start(egdb: &std::ffi::OsStr) -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_salto"))
            .arg("hub")
            .env("SALTO_EGDB", egdb)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("salto hub starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { return };
                if tx.send(l).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take().expect("piped");
        Hub {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to salto");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let last = l.starts_with(prefix);
                    got.push(l);
                    if last {
                        return got;
                    }
                }
                Err(_) => panic!("no '{prefix}' within {timeout:?}; got {got:?}"),
            }
        }
    }

    /// `hub`, the variant, then `init`: the time `init` took and the lines
    /// before `ready`.
    fn init(&mut self, variant: &str) -> (Duration, Vec<String>) {
        self.send("hub");
        self.until("wait", Duration::from_secs(20));
        self.send(&format!("set-param name=variant value={variant}"));
        let t = Instant::now();
        self.send("init");
        let lines = self.until("ready", Duration::from_secs(20));
        (t.elapsed(), lines)
    }

    /// The score of the last `info` of a depth-6 search of `fen`.
    fn score(&mut self, fen: &str) -> f64 {
        self.send(&format!("pos fen={fen}"));
        self.send("level depth=6");
        self.send("go think");
        let lines = self.until("done", Duration::from_secs(30));
        lines
            .iter()
            .rev()
            .filter(|l| l.starts_with("info depth="))
            .find_map(|l| {
                l.split_whitespace()
                    .find_map(|t| t.strip_prefix("score="))
                    .and_then(|s| s.parse().ok())
            })
            .unwrap_or_else(|| panic!("no score in {lines:?}"))
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// White kings on 1 and 3, the black king on the long diagonal: a draw.
const INTERNATIONAL_2K_1K: &str = "W:WK1,K3:BK28";
/// Two kings against one in english checkers: a win.
const ENGLISH_2K_1K: &str = "W:WK1,K3:BK28";

fn slices(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".egdb"))
            .count()
    })
}

#[test]
fn a_fresh_machine_gets_small_databases_within_a_minute() {
    let dir = std::env::temp_dir().join(format!("salto-egdb-first-use-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let guard = TempDir(dir.clone());

    let mut control = Hub::start("off".as_ref());
    control.init("international");
    let without = control.score(INTERNATIONAL_2K_1K);
    assert!(
        without.abs() > 0.005 && without < 90.0,
        "without databases 2K v K is neither a database draw nor a win: {without}"
    );
    drop(control);

    let mut intl = Hub::start(dir.as_os_str());
    let mut eng = Hub::start(dir.as_os_str());
    for (hub, variant) in [(&mut intl, "international"), (&mut eng, "english")] {
        let (took, lines) = hub.init(variant);
        assert!(
            took < Duration::from_secs(1),
            "{variant}: init took {took:?}"
        );
        let key = if variant == "international" {
            "international"
        } else {
            "english"
        };
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info egdb=") && l.contains(key) && l.contains("building")),
            "{variant}: init says what it found and that it builds: {lines:?}"
        );
    }

    let start = Instant::now();
    let (mut draw, mut win) = (None, None);
    while start.elapsed() < Duration::from_secs(60) && (draw.is_none() || win.is_none()) {
        if draw.is_none() && intl.score(INTERNATIONAL_2K_1K) == 0.0 {
            draw = Some(start.elapsed());
        }
        if win.is_none() && eng.score(ENGLISH_2K_1K) >= 90.0 {
            win = Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    eprintln!("draw after {draw:?}, win after {win:?}");
    assert!(draw.is_some(), "international 2K v K is not a draw in 60 s");
    assert!(win.is_some(), "english 2K v K is not a win in 60 s");
    assert!(slices(&guard.0.join("international")) >= 16);
    assert!(slices(&guard.0.join("english")) >= 16);
}
