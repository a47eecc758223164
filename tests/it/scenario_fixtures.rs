//! Scenario fixtures: every file in `tests/scenarios/good` loads; every file
//! in `tests/scenarios/bad` fails with the message on its `# expect:` line
//! (file, line:column, field and text), and the parser never panics.

use std::path::{Path, PathBuf};

use crate::common;

use common::fuzz::{mutate, parses_or_names_the_file};
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
        let s = woundsim::types::load_file(common::catalog(), &path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!s.variant_names().is_empty());
    }
}

#[test]
fn good_fixture_keys_reach_the_rules() {
    use woundsim::dice::RollMode;
    use woundsim::rules::permanent_wounds::{Severity, WoundPolicy};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/good/full.toml");
    let s = woundsim::types::load_file(common::catalog(), &path).unwrap();
    assert_eq!(s.header.seed, u64::MAX);
    assert_eq!(s.header.confidence, 0.99);
    let woundsim::types::Variants::DeathSaves(v) = &s.variants else {
        panic!("full.toml is a death-saves scenario");
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
fn amputation_fixture_keys_reach_the_rules() {
    use woundsim::dice::RollMode;
    use woundsim::rules::amputation::{AtZeroHp, Target};
    use woundsim::rules::limbs::{DamageType, Limb, Purpose, Size};
    use woundsim::rules::reattachment::HealTarget;
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/good/amputation-full.toml");
    let s = woundsim::types::load_file(common::catalog(), &path).unwrap();
    let woundsim::types::Variants::Amputation(v) = &s.variants else {
        panic!("an amputation scenario");
    };
    let (base, over) = (&v[0].rules, &v[1].rules);
    assert_eq!(base.purpose, Purpose::StopPossession);
    assert!(base.piercing_severs && base.allowed_types.has(DamageType::Fire));
    assert_eq!(
        (base.target, base.called_shot_penalty),
        (Target::Unwilling, 4)
    );
    assert_eq!(base.clock.unwrap().to_string(), "1d4+1");
    assert_eq!(base.max_rounds, 8);
    let c = &base.creature;
    assert_eq!((c.size, c.limb, c.limb_hp), (Size::Huge, Limb::Head, 30));
    assert_eq!((c.hp, c.max_hp, c.con_save, c.ac), (90, 100, 5, 13));
    assert!(c.modifiers.vulnerabilities.has(DamageType::Piercing));
    assert_eq!(c.at_zero_hp, AtZeroHp::DeathSaves);
    let (mods, ac) = c.limb_defences();
    assert_eq!((mods.reduction, ac), (2, 15));
    assert!(mods.resistances.has(DamageType::Slashing) && mods.immunities.has(DamageType::Psychic));
    let rapier = &base.cutters[0];
    assert_eq!(
        (rapier.attacks, rapier.attack_bonus, rapier.crit_on),
        (2, 6, 19)
    );
    assert_eq!(rapier.roll, RollMode::Advantage);
    let re = base.reattach.as_ref().unwrap();
    assert_eq!(
        (re.window_minutes, re.delay_minutes.to_string()),
        (90.5, "2d6".into())
    );
    assert_eq!(re.sources[0].heal.to_string(), "3d8+4");
    assert_eq!(re.sources[1].target, HealTarget::Creature);
    assert_eq!(re.sources[1].gp, 25.5);
    // The variant overrides key by key.
    assert_eq!(
        (over.purpose, over.target),
        (Purpose::StopPoison, Target::Helpless)
    );
    assert_eq!((over.creature.limb, over.creature.limb_hp), (Limb::Leg, 25));
    assert_eq!(over.creature.size, Size::Huge);
    assert_eq!(over.poison.as_ref().unwrap().save_dc, Some(15));
    let re = over.reattach.as_ref().unwrap();
    assert_eq!((re.window_minutes, re.sources.len()), (240.0, 2));
}

#[test]
fn bad_fixtures_fail_with_their_message() {
    for path in fixtures("bad") {
        // Read as bytes: one fixture is deliberately not UTF-8 after its first line.
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let expected = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{} lacks an `# expect:` first line", path.display()));
        let err = woundsim::types::load_file(common::catalog(), &path)
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
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.toml");
    let mut text = String::from("version = 1\n");
    let limit = scenario::limits::MAX_FILE_BYTES as usize;
    while text.len() <= limit {
        text.push_str("# padding padding padding padding padding padding padding\n");
    }
    std::fs::write(&path, &text).unwrap();
    let err = woundsim::types::load_file(common::catalog(), &path)
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with(
            "huge.toml: the file is larger than 1048576 bytes, the most a scenario may have"
        ),
        "{err}"
    );
    text.truncate(limit);
    std::fs::write(&path, &text).unwrap();
    let err = woundsim::types::load_file(common::catalog(), &path)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("field `type`"),
        "a file at the limit is read: {err}"
    );
}

#[test]
fn a_missing_file_is_reported_by_name() {
    let err = woundsim::types::load_file(common::catalog(), Path::new("no/such/file.toml"))
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

const VALID_AMPUTATION: &str = r#"version = 1
name = "a"
type = "amputation"
trials = 10
seed = 3
[options]
clock = "1d4"
cutters = [{ damage = "1d8+3", damage_type = "slashing", attack_bonus = 4 }]
[options.creature]
size = "large"
armor = [{ covers = ["arm"], damage_reduction = 1 }]
[options.poison]
damage = "7d6"
save_dc = 15
[options.reattach]
healing = [{ kind = "cure_wounds", uses = 2 }]
[[variant]]
name = "v"
target = "helpless"
creature.limb = "leg"
"#;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parser_never_panics_on_arbitrary_text(text in "\\PC{0,300}") {
        let _ = woundsim::types::parse(common::catalog(), "fuzz.toml", &text);
    }

    #[test]
    fn parser_never_panics_on_mutated_scenarios(at in 0usize..VALID.len(), cut in 0usize..20, insert in "[ -~\n]{0,12}") {
        parses_or_names_the_file(&mutate(VALID, at, cut, &insert))?;
    }

    #[test]
    fn parser_never_panics_on_mutated_amputation_scenarios(at in 0usize..VALID_AMPUTATION.len(), cut in 0usize..20, insert in "[ -~\n]{0,12}") {
        parses_or_names_the_file(&mutate(VALID_AMPUTATION, at, cut, &insert))?;
    }
}

#[test]
fn trials_written_as_a_float_or_text_are_read_as_the_flag_reads_them() {
    let file = |trials: &str| {
        format!("version = 1\nname = \"t\"\ntype = \"death_saves\"\ntrials = {trials}\nseed = 1\n")
    };
    for (written, read) in [
        ("1e6", 1_000_000),
        ("1.5e5", 150_000),
        ("\"1e6\"", 1_000_000),
        ("\"100_000\"", 100_000),
        ("100_000", 100_000),
    ] {
        let s = woundsim::types::parse(common::catalog(), "t.toml", &file(written))
            .unwrap_or_else(|e| panic!("trials = {written}: {e}"));
        assert_eq!(s.header.trials, read, "trials = {written}");
    }
    for bad in ["1e14", "0.0", "-1e3", "\"ten\""] {
        let e = woundsim::types::parse(common::catalog(), "t.toml", &file(bad)).unwrap_err();
        assert_eq!(e.field(), Some("trials"), "trials = {bad}: {e}");
    }
}
