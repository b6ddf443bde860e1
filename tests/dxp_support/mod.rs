//! Test support for `salto dxp`: a follower on a free port.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub const SALTO: &str = env!("CARGO_BIN_EXE_salto");

/// Salto's hub at a fixed depth, as the engine behind DXP.
pub fn engine(depth: u32) -> String {
    format!("cmd={SALTO} args=hub name=salto param.hash=1 depth={depth}")
}

/// Starts `salto dxp --listen 0` with the engine at `depth`; returns it and
/// the port it printed.
pub fn follower(depth: u32, extra: &[&str]) -> (Child, u16) {
    let mut child = Command::new(SALTO)
        .env("SALTO_EGDB", "off")
        .args(["dxp", "--listen", "0", "--engine", &engine(depth)])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start salto dxp");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let port = loop {
        match lines.next() {
            Some(Ok(l)) => {
                if let Some(addr) = l.strip_prefix("salto dxp: listening on ") {
                    break addr
                        .rsplit(':')
                        .next()
                        .and_then(|p| p.parse().ok())
                        .expect("port");
                }
            }
            _ => panic!("the follower did not say where it listens"),
        }
    };
    // Keep draining stderr so the follower never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    (child, port)
}
