//! Controller tests with a toy game and a slow stand-in search, so that the
//! threading (stop, ping, ponder) is tested whatever the real search does.
//! The binary is tested end to end in tests/protocol*.rs.

use super::engine::{Engine, EngineApi, EngineFactory};
use super::*;
use crate::game::{Game, MoveList, Outcome, ParseResult, Score};
use crate::search::{Control, Info, SearchResult};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Countdown: a counter; a move takes 1, 2 or 3 from it; who cannot move
/// (counter 0) loses. Position strings are `W17` / `B17`.
#[derive(Clone, Copy, Debug)]
struct Countdown;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Pos {
    n: u32,
    side: usize,
}

impl Game for Countdown {
    type Position = Pos;
    type Move = u8;
    fn name(&self) -> &'static str {
        "countdown"
    }

    fn descriptor(&self) -> &'static crate::game::Descriptor {
        &crate::game::descriptor::OTHER
    }
    fn start(&self) -> Pos {
        Pos { n: 30, side: 0 }
    }
    fn to_move(&self, p: &Pos) -> usize {
        p.side
    }
    fn generate(&self, p: &Pos, out: &mut MoveList<u8>) {
        for k in 1..=3u8 {
            if u32::from(k) <= p.n {
                out.push(k);
            }
        }
    }
    fn play(&self, p: &Pos, m: u8) -> Pos {
        Pos {
            n: p.n - u32::from(m),
            side: 1 - p.side,
        }
    }
    fn hash(&self, p: &Pos) -> u64 {
        u64::from(p.n) * 2 + p.side as u64
    }
    fn hash_from_scratch(&self, p: &Pos) -> u64 {
        self.hash(p)
    }
    fn is_noisy(&self, _: &Pos, _: u8) -> bool {
        false
    }
    fn is_unstable(&self, _: &Pos) -> bool {
        false
    }
    fn outcome(&self, _: &Pos) -> Option<Outcome> {
        None
    }
    fn reversible_plies(&self, _: &Pos) -> u32 {
        0
    }
    fn evaluate(&self, _: &Pos) -> Score {
        0
    }
    fn parse_move(&self, p: &Pos, text: &str) -> ParseResult<u8> {
        match text.parse::<u8>() {
            Ok(k) if (1..=3).contains(&k) && u32::from(k) <= p.n => Ok(k),
            _ => Err(format!("'{text}' is not a legal move").into()),
        }
    }
    fn format_move(&self, _: &Pos, m: u8) -> String {
        m.to_string()
    }
    fn parse_fen(&self, text: &str) -> ParseResult<Pos> {
        self.parse_hub_position(text)
    }
    fn format_fen(&self, p: &Pos) -> String {
        self.format_hub_position(p)
    }
    fn parse_hub_position(&self, text: &str) -> ParseResult<Pos> {
        if text == "panic" {
            panic!("the toy game panics on request");
        }
        let side = match text.chars().next() {
            Some('W') => 0,
            Some('B') => 1,
            _ => return Err("the position must start with W or B".into()),
        };
        let n = text[1..]
            .parse()
            .map_err(|_| format!("bad counter in '{text}'"))?;
        Ok(Pos { n, side })
    }
    fn format_hub_position(&self, p: &Pos) -> String {
        format!("{}{}", if p.side == 0 { 'W' } else { 'B' }, p.n)
    }
}

/// A search that takes 1 ms per "iteration", reports every 10 and obeys
/// `stop`, `depth` (iterations), `move-time` and pondering like a real one
/// (the session's test stand-in, [`crate::session::Session::stand_in`]).
fn slow_search(
    root: &Pos,
    limits: &Limits,
    control: &Control,
    on_info: &mut dyn FnMut(&Info<u8>),
) -> SearchResult<u8> {
    let t0 = Instant::now();
    let mut iter = 0u32;
    let best = if root.n >= 2 { 2 } else { 1 };
    let after = Countdown.play(root, best);
    let ponder = if after.n >= 1 { Some(1) } else { None };
    loop {
        if control.should_stop() {
            break;
        }
        let clock = control.ponder_hit_time().unwrap_or(t0);
        if !control.pondering.load(std::sync::atomic::Ordering::SeqCst)
            && let Some(t) = limits.move_time
            && clock.elapsed().as_secs_f64() >= t
        {
            break;
        }
        if limits.depth.is_some_and(|d| iter >= d) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
        iter += 1;
        if iter.is_multiple_of(10) {
            on_info(&Info {
                depth: iter / 10,
                mean_depth: 1.0,
                score: 7,
                nodes: u64::from(iter),
                time: t0.elapsed().as_secs_f64(),
                pv: vec![best, 1],
                multipv: 1,
            });
        }
    }
    SearchResult {
        best: Some(best),
        ponder,
        score: 0,
        depth: iter,
        nodes: u64::from(iter),
        pv: vec![best],
    }
}

struct ToyFactory;

impl EngineFactory for ToyFactory {
    fn build(
        &self,
        opts: &Options,
        _hash_mib: usize,
        threads: usize,
    ) -> Result<Box<dyn EngineApi>, ParseError> {
        if opts.variant == Variant::Hex {
            return Err(ParseError("variant 'hex' is not implemented yet".into()));
        }
        // The stand-in never uses the table: keep it small (a table is
        // zeroed when it is made, 64 MiB on every engine switch).
        let mut engine = Engine::new(Countdown, 1, threads);
        engine.session().stand_in = Some(slow_search);
        Ok(Box::new(engine))
    }
}

struct Harness {
    tx: Sender<Event>,
    out: Receiver<String>,
    done: Receiver<()>,
}

impl Harness {
    fn start() -> Self {
        let (out_tx, out_rx) = channel();
        let (etx, erx) = channel();
        let (dtx, drx) = channel();
        let own = etx.clone();
        std::thread::spawn(move || {
            let mut c = Controller::new(ToyFactory, out_tx, own);
            c.run(erx);
            let _ = dtx.send(());
        });
        Harness {
            tx: etx,
            out: out_rx,
            done: drx,
        }
    }

    fn send(&self, line: &str) {
        if let Some(ev) = line_event(line.as_bytes()) {
            self.tx.send(ev).unwrap();
        }
    }

    /// The next line that is not `info`, within `ms`.
    fn next(&self, ms: u64) -> Option<String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(l) if l.starts_with("info ") => continue,
                Ok(l) => return Some(l),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    return None;
                }
            }
        }
    }

    fn expect(&self, prefix: &str) -> String {
        match self.next(2000) {
            Some(l) if l.starts_with(prefix) => l,
            other => panic!("expected a line starting with '{prefix}', got {other:?}"),
        }
    }

    /// Asserts that nothing but `info` comes within `ms`.
    fn silent(&self, ms: u64) {
        if let Some(l) = self.next(ms) {
            panic!("expected no answer, got '{l}'");
        }
    }
}

/// The fastest of up to five runs of `run` (each returns the time it
/// measured), stopping at the first under `limit`: a systematic delay shows
/// in every run, a scheduling hiccup of the shared machine in one.
fn fastest(limit: Duration, mut run: impl FnMut() -> Duration) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..5 {
        best = best.min(run());
        if best < limit {
            break;
        }
    }
    best
}

#[test]
fn stop_during_a_long_search_answers_done_within_50_ms() {
    let h = Harness::start();
    h.send("pos pos=W30");
    let limit = Duration::from_millis(50);
    let took = fastest(limit, || {
        h.send("go think");
        h.silent(150);
        let t = Instant::now();
        h.send("stop");
        let l = h.expect("done ");
        let took = t.elapsed();
        assert_eq!(l, "done move=2 ponder=1");
        took
    });
    assert!(took < limit, "stop took {took:?}");
}

#[test]
fn ping_during_a_search_is_answered_at_once_and_the_search_goes_on() {
    let h = Harness::start();
    h.send("go think");
    h.silent(30);
    let limit = Duration::from_millis(50);
    let took = fastest(limit, || {
        let t = Instant::now();
        h.send("ping");
        assert_eq!(h.expect("pong"), "pong");
        t.elapsed()
    });
    assert!(took < limit, "{took:?}");
    h.silent(50);
    h.send("stop");
    h.expect("done ");
}

#[test]
fn another_command_during_a_search_ends_it_and_runs_after_done() {
    let h = Harness::start();
    h.send("go think");
    h.silent(20);
    h.send("init");
    h.expect("done ");
    h.expect("ready");
}

#[test]
fn idle_stop_and_ponder_hit_are_silently_ignored() {
    let h = Harness::start();
    h.send("stop");
    h.send("ponder-hit");
    h.send("ping");
    assert_eq!(h.expect("pong"), "pong");
    h.silent(30);
}

#[test]
fn a_ponder_search_holds_done_until_ponder_hit() {
    let h = Harness::start();
    h.send("level depth=5");
    h.send("go ponder");
    // The search is over after ~5 ms, but pondering: no done yet.
    h.silent(100);
    h.send("ping");
    h.expect("pong");
    h.send("ponder-hit");
    assert_eq!(h.expect("done "), "done move=2 ponder=1");
}

#[test]
fn ponder_hit_starts_the_clock_and_the_search_ends_on_time() {
    let h = Harness::start();
    h.send("level move-time=0.05");
    let limit = Duration::from_millis(500);
    let took = fastest(limit, || {
        h.send("go ponder");
        h.silent(150); // pondering never stops on time
        let t = Instant::now();
        h.send("ponder-hit");
        h.expect("done ");
        let took = t.elapsed();
        // The clock starts at ponder-hit: never done before its time.
        assert!(took >= Duration::from_millis(40), "{took:?}");
        took
    });
    assert!(took < limit, "{took:?}");
}

#[test]
fn go_ponder_then_stop_answers_done() {
    let h = Harness::start();
    h.send("go ponder");
    h.silent(50);
    h.send("stop");
    h.expect("done ");
    h.send("stop");
    h.silent(30);
}

#[test]
fn one_legal_move_is_answered_at_once_without_ponder_move() {
    let h = Harness::start();
    h.send("pos pos=W1");
    h.send("go think");
    assert_eq!(h.expect("done "), "done move=1");
}

#[test]
fn no_legal_move_is_an_error_and_no_done() {
    let h = Harness::start();
    h.send("pos pos=B0");
    h.send("go think");
    assert_eq!(h.expect("error"), "error message=\"no legal move\"");
    h.silent(50);
}

#[test]
fn an_illegal_move_names_its_number_and_keeps_the_previous_position() {
    let h = Harness::start();
    h.send("pos pos=W1");
    h.send("pos pos=W10 moves=\"3 3 4\"");
    let e = h.expect("error");
    assert!(e.contains("illegal move 3: 4"), "{e}");
    h.send("go think");
    assert_eq!(h.expect("done "), "done move=1");
    // moves are played: W5 after 3 and 1 leaves one legal move? No: W5-3-1 = W1.
    h.send("pos pos=W5 moves=\"3 1\"");
    h.send("go think");
    assert_eq!(h.expect("done "), "done move=1");
}

#[test]
fn a_variant_that_cannot_be_built_is_an_error_and_the_game_stays() {
    let h = Harness::start();
    h.send("pos pos=W1");
    h.send("set-param name=variant value=hex");
    assert!(h.expect("error").contains("not implemented"));
    h.send("go think");
    assert_eq!(h.expect("done "), "done move=1");
    h.send("set-param name=variant value=killer");
    assert!(h.expect("error").contains("unknown variant"));
}

#[test]
fn changing_a_rule_option_replays_the_last_position_and_the_variant_resets_it() {
    let h = Harness::start();
    h.send("pos pos=W1");
    h.send("set-param name=notation value=algebraic");
    h.send("go think");
    assert_eq!(h.expect("done "), "done move=1");
    h.send("set-param name=variant value=english");
    h.send("go think");
    h.silent(30); // the start position (W30) has three moves: a search runs
    h.send("stop");
    h.expect("done ");
}

#[test]
fn chinese_player_and_set_counts_may_pass_through_a_non_game() {
    let h = Harness::start();
    h.send("set-param name=variant value=chinese");
    h.send("set-param name=sets value=2"); // 2 players with 2 sets: not a game yet
    h.send("ping");
    assert_eq!(h.expect("pong"), "pong");
    h.send("go think");
    assert!(h.expect("error").contains("cannot be played"));
    h.send("set-param name=players value=3"); // 3 players, 2 sets: a game
    h.send("pos pos=W1");
    h.send("go think");
    assert_eq!(h.expect("done "), "done move=1");
}

#[test]
fn bad_parameter_values_are_errors_and_unknown_names_are_ignored() {
    let h = Harness::start();
    h.send("set-param name=threads value=abc");
    assert!(h.expect("error").contains("threads"));
    h.send("set-param name=ponder value=maybe");
    assert!(h.expect("error").contains("ponder"));
    h.send("set-param name=turkish-promotion value=sometimes");
    assert!(h.expect("error").contains("sometimes"));
    h.send("set-param name=initial-time value=300");
    h.send("set-param name=book-ply value=4");
    h.send("ping");
    assert_eq!(h.expect("pong"), "pong");
}

/// The `value` of parameter `name` in the `hub` answer.
fn hub_value(h: &Harness, name: &str) -> String {
    h.send("hub");
    let mut found = None;
    loop {
        let l = h.expect("");
        if l == "wait" {
            break;
        }
        if l.starts_with(&format!("param name={name} ")) {
            found = l
                .split_whitespace()
                .find_map(|t| t.strip_prefix("value="))
                .map(str::to_string);
        }
    }
    found.unwrap_or_else(|| panic!("no param {name}"))
}

#[test]
fn a_value_outside_the_advertised_range_is_an_error_naming_it_and_changes_nothing() {
    let h = Harness::start();
    let cases = [
        ("threads", "1e9", format!("1 to {}", max_threads())),
        ("threads", "0", format!("1 to {}", max_threads())),
        ("hash", "-5", format!("1 to {}", max_hash_mib())),
        ("hash", "1e12", format!("1 to {}", max_hash_mib())),
        ("tt-size", "31", "16 to 30".to_string()),
        ("tt-size", "12", "16 to 30".to_string()),
        ("draw-moves", "1001", "0 to 1000".to_string()),
        ("max-moves", "-1", "0 to 1000000".to_string()),
    ];
    for (name, value, range) in cases {
        let before = hub_value(&h, name);
        h.send(&format!("set-param name={name} value={value}"));
        let e = h.expect("error");
        assert!(
            e.contains(&range) && e.contains(name),
            "{name}={value}: {e}"
        );
        assert_eq!(hub_value(&h, name), before, "{name}={value} changed it");
    }
    // In range: taken, rounded down.
    h.send("set-param name=draw-moves value=25.9");
    assert_eq!(hub_value(&h, "draw-moves"), "25");
    h.send("set-param name=hash value=128");
    assert_eq!(hub_value(&h, "hash"), "128");
}

#[test]
fn set_param_hash_answers_nothing_and_the_table_comes_at_init() {
    let h = Harness::start();
    h.send("set-param name=hash value=2");
    h.send("ping");
    assert_eq!(h.expect("pong"), "pong");
    h.send("init");
    assert_eq!(h.expect("ready"), "ready");
    assert_eq!(hub_value(&h, "hash"), "2");
    h.send("new-game");
    h.send("ping");
    assert_eq!(h.expect("pong"), "pong");
    h.send("pos pos=W5");
    h.send("level depth=3");
    h.send("go think");
    assert!(h.expect("done ").starts_with("done move="));
}

#[test]
fn a_panic_in_the_game_code_is_an_error_and_the_engine_lives_on() {
    let h = Harness::start();
    h.send("pos pos=panic");
    assert!(h.expect("error").contains("internal error"));
    h.send("pos pos=W1");
    h.send("go think");
    assert_eq!(h.expect("done "), "done move=1");
}

#[test]
fn quit_during_a_search_ends_the_session_without_done() {
    let h = Harness::start();
    h.send("go think");
    h.silent(20);
    h.send("quit");
    h.done
        .recv_timeout(Duration::from_millis(500))
        .expect("the controller ends");
    assert_eq!(h.next(10), None);
}

#[test]
fn end_of_input_during_a_search_ends_the_session() {
    let h = Harness::start();
    h.send("go think");
    h.silent(20);
    h.tx.send(Event::Eof).unwrap();
    h.done
        .recv_timeout(Duration::from_millis(500))
        .expect("the controller ends");
}

#[test]
fn info_lines_carry_the_pv_in_hub_form() {
    let h = Harness::start();
    h.send("level depth=25");
    h.send("go think");
    let first = h
        .out
        .recv_timeout(Duration::from_millis(1000))
        .expect("an info line");
    assert!(
        first.starts_with("info depth=1 mean-depth=1.0 score=0.07 nodes=10 time="),
        "{first}"
    );
    assert!(first.ends_with("pv=\"2 1\""), "{first}");
    h.expect("done ");
}

#[test]
fn hub_declares_every_parameter_and_ends_with_wait() {
    let h = Harness::start();
    h.send("hub");
    let mut names = Vec::new();
    loop {
        let l = h.expect("");
        if l == "wait" {
            break;
        }
        if let Some(rest) = l.strip_prefix("param name=") {
            names.push(rest.split(' ').next().unwrap_or("").to_string());
        } else {
            assert!(l.starts_with("id name=Salto version="), "{l}");
        }
    }
    for p in [
        "variant",
        "threads",
        "hash",
        "tt-size",
        "ponder",
        "players",
        "sets",
        "foreign-corners",
        "unused-corners",
        "spoiling",
        "turkish-promotion",
        "notation",
        "draw-moves",
        "max-moves",
        "search",
    ] {
        assert!(names.iter().any(|n| n == p), "param {p} missing: {names:?}");
    }
}

#[test]
fn the_reader_splits_lines_and_reports_bad_ones() {
    let input: Vec<u8> = [
        b"ping\r\n".as_slice(),
        b"\n",
        b"   \n",
        b"p\xffng\n",
        &vec![b'x'; MAX_LINE + 10],
        b"\nping",
    ]
    .concat();
    let (tx, rx) = channel();
    spawn_reader(std::io::Cursor::new(input), tx)
        .join()
        .unwrap();
    let evs: Vec<Event> = rx.iter().collect();
    assert_eq!(evs.len(), 5, "{evs:?}");
    assert!(matches!(evs[0], Event::Line(Ok(Command::Ping))));
    assert!(matches!(&evs[1], Event::Line(Err(e)) if e.0.contains("UTF-8")));
    assert!(matches!(&evs[2], Event::Line(Err(e)) if e.0.contains("too long")));
    assert!(matches!(evs[3], Event::Line(Ok(Command::Ping))));
    assert!(matches!(evs[4], Event::Eof));
}
