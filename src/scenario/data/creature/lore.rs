//! The keys of a bestiary entry that the round loop does not use — `slug`,
//! `srd`, `type`, `cr`, `xp`, `proficiency_bonus`, `speed`,
//! `condition_immune`, `not_modelled`, `no_fight_effect` — validated and carried as [`Lore`]
//! for `woundsim show` (the SRD bestiary's schema, `tools/srd/README.md`).
//! `speed` also sets how far a creature moves with positions;
//! `condition_immune` the conditions nothing puts on it.

use serde::Deserialize;
use toml::Spanned;

use crate::combat::bestiary::{Lore, Speed};
use crate::scenario::values::{self, at_most, text};
use crate::scenario::{Locator, ScenarioError};

use super::{MAX_XP, RawCreature, ranged};

/// Speeds as written (`speed = { walk = 30, fly = 60 }`), feet.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSpeed {
    walk: Option<Spanned<i64>>,
    fly: Option<Spanned<i64>>,
    swim: Option<Spanned<i64>>,
    climb: Option<Spanned<i64>>,
    burrow: Option<Spanned<i64>>,
    #[serde(default)]
    hover: bool,
}

/// The SRD version of a statblock.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum SrdVersion {
    /// SRD 5.1.
    #[serde(rename = "5.1")]
    V51,
    /// SRD 5.2.
    #[serde(rename = "5.2")]
    V52,
}

/// A creature type, as the SRD names them.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum CreatureType {
    Aberration,
    Beast,
    Celestial,
    Construct,
    Dragon,
    Elemental,
    Fey,
    Fiend,
    Giant,
    Humanoid,
    Monstrosity,
    Ooze,
    Plant,
    Undead,
}

/// A condition a creature can be immune to (SRD words).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Condition {
    Blinded,
    Charmed,
    Deafened,
    Exhaustion,
    Frightened,
    Grappled,
    Incapacitated,
    Invisible,
    Paralyzed,
    Petrified,
    Poisoned,
    Prone,
    Restrained,
    Stunned,
    Unconscious,
}

/// A list of statblock features named by `key` (`not_modelled`,
/// `no_fight_effect`): at most [`MAX_NOT_MODELLED`] short texts.
fn feature_list(
    loc: &Locator,
    path: &str,
    key: &str,
    list: Option<&Spanned<Vec<Spanned<String>>>>,
) -> Result<Vec<String>, ScenarioError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    at_most(
        &values::at(loc, list, format!("{path}.{key}")),
        &format!("`{key}` items"),
        MAX_NOT_MODELLED,
    )?;
    list.get_ref()
        .iter()
        .enumerate()
        .map(|(i, n)| {
            text(
                &values::at(loc, n, format!("{path}.{key}[{i}]")),
                &format!("a `{key}` item"),
                MAX_NOT_MODELLED_CHARS,
            )
            .map(str::to_string)
        })
        .collect()
}

/// Challenge ratings as the SRD writes them.
const CHALLENGE_RATINGS: [&str; 34] = [
    "0", "1/8", "1/4", "1/2", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13",
    "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
    "30",
];

/// Most `not_modelled` items of one entry, and most characters of one.
const MAX_NOT_MODELLED: usize = 64;
const MAX_NOT_MODELLED_CHARS: usize = 200;

impl RawCreature {
    /// Its `speed = { walk = ..., fly = ... }`, validated.
    pub(super) fn speeds(&self, loc: &Locator, path: &str) -> Result<Option<Speed>, ScenarioError> {
        let Some(s) = &self.speed else {
            return Ok(None);
        };
        let feet = |v: &Option<Spanned<i64>>, key: &str| -> Result<u32, ScenarioError> {
            v.as_ref()
                .map_or(Ok(0), |v| {
                    ranged(loc, v, &format!("{path}.speed.{key}"), 0..=1000)
                })
                .map(|f| f as u32)
        };
        Ok(Some(Speed {
            walk: feet(&s.walk, "walk")?,
            fly: feet(&s.fly, "fly")?,
            swim: feet(&s.swim, "swim")?,
            climb: feet(&s.climb, "climb")?,
            burrow: feet(&s.burrow, "burrow")?,
            hover: s.hover,
        }))
    }

    /// What the entry says beyond what a fight uses, validated.
    pub fn lore(&self, loc: &Locator, path: &str) -> Result<Lore, ScenarioError> {
        let at = |key: &str| format!("{path}.{key}");
        let cr = self.challenge_rating(loc, path)?;
        let speed = self.speeds(loc, path)?;
        let not_modelled = self.not_modelled(loc, path)?;
        let no_fight_effect = self.no_fight_effect(loc, path)?;
        self.check_slug(loc, path)?;
        Ok(Lore {
            srd: self.srd.map(|v| match v {
                SrdVersion::V51 => "5.1".to_string(),
                SrdVersion::V52 => "5.2".to_string(),
            }),
            slug: self.slug.as_ref().map(|s| s.get_ref().clone()),
            kind: self.kind.map(|k| format!("{k:?}").to_lowercase()),
            cr,
            xp: self
                .xp
                .as_ref()
                .map(|v| ranged(loc, v, &at("xp"), 0..=MAX_XP))
                .transpose()?
                .map(|v| v as u32),
            proficiency_bonus: self
                .proficiency_bonus
                .as_ref()
                .map(|v| ranged(loc, v, &at("proficiency_bonus"), 2..=9))
                .transpose()?
                .map(|v| v as u8),
            speed,
            condition_immunities: self
                .condition_immune
                .iter()
                .flatten()
                .map(|c| format!("{c:?}").to_lowercase())
                .collect(),
            not_modelled,
            no_fight_effect,
        })
    }

    /// `cr`: one of the SRD's challenge ratings, as a string.
    fn challenge_rating(&self, loc: &Locator, path: &str) -> Result<Option<String>, ScenarioError> {
        match &self.cr {
            None => Ok(None),
            Some(cr) if CHALLENGE_RATINGS.contains(&cr.get_ref().as_str()) => {
                Ok(Some(cr.get_ref().clone()))
            }
            Some(cr) => Err(loc.error(
                cr.span().start,
                &format!("{path}.cr"),
                format!(
                    "`{}` is no challenge rating: one of \"0\", \"1/8\", \"1/4\", \"1/2\", \"1\" ... \"30\" (a string)",
                    cr.get_ref()
                ),
            )),
        }
    }

    /// `not_modelled`: the statblock's features the loop leaves out, each a
    /// short text.
    fn not_modelled(&self, loc: &Locator, path: &str) -> Result<Vec<String>, ScenarioError> {
        feature_list(loc, path, "not_modelled", self.not_modelled.as_ref())
    }

    /// `no_fight_effect`: the statblock's features that change nothing in
    /// a woundsim fight, each a short text.
    fn no_fight_effect(&self, loc: &Locator, path: &str) -> Result<Vec<String>, ScenarioError> {
        feature_list(loc, path, "no_fight_effect", self.no_fight_effect.as_ref())
    }

    /// `slug`: lower-case letters and digits in words joined by `-`.
    fn check_slug(&self, loc: &Locator, path: &str) -> Result<(), ScenarioError> {
        let Some(slug) = &self.slug else {
            return Ok(());
        };
        let s = slug.get_ref();
        let word = |part: &str| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        };
        if s.is_empty() || !s.split('-').all(word) {
            return Err(loc.error(
                slug.span().start,
                &format!("{path}.slug"),
                format!("`{s}` is no slug: lower-case letters and digits in words joined by `-`"),
            ));
        }
        Ok(())
    }
}
