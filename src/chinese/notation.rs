//! Text forms: moves (`from-to`, `from*to`, `pass`), the 122-character Hub
//! position string of protocol.md, the readable FEN-like form and a board
//! diagram.
//!
//! The FEN-like form is `P:aHOLES:dHOLES:xHOLES`: the number (1-6) of the
//! player to move, then one field per set that has pegs (its start corner's
//! letter, lower case) and one for neutral pegs (`x`), each with a comma list
//! of holes and ranges, e.g. the 2-player start `1:a1-10:d112-121`. Holes are
//! numbered as in notation.md. Letters are accepted in either case, fields
//! in any order, and a letter may appear only once.

use super::board::{BOARD, Bits, CORNER_LETTERS, HOLES, bit};
use super::position::{Chinese, Move, MoveKind, Position};
use crate::game::{MoveList, ParseError, ParseResult};

/// The Hub character of each set's pegs.
const SET_CHARS: [char; 6] = ['a', 'b', 'c', 'd', 'e', 'f'];

/// `from-to`, `from*to` or `pass`, holes numbered from 1.
pub(super) fn format_move(mv: Move) -> String {
    match mv.kind {
        MoveKind::Pass => "pass".to_string(),
        MoveKind::Normal => format!("{}-{}", mv.from as usize + 1, mv.to as usize + 1),
        MoveKind::Swap => format!("{}*{}", mv.from as usize + 1, mv.to as usize + 1),
    }
}

/// Parses a move and matches it against the legal moves. `-` and `*`
/// are both accepted as separators (a start and an end hole identify a
/// move); the engine writes `*` for swaps.
pub(super) fn parse_move(g: &Chinese, pos: &Position, text: &str) -> ParseResult<Move> {
    let t = text.trim();
    let mut legal = MoveList::new();
    super::movegen::generate(g, pos, &mut legal);
    if legal.is_empty() {
        return Err(ParseError(format!(
            "move '{t}': the game is over, no move is legal"
        )));
    }
    if t.eq_ignore_ascii_case("pass") {
        return if legal[0].kind == MoveKind::Pass {
            Ok(Move::PASS)
        } else {
            Err(ParseError(format!(
                "move 'pass': player {} has legal moves and may not pass",
                pos.to_move + 1
            )))
        };
    }
    let (a, b) = t
        .split_once(['-', '*'])
        .ok_or_else(|| ParseError(format!("move '{t}': expected from-to, from*to or pass")))?;
    let hole = |s: &str| -> ParseResult<usize> {
        match s.trim().parse::<usize>() {
            Ok(n) if (1..=HOLES).contains(&n) => Ok(n - 1),
            _ => Err(ParseError(format!(
                "move '{t}': '{s}' is not a hole number from 1 to {HOLES}"
            ))),
        }
    };
    let (from, to) = (hole(a)?, hole(b)?);
    legal
        .iter()
        .copied()
        .find(|m| m.kind != MoveKind::Pass && m.from as usize == from && m.to as usize == to)
        .ok_or_else(|| {
            let why = match g.set_at(pos, from) {
                None => format!("there is no peg on hole {}", from + 1),
                Some(c) if g.owner[c] != pos.to_move => format!(
                    "the peg on hole {} is not player {}'s",
                    from + 1,
                    pos.to_move + 1
                ),
                Some(_) => format!("the peg on hole {} cannot reach hole {}", from + 1, to + 1),
            };
            ParseError(format!("move '{t}' is illegal: {why}"))
        })
}

/// Checks pegs read from text: every set in play, at most ten pegs per set.
fn check_pegs(g: &Chinese, sets: &[u128; 6], to_move: usize) -> ParseResult<()> {
    for c in 0..6 {
        if sets[c] != 0 && g.owner[c] == super::position::NO_PLAYER {
            return Err(ParseError(format!(
                "pegs '{}' on hole {}: corner {} is not in play with {} players and {} set(s) each",
                SET_CHARS[c],
                sets[c].trailing_zeros() + 1,
                CORNER_LETTERS[c],
                g.players,
                g.sets
            )));
        }
        if sets[c].count_ones() > 10 {
            return Err(ParseError(format!(
                "set '{}' has {} pegs; a set has at most 10",
                SET_CHARS[c],
                sets[c].count_ones()
            )));
        }
    }
    if to_move >= g.players as usize {
        return Err(ParseError(format!(
            "player to move {} does not exist: there are {} players",
            to_move + 1,
            g.players
        )));
    }
    Ok(())
}

fn player_digit(g: &Chinese, ch: char) -> ParseResult<usize> {
    match ch.to_digit(10) {
        Some(d) if (1..=g.players as u32).contains(&d) => Ok(d as usize - 1),
        _ => Err(ParseError(format!(
            "player to move '{ch}': expected a number from 1 to {}",
            g.players
        ))),
    }
}

/// Parses the Hub position string: the number of the player to move,
/// then one character per hole 1..121 (`.` empty, `a`..`f` a peg of the
/// set from that corner, `x` a neutral peg).
pub(super) fn parse_hub(g: &Chinese, text: &str) -> ParseResult<Position> {
    let t = text.trim();
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != HOLES + 1 {
        return Err(ParseError(format!(
            "chinese position string has {} characters; expected {} (the player to move, then one per hole)",
            chars.len(),
            HOLES + 1
        )));
    }
    let to_move = player_digit(g, chars[0])?;
    let mut sets = [0u128; 6];
    let mut neutral = 0u128;
    for (i, &ch) in chars[1..].iter().enumerate() {
        match ch {
            '.' => {}
            'x' | 'X' => neutral |= bit(i),
            'a'..='f' => sets[ch as usize - 'a' as usize] |= bit(i),
            _ => {
                return Err(ParseError(format!(
                    "hole {}: unknown character '{ch}' (expected '.', 'a'..'f' or 'x')",
                    i + 1
                )));
            }
        }
    }
    check_pegs(g, &sets, to_move)?;
    Ok(g.make_position(sets, neutral, to_move))
}

/// The Hub position string.
pub(super) fn format_hub(g: &Chinese, pos: &Position) -> String {
    let mut s = String::with_capacity(HOLES + 1);
    s.push(char::from(b'1' + pos.to_move));
    for h in 0..HOLES {
        let b = bit(h);
        s.push(if pos.neutral & b != 0 {
            'x'
        } else if let Some(c) = g.set_at(pos, h) {
            SET_CHARS[c]
        } else {
            '.'
        });
    }
    s
}

/// Parses the FEN-like form (see the module documentation).
pub(super) fn parse_fen(g: &Chinese, text: &str) -> ParseResult<Position> {
    let t = text.trim();
    let mut fields = t.split(':');
    let first = fields.next().unwrap_or("").trim();
    let mut fc = first.chars();
    let to_move = match (fc.next(), fc.next()) {
        (Some(ch), None) => player_digit(g, ch)?,
        _ => {
            return Err(ParseError(format!(
                "chinese FEN '{t}': expected the player to move (1-{}) before the first ':'",
                g.players
            )));
        }
    };
    let mut sets = [0u128; 6];
    let mut neutral = 0u128;
    let mut seen = [false; 7];
    let mut all = 0u128;
    for field in fields {
        let field = field.trim();
        let mut cs = field.chars();
        let letter = cs.next().map(|c| c.to_ascii_lowercase());
        let idx = match letter {
            Some(l @ 'a'..='f') => l as usize - 'a' as usize,
            Some('x') => 6,
            _ => {
                return Err(ParseError(format!(
                    "chinese FEN field '{field}': expected a set letter a-f or x, then holes"
                )));
            }
        };
        if seen[idx] {
            return Err(ParseError(format!(
                "chinese FEN: the pegs '{}' are listed twice",
                field.chars().next().unwrap_or('?')
            )));
        }
        seen[idx] = true;
        let mut mask = 0u128;
        let rest = cs.as_str().trim();
        if !rest.is_empty() {
            for item in rest.split(',') {
                let hole = |s: &str| -> ParseResult<usize> {
                    match s.trim().parse::<usize>() {
                        Ok(n) if (1..=HOLES).contains(&n) => Ok(n - 1),
                        _ => Err(ParseError(format!(
                            "chinese FEN field '{field}': '{}' is not a hole number from 1 to {HOLES}",
                            s.trim()
                        ))),
                    }
                };
                let (lo, hi) = match item.split_once('-') {
                    Some((a, b)) => (hole(a)?, hole(b)?),
                    None => {
                        let h = hole(item)?;
                        (h, h)
                    }
                };
                if lo > hi {
                    return Err(ParseError(format!(
                        "chinese FEN field '{field}': range {}-{} runs backwards",
                        lo + 1,
                        hi + 1
                    )));
                }
                for h in lo..=hi {
                    if (all | mask) & bit(h) != 0 {
                        return Err(ParseError(format!(
                            "chinese FEN: hole {} holds two pegs",
                            h + 1
                        )));
                    }
                    mask |= bit(h);
                }
            }
        }
        all |= mask;
        if idx == 6 {
            neutral = mask;
        } else {
            sets[idx] = mask;
        }
    }
    check_pegs(g, &sets, to_move)?;
    Ok(g.make_position(sets, neutral, to_move))
}

/// The FEN-like form: `P:a...:b...:x...`, holes in ranges.
pub(super) fn format_fen(pos: &Position) -> String {
    let mut s = format!("{}", pos.to_move + 1);
    let fields = pos
        .sets
        .iter()
        .enumerate()
        .map(|(c, &m)| (SET_CHARS[c], m))
        .chain(std::iter::once(('x', pos.neutral)));
    for (ch, m) in fields {
        if m == 0 {
            continue;
        }
        s.push(':');
        s.push(ch);
        let holes: Vec<usize> = Bits(m).collect();
        let mut i = 0;
        let mut first = true;
        while i < holes.len() {
            let mut j = i;
            while j + 1 < holes.len() && holes[j + 1] == holes[j] + 1 {
                j += 1;
            }
            if !first {
                s.push(',');
            }
            first = false;
            if j > i {
                s.push_str(&format!("{}-{}", holes[i] + 1, holes[j] + 1));
            } else {
                s.push_str(&format!("{}", holes[i] + 1));
            }
            i = j + 1;
        }
    }
    s
}

impl Chinese {
    /// A text diagram of the star, one character per hole (as in the Hub
    /// string), rows as in notation.md, with the player to move on top.
    pub fn diagram(&self, pos: &Position) -> String {
        let hub: Vec<char> = format_hub(self, pos).chars().collect();
        let mut out = format!("player {} to move\n", pos.to_move + 1);
        let mut h = 0;
        while h < HOLES {
            let r = BOARD.coord[h].1;
            let start = h;
            while h < HOLES && BOARD.coord[h].1 == r {
                h += 1;
            }
            // Column of a hole: 2q + r, shifted so the leftmost hole is at 0.
            let col0 = 2 * BOARD.coord[start].0 as i32 + r as i32 + 12;
            let mut line = " ".repeat(col0.max(0) as usize);
            for (k, i) in (start..h).enumerate() {
                if k > 0 {
                    line.push(' ');
                }
                line.push(hub[i + 1]);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_of_the_start_is_a_star() {
        let g = Chinese::with_players(2, 1).unwrap();
        let d = g.diagram(&crate::game::Game::start(&g));
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[1], "            a");
        assert_eq!(lines[5], ". . . . . . . . . . . . .");
        assert_eq!(lines[17], "            d");
    }
}
