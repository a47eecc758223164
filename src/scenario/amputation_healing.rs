//! The `[options.reattach]` table of `type = "amputation"` scenarios
//! (RULES.md §3, reattachment): the window, the delay before healing, and
//! the healing supplies with their dice, gold and time.

use serde::Deserialize;
use toml::Spanned;

use super::amputation_parts::{Opt, dice, dice_or_int, int, number};
use super::limits::MAX_LABEL_CHARS;
use super::values::opt_text;
use super::{Locator, ScenarioError, pick};
use crate::dice::DiceExpr;
use crate::rules::reattachment::{
    HealTarget, HealingKind, HealingSource, ReattachRules, catalogue,
};

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

/// Validates the reattachment rules.
pub fn reattach(
    loc: &Locator,
    at: usize,
    b: &RawReattach,
    v: &RawReattach,
    path: &str,
) -> Result<ReattachRules, ScenarioError> {
    let window = number(
        loc,
        pick(
            &v.window_minutes,
            &b.window_minutes,
            path,
            "reattach.window_minutes",
        ),
        0.0,
        1_000_000.0,
        "window_minutes",
        60.0,
    )?;
    let delay = match pick(
        &v.delay_minutes,
        &b.delay_minutes,
        path,
        "reattach.delay_minutes",
    ) {
        Some((d, f)) => dice_or_int(loc, d, &f, 0, 1_000_000, "delay_minutes")?,
        None => DiceExpr::constant(0),
    };
    let mut sources = Vec::new();
    if let Some((list, field)) = pick(&v.healing, &b.healing, path, "reattach.healing") {
        for (i, h) in list.get_ref().iter().enumerate() {
            sources.push(healing(
                loc,
                h.span().start,
                h.get_ref(),
                &format!("{field}[{i}]"),
            )?);
        }
    }
    let total: u32 = sources.iter().map(|s: &HealingSource| s.uses).sum();
    if total > 200 {
        return Err(loc.error(
            at,
            &format!("{path}.reattach.healing"),
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
        loc,
        h.name.as_ref(),
        &format!("{f}.name"),
        "a healing name",
        MAX_LABEL_CHARS,
    )?;
    let heal = match (&h.heal, entry) {
        (Some(text), None) => dice(loc, text, &format!("{f}.heal"))?,
        (Some(text), Some(e)) => {
            return Err(loc.error(
                text.span().start,
                &format!("{f}.heal"),
                format!(
                    "`{}` has its own dice; give `heal` only with kind = \"custom\"",
                    e.name
                ),
            ));
        }
        (None, Some(e)) => {
            let slot = int(
                loc,
                h.slot.as_ref().map(|x| (x, format!("{f}.slot"))),
                1..=9,
                "the spell slot level",
                1,
            )?;
            let modifier = int(
                loc,
                h.modifier.as_ref().map(|x| (x, format!("{f}.modifier"))),
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
        loc,
        h.uses.as_ref().map(|x| (x, format!("{f}.uses"))),
        1..=100,
        "uses",
        1,
    )? as u32;
    let gp_pick = h.gp.as_ref().map(|x| (x, format!("{f}.gp")));
    let gp = match (entry.and_then(|e| e.gp), &gp_pick) {
        (None, None) => {
            return Err(loc.error(
                at,
                &format!("{f}.gp"),
                "no public price for this healing: give `gp` per use",
            ));
        }
        (default, _) => number(loc, gp_pick, 0.0, 1e9, "gp", default.unwrap_or(0.0))?,
    };
    let minutes = number(
        loc,
        h.minutes.as_ref().map(|x| (x, format!("{f}.minutes"))),
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
