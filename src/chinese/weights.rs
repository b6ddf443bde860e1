//! The weights of the chinese checkers evaluation ([`super::eval`]): the
//! terms, the hand weights, the shipped file `weights/chinese.txt` and its
//! text form. Below both the evaluation and the position (which holds a
//! weight vector), so that neither names the other for them.

use crate::game::Score;

/// The value of one hole of distance, in centi-men.
pub const STEP: Score = 10;

/// The sum of tip distances of a completely filled corner (0 + 2*1 + 3*2 + 4*3).
pub const HOME_DISTANCE: i32 = 20;
/// Holes of penalty per hole the last peg trails beyond the slack.
pub const STRAGGLER: i32 = 1;
/// How far (holes) the last peg may trail the set's mean distance for free.
pub const STRAGGLER_SLACK: i32 = 3;
/// Holes of penalty per peg in the start corner, per hole the set's mean
/// distance is below [`LEFT_HOME_FROM`] (capped at [`LEFT_HOME_MAX`] steps).
pub const LEFT_HOME: i32 = 1;
pub const LEFT_HOME_FROM: i32 = 12;
pub const LEFT_HOME_MAX: i32 = 6;
/// Holes of penalty per swappable blocker in the target corner.
pub const BLOCK_SWAP: i32 = 1;
/// Holes of penalty per blocker that cannot be swapped out.
pub const BLOCK_HARD: i32 = 6;
/// Holes of bonus per other peg filling the target under `spoiling=fill`.
pub const FILL_BONUS: i32 = 3;
/// Holes of penalty per peg standing in another player's target corner
/// under `spoiling=swap`.
pub const SWAP_EXPOSED: i32 = 2;

/// The terms of the evaluation, in the order of a weight vector.
pub const TERMS: usize = 7;
/// Their names, as `salto train --variant chinese` prints them.
pub const TERM_NAMES: [&str; TERMS] = [
    "distance",
    "straggler",
    "left-home",
    "block-swap",
    "block-hard",
    "fill",
    "swap-exposed",
];
/// The hand weights (centi-men per unit of each term): the constants above
/// times [`STEP`]. A set's badness is the weights times its term counts
/// ([`Chinese::player_terms`]): the holes of distance, the holes a
/// straggler trails beyond the slack, pegs left home times the holes the
/// set has moved on (capped), swappable and hard blockers in the target
/// corner, other pegs filling it (a bonus: a negative weight) and pegs
/// exposed to a swap.
pub const HAND: [i32; TERMS] = [
    STEP,
    STEP * STRAGGLER,
    STEP * LEFT_HOME,
    STEP * BLOCK_SWAP,
    STEP * BLOCK_HARD,
    -STEP * FILL_BONUS,
    STEP * SWAP_EXPOSED,
];

/// The shipped weights (`weights/chinese.txt`, embedded).
const SHIPPED_TEXT: &str = include_str!("../../weights/chinese.txt");

/// The default weights: those of `weights/chinese.txt` (a unit test reads
/// the file, so a bad one cannot ship; [`HAND`] if it could not be read).
pub fn shipped() -> &'static [i32; TERMS] {
    static W: once_cell::sync::Lazy<[i32; TERMS]> = once_cell::sync::Lazy::new(|| {
        parse_weights(SHIPPED_TEXT).unwrap_or_else(|e| {
            log::error!("weights/chinese.txt: {e}; using the hand weights");
            HAND
        })
    });
    &W
}

/// Weights from text: one `name value` line per term of [`TERM_NAMES`]
/// (integers, centi-men per unit), `#` starts a comment; every term once.
pub fn parse_weights(text: &str) -> Result<[i32; TERMS], String> {
    let mut w = [None; TERMS];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut it = line.split_whitespace();
        let (Some(name), Some(v), None) = (it.next(), it.next(), it.next()) else {
            return Err(format!("line {}: expected 'name value'", n + 1));
        };
        let k = TERM_NAMES.iter().position(|t| *t == name).ok_or_else(|| {
            format!(
                "line {}: no term named '{name}' (the terms: {})",
                n + 1,
                TERM_NAMES.join(", ")
            )
        })?;
        let v: i32 = v
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= 10_000)
            .ok_or_else(|| format!("line {}: bad value '{v}' for {name}", n + 1))?;
        if w[k].replace(v).is_some() {
            return Err(format!("line {}: {name} given twice", n + 1));
        }
    }
    let mut out = [0; TERMS];
    for (k, v) in w.iter().enumerate() {
        out[k] = v.ok_or_else(|| format!("no weight for {}", TERM_NAMES[k]))?;
    }
    Ok(out)
}

/// The text form that [`parse_weights`] reads.
pub fn format_weights(w: &[i32; TERMS]) -> String {
    let mut s = String::new();
    for (name, v) in TERM_NAMES.iter().zip(w) {
        s.push_str(&format!("{name} {v}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped weights file reads, and the text form round-trips; a
    /// bad file says what is wrong.
    #[test]
    fn the_weights_file_reads_and_bad_ones_are_refused() {
        let w = parse_weights(SHIPPED_TEXT).expect("weights/chinese.txt");
        assert_eq!(&w, shipped());
        assert_eq!(parse_weights(&format_weights(&HAND)), Ok(HAND));
        let text = format_weights(&HAND);
        let missing = text.replace("fill -30\n", "");
        assert!(parse_weights(&missing).unwrap_err().contains("fill"));
        let twice = format!("{text}straggler 3\n");
        assert!(parse_weights(&twice).unwrap_err().contains("twice"));
        assert!(
            parse_weights("distance ten")
                .unwrap_err()
                .contains("bad value")
        );
        assert!(parse_weights("speed 3").unwrap_err().contains("no term"));
        assert!(
            parse_weights("distance 1 2")
                .unwrap_err()
                .contains("expected")
        );
    }
}
