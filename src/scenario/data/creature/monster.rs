//! A `creature = NAME` resolved in the bestiary, or the message that
//! says why not: an ambiguous name lists its matches, an unknown one the
//! nearest names.

use toml::Spanned;

use crate::combat::bestiary::{Bestiary, Monster, Unresolved, hyphenated};
use crate::scenario::{Locator, ScenarioError};

/// The bestiary entry `name` (written at `name` in `loc`, field `field`)
/// means, or the located "unknown monster" error with the nearest names.
pub fn monster<'b>(
    bestiary: &'b Bestiary,
    loc: &Locator,
    name: &Spanned<String>,
    field: &str,
) -> Result<&'b Monster, ScenarioError> {
    bestiary.resolve(name.get_ref()).map_err(|miss| {
        loc.error(
            name.span().start,
            field,
            unknown_monster(name.get_ref(), miss, bestiary),
        )
    })
}

/// The message for a `creature = NAME` the bestiary cannot resolve.
fn unknown_monster(name: &str, miss: Unresolved, bestiary: &Bestiary) -> String {
    let entries = bestiary.names().len();
    let quote = |names: &[String]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match miss {
        Unresolved::Ambiguous(names) => format!(
            "monster `{name}` could be any of {}: write its exact name",
            quote(&names)
        ),
        Unresolved::Unknown => {
            let near = nearest_monsters(bestiary, name);
            let hint = match near.len() {
                0 => String::new(),
                1 => format!(" (did you mean `{}`?)", near[0]),
                _ => format!(" (did you mean one of {}?)", quote(&near)),
            };
            format!(
                "unknown monster `{name}`{hint}; names are SRD 5.2 slugs such as `adult-red-dragon`, the SRD 5.1 names of data/bestiary.toml, or your `bestiary` files' (`woundsim list` shows all {entries})"
            )
        }
    }
}

/// How many names a miss suggests at most.
const MAX_SUGGESTIONS: usize = 5;

/// The bestiary names nearest to `name`: the nearest by edit distance
/// ([`crate::scenario::wording::nearest`]), else (up to five) those that
/// contain its lower-case, hyphenated form.
pub fn nearest_monsters(bestiary: &Bestiary, name: &str) -> Vec<String> {
    let form = hyphenated(&name.trim().to_lowercase());
    let names = bestiary.names();
    if let Some(n) = crate::scenario::wording::nearest(&form, &names) {
        return vec![n.to_string()];
    }
    if form.chars().count() < 3 {
        return Vec::new();
    }
    names
        .iter()
        .filter(|n| n.contains(form.as_str()))
        .take(MAX_SUGGESTIONS)
        .map(|n| n.to_string())
        .collect()
}
