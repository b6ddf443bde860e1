//! The journal of a match (`salto match --resume FILE`): a header line
//! naming the match, then one JSON line per counted game, appended and
//! synced as each game ends. A match killed at any moment and started again
//! with the same command reads the journal back, counts the games it holds
//! and plays only the others.
//!
//! A line is a record only when it ends with a newline and parses: a line
//! cut by the kill is dropped (and cut off the file) and its game is
//! played again.

use super::play::{EndKind, GameRecord};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first line: what match the journal is of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The journal's format (1).
    pub journal: u32,
    pub variant: String,
    pub engines: Vec<String>,
    pub seed: u64,
    /// A hash of everything that decides the games (engines' commands and
    /// parameters, limits, openings, schedule, referee settings).
    pub fingerprint: String,
}

/// One counted game: what the summary counts, and its PDN text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The game's number in the schedule.
    pub game: u64,
    pub seats: Vec<usize>,
    pub points: Vec<f64>,
    pub places: Vec<usize>,
    pub winner: Option<usize>,
    /// [`EndKind::name`].
    pub kind: String,
    pub culprit: Option<usize>,
    /// The game as PDN (empty when the match writes no PDN).
    pub pdn: String,
}

impl Entry {
    pub fn of(game: u64, rec: &GameRecord, pdn: String) -> Self {
        Entry {
            game,
            seats: rec.seats.clone(),
            points: rec.points.clone(),
            places: rec.places.clone(),
            winner: rec.winner,
            kind: rec.kind.name().to_string(),
            culprit: rec.culprit,
            pdn,
        }
    }

    /// The record the summary counts (what it does not count is empty).
    pub fn record(&self) -> Result<GameRecord, String> {
        let kind = EndKind::from_name(&self.kind)
            .ok_or_else(|| format!("game {}: unknown ending '{}'", self.game, self.kind))?;
        let n = self.seats.len();
        if n == 0 || self.points.len() != n || self.places.len() != n {
            return Err(format!(
                "game {}: seats, points and places differ in length",
                self.game
            ));
        }
        if self.winner.is_some_and(|w| w >= n) || self.culprit.is_some_and(|c| c >= n) {
            return Err(format!("game {}: a seat out of range", self.game));
        }
        Ok(GameRecord {
            seats: self.seats.clone(),
            names: Vec::new(),
            points: self.points.clone(),
            places: self.places.clone(),
            winner: self.winner,
            kind,
            culprit: self.culprit,
            reason: String::new(),
            root_fen: None,
            moves: Vec::new(),
            pdn_moves: Vec::new(),
            comments: Vec::new(),
            opening_plies: 0,
            root_to_move: 0,
            first_player: 0,
            final_fen: String::new(),
            think_time: Vec::new(),
        })
    }
}

/// An open journal, appended to game by game.
pub struct Journal {
    path: PathBuf,
    file: File,
}

/// The complete lines of `text` (each ending with a newline): their byte
/// length and the lines.
fn complete_lines(text: &str) -> (usize, Vec<&str>) {
    let mut len = 0;
    let mut lines = Vec::new();
    for line in text.split_inclusive('\n') {
        if !line.ends_with('\n') {
            break;
        }
        len += line.len();
        lines.push(line.trim_end());
    }
    (len, lines)
}

impl Journal {
    /// Opens the journal at `path` for the match `header`: a new file (or
    /// an empty one) gets the header; an existing one must be of the same
    /// match and gives back its games, oldest first. A cut last line is
    /// taken off the file. Records of a game number not in `games` are an
    /// error (not the same schedule).
    pub fn open(path: &Path, header: &Header) -> Result<(Journal, Vec<Entry>), String> {
        let name = path.display();
        let text = match std::fs::read(path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read the journal {name}: {e}")),
        };
        let (len, lines) = complete_lines(&text);
        let mut entries = Vec::new();
        if let Some(first) = lines.first() {
            let h: Header = serde_json::from_str(first).map_err(|e| {
                format!("{name} is not a match journal ({e}); give another --resume file")
            })?;
            if &h != header {
                return Err(format!(
                    "{name} is the journal of another match ({} {:?} seed {}, fingerprint {}; this one: {} {:?} seed {}, fingerprint {}): remove it or give another --resume file",
                    h.variant,
                    h.engines,
                    h.seed,
                    h.fingerprint,
                    header.variant,
                    header.engines,
                    header.seed,
                    header.fingerprint
                ));
            }
            let mut seen = std::collections::BTreeSet::new();
            for (i, line) in lines.iter().enumerate().skip(1) {
                let e: Entry = serde_json::from_str(line)
                    .map_err(|e| format!("{name}, line {}: {e}", i + 1))?;
                e.record()
                    .map_err(|e| format!("{name}, line {}: {e}", i + 1))?;
                if !seen.insert(e.game) {
                    return Err(format!("{name}, line {}: game {} twice", i + 1, e.game + 1));
                }
                entries.push(e);
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot write the journal {name}: {e}"))?;
        // Drop a line cut in the middle (no newline at its end).
        file.set_len(len as u64)
            .map_err(|e| format!("cannot write the journal {name}: {e}"))?;
        let mut j = Journal {
            path: path.to_path_buf(),
            file,
        };
        use std::io::Seek;
        j.file
            .seek(std::io::SeekFrom::End(0))
            .map_err(|e| format!("cannot write the journal {name}: {e}"))?;
        if lines.is_empty() {
            let line = serde_json::to_string(header).map_err(|e| e.to_string())?;
            j.append_line(&line)?;
        }
        Ok((j, entries))
    }

    fn append_line(&mut self, line: &str) -> Result<(), String> {
        let r = self
            .file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.file.sync_data());
        r.map_err(|e| format!("writing the journal {}: {e}", self.path.display()))
    }

    /// Appends one counted game, synced to the disk before it returns.
    pub fn append(&mut self, e: &Entry) -> Result<(), String> {
        let line = serde_json::to_string(e).map_err(|e| e.to_string())?;
        self.append_line(&line)
    }
}

/// FNV-1a 64 of `text`, in hex (the header's fingerprint).
pub fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            journal: 1,
            variant: "international".into(),
            engines: vec!["a".into(), "b".into()],
            seed: 7,
            fingerprint: fingerprint("x"),
        }
    }

    fn entry(game: u64) -> Entry {
        Entry {
            game,
            seats: vec![0, 1],
            points: vec![1.0, 0.0],
            places: vec![0, 1],
            winner: Some(0),
            kind: "rules".into(),
            culprit: None,
            pdn: format!("[Round \"{}\"]\n", game + 1),
        }
    }

    fn path(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("salto-journal-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
        let p = d.join(name);
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn games_written_are_read_back_and_a_cut_line_is_dropped() {
        let p = path("cut.jsonl");
        let (mut j, old) = Journal::open(&p, &header()).unwrap_or_else(|e| panic!("{e}"));
        assert!(old.is_empty());
        j.append(&entry(0)).unwrap_or_else(|e| panic!("{e}"));
        j.append(&entry(3)).unwrap_or_else(|e| panic!("{e}"));
        drop(j);
        // A kill in the middle of the next record.
        let full = serde_json::to_string(&entry(1)).unwrap_or_default();
        let mut f = OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap_or_else(|e| panic!("{e}"));
        f.write_all(&full.as_bytes()[..full.len() / 2])
            .unwrap_or_else(|e| panic!("{e}"));
        drop(f);
        let (mut j, old) = Journal::open(&p, &header()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(old, vec![entry(0), entry(3)]);
        j.append(&entry(1)).unwrap_or_else(|e| panic!("{e}"));
        drop(j);
        let (_, old) = Journal::open(&p, &header()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(old, vec![entry(0), entry(3), entry(1)]);
        let rec = old[2].record().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((rec.kind, rec.winner), (EndKind::Rules, Some(0)));
    }

    #[test]
    fn the_journal_of_another_match_is_refused() {
        let p = path("other.jsonl");
        drop(Journal::open(&p, &header()).unwrap_or_else(|e| panic!("{e}")));
        let other = Header {
            seed: 8,
            ..header()
        };
        let e = Journal::open(&p, &other).err().unwrap_or_default();
        assert!(e.contains("another match"), "{e}");
        std::fs::write(&p, "not json\n").unwrap_or_else(|e| panic!("{e}"));
        let e = Journal::open(&p, &header()).err().unwrap_or_default();
        assert!(e.contains("not a match journal"), "{e}");
    }
}
