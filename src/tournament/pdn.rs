//! Games as PDN (Portable Draughts Notation): the seven-tag roster, a FEN
//! tag for custom starts, the result and the termination reason. As in the
//! PDN standard (and PGN, where it comes from), Event and Site are free
//! text, and a game without a result (unfinished, interrupted, aborted) has
//! the result `*`, which readers such as pydraughts take for "no result".

use super::play::{EndKind, GameRecord};
use crate::variant::{Descriptor, Variant};

/// The descriptor of the variant named `variant` (a game's name).
fn descriptor(variant: &str) -> Option<&'static Descriptor> {
    variant.parse::<Variant>().ok().map(Variant::descriptor)
}

/// PDN's `GameType` number for a variant, when PDN has one.
pub fn game_type(variant: &str) -> Option<u32> {
    descriptor(variant)?.pdn_game_type
}

/// The PDN result token of a game.
pub fn result_token(variant: &str, rec: &GameRecord) -> String {
    let no_result = matches!(
        rec.kind,
        EndKind::Aborted | EndKind::Interrupted | EndKind::Unterminated
    );
    if no_result || rec.seats.len() != 2 {
        return "*".into();
    }
    let [first, second, draw] =
        descriptor(variant).map_or(["1-0", "0-1", "1/2-1/2"], |d| d.pdn_results);
    match rec.winner {
        Some(0) => first,
        Some(_) => second,
        None => draw,
    }
    .into()
}

fn tag(out: &mut String, name: &str, value: &str) {
    let v = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{v}\"]\n"));
}

/// Extra information for the tags.
pub struct PdnHeader<'a> {
    pub event: &'a str,
    /// Where the game was played; `?` when unknown, as in PGN.
    pub site: &'a str,
    pub variant: &'a str,
    pub round: u64,
    pub date: &'a str,
}

/// One game as PDN text, ending with a blank line.
pub fn write_game(h: &PdnHeader, rec: &GameRecord) -> String {
    let n = rec.seats.len().max(1);
    let mut out = String::new();
    let result = result_token(h.variant, rec);
    tag(&mut out, "Event", h.event);
    tag(&mut out, "Site", h.site);
    tag(&mut out, "Date", h.date);
    tag(&mut out, "Round", &h.round.to_string());
    if n == 2 {
        tag(&mut out, "White", &rec.names[0]);
        tag(&mut out, "Black", &rec.names[1]);
    } else {
        for (i, name) in rec.names.iter().enumerate() {
            tag(&mut out, &format!("Player{}", i + 1), name);
        }
        let pts: Vec<String> = rec.points.iter().map(|p| format!("{p}")).collect();
        tag(&mut out, "Points", &pts.join(" "));
        if !rec.places.is_empty() {
            let places: Vec<String> = rec.places.iter().map(|p| (p + 1).to_string()).collect();
            tag(&mut out, "Places", &places.join(" "));
        }
    }
    tag(&mut out, "Result", &result);
    if let Some(t) = game_type(h.variant) {
        tag(&mut out, "GameType", &t.to_string());
    }
    tag(&mut out, "Variant", h.variant);
    if let Some(fen) = &rec.root_fen {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", fen);
    }
    if rec.opening_plies > 0 {
        tag(&mut out, "OpeningPlies", &rec.opening_plies.to_string());
    }
    tag(&mut out, "Termination", rec.kind.name());
    out.push('\n');

    // Move text, numbered from the variant's first mover.
    let mut words: Vec<String> = Vec::new();
    let mut player = rec.root_to_move;
    let mut number = 1u32;
    for (i, mv) in rec.pdn_moves.iter().enumerate() {
        if player == rec.first_player {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(mv.clone());
        if let Some(c) = rec.comments.get(i).filter(|c| !c.is_empty()) {
            words.push(format!("{{{}}}", c.replace(['{', '}'], "")));
        }
        player = (player + 1) % n;
        if player == rec.first_player {
            number += 1;
        }
    }
    words.push(format!("{{{}}}", rec.reason.replace(['{', '}'], "")));
    words.push(result);
    out.push_str(&wrap_movetext(&words));
    out
}

/// PDN move text: the words joined by blanks in lines of at most 79
/// characters (a longer word gets a line of its own), then a blank line.
pub fn wrap_movetext(words: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Seconds and milliseconds since the Unix epoch, now.
fn now_millis() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

/// The civil date `(year, month, day)` of a day since 1970-01-01 (Howard
/// Hinnant's algorithm).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Today's date (UTC) as PDN wants it, `YYYY.MM.DD`.
pub fn today() -> String {
    let (y, m, d) = civil((now_millis() / 86_400_000) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            seats: vec![1, 0],
            names: vec!["B".into(), "A".into()],
            points: vec![0.0, 1.0],
            places: vec![1, 0],
            winner: Some(1),
            kind: EndKind::Illegal,
            culprit: Some(0),
            reason: "B played illegal move \"99-1\" in W:W31:B1: no such move".into(),
            root_fen: Some("W:W31:B1".into()),
            moves: vec!["31-26".into(), "1-7".into(), "26-21".into()],
            pdn_moves: vec!["31-26".into(), "1-7".into(), "26-21".into()],
            comments: vec![
                String::new(),
                "-0.12/14 0.31s".into(),
                "+0.50/9 1.00s".into(),
            ],
            opening_plies: 1,
            root_to_move: 0,
            first_player: 0,
            final_fen: "W:W21:B7".into(),
            think_time: vec![0.0, 0.0],
        }
    }

    #[test]
    fn pdn_has_fen_result_and_termination_for_custom_starts() {
        let h = PdnHeader {
            event: "test",
            site: "here",
            variant: "international",
            round: 3,
            date: "2026.11.29",
        };
        let text = write_game(&h, &record());
        assert!(
            text.starts_with("[Event \"test\"]\n[Site \"here\"]\n"),
            "{text}"
        );
        assert!(text.contains("[White \"B\"]\n[Black \"A\"]\n"), "{text}");
        assert!(text.contains("[Result \"0-2\"]"));
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"W:W31:B1\"]"));
        assert!(text.contains("[GameType \"20\"]"));
        assert!(text.contains("[Termination \"illegal-move\"]"));
        assert!(
            text.contains("1. 31-26 1-7 {-0.12/14 0.31s} 2. 26-21 {+0.50/9 1.00s}"),
            "{text}"
        );
        assert!(text.contains("{B played illegal move"), "{text}");
        assert!(text.trim_end().ends_with("0-2"));
    }

    #[test]
    fn pdn_numbers_moves_from_the_first_mover() {
        let mut r = record();
        r.root_to_move = 1;
        r.root_fen = None;
        r.winner = None;
        r.kind = EndKind::Repetition;
        let h = PdnHeader {
            event: "e",
            site: "?",
            variant: "english",
            round: 1,
            date: "2026.11.29",
        };
        let text = write_game(&h, &r);
        assert!(
            text.contains("1... 31-26 2. 1-7 {-0.12/14 0.31s} 26-21"),
            "{text}"
        );
        assert!(text.contains("[Result \"1/2-1/2\"]"));
        assert!(!text.contains("FEN"));
        // A game cut short by a signal, or still being played, has no
        // result.
        r.kind = EndKind::Interrupted;
        assert!(write_game(&h, &r).contains("[Result \"*\"]"));
        r.kind = EndKind::Unterminated;
        r.reason = "unfinished".into();
        let text = write_game(&h, &r);
        assert!(text.contains("[Result \"*\"]"), "{text}");
        assert!(text.contains("[Termination \"unterminated\"]"), "{text}");
        assert!(text.trim_end().ends_with("{unfinished} *"), "{text}");
    }

    #[test]
    fn today_is_a_pdn_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.starts_with("20"));
    }

    #[test]
    fn civil_dates_cross_leap_days() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_787), (2026, 11, 30));
    }
}
