//! Learning the pattern evaluation from self-play: the data format
//! ([`data`]), the self-play generator ([`datagen`]) and the trainer
//! ([`train`]). docs/training.md describes them and the rounds run.

pub mod chinese;
pub mod data;
pub mod datagen;
pub mod train;

use crate::draughts::rules::Rules;
use crate::draughts::weights::{EvalChoice, Weights};
use crate::draughts::{
    Brazilian, Draughts, English, Hex, International, Spanish, Turkish, TurkishImmediate,
};
use crate::game::ParseError;
use crate::variant::{Options, TurkishPromotion, Variant};

/// Code that runs on a draughts rule set (the learning tools work on the
/// rule set, not only on the [`crate::game::Game`] interface).
pub trait RulesVisitor {
    type Output;
    fn visit<R: Rules>(self, game: Draughts<R>) -> Self::Output;
}

/// Builds the draughts game the options select and hands it to `visitor`;
/// an error for games the learning tools do not handle.
pub fn dispatch_rules<V: RulesVisitor>(opts: &Options, v: V) -> Result<V::Output, ParseError> {
    opts.validate()?;
    Ok(match opts.variant {
        Variant::International => v.visit(Draughts::<International>::new(opts)),
        Variant::Brazilian => v.visit(Draughts::<Brazilian>::new(opts)),
        Variant::English => v.visit(Draughts::<English>::new(opts)),
        Variant::Spanish => v.visit(Draughts::<Spanish>::new(opts)),
        Variant::Turkish => match opts.turkish_promotion {
            TurkishPromotion::End => v.visit(Draughts::<Turkish>::new(opts)),
            TurkishPromotion::Immediate => v.visit(Draughts::<TurkishImmediate>::new(opts)),
        },
        Variant::Hex => v.visit(Draughts::<Hex>::new(opts)),
        Variant::Chinese => {
            return Err(ParseError(
                "the learning tools handle the draughts games only (chinese checkers keeps its hand evaluation)".into(),
            ));
        }
    })
}

/// The indices in `known` of `names` (for `--freeze`); an error names the
/// first unknown one and lists `known`, called `what`.
pub fn name_indices(names: &[String], known: &[&str], what: &str) -> Result<Vec<usize>, String> {
    names
        .iter()
        .map(|name| {
            known.iter().position(|n| n == name).ok_or_else(|| {
                format!(
                    "--freeze: no {what} named '{name}' (the {what}s: {})",
                    known.join(", ")
                )
            })
        })
        .collect()
}

/// The evaluation `set-param name=eval value=default|hand` or
/// `name=eval-file value=PATH` (empty: back to the default) selects for
/// `variant`. A file that cannot be read, is corrupt or does not fit the
/// variant is an error (the caller keeps its current evaluation).
pub fn parse_eval(variant: Variant, name: &str, value: &str) -> Result<EvalChoice, ParseError> {
    if name.eq_ignore_ascii_case("eval") {
        return match value.to_ascii_lowercase().as_str() {
            "default" => Ok(EvalChoice::Default),
            "hand" => Ok(EvalChoice::Hand),
            _ => Err(ParseError(format!(
                "bad value '{value}' for eval: expected default or hand"
            ))),
        };
    }
    if value.is_empty() {
        return Ok(EvalChoice::Default);
    }
    if variant == Variant::Chinese {
        let text = std::fs::read_to_string(value)
            .map_err(|e| ParseError(format!("cannot read eval-file {value}: {e}")))?;
        let w = crate::chinese::eval::parse_weights(&text)
            .map_err(|e| ParseError(format!("eval-file {value}: {e}")))?;
        return Ok(EvalChoice::Terms(w));
    }
    let w = Weights::load(std::path::Path::new(value))?;
    struct Check<'a>(&'a Weights);
    impl RulesVisitor for Check<'_> {
        type Output = Result<(), ParseError>;
        fn visit<R: Rules>(self, _g: Draughts<R>) -> Self::Output {
            self.0.check::<R>()
        }
    }
    dispatch_rules(&Options::new(variant), Check(&w))??;
    Ok(EvalChoice::File(crate::draughts::weights::intern(w)))
}
