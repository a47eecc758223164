//! The layers of `src/` point down only, and no two sibling files import
//! each other (docs/ARCHITECTURE.md, "Layers"). Reads every non-test
//! `use crate::...`/`crate::...` path of the library's sources: a module
//! may name only modules of a strictly lower layer, and within one folder
//! the files' imports of each other form no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and its layer: a module may use lower layers only.
const LAYERS: [(&str, u8); 15] = [
    ("dice", 0),
    ("engine", 0),
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
    ("check", 6),
    ("app", 7),
    ("lib", 8),
];

/// Test support, compiled only under `cfg(test)`.
const TEST_ONLY: [&str; 1] = ["fixtures"];

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

/// The code of a file without comments and without its `#[cfg(test)]`
/// module (by convention the file's last item).
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `crate::a::b` paths of `code` as module names (`a`, then `a::b`).
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let path: Vec<String> = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .next()
            .unwrap()
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        out.push(path);
    }
    out
}

fn top_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let layer: BTreeMap<&str, u8> = LAYERS.into_iter().collect();
    let mut violations = Vec::new();
    for file in &files {
        let top = top_of(&src, file);
        if top == "main" || TEST_ONLY.contains(&top.as_str()) {
            continue;
        }
        let mine = *layer
            .get(top.as_str())
            .unwrap_or_else(|| panic!("{top} has no layer in LAYERS"));
        for path in crate_paths(&code(file)) {
            let Some(used) = path.first() else { continue };
            if *used == top || TEST_ONLY.contains(&used.as_str()) {
                continue;
            }
            let theirs = *layer
                .get(used.as_str())
                .unwrap_or_else(|| panic!("{used} (used by {}) has no layer", file.display()));
            if theirs >= mine {
                violations.push(format!(
                    "{} uses crate::{}",
                    file.display(),
                    path.join("::")
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

#[test]
fn sibling_files_import_each_other_without_cycles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    // Module path of each file (`types::death_saves::mc`), and its imports.
    let module = |file: &Path| -> Vec<String> {
        let rel = file.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect();
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        parts
    };
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module(f)).collect();
    for file in &files {
        let me = module(file);
        let Some((_, parent)) = me.split_last() else {
            continue;
        };
        let code = code(file);
        let mut used: Vec<Vec<String>> = crate_paths(&code);
        // `super::x` from a file names its sibling x.
        for (at, _) in code.match_indices("super::") {
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let mut sibling = parent.to_vec();
            sibling.push(name);
            used.push(sibling);
        }
        for path in used {
            // The sibling module a path goes through, if any.
            if path.len() > parent.len() && path[..parent.len()] == *parent {
                let sibling = path[..=parent.len()].to_vec();
                if sibling != me && modules.contains(&sibling) {
                    edges.entry(me.clone()).or_default().insert(sibling);
                }
            }
        }
    }
    for (from, tos) in &edges {
        for to in tos {
            assert!(
                !edges.get(to).is_some_and(|back| back.contains(from)),
                "import cycle: {} <-> {}",
                from.join("::"),
                to.join("::")
            );
        }
    }
    assert!(!edges.is_empty(), "the scan found no imports at all");
}
