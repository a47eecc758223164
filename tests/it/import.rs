//! Monsters from other tools' formats (docs/import.md): a 5etools
//! bestiary, an Open5e API page and Foundry VTT actors named directly by a
//! scenario's `bestiary = [...]` or converted by `woundsim import`. The two
//! ways give the same creature; the SRD 5.2 adult red dragon exported from
//! Foundry fights exactly as the built-in one; a broken file is one located
//! error (file, line:column, JSON path) with exit code 2 and nothing written.

use crate::common;

use common::cli::{fixture, woundsim};
use woundsim::combat::creature::CreatureSpec;

const FILES: [&str; 7] = [
    "5etools-srd.json",
    "open5e-srd.json",
    "foundry-owlbear.json",
    "foundry-adult-red-dragon.json",
    "foundry-mage.json",
    "foundry-ogre.json",
    "foundry-troll.json",
];

fn scenario(header: &str, monster: &str) -> String {
    format!(
        r#"version = 1
name = "imported"
type = "combat"
trials = 200
seed = 5
{header}
[options]
party = [
  {{ template = "fighter-10", name = "fighter" }},
  {{ template = "cleric-10", name = "cleric" }},
  {{ template = "wizard-10", name = "wizard" }},
]
monsters = [{{ creature = "{monster}" }}]
round_cap = 30
"#
    )
}

/// A folder with the fixture `files` copied in and `s.toml`.
fn folder(files: &[(&str, String)], header: &str, monster: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    std::fs::write(dir.path().join("s.toml"), scenario(header, monster)).unwrap();
    dir
}

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture(&format!("tests/data/import/{name}"))).unwrap()
}

fn load(dir: &tempfile::TempDir) -> Result<woundsim::types::Scenario, String> {
    woundsim::types::load_file(common::catalog(), &dir.path().join("s.toml"))
        .map_err(|e| e.to_string())
}

fn monster_of(s: &woundsim::types::Scenario) -> CreatureSpec {
    match &s.variants {
        woundsim::types::Variants::Combat(v) => v[0].rules.encounter.monsters[0].clone(),
        _ => unreachable!(),
    }
}

/// The monsters (slugs) of an imported bestiary text.
fn slugs(toml_text: &str) -> Vec<String> {
    let t: toml::Table = toml_text.parse().unwrap();
    t.keys().cloned().collect()
}

#[test]
fn every_fixture_imports_and_its_monsters_load_either_way() {
    for name in FILES {
        let out = woundsim()
            .args(["import", &fixture(&format!("tests/data/import/{name}"))])
            .assert()
            .success()
            .get_output()
            .clone();
        let written = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("not modelled"), "{name}: {stderr}");
        for slug in slugs(&written) {
            let direct = folder(
                &[(name, read(name))],
                &format!(r#"bestiary = ["{name}"]"#),
                &slug,
            );
            let direct =
                monster_of(&load(&direct).unwrap_or_else(|e| panic!("{name} {slug}: {e}")));
            let converted = folder(
                &[("m.toml", written.clone())],
                r#"bestiary = ["m.toml"]"#,
                &slug,
            );
            let converted = monster_of(&load(&converted).unwrap());
            assert_eq!(direct, converted, "{name}: {slug}");
            assert!(!direct.attacks.is_empty(), "{name}: {slug} has no attack");
        }
    }
}

#[test]
fn the_foundry_adult_red_dragon_fights_as_the_built_in_one() {
    let name = "foundry-adult-red-dragon.json";
    let dir = folder(
        &[(name, read(name))],
        &format!(r#"bestiary = ["{name}"]"#),
        "adult-red-dragon",
    );
    let imported = monster_of(&load(&dir).unwrap());
    let builtin = monster_of(&load(&folder(&[], "", "adult-red-dragon")).unwrap());
    assert_eq!(imported.max_hp, builtin.max_hp);
    assert_eq!(imported.ac, builtin.ac);
    assert_eq!(imported.saves, builtin.saves);
    assert_eq!(imported.attacks, builtin.attacks);
    assert_eq!(imported.multiattack, builtin.multiattack);
    assert_eq!(imported.breath, builtin.breath);
    assert_eq!(imported.legendary_resistance, builtin.legendary_resistance);
    assert_eq!(
        format!("{:?}", imported.legendary),
        format!("{:?}", builtin.legendary)
    );
}

#[test]
fn a_stated_format_and_the_shadowing_warning() {
    let name = "open5e-srd.json";
    let header = format!(r#"bestiary = [{{ file = "{name}", format = "open5e" }}]"#);
    let dir = folder(&[(name, read(name))], &header, "owlbear");
    let s = load(&dir).unwrap();
    assert_eq!(monster_of(&s).max_hp, 59);
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("the monster `Owlbear` imported from")
                && w.contains("replaces the built-in `owlbear`")),
        "{:?}",
        s.warnings
    );
    assert!(
        s.warnings.iter().any(|w| w.contains(
            "open5e-srd.json: 9 features of 3 imported creatures are not modelled (`woundsim show owlbear --bestiary "
        ) && w.ends_with("open5e-srd.json` lists them)")),
        "{:?}",
        s.warnings
    );
    let wrong = format!(r#"bestiary = [{{ file = "{name}", format = "roll20" }}]"#);
    let e = load(&folder(&[(name, read(name))], &wrong, "owlbear")).unwrap_err();
    assert!(
        e.ends_with("field `bestiary[0].format`: unknown format `roll20`: one of woundsim, 5etools, open5e, foundry, dndbeyond"),
        "{e}"
    );
    // Read as 5etools, an Open5e page has no `monster` list.
    let as_5etools = format!(r#"bestiary = [{{ file = "{name}", format = "5etools" }}]"#);
    let e = load(&folder(&[(name, read(name))], &as_5etools, "owlbear")).unwrap_err();
    assert!(e.contains("open5e-srd.json:1:1"), "{e}");
}

#[test]
fn a_broken_file_is_one_located_error_and_nothing_is_written() {
    let text = read("5etools-srd.json").replace(
        r#""hp": { "average": 84, "formula": "8d10 + 40" }"#,
        r#""hp": { "average": "lots", "formula": "8d10 + 40" }"#,
    );
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.json");
    std::fs::write(&input, &text).unwrap();
    let out = dir.path().join("out.toml");
    std::fs::write(&out, "kept").unwrap();
    let assert = woundsim()
        .args(["import"])
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let line = text.lines().position(|l| l.contains("\"lots\"")).unwrap() + 1;
    let column = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("\"lots\"")
        .unwrap()
        + 1;
    assert!(
        stderr.contains(&format!(
            "bad.json:{line}:{column}: field `monster[1].hp.average`: hit points must be a whole number, not text"
        )),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    // Not another format at all.
    std::fs::write(&input, r#"{"cave-gremlin": {"hp": 3}}"#).unwrap();
    let assert = woundsim().args(["import"]).arg(&input).assert().code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("bad.json:1:1: not a 5etools, Open5e, Foundry or D&D Beyond file"),
        "{stderr}"
    );
    // A key given twice.
    std::fs::write(&input, r#"{"monster": [{"name": "a", "name": "b"}]}"#).unwrap();
    let assert = woundsim().args(["import"]).arg(&input).assert().code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("field `monster[0].name`: `monster[0].name` is defined twice"),
        "{stderr}"
    );
}

#[test]
fn imported_monsters_fight() {
    let name = "5etools-srd.json";
    let dir = folder(
        &[(name, read(name))],
        &format!(r#"bestiary = ["{name}"]"#),
        "lich",
    );
    let s = load(&dir).unwrap();
    let lich = monster_of(&s);
    assert_eq!((lich.max_hp, lich.legendary_resistance), (135, 3));
    let r = common::run(&s, 200, 1);
    let rounds = r.figure("base", "mean_rounds").unwrap().estimate.value;
    assert!((1.0..=30.0).contains(&rounds), "{rounds}");
    assert!(r.figure("base", "mean_pc_hp_lost").unwrap().estimate.value > 0.0);
}

#[test]
fn show_prints_an_imported_monster_with_what_is_not_modelled() {
    let file = fixture("tests/data/import/5etools-srd.json");
    let text = common::cli::stdout(&["show", "lich", "--bestiary", &file]);
    assert!(text.contains("Hit points 135"), "{text}");
    assert!(text.contains("Legendary Resistance (3/Day)"), "{text}");
    assert!(text.contains("Fireball (level 3, 3/day, action)"), "{text}");
    assert!(text.contains("- Turn Resistance"), "{text}");
    assert!(
        text.contains("- Spellcasting: power word kill (level 9, 1 slot): beyond the 8 spells with uses a day the loop keeps"),
        "{text}"
    );
    // Without the file, the name is the built-in SRD 5.2 lich.
    let builtin = common::cli::stdout(&["show", "lich"]);
    assert!(
        builtin.contains("Legendary Resistance (4/Day)"),
        "{builtin}"
    );
    assert!(builtin.contains("Hit points 315"), "{builtin}");
}

/// A scenario whose party has the character sheet `paladin.json`.
fn party_folder(sheet: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("paladin.json"), sheet).unwrap();
    let text = r#"version = 1
name = "imported-character"
type = "combat"
trials = 200
seed = 5
[options]
party = [{ import = "paladin.json" }, { template = "cleric-5", name = "cleric" }]
monsters = [{ creature = "ogre" }]
round_cap = 30
"#;
    std::fs::write(dir.path().join("s.toml"), text).unwrap();
    dir
}

#[test]
fn a_foundry_character_sheet_joins_the_party_with_its_numbers() {
    let dir = party_folder(&read("foundry-character-paladin.json"));
    let s = load(&dir).unwrap();
    let woundsim::types::Variants::Combat(v) = &s.variants else {
        unreachable!()
    };
    let aria = &v[0].rules.encounter.party[0];
    // The sheet's hit points (rolled and average hit dice + Con), armour
    // (chain mail and shield) and its +1 longsword over paladin-5.
    assert_eq!((aria.max_hp, aria.ac), (46, 18));
    let sword = &aria.attacks[0];
    assert_eq!(sword.to_hit, 7);
    let r = common::run(&s, 200, 1);
    assert!(r.figure("base", "mean_rounds").unwrap().estimate.value >= 1.0);
    // `woundsim import` writes the same character as an entry.
    let out = woundsim()
        .args(["import", &dir.path().join("paladin.json").to_string_lossy()])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("template = \"paladin-5\""), "{text}");
}

#[test]
fn a_character_file_that_is_not_a_character_is_a_located_error() {
    let dir = party_folder(&read("foundry-owlbear.json"));
    let e = load(&dir).unwrap_err();
    assert!(e.contains("paladin.json:1:1"), "{e}");
    assert!(e.contains("not a character sheet"), "{e}");
    let missing = tempfile::tempdir().unwrap();
    std::fs::write(
        missing.path().join("s.toml"),
        std::fs::read_to_string(dir.path().join("s.toml")).unwrap(),
    )
    .unwrap();
    let e = woundsim::types::load_file(common::catalog(), &missing.path().join("s.toml"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("s.toml:7:") && e.contains("cannot be read"),
        "{e}"
    );
}

/// The lines of `a`'s and `b`'s pretty debug forms that differ, as
/// "a | b".
fn differences<T: std::fmt::Debug>(a: &T, b: &T) -> Vec<String> {
    let (a, b) = (format!("{a:#?}"), format!("{b:#?}"));
    a.lines()
        .zip(b.lines())
        .filter(|(x, y)| x != y)
        .map(|(x, y)| format!("{} | {}", x.trim(), y.trim()))
        .chain((a.lines().count() != b.lines().count()).then(|| "lengths differ".to_string()))
        .collect()
}

/// The imported monster `slug` of fixture `file` and the built-in one.
fn imported_and_builtin(file: &str, slug: &str) -> (CreatureSpec, CreatureSpec) {
    let dir = folder(
        &[(file, read(file))],
        &format!(r#"bestiary = ["{file}"]"#),
        slug,
    );
    let imported = monster_of(&load(&dir).unwrap_or_else(|e| panic!("{file} {slug}: {e}")));
    let builtin = monster_of(&load(&folder(&[], "", slug)).unwrap());
    (imported, builtin)
}

#[test]
fn srd_51_monsters_read_from_every_format_equal_the_built_in_ones_field_by_field() {
    // Every SRD 5.1 fixture monster with a built-in SRD 5.1 entry
    // (data/bestiary.toml), in each format that holds it.
    let cases = [
        ("5etools-srd.json", "goblin"),
        ("5etools-srd.json", "troll"),
        ("5etools-srd.json", "owlbear"),
        ("5etools-srd.json", "ogre"),
        ("open5e-srd.json", "owlbear"),
        ("open5e-srd.json", "ogre"),
        ("foundry-ogre.json", "ogre"),
        ("foundry-troll.json", "troll"),
    ];
    for (file, slug) in cases {
        let (mut imported, builtin) = imported_and_builtin(file, slug);
        // Two documented differences (docs/import.md): the hand-written
        // built-in goblin leaves Nimble Escape out, the importer reads it;
        // a "Melee or Ranged" weapon is read as melee (as the SRD 5.2
        // built-ins are generated), where the hand-written SRD 5.1 ogre
        // calls its javelin ranged.
        if slug == "goblin" {
            assert!(imported.avoids_opportunity_attacks, "Nimble Escape");
            imported.avoids_opportunity_attacks = builtin.avoids_opportunity_attacks;
        }
        if slug == "ogre" {
            assert_eq!(imported.attacks[1].name, "javelin");
            imported.attacks[1].reach = builtin.attacks[1].reach;
        }
        // Only what a statblock says is compared: the name the fight
        // prints comes from the scenario in both.
        assert_eq!(imported.max_hp, builtin.max_hp, "{file} {slug}: hp");
        assert_eq!(imported.ac, builtin.ac, "{file} {slug}: ac");
        assert_eq!(imported.saves, builtin.saves, "{file} {slug}: saves");
        assert_eq!(imported.attacks, builtin.attacks, "{file} {slug}: attacks");
        assert_eq!(
            imported.multiattack, builtin.multiattack,
            "{file} {slug}: multiattack"
        );
        assert_eq!(
            differences(&imported, &builtin),
            Vec::<String>::new(),
            "{file} {slug}: every other field (imported, built-in)"
        );
    }
}

#[test]
fn an_imported_owlbear_and_ogre_fight_exactly_as_the_built_in_ones() {
    for (file, slug) in [("5etools-srd.json", "owlbear"), ("open5e-srd.json", "ogre")] {
        let imported = load(&folder(
            &[(file, read(file))],
            &format!(r#"bestiary = ["{file}"]"#),
            slug,
        ))
        .unwrap();
        let builtin = load(&folder(&[], "", slug)).unwrap();
        let (a, b) = (
            common::run(&imported, 2000, 2),
            common::run(&builtin, 2000, 2),
        );
        assert!(!a.figures.is_empty());
        assert_eq!(a.figures, b.figures, "{file} {slug}");
        assert_eq!(a.distributions, b.distributions, "{file} {slug}");
    }
}

#[test]
fn a_dnd_beyond_character_joins_the_party_with_its_numbers() {
    let dir = party_folder(&read("dndbeyond-character-fighter.json"));
    let s = load(&dir).unwrap();
    let woundsim::types::Variants::Combat(v) = &s.variants else {
        unreachable!()
    };
    let brom = &v[0].rules.encounter.party[0];
    // 34 from the hit dice + Con 15 × 5; chain mail +1 and a shield; a +1
    // longsword with Str 17 at level 5; Extra Attack from fighter-5.
    assert_eq!((brom.max_hp, brom.ac), (44, 19));
    assert_eq!(
        (
            brom.attacks[0].to_hit,
            brom.attacks[0].damage.to_string().as_str()
        ),
        (7, "1d8+4")
    );
    assert_eq!(brom.multiattack.len(), 2);
    let r = common::run(&s, 200, 1);
    assert!(r.figure("base", "mean_rounds").unwrap().estimate.value >= 1.0);
    let out = woundsim()
        .args([
            "import",
            &fixture("tests/data/import/dndbeyond-character-fighter.json"),
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("template = \"fighter-5\""), "{text}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("1 character (dndbeyond)"), "{stderr}");
}

/// A campaign with the D&D Beyond fighter as a fixed party member, read
/// from `files`.
const FIXED_CAMPAIGN: &str = r#"version = 1
name = "imported-veteran"
type = "campaign"
trials = 40
seed = 3
[options]
party = [{ class = "cleric", name = "c" }, { fixed = { import = "brom.json" }, name = "brom" }]
start_level = 1
end_level = 3
difficulty = "low"
monster_pool = ["goblin-warrior"]
"#;

#[test]
fn a_character_sheet_is_a_campaigns_fixed_member_from_the_disk_or_from_added_files() {
    let sheet = read("dndbeyond-character-fighter.json");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("brom.json"), &sheet).unwrap();
    std::fs::write(dir.path().join("s.toml"), FIXED_CAMPAIGN).unwrap();
    let from_disk = load(&dir).unwrap();
    let woundsim::types::Variants::Campaign(v) = &from_disk.variants else {
        unreachable!()
    };
    for plan in &v[0].rules.levels {
        let brom = &plan.party().party[1];
        // The sheet's numbers (as in the combat party above), at every level.
        assert_eq!(
            (brom.name.as_str(), brom.level, brom.max_hp, brom.ac),
            ("brom", 5, 44, 19)
        );
    }
    // The web page's added files give the same scenario as the disk.
    let added = woundsim::scenario::sources::Added::new(
        [("brom.json".to_string(), sheet)].into_iter().collect(),
    )
    .unwrap();
    let from_added = woundsim::types::parse_with_files(
        common::catalog(),
        "scenario.toml",
        FIXED_CAMPAIGN,
        &Default::default(),
        &added,
    )
    .unwrap();
    assert_eq!(
        format!("{:?}", from_added.variants),
        format!("{:?}", from_disk.variants)
    );
    let a = common::run(&from_disk, 40, 1);
    let b = common::run(&from_added, 40, 2);
    assert_eq!(a.figures, b.figures);
    // Without the file, the error is placed at the `import` and says why.
    let none = woundsim::scenario::sources::Added::default();
    let e = woundsim::types::parse_with_files(
        common::catalog(),
        "scenario.toml",
        FIXED_CAMPAIGN,
        &Default::default(),
        &none,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("scenario.toml:7:") && e.contains("no file has been added"),
        "{e}"
    );
}
