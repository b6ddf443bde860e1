//! Chinese checkers perft: every line of perft/chinese.txt (the numbers of
//! issue 4) against the engine's generator, through the `Game` trait.

use salto::chinese::Chinese;
use salto::variant::{Options, Variant};
use salto::{Game, MoveList};

/// Leaf nodes at `depth`, bulk-counting the last ply.
fn perft<G: Game>(g: &G, pos: &G::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return g.count_moves(pos);
    }
    let mut list = MoveList::new();
    g.generate(pos, &mut list);
    list.iter()
        .map(|&m| perft(g, &g.play(pos, m), depth - 1))
        .sum()
}

struct Record {
    options: Options,
    fen: String,
    depth: u32,
    count: u64,
}

fn records() -> Vec<Record> {
    let text = include_str!("../perft/chinese.txt");
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert!(
            f.len() >= 4,
            "perft/chinese.txt line {}: too few fields",
            n + 1
        );
        let mut options = Options::new(Variant::Chinese);
        for kv in f[0].split(',') {
            let (k, v) = kv.split_once('=').expect("option name=value");
            options.set(k, v).expect("valid option");
        }
        out.push(Record {
            options,
            fen: f[1].to_string(),
            depth: f[2].parse().expect("depth"),
            count: f[3].parse().expect("count"),
        });
    }
    out
}

fn check(min_depth: u32, max_depth: u32) {
    let recs = records();
    assert_eq!(recs.len(), 40, "8 configurations x 5 depths");
    for r in recs
        .iter()
        .filter(|r| (min_depth..=max_depth).contains(&r.depth))
    {
        let g = Chinese::new(&r.options).unwrap();
        let pos = g.parse_fen(&r.fen).unwrap();
        assert_eq!(pos, g.start(), "the record's position is the start");
        let n = perft(&g, &pos, r.depth);
        assert_eq!(
            n, r.count,
            "perft {} players, foreign-corners={}, depth {}",
            r.options.players, r.options.foreign_corners, r.depth
        );
    }
}

#[test]
fn perft_from_the_start_matches_issue_4_to_depth_4() {
    check(1, 4);
}

#[test]
fn perft_from_the_start_matches_issue_4_at_depth_5() {
    check(5, 5);
}

#[test]
fn perft_through_dispatch_selects_the_chinese_game() {
    struct Perft(u32);
    impl salto::GameVisitor for Perft {
        type Output = u64;
        fn visit<G: Game>(self, game: G) -> u64 {
            perft(&game, &game.start(), self.0)
        }
    }
    let mut o = Options::new(Variant::Chinese);
    o.set("players", "6").unwrap();
    o.set("foreign-corners", "stop").unwrap();
    assert_eq!(salto::dispatch(&o, Perft(3)).unwrap(), 2828);
    o.set("players", "4").unwrap();
    o.set("sets", "2").unwrap();
    assert!(salto::dispatch(&o, Perft(1)).is_err());
}

#[test]
fn perft_with_two_and_three_sets_counts_every_set_of_the_mover() {
    // sets=3: player 1 moves the sets of A, C and E: 3 x 14 first moves.
    let g = Chinese::with_players(2, 3).unwrap();
    assert_eq!(perft(&g, &g.start(), 1), 42);
    // sets=2: player 1 moves the sets of A and B.
    let g = Chinese::with_players(3, 2).unwrap();
    assert_eq!(perft(&g, &g.start(), 1), 28);
}
