//! A reference move generator for hexagonal draughts (rules.md, "Hexagonal
//! draughts"), written from notation.md's axial coordinates: cells (q, r)
//! with -5 <= r <= 5 and max(-5, -5-r) <= q <= min(5, 5-r), numbered by r,
//! then q. Slow and plain: an array of 91 cells, a recursive capture search
//! with deferred removal, the maximum capture rule applied at the end.

use super::{Piece, RefMove, Rng, keep_maximum, sort_dedup};

pub const CELLS: usize = 91;

/// The six directions as (dq, dr): right, left, up-left, up-right,
/// down-left, down-right (notation.md).
pub const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, -1), (1, -1), (-1, 1), (0, 1)];
/// White's forward neighbours: up-left and up-right.
pub const WHITE_FORWARD: [(i32, i32); 2] = [(0, -1), (1, -1)];
/// Black's forward neighbours: down-left and down-right.
pub const BLACK_FORWARD: [(i32, i32); 2] = [(-1, 1), (0, 1)];

pub fn on_board(q: i32, r: i32) -> bool {
    (-5..=5).contains(&r) && q >= (-5).max(-5 - r) && q <= 5.min(5 - r)
}

/// (q, r) of cell number `n` (1..=91).
pub fn coords(n: usize) -> (i32, i32) {
    let mut k = 0;
    for r in -5..=5 {
        for q in -5..=5 {
            if on_board(q, r) {
                k += 1;
                if k == n {
                    return (q, r);
                }
            }
        }
    }
    panic!("no hex cell {n}");
}

/// The cell number of (q, r), if it is on the board.
pub fn number(q: i32, r: i32) -> Option<usize> {
    if !on_board(q, r) {
        return None;
    }
    let mut k = 0;
    for rr in -5..=5 {
        for qq in -5..=5 {
            if on_board(qq, rr) {
                k += 1;
                if (qq, rr) == (q, r) {
                    return Some(k);
                }
            }
        }
    }
    None
}

/// The neighbour of cell `n` in direction `d`, if any (straight from the
/// coordinates; [`step`] is the same, from a table built by this).
pub fn step_slow(n: usize, d: (i32, i32)) -> Option<usize> {
    let (q, r) = coords(n);
    number(q + d.0, r + d.1)
}

/// The neighbour of cell `n` in direction `d`, if any.
pub fn step(n: usize, d: (i32, i32)) -> Option<usize> {
    static TABLE: std::sync::OnceLock<Vec<[Option<usize>; 6]>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..=CELLS)
            .map(|n| {
                let mut row = [None; 6];
                if n > 0 {
                    for (i, d) in DIRS.iter().enumerate() {
                        row[i] = step_slow(n, *d);
                    }
                }
                row
            })
            .collect()
    });
    let i = DIRS
        .iter()
        .position(|x| *x == d)
        .expect("not a hex direction");
    table[n][i]
}

/// The far row of a side's men: where they are crowned.
pub fn is_promotion_cell(n: usize, white: bool) -> bool {
    // Rows r = -5 (cells 1-6) and r = 5 (cells 86-91).
    if white { n <= 6 } else { n >= 86 }
}

/// A hex position: cells 1..=91 stored at index n-1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexPos {
    pub cells: [Option<Piece>; CELLS],
    pub white_to_move: bool,
}

impl HexPos {
    pub fn empty(white_to_move: bool) -> Self {
        HexPos {
            cells: [None; CELLS],
            white_to_move,
        }
    }

    /// Black on 1-13, White on 79-91, White to move.
    pub fn start() -> Self {
        let mut p = HexPos::empty(true);
        for n in 1..=13 {
            p.cells[n - 1] = Some(Piece::BM);
        }
        for n in 79..=91 {
            p.cells[n - 1] = Some(Piece::WM);
        }
        p
    }

    pub fn at(&self, n: usize) -> Option<Piece> {
        self.cells[n - 1]
    }

    /// The 92-character Hub position string: side, then cells 1..91.
    pub fn hub(&self) -> String {
        let mut s = String::with_capacity(92);
        s.push(if self.white_to_move { 'W' } else { 'B' });
        for c in &self.cells {
            s.push(c.map_or('e', Piece::hub_letter));
        }
        s
    }

    /// PDN FEN in cell numbers, e.g. `W:W79,80,K81:B1,2`.
    pub fn fen(&self) -> String {
        let side = |white: bool| {
            let list: Vec<String> = (1..=CELLS)
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

/// Every legal move, de-duplicated and sorted.
pub fn moves(pos: &HexPos) -> Vec<RefMove> {
    let mut caps = Vec::new();
    for n in 1..=CELLS {
        if let Some(p) = pos.at(n)
            && p.white == pos.white_to_move
        {
            let mut captured = Vec::new();
            capture_search(pos, n, n, p, &mut captured, &mut caps);
        }
    }
    if !caps.is_empty() {
        return sort_dedup(keep_maximum(caps));
    }
    let mut quiet = Vec::new();
    for n in 1..=CELLS {
        let Some(p) = pos.at(n) else { continue };
        if p.white != pos.white_to_move {
            continue;
        }
        if p.king {
            for d in DIRS {
                let mut c = step(n, d);
                while let Some(t) = c {
                    if pos.at(t).is_some() {
                        break;
                    }
                    quiet.push(RefMove::quiet(n, t));
                    c = step(t, d);
                }
            }
        } else {
            let fwd = if p.white {
                WHITE_FORWARD
            } else {
                BLACK_FORWARD
            };
            for d in fwd {
                if let Some(t) = step(n, d)
                    && pos.at(t).is_none()
                {
                    quiet.push(RefMove::quiet(n, t));
                }
            }
        }
    }
    sort_dedup(quiet)
}

/// Every capture sequence of the piece that started on `from` and now
/// stands on `cur`, having captured `captured` (still on the board: removal
/// is deferred). Complete sequences are pushed to `out`.
fn capture_search(
    pos: &HexPos,
    from: usize,
    cur: usize,
    piece: Piece,
    captured: &mut Vec<usize>,
    out: &mut Vec<RefMove>,
) {
    // A cell is free when nothing stands on it, or it is the start cell
    // (the moving piece has left it).
    let free = |n: usize| n == from || pos.at(n).is_none();
    // An enemy piece not jumped before (it is still on the board).
    let capturable = |n: usize, captured: &Vec<usize>| match pos.at(n) {
        Some(p) => p.white != piece.white && n != from && !captured.contains(&n),
        None => false,
    };
    let mut went_on = false;
    for d in DIRS {
        if piece.king {
            // Slide over free cells to the first occupied one.
            let mut c = step(cur, d);
            while let Some(t) = c {
                if !free(t) {
                    break;
                }
                c = step(t, d);
            }
            let Some(victim) = c else { continue };
            if !capturable(victim, captured) {
                continue;
            }
            let mut land = step(victim, d);
            while let Some(l) = land {
                if !free(l) {
                    break;
                }
                captured.push(victim);
                capture_search(pos, from, l, piece, captured, out);
                captured.pop();
                went_on = true;
                land = step(l, d);
            }
        } else {
            let Some(victim) = step(cur, d) else { continue };
            if !capturable(victim, captured) {
                continue;
            }
            let Some(l) = step(victim, d) else { continue };
            if !free(l) {
                continue;
            }
            captured.push(victim);
            capture_search(pos, from, l, piece, captured, out);
            captured.pop();
            went_on = true;
        }
    }
    if !went_on && !captured.is_empty() {
        let mut c = captured.clone();
        c.sort_unstable();
        out.push(RefMove {
            from,
            to: cur,
            captured: c,
        });
    }
}

/// The position after `mv` (which must be legal): captured pieces leave,
/// a man that ends on its far row is crowned.
pub fn play(pos: &HexPos, mv: &RefMove) -> HexPos {
    let mut next = pos.clone();
    let mut piece = next.cells[mv.from - 1]
        .take()
        .expect("no piece on the from cell");
    for &c in &mv.captured {
        next.cells[c - 1] = None;
    }
    if !piece.king && is_promotion_cell(mv.to, piece.white) {
        piece.king = true;
    }
    next.cells[mv.to - 1] = Some(piece);
    next.white_to_move = !pos.white_to_move;
    next
}

pub fn perft(pos: &HexPos, depth: u32) -> u64 {
    let ms = moves(pos);
    if depth <= 1 {
        return if depth == 0 { 1 } else { ms.len() as u64 };
    }
    ms.iter().map(|m| perft(&play(pos, m), depth - 1)).sum()
}

/// Every position of one random game from the start, up to `max_plies`
/// plies or the end of the game.
pub fn random_game(rng: &mut Rng, max_plies: usize) -> Vec<HexPos> {
    let mut pos = HexPos::start();
    let mut out = vec![pos.clone()];
    for _ in 0..max_plies {
        let ms = moves(&pos);
        if ms.is_empty() {
            break;
        }
        let m = &ms[rng.below(ms.len())];
        pos = play(&pos, m);
        out.push(pos.clone());
    }
    out
}

/// A random scatter: `min_per_side..=max_per_side` pieces a side (at most
/// 13, at least 1), each a
/// king with probability `king_pct` percent, men never on their own far row
/// (they would have been crowned), either side to move.
pub fn random_scatter(
    rng: &mut Rng,
    min_per_side: usize,
    max_per_side: usize,
    king_pct: usize,
) -> HexPos {
    let mut pos = HexPos::empty(rng.chance(1, 2));
    for white in [true, false] {
        let max = max_per_side.min(13);
        let count = min_per_side + rng.below(max + 1 - min_per_side);
        let mut placed = 0;
        while placed < count {
            let n = 1 + rng.below(CELLS);
            if pos.at(n).is_some() {
                continue;
            }
            let king = rng.chance(king_pct, 100);
            if !king && is_promotion_cell(n, white) {
                continue;
            }
            pos.cells[n - 1] = Some(Piece { white, king });
            placed += 1;
        }
    }
    pos
}
