//! The real client: pydraughts 0.6.7's `HubEngine` drives the binary in
//! every variant pydraughts knows that this build implements, playing
//! complete games and checking every move against pydraughts' legal moves
//! (tests/pydraughts/play.py). `.ci/run` makes the virtual environment and
//! sets `SALTO_PYDRAUGHTS_PYTHON` to its python; under CI (`CI=true`) a
//! missing variable is a failure, elsewhere the test says it is skipped.

mod protocol_util;
mod pydraughts;

use protocol_util::implemented;
use salto::variant::Variant;
use std::process::Command;
use std::time::Duration;

#[test]
fn pydraughts_plays_complete_games_against_salto_in_every_variant_it_knows() {
    let Some(python) = pydraughts::python() else {
        return;
    };
    // pydraughts' names for the variants it shares with Salto.
    let all = [
        (Variant::International, "normal"),
        (Variant::English, "english"),
        (Variant::Brazilian, "brazilian"),
        (Variant::Turkish, "turkish"),
        (Variant::Russian, "russian"),
        (Variant::Antidraughts, "antidraughts"),
        (Variant::Breakthrough, "breakthrough"),
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
    let out = pydraughts::run_within(
        Command::new(&python)
            .env("SALTO_EGDB", "off")
            .arg(script)
            .arg("--engine")
            .arg(env!("CARGO_BIN_EXE_salto"))
            .arg("--variants")
            .arg(variants.join(",")),
        Duration::from_secs(900),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "play.py failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
}
