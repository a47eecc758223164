//! `potions` of a creature entry (or of a campaign's restocking) as
//! written — a count of potions of healing, or counts by rarity — read
//! with the places of its keys ([`RawPotions`]) and validated into counts
//! by rarity ([`potions`]).

use serde::Deserialize;
use toml::Spanned;

use crate::combat::creature::POTIONS;
use crate::scenario::{Locator, ScenarioError};

/// Most potions of one rarity a creature carries.
const MAX_POTIONS: i64 = 100;

/// `potions` as written: a count of potions of healing (any other value
/// than a table, judged by [`potions`]), or counts by rarity with the
/// places of their keys and values (a [`toml::Value`] has no places, so an
/// error names the key it is about).
#[derive(Debug)]
pub enum RawPotions {
    /// `potions = N`: potions of healing.
    Count(toml::Value),
    /// `potions = { healing = N, ... }`: each key with its count.
    ByRarity(Vec<(Spanned<String>, Spanned<toml::Value>)>),
}

impl<'de> Deserialize<'de> for RawPotions {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PotionsVisitor)
    }
}

/// Reads `potions`: any value but a table as a count, a table key by key.
struct PotionsVisitor;

impl<'de> serde::de::Visitor<'de> for PotionsVisitor {
    type Value = RawPotions;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a number of potions, or a table of them by rarity")
    }
    fn visit_bool<E>(self, v: bool) -> Result<RawPotions, E> {
        Ok(RawPotions::Count(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RawPotions, E> {
        Ok(RawPotions::Count(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RawPotions, E> {
        Ok(RawPotions::Count(
            i64::try_from(v).map_or_else(|_| (v as f64).into(), toml::Value::from),
        ))
    }
    fn visit_f64<E>(self, v: f64) -> Result<RawPotions, E> {
        Ok(RawPotions::Count(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<RawPotions, E> {
        Ok(RawPotions::Count(v.into()))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RawPotions, A::Error> {
        let mut entries = Vec::new();
        // Every key of a TOML table has a place; only a date (a map of one
        // unplaced key inside the parser) has not.
        let not_a_table = |_| {
            serde::de::Error::invalid_type(serde::de::Unexpected::Other("a date"), &PotionsVisitor)
        };
        while let Some(key) = map.next_key::<Spanned<String>>().map_err(not_a_table)? {
            entries.push((key, map.next_value::<Spanned<toml::Value>>()?));
        }
        Ok(RawPotions::ByRarity(entries))
    }
}

/// `potions = N` (potions of healing) or `potions = { healing = N,
/// greater_healing = N, superior_healing = N, supreme_healing = N }`; an
/// error points at the bad key (`field.key`) or at its bad count.
pub(crate) fn potions(
    loc: &Locator,
    v: &Spanned<RawPotions>,
    field: &str,
) -> Result<crate::combat::creature::Potions, ScenarioError> {
    let count = |value: &toml::Value, at: usize, field: &str| -> Result<u8, ScenarioError> {
        match value.as_integer() {
            Some(n) if (0..=MAX_POTIONS).contains(&n) => Ok(n as u8),
            _ => Err(loc.error(
                at,
                field,
                format!("a number of potions from 0 to {MAX_POTIONS}, got {value}"),
            )),
        }
    };
    let mut out = [0; 4];
    match v.get_ref() {
        RawPotions::ByRarity(entries) => {
            let names: Vec<&str> = POTIONS.iter().map(|(n, _)| *n).collect();
            for (key, value) in entries {
                let field = format!("{field}.{}", key.get_ref());
                let Some(i) = names.iter().position(|n| n == key.get_ref()) else {
                    let hint = crate::scenario::wording::did_you_mean(key.get_ref(), &names);
                    return Err(loc.error(
                        key.span().start,
                        &field,
                        format!(
                            "unknown potion `{}`{hint}; potions are {}",
                            key.get_ref(),
                            names.join(", ")
                        ),
                    ));
                };
                out[i] = count(value.get_ref(), value.span().start, &field)?;
            }
        }
        RawPotions::Count(value) => out[0] = count(value, v.span().start, field)?,
    }
    Ok(out)
}
