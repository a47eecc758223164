//! A class's `features` as written ([`RawFeature`]) turned into the
//! template's [`Feature`]s. Each kind of feature has its keys: a first
//! level (`from_level`) or a list of levels, a flat bonus, dice, or tables
//! by level; one function per shape of keys validates its kinds, with the
//! checks of [`FeatureCheck`] (a level in range, a table reaching the
//! class's levels, dice that parse). An error points at the class's
//! `features` and names the feature's key (`class[0].features[2].uses`).

use serde::Deserialize;

use crate::combat::creature::Ability;
use crate::combat::templates::{Feature, WildShapeForm};
use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;
use crate::scenario::{Locator, ScenarioError};

use super::MAX_LEVEL;

/// A feature as written: `{ feature = "rage", uses = [...], ... }`, the
/// `feature` key naming the kind.
#[derive(Deserialize)]
#[serde(tag = "feature", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum RawFeature {
    Dueling {
        from_level: u8,
        damage_bonus: i32,
    },
    ExtraAttack {
        levels: Vec<u8>,
    },
    ImprovedCritical {
        levels: Vec<u8>,
    },
    SecondWind {
        from_level: u8,
        dice: String,
    },
    Rage {
        uses: Vec<u8>,
        damage_bonus: Vec<i32>,
    },
    RecklessAttack {
        from_level: u8,
    },
    SneakAttack {
        d6: Vec<u32>,
        #[serde(rename = "type")]
        kind: DamageType,
    },
    DivineSmite {
        from_level: u8,
        dice: String,
        #[serde(rename = "type")]
        kind: DamageType,
    },
    LayOnHands {
        from_level: u8,
        hp_per_use: i32,
    },
    HealingWord {
        from_level: u8,
        dice: String,
        bonus: i32,
    },
    AuraOfProtection {
        from_level: u8,
        save_bonus: i32,
        /// The aura's reach by level (feet).
        feet: Vec<i32>,
    },
    ImprovedDivineSmite {
        from_level: u8,
        dice: String,
        #[serde(rename = "type")]
        kind: DamageType,
    },
    AbilityBonus {
        from_level: u8,
        ability: Ability,
        bonus: i32,
    },
    MartialArts {
        die: Vec<u32>,
    },
    SpeedBonus {
        feet: Vec<i32>,
    },
    Evasion {
        from_level: u8,
    },
    AllSaves {
        from_level: u8,
    },
    RelentlessRage {
        from_level: u8,
    },
    Archery {
        from_level: u8,
        attack_bonus: i32,
    },
    ExtraDamage {
        from_level: u8,
        dice: String,
        #[serde(rename = "type")]
        kind: DamageType,
    },
    HitPointsPerLevel {
        from_level: u8,
        bonus: i32,
    },
    SpellDamageBonus {
        from_level: u8,
        /// Also the levelled spells dealing this type (Elemental Affinity).
        #[serde(rename = "type")]
        kind: Option<DamageType>,
    },
    ActionSurge {
        uses: Vec<u8>,
    },
    Indomitable {
        uses: Vec<u8>,
    },
    UncannyDodge {
        from_level: u8,
    },
    BrutalCritical {
        levels: Vec<u8>,
    },
    StunningStrike {
        from_level: u8,
        ki: Vec<u8>,
        ability: Ability,
    },
    DeflectMissiles {
        from_level: u8,
        dice: String,
    },
    BardicInspiration {
        die: Vec<u32>,
        short_rest_from: u8,
    },
    PreserveLife {
        uses: Vec<u8>,
        hp_per_level: i32,
    },
    QuickenedSpell {
        from_level: u8,
        points: Vec<u8>,
    },
    TurnUndead {
        from_level: u8,
        destroy_from: u8,
        destroy_cr: Vec<f64>,
    },
    DarkOnesBlessing {
        from_level: u8,
    },
    EmpoweredEvocation {
        from_level: u8,
    },
    ArmorOfShadows {
        from_level: u8,
    },
    FiendishVigor {
        from_level: u8,
    },
    RepellingBlast {
        from_level: u8,
    },
    WildShape {
        uses: u8,
        forms: Vec<RawForm>,
    },
}

/// A Wild Shape form as written: `{ from_level = 2, form = "wolf" }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawForm {
    from_level: u8,
    form: String,
}

/// The most Wild Shape uses per rest a feature may give.
const MAX_WILD_SHAPE_USES: u8 = 20;
/// The most forms a Wild Shape feature may list.
const MAX_FORMS: usize = 20;
/// The longest bestiary name of a form.
const MAX_FORM_NAME: usize = 100;

/// Where a feature is written and the class it belongs to: what a
/// feature's values are checked against, and where an error points.
pub(super) struct FeatureCheck<'a> {
    /// The file.
    pub loc: &'a Locator<'a>,
    /// Byte offset of the class's `features` (every error points there).
    pub at: usize,
    /// The feature's field path, `class[i].features[j]`.
    pub path: String,
    /// The class's level count: every table by level must reach it.
    pub levels: u8,
}

impl FeatureCheck<'_> {
    /// The error about the feature's `key`.
    fn error(&self, key: &str, message: String) -> ScenarioError {
        self.loc
            .error(self.at, &format!("{}.{key}", self.path), message)
    }

    /// A table by level `key` that reaches every level of the class.
    fn table<T: Clone>(&self, key: &str, table: &[T]) -> Result<Vec<T>, ScenarioError> {
        let (levels, len) = (self.levels, table.len());
        if len >= usize::from(levels) {
            Ok(table.to_vec())
        } else {
            Err(self.error(
                key,
                format!(
                    "a table by level must reach the class's {levels} levels, got {len} values"
                ),
            ))
        }
    }

    /// A level `key` of the SRD's character levels.
    fn level(&self, key: &str, l: u8) -> Result<u8, ScenarioError> {
        if (1..=MAX_LEVEL).contains(&l) {
            Ok(l)
        } else {
            Err(self.error(
                key,
                format!("a level must be between 1 and {MAX_LEVEL}, got {l}"),
            ))
        }
    }

    /// `from_level`: the first level with the feature.
    fn first_level(&self, l: u8) -> Result<u8, ScenarioError> {
        self.level("from_level", l)
    }

    /// `levels`: the levels at which the feature grows.
    fn levels(&self, ls: &[u8]) -> Result<Vec<u8>, ScenarioError> {
        ls.iter().map(|&l| self.level("levels", l)).collect()
    }

    /// `dice`, parsed.
    fn dice(&self, text: &str) -> Result<DiceExpr, ScenarioError> {
        super::dice(self.loc, self.at, &format!("{}.dice", self.path), text)
    }
}

/// The feature `f` validated into the template's value.
pub(super) fn feature(c: &FeatureCheck, f: &RawFeature) -> Result<Feature, ScenarioError> {
    use RawFeature as R;
    match f {
        R::ExtraAttack { .. }
        | R::ImprovedCritical { .. }
        | R::RecklessAttack { .. }
        | R::Evasion { .. }
        | R::AllSaves { .. }
        | R::RelentlessRage { .. }
        | R::SpellDamageBonus { .. }
        | R::UncannyDodge { .. }
        | R::DarkOnesBlessing { .. }
        | R::EmpoweredEvocation { .. }
        | R::ArmorOfShadows { .. }
        | R::FiendishVigor { .. }
        | R::RepellingBlast { .. }
        | R::BrutalCritical { .. } => level_feature(c, f),
        R::Dueling { .. }
        | R::LayOnHands { .. }
        | R::AuraOfProtection { .. }
        | R::AbilityBonus { .. }
        | R::Archery { .. }
        | R::HitPointsPerLevel { .. } => bonus_feature(c, f),
        R::SecondWind { .. }
        | R::DivineSmite { .. }
        | R::HealingWord { .. }
        | R::ImprovedDivineSmite { .. }
        | R::ExtraDamage { .. }
        | R::DeflectMissiles { .. } => dice_feature(c, f),
        R::Rage { .. } | R::SneakAttack { .. } | R::MartialArts { .. } | R::SpeedBonus { .. } => {
            table_feature(c, f)
        }
        R::ActionSurge { .. }
        | R::Indomitable { .. }
        | R::StunningStrike { .. }
        | R::BardicInspiration { .. }
        | R::PreserveLife { .. }
        | R::QuickenedSpell { .. }
        | R::TurnUndead { .. } => uses_feature(c, f),
        R::WildShape { uses, forms } => wild_shape(c, *uses, forms),
    }
}

/// Wild Shape: 1 to [`MAX_WILD_SHAPE_USES`] uses, 1 to [`MAX_FORMS`]
/// forms in rising levels, each a bestiary name (resolved and checked
/// against the Beast Shapes table when the bestiary is read).
fn wild_shape(c: &FeatureCheck, uses: u8, forms: &[RawForm]) -> Result<Feature, ScenarioError> {
    if !(1..=MAX_WILD_SHAPE_USES).contains(&uses) {
        let message = format!("uses must be 1 to {MAX_WILD_SHAPE_USES}, got {uses}");
        return Err(c.error("uses", message));
    }
    if forms.is_empty() || forms.len() > MAX_FORMS {
        let message = format!("1 to {MAX_FORMS} forms, got {}", forms.len());
        return Err(c.error("forms", message));
    }
    let mut last = 0;
    let mut out = Vec::with_capacity(forms.len());
    for (k, f) in forms.iter().enumerate() {
        let from_level = c.level(&format!("forms[{k}].from_level"), f.from_level)?;
        if from_level <= last {
            let message = format!("forms come in rising levels: {from_level} after {last}");
            return Err(c.error(&format!("forms[{k}].from_level"), message));
        }
        last = from_level;
        let form = f.form.trim();
        if form.is_empty() || form.chars().count() > MAX_FORM_NAME {
            let message = format!(
                "a bestiary name of 1 to {MAX_FORM_NAME} characters, got {} characters",
                form.chars().count()
            );
            return Err(c.error(&format!("forms[{k}].form"), message));
        }
        out.push(WildShapeForm {
            from_level,
            form: form.to_string(),
        });
    }
    Ok(Feature::WildShape { uses, forms: out })
}

/// A feature whose keys are levels only: gained at `from_level`, or
/// growing at each of `levels`.
fn level_feature(c: &FeatureCheck, f: &RawFeature) -> Result<Feature, ScenarioError> {
    use RawFeature as R;
    Ok(match f {
        R::ExtraAttack { levels } => Feature::ExtraAttack {
            levels: c.levels(levels)?,
        },
        R::ImprovedCritical { levels } => Feature::ImprovedCritical {
            levels: c.levels(levels)?,
        },
        R::DarkOnesBlessing { from_level } => Feature::DarkOnesBlessing {
            from_level: c.first_level(*from_level)?,
        },
        R::EmpoweredEvocation { from_level } => Feature::EmpoweredEvocation {
            from_level: c.first_level(*from_level)?,
        },
        R::ArmorOfShadows { from_level } => Feature::ArmorOfShadows {
            from_level: c.first_level(*from_level)?,
        },
        R::FiendishVigor { from_level } => Feature::FiendishVigor {
            from_level: c.first_level(*from_level)?,
        },
        R::RepellingBlast { from_level } => Feature::RepellingBlast {
            from_level: c.first_level(*from_level)?,
        },
        R::RecklessAttack { from_level } => Feature::RecklessAttack {
            from_level: c.first_level(*from_level)?,
        },
        R::Evasion { from_level } => Feature::Evasion {
            from_level: c.first_level(*from_level)?,
        },
        R::AllSaves { from_level } => Feature::AllSaves {
            from_level: c.first_level(*from_level)?,
        },
        R::RelentlessRage { from_level } => Feature::RelentlessRage {
            from_level: c.first_level(*from_level)?,
        },
        R::SpellDamageBonus { from_level, kind } => Feature::SpellDamageBonus {
            from_level: c.first_level(*from_level)?,
            kind: *kind,
        },
        R::UncannyDodge { from_level } => Feature::UncannyDodge {
            from_level: c.first_level(*from_level)?,
        },
        R::BrutalCritical { levels } => Feature::BrutalCritical {
            levels: c.levels(levels)?,
        },
        _ => unreachable!("`feature` passes level features only"),
    })
}

/// A feature gained at `from_level` with a flat number: a bonus, or the
/// hit points of one use.
fn bonus_feature(c: &FeatureCheck, f: &RawFeature) -> Result<Feature, ScenarioError> {
    use RawFeature as R;
    Ok(match f {
        R::Dueling {
            from_level,
            damage_bonus,
        } => Feature::Dueling {
            from_level: c.first_level(*from_level)?,
            damage_bonus: *damage_bonus,
        },
        R::LayOnHands {
            from_level,
            hp_per_use,
        } => {
            if *hp_per_use < 1 {
                let message = format!("hp_per_use must be at least 1, got {hp_per_use}");
                return Err(c.error("hp_per_use", message));
            }
            Feature::LayOnHands {
                from_level: c.first_level(*from_level)?,
                hp_per_use: *hp_per_use,
            }
        }
        R::AuraOfProtection {
            from_level,
            save_bonus,
            feet,
        } => {
            let feet = c.table("feet", feet)?;
            if let Some(bad) = feet.iter().find(|f| !(0..=1000).contains(*f)) {
                let message = format!("an aura's reach is 0 to 1000 feet, got {bad}");
                return Err(c.error("feet", message));
            }
            Feature::AuraOfProtection {
                from_level: c.first_level(*from_level)?,
                save_bonus: *save_bonus,
                feet,
            }
        }
        R::AbilityBonus {
            from_level,
            ability,
            bonus,
        } => {
            if !(-5..=10).contains(bonus) {
                let message = format!("an ability bonus must be between -5 and 10, got {bonus}");
                return Err(c.error("bonus", message));
            }
            Feature::AbilityBonus {
                from_level: c.first_level(*from_level)?,
                ability: *ability,
                bonus: *bonus,
            }
        }
        R::Archery {
            from_level,
            attack_bonus,
        } => Feature::Archery {
            from_level: c.first_level(*from_level)?,
            attack_bonus: *attack_bonus,
        },
        R::HitPointsPerLevel { from_level, bonus } => Feature::HitPointsPerLevel {
            from_level: c.first_level(*from_level)?,
            bonus: *bonus,
        },
        _ => unreachable!("`feature` passes bonus features only"),
    })
}

/// A feature gained at `from_level` that rolls `dice` (healing, or
/// damage of a `type`).
fn dice_feature(c: &FeatureCheck, f: &RawFeature) -> Result<Feature, ScenarioError> {
    use RawFeature as R;
    Ok(match f {
        R::SecondWind { from_level, dice } => Feature::SecondWind {
            from_level: c.first_level(*from_level)?,
            dice: c.dice(dice)?,
        },
        R::DivineSmite {
            from_level,
            dice,
            kind,
        } => Feature::DivineSmite {
            from_level: c.first_level(*from_level)?,
            dice: c.dice(dice)?,
            kind: *kind,
        },
        R::HealingWord {
            from_level,
            dice,
            bonus,
        } => Feature::HealingWord {
            from_level: c.first_level(*from_level)?,
            dice: c.dice(dice)?,
            bonus: *bonus,
        },
        R::ImprovedDivineSmite {
            from_level,
            dice,
            kind,
        } => Feature::ImprovedDivineSmite {
            from_level: c.first_level(*from_level)?,
            dice: c.dice(dice)?,
            kind: *kind,
        },
        R::ExtraDamage {
            from_level,
            dice,
            kind,
        } => Feature::ExtraDamage {
            from_level: c.first_level(*from_level)?,
            dice: c.dice(dice)?,
            kind: *kind,
        },
        R::DeflectMissiles { from_level, dice } => Feature::DeflectMissiles {
            from_level: c.first_level(*from_level)?,
            dice: c.dice(dice)?,
        },
        _ => unreachable!("`feature` passes dice features only"),
    })
}

/// A feature whose values are tables by level, each reaching every level
/// of the class.
fn table_feature(c: &FeatureCheck, f: &RawFeature) -> Result<Feature, ScenarioError> {
    use RawFeature as R;
    Ok(match f {
        R::Rage { uses, damage_bonus } => Feature::Rage {
            uses: c.table("uses", uses)?,
            damage_bonus: c.table("damage_bonus", damage_bonus)?,
        },
        R::SneakAttack { d6, kind } => Feature::SneakAttack {
            d6: c.table("d6", d6)?,
            kind: *kind,
        },
        R::MartialArts { die } => {
            let die = c.table("die", die)?;
            if let Some(bad) = die.iter().find(|d| ![4, 6, 8, 10, 12].contains(*d)) {
                let message = format!("a Martial Arts die is 4, 6, 8, 10 or 12, got {bad}");
                return Err(c.error("die", message));
            }
            Feature::MartialArts { die }
        }
        R::SpeedBonus { feet } => {
            let feet = c.table("feet", feet)?;
            if let Some(bad) = feet.iter().find(|f| !(0..=120).contains(*f)) {
                let message = format!("a speed bonus is 0 to 120 feet, got {bad}");
                return Err(c.error("feet", message));
            }
            Feature::SpeedBonus { feet }
        }
        _ => unreachable!("`feature` passes table features only"),
    })
}

/// A feature with uses (or a die) by level: Action Surge, Indomitable,
/// Stunning Strike's ki, Bardic Inspiration's die, Preserve Life, Quickened
/// Spell's sorcery points.
fn uses_feature(c: &FeatureCheck, f: &RawFeature) -> Result<Feature, ScenarioError> {
    use RawFeature as R;
    Ok(match f {
        R::ActionSurge { uses } => Feature::ActionSurge {
            uses: c.table("uses", uses)?,
        },
        R::Indomitable { uses } => Feature::Indomitable {
            uses: c.table("uses", uses)?,
        },
        R::StunningStrike {
            from_level,
            ki,
            ability,
        } => Feature::StunningStrike {
            from_level: c.first_level(*from_level)?,
            ki: c.table("ki", ki)?,
            ability: *ability,
        },
        R::BardicInspiration {
            die,
            short_rest_from,
        } => {
            let die = c.table("die", die)?;
            if let Some(bad) = die.iter().find(|d| ![0, 4, 6, 8, 10, 12].contains(*d)) {
                let message = format!("an inspiration die is 6, 8, 10 or 12 (0: none), got {bad}");
                return Err(c.error("die", message));
            }
            Feature::BardicInspiration {
                die,
                short_rest_from: c.level("short_rest_from", *short_rest_from)?,
            }
        }
        R::PreserveLife { uses, hp_per_level } => {
            if !(1..=100).contains(hp_per_level) {
                let message = format!("hp_per_level must be 1 to 100, got {hp_per_level}");
                return Err(c.error("hp_per_level", message));
            }
            Feature::PreserveLife {
                uses: c.table("uses", uses)?,
                hp_per_level: *hp_per_level,
            }
        }
        R::QuickenedSpell { from_level, points } => Feature::QuickenedSpell {
            from_level: c.first_level(*from_level)?,
            points: c.table("points", points)?,
        },
        R::TurnUndead {
            from_level,
            destroy_from,
            destroy_cr,
        } => {
            let destroy_cr = c.table("destroy_cr", destroy_cr)?;
            if let Some(bad) = destroy_cr.iter().find(|cr| !(0.0..=30.0).contains(*cr)) {
                let message = format!("a challenge rating is 0 to 30, got {bad}");
                return Err(c.error("destroy_cr", message));
            }
            Feature::TurnUndead {
                from_level: c.first_level(*from_level)?,
                destroy_from: c.level("destroy_from", *destroy_from)?,
                destroy_cr: destroy_cr.iter().map(|&cr| cr as f32).collect(),
            }
        }
        _ => unreachable!("`feature` passes use features only"),
    })
}
