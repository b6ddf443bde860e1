//! What the page draws: where each numbered square sits on the diagram
//! (from the rules' own geometry and numbering, notation.md), the players'
//! names and colours, and the pieces of a FEN. No rules here: legal moves
//! come from the game session.

use crate::chinese::board::{BOARD, CORNER_LETTERS, HOLES};
use crate::draughts::notation::{algebraic_name, number_of_square};
use crate::draughts::{Draughts, Geometry, Rules};
use crate::game::{ParseError, ParseResult};
use crate::variant::{Options, RulesVisitor, Variant, dispatch_rules};
use serde::Serialize;

/// One square (cell, hole) of the diagram: its number and its centre in
/// diagram units (one unit between neighbouring centres; y grows downwards).
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    pub n: usize,
    pub x: f64,
    pub y: f64,
    /// The algebraic name where the variant has one (`a1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A player as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Player {
    pub name: String,
    pub color: String,
}

/// The board of a game.
#[derive(Clone, Debug, Serialize)]
pub struct Layout {
    /// `diagonal` (dark squares of a checkered board), `orthogonal` (all
    /// squares), `hex` (hexagonal cells) or `star` (holes).
    pub kind: &'static str,
    /// Checkered boards: the number of files and ranks.
    pub files: u8,
    pub ranks: u8,
    pub cells: Vec<Cell>,
    pub players: Vec<Player>,
    /// Chinese checkers: the colour of the pegs of each start corner A-F,
    /// and of neutral pegs under `x`.
    pub set_colors: Vec<(char, String)>,
}

/// A piece on the board.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Piece {
    pub n: usize,
    /// The owning player (`None` for a neutral chinese peg).
    pub player: Option<usize>,
    pub king: bool,
    pub color: String,
}

const WHITE: &str = "#f3efe4";
const BLACK: &str = "#2b2522";
/// Chinese checkers: the colour of the set that starts in corner A..F.
const SET_COLORS: [&str; 6] = [
    "#d62828", "#f2c14e", "#2a9d8f", "#1d5fd1", "#8a4fbf", "#f3efe4",
];
const NEUTRAL: &str = "#8c8c8c";

fn draughts_cells<R: Rules>(hex: bool) -> (Vec<Cell>, u8, u8) {
    let files = R::Geo::FILES;
    let ranks = R::Geo::RANKS;
    let mut cells: Vec<Cell> = (0..R::Geo::SQUARES)
        .map(|sq| {
            let (f, r) = R::Geo::coords(sq);
            let (x, y) = if hex {
                // Hex91::coords is (q + 5, 5 - r) in notation.md's axial
                // coordinates; rows are horizontal, so x = q + r / 2.
                let (q, ar) = (f as f64 - 5.0, 5.0 - r as f64);
                (q + ar / 2.0 + 5.0, (ar + 5.0) * 3f64.sqrt() / 2.0)
            } else {
                (f as f64, (ranks - 1 - r) as f64)
            };
            Cell {
                n: number_of_square::<R>(sq),
                x,
                y,
                name: R::ALGEBRAIC.then(|| algebraic_name::<R>(sq)),
            }
        })
        .collect();
    cells.sort_by_key(|c| c.n);
    (cells, files, ranks)
}

fn star_cells() -> Vec<Cell> {
    (0..HOLES)
        .map(|h| {
            let (q, r) = BOARD.coord[h];
            let (q, r) = (q as f64, r as f64);
            Cell {
                n: h + 1,
                x: q + r / 2.0 + 8.0,
                y: (r + 8.0) * 3f64.sqrt() / 2.0,
                name: None,
            }
        })
        .collect()
}

/// The players of a chinese game and which player owns each corner's set.
fn chinese_players(opts: &Options) -> ParseResult<(Vec<Player>, [Option<usize>; 6])> {
    let game = crate::chinese::Chinese::new(opts)?;
    let owner: [Option<usize>; 6] = std::array::from_fn(|c| {
        let o = game.owner[c];
        (o != crate::chinese::position::NO_PLAYER).then_some(o as usize)
    });
    let players = (0..opts.players as usize)
        .map(|p| {
            let corners: Vec<usize> = (0..6).filter(|&c| owner[c] == Some(p)).collect();
            let letters: Vec<String> = corners
                .iter()
                .map(|&c| CORNER_LETTERS[c].to_string())
                .collect();
            Player {
                name: format!("Player {} ({})", p + 1, letters.join(", ")),
                color: corners
                    .first()
                    .map_or(NEUTRAL, |&c| SET_COLORS[c])
                    .to_string(),
            }
        })
        .collect();
    Ok((players, owner))
}

/// The board of the game `opts` selects.
pub fn layout(opts: &Options) -> ParseResult<Layout> {
    let two = || {
        vec![
            Player {
                name: "White".into(),
                color: WHITE.into(),
            },
            Player {
                name: "Black".into(),
                color: BLACK.into(),
            },
        ]
    };
    /// The cells of the draughts board the options select.
    struct Cells(bool);
    impl RulesVisitor for Cells {
        type Output = (Vec<Cell>, u8, u8);
        fn visit<R: Rules>(self, _game: Draughts<R>) -> Self::Output {
            draughts_cells::<R>(self.0)
        }
    }
    let kind = opts.variant.descriptor().board;
    let (cells, files, ranks) = match kind {
        "star" => {
            let (players, _) = chinese_players(opts)?;
            let mut set_colors: Vec<(char, String)> = (0..6)
                .map(|c| (CORNER_LETTERS[c], SET_COLORS[c].to_string()))
                .collect();
            set_colors.push(('X', NEUTRAL.to_string()));
            return Ok(Layout {
                kind: "star",
                files: 0,
                ranks: 0,
                cells: star_cells(),
                players,
                set_colors,
            });
        }
        _ => dispatch_rules(opts, Cells(kind == "hex"))?,
    };
    Ok(Layout {
        kind,
        files,
        ranks,
        cells,
        players: two(),
        set_colors: Vec::new(),
    })
}

/// The squares of a FEN field's list: `31-35,K22,40` (`K` marks a king).
fn squares(list: &str) -> ParseResult<Vec<(usize, bool)>> {
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (king, item) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let num = |s: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| ParseError(format!("'{s}' is not a square number")))
        };
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if b < a || b - a > 200 {
                    return Err(ParseError(format!("bad range {a}-{b}")));
                }
                out.extend((a..=b).map(|n| (n, king)));
            }
            None => out.push((num(item)?, king)),
        }
    }
    Ok(out)
}

/// The pieces of a position in the FEN Salto writes for the game (numeric
/// squares): `W:W31-50:B1-20` for draughts, `1:a1-10:d112-121` for
/// chinese checkers.
pub fn pieces(opts: &Options, fen: &str) -> ParseResult<Vec<Piece>> {
    let mut fields = fen.split(':');
    fields.next();
    let mut out = Vec::new();
    if opts.variant == Variant::Chinese {
        let (_, owner) = chinese_players(opts)?;
        for field in fields {
            let mut chars = field.chars();
            let letter = chars.next().map(|c| c.to_ascii_uppercase());
            let (player, color) = match letter {
                Some('X') => (None, NEUTRAL),
                Some(l) => {
                    let c = CORNER_LETTERS
                        .iter()
                        .position(|&x| x == l)
                        .ok_or_else(|| ParseError(format!("bad FEN field '{field}'")))?;
                    (owner[c], SET_COLORS[c])
                }
                None => continue,
            };
            for (n, _) in squares(chars.as_str())? {
                out.push(Piece {
                    n,
                    player,
                    king: false,
                    color: color.to_string(),
                });
            }
        }
    } else {
        for field in fields {
            let mut chars = field.chars();
            let (player, color) = match chars.next() {
                Some('W' | 'w') => (0, WHITE),
                Some('B' | 'b') => (1, BLACK),
                _ => continue,
            };
            for (n, king) in squares(chars.as_str())? {
                out.push(Piece {
                    n,
                    player: Some(player),
                    king,
                    color: color.to_string(),
                });
            }
        }
    }
    out.sort_by_key(|p| p.n);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(l: &Layout, n: usize) -> (f64, f64) {
        let c = &l.cells[n - 1];
        assert_eq!(c.n, n);
        (c.x, c.y)
    }

    #[test]
    fn diagonal_boards_follow_notation_md() {
        let intl = layout(&Options::new(Variant::International)).unwrap();
        assert_eq!(intl.cells.len(), 50);
        assert_eq!(cell(&intl, 1), (1.0, 0.0)); // b10
        assert_eq!(cell(&intl, 46), (0.0, 9.0)); // a1
        let eng = layout(&Options::new(Variant::English)).unwrap();
        assert_eq!(cell(&eng, 1), (1.0, 0.0)); // b8
        assert_eq!(cell(&eng, 29), (0.0, 7.0)); // a1
        let bra = layout(&Options::new(Variant::Brazilian)).unwrap();
        assert_eq!(cell(&bra, 1), (0.0, 7.0)); // a1
        assert_eq!(cell(&bra, 32), (7.0, 0.0)); // h8
        assert_eq!(bra.cells[0].name.as_deref(), Some("a1"));
        let tur = layout(&Options::new(Variant::Turkish)).unwrap();
        assert_eq!(tur.cells.len(), 64);
        assert_eq!(cell(&tur, 9), (0.0, 6.0)); // a2
    }

    #[test]
    fn hex_and_star_rows_run_left_to_right_from_the_top() {
        let hex = layout(&Options::new(Variant::Hex)).unwrap();
        assert_eq!(hex.cells.len(), 91);
        let (x1, y1) = cell(&hex, 1);
        let (x6, y6) = cell(&hex, 6);
        let (x46, _) = cell(&hex, 46);
        assert!(y1 == y6 && x6 > x1 && y1 < cell(&hex, 7).1);
        assert!((x46 - 5.0).abs() < 1e-9);
        let star = layout(&Options::new(Variant::Chinese)).unwrap();
        assert_eq!(star.cells.len(), 121);
        assert!((cell(&star, 61).0 - 8.0).abs() < 1e-9);
        assert!(cell(&star, 1).1 < cell(&star, 2).1);
    }

    #[test]
    fn fen_pieces_with_ranges_and_kings() {
        let o = Options::new(Variant::International);
        let p = pieces(&o, "W:W31-33,K45:B1").unwrap();
        assert_eq!(p.len(), 5);
        assert_eq!(p[0].player, Some(1));
        assert!(p[4].king && p[4].n == 45);
        let mut c = Options::new(Variant::Chinese);
        c.players = 6;
        let p = pieces(&c, "1:a1-10:d112-121").unwrap();
        assert_eq!(p.len(), 20);
        assert!(pieces(&o, "W:Wxyz").is_err());
    }
}
