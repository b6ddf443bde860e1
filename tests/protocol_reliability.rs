//! Parameters and table allocation through the protocol, against the real
//! binary with pipes (issue #18): a value outside the range `hub`
//! advertises is an error naming it and changes nothing; `set-param hash`
//! allocates nothing (the table is allocated at `init` or before the next
//! search); a table that cannot be had is an error and a smaller table is
//! kept. No timed assertion: resident memory and answers are checked.
//!
//! The ping-latency and soak measurements are `#[ignore]` tests in
//! tests/soak.rs; see docs/reliability.md.

mod protocol_util;

use protocol_util::*;

/// The `value`, `min` and `max` of parameter `name` in `hub`'s answer.
fn param(lines: &[String], name: &str) -> (String, Option<usize>, Option<usize>) {
    let l = lines
        .iter()
        .find(|l| l.starts_with(&format!("param name={name} ")))
        .unwrap_or_else(|| panic!("no param {name} in {lines:?}"));
    let get = |key: &str| {
        l.split_whitespace()
            .find_map(|t| t.strip_prefix(&format!("{key}=")))
            .map(str::to_string)
    };
    (
        get("value").expect("a value"),
        get("min").and_then(|v| v.parse().ok()),
        get("max").and_then(|v| v.parse().ok()),
    )
}

/// `hub` ... `wait`: the `param` lines.
fn hub(s: &mut Salto) -> Vec<String> {
    s.send("hub");
    let mut lines = Vec::new();
    loop {
        let l = s.expect("");
        if l == "wait" {
            return lines;
        }
        lines.push(l);
    }
}

#[test]
fn a_value_outside_the_advertised_range_is_an_error_naming_it_and_keeps_the_value() {
    let mut s = Salto::start();
    let before = s.handshake();
    let mut asked = Vec::new();
    for name in ["hash", "threads", "tt-size", "draw-moves", "max-moves"] {
        let (_, min, max) = param(&before, name);
        let (min, max) = (min.expect("a min"), max.expect("a max"));
        asked.push((name, (max + 1).to_string(), format!("{min} to {max}")));
        asked.push((name, "-1".to_string(), format!("{min} to {max}")));
    }
    // The value of the issue: far above any table this machine allows.
    asked.push(("hash", "100000000".into(), String::new()));
    for (name, value, range) in &asked {
        s.send(&format!("set-param name={name} value={value}"));
        let e = s.expect("error");
        assert!(
            e.contains(name) && e.contains(range.as_str()) && e.contains("out of range"),
            "{name}={value}: {e}"
        );
    }
    // Enumerations name what they take too.
    for (name, value) in [("players", "5"), ("sets", "4"), ("variant", "frisian")] {
        s.send(&format!("set-param name={name} value={value}"));
        let e = s.expect("error");
        assert!(e.contains(value), "{name}={value}: {e}");
    }
    let after = hub(&mut s);
    for name in [
        "hash",
        "threads",
        "tt-size",
        "draw-moves",
        "max-moves",
        "players",
        "sets",
    ] {
        assert_eq!(param(&after, name).0, param(&before, name).0, "{name}");
    }
    assert_eq!(s.stderr(), "");
}

#[test]
fn set_param_hash_allocates_nothing_the_table_comes_at_init() {
    let mut s = Salto::start();
    // `hub` only: before `init` the engine holds no table of the size asked.
    let lines = hub(&mut s);
    let max = param(&lines, "hash").2.expect("a max");
    let mib: u64 = 192.min(max as u64);
    s.send(&format!("set-param name=hash value={mib}"));
    // No answer to set-param, and nothing allocated by it.
    assert!(s.sync().is_empty());
    let after_set = s.rss_kib().expect("VmRSS");
    assert!(
        after_set < mib * 1024 / 2,
        "set-param allocated: {after_set} KiB resident"
    );
    s.send("init");
    assert_eq!(s.expect("ready"), "ready");
    let after_init = s.rss_kib().expect("VmRSS");
    assert!(
        after_init >= mib * 1024 * 9 / 10,
        "no table after init: {after_set} KiB before, {after_init} KiB after"
    );
    assert_eq!(param(&hub(&mut s), "hash").0, mib.to_string());
    // new-game empties the table before the next search, not at once.
    s.send("new-game");
    s.send("pos start");
    s.send("level depth=2");
    s.send("go think");
    let m = done_move(&s.expect("done"));
    legal_after(salto::Variant::International, &[], &m).expect("a legal move");
    assert_eq!(s.stderr(), "");
}

#[test]
fn a_table_that_cannot_be_had_is_an_error_and_a_smaller_table_is_kept() {
    // 700 MB of address space for the whole engine (about 300 MB of it
    // taken by code, stacks and arenas): a 1 GiB table cannot be
    // allocated, whatever the machine has; halving reaches one that can.
    let mut s = Salto::start_limited("ulimit -v 700000 &&");
    let lines = s.handshake();
    if param(&lines, "hash").2.is_none_or(|m| m < 1024) {
        eprintln!("less than 2 GiB of memory: skipped");
        return;
    }
    s.send("set-param name=hash value=1024");
    assert!(s.sync().is_empty(), "set-param answered");
    s.send("init");
    let e = s.expect("error");
    assert!(e.contains("1024 MiB cannot be had"), "{e}");
    assert_eq!(s.expect("ready"), "ready");
    let kept: usize = param(&hub(&mut s), "hash").0.parse().expect("a number");
    assert!((1..1024).contains(&kept), "{kept}");
    assert!(e.contains(&format!("the table has {kept} MiB")), "{e}");
    // The engine plays on with the smaller table, and asking again before
    // a search says so again.
    s.send("set-param name=hash value=1024");
    s.send("pos start");
    s.send("level depth=3");
    s.send("go think");
    assert!(s.expect("error").contains("cannot be had"));
    let m = done_move(&s.expect("done"));
    legal_after(salto::Variant::International, &[], &m).expect("a legal move");
    assert_eq!(s.stderr(), "");
}

#[test]
fn a_thousand_eval_file_switches_keep_the_resident_memory_flat() {
    // Two weight files for international: the shipped one and a copy with
    // one weight changed (different contents, so neither is the other).
    let dir = std::env::temp_dir().join(format!("salto-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let a = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/international.bin");
    let mut w = salto::draughts::weights::Weights::load(&a).expect("the shipped weights load");
    w.pattern[0] = w.pattern[0].wrapping_add(1);
    let b = dir.join("international-changed.bin");
    std::fs::write(&b, w.to_bytes()).expect("the changed copy is written");
    let files = [a.display().to_string(), b.display().to_string()];

    let mut s = Salto::start();
    s.handshake();
    s.send("set-param name=hash value=1");
    let switch = |s: &mut Salto, i: usize| {
        s.send(&format!("set-param name=eval-file value={}", files[i % 2]));
        s.send("init");
        assert_eq!(s.expect("ready"), "ready", "switch {i}");
        if i.is_multiple_of(100) {
            s.send("pos start");
            s.send("level depth=2");
            s.send("go think");
            let m = done_move(&s.expect("done"));
            legal_after(salto::Variant::International, &[], &m).expect("a legal move");
        }
    };
    // The level after the first switch to each file.
    switch(&mut s, 0);
    switch(&mut s, 1);
    let first = s.rss_kib().expect("VmRSS");
    for i in 2..1000 {
        switch(&mut s, i);
    }
    let last = s.rss_kib().expect("VmRSS");
    assert!(
        last * 10 <= first * 11,
        "1,000 eval-file switches: {first} KiB resident after the first, {last} KiB after the last"
    );
    assert_eq!(s.stderr(), "");
    let _ = std::fs::remove_dir_all(&dir);
}
