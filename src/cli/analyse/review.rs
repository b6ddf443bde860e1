//! `salto analyse --pdn FILE`: every position of every game searched
//! ([`crate::session::review`]), the games written back with the score
//! after each move as a `[%eval ...]` comment and the marks as NAGs plus a
//! comment naming the better move (docs/cli.md, "salto analyse --pdn").

use super::AnalyseArgs;
use crate::game::{Game, ParseError};
use crate::gui::pdn::{self, PdnGame};
use crate::search::{Control, Limits};
use crate::session::review::{self, PositionEval};
use crate::variant::{GameVisitor, Options, dispatch};

/// Analyses the file `args.pdn` and writes the result to `args.out` (or
/// standard output).
pub fn run(args: &AnalyseArgs, default: &Options) -> Result<(), ParseError> {
    let Some(path) = &args.pdn else {
        return Err(ParseError::new("no --pdn file"));
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| ParseError(format!("cannot read {}: {e}", path.display())))?;
    let games = pdn::parse(&text)?;
    if args.depth.is_none() && args.nodes.is_none() && args.movetime.is_none() {
        return Err(ParseError::new(
            "give a limit per position: --depth, --movetime or --nodes",
        ));
    }
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        move_time: args.movetime,
        multipv: 1,
        ..Limits::default()
    };
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        let opts = g.options(default)?;
        opts.validate()?;
        let job = Review {
            game: g,
            limits: &limits,
            hash: args.hash,
        };
        let text = dispatch(&opts, job)?.map_err(|e| ParseError(format!("game {}: {e}", i + 1)))?;
        log::info!("game {} of {} analysed", i + 1, games.len());
        out.push_str(&text);
    }
    match &args.out {
        Some(p) => {
            // Written next to the target and renamed: never half a file.
            let tmp = p.with_extension("pdn.tmp");
            std::fs::write(&tmp, out.as_bytes())
                .and_then(|()| std::fs::rename(&tmp, p))
                .map_err(|e| ParseError(format!("cannot write {}: {e}", p.display())))
        }
        None => {
            outln!("{}", out.trim_end());
            Ok(())
        }
    }
}

struct Review<'a> {
    game: &'a PdnGame,
    limits: &'a Limits,
    hash: usize,
}

impl GameVisitor for Review<'_> {
    type Output = Result<String, ParseError>;

    fn visit<G: Game>(self, game: G) -> Self::Output {
        let g = self.game;
        let mut pos = match g.tag("FEN").map(str::trim).filter(|f| !f.is_empty()) {
            Some(f) => game
                .parse_fen(f)
                .map_err(|e| ParseError(format!("bad FEN tag: {e}")))?,
            None => game.start(),
        };
        let root_to_move = game.to_move(&pos);
        let mut positions = vec![pos.clone()];
        let mut played = Vec::with_capacity(g.moves.len());
        for (i, text) in g.moves.iter().enumerate() {
            let mv = game
                .parse_move(&pos, text)
                .map_err(|e| ParseError(format!("move {} '{}' is not legal: {e}", i + 1, text)))?;
            played.push(game.format_move(&pos, mv));
            pos = game.play(&pos, mv);
            positions.push(pos.clone());
        }
        let evals = review::evaluate(
            game,
            &positions,
            self.limits,
            self.hash,
            &Control::new(),
            &mut |_, _| {},
        );
        let numbering = Numbering {
            players: game.num_players(),
            first: game.to_move(&game.start()),
            root: root_to_move,
        };
        Ok(write(g, &played, &evals, &numbering))
    }
}

/// How moves are numbered: the players, who moves first in the variant
/// and who moves first in this game.
struct Numbering {
    players: usize,
    first: usize,
    root: usize,
}

/// The comment after move `i`: the score after it, and its mark.
fn comment(
    evals: &[PositionEval],
    played: &[String],
    i: usize,
    players: usize,
) -> (String, String) {
    let mut words = Vec::new();
    if let Some(after) = evals.get(i + 1) {
        words.push(review::eval_comment(after));
    }
    let mut nag = String::new();
    if let Some(j) = review::judge(evals, i, &played[i], players)
        && let Some(m) = j.mark
    {
        nag = m.nag().to_string();
        let mut name = m.name().to_string();
        name[..1].make_ascii_uppercase();
        match j.better {
            Some(b) => words.push(format!("{name}. Best was {b}.")),
            None => words.push(format!("{name}.")),
        }
    }
    (nag, words.join(" "))
}

/// The game `g` with its tags as read and its moves as written in the file,
/// each followed by its NAG and comment.
fn write(g: &PdnGame, played: &[String], evals: &[PositionEval], n: &Numbering) -> String {
    let mut out = String::new();
    for (name, value) in &g.tags {
        let v = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{v}\"]\n"));
    }
    out.push('\n');
    let players = n.players.max(1);
    let mut words: Vec<String> = Vec::new();
    if let Some(first) = evals.first() {
        words.push(format!("{{{}}}", review::eval_comment(first)));
    }
    let mut player = n.root;
    let mut number = 1u32;
    for (i, mv) in g.moves.iter().enumerate() {
        if player == n.first {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(mv.clone());
        let (nag, text) = comment(evals, played, i, n.players);
        if !nag.is_empty() {
            words.push(nag);
        }
        if !text.is_empty() {
            words.push(format!("{{{}}}", text.replace(['{', '}'], "")));
        }
        player = (player + 1) % players;
        if player == n.first {
            number += 1;
        }
    }
    words.push(g.tag("Result").unwrap_or("*").to_string());
    out.push_str(&crate::tournament::pdn::wrap_movetext(&words));
    out
}
