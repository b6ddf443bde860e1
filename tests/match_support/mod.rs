//! Test support for the match runner: a toy game ("walk") implementing
//! `Game`, and fake Hub engines written as Python scripts.
//!
//! Walk: a counter starts at 0; a move adds 1 (`up1`), adds 2 (`up2`) or
//! takes 1 away (`down`, when above 0), never past 20. The player who
//! cannot move (the counter is at 20) loses. `up2` is irreversible (for the
//! repetition rule); 200 plies in all is a draw by the move-count rule. The
//! Hub position string and the FEN are both `W:c` / `B:c` (the player to
//! move, then the counter).

#![allow(dead_code)]

use salto::game::{Game, MoveList, Outcome, ParseError, ParseResult, Score};
use salto::tournament::{EngineSpec, MatchConfig, OpeningChoice, RefereeConfig, TimeControl};
use std::path::{Path, PathBuf};

pub const TOP: u8 = 20;

#[derive(Clone, Copy, Debug, Default)]
pub struct Walk;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkPos {
    pub c: u8,
    pub to_move: usize,
    pub rev: u32,
    pub plies: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WalkMove {
    #[default]
    Up1,
    Up2,
    Down,
}

const NAMES: [(&str, WalkMove); 3] = [
    ("up1", WalkMove::Up1),
    ("up2", WalkMove::Up2),
    ("down", WalkMove::Down),
];

impl Game for Walk {
    type Position = WalkPos;
    type Move = WalkMove;

    fn name(&self) -> &'static str {
        "walk"
    }

    fn descriptor(&self) -> &'static salto::game::Descriptor {
        &salto::game::descriptor::OTHER
    }
    fn start(&self) -> WalkPos {
        WalkPos {
            c: 0,
            to_move: 0,
            rev: 0,
            plies: 0,
        }
    }
    fn to_move(&self, pos: &WalkPos) -> usize {
        pos.to_move
    }
    fn generate(&self, pos: &WalkPos, out: &mut MoveList<WalkMove>) {
        if pos.c >= TOP {
            return;
        }
        out.push(WalkMove::Up1);
        if pos.c + 2 <= TOP {
            out.push(WalkMove::Up2);
        }
        if pos.c > 0 {
            out.push(WalkMove::Down);
        }
    }
    fn play(&self, pos: &WalkPos, mv: WalkMove) -> WalkPos {
        let (c, rev) = match mv {
            WalkMove::Up1 => (pos.c + 1, pos.rev + 1),
            WalkMove::Up2 => (pos.c + 2, 0),
            WalkMove::Down => (pos.c - 1, pos.rev + 1),
        };
        WalkPos {
            c,
            to_move: 1 - pos.to_move,
            rev,
            plies: pos.plies + 1,
        }
    }
    fn hash(&self, pos: &WalkPos) -> u64 {
        (pos.c as u64 * 2 + pos.to_move as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn hash_from_scratch(&self, pos: &WalkPos) -> u64 {
        self.hash(pos)
    }
    fn is_noisy(&self, _: &WalkPos, _: WalkMove) -> bool {
        false
    }
    fn is_unstable(&self, _: &WalkPos) -> bool {
        false
    }
    fn outcome(&self, pos: &WalkPos) -> Option<Outcome> {
        (pos.plies >= 200).then_some(Outcome::Draw)
    }
    fn reversible_plies(&self, pos: &WalkPos) -> u32 {
        pos.rev
    }
    fn evaluate(&self, _: &WalkPos) -> Score {
        0
    }
    fn parse_move(&self, pos: &WalkPos, text: &str) -> ParseResult<WalkMove> {
        let mv = NAMES
            .iter()
            .find(|(n, _)| *n == text.trim())
            .map(|(_, m)| *m)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not a move (up1, up2, down)")))?;
        let mut list = MoveList::new();
        self.generate(pos, &mut list);
        if list.contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::new(format!("'{text}' is illegal at {}", pos.c)))
        }
    }
    fn format_move(&self, _: &WalkPos, mv: WalkMove) -> String {
        NAMES
            .iter()
            .find(|(_, m)| *m == mv)
            .map(|(n, _)| n.to_string())
            .unwrap_or_default()
    }
    fn parse_fen(&self, text: &str) -> ParseResult<WalkPos> {
        let (side, c) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| ParseError::new("expected W:c or B:c"))?;
        let to_move = match side {
            "W" => 0,
            "B" => 1,
            _ => return Err(ParseError::new("side must be W or B")),
        };
        let c: u8 = c
            .parse()
            .ok()
            .filter(|c| *c <= TOP)
            .ok_or_else(|| ParseError::new("bad counter"))?;
        Ok(WalkPos {
            c,
            to_move,
            rev: 0,
            plies: 0,
        })
    }
    fn format_fen(&self, pos: &WalkPos) -> String {
        format!("{}:{}", if pos.to_move == 0 { "W" } else { "B" }, pos.c)
    }
    fn parse_hub_position(&self, text: &str) -> ParseResult<WalkPos> {
        self.parse_fen(text)
    }
    fn format_hub_position(&self, pos: &WalkPos) -> String {
        self.format_fen(pos)
    }
}

/// A fake Hub engine for walk. Modes:
/// - `good`: plays to leave the counter at 2 mod 3 (wins whenever it can),
///   reports `info score=10` when it thinks it wins, `-10` otherwise;
/// - `weak`: always `up1`, reports score 0;
/// - `shuffle`: `up1` on even counters, `down` on odd ones (repeats);
/// - `illegal`: answers every search with `done move=jump`;
/// - `hang`: never answers `go`;
/// - `crash`: exits in the middle of its second search;
/// - `nohub`: never answers `hub`;
/// - `errors`: answers every search with `error message="..."`;
/// - `slowclear`: plays as `good`, but takes 2.5 s over `new-game` (a
///   large table being cleared), answering `ping` only after it;
/// - `junk`: plays as `good`, with junk lines (unknown commands, bad
///   numbers, invalid UTF-8, an unsolicited `done` before `go`) around its
///   answers;
/// - `slow`: plays as `good` after 0.4 s of "thinking" whatever the limit.
///
/// Every mode but `nohub` answers `ping` with `pong`; with `PIDFILE` in
/// the environment the engine appends its process id to that file.
pub const FAKE_ENGINE: &str = r#"
import os, sys, time
mode = sys.argv[1]
if os.environ.get("PIDFILE"):
    with open(os.environ["PIDFILE"], "a") as f:
        f.write("%d\n" % os.getpid())
searches = 0
root = 0
moves = []

def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()

def counter():
    c = root
    for m in moves:
        c += {"up1": 1, "up2": 2, "down": -1}[m]
    return c

for raw in sys.stdin:
    line = raw.strip()
    words = line.split(" ", 1)
    cmd = words[0]
    if cmd == "hub":
        if mode == "nohub":
            continue
        out("id name=fake-" + mode + " version=0")
        out("param name=variant value=walk type=enum values=\"walk\"")
        out("wait")
    elif cmd == "init":
        out("ready")
    elif cmd == "ping":
        out("pong")
    elif cmd == "new-game":
        if mode == "slowclear":
            time.sleep(2.5)
        if mode == "junk":
            out("done move=up2")
    elif cmd == "pos":
        rest = words[1] if len(words) > 1 else ""
        try:
            root = int(rest.split("pos=", 1)[1].split()[0].split(":")[1])
        except (IndexError, ValueError):
            root = 0  # not walk (e.g. a real variant in a CLI test)
        moves = rest.split("moves=\"", 1)[1].split("\"")[0].split() if "moves=\"" in rest else []
    elif cmd == "go":
        searches += 1
        c = counter()
        if mode == "hang":
            continue
        if mode == "crash" and searches == 2:
            sys.exit(3)
        if mode == "errors":
            out("error message=\"I do not know this position\"")
            continue
        if mode == "illegal":
            out("done move=jump")
            continue
        if mode == "junk":
            out("@@@ this is not a hub line ===")
            out("info depth=x score=NaN nodes=-")
            sys.stdout.buffer.write(b"info \xff\xfe pv=\"\n")
            sys.stdout.flush()
            out("")
        if mode == "slow":
            time.sleep(0.4)
        if mode in ("good", "slowclear", "junk", "slow"):
            best = None
            for step, name in ((1, "up1"), (2, "up2")):
                if c + step <= 20 and (c + step) % 3 == 2:
                    best = name
            if best is None:
                out("info depth=1 score=-10.00 nodes=1")
                best = "up1"
            else:
                out("info depth=1 score=10.00 nodes=1")
            out("done move=" + best)
        elif mode == "shuffle":
            out("info depth=1 score=0.00 nodes=1")
            out("done move=" + ("up1" if c % 2 == 0 else "down"))
        else:
            out("info depth=1 score=0.00 nodes=1")
            out("done move=up1")
    elif cmd == "stop":
        pass
    elif cmd == "quit":
        break
"#;

/// Writes the fake engine into a fresh directory and returns its path.
pub fn fake_engine_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("salto-match-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("engine.py"), FAKE_ENGINE).expect("write engine");
    dir
}

/// The `--engine` text of a fake engine.
pub fn fake_spec(dir: &Path, mode: &str, name: &str) -> String {
    format!(
        "cmd=python3 args=\"{}/engine.py {mode}\" name={name}",
        dir.display()
    )
}

pub mod race;

/// Writes the race engine ([`race::RACE_ENGINE`]) into a fresh directory.
pub fn race_engine_dir(test: &str) -> PathBuf {
    let dir = fake_engine_dir(test);
    std::fs::write(dir.join("race.py"), race::RACE_ENGINE).expect("write engine");
    dir
}

/// The `--engine` text of a race engine.
pub fn race_spec(dir: &Path, mode: &str, name: &str) -> String {
    format!(
        "cmd=python3 args=\"{}/race.py {mode}\" name={name}",
        dir.display()
    )
}

/// A match at depth 1 from the start, one game at a time, no ply limit,
/// the default points, with these `set-param` lines.
pub fn test_config(
    engines: Vec<EngineSpec>,
    games: u64,
    game_params: Vec<(String, String)>,
) -> MatchConfig {
    MatchConfig {
        engines,
        games,
        tournament: Default::default(),
        shard: None,
        sprt: None,
        referee: RefereeConfig {
            tc: TimeControl::Depth(1),
            margin: 0.1,
            timeout: 5.0,
            start_timeout: 10.0,
            adjudication: None,
            max_plies: 0,
            repetition: true,
            game_params,
            points: None,
            hooks: Default::default(),
        },
        openings: OpeningChoice::Start,
        concurrency: 1,
        pdn: None,
        resume: None,
        event: "test".into(),
        site: "?".into(),
        seed: 1,
        progress: false,
    }
}

/// Asserts that no game of a match summary (`salto match` output) ended by
/// an engine's failure; `what` names the match in the message.
pub fn assert_no_failure(summary: &str, what: &str) {
    for bad in [
        "illegal-move",
        "time-forfeit",
        "hung",
        "crash",
        "start-failed",
        "engine-error",
    ] {
        assert!(
            !summary.contains(bad),
            "{what}: a game ended by {bad}: {summary}"
        );
    }
}
