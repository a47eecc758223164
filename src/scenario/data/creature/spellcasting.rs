//! `spellcasting` of a creature entry (SRD 5.2 stat blocks' Spellcasting:
//! "casts one of the following spells ... (spell save DC 17, +9 to hit with
//! spell attacks): At Will: ...; 2/Day Each: Fireball (level 4 version)")
//! into known spells cast without spell slots ([`Innate`]): the save DC and
//! attack bonus in range, each spell one the round loop casts
//! (`data/spells.toml`), at its own level or higher, at will or 1 to 20
//! times a day, listed once, at most [`MAX_DAILY_SPELLS`] with uses a day.
//! They join the entry's other known spells (a template's, `spells`) and
//! replace the Spellcasting of a monster the entry starts from.

use serde::Deserialize;
use toml::Spanned;

use crate::combat::creature::CreatureSpec;
use crate::combat::spell::{Innate, KnownSpell, MAX_DAILY_SPELLS, MAX_KNOWN_SPELLS, Spells};
use crate::scenario::Locator;
use crate::scenario::values::{self, at_most};

use super::{Checked, RawCreature, ranged};

/// `spellcasting = { dc = 17, to_hit = 9, spells = [...] }`, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSpellcasting {
    dc: Spanned<i64>,
    to_hit: Spanned<i64>,
    spells: Spanned<Vec<Spanned<RawInnateSpell>>>,
}

/// One spell of [`RawSpellcasting`]: `{ spell = "fireball", level = 4,
/// per_day = 2 }` (no `level`: the spell's own; no `per_day`: at will;
/// `replaces_attack = true`: the Multiattack may cast it instead of one
/// attack; `legendary_only = true`: only a legendary option casts it).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInnateSpell {
    spell: Spanned<String>,
    level: Option<Spanned<i64>>,
    per_day: Option<Spanned<i64>>,
    /// The Multiattack may cast it in place of one attack.
    #[serde(default)]
    replaces_attack: bool,
    /// Only a legendary action casts it.
    #[serde(default)]
    legendary_only: bool,
}

impl RawCreature {
    /// The entry's `spellcasting` at `path`, appended to `spec`'s known
    /// spells.
    pub(super) fn spellcasting_of(
        &self,
        loc: &Locator,
        path: &str,
        spec: &mut CreatureSpec,
        spells: &Spells,
    ) -> Checked {
        let Some(raw) = &self.spellcasting else {
            return Ok(());
        };
        let path = format!("{path}.spellcasting");
        let raw = raw.get_ref();
        // It replaces the Spellcasting of the monster the entry starts from.
        spec.known_spells.retain(|k| k.innate.is_none());
        let dc = ranged(loc, &raw.dc, &format!("{path}.dc"), 1..=40)?;
        let to_hit = ranged(loc, &raw.to_hit, &format!("{path}.to_hit"), -10..=30)?;
        // Its spellcasting modifier (for a spell that adds it to damage):
        // the DC less 8 and the proficiency bonus (the entry's, else its
        // challenge rating's).
        let proficiency = self.proficiency_bonus.as_ref().map_or_else(
            || crate::rules::encounter_difficulty::proficiency_by_cr(f64::from(spec.challenge)),
            |p| (*p.get_ref()).clamp(2, 9) as i32,
        );
        let modifier = dc - 8 - proficiency;
        let list = values::at(loc, &raw.spells, format!("{path}.spells"));
        at_most(&list, "spells", MAX_KNOWN_SPELLS)?;
        let mut counters = 0u8;
        for (i, entry) in raw.spells.get_ref().iter().enumerate() {
            let field = format!("{path}.spells[{i}]");
            let entry = entry.get_ref();
            let name = entry.spell.get_ref().replace('-', "_");
            let error = |key: &str, message: String| {
                loc.error(entry.spell.span().start, &format!("{field}.{key}"), message)
            };
            let Some(spell) = spells.get(&name).filter(|s| s.cast_in_fights()) else {
                let castable = spells.castable_names();
                let hint = crate::scenario::wording::did_you_mean(&name, &castable);
                return Err(error(
                    "spell",
                    format!(
                        "`{name}` is not a spell the round loop casts{hint} (attack, control and buff spells of data/spells.toml; docs/spells.md)"
                    ),
                ));
            };
            if spec.known_spells.iter().any(|k| k.spell.name == name) {
                return Err(error("spell", format!("`{name}` is listed twice")));
            }
            let level = match &entry.level {
                Some(v) => ranged(loc, v, &format!("{field}.level"), 0..=9)? as u8,
                None => spell.level,
            };
            if level < spell.level {
                return Err(error(
                    "level",
                    format!(
                        "{} is a level-{} spell: it cannot be cast at level {level}",
                        spell.title, spell.level
                    ),
                ));
            }
            let per_day = match &entry.per_day {
                Some(v) => ranged(loc, v, &format!("{field}.per_day"), 1..=20)? as u8,
                None => 0,
            };
            let counter = if per_day > 0 {
                if usize::from(counters) == MAX_DAILY_SPELLS {
                    return Err(error(
                        "per_day",
                        format!("at most {MAX_DAILY_SPELLS} spells with uses a day"),
                    ));
                }
                counters += 1;
                counters - 1
            } else {
                0
            };
            if spec.known_spells.len() == MAX_KNOWN_SPELLS {
                return Err(list.error(format!(
                    "at most {MAX_KNOWN_SPELLS} attack, control and buff spells in all"
                )));
            }
            spec.known_spells.push(KnownSpell {
                spell: spell.clone(),
                dc,
                to_hit,
                damage_bonus: 0,
                bonus_every_roll: false,
                modifier_damage: if spell.damage_modifier { modifier } else { 0 },
                innate: Some(Innate {
                    level,
                    per_day,
                    counter,
                    replaces_attack: entry.replaces_attack,
                    legendary_only: entry.legendary_only,
                }),
            });
        }
        Ok(())
    }
}
