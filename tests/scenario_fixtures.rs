//! Scenario fixtures: every file in `tests/scenarios/good` loads; every file
//! in `tests/scenarios/bad` fails with the message on its `# expect:` line
//! (file, line:column, field and text), and the parser never panics.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use woundsim::scenario;

fn fixtures(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

#[test]
fn good_fixtures_load() {
    for path in fixtures("good") {
        let s = scenario::load_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!s.variant_names().is_empty());
    }
}

#[test]
fn good_fixture_keys_reach_the_rules() {
    use woundsim::dice::RollMode;
    use woundsim::rules::permanent_wounds::{Severity, WoundPolicy};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/good/full.toml");
    let s = scenario::load_file(&path).unwrap();
    assert_eq!(s.header.seed, u64::MAX);
    assert_eq!(s.header.confidence, 0.99);
    let scenario::Model::DeathSaves(v) = &s.model else {
        panic!("full.toml is a death_saves scenario");
    };
    let (base, over) = (&v[0].rules, &v[1].rules);
    assert_eq!(
        (base.dc, base.save_bonus, base.roll),
        (12, -1, RollMode::Disadvantage)
    );
    assert_eq!((base.start.successes, base.start.failures), (1, 0));
    assert_eq!(base.wound_policy, WoundPolicy::AcceptLeastSevere);
    assert!(base.existing_wounds.has(Severity::Severe));
    assert_eq!(
        (over.dc, over.save_bonus, over.roll),
        (8, 2, RollMode::Advantage)
    );
    assert_eq!((over.start.successes, over.start.failures), (0, 2));
    assert_eq!(over.wound_policy, WoundPolicy::Never);
    assert_eq!(over.existing_wounds.wounds().count(), 0);
}

#[test]
fn bad_fixtures_fail_with_their_message() {
    for path in fixtures("bad") {
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{} lacks an `# expect:` first line", path.display()));
        let err = scenario::load_file(&path)
            .expect_err(&path.display().to_string())
            .to_string();
        assert!(err.starts_with(&path.display().to_string()), "{err}");
        let name = path.file_name().unwrap().to_string_lossy();
        let tail = &err[err.find(name.as_ref()).unwrap()..];
        assert!(
            tail.starts_with(expected),
            "{}:\n  got      {tail}\n  expected {expected}",
            path.display()
        );
    }
}

#[test]
fn a_missing_file_is_reported_by_name() {
    let err = scenario::load_file(Path::new("no/such/file.toml"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("no/such/file.toml: cannot read scenario"),
        "{err}"
    );
}

const VALID: &str = r#"version = 1
name = "p"
type = "death_saves"
trials = 10
seed = 3
[options]
dc = 10
existing_wounds = ["minor"]
[[variant]]
name = "a"
roll = "advantage"
"#;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parser_never_panics_on_arbitrary_text(text in "\\PC{0,300}") {
        let _ = scenario::parse("fuzz.toml", &text);
    }

    #[test]
    fn parser_never_panics_on_mutated_scenarios(at in 0usize..VALID.len(), cut in 0usize..20, insert in "[ -~\n]{0,12}") {
        let mut text = VALID.to_string();
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let end = (at + cut).min(text.len());
        text.replace_range(at..end, &insert);
        match scenario::parse("fuzz.toml", &text) {
            Ok(s) => prop_assert!(!s.variant_names().is_empty()),
            Err(e) => prop_assert!(e.to_string().starts_with("fuzz.toml:")),
        }
    }
}
