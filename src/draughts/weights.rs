//! Weights of the pattern evaluation ([`super::pattern`]) and their file
//! format.
//!
//! A weights file, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SALTOEVW` |
//! | 2 | format version (1) |
//! | 1 + n | the variant's name: its length, then ASCII |
//! | 8 | the feature layout's id ([`super::layout::Layout::id`]) |
//! | 4 | pattern weights `P` (two per entry: opening, ending) |
//! | 4 | feature weights `F` (two per hand feature) |
//! | 2 | scale: weights are in 1/scale centi-men (8) |
//! | 2(P + F) | the weights, i16 |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! The trained defaults are embedded in the binary (`weights/*.bin`);
//! `eval-file` loads another file. A file that fails any check is refused
//! with a message and the current evaluation stays.

use super::eval::{self, NF};
use super::rules::Rules;
use crate::game::{ParseError, ParseResult};
use std::path::Path;

/// Weights are in 1/SCALE centi-men.
pub use super::layout::SCALE;
const MAGIC: &[u8; 8] = b"SALTOEVW";
const VERSION: u16 = 1;

/// The weights of one variant's pattern evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub variant: String,
    pub layout: u64,
    /// Per pattern entry: opening, ending.
    pub pattern: Vec<i16>,
    /// Per hand feature ([`eval::FEATURE_NAMES`]): opening, ending.
    pub dense: Vec<i16>,
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

impl Weights {
    /// The hand evaluation in this form: no pattern weight, the hand
    /// constants in both phases.
    pub fn hand<R: Rules>() -> Self {
        let layout = &eval::tables::<R>().layout;
        let h = eval::hand_weights::<R>();
        Weights {
            variant: R::NAME.to_string(),
            layout: layout.id,
            pattern: vec![0; 2 * layout.entries],
            dense: h
                .iter()
                .flat_map(|&x| {
                    let v = (x * SCALE) as i16;
                    [v, v]
                })
                .collect(),
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(40 + 2 * (self.pattern.len() + self.dense.len()));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let name = self.variant.as_bytes();
        out.push(name.len().min(255) as u8);
        out.extend_from_slice(&name[..name.len().min(255)]);
        out.extend_from_slice(&self.layout.to_le_bytes());
        out.extend_from_slice(&(self.pattern.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.dense.len() as u32).to_le_bytes());
        out.extend_from_slice(&(SCALE as u16).to_le_bytes());
        for &w in self.pattern.iter().chain(&self.dense) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parses a weights file; checks the magic, version, sizes and
    /// checksum, not the variant (see [`Weights::check`]).
    pub fn from_bytes(bytes: &[u8]) -> ParseResult<Self> {
        let err = |m: &str| ParseError(format!("not a valid weights file: {m}"));
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(err("it does not start with SALTOEVW"));
        }
        let mut at = 8;
        let mut take = |n: usize| -> ParseResult<&[u8]> {
            let s = bytes
                .get(at..at + n)
                .ok_or_else(|| err("it is cut short"))?;
            at += n;
            Ok(s)
        };
        let v = take(2)?;
        let version = u16::from_le_bytes([v[0], v[1]]);
        if version != VERSION {
            return Err(err(&format!(
                "format version {version}, this build reads {VERSION}"
            )));
        }
        let n = take(1)?[0] as usize;
        let variant = String::from_utf8(take(n)?.to_vec()).map_err(|_| err("bad variant name"))?;
        let u64_at = |s: &[u8]| {
            let mut a = [0u8; 8];
            a.copy_from_slice(s);
            u64::from_le_bytes(a)
        };
        let u32_at = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize;
        let layout = u64_at(take(8)?);
        let np = u32_at(take(4)?);
        let nd = u32_at(take(4)?);
        let sc = take(2)?;
        if u16::from_le_bytes([sc[0], sc[1]]) as i32 != SCALE {
            return Err(err("unknown weight scale"));
        }
        if np > 1 << 26 || nd > 1 << 16 {
            return Err(err("implausible sizes"));
        }
        let body = take(2 * (np + nd))?;
        let ws: Vec<i16> = body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let end = 8 + 2 + 1 + n + 8 + 4 + 4 + 2 + 2 * (np + nd);
        let sum = u64_at(take(8)?);
        if end + 8 != bytes.len() {
            return Err(err("trailing bytes after the checksum"));
        }
        if fnv(&bytes[..end]) != sum {
            return Err(err("checksum mismatch (corrupt file)"));
        }
        Ok(Weights {
            variant,
            layout,
            pattern: ws[..np].to_vec(),
            dense: ws[np..].to_vec(),
        })
    }

    /// Reads and parses a weights file.
    pub fn load(path: &Path) -> ParseResult<Self> {
        let bytes = std::fs::read(path)
            .map_err(|e| ParseError(format!("cannot read weights file {}: {e}", path.display())))?;
        Self::from_bytes(&bytes).map_err(|e| ParseError(format!("{}: {e}", path.display())))
    }

    /// Checks that the weights fit rule set `R` (variant and features).
    pub fn check<R: Rules>(&self) -> ParseResult<()> {
        let layout = &eval::tables::<R>().layout;
        if self.variant != R::NAME {
            return Err(ParseError(format!(
                "the weights are for {}, not {}",
                self.variant,
                R::NAME
            )));
        }
        if self.layout != layout.id
            || self.pattern.len() != 2 * layout.entries
            || self.dense.len() != 2 * NF
        {
            return Err(ParseError(format!(
                "the weights were made for another feature layout than this build's {} evaluation",
                R::NAME
            )));
        }
        Ok(())
    }
}

/// Which evaluation a draughts game uses (`set-param name=eval` and
/// `eval-file`, or `--eval` and `--eval-file`, as
/// [`crate::variant::EvalSetting`] gives it to the draughts games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalChoice {
    /// The shipped trained weights where there are some, else the hand
    /// evaluation.
    #[default]
    Default,
    /// The hand evaluation (docs/evaluation.md).
    Hand,
    /// Weights loaded from a file ([`intern`]: one copy per distinct
    /// content, kept for the life of the program).
    File(&'static Weights),
}

impl EvalChoice {
    /// The name of the `eval` parameter's value.
    pub fn name(self) -> &'static str {
        match self {
            EvalChoice::Hand => "hand",
            _ => "default",
        }
    }

    /// The weights a game of rule set `R` evaluates with (`None`: the hand
    /// evaluation).
    pub fn weights<R: Rules>(self) -> Option<&'static Weights> {
        match self {
            EvalChoice::Hand => None,
            EvalChoice::Default => embedded::<R>(),
            EvalChoice::File(w) => match w.check::<R>() {
                Ok(()) => Some(w),
                Err(e) => {
                    log::warn!("eval-file not used: {e}");
                    embedded::<R>()
                }
            },
        }
    }
}

/// The one copy of weights equal to `w` that the program keeps: the first
/// time a content is seen it is kept for the life of the program, every
/// later load of equal weights returns that copy and frees its own.
///
/// A [`super::Draughts`] game is `Copy` and holds its compiled weights by a
/// plain `&'static` reference (one load per evaluation, no count to keep),
/// so weights can never be freed once a game may hold them. Interning
/// bounds what is kept by the number of distinct weight sets a process
/// loads, not by the number of loads: a host that switches `eval-file`
/// back and forth keeps each file once ([`super::pattern::compile`] keys
/// its compiled tables by this copy's address, so they are built once too).
pub fn intern(w: Weights) -> &'static Weights {
    use std::sync::Mutex;
    static KEPT: Mutex<Vec<&'static Weights>> = Mutex::new(Vec::new());
    let mut kept = match KEPT.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(&k) = kept.iter().find(|k| ***k == w) {
        return k;
    }
    let k: &'static Weights = Box::leak(Box::new(w));
    kept.push(k);
    k
}

/// The trained weights shipped in the binary for rule set `R`
/// (`Rules::WEIGHTS`), if any were measured better than the hand
/// evaluation (docs/evaluation.md), decoded once.
pub fn embedded<R: Rules>() -> Option<&'static Weights> {
    use once_cell::sync::Lazy;
    use std::collections::HashMap;
    use std::sync::Mutex;
    type Decoded = HashMap<&'static str, Option<&'static Weights>>;
    static DECODED: Lazy<Mutex<Decoded>> = Lazy::new(|| Mutex::new(HashMap::new()));
    let bytes = R::WEIGHTS?;
    let mut cache = DECODED.lock().unwrap_or_else(|e| e.into_inner());
    *cache.entry(R::KEY).or_insert_with(|| {
        match Weights::from_bytes(bytes).and_then(|w| w.check::<R>().map(|()| w)) {
            // Kept for the life of the program, once per rule set.
            Ok(w) => Some(intern(w)),
            Err(e) => {
                log::error!("the shipped {} weights are not usable: {e}", R::NAME);
                None
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{English, International};

    #[test]
    fn weights_round_trip() {
        let w = Weights::hand::<International>();
        let b = w.to_bytes();
        assert_eq!(Weights::from_bytes(&b), Ok(w.clone()));
        assert!(w.check::<International>().is_ok());
    }

    #[test]
    fn bad_weights_files_are_refused_with_a_message() {
        let w = Weights::hand::<International>();
        let good = w.to_bytes();
        let mut flipped = good.clone();
        flipped[100] ^= 1;
        let e = Weights::from_bytes(&flipped).unwrap_err();
        assert!(e.0.contains("checksum"), "{e}");
        let e = Weights::from_bytes(&good[..good.len() - 3]).unwrap_err();
        assert!(e.0.contains("not a valid weights file"), "{e}");
        let e = Weights::from_bytes(b"hello").unwrap_err();
        assert!(e.0.contains("SALTOEVW"), "{e}");
        let e = w.check::<English>().unwrap_err();
        assert!(e.0.contains("for international, not english"), "{e}");
        let mut other = w.clone();
        other.layout ^= 1;
        assert!(
            other
                .check::<International>()
                .unwrap_err()
                .0
                .contains("feature layout")
        );
    }
}
