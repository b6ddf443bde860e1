//! The independent Turkish move generator of tests/hexturk/turkish_ref.rs:
//! checked against published perft numbers, then compared move set by move
//! set with the crate's generator on random positions.

mod hexturk;

use hexturk::turkish_ref::{self, Promotion, TurkPos};

#[test]
fn reference_perft_from_the_start_matches_kish() {
    let start = TurkPos::start();
    let expected = [8u64, 64, 708, 7538, 85090];
    for (i, &e) in expected.iter().enumerate() {
        assert_eq!(
            turkish_ref::perft(&start, i as u32 + 1, Promotion::End),
            e,
            "depth {}",
            i + 1
        );
    }
}

#[test]
#[ignore = "slow reference perft; run by hand"]
fn reference_perft_depth_7_merged_and_by_route() {
    let start = TurkPos::start();
    assert_eq!(turkish_ref::perft(&start, 6, Promotion::End), 931_312);
    assert_eq!(turkish_ref::perft(&start, 7, Promotion::End), 10_782_308);
    assert_eq!(
        turkish_ref::perft_paths(&start, 7, Promotion::End),
        10_782_382
    );
}
