//! The independent Turkish move generator of tests/hexturk/turkish_ref.rs:
//! checked against published perft numbers, then compared move set by move
//! set with the crate's generator on random positions.

mod hexturk;

use hexturk::Rng;
use hexturk::compare::{Outcome, compare};
use hexturk::turkish_ref::{self, Promotion, TurkPos};
use salto::variant::TurkishPromotion;
use salto::{Options, Variant};

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

/// The reference's moves and successor positions, as the crate reports them.
fn reference_outcomes(pos: &TurkPos, promo: Promotion) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = turkish_ref::moves(pos, promo)
        .into_iter()
        .map(|m| {
            let after = turkish_ref::play(pos, &m, promo).hub();
            Outcome { mv: m, after }
        })
        .collect();
    out.sort();
    out
}

fn options(promo: Promotion) -> Options {
    let mut o = Options::new(Variant::Turkish);
    o.turkish_promotion = match promo {
        Promotion::End => TurkishPromotion::End,
        Promotion::Immediate => TurkishPromotion::Immediate,
    };
    o
}

fn check_positions(positions: &[TurkPos], promo: Promotion) {
    let hubs: Vec<String> = positions.iter().map(TurkPos::hub).collect();
    let fens: Vec<String> = positions.iter().map(TurkPos::fen).collect();
    let reference: Vec<Vec<Outcome>> = positions
        .iter()
        .map(|p| reference_outcomes(p, promo))
        .collect();
    if let Err(e) = compare(&options(promo), &hubs, &fens, &reference) {
        panic!("turkish-promotion={promo:?}: {e}");
    }
}

fn random_positions(seed: u64, promo: Promotion) -> Vec<TurkPos> {
    let mut rng = Rng::new(seed);
    let mut positions = Vec::new();
    while positions.len() < 2000 {
        positions.extend(turkish_ref::random_game(&mut rng, 200, promo));
    }
    // Sparse boards with many kings: long king captures, immediate removal.
    for _ in 0..1000 {
        positions.push(turkish_ref::random_scatter(&mut rng, 1, 8, 50));
    }
    // Dense middlegames.
    for _ in 0..1000 {
        positions.push(turkish_ref::random_scatter(&mut rng, 8, 16, 15));
    }
    // Men near the far rank, to exercise promotion during captures.
    for _ in 0..1000 {
        positions.push(turkish_ref::random_scatter(&mut rng, 4, 12, 5));
    }
    positions
}

#[test]
fn fast_generator_agrees_with_reference_with_promotion_at_the_end() {
    let positions = random_positions(0x7475_0001, Promotion::End);
    check_positions(&positions, Promotion::End);
}

#[test]
fn fast_generator_agrees_with_reference_with_immediate_promotion() {
    let positions = random_positions(0x7475_0002, Promotion::Immediate);
    let conflicts: usize = positions
        .iter()
        .map(|p| turkish_ref::promotion_conflicts(p, Promotion::Immediate).len())
        .sum();
    // A move whose routes disagree on crowning would make "the same move"
    // ambiguous; report it if the random positions ever find one.
    assert_eq!(conflicts, 0, "moves whose routes disagree on crowning");
    check_positions(&positions, Promotion::Immediate);
}
