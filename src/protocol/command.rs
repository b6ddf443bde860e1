//! Parsing one Hub line into a [`Command`].
//!
//! A line is `command name=value name=value ...`; a value is a bare word or a
//! double-quoted string, an argument may be a bare flag, and blanks around
//! `=` are allowed. Unknown arguments are ignored, as protocol.md asks.
//! Command names are case-sensitive, as in Scan.

use crate::game::ParseError;
use crate::game::text::shorten;

pub use crate::hubwire::Arg;

/// Splits a line into its command word and arguments ([`crate::hubwire`]).
pub fn tokenize(line: &str) -> Result<(String, Vec<Arg>), ParseError> {
    crate::hubwire::tokenize(line).map_err(ParseError)
}

/// What `pos` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PosArgs {
    /// Scan's position string (`pos=`).
    pub pos: Option<String>,
    /// A FEN (`fen=`, extension).
    pub fen: Option<String>,
    /// The moves played from that position.
    pub moves: Vec<String>,
}

/// One limit of a `level` line, already clamped.
#[derive(Clone, Debug, PartialEq)]
pub enum Level {
    Depth(u32),
    Nodes(u64),
    MoveTime(f64),
    Moves(u32),
    Time(f64),
    Inc(f64),
    Infinite,
}

/// The kind of `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    Ponder,
    Analyze,
}

/// A parsed Hub command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Hub,
    Init,
    SetParam { name: String, value: String },
    Pos(PosArgs),
    Level(Vec<Level>),
    Go(GoMode),
    Ping,
    PonderHit,
    Stop,
    NewGame,
    Quit,
}

/// The deepest search `level depth=` may ask for.
pub const MAX_DEPTH: u32 = 1000;
/// The longest time a `level` may give, seconds (about 115 days).
pub const MAX_SECONDS: f64 = 1e7;

/// Parses a number leniently: `59`, `59.8`, `1e-05`, `-3`, `+2`, `.5`,
/// `59,8`. Infinities are allowed (the caller clamps); NaN and text are not.
pub fn parse_real(name: &str, value: &str) -> Result<f64, ParseError> {
    let t = value.trim().replace(',', ".");
    match t.parse::<f64>() {
        Ok(x) if !x.is_nan() => Ok(x),
        _ => Err(ParseError(format!(
            "bad value '{}' for {}: expected a number",
            shorten(value, 40),
            name
        ))),
    }
}

/// Clamps a real to `[lo, hi]` (infinities included).
fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}

fn parse_level(args: &[Arg]) -> Result<Vec<Level>, ParseError> {
    let mut out = Vec::new();
    for a in args {
        let name = a.name.as_str();
        let num = || -> Result<f64, ParseError> {
            match &a.value {
                Some(v) => parse_real(name, v),
                None => Err(ParseError(format!(
                    "level {name} needs a value ({name}=<number>)"
                ))),
            }
        };
        match name {
            "infinite" => out.push(Level::Infinite),
            "depth" => out.push(Level::Depth(
                clamp(num()?.floor(), 1.0, MAX_DEPTH as f64) as u32
            )),
            "nodes" => out.push(Level::Nodes(
                clamp(num()?.floor(), 1.0, u64::MAX as f64) as u64
            )),
            "move-time" => out.push(Level::MoveTime(clamp(num()?, 0.0, MAX_SECONDS))),
            "moves" => out.push(Level::Moves(clamp(num()?.floor(), 0.0, 100_000.0) as u32)),
            "time" => out.push(Level::Time(clamp(num()?, 0.0, MAX_SECONDS))),
            "inc" => out.push(Level::Inc(clamp(num()?, 0.0, MAX_SECONDS))),
            // A misspelt limit (`movetime=1`) would leave the search
            // without the intended limit: refuse the whole line, so the
            // previous limits stay.
            _ => {
                return Err(ParseError(format!(
                    "level: unknown keyword '{name}' (expected depth, nodes, move-time, moves, time, inc, infinite); limits unchanged"
                )));
            }
        }
    }
    Ok(out)
}

fn parse_pos(args: &[Arg]) -> Result<PosArgs, ParseError> {
    let mut p = PosArgs::default();
    let mut start = false;
    for a in args {
        match (a.name.as_str(), &a.value) {
            ("start", None) => start = true,
            ("pos", Some(v)) => {
                let earlier = p.pos.replace(v.trim().to_string());
                if earlier.is_some() {
                    return Err(ParseError("pos= given twice".into()));
                }
            }
            ("fen", Some(v)) => {
                let earlier = p.fen.replace(v.trim().to_string());
                if earlier.is_some() {
                    return Err(ParseError("fen= given twice".into()));
                }
            }
            ("moves", Some(v)) => {
                p.moves = v.split_whitespace().map(str::to_string).collect();
            }
            ("pos" | "fen" | "moves", None) => {
                return Err(ParseError(format!(
                    "'{}' needs a value ({}=...)",
                    a.name, a.name
                )));
            }
            _ => {}
        }
    }
    let given = [start, p.pos.is_some(), p.fen.is_some()]
        .iter()
        .filter(|b| **b)
        .count();
    if given > 1 {
        return Err(ParseError(
            "pos takes only one of: start, pos=<string>, fen=<FEN>".into(),
        ));
    }
    Ok(p)
}

/// Parses one line (without its line end). `Ok(None)` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let (cmd, args) = tokenize(line)?;
    if cmd.is_empty() {
        return Ok(None);
    }
    let value_of = |key: &str| {
        args.iter()
            .find(|a| a.name == key)
            .and_then(|a| a.value.clone())
    };
    let c = match cmd.as_str() {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "ping" => Command::Ping,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "new-game" => Command::NewGame,
        "quit" => Command::Quit,
        "set-param" => {
            let name = value_of("name")
                .ok_or_else(|| ParseError("set-param needs name=<parameter>".into()))?;
            let value = value_of("value").ok_or_else(|| {
                ParseError(format!(
                    "set-param name={} needs value=<value>",
                    shorten(&name, 40)
                ))
            })?;
            Command::SetParam { name, value }
        }
        "pos" => Command::Pos(parse_pos(&args)?),
        "level" => Command::Level(parse_level(&args)?),
        "go" => {
            let mut mode = GoMode::Think;
            for a in &args {
                match (a.name.as_str(), &a.value) {
                    ("ponder", None) => mode = GoMode::Ponder,
                    ("analyze" | "analyse", None) if mode != GoMode::Ponder => {
                        mode = GoMode::Analyze
                    }
                    _ => {}
                }
            }
            Command::Go(mode)
        }
        _ => {
            return Err(ParseError(format!(
                "unknown command: {}",
                shorten(&cmd, 40)
            )));
        }
    };
    Ok(Some(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<(String, Option<String>)> {
        tokenize(line)
            .unwrap()
            .1
            .into_iter()
            .map(|a| (a.name, a.value))
            .collect()
    }

    #[test]
    fn values_are_bare_words_or_quoted_strings_with_blanks_around_equals() {
        assert_eq!(
            args(r#"pos pos = Wbbb moves="32-28 19-23"  start"#),
            vec![
                ("pos".into(), Some("Wbbb".into())),
                ("moves".into(), Some("32-28 19-23".into())),
                ("start".into(), None),
            ]
        );
        assert_eq!(args(r#"x a="" b=1"#)[0].1, Some(String::new()));
    }

    #[test]
    fn malformed_tokens_are_errors_that_say_where() {
        assert!(
            tokenize(r#"pos moves="32-28"#)
                .unwrap_err()
                .0
                .contains("unterminated")
        );
        assert!(
            tokenize("pos a=1 =x")
                .unwrap_err()
                .0
                .contains("without a name")
        );
        assert!(
            tokenize("pos moves=")
                .unwrap_err()
                .0
                .contains("missing value")
        );
        assert!(tokenize(r#"pos "x""#).is_err());
        assert!(
            tokenize("a=b")
                .unwrap_err()
                .0
                .contains("start with a command")
        );
    }

    #[test]
    fn blank_lines_are_no_command() {
        assert_eq!(parse_line("").unwrap(), None);
        assert_eq!(parse_line("  \t ").unwrap(), None);
    }

    #[test]
    fn unknown_commands_are_named_in_the_error() {
        assert_eq!(
            parse_line("frobnicate now").unwrap_err().0,
            "unknown command: frobnicate"
        );
        // Commands are case-sensitive, as in Scan.
        assert!(parse_line("QUIT").is_err());
    }

    #[test]
    fn level_numbers_are_lenient_and_clamped() {
        let l = |s: &str| match parse_line(s).unwrap() {
            Some(Command::Level(v)) => v,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            l("level moves=40 time=59.8 inc=1e-05"),
            vec![Level::Moves(40), Level::Time(59.8), Level::Inc(1e-05)]
        );
        assert_eq!(l("level time=-3.5"), vec![Level::Time(0.0)]);
        assert_eq!(l("level time=59,5"), vec![Level::Time(59.5)]);
        assert_eq!(l("level depth=1e30"), vec![Level::Depth(MAX_DEPTH)]);
        assert_eq!(l("level depth=-4"), vec![Level::Depth(1)]);
        assert_eq!(l("level nodes=inf"), vec![Level::Nodes(u64::MAX)]);
        assert_eq!(l("level infinite"), vec![Level::Infinite]);
        let e = parse_line("level movetime=1").err().map(|e| e.0);
        assert!(e.is_some_and(|m| m.contains("unknown keyword 'movetime'")));
        assert!(parse_line("level time=NaN").is_err());
        assert!(parse_line("level time=abc").is_err());
        assert!(parse_line("level time=\"\"").is_err());
        assert!(parse_line("level depth").is_err());
    }

    #[test]
    fn pos_takes_one_source_and_a_move_list() {
        let p = match parse_line(r#"pos pos=Wbbb moves=" 32-28  19-23 ""#).unwrap() {
            Some(Command::Pos(p)) => p,
            other => panic!("{other:?}"),
        };
        assert_eq!(p.pos.as_deref(), Some("Wbbb"));
        assert_eq!(p.moves, vec!["32-28", "19-23"]);
        assert!(parse_line("pos start pos=W").is_err());
        assert!(parse_line("pos fen=W:W1 pos=W").is_err());
        assert!(parse_line("pos pos").is_err());
        assert_eq!(
            parse_line("pos").unwrap(),
            Some(Command::Pos(PosArgs::default()))
        );
    }

    #[test]
    fn go_modes() {
        assert_eq!(
            parse_line("go think").unwrap(),
            Some(Command::Go(GoMode::Think))
        );
        assert_eq!(
            parse_line("go ponder").unwrap(),
            Some(Command::Go(GoMode::Ponder))
        );
        assert_eq!(
            parse_line("go analyze").unwrap(),
            Some(Command::Go(GoMode::Analyze))
        );
        assert_eq!(parse_line("go").unwrap(), Some(Command::Go(GoMode::Think)));
    }

    #[test]
    fn set_param_needs_name_and_value() {
        assert_eq!(
            parse_line("set-param name=variant value=english").unwrap(),
            Some(Command::SetParam {
                name: "variant".into(),
                value: "english".into()
            })
        );
        assert!(parse_line("set-param value=3").is_err());
        assert!(parse_line("set-param name=threads").is_err());
    }
}
