//! What the gate did not test, named: every untested figure on stdout,
//! grouped by scenario and reason (the documented exceptions: quantiles
//! across seeds, a figure undefined or without an interval in one run, a
//! metric of a folder without `metrics.csv` whose name follows no
//! convention), and the refusal to pass a comparison that tested nothing
//! that could move.

use super::CheckError;
use super::compare::{Comparison, Method, MetricCheck, Verdict};
use crate::results::thousands;

/// The untested figures of one scenario for one reason.
struct Group<'a> {
    scenario: &'a str,
    reason: &'a str,
    /// Each metric with the variants it is untested in, in first-seen order.
    metrics: Vec<(&'a str, Vec<&'a str>)>,
}

fn groups(c: &Comparison) -> Vec<Group<'_>> {
    let mut groups: Vec<Group> = Vec::new();
    for m in c.metrics.iter().filter(|m| m.verdict == Verdict::Untested) {
        let reason = m.note.as_deref().unwrap_or("not compared");
        let at = groups
            .iter()
            .position(|g| g.scenario == m.scenario && g.reason == reason)
            .unwrap_or_else(|| {
                groups.push(Group {
                    scenario: &m.scenario,
                    reason,
                    metrics: Vec::new(),
                });
                groups.len() - 1
            });
        let metrics = &mut groups[at].metrics;
        match metrics.iter_mut().find(|(name, _)| *name == m.metric) {
            Some((_, variants)) => variants.push(&m.variant),
            None => metrics.push((&m.metric, vec![&m.variant])),
        }
    }
    groups
}

/// One line per scenario and reason naming every untested figure:
/// `untested: 36 figures of festering-wounds: q50_max_hp_lost (12 variants),
/// ...; why: a quantile ...`. A metric untested in one variant is named
/// `variant/metric`. Empty when every figure was compared.
pub fn render(c: &Comparison) -> String {
    let mut out = String::new();
    for g in groups(c) {
        let count: usize = g.metrics.iter().map(|(_, v)| v.len()).sum();
        let names: Vec<String> = g
            .metrics
            .iter()
            .map(|(metric, variants)| match variants.as_slice() {
                [one] => format!("{one}/{metric}"),
                many => format!("{metric} ({} variants)", many.len()),
            })
            .collect();
        out.push_str(&format!(
            "untested: {} figure{} of {}: {}; why: {}\n",
            thousands(count as u64),
            if count == 1 { "" } else { "s" },
            g.scenario,
            names.join(", "),
            g.reason
        ));
    }
    out
}

/// Whether a figure's comparison could have found a change: compared bit
/// for bit or exactly, or tested.
fn could_move(m: &MetricCheck) -> bool {
    m.method != Method::None
}

/// `Err` when the comparison tested nothing that could move — every
/// figure in common untested, or the same in both runs without a test
/// that could have told (an undefined figure) — so that the gate never
/// passes on nothing. Names why the figures were not tested.
pub fn refuse_nothing_tested(c: &Comparison) -> Result<(), CheckError> {
    if c.metrics.is_empty() || c.metrics.iter().any(could_move) {
        return Ok(());
    }
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for m in &c.metrics {
        let reason = m.note.clone().unwrap_or_else(|| "not compared".into());
        match reasons.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => reasons.push((reason, 1)),
        }
    }
    let why: Vec<String> = reasons
        .iter()
        .map(|(r, n)| format!("{}: {r}", thousands(*n as u64)))
        .collect();
    Err(CheckError::NothingTested(format!(
        "nothing was tested that could move: none of the {} figures in common with baseline `{}` was compared ({})",
        thousands(c.metrics.len() as u64),
        c.baseline,
        why.join("; ")
    )))
}
