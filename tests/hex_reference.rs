//! The independent hex move generator of tests/hexturk/hex_ref.rs: checked
//! against the issue's perft numbers, then compared move set by move set
//! with the crate's generator on random positions.

mod hexturk;

use hexturk::hex_ref::{self, HexPos};

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
