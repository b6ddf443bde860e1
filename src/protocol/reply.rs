//! The `error` line. The search's lines (`info`, `done`) are formatted by
//! [`crate::session::format`], the `hub` answer by the controller. Every
//! token is `key=value` with no `=` or `"` inside a value, so that
//! pydraughts' token splitter reads them.

/// The longest error message sent (the rest is cut, so that a 1 MB line is
/// not echoed back).
const MAX_MESSAGE: usize = 200;

/// Makes `text` safe inside a quoted value: `"` becomes `'`, control
/// characters become blanks, and the length is bounded.
pub fn sanitize(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    crate::game::text::shorten(&cleaned, MAX_MESSAGE)
}

/// `error message="..."`.
pub fn error(msg: &str) -> String {
    format!("error message=\"{}\"", sanitize(msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_cannot_break_the_quoting() {
        let e = error("bad \"x\"\nline");
        assert_eq!(e, "error message=\"bad 'x' line\"");
        let long = "y".repeat(10_000);
        assert!(error(&long).len() < 300);
    }
}
