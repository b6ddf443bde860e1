//! Toy games for testing the generic search against values computed by
//! brute force.
//!
//! * [`Line`]: men on a line of cells. A man steps to an adjacent empty
//!   cell (only forward when `one_way`) or jumps an adjacent enemy man onto
//!   the empty cell beyond, removing it; capturing is compulsory; a player
//!   without a legal move loses. One-way games are acyclic and always
//!   decisive, so their exact value (win in n plies) is computable.
//! * [`Graph`]: an explicit graph of positions with a fixed side to move and
//!   a static value each: for draws by repetition and by move count.

#![allow(dead_code)]

use salto::game::zobrist;
use salto::{Game, MoveList, Outcome, ParseError, ParseResult, Score};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

pub const MAX_CELLS: usize = 16;
static KEYS: [u64; 2 * MAX_CELLS + 1] = zobrist::keys(0x5EA2C4);

/// Counts static evaluations of positions with a capture pending (must stay
/// 0: such positions are searched on, never evaluated).
pub static UNSTABLE_EVALS: AtomicU64 = AtomicU64::new(0);

#[derive(Clone, Copy, Debug)]
pub struct Line {
    pub cells: usize,
    pub one_way: bool,
    /// Draw after this many plies without a capture (0: never).
    pub draw_plies: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinePos {
    /// 0 empty, 1 a man of player 0, 2 a man of player 1.
    pub cells: [u8; MAX_CELLS],
    pub side: u8,
    pub rev: u32,
    pub hash: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct LineMove {
    pub from: u8,
    pub to: u8,
    /// The captured cell, or 255.
    pub cap: u8,
}

impl Line {
    pub fn pos(&self, text: &str, side: u8) -> LinePos {
        let mut p = LinePos {
            cells: [0; MAX_CELLS],
            side,
            rev: 0,
            hash: 0,
        };
        for (i, c) in text.chars().enumerate() {
            p.cells[i] = match c {
                'w' => 1,
                'b' => 2,
                _ => 0,
            };
        }
        p.hash = self.hash_from_scratch(&p);
        p
    }

    fn dirs(&self, side: u8) -> &'static [isize] {
        if !self.one_way {
            &[1, -1]
        } else if side == 0 {
            &[1]
        } else {
            &[-1]
        }
    }

    fn captures(&self, pos: &LinePos, out: &mut MoveList<LineMove>) {
        let me = pos.side + 1;
        let n = self.cells as isize;
        for i in 0..n {
            if pos.cells[i as usize] != me {
                continue;
            }
            for &d in self.dirs(pos.side) {
                let (a, b) = (i + d, i + 2 * d);
                if b >= 0
                    && b < n
                    && pos.cells[a as usize] != 0
                    && pos.cells[a as usize] != me
                    && pos.cells[b as usize] == 0
                {
                    out.push(LineMove {
                        from: i as u8,
                        to: b as u8,
                        cap: a as u8,
                    });
                }
            }
        }
    }
}

impl Game for Line {
    type Position = LinePos;
    type Move = LineMove;

    fn name(&self) -> &'static str {
        "line"
    }

    fn descriptor(&self) -> &'static salto::game::Descriptor {
        &salto::game::descriptor::OTHER
    }
    fn start(&self) -> LinePos {
        self.pos("ww....bb", 0)
    }
    fn to_move(&self, pos: &LinePos) -> usize {
        pos.side as usize
    }
    fn generate(&self, pos: &LinePos, out: &mut MoveList<LineMove>) {
        self.captures(pos, out);
        if !out.is_empty() {
            return;
        }
        let me = pos.side + 1;
        let n = self.cells as isize;
        for i in 0..n {
            if pos.cells[i as usize] != me {
                continue;
            }
            for &d in self.dirs(pos.side) {
                let a = i + d;
                if a >= 0 && a < n && pos.cells[a as usize] == 0 {
                    out.push(LineMove {
                        from: i as u8,
                        to: a as u8,
                        cap: 255,
                    });
                }
            }
        }
    }
    fn play(&self, pos: &LinePos, mv: LineMove) -> LinePos {
        let mut p = pos.clone();
        let me = pos.side + 1;
        let (f, t) = (mv.from as usize, mv.to as usize);
        p.cells[f] = 0;
        p.cells[t] = me;
        p.hash ^= KEYS[2 * f + pos.side as usize] ^ KEYS[2 * t + pos.side as usize];
        if mv.cap != 255 {
            let c = mv.cap as usize;
            let other = p.cells[c] - 1;
            p.cells[c] = 0;
            p.hash ^= KEYS[2 * c + other as usize];
            p.rev = 0;
        } else if self.one_way {
            p.rev = 0;
        } else {
            p.rev += 1;
        }
        p.side ^= 1;
        p.hash ^= KEYS[2 * MAX_CELLS];
        p
    }
    fn hash(&self, pos: &LinePos) -> u64 {
        pos.hash
    }
    fn hash_from_scratch(&self, pos: &LinePos) -> u64 {
        let mut h = if pos.side == 1 {
            KEYS[2 * MAX_CELLS]
        } else {
            0
        };
        for i in 0..self.cells {
            if pos.cells[i] != 0 {
                h ^= KEYS[2 * i + (pos.cells[i] - 1) as usize];
            }
        }
        h
    }
    fn is_noisy(&self, _pos: &LinePos, mv: LineMove) -> bool {
        mv.cap != 255
    }
    fn is_unstable(&self, pos: &LinePos) -> bool {
        let mut l = MoveList::new();
        self.captures(pos, &mut l);
        !l.is_empty()
    }
    fn outcome(&self, pos: &LinePos) -> Option<Outcome> {
        (self.draw_plies > 0 && pos.rev >= self.draw_plies).then_some(Outcome::Draw)
    }
    fn reversible_plies(&self, pos: &LinePos) -> u32 {
        pos.rev
    }
    fn evaluate(&self, pos: &LinePos) -> Score {
        if self.is_unstable(pos) {
            UNSTABLE_EVALS.fetch_add(1, Ordering::Relaxed);
        }
        let mut s = 0;
        for i in 0..self.cells {
            match pos.cells[i] {
                1 => s += 100 + 3 * i as Score,
                2 => s -= 100 + 3 * (self.cells - 1 - i) as Score,
                _ => {}
            }
        }
        if pos.side == 0 { s } else { -s }
    }
    fn parse_move(&self, pos: &LinePos, text: &str) -> ParseResult<LineMove> {
        let mut l = MoveList::new();
        self.generate(pos, &mut l);
        l.iter()
            .copied()
            .find(|&m| self.format_move(pos, m) == text)
            .ok_or_else(|| ParseError::new(format!("illegal move {text}")))
    }
    fn format_move(&self, _pos: &LinePos, mv: LineMove) -> String {
        let sep = if mv.cap != 255 { 'x' } else { '-' };
        format!("{}{}{}", mv.from, sep, mv.to)
    }
    fn parse_fen(&self, text: &str) -> ParseResult<LinePos> {
        Ok(self.pos(text, 0))
    }
    fn format_fen(&self, pos: &LinePos) -> String {
        pos.cells[..self.cells]
            .iter()
            .map(|&c| ['.', 'w', 'b'][c as usize])
            .collect()
    }
    fn parse_hub_position(&self, text: &str) -> ParseResult<LinePos> {
        self.parse_fen(text)
    }
    fn format_hub_position(&self, pos: &LinePos) -> String {
        self.format_fen(pos)
    }
}

/// The exact value of a one-way line position by exhaustive search:
/// `SCORE_WIN - n` for a win in n plies, `-(SCORE_WIN - n)` for a loss.
pub fn line_exact(game: &Line, pos: &LinePos, memo: &mut HashMap<LinePos, Score>) -> Score {
    assert!(game.one_way && game.draw_plies == 0);
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let mut l = MoveList::new();
    game.generate(pos, &mut l);
    let v = if l.is_empty() {
        -salto::game::SCORE_WIN
    } else {
        l.iter()
            .map(|&m| {
                let c = line_exact(game, &game.play(pos, m), memo);
                if c > 0 { -c + 1 } else { -c - 1 }
            })
            .max()
            .unwrap_or(0)
    };
    memo.insert(pos.clone(), v);
    v
}

/// An explicit game graph. Node `i` has `side[i]` to move, the moves
/// `edges[i]`, and the static value `value[i]` for player 0. A node without
/// edges is lost by its player to move.
#[derive(Clone, Copy, Debug)]
pub struct Graph {
    pub side: &'static [u8],
    pub edges: &'static [&'static [u8]],
    pub value: &'static [Score],
    pub draw_plies: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphPos {
    pub node: u8,
    pub rev: u32,
}

impl Graph {
    pub fn at(&self, node: u8, rev: u32) -> GraphPos {
        GraphPos { node, rev }
    }
}

impl Game for Graph {
    type Position = GraphPos;
    type Move = u8;
    fn name(&self) -> &'static str {
        "graph"
    }

    fn descriptor(&self) -> &'static salto::game::Descriptor {
        &salto::game::descriptor::OTHER
    }
    fn start(&self) -> GraphPos {
        self.at(0, 0)
    }
    fn to_move(&self, pos: &GraphPos) -> usize {
        self.side[pos.node as usize] as usize
    }
    fn generate(&self, pos: &GraphPos, out: &mut MoveList<u8>) {
        for &e in self.edges[pos.node as usize] {
            out.push(e);
        }
    }
    fn play(&self, pos: &GraphPos, mv: u8) -> GraphPos {
        GraphPos {
            node: mv,
            rev: pos.rev + 1,
        }
    }
    fn hash(&self, pos: &GraphPos) -> u64 {
        KEYS[pos.node as usize]
    }
    fn hash_from_scratch(&self, pos: &GraphPos) -> u64 {
        KEYS[pos.node as usize]
    }
    fn is_noisy(&self, _: &GraphPos, _: u8) -> bool {
        false
    }
    fn is_unstable(&self, _: &GraphPos) -> bool {
        false
    }
    fn outcome(&self, pos: &GraphPos) -> Option<Outcome> {
        (self.draw_plies > 0 && pos.rev >= self.draw_plies).then_some(Outcome::Draw)
    }
    fn reversible_plies(&self, pos: &GraphPos) -> u32 {
        pos.rev
    }
    fn evaluate(&self, pos: &GraphPos) -> Score {
        let v = self.value[pos.node as usize];
        if self.to_move(pos) == 0 { v } else { -v }
    }
    fn parse_move(&self, _: &GraphPos, text: &str) -> ParseResult<u8> {
        text.parse().map_err(|_| ParseError::new("bad node"))
    }
    fn format_move(&self, _: &GraphPos, mv: u8) -> String {
        mv.to_string()
    }
    fn parse_fen(&self, text: &str) -> ParseResult<GraphPos> {
        Ok(self.at(text.parse().map_err(|_| ParseError::new("bad node"))?, 0))
    }
    fn format_fen(&self, pos: &GraphPos) -> String {
        pos.node.to_string()
    }
    fn parse_hub_position(&self, text: &str) -> ParseResult<GraphPos> {
        self.parse_fen(text)
    }
    fn format_hub_position(&self, pos: &GraphPos) -> String {
        self.format_fen(pos)
    }
}

/// A deterministic pseudo-random one-way line position with `men` men a
/// side spread over `cells` cells.
pub fn random_line(game: &Line, seed: u64, men: usize) -> LinePos {
    let mut state = seed;
    loop {
        let mut text = vec!['.'; game.cells];
        let mut placed = [0, 0];
        while placed[0] + placed[1] < 2 * men {
            let r = zobrist::splitmix64(&mut state);
            let i = (r % game.cells as u64) as usize;
            let who = if placed[0] < men { 0 } else { 1 };
            if text[i] == '.' {
                text[i] = ['w', 'b'][who];
                placed[who] += 1;
            }
        }
        let s: String = text.into_iter().collect();
        let side = (zobrist::splitmix64(&mut state) & 1) as u8;
        let p = game.pos(&s, side);
        let mut l = MoveList::new();
        game.generate(&p, &mut l);
        if l.len() >= 2 {
            return p;
        }
    }
}
