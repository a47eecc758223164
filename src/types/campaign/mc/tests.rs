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
    // Deaths by the end of the only level: the fight's.
    assert_eq!(k("deaths_per_pc_by_level_3") * 2.0, c("mean_pc_deaths"));
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
        figure(&one, "harsh", "deaths_per_pc_by_level_1_diff"),
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
    assert_eq!(k("deaths_per_pc_by_level_10"), 0.0);
    assert_eq!(k("maimed_levels_per_pc"), 0.0);
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
    let crate::types::Variants::Campaign(v) = &scenario.variants else {
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
        .filter(|_| {
            let e = levels[0].pick_index(&mut rng);
            levels[0].fights[e].encounter.monsters.len() == 3
        })
        .count() as f64;
    let sigma = (0.75f64 * 0.25 / n as f64).sqrt();
    assert!((goblins / n as f64 - 0.75).abs() < 4.5 * sigma, "{goblins}");
    // One encounter: no die is rolled.
    let mut a = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(9);
    let b = a.clone();
    levels[1].pick_index(&mut a);
    assert_eq!(a, b);
    // And the careers run.
    let r = run(&text, 1);
    assert!(figure(&r, "base", "mean_fights") > 0.0);
}

/// Estimate of `metric` (with its interval).
fn estimate(r: &ScenarioResult, variant: &str, metric: &str) -> crate::engine::stats::Estimate {
    r.figures
        .iter()
        .find(|f| f.variant == variant && f.metric == metric)
        .unwrap_or_else(|| panic!("no {variant} {metric}"))
        .estimate
}

/// A fighter and a cleric, two days of one fight a level, levels 1–3,
/// standard and harsh.
fn three_levels(extra: &str) -> ScenarioResult {
    run(
        &format!(
            "{HEADER}type = \"campaign\"\n[options]\n\
             party = [{{ class = \"fighter\", name = \"a\" }}, {{ class = \"cleric\", name = \"b\" }}]\n\
             start_level = 1\nend_level = 3\n\
             days_per_level = 2\nfights_per_day = 1\ndifficulty = \"high\"\n\
             monster_pool = [\"ogre\", \"goblin-warrior\", \"bugbear-warrior\"]\n{extra}\n\
             [options.fights]\nwound_policy = \"accept_least_severe\"\n\
             [[variant]]\nname = \"standard\"\n[[variant]]\nname = \"harsh\"\nhealing = \"harsh\"\n"
        ),
        1,
    )
}

#[test]
fn wound_states_by_level_partition_the_party_and_gold_by_encounter_adds_up() {
    let r = three_levels("replace_dead = \"never\"\nstarting_gold = 2000");
    const STATES: [&str; 5] = ["healthy", "minor", "moderate", "severe", "dead"];
    for v in ["standard", "harsh"] {
        let k = |m: &str| figure(&r, v, m);
        for level in 1..=3 {
            let sum: f64 = STATES
                .iter()
                .map(|s| k(&format!("share_{s}_level_{level}")))
                .sum();
            assert!((sum - 1.0).abs() < 1e-12, "{v} level {level}: {sum}");
            // Without replacements, a dead slot stays dead: the dead
            // by level are at most the deaths by then.
            assert!(
                k(&format!("share_dead_level_{level}"))
                    <= k(&format!("deaths_per_pc_by_level_{level}")) + 1e-12
            );
            // A total party kill leaves every slot dead.
            assert!(
                k(&format!("share_dead_level_{level}")) >= k(&format!("p_tpk_by_level_{level}"))
            );
            // Gold by encounter at a level's last day is gold by level.
            assert_eq!(
                k(&format!("gold_spent_per_pc_by_encounter_{}", 2 * level)),
                k(&format!("gold_spent_per_pc_by_level_{level}"))
            );
        }
        for s in STATES {
            assert_eq!(
                k(&format!("share_{s}_level_3")),
                k(&format!("share_end_{s}"))
            );
        }
        let by_encounter: Vec<f64> = (1..=6)
            .map(|e| k(&format!("gold_spent_per_pc_by_encounter_{e}")))
            .collect();
        assert!(
            by_encounter.windows(2).all(|w| w[0] <= w[1]),
            "{by_encounter:?}"
        );
        assert_eq!(by_encounter[5], k("gold_spent_per_pc"));
    }
    assert!(
        figure(&r, "standard", "p_pc_death") > 0.05,
        "the case must have deaths"
    );
    assert!(figure(&r, "standard", "share_dead_level_3") > 0.0);
    assert!(
        figure(&r, "standard", "gold_spent_per_pc") > 0.0,
        "and spending"
    );
    // The charts: the stacked states and gold by encounter.
    let stacked = r.charts.iter().any(|c| {
        matches!(c, crate::results::ChartSpec::Stacked { file, layers, .. }
            if file == "wound-states-by-level" && layers.len() == 5 && layers[0].1.len() == 3)
    });
    assert!(stacked);
}

/// Gold spent as a share of treasure is the ratio of the means (not the
/// mean of each career's ratio), and its `_diff` the difference of the
/// two variants' ratios, with a paired interval narrower than the two
/// intervals combined.
#[test]
fn the_share_of_treasure_is_a_ratio_of_means_with_a_paired_difference() {
    // Treasure enough for the harsh minor wound's temple casting (its 350 gp fee on 300 gp of
    // materials) within three levels.
    let treasure = format!("treasure = [{}]", ["300"; 20].join(", "));
    let r = three_levels(&format!("starting_gold = 0\nfirst = \"heal\"\n{treasure}"));
    for v in ["standard", "harsh"] {
        let ratio = figure(&r, v, "gold_spent_share_of_treasure");
        let means = figure(&r, v, "gold_spent_per_pc") / figure(&r, v, "treasure_per_pc");
        assert!(
            (ratio - means).abs() < 1e-12,
            "{v}: {ratio} against {means}"
        );
        assert!(
            ratio > 0.0 && ratio <= 1.0,
            "no starting gold: at most the treasure ({v}: {ratio})"
        );
    }
    let s = estimate(&r, "standard", "gold_spent_share_of_treasure");
    let h = estimate(&r, "harsh", "gold_spent_share_of_treasure");
    let d = estimate(&r, "harsh", "gold_spent_share_of_treasure_diff");
    assert!((d.value - (h.value - s.value)).abs() < 1e-12);
    let half = |e: crate::engine::stats::Estimate| (e.high - e.low) / 2.0;
    assert!(half(d) > 0.0 && half(d) < (half(s).powi(2) + half(h).powi(2)).sqrt());
}

/// Festering wounds (lingering injuries on every critical hit, no healer
/// and no gold to cure them, so they are tended): each PC that lost max
/// HP is counted once in the distribution, whose bins bracket the mean
/// loss.
#[test]
fn the_festering_distribution_counts_each_pc_that_lost_max_hp() {
    let text = format!(
        "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\nstart_level = 1\nend_level = 3\n\
         difficulty = \"high\"\nmonster_pool = [\"ogre\", \"goblin-warrior\", \"bugbear-warrior\"]\n\
         temple_spell_level = 0\nstarting_gold = 0\ntreasure = [{}]\n\
         [options.fights]\nwound_policy = \"accept_least_severe\"\n\
         lingering_injuries = true\ninjury_chance = 1.0\n",
        ["0"; 20].join(", ")
    );
    let r = run(&text, 1);
    let rows: Vec<_> = r
        .distributions
        .iter()
        .filter(|d| d.distribution == "festering_max_hp_lost")
        .collect();
    let festered = rows[0].trials.unwrap();
    assert!(
        festered > 20,
        "the case must have festering wounds: {festered}"
    );
    assert_eq!(rows.iter().map(|d| d.count).sum::<u64>(), festered);
    assert!(rows.iter().all(|d| d.bin % 5 == 0));
    // The mean loss per PC that festered lies within its bins' edges.
    let pcs = 2.0 * 3000.0;
    let mean = figure(&r, "base", "festering_max_hp_lost_per_pc") * pcs / festered as f64;
    let low: f64 = rows
        .iter()
        .map(|d| d.bin as f64 * d.count as f64)
        .sum::<f64>()
        / festered as f64;
    assert!(
        low <= mean && mean < low + 5.0,
        "{low} ≤ {mean} < {low} + 5"
    );
    assert!(r.charts.iter().any(|c| matches!(c,
        crate::results::ChartSpec::Distribution { file, .. } if file == "festering-max-hp")));
    // Its bins end at the last one any PC reached (no trailing empty bins).
    let last = rows.iter().map(|d| d.bin).max().unwrap();
    assert!(rows.iter().any(|d| d.bin == last && d.count > 0));
    // Without lingering injuries: no distribution and no chart.
    let r = three_levels("");
    assert!(r.distributions.is_empty());
    assert!(!r.charts.iter().any(|c| matches!(c,
        crate::results::ChartSpec::Distribution { file, .. } if file == "festering-max-hp")));
}

/// The return penalty changes nothing where nobody is raised, and
/// something where the raised fight again.
#[test]
fn the_return_penalty_acts_only_on_the_raised() {
    let text = |raise: bool| {
        format!(
            "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\nstart_level = 3\nend_level = 6\n\
             difficulty = \"high\"\nmonster_pool = [\"ogre\", \"bugbear-warrior\"]\n\
             starting_gold = 100000\ntemple_spell_level = 5\nraise_dead = {raise}\n\
             [options.fights]\nwound_policy = \"accept_least_severe\"\n\
             [[variant]]\nname = \"none\"\nreturn_penalty = \"none\"\n\
             [[variant]]\nname = \"every-save\"\n\
             [[variant]]\nname = \"not-death-saves\"\nreturn_penalty = \"not_death_saves\"\n"
        )
    };
    let never = run(&text(false), 1);
    for v in ["every-save", "not-death-saves"] {
        assert_eq!(figure(&never, v, "deaths_per_pc_diff"), 0.0);
        assert_eq!(figure(&never, v, "mean_fights_diff"), 0.0);
    }
    let raised = run(&text(true), 1);
    assert!(figure(&raised, "none", "raises_per_pc") > 0.05);
    for v in ["every-save", "not-death-saves"] {
        let moved = [
            "deaths_per_pc_diff",
            "mean_fights_diff",
            "wounds_taken_per_pc_minor_diff",
        ]
        .iter()
        .any(|m| figure(&raised, v, m) != 0.0);
        assert!(moved, "{v}: the penalty changed no figure");
    }
}

/// A campaign of scripted fights whose wounds follow exact death-save
/// chances: a lone fighter meets, each day, a hammer it cannot hurt that
/// always drops it from full HP to 0 (15 damage: never massive), then
/// leaves; the fighter resolves its death saves alone, accepting the least
/// severe free permanent wound. Where the hammer acts first in the round,
/// the first save comes before the fight is decided, and a natural 20
/// there brings the fighter up at 1 HP to take the next blow as massive
/// damage. The career's deaths and wounds by severity over four days are
/// the exact chain's over the eight sets of wounds carried (4.5 sigma).
/// In a second variant each day is an adventure with a downtime after it
/// where the temple (5th-level spells) heals the minor and moderate
/// wounds at its fees, so the chain carries only severe wounds and the
/// gold spent is each wound's price times the wounds taken.
#[test]
fn a_career_of_scripted_drops_follows_the_exact_death_save_chain() {
    use crate::rules::death_save_chain::solve;
    use crate::rules::death_save_chain::{CODES, decode};
    use crate::rules::death_saves::{DeathSaveRules, Resolution, SaveStep, Tally};
    use crate::rules::permanent_wounds::{Severity, WoundPolicy, WoundSlots};
    use crate::rules::prices::PriceList;
    use crate::rules::wound_healing::{Goal, HealingSetting, PcState, Provider, plan};
    const TRIALS: u64 = 40_000;
    const DAYS: usize = 4;
    let text = format!(
        "version = 1\nname = \"t\"\ntrials = {TRIALS}\nseed = 7\ntype = \"campaign\"\n[options]\n\
         party = [{{ class = \"fighter\", name = \"a\" }}]\n\
         start_level = 1\nend_level = 1\ndays_per_level = {DAYS}\nfights_per_day = 1\n\
         raise_dead = false\nreplace_dead = \"never\"\n\
         encounters = [{{ monsters = [{{ name = \"hammer\", hp = 10000, ac = 30, initiative = -10, \
         attacks = [{{ name = \"slam\", to_hit = 20, damage = \"15\", type = \"bludgeoning\", reach = \"melee\" }}], \
         multiattack = [\"slam\"] }}] }}]\n\
         [options.fights]\nwound_policy = \"accept_least_severe\"\nheal_when = \"never\"\n\
         [[variant]]\nname = \"kept\"\n\
         [[variant]]\nname = \"healed\"\nadventures_per_level = {DAYS}\nstarting_gold = 1000000\n"
    );
    let r = run(&text, 2);
    // P(the hammer acts before the fighter): initiative totals, ties to
    // the higher modifier.
    let fighter = crate::fixtures::catalog()
        .templates
        .template("fighter-1")
        .unwrap();
    let key = |roll: i32, modifier: i32, pc: bool| {
        ((roll + modifier) * 64 + modifier) * 2 + i32::from(pc)
    };
    let hammer_first = (1..=20)
        .flat_map(|m| (1..=20).map(move |p| (m, p)))
        .filter(|&(m, p)| key(m, -10, false) > key(p, fighter.initiative, true))
        .count() as f64
        / 400.0;
    assert!(hammer_first > 0.0);
    // The resolutions of one fight with `wounds` carried.
    let resolutions = |wounds: WoundSlots| -> [f64; Resolution::COUNT] {
        let rules = DeathSaveRules {
            wound_policy: WoundPolicy::AcceptLeastSevere,
            existing_wounds: wounds,
            ..DeathSaveRules::default()
        };
        let by_resolution = |rules: &DeathSaveRules| {
            let probs = solve(rules).probabilities();
            let mut out = [0.0; Resolution::COUNT];
            for (code, p) in probs.iter().enumerate().take(CODES) {
                out[decode(code).0.index()] += p;
            }
            out
        };
        let full = by_resolution(&rules);
        // Hammer first: the first save is rolled at once; a natural 20
        // means death by the next blow.
        let mut first = [0.0; Resolution::COUNT];
        first[Resolution::Dead.index()] += 1.0 / 20.0;
        for n in 1..20 {
            let SaveStep::Continue(start) = rules.resolve_save(Tally::default(), n) else {
                unreachable!("one save never resolves a fresh tally");
            };
            let after = by_resolution(&DeathSaveRules { start, ..rules });
            for (f, a) in first.iter_mut().zip(after) {
                *f += a / 20.0;
            }
        }
        std::array::from_fn(|k| (1.0 - hammer_first) * full[k] + hammer_first * first[k])
    };
    // The chain over the sets of wounds carried (bit s: severity s); with
    // `healed`, the minor and moderate wounds are healed after each fight.
    let chain = |healed: bool| {
        let mut carried = [0.0f64; 8];
        carried[0] = 1.0;
        let (mut dead, mut taken) = (0.0, [0.0; 3]);
        for _ in 0..DAYS {
            let mut next = [0.0; 8];
            for (set, &p) in carried.iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                let wounds = WoundSlots::from_wounds(
                    Severity::ALL
                        .into_iter()
                        .filter(|&s| set & (1 << s as usize) != 0),
                );
                for (k, q) in resolutions(wounds).into_iter().enumerate() {
                    let after = match Resolution::ALL[k] {
                        Resolution::Dead => {
                            dead += p * q;
                            continue;
                        }
                        Resolution::Wounded(s) => {
                            taken[s as usize] += p * q;
                            set | 1 << s as usize
                        }
                        _ => set,
                    };
                    next[if healed { after & 0b100 } else { after }] += p * q;
                }
            }
            carried = next;
        }
        (dead, taken, carried)
    };
    let n = TRIALS as f64;
    let close = |variant: &str, metric: &str, exact: f64| {
        let mc = figure(&r, variant, metric);
        let sigma = (exact * (1.0 - exact) / n).sqrt();
        assert!(
            (mc - exact).abs() < 4.5 * sigma,
            "{variant} {metric}: {mc} against exact {exact} ± {sigma}"
        );
    };
    for (variant, healed) in [("kept", false), ("healed", true)] {
        let (dead, taken, carried) = chain(healed);
        assert!(
            dead > 0.05 && taken.iter().all(|&t| t > 0.05),
            "{dead} {taken:?}"
        );
        close(variant, "p_tpk", dead);
        close(variant, "deaths_per_pc", dead);
        close(variant, "wounds_taken_per_pc_minor", taken[0]);
        close(variant, "wounds_taken_per_pc_moderate", taken[1]);
        close(variant, "wounds_taken_per_pc_severe", taken[2]);
        close(variant, "share_severe_level_1", carried[4..].iter().sum());
        close(variant, "deaths_per_pc_by_level_1", dead);
        // The one level was played maimed when the PC ends it alive with
        // a wound; among the careers the PC was there to play it.
        let maimed: f64 = carried[1..].iter().sum();
        close(variant, "maimed_levels_per_pc", maimed);
        let share = estimate(&r, variant, "share_pc_levels_maimed");
        let exact = maimed / (1.0 - dead);
        let sigma = (share.high - share.low) / 2.0 / 1.96;
        assert!(
            (share.value - exact).abs() < 4.5 * sigma,
            "{variant} share of levels maimed {} against exact {exact} ± {sigma}",
            share.value
        );
        if !healed {
            assert_eq!(figure(&r, variant, "gold_wounds_per_pc"), 0.0, "no gold");
            continue;
        }
        // The temple's fee for each wound alone (the standard setting).
        let prices = PriceList::default();
        let fee = |s: Severity| {
            let state = PcState {
                wounds: WoundSlots::from_wounds([s]),
                ..PcState::default()
            };
            let temple = [Provider::temple(5, &prices)];
            plan(
                HealingSetting::Standard,
                &state,
                Goal::HealWounds,
                &temple,
                &prices,
            )
            .map(|p| p.gold())
        };
        assert_eq!(
            fee(Severity::Severe),
            None,
            "resurrection is a 7th-level spell"
        );
        let exact =
            fee(Severity::Minor).unwrap() * taken[0] + fee(Severity::Moderate).unwrap() * taken[1];
        let e = estimate(&r, variant, "gold_wounds_per_pc");
        let sigma = (e.high - e.low) / 2.0 / 1.96;
        assert!(
            (e.value - exact).abs() < 4.5 * sigma,
            "gold {} against exact {exact} ± {sigma}",
            e.value
        );
        assert_eq!(figure(&r, variant, "share_minor_level_1"), 0.0);
        assert_eq!(figure(&r, variant, "share_moderate_level_1"), 0.0);
    }
}

/// A day of three fights with no rest between them is the combat type's
/// chain of three encounters on the same random numbers.
#[test]
fn a_day_of_three_fights_is_the_combat_chain_of_three() {
    let campaign = run(
        &format!(
            "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\nstart_level = 3\nend_level = 3\n\
             days_per_level = 1\nfights_per_day = 3\ndifficulty = \"moderate\"\n\
             monster_pool = [\"ogre\", \"goblin-warrior\"]\nraise_dead = false\nreplace_dead = \"never\"\n\
             [options.fights]\nwound_policy = \"accept_least_severe\"\nattack_downed = \"always\"\n"
        ),
        1,
    );
    let combat = run(
        &format!(
            "{HEADER}type = \"combat\"\n[options]\n\
             party = [{{ template = \"fighter-3\", name = \"a\" }}, {{ template = \"rogue-3\", name = \"b\" }}]\n\
             difficulty = \"moderate\"\nmonster_pool = [\"ogre\", \"goblin-warrior\"]\n\
             wound_policy = \"accept_least_severe\"\nattack_downed = \"always\"\n\
             encounters = 3\nbetween_encounters = \"no_rest\"\n"
        ),
        1,
    );
    let c = |m: &str| figure(&combat, "base", m);
    let k = |m: &str| figure(&campaign, "base", m);
    assert!(c("p_pc_death") > 0.05, "the case must have deaths");
    assert_eq!(k("p_pc_death"), c("p_pc_death"));
    assert_eq!(k("deaths_per_pc") * 2.0, c("mean_pc_deaths"));
    assert!(
        k("mean_fights") > 1.2,
        "later fights were fought: {}",
        k("mean_fights")
    );
}

/// Wyverns whose stingers spread (our extension) in a level-7 career: the
/// party cuts poisoned limbs off after the fights and puts most back with
/// the cleric's healing word; a limb not put back is lost and the PC
/// counts as maimed. A party that does not cut lets every venom spread.
#[test]
fn wyvern_venom_costs_limbs_that_the_party_cuts_off_and_puts_back() {
    let text = format!(
        "{HEADER}type = \"campaign\"\n[options]\n\
         party = [{{ class = \"fighter\", name = \"a\" }}, {{ class = \"cleric\", name = \"b\" }}, \
         {{ class = \"rogue\", name = \"c\" }}, {{ class = \"wizard\", name = \"d\" }}]\n\
         start_level = 7\nend_level = 7\ndays_per_level = 3\nfights_per_day = 2\n\
         encounters = [{{ monsters = [{{ creature = \"wyvern\" }}] }}]\n\
         [options.fights]\nwound_policy = \"accept_least_severe\"\nspreading_venom = [\"stinger\"]\n\
         [[variant]]\nname = \"cut\"\n\
         [[variant]]\nname = \"no-cut\"\nfights = {{ venom_amputate = false }}\n\
         [[variant]]\nname = \"no-reattaching\"\nfights = {{ venom_reattach_minutes = 0 }}\n"
    );
    let r = run(&text, 1);
    let k = |v: &str, m: &str| figure(&r, v, m);
    let (spread, cut, back, lost) = (
        k("cut", "venoms_spread_per_pc"),
        k("cut", "limbs_amputated_per_pc"),
        k("cut", "limbs_reattached_per_pc"),
        k("cut", "limbs_lost_per_pc"),
    );
    assert!(cut > 0.05, "the case must cut limbs off: {cut}");
    assert!(back > 0.0 && back <= cut);
    assert!(
        (lost - (cut - back)).abs() < 1e-12,
        "no called shots: lost = cut − put back"
    );
    // Without cutting, every sting's venom spreads.
    assert_eq!(k("no-cut", "limbs_amputated_per_pc"), 0.0);
    assert!(k("no-cut", "venoms_spread_per_pc") > spread + 0.5 * cut);
    // Without reattaching, every limb cut off is lost and maims.
    assert_eq!(k("no-reattaching", "limbs_reattached_per_pc"), 0.0);
    assert!(
        (k("no-reattaching", "limbs_lost_per_pc") - k("no-reattaching", "limbs_amputated_per_pc"))
            .abs()
            < 1e-12
    );
    assert!(k("no-reattaching", "maimed_levels_per_pc") > k("cut", "maimed_levels_per_pc"));
    // Nobody casts regenerate at level 7.
    assert_eq!(k("no-reattaching", "limbs_regrown_per_pc"), 0.0);
}

/// A 13th-level cleric casts *regenerate* (7th level): limbs lost to the
/// venom (none put back) grow back in downtime, but for those of PCs who
/// died before it.
#[test]
fn a_thirteenth_level_cleric_regrows_lost_limbs_in_downtime() {
    let text = format!(
        "{HEADER}type = \"campaign\"\n[options]\n\
         party = [{{ class = \"fighter\", name = \"a\" }}, {{ class = \"cleric\", name = \"b\" }}]\n\
         start_level = 13\nend_level = 13\ndays_per_level = 2\nfights_per_day = 2\n\
         encounters = [{{ monsters = [{{ creature = \"wyvern\" }}] }}]\n\
         [options.fights]\nspreading_venom = [\"stinger\"]\nvenom_reattach_minutes = 0\n"
    );
    let r = run(&text, 1);
    let k = |m: &str| figure(&r, "base", m);
    assert!(k("limbs_lost_per_pc") > 0.05, "{}", k("limbs_lost_per_pc"));
    assert!(
        k("limbs_regrown_per_pc") > 0.8 * k("limbs_lost_per_pc"),
        "{} {} {} {}",
        k("limbs_regrown_per_pc"),
        k("limbs_lost_per_pc"),
        k("deaths_per_pc"),
        k("limbs_amputated_per_pc")
    );
    assert!(k("limbs_regrown_per_pc") <= k("limbs_lost_per_pc"));
}

/// A venom attack no monster of the career has is a located error, with
/// the near miss named.
#[test]
fn a_venom_attack_no_monster_has_is_an_error() {
    let text = format!(
        "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\n\
         encounters = [{{ monsters = [{{ creature = \"wyvern\" }}] }}]\n\
         [options.fights]\nspreading_venom = [\"stingr\"]\n"
    );
    let Err(e) = crate::types::parse(crate::fixtures::catalog(), "t.toml", &text) else {
        panic!("an error");
    };
    let e = e.to_string();
    assert!(e.contains("fights.spreading_venom[0]"), "{e}");
    assert!(e.contains("did you mean `stinger`"), "{e}");
}

#[test]
fn a_variant_that_shares_fights_has_the_figures_it_has_alone() {
    // `harsh` fights `standard`'s fights (the same encounters and rules):
    // it takes them over until their healing differs. The lingering-
    // injury variant fights others. Every figure of `harsh` is the one it
    // has run alone (the same seed, so the same trials' dice).
    let base = format!(
        "{HEADER}type = \"campaign\"\n[options]\n\
         party = [{{ class = \"fighter\", name = \"a\" }}, {{ class = \"cleric\", name = \"b\" }}, \
         {{ class = \"rogue\", name = \"c\" }}]\nstart_level = 1\nend_level = 6\n\
         difficulty = \"low\"\nmonster_pool = [\"ogre\", \"goblin-warrior\", \"bugbear-warrior\"]\n\
         starting_gold = 400\n[options.fights]\nwound_policy = \"accept_least_severe\"\n\
         spell_policy = \"never\"\n"
    );
    // (Without attack spells the small party dies often enough for the
    // settings to diverge, which the test needs.)
    let harsh = "[[variant]]\nname = \"harsh\"\nhealing = \"harsh\"\n";
    let shared = format!(
        "{base}[[variant]]\nname = \"standard\"\n\
         [[variant]]\nname = \"injuries\"\nfights = {{ lingering_injuries = true }}\n{harsh}"
    );
    let scenario = crate::types::parse(crate::fixtures::catalog(), "t.toml", &shared).unwrap();
    let crate::types::Variants::Campaign(variants) = &scenario.variants else {
        panic!("a campaign")
    };
    let prepared = super::Prepared::new(variants);
    assert_eq!(prepared.fights_from, [None, None, Some(0)]);
    assert_eq!(prepared.fights_shared, [true, false, false]);

    let together = run(&shared, 1);
    let alone = run(&format!("{base}{harsh}"), 1);
    let of = |r: &ScenarioResult| -> Vec<_> {
        r.figures
            .iter()
            .filter(|f| f.variant == "harsh" && !f.metric.ends_with("_diff"))
            .map(|f| (f.metric.clone(), f.estimate, f.trials))
            .collect()
    };
    let alone_figures = of(&alone);
    assert!(alone_figures.len() > 50);
    for figure in &alone_figures {
        assert!(of(&together).contains(figure), "{figure:?}");
    }
    // The case has divergences to find: the settings' deaths differ.
    assert!(figure(&together, "harsh", "deaths_per_pc_diff") > 0.05);
}

/// Three levels of a fighter and a cleric under `options`, and `variants`.
fn career_of(options: &str, variants: &str) -> ScenarioResult {
    run(
        &format!(
            "{HEADER}type = \"campaign\"\n[options]\n\
             party = [{{ class = \"fighter\", name = \"a\" }}, {{ class = \"cleric\", name = \"b\" }}]\n\
             start_level = 1\nend_level = 3\n\
             days_per_level = 2\nfights_per_day = 1\ndifficulty = \"high\"\n\
             monster_pool = [\"ogre\", \"goblin-warrior\", \"bugbear-warrior\"]\n{options}\n\
             [options.fights]\nwound_policy = \"accept_least_severe\"\n{variants}"
        ),
        1,
    )
}

/// Variants that differ only in `healing` are paired: the later one has
/// `_healing_diff` figures (its values minus its partner's on the same
/// careers) and the result a verdict for the pair; a variant that differs
/// in something else has neither.
#[test]
fn variants_that_differ_only_in_healing_are_paired_in_a_verdict() {
    let r = career_of(
        "starting_gold = 2000",
        "[[variant]]\nname = \"standard\"\n\
         [[variant]]\nname = \"harsh\"\nhealing = \"harsh\"\n\
         [[variant]]\nname = \"standard-poor\"\nstarting_gold = 100\n\
         [[variant]]\nname = \"harsh-poor\"\nhealing = \"harsh\"\nstarting_gold = 100\n\
         [[variant]]\nname = \"harsh-no-temple\"\nhealing = \"harsh\"\ntemple_spell_level = 0\n",
    );
    let has = |v: &str, m: &str| r.figure(v, m).is_some();
    for v in ["standard", "standard-poor", "harsh-no-temple"] {
        assert!(!has(v, "deaths_per_pc_healing_diff"), "{v} has no partner");
    }
    // The first pair's partner is the baseline: the same as `_diff`.
    for m in [
        "deaths_per_pc",
        "gold_wounds_per_pc",
        "share_pc_levels_maimed",
    ] {
        assert_eq!(
            r.figure("harsh", &format!("{m}_healing_diff"))
                .unwrap()
                .estimate,
            r.figure("harsh", &format!("{m}_diff")).unwrap().estimate,
            "{m}"
        );
    }
    // The second pair: its own partner, not the baseline.
    for m in [
        "deaths_per_pc",
        "p_tpk",
        "maimed_levels_per_pc",
        "share_original_level_3",
    ] {
        let d = figure(&r, "harsh-poor", &format!("{m}_healing_diff"));
        let by_means = figure(&r, "harsh-poor", m) - figure(&r, "standard-poor", m);
        assert!((d - by_means).abs() < 1e-9, "{m}: {d} against {by_means}");
    }
    assert!(
        (figure(&r, "harsh-poor", "deaths_per_pc_healing_diff")
            - figure(&r, "harsh-poor", "deaths_per_pc_diff"))
        .abs()
            > 1e-6,
        "the baseline's difference is another figure"
    );
    let headings: Vec<&str> = r.verdicts.iter().map(|v| v.heading.as_str()).collect();
    assert_eq!(headings.len(), 2, "{headings:?}");
    assert!(headings[0].starts_with("harsh against standard (only healing differs"));
    assert!(headings[1].starts_with("harsh-poor against standard-poor"));
    assert!(r.verdicts[0].lines[0].starts_with("deaths per PC: "));
    // Every line has the interval of its difference.
    assert!(
        r.verdicts
            .iter()
            .flat_map(|v| &v.lines)
            .all(|l| l.contains(" to "))
    );
    // A cleric of levels 1 to 3 casts no 5th-level spell, and without the
    // temple nothing heals a wound under the harsh setting.
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].starts_with("`harsh-no-temple`: no caster in the party and no temple"));
    // The reports lead with the headline metrics; the per-level ones are
    // folded away.
    let headline = r.headline.as_ref().unwrap();
    assert!(headline.contains(&"deaths_per_pc".to_string()));
    assert!(headline.contains(&"share_original_level_3".to_string()));
    assert!(
        !headline
            .iter()
            .any(|m| m.contains("_by_level_") || m.ends_with("_diff"))
    );
}

/// A campaign whose healing setting can change nothing gets a warning
/// naming the reason: nobody can cast the spells, or the purse never holds
/// their price; the paired figures are then 0.
#[test]
fn settings_that_cannot_differ_are_warned_about() {
    let pair =
        "[[variant]]\nname = \"standard\"\n[[variant]]\nname = \"harsh\"\nhealing = \"harsh\"\n";
    // No caster (a fighter and a rogue) and no temple.
    let r = run(
        &format!(
            "{HEADER}type = \"campaign\"\n[options]\n{PARTY}\nstart_level = 1\nend_level = 3\n\
             difficulty = \"high\"\nmonster_pool = [\"ogre\", \"goblin-warrior\"]\ntemple_spell_level = 0\nstarting_gold = 100000\n\
             [options.fights]\nwound_policy = \"accept_least_severe\"\n{pair}"
        ),
        1,
    );
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains("no caster in the party and no temple"),
        "{}",
        r.warnings[0]
    );
    assert!(r.verdicts[0].heading.contains("cannot differ here"));
    assert_eq!(figure(&r, "harsh", "gold_wounds_per_pc_healing_diff"), 0.0);
    assert_eq!(
        figure(&r, "harsh", "maimed_levels_per_pc_healing_diff"),
        0.0
    );
    // A cleric and a temple, but no gold and no treasure.
    let zeros = ["0"; 20].join(", ");
    let r = career_of(&format!("treasure = [{zeros}]"), pair);
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(
        r.warnings[1].starts_with("`harsh`: the purse never holds the price"),
        "{}",
        r.warnings[1]
    );
    assert!(r.warnings[1].contains("at most 0 gp"), "{}", r.warnings[1]);
    assert_eq!(figure(&r, "harsh", "gold_wounds_per_pc"), 0.0);
    // The same with gold to spend: no warning.
    let r = career_of("starting_gold = 2000", pair);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}
