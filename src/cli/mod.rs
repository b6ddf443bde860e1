//! The command line: `salto [hub]`, `salto perft`, `salto match`,
//! `salto bench`, `salto analyse`, `salto dxp`. Each subcommand but `hub`
//! (the [`crate::protocol`] module) lives in its own file here.
//!
//! Subcommands print with `outln!` and `errln!`, never `println!`:
//! `println!` panics when the reader has gone (`salto analyse | head -1`).

/// Prints one line of a subcommand's output on stdout, like `println!`; when
/// the reader has gone (a closed pipe), the program ends quietly with status
/// 0, as `grep` or `rg` do, instead of panicking. See `write_out`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!($($arg)*))
    };
}

/// Prints a progress or error line on stderr, like `eprintln!`, but a
/// closed stderr is no error: the work goes on (its result is a file, the
/// output on stdout or the exit status).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod analyse;
pub mod bench;
pub mod book;
pub mod compare;
pub mod datagen;
pub mod dxp;
pub mod egdb;
pub mod gui;
pub mod matches;
pub mod perft;
pub mod positions;
pub mod train;

use crate::game::ParseError;
use crate::variant::Options;
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "salto",
    version,
    about = "A game engine for draughts, hexagonal draughts and chinese checkers, speaking the Hub protocol"
)]
pub struct Cli {
    /// Write log lines to this file (logging is off unless this or RUST_LOG is given).
    #[arg(long, global = true, value_name = "FILE")]
    pub log: Option<std::path::PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a Hub protocol session on stdin/stdout (the default).
    Hub,
    /// Count the leaf nodes of the move tree (move generator test and speed).
    Perft(perft::PerftArgs),
    /// Play an engine-vs-engine match between Hub engines (see docs/match.md).
    Match(Box<matches::MatchArgs>),
    /// Search fixed positions to a fixed depth: node count signature and speed.
    Bench(bench::BenchArgs),
    /// Search one position and print the best move, score and lines (for scripts).
    Analyse(analyse::AnalyseArgs),
    /// Play international draughts over DamExchange (DXP) as follower or initiator (see docs/dxp.md).
    Dxp(dxp::DxpArgs),
    /// Serve a local web page to play, analyse and watch every game (see docs/gui.md).
    Gui(gui::GuiArgs),
    /// Self-play training data for the pattern evaluation (docs/evaluation.md).
    Datagen(Box<datagen::DatagenArgs>),
    /// Fit the pattern evaluation's weights to datagen files (docs/evaluation.md).
    Train(Box<train::TrainArgs>),
    /// Build, check and list endgame databases (see docs/egdb.md).
    Egdb(egdb::EgdbArgs),
    /// Build, merge and show opening books (see docs/book.md).
    Book(book::BookArgs),
}

/// The flags that choose a game, shared by every subcommand that takes one.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    // The help lists the registry's names (crate::variant), so that a new
    // rule set needs no line here.
    #[arg(
        long,
        default_value = "international",
        help = format!("The variant: {}", crate::variant::Variant::hub_names())
    )]
    pub variant: String,
    /// Chinese checkers: number of players (2, 3, 4 or 6).
    #[arg(long)]
    pub players: Option<u8>,
    /// Chinese checkers: sets per player (3 players: 2; 2 players: 3).
    #[arg(long)]
    pub sets: Option<u8>,
    /// A rule option as NAME=VALUE, repeatable: turkish-promotion=end|immediate,
    /// notation=numeric|algebraic, draw-moves=N, foreign-corners=pass|stop,
    /// unused-corners=empty|filled, spoiling=swap|fill|none, max-moves=N.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub option: Vec<String>,
    /// Draughts evaluation: default (the shipped trained weights where
    /// there are some, else the hand evaluation) or hand.
    #[arg(long)]
    pub eval: Option<String>,
    /// Draughts: evaluate with the pattern weights in this file (from `salto train`).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<std::path::PathBuf>,
}

impl GameArgs {
    /// The options these flags select, or a message saying what is wrong.
    pub fn options(&self) -> Result<Options, ParseError> {
        let mut opts = Options::new(self.variant.parse()?);
        if let Some(p) = self.players {
            opts.players = p;
        }
        if let Some(s) = self.sets {
            opts.sets = s;
        }
        for o in &self.option {
            let (name, value) = o
                .split_once('=')
                .ok_or_else(|| ParseError(format!("option '{o}' is not of the form NAME=VALUE")))?;
            opts.set(name, value)?;
        }
        if let Some(e) = &self.eval {
            opts.set("eval", e)?;
        }
        if let Some(f) = &self.eval_file {
            opts.set("eval-file", &f.to_string_lossy())?;
        }
        opts.validate()?;
        Ok(opts)
    }
}

/// Exit status for bad input on the command line.
pub const EXIT_USAGE: u8 = 2;

/// Prints a one-line error on stderr and returns exit status 2.
pub fn fail(msg: impl std::fmt::Display) -> ExitCode {
    errln!("salto: {msg}");
    ExitCode::from(EXIT_USAGE)
}

/// Writes one line to stdout (what `outln!` calls). A closed pipe ends
/// the program with status 0 and nothing on stderr: the reader took what it
/// wanted. Any other write error (a full disk) ends it with a message and
/// status 1.
pub fn write_out(line: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // Stdout is line buffered: the newline sends the line, so an error shows
    // here, not at exit.
    if let Err(e) = out.write_fmt(line).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        errln!("salto: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// Sets up logging: off unless `RUST_LOG` is set or a log file is given.
pub fn init_logging(file: Option<&std::path::Path>) {
    let mut builder = env_logger::Builder::new();
    if let Some(path) = file {
        match std::fs::File::create(path) {
            Ok(f) => {
                builder.target(env_logger::Target::Pipe(Box::new(f)));
                builder.filter_level(log::LevelFilter::Info);
                // Milliseconds: a match log shows how long each answer took.
                builder.format_timestamp_millis();
            }
            Err(e) => {
                errln!("salto: cannot open log file {}: {e}", path.display());
                return;
            }
        }
    } else if std::env::var_os("RUST_LOG").is_none() {
        return;
    }
    if let Ok(spec) = std::env::var("RUST_LOG") {
        builder.parse_filters(&spec);
    }
    let _ = builder.try_init();
}

/// True when the arguments ask for a Hub session: none at all, `hub`, or
/// only options that are not ours (lidraughts-bot passes some, as
/// `--name=value`), perhaps with values. Our own `--log FILE` may come
/// first. A subcommand after options still runs that subcommand
/// (`salto --log match.log match ...`); a first argument that is neither an
/// option nor `hub` goes to clap, which runs it or says what is wrong.
fn is_hub_invocation(args: &[String]) -> bool {
    let known = ["--help", "-h", "--version", "-V"];
    let mut rest = args.iter().skip(1);
    let mut after_option = false;
    while let Some(a) = rest.next() {
        if known.contains(&a.as_str()) {
            return false;
        }
        if a.starts_with('-') {
            if a == "--log" {
                rest.next();
            }
            after_option = true;
            continue;
        }
        if a == "hub" {
            return true;
        }
        // A value of a foreign option, or our subcommand.
        return after_option && Cli::command().find_subcommand(a).is_none();
    }
    true
}

/// The `--log FILE` / `--log=FILE` option, looked up by hand for the Hub
/// invocation, where unknown options are ignored.
fn hub_log_file(args: &[String]) -> Option<std::path::PathBuf> {
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if a == "--log" {
            return it.next().map(Into::into);
        }
        if let Some(f) = a.strip_prefix("--log=") {
            return Some(f.into());
        }
    }
    None
}

/// The program: parses the command line and runs the subcommand.
pub fn main_with_args(args: Vec<String>) -> ExitCode {
    if is_hub_invocation(&args) {
        init_logging(hub_log_file(&args).as_deref());
        return crate::protocol::run_hub();
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    init_logging(cli.log.as_deref());
    match cli.command {
        None | Some(Command::Hub) => crate::protocol::run_hub(),
        Some(Command::Perft(a)) => perft::run(a),
        Some(Command::Match(a)) => matches::run(*a),
        Some(Command::Bench(a)) => bench::run(a),
        Some(Command::Analyse(a)) => analyse::run(a),
        Some(Command::Dxp(a)) => dxp::run(a),
        Some(Command::Gui(a)) => gui::run(a),
        Some(Command::Datagen(a)) => datagen::run(*a),
        Some(Command::Train(a)) => train::run(*a),
        Some(Command::Egdb(a)) => egdb::run(a),
        Some(Command::Book(a)) => book::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn hub_is_the_default_and_ignores_foreign_options() {
        assert!(is_hub_invocation(&v(&["salto"])));
        assert!(is_hub_invocation(&v(&["salto", "hub"])));
        assert!(is_hub_invocation(&v(&["salto", "--bot-name=x", "hub"])));
        assert!(!is_hub_invocation(&v(&["salto", "perft"])));
        assert!(!is_hub_invocation(&v(&["salto", "--help"])));
        assert!(is_hub_invocation(&v(&["salto", "--log", "a.log"])));
        assert!(is_hub_invocation(&v(&["salto", "--log=a.log", "hub"])));
        assert!(is_hub_invocation(&v(&["salto", "--bot-name", "x"])));
        assert!(!is_hub_invocation(&v(&["salto", "pertf"])));
    }

    #[test]
    fn a_subcommand_after_global_options_runs_that_subcommand() {
        for args in [
            &["salto", "--log", "m.log", "match", "--engine", "cmd=x"][..],
            &["salto", "--log=m.log", "perft", "--depth", "1"],
            &["salto", "--log", "m.log", "--help"],
        ] {
            assert!(!is_hub_invocation(&v(args)), "{args:?}");
        }
        let cli = Cli::try_parse_from(v(&["salto", "--log", "m.log", "perft", "--depth", "1"]))
            .expect("parses");
        assert!(matches!(cli.command, Some(Command::Perft(_))));
        assert_eq!(cli.log, Some("m.log".into()));
        assert_eq!(
            hub_log_file(&v(&["salto", "hub", "--log", "a.log"])),
            Some("a.log".into())
        );
    }
}
