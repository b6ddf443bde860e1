//! Runs the crate's generator through the public `Game` API only (Hub
//! position strings in, Hub move text and position strings out), so that a
//! reference generator can be compared with it move set by move set.

use super::{RefMove, parse_hub_move};
use salto::{Game, GameVisitor, MoveList, Options, dispatch};

/// One legal move as the crate sees it: the move, and the Hub position
/// string after it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Outcome {
    pub mv: RefMove,
    pub after: String,
}

struct Probe<'a> {
    positions: &'a [String],
}

impl GameVisitor for Probe<'_> {
    type Output = Result<Vec<Vec<Outcome>>, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let mut all = Vec::with_capacity(self.positions.len());
        for text in self.positions {
            let pos = game
                .parse_hub_position(text)
                .map_err(|e| format!("crate rejects position {text}: {e}"))?;
            let back = game.format_hub_position(&pos);
            if &back != text {
                return Err(format!(
                    "position string round trip: {text} came back as {back}"
                ));
            }
            let mut list = MoveList::new();
            game.generate(&pos, &mut list);
            if game.count_moves(&pos) != list.len() as u64 {
                return Err(format!("count_moves differs from generate in {text}"));
            }
            let mut out = Vec::with_capacity(list.len());
            for &mv in list.iter() {
                let s = game.format_move(&pos, mv);
                let parsed = game
                    .parse_move(&pos, &s)
                    .map_err(|e| format!("crate cannot parse its own move {s} in {text}: {e}"))?;
                if parsed != mv {
                    return Err(format!("move text {s} parses to another move in {text}"));
                }
                let next = game.play(&pos, mv);
                if game.hash(&next) != game.hash_from_scratch(&next) {
                    return Err(format!("incremental hash wrong after {s} in {text}"));
                }
                out.push(Outcome {
                    mv: parse_hub_move(&s)?,
                    after: game.format_hub_position(&next),
                });
            }
            out.sort();
            all.push(out);
        }
        Ok(all)
    }
}

/// The crate's moves (with the position after each) for every position.
pub fn crate_outcomes(opts: &Options, positions: &[String]) -> Result<Vec<Vec<Outcome>>, String> {
    dispatch(opts, Probe { positions }).map_err(|e| e.to_string())?
}

/// Compares the reference's outcomes with the crate's for every position;
/// returns a description of the first few disagreements.
pub fn compare(
    opts: &Options,
    positions: &[String],
    fens: &[String],
    reference: &[Vec<Outcome>],
) -> Result<(), String> {
    let got = crate_outcomes(opts, positions)?;
    let mut report = String::new();
    let mut bad = 0;
    for i in 0..positions.len() {
        if got[i] == reference[i] {
            continue;
        }
        bad += 1;
        if bad > 5 {
            continue;
        }
        let missing: Vec<String> = reference[i]
            .iter()
            .filter(|o| !got[i].contains(o))
            .map(|o| format!("{} -> {}", o.mv.hub_text(), o.after))
            .collect();
        let extra: Vec<String> = got[i]
            .iter()
            .filter(|o| !reference[i].contains(o))
            .map(|o| format!("{} -> {}", o.mv.hub_text(), o.after))
            .collect();
        report.push_str(&format!(
            "\nposition {i}: {}\n  fen {}\n  missing in the crate: {missing:?}\n  extra in the crate: {extra:?}\n",
            positions[i], fens[i]
        ));
    }
    if bad == 0 {
        Ok(())
    } else {
        Err(format!(
            "{bad} of {} positions disagree:{report}",
            positions.len()
        ))
    }
}
