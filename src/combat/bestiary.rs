//! The bestiary: monsters as validated creature statistics, looked up by
//! name. The shipped SRD 5.1 monsters come from `data/bestiary.toml`,
//! parsed and validated once at start-up by [`crate::scenario::data`].
//! Facts from the System Reference Document 5.1 by Wizards of the Coast
//! LLC, licensed under CC-BY-4.0.

use super::creature::CreatureSpec;

/// Monsters by name, sorted by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bestiary {
    creatures: Vec<CreatureSpec>,
}

impl Bestiary {
    /// A bestiary of these monsters (each a distinct name).
    pub fn new(mut creatures: Vec<CreatureSpec>) -> Self {
        creatures.sort_by(|a, b| a.name.cmp(&b.name));
        Bestiary { creatures }
    }

    /// A monster by bestiary name (e.g. `hobgoblin`).
    pub fn lookup(&self, name: &str) -> Option<&CreatureSpec> {
        self.creatures.iter().find(|c| c.name == name)
    }

    /// Every monster name, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.creatures.iter().map(|c| c.name.as_str()).collect()
    }
}
