//! Positions in whole fights (docs/combat.md, "Positions"): a reduction to
//! the model without positions, the back line's protection, the issue's
//! "done means" party (a level-14 bard, druid, monk and paladin against an
//! adult red dragon and two monsters of the user's own bestiary), and
//! determinism across threads.

use crate::common;

use woundsim::engine::{Engine, NoProgress};

fn parse(text: &str) -> woundsim::types::Scenario {
    woundsim::types::parse(common::catalog(), "positions.toml", text)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Melee only, nobody heals, everyone within 5 feet from the start: no one
/// moves, no one provokes, no ranged attack is made and no one is attacked
/// while prone and up, so positions must change nothing at all, on the same
/// random numbers.
#[test]
fn at_zero_distance_a_melee_fight_is_the_fight_without_positions() {
    let s = parse(
        r#"version = 1
name = "zero"
type = "combat"
trials = 20000
seed = 3
[options]
party = [
  { template = "barbarian-3", name = "a" },
  { template = "barbarian-3", name = "b" },
]
monsters = [{ creature = "hobgoblin", count = 2, multiattack = ["longsword"] }, { creature = "ogre" }]
attack_downed = "sometimes"
when_party_falls = "finish_the_downed"
[[variant]]
name = "off"
[[variant]]
name = "on"
positions = true
start_distance = 0
back_line_distance = 0
"#,
    );
    let r = common::run(&s, 20_000, 2);
    let mut compared = 0;
    for f in r.figures.iter().filter(|f| f.variant == "off") {
        let on = r.figure("on", &f.metric).unwrap();
        assert_eq!(f.estimate, on.estimate, "{}", f.metric);
        compared += 1;
    }
    assert!(compared > 10);
    assert!(r.figure("off", "p_pc_death").unwrap().estimate.value > 0.01);
}

#[test]
fn the_back_line_protects_the_wizard_and_the_front_line_pays() {
    let s = parse(
        r#"version = 1
name = "lines"
type = "combat"
trials = 20000
seed = 4
[options]
party = [
  { template = "fighter-5", name = "fighter" },
  { template = "wizard-5", name = "wizard" },
]
monsters = [{ creature = "ogre", count = 2 }]
[[variant]]
name = "off"
[[variant]]
name = "on"
positions = true
[[variant]]
name = "past"
positions = true
move_past_front = true
"#,
    );
    let r = common::run(&s, 20_000, 2);
    let v = |variant: &str, metric: &str| r.figure(variant, metric).unwrap().estimate;
    let (off, on) = (v("off", "p_pc_down_wizard"), v("on", "p_pc_down_wizard"));
    assert!(
        on.high < off.low,
        "wizard down: {on:?} with lines, {off:?} without"
    );
    let (fighter_off, fighter_on) = (v("off", "p_pc_down_fighter"), v("on", "p_pc_down_fighter"));
    assert!(
        fighter_on.low > fighter_off.high,
        "{fighter_on:?} vs {fighter_off:?}"
    );
    // Moving past the front brings the ogres to the wizard again.
    let past = v("past", "p_pc_down_wizard");
    assert!(past.low > on.high, "{past:?} vs {on:?}");
}

const MY_MONSTERS: &str = r#"[ash-hound]
hp = 45
ac = 14
speed = { walk = 50 }
cr = "3"
xp = 700
attacks = [{ name = "bite", to_hit = 6, damage = "2d8+4", type = "piercing", rider = { dice = "2d6", type = "fire" } }]
multiattack = ["bite", "bite"]

[cinder-archer]
hp = 38
ac = 15
speed = { walk = 30 }
line = "back"
cr = "2"
xp = 450
attacks = [
  { name = "dagger", to_hit = 5, damage = "1d4+3", type = "piercing" },
  { name = "burning arrow", to_hit = 6, damage = "1d8+3", type = "fire", reach = "ranged" },
]
multiattack = ["burning arrow", "burning arrow"]
"#;

/// The combat-breadth issue's "done means": a GM's own level-14 party of a
/// bard, a druid, a monk and a paladin against an adult red dragon and two
/// custom monsters, with positions on, gets death and injury figures.
#[test]
fn a_level_14_party_fights_an_adult_red_dragon_and_its_own_monsters_with_positions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("my-monsters.toml"), MY_MONSTERS).unwrap();
    let scenario = dir.path().join("dragon.toml");
    std::fs::write(
        &scenario,
        r#"version = 1
name = "dragon-lair"
type = "combat"
trials = 20000
seed = 14
bestiary = ["my-monsters.toml"]
[options]
party = [
  { template = "bard-14", name = "bard" },
  { template = "druid-14", name = "druid", spells = ["healing_word", "cure_wounds", "mass_cure_wounds", "revivify"], diamonds = 1 },
  { template = "monk-14", name = "monk" },
  { template = "paladin-14", name = "paladin" },
]
monsters = [
  { creature = "adult-red-dragon" },
  { creature = "ash-hound" },
  { creature = "cinder-archer" },
]
positions = true
lingering_injuries = true
"#,
    )
    .unwrap();
    let s =
        woundsim::types::load_file(common::catalog(), &scenario).unwrap_or_else(|e| panic!("{e}"));
    let woundsim::types::Variants::Combat(variants) = &s.variants else {
        panic!("a combat scenario")
    };
    let enc = &variants[0].rules.encounter;
    assert_eq!(
        enc.party[2].speed,
        30 + 25,
        "the monk's Unarmored Movement at 14"
    );
    assert_eq!(enc.monsters[0].speed, 80, "the dragon flies at 80 ft");
    assert_eq!(enc.monsters[1].speed, 50);
    let r = common::run(&s, 20_000, 2);
    let v = |metric: &str| r.figure("base", metric).unwrap().estimate.value;
    for metric in ["p_pc_death", "p_pc_down", "p_injury", "p_party_win"] {
        let p = v(metric);
        assert!(p > 0.0 && p < 1.0, "{metric} = {p}");
    }
    for f in &r.figures {
        assert!(f.estimate.value.is_finite(), "{}", f.metric);
    }
    assert!(v("p_timeout") < 0.01);
}

#[test]
fn a_fight_with_positions_is_the_same_on_any_thread_count() {
    let s = parse(
        r#"version = 1
name = "threads"
type = "combat"
trials = 140000
seed = 5
[options]
party = [
  { template = "fighter-5", name = "fighter" },
  { template = "ranger-5", name = "ranger" },
  { template = "cleric-5", name = "cleric" },
]
monsters = [{ creature = "hobgoblin", count = 4 }, { creature = "goblin", count = 2, line = "back", multiattack = ["shortbow"] }]
positions = true
move_past_front = true
ranged_in_melee = "step_back"
lingering_injuries = true
"#,
    );
    let one = woundsim::types::simulate(&s, &Engine::new(1).unwrap(), &NoProgress).unwrap();
    let two = woundsim::types::simulate(&s, &Engine::new(2).unwrap(), &NoProgress).unwrap();
    common::assert_bit_identical(&one, &two);
}
