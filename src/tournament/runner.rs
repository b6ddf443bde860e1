//! The match: schedules games over openings and seat rotations, runs them
//! on worker threads (each with its own engine processes), and keeps the
//! score, the Elo estimate, the SPRT and the PDN file.

use super::engine::EngineSpec;
use super::openings::{Book, RandomOpenings, parse_openings};
use super::pdn::{PdnHeader, today, write_game};
use super::play::{EndKind, EngineSlot, GameRecord, RefereeConfig, play_game};
use super::ranking::PointsScheme;
use super::stats::{ScoreSample, Sprt, SprtDecision, Wdl};
use crate::game::Game;
use crate::game::text::json_string;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// Where the games start.
#[derive(Clone, Debug)]
pub enum OpeningChoice {
    /// Always the variant's start (each game twice, colours swapped).
    Start,
    /// The text of an openings file (see [`parse_openings`]).
    File(String),
    /// `plies` random moves, kept when a search to `depth` scores them
    /// within `balance` centi-men.
    Random {
        plies: u32,
        balance: i32,
        depth: u32,
    },
}

/// Everything a match needs besides the game.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// Games to play (the SPRT may stop earlier).
    pub games: u64,
    pub sprt: Option<Sprt>,
    pub referee: RefereeConfig,
    pub openings: OpeningChoice,
    pub concurrency: usize,
    pub pdn: Option<PathBuf>,
    pub event: String,
    pub seed: u64,
    /// Print the progress line on stderr.
    pub progress: bool,
}

/// The state of the SPRT at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtReport {
    pub sprt: Sprt,
    pub llr: f64,
    pub decision: SprtDecision,
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub variant: String,
    pub engines: Vec<String>,
    pub players: usize,
    /// Counted games (aborted ones excluded).
    pub games: u64,
    pub aborted: u64,
    /// The points per place the match used, first place first.
    pub points_scheme: Vec<f64>,
    /// Points of each engine.
    pub points: Vec<f64>,
    /// Games won (alone in first place) by each engine.
    pub wins: Vec<u64>,
    /// How often each engine finished in each place: `places[e][p]`, place
    /// 0 first; tied engines share the better place.
    pub places: Vec<Vec<u64>>,
    /// Each engine's per-game score against the field: the fraction of the
    /// other players it finished ahead of (ties half).
    pub field: Vec<ScoreSample>,
    /// Pairwise results from the places: `pairs[a][b]` is engine a's W/D/L
    /// against engine b (ahead, tied, behind), one result per game.
    pub pairs: Vec<Vec<Wdl>>,
    /// Points scored from each seat (whoever sat there).
    pub seat_points: Vec<f64>,
    /// Games won from each seat.
    pub seat_wins: Vec<u64>,
    /// Two engines: W/D/L of the first against the second.
    pub wdl: Option<Wdl>,
    pub sprt: Option<SprtReport>,
    /// How games ended, by kind.
    pub ends: BTreeMap<&'static str, u64>,
    /// Failures (illegal move, flag, hang, crash, start, error) per engine.
    pub failures: Vec<BTreeMap<&'static str, u64>>,
    pub elapsed: Duration,
    pub seed: u64,
}

fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        // No "-0.0".
        format!("{:+.1}", (x * 10.0).round() / 10.0 + 0.0)
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `+12.3 [-40.1, +70.0]`: an Elo estimate with its interval, or `None`
/// when it is not finite.
fn fmt_elo_interval(elo: Option<f64>, interval: Option<(f64, f64)>) -> Option<String> {
    let (e, (lo, hi)) = (elo?, interval?);
    Some(format!("{} [{}, {}]", fmt_elo(e), fmt_elo(lo), fmt_elo(hi)))
}

/// `"elo":E,"elo_low":L,"elo_high":H` with `prefix` before each name.
fn json_elo(prefix: &str, elo: Option<f64>, interval: Option<(f64, f64)>) -> String {
    let (lo, hi) = interval.map_or((None, None), |(a, b)| (Some(a), Some(b)));
    format!(
        "\"{prefix}elo\":{},\"{prefix}elo_low\":{},\"{prefix}elo_high\":{}",
        json_num(elo),
        json_num(lo),
        json_num(hi)
    )
}

/// A JSON number, or null when not finite.
fn json_num(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => "null".into(),
    }
}

impl MatchSummary {
    fn new<G: Game>(game: &G, cfg: &MatchConfig) -> Self {
        let k = cfg.engines.len();
        let n = game.num_players();
        MatchSummary {
            variant: game.name().to_string(),
            engines: cfg.engines.iter().map(|e| e.name.clone()).collect(),
            players: n,
            games: 0,
            aborted: 0,
            points_scheme: cfg
                .referee
                .points
                .clone()
                .unwrap_or_else(|| PointsScheme::linear(n))
                .0,
            points: vec![0.0; k],
            wins: vec![0; k],
            places: vec![vec![0; n]; k],
            field: vec![ScoreSample::default(); k],
            pairs: vec![vec![Wdl::default(); k]; k],
            seat_points: vec![0.0; n],
            seat_wins: vec![0; n],
            wdl: (k == 2).then(Wdl::default),
            sprt: cfg.sprt.map(|s| SprtReport {
                sprt: s,
                llr: 0.0,
                decision: SprtDecision::Continue,
            }),
            ends: BTreeMap::new(),
            failures: vec![BTreeMap::new(); k],
            elapsed: Duration::ZERO,
            seed: cfg.seed,
        }
    }

    fn add(&mut self, rec: &GameRecord) {
        *self.ends.entry(rec.kind.name()).or_insert(0) += 1;
        if rec.kind == EndKind::Aborted {
            self.aborted += 1;
            return;
        }
        self.games += 1;
        for (seat, &e) in rec.seats.iter().enumerate() {
            self.points[e] += rec.points[seat];
            self.seat_points[seat] += rec.points[seat];
        }
        if let Some(w) = rec.winner {
            self.wins[rec.seats[w]] += 1;
            self.seat_wins[w] += 1;
        }
        let n = rec.seats.len();
        let field = PointsScheme::linear(n).points(&rec.places);
        for (seat, &e) in rec.seats.iter().enumerate() {
            let place = rec.places[seat];
            self.places[e][place.min(n - 1)] += 1;
            self.field[e].add(field[seat]);
            for (other, &o) in rec.seats.iter().enumerate() {
                if o == e {
                    continue;
                }
                let r = &mut self.pairs[e][o];
                match place.cmp(&rec.places[other]) {
                    std::cmp::Ordering::Less => r.wins += 1,
                    std::cmp::Ordering::Equal => r.draws += 1,
                    std::cmp::Ordering::Greater => r.losses += 1,
                }
            }
        }
        if let Some(c) = rec.culprit {
            *self.failures[rec.seats[c]]
                .entry(rec.kind.name())
                .or_insert(0) += 1;
        }
        if let Some(wdl) = self.wdl.as_mut() {
            *wdl = self.pairs[0][1];
        }
        if let (Some(s), Some(wdl)) = (self.sprt.as_mut(), self.wdl) {
            s.llr = s.sprt.llr(&wdl);
            s.decision = s.sprt.decide(&wdl);
        }
    }

    /// The one-line progress report.
    pub fn progress_line(&self, total: u64) -> String {
        let mut line = format!("games {}/{}", self.games + self.aborted, total);
        if let Some(w) = self.wdl {
            line.push_str(&format!(
                "  {} {:.1}-{:.1} (+{} ={} -{})",
                self.engines[0],
                w.points(),
                w.flipped().points(),
                w.wins,
                w.draws,
                w.losses
            ));
            if let Some(e) = fmt_elo_interval(w.elo(), w.elo_interval()) {
                line.push_str(&format!("  elo {e}"));
            }
        } else {
            let pts: Vec<String> = (0..self.engines.len())
                .map(|i| {
                    format!(
                        "{} {:.1} ({:.0}%)",
                        self.engines[i],
                        self.points[i],
                        100.0 * self.field[i].score().unwrap_or(0.0)
                    )
                })
                .collect();
            line.push_str(&format!("  {}", pts.join(", ")));
            let f = &self.field[0];
            if let Some(e) = fmt_elo_interval(f.elo(), f.elo_interval()) {
                line.push_str(&format!("  {} vs field elo {e}", self.engines[0]));
            }
        }
        if let Some(s) = &self.sprt {
            line.push_str(&format!(
                "  llr {:.2} [{:.2}, {:.2}]",
                s.llr,
                s.sprt.lower_bound(),
                s.sprt.upper_bound()
            ));
        }
        let done = self.games + self.aborted;
        line.push_str(&format!("  elapsed {}", fmt_duration(self.elapsed)));
        if done > 0 && total < u64::MAX / 2 {
            let eta = self
                .elapsed
                .mul_f64((total - done.min(total)) as f64 / done as f64);
            line.push_str(&format!("  eta {}", fmt_duration(eta)));
        }
        line
    }

    /// The final report, for people.
    pub fn report(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "{} games of {} ({} players), {} elapsed, seed {}\n",
            self.games,
            self.variant,
            self.players,
            fmt_duration(self.elapsed),
            self.seed
        ));
        if self.aborted > 0 {
            s.push_str(&format!(
                "{} games aborted (no engine could play)\n",
                self.aborted
            ));
        }
        for (i, name) in self.engines.iter().enumerate() {
            s.push_str(&format!(
                "  {name}: {:.1} points, {} wins",
                self.points[i], self.wins[i]
            ));
            if !self.failures[i].is_empty() {
                let f: Vec<String> = self.failures[i]
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect();
                s.push_str(&format!(", lost by failure: {}", f.join(", ")));
            }
            s.push('\n');
        }
        if let Some(w) = self.wdl {
            s.push_str(&format!(
                "{} vs {}: +{} ={} -{}, score {:.1}/{} ({:.1}%)\n",
                self.engines[0],
                self.engines[1],
                w.wins,
                w.draws,
                w.losses,
                w.points(),
                w.games(),
                100.0 * w.score().unwrap_or(0.0)
            ));
            match (w.elo(), w.elo_interval()) {
                (Some(e), Some((lo, hi))) => s.push_str(&format!(
                    "Elo difference {} (95% interval {} to {})\n",
                    fmt_elo(e),
                    fmt_elo(lo),
                    fmt_elo(hi)
                )),
                _ => s.push_str("Elo difference: not finite (no games, or a perfect score)\n"),
            }
            if let Some(l) = w.los() {
                s.push_str(&format!("Likelihood of superiority {:.1}%\n", 100.0 * l));
            }
        }
        if self.players > 2 {
            s.push_str(&self.multi_report());
        }
        if let Some(r) = &self.sprt {
            let verdict = match r.decision {
                SprtDecision::H0 => "H0 accepted",
                SprtDecision::H1 => "H1 accepted",
                SprtDecision::Continue => "no decision yet",
            };
            s.push_str(&format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} (bounds {:.3}, {:.3}): {verdict}\n",
                r.sprt.elo0,
                r.sprt.elo1,
                r.sprt.alpha,
                r.sprt.beta,
                r.llr,
                r.sprt.lower_bound(),
                r.sprt.upper_bound()
            ));
        }
        let ends: Vec<String> = self.ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
        s.push_str(&format!("Endings: {}\n", ends.join(", ")));
        s
    }

    /// The multi-player part of the report: places, Elo against the field,
    /// pairwise results, seats.
    fn multi_report(&self) -> String {
        let n = self.players;
        let g = self.games.max(1) as f64;
        let mut s = String::new();
        let scheme: Vec<String> = self.points_scheme.iter().map(|p| format!("{p}")).collect();
        s.push_str(&format!(
            "Points per place (1st first): {}\n",
            scheme.join(", ")
        ));
        let width = self
            .engines
            .iter()
            .map(|e| e.len())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut head = format!("{:width$}", "engine");
        for p in 0..n {
            head.push_str(&format!(" {:>6}", ordinal(p + 1)));
        }
        head.push_str("  field score  Elo vs field (95%)\n");
        s.push_str(&head);
        for (i, name) in self.engines.iter().enumerate() {
            let mut row = format!("{name:width$}");
            for p in 0..n {
                row.push_str(&format!(" {:>6}", self.places[i][p]));
            }
            let f = &self.field[i];
            row.push_str(&format!("  {:>10.1}%  ", 100.0 * f.score().unwrap_or(0.0)));
            row.push_str(
                &fmt_elo_interval(f.elo(), f.elo_interval()).unwrap_or("not finite".into()),
            );
            s.push_str(&row);
            s.push('\n');
        }
        s.push_str("Pairwise (ahead/tied/behind in the same game):\n");
        for a in 0..self.engines.len() {
            for b in a + 1..self.engines.len() {
                let w = self.pairs[a][b];
                s.push_str(&format!(
                    "  {} vs {}: +{} ={} -{}",
                    self.engines[a], self.engines[b], w.wins, w.draws, w.losses
                ));
                if let Some(e) = fmt_elo_interval(w.elo(), w.elo_interval()) {
                    s.push_str(&format!(", Elo {e}"));
                }
                s.push('\n');
            }
        }
        let seats: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "seat {}: {:.2} points/game, {:.0}% wins",
                    i + 1,
                    self.seat_points[i] / g,
                    100.0 * self.seat_wins[i] as f64 / g
                )
            })
            .collect();
        s.push_str(&format!("By seat: {}\n", seats.join("; ")));
        s
    }

    /// The summary as one JSON object.
    pub fn json(&self) -> String {
        let mut f = Vec::new();
        f.push(format!("\"variant\":{}", json_string(&self.variant)));
        f.push(format!("\"players\":{}", self.players));
        f.push(format!("\"games\":{}", self.games));
        f.push(format!("\"aborted\":{}", self.aborted));
        f.push(format!("\"seed\":{}", self.seed));
        f.push(format!("\"elapsed\":{:.3}", self.elapsed.as_secs_f64()));
        let engines: Vec<String> = (0..self.engines.len())
            .map(|i| {
                let fails: Vec<String> = self.failures[i]
                    .iter()
                    .map(|(k, v)| format!("{}:{v}", json_string(k)))
                    .collect();
                let places: Vec<String> = self.places[i].iter().map(|c| c.to_string()).collect();
                let f = &self.field[i];
                format!(
                    "{{\"name\":{},\"points\":{},\"wins\":{},\"places\":[{}],\"field_score\":{},{},\"failures\":{{{}}}}}",
                    json_string(&self.engines[i]),
                    self.points[i],
                    self.wins[i],
                    places.join(","),
                    json_num(f.score()),
                    json_elo("field_", f.elo(), f.elo_interval()),
                    fails.join(",")
                )
            })
            .collect();
        f.push(format!("\"engines\":[{}]", engines.join(",")));
        let seats: Vec<String> = self.seat_points.iter().map(|p| format!("{p}")).collect();
        f.push(format!("\"seat_points\":[{}]", seats.join(",")));
        let wins: Vec<String> = self.seat_wins.iter().map(|w| w.to_string()).collect();
        f.push(format!("\"seat_wins\":[{}]", wins.join(",")));
        let scheme: Vec<String> = self.points_scheme.iter().map(|p| format!("{p}")).collect();
        f.push(format!("\"points_per_place\":[{}]", scheme.join(",")));
        let mut pairs = Vec::new();
        for a in 0..self.engines.len() {
            for b in a + 1..self.engines.len() {
                let w = self.pairs[a][b];
                pairs.push(format!(
                    "{{\"a\":{},\"b\":{},\"wins\":{},\"draws\":{},\"losses\":{},{}}}",
                    json_string(&self.engines[a]),
                    json_string(&self.engines[b]),
                    w.wins,
                    w.draws,
                    w.losses,
                    json_elo("", w.elo(), w.elo_interval())
                ));
            }
        }
        f.push(format!("\"pairs\":[{}]", pairs.join(",")));
        if let Some(w) = self.wdl {
            f.push(format!(
                "\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{},{},\"los\":{}",
                w.wins,
                w.draws,
                w.losses,
                json_num(w.score()),
                json_elo("", w.elo(), w.elo_interval()),
                json_num(w.los())
            ));
        }
        if let Some(r) = &self.sprt {
            let d = match r.decision {
                SprtDecision::H0 => "\"H0\"",
                SprtDecision::H1 => "\"H1\"",
                SprtDecision::Continue => "null",
            };
            f.push(format!(
                "\"sprt\":{{\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{},\"llr\":{},\"lower\":{},\"upper\":{},\"result\":{d}}}",
                r.sprt.elo0,
                r.sprt.elo1,
                r.sprt.alpha,
                r.sprt.beta,
                json_num(Some(r.llr)),
                json_num(Some(r.sprt.lower_bound())),
                json_num(Some(r.sprt.upper_bound()))
            ));
        }
        let ends: Vec<String> = self
            .ends
            .iter()
            .map(|(k, v)| format!("{}:{v}", json_string(k)))
            .collect();
        f.push(format!("\"endings\":{{{}}}", ends.join(",")));
        format!("{{{}}}", f.join(","))
    }
}

/// The engine index of each seat in rotation `r`: seat `p` is played by
/// engine `(p + r) mod n`. With two players rotation 1 swaps the colours.
pub fn seats_for(rotation: usize, players: usize) -> Vec<usize> {
    (0..players).map(|p| (p + rotation) % players).collect()
}

/// Plays the match. Game `g` uses opening `g / players` in rotation
/// `g % players`, so every opening is played from every seat, and the
/// schedule does not depend on the concurrency.
pub fn run_match<G: Game>(game: G, cfg: &MatchConfig) -> Result<MatchSummary, String> {
    let n = game.num_players();
    if cfg.engines.len() != n {
        return Err(format!(
            "{} needs {n} engines (one per player), got {}",
            game.name(),
            cfg.engines.len()
        ));
    }
    let book = match &cfg.openings {
        OpeningChoice::Start => Book::start_only(&game),
        OpeningChoice::File(text) => Book::fixed(parse_openings(&game, text)?),
        OpeningChoice::Random {
            plies,
            balance,
            depth,
        } => Book::random(RandomOpenings::new(
            game, *plies, *balance, *depth, cfg.seed,
        )),
    };
    let book = Mutex::new(book);
    let mut pdn = match &cfg.pdn {
        Some(p) => Some(
            std::fs::File::create(p)
                .map_err(|e| format!("cannot write the PDN file {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let total = cfg.games;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let mut summary = MatchSummary::new(&game, cfg);
    let started = Instant::now();
    let date = today();
    let tty = std::io::stderr().is_terminal();
    let workers = cfg.concurrency.max(1);
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, GameRecord)>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, book) = (&next, &stop, &book);
            let game = &game;
            scope.spawn(move || {
                let mut slots: Vec<EngineSlot> =
                    cfg.engines.iter().cloned().map(EngineSlot::new).collect();
                while !stop.load(Ordering::SeqCst) {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= total {
                        break;
                    }
                    let opening = book
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get((g / n as u64) as usize);
                    let seats = seats_for((g % n as u64) as usize, n);
                    let rec = play_game(game, &opening, &seats, &mut slots, &cfg.referee);
                    if rec.kind == EndKind::Aborted {
                        // Neither engine can play: nothing more to learn.
                        stop.store(true, Ordering::SeqCst);
                    }
                    if tx.send((g, rec)).is_err() {
                        break;
                    }
                }
                for s in &mut slots {
                    s.quit();
                }
            });
        }
        drop(tx);
        for (g, rec) in rx {
            summary.add(&rec);
            summary.elapsed = started.elapsed();
            if let Some(f) = pdn.as_mut() {
                let h = PdnHeader {
                    event: &cfg.event,
                    variant: game.name(),
                    round: g + 1,
                    date: &date,
                };
                if let Err(e) = f.write_all(write_game(&h, &rec).as_bytes()) {
                    write_error = Some(format!("writing the PDN file: {e}"));
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if summary
                .sprt
                .as_ref()
                .is_some_and(|s| s.decision != SprtDecision::Continue)
            {
                stop.store(true, Ordering::SeqCst);
            }
            if cfg.progress {
                let line = summary.progress_line(total);
                let mut err = std::io::stderr().lock();
                if tty {
                    let _ = write!(err, "\r\x1b[K{line}");
                } else {
                    let _ = writeln!(err, "{line}");
                }
            }
        }
    });
    if cfg.progress && tty {
        eprintln!();
    }
    summary.elapsed = started.elapsed();
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_rotations_cover_every_seat() {
        assert_eq!(seats_for(0, 2), vec![0, 1]);
        assert_eq!(seats_for(1, 2), vec![1, 0]);
        assert_eq!(seats_for(2, 3), vec![2, 0, 1]);
    }

    #[test]
    fn elo_is_printed_without_a_negative_zero() {
        assert_eq!(fmt_elo(-1e-12), "+0.0");
        assert_eq!(fmt_elo(-0.04), "+0.0");
        assert_eq!(fmt_elo(-0.06), "-0.1");
        assert_eq!(fmt_elo(12.34), "+12.3");
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(json_num(Some(f64::INFINITY)), "null");
    }
}
