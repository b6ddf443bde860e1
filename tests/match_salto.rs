//! Real matches: Salto against Salto through the Hub protocol, a few games
//! at a small fixed depth, in every variant the build plays. Every move is
//! refereed with Salto's rules; no game may end by an engine's failure.

mod match_support;

use match_support::assert_no_failure;
use salto::variant::Variant;
use std::process::Command;

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("salto-match-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Runs `salto match` and returns (exit code, stdout, stderr).
fn salto_match(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .arg("match")
        .args(args)
        .output()
        .expect("run salto match");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The number after `"key":` in a JSON text.
fn json_u64(json: &str, key: &str) -> Option<u64> {
    let at = json.find(&format!("\"{key}\":"))? + key.len() + 3;
    json[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .ok()
}

fn real_match(variant: Variant, extra: &[&str]) {
    let salto = env!("CARGO_BIN_EXE_salto");
    let pdn = tmp(&format!("{variant}.pdn"));
    let a = format!("cmd={salto} args=hub name=salto-a param.hash=4");
    let b = format!("cmd={salto} args=hub name=salto-b param.hash=4");
    let mut args = vec![
        "--variant",
        variant.name(),
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "2",
        "--games",
        "2",
        "--random-openings",
        "2",
        "--balance-depth",
        "1",
        "--balance",
        "100",
        "--seed",
        "3",
        "--max-plies",
        "300",
        "--timeout",
        "30",
        "--json",
        "--quiet",
        "--site",
        "test machine",
        "--pdn",
    ];
    let pdn_s = pdn.to_string_lossy().into_owned();
    args.push(&pdn_s);
    args.extend_from_slice(extra);
    let (code, out, err) = salto_match(&args);
    assert_eq!(code, 0, "{variant}: exit {code}\n{out}\n{err}");
    assert_eq!(json_u64(&out, "games"), Some(2), "{variant}: {out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("the summary is JSON");
    assert_eq!(json["variant"], variant.name(), "{out}");
    assert_no_failure(&out, variant.name());
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    assert_eq!(text.matches("[Event ").count(), 2, "{variant}: {text}");
    assert!(text.contains(&format!("[Variant \"{variant}\"]")));
    assert_eq!(text.matches("[Site \"test machine\"]").count(), 2, "{text}");
    // The same opening from both sides.
    assert!(text.contains("[White \"salto-a\"]") && text.contains("[White \"salto-b\"]"));
}

#[test]
fn salto_plays_salto_in_every_variant_it_knows() {
    // Each match checks its own games (real_match); every variant plays.
    for v in Variant::ALL {
        real_match(v, &[]);
    }
}

#[test]
fn salto_plays_three_player_chinese_with_seat_rotations() {
    let salto = env!("CARGO_BIN_EXE_salto");
    let pdn = tmp("chinese3.pdn");
    let pdn_s = pdn.to_string_lossy().into_owned();
    let engines: Vec<String> = ["x", "y", "z"]
        .iter()
        .map(|n| format!("cmd={salto} args=hub name={n} param.hash=4"))
        .collect();
    let (code, out, err) = salto_match(&[
        "--variant",
        "chinese",
        "--players",
        "3",
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
        "--engine",
        &engines[2],
        "--depth",
        "1",
        "--games",
        "3",
        "--max-plies",
        "60",
        "--json",
        "--quiet",
        "--pdn",
        &pdn_s,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(json_u64(&out, "games"), Some(3), "{out}");
    for key in [
        "\"seat_points\":[",
        "\"seat_wins\":[",
        "\"places\":[",
        "\"pairs\":[{\"a\":\"x\",\"b\":\"y\"",
        "\"points_per_place\":[1,0.5,0]",
    ] {
        assert!(out.contains(key), "{key} missing: {out}");
    }
    // 60 plies do not finish a game: every game is ranked by distance, and
    // the places of each game add up to a full table (3 games x 3 seats).
    assert_eq!(json_u64(&out, "max-plies"), Some(3), "{out}");
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    assert_eq!(text.matches("[Places \"").count(), 3, "{text}");
    assert_eq!(
        text.matches("ranked by distance to winning; distances to winning: ")
            .count(),
        3,
        "{text}"
    );
    assert_no_failure(&out, "chinese, 3 players");
}
