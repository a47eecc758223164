//! Encounter difficulty of a combat variant, by the SRD 5.2 encounter
//! budgets ([`crate::rules::encounter_difficulty`]): the encounter's XP,
//! the party's Low/Moderate/High budgets and the difficulty they give,
//! reported per variant as constants — the table `encounter.csv` — and the
//! chart of deaths and injuries against encounter XP. (The monster side a
//! `difficulty` builds is [`crate::scenario::fights::budget`]'s.)

use super::CombatVariant;
use crate::model::{ScenarioHeader, Variant};
use crate::results::{ChartSpec, ConstantTable, LinePoints, thousands};
use crate::rules::encounter_difficulty::rate;

/// The columns of `encounter.csv`.
pub const ENCOUNTER_COLUMNS: [&str; 10] = [
    "variant",
    "monsters",
    "encounter_xp",
    "party_levels",
    "low_budget",
    "moderate_budget",
    "high_budget",
    "difficulty",
    "built_for",
    "note",
];

/// `encounter.csv`: one row per variant.
pub fn table(variants: &[Variant<CombatVariant>]) -> ConstantTable {
    let rows = variants
        .iter()
        .map(|v| {
            let e = &v.rules.difficulty;
            let budget = e.budget();
            let notes: Vec<&str> = [e.xp.as_ref().err(), budget.as_ref().err()]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            let [low, moderate, high] = e.budget_cells();
            vec![
                v.name.clone(),
                e.monsters_cell(),
                e.xp_cell(),
                e.levels.as_ref().map_or(String::new(), |l| {
                    l.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
                }),
                low,
                moderate,
                high,
                match (&e.xp, &budget) {
                    (Ok(xp), Ok(b)) => rate(*xp, *b).label().to_string(),
                    _ => String::new(),
                },
                e.built_for.clone().unwrap_or_default(),
                notes.join("; "),
            ]
        })
        .collect();
    ConstantTable {
        file: "encounter".into(),
        columns: ENCOUNTER_COLUMNS.iter().map(|c| c.to_string()).collect(),
        rows,
        shown: vec!["encounter_xp".into(), "difficulty".into()],
    }
}

/// The chart of deaths and injuries against encounter XP: one curve per
/// headline share (a PC dies, a PC drops; a permanent wound and a
/// lingering injury when some variant has the rule on), x = each
/// variant's encounter XP. Drawn when every variant's XP is known and no
/// two variants share one (one point per XP), at least two.
pub fn chart(
    header: &ScenarioHeader,
    variants: &[Variant<CombatVariant>],
    injuries: bool,
) -> Option<ChartSpec> {
    let mut points: Vec<(f64, String)> = variants
        .iter()
        .map(|v| {
            v.rules
                .difficulty
                .xp
                .as_ref()
                .ok()
                .map(|&xp| (xp as f64, v.name.clone()))
        })
        .collect::<Option<_>>()?;
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    if points.len() < 2 || points.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let wounds = variants.iter().any(|v| {
        v.rules.encounter.rules.death_saves.wound_policy
            != crate::rules::permanent_wounds::WoundPolicy::Never
    });
    let mut curves = vec![
        ("p_pc_death", "a PC dies"),
        ("p_pc_down", "a PC drops to 0 HP"),
    ];
    if wounds {
        curves.push(("p_permanent_wound", "a permanent wound"));
    }
    if injuries {
        curves.push(("p_injury", "a lingering injury"));
    }
    let what = if injuries {
        "deaths and injuries"
    } else {
        "deaths and drops"
    };
    Some(ChartSpec::Lines {
        file: "deaths-by-xp".into(),
        title: format!(
            "{}: {what} against encounter XP ({} trials per variant)",
            header.name,
            thousands(header.trials)
        ),
        x_label: "Encounter XP (the monsters' XP summed; budgets in encounter.csv)".into(),
        y_label: "Trials in which it happens (%)".into(),
        variants: curves.iter().map(|(_, l)| l.to_string()).collect(),
        points: LinePoints::PerMetric {
            metrics: curves.iter().map(|(m, _)| m.to_string()).collect(),
            points,
        },
        percent: true,
    })
}
