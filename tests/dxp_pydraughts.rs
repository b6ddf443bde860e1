//! The real DXP client: pydraughts 0.6.7's `DXPEngine` connects to
//! `salto dxp --listen` and plays black with random moves for 60 plies
//! (tests/pydraughts/dxp.py), checking every move Salto sends against
//! pydraughts' legal moves. Needs the `.ci/run` virtual environment
//! (`SALTO_PYDRAUGHTS_PYTHON`), like tests/protocol_pydraughts.rs.

mod dxp_support;

use dxp_support::follower;
use std::process::Command;

#[test]
fn pydraughts_dxp_client_plays_salto() {
    let Some(python) = std::env::var_os("SALTO_PYDRAUGHTS_PYTHON") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must set SALTO_PYDRAUGHTS_PYTHON to the pydraughts virtual environment"
        );
        eprintln!(
            "skipped: set SALTO_PYDRAUGHTS_PYTHON to a python with pydraughts==0.6.7 (see .ci/run)"
        );
        return;
    };
    let (mut follower, port) = follower(3, &["--games", "1"]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pydraughts/dxp.py");
    let out = Command::new(python)
        .args([script, &port.to_string(), "60"])
        .output()
        .expect("run pydraughts");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let _ = follower.kill();
    let f = follower.wait_with_output().expect("follower");
    assert!(
        out.status.success() && stdout.starts_with("ok "),
        "pydraughts: {stdout}\n{stderr}\nsalto: {}",
        String::from_utf8_lossy(&f.stdout)
    );
    let plies: usize = stdout
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(plies >= 20, "only {plies} plies: {stdout}");
}
