//! Static evaluation of draughts positions, one hand-written function for
//! every board of the family (10x10, 8x8, turkish, hex), driven by tables
//! derived from the geometry and the rules (how men step, where they are
//! crowned). docs/evaluation.md explains each term; every weight is a named
//! constant below so that a tuning run can train them.
//!
//! All terms are computed for White and Black and the difference is
//! returned from the view of the player to move. Most terms are popcounts
//! of bitboards against precomputed layers; only men close to the crowning
//! row are looked at one by one (runaway test).

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::layout::Layout;
use super::position::{Bb, Position};
use super::rules::Rules;
use crate::game::Score;
use std::any::{Any, TypeId};
use std::sync::{Mutex, OnceLock};

/// A man.
pub const MAN: Score = 100;
/// A king (flying kings; see [`KING_SHORT`]).
pub const KING: Score = 320;
/// A king that moves one square (english).
pub const KING_SHORT: Score = 150;
/// Per man, per row advanced from its own back row (tempo).
pub const ADVANCE: Score = 3;
/// Per man, per ring towards the centre (0 on the edge).
pub const CENTRE: Score = 4;
/// Per man on a side edge (not the back or crowning row).
pub const SIDE_EDGE: Score = -6;
/// Per man on its own back row while the opponent still has men (the guard
/// against crowning).
pub const BACK_RANK: Score = 6;
/// Per man with an own man directly behind it (a chain), per direction.
pub const SUPPORT: Score = 2;
/// Per man of difference between the two wings (penalty).
pub const WING_IMBALANCE: Score = -4;
/// A man that cannot be stopped from crowning is worth this much more ...
pub const RUNAWAY: Score = 160;
/// ... minus this per step it still needs.
pub const RUNAWAY_STEP: Score = 15;
/// Men at most this many steps from crowning are tested for a runaway.
pub const RUNAWAY_MAX_STEPS: u8 = 5;
/// With kings on the board and no more than this much material difference
/// (centi-men), the game is drawish: the score is divided by
/// [`DRAWISH_DIVISOR`].
pub const DRAWISH_MARGIN: Score = 2 * MAN;
pub const DRAWISH_DIVISOR: Score = 4;

/// Board tables of one rule set (they depend on the geometry and on how
/// men step).
pub struct Tables<B> {
    /// `dist_layers[p][k]`: squares from which a man of player `p` needs `k`
    /// steps to be crowned.
    pub dist_layers: [Vec<B>; 2],
    /// Steps to crowning by bit, per player (255: never).
    pub dist: [Vec<u8>; 2],
    /// The greatest finite distance.
    pub max_dist: [u8; 2],
    /// `rings[k]`: squares `k` king steps from the edge.
    pub rings: Vec<B>,
    /// Edge squares that are neither back nor crowning rows.
    pub side_edge: B,
    /// Each player's own back row (the opponent's crowning row).
    pub back_rank: [B; 2],
    /// The two wings (by file).
    pub wings: [B; 2],
    /// Per player and bit: the squares a man there can reach by steps
    /// (its path to the crown), and those squares with their neighbours
    /// (from where an enemy can stop it).
    pub cone: [Vec<B>; 2],
    pub guard: [Vec<B>; 2],
    /// Squares at most [`RUNAWAY_MAX_STEPS`] from crowning, per player.
    pub runaway_zone: [B; 2],
    /// The man-step directions that always bring a man closer to its crown
    /// (all of them on the diagonal boards; not turkish sideways steps).
    pub forward_dirs: [Vec<usize>; 2],
    /// The pattern evaluation's windows.
    pub layout: Layout,
}

/// The playable squares of a rule set's board, as bit indices.
fn square_bits<R: Rules>() -> Vec<u32> {
    <R::Geo as Geometry>::SQUARE_BIT
        .iter()
        .map(|&b| b as u32)
        .collect()
}

/// One step of every square of `b` in direction `d`.
fn step<R: Rules>(b: Bb<R>, d: usize) -> Bb<R> {
    <R::Geo as Geometry>::step(b, d)
}

/// Man steps to the crown from every bit for player `p` (255: never):
/// the fixed point of `d(s) = 1 + min over steps s->t of d(t)`.
fn crown_distance<R: Rules>(p: usize) -> Vec<u8> {
    let squares = square_bits::<R>();
    let promotion = <R::Geo as Geometry>::PROMOTION[p];
    let mut dist = vec![255u8; Bb::<R>::BITS as usize];
    for &s in &squares {
        if promotion.has(s) {
            dist[s as usize] = 0;
        }
    }
    loop {
        let mut changed = false;
        for &s in &squares {
            for &d in R::MAN_STEP_DIRS[p] {
                let t = step::<R>(Bb::<R>::bit(s), d);
                if t.any() {
                    let dt = dist[t.lowest() as usize];
                    if dt < 255 && dt + 1 < dist[s as usize] {
                        dist[s as usize] = dt + 1;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return dist;
        }
    }
}

/// The squares of each distance to the crown (`layers[k]`: `k` steps).
fn distance_layers<R: Rules>(dist: &[u8]) -> Vec<Bb<R>> {
    let squares = square_bits::<R>();
    let max = squares
        .iter()
        .map(|&s| dist[s as usize])
        .filter(|&d| d < 255)
        .max()
        .unwrap_or(0);
    let mut layers = vec![Bb::<R>::ZERO; max as usize + 1];
    for &s in &squares {
        let d = dist[s as usize];
        if d < 255 {
            layers[d as usize] |= Bb::<R>::bit(s);
        }
    }
    layers
}

/// Every square a man of `p` on `s` can still reach (an enemy there or
/// next to it may stop it), without `s`.
fn guard_of<R: Rules>(p: usize, s: u32) -> Bb<R> {
    let mut reach = Bb::<R>::ZERO;
    let mut frontier = Bb::<R>::bit(s);
    while frontier.any() {
        let mut next = Bb::<R>::ZERO;
        for &d in R::MAN_STEP_DIRS[p] {
            next |= step::<R>(frontier, d);
        }
        next &= !reach;
        reach |= next;
        frontier = next;
    }
    let mut g = reach;
    for d in 0..<R::Geo as Geometry>::DIRS.len() {
        g |= step::<R>(reach, d);
    }
    g & !Bb::<R>::bit(s)
}

/// A man's way to the crown: the squares reached by steps that bring it
/// closer. Every man step does on the diagonal boards; turkish men also
/// step sideways, and a free file ahead is all a turkish man needs.
fn way_of<R: Rules>(p: usize, s: u32, dist: &[u8]) -> Bb<R> {
    let mut way = Bb::<R>::ZERO;
    let mut frontier = vec![s];
    while let Some(t) = frontier.pop() {
        for &d in R::MAN_STEP_DIRS[p] {
            let u = step::<R>(Bb::<R>::bit(t), d);
            if u.any() {
                let ub = u.lowest();
                if dist[ub as usize] < dist[t as usize] && !way.has(ub) {
                    way |= u;
                    frontier.push(ub);
                }
            }
        }
    }
    way
}

/// The edge (squares with a direction that leaves the board) and the
/// rings 1, 2, ... king steps inside it.
fn rings_of<R: Rules>() -> Vec<Bb<R>> {
    let all_dirs = <R::Geo as Geometry>::DIRS.len();
    let mut edge = Bb::<R>::ZERO;
    for s in square_bits::<R>() {
        if (0..all_dirs).any(|d| step::<R>(Bb::<R>::bit(s), d).is_empty()) {
            edge |= Bb::<R>::bit(s);
        }
    }
    let mut rings = vec![edge];
    let mut seen = edge;
    loop {
        let mut next = Bb::<R>::ZERO;
        let last = *rings.last().unwrap_or(&Bb::<R>::ZERO);
        for d in 0..all_dirs {
            next |= step::<R>(last, d);
        }
        next &= !seen;
        if next.is_empty() {
            return rings;
        }
        seen |= next;
        rings.push(next);
    }
}

/// The two wings by file; the middle file of an odd board is in neither.
fn wings_of<R: Rules>() -> [Bb<R>; 2] {
    let files = <R::Geo as Geometry>::FILES as u32;
    let mut wings = [Bb::<R>::ZERO; 2];
    for (sq, s) in square_bits::<R>().into_iter().enumerate() {
        let f = <R::Geo as Geometry>::coords(sq).0 as u32;
        if 2 * f + 1 < files {
            wings[0] |= Bb::<R>::bit(s);
        } else if 2 * f + 1 > files {
            wings[1] |= Bb::<R>::bit(s);
        }
    }
    wings
}

/// The man-step directions of `p` that bring a man closer to the crown
/// from every square.
fn forward_dirs_of<R: Rules>(p: usize, dist: &[u8]) -> Vec<usize> {
    let squares = square_bits::<R>();
    R::MAN_STEP_DIRS[p]
        .iter()
        .copied()
        .filter(|&d| {
            squares.iter().all(|&s| {
                let u = step::<R>(Bb::<R>::bit(s), d);
                u.is_empty() || dist[u.lowest() as usize] < dist[s as usize]
            })
        })
        .collect()
}

impl<B: Bitboard> Tables<B> {
    fn build<R: Rules>() -> Self
    where
        R::Geo: Geometry<BB = B>,
    {
        let n = B::BITS as usize;
        let squares = square_bits::<R>();
        let promotion = <R::Geo as Geometry>::PROMOTION;
        let dist = [crown_distance::<R>(0), crown_distance::<R>(1)];
        let dist_layers = [
            distance_layers::<R>(&dist[0]),
            distance_layers::<R>(&dist[1]),
        ];
        let max_dist = [0, 1].map(|p| (dist_layers[p].len() - 1) as u8);
        let mut cone = [vec![B::ZERO; n], vec![B::ZERO; n]];
        let mut guard = [vec![B::ZERO; n], vec![B::ZERO; n]];
        for p in 0..2 {
            for &s in &squares {
                guard[p][s as usize] = guard_of::<R>(p, s);
                cone[p][s as usize] = way_of::<R>(p, s, &dist[p]);
            }
        }
        let rings = rings_of::<R>();
        let side_edge = rings[0] & !promotion[0] & !promotion[1];
        let zone = |p: usize| {
            dist_layers[p]
                .iter()
                .take(RUNAWAY_MAX_STEPS as usize + 1)
                .fold(B::ZERO, |a, &l| a | l)
        };
        Tables {
            runaway_zone: [zone(0), zone(1)],
            forward_dirs: [
                forward_dirs_of::<R>(0, &dist[0]),
                forward_dirs_of::<R>(1, &dist[1]),
            ],
            dist_layers,
            dist,
            max_dist,
            rings,
            side_edge,
            back_rank: [promotion[1], promotion[0]],
            wings: wings_of::<R>(),
            cone,
            guard,
            layout: Layout::build::<R>(NF),
        }
    }
}

type Registry = Mutex<Vec<(TypeId, &'static (dyn Any + Send + Sync))>>;

/// The tables of rule set `R`, built on first use and kept for the life of
/// the program. The lookup is one comparison after the first call per
/// thread-visible cache line; the mutex is taken only while building.
pub fn tables<R: Rules>() -> &'static Tables<Bb<R>> {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    // A per-rule-set cache without generic statics: the registry maps the
    // rule set's type to its leaked tables.
    thread_local! {
        static LAST: std::cell::Cell<Option<(TypeId, &'static (dyn Any + Send + Sync))>> =
            const { std::cell::Cell::new(None) };
    }
    let id = TypeId::of::<R>();
    if let Some((tid, t)) = LAST.with(|c| c.get())
        && tid == id
    {
        // SAFETY: the registry keys each rule set's tables by the rule
        // set's type, so an entry found under `R`'s id is a
        // `Tables<Bb<R>>` (checked by `downcast_ref` when it was cached
        // below). This skips `downcast_ref`'s second type check, a call
        // through the vtable on every evaluation.
        return unsafe { &*(t as *const (dyn Any + Send + Sync) as *const Tables<Bb<R>>) };
    }
    let reg = REGISTRY.get_or_init(|| Mutex::new(Vec::new()));
    let mut guard = match reg.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    let entry = match guard.iter().find(|(tid, _)| *tid == id) {
        Some(&(_, t)) => t,
        None => {
            let t: &'static Tables<Bb<R>> = Box::leak(Box::new(Tables::build::<R>()));
            guard.push((id, t));
            t
        }
    };
    drop(guard);
    match entry.downcast_ref::<Tables<Bb<R>>>() {
        Some(t) => {
            LAST.with(|c| c.set(Some((id, entry))));
            t
        }
        // Unreachable: the registry is keyed by the type that built it.
        None => Box::leak(Box::new(Tables::build::<R>())),
    }
}

/// The number of hand features ([`side_features`] and the tempo).
pub const NF: usize = 11;

/// The hand features by name, in [`side_features`]'s order (the weights
/// file and docs/evaluation.md use these names).
pub const FEATURE_NAMES: [&str; NF] = [
    "man",
    "king",
    "advance",
    "centre",
    "side-edge",
    "back-rank",
    "support",
    "wing-imbalance",
    "runaway",
    "king-centre",
    "tempo",
];

/// Index of the tempo feature: +1 for the player to move (not a side
/// term; [`feature_difference`] sets it).
pub const TEMPO: usize = 10;

/// The hand evaluation's weight of each feature: the constants above
/// (the runaway feature is already in centi-men; king centrality and tempo
/// are not hand terms).
pub const fn hand_weights<R: Rules>() -> [Score; NF] {
    let king = if R::FLYING_KINGS { KING } else { KING_SHORT };
    [
        MAN,
        king,
        ADVANCE,
        CENTRE,
        SIDE_EDGE,
        BACK_RANK,
        SUPPORT,
        WING_IMBALANCE,
        1,
        0,
        0,
    ]
}

/// The hand features of one player's pieces (not yet relative to the
/// opponent): counts and sums that the weights multiply.
#[inline(always)]
pub fn side_features<R: Rules>(t: &Tables<Bb<R>>, pos: &Position<Bb<R>>, p: usize) -> [Score; NF] {
    let own = pos.pieces[p];
    let opp = pos.pieces[1 - p];
    let men = own & !pos.kings;
    let kings = own & pos.kings;
    let mut f = [0; NF];
    f[0] = men.count() as Score;
    f[1] = kings.count() as Score;

    // Advancement: rows gained, counted by distance-to-crown layers.
    let layers = &t.dist_layers[p];
    let maxd = t.max_dist[p] as Score;
    for (k, &layer) in layers.iter().enumerate() {
        f[2] += (maxd - k as Score) * (men & layer).count() as Score;
    }

    // Centre and edge.
    for (k, &ring) in t.rings.iter().enumerate().skip(1) {
        f[3] += k as Score * (men & ring).count() as Score;
        f[9] += k as Score * (kings & ring).count() as Score;
    }
    f[4] = (men & t.side_edge).count() as Score;

    // Back-rank guard while the opponent has men to crown.
    if (opp & !pos.kings).any() {
        f[5] = (men & t.back_rank[p]).count() as Score;
    }

    [f[6], f[7], f[8]] = structure::<R>(t, pos, p, men, opp);
    f
}

/// The features of player `p`'s men (`men`, against the opponent's pieces
/// `opp`) that are not sums of a value per square: chains, wing
/// imbalance and the runaway (`[support, wing-imbalance, runaway]`).
#[inline(always)]
pub fn structure<R: Rules>(
    t: &Tables<Bb<R>>,
    pos: &Position<Bb<R>>,
    p: usize,
    men: Bb<R>,
    opp: Bb<R>,
) -> [Score; 3] {
    // Chains: a man with an own man one step behind it.
    let mut support = 0;
    for &d in &t.forward_dirs[p] {
        support += (men & <R::Geo as Geometry>::step(men, d)).count() as Score;
    }

    // Balance between the wings.
    let l = (men & t.wings[0]).count() as Score;
    let r = (men & t.wings[1]).count() as Score;

    // Runaway men: no enemy king, nothing on the way, no enemy near the way.
    let mut best = 0;
    if (opp & pos.kings).is_empty() {
        let occ = pos.pieces[0] | pos.pieces[1];
        for b in (men & t.runaway_zone[p]).iter() {
            let b = b as usize;
            if (t.cone[p][b] & occ).is_empty() && (t.guard[p][b] & opp).is_empty() {
                let v = RUNAWAY - RUNAWAY_STEP * t.dist[p][b] as Score;
                best = best.max(v);
            }
        }
    }
    [support, (l - r).abs(), best]
}

/// The value of each per-square feature (men, advancement, centre, side
/// edge, back rank: [`FOLDED`]) for a man of player `p` on internal square
/// `sq`: what [`side_features`] adds for it (the back rank counted
/// whether or not the opponent has men).
pub fn square_features<R: Rules>(t: &Tables<Bb<R>>, p: usize, sq: usize) -> [Score; NF] {
    let bit = <R::Geo as Geometry>::SQUARE_BIT[sq] as u32;
    let b = Bb::<R>::bit(bit);
    let mut f = [0; NF];
    f[0] = 1;
    let d = t.dist[p][bit as usize];
    if d < 255 {
        f[2] = t.max_dist[p] as Score - d as Score;
    }
    for (k, &ring) in t.rings.iter().enumerate().skip(1) {
        if (ring & b).any() {
            f[3] = k as Score;
        }
    }
    f[4] = (t.side_edge & b).any() as Score;
    f[5] = (t.back_rank[p] & b).any() as Score;
    f
}

/// The features [`square_features`] gives a value per square: men,
/// advancement, centre, side edge, back rank.
pub const FOLDED: [usize; 5] = [0, 2, 3, 4, 5];

/// White's features minus Black's, with the tempo (+1 when White is to
/// move, -1 when Black is).
#[inline(always)]
pub fn feature_difference<R: Rules>(t: &Tables<Bb<R>>, pos: &Position<Bb<R>>) -> [Score; NF] {
    let w = side_features::<R>(t, pos, 0);
    let b = side_features::<R>(t, pos, 1);
    let mut f = [0; NF];
    for k in 0..NF {
        f[k] = w[k] - b[k];
    }
    f[TEMPO] = if pos.side == 0 { 1 } else { -1 };
    f
}

/// With flying kings, a side with a king is hard to beat when it has at
/// most [`DRAWISH_MARGIN`] less material, or when the stronger side has no
/// more than [`Rules::KING_HOLDS_AGAINST`] pieces (two kings against one on
/// 8x8, three against one on 10x10): the score is divided by
/// [`DRAWISH_DIVISOR`].
#[inline(always)]
pub fn is_drawish<R: Rules>(pos: &Position<Bb<R>>) -> bool {
    if !R::FLYING_KINGS || pos.kings.is_empty() {
        return false;
    }
    let mat = |p: usize| {
        let own = pos.pieces[p];
        MAN * (own & !pos.kings).count() as Score + KING * (own & pos.kings).count() as Score
    };
    let diff = mat(0) - mat(1);
    let (stronger, weaker) = if diff > 0 { (0, 1) } else { (1, 0) };
    (pos.pieces[weaker] & pos.kings).any()
        && (diff.abs() <= DRAWISH_MARGIN || pos.pieces[stronger].count() <= R::KING_HOLDS_AGAINST)
}

/// The evaluation from the view of the player to move, in centi-men.
///
/// The terms are mostly popcounts; the default x86-64 target has no
/// `popcnt` instruction and counts bits in software, so on processors that
/// have it (detected at run time, cached by the standard library) the same
/// code runs compiled with it.
#[inline]
pub fn evaluate<R: Rules>(pos: &Position<Bb<R>>) -> Score {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has `popcnt` (checked just above).
        return unsafe { evaluate_popcnt::<R>(pos) };
    }
    evaluate_portable::<R>(pos)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt<R: Rules>(pos: &Position<Bb<R>>) -> Score {
    evaluate_portable::<R>(pos)
}

/// [`evaluate`]'s body, inlined into each of its compilations.
#[inline(always)]
fn evaluate_portable<R: Rules>(pos: &Position<Bb<R>>) -> Score {
    let t = tables::<R>();
    let f = feature_difference::<R>(t, pos);
    let w = hand_weights::<R>();
    let mut s = 0;
    for k in 0..NF {
        s += w[k] * f[k];
    }
    if is_drawish::<R>(pos) {
        s /= DRAWISH_DIVISOR;
    }
    if pos.side == 0 { s } else { -s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{International, InternationalGame};
    use crate::game::Game;

    fn fen(s: &str) -> Position<u64> {
        match InternationalGame::default().parse_fen(s) {
            Ok(p) => p,
            Err(e) => panic!("{s}: {e}"),
        }
    }

    #[test]
    fn start_position_is_balanced() {
        let g = InternationalGame::default();
        assert_eq!(g.evaluate(&g.start()), 0);
    }

    #[test]
    fn evaluation_is_symmetric_in_colour() {
        // The same position with colours and board reversed scores the same
        // for the player to move.
        let a = fen("W:W31,32,33,45:B6,11,12,19");
        let b = fen("B:W32,39,40,45:B6,18,19,20");
        assert_eq!(evaluate::<International>(&a), evaluate::<International>(&b));
    }

    #[test]
    fn a_man_up_is_about_a_man() {
        let p = fen("W:W31,32,33:B18,19");
        let e = evaluate::<International>(&p);
        assert!(e > 60 && e < 200, "{e}");
    }

    #[test]
    fn an_unstoppable_man_is_worth_more() {
        // White man on 8 with nothing in front: runaway; with a black man
        // on 2 in its way it is not.
        let free = fen("W:W8:B20");
        let blocked = fen("W:W8:B2");
        assert!(evaluate::<International>(&free) > evaluate::<International>(&blocked) + 80);
    }

    #[test]
    fn turkish_runaway_needs_only_a_free_file_ahead() {
        use crate::draughts::{Turkish, TurkishGame};
        let g = TurkishGame::default();
        let f = |s: &str| match g.parse_fen(s) {
            Ok(p) => p,
            Err(e) => panic!("{s}: {e}"),
        };
        // White's man on d5 has d6-d8 free and no black man on its row or
        // above: it crowns. With a black man on d7 it does not. (Black's
        // man on a3 is a runaway in both.)
        let free = evaluate::<Turkish>(&f("W:Wd5:Ba3,h3"));
        let blocked = evaluate::<Turkish>(&f("W:Wd5:Ba3,d7"));
        assert!(free > blocked + 60, "free {free}, blocked {blocked}");
    }

    #[test]
    fn chains_and_runaway_ways_use_only_steps_towards_the_crown() {
        use crate::draughts::Turkish;
        // Diagonal men have two forward steps; turkish men one (their
        // sideways steps do not bring them closer).
        assert_eq!(tables::<International>().forward_dirs[0].len(), 2);
        assert_eq!(tables::<Turkish>().forward_dirs[0].len(), 1);
        assert_eq!(tables::<Turkish>().forward_dirs[1].len(), 1);
    }

    /// `is_drawish` of a position given as FEN under rules `R`.
    fn drawish<R: Rules>(text: &str) -> bool {
        match crate::draughts::notation::parse_fen::<R>(text) {
            Ok(p) => is_drawish::<R>(&p),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    #[test]
    fn king_endings_a_king_holds_are_drawish() {
        use crate::draughts::{Brazilian, English, Turkish};
        // International: three kings against one are drawish, four are not.
        assert!(drawish::<International>("W:WK7,K17,K29:BK45"));
        assert!(!drawish::<International>("W:WK7,K17,K29,K38:BK45"));
        // Three kings against a king and a man too (the weaker side has a
        // king); three kings against three men are not (no king).
        assert!(drawish::<International>("W:WK7,K17,K29:BK45,10"));
        assert!(!drawish::<International>("W:WK7,K17,K29:B10,11,12"));
        // Within two men of material it was drawish before and still is.
        assert!(drawish::<International>("W:WK7,31,32,33:BK45,10,11"));
        // 8x8 brazilian: two kings against one drawish, three not.
        assert!(drawish::<Brazilian>("W:WK1,K2:BK32"));
        assert!(!drawish::<Brazilian>("W:WK1,K2,K3:BK32"));
        // Turkish: two kings beat one.
        assert!(!drawish::<Turkish>("W:WKa1,Kb1:BKh8"));
        // English kings do not fly: never drawish by this rule.
        assert!(!drawish::<English>("W:WK1,K2:BK32"));
    }

    #[test]
    fn tables_measure_distance_to_the_crown() {
        let t = tables::<International>();
        // Square 46 (bottom-left) is 9 steps from White's crown row.
        let bit46 = <<International as Rules>::Geo as Geometry>::SQUARE_BIT[45] as usize;
        assert_eq!(t.dist[0][bit46], 9);
        assert_eq!(t.dist[1][bit46], 0);
        assert_eq!(t.max_dist[0], 9);
    }
}
