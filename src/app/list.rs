//! `woundsim list`: the built-in scenarios, the scenario types, and the
//! rule tables the simulator plays by — death saves, permanent wounds with
//! their examples, limb damage, the bestiary, the PC templates and the
//! lingering injuries — written from the rule data itself.

use std::io::Write;

use super::{AppError, print};
use crate::builtin;
use crate::combat::wounds::WoundExamples;
use crate::model::Catalog;
use crate::rules::death_saves::DeathSaveRules;
use crate::rules::permanent_wounds::Severity;
use crate::types;

/// Runs `woundsim list`.
pub(super) fn list(catalog: &Catalog, out: &mut dyn Write) -> Result<(), AppError> {
    let scenarios = builtin::all(catalog)?;
    let on_request = builtin::ON_REQUEST
        .iter()
        .filter_map(|(file, _)| builtin::find(catalog, file))
        .collect::<Result<Vec<_>, _>>()?;
    let mut text =
        String::from("Built-in scenarios (`woundsim run NAME ...`; no NAME runs them all):\n");
    for (k, s) in scenarios.iter().chain(&on_request).enumerate() {
        if k == scenarios.len() {
            text.push_str("Run by name only (not in the default suite):\n");
        }
        text.push_str(&format!(
            "  {:<20} type {:<12} {:>3} variants  {} trials  seed {}\n      {}\n      variants: {}\n",
            s.header.name,
            s.kind(),
            s.variant_names().len(),
            s.header.trials,
            s.header.seed,
            s.header.description,
            listed(&s.variant_names())
        ));
    }
    text.push_str(&format!("\nScenario types: {}\n", types::TYPES.join(", ")));
    text.push_str(&format!(
        "\nRule tables:\n  death saves (docs/rules.md, death saves): {}\n  permanent wounds (docs/rules.md, permanent wounds): successes before the \
         last failed save {}; one of each; a taken slot escalates; none free = dead\n",
        DeathSaveRules::default().describe(),
        Severity::describe_requirement(),
    ));
    for severity in Severity::ALL {
        let examples: Vec<String> = catalog
            .wound_examples
            .of(severity)
            .iter()
            .map(|e| {
                let mut effects = WoundExamples::effect_names(e.effects);
                if e.max_hp_per_level {
                    effects.push("max HP -1 per level");
                }
                match effects.is_empty() {
                    true => e.name.clone(),
                    false => format!("{} ({})", e.name, effects.join(", ")),
                }
            })
            .collect();
        text.push_str(&format!(
            "    {} (data/permanent-wounds.toml, one drawn uniformly): {}\n",
            severity.name(),
            examples.join("; ")
        ));
    }
    text.push_str(&limb_table());
    text.push_str(&format!(
        "  bestiary (data/bestiary.toml, SRD 5.1 under the old names; data/srd-bestiary.toml, SRD 5.2 by slug; NAME@5.2 where a slug is an old name): {}\n  PC templates: CLASS-LEVEL, CLASS one of {}, LEVEL 1..={}\n",
        catalog.bestiary.names().join(", "),
        catalog.templates.classes().join(", "),
        catalog.templates.max_level()
    ));
    let injuries = &catalog.injury_table;
    text.push_str(&format!(
        "  lingering injuries (docs/rules.md, lingering injuries; data/lingering-injuries.toml): on a critical hit taken or a natural 1 \
         rolled, {}% chance of a d100 entry:\n",
        injuries.chance.p() * 100.0
    ));
    for line in injuries.describe() {
        text.push_str(&format!("    {line}\n"));
    }
    // The bestiary and the rule tables are long lines: wrapped to the
    // terminal (120 columns off one).
    print(
        out,
        &crate::report::table::wrap_hanging(&text, crate::report::table::stdout_width()),
    )
}

/// Variant names for `list`: all of them, or the first 12 and the count of
/// a scan's many.
fn listed(names: &[&str]) -> String {
    const SHOWN: usize = 12;
    match names.len() > SHOWN {
        true => format!(
            "{}, ... ({} in all)",
            names[..SHOWN].join(", "),
            names.len()
        ),
        false => names.join(", "),
    }
}

/// The seed's limb-HP table and damage-type effects (docs/rules.md, limb damage), from the rule data.
fn limb_table() -> String {
    use crate::rules::limbs::{DamageType, LIMB_HP, LimbEffect, limb_effect};
    let mut text = String::from(
        "  limb damage (docs/rules.md, limb damage): limb HP by size (arm/leg), separate from the creature's HP:",
    );
    for row in LIMB_HP {
        text.push_str(&format!(" {:?} {}/{}", row.size, row.arm, row.leg));
    }
    let by = |effect: LimbEffect| -> String {
        DamageType::ALL
            .into_iter()
            .filter(|t| limb_effect(*t, false) == effect)
            .map(DamageType::name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    text.push_str(&format!(
        "; severs: {}; disables (when allowed): {}; head not amputable by default\n",
        by(LimbEffect::Sever),
        by(LimbEffect::Disable)
    ));
    text
}
