//! Helpers for the draughts rule tests: positions and moves written with
//! algebraic square names (a1 = bottom-left, White at the bottom), whatever
//! the variant's numbering, so that the tests read like diagrams.
#![allow(dead_code)]

use salto::Game;
use salto::draughts::notation::{algebraic_name, number_of_square};
use salto::draughts::{Bitboard, Draughts, Geometry, Position, Rules};
use salto::game::MoveList;

/// The internal square of an algebraic name on the board of `R`.
pub fn square<R: Rules>(name: &str) -> usize {
    (0..R::Geo::SQUARES)
        .find(|&s| algebraic_name::<R>(s) == name)
        .unwrap_or_else(|| panic!("{name} is not a dark square"))
}

/// The variant's square number of an algebraic name.
pub fn number<R: Rules>(name: &str) -> usize {
    number_of_square::<R>(square::<R>(name))
}

/// A FEN from algebraic names; `K` before a name makes a king.
pub fn fen<R: Rules>(side: char, white: &[&str], black: &[&str]) -> String {
    let list = |names: &[&str]| {
        names
            .iter()
            .map(|n| match n.strip_prefix('K') {
                Some(k) => format!("K{}", number::<R>(k)),
                None => number::<R>(n).to_string(),
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("{side}:W{}:B{}", list(white), list(black))
}

pub fn position<R: Rules>(side: char, white: &[&str], black: &[&str]) -> Position<u64>
where
    R::Geo: Geometry<BB = u64>,
{
    let g = Draughts::<R>::default();
    let f = fen::<R>(side, white, black);
    g.parse_fen(&f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn name<R: Rules>(bit: u32) -> String {
    algebraic_name::<R>(R::Geo::square_of_bit(bit).expect("bit of a square"))
}

/// A move as `c3-d4` or `a1xe1(c3,f2,f4)` (captured squares sorted by name).
pub fn text<R: Rules>(mv: &salto::draughts::Move<u64>) -> String {
    if mv.captured.is_empty() {
        return format!("{}-{}", name::<R>(mv.from as u32), name::<R>(mv.to as u32));
    }
    let mut caps: Vec<String> = mv.captured.iter().map(name::<R>).collect();
    caps.sort();
    format!(
        "{}x{}({})",
        name::<R>(mv.from as u32),
        name::<R>(mv.to as u32),
        caps.join(",")
    )
}

/// The legal moves, as sorted texts.
pub fn legal<R: Rules>(side: char, white: &[&str], black: &[&str]) -> Vec<String>
where
    R::Geo: Geometry<BB = u64>,
{
    let g = Draughts::<R>::default();
    let pos = position::<R>(side, white, black);
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let mut v: Vec<String> = list.iter().map(text::<R>).collect();
    v.sort();
    v
}

/// The position after the only legal move whose text is `mv`.
pub fn after<R: Rules>(side: char, white: &[&str], black: &[&str], mv: &str) -> Position<u64>
where
    R::Geo: Geometry<BB = u64>,
{
    let g = Draughts::<R>::default();
    let pos = position::<R>(side, white, black);
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let m = list
        .iter()
        .find(|m| text::<R>(m) == mv)
        .unwrap_or_else(|| panic!("{mv} is not legal"));
    g.play(&pos, *m)
}

/// True when a king of either side stands on `name`.
pub fn is_king<R: Rules>(pos: &Position<u64>, name: &str) -> bool
where
    R::Geo: Geometry<BB = u64>,
{
    pos.kings.has(R::Geo::SQUARE_BIT[square::<R>(name)] as u32)
}

/// True when a piece of `side` (0 White, 1 Black) stands on `name`.
pub fn has_piece<R: Rules>(pos: &Position<u64>, side: usize, name: &str) -> bool
where
    R::Geo: Geometry<BB = u64>,
{
    pos.pieces[side].has(R::Geo::SQUARE_BIT[square::<R>(name)] as u32)
}

pub fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
