//! Key groups that several schemas share, each validated by one function:
//! the permanent wounds a PC already carries (`death_saves`, `combat`), the
//! lingering-injury keys (`injuries`, `combat`) and the Medicine modifier
//! (`festering`, `injuries`). A schema that has the keys implements the
//! group's accessor trait with one macro line.

use toml::Spanned;

use super::ScenarioError;
use super::data::injury_table::{self, RawEntry};
use super::layers::{Layers, Setting};
use super::values::{Opt, int, or};
use crate::model::Catalog;
use crate::rules::lingering::{AppliesTo, InjuryTable, MissTrigger, Trigger};
use crate::rules::permanent_wounds::{Severity, WoundSlots};

/// `existing_wounds = ["minor", ...]`: the wounds a PC carries, each
/// severity at most once (docs/rules.md, permanent wounds).
pub fn existing_wounds(
    list: Option<Setting<'_, Vec<Spanned<Severity>>>>,
) -> Result<WoundSlots, ScenarioError> {
    let mut existing = WoundSlots::EMPTY;
    let Some(list) = list else {
        return Ok(existing);
    };
    for (i, wound) in list.get().iter().enumerate() {
        let severity = *wound.get_ref();
        if existing.has(severity) {
            return Err(list.item(i, wound).error(format!(
                "`{}` is listed twice: a PC carries at most one wound of each severity",
                severity.name()
            )));
        }
        existing = existing.with(severity);
    }
    Ok(existing)
}

/// A Wisdom (Medicine) modifier, -10..=20.
pub fn medicine_bonus(v: Option<Setting<'_, i64>>, default: i8) -> Result<i8, ScenarioError> {
    Ok(int(v, -10..=20, "medicine_bonus", default.into())? as i8)
}

/// The lingering-injury keys of a settings table (docs/rules.md, lingering injuries).
pub trait InjuryKeys {
    /// `injury_chance`.
    fn injury_chance(&self) -> &Opt<f64>;
    /// `table = [...]`: a whole replacement of the built-in table.
    fn table(&self) -> &Opt<Vec<Spanned<RawEntry>>>;
    /// `override = [...]`: entries changed by id.
    fn overrides(&self) -> &Opt<Vec<Spanned<RawEntry>>>;
    /// `miss_trigger`.
    fn miss_trigger(&self) -> &Opt<MissTrigger>;
    /// `on_crit_hit`.
    fn on_crit_hit(&self) -> &Opt<bool>;
    /// `on_crit_miss`.
    fn on_crit_miss(&self) -> &Opt<bool>;
    /// `applies_to`.
    fn applies_to(&self) -> &Opt<AppliesTo>;
}

/// Implements [`InjuryKeys`] for a settings table with those fields.
macro_rules! impl_injury_keys {
    ($table:ty) => {
        impl $crate::scenario::groups::InjuryKeys for $table {
            fn injury_chance(&self) -> &$crate::scenario::values::Opt<f64> {
                &self.injury_chance
            }
            fn table(
                &self,
            ) -> &$crate::scenario::values::Opt<
                Vec<toml::Spanned<$crate::scenario::data::injury_table::RawEntry>>,
            > {
                &self.table
            }
            fn overrides(
                &self,
            ) -> &$crate::scenario::values::Opt<
                Vec<toml::Spanned<$crate::scenario::data::injury_table::RawEntry>>,
            > {
                &self.overrides
            }
            fn miss_trigger(
                &self,
            ) -> &$crate::scenario::values::Opt<$crate::rules::lingering::MissTrigger> {
                &self.miss_trigger
            }
            fn on_crit_hit(&self) -> &$crate::scenario::values::Opt<bool> {
                &self.on_crit_hit
            }
            fn on_crit_miss(&self) -> &$crate::scenario::values::Opt<bool> {
                &self.on_crit_miss
            }
            fn applies_to(
                &self,
            ) -> &$crate::scenario::values::Opt<$crate::rules::lingering::AppliesTo> {
                &self.applies_to
            }
        }
    };
}
pub(crate) use impl_injury_keys;

/// The lingering-injury rules of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Lingering {
    /// The table and its chance.
    pub table: InjuryTable,
    /// Which events trigger it, for whom.
    pub trigger: Trigger,
    /// Which of a creature's own missed attacks count.
    pub miss_trigger: MissTrigger,
}

/// Validates the lingering-injury keys: the table (the catalog's, or
/// `table`, then `override`, then `injury_chance`) and the trigger.
pub fn lingering<'a, S: InjuryKeys>(
    l: &Layers<'a, S>,
    catalog: &Catalog,
) -> Result<Lingering, ScenarioError> {
    let table = injury_table::build(
        &catalog.injury_table,
        l.get("injury_chance", |s| s.injury_chance()),
        l.get("table", |s| s.table()),
        l.get("override", |s| s.overrides()),
    )?;
    let d = Trigger::default();
    Ok(Lingering {
        table,
        trigger: Trigger {
            on_crit_hit: or(l.get("on_crit_hit", |s| s.on_crit_hit()), d.on_crit_hit),
            on_crit_miss: or(l.get("on_crit_miss", |s| s.on_crit_miss()), d.on_crit_miss),
            applies_to: or(l.get("applies_to", |s| s.applies_to()), d.applies_to),
        },
        miss_trigger: or(
            l.get("miss_trigger", |s| s.miss_trigger()),
            MissTrigger::default(),
        ),
    })
}
