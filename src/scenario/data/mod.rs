//! The data files (`data/`, embedded in the binary) turned into model
//! values: the SRD bestiary ([`creature`]), the lingering-injury table
//! ([`injury_table`]), the PC templates ([`templates`]) and the
//! permanent-wound examples ([`wounds`]). [`builtin_catalog`] parses and validates them once,
//! at start-up, into a [`Catalog`]; a broken data file is a located error
//! (file, line:column, field), never an empty table or a panic.

pub mod creature;
pub mod injury_table;
pub mod templates;
pub mod wounds;

use crate::model::Catalog;

use super::ScenarioError;

/// The SRD monsters, as shipped.
pub const BESTIARY_TOML: &str = include_str!("../../../data/bestiary.toml");

/// File name of the embedded bestiary in messages.
pub const BESTIARY_FILE: &str = "data/bestiary.toml (built-in)";

/// The default injury table (docs/rules.md, lingering injuries), as shipped.
pub const INJURY_TABLE_TOML: &str = include_str!("../../../data/lingering-injuries.toml");

/// File name of the embedded injury table in messages.
pub const INJURY_TABLE_FILE: &str = "data/lingering-injuries.toml (built-in)";

/// The PC templates (one build per class), as shipped.
pub const PC_TEMPLATES_TOML: &str = include_str!("../../../data/pc-templates.toml");

/// File name of the embedded PC templates in messages.
pub const PC_TEMPLATES_FILE: &str = "data/pc-templates.toml (built-in)";

/// The permanent-wound examples by severity, as shipped.
pub const PERMANENT_WOUNDS_TOML: &str = include_str!("../../../data/permanent-wounds.toml");

/// File name of the embedded permanent-wound examples in messages.
pub const PERMANENT_WOUNDS_FILE: &str = "data/permanent-wounds.toml (built-in)";

/// Parses and validates the embedded data files.
///
/// ```
/// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
/// assert!(catalog.bestiary.lookup("hobgoblin").is_some());
/// assert_eq!(catalog.injury_table.entries.len(), 23);
/// ```
pub fn builtin_catalog() -> Result<Catalog, ScenarioError> {
    let templates = templates::parse_file(PC_TEMPLATES_FILE, PC_TEMPLATES_TOML)?;
    Ok(Catalog {
        bestiary: creature::parse_bestiary(BESTIARY_FILE, BESTIARY_TOML, &templates)?,
        templates,
        wound_examples: wounds::parse_file(PERMANENT_WOUNDS_FILE, PERMANENT_WOUNDS_TOML)?,
        injury_table: injury_table::parse_file(INJURY_TABLE_FILE, INJURY_TABLE_TOML)?,
    })
}
