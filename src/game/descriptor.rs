//! What a game is besides its rules: names, defaults, PDN, bench positions,
//! the board's drawing and the data shipped for it. Each rule set's file
//! holds its one [`Descriptor`] (draughts: `Rules::DESCRIPTOR`; chinese
//! checkers: `chinese::DESCRIPTOR`), and the registry in `variant.rs`
//! lists them.

/// Everything about a variant that is not its rules.
#[derive(Debug)]
pub struct Descriptor {
    /// The canonical name ([`super::Game::name`]).
    pub name: &'static str,
    /// The name `hub` announces and the match runner sends (Scan's
    /// `normal` for international).
    pub hub_name: &'static str,
    /// Further names accepted on input, besides `name` and `hub_name`.
    pub aliases: &'static [&'static str],
    /// The move-count draw rule's default in moves by each side, from the
    /// rule set's `Rules::DEFAULT_DRAW_MOVES` (0: no such rule).
    pub draw_moves: u32,
    /// Repetition is a draw (rules.md: every two-sided game).
    pub repetition_draw: bool,
    /// PDN's `GameType` number, when PDN has one.
    pub pdn_game_type: Option<u32>,
    /// PDN result tokens: first player wins, second wins, draw.
    pub pdn_results: [&'static str; 3],
    /// Hand-set bench positions (FEN), besides the start and the
    /// played-out ones.
    pub bench_fens: &'static [&'static str],
    /// The bench depth (chosen so that the whole bench takes seconds).
    pub bench_depth: u32,
    /// The `set-param` options that change this game, besides `variant`.
    pub options: &'static [&'static str],
    /// How the board browser draws the board: `diagonal`, `orthogonal`,
    /// `hex` or `star`.
    pub board: &'static str,
    /// The opening book shipped in the binary (books/*.bin, docs/book.md),
    /// if one was built for the game.
    pub book: Option<&'static [u8]>,
    /// The endgame databases (`salto egdb`, docs/egdb.md) exist for the
    /// game: false where the game's end differs from "no legal move
    /// loses" (antidraughts, breakthrough), so the retrograde builder's
    /// values would be wrong.
    pub endgame_databases: bool,
}

impl Descriptor {
    /// A draughts game's descriptor: named `name` in the protocol too, no
    /// aliases, repetition draws, PDN's usual results, no hand-set bench
    /// positions, the `draw-moves` option, a diagonal board. Rule sets
    /// that differ say so with struct update syntax.
    pub const fn draughts(
        name: &'static str,
        draw_moves: u32,
        pdn_game_type: Option<u32>,
        bench_depth: u32,
        book: Option<&'static [u8]>,
    ) -> Descriptor {
        Descriptor {
            name,
            hub_name: name,
            aliases: &[],
            draw_moves,
            repetition_draw: true,
            pdn_game_type,
            pdn_results: PDN_RESULTS,
            bench_fens: &[],
            bench_depth,
            options: DRAUGHTS_OPTIONS,
            board: "diagonal",
            book,
            endgame_databases: true,
        }
    }

    /// A game played with the international moves and another goal
    /// (lidraughts' antidraughts and breakthrough): no PDN `GameType`, no
    /// draw rule but repetition, lidraughts' result tokens, no book and
    /// no endgame databases (their values assume that a player without a
    /// move loses and that a king does not end the game).
    pub const fn international_goal(
        name: &'static str,
        aliases: &'static [&'static str],
    ) -> Descriptor {
        Descriptor {
            aliases,
            pdn_results: ["2-0", "0-2", "1-1"],
            endgame_databases: false,
            ..Descriptor::draughts(name, 0, None, 10, None)
        }
    }
}

/// The PDN result tokens of most games.
pub const PDN_RESULTS: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];
/// The options of a draughts game with no option of its own.
pub const DRAUGHTS_OPTIONS: &[&str] = &["draw-moves"];

/// The descriptor of a game outside the registry (the tests' toy games).
pub const OTHER: Descriptor = Descriptor {
    name: "other",
    hub_name: "other",
    aliases: &[],
    draw_moves: 0,
    repetition_draw: true,
    pdn_game_type: None,
    pdn_results: PDN_RESULTS,
    bench_fens: &[],
    bench_depth: 1,
    options: &[],
    board: "diagonal",
    book: None,
    endgame_databases: false,
};
