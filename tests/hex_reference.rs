//! The independent hex move generator of tests/hexturk/hex_ref.rs: checked
//! against the issue's perft numbers, then compared move set by move set
//! with the crate's generator on random positions.

mod hexturk;

use hexturk::Rng;
use hexturk::compare::{Outcome, compare};
use hexturk::hex_ref::{self, HexPos};
use salto::{Options, Variant};

#[test]
fn reference_numbers_cells_by_row_then_column() {
    assert_eq!(hex_ref::coords(1), (0, -5));
    assert_eq!(hex_ref::coords(6), (5, -5));
    assert_eq!(hex_ref::coords(46), (0, 0));
    assert_eq!(hex_ref::coords(86), (-5, 5));
    assert_eq!(hex_ref::coords(91), (0, 5));
    let n = |d| hex_ref::step(46, d);
    // notation.md: 47 right, 45 left, 35 up-left, 36 up-right, 56 down-left, 57 down-right.
    let got: Vec<_> = hex_ref::DIRS.iter().map(|&d| n(d)).collect();
    assert_eq!(got, [47, 45, 35, 36, 56, 57].map(Some).to_vec());
}

#[test]
fn reference_perft_from_the_start_matches_the_issue() {
    let start = HexPos::start();
    let expected = [14u64, 196, 2912, 43264, 676_832];
    for (i, &e) in expected.iter().enumerate() {
        assert_eq!(hex_ref::perft(&start, i as u32 + 1), e, "depth {}", i + 1);
    }
}

#[test]
#[ignore = "slow reference perft (seconds); run by hand"]
fn reference_perft_depth_6_from_the_start() {
    assert_eq!(hex_ref::perft(&HexPos::start(), 6), 10_588_516);
}

#[test]
#[ignore = "slow reference perft (about a minute); run by hand"]
fn reference_perft_depth_7_from_the_start() {
    assert_eq!(hex_ref::perft(&HexPos::start(), 7), 172_754_860);
}

/// The reference's moves and successor positions, as the crate reports them.
fn reference_outcomes(pos: &HexPos) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = hex_ref::moves(pos)
        .into_iter()
        .map(|m| {
            let after = hex_ref::play(pos, &m).hub();
            Outcome { mv: m, after }
        })
        .collect();
    out.sort();
    out
}

fn check_positions(positions: &[HexPos]) {
    let hubs: Vec<String> = positions.iter().map(HexPos::hub).collect();
    let fens: Vec<String> = positions.iter().map(HexPos::fen).collect();
    let reference: Vec<Vec<Outcome>> = positions.iter().map(reference_outcomes).collect();
    if let Err(e) = compare(&Options::new(Variant::Hex), &hubs, &fens, &reference) {
        panic!("{e}");
    }
}

#[test]
fn fast_generator_agrees_with_reference_on_random_games() {
    let mut rng = Rng::new(0x4e58_0001);
    let mut positions = Vec::new();
    while positions.len() < 3000 {
        positions.extend(hex_ref::random_game(&mut rng, 200));
    }
    let captures = positions
        .iter()
        .filter(|p| hex_ref::moves(p).iter().any(|m| !m.captured.is_empty()))
        .count();
    assert!(captures > 300, "only {captures} positions with a capture");
    check_positions(&positions);
}

#[test]
fn fast_generator_agrees_with_reference_on_random_scatters() {
    let mut rng = Rng::new(0x4e58_0002);
    let mut positions = Vec::new();
    // Sparse boards with many kings: long king captures.
    for _ in 0..1500 {
        positions.push(hex_ref::random_scatter(&mut rng, 1, 8, 50));
    }
    // Dense middlegames: 9 to 13 pieces a side, some kings.
    for _ in 0..1500 {
        positions.push(hex_ref::random_scatter(&mut rng, 9, 13, 15));
    }
    // Men only, dense: long man captures in six directions.
    for _ in 0..1000 {
        positions.push(hex_ref::random_scatter(&mut rng, 6, 13, 0));
    }
    let longest = positions
        .iter()
        .flat_map(|p| hex_ref::moves(p).into_iter().map(|m| m.captured.len()))
        .max()
        .unwrap_or(0);
    assert!(longest >= 4, "the longest capture takes only {longest}");
    check_positions(&positions);
}
