//! Monte Carlo campaigns: one career per trial and variant
//! ([`super::career`]), on common random numbers (trial `t` takes one seed
//! from its chunk's stream and every variant replays a generator seeded
//! with it, so `standard` and `harsh` differ only where their healing
//! does; a variant with an earlier variant's fights takes over its fights
//! until the two diverge, [`super::shared_fights`]). Metrics are exact
//! integer moments per variant, with their paired differences to the
//! first variant (`_diff`), a ratio estimator for gold as a share of
//! treasure and a histogram of the max HP festering wounds took; per-level
//! and per-day metrics are vectors of counters, so memory stays flat in
//! trials.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::CampaignVariant;
use super::career::{CareerOutcome, career};
use super::shared_fights::{FightLog, Sharing};
use crate::combat::encounter::Arena;
use crate::engine::Stop;
use crate::engine::accum::{Histogram, IntMoments};
use crate::engine::merge::mergeable;
use crate::engine::paired::Baseline;
use crate::engine::ratio::PairedRatio;
use crate::engine::stats::z_for_level;
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::figures as figures_of;
use crate::results::catalogue::{Catalogue, Kind, MetricDef, Observed, Reading};
use crate::results::{
    ChartSpec, ConstantTable, DistributionRow, LinePoints, ScenarioResult, Unit, thousands,
};
use crate::rules::permanent_wounds::Severity;

/// What a metric measures of one career (levels by index in the career).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    Tpk,
    AnyDeath,
    Deaths,
    Raises,
    Replacements,
    Fights,
    WoundsTaken(usize),
    Injuries,
    Treasure,
    GoldWounds,
    GoldRaising,
    GoldInjuries,
    GoldPotions,
    DowntimeDays,
    TownDays,
    CalendarDays,
    FesteringHp,
    FesteringDeaths,
    VenomsSpread,
    LimbsAmputated,
    LimbsReattached,
    LimbsLost,
    LimbsRegrown,
    GoldSpent,
    Alive(usize),
    Originals(usize),
    Maimed(usize),
    Injured(usize),
    TpkBy(usize),
    SpentBy(usize),
    SpentByDay(usize),
    StateBy(usize, usize),
    EndState(usize),
    EndInjured,
}

impl Measure {
    #[inline]
    fn value(self, o: &CareerOutcome) -> i64 {
        match self {
            Measure::Tpk => i64::from(o.tpk),
            Measure::AnyDeath => i64::from(o.deaths > 0),
            Measure::Deaths => i64::from(o.deaths),
            Measure::Raises => i64::from(o.raises),
            Measure::Replacements => i64::from(o.replacements),
            Measure::Fights => i64::from(o.fights),
            Measure::WoundsTaken(s) => i64::from(o.wounds_taken[s]),
            Measure::Injuries => i64::from(o.injuries_taken),
            Measure::Treasure => o.treasure as i64,
            Measure::GoldWounds => o.gold_wounds as i64,
            Measure::GoldRaising => o.gold_raising as i64,
            Measure::GoldInjuries => o.gold_injuries as i64,
            Measure::GoldPotions => o.gold_potions as i64,
            Measure::DowntimeDays => o.downtime_days as i64,
            Measure::TownDays => o.town_days as i64,
            Measure::CalendarDays => o.calendar_days as i64,
            Measure::FesteringHp => o.festering_hp as i64,
            Measure::FesteringDeaths => i64::from(o.festering_deaths),
            Measure::VenomsSpread => i64::from(o.venoms_spread),
            Measure::LimbsAmputated => i64::from(o.limbs_amputated),
            Measure::LimbsReattached => i64::from(o.limbs_reattached),
            Measure::LimbsLost => {
                i64::from(o.limbs_amputated) - i64::from(o.limbs_reattached)
                    + i64::from(o.limbs_severed)
            }
            Measure::LimbsRegrown => i64::from(o.limbs_regrown),
            Measure::GoldSpent => o.spent_total() as i64,
            Measure::Alive(l) => i64::from(o.alive[l]),
            Measure::Originals(l) => i64::from(o.originals[l]),
            Measure::Maimed(l) => i64::from(o.maimed[l]),
            Measure::Injured(l) => i64::from(o.injured[l]),
            Measure::TpkBy(l) => i64::from(o.tpk_by[l]),
            Measure::SpentBy(l) => o.spent[l] as i64,
            Measure::SpentByDay(d) => o.spent_by_day[d] as i64,
            Measure::StateBy(l, k) => i64::from(o.states[l][k]),
            Measure::EndState(k) => i64::from(o.end_states[k]),
            Measure::EndInjured => i64::from(o.end_injured),
        }
    }
}

/// What a metric reads of a career, and what its figure is divided by:
/// the party's size for per-PC figures and shares of PCs, 1 otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reads {
    measure: Measure,
    per: f64,
}

/// Width of a bin of the festering distribution, HP.
const FESTERING_BIN: u64 = 5;
/// Bins of the festering distribution (0 to 200 HP; more is overflow).
const FESTERING_BINS: usize = 41;

/// The `wound state` names of [`CareerOutcome::end_states`].
const END_STATES: [(&str, &str); 5] = [
    ("healthy", "no permanent wound"),
    ("minor", "a minor wound at worst"),
    ("moderate", "a moderate wound at worst"),
    ("severe", "a severe wound"),
    ("dead", "dead"),
];

/// What the metric lists of every variant show, because some variant has
/// it: lingering injuries, potions bought, limbs lost (a spreading venom or
/// called shots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    injuries: bool,
    potions: bool,
    limbs: bool,
}

/// The metric list of a variant with `pcs` PCs over character `levels`
/// and their adventuring days (`days` a level, `fights` a day). Every
/// metric has its paired difference.
fn metric_defs(
    pcs: usize,
    levels: &[u8],
    (days, fights): (u32, u32),
    shown: Shown,
) -> Vec<MetricDef<Reads>> {
    let Shown {
        injuries,
        potions,
        limbs,
    } = shown;
    let pcs = pcs as f64;
    // A share of the careers; a count or an amount per career; the same
    // per PC of the party.
    let share = |name: String, measure| MetricDef::proportion(name, Reads { measure, per: 1.0 });
    let whole = |name: &str, kind, unit, measure| {
        MetricDef::new(name, kind, unit, Reads { measure, per: 1.0 })
    };
    let per_pc = |name: String, kind, unit, measure| {
        MetricDef::new(name, kind, unit, Reads { measure, per: pcs })
    };
    let count = |name: &str, measure| per_pc(name.into(), Kind::Count, Unit::Count, measure);
    let gold = |name: String, measure| per_pc(name, Kind::Mean, Unit::Gp, measure);
    let of_party = |name: String, measure| per_pc(name, Kind::Mean, Unit::Share, measure);
    let mut defs = vec![
        share("p_tpk".into(), Measure::Tpk),
        share("p_pc_death".into(), Measure::AnyDeath),
        count("deaths_per_pc", Measure::Deaths),
        count("raises_per_pc", Measure::Raises),
        count("replacements_per_pc", Measure::Replacements),
        whole("mean_fights", Kind::Count, Unit::Count, Measure::Fights),
        whole("career_days", Kind::Mean, Unit::Days, Measure::CalendarDays),
        whole("town_days", Kind::Mean, Unit::Days, Measure::TownDays),
    ];
    for s in Severity::ALL {
        defs.push(per_pc(
            format!("wounds_taken_per_pc_{}", s.name()),
            Kind::Count,
            Unit::Count,
            Measure::WoundsTaken(s as usize),
        ));
    }
    defs.push(count("injuries_taken_per_pc", Measure::Injuries));
    defs.push(gold("treasure_per_pc".into(), Measure::Treasure));
    defs.push(gold("gold_spent_per_pc".into(), Measure::GoldSpent));
    defs.push(gold("gold_wounds_per_pc".into(), Measure::GoldWounds));
    defs.push(gold("gold_raising_per_pc".into(), Measure::GoldRaising));
    if potions {
        defs.push(gold("gold_potions_per_pc".into(), Measure::GoldPotions));
    }
    if injuries {
        defs.push(gold("gold_injuries_per_pc".into(), Measure::GoldInjuries));
        defs.push(per_pc(
            "downtime_days_per_pc".into(),
            Kind::Mean,
            Unit::Days,
            Measure::DowntimeDays,
        ));
        defs.push(per_pc(
            "festering_max_hp_lost_per_pc".into(),
            Kind::Mean,
            Unit::Hp,
            Measure::FesteringHp,
        ));
        defs.push(count("festering_deaths_per_pc", Measure::FesteringDeaths));
    }
    if limbs {
        let m = [
            ("venoms_spread_per_pc", Measure::VenomsSpread),
            ("limbs_amputated_per_pc", Measure::LimbsAmputated),
            ("limbs_reattached_per_pc", Measure::LimbsReattached),
            ("limbs_lost_per_pc", Measure::LimbsLost),
            ("limbs_regrown_per_pc", Measure::LimbsRegrown),
        ];
        for (name, measure) in m {
            defs.push(count(name, measure));
        }
    }
    for (k, (state, _)) in END_STATES.iter().enumerate() {
        defs.push(of_party(format!("share_end_{state}"), Measure::EndState(k)));
    }
    defs.push(of_party("share_end_injured".into(), Measure::EndInjured));
    for (l, level) in levels.iter().enumerate() {
        defs.push(of_party(
            format!("share_alive_level_{level}"),
            Measure::Alive(l),
        ));
        defs.push(of_party(
            format!("share_original_level_{level}"),
            Measure::Originals(l),
        ));
        defs.push(of_party(
            format!("share_maimed_level_{level}"),
            Measure::Maimed(l),
        ));
        if injuries {
            defs.push(of_party(
                format!("share_injured_level_{level}"),
                Measure::Injured(l),
            ));
        }
        defs.push(share(format!("p_tpk_by_level_{level}"), Measure::TpkBy(l)));
        defs.push(gold(
            format!("gold_spent_per_pc_by_level_{level}"),
            Measure::SpentBy(l),
        ));
        for (k, (state, _)) in END_STATES.iter().enumerate() {
            defs.push(of_party(
                format!("share_{state}_level_{level}"),
                Measure::StateBy(l, k),
            ));
        }
    }
    for day in 0..levels.len() * days as usize {
        defs.push(gold(
            format!(
                "gold_spent_per_pc_by_encounter_{}",
                encounters_by_day(day, fights)
            ),
            Measure::SpentByDay(day),
        ));
    }
    defs.into_iter().map(MetricDef::with_diff).collect()
}

/// The encounters planned by the end of adventuring day `day` (an index)
/// of `fights` fights each.
fn encounters_by_day(day: usize, fights: u32) -> u64 {
    (day as u64 + 1) * u64::from(fights)
}

mergeable! {
    /// Per-chunk accumulator: per variant, the moments of each metric and
    /// of its difference to the first variant.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct CampaignAcc {
        metrics: Vec<Vec<IntMoments>>,
        diffs: Vec<Vec<IntMoments>>,
        /// Per variant: gold spent and treasure found, with the first
        /// variant's on the same careers.
        share_of_treasure: Vec<PairedRatio>,
        /// Per variant: max HP each PC lost to festering wounds, over the
        /// PCs that lost any, in bins of [`FESTERING_BIN`] HP.
        festering: Vec<Histogram>,
    }
}

/// The variants and their metric lists, compiled for the hot loop.
pub struct Prepared<'a> {
    variants: &'a [Variant<CampaignVariant>],
    defs: Vec<Vec<MetricDef<Reads>>>,
    /// Some variant has lingering injuries.
    injuries: bool,
    /// Some variant buys potions.
    potions: bool,
    /// Per variant: the earlier variant whose fights it takes over while
    /// the two have not diverged ([`super::shared_fights`]), the first
    /// with the same fights.
    fights_from: Vec<Option<usize>>,
    /// Per variant: a later variant takes over its fights.
    fights_shared: Vec<bool>,
}

impl<'a> Prepared<'a> {
    /// Compiles the variants.
    pub fn new(variants: &'a [Variant<CampaignVariant>]) -> Self {
        // The injury metrics for every variant when some variant has them.
        let injuries = variants
            .iter()
            .any(|v| v.rules.levels.iter().any(|l| l.cures.is_some()));
        // The potion metric for every variant when some variant buys them.
        let potions = variants.iter().any(|v| v.rules.restock_potions != [0; 4]);
        // The limb metrics for every variant when some variant's fights
        // can take limbs.
        let limbs = variants.iter().any(|v| {
            v.rules.levels.iter().any(|l| {
                let rules = &l.party().rules;
                rules.venom.is_some() || rules.called_shots.is_some()
            })
        });
        let shown = Shown {
            injuries,
            potions,
            limbs,
        };
        let defs = variants
            .iter()
            .map(|v| {
                let levels: Vec<u8> = v.rules.levels.iter().map(|l| l.level).collect();
                let calendar = (
                    v.rules.calendar.days_per_level,
                    v.rules.calendar.fights_per_day,
                );
                metric_defs(v.rules.pc_names.len(), &levels, calendar, shown)
            })
            .collect();
        let fights_from: Vec<Option<usize>> = variants
            .iter()
            .enumerate()
            .map(|(v, later)| {
                variants[..v]
                    .iter()
                    .position(|earlier| earlier.rules.same_fights(&later.rules))
            })
            .collect();
        let fights_shared = (0..variants.len())
            .map(|v| fights_from.contains(&Some(v)))
            .collect();
        Prepared {
            variants,
            defs,
            injuries,
            potions,
            fights_from,
            fights_shared,
        }
    }

    /// An empty accumulator.
    pub fn new_acc(&self) -> CampaignAcc {
        let widest = self.defs.iter().map(Vec::len).max().unwrap_or(0);
        let n = self.variants.len();
        CampaignAcc {
            metrics: vec![vec![IntMoments::default(); widest]; n],
            diffs: vec![vec![IntMoments::default(); widest]; n],
            share_of_treasure: vec![PairedRatio::default(); n],
            festering: vec![Histogram::new(0, FESTERING_BINS); n],
        }
    }
}

/// Runs one chunk of careers for every variant; returns early (with `acc`
/// incomplete) once `stop` is requested.
pub fn simulate_chunk<R: Rng + ?Sized>(
    prepared: &Prepared<'_>,
    rng: &mut R,
    count: u64,
    acc: &mut CampaignAcc,
    stop: Stop<'_>,
) {
    let mut arena = Arena::default();
    let mut baseline = Baseline::default();
    let mut outcome = CareerOutcome::default();
    let mut vals: Vec<i64> = Vec::new();
    let mut first_gold = [0; 2];
    let mut logs: Vec<FightLog<Xoshiro256PlusPlus>> =
        vec![FightLog::default(); prepared.variants.len()];
    for _ in 0..count {
        let seed = rng.next_u64();
        for (v, variant) in prepared.variants.iter().enumerate() {
            let mut trial_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let (earlier, this) = logs.split_at_mut(v);
            let sharing = Sharing::new(
                prepared.fights_from[v].map(|u| &earlier[u]),
                this.first_mut().filter(|_| prepared.fights_shared[v]),
            );
            if !career(
                &variant.rules,
                &mut trial_rng,
                &mut arena,
                sharing,
                &mut outcome,
                stop,
            ) {
                return;
            }
            vals.clear();
            vals.extend(
                prepared.defs[v]
                    .iter()
                    .map(|d| d.measure.measure.value(&outcome)),
            );
            for (m, &x) in acc.metrics[v].iter_mut().zip(&vals) {
                m.push(x);
            }
            baseline.record(v, &vals, &mut acc.diffs[v]);
            let gold = [outcome.spent_total() as i64, outcome.treasure as i64];
            if v == 0 {
                first_gold = gold;
            }
            acc.share_of_treasure[v].push(gold, first_gold);
            if prepared.injuries {
                for &hp in &outcome.festering_by_pc[..variant.rules.pc_names.len()] {
                    if hp > 0 {
                        acc.festering[v].add((hp / FESTERING_BIN) as i64, 1);
                    }
                }
            }
        }
    }
}

/// The figures and charts of the merged counts.
pub fn finish(
    header: &ScenarioHeader,
    variants: &[Variant<CampaignVariant>],
    prepared: &Prepared<'_>,
    acc: &CampaignAcc,
) -> ScenarioResult {
    let defs = &prepared.defs;
    let z = z_for_level(header.confidence);
    let names = Variant::names(variants);
    // Paired differences where a metric means the same in both variants.
    let mut figures = figures_of(
        &names,
        &Catalogue::new(defs.clone()),
        z,
        |v, i, def| {
            Observed::of_trials(Reading::IntMoments(&acc.metrics[v][i])).per(def.measure.per)
        },
        |v, i, def| match defs[0].get(i) == Some(def) {
            true => Observed::of_trials(Reading::IntMoments(&acc.diffs[v][i])).per(def.measure.per),
            false => Observed::ABSENT,
        },
    );
    // Gold spent as a share of treasure found: a ratio of means over the
    // careers, with the paired difference of the ratios.
    let ratio = MetricDef::new(SHARE_OF_TREASURE, Kind::Ratio, Unit::Share, ()).with_diff();
    let read = |v: usize, _: usize, _: &MetricDef<()>| {
        Observed::of_trials(Reading::Ratio(&acc.share_of_treasure[v]))
    };
    figures.extend(figures_of(
        &names,
        &Catalogue::same_for_all(variants.len(), vec![ratio]).diffs_after_each_variant(),
        z,
        read,
        read,
    ));
    // The festering distribution of the variants whose PCs lost max HP to
    // festering wounds, up to the last bin any of them reached (a variant
    // without any has no distribution, not one of zeros).
    let festered: Vec<usize> = (0..variants.len())
        .filter(|&v| prepared.injuries && acc.festering[v].total() > 0)
        .collect();
    let last_bin = festered
        .iter()
        .flat_map(|&v| acc.festering[v].bins())
        .filter(|&(_, count)| count > 0)
        .map(|(bin, _)| bin)
        .max()
        .unwrap_or(0);
    let mut distributions = Vec::new();
    for &v in &festered {
        let h = &acc.festering[v];
        let total = h.total();
        distributions.extend(
            h.shares(z)
                .into_iter()
                .filter(|&(bin, _, _)| bin <= last_bin)
                .map(|(bin, count, share)| DistributionRow {
                    variant: variants[v].name.clone(),
                    distribution: FESTERING_DISTRIBUTION.into(),
                    bin: bin * FESTERING_BIN as i64,
                    count,
                    share,
                    trials: Some(total),
                }),
        );
    }
    let festered_names: Vec<String> = festered.iter().map(|&v| variants[v].name.clone()).collect();
    ScenarioResult {
        figures,
        distributions,
        tables: vec![encounters_table(variants)],
        charts: charts(header, variants, prepared, &festered_names),
        ..ScenarioResult::for_header(header, names)
    }
}

/// The metric of gold spent as a share of treasure found.
const SHARE_OF_TREASURE: &str = "gold_spent_share_of_treasure";

/// The distribution of max HP lost to festering wounds, per PC that lost any.
const FESTERING_DISTRIBUTION: &str = "festering_max_hp_lost";

/// `encounters.csv`: per variant and level, the monsters of the level's
/// encounter, their XP and the party's budgets (constants of the scenario).
fn encounters_table(variants: &[Variant<CampaignVariant>]) -> ConstantTable {
    let mut rows = Vec::new();
    for v in variants {
        for (plan, e) in v
            .rules
            .levels
            .iter()
            .flat_map(|p| p.fights.iter().map(move |f| (p, &f.difficulty)))
        {
            let [low, moderate, high] = e.budget_cells();
            rows.push(vec![
                v.name.clone(),
                plan.level.to_string(),
                e.monsters_cell(),
                e.xp_cell(),
                low,
                moderate,
                high,
                e.built_for.clone().unwrap_or_default(),
                plan.treasure.to_string(),
            ]);
        }
    }
    let columns = [
        "variant",
        "level",
        "monsters",
        "encounter_xp",
        "low_budget",
        "moderate_budget",
        "high_budget",
        "built_for",
        "treasure_per_fight_gp",
    ];
    ConstantTable {
        file: "encounters".into(),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows,
        shown: Vec::new(),
    }
}

/// The campaign's charts: survival and gold over the levels (when every
/// variant plays the same levels), wound states at the end, gold by purpose.
fn charts(
    header: &ScenarioHeader,
    variants: &[Variant<CampaignVariant>],
    prepared: &Prepared<'_>,
    festered: &[String],
) -> Vec<ChartSpec> {
    let how = format!("{} careers per variant", thousands(header.trials));
    let names = Variant::names(variants);
    let mut charts = Vec::new();
    let levels: Option<Vec<u8>> = variants
        .first()
        .map(|v| v.rules.levels.iter().map(|l| l.level).collect());
    let same_levels = variants
        .iter()
        .all(|v| Some(v.rules.levels.iter().map(|l| l.level).collect::<Vec<_>>()) == levels);
    if let (true, Some(levels)) = (same_levels, levels) {
        let after = "Character level (after its adventures and downtime)";
        // (file, title, y label, metric of level L as `{prefix}L`, percent)
        let curves = [
            (
                "survival",
                "PCs alive after each level",
                after,
                "PCs alive, raised or replaced included (% of the party)",
                "share_alive_level_",
                true,
            ),
            (
                "original-pcs",
                "starting PCs still playing",
                after,
                "Starting PCs alive and never replaced (% of the party)",
                "share_original_level_",
                true,
            ),
            (
                "maimed",
                "PCs maimed after each level",
                after,
                "PCs alive with an uncured wound or injury (% of the party)",
                "share_maimed_level_",
                true,
            ),
            (
                "tpk",
                "total party kills by level",
                "Character level",
                "Careers ended by a total party kill (%)",
                "p_tpk_by_level_",
                true,
            ),
        ];
        for (file, title, x_label, y_label, prefix, percent) in curves {
            charts.push(ChartSpec::Lines {
                file: file.into(),
                title: format!("{}: {title} ({how})", header.name),
                x_label: x_label.into(),
                y_label: y_label.into(),
                variants: names.clone(),
                points: LinePoints::Metrics(
                    levels
                        .iter()
                        .map(|&l| (f64::from(l), format!("{prefix}{l}")))
                        .collect(),
                ),
                percent,
            });
        }
        // Wound states after each level, dead at the bottom, healthy on top.
        charts.push(ChartSpec::Stacked {
            file: "wound-states-by-level".into(),
            title: format!(
                "{}: PCs by wound state after each level and its downtime ({how})",
                header.name
            ),
            x_label: "Character level".into(),
            y_label: "PC slots (% of the party)".into(),
            variants: names.clone(),
            layers: END_STATES
                .iter()
                .rev()
                .map(|(state, label)| {
                    let points = levels
                        .iter()
                        .map(|&l| (f64::from(l), format!("share_{state}_level_{l}")))
                        .collect();
                    (label.to_string(), points)
                })
                .collect(),
        });
    }
    // Gold by encounter, where every variant has the same calendar.
    let calendar = |v: &Variant<CampaignVariant>| {
        (
            v.rules.levels.len(),
            v.rules.calendar.days_per_level,
            v.rules.calendar.fights_per_day,
        )
    };
    if let Some(first) = variants
        .first()
        .filter(|f| variants.iter().all(|v| calendar(v) == calendar(f)))
    {
        let (levels, days, fights) = calendar(first);
        charts.push(ChartSpec::Lines {
            file: "gold-spent".into(),
            title: format!("{}: gold spent by encounter ({how})", header.name),
            x_label: "Encounters planned so far (after each adventuring day and its rest)".into(),
            y_label: "Gold spent per PC, cumulative, every purpose (gp)".into(),
            variants: names.clone(),
            points: LinePoints::Metrics(
                (0..levels * days as usize)
                    .map(|day| {
                        let k = encounters_by_day(day, fights);
                        (k as f64, format!("gold_spent_per_pc_by_encounter_{k}"))
                    })
                    .collect(),
            ),
            percent: false,
        });
    }
    if !festered.is_empty() {
        charts.push(ChartSpec::Lines {
            file: "festering-max-hp".into(),
            title: format!(
                "{}: max HP lost to festering wounds, PCs that lost any ({how})",
                header.name
            ),
            x_label: format!(
                "Max HP a PC lost to festering wounds over the career (HP, bins of {FESTERING_BIN} from the value shown)"
            ),
            y_label: "PCs that lost any (%)".into(),
            variants: festered.to_vec(),
            points: LinePoints::Distribution(FESTERING_DISTRIBUTION.into()),
            percent: true,
        });
    }
    charts.push(ChartSpec::Bars {
        file: "wound-states".into(),
        title: format!(
            "{}: PCs' state at the end of the career ({how})",
            header.name
        ),
        value_label: "PC slots in that state at the end (% of the party)".into(),
        categories: END_STATES
            .iter()
            .map(|(state, label)| (format!("share_end_{state}"), label.to_string()))
            .collect(),
        percent: true,
    });
    charts.push(ChartSpec::Bars {
        file: "gold-by-purpose".into(),
        title: format!("{}: gold per PC by purpose ({how})", header.name),
        value_label: "Gold per PC over the career (gp)".into(),
        categories: [
            ("treasure_per_pc", "treasure found"),
            ("gold_wounds_per_pc", "healing permanent wounds"),
            ("gold_raising_per_pc", "raising the dead"),
            ("gold_injuries_per_pc", "curing lingering injuries"),
            ("gold_potions_per_pc", "potions of healing"),
        ]
        .iter()
        .filter(|(m, _)| match *m {
            "gold_injuries_per_pc" => prepared.injuries,
            "gold_potions_per_pc" => prepared.potions,
            _ => true,
        })
        .map(|(m, l)| (m.to_string(), l.to_string()))
        .collect(),
        percent: false,
    });
    charts
}

#[cfg(test)]
mod tests;
