//! The `multipv` Hub parameter (docs/protocol.md, "multipv"): through the
//! real binary, in every variant, chinese with 2 and 3 players included.

mod protocol_util;

use protocol_util::*;

/// Runs `go think` and returns the info lines and the done line.
fn think(s: &mut Salto) -> (Vec<String>, String) {
    s.send("go think");
    let mut infos = Vec::new();
    loop {
        match s.recv_raw(60_000) {
            Some(l) if l.starts_with("info ") => infos.push(l),
            Some(l) if l.starts_with("done move=") => return (infos, l),
            other => panic!("expected info or done, got {other:?}"),
        }
    }
}

fn field(line: &str, key: &str) -> Option<String> {
    arg(line, key)
}

fn score(line: &str) -> f64 {
    field(line, "score")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no score in '{line}'"))
}

/// The first move of the line's pv.
fn first_move(line: &str) -> String {
    let pv = line.split("pv=\"").nth(1).unwrap_or("");
    pv.split([' ', '"']).next().unwrap_or("").to_string()
}

/// The lines of the last iteration at `depth` with `multipv=K`, by K.
fn last_iteration(infos: &[String], depth: u32) -> Vec<String> {
    let d = depth.to_string();
    let mut lines: Vec<String> = Vec::new();
    for l in infos {
        if field(l, "depth").as_ref() != Some(&d) {
            continue;
        }
        let k: usize = field(l, "multipv")
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("no multipv in '{l}'"));
        if k == 1 {
            lines.clear();
        }
        assert_eq!(k, lines.len() + 1, "lines out of order: {infos:?}");
        lines.push(l.clone());
    }
    lines
}

/// Sets up a variant (and its options) in a fresh engine.
fn engine(params: &[(&str, &str)]) -> Salto {
    let mut s = Salto::start();
    s.handshake();
    for (name, value) in params {
        s.send(&format!("set-param name={name} value={value}"));
    }
    s
}

fn check(params: &[(&str, &str)], depth: u32) {
    let what = format!("{params:?}");
    // multipv=1: the reference score, and no multipv field.
    let mut one = engine(params);
    one.send("pos start");
    one.send(&format!("level depth={depth}"));
    let (infos, _) = think(&mut one);
    let last = infos.last().unwrap_or_else(|| panic!("{what}: no info"));
    assert_eq!(field(last, "multipv"), None, "{what}: {last}");
    let reference = score(last);

    let mut three = engine(params);
    three.send("set-param name=multipv value=3");
    three.send("pos start");
    three.send(&format!("level depth={depth}"));
    let (infos, done) = think(&mut three);
    let lines = last_iteration(&infos, depth);
    assert_eq!(lines.len(), 3, "{what}: {infos:?}");
    let moves: Vec<String> = lines.iter().map(|l| first_move(l)).collect();
    let mut distinct = moves.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{what}: {moves:?}");
    assert!(moves.iter().all(|m| !m.is_empty()), "{what}: {lines:?}");
    let scores: Vec<f64> = lines.iter().map(|l| score(l)).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "{what}: scores not ordered {scores:?}"
    );
    // The first line is searched exactly as the single line is (the other
    // lines store into a table of their own and leave the history, the
    // killers and the root order as they found them): the same score.
    assert_eq!(scores[0], reference, "{what}: {lines:?} vs {last}");
    assert_eq!(done_move(&done), moves[0], "{what}: {done}");
    assert_eq!(three.stderr(), "");
}

#[test]
fn multipv_3_gives_three_ordered_lines_whose_first_matches_the_single_line() {
    for v in [
        "normal",
        "brazilian",
        "english",
        "spanish",
        "turkish",
        "hex",
    ] {
        check(&[("variant", v)], 5);
    }
    check(&[("variant", "chinese")], 3);
    check(
        &[("variant", "chinese"), ("players", "3"), ("sets", "1")],
        3,
    );
    check(
        &[
            ("variant", "chinese"),
            ("players", "3"),
            ("sets", "1"),
            ("search", "maxn"),
        ],
        2,
    );
}

#[test]
fn multipv_is_declared_checked_and_kept() {
    let mut s = Salto::start();
    let lines = s.handshake();
    assert!(
        lines
            .iter()
            .any(|l| l == "param name=multipv value=1 type=int min=1 max=512"),
        "{lines:?}"
    );
    s.send("set-param name=multipv value=0");
    let e = s.expect("error");
    assert!(e.contains("multipv") && e.contains("1 to 512"), "{e}");
    s.send("set-param name=multipv value=2");
    let lines = s.handshake();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=multipv value=2 ")),
        "{lines:?}"
    );
    // Kept from search to search.
    s.send("pos start");
    s.send("level depth=2");
    let (infos, _) = think(&mut s);
    assert_eq!(last_iteration(&infos, 2).len(), 2, "{infos:?}");
    // More lines than moves: every move (one man with two moves).
    s.send("set-param name=multipv value=5");
    s.send("pos fen=W:W28:B1");
    s.send("level depth=2");
    let (infos, _) = think(&mut s);
    assert_eq!(last_iteration(&infos, 2).len(), 2, "{infos:?}");
}
