//! The documentation is checked against the program, so that a command, a
//! flag or a Hub parameter cannot be added without docs, and a link cannot
//! point nowhere. The rules:
//!
//! - **Commands.** Every command `salto --help` lists (and every command
//!   under it, recursively: `salto match merge`, `salto egdb build`, ...;
//!   `help` excepted) has a heading in docs/cli.md that contains its full
//!   name, `salto SUB [SUB2]`, as a whole phrase (backticks optional), e.g.
//!   ``## `salto book` `` or ``### `salto book build` ``.
//! - **Flags.** Every `--flag` that `salto SUB --help` prints (`--help`
//!   and `--version` excepted) is named, as `--flag`, in the section of
//!   that command's heading in docs/cli.md (down to the next heading of the
//!   same or a higher level) or in the section whose heading contains
//!   "Common flags".
//! - **Hub parameters.** Every parameter of a `param name=NAME ...` line
//!   that `salto hub` prints has a heading in docs/protocol.md that
//!   contains `` `NAME` `` (in backticks), e.g. ``#### `multipv` ``.
//! - **Links.** Every relative link `[text](target)` in README.md,
//!   CHANGELOG.md, docs/*.md and lab/*.md (outside code) names a file that
//!   exists, and its `#anchor`, if any, is the GitHub anchor of a heading
//!   of that file (lower case, punctuation dropped, blanks to `-`).
//! - **Sizes.** No file in docs/ has more than 400 lines, README.md at
//!   most 200, docs/strength.md at most 150; no heading in docs/ carries a
//!   date (dated records go in lab/).
//! - **analyse --json.** Every key of the objects `salto analyse --json`
//!   prints is named, in backticks, in docs/analyse.md.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The stdout of `salto ARGS` with `input` on stdin.
fn salto(args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_salto"))
        .env("SALTO_EGDB", "off")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("salto starts");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).expect("stdin written");
    }
    let out = child.wait_with_output().expect("salto runs");
    assert!(out.status.success(), "salto {args:?} failed: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

// ---- clap's help text ----

/// The command names of the `Commands:` block of a clap help text
/// (`help` left out).
fn help_commands(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.trim_end() == "Commands:" {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                inside = false;
                continue;
            }
            if let Some(name) = line.split_whitespace().next()
                && name != "help"
            {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The long flags of the `Options:` block of a clap help text (`--help`
/// and `--version` left out).
fn help_flags(help: &str) -> Vec<String> {
    let mut flags = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.trim_end() == "Options:" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if !line.starts_with("  ") {
            inside = false;
            continue;
        }
        let t = line.trim_start();
        if !t.starts_with('-') {
            continue; // a wrapped description line
        }
        if let Some(flag) = t
            .split(|c: char| c.is_whitespace() || c == ',')
            .find(|w| w.starts_with("--"))
        {
            let flag: String = flag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if flag != "--help" && flag != "--version" {
                flags.push(flag);
            }
        }
    }
    flags
}

/// Every command path under `salto` (`["match"]`, `["match", "merge"]`,
/// ...) with its help text.
fn command_tree() -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    let mut todo: Vec<Vec<String>> = help_commands(&salto(&["--help"], ""))
        .into_iter()
        .map(|c| vec![c])
        .collect();
    while let Some(path) = todo.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = salto(&args, "");
        for sub in help_commands(&help) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
        out.push((path, help));
    }
    out.sort();
    out
}

// ---- markdown ----

/// The lines of `text` outside fenced code blocks, with their indexes.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i, line));
        }
    }
    out
}

/// The headings of `text`: (line index, level, text).
fn headings(text: &str) -> Vec<(usize, usize, String)> {
    prose_lines(text)
        .into_iter()
        .filter_map(|(i, line)| {
            let level = line.chars().take_while(|c| *c == '#').count();
            let rest = &line[level..];
            (level > 0 && rest.starts_with(' ')).then(|| {
                (
                    i,
                    level,
                    rest.trim().trim_end_matches('#').trim().to_string(),
                )
            })
        })
        .collect()
}

/// Whether `text` contains `phrase` as a whole phrase: not inside a longer
/// word or flag (the characters around it are not letters, digits or `-`).
fn mentions(text: &str, phrase: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// The text of the section that starts at heading `h` of `text`, down to
/// the next heading of the same or a higher level.
fn section(text: &str, h: &(usize, usize, String)) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = headings(text)
        .into_iter()
        .find(|(i, level, _)| *i > h.0 && *level <= h.1)
        .map_or(lines.len(), |(i, _, _)| i);
    lines[h.0..end].join("\n")
}

/// The heading of docs/cli.md for the command `phrase`: one that names it
/// as a whole phrase, preferring one where it is not followed by a
/// subcommand (`` `salto match` `` before `` `salto match merge` ``).
fn command_heading(cli: &str, phrase: &str) -> Option<(usize, usize, String)> {
    let all: Vec<_> = headings(cli)
        .into_iter()
        .filter(|(_, _, t)| mentions(t, phrase))
        .collect();
    let exact = all.iter().find(|(_, _, t)| {
        t.match_indices(phrase)
            .any(|(at, _)| matches!(t[at + phrase.len()..].chars().next(), None | Some('`')))
    });
    exact.or(all.first()).cloned()
}

/// What docs/cli.md (`cli`) lacks for the commands `tree`: commands
/// without a heading, flags not named in their section or "Common flags".
fn cli_problems(cli: &str, tree: &[(Vec<String>, String)]) -> Vec<String> {
    let common = headings(cli)
        .into_iter()
        .find(|(_, _, t)| t.contains("Common flags"))
        .map(|h| section(cli, &h))
        .unwrap_or_default();
    let mut problems = Vec::new();
    for (path, help) in tree {
        let phrase = format!("salto {}", path.join(" "));
        let Some(h) = command_heading(cli, &phrase) else {
            problems.push(format!("docs/cli.md has no heading naming `{phrase}`"));
            continue;
        };
        let own = section(cli, &h);
        for flag in help_flags(help) {
            if !mentions(&own, &flag) && !mentions(&common, &flag) {
                problems.push(format!(
                    "docs/cli.md does not name `{flag}` of `{phrase}` under \"{}\" or \"Common flags\"",
                    h.2
                ));
            }
        }
    }
    problems
}

/// The parameter names of the `param name=...` lines of `hub`'s answer.
fn hub_params(hub: &str) -> Vec<String> {
    hub.lines()
        .filter_map(|l| l.strip_prefix("param name="))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The parameters of `params` that have no heading naming them in
/// backticks in `protocol`.
fn protocol_problems(protocol: &str, params: &[String]) -> Vec<String> {
    let heads = headings(protocol);
    params
        .iter()
        .filter(|p| {
            let quoted = format!("`{p}`");
            !heads.iter().any(|(_, _, t)| t.contains(&quoted))
        })
        .map(|p| format!("docs/protocol.md has no heading naming `{p}` (the Hub parameter)"))
        .collect()
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    // A link in a heading counts by its text.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(close) = rest[open + mid..].find(')') else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + close + 1..];
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a markdown text (duplicates get `-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    for (_, _, t) in headings(text) {
        let s = slug(&t);
        let n = seen.entry(s.clone()).or_insert(0);
        out.insert(if *n == 0 {
            s.clone()
        } else {
            format!("{s}-{n}")
        });
        *n += 1;
    }
    out
}

/// The link targets of a markdown text, outside code: `(line, target)`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in prose_lines(text) {
        if line.starts_with("    ") && !line.trim_start().starts_with(['-', '|', '*']) {
            continue; // an indented code block
        }
        // Inline code spans hold no links.
        let mut prose = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                prose.push_str(part);
            }
        }
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let tail = &rest[at + 2..];
            let Some(end) = tail.find(')') else { break };
            out.push((i + 1, tail[..end].trim().to_string()));
            rest = &tail[end..];
        }
    }
    out
}

/// The broken relative links of the markdown file `file` (its `text`).
fn link_problems(file: &Path, text: &str) -> Vec<String> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    for (line, target) in links(text) {
        if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let shown = file.display();
        // A link within the page reads its anchors from the text itself.
        let body = if path.is_empty() {
            text.to_string()
        } else {
            let linked = dir.join(path);
            if !linked.exists() {
                problems.push(format!("{shown}:{line}: link to {target}: no such file"));
                continue;
            }
            if anchor.is_none() {
                continue;
            }
            std::fs::read_to_string(&linked).unwrap_or_default()
        };
        if let Some(anchor) = anchor
            && !anchors(&body).contains(anchor)
        {
            problems.push(format!(
                "{shown}:{line}: link to {target}: no heading with that anchor"
            ));
        }
    }
    problems
}

/// README.md, CHANGELOG.md, docs/*.md and lab/*.md, as full paths.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    for dir in ["docs", "lab"] {
        let mut these: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}/: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        these.sort();
        files.extend(these);
    }
    files
}

fn assert_none(problems: Vec<String>) {
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

// ---- the checks ----

#[test]
fn every_command_and_flag_is_in_cli_md() {
    let tree = command_tree();
    assert!(
        tree.iter()
            .any(|(p, _)| p == &["match".to_string(), "merge".to_string()]),
        "the command tree is read (salto match merge is in it)"
    );
    assert_none(cli_problems(&read("docs/cli.md"), &tree));
}

#[test]
fn every_hub_parameter_has_a_heading_in_protocol_md() {
    let params = hub_params(&salto(&["hub"], "hub\nquit\n"));
    assert!(
        params.iter().any(|p| p == "variant"),
        "hub lists its parameters: {params:?}"
    );
    assert_none(protocol_problems(&read("docs/protocol.md"), &params));
}

#[test]
fn every_relative_link_resolves() {
    let mut problems = Vec::new();
    let mut count = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).expect("readable");
        count += links(&text).len();
        let rel = file.strip_prefix(root()).unwrap_or(&file).to_path_buf();
        // Resolve from the repository root, report relative paths.
        let shown = root().join(&rel);
        problems.extend(
            link_problems(&shown, &text)
                .into_iter()
                .map(|p| p.replace(&format!("{}/", root().display()), "")),
        );
    }
    assert!(count > 50, "links are found ({count})");
    assert_none(problems);
}

#[test]
fn pages_are_short_and_undated() {
    let mut problems = Vec::new();
    for file in markdown_files() {
        let rel = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&file).expect("readable");
        let lines = text.lines().count();
        let limit = match rel.as_str() {
            "README.md" => 200,
            "docs/strength.md" => 150,
            r if r.starts_with("docs/") => 400,
            _ => usize::MAX,
        };
        if lines > limit {
            problems.push(format!("{rel}: {lines} lines, more than {limit}"));
        }
        if rel.starts_with("docs/") {
            for (i, _, t) in headings(&text) {
                if has_date(&t) {
                    problems.push(format!(
                        "{rel}:{}: a dated heading (put the record in lab/): {t}",
                        i + 1
                    ));
                }
            }
        }
    }
    assert_none(problems);
}

#[test]
fn every_analyse_json_key_is_in_analyse_md() {
    let doc = read("docs/analyse.md");
    let out = salto(&["analyse", "--depth", "2", "--multipv", "2", "--json"], "");
    let mut keys = BTreeSet::new();
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object a line");
        let obj = v.as_object().expect("an object");
        keys.extend(obj.keys().cloned());
    }
    assert!(
        keys.contains("pv") && keys.contains("move"),
        "info and best objects: {keys:?}"
    );
    let missing: Vec<_> = keys
        .iter()
        .filter(|k| !doc.contains(&format!("`{k}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/analyse.md does not name these JSON keys: {missing:?}"
    );
}

/// Whether `t` holds a date `YYYY-MM-DD`.
fn has_date(t: &str) -> bool {
    let b = t.as_bytes();
    b.windows(10).any(|w| {
        w.iter().enumerate().all(|(k, c)| match k {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
    })
}

// ---- the rules themselves: each one fails on what it must catch ----

const HELP: &str = "Usage: salto [OPTIONS] [COMMAND]

Commands:
  hub      Run a Hub session
  book     Build an opening book
  help     Print this message

Options:
      --log <FILE>  Write log lines
      --depth <DEPTH>
          Search to this depth
  -h, --help        Print help
";

#[test]
fn help_text_is_read() {
    assert_eq!(help_commands(HELP), ["hub", "book"]);
    assert_eq!(help_flags(HELP), ["--log", "--depth"]);
}

#[test]
fn a_command_or_flag_without_docs_is_reported() {
    let cli = "# CLI\n\n## Common flags\n\n`--log FILE`\n\n## `salto hub`\n\nA session.\n";
    let hub = (
        vec!["hub".to_string()],
        "Options:\n      --log <FILE>  Log\n".to_string(),
    );
    assert!(cli_problems(cli, std::slice::from_ref(&hub)).is_empty());
    let book = (
        vec!["book".to_string(), "build".to_string()],
        "Options:\n      --games <N>  Games\n".to_string(),
    );
    let problems = cli_problems(cli, &[hub.clone(), book.clone()]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("`salto book build`"), "{problems:?}");
    // With a heading but without its flag.
    let cli2 = format!("{cli}\n## `salto book`\n\n### `salto book build`\n\nBuilds.\n");
    let problems = cli_problems(&cli2, &[hub.clone(), book.clone()]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("`--games`"), "{problems:?}");
    // A flag named under another command does not count.
    let cli3 = format!(
        "{cli}\n## `salto book`\n\n### `salto book build`\n\nBuilds.\n\n## `salto gui`\n\n`--games`\n"
    );
    assert_eq!(cli_problems(&cli3, std::slice::from_ref(&book)).len(), 1);
    let cli4 =
        format!("{cli}\n## `salto book`\n\n### `salto book build`\n\n`--games N`: how many.\n");
    assert!(cli_problems(&cli4, &[hub, book]).is_empty());
}

#[test]
fn the_parent_command_section_is_not_its_subcommand_s() {
    let cli = "## `salto match merge`\n\n`--pdn-in`\n\n## `salto match`\n\n`--games`\n";
    let h = command_heading(cli, "salto match").expect("a heading");
    assert_eq!(h.2, "`salto match`");
    let h = command_heading(cli, "salto match merge").expect("a heading");
    assert_eq!(h.2, "`salto match merge`");
    assert!(command_heading(cli, "salto mat").is_none());
}

#[test]
fn a_hub_parameter_without_a_heading_is_reported() {
    let hub = "id name=Salto\nparam name=hash value=64 type=int min=1 max=2\nparam name=multipv value=1 type=int\nwait\n";
    let params = hub_params(hub);
    assert_eq!(params, ["hash", "multipv"]);
    let doc = "## Parameters\n\n#### `hash`\n\nThe table. `multipv` is named in text only.\n";
    assert_eq!(
        protocol_problems(doc, &params),
        ["docs/protocol.md has no heading naming `multipv` (the Hub parameter)"]
    );
    let doc = format!("{doc}\n#### `multipv`\n\nLines.\n");
    assert!(protocol_problems(&doc, &params).is_empty());
    // `eval` is not named by a heading of `eval-file`.
    let params = vec!["eval".to_string()];
    assert_eq!(protocol_problems("#### `eval-file`\n", &params).len(), 1);
}

#[test]
fn anchors_are_github_s() {
    assert_eq!(
        slug("`salto match`: engine-vs-engine matches"),
        "salto-match-engine-vs-engine-matches"
    );
    assert_eq!(
        slug("Matches with more than two players"),
        "matches-with-more-than-two-players"
    );
    assert_eq!(
        slug("One `go`, from stdin to `done`"),
        "one-go-from-stdin-to-done"
    );
    assert_eq!(
        slug("See [the lab](../lab/README.md) now"),
        "see-the-lab-now"
    );
    let a = anchors("# A\n\n## Tests\n\n```\n# not a heading\n```\n\n## Tests\n");
    assert!(
        a.contains("tests") && a.contains("tests-1") && !a.contains("not-a-heading"),
        "{a:?}"
    );
}

#[test]
fn a_broken_link_is_reported() {
    let dir = std::env::temp_dir().join(format!("salto-docs-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("b.md"), "# B\n\n## Part two\n").expect("written");
    let a = dir.join("a.md");
    let text = "# A\n\n[ok](b.md) [ok](b.md#part-two) [self](#a) [web](https://example.org)\n\
                `[code](nowhere.md)`\n\n    [indented](nowhere.md)\n\n\
                [gone](c.md) [bad anchor](b.md#part-three)\n";
    let problems = link_problems(&a, text);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("c.md: no such file"), "{problems:?}");
    assert!(problems[1].contains("b.md#part-three"), "{problems:?}");
}

#[test]
fn dates_are_found() {
    assert!(has_date("Rounds (2026-12-02, shipped)"));
    assert!(!has_date("Rounds with the king endings left out"));
}
