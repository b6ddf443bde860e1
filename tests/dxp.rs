//! `salto dxp` on loopback: Salto against Salto (one process the follower,
//! the other the initiator, two games with the colours swapped), and a raw
//! socket sending malformed and out-of-order messages to the follower,
//! which must answer each with a refusal or the end of the game and keep
//! serving.

mod dxp_support;

use dxp_support::{SALTO, engine, follower};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

/// The move lists of the `game N: ...` lines.
fn games(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.rsplit("): ").next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn salto_plays_salto_over_dxp_in_both_roles() {
    let (follower, port) = follower(2, &["--games", "2"]);
    let out = Command::new(SALTO)
        .env("SALTO_EGDB", "off")
        .args(["dxp", "--connect", &format!("127.0.0.1:{port}")])
        .args([
            "--engine",
            &engine(2),
            "--games",
            "2",
            "--moves",
            "40",
            "--time",
            "1",
        ])
        .output()
        .expect("run the initiator");
    let initiator = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{initiator}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let f = follower.wait_with_output().expect("follower");
    let follower_out = String::from_utf8_lossy(&f.stdout).into_owned();
    assert!(f.status.success(), "{follower_out}");
    // Game 1: the initiator white; game 2: black.
    let lines: Vec<&str> = initiator
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(lines.len(), 2, "{initiator}");
    assert!(
        lines[0].starts_with("game 1: Salto - Salto "),
        "{initiator}"
    );
    for l in &lines {
        assert!(!l.contains("illegal") && !l.contains("failed"), "{l}");
        assert!(!l.contains(" 0 plies"), "{l}");
    }
    // Both sides saw the same games.
    assert_eq!(
        games(&initiator),
        games(&follower_out),
        "{initiator}\n{follower_out}"
    );
}

/// A raw DXP client.
struct Raw {
    s: TcpStream,
    buf: Vec<u8>,
}

impl Raw {
    fn connect(port: u16) -> Raw {
        let s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        Raw { s, buf: Vec::new() }
    }
    fn send(&mut self, m: &str) {
        self.s.write_all(m.as_bytes()).expect("send");
        self.s.write_all(b"\0").expect("send");
    }
    /// The next message that is not a CHAT; the CHATs before it are
    /// collected in `chats`.
    fn recv(&mut self, chats: &mut Vec<String>) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == 0) {
                let m: Vec<u8> = self.buf.drain(..=i).collect();
                let m = String::from_utf8_lossy(&m[..i]).into_owned();
                if let Some(c) = m.strip_prefix('C') {
                    chats.push(c.to_string());
                    continue;
                }
                return Some(m);
            }
            let mut chunk = [0u8; 256];
            match self.s.read(&mut chunk) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }
}

fn gamereq(follower: char, setup: &str) -> String {
    format!("R01{:<32}{follower}001000{setup}", "raw test")
}

#[test]
fn malformed_and_out_of_order_messages_are_refused_and_the_follower_goes_on() {
    let (mut child, port) = follower(2, &[]);
    let mut c = Raw::connect(port);
    let mut chats = Vec::new();
    // Junk, then a move outside a game: CHATs only; then an unreadable
    // game request: refused with code 2.
    c.send("Xjunk");
    c.send("M0000322800");
    c.send("R01short");
    assert_eq!(
        c.recv(&mut chats).as_deref(),
        Some(&format!("A{:<32}2", "Salto")[..])
    );
    assert!(
        chats.iter().any(|m| m.contains("unknown message type 'X'")),
        "{chats:?}"
    );
    assert!(
        chats.iter().any(|m| m.contains("MOVE outside a game")),
        "{chats:?}"
    );
    // Version 2 and a position without a legal move: refused.
    c.send(&gamereq('W', "A").replacen("R01", "R02", 1));
    assert_eq!(
        c.recv(&mut chats).map(|m| m.chars().last()),
        Some(Some('1'))
    );
    let empty = format!("BW{}", "e".repeat(50));
    c.send(&gamereq('W', &empty));
    assert_eq!(
        c.recv(&mut chats).map(|m| m.chars().last()),
        Some(Some('2'))
    );

    // A game with Salto white: it moves first; an illegal answer ends it.
    c.send(&gamereq('W', "A"));
    let acc = c.recv(&mut chats).unwrap_or_default();
    assert!(acc.starts_with("ASalto") && acc.ends_with('0'), "{acc}");
    let first = c.recv(&mut chats).unwrap_or_default();
    assert!(first.starts_with('M') && first.len() == 11, "{first}");
    c.send("M0000010200");
    assert_eq!(c.recv(&mut chats).as_deref(), Some("E00"));
    assert!(
        chats.iter().any(|m| m.contains("illegal move")),
        "{chats:?}"
    );
    c.send("E00"); // the acknowledgement

    // A game with Salto black: take back our first move, then stop.
    c.send(&gamereq('Z', "A"));
    assert!(c.recv(&mut chats).is_some_and(|m| m.ends_with('0')));
    c.send("M0000322800");
    let reply = c.recv(&mut chats).unwrap_or_default();
    assert!(reply.starts_with('M'), "{reply}");
    c.send("B001W");
    assert_eq!(c.recv(&mut chats).as_deref(), Some("K0"));
    c.send("B050W");
    assert_eq!(c.recv(&mut chats).as_deref(), Some("K2"));
    // After the take-back white (us) is to move again: a legal move works.
    c.send("M0000332900");
    assert!(c.recv(&mut chats).is_some_and(|m| m.starts_with('M')));
    // A GAMEEND with stop code 1: acknowledged, then the connection closes.
    c.send("E01");
    assert_eq!(c.recv(&mut chats).as_deref(), Some("E00"));
    assert_eq!(c.recv(&mut chats), None);

    // The follower is still there for the next connection.
    let mut d = Raw::connect(port);
    d.send(&gamereq('Z', "A"));
    assert!(d.recv(&mut chats).is_some_and(|m| m.ends_with('0')));
    drop(d);
    let _ = child.kill();
    let _ = child.wait();
}
