//! Long runs of one Hub session, run by hand (issue #18; figures in
//! docs/reliability.md):
//!
//! ```text
//! cargo test --release --test soak -- --ignored --nocapture
//! SOAK_SEARCHES=500 cargo test --release --test soak soak -- --ignored --nocapture
//! ```
//!
//! - `soak`: 10,000 searches (`SOAK_SEARCHES`) in one session across every
//!   variant and option set, with short limits, `go ponder` with
//!   `ponder-hit` or `stop`, `go think` stopped early, analysis, clocks,
//!   `new-game` and variant switches; every `done` move (and ponder move)
//!   is checked legal, and the engine's resident memory (VmRSS) must stay
//!   within the table size plus a fixed margin.
//! - `soak_timed`: a host driving one session for `SOAK_MINUTES` (default
//!   120) with variant, option, evaluation and table switches and searches
//!   started and stopped; memory sampled every minute, its slope, errors
//!   and the longest `stop` reported (docs/reliability.md, "Timed soak").
//! - `ping_latency`: how long `pong` takes while the engine allocates a
//!   large table at `init`, searches, ponders and empties its table.

mod protocol_util;

use protocol_util::*;
use salto::variant::{Options, Variant};
use std::time::{Duration, Instant};

/// The table the soak asks for, MiB.
const SOAK_HASH_MIB: u64 = 16;
/// What the engine may hold beyond its table: code, stacks, move lists,
/// the channels' lines, MiB.
const RSS_MARGIN_MIB: u64 = 64;

/// One option set: its `set-param` lines and its options.
struct Config {
    params: Vec<(String, String)>,
    opts: Options,
}

fn configs() -> Vec<Config> {
    option_sets()
        .into_iter()
        .map(|params| Config {
            opts: options_of(&params),
            params,
        })
        .collect()
}

/// A xorshift generator: the soak is the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Sends `ping` and returns how long `pong` took; lines other than `info`
/// before it are returned too.
fn timed_ping(s: &mut Salto) -> (Duration, Vec<String>) {
    let t = Instant::now();
    s.send("ping");
    let mut before = Vec::new();
    loop {
        match s.recv(10_000) {
            Some(l) if l == "pong" => return (t.elapsed(), before),
            Some(l) => before.push(l),
            None => panic!("no pong within 10 s; got {before:?}"),
        }
    }
}

#[test]
#[ignore]
fn soak() {
    let searches = env_usize("SOAK_SEARCHES", 10_000);
    let configs = configs();
    let mut s = Salto::start();
    s.handshake();
    s.send(&format!("set-param name=hash value={SOAK_HASH_MIB}"));
    s.send("init");
    assert_eq!(s.expect("ready"), "ready");
    let limit_kib = (SOAK_HASH_MIB + RSS_MARGIN_MIB) * 1024;
    let mut rng = Rng(0x5A17_0018);
    let mut cfg = &configs[0];
    let (mut max_rss, mut first_rss) = (0u64, None);
    let mut max_ping = Duration::ZERO;
    let mut kinds = [0usize; 7];
    let started = Instant::now();
    for i in 0..searches {
        if i % 25 == 0 {
            cfg = &configs[(i / 25) % configs.len()];
            for (k, v) in &cfg.params {
                s.send(&format!("set-param name={k} value={v}"));
            }
            if i % 100 == 0 {
                s.send("new-game");
            }
            // A rule change replays the last position, which the new rules
            // may not allow: that one error is expected (docs/protocol.md).
            for l in s.sync() {
                assert!(l.contains("not valid under the new rules"), "{l}");
            }
        }
        let plies = rng.below(60) as usize;
        let moves = random_game(&cfg.opts, rng.next(), plies);
        s.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
        let kind = rng.below(7) as usize;
        kinds[kind] += 1;
        let level = match rng.below(3) {
            0 => format!("level depth={} move-time=0.1", 1 + rng.below(4)),
            1 => format!("level nodes={} move-time=0.1", 100 + rng.below(3000)),
            _ => format!("level move-time=0.0{}", 1 + rng.below(3)),
        };
        let done = match kind {
            // A search to its limit.
            0 | 1 => {
                s.send(&level);
                s.send("go think");
                s.expect("done")
            }
            // On a clock.
            2 => {
                s.send(&format!(
                    "level time=0.{} inc=0.01 moves={}",
                    1 + rng.below(5),
                    rng.below(30)
                ));
                s.send("go think");
                s.expect("done")
            }
            // Ponder, then the opponent plays the expected move.
            3 => {
                s.send(&level);
                s.send("go ponder");
                std::thread::sleep(Duration::from_millis(rng.below(10)));
                s.send("ponder-hit");
                s.expect("done")
            }
            // Ponder, then the opponent plays another move.
            4 => {
                s.send("go ponder");
                std::thread::sleep(Duration::from_millis(rng.below(10)));
                s.send("stop");
                s.expect("done")
            }
            // Stopped early, with a ping while it runs.
            5 => {
                s.send("level move-time=10");
                s.send("go think");
                let (t, before) = timed_ping(&mut s);
                max_ping = max_ping.max(t);
                match before.first() {
                    // One legal move: answered at once.
                    Some(l) if l.starts_with("done") => l.clone(),
                    Some(l) => panic!("unexpected {l}"),
                    None => {
                        s.send("stop");
                        s.expect("done")
                    }
                }
            }
            // Analysis until stop.
            _ => {
                s.send("level infinite");
                s.send("go analyze");
                std::thread::sleep(Duration::from_millis(rng.below(20)));
                s.send("stop");
                s.expect("done")
            }
        };
        if let Err(e) = legal_done(&cfg.opts, &moves, &done) {
            panic!("search {i} ({:?}): {e}", cfg.params);
        }
        if i % 100 == 99 {
            let rss = s.rss_kib().expect("VmRSS");
            max_rss = max_rss.max(rss);
            first_rss.get_or_insert(rss);
            assert!(
                rss <= limit_kib,
                "search {i}: {rss} KiB resident, more than {limit_kib} KiB"
            );
            eprintln!(
                "{} searches, {:.0} s, VmRSS {rss} KiB (max {max_rss}), max ping {:.1} ms",
                i + 1,
                started.elapsed().as_secs_f64(),
                max_ping.as_secs_f64() * 1000.0
            );
        }
    }
    let (t, before) = timed_ping(&mut s);
    assert!(before.is_empty(), "{before:?}");
    max_ping = max_ping.max(t);
    let last = s.rss_kib().expect("VmRSS");
    eprintln!(
        "soak: {searches} searches in {:.0} s over {} option sets; kinds {kinds:?}; VmRSS first {} KiB, max {max_rss} KiB, last {last} KiB (limit {limit_kib} KiB); max ping {:.1} ms",
        started.elapsed().as_secs_f64(),
        configs.len(),
        first_rss.unwrap_or(0),
        max_ping.as_secs_f64() * 1000.0
    );
    assert_eq!(s.stderr(), "");
    s.send("quit");
    assert!(s.wait(10_000).success());
}

/// The least-squares slope of `(hours, KiB)` samples, KiB an hour.
fn slope(samples: &[(f64, u64)]) -> f64 {
    let n = samples.len() as f64;
    if samples.len() < 2 {
        return 0.0;
    }
    let mx = samples.iter().map(|s| s.0).sum::<f64>() / n;
    let my = samples.iter().map(|s| s.1 as f64).sum::<f64>() / n;
    let sxy: f64 = samples.iter().map(|s| (s.0 - mx) * (s.1 as f64 - my)).sum();
    let sxx: f64 = samples.iter().map(|s| (s.0 - mx).powi(2)).sum();
    if sxx == 0.0 { 0.0 } else { sxy / sxx }
}

/// Sends `stop` and returns the `done` line and how long it took.
fn timed_stop(s: &mut Salto) -> (String, Duration) {
    let t = Instant::now();
    s.send("stop");
    let done = s.expect("done");
    (done, t.elapsed())
}

/// The evaluations a host may switch to in `v`: default, hand, and the
/// shipped weights file (the same weights as the default, loaded again).
fn eval_params(v: Variant) -> Vec<(&'static str, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    let mut out = vec![
        ("eval", "default".to_string()),
        ("eval", "hand".to_string()),
    ];
    for f in [format!("{v}.bin"), format!("{v}.txt")] {
        let p = dir.join(f);
        if p.exists() {
            out.push(("eval-file", p.display().to_string()));
        }
    }
    out
}

/// Resident memory in one state: `cfg`'s options, the default evaluation
/// and a 1 MiB table, so that a sample measures what the session kept, not
/// the table size or the weights a random walk happened to choose.
fn reference_rss(s: &mut Salto, cfg: &Config) -> u64 {
    for (k, v) in &cfg.params {
        s.send(&format!("set-param name={k} value={v}"));
    }
    s.send("set-param name=eval value=default");
    s.send("set-param name=hash value=1");
    s.send("new-game");
    for l in s.sync() {
        assert!(l.contains("not valid under the new rules"), "{l}");
    }
    s.send("init");
    assert_eq!(s.expect("ready"), "ready");
    s.rss_kib().expect("VmRSS")
}

/// A host that runs for `SOAK_MINUTES` (default 120): variant and option
/// switches, evaluation switches (`eval`, `eval-file`), `hash` changes with
/// `init`, searches started and stopped, positions from random games.
/// Resident memory is sampled every `SOAK_SAMPLE_SECS` (default 60); the
/// report gives its slope, the errors (none allowed: every input is
/// valid) and the longest `stop` to `done`. Each sample is taken in one
/// state (the first option set, the default evaluation, a 1 MiB table).
/// Fails when the memory grows by more than 10% from the first sample after
/// the warm-up (a quarter of the run, at most 10 minutes) to the last, or
/// a `stop` takes more than `SOAK_MAX_STOP_MS` (default 100).
#[test]
#[ignore]
fn soak_timed() {
    let minutes = env_usize("SOAK_MINUTES", 120) as u64;
    let every = Duration::from_secs(env_usize("SOAK_SAMPLE_SECS", 60) as u64);
    let max_stop_ms = env_usize("SOAK_MAX_STOP_MS", 100) as u128;
    let configs = configs();
    let mut s = Salto::start();
    s.handshake();
    s.send("set-param name=hash value=16");
    s.send("init");
    assert_eq!(s.expect("ready"), "ready");
    let mut rng = Rng(0x5A17_0038);
    let mut cfg = &configs[0];
    let started = Instant::now();
    let end = started + Duration::from_secs(60 * minutes);
    let mut next_sample = started;
    let mut samples: Vec<(f64, u64)> = Vec::new();
    let (mut searches, mut switches, mut evals) = (0u64, 0u64, 0u64);
    let mut max_stop = Duration::ZERO;
    while Instant::now() < end {
        if Instant::now() >= next_sample {
            cfg = &configs[0];
            let rss = reference_rss(&mut s, cfg);
            let h = started.elapsed().as_secs_f64() / 3600.0;
            samples.push((h, rss));
            eprintln!(
                "{:.0} min: {searches} searches, {switches} switches, {evals} eval switches, VmRSS {rss} KiB, max stop {:.1} ms",
                h * 60.0,
                max_stop.as_secs_f64() * 1000.0
            );
            next_sample += every;
        }
        match rng.below(20) {
            // A variant or option switch.
            0 => {
                cfg = &configs[rng.below(configs.len() as u64) as usize];
                for (k, v) in &cfg.params {
                    s.send(&format!("set-param name={k} value={v}"));
                }
                s.send("new-game");
                for l in s.sync() {
                    assert!(l.contains("not valid under the new rules"), "{l}");
                }
                switches += 1;
            }
            // An evaluation switch.
            1 | 2 => {
                let choices = eval_params(cfg.opts.variant);
                let (k, v) = &choices[rng.below(choices.len() as u64) as usize];
                s.send(&format!("set-param name={k} value={v}"));
                s.send("init");
                assert_eq!(s.expect("ready"), "ready", "{k}={v}");
                evals += 1;
            }
            // Another table size.
            3 if rng.below(10) == 0 => {
                s.send(&format!("set-param name=hash value={}", 1 << rng.below(6)));
                s.send("init");
                assert_eq!(s.expect("ready"), "ready");
            }
            _ => {
                let moves = random_game(&cfg.opts, rng.next(), rng.below(60) as usize);
                s.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
                let done = match rng.below(4) {
                    0 => {
                        s.send(&format!(
                            "level nodes={} move-time=0.2",
                            100 + rng.below(5000)
                        ));
                        s.send("go think");
                        s.expect("done")
                    }
                    1 => {
                        s.send("level move-time=10");
                        s.send("go think");
                        std::thread::sleep(Duration::from_millis(rng.below(50)));
                        let (done, t) = timed_stop(&mut s);
                        max_stop = max_stop.max(t);
                        done
                    }
                    2 => {
                        s.send("level move-time=0.05");
                        s.send("go ponder");
                        std::thread::sleep(Duration::from_millis(rng.below(30)));
                        if rng.below(2) == 0 {
                            s.send("ponder-hit");
                            s.expect("done")
                        } else {
                            let (done, t) = timed_stop(&mut s);
                            max_stop = max_stop.max(t);
                            done
                        }
                    }
                    _ => {
                        s.send("level infinite");
                        s.send("go analyze");
                        std::thread::sleep(Duration::from_millis(rng.below(50)));
                        let (done, t) = timed_stop(&mut s);
                        max_stop = max_stop.max(t);
                        done
                    }
                };
                if let Err(e) = legal_done(&cfg.opts, &moves, &done) {
                    panic!("search {searches} ({:?}): {e}", cfg.params);
                }
                searches += 1;
            }
        }
    }
    let rss = reference_rss(&mut s, &configs[0]);
    samples.push((started.elapsed().as_secs_f64() / 3600.0, rss));
    // The reference is the first sample after the warm-up (a quarter of
    // the run, at most 10 minutes): the session loads each game's shipped
    // weights once, on first use, and the allocator settles its arenas.
    let warm_h = (minutes as f64 / 4.0).min(10.0) / 60.0;
    let from = samples
        .iter()
        .position(|&(h, _)| h >= warm_h)
        .unwrap_or(samples.len() - 1);
    let reference = &samples[from..];
    let (first, last) = (reference[0].1, rss);
    let per_hour = slope(reference);
    eprintln!(
        "soak_timed: {minutes} min, {searches} searches, {switches} switches, {evals} eval switches; VmRSS first {first} KiB, last {last} KiB, slope {per_hour:.0} KiB/h over {} samples; errors 0; max stop to done {:.1} ms",
        samples.len(),
        max_stop.as_secs_f64() * 1000.0
    );
    assert_eq!(s.stderr(), "");
    assert!(
        last * 10 <= first * 11,
        "VmRSS grew from {first} to {last} KiB"
    );
    assert!(
        max_stop.as_millis() <= max_stop_ms,
        "a stop took {max_stop:?}"
    );
    s.send("quit");
    assert!(s.wait(10_000).success());
}

/// Sends `ping` every `every` ms until a line starting with `until` comes;
/// returns the pong latencies.
fn pings_until(s: &mut Salto, until: &str, every: u64) -> Vec<Duration> {
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "no {until} within 120 s");
        let t = Instant::now();
        s.send("ping");
        let mut ended = false;
        loop {
            match s.recv(10_000) {
                Some(l) if l == "pong" => break,
                Some(l) if l.starts_with(until) => ended = true,
                Some(l) => panic!("unexpected {l}"),
                None => panic!("no pong within 10 s"),
            }
        }
        out.push(t.elapsed());
        if ended {
            return out;
        }
        std::thread::sleep(Duration::from_millis(every));
    }
}

fn report(what: &str, mut v: Vec<Duration>) {
    v.sort();
    let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
    eprintln!(
        "ping latency {what}: {} pings, median {:.2} ms, max {:.2} ms",
        v.len(),
        v.get(v.len() / 2).map_or(0.0, ms),
        v.last().map_or(0.0, ms)
    );
}

#[test]
#[ignore]
fn ping_latency() {
    let mut s = Salto::start();
    s.handshake();
    let big = env_usize("PING_HASH_MIB", 2048);
    // A large table at init.
    s.send(&format!("set-param name=hash value={big}"));
    s.send("init");
    report(
        &format!("during init with hash={big}"),
        pings_until(&mut s, "ready", 5),
    );
    // A search.
    s.send("pos start");
    s.send("level move-time=2");
    s.send("go think");
    report("during a 2 s search", pings_until(&mut s, "done", 20));
    // Pondering, then ponder-hit.
    s.send("go ponder");
    let mut v = Vec::new();
    for _ in 0..50 {
        v.push(timed_ping(&mut s).0);
        std::thread::sleep(Duration::from_millis(20));
    }
    s.send("stop");
    s.expect("done");
    report("while pondering", v);
    // Emptying the large table (new-game) before the next search.
    s.send("new-game");
    s.send("level depth=6");
    s.send("go think");
    report(
        &format!("during new-game and a search with hash={big}"),
        pings_until(&mut s, "done", 5),
    );
    // A variant switch and back, then a search: the table comes again.
    s.send("set-param name=variant value=chinese");
    s.send("set-param name=variant value=normal");
    s.send("pos start");
    s.send("level depth=4");
    s.send("go think");
    report(
        &format!("during a variant switch and a search with hash={big}"),
        pings_until(&mut s, "done", 5),
    );
    assert_eq!(s.stderr(), "");
}
