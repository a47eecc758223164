//! `type = "injuries"`: lingering injuries from critical hits and fumbles
//! (docs/rules.md, lingering injuries) and what curing them costs (§2 prices) over a campaign,
//! by Monte Carlo on common random numbers ([`mc`]) and exactly (sums of
//! binomials, [`exact`]), in one result shape ([`result`]) and one metric
//! catalogue.

pub mod exact;
pub mod mc;
pub mod schema;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use crate::dice::RollMode;
use crate::engine::Stop;
use crate::engine::rng::TrialSeeds;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::catalogue::{Catalogue, Kind, MetricDef};
use crate::results::{
    ChartSpec, DistributionRow, Figure, ItemRows, NotAvailable, ScenarioResult, Unit,
};
use crate::rules::attack::{AttackOutcome, AttackRoll};
use crate::rules::injury_cures::{Plan, PriceList, Remedy, Resources, spell_index};
use crate::rules::lingering::{CureClass, InjuryTable, MissTrigger, Side, Trigger};
use crate::scenario::ScenarioError;
use crate::scenario::layers::Layers;

/// The spells a cleric heals with, the default `healer_spells`.
pub const CLERIC_SPELLS: [&str; 5] = [
    "cure_wounds",
    "lesser_restoration",
    "greater_restoration",
    "heal",
    "regenerate",
];

/// One variant's validated model.
#[derive(Clone, Debug, PartialEq)]
pub struct InjuryScenario {
    /// The table and injury chance.
    pub table: InjuryTable,
    /// Which events roll on the table.
    pub trigger: Trigger,
    /// The creature's side.
    pub side: Side,
    /// Attack rolls it makes per encounter.
    pub attacks_made: u32,
    /// Attacks it receives per encounter.
    pub attacks_received: u32,
    /// Encounters per campaign.
    pub encounters: u32,
    /// Lowest natural that crits against it.
    pub crit_range: u8,
    /// Natural an attack against it needs to hit (2..=20).
    pub hit_need: u8,
    /// Whether a crit must also be a hit.
    pub crit_needs_hit: bool,
    /// Natural its own attacks need to hit (2..=20).
    pub own_hit_need: u8,
    /// Which of its own attack rolls trigger the miss side.
    pub miss_trigger: MissTrigger,
    /// Its own attack rolls.
    pub attack_roll: RollMode,
    /// Attacks against it.
    pub attacked_with: RollMode,
    /// Party resources.
    pub resources: Resources,
    /// Prices.
    pub prices: PriceList,
}

impl InjuryScenario {
    /// The model with `table` and every other setting at its default: a PC
    /// making and receiving 3 attacks per encounter over 20 encounters, hit
    /// on 9 or more (and hitting on 9), critical hits on a 20, no healer
    /// but a cleric's spell list, the default resources and prices.
    pub fn defaults(table: InjuryTable) -> Self {
        InjuryScenario {
            table,
            trigger: Trigger::default(),
            side: Side::default(),
            attacks_made: 3,
            attacks_received: 3,
            encounters: 20,
            crit_range: 20,
            hit_need: 9,
            crit_needs_hit: false,
            own_hit_need: 9,
            miss_trigger: MissTrigger::default(),
            attack_roll: RollMode::Normal,
            attacked_with: RollMode::Normal,
            resources: Resources {
                healer_spells: CLERIC_SPELLS
                    .iter()
                    .filter_map(|n| spell_index(n))
                    .collect(),
                ..Resources::default()
            },
            prices: PriceList::default(),
        }
    }

    /// The roll of an attack it receives: the natural it needs is an AC
    /// against no bonus; under `crit_needs_hit` a natural in the crit
    /// range must also hit to crit.
    pub fn received(&self) -> AttackRoll {
        AttackRoll {
            crit_range: self.crit_range,
            crit_range_hits: !self.crit_needs_hit,
            ..AttackRoll::against(0, i32::from(self.hit_need))
        }
    }

    /// The roll of one of its own attacks (a natural 20 crits).
    pub fn made(&self) -> AttackRoll {
        AttackRoll::against(0, i32::from(self.own_hit_need))
    }

    /// Whether its own attack roll ending in `outcome` triggers the miss side.
    #[inline]
    pub fn is_trigger_miss(&self, outcome: AttackOutcome) -> bool {
        match outcome {
            AttackOutcome::NaturalOne => true,
            AttackOutcome::Miss => self.miss_trigger == MissTrigger::AnyMiss,
            AttackOutcome::Hit | AttackOutcome::Critical => false,
        }
    }

    /// Whether the injury rules apply to this creature at all.
    pub fn applies(&self) -> bool {
        self.trigger.applies_to.covers(self.side)
    }
}

/// The `injuries` scenario type.
pub struct Injuries;

impl ScenarioType for Injuries {
    const NAME: &'static str = "injuries";
    /// 4,096 adventurers' careers of crits: about 33 ms of one thread for
    /// the shipped `lingering-injuries` (8 variants, 8.1 µs a trial) and
    /// 22 ms for `injury-costs`.
    const CHUNK_TRIALS: u64 = 1 << 12;
    type Raw = schema::RawSettings;
    type Rules = InjuryScenario;
    type Prepared<'a> = Vec<mc::Compiled>;
    type Acc = mc::InjuryAcc;

    fn build(
        layers: &Layers<Self::Raw>,
        catalog: &Catalog,
    ) -> Result<InjuryScenario, ScenarioError> {
        schema::build(layers, catalog)
    }

    fn prepare(variants: &[Variant<InjuryScenario>]) -> Vec<mc::Compiled> {
        variants
            .iter()
            .map(|v| mc::Compiled::new(&v.rules))
            .collect()
    }

    fn new_acc(prepared: &Vec<mc::Compiled>) -> mc::InjuryAcc {
        mc::new_acc(prepared)
    }

    fn trials_counted(acc: &mc::InjuryAcc) -> Vec<u64> {
        acc.variants.iter().map(|a| a.trials).collect()
    }

    fn simulate_chunk(
        prepared: &Vec<mc::Compiled>,
        _rng: &mut Xoshiro256PlusPlus,
        trials: TrialSeeds,
        acc: &mut mc::InjuryAcc,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, trials, acc, stop);
    }

    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<InjuryScenario>],
        prepared: &Vec<mc::Compiled>,
        acc: &mc::InjuryAcc,
    ) -> ScenarioResult {
        mc::finish(header, variants, prepared, acc).with_headline(HEADLINE)
    }

    fn solve(
        header: &ScenarioHeader,
        variants: &[Variant<InjuryScenario>],
    ) -> Option<ScenarioResult> {
        Some(exact::solve(header, variants))
    }
}

/// Campaign metrics reported with a paired `_diff` against the first
/// variant, by their place in [`CAMPAIGN_COUNTS`] (`true`) or
/// [`CAMPAIGN_MEANS`] (`false`), in the order of the accumulator's diffs.
pub const CAMPAIGN_DIFFS: [(bool, usize); 5] =
    [(true, 0), (true, 1), (false, 0), (false, 2), (false, 3)];

/// Bins of the `injuries_per_campaign` distribution (0..=10 injuries; more are
/// counted in no bin, so the shares then sum to less than 1).
pub const CAMPAIGN_BINS: usize = 11;

/// Per-encounter means, in [`VariantAcc::per_encounter`] order.
pub const PER_ENCOUNTER: [&str; 5] = [
    "mean_events_per_encounter",
    "mean_crits_taken_per_encounter",
    "mean_fumbles_per_encounter",
    "mean_hits_taken_per_encounter",
    "mean_injuries_per_encounter",
];

/// Campaign proportions, in [`VariantAcc::campaign`] order.
pub const CAMPAIGN_COUNTS: [&str; 5] = [
    "p_any_injury_campaign",
    "p_permanent_injury_campaign",
    "p_blinded_campaign",
    "p_hand_lost_campaign",
    "p_uncured_injury_campaign",
];

/// Campaign means, in [`VariantAcc::campaign_means`] order.
pub const CAMPAIGN_MEANS: [&str; 4] = [
    "mean_injuries_per_campaign",
    "mean_permanent_injuries_per_campaign",
    "mean_heal_gp_per_campaign",
    "mean_downtime_days_per_campaign",
];

/// Units of [`CAMPAIGN_MEANS`].
const CAMPAIGN_MEAN_UNITS: [(Kind, Unit); 4] = [
    (Kind::Count, Unit::Count),
    (Kind::Count, Unit::Count),
    (Kind::Mean, Unit::Gp),
    (Kind::Mean, Unit::Days),
];

/// What an injury metric measures (entries, remedies and campaign figures
/// by their index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// A mean of [`PER_ENCOUNTER`].
    PerEncounter(usize),
    /// An injury per triggering event.
    InjuryPerEvent,
    /// Some injury in an encounter.
    InjuryPerEncounter,
    /// A second injury of the `k`-th entry that drops to 0 HP at two.
    SecondPerEncounter(usize),
    /// An injury's cheapest remedy is of kind `k` ([`Remedy::KINDS`]).
    Remedy(usize),
    /// An injury's cure class.
    CureClass(CureClass),
    /// A proportion of [`CAMPAIGN_COUNTS`].
    Campaign(usize),
    /// A mean of [`CAMPAIGN_MEANS`].
    CampaignMean(usize),
    /// Healing gold, downtime days or no cure, per injury (0, 1, 2).
    PerInjury(usize),
    /// The same per triggering event.
    PerEvent(usize),
    /// One of an entry's five metrics ([`entry_metrics`]).
    Entry {
        /// The entry's index in the table.
        entry: usize,
        /// The metric's index in [`entry_metrics`].
        what: usize,
    },
}

/// The catalogue of every variant (its table's entries, its second-injury
/// entries, the campaign proportions its table allows).
pub fn catalogue(compiled: &[mc::Compiled]) -> Catalogue<Measure> {
    Catalogue::new(compiled.iter().map(metrics).collect())
}

fn metrics(c: &mc::Compiled) -> Vec<MetricDef<Measure>> {
    let t = &c.model.table;
    let p = |name: String, m| MetricDef::proportion(name, m);
    let mut defs: Vec<MetricDef<Measure>> = PER_ENCOUNTER
        .iter()
        .enumerate()
        .map(|(k, name)| MetricDef::count(*name, Unit::Count, Measure::PerEncounter(k)))
        .collect();
    defs.push(p("p_injury_per_event".into(), Measure::InjuryPerEvent));
    defs.push(p(
        "p_injury_per_encounter".into(),
        Measure::InjuryPerEncounter,
    ));
    for (k, &e) in c.second.iter().enumerate() {
        defs.push(p(
            format!("p_second_{}_per_encounter", t.entries[e].id),
            Measure::SecondPerEncounter(k),
        ));
    }
    for (k, kind) in Remedy::KINDS.iter().enumerate() {
        defs.push(p(format!("p_remedy_{kind}"), Measure::Remedy(k)));
    }
    for class in CureClass::ALL {
        defs.push(p(
            format!("p_cure_class_{}", class.name()),
            Measure::CureClass(class),
        ));
    }
    let diffed = |counts: bool, k: usize| CAMPAIGN_DIFFS.contains(&(counts, k));
    for (k, name) in CAMPAIGN_COUNTS.iter().enumerate() {
        if applicable(c, k) {
            let def = p(name.to_string(), Measure::Campaign(k));
            defs.push(if diffed(true, k) {
                def.with_diff()
            } else {
                def
            });
        }
    }
    for (k, name) in CAMPAIGN_MEANS.iter().enumerate() {
        let (kind, unit) = CAMPAIGN_MEAN_UNITS[k];
        let def = MetricDef::new(*name, kind, unit, Measure::CampaignMean(k));
        defs.push(if diffed(false, k) {
            def.with_diff()
        } else {
            def
        });
    }
    let costs = [
        ("mean_heal_gp", Kind::Mean, Unit::Gp),
        ("mean_downtime_days", Kind::Mean, Unit::Days),
        ("p_uncurable", Kind::Proportion, Unit::Share),
    ];
    for (k, (name, kind, unit)) in costs.iter().enumerate() {
        defs.push(MetricDef::new(
            format!("{name}_per_injury"),
            *kind,
            *unit,
            Measure::PerInjury(k),
        ));
    }
    for (k, (name, kind, unit)) in costs.iter().enumerate() {
        defs.push(MetricDef::new(
            format!("{name}_per_event"),
            *kind,
            *unit,
            Measure::PerEvent(k),
        ));
    }
    let entry_kinds = [
        (Kind::Proportion, Unit::Share),
        (Kind::Proportion, Unit::Share),
        (Kind::Mean, Unit::Gp),
        (Kind::Mean, Unit::Days),
        (Kind::Proportion, Unit::Share),
    ];
    for (entry, e) in t.entries.iter().enumerate() {
        for (what, (name, (kind, unit))) in entry_metrics(&e.id)
            .into_iter()
            .zip(entry_kinds)
            .enumerate()
        {
            defs.push(MetricDef::new(
                name,
                kind,
                unit,
                Measure::Entry { entry, what },
            ));
        }
    }
    defs
}

/// Whether campaign proportion `k` applies to the table (blinding and
/// hand-loss need entries with those tags).
pub fn applicable(c: &mc::Compiled, k: usize) -> bool {
    match k {
        2 => c.blinding.is_some(),
        3 => c.fingers.is_some(),
        _ => true,
    }
}

/// Assembles a result with its charts (shared by Monte Carlo and exact mode).
pub fn result(
    header: &ScenarioHeader,
    variants: &[Variant<InjuryScenario>],
    figures: Vec<Figure>,
    distributions: Vec<DistributionRow>,
) -> ScenarioResult {
    let exact = header.trials == 0;
    let how = if exact {
        "exact".to_string()
    } else {
        format!(
            "{} campaigns per variant",
            crate::results::thousands(header.trials)
        )
    };
    let table: Option<&InjuryTable> = variants.first().map(|v| &v.rules.table);
    let entries = table.map(|t| t.entries.as_slice()).unwrap_or_default();
    let label = |e: &crate::rules::lingering::Injury| format!("{} ({}-{})", e.name, e.low, e.high);
    let not_available = uncurable_costs(variants);
    ScenarioResult {
        figures,
        distributions,
        charts: vec![
            ChartSpec::Bars {
                file: "injury-frequency".into(),
                title: format!(
                    "{}: injury frequency by table entry, per triggering event ({how})",
                    header.name
                ),
                value_label: "Probability per triggering event: crit taken or miss made (%)".into(),
                categories: entries
                    .iter()
                    .map(|e| (format!("p_entry_{}_per_event", e.id), label(e)))
                    .collect(),
                percent: true,
            },
            ChartSpec::Bars {
                file: "heal-gold".into(),
                title: format!(
                    "{}: gold to cure each injury, cheapest remedy at hand ({how})",
                    header.name
                ),
                value_label: "Mean healing cost per injury (gp)".into(),
                categories: entries
                    .iter()
                    .map(|e| (format!("mean_heal_gp_entry_{}", e.id), label(e)))
                    .collect(),
                percent: false,
            },
            ChartSpec::Distribution {
                file: "injuries-per-campaign".into(),
                title: format!("{}: lingering injuries per campaign ({how})", header.name),
                distribution: "injuries_per_campaign".into(),
                x_label: "Injuries over the campaign (count)".into(),
            },
            ChartSpec::Shares {
                file: "campaign".into(),
                title: format!("{}: injuries over a campaign ({how})", header.name),
                x_label: "Over the whole campaign".into(),
                categories: vec![
                    ("p_any_injury_campaign".into(), "any injury".into()),
                    (
                        "p_permanent_injury_campaign".into(),
                        "a permanent injury".into(),
                    ),
                    (
                        "p_uncured_injury_campaign".into(),
                        "an injury left uncured".into(),
                    ),
                ],
            },
        ],
        item_rows: vec![ItemRows {
            items: "injury-table entries".into(),
            ranked_by: "probability per triggering event".into(),
            metrics: entries
                .iter()
                .map(|e| entry_metrics(&e.id).to_vec())
                .collect(),
            shown: 5,
            odds: InjuryTable::shared_odds(variants.iter().map(|v| &v.rules.table)),
        }],
        not_available,
        ..ScenarioResult::for_header(header, Variant::names(variants))
    }
}

/// The healing costs that mean "no cure available": no remedy at hand
/// cures the entry ([`Plan::Uncurable`]), so its 0 gp in `summary.csv` is
/// not a free cure.
fn uncurable_costs(variants: &[Variant<InjuryScenario>]) -> Vec<NotAvailable> {
    let mut out = Vec::new();
    for v in variants {
        let m = &v.rules;
        for e in &m.table.entries {
            if matches!(Plan::cheapest(e, &m.resources, &m.prices), Plan::Uncurable) {
                out.push(NotAvailable {
                    variant: v.name.clone(),
                    metric: entry_metrics(&e.id)[2].clone(),
                    reason: "no cure available".into(),
                });
            }
        }
    }
    out
}

/// The metrics of one injury-table entry, in table order; the first ranks
/// the entries in the stdout table.
pub fn entry_metrics(id: &str) -> [String; 5] {
    [
        format!("p_entry_{id}_per_event"),
        format!("p_entry_{id}_per_encounter"),
        format!("mean_heal_gp_entry_{id}"),
        format!("mean_downtime_days_entry_{id}"),
        format!("p_uncurable_entry_{id}"),
    ]
}

/// The headline metrics of a Monte Carlo run
/// ([`ScenarioResult::headline`]): the rows the terminal table shows by
/// default, the figures that answer the scenario's question (how often a PC
/// collects lingering injuries and permanent ones, how many stay uncured,
/// and what curing them costs in gold and downtime), with the paired
/// differences a reader needs to compare variants on them. The rest stay in
/// `summary.csv`, the charts, the HTML report's folded table and
/// `--metrics`. Exact mode (`woundsim exact`) shows every figure.
pub const HEADLINE: &[&str] = &[
    "p_injury_per_encounter",
    "p_any_injury_campaign",
    "p_permanent_injury_campaign",
    "p_uncured_injury_campaign",
    "mean_injuries_per_campaign",
    "mean_heal_gp_per_campaign",
    "mean_downtime_days_per_campaign",
    "mean_heal_gp_per_injury",
    "p_uncurable_per_injury",
    "p_any_injury_campaign_diff",
    "p_permanent_injury_campaign_diff",
    "mean_heal_gp_per_campaign_diff",
    "mean_downtime_days_per_campaign_diff",
];
