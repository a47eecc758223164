//! Clause tests of the campaign's spending: which spell heals which wound
//! under each setting, at which caster level and for how much gold, the
//! harsh *resurrection*'s either/or, the 10,000 gp *true resurrection*, and
//! the purchase policies.

use super::*;
use crate::combat::encounter::PartyState;
use crate::types::campaign::{CampaignVariant, HealWounds};

/// The one variant of a campaign scenario of `party` (classes) at
/// `level` with `extra` settings.
pub(crate) fn variant(party: &[&str], level: u8, extra: &str) -> CampaignVariant {
    let members: Vec<String> = party
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{{ class = \"{c}\", name = \"pc{i}\" }}"))
        .collect();
    let text = format!(
        "version = 1\nname = \"t\"\ntype = \"campaign\"\ntrials = 10\nseed = 1\n[options]\n\
         party = [{}]\nstart_level = {level}\nend_level = {level}\n\
         difficulty = \"low\"\nmonster_pool = [\"goblin-warrior\", \"ogre\"]\n{extra}\n",
        members.join(", ")
    );
    let scenario = crate::types::parse(crate::fixtures::catalog(), "t.toml", &text)
        .unwrap_or_else(|e| panic!("{e}"));
    match scenario.variants {
        crate::types::Variants::Campaign(mut v) => v.remove(0).rules,
        other => panic!("not a campaign: {}", other.kind()),
    }
}

/// The party of `v` at its first level, PC `pc` carrying `wounds`
/// (and dead when `dead`).
fn party_with(v: &CampaignVariant, pc: usize, wounds: &[Severity], dead: bool) -> PartyState {
    let enc = v.levels[0].party();
    let mut party = enc.fresh_party();
    party.set_for_tests(pc, WoundSlots::from_wounds(wounds.iter().copied()), dead);
    party
}

fn spells(p: &HealingPlan) -> Vec<&'static str> {
    p.castings.iter().map(|c| SPELLS[c.spell].name).collect()
}

#[test]
fn standard_minor_is_a_ritual_lesser_restoration_for_100_gp_from_a_3rd_level_cleric() {
    let v = variant(&["fighter", "cleric"], 3, "temple_spell_level = 0");
    let party = party_with(&v, 0, &[Severity::Minor], false);
    let p = wound_healing(&v, &party, 0, &providers(&v, &party), 1_000, 0).unwrap();
    assert_eq!(spells(&p), ["lesser_restoration"]);
    assert_eq!(gold(&p), 100);
    // A 2nd-level cleric casts no 2nd-level spell, and there is no temple.
    let v2 = variant(&["fighter", "cleric"], 2, "temple_spell_level = 0");
    let party = party_with(&v2, 0, &[Severity::Minor], false);
    assert_eq!(
        wound_healing(&v2, &party, 0, &providers(&v2, &party), 1_000, 0),
        None
    );
}

#[test]
fn standard_moderate_is_a_ritual_greater_restoration_for_500_gp_from_a_9th_level_caster() {
    let v = variant(&["fighter", "cleric"], 9, "temple_spell_level = 0");
    let party = party_with(&v, 0, &[Severity::Moderate], false);
    let p = wound_healing(&v, &party, 0, &providers(&v, &party), 10_000, 0).unwrap();
    assert_eq!((spells(&p), gold(&p)), (vec!["greater_restoration"], 500));
    let v8 = variant(&["fighter", "cleric"], 8, "temple_spell_level = 0");
    let party = party_with(&v8, 0, &[Severity::Moderate], false);
    assert_eq!(
        wound_healing(&v8, &party, 0, &providers(&v8, &party), 10_000, 0),
        None
    );
}

#[test]
fn standard_severe_is_resurrection_from_a_13th_level_caster_and_heals_every_wound() {
    let v = variant(&["fighter", "cleric"], 13, "temple_spell_level = 0");
    let party = party_with(&v, 0, &[Severity::Minor, Severity::Severe], false);
    let p = wound_healing(&v, &party, 0, &providers(&v, &party), 100_000, 0).unwrap();
    assert_eq!(spells(&p), ["resurrection"]);
    assert_eq!(gold(&p), 1_000, "resurrection's diamond");
    assert_eq!(healed_by(v.healing, &p, party.wounds(0)), party.wounds(0));
}

#[test]
fn harsh_minor_is_a_ritual_greater_restoration_for_300_gp() {
    let v = variant(
        &["fighter", "cleric"],
        9,
        "healing = \"harsh\"\ntemple_spell_level = 0",
    );
    let party = party_with(&v, 0, &[Severity::Minor], false);
    let p = wound_healing(&v, &party, 0, &providers(&v, &party), 10_000, 0).unwrap();
    assert_eq!((spells(&p), gold(&p)), (vec!["greater_restoration"], 300));
    // A 3rd-level cleric's lesser restoration does not heal it under harsh.
    let v3 = variant(
        &["fighter", "cleric"],
        3,
        "healing = \"harsh\"\ntemple_spell_level = 0",
    );
    let party = party_with(&v3, 0, &[Severity::Minor], false);
    assert_eq!(
        wound_healing(&v3, &party, 0, &providers(&v3, &party), 10_000, 0),
        None
    );
}

#[test]
fn harsh_resurrection_either_raises_or_heals_never_both() {
    let v = variant(
        &["fighter", "cleric"],
        13,
        "healing = \"harsh\"\ntemple_spell_level = 0",
    );
    // Raising a dead PC with a moderate wound: the wound stays.
    let party = party_with(&v, 0, &[Severity::Moderate], true);
    let dead_for = DeadFor(3_600);
    let p = raising(&v, &party, 0, &providers(&v, &party), 100_000, dead_for).unwrap();
    let raise_spell = spells(&p);
    assert!(raise_spell == ["raise_dead"] || raise_spell == ["resurrection"]);
    assert_eq!(healed_by(v.healing, &p, party.wounds(0)), WoundSlots::EMPTY);
    // Healing a living PC's moderate and minor wounds: one resurrection.
    let party = party_with(&v, 0, &[Severity::Minor, Severity::Moderate], false);
    let p = wound_healing(&v, &party, 0, &providers(&v, &party), 100_000, 0).unwrap();
    assert_eq!(spells(&p), ["resurrection"]);
    assert_eq!(healed_by(v.healing, &p, party.wounds(0)), party.wounds(0));
    // Under the standard setting a resurrection that raises heals every wound.
    let s = variant(&["fighter", "cleric"], 13, "temple_spell_level = 0");
    let party = party_with(&s, 0, &[Severity::Moderate], true);
    let long_dead = DeadFor(20 * 86_400);
    let p = raising(&s, &party, 0, &providers(&s, &party), 100_000, long_dead).unwrap();
    assert_eq!(spells(&p), ["resurrection"], "past raise dead's 10 days");
    assert_eq!(healed_by(s.healing, &p, party.wounds(0)), party.wounds(0));
}

#[test]
fn harsh_severe_is_true_resurrection_for_10000_gp_from_a_17th_level_cleric() {
    let v = variant(
        &["fighter", "cleric"],
        17,
        "healing = \"harsh\"\ntemple_spell_level = 0",
    );
    let party = party_with(&v, 0, &[Severity::Severe], false);
    let p = wound_healing(&v, &party, 0, &providers(&v, &party), 100_000, 0).unwrap();
    assert_eq!((spells(&p), gold(&p)), (vec!["true_resurrection"], 10_000));
    // A 16th-level cleric casts no 9th-level spell.
    let v16 = variant(
        &["fighter", "cleric"],
        16,
        "healing = \"harsh\"\ntemple_spell_level = 0",
    );
    let party = party_with(&v16, 0, &[Severity::Severe], false);
    assert_eq!(
        wound_healing(&v16, &party, 0, &providers(&v16, &party), 100_000, 0),
        None
    );
    // Raising with true resurrection costs 25,000 gp and heals everything.
    let party = party_with(&v, 0, &[Severity::Severe], true);
    let old = DeadFor(150 * 365 * 86_400);
    let p = raising(&v, &party, 0, &providers(&v, &party), 100_000, old).unwrap();
    assert_eq!((spells(&p), gold(&p)), (vec!["true_resurrection"], 25_000));
    assert_eq!(healed_by(v.healing, &p, party.wounds(0)), party.wounds(0));
}

#[test]
fn a_temple_casts_up_to_its_spell_level_at_its_fees() {
    // No caster in the party: the temple's raise dead (a 750 gp fee on the 500 gp diamond).
    let v = variant(&["fighter", "rogue"], 3, "temple_spell_level = 5");
    let party = party_with(&v, 0, &[], true);
    let p = raising(&v, &party, 0, &providers(&v, &party), 5_000, DeadFor(3_600)).unwrap();
    assert_eq!((spells(&p), gold(&p)), (vec!["raise_dead"], 1_250));
    // Not affordable: no plan.
    assert_eq!(
        raising(&v, &party, 0, &providers(&v, &party), 1_249, DeadFor(3_600)),
        None
    );
    // Its greater restoration heals a moderate wound: the 350 gp fee on top of the ritual's
    // 500 gp of materials.
    let party = party_with(&v, 0, &[Severity::Moderate], false);
    let p = wound_healing(&v, &party, 0, &providers(&v, &party), 5_000, 0).unwrap();
    assert_eq!((spells(&p), gold(&p)), (vec!["greater_restoration"], 850));
    // A temple of 4th-level spells raises nobody.
    let v4 = variant(&["fighter", "rogue"], 3, "temple_spell_level = 4");
    let party = party_with(&v4, 0, &[], true);
    assert_eq!(
        raising(
            &v4,
            &party,
            0,
            &providers(&v4, &party),
            100_000,
            DeadFor(3_600)
        ),
        None
    );
}

#[test]
fn a_dead_caster_casts_nothing() {
    let v = variant(&["fighter", "cleric"], 5, "temple_spell_level = 0");
    let mut party = party_with(&v, 0, &[Severity::Minor], false);
    assert_eq!(providers(&v, &party).len(), 1);
    party.set_for_tests(1, WoundSlots::EMPTY, true);
    assert!(providers(&v, &party).is_empty());
    assert_eq!(
        wound_healing(&v, &party, 0, &providers(&v, &party), 1_000, 0),
        None
    );
}

#[test]
fn the_purchase_policies() {
    let all = WoundSlots::from_wounds(Severity::ALL);
    assert_eq!(wounds_to_heal(HealWounds::WhenAffordable, all), all);
    assert_eq!(
        wounds_to_heal(HealWounds::SevereOnly, all),
        WoundSlots::from_wounds([Severity::Severe])
    );
    assert_eq!(wounds_to_heal(HealWounds::Never, all), WoundSlots::EMPTY);
    // Raising first keeps the reserve: 600 gp, a 500 gp reserve, a 100 gp
    // wound cannot be healed; healing first spends it.
    let v = variant(&["fighter", "cleric"], 3, "temple_spell_level = 0");
    let party = party_with(&v, 0, &[Severity::Minor], false);
    assert_eq!(
        wound_healing(&v, &party, 0, &providers(&v, &party), 550, 500),
        None
    );
    let h = variant(
        &["fighter", "cleric"],
        3,
        "temple_spell_level = 0\nfirst = \"heal\"",
    );
    assert!(wound_healing(&h, &party, 0, &providers(&h, &party), 550, 500).is_some());
    // Only part affordable: the most severe wound the purse heals alone.
    let v9 = variant(&["fighter", "cleric"], 9, "temple_spell_level = 0");
    let party = party_with(&v9, 0, &[Severity::Minor, Severity::Moderate], false);
    let p = wound_healing(&v9, &party, 0, &providers(&v9, &party), 550, 0).unwrap();
    assert_eq!(spells(&p), ["greater_restoration"]);
}

#[test]
fn the_tabulated_plans_are_the_planners_for_every_wound_set_and_living_caster() {
    for (extra, level) in [
        ("", 9),
        ("healing = \"harsh\"", 13),
        ("temple_spell_level = 0", 17),
    ] {
        let v = variant(&["cleric", "paladin", "fighter"], level, extra);
        let cache = &v.levels[0].healing;
        for dead in 0..4 {
            for set in 1..8usize {
                let wounds: Vec<Severity> = Severity::ALL
                    .into_iter()
                    .filter(|&s| set & (1 << s as usize) != 0)
                    .collect();
                let mut party = party_with(&v, 2, &wounds, false);
                for caster in 0..2 {
                    if dead & (1 << caster) != 0 {
                        party.set_for_tests(caster, WoundSlots::EMPTY, true);
                    }
                }
                let casters = providers(&v, &party);
                assert_eq!(
                    cached_reserve(&v, cache, &party),
                    reserve(v.healing, &casters, &v.prices)
                );
                for gold_left in [0, 300, 450, 1_000, 12_000, 100_000] {
                    for keep in [0, 500] {
                        assert_eq!(
                            cached_wound_healing(&v, cache, &party, 2, gold_left, keep),
                            wound_healing(&v, &party, 2, &casters, gold_left, keep),
                            "level {level} {extra}, dead {dead}, wounds {set}, {gold_left} gp"
                        );
                    }
                }
            }
        }
    }
}

/// SRD 5.1: *raise dead* and *resurrection* leave a −4 penalty; *revivify*
/// and *true resurrection* none; under either setting.
#[test]
fn the_return_penalty_is_the_raising_spells() {
    let penalty = |party: &[&str], level: u8, extra: &str, dead_for: DeadFor| {
        let v = variant(party, level, extra);
        let p = party_with(&v, 0, &[], true);
        let plan = raising(&v, &p, 0, &providers(&v, &p), 1_000_000, dead_for).unwrap();
        (spells(&plan), return_penalty(v.healing, &plan))
    };
    let temple = "temple_spell_level = 5";
    assert_eq!(
        penalty(&["fighter", "rogue"], 3, temple, DeadFor(3_600)),
        (vec!["raise_dead"], 4)
    );
    assert_eq!(
        penalty(&["fighter", "cleric"], 5, "", DeadFor(30)),
        (vec!["revivify"], 0)
    );
    let none = "temple_spell_level = 0";
    for healing in ["standard", "harsh"] {
        let extra = format!("{none}\nhealing = \"{healing}\"");
        assert_eq!(
            penalty(&["fighter", "cleric"], 13, &extra, DeadFor(20 * 86_400)),
            (vec!["resurrection"], 4)
        );
        assert_eq!(
            penalty(
                &["fighter", "cleric"],
                17,
                &extra,
                DeadFor(150 * 365 * 86_400)
            ),
            (vec!["true_resurrection"], 0)
        );
    }
}

/// A fixed party member is the same creature at every level of the career
/// and casts nothing out of combat; class members level up.
#[test]
fn a_fixed_member_stays_as_written_while_the_class_members_level_up() {
    let text = "version = 1\nname = \"t\"\ntype = \"campaign\"\ntrials = 10\nseed = 1\n[options]\n\
         party = [{ class = \"cleric\", name = \"c\" }, { fixed = { template = \"cleric-5\" }, name = \"veteran\" }]\n\
         start_level = 1\nend_level = 3\ndifficulty = \"low\"\nmonster_pool = [\"goblin-warrior\"]\n";
    let scenario = crate::types::parse(crate::fixtures::catalog(), "t.toml", text)
        .unwrap_or_else(|e| panic!("{e}"));
    let crate::types::Variants::Campaign(variants) = scenario.variants else {
        panic!("not a campaign");
    };
    let v = &variants[0].rules;
    let cleric_5 = crate::fixtures::catalog()
        .templates
        .template("cleric-5")
        .unwrap();
    for (k, plan) in v.levels.iter().enumerate() {
        let party = &plan.party().party;
        assert_eq!(party[0].level, k as u8 + 1);
        assert_eq!((party[1].level, party[1].max_hp), (5, cleric_5.max_hp));
        assert_eq!(party[1].name, "veteran");
    }
    assert_eq!(v.casters.iter().map(|c| c.pc).collect::<Vec<_>>(), [0]);
    assert_eq!(v.pc_names, ["c", "veteran"]);
}
