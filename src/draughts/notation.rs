//! Text forms of the draughts family (notation.md, protocol.md): square
//! numbers and algebraic names, move text, PDN FEN and the Hub position
//! string. Every parse returns a `Result` whose message says what is wrong
//! and where.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::movegen;
use super::position::{Bb, Move, Position};
use super::rules::{HubLayout, Numbering, Rules};
use crate::game::{MoveList, ParseError, ParseResult};

type G<R> = <R as Rules>::Geo;

/// The square number (notation.md) of internal square `sq`.
pub fn number_of_square<R: Rules>(sq: usize) -> usize {
    match R::NUMBERING {
        Numbering::ReadingOrder => sq + 1,
        Numbering::FromA1 => {
            let (f, r) = G::<R>::coords(sq);
            1 + (0..G::<R>::SQUARES)
                .filter(|&t| {
                    let (tf, tr) = G::<R>::coords(t);
                    (tr, tf) < (r, f)
                })
                .count()
        }
    }
}

/// The internal square of square number `n`, if there is one.
pub fn square_of_number<R: Rules>(n: usize) -> Option<usize> {
    if n == 0 || n > G::<R>::SQUARES {
        return None;
    }
    match R::NUMBERING {
        Numbering::ReadingOrder => Some(n - 1),
        Numbering::FromA1 => (0..G::<R>::SQUARES).find(|&t| number_of_square::<R>(t) == n),
    }
}

/// The algebraic name (`a1`) of internal square `sq`.
pub fn algebraic_name<R: Rules>(sq: usize) -> String {
    let (f, r) = G::<R>::coords(sq);
    format!("{}{}", (b'a' + f) as char, r + 1)
}

/// The text of the square at bit `bit`: its number, or its algebraic name
/// when `algebraic` is set and the variant has algebraic names.
pub fn square_text<R: Rules>(bit: u32, algebraic: bool) -> String {
    match G::<R>::square_of_bit(bit) {
        Some(sq) if algebraic && R::ALGEBRAIC => algebraic_name::<R>(sq),
        Some(sq) => number_of_square::<R>(sq).to_string(),
        None => format!("?{bit}"),
    }
}

/// Parses one square: a number, or (where the variant allows it) an
/// algebraic name. Returns the internal index.
pub fn parse_square<R: Rules>(text: &str) -> ParseResult<usize> {
    let t = text.trim();
    let n = G::<R>::SQUARES;
    if !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()) {
        return t
            .parse::<usize>()
            .ok()
            .and_then(square_of_number::<R>)
            .ok_or_else(|| {
                ParseError(format!(
                    "square {t} is not on the {} board (squares are 1-{n})",
                    R::NAME
                ))
            });
    }
    if R::ALGEBRAIC {
        let b = t.as_bytes();
        if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1..].iter().all(|c| c.is_ascii_digit()) {
            let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
            let rank = t[1..].parse::<u8>().ok().and_then(|r| r.checked_sub(1));
            if let Some(rank) = rank
                && file < G::<R>::FILES
                && rank < G::<R>::RANKS
            {
                return (0..n)
                    .find(|&s| G::<R>::coords(s) == (file, rank))
                    .ok_or_else(|| {
                        ParseError(format!(
                            "square {t} is a light square, not a playing square"
                        ))
                    });
            }
            return Err(ParseError(format!(
                "square {t} is not on the {} board (files a-{}, ranks 1-{})",
                R::NAME,
                (b'a' + G::<R>::FILES - 1) as char,
                G::<R>::RANKS
            )));
        }
        return Err(ParseError(format!(
            "'{t}' is not a square (expected a number 1-{n} or a name like a1)"
        )));
    }
    Err(ParseError(format!(
        "'{t}' is not a square (expected a number 1-{n})"
    )))
}

/// The bit of internal square `sq`.
fn bit<R: Rules>(sq: usize) -> u32 {
    G::<R>::SQUARE_BIT[sq] as u32
}

/// Builds a position from its pieces after checking it: no man on its own
/// promotion row, no more pieces than a player starts with.
pub fn checked_position<R: Rules>(
    white: Bb<R>,
    black: Bb<R>,
    kings: Bb<R>,
    side: u8,
) -> ParseResult<Position<Bb<R>>> {
    let names = ["white", "black"];
    for (s, pieces) in [white, black].into_iter().enumerate() {
        let men_on_far_row = pieces & !kings & G::<R>::PROMOTION[s];
        if let Some(b) = men_on_far_row.iter().next() {
            return Err(ParseError(format!(
                "a {} man stands on square {}, its own promotion row (it would have been crowned)",
                names[s],
                square_text::<R>(b, false)
            )));
        }
        let (lo, hi) = R::START[s];
        let max = hi - lo;
        if pieces.count() as usize > max {
            return Err(ParseError(format!(
                "{} has {} pieces; a player has at most {max} in {}",
                names[s],
                pieces.count(),
                R::NAME
            )));
        }
    }
    Ok(Position::new(white, black, kings, side))
}

/// Parses a PDN FEN such as `W:W31-50:B1-20` or `B:WK4,21-32:B1,2,K7`.
pub fn parse_fen<R: Rules>(text: &str) -> ParseResult<Position<Bb<R>>> {
    let mut t = text.trim();
    if let Some(inner) = t.strip_prefix("[FEN").and_then(|r| r.strip_suffix(']')) {
        t = inner.trim();
    }
    t = t.trim_matches('"').trim();
    t = t.strip_suffix('.').unwrap_or(t).trim();
    if t.is_empty() {
        return Err(ParseError::new(
            "empty FEN (expected something like W:W31-50:B1-20)",
        ));
    }
    let mut parts = t.split(':');
    let side_text = parts.next().unwrap_or("").trim();
    let side = match side_text {
        "W" | "w" => 0u8,
        "B" | "b" => 1u8,
        _ => {
            return Err(ParseError(format!(
                "FEN '{text}': the first field '{side_text}' must be W or B (the player to move)"
            )));
        }
    };
    let mut pieces = [Bb::<R>::ZERO; 2];
    let mut kings = Bb::<R>::ZERO;
    let mut seen = [false; 2];
    for part in parts {
        let part = part.trim();
        let mut chars = part.chars();
        let color = match chars.next() {
            Some('W') | Some('w') => 0usize,
            Some('B') | Some('b') => 1usize,
            Some(c) => {
                return Err(ParseError(format!(
                    "FEN '{text}': field '{part}' must start with W or B, not '{c}'"
                )));
            }
            None => return Err(ParseError(format!("FEN '{text}': empty field between ':'"))),
        };
        if seen[color] {
            return Err(ParseError(format!(
                "FEN '{text}': the {} pieces are listed twice",
                ["white", "black"][color]
            )));
        }
        seen[color] = true;
        for item in chars.as_str().split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (king, sq_text) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest.trim()),
                None => (false, item),
            };
            let squares: Vec<usize> = match sq_text.split_once('-') {
                Some((a, b)) => {
                    let a = parse_square::<R>(a)
                        .map_err(|e| ParseError(format!("FEN '{text}': {e}")))?;
                    let b = parse_square::<R>(b)
                        .map_err(|e| ParseError(format!("FEN '{text}': {e}")))?;
                    let (na, nb) = (number_of_square::<R>(a), number_of_square::<R>(b));
                    if na > nb {
                        return Err(ParseError(format!(
                            "FEN '{text}': range '{sq_text}' runs backwards"
                        )));
                    }
                    (na..=nb).filter_map(square_of_number::<R>).collect()
                }
                None => vec![
                    parse_square::<R>(sq_text)
                        .map_err(|e| ParseError(format!("FEN '{text}': {e}")))?,
                ],
            };
            for sq in squares {
                let b = Bb::<R>::bit(bit::<R>(sq));
                if ((pieces[0] | pieces[1]) & b).any() {
                    return Err(ParseError(format!(
                        "FEN '{text}': square {} is given twice",
                        number_of_square::<R>(sq)
                    )));
                }
                pieces[color] |= b;
                if king {
                    kings |= b;
                }
            }
        }
    }
    checked_position::<R>(pieces[0], pieces[1], kings, side)
}

/// The position as PDN FEN, with ranges for runs of men.
pub fn format_fen<R: Rules>(pos: &Position<Bb<R>>, algebraic: bool) -> String {
    let mut out = String::from(if pos.side == 0 { "W" } else { "B" });
    for (s, letter) in [(0usize, 'W'), (1usize, 'B')] {
        out.push(':');
        out.push(letter);
        // squares in number order
        let mut items: Vec<(usize, bool, u32)> = pos.pieces[s]
            .iter()
            .filter_map(|b| {
                G::<R>::square_of_bit(b).map(|sq| (number_of_square::<R>(sq), pos.kings.has(b), b))
            })
            .collect();
        items.sort();
        let mut texts = Vec::new();
        let mut i = 0;
        while i < items.len() {
            let (n, king, b) = items[i];
            if king || algebraic {
                texts.push(format!(
                    "{}{}",
                    if king { "K" } else { "" },
                    square_text::<R>(b, algebraic)
                ));
                i += 1;
                continue;
            }
            let mut j = i;
            while j + 1 < items.len() && !items[j + 1].1 && items[j + 1].0 == items[j].0 + 1 {
                j += 1;
            }
            if j >= i + 2 {
                texts.push(format!("{n}-{}", items[j].0));
            } else {
                for it in &items[i..=j] {
                    texts.push(it.0.to_string());
                }
            }
            i = j + 1;
        }
        out.push_str(&texts.join(","));
    }
    out
}

/// Parses the Hub `pos=` string (protocol.md, "Positions").
pub fn parse_hub<R: Rules>(text: &str) -> ParseResult<Position<Bb<R>>> {
    let t = text.trim();
    let n = G::<R>::SQUARES;
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != n + 1 {
        return Err(ParseError(format!(
            "position string has {} characters; {} needs {} (the player to move, then {n} squares)",
            chars.len(),
            R::NAME,
            n + 1
        )));
    }
    let swap = R::HUB_LAYOUT == HubLayout::FirstMoverView;
    let side = match chars[0] {
        'W' | 'w' => 0u8,
        'B' | 'b' => 1u8,
        c => {
            return Err(ParseError(format!(
                "position string: the first character '{c}' must be W or B (the player to move)"
            )));
        }
    };
    let side = if swap { 1 - side } else { side };
    let mut pieces = [Bb::<R>::ZERO; 2];
    let mut kings = Bb::<R>::ZERO;
    for (i, &c) in chars[1..].iter().enumerate() {
        let sq = if swap { n - 1 - i } else { i };
        let (color, king) = match c {
            'w' => (0usize, false),
            'W' => (0, true),
            'b' => (1, false),
            'B' => (1, true),
            'e' | '.' => continue,
            _ => {
                return Err(ParseError(format!(
                    "position string: character {} is '{c}'; expected w, b, W, B or e",
                    i + 2
                )));
            }
        };
        let color = if swap { 1 - color } else { color };
        let b = Bb::<R>::bit(bit::<R>(sq));
        pieces[color] |= b;
        if king {
            kings |= b;
        }
    }
    checked_position::<R>(pieces[0], pieces[1], kings, side)
}

/// The position as a Hub `pos=` string.
pub fn format_hub<R: Rules>(pos: &Position<Bb<R>>) -> String {
    let n = G::<R>::SQUARES;
    let swap = R::HUB_LAYOUT == HubLayout::FirstMoverView;
    let side = if swap { 1 - pos.side } else { pos.side };
    let mut out = String::with_capacity(n + 1);
    out.push(if side == 0 { 'W' } else { 'B' });
    for i in 0..n {
        let sq = if swap { n - 1 - i } else { i };
        let b = bit::<R>(sq);
        let king = pos.kings.has(b);
        let color = if pos.pieces[0].has(b) {
            0
        } else if pos.pieces[1].has(b) {
            1
        } else {
            out.push('e');
            continue;
        };
        let color = if swap { 1 - color } else { color };
        out.push(match (color, king) {
            (0, false) => 'w',
            (0, true) => 'W',
            (_, false) => 'b',
            (_, true) => 'B',
        });
    }
    out
}

/// The move in Hub form: `32-28`, or `28x19x23` (from, to, then every
/// captured square in number order).
pub fn format_move<R: Rules>(mv: &Move<Bb<R>>, algebraic: bool) -> String {
    let sq = |b: u32| square_text::<R>(b, algebraic);
    if mv.captured.is_empty() {
        return format!("{}-{}", sq(mv.from as u32), sq(mv.to as u32));
    }
    let mut caps: Vec<(usize, u32)> = mv
        .captured
        .iter()
        .map(|b| (G::<R>::square_of_bit(b).map_or(0, number_of_square::<R>), b))
        .collect();
    caps.sort();
    let mut out = format!("{}x{}", sq(mv.from as u32), sq(mv.to as u32));
    for (_, b) in caps {
        out.push('x');
        out.push_str(&sq(b));
    }
    out
}

/// The move in the short form (`28x19`) when no other legal move has the
/// same ends, else the Hub long form.
pub fn format_move_short<R: Rules>(
    pos: &Position<Bb<R>>,
    mv: &Move<Bb<R>>,
    algebraic: bool,
) -> String {
    if mv.captured.is_empty() {
        return format_move::<R>(mv, algebraic);
    }
    let mut list = MoveList::new();
    movegen::generate::<R>(pos, &mut list);
    let same_ends = list
        .iter()
        .filter(|m| m.from == mv.from && m.to == mv.to)
        .count();
    if same_ends <= 1 {
        let sq = |b: u32| square_text::<R>(b, algebraic);
        format!("{}x{}", sq(mv.from as u32), sq(mv.to as u32))
    } else {
        format_move::<R>(mv, algebraic)
    }
}

/// The squares strictly between bits `a` and `b` if they lie on one line,
/// walking from `a`.
fn between<R: Rules>(a: u32, b: u32) -> Option<Bb<R>> {
    let target = Bb::<R>::bit(b);
    for d in 0..G::<R>::DIRS.len() {
        let mut cur = G::<R>::step(Bb::<R>::bit(a), d);
        let mut seen = Bb::<R>::ZERO;
        while cur.any() {
            if cur == target {
                return Some(seen);
            }
            seen |= cur;
            cur = G::<R>::step(cur, d);
        }
    }
    None
}

/// True when a capture can follow the landing squares `path` (from, the
/// intermediate landings, to): each leg lies on one line and jumps exactly
/// one captured piece, and the legs together take all of them.
fn path_fits<R: Rules>(path: &[u32], captured: Bb<R>) -> bool {
    if path.len() < 2 || path.len() - 1 != captured.count() as usize {
        return false;
    }
    let mut taken = Bb::<R>::ZERO;
    for w in path.windows(2) {
        match between::<R>(w[0], w[1]) {
            Some(mid) => {
                let jumped = mid & captured;
                if jumped.count() != 1 || (jumped & taken).any() {
                    return false;
                }
                taken |= jumped;
            }
            None => return false,
        }
    }
    taken == captured
}

/// Parses move text against the legal moves of `pos`: `32-28`, the Hub long
/// form `28x19x23` (captured squares in any order), the short `28x19` when
/// unambiguous, or a PDN path `28x17x19` of landing squares.
pub fn parse_move<R: Rules>(pos: &Position<Bb<R>>, text: &str) -> ParseResult<Move<Bb<R>>> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ParseError::new("empty move"));
    }
    let is_capture = t.contains(['x', 'X', ':']);
    let seps: &[char] = if is_capture { &['x', 'X', ':'] } else { &['-'] };
    if is_capture && t.contains('-') {
        return Err(ParseError(format!(
            "move '{t}' mixes '-' and 'x' (write 32-28 or 28x19x23)"
        )));
    }
    let mut squares = Vec::new();
    for part in t.split(seps) {
        if part.is_empty() {
            return Err(ParseError(format!("move '{t}': a square is missing")));
        }
        let sq = parse_square::<R>(part).map_err(|e| ParseError(format!("move '{t}': {e}")))?;
        squares.push(bit::<R>(sq));
    }
    if squares.len() < 2 {
        return Err(ParseError(format!(
            "move '{t}' needs at least two squares (like 32-28 or 28x19)"
        )));
    }
    if !is_capture && squares.len() != 2 {
        return Err(ParseError(format!(
            "quiet move '{t}' must have two squares (like 32-28)"
        )));
    }
    let mut list = MoveList::new();
    movegen::generate::<R>(pos, &mut list);
    let (from, to) = (squares[0], *squares.last().unwrap_or(&squares[0]));
    let legal_text = || {
        let mut v: Vec<String> = list.iter().map(|m| format_move::<R>(m, false)).collect();
        v.sort();
        v.join(" ")
    };
    if !is_capture {
        return list
            .iter()
            .find(|m| m.captured.is_empty() && m.from as u32 == from && m.to as u32 == to)
            .copied()
            .ok_or_else(|| {
                ParseError(format!(
                    "illegal move '{t}' (legal moves: {})",
                    legal_text()
                ))
            });
    }
    // Hub long form: from, to, captured squares.
    if squares.len() > 2 {
        let mut caps = Bb::<R>::ZERO;
        for &b in &squares[2..] {
            caps |= Bb::<R>::bit(b);
        }
        if let Some(m) = list.iter().find(|m| {
            m.from as u32 == squares[0] && m.to as u32 == squares[1] && m.captured == caps
        }) {
            return Ok(*m);
        }
    }
    // Short form or PDN landing path.
    let candidates: Vec<Move<Bb<R>>> = list
        .iter()
        .filter(|m| m.captured.any() && m.from as u32 == from && m.to as u32 == to)
        .filter(|m| squares.len() == 2 || path_fits::<R>(&squares, m.captured))
        .copied()
        .collect();
    match candidates.len() {
        1 => Ok(candidates[0]),
        0 => Err(ParseError(format!(
            "illegal move '{t}' (legal moves: {})",
            legal_text()
        ))),
        _ => {
            let mut v: Vec<String> = candidates
                .iter()
                .map(|m| format_move::<R>(m, false))
                .collect();
            v.sort();
            Err(ParseError(format!(
                "ambiguous move '{t}': it could be {} (give the captured squares)",
                v.join(" or ")
            )))
        }
    }
}
