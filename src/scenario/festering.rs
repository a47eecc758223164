//! Schema of `type = "festering"` scenarios (RULES.md §1, festering and open
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

use super::values::int as ranged;
use super::{Locator, ScenarioError, pick};
use crate::dice::{Chance, RollMode};
use crate::rules::festering::{FesteringRules, LostHp, MagicArrival, Timing};

/// The `type` value of this schema.
pub const TYPE_NAME: &str = "festering";

/// Default max-HP curve: 5, 10, ..., 100.
pub const DEFAULT_CURVE: [u32; 20] = [
    5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 100,
];

/// One variant's festering model.
#[derive(Clone, Debug, PartialEq)]
pub struct FesteringScenario {
    /// The process.
    pub rules: FesteringRules,
    /// Max HP values of the `p_death_max_hp_<H>` curve.
    pub curve: Vec<u32>,
}

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

super::impl_named!(RawSettings);

impl RawSettings {
    fn has_magic(&self) -> bool {
        self.magic_after_days.is_some()
            || self.magic_between_days.is_some()
            || self.magic_daily_chance.is_some()
    }
}

fn magic(loc: &Locator, s: &RawSettings, path: &str) -> Result<MagicArrival, ScenarioError> {
    let count = usize::from(s.magic_after_days.is_some())
        + usize::from(s.magic_between_days.is_some())
        + usize::from(s.magic_daily_chance.is_some());
    if count > 1 {
        let at = [
            s.magic_after_days
                .as_ref()
                .map(|v| (v.span().start, "magic_after_days")),
            s.magic_between_days
                .as_ref()
                .map(|v| (v.span().start, "magic_between_days")),
            s.magic_daily_chance
                .as_ref()
                .map(|v| (v.span().start, "magic_daily_chance")),
        ];
        let (at, key) = at
            .iter()
            .flatten()
            .max()
            .copied()
            .unwrap_or((0, "magic_after_days"));
        return Err(loc.error(
            at,
            &format!("{path}.{key}"),
            "give at most one of `magic_after_days`, `magic_between_days`, `magic_daily_chance`",
        ));
    }
    if let Some(d) = &s.magic_after_days {
        let d = ranged(
            loc,
            Some((d, format!("{path}.magic_after_days"))),
            0..=1000,
            "magic_after_days",
            0,
        )?;
        return Ok(MagicArrival::Fixed(d as u32));
    }
    if let Some(r) = &s.magic_between_days {
        let field = format!("{path}.magic_between_days");
        let [lo, hi] = r.get_ref().as_slice() else {
            return Err(loc.error(
                r.span().start,
                &field,
                "give a range as two days, `[first, last]`",
            ));
        };
        let lo_v = ranged(loc, Some((lo, field.clone())), 0..=1000, "a day", 0)?;
        let hi_v = ranged(loc, Some((hi, field.clone())), 0..=1000, "a day", 0)?;
        if lo_v > hi_v {
            return Err(loc.error(
                r.span().start,
                &field,
                format!("the range [{lo_v}, {hi_v}] runs backwards"),
            ));
        }
        return Ok(MagicArrival::Uniform(lo_v as u32, hi_v as u32));
    }
    if let Some(p) = &s.magic_daily_chance {
        let v = *p.get_ref();
        return match Chance::new(v) {
            Ok(chance) if v > 0.0 => Ok(MagicArrival::Daily(chance)),
            _ => Err(loc.error(
                p.span().start,
                &format!("{path}.magic_daily_chance"),
                format!("a daily chance must be a probability above 0 and at most 1, got {v}"),
            )),
        };
    }
    Ok(MagicArrival::Never)
}

/// Validates one variant: `variant` overrides `base` key by key.
pub fn build(
    loc: &Locator,
    base: &RawSettings,
    variant: &RawSettings,
    path: &str,
) -> Result<FesteringScenario, ScenarioError> {
    let d = FesteringRules::default();
    let medicine = ranged(
        loc,
        pick(
            &variant.medicine_bonus,
            &base.medicine_bonus,
            path,
            "medicine_bonus",
        ),
        -10..=20,
        "medicine_bonus",
        0,
    )?;
    let dc = ranged(
        loc,
        pick(&variant.dc, &base.dc, path, "dc"),
        1..=30,
        "the Medicine DC",
        15,
    )?;
    let successes = ranged(
        loc,
        pick(&variant.successes, &base.successes, path, "successes"),
        1..=100,
        "successes",
        10,
    )?;
    let hp_per_day = ranged(
        loc,
        pick(&variant.hp_per_day, &base.hp_per_day, path, "hp_per_day"),
        1..=100,
        "hp_per_day",
        1,
    )?;
    let max_hp = ranged(
        loc,
        pick(&variant.max_hp, &base.max_hp, path, "max_hp"),
        1..=1000,
        "max_hp",
        25,
    )?;
    let roll = pick(&variant.roll, &base.roll, path, "roll").map_or(d.roll, |(r, _)| *r.get_ref());
    let tended =
        pick(&variant.tended, &base.tended, path, "tended").is_none_or(|(r, _)| *r.get_ref());
    let timing =
        pick(&variant.timing, &base.timing, path, "timing").map_or(d.timing, |(r, _)| *r.get_ref());
    let lost_hp = pick(&variant.lost_hp, &base.lost_hp, path, "lost_hp")
        .map_or(d.lost_hp, |(r, _)| *r.get_ref());
    let magic = if variant.has_magic() {
        magic(loc, variant, path)?
    } else {
        magic(loc, base, "options")?
    };
    let curve = match pick(
        &variant.max_hp_curve,
        &base.max_hp_curve,
        path,
        "max_hp_curve",
    ) {
        None => DEFAULT_CURVE.to_vec(),
        Some((list, field)) => {
            if list.get_ref().is_empty() || list.get_ref().len() > 200 {
                return Err(loc.error(
                    list.span().start,
                    &field,
                    "max_hp_curve needs 1 to 200 values",
                ));
            }
            let mut out = Vec::new();
            for (i, v) in list.get_ref().iter().enumerate() {
                let h = ranged(
                    loc,
                    Some((v, format!("{field}[{i}]"))),
                    1..=1000,
                    "a max HP",
                    1,
                )? as u32;
                if out.contains(&h) {
                    return Err(loc.error(
                        v.span().start,
                        &format!("{field}[{i}]"),
                        format!("max HP {h} is listed twice"),
                    ));
                }
                out.push(h);
            }
            out.sort_unstable();
            out
        }
    };
    Ok(FesteringScenario {
        rules: FesteringRules {
            medicine_bonus: medicine as i8,
            dc: dc as u8,
            roll,
            successes: successes as u32,
            hp_per_day: hp_per_day as u32,
            max_hp: max_hp as u32,
            timing,
            lost_hp,
            magic,
            tended,
        },
        curve,
    })
}
