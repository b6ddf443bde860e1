//! Perft records of perft/*.txt: every record is checked. Records up to
//! `QUICK_LIMIT` leaves run under `cargo test`; the deep ones are `#[ignore]`
//! tests to run by hand (`cargo test --release --test perft -- --ignored`).

use salto::cli::perft::perft;
use salto::{Game, GameVisitor, Options, Variant, dispatch};

/// Records with more leaves than this are left to the ignored tests.
const QUICK_LIMIT: u64 = 12_000_000;

struct Record {
    line: usize,
    name: String,
    fen: String,
    depth: u32,
    count: u64,
}

fn records(variant: &str) -> Vec<Record> {
    let path = format!("{}/perft/{variant}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 5, "{path}:{}: expected 5 fields", i + 1);
        out.push(Record {
            line: i + 1,
            name: f[0].to_string(),
            fen: f[1].to_string(),
            depth: f[2].parse().expect("depth"),
            count: f[3].parse().expect("count"),
        });
    }
    assert!(!out.is_empty(), "{path} has no records");
    out
}

struct Check<'a> {
    records: &'a [Record],
}

impl GameVisitor for Check<'_> {
    type Output = Vec<String>;
    fn visit<G: Game>(self, game: G) -> Vec<String> {
        let mut failures = Vec::new();
        for r in self.records {
            let pos = if r.fen == "start" {
                game.start()
            } else {
                game.parse_fen(&r.fen)
                    .unwrap_or_else(|e| panic!("line {}: {e}", r.line))
            };
            let got = perft(&game, &pos, r.depth);
            if got != r.count {
                failures.push(format!(
                    "{} line {} ({} depth {}): expected {}, got {got}",
                    game.name(),
                    r.line,
                    r.name,
                    r.depth,
                    r.count
                ));
            }
        }
        failures
    }
}

fn check(variant: &str, deep: bool) {
    let all = records(variant);
    let chosen: Vec<Record> = all
        .into_iter()
        .filter(|r| (r.count <= QUICK_LIMIT) != deep)
        .collect();
    let opts = Options::new(variant.parse::<Variant>().expect("variant"));
    let failures = dispatch(&opts, Check { records: &chosen }).expect("dispatch");
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

/// The draughts variants of the registry (chinese checkers has its own
/// records: tests/chinese_perft.rs).
fn draughts_variants() -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| *v != Variant::Chinese)
        .collect()
}

/// Checks every variant's records, each variant on a thread of its own.
fn check_all(deep: bool) {
    std::thread::scope(|s| {
        for v in draughts_variants() {
            s.spawn(move || check(v.name(), deep));
        }
    });
}

#[test]
fn perft_records_of_every_variant() {
    check_all(false);
}

#[test]
#[ignore = "deep perft: minutes to hours; run by hand"]
fn perft_deep_records_of_every_variant() {
    check_all(true);
}

/// A variant is not done without counts from an independent source: every
/// variant of the registry has a perft file with the start position to
/// depth 6 or more.
#[test]
fn every_variant_has_perft_records_from_the_start_to_depth_6() {
    for v in draughts_variants() {
        let deepest = records(v.name())
            .iter()
            .filter(|r| r.fen == "start" || r.name == "start")
            .map(|r| r.depth)
            .max();
        assert!(
            deepest.is_some_and(|d| d >= 6),
            "perft/{}.txt: the start position only to depth {deepest:?}",
            v.name()
        );
    }
}

/// Runs `salto perft` with `args` and returns (status, stdout, stderr).
fn salto(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(args)
        .output()
        .expect("run salto");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_usage_error(args: &[&str], what: &str) {
    let (code, _out, err) = salto(args);
    assert_eq!(code, Some(2), "{args:?}: exit status, stderr: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line on stderr, got: {err}"
    );
    assert!(
        err.to_lowercase().contains(what),
        "{args:?}: the error should mention '{what}': {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: panicked: {err}");
}

#[test]
fn perft_command_counts_each_depth() {
    let (code, out, err) = salto(&["perft", "--variant", "english", "--depth", "3"]);
    assert_eq!(code, Some(0), "{err}");
    let counts: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().nth(3).unwrap_or(""))
        .collect();
    assert_eq!(counts, ["7", "49", "302"]);
}

#[test]
fn perft_command_divide_lists_root_moves() {
    let (code, out, err) = salto(&["perft", "--depth", "2", "--divide", "--threads", "2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.lines().any(|l| l == "32-28 9"), "{out}");
    assert!(out.contains("moves 9 total 81"), "{out}");
}

#[test]
fn perft_command_rejects_a_malformed_fen() {
    assert_usage_error(&["perft", "--fen", "W:W31-50:B1-2x", "--depth", "2"], "fen");
    assert_usage_error(&["perft", "--fen", "X:W31:B1", "--depth", "2"], "fen");
    assert_usage_error(&["perft", "--fen", "W:W31,51:B1", "--depth", "2"], "51");
}

#[test]
fn perft_command_rejects_an_unknown_variant() {
    assert_usage_error(
        &["perft", "--variant", "frisian", "--depth", "2"],
        "unknown variant",
    );
}

#[test]
fn perft_command_rejects_depth_0_and_100() {
    assert_usage_error(&["perft", "--depth", "0"], "depth");
    assert_usage_error(&["perft", "--depth", "100"], "depth");
}

#[test]
fn perft_command_rejects_a_white_man_on_its_promotion_row() {
    assert_usage_error(
        &["perft", "--fen", "W:W3,31:B20", "--depth", "2"],
        "promotion row",
    );
    assert_usage_error(
        &[
            "perft",
            "--variant",
            "english",
            "--fen",
            "B:W2:B10",
            "--depth",
            "2",
        ],
        "promotion row",
    );
}

#[test]
fn perft_command_rejects_too_many_pieces() {
    assert_usage_error(
        &["perft", "--fen", "W:W21-50:B1-20", "--depth", "2"],
        "pieces",
    );
    assert_usage_error(
        &[
            "perft",
            "--variant",
            "spanish",
            "--fen",
            "W:W17-32:B1-12",
            "--depth",
            "2",
        ],
        "pieces",
    );
}

#[test]
fn perft_command_rejects_a_bad_hub_position() {
    assert_usage_error(&["perft", "--pos", "Wbbb", "--depth", "2"], "51");
}
