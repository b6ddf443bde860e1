//! Reading PDN for the Watch view: the tags and the main line of each game
//! (move numbers, comments, variations, NAGs and the result are skipped).
//! The moves stay text; the game session checks them.

use crate::game::{ParseError, ParseResult};
use crate::variant::{Options, Variant};
use serde::Serialize;

/// One game of a PDN file.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PdnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
}

impl PdnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The variant the tags name (`Variant`, else `GameType`), if any.
    pub fn variant(&self) -> Option<Variant> {
        if let Some(v) = self.tag("Variant").and_then(|v| v.parse().ok()) {
            return Some(v);
        }
        let number: u32 = self
            .tag("GameType")?
            .split(',')
            .next()?
            .trim()
            .parse()
            .ok()?;
        Variant::ALL
            .into_iter()
            .find(|v| v.descriptor().pdn_game_type == Some(number))
    }

    /// The game's options: the variant its tags name (with the number of
    /// players of a chinese game, from its `Player` tags), else `default`'s.
    /// The other options (sets, rule choices) are not in PDN: `default`'s
    /// are kept when it is the same variant.
    pub fn options(&self, default: &Options) -> ParseResult<Options> {
        let mut opts = default.clone();
        if let Some(v) = self.variant()
            && v != default.variant
        {
            opts = Options::new(v);
        }
        if opts.variant == Variant::Chinese {
            let n = self
                .tags
                .iter()
                .filter(|(n, _)| n.starts_with("Player"))
                .count();
            if n >= 2 && n != opts.players as usize {
                opts.set("players", &n.to_string())?;
                opts.sets = 1;
            }
        }
        Ok(opts)
    }
}

fn is_result(w: &str) -> bool {
    matches!(
        w,
        "*" | "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2" | "0-0"
    )
}

/// Parses one `[Name "value"]` tag line.
fn parse_tag(line: &str, lineno: usize) -> ParseResult<(String, String)> {
    let inner = line
        .trim()
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| ParseError(format!("line {lineno}: a tag must end with ']'")))?;
    let (name, rest) = inner
        .trim()
        .split_once(char::is_whitespace)
        .ok_or_else(|| ParseError(format!("line {lineno}: tag without a value")))?;
    let value = rest
        .trim()
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| ParseError(format!("line {lineno}: the tag value must be in quotes")))?;
    Ok((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// The games of a PDN text. An error names the line.
pub fn parse(text: &str) -> ParseResult<Vec<PdnGame>> {
    let mut games = Vec::new();
    let mut cur = PdnGame {
        tags: Vec::new(),
        moves: Vec::new(),
    };
    let mut in_moves = false;
    let mut comment = false;
    let mut depth = 0usize;
    let flush = |cur: &mut PdnGame, games: &mut Vec<PdnGame>| {
        if !cur.tags.is_empty() || !cur.moves.is_empty() {
            games.push(std::mem::replace(
                cur,
                PdnGame {
                    tags: Vec::new(),
                    moves: Vec::new(),
                },
            ));
        }
    };
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if !comment && depth == 0 && t.starts_with('[') {
            if in_moves {
                flush(&mut cur, &mut games);
                in_moves = false;
            }
            cur.tags.push(parse_tag(t, i + 1)?);
            continue;
        }
        // Split braces and parentheses into their own tokens.
        let spaced = t
            .replace('{', " { ")
            .replace('}', " } ")
            .replace('(', " ( ")
            .replace(')', " ) ");
        for w in spaced.split_whitespace() {
            if comment {
                comment = w != "}";
                continue;
            }
            match w {
                "{" => comment = true,
                "(" => depth += 1,
                ")" => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                _ if w.starts_with('$') || w.starts_with(';') => {}
                _ if is_result(w) => {
                    flush(&mut cur, &mut games);
                    in_moves = false;
                }
                _ => {
                    in_moves = true;
                    // Strip a move number (`12.`, `12...`, `12.32-28`).
                    let mv = w.trim_start_matches(|c: char| c.is_ascii_digit());
                    let mv = if mv.starts_with('.') {
                        mv.trim_start_matches('.')
                    } else {
                        w
                    };
                    let mv = mv.trim_end_matches(['!', '?', '+', '#']);
                    if !mv.is_empty() {
                        cur.moves.push(mv.to_string());
                    }
                }
            }
        }
    }
    flush(&mut cur, &mut games);
    if games.is_empty() {
        return Err(ParseError::new("no game found in the PDN text"));
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_and_skips_comments_and_variations() {
        let text = "[Event \"t\"]\n[FEN \"W:W31:B1\"]\n\n1. 32-28 19-23 {a \"comment\" 1.} 2. 28x19 (2. 33-29) 14x23!\n3...9-14 1-0\n\n[Event \"u\"]\n1. 11-15 *\n";
        let g = parse(text).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tag("fen"), Some("W:W31:B1"));
        assert_eq!(g[0].moves, vec!["32-28", "19-23", "28x19", "14x23", "9-14"]);
        assert_eq!(g[1].moves, vec!["11-15"]);
        assert!(parse("").is_err());
        assert!(parse("[Event t]\n").is_err());
    }
}
