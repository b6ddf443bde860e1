//! `salto analyse`: searches one position and prints what the search thinks,
//! for scripts. One line per completed iteration (per line with
//! `--multipv`), then the answer; `--json` prints each as one JSON object.

use crate::game::{Game, ParseError, SCORE_WIN, SCORE_WIN_MIN, Score};
use crate::search::multi::{Algorithm, GameSearcher};
use crate::search::{Control, Features, Info, Limits};
use crate::variant::{GameVisitor, dispatch};
use clap::Args;
use std::process::ExitCode;

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
    /// Endgame database root (as built by `salto egdb build --dir`).
    #[arg(long, value_name = "DIR")]
    pub egdb_path: Option<std::path::PathBuf>,
    /// Probe the endgame database up to this many pieces (0 = off).
    #[arg(long, default_value_t = 0)]
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
}

/// A score as protocol.md prints it: men with two decimals; a win in n
/// plies is 100 - n/100.
pub fn format_score(score: Score) -> String {
    if score >= SCORE_WIN_MIN {
        format!("{:.2}", 100.0 - (SCORE_WIN - score) as f64 / 100.0)
    } else if score <= -SCORE_WIN_MIN {
        format!("{:.2}", -(100.0 - (SCORE_WIN + score) as f64 / 100.0))
    } else {
        format!("{:.2}", score as f64 / 100.0)
    }
}

/// `text` as a JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The moves of `pv` in Hub notation, played from `root`.
pub fn format_pv<G: Game>(game: &G, root: &G::Position, pv: &[G::Move]) -> String {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        out.push(game.format_move(&pos, m));
        pos = game.play(&pos, m);
    }
    out.join(" ")
}

struct Analyse(AnalyseArgs);

impl GameVisitor for Analyse {
    type Output = Result<(), ParseError>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let a = self.0;
        let mut pos = match (&a.fen, &a.pos) {
            (Some(_), Some(_)) => {
                return Err(ParseError::new("give either --fen or --pos, not both"));
            }
            (Some(f), None) => game.parse_fen(f)?,
            (None, Some(p)) => game.parse_hub_position(p)?,
            (None, None) => game.start(),
        };
        let mut history = Vec::new();
        for (i, text) in a.moves.split_whitespace().enumerate() {
            let mv = game
                .parse_move(&pos, text)
                .map_err(|e| ParseError(format!("--moves, move {} '{text}': {e}", i + 1)))?;
            history.push(game.hash(&pos));
            pos = game.play(&pos, mv);
        }
        let limits = Limits {
            depth: a.depth,
            nodes: a.nodes,
            move_time: a.movetime,
            multipv: a.multipv.max(1),
            infinite: false,
            ..Limits::default()
        };
        if a.depth.is_none() && a.nodes.is_none() && a.movetime.is_none() {
            return Err(ParseError::new(
                "give a limit: --depth, --movetime or --nodes",
            ));
        }
        let mut searcher = GameSearcher::new(game, a.hash, a.threads);
        searcher.set_algorithm(a.search);
        searcher.set_features(Features {
            lmr: !a.no_lmr,
            aspiration: !a.no_aspiration,
        });
        let control = Control::new();
        let json = a.json;
        let mut print_info = |i: &Info<G::Move>| {
            let pv = format_pv(&game, &pos, &i.pv);
            let nps = if i.time > 0.0 {
                i.nodes as f64 / i.time
            } else {
                0.0
            };
            if json {
                println!(
                    "{{\"type\":\"info\",\"depth\":{},\"multipv\":{},\"mean_depth\":{:.1},\"score\":{},\"score_cm\":{},\"nodes\":{},\"time\":{:.3},\"nps\":{:.0},\"pv\":{}}}",
                    i.depth,
                    i.multipv,
                    i.mean_depth,
                    format_score(i.score),
                    i.score,
                    i.nodes,
                    i.time,
                    nps,
                    json_string(&pv)
                );
            } else {
                println!(
                    "info depth={} multipv={} mean-depth={:.1} score={} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
                    i.depth,
                    i.multipv,
                    i.mean_depth,
                    format_score(i.score),
                    i.nodes,
                    i.time,
                    nps / 1e6,
                    pv
                );
            }
        };
        if let Some(wdl) = game.egdb_probe(&pos) {
            if json {
                println!("{{\"type\":\"egdb\",\"value\":\"{wdl}\"}}");
            } else {
                println!("egdb value={wdl}");
            }
        }
        let t0 = std::time::Instant::now();
        let r = searcher.search(&pos, &history, &limits, &control, &mut print_info);
        let secs = t0.elapsed().as_secs_f64();
        let best = r.best.map(|m| game.format_move(&pos, m));
        let pv = format_pv(&game, &pos, &r.pv);
        let nps = if secs > 0.0 {
            r.nodes as f64 / secs
        } else {
            0.0
        };
        if json {
            println!(
                "{{\"type\":\"best\",\"move\":{},\"score\":{},\"score_cm\":{},\"depth\":{},\"nodes\":{},\"time\":{:.3},\"nps\":{:.0},\"pv\":{}}}",
                best.as_deref().map_or("null".to_string(), json_string),
                format_score(r.score),
                r.score,
                r.depth,
                r.nodes,
                secs,
                nps,
                json_string(&pv)
            );
        } else {
            println!(
                "best move={} score={} depth={} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
                best.as_deref().unwrap_or("none"),
                format_score(r.score),
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

pub fn run(args: AnalyseArgs) -> ExitCode {
    crate::egdb::configure(args.egdb_path.clone(), args.egdb_pieces);
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
    match dispatch(&opts, Analyse(args)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) | Err(e) => super::fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_in_men_and_wins_as_100_minus_plies() {
        assert_eq!(format_score(25), "0.25");
        assert_eq!(format_score(-150), "-1.50");
        assert_eq!(format_score(SCORE_WIN - 7), "99.93");
        assert_eq!(format_score(-(SCORE_WIN - 12)), "-99.88");
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }
}
