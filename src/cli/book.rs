//! `salto book build | merge | rescore | show` (docs/book.md).

use super::GameArgs;
use super::datagen::parse_shard;
use crate::book::build::{Builder, Config};
use crate::book::{Book, DIRECT, LEAF};
use crate::game::Game;
use crate::session::{Start, format, setup};
use crate::variant::GameVisitor;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build (or go on building) a book by drop-out expansion from the start position.
    Build(BuildArgs),
    /// Merge books of one game (shards) into one.
    Merge(MergeArgs),
    /// Re-score the moves of a book's first plies with a deeper search.
    Rescore(RescoreArgs),
    /// Print the book moves of a position.
    Show(ShowArgs),
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Stop when the book has this many expanded positions (a resumed
    /// build counts what it had).
    #[arg(long, default_value_t = 1000)]
    pub budget: u64,
    /// Leaf search depth (default: --depth 8 unless --nodes is given).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Leaf search nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Expansion cost of one ply, centi-men: larger makes the book wider
    /// and shallower.
    #[arg(long, default_value_t = 10)]
    pub weight: i64,
    /// No position this many plies deep is expanded.
    #[arg(long, default_value_t = 40)]
    pub max_ply: u32,
    /// Expand only below the root moves of shard K of N (1-based); merge
    /// the shards' books with `salto book merge`. Deterministic: no seed.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Leaf search table, MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Write the book every this many expanded positions (and at the end).
    #[arg(long, default_value_t = 50)]
    pub save_every: u64,
    /// The book file: created, or resumed when it exists.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged book (overwritten).
    #[arg(long)]
    pub out: PathBuf,
    /// The books to merge.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RescoreArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The book file, rewritten in place (atomically, after each position).
    #[arg(long)]
    pub book: PathBuf,
    /// Re-score the moves of the positions fewer than this many plies from
    /// the start.
    #[arg(long, default_value_t = 1)]
    pub plies: u32,
    /// The search depth of a move (the position after it is searched to
    /// DEPTH - 1).
    #[arg(long, default_value_t = 20)]
    pub depth: u32,
    /// Search table, MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// A book file (default: the shipped book of the variant).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// The position (default: the start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position, space separated.
    #[arg(long, default_value = "")]
    pub moves: String,
}

pub fn run(args: BookArgs) -> ExitCode {
    let result = match args.command {
        BookCommand::Build(a) => a
            .game
            .options()
            .map_err(|e| e.0)
            .and_then(|o| crate::variant::dispatch(&o, BuildRun(a)).map_err(|e| e.0))
            .and_then(|r| r),
        BookCommand::Merge(a) => merge(a),
        BookCommand::Rescore(a) => a
            .game
            .options()
            .map_err(|e| e.0)
            .and_then(|o| crate::variant::dispatch(&o, RescoreRun(a)).map_err(|e| e.0))
            .and_then(|r| r),
        BookCommand::Show(a) => a
            .game
            .options()
            .map_err(|e| e.0)
            .and_then(|o| crate::variant::dispatch(&o, ShowRun(a)).map_err(|e| e.0))
            .and_then(|r| r),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(e),
    }
}

struct BuildRun(BuildArgs);

impl GameVisitor for BuildRun {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Result<(), String> {
        build(game, self.0)
    }
}

fn build<G: Game>(game: G, a: BuildArgs) -> Result<(), String> {
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    let depth = if a.depth.is_none() && a.nodes.is_none() {
        Some(8)
    } else {
        a.depth
    };
    let cfg = Config {
        budget: a.budget,
        depth,
        nodes: a.nodes,
        weight: a.weight.max(1),
        max_ply: a.max_ply.max(1),
        shard: shard.unwrap_or((1, 1)),
        hash_mib: a.hash.clamp(1, 4096),
    };
    let resume = if a.out.exists() {
        let b = Book::load(&a.out).map_err(|e| format!("{e} (remove it to start a new book)"))?;
        Some(b)
    } else {
        None
    };
    let mut b = Builder::new(game, cfg, resume.as_ref())?;
    if resume.is_some() {
        errln!(
            "book: resuming {} with {} expanded positions",
            a.out.display(),
            b.expanded()
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(&stop))
            .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&stop)))
            .map_err(|e| format!("cannot catch signal {sig}: {e}"))?;
    }
    let bar = ProgressBar::new(a.budget);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions, {msg}, eta {eta}",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    bar.set_position(b.expanded().min(a.budget));
    let t0 = std::time::Instant::now();
    let mut since_save = 0;
    let mut exhausted = false;
    while b.expanded() < a.budget && !stop.load(Ordering::Relaxed) {
        if !b.step() {
            exhausted = true;
            break;
        }
        since_save += 1;
        bar.set_position(b.expanded().min(a.budget));
        if since_save >= a.save_every.max(1) {
            since_save = 0;
            b.book().save(&a.out)?;
            if let Some((v, m)) = b.root_value() {
                bar.set_message(format!("root {} {m}", format::score(v)));
            }
        }
    }
    let book = b.book();
    book.save(&a.out)?;
    bar.finish();
    let why = if stop.load(Ordering::Relaxed) {
        " (interrupted; run the same command to go on)"
    } else if exhausted {
        " (nothing left to expand under --max-ply)"
    } else {
        ""
    };
    errln!(
        "book: {} positions, {} moves, {} leaf searches in {:.1} s, written to {}{why}",
        book.positions(),
        book.records().len(),
        b.searches,
        t0.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

struct RescoreRun(RescoreArgs);

impl GameVisitor for RescoreRun {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Result<(), String> {
        rescore(game, self.0)
    }
}

/// Re-scores the first plies; resumable, since a move that already has a
/// direct search of the depth is not searched again.
fn rescore<G: Game>(game: G, a: RescoreArgs) -> Result<(), String> {
    let book = Book::load(&a.book)?;
    let cfg = Config {
        budget: 0,
        depth: Some(a.depth.max(1)),
        nodes: None,
        weight: 10,
        max_ply: u32::MAX,
        shard: (1, 1),
        hash_mib: a.hash.clamp(1, 4096),
    };
    let mut b = Builder::new(game, cfg, Some(&book))?;
    let keys = b.positions_above(a.plies);
    let bar = ProgressBar::new(keys.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions, eta {eta}",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    let t0 = std::time::Instant::now();
    let mut searches = 0;
    for key in keys {
        if b.rescore(key, a.depth.max(1)) {
            searches += 1;
            b.book().save(&a.book)?;
        }
        bar.inc(1);
    }
    bar.finish();
    let after = b.book();
    after.save(&a.book)?;
    let root = b.root_value();
    errln!(
        "book: re-scored {searches} positions with multi-PV searches of depth {} in {:.1} s; {} moves now scored by a direct search; root {}, written to {}",
        a.depth,
        t0.elapsed().as_secs_f64(),
        after
            .records()
            .iter()
            .filter(|r| r.flags & DIRECT != 0)
            .count(),
        root.map_or("-".to_string(), |(v, m)| format!(
            "{} {m}",
            format::score(v)
        )),
        a.book.display()
    );
    Ok(())
}

fn merge(a: MergeArgs) -> Result<(), String> {
    let books = a
        .files
        .iter()
        .map(|f| Book::load(f))
        .collect::<Result<Vec<_>, _>>()?;
    let m = Book::merge(&books)?;
    m.save(&a.out)?;
    errln!(
        "book: merged {} books: {} positions, {} moves, written to {}",
        books.len(),
        m.positions(),
        m.records().len(),
        a.out.display()
    );
    Ok(())
}

struct ShowRun(ShowArgs);

impl GameVisitor for ShowRun {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Result<(), String> {
        show(game, self.0)
    }
}

fn show<G: Game>(game: G, a: ShowArgs) -> Result<(), String> {
    let book = match &a.book {
        Some(f) => {
            let b = Book::load(f)?;
            b.check_for(&game)
                .map_err(|e| format!("book {}: {e}", f.display()))?;
            Arc::new(b)
        }
        None => crate::book::shipped::book(&game)
            .ok_or_else(|| format!("no book ships for {} (give --book FILE)", game.name()))?,
    };
    let moves: Vec<&str> = a.moves.split_whitespace().collect();
    let start = a.fen.as_deref().map_or(Start::Initial, Start::Fen);
    let (pos, _) = setup(&game, start, &moves).map_err(|e| e.to_string())?;
    outln!("position {}", game.format_fen(&pos));
    let found = book.moves(&game, &pos);
    if found.is_empty() {
        outln!("no book moves");
        return Ok(());
    }
    outln!("move score depth count");
    for (mv, r) in found {
        outln!(
            "{} {} {} {}{}{}",
            game.format_move(&pos, mv),
            format::score(r.score as i32),
            r.depth,
            r.count,
            if r.flags & LEAF != 0 { " leaf" } else { "" },
            if r.flags & DIRECT != 0 { " direct" } else { "" }
        );
    }
    Ok(())
}
