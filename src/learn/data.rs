//! The training-data format of `salto datagen` and `salto train`.
//!
//! A data file is a plain sequence of fixed-size records, with no header,
//! so that the files of several shards concatenate into one data set (the
//! variant is given again to `salto train`; the record size, which depends
//! on the board, catches most mix-ups). One record, all integers
//! little-endian, `n = ceil(squares / 8)` bytes per square set, square `i`
//! (the internal index: reading order of the diagram, White at the bottom)
//! in bit `i % 8` of byte `i / 8`:
//!
//! | bytes | field |
//! |---|---|
//! | n | White's pieces |
//! | n | Black's pieces |
//! | n | kings (of both) |
//! | 1 | player to move (0 White, 1 Black) |
//! | 2 | search score, centi-men, from the player to move's view (i16) |
//! | 1 | the game's result for the player to move: 0 loss, 1 draw, 2 win |
//!
//! International: 25 bytes; the 8x8 boards: 16; hex: 40.

use crate::draughts::bitboard::Bitboard;
use crate::draughts::geometry::Geometry;
use crate::draughts::position::{Bb, Position};
use crate::draughts::rules::Rules;
use std::io::Read;
use std::path::Path;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample<B> {
    pub pos: Position<B>,
    /// The search score from the view of the player to move.
    pub score: i16,
    /// 0 loss, 1 draw, 2 win, for the player to move.
    pub result: u8,
}

fn set_bytes<R: Rules>() -> usize {
    <R::Geo as Geometry>::SQUARES.div_ceil(8)
}

/// The size of one record of rule set `R`.
pub fn record_size<R: Rules>() -> usize {
    3 * set_bytes::<R>() + 4
}

/// Appends the record of `s` to `out`.
pub fn encode<R: Rules>(s: &Sample<Bb<R>>, out: &mut Vec<u8>) {
    let n = set_bytes::<R>();
    for set in [s.pos.pieces[0], s.pos.pieces[1], s.pos.kings] {
        let start = out.len();
        out.resize(start + n, 0);
        for sq in 0..<R::Geo as Geometry>::SQUARES {
            if set.has(<R::Geo as Geometry>::SQUARE_BIT[sq] as u32) {
                out[start + sq / 8] |= 1 << (sq % 8);
            }
        }
    }
    out.push(s.pos.side);
    out.extend_from_slice(&s.score.to_le_bytes());
    out.push(s.result);
}

/// The sample in one record; an error says what is wrong with it.
pub fn decode<R: Rules>(rec: &[u8]) -> Result<Sample<Bb<R>>, String> {
    let n = set_bytes::<R>();
    if rec.len() != record_size::<R>() {
        return Err(format!(
            "record of {} bytes, expected {}",
            rec.len(),
            record_size::<R>()
        ));
    }
    let mut sets = [Bb::<R>::ZERO; 3];
    for (k, set) in sets.iter_mut().enumerate() {
        let bytes = &rec[k * n..(k + 1) * n];
        for sq in 0..8 * n {
            if bytes[sq / 8] & (1 << (sq % 8)) != 0 {
                if sq >= <R::Geo as Geometry>::SQUARES {
                    return Err(format!("square index {sq} is off the board"));
                }
                *set |= <R::Geo as Geometry>::bit_of(sq);
            }
        }
    }
    let [white, black, kings] = sets;
    if (white & black).any() || (kings & !(white | black)).any() {
        return Err("overlapping piece sets".into());
    }
    let side = rec[3 * n];
    let result = rec[3 * n + 3];
    if side > 1 || result > 2 {
        return Err(format!("bad side {side} or result {result}"));
    }
    Ok(Sample {
        pos: Position::new(white, black, kings, side),
        score: i16::from_le_bytes([rec[3 * n + 1], rec[3 * n + 2]]),
        result,
    })
}

/// Reads every record of the files, in order.
pub fn read_files<R: Rules>(paths: &[impl AsRef<Path>]) -> Result<Vec<Sample<Bb<R>>>, String> {
    let size = record_size::<R>();
    let mut out = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if bytes.len() % size != 0 {
            return Err(format!(
                "{}: {} bytes is not a whole number of {}-byte {} records (wrong variant?)",
                path.display(),
                bytes.len(),
                size,
                R::NAME
            ));
        }
        for (i, rec) in bytes.chunks_exact(size).enumerate() {
            out.push(
                decode::<R>(rec)
                    .map_err(|e| format!("{}: record {}: {e}", path.display(), i + 1))?,
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{Hex, HexGame, International, InternationalGame};
    use crate::game::Game;

    fn round_trip<R: Rules>(fen: &str, g: &crate::draughts::Draughts<R>) {
        let pos = match g.parse_fen(fen) {
            Ok(p) => p,
            Err(e) => panic!("{fen}: {e}"),
        };
        let s = Sample {
            pos,
            score: -1234,
            result: 2,
        };
        let mut buf = Vec::new();
        encode::<R>(&s, &mut buf);
        assert_eq!(buf.len(), record_size::<R>());
        assert_eq!(decode::<R>(&buf), Ok(s));
    }

    #[test]
    fn records_round_trip() {
        round_trip::<International>(
            "B:W31,32,K33,45:B6,K11,12,19",
            &InternationalGame::default(),
        );
        let hex = HexGame::default();
        round_trip::<Hex>(&hex.format_fen(&hex.start()), &hex);
    }

    #[test]
    fn bad_records_are_rejected() {
        let mut buf = vec![0u8; record_size::<International>()];
        buf[0] = 1;
        buf[7] = 1; // square 0 for both players
        assert!(decode::<International>(&buf).is_err());
        assert!(decode::<International>(&buf[1..]).is_err());
    }
}
