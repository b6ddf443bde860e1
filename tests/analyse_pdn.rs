//! `salto analyse --pdn` (docs/cli.md): 20 games written back with scores
//! and marks, read again by Salto's own PDN reader and, when the test
//! environment has it (`SALTO_PYDRAUGHTS_PYTHON`), by pydraughts, with the
//! same moves.

mod protocol_util;

use protocol_util::walk;
use salto::game::Game;
use salto::gui::pdn;
use salto::tournament::play::short_move;
use salto::variant::{GameVisitor, Options, Variant, dispatch};
use std::process::Command;

/// A game of `plies` random moves in PDN's short form.
fn pdn_moves(v: Variant, seed: u64, plies: usize) -> Vec<String> {
    struct Gen(u64, usize);
    impl GameVisitor for Gen {
        type Output = Vec<String>;
        fn visit<G: Game>(self, g: G) -> Vec<String> {
            let (positions, moves) = walk(&g, self.0, self.1);
            positions
                .iter()
                .zip(&moves)
                .map(|(p, m)| short_move(&g, p, *m))
                .collect()
        }
    }
    dispatch(&Options::new(v), Gen(seed, plies)).expect("a game")
}

/// The 20 games: international and english (pydraughts reads both),
/// numbered from the first move.
fn input() -> (String, Vec<Vec<String>>) {
    let mut text = String::new();
    let mut all = Vec::new();
    for i in 0..20u64 {
        let (v, name, gametype) = if i % 2 == 0 {
            (Variant::International, "international", 20)
        } else {
            (Variant::English, "english", 21)
        };
        let moves = pdn_moves(v, 0x1234_5678 + i * 7919, 10 + (i as usize % 7) * 3);
        text.push_str(&format!(
            "[Event \"test {i}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[GameType \"{gametype}\"]\n[Variant \"{name}\"]\n\n"
        ));
        let mut words = Vec::new();
        for (k, m) in moves.iter().enumerate() {
            if k % 2 == 0 {
                words.push(format!("{}.", k / 2 + 1));
            }
            words.push(m.clone());
        }
        words.push("*".into());
        text.push_str(&words.join(" "));
        text.push_str("\n\n");
        all.push(moves);
    }
    (text, all)
}

#[test]
fn twenty_games_come_back_with_scores_marks_and_the_same_moves() {
    let dir = std::env::temp_dir().join(format!("salto-analyse-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let (text, games) = input();
    let (src, out) = (dir.join("in.pdn"), dir.join("out.pdn"));
    std::fs::write(&src, &text).expect("written");
    let run = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(["analyse", "--depth", "3", "--pdn"])
        .arg(&src)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("salto runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let written = std::fs::read_to_string(&out).expect("the output file");

    // Our reader: the same games, the same moves, the tags kept.
    let back = pdn::parse(&written).expect("our reader reads it");
    assert_eq!(back.len(), 20);
    for (i, (g, moves)) in back.iter().zip(&games).enumerate() {
        assert_eq!(&g.moves, moves, "game {}", i + 1);
        assert_eq!(g.tag("Event"), Some(format!("test {i}").as_str()));
    }
    // One score per position (the start and after each move).
    let evals = written.matches("[%eval ").count();
    let positions: usize = games.iter().map(|m| m.len() + 1).sum();
    assert_eq!(evals, positions, "{written}");
    // Random moves: some are marked, each with its NAG and the better move.
    // (The move text is wrapped: a NAG and its comment may be on two lines.)
    let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
    let marked = ["$6 {", "$2 {", "$4 {"]
        .iter()
        .map(|n| flat.matches(n).count())
        .sum::<usize>();
    assert!(marked > 0, "{written}");
    assert_eq!(flat.matches("Best was ").count(), marked, "{written}");

    // pydraughts, when the test environment has it.
    if let Ok(python) = std::env::var("SALTO_PYDRAUGHTS_PYTHON") {
        let script = "import sys, json\nfrom draughts.PDN import PDNReader\nr = PDNReader(filename=sys.argv[1])\nprint(json.dumps([g.moves for g in r.games]))\n";
        let run = Command::new(python)
            .args(["-c", script])
            .arg(&out)
            .output()
            .expect("python runs");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let read: Vec<Vec<String>> =
            serde_json::from_slice(&run.stdout).expect("a JSON list of move lists");
        assert_eq!(read, games, "pydraughts reads other moves");
    } else {
        eprintln!("SALTO_PYDRAUGHTS_PYTHON not set: pydraughts' reading not checked");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_an_error_naming_the_game_and_move() {
    let dir = std::env::temp_dir().join(format!("salto-analyse-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let src = dir.join("bad.pdn");
    std::fs::write(&src, "[Event \"x\"]\n\n1. 32-28 19-23 2. 32-28 *\n").expect("written");
    let run = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(["analyse", "--depth", "2", "--pdn"])
        .arg(&src)
        .output()
        .expect("salto runs");
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("game 1") && err.contains("move 3"), "{err}");
    let none = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(["analyse", "--pdn"])
        .arg(&src)
        .output()
        .expect("salto runs");
    assert!(String::from_utf8_lossy(&none.stderr).contains("--depth"));
    let _ = std::fs::remove_dir_all(&dir);
}
