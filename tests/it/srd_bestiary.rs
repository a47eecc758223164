//! The whole built-in bestiary in play: every entry (the 330 SRD 5.2
//! monsters of `data/srd-bestiary.toml`, the SRD 5.1 statblocks of
//! `data/bestiary.toml`) loads by its name as a scenario's monster and
//! fights a fixed level-10 party; names resolve as documented; a user's
//! own bestiary files (TOML and JSON) load, shadow built-ins, and a broken
//! one is a located error with exit 2 and nothing written.

use crate::common;

use common::cli::{stdout, woundsim};
use woundsim::engine::{Engine, NoProgress};

fn scenario(monster: &str, header: &str) -> String {
    format!(
        r#"version = 1
name = "srd"
type = "combat"
trials = 300
seed = 11
{header}
[options]
party = [
  {{ template = "fighter-10", name = "fighter" }},
  {{ template = "cleric-10", name = "cleric" }},
  {{ template = "rogue-10", name = "rogue" }},
  {{ template = "wizard-10", name = "wizard" }},
]
monsters = [{{ creature = "{monster}" }}]
round_cap = 30
"#
    )
}

/// The entries that have no attack (tools/srd/README.md, "Cannot fight").
const CANNOT_FIGHT: [&str; 4] = ["giant-fly", "seahorse", "shrieker-fungus", "training_dummy"];

#[test]
fn every_entry_loads_by_name_and_fights() {
    let catalog = common::catalog();
    let names = catalog.bestiary.names();
    assert_eq!(names.len(), 330 + 13, "{names:?}");
    let engine = Engine::new(1).unwrap();
    for name in names {
        let s = woundsim::types::parse(catalog, "srd.toml", &scenario(name, ""))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let r = woundsim::types::simulate(&s, &engine, &NoProgress).unwrap();
        for f in &r.figures {
            let e = &f.estimate;
            assert!(
                e.value.is_finite() && e.low.is_finite() && e.high.is_finite(),
                "{name}: {} = {e:?}",
                f.metric
            );
        }
        let value = |metric: &str| r.figure("base", metric).unwrap().estimate.value;
        let rounds = value("mean_rounds");
        assert!((1.0..=30.0).contains(&rounds), "{name}: {rounds} rounds");
        assert!(value("p_timeout") < 1.0, "{name}: no fight ended");
        let hurt = value("mean_pc_hp_lost") > 0.0;
        // A caster may spend its few turns on control spells (the druid
        // opens with Entangle and falls before it deals damage).
        let casts = !catalog
            .bestiary
            .lookup(name)
            .unwrap()
            .known_spells
            .is_empty();
        assert!(
            hurt != CANNOT_FIGHT.contains(&name) || casts && !hurt,
            "{name}: hp lost"
        );
    }
}

#[test]
fn old_names_keep_their_srd_51_statblocks_and_slugs_are_srd_52() {
    let b = &common::catalog().bestiary;
    let old = b.resolve("troll").unwrap();
    let new = b.resolve("troll@5.2").unwrap();
    assert_eq!(old.lore.srd.as_deref(), Some("5.1"));
    assert_eq!(new.lore.srd.as_deref(), Some("5.2"));
    assert_eq!((old.spec.max_hp, new.spec.max_hp), (84, 94));
    assert_eq!(b.resolve("young_red_dragon").unwrap().spec.max_hp, 178);
    assert_eq!(
        b.resolve("young-red-dragon").unwrap().lore.srd.as_deref(),
        Some("5.2")
    );
    for name in ["wolf", "ogre", "owlbear", "wyvern"] {
        assert_eq!(
            b.resolve(name).unwrap().lore.srd.as_deref(),
            Some("5.1"),
            "{name}"
        );
        let qualified = format!("{name}@5.2");
        assert_eq!(
            b.resolve(&qualified).unwrap().lore.srd.as_deref(),
            Some("5.2")
        );
    }
    assert_eq!(b.resolve("Ogre").unwrap().key, "ogre");
    assert_eq!(b.resolve("goblins").unwrap().key, "goblin");
    assert_eq!(b.resolve("Goblin Warriors").unwrap().key, "goblin-warrior");
    assert_eq!(
        b.resolve("Adult Red Dragon").unwrap().key,
        "adult-red-dragon"
    );
    assert_eq!(b.resolve("Swarm of Bats").unwrap().key, "swarm-of-bats");
}

fn error_of(text: &str) -> String {
    woundsim::types::parse(common::catalog(), "s.toml", text)
        .unwrap_err()
        .to_string()
}

#[test]
fn an_unknown_monster_names_the_nearest() {
    assert_eq!(
        error_of(&scenario("adult red dragn", "")),
        "s.toml:14:26: field `options.monsters[0].creature`: unknown monster `adult red dragn` (did you mean `adult-red-dragon`?); names are SRD 5.2 slugs such as `adult-red-dragon`, the SRD 5.1 names of data/bestiary.toml, or your `bestiary` files' (`woundsim list` shows all 343)"
    );
    let e = error_of(&scenario("red dragon", ""));
    assert!(
        e.contains("(did you mean one of `adult-red-dragon`, `ancient-red-dragon`, `red-dragon-wyrmling`, `young-red-dragon`?)"),
        "{e}"
    );
}

/// A folder with a scenario naming bestiary files, and the files.
fn folder(files: &[(&str, &str)], header: &str, monster: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::write(dir.path().join("s.toml"), scenario(monster, header)).unwrap();
    dir
}

const GREMLIN_TOML: &str = r#"[cave-gremlin]
hp = 18
ac = 13
attacks = [{ name = "claw", to_hit = 4, damage = "1d6+2", type = "slashing" }]
multiattack = ["claw", "claw"]
not_modelled = ["Light Sensitivity"]

[troll]
hp = 5
ac = 8
attacks = [{ name = "slap", to_hit = 0, damage = "1", type = "bludgeoning" }]
"#;

const GREMLIN_JSON: &str = r#"{
  "imp-lord": {
    "hp": 30, "ac": 14, "cr": "2", "xp": 450,
    "attacks": [ { "name": "sting", "to_hit": 5, "damage": "1d8+3", "type": "piercing" } ]
  }
}"#;

fn load(dir: &tempfile::TempDir) -> Result<woundsim::types::Scenario, String> {
    woundsim::types::load_file(common::catalog(), &dir.path().join("s.toml"))
        .map_err(|e| e.to_string())
}

fn monster_of(s: &woundsim::types::Scenario) -> woundsim::combat::creature::CreatureSpec {
    match &s.variants {
        woundsim::types::Variants::Combat(v) => v[0].rules.encounter.monsters[0].clone(),
        _ => unreachable!(),
    }
}

#[test]
fn user_bestiary_files_load_relative_to_the_scenario_and_shadow_built_ins() {
    let files = [
        ("mine/monsters.toml", GREMLIN_TOML),
        ("imps.json", GREMLIN_JSON),
    ];
    let header = r#"bestiary = ["mine/monsters.toml", "imps.json"]"#;
    let gremlin = monster_of(&load(&folder(&files, header, "cave gremlins")).unwrap());
    assert_eq!(
        (gremlin.max_hp, gremlin.ac, gremlin.multiattack.len()),
        (18, 13, 2)
    );
    let imp = monster_of(&load(&folder(&files, header, "imp-lord")).unwrap());
    assert_eq!((imp.max_hp, imp.attacks[0].to_hit), (30, 5));
    let troll = monster_of(&load(&folder(&files, header, "troll")).unwrap());
    assert_eq!(troll.max_hp, 5, "the user's troll shadows the built-in one");
    let builtin = monster_of(&load(&folder(&files, "", "troll")).unwrap());
    assert_eq!(
        builtin.max_hp, 84,
        "only in the scenario that names the file"
    );
}

#[test]
fn broken_user_bestiaries_are_located_errors_in_their_files() {
    let header = r#"bestiary = ["m.toml"]"#;
    let bad_toml = GREMLIN_TOML.replace("hp = 18", "hp = 0");
    let dir = folder(&[("m.toml", &bad_toml)], header, "goblin");
    let e = load(&dir).unwrap_err();
    assert!(
        e.ends_with("m.toml:2:6: field `cave-gremlin.hp`: hp must be between 1 and 100000, got 0"),
        "{e}"
    );
    let header = r#"bestiary = ["m.json"]"#;
    let bad_json = GREMLIN_JSON.replace("\"to_hit\": 5", "\"to_hit\": 99");
    let e = load(&folder(&[("m.json", &bad_json)], header, "goblin")).unwrap_err();
    assert!(
        e.ends_with("m.json:4:47: field `imp-lord.attacks[0].to_hit`: to_hit must be between -10 and 30, got 99"),
        "{e}"
    );
    let e = load(&folder(&[("m.json", "{ \"a\": [1,]")], header, "goblin")).unwrap_err();
    assert!(e.contains("m.json:1:11: not valid JSON"), "{e}");
    let e = load(&folder(
        &[("m.json", "{ \"a\": { \"hp\": null } }")],
        header,
        "goblin",
    ))
    .unwrap_err();
    assert!(
        e.ends_with("m.json:1:16: field `a.hp`: null is not a value here: leave the key out"),
        "{e}"
    );
    let e = load(&folder(&[], header, "goblin")).unwrap_err();
    assert!(
        e.contains(":6:13: field `bestiary[0]`: the bestiary file `"),
        "{e}"
    );
    assert!(e.contains("m.json` cannot be read"), "{e}");
    let two = [("a.toml", GREMLIN_TOML), ("b.toml", GREMLIN_TOML)];
    let e = load(&folder(
        &two,
        r#"bestiary = ["a.toml", "b.toml"]"#,
        "goblin",
    ))
    .unwrap_err();
    assert!(
        e.contains("b.toml:1:1: field `cave-gremlin`: monster `cave-gremlin` is also defined in"),
        "{e}"
    );
    let e = load(&folder(
        &[("a.toml", GREMLIN_TOML)],
        &format!("bestiary = [{}]", vec!["\"a.toml\""; 17].join(", ")),
        "goblin",
    ))
    .unwrap_err();
    assert!(
        e.contains("field `bestiary`: at most 16 bestiary files"),
        "{e}"
    );
}

#[test]
fn a_bestiary_for_another_scenario_type_or_from_the_command_line_is_refused() {
    let e = error_of(
        "version = 1\nname = \"x\"\ntype = \"death_saves\"\ntrials = 1\nseed = 1\nbestiary = [\"m.toml\"]\n",
    );
    assert_eq!(
        e,
        "s.toml:6:12: field `bestiary`: `bestiary` names monster files for combat and campaign scenarios; this is a `death_saves` scenario"
    );
    let o = woundsim::scenario::overrides::Override::parse("bestiary=[\"m.toml\"]").unwrap_err();
    assert!(o.contains("cannot be set from the command line"), "{o}");
}

#[test]
fn validate_run_and_show_honour_the_user_bestiary() {
    let files = [("m.toml", GREMLIN_TOML)];
    let dir = folder(&files, r#"bestiary = ["m.toml"]"#, "cave-gremlin");
    let s = dir.path().join("s.toml");
    woundsim().arg("validate").arg(&s).assert().success();
    let out = dir.path().join("out");
    woundsim()
        .args(["run", "--trials", "50", "--quiet", "--out"])
        .arg(&out)
        .arg(&s)
        .assert()
        .success();
    assert!(out.join("srd").join("summary.csv").exists() || out.join("summary.csv").exists());
    // A broken user file: exit 2, one line naming it, nothing written.
    std::fs::write(dir.path().join("m.toml"), "[cave-gremlin]\nhp = \"many\"\n").unwrap();
    let fresh = dir.path().join("fresh");
    let assert = woundsim()
        .args(["run", "--trials", "50", "--quiet", "--out"])
        .arg(&fresh)
        .arg(&s)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(err.contains("m.toml:2:6: field `cave-gremlin.hp`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!fresh.exists(), "nothing written");
    woundsim().arg("validate").arg(&s).assert().code(2);
    woundsim().args(["exact"]).arg(&s).assert().code(2);
}

#[test]
fn show_prints_an_srd_statblock_with_cr_xp_and_what_is_not_modelled() {
    let text = stdout(&["show", "adult-red-dragon"]);
    for needle in [
        "adult-red-dragon (monster, Huge)",
        "Hit points 256",
        "Bestiary name `adult-red-dragon`: SRD 5.2, dragon, CR 17 (18000 XP), proficiency bonus +6",
        "Speed walk 40 ft, fly 80 ft, climb 40 ft",
        "Breath: 17d6 fire, DC 21 Dex save for half, recharge 5-6, up to 6 targets",
        "Legendary Resistance (3/Day): a failed save against a condition becomes a success",
        "Legendary actions: 3 a round, after another creature's turn; commanding-presence: casts command, once a round; fiery-rays: casts scorching ray, once a round; pounce: moves, then one rend attack",
        "Spells cast in a fight (docs/spells.md):",
        "Scorching Ray (level 2, at will, or in place of one attack, action): +12 to hit, 3 × 2d6 fire",
        "Fireball (level 3, 1/day, action): 20-ft sphere (4 targets), DC 20 Dex save, 8d6 fire",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    // Every feature of its statblock is modelled now.
    assert!(!text.contains("Not modelled"), "{text}");
    let mage = stdout(&["show", "mage"]);
    for needle in [
        "Fireball (level 3 cast at level 4, 2/day, action)",
        "    - Spellcasting: Invisibility (2/Day)",
    ] {
        assert!(mage.contains(needle), "{needle}\n{mage}");
    }
    assert!(!mage.contains("Detect Magic"), "no use in a fight: {mage}");
    // Mage Armor "(included in AC)" is in its AC already: no effect in a
    // fight, listed apart; so is an escape (the lich's Plane Shift).
    assert!(
        mage.contains("No effect in a woundsim fight")
            && mage.contains("Mage Armor (Spellcasting, at will)")
            && !mage.contains("- Spellcasting: Mage Armor"),
        "{mage}"
    );
    // The ghast's Claw paralyzes and is its Attack action (preferred to
    // its Bite); the ghoul's Attack action is two Bites, so its Claw is
    // listed.
    let ghast = stdout(&["show", "ghast"]);
    assert!(
        ghast.contains("DC 10 Con save or paralyzed until the end of its next turn")
            && ghast.contains("Attack action: claw")
            && !ghast.contains("- Claw"),
        "{ghast}"
    );
    let ghoul = stdout(&["show", "ghoul"]);
    assert!(
        ghoul.contains("- Claw: Paralyzed condition (an action the loop never takes"),
        "{ghoul}"
    );
    let lich = stdout(&["show", "lich"]);
    assert!(
        lich.contains("Plane Shift (Spellcasting, 2/Day)")
            && lich.contains("- Spellcasting: Dispel Magic (at will)"),
        "{lich}"
    );
    assert!(!text.contains("- Pounce (Legendary Action)"), "{text}");
    assert!(!lich.contains("Magic Resistance"), "{lich}");
    let balor = stdout(&["show", "balor"]);
    assert!(
        balor.contains("Magic Resistance: advantage on saves"),
        "{balor}"
    );
    assert!(!balor.contains("- Magic Resistance"), "{balor}");
    let wolf = stdout(&["show", "dire-wolf"]);
    assert!(
        wolf.contains("Pack Tactics: advantage on attacks"),
        "{wolf}"
    );
    assert!(
        lich.contains(
            "disrupt-life: 9d6 necrotic, DC 20 Con save for half, up to 4 targets, once a round"
        ),
        "{lich}"
    );
    assert!(stdout(&["show", "Ogre"]).contains("Bestiary name `ogre`: SRD 5.1"));
}
