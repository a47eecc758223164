//! Combat end to end: the death-save figures of a lone dying PC match exact
//! mode, results do not depend on the thread count, and the shipped combat
//! scenarios run.

use crate::common;

use woundsim::builtin;
use woundsim::engine::stats::z_for_level;
use woundsim::engine::{Engine, NoProgress};
use woundsim::rules::death_saves::DeathSaveRules;
use woundsim::rules::permanent_wounds::WoundPolicy;

fn lone_dying_pc(policy: &str) -> woundsim::types::Scenario {
    let text = format!(
        r#"
        version = 1
        name = "lone-dying-pc"
        type = "combat"
        trials = 400000
        seed = 99
        [options]
        party = [{{ template = "fighter-1", name = "fighter", start_hp = 0 }}]
        monsters = [{{ creature = "training_dummy" }}]
        round_cap = 10
        wound_policy = "{policy}"
        "#
    );
    woundsim::types::parse(common::catalog(), "lone.toml", &text).unwrap()
}

fn exact(rules: &DeathSaveRules) -> [f64; 6] {
    let p = woundsim::rules::death_save_chain::solve(rules).probabilities();
    std::array::from_fn(|r| (r * 5..r * 5 + 5).map(|c| p[c]).sum())
}

fn check(mc: &woundsim::results::ScenarioResult, metric: &str, expected: f64) {
    let f = mc.figure("base", metric).unwrap();
    let sigma = (expected * (1.0 - expected) / mc.trials as f64).sqrt();
    assert!(
        (f.estimate.value - expected).abs() <= 4.5 * sigma + 1e-12,
        "{metric}: Monte Carlo {} vs exact {expected}",
        f.estimate.value
    );
}

#[test]
fn a_lone_dying_pc_matches_exact_death_saves() {
    let engine = Engine::new(2).unwrap();
    let mc = woundsim::types::simulate(&lone_dying_pc("never"), &engine, &NoProgress).unwrap();
    let e = exact(&DeathSaveRules::default());
    check(&mc, "p_pc_death", e[0]);
    check(&mc, "p_pc_death_fighter", e[0]);
    assert_eq!(mc.figure("base", "p_pc_down").unwrap().estimate.value, 1.0);
}

#[test]
fn a_lone_dying_pc_takes_permanent_wounds_as_exact_mode_says() {
    let engine = Engine::new(2).unwrap();
    let mc = woundsim::types::simulate(&lone_dying_pc("accept_least_severe"), &engine, &NoProgress)
        .unwrap();
    let e = exact(&DeathSaveRules {
        wound_policy: WoundPolicy::AcceptLeastSevere,
        ..Default::default()
    });
    check(&mc, "p_pc_death", 0.0);
    check(&mc, "p_permanent_wound_minor", e[3]);
    check(&mc, "p_permanent_wound_moderate", e[4]);
    check(&mc, "p_permanent_wound_severe", e[5]);
}

#[test]
fn combat_results_do_not_depend_on_threads() {
    let mut s = builtin::find(common::catalog(), "combat-hobgoblins")
        .unwrap()
        .unwrap();
    s.header.trials = 70_000; // two chunks
    let one = woundsim::types::simulate(&s, &Engine::new(1).unwrap(), &NoProgress).unwrap();
    let three = woundsim::types::simulate(&s, &Engine::new(3).unwrap(), &NoProgress).unwrap();
    common::assert_bit_identical(&one, &three);
    assert_eq!(one.distributions, three.distributions);
}

#[test]
fn shipped_combat_scenarios_run_and_are_sane() {
    let engine = Engine::new(2).unwrap();
    let z = z_for_level(0.95);
    assert!(z > 1.9);
    for mut s in builtin::all(common::catalog())
        .unwrap()
        .into_iter()
        .filter(|s| s.kind() == "combat")
    {
        s.header.trials = 3_000;
        let r = woundsim::types::simulate(&s, &engine, &NoProgress).unwrap();
        for f in &r.figures {
            assert!(
                f.estimate.value.is_finite(),
                "{}/{}/{}",
                r.scenario,
                f.variant,
                f.metric
            );
            if f.metric.starts_with("p_") && !f.metric.ends_with("_diff") {
                assert!((0.0..=1.0).contains(&f.estimate.value));
            }
        }
        // Permanent wounds never raise the death rate against RAW on the same rolls.
        if let Some(d) = r.figure("permanent-wounds", "p_pc_death_diff") {
            assert!(
                d.estimate.value <= 0.0,
                "{}: {}",
                r.scenario,
                d.estimate.value
            );
        }
    }
}

#[test]
fn more_hobgoblins_kill_more_pcs() {
    let mut s = builtin::find(common::catalog(), "combat-difficulty")
        .unwrap()
        .unwrap();
    s.header.trials = 20_000;
    let r = woundsim::types::simulate(&s, &Engine::new(2).unwrap(), &NoProgress).unwrap();
    let deaths: Vec<f64> = r
        .variants
        .iter()
        .map(|v| r.figure(v, "mean_pc_deaths").unwrap().estimate.value)
        .collect();
    // Deaths never fall (a level-5 party with its spells loses no one to
    // two or four), and the damage the PCs take grows with every pair.
    assert!(deaths.windows(2).all(|w| w[0] <= w[1]), "{deaths:?}");
    assert!(deaths[4] > deaths[0], "{deaths:?}");
    let hp_lost: Vec<f64> = r
        .variants
        .iter()
        .map(|v| r.figure(v, "mean_pc_hp_lost").unwrap().estimate.value)
        .collect();
    assert!(hp_lost.windows(2).all(|w| w[0] < w[1]), "{hp_lost:?}");
}

#[test]
fn critical_hits_off_reaches_the_rules_and_no_pc_takes_a_crit() {
    let text = r#"
        version = 1
        name = "no-crits"
        type = "combat"
        trials = 20000
        seed = 7
        [options]
        party = [{ template = "fighter-5", name = "fighter" }, { template = "wizard-5", name = "wizard" }]
        monsters = [{ creature = "hobgoblin", count = 4 }]
        [[variant]]
        name = "raw"
        [[variant]]
        name = "no-crits"
        critical_hits = false
        "#;
    let s = woundsim::types::parse(common::catalog(), "no-crits.toml", text).unwrap();
    let woundsim::types::Variants::Combat(v) = &s.variants else {
        panic!("a combat scenario");
    };
    assert!(v[0].rules.encounter.rules.critical_hits && !v[1].rules.encounter.rules.critical_hits);
    let r = woundsim::types::simulate(&s, &Engine::new(2).unwrap(), &NoProgress).unwrap();
    let crits = |v: &str| r.figure(v, "mean_crits_taken").unwrap().estimate.value;
    assert!(crits("raw") > 0.0);
    assert_eq!(crits("no-crits"), 0.0);
}

#[test]
fn exact_mode_refuses_combat() {
    let s = builtin::find(common::catalog(), "combat-ogres")
        .unwrap()
        .unwrap();
    let err = woundsim::types::solve(&s).unwrap_err().to_string();
    assert!(err.contains("have no exact solution"), "{err}");
}

#[test]
fn a_combat_scenario_can_replace_and_override_the_injury_table() {
    // One entry covering the whole d100 whose action-loss save (DC 30) is
    // always failed: an injured creature never acts again.
    let text = r#"
        version = 1
        name = "custom-table"
        type = "combat"
        trials = 20000
        seed = 5
        [options]
        party = [{ template = "fighter-3", name = "fighter" }]
        monsters = [{ creature = "orc", count = 2 }]
        lingering_injuries = true
        injury_chance = 1.0
        table = [
          { id = "concussion", name = "Concussion", d100 = [1, 100], effects = [{ tag = "action_loss_save", ability = "constitution", dc = 30, when = "always" }], cures = [] },
        ]
        [[variant]]
        name = "deadly"
        [[variant]]
        name = "harmless"
        override = [
          { id = "concussion", name = "Concussion", d100 = [1, 100], effects = [], cures = [] },
        ]
    "#;
    let s = woundsim::types::parse(common::catalog(), "custom.toml", text).unwrap();
    let engine = Engine::new(2).unwrap();
    let r = woundsim::types::simulate(&s, &engine, &NoProgress).unwrap();
    let value = |v: &str, m: &str| r.figure(v, m).unwrap().estimate.value;
    assert!(r.figure("deadly", "p_injury_lose_an_eye").is_none());
    for v in ["deadly", "harmless"] {
        assert!(value(v, "p_injury") > 0.1, "{v}: crits and fumbles happen");
        assert_eq!(value(v, "p_injury_concussion"), value(v, "p_injury"), "{v}");
    }
    // The overridden entry has no effect, so the party wins more often.
    let diff = r.figure("harmless", "p_party_win_diff").unwrap().estimate;
    assert!(diff.low > 0.0, "{diff:?}");
}

#[test]
fn called_shots_produce_the_limb_metrics_with_intervals() {
    // Orcs (greataxes, slashing) against a fighter; only the second variant
    // aims at limbs, and the limb metrics are reported for both.
    let text = r#"
        version = 1
        name = "called-shots"
        type = "combat"
        trials = 20000
        seed = 11
        [options]
        party = [{ template = "fighter-5", name = "fighter" }, { template = "rogue-5", name = "rogue" }]
        monsters = [{ creature = "orc", count = 3 }]
        [[variant]]
        name = "raw"
        [[variant]]
        name = "aimed"
        called_shots = "both"
        called_shot_penalty = 2
        called_shot_limb = "random"
        "#;
    let s = woundsim::types::parse(common::catalog(), "called.toml", text).unwrap();
    let woundsim::types::Variants::Combat(v) = &s.variants else {
        panic!("a combat scenario");
    };
    let shots = v[1].rules.encounter.rules.called_shots.unwrap();
    assert_eq!(shots.penalty, 2);
    assert!(v[0].rules.encounter.rules.called_shots.is_none());
    let r = woundsim::types::simulate(&s, &Engine::new(2).unwrap(), &NoProgress).unwrap();
    for metric in [
        "mean_limbs_severed",
        "mean_pc_limbs_severed",
        "p_pc_limb_severed",
        "p_pc_limb_severed_fighter",
        "p_pc_limb_severed_rogue",
    ] {
        assert_eq!(
            r.figure("raw", metric).unwrap().estimate.value,
            0.0,
            "{metric}"
        );
        let e = r.figure("aimed", metric).unwrap().estimate;
        assert!(e.low < e.value && e.value < e.high, "{metric}: {e:?}");
    }
    assert!(r.figure("aimed", "mean_limbs_severed_diff").is_some());
    // A scenario in which nobody aims reports none of them.
    let plain = text.replace("called_shots = \"both\"", "called_shots = \"never\"");
    let s = woundsim::types::parse(common::catalog(), "plain.toml", &plain).unwrap();
    let r = woundsim::types::simulate(&s, &Engine::new(2).unwrap(), &NoProgress).unwrap();
    assert!(r.figure("aimed", "mean_limbs_severed").is_none());
}

#[test]
fn called_shots_at_a_dummy_sever_as_many_arms_as_the_hits_allow() {
    // A fighter-1 aims at a training dummy's arms (Medium: 5 HP each) for
    // three rounds; every hit of its longsword (at least 6) severs one, so
    // the arms severed are min(Binomial(3, p), 2), p the chance to hit AC 10
    // with the penalty.
    let text = r#"
        version = 1
        name = "dummy-arms"
        type = "combat"
        trials = 200000
        seed = 13
        [options]
        party = [{ template = "fighter-1", name = "fighter" }]
        monsters = [{ creature = "training_dummy" }]
        round_cap = 3
        called_shots = "pcs"
        "#;
    let s = woundsim::types::parse(common::catalog(), "dummy.toml", text).unwrap();
    let woundsim::types::Variants::Combat(v) = &s.variants else {
        panic!("a combat scenario");
    };
    let enc = &v[0].rules.encounter;
    let sword = &enc.party[0].attacks[0];
    assert!(sword.damage.count as i32 + sword.damage.modifier >= 5);
    let penalty = enc.rules.called_shots.unwrap().penalty;
    assert_eq!(penalty, 5, "the default");
    let hits = (2..=19)
        .filter(|n| n + sword.to_hit - penalty >= enc.monsters[0].ac)
        .count()
        + 1;
    let p = hits as f64 / 20.0;
    let (p0, p1) = ((1.0 - p).powi(3), 3.0 * p * (1.0 - p).powi(2));
    let mean = p1 + 2.0 * (1.0 - p0 - p1);
    let var = p1 + 4.0 * (1.0 - p0 - p1) - mean * mean;
    let r = woundsim::types::simulate(&s, &Engine::new(2).unwrap(), &NoProgress).unwrap();
    let got = r
        .figure("base", "mean_limbs_severed")
        .unwrap()
        .estimate
        .value;
    let sigma = (var / r.trials as f64).sqrt();
    assert!(
        (got - mean).abs() <= 4.5 * sigma,
        "Monte Carlo {got} vs exact {mean}"
    );
    assert_eq!(
        r.figure("base", "mean_pc_limbs_severed")
            .unwrap()
            .estimate
            .value,
        0.0
    );
}
