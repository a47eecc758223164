//! Every relative link in every Markdown file of the repository resolves:
//! the file exists, and a `#fragment` names a heading of it (GitHub's
//! slugs). Nothing links or refers outside the repository.

use std::path::{Path, PathBuf};

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if !name.starts_with('.')
                && !["target", "corpus", "artifacts", "node_modules", "dist"]
                    .contains(&name.as_str())
            {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// GitHub's heading anchor: lowercase, spaces to `-`, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            !fenced
        })
        .filter_map(|l| l.strip_prefix('#'))
        .map(|h| slug(h.trim_start_matches('#')))
        .collect()
}

/// `(line, target)` of every inline link `[text](target)` outside code.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push((n + 1, rest[..end].trim().to_string()));
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn every_relative_link_resolves_and_none_leaves_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    markdown_files(root, &mut files);
    assert!(files.len() >= 5, "{files:?}");
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let here = file.strip_prefix(root).unwrap().display().to_string();
        if text.contains("../shared") {
            broken.push(format!(
                "{here}: refers to ../shared, outside the repository"
            ));
        }
        for (line, target) in links(&text) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let Ok(canonical) = resolved.canonicalize() else {
                broken.push(format!("{here}:{line}: `{target}` does not exist"));
                continue;
            };
            if !canonical.starts_with(root.canonicalize().unwrap()) {
                broken.push(format!("{here}:{line}: `{target}` leaves the repository"));
                continue;
            }
            if let Some(fragment) = fragment {
                if canonical.extension().is_some_and(|e| e == "md") {
                    let target_text = std::fs::read_to_string(&canonical).unwrap();
                    if !anchors(&target_text).iter().any(|a| a == fragment) {
                        broken.push(format!(
                            "{here}:{line}: `{target}`: no heading `#{fragment}`"
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 10, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug(" Rule clauses → code → test"),
        "rule-clauses--code--test"
    );
    assert_eq!(slug("Combat (`type = \"combat\"`)"), "combat-type--combat");
}
