//! The opening book (docs/book.md): a sorted table of (position, move,
//! score, depth, count) records keyed by the position's Zobrist hash, built
//! by `salto book build` from Salto's own searches ([`build`]), read here
//! with every header field and a checksum checked, and used by the Hub
//! engine through [`Settings`] and [`Probe`].
//!
//! ```text
//! header (40 bytes) | records (20 bytes each, sorted by key) | checksum (8 bytes)
//! ```

pub mod build;
pub mod shipped;

use crate::game::{Game, MoveList, SCORE_WIN_MIN, Score};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"SALTOBK\0";
/// The format version this Salto writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the header: magic, version, flags, record count, rules key,
/// variant name.
pub const HEADER: usize = 40;
/// Bytes of one record.
pub const RECORD: usize = 20;
/// Bytes of the trailing checksum.
pub const TRAILER: usize = 8;
/// Record flag: the move leads to a position the book does not expand (its
/// score is that of the leaf search).
pub const LEAF: u8 = 1;
/// Record flag: the score is a direct search of the position after the
/// move (`salto book rescore`), deeper than the value backed up from the
/// book's own tree below it, which it replaces.
pub const DIRECT: u8 = 2;

/// One book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The Zobrist hash of the position ([`Game::hash`]).
    pub key: u64,
    /// The move: the low 32 bits of the Zobrist difference it makes
    /// ([`move_code`]), matched against the legal moves.
    pub mv: u32,
    /// The move's score from the view of the player making it, centi-men.
    pub score: i16,
    /// The search depth behind the score (leaf search plus book plies).
    pub depth: u8,
    /// [`LEAF`], [`DIRECT`], both or 0.
    pub flags: u8,
    /// Book positions expanded below the move (0 for a leaf).
    pub count: u32,
}

/// A book: the records of one variant, sorted by key, then best score
/// first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// The variant's name ([`Game::name`]), for messages.
    pub variant: String,
    /// [`rules_key`] of the game the book was built for.
    pub rules: u64,
    records: Vec<Record>,
}

/// FNV-1a, 64 bits: the checksum and the rules key.
pub fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// What a book must match: the game's name and the Zobrist hash of its start
/// position (so that books of another variant, or built with other Zobrist
/// keys, are refused).
pub fn rules_key<G: Game>(game: &G) -> u64 {
    let h = fnv1a(game.name().as_bytes(), FNV_BASIS);
    fnv1a(&game.hash(&game.start()).to_le_bytes(), h)
}

/// The code a record stores for `mv` in `pos`.
pub fn move_code<G: Game>(game: &G, pos: &G::Position, mv: G::Move) -> u32 {
    (game.hash(&game.play(pos, mv)) ^ game.hash(pos)) as u32
}

/// A score from the view of the player to move in a child position, seen
/// from the player who moved there (a win one ply further away).
pub fn up(child: Score) -> Score {
    let v = -child;
    if v >= SCORE_WIN_MIN {
        v - 1
    } else if v <= -SCORE_WIN_MIN {
        v + 1
    } else {
        v
    }
}

/// The score a record can hold.
pub fn clamp_score(s: Score) -> i16 {
    s.clamp(i16::MIN as Score + 1, i16::MAX as Score) as i16
}

impl Book {
    /// A book of `records` (put in order here).
    pub fn new(variant: &str, rules: u64, mut records: Vec<Record>) -> Self {
        records.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.score.cmp(&a.score))
                .then(a.mv.cmp(&b.mv))
        });
        Book {
            variant: variant.to_string(),
            rules,
            records,
        }
    }

    /// An empty book for `game`.
    pub fn empty<G: Game>(game: &G) -> Self {
        Book::new(game.name(), rules_key(game), Vec::new())
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// How many positions have moves in the book.
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for r in &self.records {
            if last != Some(r.key) {
                n += 1;
                last = Some(r.key);
            }
        }
        n
    }

    /// The records of the position with hash `key`, best score first.
    pub fn entries(&self, key: u64) -> &[Record] {
        let lo = self.records.partition_point(|r| r.key < key);
        let hi = lo + self.records[lo..].partition_point(|r| r.key == key);
        &self.records[lo..hi]
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER + RECORD * self.records.len() + TRAILER);
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        b.extend_from_slice(&self.rules.to_le_bytes());
        let mut name = [0u8; 16];
        let n = self.variant.len().min(16);
        name[..n].copy_from_slice(&self.variant.as_bytes()[..n]);
        b.extend_from_slice(&name);
        for r in &self.records {
            b.extend_from_slice(&r.key.to_le_bytes());
            b.extend_from_slice(&r.mv.to_le_bytes());
            b.extend_from_slice(&r.score.to_le_bytes());
            b.push(r.depth);
            b.push(r.flags);
            b.extend_from_slice(&r.count.to_le_bytes());
        }
        let sum = fnv1a(&b, FNV_BASIS);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a book file's bytes, checking the magic, the version, the
    /// length against the record count, the checksum and the record order.
    pub fn decode(b: &[u8]) -> Result<Book, String> {
        if b.len() < HEADER + TRAILER || b[..8] != MAGIC {
            return Err("not a Salto book file (bad magic or too short)".into());
        }
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(a)
        };
        let version = u16_at(8);
        if version != VERSION {
            return Err(format!(
                "book format version {version}: this Salto reads version {VERSION} (rebuild the book)"
            ));
        }
        let count = u32_at(12) as usize;
        let want = HEADER + RECORD * count + TRAILER;
        if b.len() != want {
            return Err(format!(
                "the book file has {} bytes but its header announces {count} records ({want} bytes): it was cut short or is damaged",
                b.len()
            ));
        }
        let body = b.len() - TRAILER;
        if fnv1a(&b[..body], FNV_BASIS) != u64_at(body) {
            return Err("the book file's checksum does not match: it is corrupt".into());
        }
        let rules = u64_at(16);
        let name = &b[24..40];
        let end = name.iter().position(|&c| c == 0).unwrap_or(16);
        let variant = String::from_utf8_lossy(&name[..end]).into_owned();
        let mut records = Vec::with_capacity(count);
        for i in 0..count {
            let o = HEADER + RECORD * i;
            records.push(Record {
                key: u64_at(o),
                mv: u32_at(o + 8),
                score: u16_at(o + 12) as i16,
                depth: b[o + 14],
                flags: b[o + 15],
                count: u32_at(o + 16),
            });
        }
        if records.windows(2).any(|w| w[0].key > w[1].key) {
            return Err("the book's records are out of order: it is corrupt".into());
        }
        Ok(Book {
            variant,
            rules,
            records,
        })
    }

    /// Reads and checks a book file.
    pub fn load(path: &Path) -> Result<Book, String> {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("cannot read the book {}: {e}", path.display()))?;
        Book::decode(&bytes).map_err(|e| format!("book {}: {e}", path.display()))
    }

    /// Writes the book atomically: a temporary file beside `path`, then a
    /// rename, so that an interrupted write leaves the old file whole.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let write = || -> std::io::Result<()> {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&self.encode())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| format!("cannot write the book {}: {e}", path.display()))
    }

    /// Checks that the book is for `game`.
    pub fn check_for<G: Game>(&self, game: &G) -> Result<(), String> {
        if self.rules == rules_key(game) {
            return Ok(());
        }
        Err(if self.variant != game.name() {
            format!("the book is for {}, not for {}", self.variant, game.name())
        } else {
            format!(
                "the book was built for another version of {}'s rules or hash keys (rebuild it)",
                game.name()
            )
        })
    }

    /// The book moves of `pos` that match exactly one legal move, best
    /// score first.
    pub fn moves<G: Game>(&self, game: &G, pos: &G::Position) -> Vec<(G::Move, Record)> {
        let entries = self.entries(game.hash(pos));
        if entries.is_empty() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        game.generate(pos, &mut list);
        let codes: Vec<u32> = list.iter().map(|&m| move_code(game, pos, m)).collect();
        entries
            .iter()
            .filter_map(|r| {
                let mut hits = codes.iter().enumerate().filter(|(_, c)| **c == r.mv);
                match (hits.next(), hits.next()) {
                    (Some((i, _)), None) => Some((list[i], *r)),
                    _ => None,
                }
            })
            .collect()
    }

    /// The books `books` (of one game) in one: where several hold the same
    /// move of the same position, the record with the most work below it
    /// (count, then depth) is kept.
    pub fn merge(books: &[Book]) -> Result<Book, String> {
        let Some(first) = books.first() else {
            return Err("no book to merge".into());
        };
        if let Some(b) = books.iter().find(|b| b.rules != first.rules) {
            return Err(format!(
                "cannot merge books of different games or rules ({} and {})",
                first.variant, b.variant
            ));
        }
        let mut all: Vec<Record> = books
            .iter()
            .flat_map(|b| b.records.iter().copied())
            .collect();
        all.sort_by(|a, b| {
            (a.key, a.mv)
                .cmp(&(b.key, b.mv))
                .then(b.count.cmp(&a.count))
                .then(b.depth.cmp(&a.depth))
        });
        all.dedup_by(|later, kept| later.key == kept.key && later.mv == kept.mv);
        Ok(Book::new(&first.variant, first.rules, all))
    }
}

// ---------------------------------------------------------------------
// The Hub parameters and the engine's use of the book.

/// The book parameters of a Hub session (docs/protocol.md, "Opening book").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `book`: use a book (the shipped one, or `book-file`).
    pub on: bool,
    /// `book-file`: a book file instead of the shipped one.
    pub file: Option<PathBuf>,
    /// `book-ply`: the book is used while fewer plies than this have been
    /// played since the `pos` start.
    pub ply: u32,
    /// `book-margin`: a book move may score this much below the best one,
    /// centi-men.
    pub margin: u32,
    /// `book-seed`: which of the moves within the margin a position gets is
    /// a hash of this seed and the position, so the same seed plays the same
    /// book move in the same position (matches and tests reproduce).
    pub seed: u32,
}

/// `book-ply`'s default.
pub const DEFAULT_PLY: u32 = 30;
/// `book-margin`'s default, centi-men.
pub const DEFAULT_MARGIN: u32 = 4;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            on: true,
            file: None,
            ply: DEFAULT_PLY,
            margin: DEFAULT_MARGIN,
            seed: 0,
        }
    }
}

impl Settings {
    /// The `param` lines of `hub`.
    pub fn hub_params(&self) -> Vec<String> {
        let file = self
            .file
            .as_ref()
            .map_or(String::new(), |f| f.display().to_string());
        vec![
            format!("param name=book value={} type=bool", self.on),
            format!("param name=book-file value=\"{file}\" type=string"),
            format!(
                "param name=book-ply value={} type=int min=0 max=1000",
                self.ply
            ),
            format!(
                "param name=book-margin value={} type=int min=0 max=10000",
                self.margin
            ),
            format!(
                "param name=book-seed value={} type=int min=0 max=2147483647",
                self.seed
            ),
        ]
    }

    /// Sets a book parameter: `None` when `name` is none of them, else
    /// whether the value could be set (on error nothing changes).
    pub fn set_hub_param(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let v = value.trim();
        let int = |hi: u32| -> Result<u32, String> {
            let x: f64 = v
                .replace(',', ".")
                .parse()
                .map_err(|_| format!("bad value '{}' for {name}: expected a number", short(v)))?;
            if !(x.is_finite() && x >= 0.0 && x.floor() <= hi as f64) {
                return Err(format!(
                    "{name}={} is out of range: {name} takes 0 to {hi}; it stays as it was",
                    short(v)
                ));
            }
            Ok(x.floor() as u32)
        };
        Some(match name {
            "book" => match v.to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" => {
                    self.on = true;
                    Ok(())
                }
                "false" | "0" | "no" | "off" => {
                    self.on = false;
                    Ok(())
                }
                _ => Err(format!(
                    "bad value '{}' for book: expected true or false",
                    short(v)
                )),
            },
            "book-file" => {
                self.file = (!v.is_empty()).then(|| PathBuf::from(v));
                Ok(())
            }
            "book-ply" => int(1000).map(|n| self.ply = n),
            "book-margin" => int(10000).map(|n| self.margin = n),
            "book-seed" => int(i32::MAX as u32).map(|n| self.seed = n),
            _ => return None,
        })
    }
}

fn short(s: &str) -> String {
    crate::game::text::shorten(s, 40)
}

/// The book as one engine uses it: the book for its game (if any) and the
/// settings, with the seed that picks among near-best moves.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    book: Option<Arc<Book>>,
    ply: u32,
    margin: u32,
    seed: u64,
}

/// A move the book answers with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The `info` line that says it is a book move.
    pub info: String,
    /// The `done` line.
    pub done: String,
}

impl Probe {
    /// The probe for `game` under `s`: the shipped book of the game, or
    /// `s.file`; `Err` (and no book) when the file cannot be read, is
    /// corrupt or is for another game.
    pub fn new<G: Game>(game: &G, s: &Settings) -> Result<Probe, String> {
        let mut p = Probe {
            book: None,
            ply: s.ply,
            margin: s.margin,
            seed: s.seed as u64,
        };
        if !s.on {
            return Ok(p);
        }
        let book = match &s.file {
            Some(f) => {
                let b = Book::load(f)?;
                b.check_for(game)
                    .map_err(|e| format!("book {}: {e}", f.display()))?;
                Some(Arc::new(b))
            }
            None => shipped::book(game),
        };
        p.book = book;
        Ok(p)
    }

    /// Whether a book is in use.
    pub fn has_book(&self) -> bool {
        self.book.is_some()
    }

    /// The book's answer in `pos`, reached `ply` plies after the `pos`
    /// start: a move among those scored within the margin of the best,
    /// picked by a hash of the seed and the position, with the `info` and `done` lines. `None` when the book
    /// has nothing to say.
    pub fn answer<G: Game>(&mut self, game: &G, pos: &G::Position, ply: usize) -> Option<Answer> {
        let book = self.book.as_ref()?;
        if ply >= self.ply as usize {
            return None;
        }
        let moves = book.moves(game, pos);
        let best = moves.first()?.1.score as i32;
        let near: Vec<_> = moves
            .iter()
            .filter(|(_, r)| r.score as i32 >= best - self.margin as i32)
            .collect();
        let mut x = self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game.hash(pos);
        let pick = crate::game::zobrist::splitmix64(&mut x) % near.len() as u64;
        let &(mv, rec) = near[pick as usize];
        let next = game.play(pos, mv);
        let reply = book.moves(game, &next).first().map(|&(m, _)| m);
        let mut line = vec![game.format_move(pos, mv)];
        let ponder = reply.map(|m| game.format_move(&next, m));
        line.extend(ponder.clone());
        let info = format!(
            "{} book=yes",
            crate::session::format::info(
                rec.depth as u32,
                rec.depth as f64,
                rec.score as Score,
                0,
                0.0,
                &line
            )
        );
        let done = crate::session::format::done(&line[0], ponder.as_deref());
        Some(Answer { info, done })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::InternationalGame;

    fn sample() -> Book {
        let g = InternationalGame::default();
        let pos = g.start();
        let mut list = MoveList::new();
        g.generate(&pos, &mut list);
        let recs = list
            .iter()
            .enumerate()
            .map(|(i, &m)| Record {
                key: g.hash(&pos),
                mv: move_code(&g, &pos, m),
                score: i as i16 * 3 - 10,
                depth: 7,
                flags: if i % 2 == 0 { LEAF } else { 0 },
                count: i as u32,
            })
            .collect();
        Book::new(g.name(), rules_key(&g), recs)
    }

    #[test]
    fn the_format_round_trips() {
        let b = sample();
        let bytes = b.encode();
        assert_eq!(bytes.len(), HEADER + RECORD * b.records().len() + TRAILER);
        assert_eq!(Book::decode(&bytes), Ok(b.clone()));
        let g = InternationalGame::default();
        assert!(b.check_for(&g).is_ok());
        let moves = b.moves(&g, &g.start());
        assert_eq!(moves.len(), 9);
        assert!(moves.windows(2).all(|w| w[0].1.score >= w[1].1.score));
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = sample().encode();
        let e = Book::decode(&bytes[..bytes.len() - 5]).expect_err("cut");
        assert!(e.contains("cut short"), "{e}");
        let mut bad = bytes.clone();
        bad[HEADER + 3] ^= 0x10;
        assert!(
            Book::decode(&bad)
                .expect_err("flipped")
                .contains("checksum")
        );
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert!(
            Book::decode(&bad)
                .expect_err("version")
                .contains("version 9")
        );
        assert!(
            Book::decode(b"hello")
                .expect_err("junk")
                .contains("not a Salto book")
        );
        assert!(Book::decode(&[]).is_err());
        let english = crate::draughts::EnglishGame::default();
        let e = sample().check_for(&english).expect_err("foreign");
        assert!(e.contains("for international, not for english"), "{e}");
    }

    #[test]
    fn merging_keeps_the_record_with_more_work_below() {
        let a = sample();
        let mut recs = a.records().to_vec();
        recs[0].count = 1000;
        recs[0].score = 99;
        recs.pop();
        let b = Book::new(&a.variant, a.rules, recs);
        let m = Book::merge(&[a.clone(), b]).expect("same game");
        assert_eq!(m.records().len(), a.records().len());
        assert_eq!(m.records()[0].score, 99);
        let g = crate::draughts::EnglishGame::default();
        assert!(Book::merge(&[a, Book::empty(&g)]).is_err());
    }

    #[test]
    fn settings_parse_and_reject_bad_values() {
        let mut s = Settings::default();
        assert!(s.set_hub_param("threads", "1").is_none());
        assert_eq!(s.set_hub_param("book", "false"), Some(Ok(())));
        assert!(!s.on);
        assert!(s.set_hub_param("book", "maybe").unwrap().is_err());
        assert_eq!(s.set_hub_param("book-ply", "12"), Some(Ok(())));
        assert_eq!(s.ply, 12);
        assert!(s.set_hub_param("book-ply", "-1").unwrap().is_err());
        assert!(s.set_hub_param("book-margin", "x").unwrap().is_err());
        assert_eq!(s.ply, 12);
        assert_eq!(s.set_hub_param("book-file", " /tmp/b.bin "), Some(Ok(())));
        assert_eq!(s.file, Some(PathBuf::from("/tmp/b.bin")));
        assert_eq!(s.set_hub_param("book-file", ""), Some(Ok(())));
        assert_eq!(s.file, None);
    }

    #[test]
    fn the_probe_plays_within_the_margin_and_stops_at_book_ply() {
        let g = InternationalGame::default();
        let book = Arc::new(sample());
        let best = book.moves(&g, &g.start())[0].1.score;
        for margin in [0, 5] {
            for seed in 0..20 {
                let mut p = Probe {
                    book: Some(book.clone()),
                    ply: 4,
                    margin,
                    seed,
                };
                let a = p.answer(&g, &g.start(), 3).expect("in the book");
                // The same seed, the same position: the same move.
                assert_eq!(p.answer(&g, &g.start(), 3), Some(a.clone()));
                assert!(
                    a.info.ends_with("book=yes") && a.info.contains("nodes=0"),
                    "{}",
                    a.info
                );
                let mv = a.done.strip_prefix("done move=").expect("done");
                let m = g.parse_move(&g.start(), mv).expect("legal");
                let rec = book
                    .moves(&g, &g.start())
                    .into_iter()
                    .find(|x| x.0 == m)
                    .unwrap();
                assert!(rec.1.score >= best - margin as i16);
                assert!(p.answer(&g, &g.start(), 4).is_none());
            }
        }
    }
}
