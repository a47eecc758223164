//! Amputation and reattachment (docs/rules.md, limb damage): Monte Carlo against exact
//! mode at fixed seeds (deterministic: a failure is a real disagreement
//! beyond 4.5 standard errors), determinism across thread counts, and
//! independent closed-form checks of the exact solver.

use crate::common;

use common::{Tolerance, binomial_sigma, interval_sigma, run};
use woundsim::builtin;
use woundsim::results::ScenarioResult;

/// Every Monte Carlo figure and bin has an exact counterpart within 4.5 σ:
/// unconditional proportions by their binomial σ; conditional rates, means
/// and paired differences by the interval's own σ, floored at `1 / n` for
/// the degenerate intervals of rare events; shares of reattachment attempts
/// over the attempts' count; a floor of 1e-9 for rounding.
fn assert_agree(mc: &ScenarioResult, exact: &ScenarioResult) {
    let n = mc.trials as f64;
    common::assert_agree(
        mc,
        exact,
        &Tolerance {
            sigma: &|f, e| {
                let unconditional = f.metric.starts_with("p_")
                    && !f.metric.ends_with("_diff")
                    && !f.metric.ends_with("_if_severed");
                Some(if unconditional {
                    binomial_sigma(e, n)
                } else {
                    interval_sigma(mc, f).max(1.0 / n)
                })
            },
            floor: &|_| 1e-9,
            bin_trials: &|row| {
                let conditional = [
                    "heals_used",
                    "reattached_within_uses",
                    "spells_used",
                    "potions_used",
                ]
                .contains(&row.distribution.as_str());
                if conditional {
                    let attempts = mc
                        .figure(&row.variant, "p_severed_in_time")
                        .map_or(n, |f| f.estimate.value * n);
                    attempts.max(1.0)
                } else {
                    n
                }
            },
            bin_floor: 1e-9,
            missing_bin_is_zero: true,
        },
    );
}

#[test]
fn builtin_amputation_scenarios_agree_with_exact_mode() {
    for s in builtin::all(common::catalog()).unwrap() {
        if s.kind() != "amputation" {
            continue;
        }
        let exact = woundsim::types::solve(&s).expect("amputation has an exact solution");
        assert!(
            exact.is_exact()
                && exact.figures.iter().all(|f| {
                    f.estimate.low == f.estimate.value && f.estimate.high == f.estimate.value
                })
        );
        assert_agree(&run(&s, 300_000, 2), &exact);
    }
}

const UNUSUAL: &str = r#"
version = 1
name = "unusual"
type = "amputation"
trials = 1
seed = 4242
[options]
clock = "1d4"
max_rounds = 10
cutters = [{ name = "longsword", damage = "1d8+3", damage_type = "slashing", attack_bonus = 5 }]
[options.creature]
size = "large"
limb = "leg"
hp = 20
max_hp = 30
con_save = 1
ac = 15
at_zero_hp = "death_saves"
[options.poison]
damage = "7d6"
save_dc = 15
[options.reattach]
delay_minutes = "1d20+30"
healing = [
  { kind = "cure_wounds", slot = 2, modifier = 3, uses = 2, minutes = 5 },
  { kind = "potion_of_healing", uses = 2, target = "creature" },
  { kind = "potion_of_healing", uses = 3 },
]
[[variant]]
name = "willing"
[[variant]]
name = "helpless"
target = "helpless"
[[variant]]
name = "called-shot-champion"
target = "unwilling"
called_shots = true
cutters = [{ damage = "1d10+4", damage_type = "slashing", attack_bonus = 7, attacks = 2, crit_on = 19, roll = "disadvantage" }]
[[variant]]
name = "resistant-armored-vulnerable"
creature.resistances = ["slashing"]
creature.vulnerabilities = ["slashing"]
creature.armor = [{ covers = ["leg"], damage_reduction = 2, ac_bonus = 1 }]
creature.immunities = ["fire"]
[[variant]]
name = "sword-then-club"
allowed_types = ["slashing", "bludgeoning"]
cutters = [
  { damage = "1d4", damage_type = "slashing" },
  { damage = "1d6+2", damage_type = "bludgeoning" },
]
[[variant]]
name = "possessed-arm-fire"
purpose = "stop_possession"
allowed_types = ["slashing", "fire", "psychic"]
creature.limb = "arm"
clock = 2
cutters = [
  { damage = "2d6", damage_type = "fire" },
  { damage = "1d6", damage_type = "psychic" },
  { damage = "1d4", damage_type = "slashing" },
]
[[variant]]
name = "gargantuan-head"
purpose = "stop_possession"
creature.size = "gargantuan"
creature.limb = "head"
creature.head_amputable = true
creature.head_hp = 60
clock = 10
cutters = [{ damage = "2d6+5", damage_type = "slashing", attacks = 3 }]
"#;

#[test]
fn unusual_rule_sets_agree_with_exact_mode() {
    let s = woundsim::types::parse(common::catalog(), "unusual.toml", UNUSUAL).unwrap();
    let exact = woundsim::types::solve(&s).expect("amputation has an exact solution");
    assert_agree(&run(&s, 200_000, 2), &exact);
    // The possession variant reaches the disabled outcome, which serves it.
    let dis = exact
        .figure("possessed-arm-fire", "p_disabled_in_time")
        .unwrap()
        .estimate
        .value;
    let met = exact
        .figure("possessed-arm-fire", "p_purpose_met")
        .unwrap()
        .estimate
        .value;
    let sev = exact
        .figure("possessed-arm-fire", "p_severed_in_time")
        .unwrap()
        .estimate
        .value;
    assert!(
        dis > 0.5 && (met - dis - sev).abs() < 1e-12,
        "{dis} {met} {sev}"
    );
    // A club blow that takes the leg to 0 HP disables it (until the next
    // round's sword cut severs it); a disabled leg does not stop the poison.
    let club = |m: &str| exact.figure("sword-then-club", m).unwrap().estimate.value;
    assert!(club("p_disabled_in_time") > 0.0);
    assert!((club("p_purpose_met") - club("p_severed_in_time")).abs() < 1e-12);
}

#[test]
fn thread_count_never_changes_the_result() {
    let s = builtin::find(common::catalog(), "amputation")
        .unwrap()
        .unwrap();
    let one = run(&s, 70_000, 1);
    let three = run(&s, 70_000, 3);
    assert_eq!(one, three);
    let other_seed = {
        let mut t = s.clone();
        t.header.seed += 1;
        run(&t, 70_000, 2)
    };
    assert_ne!(one.figures, other_seed.figures);
}

#[test]
fn exact_race_matches_closed_forms() {
    // A willing Medium arm (5 HP) and a longsword (1d8+3, at least 4):
    // one blow severs unless it rolls a 1, so P(severed in round 1) = 7/8,
    // and two blows always do.
    let s = builtin::find(common::catalog(), "amputation")
        .unwrap()
        .unwrap();
    let exact = woundsim::types::solve(&s).expect("amputation has an exact solution");
    let get = |v: &str, m: &str| exact.figure(v, m).unwrap().estimate.value;
    assert!((get("medium-arm-longsword", "mean_rounds_to_sever") - 1.125).abs() < 1e-12);
    assert!((get("medium-arm-longsword", "p_severed_in_time") - 1.0).abs() < 1e-12);
    // A Medium leg (10 HP) in two longsword blows: P(2d8 + 6 >= 10) = 1 - P(2d8 <= 3) = 61/64.
    assert!((get("medium-leg-longsword", "p_severed_in_time") - 61.0 / 64.0).abs() < 1e-12);
    // A chain shirt covering only the arm does not protect the leg.
    assert_eq!(
        get("chain-shirt-leg-longsword", "p_severed_in_time"),
        get("medium-leg-longsword", "p_severed_in_time")
    );
    // Resistance halves (rounded down): 1d8+3 → 2..=5; the 5 HP arm falls in one
    // blow only on a 7 or 8 (1/4), in two unless both blows total < 5.
    let resistant = get("resistant-arm-longsword", "p_severed_in_time");
    // Two halved blows: each 2 (1/4: d8 of 1-2), 3 (1/4), 4 (1/4), 5 (1/4);
    // fail only with 2+2 = 4 < 5 → P = 1 - 1/16 = 15/16.
    assert!((resistant - 15.0 / 16.0).abs() < 1e-12, "{resistant}");
    // The venom: p_death = P(spread) · P(dead | spread).
    let spread = get("medium-leg-dagger", "p_poison_spread");
    assert!((spread - (1.0 - get("medium-leg-dagger", "p_severed_in_time"))).abs() < 1e-12);
}

#[test]
fn exact_reattachment_matches_closed_forms() {
    let s = builtin::find(common::catalog(), "reattachment")
        .unwrap()
        .unwrap();
    let exact = woundsim::types::solve(&s).expect("amputation has an exact solution");
    let get = |v: &str, m: &str| exact.figure(v, m).unwrap().estimate.value;
    // Two cure wounds (1d8+3 each) restore a 10 HP leg unless 2d8 < 4: 1 - 3/64.
    assert!((get("cure-wounds-x2", "p_reattached") - 61.0 / 64.0).abs() < 1e-12);
    // Three always do (at least 12).
    assert!((get("cure-wounds-x3", "p_reattached") - 1.0).abs() < 1e-12);
    assert_eq!(get("none", "p_reattached"), 0.0);
    assert!((get("none", "p_tragic_injury") - 1.0).abs() < 1e-12);
    // Healing the creature never restores the limb, whatever it costs.
    assert_eq!(get("potions-on-the-creature", "p_reattached"), 0.0);
    assert!((get("potions-on-the-creature", "mean_heal_gp") - 200.0).abs() < 1e-9);
    // The extended window saves the late cleric's limb every time.
    assert!((get("late-cleric-extended", "p_reattached") - 1.0).abs() < 1e-12);
    assert!(get("late-cleric-1-hour", "p_reattached") < 1.0);
}
