//! The match runner against fake Hub engines (Python scripts written by the
//! test) on a toy game: broken engines are caught and lose, the match goes
//! on, draws follow the rules, the schedule and statistics are right.

mod match_support;

use match_support::{Walk, fake_engine_dir, fake_spec, test_config};
use salto::tournament::play::EndKind;
use salto::tournament::{
    Adjudication, EngineSpec, MatchConfig, MatchSummary, OpeningChoice, Shard, Sprt, SprtDecision,
    TimeControl, Tournament, run_match,
};
use std::path::Path;

fn spec(dir: &Path, mode: &str, name: &str) -> EngineSpec {
    EngineSpec::parse(&fake_spec(dir, mode, name)).unwrap_or_else(|e| panic!("{e}"))
}

fn config(engines: Vec<EngineSpec>, games: u64) -> MatchConfig {
    test_config(engines, games, vec![("variant".into(), "walk".into())])
}

fn run(cfg: &MatchConfig) -> MatchSummary {
    run_match(Walk, cfg).unwrap_or_else(|e| panic!("match failed: {e}"))
}

fn failures(s: &MatchSummary, engine: usize, kind: EndKind) -> u64 {
    s.failures[engine].get(kind.name()).copied().unwrap_or(0)
}

#[test]
fn good_engine_wins_every_game_of_both_colours() {
    let dir = fake_engine_dir("good");
    let cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "weak", "weak")],
        4,
    );
    let s = run(&cfg);
    assert_eq!(s.games, 4);
    assert_eq!(s.wins, vec![4, 0]);
    assert_eq!(s.points, vec![4.0, 0.0]);
    assert_eq!(s.ends.get("rules"), Some(&4));
    let wdl = s.wdl.unwrap_or_default();
    assert_eq!((wdl.wins, wdl.draws, wdl.losses), (4, 0, 0));
    // Each seat was held twice by each engine: both seats scored.
    assert_eq!(s.seat_points, vec![2.0, 2.0]);
}

#[test]
fn illegal_move_loses_and_is_recorded_with_the_position() {
    let dir = fake_engine_dir("illegal");
    let pdn = dir.join("games.pdn");
    let mut cfg = config(
        vec![spec(&dir, "illegal", "bad"), spec(&dir, "good", "good")],
        4,
    );
    cfg.pdn = Some(pdn.clone());
    let s = run(&cfg);
    assert_eq!(s.games, 4, "the match goes on after each illegal move");
    assert_eq!(s.points, vec![0.0, 4.0]);
    assert_eq!(failures(&s, 0, EndKind::Illegal), 4);
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    assert_eq!(text.matches("[Event ").count(), 4);
    assert!(
        text.contains("bad played illegal move \"jump\" in W:0"),
        "{text}"
    );
    assert!(text.contains("[Termination \"illegal-move\"]"));
    assert!(text.contains("[Result \"0-1\"]") && text.contains("[Result \"1-0\"]"));
}

#[test]
fn hung_engine_is_stopped_and_loses() {
    let dir = fake_engine_dir("hang");
    let mut cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "hang", "hang")],
        2,
    );
    cfg.referee.timeout = 2.0;
    let s = run(&cfg);
    assert_eq!(s.games, 2);
    assert_eq!(s.points, vec![2.0, 0.0]);
    assert_eq!(failures(&s, 1, EndKind::Hung), 2);
}

#[test]
fn engine_over_its_clock_loses_on_time() {
    let dir = fake_engine_dir("flag");
    let mut cfg = config(
        vec![spec(&dir, "hang", "slow"), spec(&dir, "good", "good")],
        2,
    );
    cfg.referee.tc = TimeControl::Clock {
        base: 1.0,
        inc: 0.0,
    };
    cfg.referee.margin = 0.05;
    let s = run(&cfg);
    assert_eq!(s.games, 2);
    assert_eq!(s.points, vec![0.0, 2.0]);
    assert_eq!(failures(&s, 0, EndKind::Flag), 2);
    // Counted in the summary, text and JSON.
    assert_eq!(s.time_forfeits(), 2);
    let report = s.report();
    assert!(report.contains("Time forfeits: 2 ("), "{report}");
    let json: serde_json::Value = serde_json::from_str(&s.json()).expect("JSON");
    assert_eq!(json["time_forfeits"], 2, "{json}");
    assert_eq!(json["engines"][0]["time_forfeits"], 2, "{json}");
    assert_eq!(json["engines"][1]["time_forfeits"], 0, "{json}");
}

#[test]
fn crashed_engine_loses_and_is_restarted_for_the_next_game() {
    let dir = fake_engine_dir("crash");
    let pdn = dir.join("games.pdn");
    let mut cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "crash", "crash")],
        4,
    );
    cfg.pdn = Some(pdn.clone());
    let s = run(&cfg);
    assert_eq!(s.games, 4, "the match goes on after each crash");
    assert_eq!(s.points, vec![4.0, 0.0]);
    assert_eq!(failures(&s, 1, EndKind::Crash), 4);
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    // Every game had moves: the restarted engine played its first search.
    assert_eq!(text.matches("crash crashed in").count(), 4, "{text}");
}

#[test]
fn engine_that_never_answers_hub_loses_every_game() {
    let dir = fake_engine_dir("nohub");
    let mut cfg = config(
        vec![spec(&dir, "nohub", "mute"), spec(&dir, "good", "good")],
        2,
    );
    cfg.referee.start_timeout = 3.0;
    let s = run(&cfg);
    assert_eq!(s.games, 2);
    assert_eq!(s.points, vec![0.0, 2.0]);
    assert_eq!(failures(&s, 0, EndKind::StartFailed), 2);
}

#[test]
fn engine_error_instead_of_a_move_loses() {
    let dir = fake_engine_dir("errors");
    let cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "errors", "err")],
        2,
    );
    let s = run(&cfg);
    assert_eq!(s.points, vec![2.0, 0.0]);
    assert_eq!(failures(&s, 1, EndKind::EngineError), 2);
}

#[test]
fn missing_program_loses_but_both_missing_aborts() {
    let dir = fake_engine_dir("missing");
    let missing =
        EngineSpec::parse("cmd=/nonexistent/engine name=ghost").unwrap_or_else(|e| panic!("{e}"));
    let cfg = config(vec![spec(&dir, "good", "good"), missing.clone()], 2);
    let s = run(&cfg);
    assert_eq!(s.points, vec![2.0, 0.0]);
    assert_eq!(failures(&s, 1, EndKind::StartFailed), 2);
    let cfg = config(vec![missing.clone(), missing], 10);
    let s = run(&cfg);
    assert_eq!(s.games, 0);
    assert_eq!(s.aborted, 1, "the match stops when no engine can play");
}

#[test]
fn third_repetition_is_a_draw() {
    let dir = fake_engine_dir("repeat");
    let cfg = config(
        vec![spec(&dir, "shuffle", "a"), spec(&dir, "shuffle", "b")],
        2,
    );
    let s = run(&cfg);
    assert_eq!(s.ends.get("repetition"), Some(&2));
    assert_eq!(s.points, vec![1.0, 1.0]);
}

#[test]
fn move_count_rule_and_ply_limit_end_endless_games() {
    let dir = fake_engine_dir("count");
    let mut cfg = config(
        vec![spec(&dir, "shuffle", "a"), spec(&dir, "shuffle", "b")],
        2,
    );
    cfg.referee.repetition = false;
    let s = run(&cfg);
    // Walk's outcome() draws at 200 plies.
    assert_eq!(s.ends.get("draw-rule"), Some(&2));
    assert_eq!(s.points, vec![1.0, 1.0]);
    cfg.referee.max_plies = 10;
    let s = run(&cfg);
    assert_eq!(s.ends.get("max-plies"), Some(&2));
}

#[test]
fn adjudication_gives_the_game_when_both_engines_agree() {
    let dir = fake_engine_dir("adjudicate");
    let mut cfg = config(vec![spec(&dir, "good", "a"), spec(&dir, "good", "b")], 2);
    cfg.referee.adjudication =
        Some(Adjudication::parse("win=5,moves=2").unwrap_or_else(|e| panic!("{e}")));
    let s = run(&cfg);
    assert_eq!(s.ends.get("adjudication"), Some(&2));
    // The first mover wins walk: each engine won once, as first mover.
    assert_eq!(s.points, vec![1.0, 1.0]);
    assert_eq!(s.seat_points, vec![2.0, 0.0]);
}

#[test]
fn openings_file_is_played_twice_with_colours_swapped_and_fen_recorded() {
    let dir = fake_engine_dir("openings");
    let pdn = dir.join("games.pdn");
    let mut cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "weak", "weak")],
        4,
    );
    cfg.openings = OpeningChoice::File("# comment\nB:5\n1. up1 up2\n".into());
    cfg.pdn = Some(pdn.clone());
    let s = run(&cfg);
    assert_eq!(s.games, 4);
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    assert_eq!(text.matches("[FEN \"B:5\"]").count(), 2, "{text}");
    assert_eq!(text.matches("[OpeningPlies \"2\"]").count(), 2);
    assert!(text.contains("[White \"good\"]\n[Black \"weak\"]"));
    assert!(text.contains("[White \"weak\"]\n[Black \"good\"]"));
    // A FEN with black to move starts the move text with "1...".
    assert!(text.contains("1... "));
}

#[test]
fn bad_openings_file_is_an_error_naming_the_line() {
    let dir = fake_engine_dir("badopenings");
    let mut cfg = config(vec![spec(&dir, "good", "a"), spec(&dir, "weak", "b")], 2);
    cfg.openings = OpeningChoice::File("up1\nup1 fly\n".into());
    let e = run_match(Walk, &cfg).err().unwrap_or_default();
    assert!(e.contains("line 2") && e.contains("fly"), "{e}");
    cfg.openings = OpeningChoice::File("\n# nothing\n".into());
    assert!(run_match(Walk, &cfg).is_err());
}

/// PDN text without the thinking times of the move comments (`0.01s}`
/// becomes `s}`): they differ from run to run.
fn without_times(pdn: &str) -> String {
    let mut out = String::new();
    for (i, part) in pdn.split("s}").enumerate() {
        if i > 0 {
            out.push_str("s}");
        }
        let keep = part.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        // Only a comment's time ends with "s}"; keep other text whole.
        if keep.ends_with(' ') || keep.ends_with('{') {
            out.push_str(keep);
        } else {
            out.push_str(part);
        }
    }
    out
}

#[test]
fn results_do_not_depend_on_concurrency() {
    let dir = fake_engine_dir("concurrency");
    let games = |concurrency: usize| {
        let pdn = dir.join(format!("c{concurrency}.pdn"));
        let mut cfg = config(
            vec![spec(&dir, "good", "good"), spec(&dir, "shuffle", "shuffle")],
            6,
        );
        cfg.openings = OpeningChoice::File("up1\nup2\nB:4\n".into());
        cfg.concurrency = concurrency;
        cfg.pdn = Some(pdn.clone());
        let s = run(&cfg);
        let text = without_times(&std::fs::read_to_string(&pdn).unwrap_or_default());
        let mut blocks: Vec<String> = text
            .split("[Event ")
            .filter(|b| !b.is_empty())
            .map(str::to_string)
            .collect();
        blocks.sort();
        (s.points.clone(), blocks)
    };
    let (p1, g1) = games(1);
    let (p2, g2) = games(2);
    assert_eq!(g1.len(), 6);
    assert_eq!(p1, p2);
    assert_eq!(g1, g2);
}

#[test]
fn sprt_stops_the_match_once_decided() {
    let dir = fake_engine_dir("sprt");
    let mut cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "weak", "weak")],
        1000,
    );
    cfg.sprt = Some(Sprt::parse("elo0=0,elo1=50").unwrap_or_else(|e| panic!("{e}")));
    let s = run(&cfg);
    assert!(s.games < 20, "played {}", s.games);
    assert_eq!(s.sprt.as_ref().map(|r| r.decision), Some(SprtDecision::H1));
    let json = s.json();
    assert!(json.contains("\"result\":\"H1\""), "{json}");
}

#[test]
fn random_openings_are_reproducible_from_the_seed() {
    let dir = fake_engine_dir("random");
    let games = |seed: u64| {
        let pdn = dir.join(format!("r{seed}.pdn"));
        let mut cfg = config(
            vec![spec(&dir, "good", "good"), spec(&dir, "weak", "weak")],
            4,
        );
        cfg.openings = OpeningChoice::Random {
            plies: 3,
            balance: 10_000,
            depth: 1,
        };
        cfg.seed = seed;
        cfg.pdn = Some(pdn.clone());
        run(&cfg);
        let text = std::fs::read_to_string(&pdn).unwrap_or_default();
        // The move text of each game, first words only.
        text.split("[Event ")
            .filter(|b| !b.is_empty())
            .map(|b| {
                b.lines()
                    .filter(|l| !l.starts_with('[') && !l.starts_with('"'))
                    .collect::<Vec<_>>()
                    .join(" ")
                    .split_whitespace()
                    .take(5)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
    };
    let a = games(7);
    assert_eq!(a, games(7));
    assert_eq!(a.len(), 4);
    // Each opening is played twice: games 1-2 and 3-4 share their first 3 plies.
    let plies = |s: &str| {
        s.split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .take(3)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(plies(&a[0]), plies(&a[1]));
    assert_eq!(plies(&a[2]), plies(&a[3]));
}

#[test]
fn slow_new_game_is_waited_for_with_ping_before_the_clock_runs() {
    // The engine takes 2.5 s over new-game; each move gets 1 s + 0.5 s.
    // Were its first clock started at `go` right after `new-game`, it would
    // lose on time at once.
    let dir = fake_engine_dir("slowclear");
    let mut cfg = config(
        vec![spec(&dir, "slowclear", "slow"), spec(&dir, "weak", "weak")],
        2,
    );
    cfg.referee.tc = TimeControl::MoveTime(1.0);
    cfg.referee.margin = 0.5;
    let s = run(&cfg);
    assert_eq!(s.games, 2);
    assert_eq!(failures(&s, 0, EndKind::Flag), 0, "{}", s.report());
    assert_eq!(s.points, vec![2.0, 0.0], "{}", s.report());
}

#[test]
fn junk_lines_from_an_engine_are_skipped() {
    let dir = fake_engine_dir("junk");
    let cfg = config(
        vec![spec(&dir, "junk", "junk"), spec(&dir, "weak", "weak")],
        2,
    );
    let s = run(&cfg);
    assert_eq!(s.games, 2);
    assert_eq!(s.points, vec![2.0, 0.0], "{}", s.report());
    assert!(s.failures[0].is_empty(), "{:?}", s.failures);
}

#[test]
fn an_engine_margin_replaces_the_match_margin() {
    // `slow` always takes 0.4 s; 0.1 s per move and no margin flag it, its
    // own margin of 5 s does not.
    let dir = fake_engine_dir("margin");
    let plain = spec(&dir, "slow", "slow");
    let mut generous = plain.clone();
    generous.margin = Some(5.0);
    let parsed = EngineSpec::parse(&format!("{} margin=5", fake_spec(&dir, "slow", "slow")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed, generous);
    for (engine, flags) in [(plain, 2), (generous, 0)] {
        let mut cfg = config(vec![engine, spec(&dir, "weak", "weak")], 2);
        cfg.referee.tc = TimeControl::MoveTime(0.1);
        cfg.referee.margin = 0.0;
        let s = run(&cfg);
        assert_eq!(failures(&s, 0, EndKind::Flag), flags, "{}", s.report());
    }
}

#[test]
fn pdn_moves_carry_score_depth_and_time_from_the_last_info() {
    let dir = fake_engine_dir("annotate");
    let pdn = dir.join("games.pdn");
    let mut cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "weak", "weak")],
        2,
    );
    cfg.pdn = Some(pdn.clone());
    run(&cfg);
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    // good says +10 (it wins) or -10 at depth 1; weak says 0.
    assert!(text.contains("{+10.00/1 "), "{text}");
    assert!(text.contains("{+0.00/1 "), "{text}");
    let comments = text.matches("s} ").count() + text.matches("s}\n").count();
    let moves = text.matches("up1").count() + text.matches("up2").count();
    assert_eq!(comments, moves, "one comment per engine move: {text}");
}

#[test]
fn pentanomial_counts_game_pairs_and_decides_the_sprt() {
    let dir = fake_engine_dir("penta");
    let mut cfg = config(
        vec![spec(&dir, "good", "good"), spec(&dir, "weak", "weak")],
        6,
    );
    let s = run(&cfg);
    assert_eq!(s.penta[0][1].counts, [0, 0, 0, 0, 3]);
    let json = s.json();
    assert!(
        json.contains("\"pentanomial\":{\"counts\":[0,0,0,0,3],\"pairs\":3,"),
        "{json}"
    );
    assert!(
        s.report()
            .contains("Pentanomial [0 0 0 0 3] over 3 game pairs")
    );
    // The SPRT runs on pairs.
    cfg.games = 1000;
    cfg.sprt = Some(Sprt::parse("elo0=0,elo1=100").unwrap_or_else(|e| panic!("{e}")));
    let s = run(&cfg);
    // Decided when the third pair is complete; games the worker played
    // on before it saw the stop are not counted (before, under load, a
    // fourth pair could come in and count).
    assert_eq!(s.penta[0][1].pairs(), 3, "{}", s.report());
    assert_eq!(s.games, 6, "{}", s.report());
    let r = s.sprt.unwrap_or_else(|| panic!("no sprt"));
    assert_eq!(r.decision, SprtDecision::H1);
    assert!(r.llr_trinomial > 0.0);
}

#[test]
fn round_robin_and_gauntlet_fill_the_crosstable() {
    let dir = fake_engine_dir("tournament");
    let engines = vec![
        spec(&dir, "good", "good"),
        spec(&dir, "weak", "weak"),
        spec(&dir, "weak", "weak2"),
    ];
    let mut cfg = config(engines, 2);
    cfg.tournament = Tournament::RoundRobin;
    let s = run(&cfg);
    assert_eq!(s.games, 6, "three pairings of two games");
    assert_eq!(s.points[0], 4.0, "good beats both: {}", s.report());
    let report = s.report();
    assert!(report.contains("Crosstable:"), "{report}");
    // good first, with 4 points from 4 games and no finite Elo.
    assert!(
        report
            .lines()
            .any(|l| l.starts_with("  1 good") && l.contains("4.0")),
        "{report}"
    );
    let json = s.json();
    assert!(
        json.contains("\"crosstable\":[{\"name\":\"good\",\"games\":4,\"points\":4,\"score\":1,"),
        "{json}"
    );
    cfg.tournament = Tournament::Gauntlet;
    let s = run(&cfg);
    assert_eq!(s.games, 4, "good against each of the two others");
    assert_eq!(s.pairs[1][2].games(), 0);
    // A tournament's games per pairing must be even.
    cfg.games = 3;
    assert!(run_match(Walk, &cfg).is_err());
}

#[test]
fn shards_merge_into_the_whole_match() {
    let dir = fake_engine_dir("shards");
    let engines = vec![
        spec(&dir, "good", "good"),
        spec(&dir, "weak", "weak"),
        spec(&dir, "shuffle", "shuffle"),
    ];
    let mut cfg = config(engines, 4);
    cfg.tournament = Tournament::RoundRobin;
    cfg.referee.max_plies = 30;
    let whole = run(&cfg);
    let mut parts = Vec::new();
    for k in 1..=3 {
        cfg.shard = Some(Shard { index: k, count: 3 });
        let s = run(&cfg);
        assert!(s.games < whole.games);
        parts.push((format!("shard{k}"), s.json()));
    }
    let merged =
        salto::tournament::runner::merge_summaries(&parts).unwrap_or_else(|e| panic!("{e}"));
    let strip = |r: String| r.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(merged.report()), strip(whole.report()));
    assert_eq!(merged.penta, whole.penta);
    // Not the same match: refused.
    let mut other = whole.clone();
    other.seed += 1;
    let bad = vec![parts[0].clone(), ("other".into(), other.json())];
    assert!(salto::tournament::runner::merge_summaries(&bad).is_err());
    assert!(salto::tournament::runner::merge_summaries(&[("x".into(), "{}".into())]).is_err());
}
