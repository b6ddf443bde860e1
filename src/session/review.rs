//! Game analysis (`salto analyse --pdn`, the board's "Analyse game"): every
//! position of a game searched with the same limits, then each move judged
//! by what it lost against the best move.
//!
//! A move's loss is, from the mover's view, the score of the position
//! before it minus the score after it (two players: the negated score of
//! the next position, searched for the opponent). Scores are clamped to
//! ±[`LOSS_CLAMP`] centi-men first, so that a won position stays "won"
//! whatever the distance to the win. The marks (docs/cli.md, "salto
//! analyse --pdn"):
//!
//! | mark | loss at least | PDN |
//! |---|---|---|
//! | inaccuracy | 0.30 men | `?!` (NAG `$6`) |
//! | mistake | 0.70 men | `?` (NAG `$2`) |
//! | blunder | 1.50 men | `??` (NAG `$4`) |
//!
//! Games of more than two players get scores but no marks (the score of
//! the next position is from another player's view).

use super::format;
use crate::game::{Game, MoveList, Score, outcome_score};
use crate::search::{Control, Limits, Searcher};
use serde::Serialize;

/// Scores are clamped to this many centi-men (10 men) before losses.
pub const LOSS_CLAMP: Score = 1000;
/// The least loss of an inaccuracy, a mistake and a blunder, centi-men.
pub const THRESHOLDS: [(Score, Mark); 3] = [
    (150, Mark::Blunder),
    (70, Mark::Mistake),
    (30, Mark::Inaccuracy),
];

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// PDN's numeric annotation glyph (as lichess and lidraughts export).
    pub fn nag(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "$6",
            Mark::Mistake => "$2",
            Mark::Blunder => "$4",
        }
    }

    /// The mark of a loss (centi-men), if it is one.
    pub fn of_loss(loss: Score) -> Option<Mark> {
        THRESHOLDS
            .iter()
            .find(|(at, _)| loss >= *at)
            .map(|&(_, m)| m)
    }
}

/// What the search says about one position of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionEval {
    /// From the player to move, centi-men (a finished game: its result).
    pub score: Score,
    /// The player to move.
    pub to_move: usize,
    /// The best move in Hub form (`None` when the game is over).
    pub best: Option<String>,
    /// The principal variation in Hub form.
    pub pv: Vec<String>,
    /// The depth reached (0 when the game is over).
    pub depth: u32,
}

/// One move of the game as judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveJudgement {
    /// What the move lost, centi-men (two players only).
    pub loss: Option<Score>,
    pub mark: Option<Mark>,
    /// The best move of the position, when the move played was not it.
    pub better: Option<String>,
}

/// The score of a position whose game is over, for the player to move;
/// `None` while the game goes on.
fn finished_score<G: Game>(game: &G, pos: &G::Position) -> Option<Score> {
    let me = game.to_move(pos);
    if let Some(o) = game.outcome(pos) {
        return Some(outcome_score(game, pos, o, me, 0).unwrap_or(0));
    }
    let mut list = MoveList::new();
    game.generate(pos, &mut list);
    if !list.is_empty() {
        return None;
    }
    // No legal move: the player to move has lost (two players).
    Some(if game.num_players() == 2 {
        -crate::game::SCORE_WIN
    } else {
        0
    })
}

/// Searches `positions[0..]` (each reached through the ones before it) with
/// `limits`, calling `progress(done, total)` after each; stops early (with
/// the positions done so far) when `control` is stopped.
pub fn evaluate<G: Game>(
    game: G,
    positions: &[G::Position],
    limits: &Limits,
    hash_mib: usize,
    control: &Control,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<PositionEval> {
    let mut searcher = Searcher::new(game, hash_mib, 1);
    let mut out = Vec::with_capacity(positions.len());
    let mut history: Vec<u64> = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        if control.should_stop() {
            break;
        }
        let to_move = game.to_move(pos);
        let eval = match finished_score(&game, pos) {
            Some(score) => PositionEval {
                score,
                to_move,
                best: None,
                pv: Vec::new(),
                depth: 0,
            },
            None => {
                let r = searcher.search(pos, &history, limits, control, &mut |_| {});
                if control.should_stop() {
                    break;
                }
                PositionEval {
                    score: r.score,
                    to_move,
                    best: r.best.map(|m| game.format_move(pos, m)),
                    pv: format::pv(&game, pos, &r.pv),
                    depth: r.depth,
                }
            }
        };
        out.push(eval);
        history.push(game.hash(pos));
        progress(i + 1, positions.len());
    }
    out
}

/// Judges move `i` (from `evals[i]` to `evals[i + 1]`), played as `played`
/// (Hub form), in a game of `players` players.
pub fn judge(
    evals: &[PositionEval],
    i: usize,
    played: &str,
    players: usize,
) -> Option<MoveJudgement> {
    let (before, after) = (evals.get(i)?, evals.get(i + 1)?);
    let better = before.best.clone().filter(|b| b != played);
    if players != 2 || before.to_move == after.to_move {
        return Some(MoveJudgement {
            loss: None,
            mark: None,
            better,
        });
    }
    let clamp = |s: Score| s.clamp(-LOSS_CLAMP, LOSS_CLAMP);
    let loss = (clamp(before.score) - clamp(-after.score)).max(0);
    // The best move itself loses nothing, whatever the noise of depths.
    let mark = better.as_ref().and_then(|_| Mark::of_loss(loss));
    Some(MoveJudgement {
        loss: Some(loss),
        mark,
        better: mark.and(better),
    })
}

/// A score in men from player 0's view (the graph's and `[%eval]`'s).
pub fn white_view(e: &PositionEval) -> f64 {
    let men: f64 = format::score(e.score).parse().unwrap_or(0.0);
    if e.to_move == 0 { men } else { -men }
}

/// The `[%eval ...]` comment of a position (lichess' and lidraughts'
/// convention: men from White's view, two decimals; a win in n plies of
/// the search stays as protocol.md prints it, 100 - n/100).
pub fn eval_comment(e: &PositionEval) -> String {
    format!("[%eval {:.2}]", white_view(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(score: Score, to_move: usize, best: &str) -> PositionEval {
        PositionEval {
            score,
            to_move,
            best: Some(best.into()),
            pv: vec![best.into()],
            depth: 3,
        }
    }

    #[test]
    fn losses_become_marks_at_the_documented_thresholds() {
        let e = [eval(20, 0, "a"), eval(50, 1, "b"), eval(-300, 0, "c")];
        // 0.20 before, -0.50 after: a loss of 0.70, a mistake.
        let j = judge(&e, 0, "x", 2).unwrap();
        assert_eq!(
            (j.loss, j.mark, j.better.as_deref()),
            (Some(70), Some(Mark::Mistake), Some("a"))
        );
        // The best move is never marked.
        let j = judge(&e, 0, "a", 2).unwrap();
        assert_eq!((j.mark, j.better), (None, None));
        // 0.50 before, +3.00 for the mover after: no loss.
        let j = judge(&e, 1, "y", 2).unwrap();
        assert_eq!((j.loss, j.mark), (Some(0), None));
        assert_eq!(Mark::of_loss(29), None);
        assert_eq!(Mark::of_loss(30), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_loss(150), Some(Mark::Blunder));
        // A won position that stays won is clamped: no blunder.
        let w = [
            eval(crate::game::SCORE_WIN - 5, 0, "a"),
            eval(-2000, 1, "b"),
        ];
        assert_eq!(judge(&w, 0, "x", 2).unwrap().mark, None);
        // More than two players: no marks.
        assert_eq!(judge(&e, 0, "x", 3).unwrap().mark, None);
        assert_eq!(eval_comment(&eval(-125, 1, "a")), "[%eval 1.25]");
    }
}
