//! DamExchange 1.x layer 2: the messages, parsed from and formatted to
//! their fixed-width text (each is sent followed by a NUL byte, see
//! [`super::conn`]). Parsing never panics: a message that does not follow
//! the layout is an error naming what is wrong.

/// A colour as DXP writes it: `W` white, `Z` (zwart) black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'Z',
        }
    }

    fn parse(c: char, what: &str) -> Result<Color, String> {
        match c {
            'W' => Ok(Color::White),
            'Z' => Ok(Color::Black),
            _ => Err(format!("{what}: expected W or Z, got '{c}'")),
        }
    }

    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The player number of Salto's games: 0 white, 1 black.
    pub fn player(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    pub fn of_player(p: usize) -> Color {
        if p == 0 { Color::White } else { Color::Black }
    }
}

/// A starting position in a GAMEREQ: the side to move and the 50 squares
/// (`e` empty, `w`/`z` men, `W`/`Z` kings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub to_move: Color,
    pub squares: String,
}

/// One DamExchange message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: the initiator asks for a game.
    GameReq {
        version: u32,
        name: String,
        /// The colour the follower plays.
        follower: Color,
        /// Thinking time per player for the whole game, minutes.
        minutes: u32,
        /// Moves for the whole game (0: no limit).
        moves: u32,
        /// `None`: the normal start.
        setup: Option<Setup>,
    },
    /// `A`: the follower's answer: 0 accepted, 1 wrong version, 2 not this
    /// game, 3 no game at all.
    GameAcc { name: String, code: u8 },
    /// `M`: a move: seconds used, from, to, captured squares.
    Move {
        seconds: u32,
        from: u8,
        to: u8,
        captured: Vec<u8>,
    },
    /// `E`: end of the game: reason 0 none, 1 I lose, 2 draw, 3 I win;
    /// stop 0 another game is welcome, 1 no more games.
    GameEnd { reason: u8, stop: u8 },
    /// `C`: free text.
    Chat(String),
    /// `B`: take back to move number `move_no` with `color` to move.
    BackReq { move_no: u32, color: Color },
    /// `K`: the answer to a BACKREQ: 0 accepted, 1 not supported, 2 refused.
    BackAcc { code: u8 },
}

/// The longest message DXP allows.
pub const MAX_LEN: usize = 127;

fn digits(text: &str, at: usize, n: usize, what: &str) -> Result<u32, String> {
    let s = text
        .get(at..at + n)
        .ok_or_else(|| format!("{what}: message too short"))?;
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what}: expected {n} digits, got '{s}'"));
    }
    s.parse().map_err(|_| format!("{what}: bad number '{s}'"))
}

fn char_at(text: &str, at: usize, what: &str) -> Result<char, String> {
    text.get(at..at + 1)
        .and_then(|s| s.chars().next())
        .ok_or_else(|| format!("{what}: message too short"))
}

fn square(text: &str, at: usize, what: &str) -> Result<u8, String> {
    let v = digits(text, at, 2, what)?;
    if (1..=50).contains(&v) {
        Ok(v as u8)
    } else {
        Err(format!("{what}: square {v} is not 1 to 50"))
    }
}

/// A name padded or cut to 32 characters, as DXP wants it.
fn name32(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { ' ' })
        .take(32)
        .collect();
    format!("{:<32}", clean.trim_start())
}

impl Message {
    pub fn parse(text: &str) -> Result<Message, String> {
        if !text.is_ascii() {
            return Err("not ASCII".into());
        }
        if text.len() > MAX_LEN {
            return Err(format!("{} characters, more than {MAX_LEN}", text.len()));
        }
        let kind = text.chars().next().ok_or("empty message")?;
        let fixed = |len: usize, what: &str| -> Result<(), String> {
            if text.len() == len {
                Ok(())
            } else {
                Err(format!(
                    "{what}: expected {len} characters, got {}",
                    text.len()
                ))
            }
        };
        match kind {
            'R' => {
                let version = digits(text, 1, 2, "GAMEREQ version")?;
                let name = text
                    .get(3..35)
                    .ok_or("GAMEREQ: message too short")?
                    .trim()
                    .to_string();
                let follower = Color::parse(char_at(text, 35, "GAMEREQ")?, "GAMEREQ colour")?;
                let minutes = digits(text, 36, 3, "GAMEREQ thinking time")?;
                let moves = digits(text, 39, 3, "GAMEREQ number of moves")?;
                let setup = match char_at(text, 42, "GAMEREQ")? {
                    'A' => {
                        fixed(43, "GAMEREQ with the start position")?;
                        None
                    }
                    'B' => {
                        fixed(94, "GAMEREQ with a position")?;
                        let to_move =
                            Color::parse(char_at(text, 43, "GAMEREQ")?, "GAMEREQ colour to move")?;
                        let squares = text[44..94].to_string();
                        if let Some(c) = squares.chars().find(|c| !"ewzWZ".contains(*c)) {
                            return Err(format!("GAMEREQ position: '{c}' is not e, w, z, W or Z"));
                        }
                        Some(Setup { to_move, squares })
                    }
                    c => return Err(format!("GAMEREQ: position kind '{c}' is not A or B")),
                };
                Ok(Message::GameReq {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    setup,
                })
            }
            'A' => {
                fixed(34, "GAMEACC")?;
                Ok(Message::GameAcc {
                    name: text[1..33].trim().to_string(),
                    code: digits(text, 33, 1, "GAMEACC code")? as u8,
                })
            }
            'M' => {
                let seconds = digits(text, 1, 4, "MOVE time")?;
                let from = square(text, 5, "MOVE from")?;
                let to = square(text, 7, "MOVE to")?;
                let n = digits(text, 9, 2, "MOVE number captured")? as usize;
                fixed(11 + 2 * n, "MOVE")?;
                let captured = (0..n)
                    .map(|i| square(text, 11 + 2 * i, "MOVE captured"))
                    .collect::<Result<_, _>>()?;
                Ok(Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            'E' => {
                fixed(3, "GAMEEND")?;
                let reason = digits(text, 1, 1, "GAMEEND reason")? as u8;
                let stop = digits(text, 2, 1, "GAMEEND stop code")? as u8;
                if reason > 3 || stop > 1 {
                    return Err(format!(
                        "GAMEEND: reason {reason} or stop code {stop} out of range"
                    ));
                }
                Ok(Message::GameEnd { reason, stop })
            }
            'C' => Ok(Message::Chat(text[1..].to_string())),
            'B' => {
                fixed(5, "BACKREQ")?;
                Ok(Message::BackReq {
                    move_no: digits(text, 1, 3, "BACKREQ move number")?,
                    color: Color::parse(char_at(text, 4, "BACKREQ")?, "BACKREQ colour")?,
                })
            }
            'K' => {
                fixed(2, "BACKACC")?;
                Ok(Message::BackAcc {
                    code: digits(text, 1, 1, "BACKACC code")? as u8,
                })
            }
            c => Err(format!("unknown message type '{c}'")),
        }
    }

    /// The message text (without the NUL that ends it on the wire).
    pub fn format(&self) -> String {
        match self {
            Message::GameReq {
                version,
                name,
                follower,
                minutes,
                moves,
                setup,
            } => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    version % 100,
                    name32(name),
                    follower.letter(),
                    minutes.min(&999),
                    moves.min(&999)
                );
                match setup {
                    None => s.push('A'),
                    Some(p) => {
                        s.push('B');
                        s.push(p.to_move.letter());
                        s.push_str(&p.squares);
                    }
                }
                s
            }
            Message::GameAcc { name, code } => format!("A{}{}", name32(name), code % 10),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{:04}{from:02}{to:02}{:02}",
                    seconds.min(&9999),
                    captured.len()
                );
                for c in captured {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{}{}", reason % 10, stop % 10),
            Message::Chat(t) => {
                let t: String = t
                    .chars()
                    .map(|c| if c.is_ascii() && c != '\0' { c } else { '?' })
                    .take(MAX_LEN - 1)
                    .collect();
                format!("C{t}")
            }
            Message::BackReq { move_no, color } => {
                format!("B{:03}{}", move_no.min(&999), color.letter())
            }
            Message::BackAcc { code } => format!("K{}", code % 10),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Message {
        Message::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn the_protocol_examples_parse_and_format_back() {
        for text in [
            "R01Tornado voor Windows 4.0        W060065A",
            "ATornado voor Windows 4.0        0",
            "M0012061100",
            "M001205250422122320",
            "E00",
            "CWhat do you think about move 35?",
            "B005Z",
            "K1",
        ] {
            assert_eq!(ok(text).format(), text);
        }
        assert_eq!(
            ok("R01Tornado voor Windows 4.0        W060065A"),
            Message::GameReq {
                version: 1,
                name: "Tornado voor Windows 4.0".into(),
                follower: Color::White,
                minutes: 60,
                moves: 65,
                setup: None,
            }
        );
        assert_eq!(
            ok("M001205250422122320"),
            Message::Move {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20],
            }
        );
    }

    #[test]
    fn a_gamereq_with_a_position_keeps_it() {
        let squares = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        let text = format!("R01{:<32}Z005000BW{squares}", "pydraughts");
        match ok(&text) {
            Message::GameReq {
                setup: Some(s),
                follower,
                minutes,
                ..
            } => {
                assert_eq!(s.to_move, Color::White);
                assert_eq!(s.squares, squares);
                assert_eq!((follower, minutes), (Color::Black, 5));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(ok(&text).format(), text);
    }

    #[test]
    fn malformed_messages_are_errors_not_panics() {
        for bad in [
            "",
            "X",
            "R",
            "R01short",
            "R01Tornado voor Windows 4.0        Q060065A",
            "R01Tornado voor Windows 4.0        W06x065A",
            "R01Tornado voor Windows 4.0        W060065C",
            "R01Tornado voor Windows 4.0        W060065B",
            "R01Tornado voor Windows 4.0        W060065AW",
            "A",
            "Aname",
            "M0012",
            "M0012061101",
            "M001206110",
            "M0012990000",
            "M0012000000",
            "M00120611022",
            "E",
            "E9",
            "E50",
            "E001",
            "B5Z",
            "B005Q",
            "K",
            "Kx",
            "M0012\u{e9}11",
        ] {
            assert!(Message::parse(bad).is_err(), "accepted '{bad}'");
        }
        assert!(Message::parse(&"C".repeat(200)).is_err());
    }

    #[test]
    fn names_and_chat_are_kept_within_the_layout() {
        let acc = Message::GameAcc {
            name: "a name much longer than thirty-two characters".into(),
            code: 0,
        };
        assert_eq!(acc.format().len(), 34);
        let chat = Message::Chat("é\0".repeat(100)).format();
        assert!(chat.len() <= MAX_LEN && chat.is_ascii() && !chat.contains('\0'));
    }
}
