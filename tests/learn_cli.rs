//! `salto datagen` and `salto train` from the outside: shards run through
//! GNU parallel concatenate into the single run's file, training writes a
//! weights file that the engine loads, and bad weights files are refused.

mod cli_util;

use cli_util::salto;
use salto::draughts::English;
use salto::learn::data::{decode, record_size};
use salto::learn::train::both_have_kings;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("salto-learn-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

const GEN: [&str; 10] = [
    "--variant",
    "english",
    "--games",
    "6",
    "--nodes",
    "300",
    "--seed",
    "5",
    "--max-plies",
    "120",
];

#[test]
fn shards_through_gnu_parallel_equal_a_single_run() {
    let have_parallel = Command::new("parallel")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !have_parallel {
        // CI installs it (.ci/run); there its absence is a failure.
        assert!(
            std::env::var_os("CI").is_none(),
            "GNU parallel is missing on CI (.ci/run installs it)"
        );
        eprintln!("skipped: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let d = temp_dir("shards");
    let single = d.join("single.bin");
    let mut args: Vec<String> = vec!["datagen".into()];
    args.extend(GEN.iter().map(|a| a.to_string()));
    args.extend(["--out".into(), s(&single)]);
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    let (ok, _, err) = salto(&a);
    assert!(ok, "{err}");
    // Two shards at once, as docs/evaluation.md shows.
    let out = Command::new("parallel")
        .env("SALTO_EGDB", "off")
        .args(["--will-cite", "-j", "2", env!("CARGO_BIN_EXE_salto")])
        .arg("datagen")
        .args(GEN)
        .args(["--shard", "{}/2", "--out"])
        .arg(format!("{}/shard-{{}}.bin", s(&d)))
        .args([":::", "1", "2"])
        .output()
        .expect("run parallel");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut merged = std::fs::read(d.join("shard-1.bin")).expect("shard 1");
    merged.extend(std::fs::read(d.join("shard-2.bin")).expect("shard 2"));
    let whole = std::fs::read(&single).expect("single");
    assert!(whole.len() > 100 * 16, "{} bytes", whole.len());
    assert!(merged == whole, "the shards differ from the single run");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn training_writes_weights_the_engine_loads_and_bad_files_are_refused() {
    let d = temp_dir("train");
    let data = d.join("data.bin");
    let mut args: Vec<String> = vec!["datagen".into()];
    args.extend(GEN.iter().map(|a| a.to_string()));
    args.extend(["--out".into(), s(&data)]);
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    let (ok, _, err) = salto(&a);
    assert!(ok, "{err}");
    let w = d.join("w.bin");
    let (ok, _, err) = salto(&[
        "train",
        "--variant",
        "english",
        "--data",
        &s(&data),
        "--out",
        &s(&w),
        "--epochs",
        "2",
        "--threads",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("validation loss"), "{err}");
    // The same run again gives the same file.
    let w2 = d.join("w2.bin");
    let (ok, _, err) = salto(&[
        "train",
        "--variant",
        "english",
        "--data",
        &s(&data),
        "--out",
        &s(&w2),
        "--epochs",
        "2",
        "--threads",
        "2",
    ]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&w).ok(), std::fs::read(&w2).ok());
    let (ok, out, err) = salto(&[
        "analyse",
        "--variant",
        "english",
        "--depth",
        "4",
        "--eval-file",
        &s(&w),
    ]);
    assert!(ok && out.contains("best move="), "{out}{err}");
    // The wrong variant, a corrupt file, no file: refused with a message.
    let (ok, _, err) = salto(&[
        "analyse",
        "--variant",
        "brazilian",
        "--depth",
        "2",
        "--eval-file",
        &s(&w),
    ]);
    assert!(!ok && err.contains("for english, not brazilian"), "{err}");
    let mut bytes = std::fs::read(&w).expect("weights");
    let n = bytes.len();
    bytes[n / 2] ^= 0x40;
    let bad = d.join("bad.bin");
    std::fs::write(&bad, &bytes).expect("write");
    let (ok, _, err) = salto(&[
        "analyse",
        "--variant",
        "english",
        "--depth",
        "2",
        "--eval-file",
        &s(&bad),
    ]);
    assert!(!ok && err.contains("checksum"), "{err}");
    let (ok, _, err) = salto(&[
        "analyse",
        "--variant",
        "english",
        "--eval-file",
        &s(&d.join("none")),
    ]);
    assert!(!ok && err.contains("cannot read weights file"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Chinese checkers: 2-player data, the fit writes a weights file that
/// the engine loads with `--eval-file`; other player counts and a bad file
/// are refused with a message.
#[test]
fn chinese_data_trains_term_weights_the_engine_loads() {
    let d = temp_dir("chinese");
    let data = d.join("data.bin");
    let (ok, _, err) = salto(&[
        "datagen",
        "--variant",
        "chinese",
        "--games",
        "6",
        "--nodes",
        "300",
        "--seed",
        "3",
        "--out",
        &s(&data),
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&data).expect("data");
    assert!(
        !bytes.is_empty() && bytes.len().is_multiple_of(29),
        "{} bytes",
        bytes.len()
    );
    let w = d.join("w.txt");
    let (ok, _, err) = salto(&[
        "train",
        "--variant",
        "chinese",
        "--data",
        &s(&data),
        "--out",
        &s(&w),
    ]);
    assert!(ok && err.contains("validation loss"), "{err}");
    let (ok, out, err) = salto(&[
        "analyse",
        "--variant",
        "chinese",
        "--depth",
        "2",
        "--eval-file",
        &s(&w),
    ]);
    assert!(ok && out.contains("best move="), "{out}{err}");
    let (ok, _, err) = salto(&[
        "datagen",
        "--variant",
        "chinese",
        "--players",
        "3",
        "--games",
        "1",
        "--out",
        &s(&d.join("three.bin")),
    ]);
    assert!(!ok && err.contains("2 players"), "{err}");
    std::fs::write(d.join("bad.txt"), "distance 10\nspeed 3\n").expect("write");
    let (ok, _, err) = salto(&[
        "analyse",
        "--variant",
        "chinese",
        "--eval-file",
        &s(&d.join("bad.txt")),
    ]);
    assert!(!ok && err.contains("no term named 'speed'"), "{err}");
    // English data is not chinese data.
    let (ok, _, err) = salto(&[
        "train",
        "--variant",
        "chinese",
        "--data",
        &s(&w),
        "--out",
        &s(&d.join("x.txt")),
    ]);
    assert!(!ok && err.contains("29-byte"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The games a datagen progress file records as written (0 without one).
fn games_done(progress: &Path) -> u64 {
    std::fs::read_to_string(progress)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["games_done"].as_u64())
        .unwrap_or(0)
}

#[test]
fn datagen_killed_and_resumed_writes_the_uninterrupted_file() {
    let d = temp_dir("resume");
    let opts = [
        "--variant",
        "english",
        "--games",
        "24",
        "--nodes",
        "2000",
        "--seed",
        "9",
        "--max-plies",
        "160",
    ];
    let whole = d.join("whole.bin");
    let mut args: Vec<String> = vec!["datagen".into()];
    args.extend(opts.iter().map(|a| a.to_string()));
    args.extend(["--out".into(), s(&whole)]);
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    let (ok, _, err) = salto(&a);
    assert!(ok, "{err}");
    let expected = std::fs::read(&whole).expect("the data file");

    let out = d.join("resumed.bin");
    let progress = d.join("resumed.bin.progress");
    let mut args: Vec<String> = vec!["datagen".into()];
    args.extend(opts.iter().map(|a| a.to_string()));
    args.extend(["--out".into(), s(&out), "--resume".into()]);
    // Killed (SIGKILL) after some batches and a delay that falls in the
    // middle of the next one; then once more; then to the end.
    let mut kills = Vec::new();
    for delay in [30u64, 170] {
        let before = games_done(&progress);
        let mut child = Command::new(env!("CARGO_BIN_EXE_salto"))
            .env("SALTO_EGDB", "off")
            .args(&args)
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("salto datagen starts");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while games_done(&progress) <= before && std::time::Instant::now() < deadline {
            if child.try_wait().ok().flatten().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        std::thread::sleep(std::time::Duration::from_millis(delay));
        if child.try_wait().ok().flatten().is_none() {
            child.kill().expect("SIGKILL");
            let _ = child.wait();
            kills.push(games_done(&progress));
        }
    }
    assert!(
        kills.iter().any(|&k| k > 0 && k < 24),
        "no kill in the middle of the run: {kills:?}"
    );
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    let (ok, _, err) = salto(&a);
    assert!(ok, "{err}");
    assert!(err.contains("resuming"), "{err}");
    assert!(
        std::fs::read(&out).ok() == Some(expected.clone()),
        "killed after {kills:?} games: the resumed file differs from the uninterrupted one"
    );
    // Other options do not take the progress file.
    let mut other = args.clone();
    let at = other.iter().position(|a| a == "--seed").expect("--seed") + 1;
    other[at] = "10".into();
    let a: Vec<&str> = other.iter().map(|x| x.as_str()).collect();
    let (ok, _, err) = salto(&a);
    assert!(!ok);
    assert!(err.contains("another run"), "{err}");

    // A file cut in the middle of a record is refused by train, never read.
    let cut = d.join("cut.bin");
    std::fs::write(&cut, &expected[..expected.len() - 3]).expect("write");
    let (ok, _, err) = salto(&[
        "train",
        "--variant",
        "english",
        "--data",
        &s(&cut),
        "--out",
        &s(&d.join("w.bin")),
        "--epochs",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("not a whole number"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The file of `salto datagen` with [`GEN`] and `extra`, written as `name`
/// in `d`.
fn datagen_file(d: &Path, name: &str, extra: &[&str]) -> Vec<u8> {
    let out = d.join(name);
    let mut args: Vec<String> = vec!["datagen".into()];
    args.extend(GEN.iter().map(|a| a.to_string()));
    args.extend(extra.iter().map(|a| a.to_string()));
    args.extend(["--out".into(), s(&out)]);
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    let (ok, _, err) = salto(&a);
    assert!(ok, "{err}");
    std::fs::read(&out).expect("datagen output")
}

/// `datagen --skip-both-kings`: the file is the plain run's with every
/// record where both players have a king left out (the same games, the
/// same labels of the games' own searches); with `--score-nodes` the same
/// positions again; chinese checkers refuses it.
#[test]
fn datagen_skip_both_kings_writes_the_plain_run_without_those_positions() {
    let d = temp_dir("skip-both-kings");
    let run = |name: &str, extra: &[&str]| datagen_file(&d, name, extra);
    let size = record_size::<English>();
    let both_kings = |r: &[u8]| match decode::<English>(r) {
        Ok(sample) => both_have_kings::<English>(&sample.pos),
        Err(e) => panic!("a record datagen wrote: {e}"),
    };
    let plain = run("plain.bin", &[]);
    let skipped = run("skip.bin", &["--skip-both-kings"]);
    let kept: Vec<u8> = plain
        .chunks(size)
        .filter(|r| !both_kings(r))
        .flatten()
        .copied()
        .collect();
    assert!(
        kept.len() < plain.len(),
        "no position with a king on each side: the test shows nothing"
    );
    assert!(skipped == kept, "not the plain run without those positions");
    let deep = run("deep.bin", &["--score-nodes", "500"]);
    let deep_skipped = run(
        "deep-skip.bin",
        &["--score-nodes", "500", "--skip-both-kings"],
    );
    // The records without their label: pieces, player to move, result.
    let positions = |b: &[u8]| -> Vec<Vec<u8>> {
        b.chunks(size)
            .filter(|r| !both_kings(r))
            .map(|r| [&r[..size - 3], &r[size - 1..]].concat())
            .collect()
    };
    assert_eq!(positions(&deep), positions(&deep_skipped));
    assert_eq!(positions(&deep_skipped).len() * size, deep_skipped.len());
    let out = s(&d.join("bad.bin"));
    let (ok, _, err) = salto(&[
        "datagen",
        "--variant",
        "chinese",
        "--games",
        "1",
        "--skip-both-kings",
        "--out",
        &out,
    ]);
    assert!(!ok && err.contains("--skip-both-kings"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--score-nodes`: the same games and positions as without it (the games
/// are played at `--nodes`), labelled by other, deeper searches; the run is
/// still deterministic; chinese checkers and 0 nodes are refused.
#[test]
fn score_nodes_relabels_the_same_positions_with_deeper_searches() {
    let d = temp_dir("score-nodes");
    let run = |name: &str, extra: &[&str]| datagen_file(&d, name, extra);
    let plain = run("plain.bin", &[]);
    let deep = run("deep.bin", &["--score-nodes", "3000"]);
    let again = run("again.bin", &["--score-nodes", "3000"]);
    assert!(deep == again, "--score-nodes is not deterministic");
    // English records: 3 x 4 bytes of pieces, the player to move, the
    // score (i16), the result.
    assert_eq!(plain.len(), deep.len());
    assert!(plain.len() > 100 * 16, "{} bytes", plain.len());
    let mut changed = 0;
    for (a, b) in plain.chunks(16).zip(deep.chunks(16)) {
        assert_eq!(a[..13], b[..13], "another position or player to move");
        assert_eq!(a[15], b[15], "another result");
        changed += usize::from(a[13..15] != b[13..15]);
    }
    let n = plain.len() / 16;
    assert!(changed * 4 > n, "only {changed} of {n} labels changed");
    for bad in [
        vec![
            "--variant",
            "chinese",
            "--games",
            "1",
            "--score-nodes",
            "100",
        ],
        vec!["--variant", "english", "--games", "1", "--score-nodes", "0"],
    ] {
        let mut a = vec!["datagen"];
        a.extend(bad);
        let out = s(&d.join("bad.bin"));
        a.extend(["--out", out.as_str()]);
        let (ok, _, err) = salto(&a);
        assert!(!ok && err.contains("--score-nodes"), "{a:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
