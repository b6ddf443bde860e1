//! `salto match` on the command line: bad input is refused with a message
//! and exit status 2, before any engine is started.

use std::process::Command;

fn salto_match(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .arg("match")
        .args(args)
        .output()
        .expect("run salto");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn match_without_time_control_is_refused() {
    let (code, out, err) = salto_match(&["--engine", "cmd=a", "--engine", "cmd=b"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("time control"), "{err}");
}

#[test]
fn match_with_bad_engine_spec_names_the_key() {
    let (code, _, err) = salto_match(&[
        "--engine",
        "cmd=a colour=red",
        "--engine",
        "cmd=b",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("colour"), "{err}");
}

#[test]
fn match_with_bad_sprt_or_clock_is_refused() {
    let (code, _, err) = salto_match(&[
        "--engine",
        "cmd=a",
        "--engine",
        "cmd=b",
        "--depth",
        "2",
        "--sprt",
        "elo0=5,elo1=0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("elo1"), "{err}");
    let (code, _, err) = salto_match(&["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "fast"]);
    assert_eq!(code, 2);
    assert!(err.contains("fast"), "{err}");
    let (code, _, err) = salto_match(&[
        "--engine",
        "cmd=a",
        "--engine",
        "cmd=b",
        "--depth",
        "2",
        "--adjudicate",
        "win=x",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("win"), "{err}");
}

#[test]
fn match_with_missing_openings_file_names_it() {
    let (code, _, err) = salto_match(&[
        "--engine",
        "cmd=a",
        "--engine",
        "cmd=b",
        "--depth",
        "2",
        "--openings",
        "/nonexistent/book.txt",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/book.txt"), "{err}");
}

#[test]
fn shards_tournaments_and_merge_refuse_bad_input() {
    let two = ["--engine", "cmd=a", "--engine", "cmd=b", "--depth", "2"];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = two.to_vec();
        a.extend_from_slice(extra);
        salto_match(&a)
    };
    // --shard needs --seed, and K/N with 1 <= K <= N.
    let (code, _, err) = with(&["--shard", "1/2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--seed"), "{err}");
    let (code, _, err) = with(&["--shard", "3/2", "--seed", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("K/N"), "{err}");
    // A tournament's games per pairing must be even; three engines are
    // too many for a plain two-player match.
    let (code, _, err) = with(&["--engine", "cmd=c", "--round-robin", "--games", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("even"), "{err}");
    let (code, _, err) = with(&["--engine", "cmd=c"]);
    assert_eq!(code, 2);
    assert!(err.contains("--gauntlet"), "{err}");
    // merge: a file that is not a summary is named.
    let dir = std::env::temp_dir().join(format!("salto-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"games\": 3}").expect("write");
    let bad = bad.display().to_string();
    let (code, out, err) = salto_match(&["merge", &bad]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("bad.json") && err.contains("not the JSON"),
        "{err}"
    );
    let (code, _, err) = salto_match(&["merge", "/nonexistent/s1.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/s1.json"), "{err}");
}
