//! Property tests (proptest) for every parser that reads outside text:
//! FEN, Hub position strings, move text, PDN move lines (the `--openings`
//! file), option values, Hub command lines (the engine's input and, through
//! `HubLine`, the match runner's reading of an engine), and the match
//! runner's `--engine`, `--tc`, `--adjudicate`, `--points` and `--sprt`.
//!
//! 1. Arbitrary input never panics: each parser returns `Ok` or `Err`.
//! 2. Whatever Salto writes reads back to the same value: the FEN and the
//!    Hub string of every position met on random games (all variants and
//!    option sets) parse back to a position with the same hash, the same
//!    text and the same legal moves, and every legal move's text parses
//!    back to that move, alone and as an opening line.
//!
//! Case counts keep the whole file to seconds; raise `PROPTEST_CASES` to
//! search longer (see docs/reliability.md).

mod protocol_util;

use proptest::prelude::*;
use protocol_util::walk;
use salto::game::{Game, MoveList};
use salto::protocol::command::parse_line;
use salto::tournament::play::{Adjudication, TimeControl};
use salto::tournament::ranking::PointsScheme;
use salto::tournament::{EngineSpec, Sprt};
use salto::variant::{GameVisitor, Options, Variant, dispatch};

/// `PROPTEST_CASES` if set (a longer search by hand), else `n`.
fn cases(n: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

/// Every variant and option set of the soak (tests/protocol_util).
fn option_sets() -> Vec<Options> {
    protocol_util::option_sets()
        .iter()
        .map(|p| protocol_util::options_of(p))
        .collect()
}

/// Text that looks like positions and moves more often than random text
/// does (so that the parsers get past their first check), or any text.
fn texty() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[WBKwbkx0-9:,.\\- ]{0,40}",
        "[WBwbe.:0-9 a-j]{0,120}",
        "[a-z0-9x:\\-]{1,12}",
    ]
}

/// Feeds `text` to every position and move parser of the game.
struct NoPanic<'a> {
    text: &'a str,
    seed: u64,
}

impl GameVisitor for NoPanic<'_> {
    type Output = ();
    fn visit<G: Game>(self, g: G) {
        let _ = g.parse_fen(self.text);
        let _ = g.parse_hub_position(self.text);
        for pos in walk(&g, self.seed, 12).0 {
            let _ = g.parse_move(&pos, self.text);
        }
        let _ = salto::tournament::openings::parse_openings(&g, self.text);
    }
}

/// Checks that every position of a random game and every legal move in it
/// reads back from what Salto writes.
struct RoundTrip {
    seed: u64,
    plies: usize,
}

impl GameVisitor for RoundTrip {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, g: G) -> Result<(), String> {
        let (positions, walked) = walk(&g, self.seed, self.plies);
        for p in &positions {
            let fen = g.format_fen(p);
            let q = g.parse_fen(&fen).map_err(|e| format!("FEN {fen}: {e}"))?;
            same(&g, p, &q).map_err(|e| format!("FEN {fen}: {e}"))?;
            let hub = g.format_hub_position(p);
            let q = g
                .parse_hub_position(&hub)
                .map_err(|e| format!("Hub {hub}: {e}"))?;
            same(&g, p, &q).map_err(|e| format!("Hub {hub}: {e}"))?;
            let mut list = MoveList::new();
            g.generate(p, &mut list);
            for m in list.iter() {
                let text = g.format_move(p, *m);
                let back = g
                    .parse_move(p, &text)
                    .map_err(|e| format!("move {text} in {fen}: {e}"))?;
                if back != *m {
                    return Err(format!("move {text} in {fen} reads back as another move"));
                }
            }
        }
        // The game's moves as a PDN move line (numbered, with a result)
        // read back through the `--openings` parser.
        // The walk ends before the game does, so it is a valid opening.
        let mut line = String::new();
        for (i, (p, m)) in positions.iter().zip(&walked).enumerate() {
            if i % 2 == 0 {
                line.push_str(&format!("{}. ", i / 2 + 1));
            }
            line.push_str(&g.format_move(p, *m));
            line.push(' ');
        }
        line.push('*');
        let read = salto::tournament::openings::parse_openings(&g, &line)
            .map_err(|e| format!("opening line {line}: {e}"))?;
        if read.len() != 1 || read[0].moves != walked || read[0].root != g.start() {
            return Err(format!("opening line {line} reads back differently"));
        }
        Ok(())
    }
}

/// Two positions are the same for every purpose the text can carry: hash,
/// written form and legal moves.
fn same<G: Game>(g: &G, p: &G::Position, q: &G::Position) -> Result<(), String> {
    if g.hash(p) != g.hash(q) {
        return Err("reads back with another hash".into());
    }
    if g.format_fen(p) != g.format_fen(q) || g.format_hub_position(p) != g.format_hub_position(q) {
        return Err("reads back to another text".into());
    }
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    g.generate(p, &mut a);
    g.generate(q, &mut b);
    if a.as_slice() != b.as_slice() {
        return Err("reads back with other legal moves".into());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), ..ProptestConfig::default() })]

    #[test]
    fn position_move_and_opening_parsers_never_panic(text in texty(), seed in any::<u64>()) {
        for o in option_sets() {
            dispatch(&o, NoPanic { text: &text, seed }).expect("a game");
        }
    }

    #[test]
    fn what_salto_writes_reads_back(seed in any::<u64>(), plies in 0usize..80) {
        for o in option_sets() {
            let r = dispatch(&o, RoundTrip { seed, plies }).expect("a game");
            prop_assert!(r.is_ok(), "{:?} seed {seed}: {}", o, r.unwrap_err());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(512), ..ProptestConfig::default() })]

    #[test]
    fn option_values_never_panic(name in prop_oneof![
        Just("variant".to_string()), Just("players".to_string()), Just("sets".to_string()),
        Just("draw-moves".to_string()), Just("max-moves".to_string()),
        Just("turkish-promotion".to_string()), Just("notation".to_string()),
        Just("foreign-corners".to_string()), Just("unused-corners".to_string()),
        Just("spoiling".to_string()), any::<String>()],
        value in texty()) {
        let mut o = Options::default();
        if o.set_known(&name, &value).is_ok() {
            let _ = o.validate();
        }
        let _ = value.parse::<Variant>();
        let _ = value.parse::<salto::search::multi::Algorithm>();
    }

    #[test]
    fn hub_command_lines_never_panic(line in prop_oneof![
        any::<String>(),
        "(hub|init|pos|level|go|set-param|ping|stop)( [a-z\\-]{1,8}(=(\"[^\"]{0,10}\"?|[0-9a-z.,e+\\-]{0,8}))?){0,4}",
    ]) {
        let _ = parse_line(&line);
        let _ = salto::protocol::line_event(line.as_bytes());
        let _ = salto::tournament::engine::HubLine::parse(&line);
    }

    #[test]
    fn match_runner_arguments_never_panic(text in prop_oneof![
        any::<String>(),
        "((cmd|args|name|dir|depth|nodes|movetime|tc|param\\.x)=(\"[^\"]{0,8}\"?|[0-9a-z.+:\\-]{0,8}) ?){0,5}",
        "[0-9.:+,a-z=\\-]{0,20}",
    ], players in 2usize..7) {
        let _ = EngineSpec::parse(&text);
        let _ = TimeControl::parse_clock(&text);
        let _ = Adjudication::parse(&text);
        let _ = PointsScheme::parse(&text, players);
        let _ = Sprt::parse(&text);
    }
}

#[test]
fn the_protocol_reader_takes_arbitrary_bytes() {
    // Bytes that are not UTF-8 are an error, not a panic.
    proptest!(ProptestConfig { cases: cases(256), ..ProptestConfig::default() },
    |(bytes in proptest::collection::vec(any::<u8>(), 0..200))| {
        let _ = salto::protocol::line_event(&bytes);
    });
}
