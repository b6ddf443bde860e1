//! The `search` option through the real binary: declared, set, checked,
//! and used by the search of a 3-player chinese checkers game.

mod protocol_util;

use protocol_util::*;

fn search_param(lines: &[String]) -> String {
    lines
        .iter()
        .find(|l| l.starts_with("param name=search "))
        .cloned()
        .expect("a search param")
}

/// Runs `go think` and returns the info lines and the done line.
fn think(s: &mut Salto) -> (Vec<String>, String) {
    s.send("go think");
    let mut infos = Vec::new();
    loop {
        match s.recv_raw(30_000) {
            Some(l) if l.starts_with("info ") => infos.push(l),
            Some(l) if l.starts_with("done move=") => return (infos, l),
            other => panic!("expected info or done, got {other:?}"),
        }
    }
}

fn field(line: &str, key: &str) -> String {
    arg(line, key).unwrap_or_else(|| panic!("no {key} in '{line}'"))
}

#[test]
fn set_param_search_round_trips_and_selects_the_algorithm() {
    let mut s = Salto::start();
    let lines = s.handshake();
    assert_eq!(
        search_param(&lines),
        "param name=search value=brs type=enum values=\"paranoid brs maxn greedy\""
    );
    s.send("set-param name=search value=maxn");
    assert_eq!(s.sync(), Vec::<String>::new());
    let lines = s.handshake();
    assert!(search_param(&lines).contains("value=maxn"), "{lines:?}");
    // A bad value is an error that names the choices; the value stays.
    s.send("set-param name=search value=alphazero");
    let err = s.expect("error");
    assert!(err.contains("paranoid brs maxn greedy"), "{err}");
    let lines = s.handshake();
    assert!(search_param(&lines).contains("value=maxn"), "{lines:?}");

    s.send("set-param name=variant value=chinese");
    s.send("set-param name=players value=3");
    let mut last_nodes = Vec::new();
    for a in ["paranoid", "brs", "maxn", "greedy"] {
        s.send(&format!("set-param name=search value={a}"));
        s.send("new-game");
        s.send("pos start");
        s.send("level depth=3");
        let (infos, done) = think(&mut s);
        let mv = done_move(&done);
        legal_after(salto::Variant::Chinese, &[], &mv).unwrap_or_else(|e| panic!("{a}: {e}"));
        let last = infos.last().unwrap_or_else(|| panic!("{a}: no info"));
        // Greedy looks one ply deep whatever the level says.
        let want_depth = if a == "greedy" { "1" } else { "3" };
        assert_eq!(field(last, "depth"), want_depth, "{a}: {last}");
        assert!(last.contains(&format!("pv=\"{mv}")), "{a}: {last} / {done}");
        last_nodes.push(field(last, "nodes").to_string());
    }
    // Three different trees for the three searches.
    last_nodes.truncate(3);
    last_nodes.sort();
    last_nodes.dedup();
    assert_eq!(last_nodes.len(), 3, "{last_nodes:?}");
    assert_eq!(s.stderr(), "");
}

#[test]
fn stop_and_ponder_hit_end_multi_player_searches() {
    let mut s = Salto::start();
    s.handshake();
    s.send("set-param name=variant value=chinese");
    s.send("set-param name=players value=4");
    for a in ["paranoid", "brs", "maxn", "greedy"] {
        s.send(&format!("set-param name=search value={a}"));
        s.send("pos start");
        // Without a limit: searches (or waits, greedy) until stop.
        s.send("go analyze");
        s.silent(200);
        s.send("stop");
        let done = s.expect("done move=");
        legal_after(salto::Variant::Chinese, &[], &done_move(&done))
            .unwrap_or_else(|e| panic!("{a}: {e}"));
        // Pondering on a short clock: nothing before ponder-hit, then done.
        s.send("pos start");
        s.send("level move-time=0.05");
        s.send("go ponder");
        s.silent(150);
        s.send("ponder-hit");
        let done = s.expect("done move=");
        legal_after(salto::Variant::Chinese, &[], &done_move(&done))
            .unwrap_or_else(|e| panic!("{a}: {e}"));
    }
    assert_eq!(s.sync(), Vec::<String>::new());
    assert_eq!(s.stderr(), "");
}
