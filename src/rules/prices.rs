//! Spell facts and prices of the healing-cost model (docs/rules.md, permanent wounds): the SRD
//! spells that cure lingering injuries, which cure class each meets, full
//! caster spell slots by level, and the overridable price list (the seeds'
//! ritual material costs, potions of healing at 50 gp, temple fees derived
//! from the organized-play casting-services list and paid on top of the
//! materials). Re-exported by [`crate::rules::injury_cures`].

use crate::dice::DiceExpr;
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

/// A spell the cost model and the fight know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spell {
    /// Name in scenario files.
    pub name: &'static str,
    /// The classes whose SRD 5.1 spell list ("Spell Lists", by class) has it.
    pub classes: &'static [&'static str],
    /// Spell level (0: a cantrip).
    pub level: u8,
    /// Restores hit points (meets "magical healing").
    pub heals: bool,
    /// Restoration rank: 0 none, 1 lesser, 2 greater, 3 regenerate.
    pub restoration: u8,
    /// What it does in a fight (`None`: nothing the round loop models).
    pub in_fight: Option<InFight>,
}

/// A spell's use in a fight (SRD 5.1 spell texts). Every one here has a
/// verbal component, so knocked-out teeth can make it fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InFight {
    /// Cast as a bonus action (else an action).
    pub bonus_action: bool,
    /// Creatures one casting reaches.
    pub targets: u8,
    /// Its effect.
    pub effect: FightEffect,
}

/// What a spell does to its targets in a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FightEffect {
    /// Restores `dice` + the caster's spellcasting modifier (when
    /// `add_modifier`), `per_level` more for each slot level above the
    /// spell's.
    Heal {
        /// At the spell's own level.
        dice: DiceExpr,
        /// Added per slot level above it.
        per_level: DiceExpr,
        /// The spellcasting ability modifier is added.
        add_modifier: bool,
    },
    /// A dying creature becomes stable (*spare the dying*).
    Stabilize,
    /// A creature dead for at most `within_rounds` rounds returns with 1
    /// HP (*revivify*: 1 minute; its 300 gp diamond is consumed).
    Revive {
        /// Rounds since death (10 = 1 minute).
        within_rounds: u32,
    },
    /// `hp` more maximum and current hit points, `per_level` more for each
    /// slot level above the spell's, for 8 hours (*aid*).
    Aid {
        /// At the spell's own level.
        hp: i32,
        /// Per slot level above it.
        per_level: i32,
    },
}

const fn dice(count: u32, sides: u32, modifier: i32) -> DiceExpr {
    DiceExpr {
        count,
        sides,
        modifier,
    }
}

/// A healing spell's use in a fight: `base` at its level, `per_level`
/// more per slot level above, plus the modifier when `add_modifier`.
const fn heal(
    bonus_action: bool,
    targets: u8,
    base: DiceExpr,
    per_level: DiceExpr,
    add_modifier: bool,
) -> Option<InFight> {
    Some(InFight {
        bonus_action,
        targets,
        effect: FightEffect::Heal {
            dice: base,
            per_level,
            add_modifier,
        },
    })
}

/// An action spell with another effect, on `targets` creatures.
const fn other(targets: u8, effect: FightEffect) -> Option<InFight> {
    Some(InFight {
        bonus_action: false,
        targets,
        effect,
    })
}

impl FightEffect {
    /// The healing of a casting with a slot `above` levels above the
    /// spell's, for a caster with spellcasting modifier `modifier`.
    ///
    /// ```
    /// use woundsim::rules::injury_cures::{SPELLS, spell_index};
    /// let cure = SPELLS[spell_index("cure_wounds").unwrap()].in_fight.unwrap();
    /// assert_eq!(cure.effect.healing(2, 3).unwrap().to_string(), "3d8+3");
    /// let heal = SPELLS[spell_index("heal").unwrap()].in_fight.unwrap();
    /// assert_eq!(heal.effect.healing(1, 5).unwrap().to_string(), "80");
    /// ```
    pub fn healing(&self, above: u8, modifier: i32) -> Option<DiceExpr> {
        let FightEffect::Heal {
            dice,
            per_level,
            add_modifier,
        } = *self
        else {
            return None;
        };
        let above = u32::from(above);
        Some(DiceExpr {
            count: dice.count + per_level.count * above,
            sides: dice.sides,
            modifier: dice.modifier
                + per_level.modifier * above as i32
                + if add_modifier { modifier } else { 0 },
        })
    }
}

/// The spells of the cost model and the fight (SRD 5.1 levels and class spell lists).
pub const SPELLS: [Spell; 14] = [
    Spell {
        name: "cure_wounds",
        classes: &["bard", "cleric", "druid", "paladin", "ranger"],
        level: 1,
        heals: true,
        restoration: 0,
        in_fight: heal(false, 1, dice(1, 8, 0), dice(1, 8, 0), true),
    },
    Spell {
        name: "healing_word",
        classes: &["bard", "cleric", "druid"],
        level: 1,
        heals: true,
        restoration: 0,
        in_fight: heal(true, 1, dice(1, 4, 0), dice(1, 4, 0), true),
    },
    Spell {
        name: "lesser_restoration",
        classes: &["bard", "cleric", "druid", "paladin", "ranger"],
        level: 2,
        heals: false,
        restoration: 1,
        in_fight: None,
    },
    Spell {
        name: "greater_restoration",
        classes: &["bard", "cleric", "druid"],
        level: 5,
        heals: false,
        restoration: 2,
        in_fight: None,
    },
    Spell {
        name: "heal",
        classes: &["cleric", "druid"],
        level: 6,
        heals: true,
        restoration: 0,
        in_fight: heal(false, 1, dice(0, 1, 70), dice(0, 1, 10), false),
    },
    Spell {
        name: "regenerate",
        classes: &["bard", "cleric", "druid"],
        level: 7,
        heals: true,
        restoration: 3,
        in_fight: None,
    },
    Spell {
        name: "raise_dead",
        classes: &["bard", "cleric", "paladin"],
        level: 5,
        heals: false,
        restoration: 0,
        in_fight: None,
    },
    Spell {
        name: "resurrection",
        classes: &["bard", "cleric"],
        level: 7,
        heals: false,
        restoration: 0,
        in_fight: None,
    },
    Spell {
        name: "true_resurrection",
        classes: &["cleric", "druid"],
        level: 9,
        heals: false,
        restoration: 0,
        in_fight: None,
    },
    Spell {
        name: "mass_cure_wounds",
        classes: &["bard", "cleric", "druid"],
        level: 5,
        heals: true,
        restoration: 0,
        in_fight: heal(false, 6, dice(3, 8, 0), dice(1, 8, 0), true),
    },
    Spell {
        name: "mass_healing_word",
        classes: &["cleric"],
        level: 3,
        heals: true,
        restoration: 0,
        in_fight: heal(true, 6, dice(1, 4, 0), dice(1, 4, 0), true),
    },
    Spell {
        name: "spare_the_dying",
        classes: &["cleric"],
        level: 0,
        heals: false,
        restoration: 0,
        in_fight: other(1, FightEffect::Stabilize),
    },
    Spell {
        name: "revivify",
        classes: &["cleric", "paladin"],
        level: 3,
        heals: false,
        restoration: 0,
        in_fight: other(1, FightEffect::Revive { within_rounds: 10 }),
    },
    Spell {
        name: "aid",
        classes: &["cleric", "paladin"],
        level: 2,
        heals: false,
        restoration: 0,
        in_fight: other(
            3,
            FightEffect::Aid {
                hp: 5,
                per_level: 5,
            },
        ),
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
    /// Temple fees: `(spell index, gp per casting)`, paid on top of the
    /// casting's materials, never instead of them; a temple casts only the
    /// spells it has a fee for.
    pub services: Vec<(usize, f64)>,
    /// Materials a casting consumes, whoever casts: `(spell, gp)`.
    pub materials: Vec<(usize, f64)>,
    /// Replacement price of a broken weapon, armor or shield, other item.
    pub items: [f64; 3],
    /// The rarer potions of healing: greater, superior, supreme (the SRD
    /// prices none; **ours** by default, each within the Dungeon Master's
    /// Guide's price range for its rarity: uncommon 101–500 gp, rare
    /// 501–5,000 gp, very rare 5,001–50,000 gp).
    pub rarer_potions: [f64; 3],
}

/// The organized-play casting-services list (docs/rules.md, "What curing
/// costs"): `(spell, price of a whole casting, gp of consumed components the
/// price includes)`. The SRD 5.1 spell texts give the components: *greater
/// restoration* consumes 100 gp of diamond dust, *raise dead* a 500 gp
/// diamond, *resurrection* a 1,000 gp diamond, *true resurrection* 25,000 gp
/// of diamonds; *cure wounds* and *lesser restoration* consume nothing.
pub const ORGANIZED_PLAY_SERVICES: [(&str, f64, f64); 6] = [
    ("cure_wounds", 10.0, 0.0),
    ("lesser_restoration", 40.0, 0.0),
    ("greater_restoration", 450.0, 100.0),
    ("raise_dead", 1250.0, 500.0),
    ("resurrection", 3000.0, 1000.0),
    ("true_resurrection", 50_000.0, 25_000.0),
];

impl Default for PriceList {
    /// Potions 50 gp; temple fees derived from the organized-play list
    /// ([`ORGANIZED_PLAY_SERVICES`]: each price less the components it
    /// includes, so *cure wounds* 10, *lesser restoration* 40, *greater
    /// restoration* 350, *raise dead* 750, *resurrection* 2,000, *true
    /// resurrection* 25,000 gp), paid on top of the materials; the seeds'
    /// ritual material costs (standard setting: *lesser restoration* 100 gp,
    /// *greater restoration* 500 gp; *revivify* 300 gp, *raise dead* 500 gp,
    /// *resurrection* 1,000 gp, *true resurrection* 25,000 gp diamonds); a
    /// longsword (15 gp), a shield (10 gp) and a 2 gp sundry item as
    /// replacements.
    fn default() -> Self {
        let at = |n: &str| spell_index(n).unwrap_or(0);
        PriceList {
            potion_of_healing: 50.0,
            services: ORGANIZED_PLAY_SERVICES
                .iter()
                .map(|&(n, price, included)| (at(n), price - included))
                .collect(),
            materials: vec![
                (at("lesser_restoration"), 100.0),
                (at("greater_restoration"), 500.0),
                (at("revivify"), 300.0),
                (at("raise_dead"), 500.0),
                (at("resurrection"), 1000.0),
                (at("true_resurrection"), 25000.0),
            ],
            items: [15.0, 10.0, 2.0],
            rarer_potions: [150.0, 550.0, 5500.0],
        }
    }
}

impl PriceList {
    /// Gold of the materials one casting of `spell` consumes (0 when unlisted).
    pub fn material(&self, spell: usize) -> f64 {
        self.materials
            .iter()
            .find(|(s, _)| *s == spell)
            .map_or(0.0, |m| m.1)
    }

    /// The temple's fee for casting `spell`, without materials (`None`: it
    /// does not cast it).
    pub fn fee(&self, spell: usize) -> Option<f64> {
        self.services.iter().find(|(s, _)| *s == spell).map(|s| s.1)
    }

    /// What a temple charges for one casting of `spell` whose materials cost
    /// `materials`: its fee on top of them (`None`: no fee, no casting).
    ///
    /// ```
    /// use woundsim::rules::prices::{PriceList, spell_index};
    /// let prices = PriceList::default();
    /// let greater = spell_index("greater_restoration").unwrap();
    /// // The standard ritual's 500 gp of materials plus the 350 gp fee.
    /// assert_eq!(prices.temple_price(greater, 500.0), Some(850.0));
    /// ```
    pub fn temple_price(&self, spell: usize, materials: f64) -> Option<f64> {
        self.fee(spell).map(|fee| fee + materials)
    }

    /// The price of a potion of healing of rarity `k` in
    /// [`crate::combat::creature::POTIONS`] order (0: the common one).
    pub fn potion(&self, k: usize) -> f64 {
        match k {
            0 => self.potion_of_healing,
            k => self
                .rarer_potions
                .get(k - 1)
                .copied()
                .unwrap_or(f64::INFINITY),
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_fees_are_the_organized_play_prices_less_the_components_they_include() {
        let prices = PriceList::default();
        let fee = |n: &str| prices.fee(spell_index(n).unwrap());
        assert_eq!(fee("cure_wounds"), Some(10.0));
        assert_eq!(fee("lesser_restoration"), Some(40.0));
        assert_eq!(fee("greater_restoration"), Some(350.0));
        assert_eq!(fee("raise_dead"), Some(750.0));
        assert_eq!(fee("resurrection"), Some(2000.0));
        assert_eq!(fee("true_resurrection"), Some(25_000.0));
        assert_eq!(fee("revivify"), None);
        assert_eq!(prices.services.len(), ORGANIZED_PLAY_SERVICES.len());
        // The diamonds the list includes are the SRD components the materials list prices.
        for n in ["raise_dead", "resurrection", "true_resurrection"] {
            let (_, price, included) = ORGANIZED_PLAY_SERVICES
                .iter()
                .find(|s| s.0 == n)
                .copied()
                .unwrap();
            let spell = spell_index(n).unwrap();
            assert_eq!(prices.material(spell), included, "{n}");
            // Materials plus fee give back the list's price.
            assert_eq!(prices.temple_price(spell, included), Some(price), "{n}");
        }
    }

    #[test]
    fn a_spell_without_a_fee_has_no_temple_price_and_unlisted_materials_cost_nothing() {
        let prices = PriceList::default();
        let revivify = spell_index("revivify").unwrap();
        assert_eq!(prices.temple_price(revivify, 300.0), None);
        assert_eq!(prices.material(spell_index("cure_wounds").unwrap()), 0.0);
        assert_eq!(prices.material(revivify), 300.0);
    }
}
