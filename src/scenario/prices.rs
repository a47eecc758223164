//! Price overrides as written in a scenario (docs/rules.md, "Prices"): the
//! keys that replace entries of a [`PriceList`] — the common potion of
//! healing, the potions by rarity, the temple's casting services, the
//! materials the party's own casters consume, and replacement items — each
//! map overriding the list key by key. Shared by the injury-cost and
//! campaign types.

use std::collections::BTreeMap;

use toml::Spanned;

use crate::combat::creature::POTIONS;
use crate::rules::injury_cures::{PriceList, SPELLS, spell_index};
use crate::scenario::ScenarioError;
use crate::scenario::layers::Setting;
use crate::scenario::wording::did_you_mean;

/// Most gold one price may be (gp).
pub const MAX_PRICE_GP: f64 = 1e9;

/// A `{ name = gp }` table as written.
pub type PriceMap = Spanned<BTreeMap<String, Spanned<f64>>>;

/// A price: finite, 0 to [`MAX_PRICE_GP`].
pub fn price(v: &Setting<'_, f64>) -> Result<f64, ScenarioError> {
    let p = *v.get();
    if p.is_finite() && (0.0..=MAX_PRICE_GP).contains(&p) {
        Ok(p)
    } else {
        Err(v.error(format!("a price must be between 0 and 1e9 gp, got {p}")))
    }
}

/// The price keys of one layered table (each `None` when not given).
#[derive(Default)]
pub struct PriceKeys<'a> {
    /// `potion_price_gp`: the common potion of healing.
    pub potion: Option<Setting<'a, f64>>,
    /// `potion_prices`: potions by rarity (`healing`, `greater_healing`, ...).
    pub potions: Option<Setting<'a, BTreeMap<String, Spanned<f64>>>>,
    /// `services`: the temple's casting fees by spell.
    pub services: Option<Setting<'a, BTreeMap<String, Spanned<f64>>>>,
    /// `materials`: what the party's own castings consume, by spell.
    pub materials: Option<Setting<'a, BTreeMap<String, Spanned<f64>>>>,
    /// `item_prices`: replacement items (`weapon`, `armor_or_shield`, `other`).
    pub items: Option<Setting<'a, BTreeMap<String, Spanned<f64>>>>,
}

impl PriceKeys<'_> {
    /// `base` with every given price in place of its own.
    pub fn apply(self, base: &PriceList) -> Result<PriceList, ScenarioError> {
        let mut prices = base.clone();
        if let Some(v) = self.potion {
            prices.potion_of_healing = price(&v)?;
        }
        if let Some(map) = self.potions {
            let names: Vec<&str> = POTIONS.iter().map(|(n, _)| *n).collect();
            for (name, gp) in map.get() {
                let gp = map.child(name, gp);
                let Some(k) = names.iter().position(|n| n == name) else {
                    return Err(gp.error(format!(
                        "unknown potion `{name}`{}; known: {}",
                        did_you_mean(name, &names),
                        names.join(", ")
                    )));
                };
                let p = price(&gp)?;
                match k {
                    0 => prices.potion_of_healing = p,
                    k => prices.rarer_potions[k - 1] = p,
                }
            }
        }
        spell_prices(self.services, &mut prices.services)?;
        spell_prices(self.materials, &mut prices.materials)?;
        if let Some(map) = self.items {
            const KINDS: [&str; 3] = ["weapon", "armor_or_shield", "other"];
            for (name, gp) in map.get() {
                let gp = map.child(name, gp);
                let Some(slot) = KINDS.iter().position(|k| k == name) else {
                    return Err(gp.error(format!(
                        "unknown item kind `{name}`; known: {}",
                        KINDS.join(", ")
                    )));
                };
                prices.items[slot] = price(&gp)?;
            }
        }
        Ok(prices)
    }
}

/// The index of spell `name`, or an error at `v` listing the spells.
pub fn spell_named<T>(v: &Setting<'_, T>, name: &str) -> Result<usize, ScenarioError> {
    spell_index(name).ok_or_else(|| {
        v.error(format!(
            "unknown spell `{name}`; known: {}",
            SPELLS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
        ))
    })
}

/// Applies a `{ spell = gp }` map over a price list.
fn spell_prices(
    map: Option<Setting<'_, BTreeMap<String, Spanned<f64>>>>,
    list: &mut Vec<(usize, f64)>,
) -> Result<(), ScenarioError> {
    let Some(map) = map else {
        return Ok(());
    };
    for (name, gp) in map.get() {
        let gp = map.child(name, gp);
        let spell = spell_named(&gp, name)?;
        let gp = price(&gp)?;
        match list.iter_mut().find(|(s, _)| *s == spell) {
            Some(slot) => slot.1 = gp,
            None => list.push((spell, gp)),
        }
    }
    Ok(())
}
