//! The match: schedules games over pairings, openings and seat rotations
//! (a match, a gauntlet or a round robin, all of it or one shard), runs
//! them on worker threads (each with its own engine processes), and keeps
//! the score, the Elo estimates (trinomial and pentanomial), the SPRT, the
//! crosstable and the PDN file. The summary is plain data that
//! serialises to JSON and back, so that shards' summaries can be merged.

use super::engine::EngineSpec;
use super::journal::{Entry, Header, Journal, fingerprint};
use super::openings::{Book, RandomOpenings, parse_openings};
use super::pdn::{PdnHeader, today, write_game};
use super::play::{EndKind, EngineSlot, GameRecord, RefereeConfig, play_game};
use super::ranking::PointsScheme;
use super::stats::{Penta, ScoreSample, Sprt, SprtDecision, Wdl};
use crate::game::Game;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tournament {
    /// One engine per seat, every game.
    #[default]
    Match,
    /// The first engine against each of the others (two-player games).
    Gauntlet,
    /// Every engine against every other (two-player games).
    RoundRobin,
}

/// `--shard K/N`: the K-th (from 1) of N slices of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard: expected K/N with 1 <= K <= N, e.g. 2/8, got '{text}'");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k, count: n })
    }
}

/// The games of a match in order: game `g` is in block `g / players` (one
/// opening, every seat rotation), which goes to pairing `block % P` with
/// opening `block / P`, rotation `g % players`. So every pairing plays the
/// same openings, a block's games are played one after the other, and the
/// schedule depends on neither the concurrency nor the shards.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The engines of each pairing, by seat in rotation 0.
    pub pairings: Vec<Vec<usize>>,
    pub players: usize,
    /// Games in all.
    pub total: u64,
}

impl Schedule {
    /// `games` is per pairing.
    pub fn new(
        tournament: Tournament,
        engines: usize,
        players: usize,
        games: u64,
        variant: &str,
    ) -> Result<Schedule, String> {
        let pairings: Vec<Vec<usize>> = match tournament {
            Tournament::Match => {
                if engines != players {
                    return Err(format!(
                        "{variant} needs {players} engines (one per player), got {engines} (--gauntlet and --round-robin take more)"
                    ));
                }
                vec![(0..players).collect()]
            }
            Tournament::Gauntlet | Tournament::RoundRobin => {
                if players != 2 {
                    return Err(format!(
                        "--gauntlet and --round-robin are for two-player games; {variant} has {players} players"
                    ));
                }
                if engines < 2 {
                    return Err("a tournament needs at least 2 engines".into());
                }
                if !games.is_multiple_of(2) {
                    return Err(format!(
                        "--games is per pairing in a tournament and must be even (each opening with both colours), got {games}"
                    ));
                }
                let firsts = if tournament == Tournament::Gauntlet {
                    1
                } else {
                    engines
                };
                (0..firsts)
                    .flat_map(|a| (a + 1..engines).map(move |b| vec![a, b]))
                    .collect()
            }
        };
        let total = games.saturating_mul(pairings.len() as u64);
        Ok(Schedule {
            pairings,
            players,
            total,
        })
    }

    /// The opening number and the engine of each seat of game `g`.
    pub fn game(&self, g: u64) -> (usize, Vec<usize>) {
        let n = self.players as u64;
        let block = g / n;
        let p = self.pairings.len() as u64;
        let pairing = &self.pairings[(block % p) as usize];
        let rotation = (g % n) as usize;
        let seats = seats_for(rotation, self.players)
            .into_iter()
            .map(|i| pairing[i])
            .collect();
        ((block / p) as usize, seats)
    }

    /// The games a shard plays (all of them without one), whole blocks so
    /// that game pairs stay together.
    pub fn games_of(&self, shard: Option<Shard>) -> Vec<u64> {
        let n = self.players as u64;
        (0..self.total)
            .filter(|g| shard.is_none_or(|s| (g / n) % s.count == s.index - 1))
            .collect()
    }
}

/// Everything a match needs besides the game.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// Games to play (per pairing in a tournament; the SPRT may stop
    /// earlier).
    pub games: u64,
    pub tournament: Tournament,
    /// Play only this slice of the schedule.
    pub shard: Option<Shard>,
    pub sprt: Option<Sprt>,
    pub referee: RefereeConfig,
    pub openings: OpeningChoice,
    pub concurrency: usize,
    pub pdn: Option<PathBuf>,
    /// The journal (`--resume FILE`): the games it holds are counted, not
    /// played again; every game counted is added to it as it ends.
    pub resume: Option<PathBuf>,
    /// The PDN Event and Site tags.
    pub event: String,
    pub site: String,
    pub seed: u64,
    /// Print the progress line on stderr.
    pub progress: bool,
}

/// The state of the SPRT at the end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    pub sprt: Sprt,
    /// The LLR on the pentanomial model, which decides.
    pub llr: f64,
    /// The LLR on the trinomial model, for comparison.
    pub llr_trinomial: f64,
    pub decision: SprtDecision,
}

/// What a match produced: plain counts that [`MatchSummary::merge`] can
/// add up, from which every statistic is computed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchSummary {
    pub variant: String,
    pub engines: Vec<String>,
    pub players: usize,
    /// Counted games (aborted and interrupted ones excluded).
    pub games: u64,
    pub aborted: u64,
    /// Games cut short by SIGINT/SIGTERM (the summary is partial).
    pub interrupted: u64,
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
    /// Game pairs (same opening, colours swapped) of two-player games:
    /// `penta[a][b]` for `a < b`, from a's view.
    pub penta: Vec<Vec<Penta>>,
    /// Scored first halves of game pairs: block -> (engine a, engine b, a's
    /// points), until the second game of the block comes in.
    #[serde(skip)]
    pending: BTreeMap<u64, (usize, usize, f64)>,
    /// Points scored from each seat (whoever sat there).
    pub seat_points: Vec<f64>,
    /// Games won from each seat.
    pub seat_wins: Vec<u64>,
    /// Two engines: W/D/L of the first against the second.
    pub wdl: Option<Wdl>,
    pub sprt: Option<SprtReport>,
    /// How games ended, by kind.
    pub ends: BTreeMap<String, u64>,
    /// Failures (illegal move, flag, hang, crash, start, error) per engine.
    pub failures: Vec<BTreeMap<String, u64>>,
    pub elapsed: Duration,
    pub seed: u64,
    /// The slice this summary covers (`None`: all of it, or merged).
    pub shard: Option<Shard>,
}

/// `{"error":"MESSAGE"}`, the message escaped as JSON.
pub fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
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

/// A number for the JSON report: null when absent or not finite, an
/// integer when it is one (`3`, not `3.0`).
#[derive(Clone, Copy, Debug)]
struct Num(Option<f64>);

impl Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(v) if v.is_finite() && v.fract() == 0.0 && v.abs() < 9e15 => {
                s.serialize_i64(v as i64)
            }
            Some(v) if v.is_finite() => s.serialize_f64(v),
            _ => s.serialize_none(),
        }
    }
}

fn nums(v: &[f64]) -> Vec<Num> {
    v.iter().map(|&x| Num(Some(x))).collect()
}

/// An Elo estimate with its 95% interval, for the JSON report.
#[derive(Serialize)]
struct EloJson {
    elo: Num,
    elo_low: Num,
    elo_high: Num,
}

impl EloJson {
    fn of(sample: &ScoreSample) -> EloJson {
        let (lo, hi) = sample
            .elo_interval()
            .map_or((None, None), |(a, b)| (Some(a), Some(b)));
        EloJson {
            elo: Num(sample.elo()),
            elo_low: Num(lo),
            elo_high: Num(hi),
        }
    }
}

#[derive(Serialize)]
struct EngineJson<'a> {
    name: &'a str,
    points: Num,
    wins: u64,
    places: &'a [u64],
    field_score: Num,
    field_elo: Num,
    field_elo_low: Num,
    field_elo_high: Num,
    failures: &'a BTreeMap<String, u64>,
    /// Games this engine lost on time (also under `failures`).
    time_forfeits: u64,
}

#[derive(Serialize)]
struct PairJson<'a> {
    a: &'a str,
    b: &'a str,
    wins: u64,
    draws: u64,
    losses: u64,
    #[serde(flatten)]
    elo: EloJson,
}

/// The two-engine headline, at the top level of the JSON.
#[derive(Serialize)]
struct HeadlineJson {
    wins: u64,
    draws: u64,
    losses: u64,
    score: Num,
    #[serde(flatten)]
    elo: EloJson,
    los: Num,
}

#[derive(Serialize)]
struct PentaJson {
    /// Pairs scoring 0, 1/2, 1, 3/2, 2 points.
    counts: [u64; 5],
    pairs: u64,
    score: Num,
    #[serde(flatten)]
    elo: EloJson,
}

impl PentaJson {
    fn of(p: &Penta) -> PentaJson {
        let s = p.sample();
        PentaJson {
            counts: p.counts,
            pairs: p.pairs(),
            score: Num(s.score()),
            elo: EloJson::of(&s),
        }
    }
}

#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: Num,
    llr_trinomial: Num,
    lower: Num,
    upper: Num,
    result: Option<&'static str>,
}

#[derive(Serialize)]
struct OpponentJson<'a> {
    name: &'a str,
    wins: u64,
    draws: u64,
    losses: u64,
    points: Num,
}

#[derive(Serialize)]
struct CrossJson<'a> {
    name: &'a str,
    games: u64,
    points: Num,
    score: Num,
    #[serde(flatten)]
    elo: EloJson,
    opponents: Vec<OpponentJson<'a>>,
}

#[derive(Serialize)]
struct ReportJson<'a> {
    variant: &'a str,
    players: usize,
    games: u64,
    aborted: u64,
    interrupted: u64,
    /// Games lost on time, all engines.
    time_forfeits: u64,
    seed: u64,
    elapsed: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<Shard>,
    engines: Vec<EngineJson<'a>>,
    seat_points: Vec<Num>,
    seat_wins: &'a [u64],
    points_per_place: Vec<Num>,
    pairs: Vec<PairJson<'a>>,
    #[serde(flatten)]
    headline: Option<HeadlineJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pentanomial: Option<PentaJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<SprtJson>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    crosstable: Vec<CrossJson<'a>>,
    endings: &'a BTreeMap<String, u64>,
    /// The raw counts, read back by `salto match merge`.
    state: &'a MatchSummary,
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
            interrupted: 0,
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
            penta: vec![vec![Penta::default(); k]; k],
            pending: BTreeMap::new(),
            seat_points: vec![0.0; n],
            seat_wins: vec![0; n],
            wdl: (k == 2).then(Wdl::default),
            sprt: cfg.sprt.map(|s| SprtReport {
                sprt: s,
                llr: 0.0,
                llr_trinomial: 0.0,
                decision: SprtDecision::Continue,
            }),
            ends: BTreeMap::new(),
            failures: vec![BTreeMap::new(); k],
            elapsed: Duration::ZERO,
            seed: cfg.seed,
            shard: cfg.shard,
        }
    }

    /// Counts game `g` (of block `g / players`).
    fn add(&mut self, g: u64, rec: &GameRecord) {
        *self.ends.entry(rec.kind.name().to_string()).or_insert(0) += 1;
        match rec.kind {
            EndKind::Aborted => self.aborted += 1,
            EndKind::Interrupted => self.interrupted += 1,
            _ => {}
        }
        if matches!(rec.kind, EndKind::Aborted | EndKind::Interrupted) {
            return;
        }
        if rec.seats.len() == 2 {
            let block = g / 2;
            let (a, b) = (
                rec.seats[0].min(rec.seats[1]),
                rec.seats[0].max(rec.seats[1]),
            );
            let a_points = rec.points[if rec.seats[0] == a { 0 } else { 1 }];
            match self.pending.remove(&block) {
                Some((_, _, first)) => self.penta[a][b].add(first + a_points),
                None => {
                    self.pending.insert(block, (a, b, a_points));
                }
            }
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
                .entry(rec.kind.name().to_string())
                .or_insert(0) += 1;
        }
        self.update();
    }

    /// The two-engine result and the SPRT from the counts.
    fn update(&mut self) {
        if let Some(wdl) = self.wdl.as_mut() {
            *wdl = self.pairs[0][1];
        }
        if let (Some(s), Some(wdl)) = (self.sprt.as_mut(), self.wdl) {
            s.llr = s.sprt.llr_penta(&self.penta[0][1]);
            s.llr_trinomial = s.sprt.llr(&wdl);
            s.decision = s.sprt.decide_llr(s.llr);
        }
    }

    /// Adds another summary of the same match (another shard): the counts
    /// add up, the elapsed time is the longest of the two.
    pub fn merge(&mut self, o: &MatchSummary) -> Result<(), String> {
        let same = self.variant == o.variant
            && self.engines == o.engines
            && self.players == o.players
            && self.points_scheme == o.points_scheme
            && self.seed == o.seed
            && self.sprt.as_ref().map(|s| s.sprt) == o.sprt.as_ref().map(|s| s.sprt);
        if !same {
            return Err(format!(
                "not the same match: {} {:?} seed {} vs {} {:?} seed {}",
                self.variant, self.engines, self.seed, o.variant, o.engines, o.seed
            ));
        }
        if !self.shape_ok() || !o.shape_ok() {
            return Err("a summary's tables do not match its engines and players".into());
        }
        let k = self.engines.len();
        self.games += o.games;
        self.aborted += o.aborted;
        self.interrupted += o.interrupted;
        for e in 0..k {
            self.points[e] += o.points[e];
            self.wins[e] += o.wins[e];
            self.field[e] = self.field[e].merged(&o.field[e]);
            for p in 0..self.players {
                self.places[e][p] += o.places[e][p];
            }
            for f in 0..k {
                let (x, y) = (self.pairs[e][f], o.pairs[e][f]);
                self.pairs[e][f] =
                    Wdl::new(x.wins + y.wins, x.draws + y.draws, x.losses + y.losses);
                self.penta[e][f] = self.penta[e][f].merged(&o.penta[e][f]);
            }
            for (kind, c) in &o.failures[e] {
                *self.failures[e].entry(kind.clone()).or_insert(0) += c;
            }
        }
        for p in 0..self.players {
            self.seat_points[p] += o.seat_points[p];
            self.seat_wins[p] += o.seat_wins[p];
        }
        for (kind, c) in &o.ends {
            *self.ends.entry(kind.clone()).or_insert(0) += c;
        }
        self.elapsed = self.elapsed.max(o.elapsed);
        self.shard = None;
        self.update();
        Ok(())
    }

    /// The games engine `e` lost on time.
    pub fn time_forfeits_of(&self, e: usize) -> u64 {
        self.failures
            .get(e)
            .and_then(|f| f.get(EndKind::Flag.name()))
            .copied()
            .unwrap_or(0)
    }

    /// The games lost on time, all engines.
    pub fn time_forfeits(&self) -> u64 {
        (0..self.engines.len())
            .map(|e| self.time_forfeits_of(e))
            .sum()
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
        if let Some(sh) = self.shard {
            s.push_str(&format!(
                "shard {}/{} of the schedule\n",
                sh.index, sh.count
            ));
        }
        if self.interrupted > 0 {
            s.push_str(&format!(
                "interrupted: {} game(s) cut short and not counted; the results are partial\n",
                self.interrupted
            ));
        }
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
            let p = &self.penta[0][1];
            if p.pairs() > 0 {
                let ps = p.sample();
                s.push_str(&format!(
                    "Pentanomial [{}] over {} game pairs: Elo {}\n",
                    p.text(),
                    p.pairs(),
                    fmt_elo_interval(ps.elo(), ps.elo_interval())
                        .unwrap_or_else(|| "not finite".into())
                ));
            }
        }
        if self.players == 2 && self.engines.len() > 2 {
            s.push_str(&self.crosstable());
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
                "SPRT elo0={} elo1={} alpha={} beta={} (pentanomial): LLR {:.3} (bounds {:.3}, {:.3}; trinomial LLR {:.3}): {verdict}\n",
                r.sprt.elo0,
                r.sprt.elo1,
                r.sprt.alpha,
                r.sprt.beta,
                r.llr,
                r.sprt.lower_bound(),
                r.sprt.upper_bound(),
                r.llr_trinomial
            ));
        }
        let ends: Vec<String> = self.ends.iter().map(|(k, v)| format!("{k} {v}")).collect();
        s.push_str(&format!("Endings: {}\n", ends.join(", ")));
        let by_engine: Vec<String> = (0..self.engines.len())
            .map(|e| format!("{} {}", self.engines[e], self.time_forfeits_of(e)))
            .collect();
        s.push_str(&format!(
            "Time forfeits: {} ({})\n",
            self.time_forfeits(),
            by_engine.join(", ")
        ));
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
        let width = self.name_width();
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

    /// The width of the engine column of a table.
    fn name_width(&self) -> usize {
        self.engines
            .iter()
            .map(|e| e.len())
            .max()
            .unwrap_or(0)
            .max(6)
    }

    /// Engine `e`'s results against everyone (two-player games).
    fn total(&self, e: usize) -> Wdl {
        self.pairs[e].iter().fold(Wdl::default(), |t, w| {
            Wdl::new(t.wins + w.wins, t.draws + w.draws, t.losses + w.losses)
        })
    }

    /// The crosstable of a tournament: each engine's games, points, score
    /// and Elo against the field (with its interval), then its points
    /// against each opponent, best engine first.
    fn crosstable(&self) -> String {
        let k = self.engines.len();
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by(|&a, &b| {
            let (sa, sb) = (self.total(a).points(), self.total(b).points());
            sb.total_cmp(&sa).then(a.cmp(&b))
        });
        let width = self.name_width();
        let mut s = format!(
            "Crosstable:\n  # {:width$} {:>6} {:>7} {:>6}  {:28}",
            "engine", "games", "points", "score", "Elo vs field (95%)"
        );
        for (i, _) in order.iter().enumerate() {
            s.push_str(&format!(" {:>7}", i + 1));
        }
        s.push('\n');
        for (rank, &e) in order.iter().enumerate() {
            let t = self.total(e);
            let elo = fmt_elo_interval(t.elo(), t.elo_interval()).unwrap_or("not finite".into());
            s.push_str(&format!(
                "{:>3} {:width$} {:>6} {:>7.1} {:>5.1}%  {elo:28}",
                rank + 1,
                self.engines[e],
                t.games(),
                t.points(),
                100.0 * t.score().unwrap_or(0.0),
            ));
            for &o in &order {
                let w = self.pairs[e][o];
                let cell = if o == e {
                    "-".to_string()
                } else if w.games() == 0 {
                    ".".to_string()
                } else {
                    format!("{}/{}", w.points(), w.games())
                };
                s.push_str(&format!(" {cell:>7}"));
            }
            s.push('\n');
        }
        s
    }

    /// The summary as one JSON object: the statistics, then the raw counts
    /// under `state` (what `salto match merge` reads).
    pub fn json(&self) -> String {
        let k = self.engines.len();
        let engines = (0..k)
            .map(|i| {
                let f = EloJson::of(&self.field[i]);
                EngineJson {
                    name: &self.engines[i],
                    points: Num(Some(self.points[i])),
                    wins: self.wins[i],
                    places: &self.places[i],
                    field_score: Num(self.field[i].score()),
                    field_elo: f.elo,
                    field_elo_low: f.elo_low,
                    field_elo_high: f.elo_high,
                    failures: &self.failures[i],
                    time_forfeits: self.time_forfeits_of(i),
                }
            })
            .collect();
        let mut pairs = Vec::new();
        for a in 0..k {
            for b in a + 1..k {
                let w = self.pairs[a][b];
                pairs.push(PairJson {
                    a: &self.engines[a],
                    b: &self.engines[b],
                    wins: w.wins,
                    draws: w.draws,
                    losses: w.losses,
                    elo: EloJson::of(&w.sample()),
                });
            }
        }
        let headline = self.wdl.map(|w| HeadlineJson {
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            score: Num(w.score()),
            elo: EloJson::of(&w.sample()),
            los: Num(w.los()),
        });
        let sprt = self.sprt.as_ref().map(|r| SprtJson {
            elo0: r.sprt.elo0,
            elo1: r.sprt.elo1,
            alpha: r.sprt.alpha,
            beta: r.sprt.beta,
            llr: Num(Some(r.llr)),
            llr_trinomial: Num(Some(r.llr_trinomial)),
            lower: Num(Some(r.sprt.lower_bound())),
            upper: Num(Some(r.sprt.upper_bound())),
            result: match r.decision {
                SprtDecision::H0 => Some("H0"),
                SprtDecision::H1 => Some("H1"),
                SprtDecision::Continue => None,
            },
        });
        let crosstable = if self.players == 2 {
            (0..k)
                .map(|e| {
                    let t = self.total(e);
                    CrossJson {
                        name: &self.engines[e],
                        games: t.games(),
                        points: Num(Some(t.points())),
                        score: Num(t.score()),
                        elo: EloJson::of(&t.sample()),
                        opponents: (0..k)
                            .filter(|&o| o != e)
                            .map(|o| {
                                let w = self.pairs[e][o];
                                OpponentJson {
                                    name: &self.engines[o],
                                    wins: w.wins,
                                    draws: w.draws,
                                    losses: w.losses,
                                    points: Num(Some(w.points())),
                                }
                            })
                            .collect(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let report = ReportJson {
            variant: &self.variant,
            players: self.players,
            games: self.games,
            aborted: self.aborted,
            interrupted: self.interrupted,
            time_forfeits: self.time_forfeits(),
            seed: self.seed,
            elapsed: (self.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
            shard: self.shard,
            engines,
            seat_points: nums(&self.seat_points),
            seat_wins: &self.seat_wins,
            points_per_place: nums(&self.points_scheme),
            pairs,
            headline,
            pentanomial: (k == 2 && self.players == 2).then(|| PentaJson::of(&self.penta[0][1])),
            sprt,
            crosstable,
            endings: &self.ends,
            state: self,
        };
        serde_json::to_string(&report).unwrap_or_else(|e| error_json(&e.to_string()))
    }

    /// Every table has a row per engine and a column per engine or seat.
    fn shape_ok(&self) -> bool {
        let (k, n) = (self.engines.len(), self.players);
        self.points.len() == k
            && self.wins.len() == k
            && self.field.len() == k
            && self.failures.len() == k
            && self.places.len() == k
            && self.places.iter().all(|r| r.len() == n)
            && self.pairs.len() == k
            && self.pairs.iter().all(|r| r.len() == k)
            && self.penta.len() == k
            && self.penta.iter().all(|r| r.len() == k)
            && self.seat_points.len() == n
            && self.seat_wins.len() == n
            && (self.wdl.is_some() == (k == 2))
    }

    /// Reads the summary back from [`MatchSummary::json`]'s output.
    pub fn from_json(text: &str) -> Result<MatchSummary, String> {
        #[derive(Deserialize)]
        struct Wrapper {
            state: MatchSummary,
        }
        let w: Wrapper = serde_json::from_str(text)
            .map_err(|e| format!("not the JSON of salto match --json: {e}"))?;
        let s = w.state;
        if s.engines.is_empty() || s.players == 0 || !s.shape_ok() {
            return Err("the summary's tables do not match its engines and players".into());
        }
        Ok(s)
    }
}

/// The engine index of each seat in rotation `r`: seat `p` is played by
/// engine `(p + r) mod n`. With two players rotation 1 swaps the colours.
pub fn seats_for(rotation: usize, players: usize) -> Vec<usize> {
    (0..players).map(|p| (p + rotation) % players).collect()
}

/// Plays the match (see [`Schedule`] for which game is which). Stops
/// early when the SPRT decides, when no engine can play, or when
/// `cfg.referee.hooks.interrupt` is set (SIGINT/SIGTERM): then the games
/// in progress end at once, not counted, every engine is stopped, and the
/// summary and the PDN hold what was played.
pub fn run_match<G: Game>(game: G, cfg: &MatchConfig) -> Result<MatchSummary, String> {
    let n = game.num_players();
    let schedule = Schedule::new(cfg.tournament, cfg.engines.len(), n, cfg.games, game.name())?;
    if cfg.sprt.is_some() && (cfg.engines.len() != 2 || cfg.shard.is_some()) {
        return Err(
            "--sprt needs exactly two engines and the whole schedule (no --shard: the test decides as games come in)"
                .into(),
        );
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
    let mut games = schedule.games_of(cfg.shard);
    let total = games.len() as u64;
    let mut summary = MatchSummary::new(&game, cfg);
    // The games of an earlier run of the same match: counted, not played.
    let (mut journal, resumed) = match &cfg.resume {
        Some(p) => {
            let (j, entries) = Journal::open(p, &journal_header(&game, cfg))?;
            (Some(j), entries)
        }
        None => (None, Vec::new()),
    };
    let mut finished = std::collections::BTreeSet::new();
    for e in &resumed {
        if games.binary_search(&e.game).is_err() {
            return Err(format!(
                "the journal holds game {}, which this match does not play",
                e.game + 1
            ));
        }
        summary.add(e.game, &e.record()?);
        finished.insert(e.game);
    }
    games.retain(|g| !finished.contains(g));
    if summary
        .sprt
        .as_ref()
        .is_some_and(|s| s.decision != SprtDecision::Continue)
    {
        games.clear();
    }
    // A resumed match's PDN file is written again from the journal (a game
    // cut in the middle by the kill goes), then appended to.
    let mut pdn = match &cfg.pdn {
        Some(p) => {
            let cannot =
                |e: std::io::Error| format!("cannot write the PDN file {}: {e}", p.display());
            if cfg.resume.is_some() {
                let text: String = resumed.iter().map(|e| e.pdn.as_str()).collect();
                crate::fsutil::write_atomic(p, text.as_bytes()).map_err(cannot)?;
                Some(
                    std::fs::OpenOptions::new()
                        .append(true)
                        .open(p)
                        .map_err(cannot)?,
                )
            } else {
                Some(std::fs::File::create(p).map_err(cannot)?)
            }
        }
        None => None,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let interrupt = &cfg.referee.hooks.interrupt;
    let started = Instant::now();
    let date = today();
    let tty = std::io::stderr().is_terminal();
    let workers = cfg.concurrency.max(1);
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, GameRecord)>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, book, games, schedule) = (&next, &stop, &book, &games, &schedule);
            let game = &game;
            scope.spawn(move || {
                let mut slots: Vec<EngineSlot> =
                    cfg.engines.iter().cloned().map(EngineSlot::new).collect();
                while !stop.load(Ordering::SeqCst) && !interrupt.load(Ordering::SeqCst) {
                    let Some(&g) = games.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        break;
                    };
                    let (o, seats) = schedule.game(g);
                    let opening = book.lock().unwrap_or_else(|e| e.into_inner()).get(o);
                    let rec = play_game(game, &opening, &seats, &mut slots, &cfg.referee);
                    if rec.kind == EndKind::Aborted {
                        // No engine can play: nothing more to learn.
                        stop.store(true, Ordering::SeqCst);
                    }
                    if tx.send((g, rec)).is_err() {
                        break;
                    }
                }
                let interrupted = interrupt.load(Ordering::SeqCst);
                for s in &mut slots {
                    if interrupted {
                        s.kill();
                    } else {
                        s.quit();
                    }
                }
            });
        }
        drop(tx);
        let mut decided = false;
        for (g, rec) in rx {
            // Once the SPRT has decided, games that were still running (or
            // that a worker started before it saw the stop) are not
            // counted: the summary is the one the decision was made on,
            // whatever the machine's load.
            if decided {
                continue;
            }
            summary.add(g, &rec);
            summary.elapsed = started.elapsed();
            let text = if pdn.is_some() || journal.is_some() {
                let h = PdnHeader {
                    event: &cfg.event,
                    site: &cfg.site,
                    variant: game.name(),
                    round: g + 1,
                    date: &date,
                };
                write_game(&h, &rec)
            } else {
                String::new()
            };
            if let Some(f) = pdn.as_mut()
                && let Err(e) = f.write_all(text.as_bytes())
            {
                write_error = Some(format!("writing the PDN file: {e}"));
                stop.store(true, Ordering::SeqCst);
            }
            // Games not counted (aborted, interrupted) are played again on
            // a resume. The PDN is written first: a kill between the two
            // writes leaves a game the journal does not hold, which the
            // resume drops from the PDN and plays again.
            if let Some(j) = journal.as_mut()
                && !matches!(rec.kind, EndKind::Aborted | EndKind::Interrupted)
            {
                let pdn_text = if cfg.pdn.is_some() {
                    text
                } else {
                    String::new()
                };
                if let Err(e) = j.append(&Entry::of(g, &rec, pdn_text)) {
                    write_error = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if summary
                .sprt
                .as_ref()
                .is_some_and(|s| s.decision != SprtDecision::Continue)
            {
                decided = true;
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

/// The journal header of the match `cfg` plays: the fingerprint covers
/// what decides the games (not the concurrency, the PDN's name or tags,
/// the progress line or the hang timeouts).
fn journal_header<G: Game>(game: &G, cfg: &MatchConfig) -> Header {
    let r = &cfg.referee;
    let identity = format!(
        "{:?}|{}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{}|{:?}|{}|{}|{:?}|{:?}",
        cfg.engines,
        cfg.games,
        cfg.tournament,
        cfg.shard,
        cfg.sprt,
        cfg.openings,
        cfg.seed,
        r.tc,
        r.margin,
        r.adjudication,
        r.max_plies,
        r.repetition,
        r.game_params,
        r.points,
    );
    Header {
        journal: 1,
        variant: game.name().to_string(),
        engines: cfg.engines.iter().map(|e| e.name.clone()).collect(),
        seed: cfg.seed,
        fingerprint: fingerprint(&identity),
    }
}

/// `salto match merge`: the summaries of a match's shards as one.
pub fn merge_summaries(texts: &[(String, String)]) -> Result<MatchSummary, String> {
    let mut out: Option<MatchSummary> = None;
    for (name, text) in texts {
        let s = MatchSummary::from_json(text).map_err(|e| format!("{name}: {e}"))?;
        match out.as_mut() {
            None => {
                let mut first = s;
                first.shard = None;
                out = Some(first);
            }
            Some(m) => m.merge(&s).map_err(|e| format!("{name}: {e}"))?,
        }
    }
    out.ok_or_else(|| "nothing to merge: give the JSON files of the shards".into())
}

/// The games of several PDN files in one, in the schedule's order (by the
/// `Round` tag), each game's text unchanged.
pub fn merge_pdn(texts: &[String]) -> String {
    let mut games: Vec<(u64, String)> = Vec::new();
    for text in texts {
        let mut cur = String::new();
        for line in text.split_inclusive('\n') {
            if line.starts_with("[Event ") && !cur.trim().is_empty() {
                games.push((round_of(&cur), std::mem::take(&mut cur)));
            }
            cur.push_str(line);
        }
        if !cur.trim().is_empty() {
            games.push((round_of(&cur), cur));
        }
    }
    games.sort_by_key(|(r, _)| *r);
    games.into_iter().map(|(_, g)| g).collect()
}

/// The number in a game's `[Round "N"]` tag (0 when missing).
fn round_of(game: &str) -> u64 {
    game.lines()
        .find_map(|l| l.strip_prefix("[Round \""))
        .and_then(|r| r.trim_end_matches(['"', ']']).parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_message_with_quotes_and_backslashes_is_valid_json() {
        let message = r#"cannot read "C:\games\a.pdn": no such file"#;
        let text = error_json(message);
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(v["error"], message, "{text}");
    }

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
    fn json_numbers_are_integers_when_whole_and_null_when_not_finite() {
        let j = |x: Option<f64>| serde_json::to_string(&Num(x)).unwrap_or_default();
        assert_eq!(j(Some(3.0)), "3");
        assert_eq!(j(Some(0.5)), "0.5");
        assert_eq!(j(Some(f64::INFINITY)), "null");
        assert_eq!(j(None), "null");
    }

    #[test]
    fn schedules_pair_engines_and_keep_game_pairs_in_one_shard() {
        let m = Schedule::new(Tournament::Match, 2, 2, 4, "x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.total, 4);
        assert_eq!(m.game(0), (0, vec![0, 1]));
        assert_eq!(m.game(1), (0, vec![1, 0]));
        assert_eq!(m.game(2), (1, vec![0, 1]));
        let g = Schedule::new(Tournament::Gauntlet, 4, 2, 2, "x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.pairings, vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        assert_eq!(g.total, 6);
        let r =
            Schedule::new(Tournament::RoundRobin, 4, 2, 4, "x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.pairings.len(), 6);
        assert_eq!(r.total, 24);
        // Game 13: block 6 is pairing 0 again, with opening 1, colours swapped.
        assert_eq!(r.game(13), (1, vec![1, 0]));
        assert!(Schedule::new(Tournament::RoundRobin, 3, 2, 3, "x").is_err());
        assert!(Schedule::new(Tournament::Gauntlet, 3, 3, 2, "x").is_err());
        assert!(Schedule::new(Tournament::Match, 3, 2, 2, "x").is_err());
        // Shards partition the games by whole blocks.
        let a = r.games_of(Some(Shard { index: 1, count: 3 }));
        let b = r.games_of(Some(Shard { index: 2, count: 3 }));
        let c = r.games_of(Some(Shard { index: 3, count: 3 }));
        assert_eq!(&a[..4], &[0, 1, 6, 7]);
        let mut all: Vec<u64> = a.iter().chain(&b).chain(&c).copied().collect();
        all.sort();
        assert_eq!(all, r.games_of(None));
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "x", "1/"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pdn_files_merge_in_round_order() {
        let g = |r: u32| format!("[Event \"e\"]\n[Round \"{r}\"]\n\n1. 32-28 *\n\n");
        let merged = merge_pdn(&[g(2) + &g(4), g(1) + &g(3)]);
        assert_eq!(merged, g(1) + &g(2) + &g(3) + &g(4));
    }
}
