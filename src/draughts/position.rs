//! Positions and moves of the draughts family, copy-make, with a Zobrist
//! hash kept incrementally.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::rules::Rules;
use crate::game::zobrist;

/// The bitboard type of a rule set.
pub type Bb<R> = <<R as Rules>::Geo as Geometry>::BB;

/// A move: from, to (bit indices) and the captured set. Two moves are equal
/// exactly when rules.md calls them the same move (same from, to and
/// captured set); `promote` follows from those and the moving piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move<B> {
    /// The captured pieces (empty for a quiet move).
    pub captured: B,
    /// The bit the piece starts on.
    pub from: u8,
    /// The bit the piece ends on (may equal `from` in a king's circuit).
    pub to: u8,
    /// The moving man is crowned by this move.
    pub promote: bool,
}

impl<B: Bitboard> Move<B> {
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }
}

/// A position: the pieces of each player, the kings, the player to move, the
/// plies since the last capture or man move, and the hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B> {
    /// The pieces (men and kings) of White (0) and Black (1).
    pub pieces: [B; 2],
    /// The kings of both players.
    pub kings: B,
    /// The player to move: 0 = White, 1 = Black.
    pub side: u8,
    /// Plies since the last capture or man move (the draw rule's count).
    pub reversible: u32,
    /// Plies since the last move that no later move can undo (a capture, a
    /// crowning, a man step that cannot be stepped back): no position
    /// older than that can recur, so repetition checks stop there. The same
    /// as `reversible` except where men step sideways (turkish), which
    /// `Draughts::play` sets.
    pub window: u32,
    /// Plies since the last capture: the count of the material draw rules
    /// ([`super::rules::MaterialDraw`]), which a man move does not reset.
    pub since_capture: u32,
    /// Zobrist hash of pieces and player to move.
    pub hash: u64,
}

/// Zobrist keys by piece kind (white man, white king, black man, black
/// king) and bit, from the fixed-seed generator. Bits 128..255 are never
/// used; they make every `u8` bit index valid without a bounds check.
static PIECE_KEYS: [[u64; 256]; 4] = piece_keys();
/// Xored in when Black is to move.
pub const SIDE_KEY: u64 = zobrist::keys::<1>(0x5a17_0d12_aa55_0001)[0];

const fn piece_keys() -> [[u64; 256]; 4] {
    let flat: [u64; 512] = zobrist::keys(0x5a17_0d12_aa55_0000);
    let mut out = [[0u64; 256]; 4];
    let mut i = 0;
    while i < 512 {
        out[i / 128][i % 128] = flat[i];
        i += 1;
    }
    out
}

/// The key of a piece of `side` (king or man) on bit `bit`.
#[inline(always)]
pub fn piece_key(side: usize, king: bool, bit: u32) -> u64 {
    PIECE_KEYS[(side & 1) * 2 + king as usize][(bit & 255) as usize]
}

impl<B: Bitboard> Position<B> {
    /// A position from its pieces; computes the hash.
    pub fn new(white: B, black: B, kings: B, side: u8) -> Self {
        let mut p = Position {
            pieces: [white, black],
            kings,
            side,
            reversible: 0,
            window: 0,
            since_capture: 0,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == 1 { SIDE_KEY } else { 0 };
        for side in 0..2 {
            for b in self.pieces[side].iter() {
                h ^= piece_key(side, self.kings.has(b), b);
            }
        }
        h
    }

    /// All pieces.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.pieces[0] | self.pieces[1]
    }

    /// The position after `mv`, which must be legal.
    #[inline]
    pub fn play(&self, mv: Move<B>) -> Self {
        // Built from values, not by writing into a copy: a write into
        // `pieces[side]` followed by a wide read of the copy stalls store
        // forwarding (measured: a quarter of perft's time).
        let s = (self.side & 1) as usize;
        let from = B::bit(mv.from as u32);
        let to = B::bit(mv.to as u32);
        let moved = from ^ to;
        let is_king = (self.kings & from).any();
        let mut h = self.hash ^ SIDE_KEY;
        h ^= piece_key(s, is_king, mv.from as u32) ^ piece_key(s, is_king, mv.to as u32);
        // Captured kings leave before the capturer moves: with immediate
        // removal (turkish) a capture may end on a captured piece's square.
        let mut kings = self.kings & !mv.captured;
        if is_king {
            kings ^= moved;
        } else if mv.promote {
            kings |= to;
            h ^= piece_key(s, false, mv.to as u32) ^ piece_key(s, true, mv.to as u32);
        }
        let captured = mv.captured;
        let reversible = if captured.any() {
            let o = 1 - s;
            for b in captured.iter() {
                h ^= piece_key(o, self.kings.has(b), b);
            }
            0
        } else if is_king {
            self.reversible.saturating_add(1)
        } else {
            0
        };
        let (white, black) = if s == 0 {
            (self.pieces[0] ^ moved, self.pieces[1] & !captured)
        } else {
            (self.pieces[0] & !captured, self.pieces[1] ^ moved)
        };
        Position {
            pieces: [white, black],
            kings,
            side: self.side ^ 1,
            reversible,
            window: reversible,
            since_capture: if captured.any() {
                0
            } else {
                self.since_capture.saturating_add(1)
            },
            hash: h,
        }
    }
}
