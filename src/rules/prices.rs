//! Spell facts and prices of the healing-cost model (docs/rules.md, permanent wounds): the SRD
//! spells that cure lingering injuries, which cure class each meets, full
//! caster spell slots by level, and the overridable price list (the seeds'
//! ritual material costs, potions of healing at 50 gp, the organized-play
//! casting-services list). Re-exported by [`crate::rules::healing`].

use crate::rules::lingering::{ItemKind, MagicClass};

/// Which spell the seed's "Восстановление" (lose a finger) means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestorationReading {
    /// *Lesser restoration* (2nd level) or better.
    LesserRestoration,
    /// *Greater restoration* (5th level) or better (docs/rules.md default).
    #[default]
    GreaterRestoration,
    /// Only *regenerate*, as in the English original.
    Regenerate,
}

/// A spell the cost model knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spell {
    /// Name in scenario files.
    pub name: &'static str,
    /// Spell level.
    pub level: u8,
    /// Restores hit points (meets "magical healing").
    pub heals: bool,
    /// Restoration rank: 0 none, 1 lesser, 2 greater, 3 regenerate.
    pub restoration: u8,
}

/// The spells of the cost model (SRD 5.1 levels).
pub const SPELLS: [Spell; 10] = [
    Spell {
        name: "cure_wounds",
        level: 1,
        heals: true,
        restoration: 0,
    },
    Spell {
        name: "healing_word",
        level: 1,
        heals: true,
        restoration: 0,
    },
    Spell {
        name: "lesser_restoration",
        level: 2,
        heals: false,
        restoration: 1,
    },
    Spell {
        name: "greater_restoration",
        level: 5,
        heals: false,
        restoration: 2,
    },
    Spell {
        name: "heal",
        level: 6,
        heals: true,
        restoration: 0,
    },
    Spell {
        name: "regenerate",
        level: 7,
        heals: true,
        restoration: 3,
    },
    Spell {
        name: "raise_dead",
        level: 5,
        heals: false,
        restoration: 0,
    },
    Spell {
        name: "resurrection",
        level: 7,
        heals: false,
        restoration: 0,
    },
    Spell {
        name: "true_resurrection",
        level: 9,
        heals: false,
        restoration: 0,
    },
    Spell {
        name: "mass_cure_wounds",
        level: 5,
        heals: true,
        restoration: 0,
    },
];

/// Index of a spell in [`SPELLS`] by name.
pub fn spell_index(name: &str) -> Option<usize> {
    SPELLS.iter().position(|s| s.name == name)
}

impl Spell {
    /// Whether casting it meets a cure class.
    pub fn meets(&self, class: MagicClass, reading: RestorationReading) -> bool {
        match class {
            MagicClass::MagicalHealing => self.heals,
            MagicClass::Restoration => {
                let needed = match reading {
                    RestorationReading::LesserRestoration => 1,
                    RestorationReading::GreaterRestoration => 2,
                    RestorationReading::Regenerate => 3,
                };
                self.restoration >= needed
            }
            MagicClass::Healing6th => self.heals && self.level >= 6,
            MagicClass::Regenerate => self.restoration >= 3,
        }
    }
}

/// Prices in gp, all overridable per scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceList {
    /// A potion of healing (bought or used from the pack).
    pub potion_of_healing: f64,
    /// Temple casting services: `(spell index, gp per casting)`.
    pub services: Vec<(usize, f64)>,
    /// Materials consumed when the party's own healer casts: `(spell, gp)`.
    pub materials: Vec<(usize, f64)>,
    /// Replacement price of a broken weapon, armor or shield, other item.
    pub items: [f64; 3],
}

impl Default for PriceList {
    /// Potions 50 gp; the organized-play services list (docs/rules.md, permanent wounds); the
    /// seeds' ritual material costs (standard setting: *lesser restoration*
    /// 100 gp, *greater restoration* 500 gp; *resurrection* 1,000 gp, *true
    /// resurrection* 25,000 gp diamonds); a longsword (15 gp), a shield
    /// (10 gp) and a 2 gp sundry item as replacements.
    fn default() -> Self {
        let at = |n: &str| spell_index(n).unwrap_or(0);
        PriceList {
            potion_of_healing: 50.0,
            services: vec![
                (at("cure_wounds"), 10.0),
                (at("lesser_restoration"), 40.0),
                (at("greater_restoration"), 450.0),
                (at("raise_dead"), 1250.0),
                (at("resurrection"), 3000.0),
                (at("true_resurrection"), 50000.0),
            ],
            materials: vec![
                (at("lesser_restoration"), 100.0),
                (at("greater_restoration"), 500.0),
                (at("raise_dead"), 500.0),
                (at("resurrection"), 1000.0),
                (at("true_resurrection"), 25000.0),
            ],
            items: [15.0, 10.0, 2.0],
        }
    }
}

impl PriceList {
    /// Replacement price of an item kind.
    pub fn item(&self, kind: ItemKind) -> f64 {
        match kind {
            ItemKind::Weapon => self.items[0],
            ItemKind::ArmorOrShield => self.items[1],
            ItemKind::Other => self.items[2],
        }
    }
}

/// Highest spell-slot level of a full caster of each level 1..=20 (PHB).
pub fn full_caster_slots(level: u8) -> [u8; 9] {
    const TABLE: [[u8; 9]; 20] = [
        [2, 0, 0, 0, 0, 0, 0, 0, 0],
        [3, 0, 0, 0, 0, 0, 0, 0, 0],
        [4, 2, 0, 0, 0, 0, 0, 0, 0],
        [4, 3, 0, 0, 0, 0, 0, 0, 0],
        [4, 3, 2, 0, 0, 0, 0, 0, 0],
        [4, 3, 3, 0, 0, 0, 0, 0, 0],
        [4, 3, 3, 1, 0, 0, 0, 0, 0],
        [4, 3, 3, 2, 0, 0, 0, 0, 0],
        [4, 3, 3, 3, 1, 0, 0, 0, 0],
        [4, 3, 3, 3, 2, 0, 0, 0, 0],
        [4, 3, 3, 3, 2, 1, 0, 0, 0],
        [4, 3, 3, 3, 2, 1, 0, 0, 0],
        [4, 3, 3, 3, 2, 1, 1, 0, 0],
        [4, 3, 3, 3, 2, 1, 1, 0, 0],
        [4, 3, 3, 3, 2, 1, 1, 1, 0],
        [4, 3, 3, 3, 2, 1, 1, 1, 0],
        [4, 3, 3, 3, 2, 1, 1, 1, 1],
        [4, 3, 3, 3, 3, 1, 1, 1, 1],
        [4, 3, 3, 3, 3, 2, 1, 1, 1],
        [4, 3, 3, 3, 3, 2, 2, 1, 1],
    ];
    match level {
        0 => [0; 9],
        l => TABLE[usize::from(l.min(20)) - 1],
    }
}
