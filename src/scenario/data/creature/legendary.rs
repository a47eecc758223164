//! `legendary_resistance` and `legendary_actions` of a creature entry
//! (SRD 5.2 "Legendary Resistance", "Legendary Actions") into
//! [`CreatureSpec::legendary_resistance`] and [`Legendary`]: uses a day and
//! a round in range, at most [`MAX_LEGENDARY_OPTIONS`] options, each one
//! of the creature's attacks by name, costing no more uses than it has.
//! An entry that replaces a monster's `attacks` without restating its
//! legendary actions keeps them by attack name, or is refused when an
//! attack they name is gone.

use serde::Deserialize;
use toml::Spanned;

use crate::combat::creature::{
    Ability, AreaSave, CreatureSpec, Hampered, Legendary, LegendaryEffect, LegendaryOption,
    MAX_LEGENDARY_OPTIONS, MAX_LEGENDARY_USES,
};
use crate::rules::damage::DamageType;
use crate::scenario::values::{self, at, at_most, dice};
use crate::scenario::{Locator, ScenarioError};

use super::{Checked, RawCreature, ranged};

/// Legendary actions, as written:
/// `{ uses = 3, options = [{ name = "pounce", attack = "rend", moves_first = true }] }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLegendary {
    uses: Spanned<i64>,
    options: Spanned<Vec<Spanned<RawLegendaryOption>>>,
}

/// One option of [`RawLegendary`]: `attack = "NAME"` or `save = { dice,
/// type, save, dc, targets, on_success = "half" | "none" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLegendaryOption {
    name: Spanned<String>,
    attack: Option<Spanned<String>>,
    save: Option<Spanned<RawAreaSave>>,
    /// A spell of its `spellcasting`, by name.
    spell: Option<Spanned<String>>,
    cost: Option<Spanned<i64>>,
    #[serde(default)]
    once_per_round: bool,
    #[serde(default)]
    moves_first: bool,
}

/// A legendary option's saving throw against damage, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAreaSave {
    dice: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    save: Ability,
    dc: Spanned<i64>,
    targets: Spanned<i64>,
    #[serde(default)]
    on_success: OnSuccess,
    /// What a failure does beyond the damage, until the end of the
    /// target's next turn.
    on_failure: Option<RawHampered>,
}

/// A failed save's effects until the end of the target's next turn, as
/// written: `{ ac_penalty = 2, concentration_disadvantage = true,
/// speed_zero = true, speed_halved = true }` (any of them).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHampered {
    ac_penalty: Option<Spanned<i64>>,
    #[serde(default)]
    concentration_disadvantage: bool,
    #[serde(default)]
    speed_zero: bool,
    #[serde(default)]
    speed_halved: bool,
}

/// What a success on a legendary option's save does.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OnSuccess {
    /// Half damage.
    #[default]
    Half,
    /// No damage.
    None,
}

impl RawAreaSave {
    pub(super) fn build(&self, loc: &Locator, path: &str) -> Result<AreaSave, ScenarioError> {
        let field = |key: &str| format!("{path}.{key}");
        Ok(AreaSave {
            dice: dice(at(loc, &self.dice, field("dice")))?,
            kind: self.kind,
            save: (self.save, ranged(loc, &self.dc, &field("dc"), 1..=30)?),
            targets: ranged(loc, &self.targets, &field("targets"), 1..=20)? as u8,
            half: self.on_success == OnSuccess::Half,
            on_failure: match &self.on_failure {
                None => Hampered::NONE,
                Some(h) => Hampered {
                    ac_penalty: match &h.ac_penalty {
                        None => 0,
                        Some(p) => ranged(loc, p, &field("on_failure.ac_penalty"), 1..=10)? as u8,
                    },
                    concentration_disadvantage: h.concentration_disadvantage,
                    speed_zero: h.speed_zero,
                    speed_halved: h.speed_halved,
                },
            },
        })
    }
}

impl RawCreature {
    /// Legendary Resistance and legendary actions at `path`.
    pub(super) fn legendary_of(
        &self,
        loc: &Locator,
        path: &str,
        spec: &mut CreatureSpec,
    ) -> Checked {
        if let Some(v) = &self.legendary_resistance {
            spec.legendary_resistance =
                ranged(loc, v, &format!("{path}.legendary_resistance"), 0..=10)? as u8;
        }
        let field = format!("{path}.legendary_actions");
        match (&self.legendary_actions, &self.attacks) {
            (Some(raw), _) => spec.legendary = Some(raw.get_ref().build(loc, &field, spec)?),
            (None, Some(attacks)) => {
                if let Some(old) = spec.legendary.take() {
                    spec.legendary = Some(renamed(loc, &field, old, spec, attacks.span().start)?);
                }
            }
            (None, None) => {}
        }
        if self.spellcasting.is_some() && self.legendary_actions.is_none() {
            if let Some(l) = spec.legendary.as_mut() {
                let known: Vec<_> = spec
                    .known_spells
                    .iter()
                    .map(|k| (k.spell.name.clone(), k.innate.is_some()))
                    .collect();
                for option in &mut l.options {
                    let LegendaryEffect::Spell { known: index, name } = &mut option.effect else {
                        continue;
                    };
                    *index = known
                        .iter()
                        .position(|(n, innate)| *innate && n == name)
                        .ok_or_else(|| {
                            loc.error(
                                self.spellcasting.as_ref().map_or(0, |s| s.span().start),
                                &field,
                                format!(
                                    "the legendary action `{}` casts `{name}`, which this `spellcasting` \
                                     no longer has: give `legendary_actions` too",
                                    option.name
                                ),
                            )
                        })?;
                }
            }
        }
        Ok(())
    }
}

/// The index among `spec`'s known spells of its Spellcasting spell `name`.
fn innate_index(spec: &CreatureSpec, name: &str) -> Option<usize> {
    spec.known_spells
        .iter()
        .position(|k| k.innate.is_some() && k.spell.name == name)
}

/// The inherited legendary actions `old` with their attacks found again by
/// name among `spec`'s (replaced) attacks.
fn renamed(
    loc: &Locator,
    field: &str,
    mut old: Legendary,
    spec: &CreatureSpec,
    span: usize,
) -> Result<Legendary, ScenarioError> {
    for option in &mut old.options {
        let LegendaryEffect::Attack { index, name } = &mut option.effect else {
            continue;
        };
        *index = spec
            .attacks
            .iter()
            .position(|a| a.name == *name)
            .ok_or_else(|| {
                loc.error(
                    span,
                    field,
                    format!(
                        "the legendary action `{}` makes a `{name}` attack, which these `attacks` \
                         no longer have: give `legendary_actions` too",
                        option.name
                    ),
                )
            })?;
    }
    Ok(old)
}

impl RawLegendary {
    /// The legendary actions at `path` of a creature with `spec`'s attacks.
    fn build(
        &self,
        loc: &Locator,
        path: &str,
        spec: &CreatureSpec,
    ) -> Result<Legendary, ScenarioError> {
        let uses = ranged(
            loc,
            &self.uses,
            &format!("{path}.uses"),
            1..=i64::from(MAX_LEGENDARY_USES),
        )? as u8;
        at_most(
            &values::at(loc, &self.options, format!("{path}.options")),
            "legendary action options",
            MAX_LEGENDARY_OPTIONS,
        )?;
        let mut options: Vec<LegendaryOption> = Vec::new();
        for (i, raw) in self.options.get_ref().iter().enumerate() {
            let at = |key: &str| format!("{path}.options[{i}].{key}");
            let o = raw.get_ref();
            let name = o.name.get_ref().trim();
            if name.is_empty() || name.len() > crate::scenario::limits::MAX_LABEL_CHARS {
                return Err(loc.error(
                    o.name.span().start,
                    &at("name"),
                    format!(
                        "a name of 1 to {} characters",
                        crate::scenario::limits::MAX_LABEL_CHARS
                    ),
                ));
            }
            if options.iter().any(|p| p.name == name) {
                return Err(loc.error(
                    o.name.span().start,
                    &at("name"),
                    format!("`{name}` is listed twice"),
                ));
            }
            let effect = match (&o.attack, &o.save, &o.spell) {
                (None, None, Some(v)) => {
                    let name = v.get_ref().replace('-', "_");
                    let known = innate_index(spec, &name).ok_or_else(|| {
                        loc.error(
                            v.span().start,
                            &at("spell"),
                            format!("`{name}` is not a spell of this creature's `spellcasting`"),
                        )
                    })?;
                    LegendaryEffect::Spell { known, name }
                }
                (Some(a), None, None) => {
                    let name = a.get_ref();
                    let index = spec
                        .attacks
                        .iter()
                        .position(|x| x.name == *name)
                        .ok_or_else(|| {
                            loc.error(
                                a.span().start,
                                &at("attack"),
                                format!("`{name}` is not one of this creature's attacks"),
                            )
                        })?;
                    LegendaryEffect::Attack {
                        index,
                        name: name.clone(),
                    }
                }
                (None, Some(save), None) => {
                    LegendaryEffect::Save(save.get_ref().build(loc, &at("save"))?)
                }
                _ => {
                    return Err(loc.error(
                        raw.span().start,
                        &format!("{path}.options[{i}]"),
                        "give one of `attack` (one of its attacks, by name), `save` (a saving throw \
                         against damage) or `spell` (a spell of its `spellcasting`)",
                    ));
                }
            };
            let cost = match &o.cost {
                None => 1,
                Some(c) => ranged(loc, c, &at("cost"), 1..=i64::from(uses))? as u8,
            };
            options.push(LegendaryOption {
                name: name.to_string(),
                effect,
                cost,
                once_per_round: o.once_per_round,
                moves_first: o.moves_first,
            });
        }
        Ok(Legendary { uses, options })
    }
}

#[cfg(test)]
mod tests {
    use crate::combat::bestiary::Bestiary;
    use crate::combat::creature::LegendaryEffect;
    use crate::combat::templates::Templates;
    use crate::scenario::data::creature::parse_bestiary;

    fn templates() -> Templates {
        crate::scenario::data::templates::parse_file("t", crate::scenario::data::PC_TEMPLATES_TOML)
            .unwrap()
    }

    fn parsed(entry: &str) -> Result<Bestiary, String> {
        let text = format!(
            "[wyrm]\nhp = 50\nac = 15\nattacks = [{{ name = \"rend\", to_hit = 5, damage = \"1d10+3\", type = \"slashing\" }}, {{ name = \"tail\", to_hit = 5, damage = \"1d8+3\", type = \"bludgeoning\" }}]\n{entry}"
        );
        parse_bestiary("mine.toml", &text, &templates()).map_err(|e| e.to_string())
    }

    #[test]
    fn legendary_keys_are_read_into_the_statblock() {
        let b = parsed(
            "legendary_resistance = 3\nlegendary_actions = { uses = 3, options = [{ name = \"pounce\", attack = \"rend\", moves_first = true }, { name = \"swipe\", attack = \"tail\", cost = 2, once_per_round = true }, { name = \"gust\", save = { dice = \"4d6\", type = \"cold\", save = \"dex\", dc = 17, targets = 3, on_success = \"none\" } }] }\n",
        )
        .unwrap();
        let w = b.lookup("wyrm").unwrap();
        assert_eq!(w.legendary_resistance, 3);
        let l = w.legendary.as_ref().unwrap();
        assert_eq!(l.uses, 3);
        let o: Vec<_> = l
            .options
            .iter()
            .map(|o| (o.name.as_str(), o.cost, o.once_per_round, o.moves_first))
            .collect();
        assert_eq!(
            o,
            [
                ("pounce", 1, false, true),
                ("swipe", 2, true, false),
                ("gust", 1, false, false)
            ]
        );
        let attack = |i: usize| match &l.options[i].effect {
            LegendaryEffect::Attack { index, .. } => *index,
            LegendaryEffect::Save(_) | LegendaryEffect::Spell { .. } => usize::MAX,
        };
        assert_eq!((attack(0), attack(1)), (0, 1));
        let LegendaryEffect::Save(gust) = l.options[2].effect else {
            panic!("a save")
        };
        assert_eq!(
            (gust.dice.count, gust.save.1, gust.targets, gust.half),
            (4, 17, 3, false)
        );
    }

    #[test]
    fn bad_legendary_keys_are_refused_where_written() {
        let err = |entry: &str| parsed(entry).unwrap_err();
        let e = err(
            "legendary_actions = { uses = 3, options = [{ name = \"bite\", attack = \"bite\" }] }\n",
        );
        assert!(
            e.contains("mine.toml:5:70:")
                && e.contains("wyrm.legendary_actions.options[0].attack")
                && e.contains("`bite` is not one of this creature's attacks"),
            "{e}"
        );
        let e = err(
            "legendary_actions = { uses = 2, options = [{ name = \"p\", attack = \"rend\", cost = 3 }] }\n",
        );
        assert!(e.contains("wyrm.legendary_actions.options[0].cost"), "{e}");
        let e = err("legendary_actions = { uses = 9, options = [] }\n");
        assert!(e.contains("wyrm.legendary_actions.uses"), "{e}");
        let e = err(
            "legendary_actions = { uses = 3, options = [{ name = \"p\", attack = \"rend\" }, { name = \"p\", attack = \"tail\" }] }\n",
        );
        assert!(e.contains("listed twice"), "{e}");
        let e = err(
            "legendary_actions = { uses = 3, options = [{ name = \"p\", attack = \"rend\", save = { dice = \"1d6\", type = \"fire\", save = \"dex\", dc = 10, targets = 1 } }] }\n",
        );
        assert!(
            e.contains("wyrm.legendary_actions.options[0]") && e.contains("give one of"),
            "{e}"
        );
        let e = err(
            "legendary_actions = { uses = 3, options = [{ name = \"p\", save = { dice = \"1d6\", type = \"fire\", save = \"dex\", dc = 40, targets = 1 } }] }\n",
        );
        assert!(
            e.contains("wyrm.legendary_actions.options[0].save.dc"),
            "{e}"
        );
        let e = err("legendary_resistance = 11\n");
        assert!(e.contains("wyrm.legendary_resistance"), "{e}");
    }

    #[test]
    fn replaced_attacks_keep_the_legendary_actions_by_name_or_are_refused() {
        let catalog = crate::fixtures::catalog();
        let scenario = |attacks: &str| {
            let text = format!(
                "version = 1\nname = \"x\"\ntype = \"combat\"\ntrials = 10\nseed = 1\n[options]\nparty = [{{ template = \"fighter-5\" }}]\nmonsters = [{{ creature = \"adult-red-dragon\", attacks = [{attacks}] }}]\n"
            );
            crate::types::parse(catalog, "s.toml", &text)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        assert!(scenario("{ name = \"claw\", to_hit = 5, damage = \"1d6\", type = \"slashing\" }, { name = \"rend\", to_hit = 5, damage = \"1d6\", type = \"slashing\" }").is_ok());
        let e = scenario("{ name = \"claw\", to_hit = 5, damage = \"1d6\", type = \"slashing\" }")
            .unwrap_err();
        assert!(
            e.contains("monsters[0].legendary_actions") && e.contains("`rend`"),
            "{e}"
        );
    }
}
