//! A player character from another tool's sheet, as a creature entry that
//! starts from woundsim's class template and takes the sheet's own numbers
//! (docs/import.md, "Characters"). Each reader (`foundry.rs`: a Foundry VTT
//! dnd5e character actor; `dndbeyond.rs`: D&D Beyond's character JSON)
//! fills one neutral [`Sheet`]; [`entry`] makes the entry of it:
//!
//! - the template: the class of the most levels among the twelve SRD
//!   classes at that class's level, so that the class features the round
//!   loop models (Rage, Sneak Attack, Divine Smite, slots, ...) come with
//!   it; the character's level is the sum of its classes' (its proficiency
//!   bonus), other classes are listed as not modelled;
//! - hit points and armour class as the reader found them;
//! - saving throws: ability modifier, plus the proficiency bonus where
//!   proficient;
//! - attacks: every equipped weapon, with Strength, Dexterity for a ranged
//!   weapon, the better for a finesse one, the proficiency bonus and its
//!   magical bonus; the Attack action makes as many attacks as the
//!   template's (Extra Attack), with the weapon of the most expected damage
//!   (a melee one first);
//! - spells: those ready to cast that woundsim casts in a fight and the
//!   template has a slot for; the rest listed as not modelled.

pub mod dndbeyond;
pub mod foundry;

use toml::Value as Toml;

use crate::combat::templates::Templates;

use super::convert::Imported;
use super::{ABILITIES, ImportError, slug};

pub use dndbeyond::dndbeyond_character;
pub use foundry::foundry_character;

/// The most weapons a sheet's entry keeps.
const MAX_WEAPONS: usize = 20;

/// What a reader found on a sheet.
#[derive(Clone, Debug, Default)]
pub struct Sheet {
    /// The character's name.
    pub name: String,
    /// Its classes (lower-case name, levels), in the sheet's order.
    pub classes: Vec<(String, i64)>,
    /// The JSON path of the classes, for errors.
    pub classes_path: String,
    /// The six ability scores.
    pub scores: [i64; 6],
    /// Proficiency in each saving throw.
    pub save_proficient: [bool; 6],
    /// Maximum hit points, where the sheet gives or implies them.
    pub hp: Option<i64>,
    /// Armour class.
    pub ac: i64,
    /// Equipped weapons.
    pub weapons: Vec<Weapon>,
    /// The spells ready to cast (prepared, always prepared, known, cantrips).
    pub spells: Vec<String>,
    /// What the reader could not read.
    pub notes: Vec<String>,
}

/// An equipped weapon.
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    /// Its name on the sheet.
    pub name: String,
    /// Its damage dice ("1d8").
    pub dice: String,
    /// Its damage type (lower case).
    pub kind: String,
    /// A ranged weapon (Dexterity).
    pub ranged: bool,
    /// Finesse (the better of Strength and Dexterity).
    pub finesse: bool,
    /// Two-handed.
    pub two_handed: bool,
    /// Its magical bonus to attack and damage.
    pub magic: i64,
}

/// An ability score's modifier.
pub fn modifier(score: i64) -> i64 {
    (score - 10).div_euclid(2)
}

fn int(n: i64) -> Toml {
    Toml::Integer(n)
}

fn string(s: &str) -> Toml {
    Toml::String(s.to_string())
}

fn table(pairs: Vec<(&str, Toml)>) -> Toml {
    Toml::Table(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// The creature entry of a sheet read at `path`.
pub fn entry(sheet: Sheet, path: &str, templates: &Templates) -> Result<Imported, ImportError> {
    let Sheet {
        name,
        mut classes,
        classes_path,
        scores,
        save_proficient,
        hp,
        ac,
        weapons,
        spells,
        mut notes,
    } = sheet;
    let name = match name.trim() {
        "" => "character".to_string(),
        n => n.chars().take(64).collect(),
    };
    for c in &mut classes {
        c.1 = c.1.clamp(1, 20);
    }
    // Most levels first; the sheet's order among equals.
    classes.sort_by_key(|c| std::cmp::Reverse(c.1));
    let known = templates.classes();
    let Some(main) = classes.iter().find(|c| known.contains(&c.0.as_str())) else {
        return Err(ImportError::at(
            classes_path,
            format!(
                "`{name}` has no class woundsim has a template for (one of {}): a character needs one",
                known.join(", ")
            ),
        ));
    };
    let level: i64 = classes.iter().map(|c| c.1).sum::<i64>().clamp(1, 20);
    for c in classes.iter().filter(|c| c.0 != main.0) {
        notes.push(format!(
            "Multiclass: {} {} (its features are not modelled)",
            c.0, c.1
        ));
    }
    let template_name = format!("{}-{}", main.0, main.1);
    let template = templates.template(&template_name).ok_or_else(|| {
        ImportError::at(
            classes_path.clone(),
            format!("no template `{template_name}`"),
        )
    })?;
    let proficiency = 2 + (level - 1) / 4;
    let scores = scores.map(|s| s.clamp(1, 30));
    let mods = scores.map(modifier);

    let mut keys: Vec<(&'static str, Toml)> = vec![
        ("template", string(&template_name)),
        ("name", string(&name)),
        ("is_pc", Toml::Boolean(true)),
        ("level", int(level)),
    ];
    match hp {
        Some(hp) => keys.push(("hp", int(hp.clamp(1, 100_000)))),
        None => notes.push("Hit points: not on the sheet; the template's average".into()),
    }
    keys.push(("ac", int(ac.clamp(1, 40))));
    let saves = ABILITIES
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let bonus = if save_proficient[i] { proficiency } else { 0 };
            (*a, int((mods[i] + bonus).clamp(-10, 30)))
        })
        .collect();
    keys.push(("saves", table(saves)));

    // Weapons.
    let mut attacks: Vec<(String, Toml, f64)> = Vec::new();
    for w in weapons {
        match attack(&w, &mods, proficiency) {
            Some((t, mean)) if attacks.len() < MAX_WEAPONS => {
                let mut key = slug(&w.name);
                if key.is_empty() || attacks.iter().any(|a| a.0 == key) {
                    key = format!("weapon-{}", attacks.len() + 1);
                }
                let mut t = t;
                if let Toml::Table(m) = &mut t {
                    m.insert("name".into(), string(&key));
                }
                attacks.push((key, t, mean));
            }
            _ => notes.push(format!("{}: its damage is not read", w.name)),
        }
    }
    if !attacks.is_empty() {
        let count = template.multiattack.len().max(1);
        let best = attacks
            .iter()
            .filter(|a| a.1.get("reach").and_then(Toml::as_str) == Some("melee"))
            .chain(attacks.iter())
            .reduce(|b, a| if a.2 > b.2 { a } else { b })
            .map(|a| a.0.clone())
            .unwrap_or_default();
        keys.push((
            "attacks",
            Toml::Array(attacks.iter().map(|a| a.1.clone()).collect()),
        ));
        keys.push(("multiattack", Toml::Array(vec![string(&best); count])));
        notes.push("Attack rolls: fighting styles, feats and magic items' passive bonuses on the sheet are not added".into());
    }

    // Spells.
    let (spells, skipped) = castable(&spells, templates, &template);
    notes.extend(skipped);
    if !spells.is_empty() || template.spellbook.is_some() {
        keys.push((
            "spells",
            Toml::Array(spells.iter().map(|s| string(s)).collect()),
        ));
    }
    notes.truncate(64);
    keys.push((
        "not_modelled",
        Toml::Array(
            notes
                .iter()
                .map(|n| string(&n.chars().take(200).collect::<String>()))
                .collect(),
        ),
    ));
    Ok(Imported {
        name: name.clone(),
        slug: match slug(&name) {
            s if s.is_empty() => "character".into(),
            s => s,
        },
        path: path.to_string(),
        keys,
        not_modelled: notes,
    })
}

/// A weapon's attack (without its name) and mean damage; `None` when its
/// damage is not one woundsim reads.
fn attack(w: &Weapon, mods: &[i64; 6], proficiency: i64) -> Option<(Toml, f64)> {
    let ability = if w.finesse {
        mods[0].max(mods[1])
    } else if w.ranged {
        mods[1]
    } else {
        mods[0]
    };
    if !super::text::DAMAGE_TYPES.contains(&w.kind.as_str()) {
        return None;
    }
    let bonus = ability + w.magic;
    let expr = match bonus {
        0 => w.dice.clone(),
        b if b > 0 => format!("{}+{b}", w.dice),
        b => format!("{}{b}", w.dice),
    };
    let mean = expr.parse::<crate::dice::expr::DiceExpr>().ok()?.mean();
    let mut t = vec![
        (
            "to_hit",
            int((ability + proficiency + w.magic).clamp(-10, 30)),
        ),
        ("damage", string(&expr)),
        ("type", string(&w.kind)),
        ("reach", string(if w.ranged { "ranged" } else { "melee" })),
    ];
    if w.two_handed {
        t.push(("two_handed", Toml::Boolean(true)));
    }
    Some((table(t), mean))
}

/// The spells of `ready` the character casts in a fight, and notes for
/// the rest.
fn castable(
    ready: &[String],
    templates: &Templates,
    template: &crate::combat::creature::CreatureSpec,
) -> (Vec<String>, Vec<String>) {
    let highest = template.spellbook.as_ref().map_or(0, |b| b.highest_slot());
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    for title in ready {
        let key = super::text::spell_key(title);
        let combat = templates.spells.get(&key).filter(|sp| sp.cast_in_fights());
        let healing = crate::rules::prices::spell_index(&key)
            .filter(|&i| crate::rules::prices::SPELLS[i].in_fight.is_some());
        let spell_level = combat
            .map(|c| i64::from(c.level))
            .or(healing.map(|i| i64::from(crate::rules::prices::SPELLS[i].level)));
        let castable = spell_level.is_some_and(|l| l == 0 || l <= i64::from(highest));
        if castable && !out.contains(&key) {
            out.push(key);
        } else if !castable {
            notes.push(format!("Spell: {title}"));
        }
    }
    (out, notes)
}
