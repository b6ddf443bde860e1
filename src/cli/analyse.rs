//! `salto analyse`: searches one position and prints what the search thinks,
//! for scripts. One line per completed iteration (per line with
//! `--multipv`), then the answer; `--json` prints each as one JSON object
//! (with serde_json).

use crate::game::{Game, ParseError, Score};
use crate::search::Algorithm;
use crate::search::{Control, Features, Info, Limits};
use crate::session::{Session, SetupError, Start, format};
use crate::variant::{GameVisitor, dispatch};
use clap::Args;
use serde::Serialize;
use std::process::ExitCode;

mod review;

#[derive(Args, Debug, Clone)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
    /// The position as FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// The position as a Hub position string.
    #[arg(long)]
    pub pos: Option<String>,
    /// Moves played from the position, separated by blanks (they count for
    /// repetition draws).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Search to this depth (plies).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search for this many seconds.
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Search about this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Report the K best root moves.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// Endgame database root (as built by `salto egdb build --dir`; default:
    /// the standard place the engine reads, `$SALTO_EGDB` or
    /// ~/.local/share/salto/egdb; `SALTO_EGDB=off`: none)
    #[arg(long, value_name = "DIR")]
    pub egdb_path: Option<std::path::PathBuf>,
    /// Probe the endgame database up to this many pieces (0 = off; default:
    /// every piece count complete in the folder)
    #[arg(long, default_value_t = crate::egdb::index::MAX_PIECES as u32)]
    pub egdb_pieces: u32,
    /// The search for more than two players: paranoid, brs, maxn or greedy
    /// (greedy also with two players; otherwise ignored with two).
    #[arg(long, default_value_t = Algorithm::DEFAULT)]
    pub search: Algorithm,
    /// Turn late move reductions off (for measuring them).
    #[arg(long, hide = true)]
    pub no_lmr: bool,
    /// Turn aspiration windows off (for measuring them).
    #[arg(long, hide = true)]
    pub no_aspiration: bool,
    /// Analyse every position of every game of this PDN file (with the
    /// --depth / --movetime / --nodes limit per position) and write the
    /// games back with `[%eval]` scores and marks as comments.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<std::path::PathBuf>,
    /// Where --pdn writes the annotated games (default: standard output).
    #[arg(long, value_name = "FILE", requires = "pdn")]
    pub out: Option<std::path::PathBuf>,
}

/// An `info` object of `--json`.
#[derive(Serialize)]
struct InfoJson<'a> {
    r#type: &'static str,
    depth: u32,
    multipv: usize,
    mean_depth: f64,
    score: f64,
    score_cm: Score,
    nodes: u64,
    time: f64,
    nps: u64,
    pv: &'a str,
}

/// The `best` object of `--json`.
#[derive(Serialize)]
struct BestJson<'a> {
    r#type: &'static str,
    r#move: Option<&'a str>,
    score: f64,
    score_cm: Score,
    depth: u32,
    nodes: u64,
    time: f64,
    nps: u64,
    pv: &'a str,
}

/// `x` rounded to `decimals` decimals (what the text lines print).
fn round(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}

/// A score in men as a JSON number, as [`format::score`] prints it.
fn score_men(s: Score) -> f64 {
    format::score(s).parse().unwrap_or(0.0)
}

fn nodes_per_second(nodes: u64, secs: f64) -> f64 {
    if secs > 0.0 { nodes as f64 / secs } else { 0.0 }
}

/// One object per line; serialising these plain structs cannot fail.
fn print_json(value: &impl Serialize) {
    if let Ok(line) = serde_json::to_string(value) {
        outln!("{line}");
    }
}

struct Analyse(AnalyseArgs);

impl GameVisitor for Analyse {
    type Output = Result<(), ParseError>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let a = self.0;
        let start = match (&a.fen, &a.pos) {
            (Some(_), Some(_)) => {
                return Err(ParseError::new("give either --fen or --pos, not both"));
            }
            (Some(f), None) => Start::Fen(f),
            (None, Some(p)) => Start::Hub(p),
            (None, None) => Start::Initial,
        };
        if a.depth.is_none() && a.nodes.is_none() && a.movetime.is_none() {
            return Err(ParseError::new(
                "give a limit: --depth, --movetime or --nodes",
            ));
        }
        let mut session = Session::new(game, a.hash, a.threads);
        let moves: Vec<&str> = a.moves.split_whitespace().collect();
        session.set_position(start, &moves).map_err(|e| match e {
            SetupError::Move { .. } => ParseError(format!("--moves: {e}")),
            e => ParseError(e.to_string()),
        })?;
        let limits = Limits {
            depth: a.depth,
            nodes: a.nodes,
            move_time: a.movetime,
            multipv: a.multipv.max(1),
            infinite: false,
            ..Limits::default()
        };
        session.searcher().set_algorithm(a.search);
        session.searcher().set_features(Features {
            lmr: !a.no_lmr,
            aspiration: !a.no_aspiration,
            ..Features::default()
        });
        let pos = session.root().clone();
        let json = a.json;
        let mut print_info = |i: &Info<G::Move>| {
            let pv = format::pv(&game, &pos, &i.pv).join(" ");
            let nps = nodes_per_second(i.nodes, i.time);
            if json {
                print_json(&InfoJson {
                    r#type: "info",
                    depth: i.depth,
                    multipv: i.multipv,
                    mean_depth: round(i.mean_depth, 1),
                    score: score_men(i.score),
                    score_cm: i.score,
                    nodes: i.nodes,
                    time: round(i.time, 3),
                    nps: nps.round() as u64,
                    pv: &pv,
                });
            } else {
                outln!(
                    "info depth={} multipv={} mean-depth={:.1} score={} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
                    i.depth,
                    i.multipv,
                    i.mean_depth,
                    format::score(i.score),
                    i.nodes,
                    i.time,
                    nps / 1e6,
                    pv
                );
            }
        };
        if let Some((wdl, dtc)) = game.tablebase().and_then(|t| t.probe(&pos)) {
            if json {
                outln!(
                    "{}",
                    serde_json::json!({"type": "egdb", "value": wdl.name(), "distance": dtc})
                );
            } else if let Some(d) = dtc.filter(|_| wdl != crate::game::Wdl::Draw) {
                outln!("egdb value={wdl} distance={d}");
            } else {
                outln!("egdb value={wdl}");
            }
        }
        let t0 = std::time::Instant::now();
        let r = session.search(&limits, &Control::new(), &mut print_info);
        let secs = t0.elapsed().as_secs_f64();
        let best = r.best.map(|m| game.format_move(&pos, m));
        let pv = format::pv(&game, &pos, &r.pv).join(" ");
        let nps = nodes_per_second(r.nodes, secs);
        if json {
            print_json(&BestJson {
                r#type: "best",
                r#move: best.as_deref(),
                score: score_men(r.score),
                score_cm: r.score,
                depth: r.depth,
                nodes: r.nodes,
                time: round(secs, 3),
                nps: nps.round() as u64,
                pv: &pv,
            });
        } else {
            outln!(
                "best move={} score={} depth={} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
                best.as_deref().unwrap_or("none"),
                format::score(r.score),
                r.depth,
                r.nodes,
                secs,
                nps / 1e6,
                pv
            );
        }
        Ok(())
    }
}

/// Sets the database `salto analyse` probes up, as a Hub session does but
/// without building anything: `--egdb-path`, else the standard place, up
/// to the piece counts complete there (capped by `--egdb-pieces`).
fn configure_egdb(args: &AnalyseArgs) {
    use crate::variant::{RulesVisitor, dispatch_rules};
    struct Complete<'a>(&'a std::path::Path);
    impl RulesVisitor for Complete<'_> {
        type Output = u32;
        fn visit<R: crate::draughts::Rules>(self, _g: crate::draughts::Draughts<R>) -> u32 {
            crate::egdb::place::scan::<R>(self.0).complete
        }
    }
    let root = args
        .egdb_path
        .clone()
        .or_else(crate::egdb::place::standard_root);
    let pieces = match (&root, args.game.options()) {
        (Some(r), Ok(opts)) if args.egdb_pieces > 0 => {
            dispatch_rules(&opts, Complete(r)).map_or(0, |complete| complete.min(args.egdb_pieces))
        }
        _ => 0,
    };
    crate::egdb::configure(root, pieces);
}

pub fn run(args: AnalyseArgs) -> ExitCode {
    configure_egdb(&args);
    if args.threads == 0 || args.threads > 256 {
        return super::fail(format!(
            "threads {} is out of range (1..=256)",
            args.threads
        ));
    }
    if args.hash == 0 || args.hash > 65536 {
        return super::fail(format!(
            "hash {} MiB is out of range (1..=65536)",
            args.hash
        ));
    }
    if args.multipv == 0 || args.multipv > 512 {
        return super::fail(format!(
            "multipv {} is out of range (1..=512)",
            args.multipv
        ));
    }
    if let Some(t) = args.movetime
        && !(t.is_finite() && t >= 0.0)
    {
        return super::fail(format!("movetime {t} is not a number of seconds"));
    }
    if let Some(d) = args.depth
        && (d == 0 || d > 100)
    {
        return super::fail(format!("depth {d} is out of range (1..=100)"));
    }
    let opts = match args.game.options() {
        Ok(o) => o,
        Err(e) => return super::fail(e),
    };
    if args.pdn.is_some() {
        return match review::run(&args, &opts) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => super::fail(e),
        };
    }
    match dispatch(&opts, Analyse(args)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) | Err(e) => super::fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_objects_keep_the_field_names_and_print_scores_in_men() {
        let line = serde_json::to_string(&BestJson {
            r#type: "best",
            r#move: None,
            score: score_men(-150),
            score_cm: -150,
            depth: 3,
            nodes: 10,
            time: round(0.12345, 3),
            nps: 81,
            pv: "a\"b",
        })
        .expect("serialisable");
        assert_eq!(
            line,
            r#"{"type":"best","move":null,"score":-1.5,"score_cm":-150,"depth":3,"nodes":10,"time":0.123,"nps":81,"pv":"a\"b"}"#
        );
    }
}
