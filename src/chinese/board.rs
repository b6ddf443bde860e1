//! The 121-hole star: coordinates, corners, neighbour and jump tables and
//! distances, all computed at compile time.
//!
//! Holes are indexed 0..=120 here (hole number minus one, see notation.md).
//! A hole is the axial coordinate (q, r) with s = -q - r; the holes are all
//! points with every coordinate >= -4 or every coordinate <= 4, numbered by
//! increasing r, then increasing q. Bit `i` of a `u128` stands for hole `i`.

/// Number of holes.
pub const HOLES: usize = 121;
/// No hole (off the board).
pub const NONE: u8 = 255;
/// A cell index past the last hole: always empty in a 128-byte board.
pub const OFF: u8 = 127;
/// Every hole.
pub const ALL: u128 = (1u128 << HOLES) - 1;

/// The six directions in axial coordinates: right, left, up-left,
/// down-right, up-right, down-left (notation.md); `d ^ 1` is the opposite
/// of `d`.
pub const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, 1)];

/// Corner letters, clockwise from the top.
pub const CORNER_LETTERS: [char; 6] = ['A', 'B', 'C', 'D', 'E', 'F'];

/// The corner opposite `c` (A-D, B-E, C-F): a set's target.
#[inline]
pub const fn opposite(c: usize) -> usize {
    (c + 3) % 6
}

/// True when (q, r) is a hole of the star.
pub const fn on_board(q: i32, r: i32) -> bool {
    let s = -q - r;
    (q >= -4 && r >= -4 && s >= -4) || (q <= 4 && r <= 4 && s <= 4)
}

/// The corner (0..6 for A..F) that (q, r) lies in, or 6 for the central
/// hexagon (notation.md: A is r <= -5, B q >= 5, C s <= -5, D r >= 5,
/// E q <= -5, F s >= 5).
pub const fn corner_of(q: i32, r: i32) -> usize {
    let s = -q - r;
    if r <= -5 {
        0
    } else if q >= 5 {
        1
    } else if s <= -5 {
        2
    } else if r >= 5 {
        3
    } else if q <= -5 {
        4
    } else if s >= 5 {
        5
    } else {
        6
    }
}

/// The tip (the hole farthest from the centre) of each corner, (q, r).
pub const TIPS: [(i32, i32); 6] = [(4, -8), (8, -4), (4, 4), (-4, 8), (-8, 4), (-4, -4)];

/// Hex distance between two points.
pub const fn distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    let dq = (a.0 - b.0).abs();
    let dr = (a.1 - b.1).abs();
    let ds = (a.0 + a.1 - b.0 - b.1).abs();
    let m = if dq > dr { dq } else { dr };
    if m > ds { m } else { ds }
}

/// All geometry tables.
pub struct Board {
    /// Axial coordinates of each hole.
    pub coord: [(i8, i8); HOLES],
    /// The neighbour of each hole in each direction, or [`NONE`].
    pub neighbour: [[u8; 6]; HOLES],
    /// The jumps from each hole: (hole jumped over, landing hole), those
    /// whose landing hole is on the board packed at the front, then
    /// (`OFF`, `OFF`), whose hole to jump over is never occupied in a byte
    /// board of 128 cells. The move generator's hot loop runs over these six
    /// entries without a count.
    pub jumps6: [[(u8, u8); 6]; HOLES],
    /// The holes adjacent to each hole, as a mask.
    pub adjacent: [u128; HOLES],
    /// The holes of each corner A..F.
    pub corner: [u128; 6],
    /// The distance of each hole to the tip of each corner.
    pub tip_distance: [[u8; HOLES]; 6],
}

const fn index_of(board_coord: &[(i8, i8); HOLES], q: i32, r: i32) -> u8 {
    let mut i = 0;
    while i < HOLES {
        if board_coord[i].0 as i32 == q && board_coord[i].1 as i32 == r {
            return i as u8;
        }
        i += 1;
    }
    NONE
}

const fn build() -> Board {
    let mut coord = [(0i8, 0i8); HOLES];
    let mut n = 0;
    let mut r = -8;
    while r <= 8 {
        let mut q = -8;
        while q <= 8 {
            if on_board(q, r) {
                coord[n] = (q as i8, r as i8);
                n += 1;
            }
            q += 1;
        }
        r += 1;
    }
    assert!(n == HOLES);
    let mut neighbour = [[NONE; 6]; HOLES];
    let mut jumps6 = [[(OFF, OFF); 6]; HOLES];
    let mut adjacent = [0u128; HOLES];
    let mut corner = [0u128; 6];
    let mut tip_distance = [[0u8; HOLES]; 6];
    let mut i = 0;
    while i < HOLES {
        let (q, r) = (coord[i].0 as i32, coord[i].1 as i32);
        let mut d = 0;
        let mut num_jumps = 0;
        while d < 6 {
            let (dq, dr) = DIRS[d];
            if on_board(q + dq, r + dr) {
                let over = index_of(&coord, q + dq, r + dr);
                neighbour[i][d] = over;
                adjacent[i] |= 1u128 << over;
                if on_board(q + 2 * dq, r + 2 * dr) {
                    let land = index_of(&coord, q + 2 * dq, r + 2 * dr);
                    jumps6[i][num_jumps] = (over, land);
                    num_jumps += 1;
                }
            }
            d += 1;
        }
        let c = corner_of(q, r);
        if c < 6 {
            corner[c] |= 1u128 << i;
        }
        let mut t = 0;
        while t < 6 {
            tip_distance[t][i] = distance((q, r), TIPS[t]) as u8;
            t += 1;
        }
        i += 1;
    }
    Board {
        coord,
        neighbour,
        jumps6,
        adjacent,
        corner,
        tip_distance,
    }
}

/// The tables, built by the compiler.
pub static BOARD: Board = build();

/// The bit of hole `h`.
#[inline(always)]
pub const fn bit(h: usize) -> u128 {
    1u128 << h
}

/// Iterates over the set bits of a mask, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u128);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holes(numbers: &[usize]) -> u128 {
        numbers.iter().fold(0, |m, &n| m | bit(n - 1))
    }

    #[test]
    fn corners_match_the_hole_lists_of_notation_md() {
        let b = &BOARD;
        assert_eq!(b.corner[0], holes(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
        assert_eq!(
            b.corner[1],
            holes(&[20, 21, 22, 23, 33, 34, 35, 45, 46, 56])
        );
        assert_eq!(
            b.corner[2],
            holes(&[75, 85, 86, 96, 97, 98, 108, 109, 110, 111])
        );
        assert_eq!(
            b.corner[3],
            holes(&[112, 113, 114, 115, 116, 117, 118, 119, 120, 121])
        );
        assert_eq!(
            b.corner[4],
            holes(&[66, 76, 77, 87, 88, 89, 99, 100, 101, 102])
        );
        assert_eq!(
            b.corner[5],
            holes(&[11, 12, 13, 14, 24, 25, 26, 36, 37, 47])
        );
    }

    #[test]
    fn centre_is_hole_61_and_tips_are_corner_holes() {
        assert_eq!(BOARD.coord[60], (0, 0));
        let tips = [1, 23, 111, 121, 99, 11];
        for (c, &t) in tips.iter().enumerate() {
            let (q, r) = BOARD.coord[t - 1];
            assert_eq!((q as i32, r as i32), TIPS[c]);
            assert_eq!(BOARD.tip_distance[c][t - 1], 0);
        }
    }

    #[test]
    fn neighbours_are_symmetric_and_jumps_are_straight() {
        let b = &BOARD;
        let mut links = 0;
        for i in 0..HOLES {
            for d in 0..6 {
                let n = b.neighbour[i][d];
                if n != NONE {
                    links += 1;
                    assert_eq!(b.neighbour[n as usize][d ^ 1], i as u8);
                }
            }
            for &(over, land) in b.jumps6[i].iter().filter(|j| j.0 != OFF) {
                assert!(b.adjacent[i] & bit(over as usize) != 0);
                assert!(b.adjacent[land as usize] & bit(over as usize) != 0);
                assert!(b.adjacent[i] & bit(land as usize) == 0);
            }
        }
        // 156 undirected edges
        // in the hexagon of side 5, plus 6 corners of 3*6=18 inner edges and
        // 8 edges each joining the corner to the hexagon.
        assert_eq!(links, 2 * (156 + 6 * (18 + 8)));
        // The centre's neighbours.
        let mut n: Vec<usize> = (0..6).map(|d| b.neighbour[60][d] as usize + 1).collect();
        n.sort();
        assert_eq!(n, vec![51, 52, 60, 62, 70, 71]);
    }
}
