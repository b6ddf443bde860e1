//! DamExchange layer 1 over a socket: each message is its text followed by
//! a NUL byte. Reading is bounded: a message longer than DXP allows, or not
//! text, is handed up as an error for the session to refuse, never a
//! panic or an unbounded buffer.

use super::message::{MAX_LEN, Message};
use crate::game::text::shorten;
use std::io::{Read, Write};

/// What arrived.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    Message(Message),
    /// Something that is not a DXP message, with why.
    Malformed(String),
    /// The other side closed the connection.
    Closed,
}

/// Called with every message sent (`<`) and received (`>`).
pub type Trace = Box<dyn FnMut(char, &str) + Send>;

/// A DXP connection over any byte stream (a `TcpStream` in practice).
pub struct Conn<S: Read + Write> {
    stream: S,
    buf: Vec<u8>,
    trace: Trace,
}

impl<S: Read + Write> Conn<S> {
    pub fn new(stream: S, trace: Trace) -> Self {
        Conn {
            stream,
            buf: Vec::new(),
            trace,
        }
    }

    pub fn send(&mut self, m: &Message) -> std::io::Result<()> {
        let text = m.format();
        (self.trace)('<', &text);
        let mut bytes = text.into_bytes();
        bytes.push(0);
        self.stream.write_all(&bytes)?;
        self.stream.flush()
    }

    /// The next message (blocks). A read error is reported as `Closed`.
    pub fn recv(&mut self) -> Incoming {
        loop {
            if let Some(end) = self.buf.iter().position(|&b| b == 0) {
                let raw: Vec<u8> = self.buf.drain(..=end).collect();
                let raw = &raw[..raw.len() - 1];
                let text = String::from_utf8_lossy(raw);
                // Some programs end messages with a line break as well.
                let text = text.trim_matches(['\r', '\n', ' ']);
                if text.is_empty() {
                    continue;
                }
                (self.trace)('>', text);
                return match Message::parse(text) {
                    Ok(m) => Incoming::Message(m),
                    Err(e) => Incoming::Malformed(format!("'{}': {e}", shorten(text, 40))),
                };
            }
            if self.buf.len() > 4 * MAX_LEN {
                let n = self.buf.len();
                self.buf.clear();
                return Incoming::Malformed(format!(
                    "{n} bytes without the NUL that ends a message"
                ));
            }
            let mut chunk = [0u8; 512];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return Incoming::Closed,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    pub fn stream(&self) -> &S {
        &self.stream
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A stream reading from fixed bytes and writing into a vector.
    struct Fake {
        input: Cursor<Vec<u8>>,
        output: Vec<u8>,
    }
    impl Read for Fake {
        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
            self.input.read(b)
        }
    }
    impl Write for Fake {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.output.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn conn(input: &[u8]) -> Conn<Fake> {
        Conn::new(
            Fake {
                input: Cursor::new(input.to_vec()),
                output: Vec::new(),
            },
            Box::new(|_, _| {}),
        )
    }

    #[test]
    fn messages_are_split_at_nul_and_junk_is_reported() {
        let mut c = conn(b"E00\0\0M0012061100\r\n\0Xjunk\0\xff\xfe\0CHi");
        assert_eq!(
            c.recv(),
            Incoming::Message(Message::GameEnd { reason: 0, stop: 0 })
        );
        assert!(matches!(
            c.recv(),
            Incoming::Message(Message::Move { from: 6, .. })
        ));
        assert!(matches!(c.recv(), Incoming::Malformed(m) if m.contains("unknown message type")));
        assert!(matches!(c.recv(), Incoming::Malformed(m) if m.contains("ASCII")));
        // "CHi" never got its NUL: the connection closed first.
        assert_eq!(c.recv(), Incoming::Closed);
        let mut long = conn(&[b'C'; 5000]);
        assert!(matches!(long.recv(), Incoming::Malformed(m) if m.contains("without the NUL")));
    }

    #[test]
    fn sent_messages_end_with_nul() {
        let mut c = conn(b"");
        c.send(&Message::BackAcc { code: 1 })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.stream().output, b"K1\0");
    }
}
