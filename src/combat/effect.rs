//! The lasting effects of permanent wounds (docs/rules.md, permanent wounds) and lingering
//! injuries (§1) that matter in a fight, as bits a fighter carries.
//!
//! A leaf module: the permanent-wound examples (`combat::wounds`) and the
//! round loop (`combat::encounter`) both name these bits, and neither
//! imports the other for them.

/// Disadvantage on every ranged attack roll (the lingering injuries *lose an eye* and
/// *blurred vision*).
pub const DIS_RANGED: u16 = 1;
/// No two-handed weapons (lost hand, lost arm).
pub const NO_TWO_HANDED: u16 = 2;
/// Disadvantage on Constitution saves (internal wound, severe bruising).
pub const DIS_CON_SAVES: u16 = 4;
/// Disadvantage on Strength saves (lost arm).
pub const DIS_STR_SAVES: u16 = 8;
/// Disadvantage on Dexterity saves (lost leg).
pub const DIS_DEX_SAVES: u16 = 16;
/// Blinded (blindness, or both eyes lost).
pub const BLINDED: u16 = 32;
/// Only an action or a bonus action each turn (punctured lung).
pub const ACTION_OR_BONUS: u16 = 64;
/// Verbal spells may fail (knocked-out teeth).
pub const SPELL_FAILURE: u16 = 128;
/// A broken weapon.
pub const WEAPON_BROKEN: u16 = 256;
/// Broken armour or shield.
pub const ARMOR_BROKEN: u16 = 512;
/// Hit dice one size smaller where they are spent (severe internal bruising: a d10 becomes a
/// d8).
pub const SMALLER_HIT_DICE: u16 = 2048;
/// Disadvantage on Dexterity checks, initiative included (lost leg).
pub const DIS_DEX_CHECKS: u16 = 4096;
/// No weapon and shield together: the shield's armour class goes (lost arm).
pub const NO_SHIELD: u16 = 8192;
/// Disadvantage on ranged attack rolls that need depth vision: beyond 30 feet with positions,
/// every one without (the permanent wound *lost eye*; docs/rules.md, "What a wound does").
pub const DIS_RANGED_FAR: u16 = 1024;
/// Disadvantage on weapon attack rolls made with Strength (a lost arm, under the reading
/// `wound_attack_disadvantage = true`: "all Strength rolls" are attack rolls too; docs/rules.md,
/// "Two readings"). Never set by a data file: derived from [`DIS_STR_SAVES`] when the option is on.
pub const DIS_STR_ATTACKS: u16 = 16384;
/// Disadvantage on weapon attack rolls made with Dexterity (a lost leg, under the same reading).
pub const DIS_DEX_ATTACKS: u16 = 32768;
