//! The real DXP client: pydraughts 0.6.7's `DXPEngine` connects to
//! `salto dxp --listen` and plays white with random moves for 60 plies
//! (tests/pydraughts/dxp.py), checking every move Salto sends against
//! pydraughts' legal moves. Needs the `.ci/run` virtual environment
//! (`SALTO_PYDRAUGHTS_PYTHON`), like tests/protocol_pydraughts.rs. The
//! script runs with a deadline: a lost message fails the test with
//! pydraughts' log of the conversation instead of hanging.

mod dxp_support;
mod pydraughts;

use dxp_support::follower;
use std::io::Read;
use std::process::{Child, Command};
use std::time::Duration;

/// The follower, killed however the test ends.
struct Follower(Child);

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn pydraughts_dxp_client_plays_salto() {
    let Some(python) = pydraughts::python() else {
        return;
    };
    let (child, port) = follower(3, &["--games", "1"]);
    let mut follower = Follower(child);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pydraughts/dxp.py");
    let out = pydraughts::run_within(
        Command::new(python).args([script, &port.to_string(), "60"]),
        Duration::from_secs(300),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let _ = follower.0.kill();
    let mut salto = String::new();
    if let Some(mut o) = follower.0.stdout.take() {
        let _ = o.read_to_string(&mut salto);
    }
    assert!(
        out.status.success() && stdout.starts_with("ok "),
        "pydraughts: {stdout}\n{stderr}\nsalto: {salto}"
    );
    let plies: usize = stdout
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(plies >= 20, "only {plies} plies: {stdout}");
}
