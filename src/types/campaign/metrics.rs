//! The campaign's metric catalogue: what each figure reads of a career
//! ([`Measure`]), per PC or per career, by level and by adventuring day,
//! with their kinds and units (docs/campaign.md, "Metrics").

use super::career::CareerOutcome;
use crate::results::Unit;
use crate::results::catalogue::{Kind, MetricDef};
use crate::rules::permanent_wounds::Severity;

/// What a metric measures of one career (levels by index in the career).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Measure {
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
    MaimedLevels,
    DeathsBy(usize),
    Originals(usize),
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
    pub(super) fn value(self, o: &CareerOutcome) -> i64 {
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
            Measure::MaimedLevels => o.maimed.iter().map(|&m| i64::from(m)).sum(),
            Measure::DeathsBy(l) => i64::from(o.deaths_by[l]),
            Measure::Originals(l) => i64::from(o.originals[l]),
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
pub(super) struct Reads {
    pub(super) measure: Measure,
    pub(super) per: f64,
}

/// Character-levels each PC slot played maimed: the levels at whose end
/// (after their downtime) the PC was alive carrying a permanent wound, a
/// lingering injury or a lost limb, summed over the slot's PCs.
pub(super) const MAIMED_LEVELS: &str = "maimed_levels_per_pc";

/// The share of the character-levels played (PC slots alive at a level's
/// end) that were played maimed: a ratio of means over the careers.
pub(super) const SHARE_LEVELS_MAIMED: &str = "share_pc_levels_maimed";

/// The prefix of the share of the starting party still playing after a
/// level (alive and never replaced).
pub(super) const ORIGINALS_BY_LEVEL: &str = "share_original_level_";

/// Width of a bin of the festering distribution, HP.
pub(super) const FESTERING_BIN: u64 = 5;
/// Bins of the festering distribution (0 to 200 HP; more is overflow).
pub(super) const FESTERING_BINS: usize = 41;

/// The distribution of max HP lost to festering wounds, per PC that lost any.
pub(super) const FESTERING_DISTRIBUTION: &str = "festering_max_hp_lost";

/// The `wound state` names of [`CareerOutcome::end_states`].
pub(super) const END_STATES: [(&str, &str); 5] = [
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
pub(super) struct Shown {
    pub(super) injuries: bool,
    pub(super) potions: bool,
    pub(super) limbs: bool,
}

/// The metric list of a variant with `pcs` PCs over character `levels`
/// and their adventuring days (`days` a level, `fights` a day). Every
/// metric has its paired difference.
pub(super) fn metric_defs(
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
    let of_party = |name: String, measure| per_pc(name, Kind::MeanShare, Unit::Share, measure);
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
    defs.push(count(MAIMED_LEVELS, Measure::MaimedLevels));
    for (k, (state, _)) in END_STATES.iter().enumerate() {
        defs.push(of_party(format!("share_end_{state}"), Measure::EndState(k)));
    }
    defs.push(of_party("share_end_injured".into(), Measure::EndInjured));
    for (l, level) in levels.iter().enumerate() {
        defs.push(count(
            &format!("deaths_per_pc_by_level_{level}"),
            Measure::DeathsBy(l),
        ));
        defs.push(of_party(
            format!("{ORIGINALS_BY_LEVEL}{level}"),
            Measure::Originals(l),
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
pub(super) fn encounters_by_day(day: usize, fights: u32) -> u64 {
    (day as u64 + 1) * u64::from(fights)
}
