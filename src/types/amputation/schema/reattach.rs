//! The `[options.reattach]` table of `type = "amputation"` scenarios
//! (docs/rules.md, limb damage, reattachment): the window, the delay before healing, and
//! the healing supplies with their dice, gold and time.

use serde::Deserialize;
use toml::Spanned;

use crate::dice::DiceExpr;
use crate::rules::reattachment::{
    HealTarget, HealingKind, HealingSource, ReattachRules, catalogue,
};
use crate::scenario::layers::{Layers, get};
use crate::scenario::limits::MAX_LABEL_CHARS;
use crate::scenario::values::{Opt, dice, dice_or_int, int, number, opt_at, opt_text};
use crate::scenario::{Locator, ScenarioError};

/// `[options.reattach]`: the window and the healing supplies.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReattach {
    window_minutes: Opt<toml::Value>,
    delay_minutes: Opt<toml::Value>,
    healing: Opt<Vec<Spanned<RawHealing>>>,
}

impl RawReattach {
    /// Whether the table sets anything.
    pub fn is_set(&self) -> bool {
        self.window_minutes.is_some() || self.delay_minutes.is_some() || self.healing.is_some()
    }
}

/// One healing supply.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHealing {
    name: Opt<String>,
    kind: Opt<HealingKind>,
    heal: Opt<String>,
    slot: Opt<i64>,
    modifier: Opt<i64>,
    uses: Opt<i64>,
    gp: Opt<toml::Value>,
    minutes: Opt<toml::Value>,
    target: Option<HealTarget>,
}

/// Validates the reattachment rules; `at` is the table to blame for too
/// many healing uses.
pub fn reattach(r: &Layers<RawReattach>, at: usize) -> Result<ReattachRules, ScenarioError> {
    let window = number(
        get!(r, window_minutes),
        0.0,
        1_000_000.0,
        "window_minutes",
        60.0,
    )?;
    let delay = match get!(r, delay_minutes) {
        Some(d) => dice_or_int(d, 0, 1_000_000, "delay_minutes")?,
        None => DiceExpr::constant(0),
    };
    let mut sources = Vec::new();
    if let Some(list) = get!(r, healing) {
        for (i, h) in list.get().iter().enumerate() {
            sources.push(healing(
                &list.loc,
                h.span().start,
                h.get_ref(),
                &format!("{}[{i}]", list.field),
            )?);
        }
    }
    let total: u32 = sources.iter().map(|s: &HealingSource| s.uses).sum();
    if total > 200 {
        return Err(r.error(
            at,
            "healing",
            format!("at most 200 healing uses in all, got {total}"),
        ));
    }
    Ok(ReattachRules {
        window_minutes: window,
        delay_minutes: delay,
        sources,
    })
}

fn healing(
    loc: &Locator,
    at: usize,
    h: &RawHealing,
    f: &str,
) -> Result<HealingSource, ScenarioError> {
    let kind = h
        .kind
        .as_ref()
        .map_or(HealingKind::Custom, |k| *k.get_ref());
    let entry = catalogue(kind);
    let name = opt_text(
        opt_at(loc, &h.name, format!("{f}.name")),
        "a healing name",
        MAX_LABEL_CHARS,
    )?;
    let heal = match (opt_at(loc, &h.heal, format!("{f}.heal")), entry) {
        (Some(text), None) => dice(text)?,
        (Some(text), Some(e)) => {
            return Err(text.error(format!(
                "`{}` has its own dice; give `heal` only with kind = \"custom\"",
                e.name
            )));
        }
        (None, Some(e)) => {
            let slot = int(
                opt_at(loc, &h.slot, format!("{f}.slot")),
                1..=9,
                "the spell slot level",
                1,
            )?;
            let modifier = int(
                opt_at(loc, &h.modifier, format!("{f}.modifier")),
                -5..=10,
                "the caster's spellcasting modifier",
                0,
            )?;
            e.heal(slot as u32, modifier as i32)
        }
        (None, None) => {
            return Err(loc.error(
                at,
                &format!("{f}.heal"),
                "a custom healing supply needs `heal` (e.g. \"2d4+2\"), or a `kind` such as \"cure_wounds\"",
            ));
        }
    };
    let uses = int(
        opt_at(loc, &h.uses, format!("{f}.uses")),
        1..=100,
        "uses",
        1,
    )? as u32;
    let gp_pick = opt_at(loc, &h.gp, format!("{f}.gp"));
    let gp = match (entry.and_then(|e| e.gp), &gp_pick) {
        (None, None) => {
            return Err(loc.error(
                at,
                &format!("{f}.gp"),
                "no public price for this healing: give `gp` per use",
            ));
        }
        (default, _) => number(gp_pick, 0.0, 1e9, "gp", default.unwrap_or(0.0))?,
    };
    let minutes = number(
        opt_at(loc, &h.minutes, format!("{f}.minutes")),
        0.0,
        100_000.0,
        "minutes per use",
        entry.map_or(0.1, |e| e.minutes),
    )?;
    Ok(HealingSource {
        name: match (name, entry) {
            ("", Some(e)) => e.name.to_string(),
            ("", None) => "healing".into(),
            (name, _) => name.to_string(),
        },
        heal,
        uses,
        gp,
        minutes,
        target: h.target.unwrap_or(HealTarget::Limb),
        category: kind.category(),
    })
}
