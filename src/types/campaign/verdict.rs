//! The campaign's answer, before any table (docs/campaign.md, "The answer
//! first"): the variants that differ only in `healing` are paired, and
//! each pair's paired differences are said in plain words with their
//! intervals — deaths per PC, total party kills, original PCs still
//! playing at the end, character-levels played maimed, gold per PC by
//! purpose, downtime days. A variant whose healing setting can change
//! nothing (no caster or temple ever casts the setting's spells, or the
//! purse never holds their price) gets a warning naming the reason.

use super::CampaignVariant;
use super::metrics::{MAIMED_LEVELS, ORIGINALS_BY_LEVEL, SHARE_LEVELS_MAIMED, Shown};
use crate::model::Variant;
use crate::results::{Figure, ScenarioResult, Verdict, thousands};

/// The suffix of a paired difference to the variant that differs only in
/// `healing` (its healing partner).
pub(super) const HEALING_DIFF: &str = "_healing_diff";

/// Fewer total party kills than this in either variant of a pair: the
/// verdict says the events are few.
pub(super) const FEW_EVENTS: u64 = 30;

/// How a verdict figure reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reads {
    /// A share, in percent (its difference in percentage points).
    Percent,
    /// A count per PC, three decimals.
    PerPc,
    /// Gold pieces, whole.
    Gold,
    /// Days, one decimal.
    Days,
}

/// For each variant, the earlier variant that differs from it only in
/// `healing` (the first such), if any.
pub(super) fn healing_partners(variants: &[Variant<CampaignVariant>]) -> Vec<Option<usize>> {
    variants
        .iter()
        .enumerate()
        .map(|(v, later)| {
            variants[..v]
                .iter()
                .position(|earlier| differ_only_in_healing(&earlier.rules, &later.rules))
        })
        .collect()
}

/// Whether `b` is `a` with another healing setting (and the planner's
/// tables that follow from it).
fn differ_only_in_healing(a: &CampaignVariant, b: &CampaignVariant) -> bool {
    if a.healing == b.healing || a.levels.len() != b.levels.len() {
        return false;
    }
    let mut b = b.clone();
    b.healing = a.healing;
    for (lb, la) in b.levels.iter_mut().zip(&a.levels) {
        lb.healing = la.healing.clone();
    }
    &b == a
}

/// The figures a verdict states, in order, with their labels: those of
/// the catalogue's integer metrics (accumulated per pair), then the share
/// of character-levels played maimed (a ratio).
pub(super) fn paired_metrics(last_level: u8, shown: Shown) -> Vec<(String, &'static str, Reads)> {
    let mut m = vec![
        ("deaths_per_pc".to_string(), "deaths per PC", Reads::PerPc),
        (
            "p_tpk".into(),
            "total party kills (share of careers)",
            Reads::Percent,
        ),
        (
            format!("{ORIGINALS_BY_LEVEL}{last_level}"),
            "original PCs still playing at the end",
            Reads::Percent,
        ),
        (
            MAIMED_LEVELS.into(),
            "character-levels each PC played maimed",
            Reads::PerPc,
        ),
        (
            "gold_wounds_per_pc".into(),
            "gold per PC healing permanent wounds",
            Reads::Gold,
        ),
        (
            "gold_raising_per_pc".into(),
            "gold per PC raising the dead",
            Reads::Gold,
        ),
    ];
    if shown.injuries {
        m.push((
            "gold_injuries_per_pc".into(),
            "gold per PC curing lingering injuries",
            Reads::Gold,
        ));
        m.push((
            "downtime_days_per_pc".into(),
            "downtime days per PC spent healing",
            Reads::Days,
        ));
    }
    m
}

/// The ratio the verdict states after the integer metrics.
pub(super) fn paired_ratio() -> (String, &'static str, Reads) {
    (
        SHARE_LEVELS_MAIMED.into(),
        "share of character-levels played maimed",
        Reads::Percent,
    )
}

/// Decimals of a percentage: more where it is small.
fn percent_digits(x: f64) -> usize {
    if x.abs() < 0.01 { 2 } else { 1 }
}

/// `x` as it reads.
fn show(x: f64, reads: Reads) -> String {
    match reads {
        Reads::Percent => format!("{:.*}%", percent_digits(x), x * 100.0),
        Reads::PerPc => format!("{x:.3}"),
        Reads::Gold => format!("{} gp", thousands(x.max(0.0).round() as u64)),
        Reads::Days => format!("{x:.1} days"),
    }
}

/// The size of a difference `d` (unsigned), with its unit.
fn size(d: f64, reads: Reads, digits: usize) -> String {
    let a = d.abs();
    match reads {
        Reads::Percent => format!("{:.digits$}", a * 100.0),
        Reads::PerPc => format!("{a:.3}"),
        Reads::Gold => thousands(a.round() as u64),
        Reads::Days => format!("{a:.1}"),
    }
}

/// The unit after a difference.
fn unit(reads: Reads) -> &'static str {
    match reads {
        Reads::Percent => " points",
        Reads::PerPc => "",
        Reads::Gold => " gp",
        Reads::Days => " days",
    }
}

/// A signed number for an interval that holds 0.
fn signed(d: f64, reads: Reads, digits: usize) -> String {
    let sign = if d < 0.0 { "-" } else { "+" };
    format!("{sign}{}", size(d, reads, digits))
}

/// One verdict line: the later variant's value against its partner's, and
/// the paired difference with its interval, in words (`0.084 more (0.080
/// to 0.087)`, `66 gp less (64 to 69)`, `no clear difference (-0.02 to
/// +0.06 points)`); `None` where both are 0 on every career.
fn line(label: &str, reads: Reads, values: [&Figure; 2], diff: &Figure) -> Option<String> {
    let d = &diff.estimate;
    if values.iter().all(|f| f.estimate.value == 0.0) && d.low == 0.0 && d.high == 0.0 {
        return None;
    }
    let digits = percent_digits(d.low.abs().min(d.high.abs()).max(d.value.abs()));
    let (lo, hi) = (size(d.low, reads, digits), size(d.high, reads, digits));
    let said = if d.low > 0.0 {
        format!(
            "{}{} more ({lo} to {hi})",
            size(d.value, reads, digits),
            unit(reads)
        )
    } else if d.high < 0.0 {
        format!(
            "{}{} less ({hi} to {lo})",
            size(d.value, reads, digits),
            unit(reads)
        )
    } else {
        format!(
            "no clear difference ({} to {}{})",
            signed(d.low, reads, digits),
            signed(d.high, reads, digits),
            unit(reads)
        )
    };
    Some(format!(
        "{label}: {} against {}, {said}",
        show(values[1].estimate.value, reads),
        show(values[0].estimate.value, reads),
    ))
}

/// The verdict of each pair `(partner, variant)` from the result's
/// figures; `cannot_differ[v]`: variant `v` has a warning that its
/// setting changes nothing.
pub(super) fn verdicts(
    result: &ScenarioResult,
    variants: &[Variant<CampaignVariant>],
    partners: &[Option<usize>],
    stated: &[(String, &'static str, Reads)],
    cannot_differ: &[bool],
) -> Vec<Verdict> {
    let mut out = Vec::new();
    for (v, partner) in partners.iter().enumerate() {
        let Some(u) = *partner else { continue };
        let names = [variants[u].name.as_str(), variants[v].name.as_str()];
        let mut lines = Vec::new();
        for (metric, label, reads) in stated {
            let (Some(a), Some(b), Some(d)) = (
                result.figure(names[0], metric),
                result.figure(names[1], metric),
                result.figure(names[1], &format!("{metric}{HEALING_DIFF}")),
            ) else {
                continue;
            };
            let Some(mut text) = line(label, *reads, [a, b], d) else {
                continue;
            };
            if metric == "p_tpk" {
                let events = |f: &Figure| (f.estimate.value * result.trials as f64).round() as u64;
                let (ea, eb) = (events(a), events(b));
                if ea.min(eb) < FEW_EVENTS {
                    text.push_str(&format!(
                        "; few events ({} and {} of {} careers), so read the interval",
                        thousands(eb),
                        thousands(ea),
                        thousands(result.trials)
                    ));
                }
            }
            lines.push(text);
        }
        let mut heading = format!(
            "{} against {} (only healing differs: {} against {}), {} careers each, paired {}% intervals:",
            names[1],
            names[0],
            variants[v].rules.healing.name(),
            variants[u].rules.healing.name(),
            thousands(result.trials),
            result.confidence * 100.0
        );
        if cannot_differ[u] && cannot_differ[v] {
            heading.push_str(" they cannot differ here (see the warnings)");
        }
        out.push(Verdict { heading, lines });
    }
    out
}

/// Per variant, the warning that its healing setting changes nothing
/// here, if so: no caster in the party and no temple can cast the
/// spells that heal a permanent wound at any level of the career, or the
/// most gold the purse can ever hold (the starting gold and the treasure
/// of every fight won) is less than the cheapest of those castings. Both
/// settings' own spells (*lesser* and *greater restoration*,
/// *resurrection*, *true resurrection*) heal wounds, and each costs at
/// least the cheapest healing, so then the setting changes nothing.
pub(super) fn warnings(variants: &[Variant<CampaignVariant>]) -> Vec<Option<String>> {
    variants
        .iter()
        .map(|v| {
            let r = &v.rules;
            let cheapest: Option<Vec<Option<u64>>> =
                r.levels.iter().map(|l| l.healing.cheapest_heal()).collect();
            // Levels beyond the tabulated casters: not known here.
            let cheapest = cheapest?;
            let (first, last) = (r.levels.first()?.level, r.levels.last()?.level);
            let setting = r.healing.name();
            let Some(price) = cheapest.into_iter().flatten().min() else {
                return Some(format!(
                    "`{}`: no caster in the party and no temple (temple_spell_level = {}) can cast the spells that heal a permanent wound at levels {first} to {last}, so healing = \"{setting}\" changes nothing here",
                    v.name, r.temple_spell_level
                ));
            };
            let fights = u64::from(r.calendar.days_per_level) * u64::from(r.calendar.fights_per_day);
            let treasure: u64 = r.levels.iter().map(|l| l.treasure * fights).sum();
            let most = r.starting_gold + treasure;
            (most < price).then(|| {
                format!(
                    "`{}`: the purse never holds the price of healing a permanent wound: at most {} gp over the career (starting_gold {} and {} gp of treasure if every fight is won), and the cheapest healing costs {} gp, so healing = \"{setting}\" changes nothing here",
                    v.name,
                    thousands(most),
                    thousands(r.starting_gold),
                    thousands(treasure),
                    thousands(price)
                )
            })
        })
        .collect()
}
