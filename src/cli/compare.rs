//! `salto bench --engine SPEC --engine SPEC ...`: any Hub engines side by
//! side on a fixed position set at a fixed time (or depth, or node count)
//! per move. For each position and engine: the depth, the nodes and the
//! time reached (the last `info` line before `done`), the wall time from
//! `go` to `done`, and the move; then each engine's medians. The engines
//! are started and driven as `salto match` does (`tournament::engine`);
//! each position is a new game (`new-game`, then `ping`/`pong` before the
//! search, so clearing a table is not timed).

use crate::game::{Game, ParseError};
use crate::tournament::TimeControl;
use crate::tournament::engine::{EngineError, EngineHooks, EngineSpec, HubEngine, quote};
use crate::variant::{GameVisitor, Options, dispatch};
use std::time::{Duration, Instant};

/// One position of the set.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchPosition {
    /// As written in the file (a FEN).
    pub fen: String,
    /// The Hub `pos=` string sent to the engines.
    pub hub: String,
    /// Pieces on the board.
    pub pieces: u32,
}

/// What one engine answered on one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Wall time from `go think` to `done`, seconds.
    pub wall: f64,
    /// The engine's own `info time=` of its last line.
    pub time: Option<f64>,
    pub mv: String,
}

/// Reads a position file: one FEN per line; `#` starts a comment, blank
/// lines are skipped. Each FEN is checked with `game`'s rules.
pub fn parse_positions<G: Game>(game: &G, text: &str) -> Result<Vec<BenchPosition>, ParseError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fen = line.split('#').next().unwrap_or("").trim();
        if fen.is_empty() {
            continue;
        }
        let pos = game
            .parse_fen(fen)
            .map_err(|e| ParseError(format!("line {}: '{fen}': {e}", n + 1)))?;
        let hub = game.format_hub_position(&pos);
        // Every character of a Hub position but the side to move is a
        // square: count the occupied ones.
        let pieces = hub
            .chars()
            .skip(1)
            .filter(|c| matches!(c, 'w' | 'b' | 'W' | 'B'))
            .count() as u32;
        out.push(BenchPosition {
            fen: fen.to_string(),
            hub,
            pieces,
        });
    }
    if out.is_empty() {
        return Err(ParseError::new("the position file holds no position"));
    }
    Ok(out)
}

struct Parse<'a>(&'a str);

impl GameVisitor for Parse<'_> {
    type Output = Result<Vec<BenchPosition>, ParseError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        parse_positions(&game, self.0)
    }
}

/// The built-in bench positions of a variant, as a position set.
struct Builtin(crate::variant::Variant);

impl GameVisitor for Builtin {
    type Output = Result<Vec<BenchPosition>, ParseError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let text: Vec<String> = super::positions::positions(&game, self.0)?
            .iter()
            .map(|p| game.format_fen(p))
            .collect();
        parse_positions(&game, &text.join("\n"))
    }
}

/// The position set: the file's, else the variant's bench positions.
pub fn load_positions(
    opts: &Options,
    file: Option<&std::path::Path>,
) -> Result<Vec<BenchPosition>, ParseError> {
    match file {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| ParseError(format!("cannot read {}: {e}", f.display())))?;
            dispatch(opts, Parse(&text))?
                .map_err(|e| ParseError(format!("{}: {}", f.display(), e.0)))
        }
        None => dispatch(opts, Builtin(opts.variant))?,
    }
}

/// The median of `v` (the mean of the two middle values for an even
/// count), `None` for no values.
pub fn median(v: &[f64]) -> Option<f64> {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return None;
    }
    s.sort_by(|a, b| a.total_cmp(b));
    let n = s.len();
    Some(if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    })
}

/// The `level` line of a limit.
fn level_line(tc: TimeControl) -> String {
    match tc {
        TimeControl::Clock { base, inc } => format!("level time={base} inc={inc}"),
        TimeControl::MoveTime(t) => format!("level move-time={t}"),
        TimeControl::Depth(d) => format!("level depth={d}"),
        TimeControl::Nodes(n) => format!("level nodes={n}"),
    }
}

/// The settings of a comparison.
pub struct Compare {
    pub specs: Vec<EngineSpec>,
    pub positions: Vec<BenchPosition>,
    /// The limit of every engine without its own (`depth=`, ... in its spec).
    pub limit: TimeControl,
    pub runs: usize,
    /// The longest wait for a search without a time limit, seconds.
    pub timeout: f64,
    /// The `set-param` lines that select the game.
    pub game_params: Vec<(String, String)>,
}

/// One engine process, restarted after a failure.
struct Driver {
    spec: EngineSpec,
    engine: Option<HubEngine>,
}

impl Driver {
    fn think(
        &mut self,
        c: &Compare,
        hooks: &EngineHooks,
        pos: &BenchPosition,
    ) -> Result<Reading, EngineError> {
        if self.engine.as_ref().is_some_and(|e| !e.is_alive())
            && let Some(e) = self.engine.take()
        {
            e.kill();
        }
        let start_timeout = Duration::from_secs(30);
        let engine = match &mut self.engine {
            Some(e) => e,
            None => self.engine.insert(HubEngine::start(
                &self.spec,
                &c.game_params,
                start_timeout,
                hooks,
            )?),
        };
        engine.new_game()?;
        engine.sync(Instant::now() + start_timeout)?;
        let tc = self.spec.limit.unwrap_or(c.limit);
        let wait = match tc {
            TimeControl::MoveTime(t) => (3.0 * t).max(t + 2.0),
            TimeControl::Clock { base, .. } => (3.0 * base).max(base + 2.0),
            _ => c.timeout,
        };
        let position = format!("pos pos={}", quote(&pos.hub));
        let answer = engine.think(&position, &[level_line(tc)], |s| {
            s + Duration::from_secs_f64(wait.max(0.001))
        });
        match answer {
            Ok(r) => Ok(Reading {
                depth: r.depth,
                nodes: r.nodes,
                wall: r.elapsed.as_secs_f64(),
                time: r.time,
                mv: r.mv,
            }),
            Err(e) => {
                let synced = matches!(e, EngineError::Timeout(_))
                    && engine.stop_and_sync(Duration::from_secs(1));
                if !synced && let Some(eng) = self.engine.take() {
                    eng.kill();
                }
                Err(e)
            }
        }
    }
}

/// Every reading: `[run][position][engine]`.
pub type Readings = Vec<Vec<Vec<Result<Reading, String>>>>;

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or("-".into(), |v| v.to_string())
}

/// Runs the comparison, printing one line per search as it goes (through
/// `line`), and returns every reading. The engines take turns in the
/// order of the specs on odd runs and in reverse order on even runs.
pub fn run(c: &Compare, hooks: &EngineHooks, line: &mut dyn FnMut(String)) -> Readings {
    let mut drivers: Vec<Driver> = c
        .specs
        .iter()
        .map(|s| Driver {
            spec: s.clone(),
            engine: None,
        })
        .collect();
    let mut all = Vec::new();
    for run in 0..c.runs {
        let mut per_pos = Vec::new();
        for (i, pos) in c.positions.iter().enumerate() {
            let mut row: Vec<Result<Reading, String>> = vec![Err(String::new()); drivers.len()];
            let mut order: Vec<usize> = (0..drivers.len()).collect();
            if run % 2 == 1 {
                order.reverse();
            }
            for e in order {
                let d = &mut drivers[e];
                let r = d.think(c, hooks, pos).map_err(|err| err.to_string());
                line(match &r {
                    Ok(r) => format!(
                        "compare run={} position={} engine={} depth={} nodes={} time={:.3} engine-time={} move={}",
                        run + 1,
                        i + 1,
                        d.spec.name,
                        opt(r.depth),
                        opt(r.nodes),
                        r.wall,
                        opt(r.time),
                        r.mv
                    ),
                    Err(err) => format!(
                        "compare run={} position={} engine={} error=\"{err}\"",
                        run + 1,
                        i + 1,
                        d.spec.name
                    ),
                });
                row[e] = r;
            }
            per_pos.push(row);
        }
        all.push(per_pos);
    }
    for d in drivers {
        if let Some(e) = d.engine {
            e.quit();
        }
    }
    all
}

/// The per-position medians over the runs of one engine: (depth, nodes,
/// wall time, nodes per second of the engine's own time, first move).
fn position_medians(
    all: &Readings,
    pos: usize,
    eng: usize,
) -> (Option<f64>, Option<f64>, Option<f64>, Option<f64>, String) {
    let ok: Vec<&Reading> = all
        .iter()
        .filter_map(|run| run[pos][eng].as_ref().ok())
        .collect();
    let depth = median(
        &ok.iter()
            .filter_map(|r| r.depth)
            .map(f64::from)
            .collect::<Vec<_>>(),
    );
    let nodes = median(
        &ok.iter()
            .filter_map(|r| r.nodes)
            .map(|n| n as f64)
            .collect::<Vec<_>>(),
    );
    let wall = median(&ok.iter().map(|r| r.wall).collect::<Vec<_>>());
    let nps = median(
        &ok.iter()
            .filter_map(|r| {
                let t = r.time.filter(|&t| t > 0.0).unwrap_or(r.wall);
                r.nodes.filter(|_| t > 0.0).map(|n| n as f64 / t)
            })
            .collect::<Vec<_>>(),
    );
    let mv = ok.first().map_or("error".to_string(), |r| r.mv.clone());
    (depth, nodes, wall, nps, mv)
}

/// The side-by-side table and the medians, as lines of text.
pub fn report(c: &Compare, all: &Readings) -> Vec<String> {
    let mut out = Vec::new();
    // Each engine a group of columns, its name above them.
    const GROUP: usize = 33;
    let mut names = format!("{:10}", "");
    let mut head = format!("{:>3} {:>6}", "pos", "pieces");
    for s in &c.specs {
        names.push_str(&format!(" | {:<GROUP$}", s.name));
        head.push_str(&format!(
            " | {:>5} {:>10} {:>6} {:<8}",
            "depth", "nodes", "time", "move"
        ));
    }
    out.push(names.trim_end().to_string());
    out.push(head);
    let f1 = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.1}"));
    let f0 = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.0}"));
    let f3 = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.3}"));
    for (i, p) in c.positions.iter().enumerate() {
        let mut row = format!("{:>3} {:>6}", i + 1, p.pieces);
        for e in 0..c.specs.len() {
            let (d, n, w, _, mv) = position_medians(all, i, e);
            row.push_str(&format!(
                " | {:>5} {:>10} {:>6} {:<8}",
                f1(d),
                f0(n),
                f3(w),
                mv
            ));
        }
        out.push(row.trim_end().to_string());
    }
    for (e, s) in c.specs.iter().enumerate() {
        let per: Vec<_> = (0..c.positions.len())
            .map(|i| position_medians(all, i, e))
            .collect();
        let col = |k: usize| -> Vec<f64> {
            per.iter()
                .filter_map(|p| match k {
                    0 => p.0,
                    1 => p.1,
                    2 => p.2,
                    _ => p.3,
                })
                .collect()
        };
        let errors: usize = all
            .iter()
            .map(|run| run.iter().filter(|row| row[e].is_err()).count())
            .sum();
        out.push(format!(
            "median engine={} depth={} nodes={} time={} nps={} errors={errors}",
            s.name,
            f1(median(&col(0))),
            f0(median(&col(1))),
            f3(median(&col(2))),
            f0(median(&col(3))),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{Draughts, International};

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[f64::NAN, 5.0]), Some(5.0));
    }

    #[test]
    fn position_file_lines_comments_and_errors() {
        let g = Draughts::<International>::default();
        let text = "# a set\n\nW:W31,32:B1,K2 # two a side\nB:W33:B18\n";
        let p = parse_positions(&g, text).expect("parses");
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].fen, "W:W31,32:B1,K2");
        assert_eq!(p[0].pieces, 4);
        assert_eq!(p[1].pieces, 2);
        assert!(p[1].hub.starts_with('B'));
        let e = parse_positions(&g, "W:W31:B1\nnot a fen\n").unwrap_err();
        assert!(e.0.contains("line 2"), "{}", e.0);
        assert!(parse_positions(&g, "# nothing\n").is_err());
    }

    #[test]
    fn level_lines_name_the_limit() {
        assert_eq!(
            level_line(TimeControl::MoveTime(0.5)),
            "level move-time=0.5"
        );
        assert_eq!(level_line(TimeControl::Depth(7)), "level depth=7");
        assert_eq!(level_line(TimeControl::Nodes(100)), "level nodes=100");
    }
}
