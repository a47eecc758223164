//! `spells`, `spell_slots`, `spellcasting_modifier` and `diamonds` of a
//! creature entry into its spellbook and its known spells: a caster
//! template brings its slots, modifier and spells, the keys override them,
//! and each spell named must be one the round loop casts (a healing spell
//! of the healing policy, or an attack, control or buff spell of
//! `data/spells.toml`), have a slot of its level, and appear once. The
//! list replaces the template's spells of both kinds.

use toml::Spanned;

use crate::combat::creature::{CreatureSpec, Spellbook};
use crate::combat::spell::{MAX_KNOWN_SPELLS, Spells};
use crate::combat::templates::{Templates, known_spell};
use crate::rules::injury_cures::{SPELLS, spell_index};
use crate::scenario::values::{self, at_most};
use crate::scenario::{Locator, ScenarioError};

use super::{Checked, RawCreature, ranged};

impl RawCreature {
    /// The entry's spell keys into `spec`'s spellbook (none given: `spec`
    /// as it is). Listed spells replace a spell-slot healing feature
    /// (healing word of a template), which would spend the same slots.
    pub(super) fn spells_of(
        &self,
        loc: &Locator,
        path: &str,
        spec: &mut CreatureSpec,
        templates: &Templates,
    ) -> Checked {
        let given = self.spells.is_some()
            || self.spell_slots.is_some()
            || self.spellcasting_modifier.is_some()
            || self.diamonds.is_some();
        if !given {
            return Ok(());
        }
        let mut book = spec.spellbook.clone().unwrap_or_default();
        self.slots_of(loc, path, &mut book)?;
        book.spells.clear();
        // The spell save DC and attack bonus of its level and modifier.
        let proficiency = templates
            .progression
            .proficiency_bonus
            .get(usize::from(spec.level.max(1)) - 1)
            .copied()
            .unwrap_or(2);
        if let Some(list) = &self.spells {
            let (healing, combat) =
                spell_list(loc, path, list, &book, &spec.name, &templates.spells)?;
            book.spells = healing;
            let old = std::mem::take(&mut spec.known_spells);
            // A monster's Spellcasting stays: the list replaces slot spells.
            let innate: Vec<_> = old.iter().filter(|k| k.innate.is_some()).cloned().collect();
            spec.known_spells = combat
                .into_iter()
                .map(|i| {
                    let spell = templates.spells.spells[i].clone();
                    // A damage bonus of the template's own (Elemental
                    // Affinity) stays with its spell.
                    let bonus = old
                        .iter()
                        .find(|k| k.spell.name == spell.name)
                        .map_or(0, |k| k.damage_bonus);
                    known_spell(spell, proficiency, book.modifier, bonus)
                })
                .collect();
            spec.known_spells.extend(innate);
            if spec.heal.is_some_and(|h| h.spell) {
                spec.heal = None;
            }
        } else {
            for k in spec.known_spells.iter_mut().filter(|k| k.innate.is_none()) {
                *k = known_spell(k.spell.clone(), proficiency, book.modifier, k.damage_bonus);
            }
        }
        spec.spellbook = Some(book);
        Ok(())
    }

    /// `spell_slots` (replacing all of the template's), the spellcasting
    /// modifier and the diamonds.
    fn slots_of(&self, loc: &Locator, path: &str, book: &mut Spellbook) -> Checked {
        let at = |key: &str| format!("{path}.{key}");
        if let Some(list) = &self.spell_slots {
            at_most(&values::at(loc, list, at("spell_slots")), "slot levels", 9)?;
            book.slots = [0; 9];
            for (i, n) in list.get_ref().iter().enumerate() {
                book.slots[i] = ranged(loc, n, &format!("{path}.spell_slots[{i}]"), 0..=10)? as u8;
            }
        }
        if let Some(v) = &self.spellcasting_modifier {
            book.modifier = ranged(loc, v, &at("spellcasting_modifier"), -5..=10)?;
        }
        if let Some(v) = &self.diamonds {
            book.diamonds = ranged(loc, v, &at("diamonds"), 0..=100)? as u8;
        }
        Ok(())
    }
}

/// The spells of `spells = [...]`: the healing spells as indices into
/// [`SPELLS`], the attack, control and buff spells as indices into
/// `combat`, each one `book` can cast (`caster` names the creature in a
/// message).
fn spell_list(
    loc: &Locator,
    path: &str,
    list: &Spanned<Vec<Spanned<String>>>,
    book: &Spellbook,
    caster: &str,
    combat: &Spells,
) -> Result<(Vec<usize>, Vec<usize>), ScenarioError> {
    let mut castable: Vec<&str> = SPELLS
        .iter()
        .filter(|s| s.in_fight.is_some())
        .map(|s| s.name)
        .collect();
    castable.extend(combat.castable_names());
    at_most(
        &values::at(loc, list, format!("{path}.spells")),
        "spells",
        castable.len(),
    )?;
    let (mut healing, mut attack) = (Vec::new(), Vec::new());
    for (i, name) in list.get_ref().iter().enumerate() {
        let check = SpellCheck {
            loc,
            field: format!("{path}.spells[{i}]"),
            name,
        };
        let wanted = name.get_ref().replace('-', "_");
        if let Some(k) = combat
            .index(&wanted)
            .filter(|&k| combat.spells[k].cast_in_fights())
            .filter(|_| spell_index(&wanted).is_none_or(|h| SPELLS[h].in_fight.is_none()))
        {
            let level = combat.spells[k].level;
            check.level_has_slot(level, &combat.spells[k].name, book, caster)?;
            if attack.contains(&k) {
                return Err(check.error(format!("`{wanted}` is listed twice")));
            }
            attack.push(k);
            continue;
        }
        let index = check.castable(&castable)?;
        check.has_slot(index, book, caster)?;
        if healing.contains(&index) {
            return Err(check.error(format!("`{}` is listed twice", SPELLS[index].name)));
        }
        healing.push(index);
    }
    if attack.len() > MAX_KNOWN_SPELLS {
        return Err(
            values::at(loc, list, format!("{path}.spells")).error(format!(
                "at most {MAX_KNOWN_SPELLS} attack, control and buff spells, got {}",
                attack.len()
            )),
        );
    }
    Ok((healing, attack))
}

/// One spell of a `spells` list, for its checks.
struct SpellCheck<'a> {
    loc: &'a Locator<'a>,
    /// `....spells[i]`.
    field: String,
    /// The spell as written.
    name: &'a Spanned<String>,
}

impl SpellCheck<'_> {
    /// The error about this spell.
    fn error(&self, message: String) -> ScenarioError {
        self.loc.error(self.name.span().start, &self.field, message)
    }

    /// Its index in [`SPELLS`], if it is one of `castable` (those with a
    /// use in a fight; `-` may stand for `_`).
    fn castable(&self, castable: &[&str]) -> Result<usize, ScenarioError> {
        let wanted = self.name.get_ref().replace('-', "_");
        let index = spell_index(&wanted).filter(|&k| SPELLS[k].in_fight.is_some());
        index.ok_or_else(|| {
            let hint = crate::scenario::wording::did_you_mean(&wanted, castable);
            self.error(format!(
                "unknown spell `{}`{hint}; spells cast in a fight: {}",
                self.name.get_ref(),
                castable.join(", ")
            ))
        })
    }

    /// Whether `book` has a slot of the level of spell `index`.
    fn has_slot(&self, index: usize, book: &Spellbook, caster: &str) -> Result<(), ScenarioError> {
        self.level_has_slot(SPELLS[index].level, SPELLS[index].name, book, caster)
    }

    /// Whether `book` has a slot of `level` for the spell `name`.
    fn level_has_slot(
        &self,
        level: u8,
        name: &str,
        book: &Spellbook,
        caster: &str,
    ) -> Result<(), ScenarioError> {
        if level <= book.highest_slot() {
            return Ok(());
        }
        let has = match book.highest_slot() {
            0 => "no spell slots".to_string(),
            n => format!("spell slots up to level {n}"),
        };
        Err(self.error(format!(
            "`{name}` is a level-{level} spell, but `{caster}` has {has} (a higher-level caster, or `spell_slots`)"
        )))
    }
}
