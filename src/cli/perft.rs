//! `salto perft`: counts the leaves of the move tree to a depth, for any
//! game that [`crate::variant::dispatch`] knows.

use crate::game::{Game, MoveList, ParseError};
use crate::session::{Start, setup};
use crate::variant::{GameVisitor, dispatch};
use clap::Args;
use rayon::prelude::*;
use std::process::ExitCode;
use std::time::Instant;

/// The deepest perft the command accepts.
pub const MAX_DEPTH: u32 = 40;

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
    /// Start from this FEN instead of the start position.
    #[arg(long, allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Start from this Hub position string.
    #[arg(long)]
    pub pos: Option<String>,
    /// Count to this depth (1..=40).
    #[arg(long)]
    pub depth: u32,
    /// List each root move with its count.
    #[arg(long)]
    pub divide: bool,
    /// Split the root moves over this many threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// The number of leaves `depth` plies below `pos` (1 at depth 0). The last
/// ply is counted in bulk with [`Game::count_moves`].
pub fn perft<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(pos),
        _ => {
            let mut list = MoveList::new();
            game.generate(pos, &mut list);
            list.iter()
                .map(|&mv| perft(game, &game.play(pos, mv), depth - 1))
                .sum()
        }
    }
}

/// Each root move with the leaves below it (`depth` >= 1), the root moves
/// split over the current rayon pool.
pub fn divide<G: Game>(game: &G, pos: &G::Position, depth: u32) -> Vec<(G::Move, u64)> {
    let mut list = MoveList::new();
    game.generate(pos, &mut list);
    let moves: Vec<G::Move> = list.iter().copied().collect();
    moves
        .par_iter()
        .map(|&mv| {
            (
                mv,
                perft(game, &game.play(pos, mv), depth.saturating_sub(1)),
            )
        })
        .collect()
}

/// Perft with the root moves split over the current rayon pool.
pub fn perft_parallel<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    if depth <= 2 {
        return perft(game, pos, depth);
    }
    divide(game, pos, depth).iter().map(|(_, n)| n).sum()
}

struct PerftRun {
    fen: Option<String>,
    pos: Option<String>,
    depth: u32,
    divide: bool,
    threads: usize,
}

impl GameVisitor for PerftRun {
    type Output = Result<(), ParseError>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let start = match (&self.fen, &self.pos) {
            (Some(_), Some(_)) => {
                return Err(ParseError::new("give either --fen or --pos, not both"));
            }
            (Some(f), None) => Start::Fen(f),
            (None, Some(p)) => Start::Hub(p),
            (None, None) => Start::Initial,
        };
        let (root, _) = setup(&game, start, &[] as &[&str])?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| ParseError(format!("cannot start {} threads: {e}", self.threads)))?;
        pool.install(|| {
            for d in 1..=self.depth {
                let t0 = Instant::now();
                let count = if self.threads > 1 {
                    perft_parallel(&game, &root, d)
                } else {
                    perft(&game, &root, d)
                };
                let secs = t0.elapsed().as_secs_f64();
                let mnps = if secs > 0.0 {
                    count as f64 / secs / 1e6
                } else {
                    0.0
                };
                outln!("depth {d:2} count {count:>14} time {secs:9.3} s speed {mnps:8.2} Mnodes/s");
            }
            if self.divide {
                let mut rows: Vec<(String, u64)> = divide(&game, &root, self.depth)
                    .into_iter()
                    .map(|(mv, n)| (game.format_move(&root, mv), n))
                    .collect();
                rows.sort();
                let total: u64 = rows.iter().map(|r| r.1).sum();
                for (text, n) in &rows {
                    outln!("{text} {n}");
                }
                outln!("moves {} total {total}", rows.len());
            }
        });
        Ok(())
    }
}

pub fn run(args: PerftArgs) -> ExitCode {
    if args.depth == 0 || args.depth > MAX_DEPTH {
        return super::fail(format!(
            "depth {} is out of range (1..={MAX_DEPTH})",
            args.depth
        ));
    }
    if args.threads == 0 || args.threads > 1024 {
        return super::fail(format!(
            "threads {} is out of range (1..=1024)",
            args.threads
        ));
    }
    let opts = match args.game.options() {
        Ok(o) => o,
        Err(e) => return super::fail(e),
    };
    let run = PerftRun {
        fen: args.fen,
        pos: args.pos,
        depth: args.depth,
        divide: args.divide,
        threads: args.threads,
    };
    match dispatch(&opts, run) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) | Err(e) => super::fail(e),
    }
}
