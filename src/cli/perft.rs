//! `salto perft`: counts the leaves of the move tree to a depth.

use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
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

pub fn run(args: PerftArgs) -> ExitCode {
    super::fail(format!(
        "perft for variant '{}' is not implemented yet",
        args.game.variant
    ))
}
