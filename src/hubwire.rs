//! The Hub wire format, read and written in one place: a line is
//! `command name=value name=value ...`; a value is a bare word or a
//! double-quoted string (in which `\"` and `\\` stand for `"` and `\`), an
//! argument may be a bare flag, and blanks around `=` are allowed. The
//! engine's reader ([`crate::protocol`]), the match runner's Hub client
//! ([`crate::tournament`]), DamExchange's engine ([`crate::dxp`]) and the
//! tests use it.

/// One argument of a line: `name=value` or a bare flag (`value == None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub name: String,
    pub value: Option<String>,
}

/// Splits a line into its command word and arguments.
pub fn tokenize(line: &str) -> Result<(String, Vec<Arg>), String> {
    let mut words: Vec<Arg> = Vec::new();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut i = 0;
    let n = chars.len();
    let skip_blanks = |i: &mut usize| {
        while *i < n && chars[*i].1.is_whitespace() {
            *i += 1;
        }
    };
    let byte_at = |i: usize| if i < n { chars[i].0 } else { line.len() };
    loop {
        skip_blanks(&mut i);
        if i >= n {
            break;
        }
        let c = chars[i].1;
        if c == '"' {
            return Err(format!(
                "unexpected quoted string at column {} (a quoted string must follow name=)",
                i + 1
            ));
        }
        if c == '=' {
            return Err(format!("'=' without a name before it at column {}", i + 1));
        }
        let start = i;
        while i < n && !chars[i].1.is_whitespace() && chars[i].1 != '=' && chars[i].1 != '"' {
            i += 1;
        }
        let name = line[byte_at(start)..byte_at(i)].to_string();
        let mut j = i;
        skip_blanks(&mut j);
        if j < n && chars[j].1 == '=' {
            j += 1;
            skip_blanks(&mut j);
            if j >= n {
                return Err(format!(
                    "missing value after '{}=' (write {}=\"\" for an empty value)",
                    name, name
                ));
            }
            let value = if chars[j].1 == '"' {
                // `\"` and `\\` inside the quotes stand for `"` and `\`
                // (what [`quote`] writes); any other backslash is itself.
                let mut v = String::new();
                let mut k = j + 1;
                while k < n && chars[k].1 != '"' {
                    if chars[k].1 == '\\' && k + 1 < n && matches!(chars[k + 1].1, '"' | '\\') {
                        k += 1;
                    }
                    v.push(chars[k].1);
                    k += 1;
                }
                if k >= n {
                    return Err(format!(
                        "unterminated quoted value for '{name}' (a closing \" is missing)"
                    ));
                }
                j = k + 1;
                v
            } else {
                let vstart = j;
                while j < n && !chars[j].1.is_whitespace() {
                    j += 1;
                }
                line[byte_at(vstart)..byte_at(j)].to_string()
            };
            words.push(Arg {
                name,
                value: Some(value),
            });
            i = j;
        } else {
            if i < n && chars[i].1 == '"' {
                return Err(format!(
                    "unexpected '\"' after '{}' at column {}",
                    name,
                    i + 1
                ));
            }
            words.push(Arg { name, value: None });
        }
    }
    let mut it = words.into_iter();
    match it.next() {
        None => Ok((String::new(), Vec::new())),
        Some(Arg { name, value: None }) => Ok((name, it.collect())),
        Some(Arg {
            name,
            value: Some(_),
        }) => Err(format!(
            "a line must start with a command, not with '{name}=...'"
        )),
    }
}

/// Quotes a value for a Hub line when it needs it (empty, or holding a
/// blank, `=`, `"` or a tab): [`tokenize`] reads it back as it was.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '"', '\t']) {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_only_when_needed() {
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote(""), "\"\"");
    }

    /// Whatever a value holds, `name=quote(value)` reads back as `value`.
    #[test]
    fn quoted_values_read_back_as_they_were() {
        for v in [
            "",
            "plain",
            "a b",
            "x=y",
            "say \"hi\"",
            "C:\\data\\egdb",
            "ends with \\",
            "\\\"",
            "tab\there",
            "32-28 19-23",
        ] {
            let line = format!("set-param name=x value={}", quote(v));
            let (cmd, args) = tokenize(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(cmd, "set-param");
            assert_eq!(args[1].value.as_deref(), Some(v), "{line}");
        }
    }

    #[test]
    fn a_lone_backslash_in_quotes_is_itself() {
        let (_, args) = tokenize(r#"x p="C:\dir\f""#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(args[0].value.as_deref(), Some(r"C:\dir\f"));
    }
}
