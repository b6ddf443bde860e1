//! `salto match --resume FILE` (issue #38): a match killed with SIGKILL at
//! random points and started again with the same command plays only the
//! games it had not finished, and ends with the summary (W/D/L,
//! pentanomial, every count) and the PDN results of an uninterrupted run
//! with the same seed. Fixed depth: the games do not depend on the clock.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const GAMES: usize = 8;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("salto-match-resume-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// The match's arguments, writing `pdn` (and keeping `journal`, if any).
fn args(pdn: &Path, journal: Option<&Path>) -> Vec<String> {
    let salto = env!("CARGO_BIN_EXE_salto");
    let mut a: Vec<String> = [
        "match",
        "--variant",
        "english",
        "--engine",
        &format!("cmd={salto} args=hub name=salto-a param.hash=4 param.book=false"),
        "--engine",
        &format!("cmd={salto} args=hub name=salto-b param.hash=4 param.book=false"),
        "--depth",
        "3",
        "--games",
        &GAMES.to_string(),
        "--random-openings",
        "4",
        "--balance-depth",
        "1",
        "--balance",
        "300",
        "--seed",
        "11",
        "--max-plies",
        "150",
        "--timeout",
        "60",
        "--json",
        "--quiet",
        "--pdn",
        &pdn.to_string_lossy(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(j) = journal {
        a.push("--resume".into());
        a.push(j.to_string_lossy().into_owned());
    }
    a
}

fn spawn(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("salto match starts")
}

/// Waits for the match and returns its JSON summary (exit status 0).
fn finish(child: Child) -> serde_json::Value {
    let out = child.wait_with_output().expect("salto match ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{:?}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A summary without its elapsed times: every count and statistic.
fn counts(v: &serde_json::Value) -> serde_json::Value {
    let mut s = v.clone();
    if let Some(o) = s.as_object_mut() {
        o.remove("elapsed");
    }
    if let Some(o) = s["state"].as_object_mut() {
        o.remove("elapsed");
    }
    s
}

/// (Round, Result) of every game of a PDN file, by round.
fn results(pdn: &Path) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(pdn).unwrap_or_default();
    let mut out = Vec::new();
    let mut round = None;
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("[Round \"") {
            round = r.trim_end_matches(['"', ']']).parse().ok();
        }
        if let (Some(r), Some(res)) = (round, line.strip_prefix("[Result \"")) {
            out.push((r, res.trim_end_matches(['"', ']']).to_string()));
            round = None;
        }
    }
    out.sort();
    out
}

/// The games the journal holds (its complete lines after the header).
fn journaled(journal: &Path) -> usize {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    text.matches('\n').count().saturating_sub(1)
}

/// A xorshift generator: the kill points are the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn a_match_killed_and_resumed_ends_as_an_uninterrupted_one() {
    let d = dir();
    let whole_pdn = d.join("whole.pdn");
    let whole = finish(spawn(&args(&whole_pdn, None)));
    assert_eq!(whole["games"], GAMES as u64, "{whole}");

    let (pdn, journal) = (d.join("resumed.pdn"), d.join("journal.jsonl"));
    let _ = std::fs::remove_file(&journal);
    let cmd = args(&pdn, Some(&journal));
    let mut rng = Rng(0x38_5EED);
    let mut kills = Vec::new();
    // Kill after 1 to GAMES-1 journaled games and a random delay (often in
    // the middle of a game), up to three times; then let it finish.
    for _ in 0..3 {
        let before = journaled(&journal);
        if before + 1 >= GAMES {
            break;
        }
        let target = before + 1 + rng.below((GAMES - before - 1) as u64) as usize;
        let mut child = spawn(&cmd);
        let deadline = Instant::now() + Duration::from_secs(300);
        while journaled(&journal) < target {
            assert!(
                Instant::now() < deadline,
                "no progress: {}",
                journaled(&journal)
            );
            if child.try_wait().ok().flatten().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(rng.below(400)));
        if child.try_wait().ok().flatten().is_none() {
            child.kill().expect("SIGKILL");
            let _ = child.wait();
            kills.push(journaled(&journal));
        } else {
            break;
        }
    }
    assert!(
        kills.iter().any(|&k| k > 0 && k < GAMES),
        "no kill in the middle of the match: {kills:?}"
    );
    let resumed = finish(spawn(&cmd));
    assert_eq!(
        counts(&resumed),
        counts(&whole),
        "killed after {kills:?} games\nresumed: {resumed}\nwhole: {whole}"
    );
    assert!(whole["pentanomial"].is_object(), "{whole}");
    assert_eq!(results(&pdn), results(&whole_pdn), "killed after {kills:?}");
    assert_eq!(results(&pdn).len(), GAMES);
    assert_eq!(journaled(&journal), GAMES);

    // Run once more: nothing left to play, the same summary.
    let again = finish(spawn(&cmd));
    assert_eq!(counts(&again), counts(&whole));
    assert_eq!(results(&pdn).len(), GAMES);

    // Another match (another seed) does not take this journal.
    let mut other = cmd.clone();
    let at = other.iter().position(|a| a == "--seed").expect("--seed") + 1;
    other[at] = "12".into();
    let out = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(&other)
        .output()
        .expect("salto match runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another match"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
