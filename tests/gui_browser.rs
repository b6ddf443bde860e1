//! The real-browser test of `salto gui`: headless Chromium driven by
//! selenium (tests/gui/browser.py) plays a whole english game against the
//! engine by clicking, one move in every other game, and checks the page
//! against Salto after every move.
//!
//! `.ci/run` installs Chromium and puts selenium into its virtual
//! environment (`SALTO_PYDRAUGHTS_PYTHON` points at its python). Without
//! Chromium or selenium the test says it is skipped, except under CI
//! (`CI=true`), where that is a failure. `SALTO_GUI_SCREENSHOTS=DIR` saves a
//! picture of each board there (docs/ holds the committed ones).

use std::path::Path;
use std::process::Command;

fn python() -> String {
    if let Ok(p) = std::env::var("SALTO_PYDRAUGHTS_PYTHON")
        && !p.is_empty()
    {
        return p;
    }
    let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/python");
    if Path::new(venv).exists() {
        venv.to_string()
    } else {
        "python3".to_string()
    }
}

#[test]
fn a_browser_plays_every_game_on_the_page() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gui/browser.py");
    let mut cmd = Command::new(python());
    cmd.env("SALTO_EGDB", "off")
        .arg(script)
        .arg("--salto")
        .arg(env!("CARGO_BIN_EXE_salto"));
    if let Ok(dir) = std::env::var("SALTO_GUI_SCREENSHOTS") {
        cmd.arg("--screenshots").arg(dir);
    }
    let out = cmd.output().expect("python starts");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.code() == Some(3) {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but the browser test cannot run: {stderr}(.ci/run installs chromium, \
             chromium-driver and selenium)"
        );
        eprintln!("skipped: {}", stderr.trim());
        return;
    }
    assert!(
        out.status.success(),
        "the browser test failed:\n{stdout}\n{stderr}"
    );
    eprintln!("{stdout}");
}
