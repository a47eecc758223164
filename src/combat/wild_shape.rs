//! Wild Shape's forms (SRD 5.1, the druid: "Starting at 2nd level, you can
//! use your action to magically assume the shape of a beast that you have
//! seen before ... Beast Shapes" table; the Circle of the Land druid of the
//! templates). Which beasts a druid of a level may become ([`limits_at`],
//! the table: CR 1/4 and no flying or swimming speed at 2, CR 1/2 and no
//! flying speed at 4, CR 1 at 8), and the creature it is in a form
//! ([`form_of`]): "your game statistics are replaced by the statistics of
//! the beast, but you retain your alignment, personality, and
//! Intelligence, Wisdom, and Charisma scores. You also retain all of your
//! skill and saving throw proficiencies, in addition to gaining those of
//! the creature. If the creature has the same proficiency as you and the
//! bonus in its stat block is higher than yours, use the creature's bonus
//! instead."
//!
//! What a form does in a fight (its hit points first, the excess carrying
//! over to the druid, no spells, concentration kept) is the round loop's
//! (`encounter/wild_shape.rs`).

use super::ability::Ability;
use super::creature::CreatureSpec;

/// The Beast Shapes table: from a druid level, the highest challenge
/// rating and whether a flying and a swimming speed are allowed.
pub const BEAST_SHAPES: [BeastShapes; 3] = [
    BeastShapes {
        from_level: 2,
        max_cr: 0.25,
        fly: false,
        swim: false,
    },
    BeastShapes {
        from_level: 4,
        max_cr: 0.5,
        fly: false,
        swim: true,
    },
    BeastShapes {
        from_level: 8,
        max_cr: 1.0,
        fly: true,
        swim: true,
    },
];

/// One row of the Beast Shapes table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeastShapes {
    /// First druid level of the row.
    pub from_level: u8,
    /// The highest challenge rating of a form.
    pub max_cr: f32,
    /// A form may have a flying speed.
    pub fly: bool,
    /// A form may have a swimming speed.
    pub swim: bool,
}

/// The Beast Shapes row of a druid of `level` (`None` below 2nd level).
///
/// ```
/// use woundsim::combat::wild_shape::limits_at;
/// assert_eq!(limits_at(1), None);
/// assert_eq!(limits_at(3).unwrap().max_cr, 0.25);
/// assert!(limits_at(4).unwrap().swim && !limits_at(4).unwrap().fly);
/// assert_eq!(limits_at(20).unwrap().max_cr, 1.0);
/// ```
pub fn limits_at(level: u8) -> Option<BeastShapes> {
    BEAST_SHAPES
        .iter()
        .rev()
        .find(|row| level >= row.from_level)
        .copied()
}

/// Why a beast is no form for a druid of some level, in the user's words.
pub fn refusal(
    level: u8,
    kind: Option<&str>,
    challenge: f32,
    walk: u32,
    fly: u32,
    swim: u32,
) -> Option<String> {
    let Some(row) = limits_at(level) else {
        return Some(format!("a druid has Wild Shape from level 2, got {level}"));
    };
    if kind != Some("beast") {
        return Some(format!(
            "a Wild Shape form must be a beast, got a {}",
            kind.unwrap_or("creature of no type")
        ));
    }
    if challenge > row.max_cr {
        return Some(format!(
            "a druid of level {level} may take forms of challenge rating up to {}, got {challenge}",
            row.max_cr
        ));
    }
    if fly > 0 && !row.fly {
        return Some(format!(
            "a druid of level {level} may take no form with a flying speed (from level 8)"
        ));
    }
    if swim > 0 && !row.swim {
        return Some(format!(
            "a druid of level {level} may take no form with a swimming speed (from level 4)"
        ));
    }
    if walk == 0 {
        return Some("a form must walk (a fight is on land)".to_string());
    }
    None
}

/// The creature `druid` is in the shape of `beast`: the beast's
/// statistics, with the druid's Intelligence, Wisdom and Charisma saves
/// (its scores and proficiencies: the druid is proficient in none of the
/// beast's physical saves, so those are the beast's) and Medicine, its
/// level and name; no healing or class features. It keeps the druid's
/// known spells only for the spell it concentrates on (their save DCs and
/// effects, by the same indices): the round loop casts none in the form.
pub fn form_of(druid: &CreatureSpec, beast: &CreatureSpec) -> CreatureSpec {
    let mut form = beast.clone();
    form.name = format!("{} as {}", druid.name, beast.name);
    form.is_pc = druid.is_pc;
    form.level = druid.level;
    for a in [Ability::Int, Ability::Wis, Ability::Cha] {
        let i = a as usize;
        form.saves[i] = druid.saves[i];
    }
    form.medicine = druid.medicine;
    form.spellbook = None;
    form.known_spells = druid.known_spells.clone();
    form.heal = None;
    form.potions = Default::default();
    form.class_features = Default::default();
    form.hit_dice = None;
    form.start_hp = None;
    form.undead = false;
    form.wild_shape = None;
    form.legendary_resistance = 0;
    form.legendary = None;
    form.magic_resistance = false;
    form.parry = 0;
    form
}
