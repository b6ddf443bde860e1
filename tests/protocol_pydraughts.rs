//! The real client: pydraughts 0.6.7's `HubEngine` drives the binary in
//! every variant pydraughts knows that this build implements, playing
//! complete games and checking every move against pydraughts' legal moves
//! (tests/pydraughts/play.py). `.ci/run` makes the virtual environment and
//! sets `SALTO_PYDRAUGHTS_PYTHON` to its python; under CI (`CI=true`) a
//! missing variable is a failure, elsewhere the test says it is skipped.

mod protocol_util;

use protocol_util::implemented;
use salto::variant::Variant;
use std::process::Command;

#[test]
fn pydraughts_plays_complete_games_against_salto_in_every_variant_it_knows() {
    let python = match std::env::var("SALTO_PYDRAUGHTS_PYTHON") {
        Ok(p) if !p.is_empty() => p,
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true but SALTO_PYDRAUGHTS_PYTHON is not set: .ci/run must create the \
                 pydraughts virtual environment and export it"
            );
            eprintln!(
                "skipped: set SALTO_PYDRAUGHTS_PYTHON to a python with pydraughts==0.6.7 (see .ci/run)"
            );
            return;
        }
    };
    // pydraughts' names for the variants it shares with Salto.
    let all = [
        (Variant::International, "normal"),
        (Variant::English, "english"),
        (Variant::Brazilian, "brazilian"),
        (Variant::Turkish, "turkish"),
    ];
    assert!(
        implemented(Variant::International),
        "international draughts must be implemented for the real-client test"
    );
    let variants: Vec<&str> = all
        .iter()
        .filter(|(v, _)| implemented(*v))
        .map(|(_, n)| *n)
        .collect();
    let missing: Vec<&str> = all
        .iter()
        .filter(|(v, _)| !implemented(*v))
        .map(|(_, n)| *n)
        .collect();
    eprintln!("pydraughts games in: {variants:?}; not implemented yet: {missing:?}");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pydraughts/play.py");
    let out = Command::new(&python)
        .arg(script)
        .arg("--engine")
        .arg(env!("CARGO_BIN_EXE_salto"))
        .arg("--variants")
        .arg(variants.join(","))
        .output()
        .expect("python starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "play.py failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
}
