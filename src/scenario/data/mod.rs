//! The data files (`data/`, embedded in the binary) turned into model
//! values: the SRD bestiary ([`creature`]) and the lingering-injury table
//! ([`injury_table`]). [`builtin_catalog`] parses and validates them once,
//! at start-up, into a [`Catalog`]; a broken data file is a located error
//! (file, line:column, field), never an empty table or a panic.

pub mod creature;
pub mod injury_table;

use crate::model::Catalog;

use super::ScenarioError;

/// The SRD monsters, as shipped.
pub const BESTIARY_TOML: &str = include_str!("../../../data/bestiary.toml");

/// File name of the embedded bestiary in messages.
pub const BESTIARY_FILE: &str = "data/bestiary.toml (built-in)";

/// The default injury table (RULES.md §1), as shipped.
pub const INJURY_TABLE_TOML: &str = include_str!("../../../data/lingering-injuries.toml");

/// File name of the embedded injury table in messages.
pub const INJURY_TABLE_FILE: &str = "data/lingering-injuries.toml (built-in)";

/// Parses and validates the embedded data files.
///
/// ```
/// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
/// assert!(catalog.bestiary.lookup("hobgoblin").is_some());
/// assert_eq!(catalog.injury_table.entries.len(), 23);
/// ```
pub fn builtin_catalog() -> Result<Catalog, ScenarioError> {
    Ok(Catalog {
        bestiary: creature::parse_bestiary(BESTIARY_FILE, BESTIARY_TOML)?,
        injury_table: injury_table::parse_file(INJURY_TABLE_FILE, INJURY_TABLE_TOML)?,
    })
}
