//! The small version of the self-play run of docs/reliability.md (issue
//! #18): Salto against Salto on a real clock, 1 s + 0.01 s, two games per
//! two-player variant and one game per seat rotation of each chinese player
//! count, two games at a time. No game may end by a time loss (with a 1 s
//! margin here), an illegal move, a crash, a hang or an engine error. The
//! full run (hundreds of games per variant, the default 0.1 s margin) is
//! tests/reliability/selfplay.sh; see docs/reliability.md.

mod match_support;

use match_support::assert_no_failure;
use salto::variant::Variant;
use std::process::Command;

/// Runs one match of `games` games and checks that no game ended by a
/// failure.
fn clock_match(variant: Variant, players: usize, games: usize) {
    let salto = env!("CARGO_BIN_EXE_salto");
    let mut args: Vec<String> = vec![
        "match".into(),
        "--variant".into(),
        variant.name().into(),
        "--players".into(),
        players.to_string(),
    ];
    for i in 0..players {
        args.push("--engine".into());
        args.push(format!("cmd={salto} args=hub name=s{i} param.hash=16"));
    }
    for a in [
        "--tc",
        "1+0.01",
        // A second of grace beyond the clock: a loaded machine's scheduling
        // (the full run saw moves delayed by up to half a second at load
        // 16) must not fail the suite, while an engine that ignores its
        // clock still loses on time here.
        "--margin",
        "1",
        "--concurrency",
        "2",
        "--random-openings",
        "4",
        "--seed",
        "18",
        "--json",
        "--quiet",
    ] {
        args.push(a.into());
    }
    args.push("--games".into());
    args.push(games.to_string());
    let out = Command::new(salto)
        .env("SALTO_EGDB", "off")
        .args(&args)
        .output()
        .expect("run salto match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{variant}/{players}: {stdout}\n{stderr}"
    );
    assert!(
        stdout.contains(&format!("\"games\":{games},")),
        "{variant}/{players}: {stdout}"
    );
    assert_no_failure(&stdout, &format!("{variant}/{players}"));
}

#[test]
fn salto_never_loses_by_a_failure_at_one_second_a_game_in_any_variant() {
    for v in Variant::ALL {
        if v != Variant::Chinese {
            clock_match(v, 2, 2);
        }
    }
}

#[test]
fn salto_never_loses_by_a_failure_at_one_second_a_game_in_chinese_checkers() {
    for players in [2, 3, 4, 6] {
        clock_match(Variant::Chinese, players, players);
    }
}
