//! `salto match` on the command line: bad input is refused with a message
//! and exit status 2, before any engine is started.

use std::process::Command;

fn salto_match(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_salto"))
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
