//! Schema of `type = "festering"` scenarios (docs/rules.md, lingering injuries, festering and open
//! wounds: the tending process).
//!
//! ```toml
//! [options]                    # shared by all variants; each key optional
//! medicine_bonus = 0           # the tender's Wisdom (Medicine) modifier, -10..=20
//! dc = 15                      # 1..=30
//! roll = "normal"              # normal | advantage | disadvantage
//! successes = 10               # successes that close the wound, 1..=100
//! hp_per_day = 1               # max HP lost per full day, 1..=100
//! max_hp = 25                  # the creature's max HP, 1..=1000
//! tended = true                # false: nobody tends the wound
//! timing = "at_once"           # at_once (checks at hours 0, 24, ...) | after_first_day
//! lost_hp = "after_long_rest"  # after_long_rest | until_magical_healing
//! # magical healing (at most one of these; none = never):
//! magic_after_days = 3         # fixed day, 0..=1000
//! magic_between_days = [1, 10] # uniform whole day in the range
//! magic_daily_chance = 0.2     # each day from day 1, 0 < p <= 1
//! max_hp_curve = [5, 10, 20]   # max HP values of the death-probability curve
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::FesteringScenario;
use crate::dice::{Chance, RollMode};
use crate::model::Catalog;
use crate::rules::festering::{FesteringRules, LostHp, MagicArrival, Timing};
use crate::scenario::ScenarioError;
use crate::scenario::groups::medicine_bonus;
use crate::scenario::layers::{Layers, Setting, get};
use crate::scenario::values::{int, or};

/// One `[options]` or `[[variant]]` table, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    name: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    medicine_bonus: Option<Spanned<i64>>,
    dc: Option<Spanned<i64>>,
    roll: Option<Spanned<RollMode>>,
    successes: Option<Spanned<i64>>,
    hp_per_day: Option<Spanned<i64>>,
    max_hp: Option<Spanned<i64>>,
    tended: Option<Spanned<bool>>,
    timing: Option<Spanned<Timing>>,
    lost_hp: Option<Spanned<LostHp>>,
    magic_after_days: Option<Spanned<i64>>,
    magic_between_days: Option<Spanned<Vec<Spanned<i64>>>>,
    magic_daily_chance: Option<Spanned<f64>>,
    max_hp_curve: Option<Spanned<Vec<Spanned<i64>>>>,
}

crate::scenario::impl_named!(RawSettings);

impl RawSettings {
    /// Whether the table gives any key of the magical-healing group.
    fn has_magic(&self) -> bool {
        self.magic_after_days.is_some()
            || self.magic_between_days.is_some()
            || self.magic_daily_chance.is_some()
    }
}

/// The magical-healing group: at most one of its keys, all from the
/// highest table that gives any (a variant's replaces `[options]`' whole).
fn magic(group: Option<Layers<RawSettings>>) -> Result<MagicArrival, ScenarioError> {
    let Some(l) = group else {
        return Ok(MagicArrival::Never);
    };
    let (after, between, daily) = (
        get!(l, magic_after_days),
        get!(l, magic_between_days),
        get!(l, magic_daily_chance),
    );
    let given = [
        after.as_ref().map(|v| (v.at(), &v.field, v.loc)),
        between.as_ref().map(|v| (v.at(), &v.field, v.loc)),
        daily.as_ref().map(|v| (v.at(), &v.field, v.loc)),
    ];
    let mut given: Vec<_> = given.into_iter().flatten().collect();
    if given.len() > 1 {
        given.sort_by_key(|(at, ..)| *at);
        let (at, field, loc) = given[given.len() - 1];
        return Err(loc.error(
            at,
            field,
            "give at most one of `magic_after_days`, `magic_between_days`, `magic_daily_chance`",
        ));
    }
    if let Some(d) = after {
        let d = int(Some(d), 0..=1000, "magic_after_days", 0)?;
        return Ok(MagicArrival::Fixed(d as u32));
    }
    if let Some(r) = between {
        let [lo, hi] = r.get().as_slice() else {
            return Err(r.error("give a range as two days, `[first, last]`"));
        };
        let day = |v| {
            int(
                Some(Setting::new(r.loc, v, r.field.clone())),
                0..=1000,
                "a day",
                0,
            )
        };
        let (lo_v, hi_v) = (day(lo)?, day(hi)?);
        if lo_v > hi_v {
            return Err(r.error(format!("the range [{lo_v}, {hi_v}] runs backwards")));
        }
        return Ok(MagicArrival::Uniform(lo_v as u32, hi_v as u32));
    }
    if let Some(p) = daily {
        let v = p.copied();
        return match Chance::new(v) {
            Ok(chance) if v > 0.0 => Ok(MagicArrival::Daily(chance)),
            _ => Err(p.error(format!(
                "a daily chance must be a probability above 0 and at most 1, got {v}"
            ))),
        };
    }
    Ok(MagicArrival::Never)
}

/// Validates one variant's settings; what no table gives is docs/rules.md, lingering injuries
/// ([`FesteringRules::default`]).
pub fn build(l: &Layers<RawSettings>, _: &Catalog) -> Result<FesteringScenario, ScenarioError> {
    let d = FesteringRules::default();
    let medicine = medicine_bonus(get!(l, medicine_bonus), d.medicine_bonus)?;
    let dc = int(get!(l, dc), 1..=30, "the Medicine DC", d.dc.into())?;
    let successes = int(get!(l, successes), 1..=100, "successes", d.successes.into())?;
    let hp_per_day = int(
        get!(l, hp_per_day),
        1..=100,
        "hp_per_day",
        d.hp_per_day.into(),
    )?;
    let max_hp = int(get!(l, max_hp), 1..=1000, "max_hp", d.max_hp.into())?;
    let magic = magic(l.group(RawSettings::has_magic))?;
    let curve = match get!(l, max_hp_curve) {
        None => FesteringScenario::DEFAULT_CURVE.to_vec(),
        Some(list) => {
            if list.get().is_empty() || list.get().len() > 200 {
                return Err(list.error("max_hp_curve needs 1 to 200 values"));
            }
            let mut out = Vec::new();
            for (i, v) in list.get().iter().enumerate() {
                let h = int(Some(list.item(i, v)), 1..=1000, "a max HP", 1)? as u32;
                if out.contains(&h) {
                    return Err(list.item(i, v).error(format!("max HP {h} is listed twice")));
                }
                out.push(h);
            }
            out.sort_unstable();
            out
        }
    };
    Ok(FesteringScenario {
        rules: FesteringRules {
            medicine_bonus: medicine,
            dc: dc as u8,
            roll: or(get!(l, roll), d.roll),
            successes: successes as u32,
            hp_per_day: hp_per_day as u32,
            max_hp: max_hp as u32,
            timing: or(get!(l, timing), d.timing),
            lost_hp: or(get!(l, lost_hp), d.lost_hp),
            magic,
            tended: or(get!(l, tended), d.tended),
        },
        curve,
    })
}
