//! `salto bench` and `salto analyse` from the outside.

mod cli_util;

use cli_util::salto;

fn total_nodes(out: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with("bench total"))
        .expect("total line");
    line.split_whitespace()
        .find_map(|t| t.strip_prefix("nodes="))
        .and_then(|n| n.parse().ok())
        .expect("nodes")
}

#[test]
fn bench_node_count_is_the_same_on_every_run() {
    let args = ["bench", "--depth", "6"];
    let (ok1, a, e1) = salto(&args);
    let (ok2, b, e2) = salto(&args);
    assert!(ok1 && ok2, "{e1}{e2}");
    let (na, nb) = (total_nodes(&a), total_nodes(&b));
    assert!(na > 10_000, "{a}");
    assert_eq!(na, nb);
    // Every per-position line is identical too (apart from the time).
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("bench variant"))
            .map(|l| {
                l.split_whitespace()
                    .filter(|t| !t.starts_with("time="))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn analyse_prints_best_move_and_json_lines() {
    let (ok, out, err) = salto(&[
        "analyse",
        "--variant",
        "international",
        "--depth",
        "4",
        "--multipv",
        "2",
        "--json",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with('{') && l.ends_with('}')),
        "{out}"
    );
    assert!(lines.iter().any(|l| l.contains("\"multipv\":2")), "{out}");
    let last = lines.last().expect("a line");
    assert!(
        last.contains("\"type\":\"best\"") && last.contains("\"move\":\""),
        "{last}"
    );

    let (ok, out, _) = salto(&[
        "analyse",
        "--variant",
        "international",
        "--moves",
        "32-28 19-23",
        "--depth",
        "3",
    ]);
    assert!(ok);
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("best move=")),
        "{out}"
    );
}

#[test]
fn analyse_rejects_bad_input_with_a_message() {
    let (ok, _, err) = salto(&[
        "analyse",
        "--variant",
        "international",
        "--moves",
        "32-99",
        "--depth",
        "3",
    ]);
    assert!(!ok);
    assert!(err.contains("32-99"), "{err}");
    let (ok, _, err) = salto(&["analyse", "--variant", "international"]);
    assert!(!ok);
    assert!(err.contains("--depth"), "{err}");
    let (ok, _, err) = salto(&["analyse", "--fen", "W:W99:B1", "--depth", "2"]);
    assert!(!ok);
    assert!(!err.is_empty());
}
