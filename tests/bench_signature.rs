//! The bench signature written in README.md is the one `salto bench`
//! prints: a change to the search or the evaluation that changes the node
//! counts must update the README in the same commit.

use std::process::Command;

/// The number after `bench total nodes=` in `text`, if any.
fn signature(text: &str) -> Option<u64> {
    let rest = &text[text.find("bench total nodes=")? + "bench total nodes=".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

#[test]
fn bench_prints_the_signature_in_the_readme() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md is readable");
    let expected = signature(&readme).expect("README.md states the bench signature");
    let out = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(["bench", "--quiet"])
        .output()
        .expect("salto bench runs");
    assert!(out.status.success(), "salto bench failed: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let got = signature(&stdout).expect("salto bench prints the signature");
    assert_eq!(
        got, expected,
        "salto bench prints {got}, README.md says {expected}: update README.md and docs/performance.md with the change"
    );
}

#[test]
fn signature_is_read_from_the_bench_line() {
    assert_eq!(signature("x\nbench total nodes=123 time=1.0\n"), Some(123));
    assert_eq!(signature("bench total nodes="), None);
    assert_eq!(signature("nothing"), None);
}
