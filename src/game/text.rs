//! Small text helpers that every layer may use: error messages cut to a
//! length, and the case-insensitive named values of the game options. (JSON
//! is written with serde_json.)

/// At most `max` characters of `s`, with `...` when cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push_str("...");
        t
    }
}

/// A choice among a few named values, parsed case-insensitively (the game
/// options of `set-param` and `--option`).
macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($var),+ }
        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub fn name(self) -> &'static str { match self { $($name::$var => $text),+ } }
        }
        impl std::str::FromStr for $name {
            type Err = $crate::game::ParseError;
            fn from_str(s: &str) -> $crate::game::ParseResult<Self> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($text => Ok($name::$var),)+
                    _ => Err($crate::game::ParseError(format!(
                        "bad value '{}' (expected one of: {})", s, Self::NAMES.join(" ")))),
                }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use named_enum;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcdef", 3), "abc...");
    }
}
