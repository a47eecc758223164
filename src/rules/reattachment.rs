//! Reattaching a severed limb (docs/rules.md, limb damage,
//! "Восстановление" and "Приращение"): hold the limb to the stump and heal
//! the limb itself back to its maximum HP within the window (1 hour by
//! default; longer for a well-preserved limb).
//!
//! The severed limb is an object at 0 HP, but healing can target it as if it
//! were a creature: a healing spell, or a potion of healing poured on it.
//! Healing aimed at the creature does not restore limb HP. Healing sources
//! are spent in the listed order, one use at a time, until the limb is full,
//! the sources run out, or the next use would end after the window closes
//! (nobody spends a potion on a limb that can no longer take).

use rand::Rng;

use crate::dice::DiceExpr;

/// Who a healing use is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealTarget {
    /// The severed limb (held to the stump): counts toward reattachment.
    Limb,
    /// The creature: heals the creature, never the limb.
    Creature,
}

/// Healing effects with their dice and prices, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealingKind {
    /// *Cure wounds* (PHB 2014): 1d8 per slot level + the caster's modifier.
    CureWounds,
    /// *Healing word*: 1d4 per slot level + the caster's modifier (a bonus action).
    HealingWord,
    /// Potion of healing: 2d4+2, 50 gp (PHB).
    PotionOfHealing,
    /// Potion of greater healing: 4d4+4.
    PotionOfGreaterHealing,
    /// Potion of superior healing: 8d4+8.
    PotionOfSuperiorHealing,
    /// Potion of supreme healing: 10d4+20.
    PotionOfSupremeHealing,
    /// Any other effect: give `heal`, `gp` and `minutes`.
    Custom,
}

/// One row of the healing catalogue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HealingEntry {
    /// The kind.
    pub kind: HealingKind,
    /// Name as written in scenario files.
    pub name: &'static str,
    /// Whether it is a spell (dice scale with the slot, the caster's
    /// modifier adds).
    pub spell: bool,
    /// Dice per slot level for a spell, or the potion's fixed expression.
    pub dice: DiceExpr,
    /// Price per use where a public price exists (docs/rules.md, permanent wounds price list for
    /// *cure wounds*; PHB for the potion of healing); `None` = the scenario
    /// must give one.
    pub gp: Option<f64>,
    /// Minutes per use (an action or a bonus action is 6 seconds).
    pub minutes: f64,
}

const fn dice(count: u32, sides: u32, modifier: i32) -> DiceExpr {
    DiceExpr {
        count,
        sides,
        modifier,
    }
}

/// Healing catalogue (dice from the SRD 5.1; prices only where public).
pub const HEALING: [HealingEntry; 6] = [
    HealingEntry {
        kind: HealingKind::CureWounds,
        name: "cure_wounds",
        spell: true,
        dice: dice(1, 8, 0),
        gp: Some(10.0),
        minutes: 0.1,
    },
    HealingEntry {
        kind: HealingKind::HealingWord,
        name: "healing_word",
        spell: true,
        dice: dice(1, 4, 0),
        gp: None,
        minutes: 0.1,
    },
    HealingEntry {
        kind: HealingKind::PotionOfHealing,
        name: "potion_of_healing",
        spell: false,
        dice: dice(2, 4, 2),
        gp: Some(50.0),
        minutes: 0.1,
    },
    HealingEntry {
        kind: HealingKind::PotionOfGreaterHealing,
        name: "potion_of_greater_healing",
        spell: false,
        dice: dice(4, 4, 4),
        gp: None,
        minutes: 0.1,
    },
    HealingEntry {
        kind: HealingKind::PotionOfSuperiorHealing,
        name: "potion_of_superior_healing",
        spell: false,
        dice: dice(8, 4, 8),
        gp: None,
        minutes: 0.1,
    },
    HealingEntry {
        kind: HealingKind::PotionOfSupremeHealing,
        name: "potion_of_supreme_healing",
        spell: false,
        dice: dice(10, 4, 20),
        gp: None,
        minutes: 0.1,
    },
];

/// The catalogue entry of a kind (`None` for [`HealingKind::Custom`]).
pub fn catalogue(kind: HealingKind) -> Option<&'static HealingEntry> {
    HEALING.iter().find(|e| e.kind == kind)
}

impl HealingEntry {
    /// The healing dice of one use: a spell cast at `slot` with the caster's
    /// `modifier`, or the potion's own dice.
    ///
    /// ```
    /// use woundsim::rules::reattachment::{HealingKind, catalogue};
    /// let cure = catalogue(HealingKind::CureWounds).unwrap();
    /// assert_eq!(cure.heal(2, 3).to_string(), "2d8+3");
    /// let potion = catalogue(HealingKind::PotionOfHealing).unwrap();
    /// assert_eq!(potion.heal(1, 0).to_string(), "2d4+2");
    /// ```
    pub fn heal(&self, slot: u32, modifier: i32) -> DiceExpr {
        if self.spell {
            DiceExpr {
                count: self.dice.count * slot,
                sides: self.dice.sides,
                modifier: self.dice.modifier + modifier,
            }
        } else {
            self.dice
        }
    }
}

/// One supply of healing: what it heals, how many uses, at what cost.
#[derive(Clone, Debug, PartialEq)]
pub struct HealingSource {
    /// Name, for humans.
    pub name: String,
    /// Healing per use.
    pub heal: DiceExpr,
    /// Uses available.
    pub uses: u32,
    /// Gold per use.
    pub gp: f64,
    /// Minutes per use.
    pub minutes: f64,
    /// The limb or the creature.
    pub target: HealTarget,
    /// A spell, a potion or something else (for the spells/potions counts).
    pub category: HealingCategory,
}

/// What a healing supply is, for counting spells and potions spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HealingCategory {
    /// A healing spell.
    Spell,
    /// A potion (poured on the limb or drunk).
    Potion,
    /// Anything else (a custom supply).
    Other,
}

impl HealingKind {
    /// The category of a kind.
    pub fn category(self) -> HealingCategory {
        match catalogue(self) {
            Some(e) if e.spell => HealingCategory::Spell,
            Some(_) => HealingCategory::Potion,
            None => HealingCategory::Other,
        }
    }
}

/// Reattachment rules of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct ReattachRules {
    /// Minutes after severing within which the limb must be back at full HP
    /// (the seed: 60; a GM may extend it for a well-preserved limb).
    pub window_minutes: f64,
    /// Minutes from severing to the first healing (fixed or dice).
    pub delay_minutes: DiceExpr,
    /// Healing supplies, spent in this order.
    pub sources: Vec<HealingSource>,
}

/// What one reattachment attempt came to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReattachOutcome {
    /// The limb is back on.
    pub reattached: bool,
    /// Healing uses spent (limb- and creature-aimed).
    pub uses: u32,
    /// Gold spent.
    pub gp: f64,
    /// Minutes from severing to the end of the last use (or the delay).
    pub minutes: f64,
    /// Hit points restored to the creature (never to the limb).
    pub creature_healed: u32,
    /// Spell uses spent.
    pub spells: u32,
    /// Potion uses spent.
    pub potions: u32,
}

/// One planned use: the source index and its cumulative time and gold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedUse {
    /// Index into [`ReattachRules::sources`].
    pub source: usize,
    /// Minutes of all uses up to and including this one.
    pub minutes: f64,
    /// Gold of all uses up to and including this one.
    pub gp: f64,
    /// Spell uses up to and including this one.
    pub spells: u32,
    /// Potion uses up to and including this one.
    pub potions: u32,
}

impl ReattachRules {
    /// Every use in spending order, with cumulative minutes and gold.
    pub fn plan(&self) -> Vec<PlannedUse> {
        let mut out = Vec::new();
        let (mut minutes, mut gp, mut spells, mut potions) = (0.0, 0.0, 0, 0);
        for (i, s) in self.sources.iter().enumerate() {
            for _ in 0..s.uses {
                minutes += s.minutes;
                gp += s.gp;
                spells += u32::from(s.category == HealingCategory::Spell);
                potions += u32::from(s.category == HealingCategory::Potion);
                out.push(PlannedUse {
                    source: i,
                    minutes,
                    gp,
                    spells,
                    potions,
                });
            }
        }
        out
    }

    /// How many planned uses finish within the window after `delay` minutes.
    pub fn uses_in_time(&self, plan: &[PlannedUse], delay: f64) -> usize {
        plan.iter()
            .take_while(|u| delay + u.minutes <= self.window_minutes + 1e-9)
            .count()
    }

    /// Total uses of all sources.
    pub fn total_uses(&self) -> u32 {
        self.sources.iter().map(|s| s.uses).sum()
    }

    /// Tries to reattach a limb of `limb_max` HP, severed at 0 HP.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use woundsim::dice::DiceExpr;
    /// use woundsim::rules::reattachment::*;
    /// let potion = |target| HealingSource {
    ///     name: "potion".into(), heal: "2d4+2".parse().unwrap(),
    ///     uses: 2, gp: 50.0, minutes: 0.1, target, category: HealingCategory::Potion,
    /// };
    /// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    /// let rules = |target| ReattachRules {
    ///     window_minutes: 60.0, delay_minutes: DiceExpr::constant(1), sources: vec![potion(target)],
    /// };
    /// assert!(rules(HealTarget::Limb).resolve(5, &mut rng).reattached);
    /// // Healing poured on the creature does nothing for the limb.
    /// assert!(!rules(HealTarget::Creature).resolve(5, &mut rng).reattached);
    /// ```
    pub fn resolve<R: Rng + ?Sized>(&self, limb_max: u32, rng: &mut R) -> ReattachOutcome {
        let delay = self.delay_minutes.sample(rng).max(0) as f64;
        let plan = self.plan();
        let allowed = self.uses_in_time(&plan, delay);
        let mut hp: u32 = 0;
        let mut out = ReattachOutcome {
            reattached: false,
            uses: 0,
            gp: 0.0,
            minutes: delay,
            creature_healed: 0,
            spells: 0,
            potions: 0,
        };
        for used in plan.iter().take(allowed) {
            let source = &self.sources[used.source];
            let healed = source.heal.sample(rng).max(0) as u32;
            match source.target {
                HealTarget::Limb => hp = hp.saturating_add(healed).min(limb_max),
                HealTarget::Creature => out.creature_healed += healed,
            }
            out.uses += 1;
            out.gp = used.gp;
            out.minutes = delay + used.minutes;
            out.spells = used.spells;
            out.potions = used.potions;
            if hp >= limb_max {
                out.reattached = true;
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn source(heal: &str, uses: u32, minutes: f64, target: HealTarget) -> HealingSource {
        HealingSource {
            name: "s".into(),
            heal: heal.parse().unwrap(),
            uses,
            gp: 10.0,
            minutes,
            target,
            category: HealingCategory::Other,
        }
    }

    fn rules(sources: Vec<HealingSource>, window: f64, delay: i32) -> ReattachRules {
        ReattachRules {
            window_minutes: window,
            delay_minutes: DiceExpr::constant(delay),
            sources,
        }
    }

    #[test]
    fn only_full_limb_hp_reattaches() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        // 4 HP per use, a 10 HP leg: two uses leave it at 8, not enough.
        let two = rules(vec![source("4", 2, 0.1, HealTarget::Limb)], 60.0, 0);
        let o = two.resolve(10, &mut rng);
        assert_eq!((o.reattached, o.uses, o.gp), (false, 2, 20.0));
        let three = rules(vec![source("4", 3, 0.1, HealTarget::Limb)], 60.0, 0);
        let o = three.resolve(10, &mut rng);
        assert_eq!((o.reattached, o.uses), (true, 3));
    }

    #[test]
    fn creature_healing_does_not_restore_the_limb() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let r = rules(
            vec![
                source("100", 3, 0.1, HealTarget::Creature),
                source("2", 1, 0.1, HealTarget::Limb),
            ],
            60.0,
            0,
        );
        let o = r.resolve(5, &mut rng);
        assert!(!o.reattached);
        assert_eq!((o.uses, o.creature_healed), (4, 300));
    }

    #[test]
    fn healing_after_the_window_does_not_count() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let plenty = vec![source("5", 1, 10.0, HealTarget::Limb)];
        assert!(
            rules(plenty.clone(), 60.0, 50)
                .resolve(5, &mut rng)
                .reattached
        );
        let late = rules(plenty.clone(), 60.0, 51).resolve(5, &mut rng);
        assert_eq!((late.reattached, late.uses, late.gp), (false, 0, 0.0));
        // An extended window for a well-preserved limb.
        assert!(rules(plenty, 240.0, 51).resolve(5, &mut rng).reattached);
    }

    #[test]
    fn spells_and_potions_are_counted_apart() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut spell = source("1", 2, 0.1, HealTarget::Limb);
        spell.category = HealingKind::CureWounds.category();
        let mut potion = source("1", 2, 0.1, HealTarget::Limb);
        potion.category = HealingKind::PotionOfHealing.category();
        let o = rules(vec![spell, potion], 60.0, 0).resolve(3, &mut rng);
        assert_eq!((o.reattached, o.uses, o.spells, o.potions), (true, 3, 2, 1));
        assert_eq!(HealingKind::Custom.category(), HealingCategory::Other);
    }

    #[test]
    fn the_catalogue_has_the_srd_dice() {
        let get = |k| catalogue(k).unwrap().heal(1, 0).to_string();
        assert_eq!(get(HealingKind::CureWounds), "1d8");
        assert_eq!(get(HealingKind::HealingWord), "1d4");
        assert_eq!(get(HealingKind::PotionOfHealing), "2d4+2");
        assert_eq!(get(HealingKind::PotionOfGreaterHealing), "4d4+4");
        assert_eq!(get(HealingKind::PotionOfSuperiorHealing), "8d4+8");
        assert_eq!(get(HealingKind::PotionOfSupremeHealing), "10d4+20");
        assert!(catalogue(HealingKind::Custom).is_none());
        assert_eq!(
            catalogue(HealingKind::CureWounds)
                .unwrap()
                .heal(3, 4)
                .to_string(),
            "3d8+4"
        );
    }
}
