//! A toy multi-player race ("race") for the match runner's multi-player
//! tests: every player has a counter from 0; a move adds 1 (`up1`) or 2
//! (`up2`, only when that stays within [`GOAL`]) to the mover's counter.
//! The first player to reach [`GOAL`] wins; a player's distance to winning
//! is `GOAL - counter`. The position text is `c0,c1,c2:t` (the counters,
//! then the player to move).

use salto::game::{Game, MoveList, Outcome, ParseError, ParseResult, Score};

pub const GOAL: u8 = 10;

#[derive(Clone, Copy, Debug)]
pub struct Race {
    pub players: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RacePos {
    pub c: Vec<u8>,
    pub to_move: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RaceMove {
    #[default]
    Up1,
    Up2,
}

impl Game for Race {
    type Position = RacePos;
    type Move = RaceMove;

    fn name(&self) -> &'static str {
        "race"
    }

    fn descriptor(&self) -> &'static salto::game::Descriptor {
        &salto::game::descriptor::OTHER
    }
    fn start(&self) -> RacePos {
        RacePos {
            c: vec![0; self.players],
            to_move: 0,
        }
    }
    fn num_players(&self) -> usize {
        self.players
    }
    fn to_move(&self, pos: &RacePos) -> usize {
        pos.to_move
    }
    fn generate(&self, pos: &RacePos, out: &mut MoveList<RaceMove>) {
        let c = pos.c[pos.to_move];
        if c < GOAL {
            out.push(RaceMove::Up1);
        }
        if c + 2 <= GOAL {
            out.push(RaceMove::Up2);
        }
    }
    fn play(&self, pos: &RacePos, mv: RaceMove) -> RacePos {
        let mut p = pos.clone();
        p.c[pos.to_move] += if mv == RaceMove::Up2 { 2 } else { 1 };
        p.to_move = (pos.to_move + 1) % self.players;
        p
    }
    fn hash(&self, pos: &RacePos) -> u64 {
        pos.c
            .iter()
            .fold(pos.to_move as u64, |h, &c| h * 31 + c as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn hash_from_scratch(&self, pos: &RacePos) -> u64 {
        self.hash(pos)
    }
    fn is_noisy(&self, _: &RacePos, _: RaceMove) -> bool {
        false
    }
    fn is_unstable(&self, _: &RacePos) -> bool {
        false
    }
    fn outcome(&self, pos: &RacePos) -> Option<Outcome> {
        pos.c.iter().position(|&c| c >= GOAL).map(Outcome::Win)
    }
    fn distance_to_win(&self, pos: &RacePos, player: usize) -> Option<u32> {
        Some((GOAL - pos.c[player].min(GOAL)) as u32)
    }
    fn reversible_plies(&self, _: &RacePos) -> u32 {
        0
    }
    fn evaluate(&self, _: &RacePos) -> Score {
        0
    }
    fn parse_move(&self, pos: &RacePos, text: &str) -> ParseResult<RaceMove> {
        let mv = match text.trim() {
            "up1" => RaceMove::Up1,
            "up2" => RaceMove::Up2,
            _ => return Err(ParseError::new(format!("'{text}' is not a move"))),
        };
        let mut list = MoveList::new();
        self.generate(pos, &mut list);
        if list.contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::new(format!("'{text}' is illegal")))
        }
    }
    fn format_move(&self, _: &RacePos, mv: RaceMove) -> String {
        if mv == RaceMove::Up2 { "up2" } else { "up1" }.to_string()
    }
    fn parse_fen(&self, text: &str) -> ParseResult<RacePos> {
        let (cs, t) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| ParseError::new("expected c0,c1,...:t"))?;
        let c = cs
            .split(',')
            .map(|x| x.parse::<u8>().ok().filter(|&v| v <= GOAL))
            .collect::<Option<Vec<u8>>>()
            .filter(|c| c.len() == self.players)
            .ok_or_else(|| ParseError::new("bad counters"))?;
        let to_move = t
            .parse::<usize>()
            .ok()
            .filter(|&t| t < self.players)
            .ok_or_else(|| ParseError::new("bad player"))?;
        Ok(RacePos { c, to_move })
    }
    fn format_fen(&self, pos: &RacePos) -> String {
        let cs: Vec<String> = pos.c.iter().map(|c| c.to_string()).collect();
        format!("{}:{}", cs.join(","), pos.to_move)
    }
    fn parse_hub_position(&self, text: &str) -> ParseResult<RacePos> {
        self.parse_fen(text)
    }
    fn format_hub_position(&self, pos: &RacePos) -> String {
        self.format_fen(pos)
    }
}

/// A fake Hub engine for race. Modes:
/// - `fast`: always `up2` when legal;
/// - `medium`: `up2` while its counter is below 4, then `up1`;
/// - `slow`: always `up1`;
/// - `illegal2`: `up1` on its first search of a game, then `jump`.
pub const RACE_ENGINE: &str = r#"
import sys
mode = sys.argv[1]
searches = 0
root = None
moves = []

def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()

for raw in sys.stdin:
    line = raw.strip()
    words = line.split(" ", 1)
    cmd = words[0]
    if cmd == "hub":
        out("id name=race-" + mode + " version=0")
        out("wait")
    elif cmd == "init":
        out("ready")
    elif cmd == "ping":
        out("pong")
    elif cmd == "new-game":
        searches = 0
    elif cmd == "pos":
        rest = words[1] if len(words) > 1 else ""
        root = rest.split("pos=", 1)[1].split()[0].strip('"')
        moves = rest.split("moves=\"", 1)[1].split("\"")[0].split() if "moves=\"" in rest else []
    elif cmd == "go":
        searches += 1
        cs, t = root.split(":")
        c = [int(x) for x in cs.split(",")]
        t = int(t)
        for m in moves:
            c[t] += 2 if m == "up2" else 1
            t = (t + 1) % len(c)
        mine = c[t]
        if mode == "fast" or (mode == "medium" and mine < 4):
            mv = "up2" if mine + 2 <= 10 else "up1"
        elif mode == "illegal2" and searches >= 2:
            mv = "jump"
        else:
            mv = "up1"
        out("done move=" + mv)
    elif cmd == "quit":
        break
"#;
