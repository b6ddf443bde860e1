//! A reference move generator for Turkish draughts (rules.md, "Turkish
//! draughts"): an 8x8 array of (file, rank), a recursive capture search that
//! removes each captured piece at once and forbids the 180-degree turn, the
//! maximum capture rule applied at the end. Squares are numbered from a1
//! (notation.md): n = 1 + file + 8 * rank.

use super::{Piece, RefMove, Rng, keep_maximum, sort_dedup};

pub const SQUARES: usize = 64;

/// Up, down, right, left as (dfile, drank).
pub const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

pub fn square(file: i32, rank: i32) -> Option<usize> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((1 + file + 8 * rank) as usize)
    } else {
        None
    }
}

pub fn file_rank(n: usize) -> (i32, i32) {
    (((n - 1) % 8) as i32, ((n - 1) / 8) as i32)
}

pub fn step(n: usize, d: (i32, i32)) -> Option<usize> {
    let (f, r) = file_rank(n);
    square(f + d.0, r + d.1)
}

/// The algebraic name of square `n`, e.g. 1 -> "a1".
pub fn algebraic(n: usize) -> String {
    let (f, r) = file_rank(n);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

pub fn is_promotion_square(n: usize, white: bool) -> bool {
    let (_, r) = file_rank(n);
    if white { r == 7 } else { r == 0 }
}

/// Promotion: at the end of the move (default) or at once mid-capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    End,
    Immediate,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurkPos {
    pub squares: [Option<Piece>; SQUARES],
    pub white_to_move: bool,
}

/// A capture route before de-duplication: the move, and whether the piece
/// ends it as a king (immediate promotion crowns mid-capture).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Route {
    pub mv: RefMove,
    pub ends_king: bool,
}

impl TurkPos {
    pub fn empty(white_to_move: bool) -> Self {
        TurkPos {
            squares: [None; SQUARES],
            white_to_move,
        }
    }

    /// White men on ranks 2-3, Black men on ranks 6-7, White to move.
    pub fn start() -> Self {
        let mut p = TurkPos::empty(true);
        for n in 9..=24 {
            p.squares[n - 1] = Some(Piece::WM);
        }
        for n in 41..=56 {
            p.squares[n - 1] = Some(Piece::BM);
        }
        p
    }

    pub fn at(&self, n: usize) -> Option<Piece> {
        self.squares[n - 1]
    }

    /// The 65-character Hub position string: side, then a8..h8, a7..h7, ...,
    /// a1..h1.
    pub fn hub(&self) -> String {
        let mut s = String::with_capacity(65);
        s.push(if self.white_to_move { 'W' } else { 'B' });
        for rank in (0..8).rev() {
            for file in 0..8 {
                let n = square(file, rank).unwrap();
                s.push(self.at(n).map_or('e', Piece::hub_letter));
            }
        }
        s
    }

    /// PDN FEN in square numbers, e.g. `W:W9,10,K11:B41`.
    pub fn fen(&self) -> String {
        let side = |white: bool| {
            let list: Vec<String> = (1..=SQUARES)
                .filter_map(|n| match self.at(n) {
                    Some(p) if p.white == white => Some(if p.king {
                        format!("K{n}")
                    } else {
                        n.to_string()
                    }),
                    _ => None,
                })
                .collect();
            list.join(",")
        };
        format!(
            "{}:W{}:B{}",
            if self.white_to_move { 'W' } else { 'B' },
            side(true),
            side(false)
        )
    }
}

/// Every capture route of the side to move (one entry per route, so the
/// same move may appear several times), before the maximum capture rule.
pub fn capture_routes(pos: &TurkPos, promo: Promotion) -> Vec<Route> {
    let mut out = Vec::new();
    for n in 1..=SQUARES {
        if let Some(p) = pos.at(n)
            && p.white == pos.white_to_move
        {
            let mut board = pos.squares;
            board[n - 1] = None; // the piece has left its square
            let mut captured = Vec::new();
            capture_search(&mut board, n, n, p, None, promo, &mut captured, &mut out);
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn capture_search(
    board: &mut [Option<Piece>; SQUARES],
    from: usize,
    cur: usize,
    piece: Piece,
    last_dir: Option<(i32, i32)>,
    promo: Promotion,
    captured: &mut Vec<usize>,
    out: &mut Vec<Route>,
) {
    let mut went_on = false;
    for d in DIRS {
        // No 180-degree turn between two jumps.
        if let Some(ld) = last_dir
            && (d.0, d.1) == (-ld.0, -ld.1)
        {
            continue;
        }
        let backward = if piece.white { (0, -1) } else { (0, 1) };
        if !piece.king && d == backward {
            continue;
        }
        // The enemy piece to jump and the squares to land on.
        let mut landings = Vec::new();
        let victim;
        if piece.king {
            let mut c = step(cur, d);
            while let Some(t) = c {
                if board[t - 1].is_some() {
                    break;
                }
                c = step(t, d);
            }
            let Some(v) = c else { continue };
            victim = v;
            let mut l = step(v, d);
            while let Some(t) = l {
                if board[t - 1].is_some() {
                    break;
                }
                landings.push(t);
                l = step(t, d);
            }
        } else {
            let Some(v) = step(cur, d) else { continue };
            victim = v;
            if let Some(t) = step(v, d)
                && board[t - 1].is_none()
            {
                landings.push(t);
            }
        }
        match board[victim - 1] {
            Some(p) if p.white != piece.white => {}
            _ => continue,
        }
        for l in landings {
            // Immediate removal: the captured piece leaves at once.
            let taken = board[victim - 1].take();
            captured.push(victim);
            let mut next = piece;
            if promo == Promotion::Immediate && is_promotion_square(l, piece.white) {
                next.king = true;
            }
            capture_search(board, from, l, next, Some(d), promo, captured, out);
            captured.pop();
            board[victim - 1] = taken;
            went_on = true;
        }
    }
    if !went_on && !captured.is_empty() {
        let mut c = captured.clone();
        c.sort_unstable();
        let ends_king = piece.king || is_promotion_square(cur, piece.white);
        out.push(Route {
            mv: RefMove {
                from,
                to: cur,
                captured: c,
            },
            ends_king,
        });
    }
}

/// Every legal move, de-duplicated and sorted.
pub fn moves(pos: &TurkPos, promo: Promotion) -> Vec<RefMove> {
    let routes = capture_routes(pos, promo);
    if !routes.is_empty() {
        let caps = routes.into_iter().map(|r| r.mv).collect();
        return sort_dedup(keep_maximum(caps));
    }
    quiet_moves(pos)
}

/// The moves of a position without captures.
pub fn quiet_moves(pos: &TurkPos) -> Vec<RefMove> {
    let mut quiet = Vec::new();
    for n in 1..=SQUARES {
        let Some(p) = pos.at(n) else { continue };
        if p.white != pos.white_to_move {
            continue;
        }
        let backward = if p.white { (0, -1) } else { (0, 1) };
        for d in DIRS {
            if p.king {
                let mut c = step(n, d);
                while let Some(t) = c {
                    if pos.at(t).is_some() {
                        break;
                    }
                    quiet.push(RefMove::quiet(n, t));
                    c = step(t, d);
                }
            } else if d != backward
                && let Some(t) = step(n, d)
                && pos.at(t).is_none()
            {
                quiet.push(RefMove::quiet(n, t));
            }
        }
    }
    sort_dedup(quiet)
}

/// The position after `mv`. With immediate promotion, the piece is a king
/// if any route of that move crowned it (routes of one move that disagree
/// are reported by [`promotion_conflicts`]).
pub fn play(pos: &TurkPos, mv: &RefMove, promo: Promotion) -> TurkPos {
    let mut next = pos.clone();
    let mut piece = next.squares[mv.from - 1]
        .take()
        .expect("no piece on the from square");
    for &c in &mv.captured {
        next.squares[c - 1] = None;
    }
    if !piece.king {
        let crowned = if mv.captured.is_empty() || promo == Promotion::End {
            is_promotion_square(mv.to, piece.white)
        } else {
            capture_routes(pos, promo)
                .iter()
                .any(|r| r.mv == *mv && r.ends_king)
        };
        piece.king = crowned;
    }
    next.squares[mv.to - 1] = Some(piece);
    next.white_to_move = !pos.white_to_move;
    next
}

/// Moves whose routes end with the piece crowned on one route and not on
/// another (possible only with immediate promotion).
pub fn promotion_conflicts(pos: &TurkPos, promo: Promotion) -> Vec<RefMove> {
    let routes = capture_routes(pos, promo);
    let mut out = Vec::new();
    for a in &routes {
        if routes
            .iter()
            .any(|b| b.mv == a.mv && b.ends_king != a.ends_king)
        {
            out.push(a.mv.clone());
        }
    }
    sort_dedup(out)
}

pub fn perft(pos: &TurkPos, depth: u32, promo: Promotion) -> u64 {
    let ms = moves(pos, promo);
    if depth <= 1 {
        return if depth == 0 { 1 } else { ms.len() as u64 };
    }
    ms.iter()
        .map(|m| perft(&play(pos, m, promo), depth - 1, promo))
        .sum()
}

/// Perft counting every capture route (kish's count): the maximum capture
/// rule applies, but routes with the same from, to and captured set are not
/// merged.
pub fn perft_paths(pos: &TurkPos, depth: u32, promo: Promotion) -> u64 {
    let routes = capture_routes(pos, promo);
    let ms: Vec<RefMove> = if routes.is_empty() {
        quiet_moves(pos)
    } else {
        let best = routes
            .iter()
            .map(|r| r.mv.captured.len())
            .max()
            .unwrap_or(0);
        routes
            .into_iter()
            .filter(|r| r.mv.captured.len() == best)
            .map(|r| r.mv)
            .collect()
    };
    if depth <= 1 {
        return if depth == 0 { 1 } else { ms.len() as u64 };
    }
    ms.iter()
        .map(|m| perft_paths(&play(pos, m, promo), depth - 1, promo))
        .sum()
}

/// Every position of one random game from the start, up to `max_plies`
/// plies or the end of the game.
pub fn random_game(rng: &mut Rng, max_plies: usize, promo: Promotion) -> Vec<TurkPos> {
    let mut pos = TurkPos::start();
    let mut out = vec![pos.clone()];
    for _ in 0..max_plies {
        let ms = moves(&pos, promo);
        if ms.is_empty() {
            break;
        }
        let m = &ms[rng.below(ms.len())];
        pos = play(&pos, m, promo);
        out.push(pos.clone());
    }
    out
}

/// A random scatter: `min_per_side..=max_per_side` pieces a side (at most
/// 16, at least 1), each a
/// king with probability `king_pct` percent, men never on their own far
/// rank, either side to move.
pub fn random_scatter(
    rng: &mut Rng,
    min_per_side: usize,
    max_per_side: usize,
    king_pct: usize,
) -> TurkPos {
    let mut pos = TurkPos::empty(rng.chance(1, 2));
    for white in [true, false] {
        let max = max_per_side.min(16);
        let count = min_per_side + rng.below(max + 1 - min_per_side);
        let mut placed = 0;
        while placed < count {
            let n = 1 + rng.below(SQUARES);
            if pos.at(n).is_some() {
                continue;
            }
            let king = rng.chance(king_pct, 100);
            if !king && is_promotion_square(n, white) {
                continue;
            }
            pos.squares[n - 1] = Some(Piece { white, king });
            placed += 1;
        }
    }
    pos
}
