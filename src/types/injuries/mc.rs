//! Monte Carlo lingering injuries (docs/rules.md, lingering injuries) and their healing cost
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

use serde::{Deserialize, Serialize};

use super::{CAMPAIGN_BINS, CAMPAIGN_DIFFS, InjuryScenario, Measure, catalogue, result};
use crate::dice::uniform_below;
use crate::engine::Stop;
use crate::engine::accum::Moments;
use crate::engine::merge::mergeable;
use crate::engine::paired::Baseline;
use crate::engine::rng::TrialSeeds;
use crate::engine::stats::{wilson, z_for_level};
use crate::model::{ScenarioHeader, Variant};
use crate::results::catalogue::{Observed, Reading, figures};
use crate::results::{DistributionRow, ScenarioResult};
use crate::rules::attack::AttackOutcome;
use crate::rules::injury_cures::Plan;
use crate::rules::lingering::Effect;

/// One variant compiled for the hot loop.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The validated model.
    pub model: InjuryScenario,
    /// Cheapest cure of each entry.
    pub plans: Vec<Plan>,
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
        Compiled {
            plans,
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

mergeable! {
    /// One variant's counts.
    #[derive(Clone, Debug, Default, Serialize, Deserialize)]
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
}

mergeable! {
    /// Per-chunk accumulator of every variant.
    #[derive(Clone, Debug, Serialize, Deserialize)]
    pub struct InjuryAcc {
        /// One per variant.
        pub variants: Vec<VariantAcc>,
    }
}

/// An empty accumulator.
pub fn new_acc(compiled: &[Compiled]) -> InjuryAcc {
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
    let (made, received) = (m.made(), m.received());
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
                let mode = if own { m.attack_roll } else { m.attacked_with };
                let natural = mode.roll(&mut combat);
                let u = combat.next_u64();
                let event = if own {
                    let outcome = made.resolve(natural);
                    fumbles += u32::from(outcome == AttackOutcome::NaturalOne);
                    fumble_on && m.is_trigger_miss(outcome)
                } else {
                    let outcome = received.resolve(natural);
                    crits += u32::from(outcome.is_critical());
                    hits += u32::from(outcome.is_hit());
                    crit_on && outcome.is_critical()
                };
                if !event {
                    continue;
                }
                events += 1;
                if !m.table.chance.admits(u) {
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
pub fn simulate_chunk(
    compiled: &[Compiled],
    trials: TrialSeeds,
    acc: &mut InjuryAcc,
    stop: Stop<'_>,
) {
    let mut scratch = Vec::new();
    let mut baseline = Baseline::default();
    for seed in trials {
        for (v, c) in compiled.iter().enumerate() {
            let a = &mut acc.variants[v];
            let Some(x) = campaign(c, seed, a, &mut scratch, stop) else {
                return;
            };
            baseline.record(v, &x, &mut a.diffs);
        }
    }
}

/// The totals of one variant that several of its figures read.
struct Totals {
    /// Injuries of every entry.
    injuries: u64,
    /// Injuries never cured.
    uncured: u64,
    /// Healing gold and downtime days per injury, every entry's.
    per_injury: [Moments; 2],
    /// The same per triggering event (an event that injured no one costs 0).
    per_event: [Moments; 2],
}

impl Totals {
    fn of(a: &VariantAcc) -> Self {
        let injuries: u64 = a.entry.iter().sum();
        let mut gold = Moments::default();
        let mut days = Moments::default();
        a.gold.iter().for_each(|m| gold.merge(m));
        a.days.iter().for_each(|m| days.merge(m));
        let per_injury = [gold, days];
        let spare = a.events - injuries;
        gold.push_repeated(0.0, spare);
        days.push_repeated(0.0, spare);
        Totals {
            injuries,
            uncured: a.uncurable.iter().sum(),
            per_injury,
            per_event: [gold, days],
        }
    }
}

/// Variant `a`'s figure of `measure` (compiled as `c`), over the
/// observations it is taken over: campaigns (trials), encounters, events
/// (crits), injuries, or the injuries of one entry.
fn read<'a>(c: &Compiled, a: &'a VariantAcc, totals: &Totals, measure: Measure) -> Observed<'a> {
    let t = &c.model.table;
    let Totals {
        injuries,
        uncured,
        per_injury,
        per_event,
    } = totals;
    let (injuries, uncured) = (*injuries, *uncured);
    let events = |hits, of| Observed::over(Reading::Events { hits, of }, of);
    let moments = |m: &Moments| Observed::over(Reading::Moments(*m), m.count());
    match measure {
        Measure::PerEncounter(k) => moments(&a.per_encounter[k]),
        Measure::InjuryPerEvent if a.events > 0 => events(injuries, a.events),
        Measure::InjuryPerEncounter => events(a.enc_any, a.encounters),
        Measure::SecondPerEncounter(k) => events(a.enc_second[k], a.encounters),
        Measure::Remedy(k) if injuries > 0 => events(
            c.plans
                .iter()
                .zip(&a.entry)
                .filter(|(p, _)| p.remedy().kind() == k)
                .map(|(_, n)| n)
                .sum(),
            injuries,
        ),
        Measure::CureClass(class) if injuries > 0 => events(
            t.entries
                .iter()
                .zip(&a.entry)
                .filter(|(e, _)| e.cure_class() == class)
                .map(|(_, n)| n)
                .sum(),
            injuries,
        ),
        Measure::Campaign(k) => events(a.campaign[k], a.trials),
        Measure::CampaignMean(k) => Observed::over(Reading::Moments(a.campaign_means[k]), a.trials),
        Measure::PerInjury(2) if injuries > 0 => events(uncured, injuries),
        Measure::PerInjury(k) if injuries > 0 => {
            Observed::over(Reading::Moments(per_injury[k]), injuries)
        }
        Measure::PerEvent(2) if a.events > 0 => events(uncured, a.events),
        Measure::PerEvent(k) if a.events > 0 => {
            Observed::over(Reading::Moments(per_event[k]), a.events)
        }
        Measure::Entry { entry: i, what: 0 } if a.events > 0 => events(a.entry[i], a.events),
        Measure::Entry { entry: i, what: 1 } => events(a.enc_entry[i], a.encounters),
        Measure::Entry { entry: i, what } if a.entry[i] > 0 => match what {
            2 => moments(&a.gold[i]),
            3 => moments(&a.days[i]),
            _ => events(a.uncurable[i], a.entry[i]),
        },
        _ => Observed::ABSENT,
    }
}

/// The figures, distributions and charts of the merged counts.
pub fn finish(
    header: &ScenarioHeader,
    variants: &[Variant<InjuryScenario>],
    compiled: &[Compiled],
    acc: &InjuryAcc,
) -> ScenarioResult {
    let z = z_for_level(header.confidence);
    let totals: Vec<Totals> = acc.variants.iter().map(Totals::of).collect();
    let figures = figures(
        &Variant::names(variants),
        &catalogue(compiled),
        z,
        |v, _, def| read(&compiled[v], &acc.variants[v], &totals[v], def.measure),
        |v, _, def| {
            let k = CAMPAIGN_DIFFS
                .iter()
                .position(|&d| match def.measure {
                    Measure::Campaign(k) => d == (true, k),
                    Measure::CampaignMean(k) => d == (false, k),
                    _ => false,
                })
                .expect("only campaign figures are paired");
            Observed::of_trials(Reading::Moments(acc.variants[v].diffs[k]))
        },
    );
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
                    trials: None,
                })
        })
        .collect();
    result(header, variants, figures, rows)
}
