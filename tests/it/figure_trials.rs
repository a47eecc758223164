//! The `trials` column is the number of observations behind each figure:
//! the trials for a per-trial figure, and for a conditional or per-event
//! figure the observations it is taken over. Checked on the golden
//! Monte Carlo output (which `tests/it/golden.rs` pins to the code), by
//! recounting those observations from other figures of the same run:
//!
//! * festering wounds: the wounds that closed are the trials that did not
//!   die, so `trials(mean_days_until_closed) = n − deaths`;
//! * lingering injuries: the injuries are `p_injury_per_event × events`,
//!   the injuries of entry X are `p_entry_X_per_event × events`, and the
//!   encounters are the trials × the encounters of a campaign.

use std::collections::HashMap;
use std::path::Path;

/// `(scenario, variant, metric)` → `(estimate, trials)`.
fn golden_summary() -> HashMap<(String, String, String), (f64, u64)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/mc/summary.csv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let key = (cells[0].into(), cells[1].into(), cells[2].into());
            (key, (cells[3].parse().unwrap(), cells[6].parse().unwrap()))
        })
        .collect()
}

/// A count recovered from a share of `n` (exact to far below 0.5).
fn count(share: f64, n: u64) -> u64 {
    let c = share * n as f64;
    assert!((c - c.round()).abs() < 1e-6, "{share} × {n} is not a count");
    c.round() as u64
}

fn variants<'a>(
    summary: &'a HashMap<(String, String, String), (f64, u64)>,
    scenario: &'a str,
) -> Vec<&'a str> {
    let mut v: Vec<&str> = summary
        .keys()
        .filter(|k| k.0 == scenario)
        .map(|k| k.1.as_str())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn days_until_closed_are_taken_over_the_wounds_that_closed() {
    let summary = golden_summary();
    let get = |v: &str, m: &str| summary[&("festering-wounds".into(), v.into(), m.into())];
    let vs = variants(&summary, "festering-wounds");
    assert!(vs.len() > 1);
    let mut with_deaths = 0;
    for v in vs {
        let (p_death, n) = get(v, "p_death");
        let closed = n - count(p_death, n);
        with_deaths += usize::from(closed < n);
        for metric in ["mean_days_until_closed", "q50_days_until_closed"] {
            if let Some(&(_, trials)) =
                summary.get(&("festering-wounds".into(), v.into(), metric.into()))
            {
                assert_eq!(trials, closed, "{v} {metric}");
            }
        }
        assert_eq!(get(v, "mean_max_hp_lost").1, n, "{v}: a per-trial figure");
    }
    assert!(with_deaths > 3, "too few variants where the counts differ");
}

#[test]
fn injury_figures_are_taken_over_events_encounters_and_injuries() {
    let summary = golden_summary();
    for scenario in ["lingering-injuries", "injury-costs"] {
        let vs = variants(&summary, scenario);
        assert!(!vs.is_empty());
        for v in vs {
            let get = |m: &str| summary.get(&(scenario.into(), v.into(), m.into())).copied();
            let Some((p_injury, events)) = get("p_injury_per_event") else {
                continue;
            };
            let (_, trials) = get("mean_injuries_per_campaign").unwrap();
            let (_, encounters) = get("p_injury_per_encounter").unwrap();
            assert!(events != trials && encounters != trials);
            assert_eq!(encounters % trials, 0, "{scenario} {v}");
            assert_eq!(get("mean_events_per_encounter").unwrap().1, encounters);
            let injuries = count(p_injury, events);
            if injuries > 0 {
                assert_eq!(get("mean_heal_gp_per_injury").unwrap().1, injuries);
                assert_eq!(get("p_uncurable_per_injury").unwrap().1, injuries);
            }
            let prefix = "p_entry_";
            let mut entries = 0;
            for key in summary.keys().filter(|k| k.0 == scenario && k.1 == v) {
                let Some(id) = key
                    .2
                    .strip_prefix(prefix)
                    .and_then(|m| m.strip_suffix("_per_event"))
                else {
                    continue;
                };
                let (p, n) = summary[key];
                assert_eq!(n, events);
                let of_entry = count(p, events);
                if of_entry > 0 {
                    assert_eq!(
                        get(&format!("mean_heal_gp_entry_{id}")).unwrap().1,
                        of_entry,
                        "{v} {id}"
                    );
                    entries += 1;
                }
            }
            assert!(
                entries > 10,
                "{scenario} {v}: only {entries} entries checked"
            );
        }
    }
}
