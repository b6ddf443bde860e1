//! The databases in a Hub session: the parameters `egdb-path` and
//! `egdb-pieces`, and what `init` does with them (docs/protocol.md,
//! docs/egdb.md "The standard place"): find the folder, say what is
//! there, set the search's probe to every complete piece count (capped),
//! and start the build of the small databases when they are missing.

use crate::draughts::{Draughts, Rules};
use crate::egdb::file::FileState;
use crate::egdb::index::MAX_PIECES;
use crate::egdb::place::{self, Scan};
use crate::egdb::{configure, rules_key};
use crate::variant::Options;
use crate::variant::{RulesVisitor, dispatch_rules};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A line for the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// An `info egdb="..."` line.
    Info(String),
    /// An `error message="..."` line.
    Error(String),
}

/// Where the notes of the background work (a build finished, a file that
/// failed its checksum at load) go.
pub type Sink = Arc<dyn Fn(Note) + Send + Sync>;

/// The default of `egdb-pieces`: every piece count found.
pub const DEFAULT_CAP: u32 = MAX_PIECES as u32;

/// The probe the background build may widen: the folder and rule set the
/// session was last set up for, and its cap.
struct Active {
    root: PathBuf,
    key: &'static str,
    cap: u32,
    limit: u32,
}

static ACTIVE: Mutex<Option<Active>> = Mutex::new(None);

/// The database settings of one Hub session.
pub struct HubEgdb {
    /// `egdb-path`: `None` for the standard place.
    path: Option<PathBuf>,
    /// `egdb-pieces`: the most pieces probed (0: off).
    cap: u32,
    /// Whether the standard place is used (and built into) when no
    /// `egdb-path` is given: the `salto hub` process, not a library user.
    standard: bool,
    /// What the probe was last set up for: rule set, path, cap.
    done: Option<(&'static str, Option<PathBuf>, u32)>,
}

impl HubEgdb {
    pub fn new(standard: bool) -> Self {
        HubEgdb {
            path: None,
            cap: DEFAULT_CAP,
            standard,
            done: None,
        }
    }

    /// The `param` lines `hub` lists.
    pub fn params(&self) -> Vec<String> {
        let path = self
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        vec![
            format!("param name=egdb-path value=\"{path}\" type=string"),
            format!(
                "param name=egdb-pieces value={} type=int min=0 max={MAX_PIECES}",
                self.cap
            ),
        ]
    }

    /// `set-param` for the database settings: `None` when `name` is not
    /// one of them, else the outcome (a bad value is an error and changes
    /// nothing). Takes effect at the next `init` or search.
    pub fn set_param(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        match name.trim().to_ascii_lowercase().as_str() {
            "egdb-path" => {
                let v = value.trim().trim_matches('"');
                self.path = (!v.is_empty()).then(|| PathBuf::from(v));
                Some(Ok(()))
            }
            "egdb-pieces" => Some(match value.trim().parse::<u32>() {
                Ok(n) if n as usize <= MAX_PIECES => {
                    self.cap = n;
                    Ok(())
                }
                _ => Err(format!(
                    "bad value '{}' for egdb-pieces: expected a number from 0 (off) to {MAX_PIECES}",
                    value.chars().take(40).collect::<String>()
                )),
            }),
            _ => None,
        }
    }

    /// True when the probe is not set up for these options and settings.
    pub fn needs_setup(&self, opts: &Options) -> bool {
        let key = key_of(opts);
        self.done.as_ref() != Some(&(key, self.path.clone(), self.cap))
    }

    /// Sets the search's probe up for `opts` and returns the lines for
    /// the host. Never blocks on a build: a missing small database is
    /// built on a thread of its own, and `sink` hears when it is ready.
    pub fn setup(&mut self, opts: &Options, sink: Sink) -> Vec<Note> {
        let key = key_of(opts);
        self.done = Some((key, self.path.clone(), self.cap));
        crate::egdb::set_reporter(Some({
            let sink = sink.clone();
            Arc::new(move |msg| sink(Note::Error(msg)))
        }));
        let explicit = self.path.is_some();
        let root = match &self.path {
            Some(p) => Some(p.clone()),
            None if self.standard => place::standard_root(),
            None => None,
        };
        let off = |notes: Vec<Note>| {
            set_active(None);
            configure(None, 0);
            notes
        };
        let Some(root) = root else {
            return off(Vec::new());
        };
        if self.cap == 0 {
            return off(if explicit {
                vec![Note::Info("off (egdb-pieces 0)".into())]
            } else {
                Vec::new()
            });
        }
        if key.is_empty() {
            return off(if explicit {
                vec![Note::Info(
                    "chinese checkers has no endgame database".into(),
                )]
            } else {
                Vec::new()
            });
        }
        if explicit && !root.is_dir() {
            return off(vec![Note::Error(format!(
                "egdb-path {} is not a folder: playing without endgame databases",
                root.display()
            ))]);
        }
        let visitor = Setup {
            root,
            cap: self.cap,
            build: !explicit,
            sink,
        };
        dispatch_rules(opts, visitor).unwrap_or_else(|e| off(vec![Note::Info(e.0)]))
    }
}

/// The rule set key of `opts` ("" for chinese checkers).
fn key_of(opts: &Options) -> &'static str {
    struct Key;
    impl RulesVisitor for Key {
        type Output = &'static str;
        fn visit<R: Rules>(self, _game: Draughts<R>) -> &'static str {
            rules_key::<R>()
        }
    }
    dispatch_rules(opts, Key).unwrap_or("")
}

fn set_active(a: Option<Active>) {
    if let Ok(mut g) = ACTIVE.lock() {
        *g = a;
    }
}

/// The lines about a scan: every bad file, then what is complete.
fn describe(scan: &Scan, limit: u32) -> Vec<Note> {
    let mut notes: Vec<Note> = scan
        .bad()
        .map(|(s, e)| {
            Note::Error(format!(
                "egdb {}/{}.egdb: {e}; playing without it",
                scan.dir.display(),
                s.material
            ))
        })
        .collect();
    for s in &scan.slices {
        if let FileState::Bad(e) = &s.dtc {
            notes.push(Note::Error(format!(
                "egdb {}/{}.dtc: {e}; the slice plays without distances",
                scan.dir.display(),
                s.material
            )));
        }
    }
    notes.push(Note::Info(format!(
        "{}: {} in {}; probing up to {limit} pieces",
        scan.key,
        scan.summary(),
        scan.dir.display()
    )));
    notes
}

struct Setup {
    root: PathBuf,
    cap: u32,
    build: bool,
    sink: Sink,
}

impl RulesVisitor for Setup {
    type Output = Vec<Note>;
    fn visit<R: Rules>(self, _game: Draughts<R>) -> Vec<Note> {
        let key = rules_key::<R>();
        let scan = place::scan::<R>(&self.root);
        let limit = scan.complete.min(self.cap);
        let mut notes = describe(&scan, limit);
        if let Ok(mut g) = ACTIVE.lock() {
            configure(Some(self.root.clone()), limit);
            *g = Some(Active {
                root: self.root.clone(),
                key,
                cap: self.cap,
                limit,
            });
        }
        if !self.build {
            if scan.complete == 0 {
                notes.push(Note::Error(format!(
                    "egdb-path {} holds no complete {key} database (expected {}/<material>.egdb: salto egdb build --dir {}): playing without",
                    self.root.display(),
                    scan.dir.display(),
                    self.root.display()
                )));
            }
            return notes;
        }
        let target = place::first_use_pieces::<R>().min(self.cap);
        if target > scan.complete {
            let (root, sink) = (self.root.clone(), self.sink.clone());
            let failed = {
                let sink = self.sink.clone();
                let dir = scan.dir.clone();
                move |e: String| {
                    sink(Note::Error(format!(
                        "egdb build in {} stopped: {e}",
                        dir.display()
                    )))
                }
            };
            let started = place::spawn_build::<R>(
                self.root.clone(),
                target,
                move |n| widen::<R>(&root, n, &sink),
                failed,
            );
            if started {
                notes.push(Note::Info(format!(
                    "{key}: building 2-{target} pieces in the background into {}",
                    scan.dir.display()
                )));
            }
        }
        notes
    }
}

/// After the background build completed `n` pieces: when the session
/// still probes this folder and rule set, probe what is complete now.
fn widen<R: Rules>(root: &std::path::Path, n: u32, sink: &Sink) {
    let key = rules_key::<R>();
    let Ok(mut g) = ACTIVE.lock() else { return };
    let Some(a) = g.as_mut() else { return };
    if a.key != key || a.root != root {
        return;
    }
    let scan = place::scan::<R>(root);
    let limit = scan.complete.min(a.cap);
    if limit > a.limit {
        a.limit = limit;
        configure(Some(root.to_path_buf()), limit);
        sink(Note::Info(format!(
            "{key}: {n} pieces built; probing up to {limit} pieces"
        )));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_parse_and_reject_bad_values() {
        let mut h = HubEgdb::new(false);
        assert!(h.set_param("threads", "1").is_none());
        assert!(h.set_param("egdb-pieces", "99").unwrap().is_err());
        assert!(h.set_param("egdb-pieces", "x").unwrap().is_err());
        assert_eq!(h.cap, DEFAULT_CAP);
        assert!(h.set_param("egdb-pieces", "3").unwrap().is_ok());
        assert!(h.set_param("egdb-path", "\"/no/such\"").unwrap().is_ok());
        assert_eq!(h.path, Some(PathBuf::from("/no/such")));
        assert!(
            h.params()
                .contains(&"param name=egdb-pieces value=3 type=int min=0 max=8".to_string())
        );
    }
}
