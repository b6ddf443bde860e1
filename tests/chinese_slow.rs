//! An independent, slow Chinese checkers move generator, compared with the
//! engine's on move sets over thousands of positions from random playouts
//! and random crowded endgames, for every combination of options.
//!
//! The slow generator shares no code with the crate: it reads the Hub
//! position string (protocol.md) into a map from axial coordinates to
//! characters, follows rules.md literally (a recursive search of jump
//! chains with a `HashSet` of visited holes), and writes moves as text.
//! Only text crosses between the two generators.

use salto::chinese::Chinese;
use salto::variant::{Options, Variant};
use salto::{Game, MoveList, Outcome};
use std::collections::{BTreeSet, HashMap, HashSet};

// ---------------------------------------------------------------- the slow side

const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, -1), (1, -1), (-1, 1), (0, 1)];
const LETTERS: &str = "abcdef";

fn is_hole(q: i32, r: i32) -> bool {
    let s = -q - r;
    let low = q >= -4 && r >= -4 && s >= -4;
    let high = q <= 4 && r <= 4 && s <= 4;
    low || high
}

/// The corner letter ('a'..'f') of a hole, or None in the central hexagon.
fn corner(q: i32, r: i32) -> Option<char> {
    let s = -q - r;
    if r <= -5 {
        Some('a')
    } else if q >= 5 {
        Some('b')
    } else if s <= -5 {
        Some('c')
    } else if r >= 5 {
        Some('d')
    } else if q <= -5 {
        Some('e')
    } else if s >= 5 {
        Some('f')
    } else {
        None
    }
}

fn opposite(c: char) -> char {
    match c {
        'a' => 'd',
        'b' => 'e',
        'c' => 'f',
        'd' => 'a',
        'e' => 'b',
        _ => 'c',
    }
}

#[derive(Clone, Copy, Debug)]
struct Rules {
    players: usize,
    sets: usize,
    foreign_stop: bool,
    filled: bool,
    spoiling: &'static str,
}

impl Rules {
    /// Which player (0-based) owns the set that starts in corner `c`.
    fn owner(&self, c: char) -> Option<usize> {
        let table: &[&str] = match (self.players, self.sets) {
            (2, 1) => &["a", "d"],
            (3, 1) => &["a", "c", "e"],
            (4, 1) => &["a", "b", "d", "e"],
            (6, 1) => &["a", "b", "c", "d", "e", "f"],
            (2, 3) => &["ace", "bdf"],
            (3, 2) => &["ab", "cd", "ef"],
            _ => panic!("no such game"),
        };
        table.iter().position(|s| s.contains(c))
    }

    fn options(&self) -> Options {
        let mut o = Options::new(Variant::Chinese);
        o.set("players", &self.players.to_string()).unwrap();
        o.set("sets", &self.sets.to_string()).unwrap();
        o.set(
            "foreign-corners",
            if self.foreign_stop { "stop" } else { "pass" },
        )
        .unwrap();
        o.set(
            "unused-corners",
            if self.filled { "filled" } else { "empty" },
        )
        .unwrap();
        o.set("spoiling", self.spoiling).unwrap();
        o
    }
}

/// A position read from the Hub string.
#[derive(Clone)]
struct Board {
    to_move: usize,
    holes: Vec<(i32, i32)>,
    number: HashMap<(i32, i32), usize>,
    peg: HashMap<(i32, i32), char>,
}

impl Board {
    fn read(hub: &str) -> Board {
        let mut holes = Vec::new();
        for r in -8..=8 {
            for q in -8..=8 {
                if is_hole(q, r) {
                    holes.push((q, r));
                }
            }
        }
        let chars: Vec<char> = hub.chars().collect();
        assert_eq!(chars.len(), 1 + holes.len());
        let mut number = HashMap::new();
        let mut peg = HashMap::new();
        for (i, &h) in holes.iter().enumerate() {
            number.insert(h, i + 1);
            if chars[i + 1] != '.' {
                peg.insert(h, chars[i + 1]);
            }
        }
        Board {
            to_move: chars[0].to_digit(10).unwrap() as usize - 1,
            holes,
            number,
            peg,
        }
    }

    fn write(&self) -> String {
        let mut s = format!("{}", self.to_move + 1);
        for h in &self.holes {
            s.push(*self.peg.get(h).unwrap_or(&'.'));
        }
        s
    }

    fn at(&self, h: usize) -> (i32, i32) {
        self.holes[h - 1]
    }
}

fn is_home(rules: &Rules, b: &Board, set: char) -> bool {
    let t = opposite(set);
    let target: Vec<&(i32, i32)> = b
        .holes
        .iter()
        .filter(|h| corner(h.0, h.1) == Some(t))
        .collect();
    if rules.spoiling == "fill" {
        target.iter().all(|h| b.peg.contains_key(h))
            && target.iter().any(|h| b.peg.get(h) == Some(&set))
    } else {
        target.iter().all(|h| b.peg.get(h) == Some(&set))
    }
}

fn winner(rules: &Rules, b: &Board) -> Option<usize> {
    let n = rules.players;
    let mover = (b.to_move + n - 1) % n;
    (0..n).map(|i| (mover + i) % n).find(|&p| {
        LETTERS
            .chars()
            .filter(|&c| rules.owner(c) == Some(p))
            .all(|c| is_home(rules, b, c))
    })
}

/// All legal moves as text: `from-to`, `from*to`, or `pass`; none when the
/// game is over.
fn slow_moves(rules: &Rules, hub: &str) -> BTreeSet<String> {
    let b = Board::read(hub);
    let mut out = BTreeSet::new();
    if winner(rules, &b).is_some() {
        return out;
    }
    let me = b.to_move;
    for (&start, &set) in &b.peg {
        if set == 'x' || rules.owner(set) != Some(me) {
            continue;
        }
        let target = opposite(set);
        let home = corner(start.0, start.1) == Some(target);
        // Holes the peg may land on during the move (home rule).
        let may_land = |h: (i32, i32)| !home || corner(h.0, h.1) == Some(target);
        // Holes the peg may end on (foreign corners).
        let may_end = |h: (i32, i32)| {
            if !may_land(h) {
                return false;
            }
            if rules.foreign_stop {
                return true;
            }
            match corner(h.0, h.1) {
                None => true,
                Some(c) => c == set || c == target,
            }
        };
        // A swap partner: another player's peg in the target corner.
        let may_swap = |h: (i32, i32)| {
            rules.spoiling == "swap"
                && corner(h.0, h.1) == Some(target)
                && match b.peg.get(&h) {
                    Some(&c) if c != 'x' => rules.owner(c) != Some(me),
                    _ => false,
                }
        };
        // The board during the move: the moving peg has left its hole.
        let occupied = |h: (i32, i32)| h != start && b.peg.contains_key(&h);
        let from = b.number[&start];
        let mut ends = HashSet::new();
        let mut swaps = HashSet::new();
        for (dq, dr) in DIRS {
            let n = (start.0 + dq, start.1 + dr);
            if !is_hole(n.0, n.1) {
                continue;
            }
            if !occupied(n) {
                if may_end(n) {
                    ends.insert(n);
                }
            } else if may_swap(n) {
                swaps.insert(n);
            }
        }
        let mut visited = HashSet::new();
        visited.insert(start);
        fn chain(
            x: (i32, i32),
            visited: &mut HashSet<(i32, i32)>,
            occupied: &dyn Fn((i32, i32)) -> bool,
            may_land: &dyn Fn((i32, i32)) -> bool,
            may_swap: &dyn Fn((i32, i32)) -> bool,
            swaps: &mut HashSet<(i32, i32)>,
        ) {
            for (dq, dr) in DIRS {
                let over = (x.0 + dq, x.1 + dr);
                let land = (x.0 + 2 * dq, x.1 + 2 * dr);
                if !is_hole(land.0, land.1) || !occupied(over) {
                    continue;
                }
                if occupied(land) {
                    if may_swap(land) {
                        swaps.insert(land);
                    }
                } else if may_land(land) && visited.insert(land) {
                    chain(land, visited, occupied, may_land, may_swap, swaps);
                }
            }
        }
        chain(
            start,
            &mut visited,
            &occupied,
            &may_land,
            &may_swap,
            &mut swaps,
        );
        for h in visited {
            if h != start && may_end(h) {
                ends.insert(h);
            }
        }
        for h in ends {
            out.insert(format!("{}-{}", from, b.number[&h]));
        }
        for h in swaps {
            out.insert(format!("{}*{}", from, b.number[&h]));
        }
    }
    if out.is_empty() {
        out.insert("pass".to_string());
    }
    out
}

/// The Hub string after a move given as text.
fn slow_play(rules: &Rules, hub: &str, mv: &str) -> String {
    let mut b = Board::read(hub);
    if mv != "pass" {
        let (sep, swap) = if mv.contains('*') {
            ('*', true)
        } else {
            ('-', false)
        };
        let (f, t) = mv.split_once(sep).unwrap();
        let (f, t) = (b.at(f.parse().unwrap()), b.at(t.parse().unwrap()));
        let moving = b.peg.remove(&f).unwrap();
        if swap {
            let other = b.peg.remove(&t).unwrap();
            b.peg.insert(f, other);
        }
        b.peg.insert(t, moving);
    }
    b.to_move = (b.to_move + 1) % rules.players;
    b.write()
}

fn slow_perft(rules: &Rules, hub: &str, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = slow_moves(rules, hub);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| slow_perft(rules, &slow_play(rules, hub, m), depth - 1))
        .sum()
}

/// Distance from a hole to the tip of a corner (for the playout policy).
fn tip_distance(h: (i32, i32), c: char) -> i32 {
    let tip = match c {
        'a' => (4, -8),
        'b' => (8, -4),
        'c' => (4, 4),
        'd' => (-4, 8),
        'e' => (-8, 4),
        _ => (-4, -4),
    };
    let (dq, dr) = (h.0 - tip.0, h.1 - tip.1);
    dq.abs().max(dr.abs()).max((dq + dr).abs())
}

// ---------------------------------------------------------------- comparison

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn all_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for (players, sets) in [(2, 1), (3, 1), (4, 1), (6, 1), (2, 3), (3, 2)] {
        for foreign_stop in [false, true] {
            for filled in [false, true] {
                for spoiling in ["swap", "fill", "none"] {
                    out.push(Rules {
                        players,
                        sets,
                        foreign_stop,
                        filled,
                        spoiling,
                    });
                }
            }
        }
    }
    out
}

#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    swaps: usize,
    passes: usize,
    home_moves: usize,
    wins: usize,
    foreign_refused: usize,
}

/// Compares the two generators on one position, and `play`, the hash, the
/// outcome and the text forms along the way.
fn compare(
    rules: &Rules,
    g: &Chinese,
    hub: &str,
    check_foreign: bool,
    seen: &mut Seen,
) -> BTreeSet<String> {
    let pos = g.parse_hub_position(hub).unwrap();
    assert_eq!(g.format_hub_position(&pos), hub);
    let fen = g.format_fen(&pos);
    assert_eq!(g.parse_fen(&fen).unwrap(), pos, "FEN round trip {fen}");
    assert_eq!(g.hash(&pos), g.hash_from_scratch(&pos));
    let slow = slow_moves(rules, hub);
    let mut list = MoveList::new();
    g.generate(&pos, &mut list);
    let fast: BTreeSet<String> = list.iter().map(|&m| g.format_move(&pos, m)).collect();
    assert_eq!(fast.len(), list.len(), "duplicate moves in {hub}");
    assert_eq!(fast, slow, "{rules:?}\n{hub}\n{}", g.diagram(&pos));
    assert_eq!(g.count_moves(&pos), list.len() as u64);
    let b = Board::read(hub);
    let w = winner(rules, &b);
    assert_eq!(
        g.outcome(&pos),
        w.map(Outcome::Win),
        "{rules:?} {hub}\n{}",
        g.diagram(&pos)
    );
    seen.positions += 1;
    seen.wins += w.is_some() as usize;
    seen.swaps += slow.iter().any(|m| m.contains('*')) as usize;
    seen.passes += slow.contains("pass") as usize;
    // `play` against the slow side for a few moves (all of them is slow).
    for m in list.iter().step_by(list.len() / 4 + 1) {
        let text = g.format_move(&pos, *m);
        assert_eq!(g.parse_move(&pos, &text).unwrap(), *m);
        let next = g.play(&pos, *m);
        assert_eq!(g.hash(&next), g.hash_from_scratch(&next));
        assert_eq!(
            g.format_hub_position(&next),
            slow_play(rules, hub, &text),
            "play {text} in {hub}"
        );
    }
    // Coverage: a peg standing in its target corner that moves.
    for m in &slow {
        if let Some((f, _)) = m.split_once(['-', '*']) {
            let h = b.at(f.parse().unwrap());
            let set = b.peg[&h];
            if corner(h.0, h.1) == Some(opposite(set)) {
                seen.home_moves += 1;
                break;
            }
        }
    }
    if check_foreign && !rules.foreign_stop {
        let stop = Rules {
            foreign_stop: true,
            ..*rules
        };
        if slow_moves(&stop, hub).len() > slow.len() {
            seen.foreign_refused += 1;
        }
    }
    slow
}

/// A playout: mostly greedy (the move that brings its peg nearest its target
/// tip, swaps first), sometimes random; compares every position reached.
fn playout(rules: &Rules, g: &Chinese, rng: &mut Rng, max_plies: usize, seen: &mut Seen) {
    let mut hub = g.format_hub_position(&g.start());
    for _ in 0..max_plies {
        let moves: Vec<String> = compare(rules, g, &hub, rng.below(8) == 0, seen)
            .into_iter()
            .collect();
        if moves.is_empty() {
            return;
        }
        let mv = if rng.below(10) < 3 {
            moves[rng.below(moves.len())].clone()
        } else {
            let b = Board::read(&hub);
            let gain = |m: &String| -> i32 {
                match m.split_once(['-', '*']) {
                    None => 0,
                    Some((f, t)) => {
                        let (f, t) = (b.at(f.parse().unwrap()), b.at(t.parse().unwrap()));
                        let target = opposite(b.peg[&f]);
                        10 * (tip_distance(f, target) - tip_distance(t, target))
                            + m.contains('*') as i32
                    }
                }
            };
            let best = moves.iter().map(gain).max().unwrap();
            let top: Vec<&String> = moves.iter().filter(|m| gain(m) == best).collect();
            top[rng.below(top.len())].clone()
        };
        hub = slow_play(rules, &hub, &mv);
    }
}

/// A random crowded position: each set's pegs mostly in its target corner
/// or in other corners, neutral pegs in the unused corners when filled.
fn crowded(rules: &Rules, rng: &mut Rng) -> String {
    let start = Board::read(&format!("1{}", ".".repeat(121)));
    let mut b = start.clone();
    let holes = start.holes.clone();
    let in_corner = |c: char| -> Vec<(i32, i32)> {
        holes
            .iter()
            .copied()
            .filter(|h| corner(h.0, h.1) == Some(c))
            .collect()
    };
    let active: Vec<char> = LETTERS
        .chars()
        .filter(|&c| rules.owner(c).is_some())
        .collect();
    if rules.filled {
        for c in LETTERS.chars() {
            if rules.owner(c).is_none() && rules.owner(opposite(c)).is_none() {
                for h in in_corner(c) {
                    b.peg.insert(h, 'x');
                }
            }
        }
    }
    b.to_move = rng.below(rules.players);
    // Sometimes the player to move is stuck: nine pegs of each of its sets
    // at home, the tenth hole held by another player's peg (a pass under
    // `none`, a win under `fill`, a swap under `swap`).
    if rng.below(4) == 0 {
        for &set in &active {
            if rules.owner(set) != Some(b.to_move) {
                continue;
            }
            let mut t = in_corner(opposite(set));
            let blocker = t.swap_remove(rng.below(t.len()));
            for h in t {
                b.peg.insert(h, set);
            }
            let others: Vec<char> = active
                .iter()
                .copied()
                .filter(|&c| rules.owner(c) != Some(b.to_move))
                .collect();
            b.peg.insert(blocker, others[rng.below(others.len())]);
        }
    }
    for &set in &active {
        let placed = b.peg.values().filter(|&&c| c == set).count();
        if placed >= 9 {
            continue;
        }
        let pegs = 7 + rng.below(4);
        for _ in placed..pegs {
            for _ in 0..50 {
                let h = match rng.below(10) {
                    0..=5 => {
                        let t = in_corner(opposite(set));
                        t[rng.below(t.len())]
                    }
                    6 => {
                        let c = LETTERS.as_bytes()[rng.below(6)] as char;
                        let t = in_corner(c);
                        t[rng.below(t.len())]
                    }
                    _ => holes[rng.below(holes.len())],
                };
                if let std::collections::hash_map::Entry::Vacant(e) = b.peg.entry(h) {
                    e.insert(set);
                    break;
                }
            }
        }
    }
    b.write()
}

#[test]
fn slow_generator_reproduces_the_perft_records_to_depth_3() {
    let expected = [
        (2, false, 4648),
        (3, false, 2744),
        (4, false, 2758),
        (6, false, 2772),
        (2, true, 4760),
        (3, true, 2744),
        (4, true, 2786),
        (6, true, 2828),
    ];
    for (players, foreign_stop, count) in expected {
        let rules = Rules {
            players,
            sets: 1,
            foreign_stop,
            filled: false,
            spoiling: "swap",
        };
        let g = Chinese::new(&rules.options()).unwrap();
        let hub = g.format_hub_position(&g.start());
        assert_eq!(slow_perft(&rules, &hub, 3), count, "{rules:?}");
    }
}

#[test]
fn move_sets_agree_with_the_slow_generator_on_playouts_with_every_option() {
    let mut rng = Rng(0x5EED_C0FF_EE12_3457);
    let mut seen = Seen::default();
    for rules in all_rules() {
        let g = Chinese::new(&rules.options()).unwrap();
        playout(&rules, &g, &mut rng, 160, &mut seen);
    }
    println!("{seen:?}");
    assert!(seen.positions >= 4000, "{seen:?}");
    assert!(
        seen.swaps > 0 && seen.home_moves > 0 && seen.wins > 0,
        "{seen:?}"
    );
    assert!(seen.foreign_refused > 0, "{seen:?}");
}

#[test]
fn move_sets_agree_with_the_slow_generator_on_crowded_endgames() {
    let mut rng = Rng(0x0DDB_A11C_AFE5_0001);
    let mut seen = Seen::default();
    for rules in all_rules() {
        let g = Chinese::new(&rules.options()).unwrap();
        for _ in 0..40 {
            let hub = crowded(&rules, &mut rng);
            compare(&rules, &g, &hub, true, &mut seen);
        }
    }
    println!("{seen:?}");
    assert!(seen.positions >= 2000, "{seen:?}");
    assert!(seen.swaps > 100 && seen.home_moves > 100, "{seen:?}");
    assert!(seen.passes > 20 && seen.wins > 20, "{seen:?}");
    assert!(seen.foreign_refused > 0, "{seen:?}");
}
