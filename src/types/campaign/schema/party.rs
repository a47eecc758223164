//! The campaign's party (`party = [...]`): each member a class, levelled
//! with the party from its PC templates, or a fixed creature the same at
//! every level; names that are distinct as metric names.

use serde::Deserialize;
use toml::Spanned;

use super::RawSettings;
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::MAX_PCS;
use crate::combat::magic_items::{MagicItems, typical};
use crate::combat::templates::ClassTemplate;
use crate::model::Catalog;
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::{RawCreature, RawMagicItems, magic_items};
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::values;
use crate::scenario::wording::did_you_mean;

/// One party member as written: its class (levelled with the party) or a
/// fixed creature (the same at every level), and its name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMember {
    class: Option<Spanned<String>>,
    fixed: Option<Spanned<RawCreature>>,
    name: Option<Spanned<String>>,
    /// A class member's magic items at each level: `"none"`, `"typical"`
    /// or `{ weapon = 1, armor = 0, focus = 1 }` (a fixed one gives them
    /// in its entry).
    magic_items: Option<Spanned<RawMagicItems>>,
}

/// A validated party member.
#[derive(Clone, Debug)]
pub(super) enum Member {
    /// A PC of an SRD class, its template at the party's level.
    Class {
        /// The class.
        class: String,
        /// Its name.
        name: String,
        /// Its magic items: the same bonuses at every level, or the
        /// typical set of each level.
        items: Items,
    },
    /// A creature the same at every level (a hireling, a companion, a PC
    /// built by hand); it casts nothing out of combat.
    Fixed(Box<CreatureSpec>),
}

/// A class member's magic items (docs/combat.md, "Magic items").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Items {
    /// These bonuses at every level.
    Fixed(MagicItems),
    /// The typical set of each level.
    Typical,
}

impl Member {
    pub(super) fn name(&self) -> &str {
        match self {
            Member::Class { name, .. } => name,
            Member::Fixed(spec) => &spec.name,
        }
    }

    pub(super) fn class(&self) -> Option<&str> {
        match self {
            Member::Class { class, .. } => Some(class),
            Member::Fixed(_) => None,
        }
    }

    /// Its creature at character `level`.
    pub(super) fn at(&self, level: u8, catalog: &Catalog) -> CreatureSpec {
        match self {
            Member::Class { class, name, items } => {
                let mut spec = catalog
                    .templates
                    .template(&format!("{class}-{level}"))
                    .expect("validated: every class has templates to the end level");
                spec.name = name.clone();
                match items {
                    Items::Fixed(m) => m.apply(&mut spec),
                    Items::Typical => typical(level).apply(&mut spec),
                }
                spec
            }
            Member::Fixed(spec) => (**spec).clone(),
        }
    }

    /// Its class's template, if its class casts spells that heal wounds
    /// or raise the dead (the class lists of the PC templates).
    pub(super) fn healing_class<'c>(&self, catalog: &'c Catalog) -> Option<&'c ClassTemplate> {
        catalog
            .templates
            .class(self.class()?)
            .filter(|c| c.healing_caster().is_some())
    }
}

/// The party as validated: each member's class or creature, and name.
pub(super) fn party(
    l: &Layers<RawSettings>,
    anchor: usize,
    catalog: &Catalog,
    levels: std::ops::RangeInclusive<u8>,
) -> Result<Vec<Member>, ScenarioError> {
    let Some(list) = get!(l, party) else {
        return Err(l.loc().error(
            anchor,
            "party",
            "a campaign needs `party = [{ class = \"fighter\", name = \"...\" }, ...]` in [options] or in every variant",
        ));
    };
    if list.get().is_empty() {
        return Err(list.error("`party` is empty"));
    }
    if list.get().len() > MAX_PCS {
        return Err(list.error(format!(
            "a party has at most {MAX_PCS} members, got {}",
            list.get().len()
        )));
    }
    let mut out: Vec<Member> = Vec::new();
    let mut errors = Vec::new();
    for (i, member) in list.get().iter().enumerate() {
        let item = list.item(i, member);
        let built = match member_of(&item, i, levels.clone(), catalog) {
            Ok(m) => m,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let name = built.name().to_string();
        let part = crate::results::metric_part(&name);
        if part.is_empty() {
            errors.push(item.error(format!(
                "party member `{name}` needs a name with a letter or digit: it names metrics"
            )));
            continue;
        }
        if out
            .iter()
            .any(|other| crate::results::metric_part(other.name()) == part)
        {
            errors.push(item.error(format!(
                "two party members are named `{name}`: give each its own `name`"
            )));
            continue;
        }
        out.push(built);
    }
    match ScenarioError::from_all(errors) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Party member `i` as written at `item`: a class with templates over the
/// career's `levels`, or one fixed creature.
fn member_of(
    item: &Setting<'_, RawMember>,
    i: usize,
    levels: std::ops::RangeInclusive<u8>,
    catalog: &Catalog,
) -> Result<Member, ScenarioError> {
    let m = item.get();
    let name = match &m.name {
        Some(n) => {
            Some(values::text(&item.child("name", n), "a party member's name", 64)?.to_string())
        }
        None => None,
    };
    match (&m.class, &m.fixed) {
        (Some(class), None) => {
            let class_at = item.child("class", class);
            let class = class.get_ref().trim().to_ascii_lowercase();
            let classes: Vec<&str> = catalog
                .templates
                .classes
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            let Some(template) = catalog.templates.classes.iter().find(|c| c.name == class)
            else {
                return Err(class_at.error(format!(
                    "unknown class `{}`{}; the classes are {}",
                    class_at.get(),
                    did_you_mean(&class, &classes),
                    classes.join(", ")
                )));
            };
            if *levels.end() > template.levels {
                return Err(class_at.error(format!(
                    "class `{class}` has templates up to level {}, and the career goes to level {}",
                    template.levels,
                    levels.end()
                )));
            }
            let name = name.unwrap_or_else(|| format!("{class}-{}", i + 1));
            let items = match &m.magic_items {
                None => Items::Fixed(MagicItems::default()),
                Some(raw) => match raw.get_ref() {
                    RawMagicItems::Keyword(k) if k == "typical" => Items::Typical,
                    _ => {
                        let at = item.child("magic_items", raw);
                        Items::Fixed(magic_items(&at.loc, raw, &at.field, 1)?)
                    }
                },
            };
            Ok(Member::Class { class, name, items })
        }
        (None, Some(raw)) => {
            let at = item.child("fixed", raw);
            let path = at.field.clone();
            if raw.get_ref().count(&at.loc, &path)? != 1 {
                return Err(at.error("a fixed party member is one creature: leave `count` out"));
            }
            let mut spec = raw.get_ref().build(
                &at.loc,
                &path,
                true,
                &catalog.bestiary,
                &catalog.templates,
            )?;
            if let Some(name) = name {
                spec.name = name;
            }
            Ok(Member::Fixed(Box::new(spec)))
        }
        (Some(class), Some(_)) => Err(item.child("class", class).error(
            "give a party member either `class` (levelled with the party) or `fixed` (a creature the same at every level), not both",
        )),
        (None, None) => Err(item.error(
            "a party member needs `class = \"fighter\"` or `fixed = { template = \"...\" }` (a creature entry)",
        )),
    }
}
