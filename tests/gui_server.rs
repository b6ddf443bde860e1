//! `salto gui` without a browser: every endpoint over real HTTP, bad
//! requests answered with a 4xx and a message, the event stream, and a
//! server that keeps serving after a client goes away mid-search.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

struct Answer {
    status: u16,
    kind: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or("").to_string()
    }
}

fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Answer {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).expect("read answer");
    let (head, body) = raw.split_once("\r\n\r\n").expect("HTTP head");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status");
    let kind = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type:")
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_default();
    Answer {
        status,
        kind,
        body: body.to_string(),
    }
}

fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, "")
}

fn post(addr: SocketAddr, path: &str, body: Value) -> Answer {
    request(addr, "POST", path, &body.to_string())
}

fn ok(a: Answer) -> Value {
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()
}

fn server() -> SocketAddr {
    let s = salto::gui::start("127.0.0.1", 0).expect("server starts");
    let addr = s.addr;
    // The server lives for the rest of the test process.
    std::thread::spawn(move || s.wait());
    addr
}

fn wait_for(addr: SocketAddr, what: &str, cond: impl Fn(&Value) -> bool) -> Value {
    let t0 = Instant::now();
    loop {
        let st = ok(get(addr, "/api/state"));
        if cond(&st) {
            return st;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "timed out: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Reads events from an open event stream until `pred` accepts one.
fn next_event(r: &mut BufReader<TcpStream>, pred: impl Fn(&str, &Value) -> bool) -> Value {
    let mut event = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        let n = r.read_line(&mut line).expect("event stream");
        assert!(n > 0, "the event stream ended");
        let l = line.trim_end();
        if let Some(e) = l.strip_prefix("event: ") {
            event = e.to_string();
        } else if let Some(d) = l.strip_prefix("data: ") {
            let v: Value = serde_json::from_str(d).expect("event data is JSON");
            if pred(&event, &v) {
                return v;
            }
        }
    }
}

fn open_events(addr: SocketAddr) -> BufReader<TcpStream> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(s, "GET /api/events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        if line.to_ascii_lowercase().starts_with("content-type:") {
            assert!(line.contains("text/event-stream"), "{line}");
        }
        if line == "\r\n" {
            return r;
        }
    }
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let addr = server();
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.kind.starts_with("text/html"), "{}", page.kind);
    assert!(page.body.contains("<svg id=\"board\""));
    // Nothing loaded from elsewhere (the SVG namespace is only a name).
    for asset in ["/", "/app.js", "/style.css"] {
        let body = get(addr, asset)
            .body
            .replace("http://www.w3.org/2000/svg", "");
        assert!(
            !body.contains("http://") && !body.contains("https://"),
            "{asset}"
        );
    }
    let js = get(addr, "/app.js");
    assert!(js.kind.starts_with("text/javascript") && js.body.contains("EventSource"));
    assert!(get(addr, "/style.css").body.contains(".sq-dark"));
    let games = ok(get(addr, "/api/games"));
    let names: Vec<&str> = games["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    let registry: Vec<&str> = salto::variant::Variant::ALL
        .iter()
        .map(|v| v.name())
        .collect();
    assert_eq!(names, registry, "the page lists every game of the registry");
}

#[test]
fn every_game_has_its_board_pieces_and_legal_moves() {
    let addr = server();
    let st = ok(get(addr, "/api/state"));
    assert_eq!(st["variant"], "international");
    assert_eq!(st["fen"], "W:W31-50:B1-20");
    for (req, kind, cells, pieces, legal) in [
        (json!({"variant": "international"}), "diagonal", 50, 40, 9),
        (json!({"variant": "brazilian"}), "diagonal", 32, 24, 7),
        (json!({"variant": "english"}), "diagonal", 32, 24, 7),
        (json!({"variant": "spanish"}), "diagonal", 32, 24, 7),
        (json!({"variant": "turkish"}), "orthogonal", 64, 32, 0),
        (json!({"variant": "hex"}), "hex", 91, 26, 0),
        (
            json!({"variant": "chinese", "players": 6}),
            "star",
            121,
            60,
            0,
        ),
        (
            json!({"variant": "chinese", "players": 3, "sets": 2}),
            "star",
            121,
            60,
            0,
        ),
    ] {
        let st = ok(post(addr, "/api/new", req.clone()));
        assert_eq!(st["layout"]["kind"], kind, "{req}");
        assert_eq!(
            st["layout"]["cells"].as_array().unwrap().len(),
            cells,
            "{req}"
        );
        assert_eq!(st["pieces"].as_array().unwrap().len(), pieces, "{req}");
        let n = st["legal"].as_array().unwrap().len();
        assert!(
            n > 0 && (legal == 0 || n == legal),
            "{req}: {n} legal moves"
        );
        let players = st["layout"]["players"].as_array().unwrap().len();
        assert_eq!(st["seats"].as_array().unwrap().len(), players);
    }
    // Six colours for six players.
    let st = ok(post(
        addr,
        "/api/new",
        json!({"variant": "chinese", "players": 6}),
    ));
    let mut colours: Vec<&str> = st["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["color"].as_str().unwrap())
        .collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), 6);
}

#[test]
fn moves_take_back_goto_position_pdn_and_replay() {
    let addr = server();
    ok(post(addr, "/api/new", json!({"variant": "english"})));
    let st = ok(post(addr, "/api/move", json!({"move": "11-15"})));
    assert_eq!(st["line"], json!(["11-15"]));
    assert_eq!(st["last"]["from"], 11);
    assert_eq!(st["last"]["to"], 15);
    let st = ok(post(addr, "/api/move", json!({"move": "22-18"})));
    assert_eq!(st["ply"], 2);
    // A capture with its captured square.
    let cap = st["legal"].as_array().unwrap()[0].clone();
    assert_eq!(cap["text"], "15x22x18");
    assert_eq!(cap["captured"], json!([18]));
    let st = ok(post(addr, "/api/undo", json!({})));
    assert_eq!(st["ply"], 1);
    let st = ok(post(addr, "/api/goto", json!({"ply": 2})));
    assert_eq!(st["ply"], 2);
    let st = ok(post(addr, "/api/goto", json!({"ply": 0})));
    assert_eq!(st["fen"], "B:W21-32:B1-12");
    // Playing from an earlier ply cuts the line there.
    let st = ok(post(addr, "/api/move", json!({"move": "9-13"})));
    assert_eq!(st["line"], json!(["9-13"]));
    let pdn = get(addr, "/api/pdn");
    assert_eq!(pdn.status, 200);
    assert!(pdn.body.contains("[Variant \"english\"]"), "{}", pdn.body);
    assert!(pdn.body.contains("1. 9-13 {unfinished} *"), "{}", pdn.body);
    assert!(
        pdn.body.contains("[Termination \"unterminated\"]"),
        "{}",
        pdn.body
    );
    // A position from a FEN and from a Hub string.
    let st = ok(post(addr, "/api/position", json!({"fen": "W:WK29,21:B5"})));
    assert_eq!(st["pieces"].as_array().unwrap().len(), 3);
    assert_eq!(st["pieces"][2]["king"], true);
    assert_eq!(st["variant"], "english");
    ok(post(addr, "/api/new", json!({"variant": "international"})));
    let hub = "W".to_string() + &"e".repeat(45) + "wwwww";
    let st = ok(post(addr, "/api/position", json!({"fen": hub})));
    assert_eq!(st["result"], Value::Null);
    assert!(get(addr, "/api/pdn").body.contains("[FEN \"W:W46-50:B\"]"));
    // Replay is stateless: the table is untouched.
    let r = ok(post(
        addr,
        "/api/replay",
        json!({"variant": "english", "moves": ["11-15", "22-18", "15x22", "25x18"]}),
    ));
    assert_eq!(r["fen"], "B:W18,21,23,24,26-32:B1-10,12");
    assert_eq!(ok(get(addr, "/api/state"))["variant"], "international");
}

#[test]
fn a_pdn_file_is_watched_move_by_move() {
    let addr = server();
    let pdn = "[Event \"a\"]\n[White \"x\"]\n[Black \"y\"]\n[GameType \"21\"]\n\n1. 11-15 22-18 2. 15x22 25x18 {comment} 1/2-1/2\n\n[Event \"b\"]\n[Variant \"hex\"]\n\n1. 83-76 *\n";
    let st = ok(request(addr, "POST", "/api/watch", pdn).into_ok());
    assert_eq!(st["variant"], "english");
    assert_eq!(st["ply"], 0);
    assert_eq!(st["line"].as_array().unwrap().len(), 4);
    assert_eq!(st["games"].as_array().unwrap().len(), 2);
    let st = ok(post(addr, "/api/goto", json!({"ply": 3})));
    assert_eq!(st["fen"], "W:W21,23-32:B1-10,12,22");
    let st = ok(request(addr, "POST", "/api/watch?game=2", pdn).into_ok());
    assert_eq!(st["variant"], "hex");
    let bad = request(
        addr,
        "POST",
        "/api/watch",
        "[Variant \"english\"]\n1. 11-15 99-1 *",
    );
    assert_eq!(bad.status, 400);
    assert!(bad.error().contains("move 2"), "{}", bad.body);
    let bad = request(addr, "POST", "/api/watch?game=0", pdn);
    assert_eq!(bad.status, 400);
    let bad = request(addr, "POST", "/api/watch?game=3", pdn);
    assert!(bad.error().contains("the file has 2"), "{}", bad.body);
    // Chinese checkers: the players come from the Player tags.
    let st = ok(post(
        addr,
        "/api/new",
        json!({"variant": "chinese", "players": 3}),
    ));
    let mv = st["legal"][0]["text"].as_str().unwrap().to_string();
    ok(post(addr, "/api/new", json!({"variant": "international"})));
    let three = format!(
        "[Player1 \"a\"]\n[Player2 \"b\"]\n[Player3 \"c\"]\n[Variant \"chinese\"]\n\n1. {mv} *\n"
    );
    let st = ok(request(addr, "POST", "/api/watch", &three).into_ok());
    assert_eq!(st["players"], 3);
    assert_eq!(st["line"], json!([mv]));
    assert_eq!(st["seats"].as_array().unwrap().len(), 3);
}

trait IntoOk {
    fn into_ok(self) -> Answer;
}
impl IntoOk for Answer {
    fn into_ok(self) -> Answer {
        assert_eq!(self.status, 200, "{}", self.body);
        self
    }
}

#[test]
fn bad_requests_get_a_4xx_with_a_message() {
    let addr = server();
    let cases: Vec<(Answer, u16, &str)> = vec![
        (
            post(addr, "/api/new", json!({"variant": "chess"})),
            400,
            "unknown variant",
        ),
        (
            post(
                addr,
                "/api/new",
                json!({"variant": "chinese", "players": 5}),
            ),
            400,
            "players",
        ),
        (
            post(
                addr,
                "/api/new",
                json!({"variant": "english", "seats": [{"engine": true}]}),
            ),
            400,
            "1 seats given for a game of 2 players",
        ),
        (
            post(
                addr,
                "/api/new",
                json!({"variant": "english", "seats": [{"engine": true, "depth": 0}, {}]}),
            ),
            400,
            "depth 0",
        ),
        (
            post(
                addr,
                "/api/new",
                json!({"variant": "english", "fen": "W:W99"}),
            ),
            400,
            "bad FEN",
        ),
        (
            post(addr, "/api/move", json!({"move": "31-99"})),
            400,
            "square 99",
        ),
        (post(addr, "/api/move", json!({"move": "1-6"})), 400, "1-6"),
        (post(addr, "/api/move", json!({})), 400, "bad JSON request"),
        (
            request(addr, "POST", "/api/move", "{not json"),
            400,
            "bad JSON request",
        ),
        (
            post(addr, "/api/position", json!({"fen": "W:W31-50:B1-20:X"})),
            400,
            "bad FEN",
        ),
        (
            post(addr, "/api/position", json!({"fen": "Wxyz"})),
            400,
            "bad position string",
        ),
        (
            post(addr, "/api/position", json!({"fen": ""})),
            400,
            "empty position",
        ),
        (
            post(addr, "/api/goto", json!({"ply": 5})),
            400,
            "beyond the end",
        ),
        (
            post(addr, "/api/undo", json!({})),
            409,
            "nothing to take back",
        ),
        (
            post(addr, "/api/seats", json!({"seats": []})),
            400,
            "0 seats",
        ),
        (
            post(addr, "/api/seats", json!({"seats": [{"movetime": -1}, {}]})),
            400,
            "movetime",
        ),
        (
            post(
                addr,
                "/api/replay",
                json!({"variant": "english", "moves": ["1-99"]}),
            ),
            400,
            "move 1",
        ),
        (get(addr, "/api/move"), 405, "takes POST"),
        (get(addr, "/api/nothing"), 404, "no such page"),
        (get(addr, "/nothing"), 404, "no such page"),
        (post(addr, "/api/state", json!({})), 405, "takes GET"),
    ];
    for (i, (a, status, msg)) in cases.into_iter().enumerate() {
        assert_eq!(a.status, status, "case {i}: {}", a.body);
        assert!(
            a.error().contains(msg),
            "case {i}: {} lacks {msg:?}",
            a.body
        );
    }
    // A huge body is refused, not read into memory for ever.
    let big = "x".repeat(9 << 20);
    let a = request(addr, "POST", "/api/watch", &big);
    assert_eq!(a.status, 413, "{}", a.body);
    // After all that the table is the untouched start position.
    assert_eq!(ok(get(addr, "/api/state"))["fen"], "W:W31-50:B1-20");
}

#[test]
fn engine_moves_and_analysis_stream_as_server_sent_events() {
    let addr = server();
    let mut events = open_events(addr);
    next_event(&mut events, |e, _| e == "state");
    // Black moves first in english: the engine (depth 3) plays it.
    let st = ok(post(
        addr,
        "/api/new",
        json!({"variant": "english", "seats": [{"engine": false}, {"engine": true, "depth": 3}]}),
    ));
    assert_eq!(st["seats"][1]["depth"], 3);
    let info = next_event(&mut events, |e, _| e == "info");
    assert_eq!(info["kind"], "play");
    assert!(info["info"]["depth"].as_u64().unwrap() >= 1);
    assert!(info["info"]["pv"].as_array().unwrap()[0]["from"].is_u64());
    let st = next_event(&mut events, |e, v| e == "state" && v["ply"] == 1);
    assert_eq!(st["to_move"], 0);
    assert_eq!(st["searching"], Value::Null);
    // A move while the engine is to move is refused.
    ok(post(
        addr,
        "/api/seats",
        json!({"seats": [{"engine": true, "depth": 2}, {}]}),
    ));
    let a = post(addr, "/api/move", json!({"move": "21-17"}));
    assert!(a.status == 409 || a.status == 400, "{}", a.body);
    // Analysis for a person's turn, until stopped.
    ok(post(addr, "/api/seats", json!({"seats": [{}, {}]})));
    ok(post(addr, "/api/analyse", json!({"on": true})));
    let info = next_event(&mut events, |e, v| e == "info" && v["kind"] == "analyse");
    assert!(info["info"]["nps"].is_u64());
    let st = ok(post(addr, "/api/stop", json!({})));
    assert_eq!(st["analysing"], false);
    assert_eq!(st["searching"], Value::Null);
}

#[test]
fn the_server_keeps_serving_when_a_client_leaves_mid_search() {
    let addr = server();
    ok(post(addr, "/api/analyse", json!({"on": true})));
    for _ in 0..3 {
        let mut events = open_events(addr);
        next_event(&mut events, |e, _| e == "info");
        drop(events);
    }
    // A request whose client hangs up before the answer.
    {
        let mut s = TcpStream::connect(addr).unwrap();
        let body = json!({"variant": "english", "seats": [{}, {"engine": true, "movetime": 0.3}]})
            .to_string();
        write!(
            s,
            "POST /api/new HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
    }
    // A request cut off in the middle of its body.
    {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(
            s,
            "POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{{\"mo"
        )
        .unwrap();
    }
    let st = wait_for(addr, "the engine's move", |s| {
        s["variant"] == "english" && s["ply"] == 1
    });
    assert_eq!(st["analysing"], true);
    // The analysis resumed for the person's turn and still streams.
    let mut events = open_events(addr);
    next_event(&mut events, |e, v| e == "info" && v["kind"] == "analyse");
    ok(post(addr, "/api/analyse", json!({"on": false})));
    let st = wait_for(addr, "analysis off", |s| s["searching"].is_null());
    assert_eq!(st["ply"], 1);
}

/// Issue 38: paths and query parameters are percent-decoded as a browser
/// encodes them (`%32` is `2`, `+` a blank), and the router answers 405
/// for a known path with the wrong method.
#[test]
fn paths_and_queries_are_percent_decoded() {
    let addr = server();
    let pdn = "[Event \"a\"]\n[GameType \"21\"]\n\n1. 11-15 *\n\n[Event \"b\"]\n[Variant \"hex\"]\n\n1. 83-76 *\n";
    let st = ok(request(addr, "POST", "/api/watch?game=%32", pdn).into_ok());
    assert_eq!(st["variant"], "hex");
    assert_eq!(st["game"], 2);
    let st = ok(request(addr, "POST", "/api/watch?x=a+b&game=+1", pdn).into_ok());
    assert_eq!(st["variant"], "english");
    let st = ok(get(addr, "/api/stat%65"));
    assert_eq!(st["variant"], "english");
    let bad = request(addr, "POST", "/api/watch?game=%ZZ", pdn);
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(get(addr, "/api/move").status, 405);
    assert_eq!(post(addr, "/api/state", json!({})).status, 405);
    let none = get(addr, "/no%20such");
    assert_eq!(none.status, 404);
    assert!(none.error().contains("/no such"), "{}", none.body);
}

#[test]
fn the_analysis_shows_several_lines_and_a_game_analysis_scores_every_position() {
    let addr = server();
    ok(post(addr, "/api/new", json!({"variant": "english"})));
    let bad = post(addr, "/api/analyse", json!({"on": true, "multipv": 0}));
    assert_eq!(bad.status, 400);
    let st = ok(post(
        addr,
        "/api/analyse",
        json!({"on": true, "multipv": 3}),
    ));
    assert_eq!(st["multipv"], 3);
    let st = wait_for(addr, "three lines", |s| {
        s["lines"].as_array().is_some_and(|l| l.len() == 3)
    });
    let firsts: Vec<&str> = st["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["pv"][0]["text"].as_str().unwrap_or(""))
        .collect();
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{firsts:?}");
    ok(post(addr, "/api/analyse", json!({"on": false})));

    // A short game, analysed at depth 2: one point per position.
    let moves = ["11-15", "23-19", "8-11", "22-17"];
    for m in moves {
        ok(post(addr, "/api/move", json!({"move": m})));
    }
    assert_eq!(post(addr, "/api/review", json!({"depth": 0})).status, 400);
    let st = ok(post(addr, "/api/review", json!({"depth": 2})));
    assert_eq!(st["review"]["total"], 5);
    let st = wait_for(addr, "the game analysis", |s| {
        s["review"]["running"] == json!(false)
    });
    let points = st["review"]["points"].as_array().unwrap();
    assert_eq!(points.len(), 5);
    for (i, p) in points.iter().enumerate() {
        assert_eq!(p["ply"], i);
        assert!(p["score"].is_number(), "{p}");
    }
    // Going through the game keeps it; another line drops it.
    let st = ok(post(addr, "/api/goto", json!({"ply": 1})));
    assert_eq!(st["review"]["points"].as_array().unwrap().len(), 5);
    let st = ok(post(addr, "/api/move", json!({"move": "23-19"})));
    assert!(st["review"].is_null(), "{}", st["review"]);
    // A running analysis is cancelled.
    ok(post(addr, "/api/review", json!({"movetime": 5})));
    let st = ok(post(addr, "/api/review", json!({"cancel": true})));
    assert!(st["review"].is_null());
}

#[test]
fn clocks_run_flag_on_time_and_engines_play_on_their_clock() {
    let addr = server();
    let bad = post(
        addr,
        "/api/new",
        json!({"variant": "english", "clock": {"base": -1}}),
    );
    assert_eq!(bad.status, 400);
    // Two people, 0.3 s each: the first to move loses on time.
    let st = ok(post(
        addr,
        "/api/new",
        json!({"variant": "english", "clock": {"base": 0.3, "inc": 0}}),
    ));
    let first = st["to_move"].clone();
    assert_eq!(st["clock"]["running"], first);
    let st = wait_for(addr, "the flag", |s| !s["clock"]["flag"].is_null());
    assert_eq!(st["clock"]["flag"], first);
    let reason = st["result"]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("lost on time"), "{}", st["result"]);
    assert!(st["clock"]["running"].is_null());
    let mv = st["legal"][0]["text"].clone();
    let late = post(addr, "/api/move", json!({ "move": mv }));
    assert_ne!(late.status, 200, "a move after the flag: {}", late.body);

    // Two engines with no limit of their own on 3 s + 0.1: told their time,
    // they play fast enough (at the default 1 s a move they would flag).
    let st = ok(post(
        addr,
        "/api/new",
        json!({"variant": "english", "clock": {"base": 3, "inc": 0.1},
               "seats": [{"engine": true}, {"engine": true}]}),
    ));
    assert!(st["clock"]["flag"].is_null());
    let st = wait_for(addr, "eight plies", |s| {
        s["ply"].as_u64().unwrap_or(0) >= 8 || !s["result"].is_null()
    });
    assert!(st["clock"]["flag"].is_null(), "{}", st["clock"]);
    let left = st["clock"]["left"].as_array().unwrap();
    assert!(left.iter().all(|l| l.as_f64().unwrap() < 3.4), "{left:?}");
    ok(post(addr, "/api/new", json!({"variant": "english"})));
}

/// `salto gui --tc`: every new game that names no clock gets this one.
#[test]
fn a_default_clock_applies_to_new_games() {
    let s = salto::gui::start_with(
        "127.0.0.1",
        0,
        Some(salto::gui::Clock::parse("1:00+2").expect("a clock")),
        Vec::new(),
    )
    .expect("server starts");
    let addr = s.addr;
    std::thread::spawn(move || s.wait());
    let st = ok(post(addr, "/api/new", json!({"variant": "hex"})));
    assert_eq!(st["clock"]["base"], 60.0);
    assert_eq!(st["clock"]["inc"], 2.0);
    assert!(salto::gui::Clock::parse("x+1").is_err());
}

/// `salto gui --engine`: a seat played by another Hub engine (here Salto
/// itself as a separate process), against Salto's own search.
#[test]
fn a_seat_can_be_another_hub_engine() {
    let spec = salto::tournament::engine::EngineSpec::parse(&format!(
        "cmd=env args=\"SALTO_EGDB=off {} hub\" name=other param.book=false",
        env!("CARGO_BIN_EXE_salto")
    ))
    .expect("a spec");
    let s = salto::gui::start_with("127.0.0.1", 0, None, vec![spec]).expect("server starts");
    let addr = s.addr;
    std::thread::spawn(move || s.wait());
    assert_eq!(ok(get(addr, "/api/games"))["engines"], json!(["other"]));
    let bad = post(
        addr,
        "/api/new",
        json!({"variant": "english", "seats": [{"engine": true, "external": "nobody"}, {}]}),
    );
    assert_eq!(bad.status, 400);
    assert!(bad.error().contains("other"), "{}", bad.body);
    ok(post(
        addr,
        "/api/new",
        json!({"variant": "brazilian", "seats": [
            {"engine": true, "external": "other", "depth": 2},
            {"engine": true, "depth": 2}]}),
    ));
    let st = wait_for(addr, "six plies", |s| {
        s["line"].as_array().is_some_and(|l| l.len() >= 6) || !s["result"].is_null()
    });
    assert_eq!(st["seats"][0]["external"], "other", "{}", st["seats"]);
    assert!(st["line"].as_array().unwrap().len() >= 6, "{}", st["line"]);
    // "Move now" stops the other engine too: given 600 s a move, it moves
    // at once (the wait below gives up after 60 s).
    ok(post(
        addr,
        "/api/new",
        json!({"variant": "international", "seats": [
            {"engine": true, "external": "other", "movetime": 600}, {}]}),
    ));
    std::thread::sleep(Duration::from_millis(500));
    let t0 = Instant::now();
    ok(post(addr, "/api/stop", json!({})));
    let st = wait_for(addr, "the other engine's move after stop", |s| {
        s["line"].as_array().is_some_and(|l| !l.is_empty())
    });
    assert_eq!(
        st["line"].as_array().map(Vec::len),
        Some(1),
        "{}",
        st["line"]
    );
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    ok(post(addr, "/api/new", json!({"variant": "english"})));
}
