//! `salto bench --engine ...`: Hub engines side by side on the repo's
//! position set. Salto against itself at a fixed depth, so the run is
//! short and every figure is known: the same engine at the same depth on
//! one thread searches the same nodes and plays the same move.

use std::process::Command;

const POSITIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/bench/positions-international.txt"
);

fn salto() -> &'static str {
    env!("CARGO_BIN_EXE_salto")
}

/// The value of `key=` in a line of `key=value` words.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

fn positions_in_file() -> usize {
    std::fs::read_to_string(POSITIONS)
        .expect("the position set is readable")
        .lines()
        .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
        .count()
}

#[test]
fn two_saltos_side_by_side_at_a_fixed_depth() {
    let a = format!("cmd={} name=first", salto());
    let b = format!("cmd={} name=second", salto());
    let out = Command::new(salto())
        .env("SALTO_EGDB", "off")
        .args(["bench", "--engine", &a, "--engine", &b])
        .args(["--positions", POSITIONS, "--depth", "3"])
        .output()
        .expect("salto bench runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    let n = positions_in_file();
    assert!(n >= 12, "the set has {n} positions");
    // One line per search, both engines on every position.
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("compare ")).collect();
    assert_eq!(lines.len(), 2 * n, "{text}");
    for p in 1..=n {
        let pos = p.to_string();
        let of = |name: &str| {
            *lines
                .iter()
                .find(|l| field(l, "position") == Some(&pos) && field(l, "engine") == Some(name))
                .unwrap_or_else(|| panic!("no line for {name} on position {p}:\n{text}"))
        };
        let (x, y) = (of("first"), of("second"));
        assert_eq!(field(x, "depth"), Some("3"), "{x}");
        let nodes: u64 = field(x, "nodes").and_then(|v| v.parse().ok()).expect(x);
        assert!(nodes > 0, "{x}");
        assert_eq!(field(x, "nodes"), field(y, "nodes"), "{x}\n{y}");
        assert_eq!(field(x, "move"), field(y, "move"), "{x}\n{y}");
        let t: f64 = field(x, "time").and_then(|v| v.parse().ok()).expect(x);
        assert!(t >= 0.0);
    }
    // The side-by-side table has a row per position, and each engine a
    // median line with the depth searched and no errors.
    let rows = text
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .count();
    assert_eq!(rows, n, "{text}");
    for name in ["first", "second"] {
        let m = text
            .lines()
            .find(|l| l.starts_with("median ") && field(l, "engine") == Some(name))
            .unwrap_or_else(|| panic!("no median line for {name}:\n{text}"));
        assert_eq!(field(m, "depth"), Some("3.0"), "{m}");
        assert_eq!(field(m, "errors"), Some("0"), "{m}");
    }
}

#[test]
fn the_in_process_bench_reads_the_same_position_file() {
    let out = Command::new(salto())
        .env("SALTO_EGDB", "off")
        .args(["bench", "--positions", POSITIONS, "--depth", "3"])
        .output()
        .expect("salto bench runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines = text
        .lines()
        .filter(|l| l.starts_with("bench variant=international"))
        .count();
    assert_eq!(lines, positions_in_file(), "{text}");
}

#[test]
fn bad_comparisons_are_refused_with_a_message() {
    let a = format!("cmd={}", salto());
    let cases: [&[&str]; 4] = [
        // No limit.
        &["bench", "--engine", &a, "--positions", POSITIONS],
        // Two limits.
        &["bench", "--engine", &a, "--depth", "2", "--movetime", "1"],
        // A spec that is not one.
        &["bench", "--engine", "name=x", "--depth", "2"],
        // A position file that does not exist.
        &[
            "bench",
            "--engine",
            &a,
            "--depth",
            "2",
            "--positions",
            "/nonexistent/file",
        ],
    ];
    for args in cases {
        let out = Command::new(salto())
            .env("SALTO_EGDB", "off")
            .args(args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    // A bad FEN names its line.
    let dir = std::env::temp_dir().join(format!("salto-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("bad.txt");
    std::fs::write(&f, "W:W31:B1\nW:W99:B1\n").expect("write");
    let out = Command::new(salto())
        .env("SALTO_EGDB", "off")
        .args(["bench", "--engine", &a, "--depth", "2", "--positions"])
        .arg(&f)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 2"),
        "{out:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
