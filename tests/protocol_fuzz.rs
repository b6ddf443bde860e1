//! Fuzz-style protocol test: 100,000+ random and mutated lines, built from
//! real commands with bytes flipped, fields dropped or repeated, numbers
//! replaced by huge, negative, NaN or empty values, sent to the real binary.
//! It must never crash or hang, must answer every `ping`, must write only
//! protocol lines, and must still play a legal move afterwards.
//!
//! Excluded on purpose: `quit` (it would end the session) and the table
//! size parameters `hash`/`tt-size` and `threads` (the engine really
//! allocates the table and starts threads on a shared machine; their
//! range checks are tested in src/protocol and tests/protocol_reliability.rs).

mod protocol_util;

use protocol_util::*;
use salto::variant::Variant;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const LINES: usize = 100_000;
const PING_EVERY: usize = 500;
const SEED: u64 = 0x5A17_0F22_2026_1129;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

const BASE: &[&str] = &[
    "hub",
    "init",
    "ping",
    "new-game",
    "stop",
    "ponder-hit",
    "set-param name=variant value=normal",
    "set-param name=variant value=international",
    "set-param name=variant value=english",
    "set-param name=variant value=brazilian",
    "set-param name=variant value=turkish",
    "set-param name=variant value=spanish",
    "set-param name=variant value=hex",
    "set-param name=variant value=chinese",
    "set-param name=ponder value=true",
    "set-param name=notation value=algebraic",
    "set-param name=notation value=numeric",
    "set-param name=draw-moves value=25",
    "set-param name=turkish-promotion value=immediate",
    "set-param name=players value=3",
    "set-param name=sets value=2",
    "set-param name=spoiling value=fill",
    "set-param name=initial-time value=300",
    "pos start",
    "pos",
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
    "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
    "pos fen=\"W:W31-50:B1-20\"",
    "pos fen=\"B:W21-32:B1-12\"",
    "pos start moves=\"32-28 19-23 28x19 14x23\"",
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 17-21 37-32 21-26\"",
    "pos start moves=\"12-16 21-17 16-19 23x16\"",
    "level depth=3",
    "level nodes=5000",
    "level move-time=0.01",
    "level moves=40 time=59.8 inc=1e-05",
    "level time=0.5 inc=0.1",
    "level infinite",
    "go think",
    "go ponder",
    "go analyze",
];

const NUMBERS: &[&str] = &[
    "99999999999999999999999999",
    "-1",
    "-1e308",
    "1e308",
    "1e-400",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "",
    "\"\"",
    "0",
    "0x10",
    "18446744073709551616",
    "-0",
    "4294967296",
];

fn is_number_byte(b: u8) -> bool {
    b.is_ascii_digit() || b == b'.' || b == b'-'
}

fn mutate(rng: &mut Rng, base: &str) -> Vec<u8> {
    let mut line = base.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(9) {
            0 | 1 => {
                // flip a byte
                if !line.is_empty() {
                    let i = rng.below(line.len());
                    line[i] = rng.next() as u8;
                }
            }
            2 => {
                // drop a field
                let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
                if fields.len() > 1 {
                    let k = rng.below(fields.len());
                    let kept: Vec<&[u8]> = fields
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != k)
                        .map(|(_, f)| *f)
                        .collect();
                    line = kept.join(&b' ');
                }
            }
            3 => {
                // repeat a field
                let fields: Vec<Vec<u8>> = line.split(|&b| b == b' ').map(<[u8]>::to_vec).collect();
                let k = rng.below(fields.len());
                let mut f2 = fields.clone();
                f2.insert(k, fields[k].clone());
                line = f2.join(&b' ');
            }
            4 | 5 => {
                // replace a number (or a value) by an extreme one
                let n = rng.pick(NUMBERS).as_bytes();
                if let Some(start) = line.iter().position(|&b| is_number_byte(b)) {
                    let end = start
                        + line[start..]
                            .iter()
                            .take_while(|&&b| is_number_byte(b))
                            .count();
                    line.splice(start..end, n.iter().copied());
                } else if let Some(eq) = line.iter().rposition(|&b| b == b'=') {
                    line.truncate(eq + 1);
                    line.extend_from_slice(n);
                }
            }
            6 => {
                // cut the line
                let k = rng.below(line.len() + 1);
                line.truncate(k);
            }
            7 => {
                // insert a quote, an equals sign or a blank
                let k = rng.below(line.len() + 1);
                line.insert(k, *rng.pick(b"\"= \t\r"));
            }
            _ => {
                // append another command's fields
                line.push(b' ');
                line.extend_from_slice(rng.pick(BASE).as_bytes());
            }
        }
    }
    line
}

fn random_line(rng: &mut Rng) -> Vec<u8> {
    let len = if rng.below(2000) == 0 {
        100_000 + rng.below(100_000)
    } else {
        rng.below(60)
    };
    (0..len).map(|_| rng.next() as u8).collect()
}

/// The command word as the engine reads it: the first run of characters
/// that are not blank, `=` or `"`.
fn first_word(line: &[u8]) -> Option<String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).ok()?;
    let t = text.trim_start();
    let end = t
        .find(|c: char| c.is_whitespace() || c == '=' || c == '"')
        .unwrap_or(t.len());
    Some(t[..end].to_string())
}

fn allowed(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    first_word(line).as_deref() != Some("quit")
        && !text.contains("hash")
        && !text.contains("tt-size")
        && !text.contains("threads")
}

#[test]
fn a_hundred_thousand_mutated_lines_never_crash_or_hang_the_engine() {
    let mut rng = Rng(SEED);
    let mut input: Vec<u8> = Vec::with_capacity(LINES * 40);
    input.extend_from_slice(b"hub\ninit\nset-param name=hash value=1\n");
    let mut pings = 0usize;
    let mut n = 0usize;
    while n < LINES {
        let line = match rng.below(10) {
            0 => random_line(&mut rng),
            1 => rng.pick(BASE).as_bytes().to_vec(),
            _ => {
                let b = *rng.pick(BASE);
                mutate(&mut rng, b)
            }
        };
        let line: Vec<u8> = line
            .into_iter()
            .map(|b| if b == b'\n' { b' ' } else { b })
            .collect();
        if !allowed(&line) {
            continue;
        }
        if first_word(&line).as_deref() == Some("ping") {
            // A mutated ping may be malformed (an error, no pong): only the
            // pings inserted below are counted, so leave these out.
            continue;
        }
        input.extend_from_slice(&line);
        input.push(b'\n');
        n += 1;
        if n.is_multiple_of(PING_EVERY) {
            input.extend_from_slice(b"ping\n");
            pings += 1;
        }
    }
    // Back to a known state, then a real move.
    let tail = "stop\nset-param name=variant value=normal\nset-param name=notation value=numeric\n\
                set-param name=draw-moves value=60\nnew-game\npos start\nping\nlevel depth=2\ngo think\nping\n";
    input.extend_from_slice(tail.as_bytes());
    pings += 2;

    let mut child = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .arg("hub")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("salto starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let writer = std::thread::spawn(move || {
        // Keep stdin open after the input until the test closes it.
        let r = stdin.write_all(&input).and_then(|_| stdin.flush());
        (r, stdin)
    });
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut r = std::io::BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    let l = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if tx.send(l).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut s);
        s
    });

    let started = Instant::now();
    let deadline = started + Duration::from_secs(240);
    let mut pongs = 0usize;
    // The lines after the second-to-last pong: the answer to the final search.
    let mut last_window = Vec::new();
    let mut internal = Vec::new();
    let mut strange = Vec::new();
    let prefixes = [
        "info ", "done ", "pong", "error ", "id ", "param ", "wait", "ready",
    ];
    while pongs < pings {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(l) = rx.recv_timeout(left) else {
            let _ = child.kill();
            panic!(
                "hang or crash: {pongs} of {pings} pongs after {:?}; status {:?}",
                started.elapsed(),
                child.try_wait()
            );
        };
        if l == "pong" {
            pongs += 1;
        } else if pongs + 1 >= pings && !l.starts_with("info ") {
            last_window.push(l.clone());
        }
        if l.contains("internal error") {
            internal.push(l.clone());
        }
        if !prefixes.iter().any(|p| l.starts_with(p)) {
            strange.push(l);
        }
    }
    // The final `ping` is answered at once, during the final search: its
    // answer may still be on its way.
    while last_window.is_empty() {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(l) if l.starts_with("info ") => {}
            Ok(l) => last_window.push(l),
            Err(_) => panic!("no answer to the final search"),
        }
    }
    let (w, stdin) = writer.join().expect("writer thread");
    w.expect("all input written");
    drop(stdin);
    let status = child.wait().expect("wait");
    eprintln!(
        "{n} lines, {pings} pings answered in {:?}",
        started.elapsed()
    );
    let err = err_reader.join().unwrap_or_default();
    assert!(status.success(), "exit status {status:?}");
    assert!(err.is_empty(), "stderr: {}", String::from_utf8_lossy(&err));
    assert!(internal.is_empty(), "internal errors: {internal:?}");
    assert!(
        strange.is_empty(),
        "non-protocol output: {:?}",
        &strange[..strange.len().min(5)]
    );
    // The last search (after the tail) played a legal move.
    assert_eq!(last_window.len(), 1, "{last_window:?}");
    if implemented(Variant::International) {
        legal_after(Variant::International, &[], &done_move(&last_window[0]))
            .unwrap_or_else(|e| panic!("after the fuzz: {e}"));
    } else {
        assert!(
            last_window[0].contains("not implemented"),
            "{last_window:?}"
        );
    }
}
