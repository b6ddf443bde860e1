//! Choosing a game at run time: the variant name and options as the protocol
//! and the command line give them, and the one place where a name becomes a
//! monomorphised [`Game`].

use crate::game::{Game, ParseError, ParseResult};
use std::fmt;
use std::str::FromStr;

/// The games Salto plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    International,
    Brazilian,
    English,
    Spanish,
    Turkish,
    Hex,
    Chinese,
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::International,
        Variant::Brazilian,
        Variant::English,
        Variant::Spanish,
        Variant::Turkish,
        Variant::Hex,
        Variant::Chinese,
    ];

    /// The canonical name (the protocol's, with `normal` for international
    /// accepted on input).
    pub fn name(self) -> &'static str {
        match self {
            Variant::International => "international",
            Variant::Brazilian => "brazilian",
            Variant::English => "english",
            Variant::Spanish => "spanish",
            Variant::Turkish => "turkish",
            Variant::Hex => "hex",
            Variant::Chinese => "chinese",
        }
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
        Ok(match lower.as_str() {
            "normal" | "international" | "10x10" => Variant::International,
            "brazilian" => Variant::Brazilian,
            "english" | "american" | "checkers" => Variant::English,
            "spanish" => Variant::Spanish,
            "turkish" => Variant::Turkish,
            "hex" | "hexagonal" => Variant::Hex,
            "chinese" => Variant::Chinese,
            _ => {
                return Err(ParseError(format!(
                    "unknown variant '{s}' (expected one of: normal international brazilian english spanish turkish hex chinese)"
                )));
            }
        })
    }
}

/// A choice among a few named values, parsed case-insensitively.
macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($var),+ }
        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub fn name(self) -> &'static str { match self { $($name::$var => $text),+ } }
        }
        impl FromStr for $name {
            type Err = ParseError;
            fn from_str(s: &str) -> ParseResult<Self> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($text => Ok($name::$var),)+
                    _ => Err(ParseError(format!(
                        "bad value '{}' (expected one of: {})", s, Self::NAMES.join(" ")))),
                }
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }
    };
}

named_enum!(
    /// Turkish promotion: at the end of the move, or at once mid-capture.
    TurkishPromotion { End = "end", Immediate = "immediate" }
);
named_enum!(
    /// How squares are printed: numbers, or algebraic (brazilian, turkish).
    Notation { Numeric = "numeric", Algebraic = "algebraic" }
);
named_enum!(
    /// Chinese checkers: may a peg end its move in a foreign corner?
    ForeignCorners { Pass = "pass", Stop = "stop" }
);
named_enum!(
    /// Chinese checkers: what the corners no one plays hold.
    UnusedCorners { Empty = "empty", Filled = "filled" }
);
named_enum!(
    /// Chinese checkers: the rule against pegs that block a target corner.
    Spoiling { Swap = "swap", Fill = "fill", None = "none" }
);

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
    /// Draughts: the evaluation (`eval`, `eval-file`).
    pub eval: crate::draughts::weights::EvalChoice,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::International,
            turkish_promotion: TurkishPromotion::End,
            notation: Notation::Numeric,
            draw_moves: None,
            players: 2,
            sets: 1,
            foreign_corners: ForeignCorners::Pass,
            unused_corners: UnusedCorners::Empty,
            spoiling: Spoiling::Swap,
            max_moves: 0,
            eval: Default::default(),
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
            "eval" | "eval-file" => {
                self.eval = crate::learn::parse_eval(self.variant, name.trim(), value)?
            }
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
            match (self.players, self.sets) {
                (2, 1) | (3, 1) | (4, 1) | (6, 1) | (3, 2) | (2, 3) => {}
                (p, s) => {
                    return Err(ParseError(format!(
                        "chinese checkers cannot be played by {p} players with {s} sets each (players 2, 3, 4 or 6 with sets=1; players=3 sets=2; players=2 sets=3)"
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Code that runs on any game: implement `visit` once, generically, and
/// [`dispatch`] monomorphises it for the game the options select.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

/// Builds the game the options select and hands it to `visitor`.
pub fn dispatch<V: GameVisitor>(opts: &Options, visitor: V) -> ParseResult<V::Output> {
    use crate::draughts::{
        Brazilian, Draughts, English, Hex, International, Spanish, Turkish, TurkishImmediate,
    };
    opts.validate()?;
    match opts.variant {
        Variant::International => Ok(visitor.visit(Draughts::<International>::new(opts))),
        Variant::Brazilian => Ok(visitor.visit(Draughts::<Brazilian>::new(opts))),
        Variant::English => Ok(visitor.visit(Draughts::<English>::new(opts))),
        Variant::Spanish => Ok(visitor.visit(Draughts::<Spanish>::new(opts))),
        Variant::Turkish => Ok(match opts.turkish_promotion {
            TurkishPromotion::End => visitor.visit(Draughts::<Turkish>::new(opts)),
            TurkishPromotion::Immediate => visitor.visit(Draughts::<TurkishImmediate>::new(opts)),
        }),
        Variant::Hex => Ok(visitor.visit(Draughts::<Hex>::new(opts))),
        Variant::Chinese => Ok(visitor.visit(crate::chinese::Chinese::new(opts)?)),
    }
}
