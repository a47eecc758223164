//! Monte Carlo lingering injuries (RULES.md §1) and their healing cost
//! (§2 prices), on common random numbers.
//!
//! A trial is one campaign of `encounters` encounters. In each, the creature
//! makes `attacks_made` attack rolls (a natural 1 is a critical miss) and
//! receives `attacks_received` attacks (a natural in the crit range is a
//! critical hit); each triggering event rolls against the injury chance, and
//! an injury takes its entry from a d100 on the table. Each injury is then
//! cured by the entry's cheapest [`Plan`] under the party's resources.
//!
//! Trial `t` draws one `u64` from the chunk stream and seeds three
//! per-trial generators from it: attack rolls (one d20 or two per attack,
//! plus one 64-bit draw for the injury chance, drawn for every attack so
//! that the stream stays aligned whatever the trigger settings), entries
//! (the d100 of the k-th injury, the hand of a lost finger) and cures. So
//! every variant replays the same dice for trial `t`, and changing the
//! injury chance changes which events injure but not which entries follow.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::{RollMode, roll_die, uniform_below};
use crate::engine::accum::Moments;
use crate::engine::stats::{Estimate, wilson, z_for_level};
use crate::engine::{Engine, EngineError, Merge, Progress, RunShape, Stop};
use crate::results::{ChartSpec, DistributionRow, Figure, ItemRows, NotAvailable, ScenarioResult};
use crate::rules::healing::{Plan, Remedy};
use crate::rules::lingering::{CureClass, Effect, InjuryTable};
use crate::scenario::injuries::InjuryScenario;
use crate::scenario::{ScenarioHeader, Variant};

/// Campaign metrics reported with a paired `_diff` against the first variant.
pub const CAMPAIGN_DIFFS: [&str; 5] = [
    "p_any_injury_campaign",
    "p_permanent_injury_campaign",
    "mean_injuries_per_campaign",
    "mean_heal_gp_per_campaign",
    "mean_downtime_days_per_campaign",
];

/// One variant compiled for the hot loop.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The validated model.
    pub model: InjuryScenario,
    /// Cheapest cure of each entry.
    pub plans: Vec<Plan>,
    /// An event injures when its 64-bit draw is below this (`None`: always).
    threshold: Option<u64>,
    /// Entry index of the blinding entry (two lost eyes) and its count.
    pub blinding: Option<(usize, u32)>,
    /// Entry index of the finger entry and fingers per hand.
    pub fingers: Option<(usize, u32)>,
    /// Entries whose second concurrent injury drops the creature to 0 HP.
    pub second: Vec<usize>,
    /// Whether each entry is permanent (regenerate only).
    pub permanent: Vec<bool>,
}

impl Compiled {
    /// Compiles one variant.
    pub fn new(model: &InjuryScenario) -> Self {
        let t = &model.table;
        let plans = t
            .entries
            .iter()
            .map(|e| Plan::cheapest(e, &model.resources, &model.prices))
            .collect();
        let threshold = if model.table.chance >= 1.0 {
            None
        } else {
            Some((model.table.chance * 18_446_744_073_709_551_616.0) as u64)
        };
        Compiled {
            plans,
            threshold,
            blinding: t
                .entries
                .iter()
                .enumerate()
                .find_map(|(i, e)| e.blinding_count().map(|c| (i, u32::from(c)))),
            fingers: t.entries.iter().enumerate().find_map(|(i, e)| {
                e.effects.iter().find_map(|x| match x {
                    Effect::HandLostWhenAllLost { count } => Some((i, u32::from(*count))),
                    _ => None,
                })
            }),
            second: t
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.drops_to_zero_at(2))
                .map(|(i, _)| i)
                .collect(),
            permanent: t.entries.iter().map(|e| e.is_permanent()).collect(),
            model: model.clone(),
        }
    }
}

/// One variant's counts.
#[derive(Clone, Debug, Default)]
pub struct VariantAcc {
    /// Campaigns.
    pub trials: u64,
    /// Encounters.
    pub encounters: u64,
    /// Triggering events.
    pub events: u64,
    /// Injuries per entry.
    pub entry: Vec<u64>,
    /// Encounters with at least one injury.
    pub enc_any: u64,
    /// Encounters with at least one injury of each entry.
    pub enc_entry: Vec<u64>,
    /// Encounters with a second injury of each `second` entry.
    pub enc_second: Vec<u64>,
    /// Per encounter: events, crits taken, fumbles, hits taken, injuries.
    pub per_encounter: [Moments; 5],
    /// Gold, days per entry; uncured injuries per entry.
    pub gold: Vec<Moments>,
    /// Downtime days per entry.
    pub days: Vec<Moments>,
    /// Injuries never cured, per entry.
    pub uncurable: Vec<u64>,
    /// Campaign counts: any injury, a permanent one, blinded, hand lost, an uncured one.
    pub campaign: [u64; 5],
    /// Campaign means: injuries, permanent injuries, gold, days.
    pub campaign_means: [Moments; 4],
    /// Campaigns with 0, 1, ... `CAMPAIGN_BINS - 1` injuries.
    pub per_campaign: Vec<u64>,
    /// Paired differences of [`CAMPAIGN_DIFFS`] to the first variant.
    pub diffs: [Moments; 5],
}

/// Per-chunk accumulator of every variant.
#[derive(Clone, Debug)]
pub struct InjuryAcc {
    /// One per variant.
    pub variants: Vec<VariantAcc>,
}

impl Merge for InjuryAcc {
    fn merge(&mut self, later: Self) {
        fn add(a: &mut [u64], b: &[u64]) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        fn add_m(a: &mut [Moments], b: &[Moments]) {
            a.iter_mut().zip(b).for_each(|(x, y)| x.merge(y));
        }
        for (a, b) in self.variants.iter_mut().zip(later.variants) {
            a.trials += b.trials;
            a.encounters += b.encounters;
            a.events += b.events;
            a.enc_any += b.enc_any;
            add(&mut a.entry, &b.entry);
            add(&mut a.enc_entry, &b.enc_entry);
            add(&mut a.enc_second, &b.enc_second);
            add(&mut a.uncurable, &b.uncurable);
            add(&mut a.campaign, &b.campaign);
            add(&mut a.per_campaign, &b.per_campaign);
            add_m(&mut a.per_encounter, &b.per_encounter);
            add_m(&mut a.gold, &b.gold);
            add_m(&mut a.days, &b.days);
            add_m(&mut a.campaign_means, &b.campaign_means);
            add_m(&mut a.diffs, &b.diffs);
        }
    }
}

fn new_acc(compiled: &[Compiled]) -> InjuryAcc {
    InjuryAcc {
        variants: compiled
            .iter()
            .map(|c| {
                let n = c.model.table.entries.len();
                VariantAcc {
                    entry: vec![0; n],
                    enc_entry: vec![0; n],
                    enc_second: vec![0; c.second.len()],
                    gold: vec![Moments::default(); n],
                    days: vec![Moments::default(); n],
                    uncurable: vec![0; n],
                    per_campaign: vec![0; CAMPAIGN_BINS],
                    ..Default::default()
                }
            })
            .collect(),
    }
}

#[inline]
fn roll<R: Rng + ?Sized>(mode: RollMode, rng: &mut R) -> u8 {
    let first = roll_die(rng, 20) as u8;
    match mode {
        RollMode::Normal => first,
        _ => mode.keep(first, roll_die(rng, 20) as u8),
    }
}

/// Attacks between two looks at the stop inside a campaign: well under a
/// millisecond of work.
const ATTACKS_PER_POLL: u32 = 1 << 14;

/// Per-trial values of one variant: `[any, permanent, injuries, gold, days]`;
/// `None` once `stop` is requested. A campaign's length is the scenario's
/// to choose (up to 100,000 encounters of 2,000 attacks, about 3 s), so
/// `stop` is polled once per block of encounters of bounded cost (the
/// whole campaign, for the shipped scenarios).
fn campaign(
    c: &Compiled,
    seed: u64,
    a: &mut VariantAcc,
    scratch: &mut Vec<usize>,
    stop: Stop<'_>,
) -> Option<[f64; 5]> {
    let m = &c.model;
    let mut combat = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut entries = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x2545_f491_4f6c_dd1d);
    let mut cures = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let applies = m.applies();
    let (fumble_on, crit_on) = (
        applies && m.trigger.on_crit_miss,
        applies && m.trigger.on_crit_hit,
    );
    let (mut injuries, mut permanent, mut gold, mut days, mut uncured) =
        (0u32, 0u32, 0.0, 0.0, 0u32);
    let (mut eyes, mut hands) = (0u32, [0u32; 2]);
    // The stop is polled once per block of about `ATTACKS_PER_POLL` attacks.
    let block = (ATTACKS_PER_POLL / (m.attacks_made + m.attacks_received).max(1)).max(1);
    let mut done = 0;
    while done < m.encounters {
        if stop.requested() {
            return None;
        }
        let n = block.min(m.encounters - done);
        done += n;
        for _ in 0..n {
            scratch.clear();
            let (mut events, mut crits, mut fumbles, mut hits) = (0u32, 0u32, 0u32, 0u32);
            for k in 0..m.attacks_made + m.attacks_received {
                let own = k < m.attacks_made;
                let natural = roll(
                    if own { m.attack_roll } else { m.attacked_with },
                    &mut combat,
                );
                let u = combat.next_u64();
                let event = if own {
                    fumbles += u32::from(natural == 1);
                    fumble_on && m.is_trigger_miss(natural)
                } else {
                    let crit = m.is_crit(natural);
                    crits += u32::from(crit);
                    hits += u32::from(m.is_hit(natural));
                    crit_on && crit
                };
                if !event {
                    continue;
                }
                events += 1;
                if c.threshold.is_some_and(|t| u >= t) {
                    continue;
                }
                let i = m.table.lookup(uniform_below(&mut entries, 100) as u8 + 1);
                scratch.push(i);
                a.entry[i] += 1;
                injuries += 1;
                permanent += u32::from(c.permanent[i]);
                if c.blinding.is_some_and(|(e, _)| e == i) {
                    eyes += 1;
                }
                if c.fingers.is_some_and(|(e, _)| e == i) {
                    hands[(entries.next_u64() >> 63) as usize] += 1;
                }
                let (g, d, cured) = c.plans[i].sample(&mut cures);
                a.gold[i].push(g);
                a.days[i].push(d);
                gold += g;
                days += d;
                if !cured {
                    a.uncurable[i] += 1;
                    uncured += 1;
                }
            }
            a.encounters += 1;
            a.events += u64::from(events);
            for (slot, x) in
                a.per_encounter
                    .iter_mut()
                    .zip([events, crits, fumbles, hits, scratch.len() as u32])
            {
                slot.push(f64::from(x));
            }
            if !scratch.is_empty() {
                a.enc_any += 1;
                scratch.sort_unstable();
                for (k, &e) in c.second.iter().enumerate() {
                    a.enc_second[k] += u64::from(scratch.iter().filter(|&&x| x == e).count() >= 2);
                }
                scratch.dedup();
                for &i in scratch.iter() {
                    a.enc_entry[i] += 1;
                }
            }
        }
    }
    a.trials += 1;
    if let Some(bin) = a.per_campaign.get_mut(injuries as usize) {
        *bin += 1;
    }
    let blinded = c.blinding.is_some_and(|(_, n)| eyes >= n);
    let hand_lost = c
        .fingers
        .is_some_and(|(_, n)| hands.iter().any(|&h| h >= n));
    for (slot, x) in
        a.campaign
            .iter_mut()
            .zip([injuries > 0, permanent > 0, blinded, hand_lost, uncured > 0])
    {
        *slot += u64::from(x);
    }
    for (slot, x) in
        a.campaign_means
            .iter_mut()
            .zip([f64::from(injuries), f64::from(permanent), gold, days])
    {
        slot.push(x);
    }
    Some([
        f64::from(u8::from(injuries > 0)),
        f64::from(u8::from(permanent > 0)),
        f64::from(injuries),
        gold,
        days,
    ])
}

/// Simulates `count` campaigns of every variant; returns early (with
/// `acc` incomplete) once `stop` is requested.
pub fn simulate_chunk<R: Rng + ?Sized>(
    compiled: &[Compiled],
    rng: &mut R,
    count: u64,
    acc: &mut InjuryAcc,
    stop: Stop<'_>,
) {
    let mut scratch = Vec::new();
    for _ in 0..count {
        let seed = rng.next_u64();
        let mut base = [0.0; 5];
        for (v, c) in compiled.iter().enumerate() {
            let a = &mut acc.variants[v];
            let Some(x) = campaign(c, seed, a, &mut scratch, stop) else {
                return;
            };
            if v == 0 {
                base = x;
            } else {
                for k in 0..5 {
                    a.diffs[k].push(x[k] - base[k]);
                }
            }
        }
    }
}

/// Runs the scenario's variants by Monte Carlo.
pub fn simulate(
    header: &ScenarioHeader,
    variants: &[Variant<InjuryScenario>],
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<ScenarioResult, EngineError> {
    let compiled: Vec<Compiled> = variants.iter().map(|v| Compiled::new(&v.rules)).collect();
    let shape = RunShape {
        trials: header.trials,
        seed: header.seed,
    };
    let acc = engine.run(
        shape,
        progress,
        || new_acc(&compiled),
        |rng, _, n, acc, stop| simulate_chunk(&compiled, rng, n, acc, stop),
    )?;
    let z = z_for_level(header.confidence);
    let mut figures = Vec::new();
    for ((variant, c), a) in variants.iter().zip(&compiled).zip(&acc.variants) {
        let t = &c.model.table;
        let mut push = |metric: String, estimate: Estimate| {
            figures.push(Figure {
                variant: variant.name.clone(),
                metric,
                estimate,
            });
        };
        let injuries: u64 = a.entry.iter().sum();
        for (k, name) in PER_ENCOUNTER.iter().enumerate() {
            push(name.to_string(), a.per_encounter[k].estimate(z));
        }
        if a.events > 0 {
            push("p_injury_per_event".into(), wilson(injuries, a.events, z));
        }
        push(
            "p_injury_per_encounter".into(),
            wilson(a.enc_any, a.encounters, z),
        );
        for (k, &e) in c.second.iter().enumerate() {
            push(
                format!("p_second_{}_per_encounter", t.entries[e].id),
                wilson(a.enc_second[k], a.encounters, z),
            );
        }
        for (k, kind) in Remedy::KINDS.iter().enumerate().filter(|_| injuries > 0) {
            let n = c
                .plans
                .iter()
                .zip(&a.entry)
                .filter(|(p, _)| p.remedy().kind() == k)
                .map(|(_, n)| n)
                .sum();
            push(format!("p_remedy_{kind}"), wilson(n, injuries, z));
        }
        for class in CureClass::ALL.into_iter().filter(|_| injuries > 0) {
            let n = t
                .entries
                .iter()
                .zip(&a.entry)
                .filter(|(e, _)| e.cure_class() == class)
                .map(|(_, n)| n)
                .sum();
            push(
                format!("p_cure_class_{}", class.name()),
                wilson(n, injuries, z),
            );
        }
        for (k, name) in CAMPAIGN_COUNTS.iter().enumerate() {
            if applicable(c, k) {
                push(name.to_string(), wilson(a.campaign[k], a.trials, z));
            }
        }
        for (k, name) in CAMPAIGN_MEANS.iter().enumerate() {
            push(name.to_string(), a.campaign_means[k].estimate(z));
        }
        let mut gold = Moments::default();
        let mut days = Moments::default();
        a.gold.iter().for_each(|m| gold.merge(m));
        a.days.iter().for_each(|m| days.merge(m));
        let uncured: u64 = a.uncurable.iter().sum();
        if injuries > 0 {
            push("mean_heal_gp_per_injury".into(), gold.estimate(z));
            push("mean_downtime_days_per_injury".into(), days.estimate(z));
            push(
                "p_uncurable_per_injury".into(),
                wilson(uncured, injuries, z),
            );
        }
        let spare = a.events - injuries;
        gold.push_repeated(0.0, spare);
        days.push_repeated(0.0, spare);
        if a.events > 0 {
            push("mean_heal_gp_per_event".into(), gold.estimate(z));
            push("mean_downtime_days_per_event".into(), days.estimate(z));
            push("p_uncurable_per_event".into(), wilson(uncured, a.events, z));
        }
        for (i, e) in t.entries.iter().enumerate() {
            let [m_event, m_encounter, m_gold, m_days, m_uncurable] = entry_metrics(&e.id);
            if a.events > 0 {
                push(m_event, wilson(a.entry[i], a.events, z));
            }
            push(m_encounter, wilson(a.enc_entry[i], a.encounters, z));
            if a.entry[i] > 0 {
                push(m_gold, a.gold[i].estimate(z));
                push(m_days, a.days[i].estimate(z));
                push(m_uncurable, wilson(a.uncurable[i], a.entry[i], z));
            }
        }
    }
    for (variant, a) in variants.iter().zip(&acc.variants).skip(1) {
        for (k, name) in CAMPAIGN_DIFFS.iter().enumerate() {
            figures.push(Figure {
                variant: variant.name.clone(),
                metric: format!("{name}_diff"),
                estimate: a.diffs[k].estimate(z),
            });
        }
    }
    let rows = variants
        .iter()
        .zip(&acc.variants)
        .flat_map(|(variant, a)| {
            a.per_campaign
                .iter()
                .enumerate()
                .map(move |(bin, &count)| DistributionRow {
                    variant: variant.name.clone(),
                    distribution: "injuries_per_campaign".into(),
                    bin: bin as i64,
                    count,
                    share: wilson(count, a.trials, z),
                })
        })
        .collect();
    Ok(finish(header, variants, figures, rows))
}

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

/// Whether campaign proportion `k` applies to the table (blinding and
/// hand-loss need entries with those tags).
pub fn applicable(c: &Compiled, k: usize) -> bool {
    match k {
        2 => c.blinding.is_some(),
        3 => c.fingers.is_some(),
        _ => true,
    }
}

/// Assembles a result with its charts (shared by Monte Carlo and exact mode).
pub fn finish(
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
        ..ScenarioResult::for_header(header, variants.iter().map(|v| v.name.clone()).collect())
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
