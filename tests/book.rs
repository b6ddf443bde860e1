//! The opening book end to end: `salto book build | show | merge`, the
//! Hub parameters, the shipped books (docs/book.md).

mod protocol_util;

use protocol_util::Salto;
use salto::book::{Book, DEFAULT_MARGIN, DIRECT, LEAF, shipped};
use salto::game::{Game, MoveList};
use salto::search::{Control, Limits, Searcher};
use salto::variant::{GameVisitor, Options, Variant};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn salto(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(args)
        .output()
        .expect("salto runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("salto-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn build(out: &Path, budget: u32, extra: &[&str]) -> Output {
    let budget = budget.to_string();
    let mut args = vec![
        "book",
        "build",
        "--variant",
        "english",
        "--depth",
        "3",
        "--budget",
        &budget,
        "--save-every",
        "2",
        "--out",
        out.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    salto(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn build_resume_show_and_merge_work_end_to_end() {
    let dir = tmp("e2e");
    let book = dir.join("english.bin");
    let o = build(&book, 4, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let b = Book::load(&book).expect("a valid book");
    assert_eq!(b.positions(), 4);
    // Resuming goes on from the file.
    let o = build(&book, 7, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming"), "{}", stderr(&o));
    let b2 = Book::load(&book).expect("a valid book");
    assert_eq!(b2.positions(), 7);
    // show lists all 7 moves of the start, best first.
    let path = book.to_str().unwrap();
    let o = salto(&["book", "show", "--variant", "english", "--book", path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("position B:"), "{text}");
    assert_eq!(lines[1], "move score depth count");
    assert_eq!(lines.len(), 2 + 7, "{text}");
    let scores: Vec<f64> = lines[2..]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{text}");
    // A position after the best move (expanded first) has its own moves.
    let best = lines[2].split(' ').next().unwrap();
    let o = salto(&[
        "book",
        "show",
        "--variant",
        "english",
        "--book",
        path,
        "--moves",
        best,
    ]);
    assert!(stdout(&o).lines().count() > 2, "{}", stdout(&o));
    // Shards and merge.
    let (s1, s2, m) = (dir.join("s1.bin"), dir.join("s2.bin"), dir.join("m.bin"));
    assert!(build(&s1, 3, &["--shard", "1/2"]).status.success());
    assert!(build(&s2, 3, &["--shard", "2/2"]).status.success());
    let o = salto(&[
        "book",
        "merge",
        "--out",
        m.to_str().unwrap(),
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let merged = Book::load(&m).expect("a valid book");
    assert_eq!(
        merged.positions(),
        5,
        "the root and two positions of each shard"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rescore_gives_the_first_plies_the_scores_of_a_deeper_multipv_search() {
    let dir = tmp("rescore");
    let book = dir.join("english.bin");
    let o = build(&book, 12, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = book.to_str().unwrap();
    let rescore = |plies: &str, depth: &str| {
        salto(&[
            "book",
            "rescore",
            "--variant",
            "english",
            "--book",
            path,
            "--plies",
            plies,
            "--depth",
            depth,
            "--hash",
            "16",
        ])
    };
    let o = rescore("1", "9");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("re-scored 1 positions with multi-PV searches of depth 9"),
        "{}",
        stderr(&o)
    );
    let b = Book::load(&book).expect("a valid book");
    assert_eq!(b.positions(), 12, "no position added or lost");
    let g = salto::draughts::EnglishGame::default();
    let root = b.moves(&g, &g.start());
    assert_eq!(root.len(), 7);
    // Every root move carries the 9-ply multi-PV search's score (deeper
    // than anything backed up from a 12-position tree of 3-ply leaves),
    // and the positions below keep their own values.
    let searched = rated(g, 9);
    for (mv, r) in &root {
        assert!(r.flags & DIRECT != 0 && r.depth == 9, "{r:?}");
        let text = g.format_move(&g.start(), *mv);
        let want = searched.iter().find(|(m, _)| *m == text).expect("rated").1;
        assert_eq!(r.score as i32, want, "{text}");
        let next = g.play(&g.start(), *mv);
        for (_, below) in b.moves(&g, &next) {
            assert_eq!(below.flags & DIRECT, 0, "only the first ply is re-scored");
        }
    }
    // Run again: nothing left to search at that depth (resumable).
    let o = rescore("1", "9");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("re-scored 0 positions"),
        "{}",
        stderr(&o)
    );
    assert_eq!(Book::load(&book).expect("valid"), b);
    // A build that resumes keeps the direct scores where they are deeper.
    let o = build(&book, 14, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let b2 = Book::load(&book).expect("a valid book");
    assert_eq!(b2.positions(), 14);
    assert!(
        b2.moves(&g, &g.start())
            .iter()
            .all(|(_, r)| r.flags & DIRECT != 0 && r.depth == 9)
    );
    // show marks them.
    let o = salto(&["book", "show", "--variant", "english", "--book", path]);
    assert!(
        stdout(&o)
            .lines()
            .nth(2)
            .is_some_and(|l| l.ends_with(" direct")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_damaged_or_foreign_book_is_refused_with_a_clear_message() {
    let dir = tmp("bad");
    let book = dir.join("b.bin");
    assert!(build(&book, 2, &[]).status.success());
    let good = std::fs::read(&book).unwrap();
    let path = book.to_str().unwrap();
    // Cut mid-record: build refuses to resume from it and leaves it alone.
    std::fs::write(&book, &good[..good.len() - 13]).unwrap();
    let o = build(&book, 3, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cut short"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&book).unwrap().len(), good.len() - 13);
    // A flipped byte.
    let mut bad = good.clone();
    bad[50] ^= 1;
    std::fs::write(&book, &bad).unwrap();
    let o = salto(&["book", "show", "--variant", "english", "--book", path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("checksum"), "{}", stderr(&o));
    // Another game's book.
    std::fs::write(&book, &good).unwrap();
    let o = salto(&["book", "show", "--variant", "spanish", "--book", path]);
    assert!(
        stderr(&o).contains("for english, not for spanish"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_corrupt_book_file_is_an_error_and_the_engine_searches_without_a_book() {
    let dir = tmp("hub");
    let book = dir.join("junk.bin");
    std::fs::write(
        &book,
        b"SALTOBK\0 this is not a book at all, only junk bytes",
    )
    .unwrap();
    let mut s = Salto::start_with_book();
    s.handshake();
    s.send(&format!(
        "set-param name=book-file value=\"{}\"",
        book.display()
    ));
    let e = s.expect("error");
    assert!(e.contains("plays without a book"), "{e}");
    s.send("pos start");
    s.send("level depth=3");
    s.send("go think");
    let mut searched = false;
    loop {
        let l = s.recv_raw(10_000).expect("an answer");
        if l.starts_with("info ") {
            assert!(!l.contains("book=yes"), "{l}");
            searched |= !l.contains(" nodes=0 ");
        } else {
            assert!(l.starts_with("done move="), "{l}");
            break;
        }
    }
    assert!(searched, "a real search ran");
    // Back to the shipped book: an answer from it.
    s.send("set-param name=book-file value=\"\"");
    s.send("pos start");
    s.send("go think");
    assert!(s.recv_raw(10_000).unwrap().ends_with("book=yes"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scores a fixed-depth search with every root move as a line gives
/// the moves of the start position, centi-men.
fn rated<G: Game>(game: G, depth: u32) -> Vec<(String, i32)> {
    let root = game.start();
    let mut list = MoveList::new();
    game.generate(&root, &mut list);
    let mut s = Searcher::new(game, 16, 1);
    let limits = Limits {
        depth: Some(depth),
        multipv: list.len(),
        ..Limits::default()
    };
    let mut last: Vec<(u32, String, i32)> = Vec::new();
    s.search(&root, &[], &limits, &Control::new(), &mut |i| {
        if let Some(&m) = i.pv.first() {
            let name = game.format_move(&root, m);
            last.retain(|(_, n, _)| *n != name);
            last.push((i.depth, name, i.score));
        }
    });
    last.into_iter().map(|(_, n, s)| (n, s)).collect()
}

/// Every shipped book's moves at the start within the book margin are
/// rated by a `depth`-ply search within the margin plus `slack` of its
/// best move.
struct FirstMoves {
    depth: u32,
    slack: i32,
}

impl GameVisitor for FirstMoves {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        let book = shipped::book(&game).expect("a book ships");
        let moves = book.moves(&game, &game.start());
        let best = moves[0].1.score as i32;
        let rated = rated(game, self.depth);
        let top = rated.iter().map(|r| r.1).max().unwrap();
        for (m, r) in moves
            .iter()
            .filter(|(_, r)| r.score as i32 >= best - DEFAULT_MARGIN as i32)
        {
            let name = game.format_move(&game.start(), *m);
            let s = rated.iter().find(|x| x.0 == name).map(|x| x.1);
            let s = s.unwrap_or_else(|| panic!("{}: {name} not rated: {rated:?}", game.name()));
            assert!(
                s >= top - DEFAULT_MARGIN as i32 - self.slack,
                "{}: book move {name} (book {}) is rated {s}, the best {top}: {rated:?}",
                game.name(),
                r.score
            );
        }
    }
}

const SHIPPED: [Variant; 6] = [
    Variant::International,
    Variant::English,
    Variant::Brazilian,
    Variant::Spanish,
    Variant::Turkish,
    Variant::Hex,
];

#[test]
fn every_shipped_book_loads_and_its_first_moves_are_near_best() {
    for v in SHIPPED {
        salto::variant::dispatch(
            &Options::new(v),
            FirstMoves {
                depth: 9,
                slack: 15,
            },
        )
        .unwrap();
    }
}

#[test]
#[ignore = "20-ply searches of six start positions: minutes"]
fn the_first_book_moves_are_near_best_at_20_plies() {
    for v in SHIPPED {
        salto::variant::dispatch(
            &Options::new(v),
            FirstMoves {
                depth: 20,
                slack: 15,
            },
        )
        .unwrap();
    }
}

#[test]
fn go_from_the_start_answers_from_the_shipped_book_at_once() {
    for v in [
        "normal",
        "english",
        "brazilian",
        "spanish",
        "turkish",
        "hex",
    ] {
        let mut s = Salto::start_with_book();
        s.handshake();
        s.send(&format!("set-param name=variant value={v}"));
        s.send("pos start");
        s.send("level depth=30");
        let t = std::time::Instant::now();
        s.send("go think");
        let info = s.recv_raw(10_000).expect("info");
        let done = s.expect("done");
        assert!(
            t.elapsed().as_secs_f64() < 2.0,
            "{v}: a book answer is at once"
        );
        assert!(
            info.ends_with(" book=yes") && info.contains(" nodes=0 "),
            "{v}: {info}"
        );
        let mv = done
            .split(' ')
            .nth(1)
            .unwrap()
            .strip_prefix("move=")
            .unwrap();
        assert!(info.contains(&format!("pv=\"{mv}")), "{v}: {info} / {done}");
        assert!(done.contains(" ponder="), "{v}: {done}");
        // book=false: a real search.
        s.send("set-param name=book value=false");
        s.send("pos start");
        s.send("level depth=2");
        s.send("go think");
        let info = s.recv_raw(10_000).expect("info");
        assert!(!info.contains("book=yes"), "{v}: {info}");
        s.expect("done");
        // book-ply=0: no book either.
        s.send("set-param name=book value=true");
        s.send("set-param name=book-ply value=0");
        s.send("pos start");
        s.send("level depth=2");
        s.send("go think");
        let info = s.recv_raw(10_000).expect("info");
        assert!(!info.contains("book=yes"), "{v}: {info}");
        s.expect("done");
        s.send("quit");
    }
}

#[test]
fn match_turns_the_book_off_with_param_book_false() {
    let dir = tmp("match");
    let log = dir.join("m.log");
    let exe = env!("CARGO_BIN_EXE_salto");
    let o = Command::new(exe)
        .env("SALTO_EGDB", "off")
        .args(["match", "--log"])
        .arg(&log)
        .args([
            "--engine",
            &format!("cmd={exe} args=hub name=withbook param.hash=1"),
            "--engine",
            &format!("cmd={exe} args=hub name=nobook param.hash=1 param.book=false"),
            "--depth",
            "1",
            "--games",
            "2",
            "--max-plies",
            "4",
            "--quiet",
        ])
        .output()
        .expect("salto match runs");
    assert!(o.status.success(), "{o:?}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("withbook > info")
            && text
                .lines()
                .any(|l| l.contains("withbook > info") && l.ends_with("book=yes")),
        "{text}"
    );
    assert!(
        !text
            .lines()
            .any(|l| l.contains("nobook > info") && l.ends_with("book=yes")),
        "{text}"
    );
    assert!(
        text.contains("nobook < set-param name=book value=false"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shipped_books_are_small_and_every_position_has_all_its_moves() {
    let books: Vec<(&str, &[u8])> = Variant::ALL
        .into_iter()
        .filter_map(|v| v.descriptor().book.map(|b| (v.name(), b)))
        .collect();
    assert!(books.len() >= 6, "{} books", books.len());
    for (name, bytes) in books {
        assert!(bytes.len() < 4 << 20, "{name}: {} bytes", bytes.len());
        let b = Book::decode(bytes).expect("decodes");
        assert_eq!(&b.variant, name);
        assert!(b.positions() >= 50, "{name}: {} positions", b.positions());
        assert!(b.records().iter().any(|r| r.flags & LEAF == 0));
    }
}
