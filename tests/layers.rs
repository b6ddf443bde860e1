//! The modules of `src/` are layers: the diagram at the top of
//! docs/architecture.md lists them top to bottom, and a module uses only
//! the modules on the lines below its own (what `crate::NAME` it names in
//! code outside comments and its unit tests); modules on one line are
//! siblings and do not use each other. The test fails on a back-edge (a
//! module naming one above it or beside it), on a circle between modules,
//! and on a module the diagram does not place.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The top-level modules of `src/`: its folders and its `.rs` files
/// (`main.rs` and `lib.rs` are the crate, not layers).
fn modules() -> BTreeSet<String> {
    let src = Path::new(ROOT).join("src");
    let mut out = BTreeSet::new();
    for e in std::fs::read_dir(&src).expect("src/ is there").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() {
            out.insert(name);
        } else if let Some(stem) = name.strip_suffix(".rs")
            && stem != "main"
            && stem != "lib"
        {
            out.insert(stem.to_string());
        }
    }
    out
}

/// `text` without comments and without the items under `#[cfg(test)]`
/// that are a `mod` block or a `use` line (the unit tests and their
/// imports may use any layer).
fn code_of(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect();
    let text = lines.join("\n");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = rest[i + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("use ") || after.starts_with("pub use ") {
            rest = after.find(';').map_or("", |j| &after[j + 1..]);
        } else if after.starts_with("mod ") || after.starts_with("pub mod ") {
            // Skip to the brace that closes the module.
            let Some(open) = after.find(['{', ';']) else {
                rest = "";
                continue;
            };
            if after.as_bytes()[open] == b';' {
                rest = &after[open + 1..];
                continue;
            }
            let mut depth = 0usize;
            let mut end = after.len();
            for (k, c) in after[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = open + k + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &after[end..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The `.rs` files under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    for e in std::fs::read_dir(dir).expect("a readable folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules each module names (`crate::NAME`), with a file that names
/// it, for the message.
fn edges(mods: &BTreeSet<String>) -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(ROOT).join("src");
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for m in mods {
        let dir = src.join(m);
        let mut files = Vec::new();
        rust_files(
            &if dir.is_dir() {
                dir
            } else {
                src.join(format!("{m}.rs"))
            },
            &mut files,
        );
        for f in files {
            let code = code_of(&std::fs::read_to_string(&f).expect("a readable file"));
            for (i, _) in code.match_indices("crate::") {
                let name: String = code[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name != *m && mods.contains(&name) {
                    let rel = f.strip_prefix(ROOT).unwrap_or(&f).display().to_string();
                    out.entry(m.clone()).or_default().entry(name).or_insert(rel);
                }
            }
        }
    }
    out
}

/// The layers of the diagram in docs/architecture.md, top first: on each
/// line of its first `text` block, the words `NAME/` or `NAME.rs` that name
/// a module of `src/`.
fn layers(mods: &BTreeSet<String>) -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/architecture.md"))
        .expect("docs/architecture.md");
    let block = doc
        .split("```text")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a text block in docs/architecture.md");
    block
        .lines()
        .map(|l| {
            l.split_whitespace()
                .filter_map(|w| w.strip_suffix('/').or_else(|| w.strip_suffix(".rs")))
                .filter(|w| mods.contains(*w))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let mods = modules();
    let layers = layers(&mods);
    let mut level = BTreeMap::new();
    for (i, l) in layers.iter().enumerate() {
        for m in l {
            assert!(
                level.insert(m.clone(), i).is_none(),
                "{m} is placed twice in docs/architecture.md's diagram"
            );
        }
    }
    let unplaced: Vec<_> = mods.iter().filter(|m| !level.contains_key(*m)).collect();
    assert!(
        unplaced.is_empty(),
        "modules docs/architecture.md's diagram does not place: {unplaced:?}"
    );
    let mut back = Vec::new();
    for (a, to) in edges(&mods) {
        for (b, file) in to {
            if level[&b] <= level[&a] {
                back.push(format!("{a} -> {b} ({file})"));
            }
        }
    }
    assert!(
        back.is_empty(),
        "back-edges (a module naming one above it or beside it in docs/architecture.md):\n{}",
        back.join("\n")
    );
}

#[test]
fn no_circle_between_modules() {
    let mods = modules();
    let edges = edges(&mods);
    if let Some(c) = find_circle(&edges) {
        panic!("a circle between modules: {}", c.join(" -> "));
    }
}

/// The checker itself: a comment, a unit test and a test import are not
/// code; an item after a test module is.
#[test]
fn the_checker_reads_code_only() {
    let text = "use crate::a::X; // crate::b\n/// crate::c\n#[cfg(test)]\nuse crate::d::Y;\n#[cfg(test)]\nmod tests {\n    fn f() { crate::e::g(); }\n}\nfn h() { crate::f::i(); }\n";
    let code = code_of(text);
    for (name, kept) in [
        ("a", true),
        ("b", false),
        ("c", false),
        ("d", false),
        ("e", false),
        ("f", true),
    ] {
        assert_eq!(
            code.contains(&format!("crate::{name}")),
            kept,
            "{name} in {code}"
        );
    }
}

/// The module path of a file under `src/`: `draughts/eval.rs` is
/// `[draughts, eval]`, `draughts/mod.rs` is `[draughts]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.strip_suffix(".rs").unwrap_or(&last).to_string();
        if stem != "mod" && stem != "lib" && stem != "main" {
            parts.push(stem);
        }
    }
    parts
}

fn ident(s: &str) -> (&str, &str) {
    let n = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..n], &s[n..])
}

/// The module paths that a path written in `text` (just after its first
/// segment was resolved to `base`) reaches: `a::b::X` from `base` is
/// `base + [a, b, X]`, a group `{a::X, b}` gives one path per member.
fn expand(base: Vec<String>, text: &str, out: &mut Vec<Vec<String>>) {
    let mut path = base;
    let mut rest = text;
    loop {
        let Some(r) = rest.strip_prefix("::") else {
            out.push(path);
            return;
        };
        let r = r.trim_start();
        if let Some(group) = r.strip_prefix('{') {
            // Split the group at its top-level commas.
            let mut depth = 0usize;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        expand_member(&path, &group[start..i], out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_member(&path, &group[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let (name, after) = ident(r);
        if name.is_empty() {
            out.push(path);
            return;
        }
        if name == "super" {
            path.pop();
        } else if name != "self" {
            path.push(name.to_string());
        }
        rest = after;
    }
}

fn expand_member(base: &[String], member: &str, out: &mut Vec<Vec<String>>) {
    let m = member.trim();
    if !m.is_empty() {
        expand(base.to_vec(), &format!("::{m}"), out);
    }
}

/// Every module path that `code` (of the file at module path `me`) names
/// with `crate::`, `super::` or `self::`.
fn paths_named(me: &[String], is_mod_rs: bool, code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            let head = &start[..start.len() - 2];
            // The module `super`/`self` stand for: a file's own module is
            // its path; `super` of a file is the folder's module.
            let base = match head {
                "crate" => Vec::new(),
                "self" => me.to_vec(),
                _ => {
                    let mut b = me.to_vec();
                    b.pop();
                    let _ = is_mod_rs;
                    b
                }
            };
            expand(base, &code[i + head.len()..], &mut out);
        }
    }
    out
}

/// Inside each folder of `src/`, its files and subfolders (`mod.rs`, the
/// folder's face, left out) use each other without a circle: a file names
/// a sibling with `super::NAME`, `self::`, `crate::MODULE::NAME` or a `use`
/// group. (A name re-exported by `mod.rs` is not followed.)
#[test]
fn no_circle_between_the_files_of_a_module() {
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // For each folder's module path: its children and the edges between them.
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeMap<String, String>>> =
        BTreeMap::new();
    let folders: BTreeSet<Vec<String>> = files
        .iter()
        .filter_map(|f| f.parent())
        .filter(|d| *d != src.as_path())
        .map(|d| module_path(&src, &d.join("mod.rs")))
        .collect();
    for f in &files {
        let me = module_path(&src, f);
        let is_mod_rs = f.file_name().is_some_and(|n| n == "mod.rs");
        let code = code_of(&std::fs::read_to_string(f).expect("a readable file"));
        let rel = f.strip_prefix(ROOT).unwrap_or(f).display().to_string();
        for target in paths_named(&me, is_mod_rs, &code) {
            for folder in &folders {
                let n = folder.len();
                // Both the file and the target strictly inside `folder`,
                // under different children of it; the folder's mod.rs is
                // not a child.
                if me.len() > n
                    && target.len() > n
                    && me[..n] == folder[..]
                    && target[..n] == folder[..]
                    && me[n] != target[n]
                {
                    graphs
                        .entry(folder.clone())
                        .or_default()
                        .entry(me[n].clone())
                        .or_default()
                        .entry(target[n].clone())
                        .or_insert_with(|| rel.clone());
                }
            }
        }
    }
    let mut circles = Vec::new();
    for (folder, edges) in &graphs {
        // Only edges to real children of the folder (a type or function
        // of mod.rs is not one).
        let children: BTreeSet<String> = files
            .iter()
            .map(|f| module_path(&src, f))
            .filter(|p| p.len() > folder.len() && p[..folder.len()] == folder[..])
            .map(|p| p[folder.len()].clone())
            .collect();
        let edges: BTreeMap<String, BTreeMap<String, String>> = edges
            .iter()
            .map(|(a, to)| {
                let to = to
                    .iter()
                    .filter(|(b, _)| children.contains(*b))
                    .map(|(b, f)| (b.clone(), f.clone()))
                    .collect();
                (a.clone(), to)
            })
            .collect();
        if let Some(c) = find_circle(&edges) {
            let via: Vec<String> = c
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], edges[&w[0]][&w[1]]))
                .collect();
            circles.push(format!("in src/{}/: {}", folder.join("/"), via.join(", ")));
        }
    }
    assert!(
        circles.is_empty(),
        "circles between the files of a module:\n{}",
        circles.join("\n")
    );
}

/// A circle in `edges`, as the names along it (the first again at the
/// end): depth-first search with colours, grey on the stack, black done.
fn find_circle(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        colour: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        colour.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for n in edges.get(m).into_iter().flat_map(|t| t.keys()) {
            match colour.get(n.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|s| s == n).unwrap_or(0);
                    let mut c = stack[from..].to_vec();
                    c.push(n.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(n, edges, colour, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        colour.insert(m.to_string(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for m in edges.keys() {
        if colour.get(m).copied().unwrap_or(0) == 0
            && let Some(c) = visit(m, edges, &mut colour, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

/// The path reader: `super`, `self`, groups and nested groups.
#[test]
fn the_file_checker_reads_paths() {
    let me: Vec<String> = vec!["draughts".into(), "eval".into()];
    let code = "use super::{layout::Layout, weights}; use crate::chinese::{board::{A, B}, eval::X}; self::inner::f(); super::super::game::Score";
    let got: BTreeSet<String> = paths_named(&me, false, code)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    for want in [
        "draughts::layout::Layout",
        "draughts::weights",
        "chinese::board::A",
        "chinese::board::B",
        "chinese::eval::X",
        "draughts::eval::inner::f",
        "game::Score",
    ] {
        assert!(got.contains(want), "{want} not in {got:?}");
    }
}
