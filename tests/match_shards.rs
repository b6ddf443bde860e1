//! A match split into shards run by GNU parallel (as docs/match.md shows),
//! merged with `salto match merge`: the same report and the same games as
//! the match run whole. `.ci/run` installs `parallel` (Debian package); out
//! of CI the test is skipped, with a message, when it is missing.

use std::path::Path;
use std::process::Command;

fn have_parallel() -> bool {
    Command::new("parallel")
        .env("SALTO_EGDB", "off")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The match's arguments (without --shard): Salto against Salto at depth 2,
/// 8 games from random openings, so that every shard has different games.
fn match_args(salto: &str) -> Vec<String> {
    [
        "match",
        "--engine",
        &format!("cmd={salto} args=hub name=a param.hash=2"),
        "--engine",
        &format!("cmd={salto} args=hub name=b param.hash=2"),
        "--depth",
        "2",
        "--games",
        "8",
        "--random-openings",
        "4",
        "--balance",
        "100",
        "--balance-depth",
        "1",
        "--seed",
        "11",
        "--max-plies",
        "120",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The report without its first line (which has the elapsed time).
fn body(report: &str) -> String {
    report.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// The PDN's games without the Date tags and comments (the comments hold
/// thinking times), whitespace-normalised.
fn games(pdn: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in pdn.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.lines()
        .filter(|l| !l.starts_with("[Date "))
        .flat_map(|l| l.split_whitespace())
        .collect::<Vec<_>>()
        .join(" ")
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run");
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn quoted(args: &[String]) -> String {
    args.iter()
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn shards_run_by_gnu_parallel_merge_into_the_unsharded_match() {
    if !have_parallel() {
        assert!(
            std::env::var_os("CI").is_none(),
            "GNU parallel is missing in CI (.ci/run installs it)"
        );
        eprintln!("skipped: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let salto = env!("CARGO_BIN_EXE_salto");
    let dir = std::env::temp_dir().join(format!("salto-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let d = |name: &str| dir.join(name).display().to_string();
    let args = match_args(salto);

    let whole_pdn = d("whole.pdn");
    let whole = run(Command::new(salto)
        .env("SALTO_EGDB", "off")
        .args(&args)
        .args(["--pdn", &whole_pdn]));

    // Each shard: its JSON summary and its PDN, as a cluster job would.
    let script = format!(
        "#!/bin/sh\nexec {} --shard \"$1/2\" --json --pdn {}/s$1.pdn > {}/s$1.json\n",
        quoted(&args).replacen("'match'", &format!("'{salto}' 'match'"), 1),
        dir.display(),
        dir.display()
    );
    std::fs::write(dir.join("shard.sh"), script).expect("write script");
    run(Command::new("parallel")
        .env("SALTO_EGDB", "off")
        .args(["--halt", "now,fail=1", "sh"])
        .arg(d("shard.sh"))
        .args([":::", "1", "2"]));
    for k in ["s1.json", "s2.json"] {
        let j = std::fs::read_to_string(dir.join(k)).unwrap_or_default();
        assert!(
            j.starts_with("{\"variant\":\"international\",\"players\":2,\"games\":4,"),
            "{k}: {j}"
        );
    }

    let merged_pdn = d("merged.pdn");
    let merged = run(Command::new(salto).env("SALTO_EGDB", "off").args([
        "match",
        "merge",
        &d("s1.json"),
        &d("s2.json"),
        "--pdn-in",
        &d("s1.pdn"),
        "--pdn-in",
        &d("s2.pdn"),
        "--pdn",
        &merged_pdn,
    ]));
    assert_eq!(
        body(&merged),
        body(&whole),
        "merged:\n{merged}\nwhole:\n{whole}"
    );
    assert!(whole.starts_with("8 games of international"), "{whole}");
    let read = |p: &str| std::fs::read_to_string(Path::new(p)).unwrap_or_default();
    let (m, w) = (read(&merged_pdn), read(&whole_pdn));
    assert_eq!(m.matches("[Event ").count(), 8);
    assert_eq!(games(&m), games(&w));
}
