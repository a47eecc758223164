//! The campaign loop against cases with known answers: a one-fight career
//! is the combat type's trial on the same random numbers (deaths, wins and
//! the treasure they bring), a career of no fights costs nothing, and the
//! results are the same for any thread count.

use crate::engine::Engine;
use crate::results::ScenarioResult;

/// Runs scenario text on `threads` threads.
fn run(text: &str, threads: usize) -> ScenarioResult {
    let scenario = crate::types::parse(crate::fixtures::catalog(), "t.toml", text)
        .unwrap_or_else(|e| panic!("{e}"));
    let engine = Engine::new(threads).unwrap();
    crate::types::simulate(&scenario, &engine, &crate::engine::NoProgress).unwrap()
}

fn figure(r: &ScenarioResult, variant: &str, metric: &str) -> f64 {
    r.figures
        .iter()
        .find(|f| f.variant == variant && f.metric == metric)
        .unwrap_or_else(|| panic!("no {variant} {metric}"))
        .estimate
        .value
}

const HEADER: &str = "version = 1\nname = \"t\"\ntrials = 3000\nseed = 99\n";

const PARTY: &str =
    "party = [{ class = \"fighter\", name = \"a\" }, { class = \"rogue\", name = \"b\" }]";

#[test]
fn a_one_fight_career_is_the_combat_trial_on_the_same_dice() {
    let campaign = run(
        &format!(
            "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\nstart_level = 3\nend_level = 3\n\
             days_per_level = 1\nfights_per_day = 1\ndifficulty = \"high\"\n\
             monster_pool = [\"ogre\", \"goblin-warrior\"]\ntreasure = [{}]\nraise_dead = false\nreplace_dead = \"never\"\n\
             [options.fights]\nwound_policy = \"accept_least_severe\"\n\
             attack_downed = \"always\"\nwhen_party_falls = \"finish_the_downed\"\n",
            ["7"; 20].join(", ")
        ),
        1,
    );
    let combat = run(
        &format!(
            "{HEADER}type = \"combat\"\n[options]\n\
             party = [{{ template = \"fighter-3\", name = \"a\" }}, {{ template = \"rogue-3\", name = \"b\" }}]\n\
             difficulty = \"high\"\nmonster_pool = [\"ogre\", \"goblin-warrior\"]\n\
             wound_policy = \"accept_least_severe\"\n\
             attack_downed = \"always\"\nwhen_party_falls = \"finish_the_downed\"\n"
        ),
        1,
    );
    let c = |m: &str| figure(&combat, "base", m);
    let k = |m: &str| figure(&campaign, "base", m);
    assert!(c("p_pc_death") > 0.05, "the case must have deaths");
    assert_eq!(k("p_pc_death"), c("p_pc_death"));
    assert_eq!(k("deaths_per_pc") * 2.0, c("mean_pc_deaths"));
    // A PC alive after the level: not dead in the fight.
    assert!((k("share_alive_level_3") * 2.0 - (2.0 - c("mean_pc_deaths"))).abs() < 1e-12);
    // Treasure: 7 gp per fight won, shared by 2 PCs.
    assert!((k("treasure_per_pc") - 3.5 * c("p_party_win")).abs() < 1e-12);
    // Wounds taken: the fight's.
    let wounds: f64 = ["minor", "moderate", "severe"]
        .iter()
        .map(|s| k(&format!("wounds_taken_per_pc_{s}")) * 2.0)
        .sum();
    assert!(wounds > 0.0);
    // A TPK: both PCs dead.
    assert!(k("p_tpk") <= k("p_pc_death"));
}

#[test]
fn the_same_careers_on_any_thread_count() {
    let text = format!(
        "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\nstart_level = 1\nend_level = 4\n\
         difficulty = \"moderate\"\nmonster_pool = [\"ogre\", \"goblin-warrior\"]\n\
         [options.fights]\nwound_policy = \"accept_least_severe\"\n\
         [[variant]]\nname = \"standard\"\n[[variant]]\nname = \"harsh\"\nhealing = \"harsh\"\n"
    );
    let one = run(&text, 1);
    let two = run(&text, 2);
    assert_eq!(one.figures, two.figures);
    // Standard and harsh see the same dice until healing differs: the
    // first level's deaths are the same.
    assert_eq!(
        figure(&one, "harsh", "share_alive_level_1_diff"),
        0.0,
        "no healing decision before the first level ends"
    );
}

#[test]
fn a_party_that_never_dies_or_is_wounded_spends_nothing() {
    // Four 10th-level PCs against the least budget of goblins.
    let r = run(
        &format!(
            "{HEADER}type = \"campaign\"\n[options]\n\
             party = [{{ class = \"fighter\", name = \"a\" }}, {{ class = \"paladin\", name = \"b\" }}]\n\
             start_level = 10\nend_level = 10\ndifficulty = 50\nmonster_pool = [\"goblin-warrior\"]\n"
        ),
        1,
    );
    let k = |m: &str| figure(&r, "base", m);
    assert_eq!(k("p_pc_death"), 0.0);
    assert_eq!(k("gold_spent_per_pc"), 0.0);
    assert_eq!(k("share_alive_level_10"), 1.0);
    assert_eq!(k("share_end_healthy"), 1.0);
    // 2 days of 2 fights, all won, at 500 gp a fight (the default table at level 10), 2 PCs.
    assert_eq!(k("treasure_per_pc"), 4.0 * 500.0 / 2.0);
}

#[test]
fn potions_are_restocked_in_party_order_while_the_purse_pays() {
    // Two level-10 PCs against one goblin warrior: nobody drops, so nobody
    // is fed a potion; no treasure, so only the starting purse pays.
    let text = |gold: u64| {
        format!(
            "{HEADER}type = \"campaign\"\n[options]\n\
             party = [{{ class = \"fighter\", name = \"a\" }}, {{ class = \"paladin\", name = \"b\" }}]\n\
             start_level = 10\nend_level = 11\ndifficulty = 50\nmonster_pool = [\"goblin-warrior\"]\n\
             treasure = [{}]\nstarting_gold = {gold}\nrestock_potions = 3\n",
            ["0"; 20].join(", ")
        )
    };
    // Enough gold: three 50 gp potions each after level 10, none after 11.
    let r = run(&text(1_000), 1);
    assert_eq!(figure(&r, "base", "p_pc_death"), 0.0);
    assert_eq!(figure(&r, "base", "gold_potions_per_pc"), 150.0);
    assert_eq!(figure(&r, "base", "gold_spent_per_pc"), 150.0);
    // 120 gp: two for the first PC (100 gp), none for the second.
    let r = run(&text(120), 1);
    assert_eq!(figure(&r, "base", "gold_potions_per_pc"), 50.0);
}

#[test]
fn a_pool_offers_each_level_its_entries_and_draws_them_by_weight() {
    let text = format!(
        "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\nstart_level = 1\nend_level = 2\n\
         encounters = [\n\
           {{ monsters = [{{ creature = \"goblin-warrior\", count = 3 }}], weight = 3, levels = [1, 1] }},\n\
           {{ monsters = [{{ creature = \"ogre\" }}] }},\n\
         ]\n"
    );
    let scenario = crate::types::parse(crate::fixtures::catalog(), "t.toml", &text)
        .unwrap_or_else(|e| panic!("{e}"));
    let crate::types::Model::Campaign(v) = &scenario.model else {
        panic!("a campaign");
    };
    let levels = &v[0].rules.levels;
    let sizes: Vec<Vec<usize>> = levels
        .iter()
        .map(|l| {
            l.fights
                .iter()
                .map(|f| f.encounter.monsters.len())
                .collect()
        })
        .collect();
    // Level 1: three goblins (weight 3) or an ogre; level 2: only the ogre.
    assert_eq!(sizes, [vec![3, 1], vec![1]]);
    assert_eq!(levels[0].fights[0].difficulty.xp, Ok(150));
    // The draw by weight: 3 in 4 days are the goblins' (4.5 sigma).
    let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(5);
    let n = 40_000;
    let goblins = (0..n)
        .filter(|_| levels[0].pick(&mut rng).monsters.len() == 3)
        .count() as f64;
    let sigma = (0.75f64 * 0.25 / n as f64).sqrt();
    assert!((goblins / n as f64 - 0.75).abs() < 4.5 * sigma, "{goblins}");
    // One encounter: no die is rolled.
    let mut a = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(9);
    let b = a.clone();
    levels[1].pick(&mut a);
    assert_eq!(a, b);
    // And the careers run.
    let r = run(&text, 1);
    assert!(figure(&r, "base", "mean_fights") > 0.0);
}
