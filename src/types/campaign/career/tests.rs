//! Clause tests of the career's days: festering wounds day by day against
//! the exact tending process, the max HP they take coming back as the
//! option says, rest cures taking their days of downtime, the healer's
//! slots on injuries at the end of a day, raising closing mortal wounds,
//! the dead carried back from a far site and the raise-dead time limit,
//! replacements a level behind, and potions restocked by rarity.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::types::campaign::spending::tests::variant;

/// A career of `v` at its first level, on `seed`.
fn career_of<'c>(
    v: &'c CampaignVariant,
    rng: &'c mut Xoshiro256PlusPlus,
    arena: &'c mut Arena,
    out: &'c mut CareerOutcome,
) -> Career<'c, 'c, Xoshiro256PlusPlus> {
    out.reset(v.levels.len(), v.calendar.career_days(v.levels.len()));
    Career {
        v,
        rng,
        arena,
        sharing: Sharing::none(),
        out,
        stop: Stop::never(),
        party: v.levels[0].party().fresh_party(),
        pcs: [PcTrack::default(); MAX_PCS],
        purse: v.starting_gold,
        today: 0,
        day_index: 0,
        level_index: 0,
    }
}

impl Career<'_, '_, Xoshiro256PlusPlus> {
    /// The first PC takes a festering wound (injury `festering`, the
    /// table's index) and the party tends it at once.
    fn festering_wound_on_first_pc(&mut self, enc: &Encounter, festering: u8) {
        enc.give_injury_for_tests(&mut self.party, 0, festering);
        self.tend_new_festering(enc);
    }
}

/// The index of injury `id` in the variant's injury table.
fn entry(v: &CampaignVariant, id: &str) -> u8 {
    let table = v.injuries.as_ref().expect("lingering injuries on");
    table.entries.iter().position(|e| e.id == id).unwrap() as u8
}

/// Lingering injuries on, no gold, no temple: what the party's own means do.
const POOR: &str = "starting_gold = 0\ntreasure = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n\
    temple_spell_level = 0\n[options.fights]\nlingering_injuries = true\n";

/// A festering wound tended by the party's best Medicine, at once and
/// every day, closes at the tenth success: on check N it has cost N − 1
/// max HP (docs/rules.md), N a negative binomial — the mean and the
/// spread of 20,000 careers' losses against the exact ones (4.5 sigma).
#[test]
fn a_festering_wound_costs_max_hp_daily_until_the_tenth_tending_success() {
    let v = variant(&["fighter", "rogue"], 10, POOR);
    let plan = &v.levels[0];
    let enc = plan.party();
    let bonus = enc.party.iter().map(|c| c.medicine).max().unwrap();
    let p = (1..=20).filter(|n| n + bonus >= 15).count() as f64 / 20.0;
    let festering = entry(&v, "festering_wound");
    let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
    let n = 20_000;
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    for seed in 0..n {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
        c.festering_wound_on_first_pc(enc, festering);
        let full = c.party.max_hp(0);
        assert!(c.downtime(plan).is_ok());
        let lost = c.out.festering_hp as f64;
        // Tended until closed: the days in town are the days it festered.
        assert_eq!(c.out.town_days as f64, lost);
        assert_eq!(c.out.downtime_days as f64, lost);
        assert!(c.party.injuries(0).is_empty(), "closed");
        // The max HP comes back after the next long rest.
        assert_eq!(c.party.max_hp(0), full - lost as i32, "not before");
        c.rest(enc);
        assert_eq!(c.party.max_hp(0), full, "back after a long rest");
        sum += lost;
        sum_sq += lost * lost;
    }
    let (mean, var) = (sum / n as f64, sum_sq / n as f64 - (sum / n as f64).powi(2));
    let exact_mean = 10.0 / p - 1.0;
    let exact_var = 10.0 * (1.0 - p) / (p * p);
    let sigma = (exact_var / n as f64).sqrt();
    assert!(
        (mean - exact_mean).abs() < 4.5 * sigma,
        "{mean} against {exact_mean} ± {sigma}"
    );
    assert!(
        (var / exact_var - 1.0).abs() < 0.05,
        "{var} against {exact_var}"
    );
}

/// `festering_lost_hp = "until_magical_healing"`: the max HP stays lost
/// after the wound closes by tending, until magical healing — bought in
/// the next downtime when the purse allows.
#[test]
fn max_hp_lost_to_festering_can_wait_for_magical_healing() {
    let v = variant(
        &["fighter", "rogue"],
        10,
        &format!("festering_lost_hp = \"until_magical_healing\"\n{POOR}"),
    );
    let plan = &v.levels[0];
    let enc = plan.party();
    let festering = entry(&v, "festering_wound");
    let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
    let full = c.party.max_hp(0);
    c.festering_wound_on_first_pc(enc, festering);
    assert!(c.downtime(plan).is_ok());
    let lost = c.out.festering_hp as i32;
    assert!(lost > 0);
    c.rest(enc);
    assert_eq!(c.party.max_hp(0), full - lost, "still lost after a rest");
    // Gold for a potion of healing (no healer, no temple): it comes back.
    c.purse = 50;
    assert!(c.downtime(plan).is_ok());
    assert_eq!(c.party.max_hp(0), full);
    assert_eq!((c.purse, c.out.gold_injuries), (0, 50));
}

/// A festering wound kills when the max HP it takes reaches 0: a level-1
/// wizard alone on the road, with fewer max HP than the ten checks that
/// could close it (it dies on its last day of max HP, before that day's
/// check).
#[test]
fn a_festering_wound_kills_at_zero_max_hp() {
    let v = variant(&["wizard"], 1, &format!("replace_dead = \"never\"\n{POOR}"));
    let plan = &v.levels[0];
    let enc = plan.party();
    let festering = entry(&v, "festering_wound");
    let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
    let mut deaths = 0;
    for seed in 0..200 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
        let max_hp = c.party.max_hp(0);
        c.festering_wound_on_first_pc(enc, festering);
        let mut result = Ok(());
        for _ in 0..max_hp {
            result = c.end_of_day(enc, false);
            if result.is_err() {
                break;
            }
        }
        if c.party.is_dead(0) {
            deaths += 1;
            assert!(matches!(result, Err(End::Tpk)));
            assert_eq!(c.out.festering_deaths, 1);
            assert_eq!(c.out.festering_hp, max_hp as u64);
        }
    }
    assert!(max_hp_of_wizard_1() < 10);
    assert_eq!(deaths, 200);
}

/// Blurred vision needs 3 days of nothing but rest: a downtime as long as
/// the cures need lasts 3 days and cures it; a 2-day downtime does not
/// start it; a party that spends no downtime on rest cures keeps it.
#[test]
fn rest_cures_take_their_days_of_downtime() {
    for (extra, cured, town) in [
        ("", true, 3),
        ("downtime_days = 2\n", false, 2),
        ("downtime_days = 5\n", true, 5),
        ("rest_cures = false\n", false, 0),
    ] {
        let v = variant(&["fighter", "rogue"], 3, &format!("{extra}{POOR}"));
        let plan = &v.levels[0];
        let blurred = entry(&v, "blurred_vision");
        let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
        plan.party().give_injury_for_tests(&mut c.party, 1, blurred);
        assert!(c.downtime(plan).is_ok());
        assert_eq!(c.party.injuries(1).is_empty(), cured, "{extra}");
        assert_eq!(c.out.town_days, town, "{extra}");
        assert_eq!(c.out.downtime_days, if cured { 3 } else { 0 }, "{extra}");
    }
}

/// At the end of a day the healer spends the slots it has left on the
/// injuries its spells cure (a limp: any magical healing, *cure wounds*),
/// unless the policy keeps its spells for downtime.
#[test]
fn the_healer_spends_its_slots_left_on_injuries_at_the_end_of_a_day() {
    for (policy, cured) in [
        ("after_each_day", true),
        ("downtime", false),
        ("never", false),
    ] {
        let v = variant(
            &["fighter", "cleric"],
            3,
            &format!("injury_spells = \"{policy}\"\n{POOR}"),
        );
        let enc = v.levels[0].party();
        let limp = entry(&v, "limp");
        let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
        enc.give_injury_for_tests(&mut c.party, 0, limp);
        let slots = c.party.slots(1);
        if cured {
            c.spend_slots_on_injuries(enc);
            assert!(c.party.injuries(0).is_empty(), "{policy}");
            assert_eq!(c.party.slots(1)[0], slots[0] - 1, "one 1st-level slot");
        }
        assert!(c.end_of_day(enc, true).is_ok());
        assert_eq!(c.party.injuries(0).is_empty(), cured, "{policy}");
    }
}

/// Without a slot left the healer casts nothing: the injury waits.
#[test]
fn a_healer_without_slots_cures_nothing_at_the_end_of_a_day() {
    let v = variant(&["fighter", "cleric"], 1, POOR);
    let enc = v.levels[0].party();
    let limp = entry(&v, "limp");
    let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
    enc.give_injury_for_tests(&mut c.party, 0, limp);
    while c.party.spend_slot(1, 1).is_some() {}
    c.spend_slots_on_injuries(enc);
    assert_eq!(c.party.injuries(0), &[limp]);
}

/// *Raise dead* closes all mortal wounds (SRD 5.1): a PC killed by a
/// festering wound comes back without it, its max HP whole.
#[test]
fn raising_closes_the_festering_wound_that_killed() {
    let v = variant(
        &["fighter", "cleric"],
        9,
        "starting_gold = 5000\n[options.fights]\nlingering_injuries = true\n",
    );
    let enc = v.levels[0].party();
    let festering = entry(&v, "festering_wound");
    let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
    let full = c.party.max_hp(0);
    c.festering_wound_on_first_pc(enc, festering);
    assert_eq!(c.pcs[0].n_fester, 1);
    // Five days of festering, then death (from the fights, say).
    assert!(!enc.lose_max_hp(&mut c.party, 0, 5));
    c.pcs[0].fester[0].lost = 5;
    c.party.kill(0);
    c.today = 1;
    c.count_deaths();
    c.raise_or_replace(enc, true);
    assert!(!c.party.is_dead(0));
    assert_eq!(c.out.raises, 1);
    assert!(c.party.injuries(0).is_empty());
    assert_eq!(c.pcs[0].n_fester, 0);
    assert_eq!(c.party.max_hp(0), full);
}

/// With the site days away the temple is out of reach: a PC killed there
/// is carried back and raised in town, unless it has been dead longer
/// than *raise dead*'s ten days and no 7th-level spell is at hand — then
/// it is replaced.
#[test]
fn the_dead_are_carried_back_and_raised_within_the_spells_time_limit() {
    for (travel, raised) in [(3, true), (12, false)] {
        let v = variant(
            &["fighter", "rogue"],
            5,
            &format!("travel_days = {travel}\nstarting_gold = 100000\n"),
        );
        let plan = &v.levels[0];
        let enc = plan.party();
        let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
        c.party.kill(1);
        // The day it died, then the road back.
        assert!(c.end_of_day(enc, false).is_ok());
        assert!(c.party.is_dead(1), "no caster raises it in the field");
        assert!(c.travel(plan).is_ok());
        assert!(c.party.is_dead(1), "nor on the road");
        assert!(c.downtime(plan).is_ok());
        assert!(!c.party.is_dead(1));
        assert_eq!(
            (c.out.raises, c.out.replacements),
            if raised { (1, 0) } else { (0, 1) },
            "travel {travel}"
        );
    }
}

/// `replace_dead = "level_below"`: the replacement joins a level behind
/// and stays behind after the party levels up.
#[test]
fn a_replacement_joins_a_level_below_and_stays_behind() {
    let text = "replace_dead = \"level_below\"\nraise_dead = false\n";
    let mut v = variant(&["fighter", "cleric"], 4, text);
    let next = variant(&["fighter", "cleric"], 5, text).levels.remove(0);
    v.levels.push(next);
    let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
    let enc = v.levels[0].party();
    c.party.kill(1);
    c.count_deaths();
    c.raise_or_replace(enc, true);
    assert_eq!((c.party.level(1), c.party.is_below(1)), (3, true));
    assert_eq!(
        c.party.max_hp(1),
        crate::fixtures::catalog()
            .templates
            .template("cleric-3")
            .unwrap()
            .max_hp
    );
    assert!(!c.pcs[1].original);
    // The milestone: the party to 5, the replacement to 4.
    c.rest(v.levels[1].party());
    assert_eq!((c.party.level(0), c.party.level(1)), (5, 4));
    let cleric_4 = crate::fixtures::catalog()
        .templates
        .template("cleric-4")
        .unwrap();
    assert_eq!(c.party.max_hp(1), cleric_4.max_hp);
    // It casts as a 4th-level cleric: its slots are the template's.
    assert_eq!(c.party.slots(1), cleric_4.spell_slots());
}

/// Potions by rarity, each at its price, in party order while the purse
/// pays: `{ healing = 2, greater_healing = 1 }` at 50 and 150 gp.
#[test]
fn potions_are_restocked_by_rarity_at_their_prices() {
    let v = variant(
        &["fighter", "rogue"],
        3,
        "restock_potions = { healing = 2, greater_healing = 1 }\nstarting_gold = 380\n\
         potion_prices = { greater_healing = 180 }\n",
    );
    let (mut arena, mut out) = (Arena::default(), CareerOutcome::default());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut c = career_of(&v, &mut rng, &mut arena, &mut out);
    c.restock_potions();
    // The fighter: 2 × 50 + 180 = 280; the rogue: 2 × 50, then no 180.
    assert_eq!(c.party.potions(0), [2, 1, 0, 0]);
    assert_eq!(c.party.potions(1), [2, 0, 0, 0]);
    assert_eq!((c.purse, c.out.gold_potions), (0, 380));
}

fn max_hp_of_wizard_1() -> i32 {
    crate::fixtures::catalog()
        .templates
        .template("wizard-1")
        .unwrap()
        .max_hp
}
