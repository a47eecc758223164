//! The layers of `src/` point down only, and no file imports itself back
//! through any chain of files (docs/ARCHITECTURE.md, "Layers").
//!
//! Each library source is read whole, less its comments, its string
//! literals and its test modules (`#[cfg(test)] mod x;` or `mod x { ... }`,
//! wherever they are declared). Every module path it names — `use` trees
//! with their braces expanded, and paths in code (`crate::a::b`,
//! `super::x`, `self::x`) — is resolved to the deepest module file it goes
//! through. Two checks follow:
//!
//! - a module may name only modules of a strictly lower layer ([`LAYERS`]);
//! - the files' imports of each other form no cycle of any length; a
//!   module hub's edges to its own children (a `mod.rs`, or `foo.rs` beside
//!   `foo/`, naming the modules it declares) are the tree itself and are
//!   left out;
//! - no scenario type (a folder of `src/types/`) imports another: what two
//!   types share lives below `types/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and its layer: a module may use lower layers only.
const LAYERS: [(&str, u8); 16] = [
    ("dice", 0),
    ("engine", 0),
    ("files", 0),
    ("testhook", 1),
    ("rules", 1),
    ("combat", 2),
    ("model", 3),
    ("results", 4),
    ("scenario", 4),
    ("types", 5),
    ("report", 5),
    ("builtin", 6),
    ("cli", 6),
    ("gate", 6),
    ("app", 7),
    ("lib", 8),
];

/// Test support, compiled only under `cfg(test)`.
const TEST_ONLY: [&str; 1] = ["fixtures"];

/// A module path inside the crate: `["types", "campaign", "mc"]`.
type Module = Vec<String>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`, test folders (`tests/`) left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().unwrap() != "tests" {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file defines (`src/a/mod.rs` and `src/a.rs` are `a`;
/// `src/lib.rs` is `lib`).
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// `text` with comments, string and character literals blanked out
/// (replaced by spaces, so nothing inside them reads as a path).
fn blank_comments_and_literals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
        } else if let Some(len) = raw_string_len(rest) {
            out.extend(
                rest[..len]
                    .iter()
                    .map(|&c| if c == b'\n' { c } else { b' ' }),
            );
            i += len;
        } else if b[i] == b'"' || (b[i] == b'b' && rest.get(1) == Some(&b'"')) {
            let start = i;
            i += if b[i] == b'b' { 2 } else { 1 };
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.extend(
                b[start..i]
                    .iter()
                    .map(|&c| if c == b'\n' { c } else { b' ' }),
            );
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let len = match rest.get(1) {
                Some(b'\\') => rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3),
                Some(_) if rest.get(2) == Some(&b'\'') => Some(3),
                _ => None,
            };
            match len {
                Some(len) => {
                    out.extend(std::iter::repeat_n(b' ', len));
                    i += len;
                }
                None => {
                    out.push(b'\'');
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// The length of the raw string literal `rest` starts with (`r"…"`,
/// `r#"…"#`, `br"…"`), if it starts with one.
fn raw_string_len(rest: &[u8]) -> Option<usize> {
    let after_b = if rest.first() == Some(&b'b') { 1 } else { 0 };
    if rest.get(after_b) != Some(&b'r') {
        return None;
    }
    let hashes = rest[after_b + 1..]
        .iter()
        .take_while(|&&c| c == b'#')
        .count();
    let open = after_b + 1 + hashes;
    if rest.get(open) != Some(&b'"') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"')
        .chain(std::iter::repeat_n(b'#', hashes))
        .collect();
    let body = &rest[open + 1..];
    let end = body.windows(close.len()).position(|w| w == close)?;
    Some(open + 1 + end + close.len())
}

/// `code` (comments and literals blanked) less its test modules:
/// `#[cfg(test)]` before `mod name;` or `mod name { ... }`, wherever it
/// stands.
fn without_test_modules(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let after = &out[at + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let item_at = out.len() - item.len();
        let is_mod = item.starts_with("mod ") || item.starts_with("pub mod ");
        let end = if is_mod {
            match (item.find(';'), item.find('{')) {
                (Some(semi), Some(brace)) if semi < brace => item_at + semi + 1,
                (Some(semi), None) => item_at + semi + 1,
                (_, Some(brace)) => item_at + brace + matching_brace(&item[brace..]),
                (None, None) => out.len(),
            }
        } else {
            // Another test-only item: keep it, but not its attribute.
            at + "#[cfg(test)]".len()
        };
        out.replace_range(at..end, &" ".repeat(end - at));
    }
    out
}

/// The length of the brace group `text` starts with, braces included.
fn matching_brace(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The code of a file as the checks read it.
fn code(path: &Path) -> String {
    without_test_modules(&blank_comments_and_literals(
        &fs::read_to_string(path).unwrap(),
    ))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}`), braces expanded.
fn expand_use_tree(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        // A leaf: `a::b`, or `a::b as c`.
        return tree
            .split_whitespace()
            .next()
            .map(str::to_string)
            .into_iter()
            .collect();
    };
    let prefix: String = tree[..open].split_whitespace().collect();
    let inner = &tree[open + 1..open + matching_brace(&tree[open..]) - 1];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .flat_map(expand_use_tree)
        .map(|p| match p.as_str() {
            "self" => prefix.trim_end_matches("::").to_string(),
            _ => format!("{prefix}{p}"),
        })
        .collect()
}

/// Every path `code` names that starts at `crate`, `super` or `self`.
fn paths_named(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    // `use` trees, braces expanded.
    for (at, _) in code.match_indices("use ") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        if let Some(end) = code[at..].find(';') {
            out.extend(expand_use_tree(&code[at + 4..at + end]));
        }
    }
    // Paths in code.
    for root in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(root) {
            if code[..at].chars().next_back().is_some_and(is_ident) {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|&c| is_ident(c) || c == ':')
                .collect();
            out.push(path);
        }
    }
    out.retain(|p| p.starts_with("crate::") || p.starts_with("super::") || p.starts_with("self::"));
    out
}

/// The module file a path from module `me` goes through: the longest
/// prefix of its absolute form that is a module of `modules`.
fn resolve(path: &str, me: &Module, modules: &BTreeSet<Module>) -> Option<Module> {
    let mut parts = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut absolute: Module = match parts.peek().copied() {
        Some("crate") => {
            parts.next();
            Vec::new()
        }
        Some("self") => {
            parts.next();
            me.clone()
        }
        Some("super") => {
            let mut base = me.clone();
            while parts.peek() == Some(&"super") {
                parts.next();
                base.pop()?;
            }
            base
        }
        _ => return None,
    };
    absolute.extend(parts.map(str::to_string));
    (0..=absolute.len())
        .rev()
        .map(|n| absolute[..n].to_vec())
        .find(|m| modules.contains(m) || (m.is_empty() && modules.contains(&vec!["lib".into()])))
        .map(|m| if m.is_empty() { vec!["lib".into()] } else { m })
}

/// The test modules `code` (comments and literals blanked) declares in
/// files of their own: `#[cfg(test)] mod name;`.
fn test_module_files(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("#[cfg(test)]") {
        let item = code[at + "#[cfg(test)]".len()..].trim_start();
        let item = item.strip_prefix("pub ").unwrap_or(item);
        if let Some(rest) = item.strip_prefix("mod ") {
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if rest[name.len()..].trim_start().starts_with(';') {
                out.push(name);
            }
        }
    }
    out
}

/// Every library file's module and the modules it names; test modules,
/// wherever they are declared, left out.
fn imports() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = src();
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut tests: BTreeSet<Module> = BTreeSet::new();
    for file in &files {
        let me = module_of(&src, file);
        let text = blank_comments_and_literals(&fs::read_to_string(file).unwrap());
        for name in test_module_files(&text) {
            let mut m = me.clone();
            m.push(name);
            tests.insert(m);
        }
    }
    let is_test = |m: &Module| tests.iter().any(|t| m.starts_with(t));
    files.retain(|f| !is_test(&module_of(&src, f)));
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&src, f)).collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let me = module_of(&src, file);
        let used: BTreeSet<Module> = paths_named(&code(file))
            .iter()
            .filter_map(|p| resolve(p, &me, &modules))
            .filter(|m| *m != me)
            .collect();
        edges.insert(me, used);
    }
    edges
}

#[test]
fn every_module_uses_only_lower_layers() {
    let layer: BTreeMap<&str, u8> = LAYERS.into_iter().collect();
    let mut violations = Vec::new();
    for (me, used) in imports() {
        let top = me[0].as_str();
        if top == "main" || TEST_ONLY.contains(&top) {
            continue;
        }
        let mine = *layer
            .get(top)
            .unwrap_or_else(|| panic!("{top} has no layer in LAYERS"));
        for module in used {
            let theirs_name = module[0].as_str();
            if theirs_name == top || TEST_ONLY.contains(&theirs_name) {
                continue;
            }
            let theirs = *layer.get(theirs_name).unwrap_or_else(|| {
                panic!("{theirs_name} (used by {}) has no layer", me.join("::"))
            });
            if theirs >= mine {
                violations.push(format!(
                    "{} uses crate::{}",
                    me.join("::"),
                    module.join("::")
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "upward or sideways imports:\n{}",
        violations.join("\n")
    );
}

/// The first cycle of `edges` found, as the modules along it.
fn find_cycle(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        at: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        marks: &mut BTreeMap<Module, Mark>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        match marks.get(at) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|m| m == at).unwrap();
                let mut cycle = stack[from..].to_vec();
                cycle.push(at.clone());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(at.clone(), Mark::Open);
        stack.push(at.clone());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, marks, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        marks.insert(at.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    edges
        .keys()
        .find_map(|start| visit(start, edges, &mut marks, &mut Vec::new()))
}

/// The import graph less each hub's edges to its own children.
fn file_graph() -> BTreeMap<Module, BTreeSet<Module>> {
    imports()
        .into_iter()
        .map(|(me, used)| {
            let kept = used
                .into_iter()
                .filter(|m| !(m.len() == me.len() + 1 && m.starts_with(&me)))
                .collect();
            (me, kept)
        })
        .collect()
}

#[test]
fn no_file_imports_itself_back_through_any_chain() {
    let graph = file_graph();
    assert!(
        graph.values().map(BTreeSet::len).sum::<usize>() > 100,
        "the scan found almost no imports: the reader is broken"
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "import cycle: {}",
            cycle
                .iter()
                .map(|m| m.join("::"))
                .collect::<Vec<_>>()
                .join(" -> ")
        );
    }
}

/// The scenario types: the folders of `src/types/`.
fn plugins() -> BTreeSet<String> {
    fs::read_dir(src().join("types"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect()
}

#[test]
fn no_scenario_type_imports_another() {
    let plugins = plugins();
    assert!(plugins.len() >= 6, "the scan found no scenario types");
    let plugin_of = |m: &Module| {
        (m.len() >= 2 && m[0] == "types" && plugins.contains(&m[1])).then(|| m[1].clone())
    };
    let mut violations = Vec::new();
    for (me, used) in imports() {
        let Some(mine) = plugin_of(&me) else { continue };
        for theirs in used.iter().filter_map(plugin_of) {
            if theirs != mine {
                violations.push(format!("{} uses types::{theirs}", me.join("::")));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "a scenario type imports another (what two types share belongs below types/):\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_reader_sees_braced_imports_test_modules_and_cycles() {
    let code = without_test_modules(&blank_comments_and_literals(
        "use crate::a::{b::C, d::{self, E}};\n\
         // use crate::commented::Out;\n\
         const S: &str = \"crate::in_a_string\";\n\
         #[cfg(test)]\nmod tests;\n\
         fn f() { super::g::h(); }\n\
         #[cfg(test)]\nmod more { use crate::only_in_tests::X; }\n",
    ));
    let paths = paths_named(&code);
    for expected in [
        "crate::a::b::C",
        "crate::a::d",
        "crate::a::d::E",
        "super::g::h",
    ] {
        assert!(
            paths.iter().any(|p| p == expected),
            "{expected} in {paths:?}"
        );
    }
    for absent in ["commented", "in_a_string", "only_in_tests"] {
        assert!(
            !paths.iter().any(|p| p.contains(absent)),
            "{absent} in {paths:?}"
        );
    }
    let m = |s: &str| -> Module { s.split("::").map(str::to_string).collect() };
    let mut g: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    g.insert(m("x::a"), [m("x::b")].into());
    g.insert(m("x::b"), [m("y")].into());
    g.insert(m("y"), [m("x::a")].into());
    assert_eq!(
        find_cycle(&g).map(|c| c.len()),
        Some(4),
        "a three-file cycle is found"
    );
    g.insert(m("y"), BTreeSet::new());
    assert_eq!(find_cycle(&g), None);
}
