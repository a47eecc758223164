//! End-to-end tests of the `injuries` and `festering` scenario types through
//! the binary, and parser robustness on injury scenarios.

use std::path::Path;

use crate::common;

use common::cli::{fixture, woundsim};
use common::fuzz::{mutate, parses_or_names_the_file};
use predicates::prelude::*;
use proptest::prelude::*;

#[test]
fn injury_scenarios_write_their_metrics_and_charts() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args([
            "run",
            "lingering-injuries",
            "festering-wounds",
            "injury-costs",
            "--trials",
            "20000",
            "--seed",
            "3",
            "--quiet",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    assert!(summary.starts_with("scenario,variant,metric,estimate,ci_low,ci_high,trials,seed\n"));
    for row in [
        "lingering-injuries,seed-rule,p_entry_lose_an_eye_per_event,",
        "lingering-injuries,seed-rule,p_entry_festering_wound_per_encounter,",
        "lingering-injuries,seed-rule,p_permanent_injury_campaign,",
        "lingering-injuries,seed-rule,p_cure_class_regenerate,",
        "lingering-injuries,seed-rule,mean_injuries_per_campaign,",
        "lingering-injuries,crits-only,p_any_injury_campaign_diff,",
        "festering-wounds,medicine+0,p_death,",
        "festering-wounds,medicine+2,q90_max_hp_lost,",
        "festering-wounds,medicine+5,q99_days_until_closed,",
        "festering-wounds,medicine+9,p_death_max_hp_25,",
        "festering-wounds,hp45,mean_max_hp_lost_diff,",
        "injury-costs,wilderness,mean_heal_gp_per_injury,",
        "injury-costs,temple-city,mean_downtime_days_per_event,",
        "injury-costs,cleric-13,p_uncurable_per_event,",
        "injury-costs,village,mean_heal_gp_entry_limp,",
    ] {
        assert!(summary.contains(&format!("\n{row}")), "{row}");
    }
    for line in summary.lines().skip(1) {
        let metric = line.split(',').nth(2).unwrap();
        assert!(
            metric
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{metric}"
        );
        assert!(line.ends_with(",3"), "{line}");
        let trials: u64 = line.rsplit(',').nth(1).unwrap().parse().unwrap();
        let conditional = common::counts_other_observations(metric);
        if !conditional {
            assert_eq!(trials, 20000, "{line}");
        }
    }
    for file in [
        "lingering-injuries/injury-frequency.png",
        "lingering-injuries/heal-gold.svg",
        "lingering-injuries/campaign.png",
        "festering-wounds/death-by-max-hp.png",
        "festering-wounds/max-hp-lost.svg",
        "festering-wounds/max_hp_lost.csv",
        "festering-wounds/days_until_closed.csv",
        "injury-costs/heal-gold.png",
    ] {
        let path = dir.path().join(file);
        assert!(
            std::fs::metadata(&path).unwrap().len() > 100,
            "{}",
            path.display()
        );
    }
    let png = std::fs::read(dir.path().join("festering-wounds/death-by-max-hp.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg =
        std::fs::read_to_string(dir.path().join("festering-wounds/death-by-max-hp.svg")).unwrap();
    assert!(svg.contains("Probability of death (%)") && svg.contains("medicine+9"));
}

/// The metric rows of a block, each once (a table split into parts of
/// variants repeats every row in each part), in order.
fn distinct_rows<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    let mut rows: Vec<&str> = Vec::new();
    for line in lines {
        if line.starts_with(' ') || line.starts_with("==") || line.starts_with("metric ") {
            continue;
        }
        if let Some(name) = line.split_whitespace().next() {
            if !rows.contains(&name) {
                rows.push(name);
            }
        }
    }
    rows
}

/// The block of `scenario` in the stdout table, from its `==` line to its footer.
fn block<'a>(stdout: &'a str, scenario: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with(&format!("== {scenario} (")))
        .take_while(|l| !l.starts_with("   p_* in percent"))
        .collect()
}

#[test]
fn the_injury_table_on_stdout_is_an_overview_and_the_csv_stays_complete() {
    let dir = tempfile::tempdir().unwrap();
    let run = |mode: &str, out: &std::path::Path| {
        let mut cmd = woundsim();
        cmd.args([mode, "lingering-injuries", "injury-costs"]);
        if mode == "run" {
            cmd.args(["--trials", "20000", "--seed", "3"]);
        }
        let out = cmd
            .arg("--out")
            .arg(out)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let stdout = run("run", dir.path());
    let exact_dir = dir.path().join("exact");
    let exact = run("exact", &exact_dir);
    let summary_path = dir.path().join("summary.csv");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    for scenario in ["lingering-injuries", "injury-costs"] {
        let lines = block(&stdout, scenario);
        assert!(
            lines.iter().all(|l| l.chars().count() <= 120),
            "{scenario}: wider than 120 columns"
        );
        // Was 160 rows: a Monte Carlo run shows the type's headline
        // metrics only (the table is split into parts of variants that fit
        // 120 columns, each part with every row).
        let rows = distinct_rows(&lines);
        assert!(rows.len() <= 15, "{scenario}: {} rows", rows.len());
        for headline in [
            "p_any_injury_campaign ",
            "mean_heal_gp_per_campaign ",
            "p_uncurable_per_injury ",
            "mean_heal_gp_per_campaign_diff ",
        ] {
            assert!(
                lines.iter().any(|l| l.starts_with(headline)),
                "{scenario}: no {headline}"
            );
        }
        assert!(
            !rows.iter().any(|r| r.contains("_entry_")),
            "{scenario}: an injury-table entry in the headline table"
        );
        assert!(
            lines.iter().any(|l| l.contains(" more figures in ")),
            "{scenario}: no note on the figures left out"
        );
        // Exact mode shows every figure: the top 5 entries, ranked by
        // their d100 ranges (the first five of the many entries of 5 in
        // 100, in table order), and a note on the rest.
        let lines = block(&exact, scenario);
        let rows = distinct_rows(&lines);
        let entries: Vec<&str> = rows
            .iter()
            .filter_map(|r| r.strip_prefix("p_entry_")?.strip_suffix("_per_event"))
            .collect();
        assert_eq!(
            entries,
            [
                "blurred_vision",
                "broken_arm_or_hand",
                "broken_leg_or_foot",
                "ringing_ears",
                "limp"
            ],
            "{scenario}"
        );
        assert!(rows.iter().filter(|r| r.contains("_entry_")).count() <= 25);
        let note = format!(
            "   ... 18 more injury-table entries (90 metrics) in {}",
            exact_dir.join("summary.csv").display()
        );
        assert!(lines.contains(&note.as_str()), "{scenario}: no `{note}`");
        // summary.csv has all five metrics of all 23 entries for every variant.
        let variant = summary
            .lines()
            .find(|l| l.starts_with(&format!("{scenario},")))
            .and_then(|l| l.split(',').nth(1))
            .unwrap();
        let prefix = format!("{scenario},{variant},");
        let in_csv = summary
            .lines()
            .filter(|l| l.starts_with(&prefix) && l.contains("_entry_"))
            .count();
        assert_eq!(in_csv, 23 * 5, "{scenario}/{variant}");
    }
}

#[test]
fn exact_mode_covers_the_injury_types() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .args([
            "exact",
            &fixture("scenarios/festering-wounds.toml"),
            "injury-costs",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("== festering-wounds (exact)"));
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    for line in summary.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!((cols[3], cols[3]), (cols[4], cols[5]), "{line}");
        assert_eq!(cols[6], "0");
    }
    assert!(summary.contains("festering-wounds,medicine+2,q50_max_hp_lost,23.0,23.0,23.0,0,0"));
}

#[test]
fn a_bad_injury_table_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = fixture("tests/scenarios/bad/injuries-overlapping-ranges.toml");
    woundsim()
        .args(["run", "lingering-injuries", &bad, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "{bad}:9:42: field `variant[0].override[0].d100`: d100 result 3 of `lose_an_eye` is also covered by `lose_an_arm_or_hand`"
        )));
    assert!(!dir.path().join("out").exists());
}

#[test]
fn list_prints_the_injury_table() {
    woundsim().arg("list").assert().success().stdout(
        predicate::str::contains("56-60  Festering wound")
            .and(predicate::str::contains("lingering-injuries"))
            .and(predicate::str::contains(
                "Scenario types: death_saves, injuries, festering",
            )),
    );
}

const VALID: &str = r#"version = 1
name = "p"
type = "injuries"
trials = 10
seed = 3
[options]
injury_chance = 0.1
override = [{ id = "limp", d100 = [31, 35], cures = [{ tag = "rest", days = 2 }] }]
[[variant]]
name = "a"
services = { cure_wounds = 5 }
"#;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_parser_never_panics_on_mutated_injury_scenarios(at in 0usize..VALID.len(), cut in 0usize..20, insert in "[ -~\n]{0,12}") {
        let text = mutate(VALID, at, cut, &insert);
        for kind in ["injuries", "festering"] {
            parses_or_names_the_file(&text.replace("\"injuries\"", &format!("\"{kind}\"")))?;
        }
    }
}

#[test]
fn good_fixture_keys_reach_the_rules() {
    use woundsim::dice::RollMode;
    use woundsim::rules::festering::{LostHp, MagicArrival, Timing};
    use woundsim::rules::injury_cures::{RestorationReading, spell_index};
    use woundsim::rules::lingering::{AppliesTo, Side};
    let load = |name: &str| {
        woundsim::types::load_file(
            common::catalog(),
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/scenarios/good")
                .join(name),
        )
        .unwrap()
    };
    let s = load("injuries-own-table.toml");
    let woundsim::types::Variants::Injuries(v) = &s.variants else {
        panic!("an injuries scenario");
    };
    let m = &v[0].rules;
    assert_eq!(
        (m.side, m.trigger.applies_to),
        (Side::Monster, AppliesTo::Monsters)
    );
    assert_eq!(
        (m.attacks_made, m.attacks_received, m.encounters),
        (2, 4, 10)
    );
    assert_eq!((m.crit_range, m.hit_need, m.crit_needs_hit), (19, 8, true));
    assert_eq!(
        (m.attack_roll, m.attacked_with),
        (RollMode::Disadvantage, RollMode::Advantage)
    );
    assert!(m.trigger.on_crit_hit && !m.trigger.on_crit_miss && v[1].rules.trigger.on_crit_miss);
    assert_eq!(
        (m.table.chance.p(), v[1].rules.table.chance.p()),
        (0.25, 0.5)
    );
    assert_eq!(m.table.entries.len(), 4);
    assert_eq!(m.table.entries[m.table.lookup(95)].id, "shattered_gear");
    let r = &m.resources;
    assert_eq!(r.spell_slots, [4, 2, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        r.healer_spells,
        vec![
            spell_index("cure_wounds").unwrap(),
            spell_index("lesser_restoration").unwrap()
        ]
    );
    assert_eq!(
        (r.potions, r.temple, r.market, r.medicine_bonus, r.max_hp),
        (2, true, false, Some(4), 40)
    );
    assert_eq!(
        (r.day_value_gp, r.restoration_reading),
        (1.5, RestorationReading::LesserRestoration)
    );
    let p = &m.prices;
    assert_eq!((p.potion_of_healing, p.items), (75.0, [30.0, 60.0, 1.0]));
    assert!(
        p.services
            .contains(&(spell_index("cure_wounds").unwrap(), 25.0))
    );
    assert!(
        p.services
            .contains(&(spell_index("regenerate").unwrap(), 8000.0))
    );
    assert!(
        p.materials
            .contains(&(spell_index("lesser_restoration").unwrap(), 50.0))
    );

    let s = load("festering-full.toml");
    let woundsim::types::Variants::Festering(v) = &s.variants else {
        panic!("a festering scenario");
    };
    let f = &v[0].rules;
    assert_eq!(f.curve, vec![10, 20, 40]);
    let r = f.rules;
    assert_eq!(
        (
            r.medicine_bonus,
            r.dc,
            r.roll,
            r.successes,
            r.hp_per_day,
            r.max_hp
        ),
        (3, 14, RollMode::Advantage, 8, 2, 30)
    );
    assert_eq!(
        (r.timing, r.lost_hp, r.tended),
        (Timing::AfterFirstDay, LostHp::UntilMagicalHealing, true)
    );
    assert_eq!(
        r.magic,
        MagicArrival::Daily(woundsim::dice::Chance::new(0.1).unwrap())
    );
    assert_eq!(v[1].rules.rules.magic, MagicArrival::Fixed(6));
    assert_eq!(v[2].rules.rules.magic, MagicArrival::Uniform(2, 9));
    assert_eq!(v[2].rules.rules.roll, RollMode::Disadvantage);
}

#[test]
fn combat_tables_show_the_injury_headline_and_every_entry_on_request() {
    let run = |metrics: Option<&str>| {
        let mut args = vec!["run", "combat-hobgoblins", "--trials", "5000"];
        if let Some(m) = metrics {
            args.extend(["--metrics", m]);
        }
        common::cli::stdout_of(&args).0
    };
    let stdout = run(None);
    let lines = block(&stdout, "combat-hobgoblins");
    let rows = distinct_rows(&lines);
    // Was 104 rows: every entry's rate and its difference, for 23 entries;
    // then 75 with the top 5 entries. Now the headline: whether some PC
    // takes a lingering injury, and its difference to RAW.
    assert!(rows.len() <= 15, "{} rows", rows.len());
    assert!(rows.contains(&"p_injury") && rows.contains(&"p_injury_diff"));
    assert!(
        !rows
            .iter()
            .any(|r| r.starts_with("p_injury_") && *r != "p_injury_diff"),
        "an injury-table entry in the headline table"
    );
    // --metrics prints every entry, with its difference.
    let stdout = run(Some("p_injury_*"));
    let lines = block(&stdout, "combat-hobgoblins");
    let rows = distinct_rows(&lines);
    let entry_rows = rows
        .iter()
        .filter(|r| r.starts_with("p_injury_") && **r != "p_injury_diff")
        .count();
    assert_eq!(entry_rows, 46, "23 entries, each with its _diff");
}
