//! Endgame databases in play: two Salto engines that both probe the
//! database (with distances to conversion) play a won database position
//! through `salto match --openings`, once with each engine on the winning
//! side; the winning side must win both games. Small databases (3 pieces,
//! hex 2) are built into a temporary directory; the 4-piece games of every
//! variant are recorded in docs/egdb.md.

use salto::Game;
use salto::draughts::{Brazilian, Draughts, English, Hex, International, Rules, Spanish, Turkish};
use salto::egdb::Database;
use salto::egdb::build::{BuildOptions, build_all};
use std::path::PathBuf;
use std::process::Command;

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("salto-egdb-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    TempDir(d)
}

/// Builds `R` up to `pieces` with distances, takes the longest win of
/// material `m`, and plays it twice (each engine once on the winning side).
fn won_in_play<R: Rules>(variant: &str, pieces: u32, m: &str) {
    let dir = temp_dir(variant);
    build_all::<R>(&BuildOptions {
        root: &dir.0,
        pieces,
        dtc_pieces: pieces,
        progress: false,
        memory: None,
        shard: (1, 1),
    })
    .expect("build");
    let db = Database::open::<R>(&dir.0, pieces);
    let (pos, dtc) = db
        .longest_win::<R>(m.parse().expect("material"))
        .expect("a won position");
    let fen = Draughts::<R>::default().format_fen(&pos);
    // salto analyse reports the database hit with its distance.
    let salto = env!("CARGO_BIN_EXE_salto");
    let out = Command::new(salto)
        .env("SALTO_EGDB", "off")
        .args([
            "analyse",
            "--variant",
            variant,
            "--fen",
            &fen,
            "--depth",
            "2",
        ])
        .arg("--egdb-path")
        .arg(&dir.0)
        .args(["--egdb-pieces", &pieces.to_string()])
        .output()
        .expect("run salto analyse");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains(&format!("egdb value=win distance={dtc}\n")),
        "{variant} {fen}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Without --egdb-path it reads the standard place ($SALTO_EGDB here),
    // up to the piece counts complete there.
    let out = Command::new(salto)
        .env("SALTO_EGDB", &dir.0)
        .args([
            "analyse",
            "--variant",
            variant,
            "--fen",
            &fen,
            "--depth",
            "2",
        ])
        .output()
        .expect("run salto analyse");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains(&format!("egdb value=win distance={dtc}\n")),
        "{variant} {fen}, the standard place: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let openings = dir.0.join("won.txt");
    std::fs::write(&openings, format!("{fen}\n")).expect("write openings");
    let pdn = dir.0.join("games.pdn");
    let engine = |name: &str| {
        format!(
            "cmd={salto} args=hub name={name} param.hash=4 param.egdb-path={} param.egdb-pieces={pieces}",
            dir.0.display()
        )
    };
    let out = Command::new(salto)
        .arg("match")
        .args(["--variant", variant, "--openings"])
        .arg(&openings)
        .args(["--engine", &engine("a"), "--engine", &engine("b")])
        .args(["--games", "2", "--depth", "4", "--max-plies", "400"])
        .args(["--timeout", "30", "--quiet", "--pdn"])
        .arg(&pdn)
        .output()
        .expect("run salto match");
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    assert!(
        out.status.success(),
        "{variant}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // A White win is 1-0, or 2-0 where a win counts two points.
    let white_wins =
        text.matches("[Result \"1-0\"]").count() + text.matches("[Result \"2-0\"]").count();
    assert_eq!(
        white_wins, 2,
        "{variant} {fen} (distance {dtc}): White must win both games\n{text}"
    );
    eprintln!("{variant}: {fen} (distance {dtc} plies) won twice");
}

#[test]
fn international_won_position_is_won_in_play() {
    won_in_play::<International>("international", 3, "0201");
}

#[test]
fn english_won_position_is_won_in_play() {
    won_in_play::<English>("english", 3, "0201");
}

#[test]
fn brazilian_won_position_is_won_in_play() {
    won_in_play::<Brazilian>("brazilian", 3, "0201");
}

#[test]
fn spanish_won_position_is_won_in_play() {
    won_in_play::<Spanish>("spanish", 3, "0201");
}

#[test]
fn turkish_won_position_is_won_in_play() {
    won_in_play::<Turkish>("turkish", 3, "0201");
}

#[test]
fn hex_won_position_is_won_in_play() {
    won_in_play::<Hex>("hex", 2, "0110");
}
