//! The campaign's charts and its table of constants (`encounters.csv`):
//! deaths, original PCs and total party kills over the levels (the last
//! only where there are any, with a note when they are few), gold over
//! the encounters, wound states, gold by purpose, the festering
//! distribution as bars.

use super::CampaignVariant;
use super::metrics::{
    END_STATES, FESTERING_BIN, FESTERING_DISTRIBUTION, ORIGINALS_BY_LEVEL, Shown, encounters_by_day,
};
use super::verdict::FEW_EVENTS;
use crate::model::{ScenarioHeader, Variant};
use crate::results::{ChartSpec, ConstantTable, LinePoints, thousands};

/// `encounters.csv`: per variant and level, the monsters of the level's
/// encounter, their XP and the party's budgets (constants of the scenario).
pub(super) fn encounters_table(variants: &[Variant<CampaignVariant>]) -> ConstantTable {
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
pub(super) fn charts(
    header: &ScenarioHeader,
    variants: &[Variant<CampaignVariant>],
    shown: Shown,
    festered: &[String],
    tpks: &[u64],
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
        let mut curves = vec![
            (
                "deaths-by-level".to_string(),
                "deaths per PC by level, cumulative".to_string(),
                after,
                "PC deaths per PC slot so far (a PC raised and killed again dies twice)",
                "deaths_per_pc_by_level_",
                false,
            ),
            (
                "original-pcs".to_string(),
                "original PCs still playing".to_string(),
                after,
                "Starting PCs alive and never replaced (% of the party)",
                ORIGINALS_BY_LEVEL,
                true,
            ),
        ];
        // The total party kills, only where there are any, with a note
        // when they are few (the band is the curve's interval).
        let most = tpks.iter().copied().max().unwrap_or(0);
        let fewest = tpks.iter().copied().min().unwrap_or(0);
        if most > 0 {
            let note = if fewest < FEW_EVENTS {
                format!(
                    ", few: {} to {} a variant",
                    thousands(fewest),
                    thousands(most)
                )
            } else {
                String::new()
            };
            curves.push((
                "tpk".to_string(),
                format!("total party kills by level{note}"),
                "Character level",
                "Careers ended by a TPK (%; read the band, the 95% interval)",
                "p_tpk_by_level_",
                true,
            ));
        }
        for (file, title, x_label, y_label, prefix, percent) in curves {
            charts.push(ChartSpec::Lines {
                file,
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
        charts.push(ChartSpec::Distribution {
            file: "festering-max-hp".into(),
            title: format!(
                "{}: max HP lost to festering wounds, PCs that lost any ({how})",
                header.name
            ),
            distribution: FESTERING_DISTRIBUTION.into(),
            x_label: format!(
                "Max HP a PC lost to festering wounds over the career (HP, bins of {FESTERING_BIN} from the value shown)"
            ),
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
            "gold_injuries_per_pc" => shown.injuries,
            "gold_potions_per_pc" => shown.potions,
            _ => true,
        })
        .map(|(m, l)| (m.to_string(), l.to_string()))
        .collect(),
        percent: false,
    });
    charts
}
