//! The shipped scenarios, embedded in the binary so `woundsim run` works from
//! any directory. The files live in `scenarios/` at the crate root.

use crate::model::Catalog;
use crate::scenario::ScenarioError;
use crate::scenario::command::CommandLayers;
use crate::types::{Scenario, parse_with};

/// `(file name, text)` of every built-in scenario, in default-suite order.
pub const BUILTIN: [(&str, &str); 16] = [
    (
        "death-saves.toml",
        include_str!("../scenarios/death-saves.toml"),
    ),
    (
        "permanent-wounds.toml",
        include_str!("../scenarios/permanent-wounds.toml"),
    ),
    (
        "lingering-injuries.toml",
        include_str!("../scenarios/lingering-injuries.toml"),
    ),
    (
        "festering-wounds.toml",
        include_str!("../scenarios/festering-wounds.toml"),
    ),
    (
        "injury-costs.toml",
        include_str!("../scenarios/injury-costs.toml"),
    ),
    (
        "amputation.toml",
        include_str!("../scenarios/amputation.toml"),
    ),
    (
        "reattachment.toml",
        include_str!("../scenarios/reattachment.toml"),
    ),
    (
        "combat-goblin-ambush.toml",
        include_str!("../scenarios/combat-goblin-ambush.toml"),
    ),
    (
        "combat-hobgoblins.toml",
        include_str!("../scenarios/combat-hobgoblins.toml"),
    ),
    (
        "combat-ogres.toml",
        include_str!("../scenarios/combat-ogres.toml"),
    ),
    (
        "combat-young-dragon.toml",
        include_str!("../scenarios/combat-young-dragon.toml"),
    ),
    (
        "combat-difficulty.toml",
        include_str!("../scenarios/combat-difficulty.toml"),
    ),
    (
        "combat-healers.toml",
        include_str!("../scenarios/combat-healers.toml"),
    ),
    (
        "combat-positions.toml",
        include_str!("../scenarios/combat-positions.toml"),
    ),
    (
        "campaign-healing-settings.toml",
        include_str!("../scenarios/campaign-healing-settings.toml"),
    ),
    (
        "campaign-career.toml",
        include_str!("../scenarios/campaign-career.toml"),
    ),
];

/// `(file name, text)` of the shipped scenarios that are run only by name,
/// not in the default suite: too long for it (the calibration is 180
/// variants; docs/calibration.md).
pub const ON_REQUEST: [(&str, &str); 1] = [(
    "combat-calibration.toml",
    include_str!("../scenarios/combat-calibration.toml"),
)];

/// Every shipped scenario: the default suite, then those run on request.
pub fn shipped() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    BUILTIN.iter().chain(ON_REQUEST.iter())
}

/// Parses every built-in scenario of the default suite.
pub fn all(catalog: &Catalog) -> Result<Vec<Scenario>, ScenarioError> {
    all_with(catalog, &CommandLayers::default())
}

/// Parses every built-in scenario with `--set` overrides.
pub fn all_with(catalog: &Catalog, layers: &CommandLayers) -> Result<Vec<Scenario>, ScenarioError> {
    BUILTIN
        .iter()
        .map(|(file, text)| parse_with(catalog, &source_name(file), text, layers))
        .collect()
}

/// Finds a shipped scenario (of the default suite or run on request) by
/// its name or file name (`death-saves`, `death-saves.toml`).
pub fn find(catalog: &Catalog, name: &str) -> Option<Result<Scenario, ScenarioError>> {
    find_with(catalog, name, &CommandLayers::default())
}

/// [`find`] with `--set` overrides.
pub fn find_with(
    catalog: &Catalog,
    name: &str,
    layers: &CommandLayers,
) -> Option<Result<Scenario, ScenarioError>> {
    lookup(name).map(|(file, text)| parse_with(catalog, &source_name(file), text, layers))
}

/// The file name and text of a shipped scenario, by its name or file name
/// (`death-saves`, `death-saves.toml`).
pub fn lookup(name: &str) -> Option<&'static (&'static str, &'static str)> {
    let stem = name.strip_suffix(".toml").unwrap_or(name);
    shipped().find(|(file, _)| file.strip_suffix(".toml") == Some(stem))
}

fn source_name(file: &str) -> String {
    format!("scenarios/{file} (built-in)")
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_builtin_scenario_parses() {
        let catalog = crate::fixtures::catalog();
        let all = super::all(catalog).expect("built-in scenarios are valid");
        assert_eq!(all.len(), super::BUILTIN.len());
        assert!(super::find(catalog, "death-saves").is_some());
        assert!(super::find(catalog, "permanent-wounds.toml").is_some());
        assert!(super::find(catalog, "amputation").is_some());
        assert!(super::find(catalog, "reattachment.toml").is_some());
        assert!(super::find(catalog, "nope").is_none());
        for (file, _) in super::ON_REQUEST {
            let s = super::find(catalog, file).expect("found by name");
            s.expect("an on-request scenario is valid");
            assert!(!super::BUILTIN.iter().any(|(f, _)| *f == file));
        }
    }
}
