//! The fight keys: a party against monsters under 5e rules, as a combat
//! scenario writes them in its `[options]` and `[[variant]]` tables and a
//! campaign nests them under `fights` (docs/combat.md). A key group any
//! scenario type can embed: the table ([`RawFights`]), the encounter rules
//! it gives ([`rules()`]), its sides of creatures ([`sides`]) and the
//! monster side a `difficulty` builds from a pool ([`budget`]).
//!
//! The injury table is the built-in one unless `table` replaces it or
//! `override` changes entries, validated as for `type = "injuries"`.

pub mod budget;
mod rules;
pub mod sides;

use serde::Deserialize;
use toml::Spanned;

use crate::combat::policy::{
    AidWhen, Between, CalledShooters, DrinkWhen, HealWhen, LimbAim, RangedInMelee, SlotChoice,
    SpellPolicy, Stabilize, Targeting, WhenPartyFalls,
};
use crate::dice::RollMode;
use crate::rules::lingering::{AppliesTo, MissTrigger};
use crate::rules::permanent_wounds::{Severity, WoundPolicy};
use crate::scenario::data::creature::RawCreature;
use crate::scenario::data::injury_table::RawEntry;
use crate::scenario::groups::impl_injury_keys;

pub use rules::rules;

/// `attack_downed` as written.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawAttackDowned {
    /// Never.
    Never,
    /// With probability `attack_downed_chance`.
    Sometimes,
    /// Always.
    Always,
}

/// A table of fight keys as written: a combat scenario's `[options]` or
/// `[[variant]]` table, or a campaign's nested `fights` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFights {
    pub(crate) name: Option<Spanned<String>>,
    pub(crate) description: Option<Spanned<String>>,
    pub(crate) party: Option<Spanned<Vec<Spanned<RawCreature>>>>,
    pub(crate) party_level: Option<Spanned<i64>>,
    pub(crate) monsters: Option<Spanned<Vec<Spanned<RawCreature>>>>,
    pub(crate) difficulty: Option<Spanned<toml::Value>>,
    pub(crate) monster_pool: Option<Spanned<Vec<Spanned<String>>>>,
    pub(crate) targeting: Option<Spanned<Targeting>>,
    pub(crate) attack_downed: Option<Spanned<RawAttackDowned>>,
    pub(crate) attack_downed_chance: Option<Spanned<f64>>,
    pub(crate) when_party_falls: Option<Spanned<WhenPartyFalls>>,
    pub(crate) heal_when: Option<Spanned<HealWhen>>,
    pub(crate) stabilize: Option<Spanned<Stabilize>>,
    pub(crate) massive_damage: Option<Spanned<bool>>,
    pub(crate) sunlight: Option<Spanned<bool>>,
    pub(crate) round_cap: Option<Spanned<i64>>,
    pub(crate) crit_range: Option<Spanned<i64>>,
    pub(crate) critical_hits: Option<Spanned<bool>>,
    pub(crate) monsters_flee_below: Option<Spanned<f64>>,
    pub(crate) encounters: Option<Spanned<i64>>,
    pub(crate) between_encounters: Option<Spanned<Between>>,
    pub(crate) wound_effects: Option<Spanned<bool>>,
    pub(crate) wound_attack_disadvantage: Option<Spanned<bool>>,
    pub(crate) lost_leg_prosthesis: Option<Spanned<bool>>,
    pub(crate) wound_policy: Option<Spanned<WoundPolicy>>,
    pub(crate) existing_wounds: Option<Spanned<Vec<Spanned<Severity>>>>,
    pub(crate) death_save_dc: Option<Spanned<i64>>,
    pub(crate) death_save_roll: Option<Spanned<RollMode>>,
    pub(crate) lingering_injuries: Option<Spanned<bool>>,
    pub(crate) injury_chance: Option<Spanned<f64>>,
    pub(crate) table: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    #[serde(rename = "override")]
    pub(crate) overrides: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    pub(crate) miss_trigger: Option<Spanned<MissTrigger>>,
    pub(crate) on_crit_hit: Option<Spanned<bool>>,
    pub(crate) on_crit_miss: Option<Spanned<bool>>,
    pub(crate) applies_to: Option<Spanned<AppliesTo>>,
    pub(crate) bad_weather: Option<Spanned<bool>>,
    pub(crate) spell_slot: Option<Spanned<SlotChoice>>,
    pub(crate) slot_reserve: Option<Spanned<i64>>,
    pub(crate) revivify: Option<Spanned<bool>>,
    pub(crate) aid: Option<Spanned<AidWhen>>,
    pub(crate) drink_potions: Option<Spanned<DrinkWhen>>,
    pub(crate) spell_policy: Option<Spanned<SpellPolicy>>,
    pub(crate) called_shots: Option<Spanned<CalledShooters>>,
    pub(crate) called_shot_penalty: Option<Spanned<i64>>,
    pub(crate) called_shot_limb: Option<Spanned<LimbAim>>,
    pub(crate) piercing_severs: Option<Spanned<bool>>,
    pub(crate) positions: Option<Spanned<bool>>,
    pub(crate) start_distance: Option<Spanned<i64>>,
    pub(crate) back_line_distance: Option<Spanned<i64>>,
    pub(crate) move_past_front: Option<Spanned<bool>>,
    pub(crate) ranged_in_melee: Option<Spanned<RangedInMelee>>,
    pub(crate) spreading_venom: Option<Spanned<Vec<Spanned<String>>>>,
    pub(crate) venom_clock: Option<Spanned<toml::Value>>,
    pub(crate) venom_amputate: Option<Spanned<bool>>,
    pub(crate) venom_piercing_severs: Option<Spanned<bool>>,
    pub(crate) venom_reattach_minutes: Option<Spanned<i64>>,
}

/// Most rounds a venom's clock may give.
pub const MAX_VENOM_CLOCK: i64 = 1_000;

/// Most attack names `spreading_venom` lists.
pub const MAX_VENOM_ATTACKS: usize = 16;

crate::scenario::impl_named!(RawFights);
impl_injury_keys!(RawFights);
