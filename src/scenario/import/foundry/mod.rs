//! Foundry VTT dnd5e NPC actors: what "Export Data" of an actor writes,
//! and what the system's compendium packs hold (`packs/_source/monsters`,
//! `packs/_source/actors24` of github.com/foundryvtt/dnd5e). The file is one
//! actor object or a JSON list of them; only `"type": "npc"` actors are read
//! (a `"character"` or any other type is an error naming the actor's path).
//!
//! Both item schemas are read: dnd5e 3.x (`system.actionType` "mwak",
//! "rwak", "msak", "rsak", "save"; `system.damage.parts` as
//! `[["1d10 + @mod", "piercing"]]`; `system.attackBonus`, `system.save`,
//! `system.recharge`, `system.activation`, `system.uses.per`) and 4.x/5.x
//! (`system.activities`: attack, save, damage, cast, utility... each with
//! its `activation`, `attack`, `damage.parts` of `{number, denomination,
//! bonus, types}`, `save.dc.calculation`, `target.template`, `uses.recovery`;
//! weapons' `system.damage.base`).
//!
//! Actor fields and where they go in the [`Statblock`]:
//! - `name` → name; `system.traits.size` ("tiny", "sm", "med", "lg", "huge",
//!   "grg") → size; `system.details.type.value` (or `.custom`) → kind;
//! - `system.attributes.ac`: `calc` "flat"/"natural" → `flat`; "default"
//!   → 10 + Dexterity modifier, or the equipped armour and shield items;
//!   "mage"/"draconic" → 13 + Dex; the unarmored defences; "custom" → its
//!   formula; `value` where a tool wrote the derived number;
//! - `system.attributes.hp.max` (else `value`, else the `formula`'s average);
//! - `system.attributes.movement` walk, fly, swim, climb, burrow, hover;
//! - `system.abilities.{str..cha}.value` → scores; `proficient` → save
//!   bonus (modifier + proficiency, plus a numeric `bonuses.save`);
//! - `system.attributes.init.bonus` (a number, or a formula such as
//!   `@prof * 2`) + the Dexterity (or `init.ability`) modifier → initiative;
//! - `system.details.cr` (0.125 → "1/8", 0.25 → "1/4", 0.5 → "1/2");
//!   proficiency from `system.attributes.prof`, else from the CR;
//! - `system.traits.dr/di/dv.value` → resistant/immune/vulnerable, their
//!   `bypasses` ("mgc", "ada", "sil") and `custom` text, `dm` amounts and
//!   `system.traits.ci` custom text → `not_modelled`; `ci.value` →
//!   condition_immune;
//! - `system.resources.legact.max` → legendary_uses (else "can take N
//!   legendary actions" in a "Legendary Actions" item);
//!   `system.resources.legres.max` → a trait "Legendary Resistance (N/Day)".
//!
//! Each item becomes one [`Feature`], in the file's order, in the section
//! its activation names (action, bonus, reaction, legendary; else a
//! trait; a "Multiattack" is an action), its name carrying "(Recharge
//! 5–6)", "(N/Day)" or "(Costs 2 Actions)". Its text is the statblock line
//! computed from the numbers — to-hit from the ability modifier (str for
//! melee, dex for ranged, the better one for finesse and natural weapons,
//! or the item's own ability), proficiency and flat bonuses; damage
//! averages; save DCs from `dc.calculation`/`scaling` or the formula —
//! in the sentence forms the shared text parser reads:
//!
//! - `Melee Attack Roll: +7, reach 5 ft. Hit: 10 (1d10 + 5) Piercing damage
//!   plus 7 (2d6) Fire damage.` (also `Ranged Attack Roll: ..., range
//!   80/320 ft.` and `Melee or Ranged Attack Roll: ..., reach 5 ft. or
//!   range 20/60 ft.`), followed by what the description says after the
//!   hit (riders such as "If the target is a Large or smaller creature, it
//!   has the Prone condition.");
//! - `Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone.
//!   Failure: 59 (17d6) Fire damage. Success: Half damage.`, where a
//!   2024-style description ("... Saving Throw: DC [[lookup ...]]") is
//!   used as it reads once its enrichers are resolved;
//! - one `Spellcasting` feature in [`Section::Spellcasting`] gathering the
//!   spell items (and the "cast" activities of a 2024 "Spellcasting"
//!   feat): `The mage casts spells using Intelligence as the spellcasting
//!   ability (spell save DC 14, +6 to hit with spell attacks). Cantrips (at
//!   will): fire bolt, light. 1st level (4 slots): magic missile, shield.`
//!   with `At will:` and `N/Day each:` groups for at-will and innate ones;
//! - anything else: its description, HTML removed and enrichers made words
//!   (`[[lookup @name lowercase]]` → "owlbear", `[[/item Rend]]` → "Rend",
//!   `@UUID[...]{Fireball}` → "Fireball", `&Reference[prone]` → "Prone",
//!   `[[/save]]` → "DC 21 Dexterity", `[[/damage average]]` → "63 (18d6)
//!   Fire"). A 3.x description's `<section class="secret">` (the GM's
//!   statblock text) is read instead of the players' flavour around it.
//!
//! Items dropped on purpose: `loot`, `container`, `backpack` and the
//! character-building `class`, `subclass`, `race`, `background` items;
//! equipment, consumables and tools without an attack or save (armour
//! counts towards AC only); weapons with no attack or other activity (gear
//! the NPC carries); spell items (listed in the Spellcasting feature
//! instead, and those a 2024 "cast" activity caches, `flags.dnd5e.cachedFor`);
//! a "Legendary Actions" header item (its number is `legendary_uses`) and
//! the "Legendary Resistance" item where `legres.max` gives the canonical
//! trait. An item whose numbers cannot be computed (a formula with an
//! unknown `@` term, say) keeps its name and description and gets a
//! `not_modelled` note.
//!
//! Errors carry the JSON path (`[2].system.attributes.hp.max` for the third
//! actor of a list, `system.attributes.ac.flat` for a single actor). The
//! actor-level numbers are checked strictly; items are read leniently.

use std::collections::BTreeMap;

use serde_json::Value;

use super::access;
use super::{ABILITIES, CONDITIONS, Feature, ImportError, SIZES, Section, Speed, Statblock};

/// The absent value, for lookups that find nothing.
static NULL: Value = Value::Null;

/// The abilities' names, in [`ABILITIES`] order.
const ABILITY_NAMES: [&str; 6] = [
    "Strength",
    "Dexterity",
    "Constitution",
    "Intelligence",
    "Wisdom",
    "Charisma",
];

/// Foundry's size keys, in [`SIZES`] order.
const SIZE_KEYS: [&str; 6] = ["tiny", "sm", "med", "lg", "huge", "grg"];

/// Skills: Foundry key, name, default ability index.
const SKILLS: [(&str, &str, usize); 18] = [
    ("acr", "Acrobatics", 1),
    ("ani", "Animal Handling", 4),
    ("arc", "Arcana", 3),
    ("ath", "Athletics", 0),
    ("dec", "Deception", 5),
    ("his", "History", 3),
    ("ins", "Insight", 4),
    ("itm", "Intimidation", 5),
    ("inv", "Investigation", 3),
    ("med", "Medicine", 4),
    ("nat", "Nature", 3),
    ("prc", "Perception", 4),
    ("prf", "Performance", 5),
    ("per", "Persuasion", 5),
    ("rel", "Religion", 3),
    ("slt", "Sleight of Hand", 1),
    ("ste", "Stealth", 1),
    ("sur", "Survival", 4),
];

/// Reads a Foundry VTT dnd5e actor export: one actor object, or a list of
/// them (each becomes one statblock, its path `[i]`).
pub fn read(value: &Value) -> Result<Vec<Statblock>, ImportError> {
    match value {
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, v)| read_actor(v, &format!("[{i}]")))
            .collect(),
        Value::Object(_) => Ok(vec![read_actor(value, "")?]),
        other => Err(ImportError::at(
            "",
            format!(
                "a Foundry VTT actor file holds an actor object or a list of them, not {}",
                access::kind(other)
            ),
        )),
    }
}

mod actor;
mod features;
mod formula;
mod html;
mod items;
mod json;
mod sentences;
#[cfg(test)]
mod tests;

use actor::*;
use features::*;
use formula::*;
use html::*;
use items::*;
use json::*;
use sentences::*;
