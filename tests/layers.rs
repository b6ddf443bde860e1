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
    // Depth-first search with colours: grey on the stack, black done.
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
    for m in &mods {
        if colour.get(m).copied().unwrap_or(0) == 0
            && let Some(c) = visit(m, &edges, &mut colour, &mut Vec::new())
        {
            panic!("a circle between modules: {}", c.join(" -> "));
        }
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
