//! Choosing a game at run time: the variant descriptors (every fact about a
//! variant that the protocol, the command line, the bench and the match
//! runner need, in one table), the options as the protocol and the command
//! line give them, and the one place where a name becomes a monomorphised
//! [`Game`].

use crate::chinese::ChineseOptions;
use crate::draughts::weights::{EvalChoice, Weights};
use crate::draughts::{Draughts, DraughtsOptions, Rules, Turkish, TurkishImmediate};
pub use crate::game::Descriptor;
use crate::game::{Game, ParseError, ParseResult};
use std::fmt;
use std::str::FromStr;

pub use crate::chinese::{ForeignCorners, Spoiling, UnusedCorners};
pub use crate::draughts::{Notation, TurkishPromotion};

/// The registry: one line per game, in the order `hub` lists them.
/// `rules(T)` is a draughts rule set, whose file holds everything about it
/// (`T::DESCRIPTOR`, its weights and book); `custom(f, D)` builds the game
/// with the function `f` and describes it with `D`. The macro makes the
/// enum, [`Variant::ALL`], [`DESCRIPTORS`] and the one dispatcher.
macro_rules! registry {
    ($($v:ident => $kind:ident $args:tt),* $(,)?) => {
        /// The games Salto plays.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $($v),*
        }

        /// One descriptor per variant, in the order of [`Variant`].
        pub static DESCRIPTORS: [&Descriptor; Variant::ALL.len()] =
            [$(registry!(@desc $kind $args)),*];

        impl Variant {
            pub const ALL: [Variant; [$(stringify!($v)),*].len()] = [$(Variant::$v),*];
        }

        /// The rule set the options select, handed to `v`.
        fn dispatch_registered<V: RulesVisitor>(opts: &Options, v: V) -> ParseResult<V::Output> {
            match opts.variant {
                $(Variant::$v => registry!(@rules $kind $args, opts, v),)*
            }
        }
    };
    (@desc rules ($r:ty)) => { <$r as Rules>::DESCRIPTOR };
    (@desc custom ($f:ident, $d:expr)) => { $d };
    (@rules rules ($r:ty), $o:ident, $vis:ident) => { Ok($vis.visit(draughts::<$r>($o))) };
    (@rules custom ($f:ident, $d:expr), $o:ident, $vis:ident) => { $f($o, $vis) };
}

registry! {
    International => rules(crate::draughts::International),
    Brazilian => rules(crate::draughts::Brazilian),
    English => rules(crate::draughts::English),
    Spanish => rules(crate::draughts::Spanish),
    Turkish => custom(turkish, <Turkish as Rules>::DESCRIPTOR),
    Hex => rules(crate::draughts::Hex),
    Russian => rules(crate::draughts::Russian),
    Antidraughts => rules(crate::draughts::Antidraughts),
    Breakthrough => rules(crate::draughts::Breakthrough),
    Chinese => custom(not_draughts, crate::chinese::DESCRIPTOR),
}

/// Turkish: `turkish-promotion` chooses between two rule sets.
fn turkish<V: RulesVisitor>(opts: &Options, v: V) -> ParseResult<V::Output> {
    Ok(match opts.turkish_promotion {
        TurkishPromotion::End => v.visit(draughts::<Turkish>(opts)),
        TurkishPromotion::Immediate => v.visit(draughts::<TurkishImmediate>(opts)),
    })
}

/// Chinese checkers is not a draughts rule set ([`dispatch`] builds it).
fn not_draughts<V: RulesVisitor>(_opts: &Options, _v: V) -> ParseResult<V::Output> {
    Err(ParseError(
        "chinese checkers is not a draughts game: endgame databases and training are for the draughts games (chinese checkers keeps its hand evaluation)".into(),
    ))
}

impl Variant {
    /// The variant's descriptor.
    pub fn descriptor(self) -> &'static Descriptor {
        DESCRIPTORS[self as usize]
    }

    /// The canonical name (the protocol's, with `normal` for international
    /// accepted on input).
    pub fn name(self) -> &'static str {
        self.descriptor().name
    }

    /// The names `variant` accepts, blank-separated, as `hub` lists them.
    pub fn hub_names() -> String {
        let mut names = Vec::new();
        for d in DESCRIPTORS {
            if d.hub_name != d.name {
                names.push(d.hub_name);
            }
            names.push(d.name);
        }
        names.join(" ")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = ParseError;
    fn from_str(s: &str) -> ParseResult<Self> {
        let lower = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| {
                let d = v.descriptor();
                d.name == lower || d.hub_name == lower || d.aliases.contains(&lower.as_str())
            })
            .ok_or_else(|| {
                ParseError(format!(
                    "unknown variant '{s}' (expected one of: {})",
                    Variant::hub_names()
                ))
            })
    }
}

/// Everything that selects a game: the variant and its options. The
/// protocol's `set-param` and the command line's flags fill this in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub variant: Variant,
    pub turkish_promotion: TurkishPromotion,
    pub notation: Notation,
    /// The move-count draw rule in moves by each side; `None` is the
    /// variant's default from rules.md (0 disables the rule).
    pub draw_moves: Option<u32>,
    /// Chinese checkers: 2, 3, 4 or 6.
    pub players: u8,
    /// Chinese checkers: sets per player (1; 2 with 3 players; 3 with 2).
    pub sets: u8,
    pub foreign_corners: ForeignCorners,
    pub unused_corners: UnusedCorners,
    pub spoiling: Spoiling,
    /// Chinese checkers: end the game after this many moves per player
    /// (0 = unlimited).
    pub max_moves: u32,
    /// The evaluation (`eval`, `eval-file`).
    pub eval: EvalSetting,
}

/// The evaluation `set-param name=eval` and `name=eval-file` (or `--eval`
/// and `--eval-file`) select, for any game ([`parse_eval`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalSetting {
    /// The shipped trained weights where there are some, else the hand
    /// evaluation.
    #[default]
    Default,
    /// The hand evaluation (docs/evaluation.md).
    Hand,
    /// A draughts game: pattern weights loaded from a file (one copy per
    /// distinct content, [`crate::draughts::weights::intern`]).
    Draughts(&'static Weights),
    /// Chinese checkers: term weights loaded from a file
    /// (`weights/chinese.txt`'s form).
    Chinese([i32; crate::chinese::weights::TERMS]),
}

impl EvalSetting {
    /// The name of the `eval` parameter's value.
    pub fn name(self) -> &'static str {
        match self {
            EvalSetting::Hand => "hand",
            _ => "default",
        }
    }

    /// What a draughts game evaluates with.
    pub fn draughts(self) -> EvalChoice {
        match self {
            EvalSetting::Hand => EvalChoice::Hand,
            EvalSetting::Draughts(w) => EvalChoice::File(w),
            EvalSetting::Default | EvalSetting::Chinese(_) => EvalChoice::Default,
        }
    }

    /// The term weights chinese checkers evaluates with (`None`: its
    /// defaults).
    pub fn chinese(self) -> Option<[i32; crate::chinese::weights::TERMS]> {
        match self {
            EvalSetting::Hand => Some(crate::chinese::weights::HAND),
            EvalSetting::Chinese(w) => Some(w),
            _ => None,
        }
    }
}

/// The evaluation `set-param name=eval value=default|hand` or
/// `name=eval-file value=PATH` (empty: back to the default) selects for
/// `variant`. A file that cannot be read, is corrupt or does not fit the
/// variant is an error (the caller keeps its current evaluation).
pub fn parse_eval(variant: Variant, name: &str, value: &str) -> ParseResult<EvalSetting> {
    if name.eq_ignore_ascii_case("eval") {
        return match value.to_ascii_lowercase().as_str() {
            "default" => Ok(EvalSetting::Default),
            "hand" => Ok(EvalSetting::Hand),
            _ => Err(ParseError(format!(
                "bad value '{value}' for eval: expected default or hand"
            ))),
        };
    }
    if value.is_empty() {
        return Ok(EvalSetting::Default);
    }
    if variant == Variant::Chinese {
        let text = std::fs::read_to_string(value)
            .map_err(|e| ParseError(format!("cannot read eval-file {value}: {e}")))?;
        let w = crate::chinese::weights::parse_weights(&text)
            .map_err(|e| ParseError(format!("eval-file {value}: {e}")))?;
        return Ok(EvalSetting::Chinese(w));
    }
    let w = Weights::load(std::path::Path::new(value))?;
    struct Check<'a>(&'a Weights);
    impl RulesVisitor for Check<'_> {
        type Output = ParseResult<()>;
        fn visit<R: Rules>(self, _g: Draughts<R>) -> Self::Output {
            self.0.check::<R>()
        }
    }
    dispatch_rules(&Options::new(variant), Check(&w))??;
    Ok(EvalSetting::Draughts(crate::draughts::weights::intern(w)))
}

impl Default for Options {
    fn default() -> Self {
        let (d, c) = (DraughtsOptions::default(), ChineseOptions::default());
        Options {
            variant: Variant::International,
            turkish_promotion: TurkishPromotion::End,
            notation: d.notation,
            draw_moves: d.draw_moves,
            players: c.players,
            sets: c.sets,
            foreign_corners: c.foreign_corners,
            unused_corners: c.unused_corners,
            spoiling: c.spoiling,
            max_moves: c.max_moves,
            eval: EvalSetting::Default,
        }
    }
}

impl Options {
    pub fn new(variant: Variant) -> Self {
        Options {
            variant,
            ..Options::default()
        }
    }

    /// Sets one option by its protocol name (`set-param name=... value=...`).
    /// Returns `Ok(false)` for a name that is not a game option (the caller
    /// decides whether to ignore it), and an error for a bad value.
    pub fn set_known(&mut self, name: &str, value: &str) -> ParseResult<bool> {
        let value = value.trim();
        let number = |v: &str| -> ParseResult<u32> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0 && *x <= 1e6)
                .map(|x| x as u32)
                .ok_or_else(|| {
                    ParseError(format!(
                        "bad value '{v}' for {name}: expected a number from 0 to 1000000"
                    ))
                })
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "variant" => self.variant = value.parse()?,
            "turkish-promotion" => self.turkish_promotion = value.parse()?,
            "notation" => self.notation = value.parse()?,
            "draw-moves" => self.draw_moves = Some(number(value)?),
            "players" => {
                self.players = match value {
                    "2" | "3" | "4" | "6" => number(value)? as u8,
                    _ => {
                        return Err(ParseError(format!(
                            "bad value '{value}' for players: expected 2, 3, 4 or 6"
                        )));
                    }
                }
            }
            "sets" => {
                self.sets = match value {
                    "1" | "2" | "3" => number(value)? as u8,
                    _ => {
                        return Err(ParseError(format!(
                            "bad value '{value}' for sets: expected 1, 2 or 3"
                        )));
                    }
                }
            }
            "foreign-corners" => self.foreign_corners = value.parse()?,
            "unused-corners" => self.unused_corners = value.parse()?,
            "spoiling" => self.spoiling = value.parse()?,
            "max-moves" => self.max_moves = number(value)?,
            "eval" | "eval-file" => self.eval = parse_eval(self.variant, name.trim(), value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Like [`Options::set_known`], but an unknown name is an error.
    pub fn set(&mut self, name: &str, value: &str) -> ParseResult<()> {
        if self.set_known(name, value)? {
            Ok(())
        } else {
            Err(ParseError(format!("unknown option '{name}'")))
        }
    }

    /// Checks the combination of options (for example 4 players with 2
    /// sets is not a game).
    pub fn validate(&self) -> ParseResult<()> {
        if self.variant == Variant::Chinese {
            crate::chinese::Chinese::new(self.chinese())?;
        }
        Ok(())
    }

    /// A note for the host when the game evaluates with less than it
    /// would expect: a draughts rule set asked for its default evaluation
    /// that ships no trained weights plays with the hand evaluation
    /// (`init` sends it as `info message=...`).
    pub fn evaluation_note(&self) -> Option<String> {
        if self.eval != EvalSetting::Default {
            return None;
        }
        struct Trained;
        impl RulesVisitor for Trained {
            type Output = bool;
            fn visit<R: Rules>(self, game: Draughts<R>) -> bool {
                game.weights.is_some()
            }
        }
        match dispatch_registered(self, Trained) {
            Ok(false) => Some(format!(
                "{} has no trained weights yet: the hand evaluation plays (docs/evaluation.md)",
                self.variant.name()
            )),
            _ => None,
        }
    }

    /// The options of a draughts game.
    pub fn draughts(&self) -> DraughtsOptions {
        DraughtsOptions {
            draw_moves: self.draw_moves,
            notation: self.notation,
            eval: self.eval.draughts(),
        }
    }

    /// The options of chinese checkers.
    pub fn chinese(&self) -> ChineseOptions {
        ChineseOptions {
            players: self.players,
            sets: self.sets,
            foreign_corners: self.foreign_corners,
            unused_corners: self.unused_corners,
            spoiling: self.spoiling,
            max_moves: self.max_moves,
            weights: self.eval.chinese(),
        }
    }

    /// The value of one option by its protocol name, as `set-param` takes
    /// it (`draw-moves` is the variant's default when not set).
    pub fn value(&self, name: &str) -> Option<String> {
        Some(match name {
            "variant" => self.variant.descriptor().hub_name.to_string(),
            "turkish-promotion" => self.turkish_promotion.to_string(),
            "notation" => self.notation.to_string(),
            "draw-moves" => self
                .draw_moves
                .unwrap_or(self.variant.descriptor().draw_moves)
                .to_string(),
            "players" => self.players.to_string(),
            "sets" => self.sets.to_string(),
            "foreign-corners" => self.foreign_corners.to_string(),
            "unused-corners" => self.unused_corners.to_string(),
            "spoiling" => self.spoiling.to_string(),
            "max-moves" => self.max_moves.to_string(),
            "eval" => self.eval.name().to_string(),
            _ => return None,
        })
    }
}

impl From<&Options> for DraughtsOptions {
    fn from(o: &Options) -> Self {
        o.draughts()
    }
}

impl From<&Options> for ChineseOptions {
    fn from(o: &Options) -> Self {
        o.chinese()
    }
}

/// Code that runs on any game: implement `visit` once, generically, and
/// [`dispatch`] monomorphises it for the game the options select.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

/// The draughts game of rule set `R` with the options' settings and its
/// endgame database ([`crate::egdb::Egdb`], which the search consults when
/// `egdb-path`/`egdb-pieces` or the standard place turn it on).
fn draughts<R: Rules>(opts: &Options) -> Draughts<R> {
    let game = Draughts::<R>::new(opts.draughts());
    if R::DESCRIPTOR.endgame_databases {
        game.with_tablebase(crate::egdb::Egdb::<R>::HANDLE)
    } else {
        game
    }
}

/// Builds the game the options select and hands it to `visitor`.
pub fn dispatch<V: GameVisitor>(opts: &Options, visitor: V) -> ParseResult<V::Output> {
    opts.validate()?;
    if opts.variant == Variant::Chinese {
        return Ok(visitor.visit(crate::chinese::Chinese::new(opts.chinese())?));
    }
    /// A game visitor run on a draughts rule set's game.
    struct AsGame<V>(V);
    impl<V: GameVisitor> RulesVisitor for AsGame<V> {
        type Output = V::Output;
        fn visit<R: Rules>(self, game: Draughts<R>) -> V::Output {
            self.0.visit(game)
        }
    }
    dispatch_registered(opts, AsGame(visitor))
}

/// Code that runs on a draughts rule set, not only on the [`Game`]
/// interface (the endgame databases, the learning tools): implement
/// `visit` once and [`dispatch_rules`] runs it for the rule set the
/// options select, with its game.
pub trait RulesVisitor {
    type Output;
    fn visit<R: Rules>(self, game: Draughts<R>) -> Self::Output;
}

/// Builds the draughts game the options select and hands it to `visitor`;
/// an error for chinese checkers, which is not a draughts game.
pub fn dispatch_rules<V: RulesVisitor>(opts: &Options, v: V) -> ParseResult<V::Output> {
    opts.validate()?;
    dispatch_registered(opts, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_are_in_variant_order_and_named_like_their_games() {
        struct Name;
        impl GameVisitor for Name {
            type Output = &'static str;
            fn visit<G: Game>(self, game: G) -> &'static str {
                game.name()
            }
        }
        for v in Variant::ALL {
            let d = v.descriptor();
            assert_eq!(dispatch(&Options::new(v), Name), Ok(d.name));
            assert_eq!(d.hub_name.parse::<Variant>(), Ok(v));
            for a in d.aliases {
                assert_eq!(a.parse::<Variant>(), Ok(v));
            }
        }
        assert_eq!(
            Variant::hub_names(),
            "normal international brazilian english spanish turkish hex russian antidraughts breakthrough chinese"
        );
    }

    #[test]
    fn init_says_so_exactly_for_the_games_without_trained_weights() {
        // The games added last, antidraughts and breakthrough, have none
        // yet; every other draughts game ships weights that load.
        let untrained = [Variant::Antidraughts, Variant::Breakthrough];
        for v in Variant::ALL {
            let mut o = Options::new(v);
            if untrained.contains(&v) {
                let note = o.evaluation_note().unwrap_or_default();
                assert!(
                    note.starts_with(&format!("{v} has no trained weights yet")),
                    "{v}: {note}"
                );
            } else {
                assert_eq!(o.evaluation_note(), None, "{v}");
            }
            if v != Variant::Chinese {
                // The hand evaluation is asked for, not a fallback: no note.
                o.eval = EvalSetting::Hand;
                assert_eq!(o.evaluation_note(), None, "{v}");
            }
        }
    }
}
