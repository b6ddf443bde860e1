//! `salto match` as a process: the protocol log of `--log FILE`, and what
//! SIGTERM does (every engine stopped, the partial report and PDN written).

mod match_support;

use match_support::{fake_engine_dir, fake_spec};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Waits (at most `secs`, polling) for `cond`; false if it never held.
fn wait_for(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < until {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    cond()
}

#[test]
fn log_file_has_every_line_both_ways_with_engine_names_and_times() {
    let dir = fake_engine_dir("log");
    let log = dir.join("match.log");
    let salto = env!("CARGO_BIN_EXE_salto");
    let out = Command::new(salto)
        .env("SALTO_EGDB", "off")
        .args(["match", "--log"])
        .arg(&log)
        .args([
            "--engine",
            &format!("cmd={salto} args=hub name=first param.hash=1"),
            "--engine",
            &format!("cmd={salto} args=hub name=second param.hash=1"),
            "--depth",
            "1",
            "--games",
            "1",
            "--max-plies",
            "6",
            "--quiet",
        ])
        .output()
        .expect("run salto match");
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    for want in [
        " match] first < hub",
        " match] first > wait",
        " match] second < set-param name=variant value=normal",
        " match] second > ready",
        " match] first < new-game",
        " match] first < ping",
        " match] first > pong",
        " match] first < level depth=1",
        " match] second < go think",
        " match] second > done move=",
        " match] first > info ",
    ] {
        assert!(text.contains(want), "{want} missing from\n{text}");
    }
    // Every line has a UTC time to the millisecond: [2026-11-30T21:40:27.123Z INFO  match] ...
    for line in text.lines() {
        let b = line.as_bytes();
        assert!(
            b.len() > 26 && b[0] == b'[' && b[11] == b'T' && b[20] == b'.' && b[24] == b'Z',
            "{line}"
        );
    }
}

#[test]
fn sigterm_stops_every_engine_and_writes_the_partial_report_and_pdn() {
    let dir = fake_engine_dir("sigterm");
    let (pids, log, pdn) = (dir.join("pids"), dir.join("log"), dir.join("games.pdn"));
    // Engines that never answer `go`: every game hangs in its first search.
    let hang = fake_spec(&dir, "hang", "hang");
    let mut child = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(["match", "--log"])
        .arg(&log)
        .args([
            "--engine",
            &hang,
            "--engine",
            &hang,
            "--depth",
            "1",
            "--timeout",
            "600",
            "--games",
            "10",
            "--concurrency",
            "2",
            "--quiet",
            "--pdn",
        ])
        .arg(&pdn)
        .env("PIDFILE", &pids)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run salto match");
    let read_pids = || -> Vec<u32> {
        std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    };
    let searching = wait_for(60, || {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        read_pids().len() == 4 && text.matches("< go think").count() >= 2
    });
    let engines = read_pids();
    assert!(
        searching,
        "4 engines, 2 searches expected; pids {engines:?}"
    );
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let mut exited = None;
    wait_for(60, || {
        exited = child.try_wait().ok().flatten();
        exited.is_some()
    });
    let Some(code) = exited else {
        let _ = child.kill();
        panic!("the runner did not stop after SIGTERM");
    };
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(code.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("interrupted: 2 game(s) cut short and not counted"),
        "{stdout}"
    );
    assert!(stdout.starts_with("0 games of international"), "{stdout}");
    let games = std::fs::read_to_string(&pdn).unwrap_or_default();
    assert_eq!(
        games.matches("[Termination \"interrupted\"]").count(),
        2,
        "{games}"
    );
    assert_eq!(games.matches("[Result \"*\"]").count(), 2, "{games}");
    // No engine is left: each process is gone (or a zombie nobody waits for).
    let alive = |pid: &u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| !s.contains(") Z "))
            .unwrap_or(false)
    };
    let gone = wait_for(10, || !engines.iter().any(alive));
    let left: Vec<&u32> = engines.iter().filter(|p| alive(p)).collect();
    assert!(gone, "engines still running: {left:?}");
}
