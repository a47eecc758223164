//! Encounter difficulty end to end (SRD 5.2 XP budgets, docs/combat.md,
//! "Encounter difficulty"): `difficulty` builds a known monster list from
//! `monster_pool`, the higher table decides between it and `monsters`,
//! `combat-difficulty` writes the XP of 2 to 10 hobgoblins to its
//! `encounter.csv` (listed in the manifest) with the chart against XP, and
//! a `--scan difficulty=...` builds one encounter per value.

use crate::common;

use common::cli::woundsim;
use woundsim::types::{Scenario, Variants};

const PARTY: &str = "version = 1\nname = \"d\"\ntype = \"combat\"\ntrials = 1000\nseed = 5\n\
[options]\nparty = [{ template = \"fighter-5\", name = \"fighter\" }, { template = \"wizard-5\", name = \"wizard\" }]\n";

fn parse(rest: &str) -> Scenario {
    woundsim::types::parse(common::catalog(), "d.toml", &format!("{PARTY}{rest}"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Each variant's monster names and encounter XP.
fn monsters(s: &Scenario) -> Vec<(Vec<String>, Option<u64>)> {
    let Variants::Combat(variants) = &s.variants else {
        panic!("a combat scenario");
    };
    variants
        .iter()
        .map(|v| {
            (
                v.rules
                    .encounter
                    .monsters
                    .iter()
                    .map(|m| m.name.clone())
                    .collect(),
                v.rules.difficulty.xp.clone().ok(),
            )
        })
        .collect()
}

#[test]
fn a_moderate_budget_from_ogres_and_goblins_is_three_of_each() {
    // Two level-5 PCs: a moderate budget of 2 × 750 = 1,500 XP; greedy from
    // the highest XP: 3 ogres (1,350), then 3 goblins (150).
    let s = parse(
        "difficulty = \"moderate\"\nmonster_pool = [\"goblin\", \"ogre\"]\n[[variant]]\nname = \"m\"\n",
    );
    let names = ["ogre-1", "ogre-2", "ogre-3"]
        .iter()
        .chain(&["goblin-1", "goblin-2", "goblin-3"])
        .map(|n| n.to_string());
    let [(got, xp)] = &monsters(&s)[..] else {
        panic!("one variant");
    };
    let mut want: Vec<String> = names.collect();
    let mut got = got.clone();
    got.sort();
    want.sort();
    assert_eq!((got, *xp), (want, Some(1500)));
    // The encounter's monsters are the bestiary's statblocks.
    let Variants::Combat(v) = &s.variants else {
        unreachable!()
    };
    let ogre = common::catalog().bestiary.lookup("ogre").unwrap();
    let first = v[0]
        .rules
        .encounter
        .monsters
        .iter()
        .find(|m| m.name == "ogre-1");
    assert_eq!(
        first.map(|m| (m.max_hp, m.ac)),
        Some((ogre.max_hp, ogre.ac))
    );
}

#[test]
fn an_xp_number_is_the_budget_and_each_difficulty_its_party_budget() {
    let s = parse(
        "monster_pool = [\"hobgoblin\"]\n\
         [[variant]]\nname = \"low\"\ndifficulty = \"low\"\n\
         [[variant]]\nname = \"high\"\ndifficulty = \"high\"\n\
         [[variant]]\nname = \"xp\"\ndifficulty = 750\n",
    );
    // Budgets 1,000 / 1,500 / 2,200 XP; hobgoblins are 100 XP (SRD 5.1).
    let counts: Vec<(usize, Option<u64>)> = monsters(&s)
        .into_iter()
        .map(|(m, xp)| (m.len(), xp))
        .collect();
    assert_eq!(counts, [(10, Some(1000)), (22, Some(2200)), (7, Some(700))]);
}

#[test]
fn the_higher_table_decides_between_monsters_and_difficulty() {
    let s = parse(
        "monsters = [{ creature = \"orc\", count = 2 }]\nmonster_pool = [\"goblin\"]\n\
         [[variant]]\nname = \"listed\"\n\
         [[variant]]\nname = \"built\"\ndifficulty = 200\n",
    );
    let got = monsters(&s);
    assert_eq!(got[0], (vec!["orc-1".into(), "orc-2".into()], Some(200)));
    assert_eq!(got[1].0.len(), 4, "200 XP of goblins: {:?}", got[1]);
    let s = parse(
        "difficulty = \"low\"\nmonster_pool = [\"goblin\"]\n\
         [[variant]]\nname = \"listed\"\nmonsters = [{ creature = \"orc\" }]\n",
    );
    assert_eq!(monsters(&s)[0], (vec!["orc".into()], Some(100)));
}

#[test]
fn a_creature_without_xp_leaves_the_encounter_xp_not_available() {
    let s = parse(
        "[[variant]]\nname = \"dummy\"\nmonsters = [{ creature = \"training_dummy\" }]\n\
         [[variant]]\nname = \"own-xp\"\nmonsters = [{ creature = \"training_dummy\", xp = 10, count = 3 }]\n",
    );
    assert_eq!(
        monsters(&s).iter().map(|m| m.1).collect::<Vec<_>>(),
        [None, Some(30)]
    );
}

/// Runs `args` into a fresh folder and returns it.
fn run(args: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .arg("run")
        .args(args)
        .args(["--trials=1000", "--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

#[test]
fn combat_difficulty_lists_the_xp_of_2_to_10_hobgoblins() {
    let dir = run(&["combat-difficulty"]);
    let text = std::fs::read_to_string(dir.path().join("combat-difficulty/encounter.csv")).unwrap();
    let mut want = String::from(
        "variant,monsters,encounter_xp,party_levels,low_budget,moderate_budget,high_budget,difficulty,built_for,note\n",
    );
    // Four level-5 PCs: 4 × (500, 750, 1,100) XP; a hobgoblin is 100 XP.
    for n in [2, 4, 6, 8, 10] {
        want.push_str(&format!(
            "{n}-hobgoblins,{n} hobgoblin,{},5 5 5 5,2000,3000,4400,low,,\n",
            n * 100
        ));
    }
    assert_eq!(text, want);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("run.json")).unwrap())
            .unwrap();
    let files: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.as_str())
        .collect();
    for f in [
        "combat-difficulty/encounter.csv",
        "combat-difficulty/deaths-by-xp.png",
        "combat-difficulty/deaths-by-xp.svg",
    ] {
        assert!(files.contains(&f), "{f} not in the manifest: {files:?}");
        assert!(dir.path().join(f).is_file(), "{f}");
    }
    // The chart's curves pass through the run's figures.
    let svg =
        std::fs::read_to_string(dir.path().join("combat-difficulty/deaths-by-xp.svg")).unwrap();
    assert!(
        svg.contains("a PC dies") && svg.contains("Encounter XP"),
        "{svg}"
    );
}

#[test]
fn a_difficulty_scan_builds_one_encounter_per_value() {
    let dir = run(&[
        "combat-difficulty",
        "--scan",
        "difficulty=low,moderate,high",
        "--set",
        "monster_pool=[\"hobgoblin\"]",
    ]);
    let text = std::fs::read_to_string(dir.path().join("combat-difficulty/encounter.csv")).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("2-hobgoblins@"))
        .collect();
    assert_eq!(
        rows,
        [
            "2-hobgoblins@difficulty=low,20 hobgoblin,2000,5 5 5 5,2000,3000,4400,low,2000 XP (low),",
            "2-hobgoblins@difficulty=moderate,30 hobgoblin,3000,5 5 5 5,2000,3000,4400,moderate,3000 XP (moderate),",
            "2-hobgoblins@difficulty=high,44 hobgoblin,4400,5 5 5 5,2000,3000,4400,high,4400 XP (high),",
        ]
    );
}

#[test]
fn variants_against_the_same_monsters_draw_no_chart_against_xp() {
    // combat-hobgoblins: six variants of the rules, all against 600 XP.
    let dir = run(&["combat-hobgoblins"]);
    let sub = dir.path().join("combat-hobgoblins");
    assert!(sub.join("encounter.csv").is_file());
    assert!(!sub.join("deaths-by-xp.png").exists());
}

#[test]
fn the_table_shows_each_variants_encounter_xp_and_difficulty_as_constants() {
    let (text, _dir) = common::cli::stdout_of(&[
        "run",
        "combat-difficulty",
        "--trials=1000",
        "--variants=2-hobgoblins,10-hobgoblins",
    ]);
    let row = |name: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row: {text}"));
        line.split_whitespace().map(String::from).collect()
    };
    assert_eq!(row("encounter_xp"), ["encounter_xp", "200", "1000"]);
    assert_eq!(row("difficulty"), ["difficulty", "low", "low"]);
    assert!(
        text.contains("`encounter_xp`, `difficulty`: constants of each variant, not simulated"),
        "{text}"
    );
    // The data formats hold figures only.
    let (csv, _dir) =
        common::cli::stdout_of(&["run", "combat-difficulty", "--trials=1000", "--format=csv"]);
    assert!(!csv.contains("encounter_xp"), "{csv}");
}

#[test]
fn the_way_not_taken_is_named_as_having_no_effect() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    let text = format!(
        "{PARTY}difficulty = \"low\"\nmonster_pool = [\"goblin\"]\n\
         [[variant]]\nname = \"listed\"\nmonsters = [{{ creature = \"orc\" }}]\nmonster_pool = [\"orc\"]\n\
         [[variant]]\nname = \"built\"\n"
    );
    std::fs::write(&path, text).unwrap();
    let out = woundsim().arg("validate").arg(&path).assert().success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap()
        + &String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        err.contains("`monster_pool` (in [[variant]] `listed`) has no effect in variant `listed`"),
        "{err}"
    );
    assert!(!err.contains("in variant `built`"), "{err}");
}
