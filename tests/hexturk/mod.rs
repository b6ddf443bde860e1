//! Test support for turkish and hexagonal draughts: two reference move
//! generators written for clarity, not speed, that share no code with the
//! crate, and random position generators for comparing them with the fast
//! generator on move sets.
//!
//! Both references work on plain arrays of squares and plain coordinates,
//! search captures recursively and de-duplicate moves by (from, to, captured
//! set) with a sort. Squares are the numbers of notation.md.

#![allow(dead_code)]

pub mod compare;
pub mod hex_ref;
pub mod turkish_ref;

/// A piece on a reference board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub white: bool,
    pub king: bool,
}

impl Piece {
    pub const WM: Piece = Piece {
        white: true,
        king: false,
    };
    pub const WK: Piece = Piece {
        white: true,
        king: true,
    };
    pub const BM: Piece = Piece {
        white: false,
        king: false,
    };
    pub const BK: Piece = Piece {
        white: false,
        king: true,
    };

    /// The letter of the Hub position strings: w, b, W, B.
    pub fn hub_letter(self) -> char {
        match (self.white, self.king) {
            (true, false) => 'w',
            (true, true) => 'W',
            (false, false) => 'b',
            (false, true) => 'B',
        }
    }
}

/// A move of a reference generator, in notation.md's square numbers. Two
/// moves are the same move when from, to and the captured set agree, so the
/// captured squares are kept sorted.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: usize,
    pub to: usize,
    pub captured: Vec<usize>,
}

impl RefMove {
    pub fn quiet(from: usize, to: usize) -> Self {
        RefMove {
            from,
            to,
            captured: Vec::new(),
        }
    }

    /// The move as the Hub writes it: `from-to`, or `fromxtoxc1xc2...` with
    /// every captured square.
    pub fn hub_text(&self) -> String {
        if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            let mut s = format!("{}x{}", self.from, self.to);
            for c in &self.captured {
                s.push_str(&format!("x{c}"));
            }
            s
        }
    }
}

/// Parses Hub move text (`a-b`, `axb`, `axbxc...`) into a move with its
/// captured squares sorted: from, to, then the captured squares.
pub fn parse_hub_move(text: &str) -> Result<RefMove, String> {
    let sep = if text.contains('x') { 'x' } else { '-' };
    let parts: Vec<usize> = text
        .split(sep)
        .map(|p| {
            p.trim()
                .parse::<usize>()
                .map_err(|e| format!("bad move '{text}': {e}"))
        })
        .collect::<Result<_, _>>()?;
    if parts.len() < 2 || (sep == '-' && parts.len() != 2) {
        return Err(format!("bad move '{text}'"));
    }
    let mut captured = parts[2..].to_vec();
    captured.sort_unstable();
    Ok(RefMove {
        from: parts[0],
        to: parts[1],
        captured,
    })
}

/// Sorts moves and removes the ones that are the same move.
pub fn sort_dedup(mut moves: Vec<RefMove>) -> Vec<RefMove> {
    for m in &mut moves {
        m.captured.sort_unstable();
    }
    moves.sort();
    moves.dedup();
    moves
}

/// Keeps the captures that take the most pieces; with no capture, the list
/// as it is. The maximum capture rule of rules.md.
pub fn keep_maximum(moves: Vec<RefMove>) -> Vec<RefMove> {
    let best = moves.iter().map(|m| m.captured.len()).max().unwrap_or(0);
    moves
        .into_iter()
        .filter(|m| m.captured.len() == best)
        .collect()
}

/// A small fixed-seed generator (xorshift64*), so that a failing random
/// position can be reproduced from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 11) % n as u64) as usize
    }
    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
}
