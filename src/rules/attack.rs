//! The 5e attack roll (SRD 5.1, "Attack Rolls", "Critical Hits",
//! "Unconscious"), the one hit-and-crit rule every model uses: the combat
//! round loop, the lingering-injury trigger of the `injuries` type and the
//! attacks on a limb.
//!
//! A natural 1 always misses. A natural 20, and under the usual reading
//! any natural in the attacker's critical range, always hits; otherwise the
//! attack hits when the d20 plus the attack bonus reaches the target's AC.
//! A hit with a natural in the critical range is a critical hit, and so is
//! every hit on a helpless (paralyzed or unconscious) creature within 5 ft.
//! A table that plays without critical hits scores every one of them as an
//! ordinary hit.
//!
//! [`AttackRoll::resolve`] judges one kept natural d20 (a pure function:
//! the caller rolls it with [`crate::dice::RollMode::roll`]);
//! [`AttackRoll::chances`] is the exact distribution of the outcome.
//! [`AttackSlot`] is one attack against a limb (docs/rules.md, limb damage): the roll and
//! the limb damage of a hit, sampled ([`AttackSlot::swing`]) and exact
//! ([`AttackSlot::distribution`]).

use rand::Rng;

use crate::dice::{DiceExpr, RollMode};
use crate::rules::limbs::{DamageModifiers, DamageType, LimbEffect};

/// What decides one attack roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackRoll {
    /// Attack bonus added to the d20.
    pub bonus: i32,
    /// The target's armour class.
    pub ac: i32,
    /// Lowest natural d20 that is a critical hit (20; 19 for a Champion).
    pub crit_range: u8,
    /// Every hit is a critical hit (a helpless target within 5 ft).
    pub auto_crit: bool,
    /// The table plays with critical hits (RAW); without them a critical
    /// hit is an ordinary one.
    pub critical_hits: bool,
    /// A natural in the critical range hits whatever the AC (RAW reading);
    /// `false` is the reading where only a natural 20 does and a lower
    /// natural in the range must also reach the AC to crit.
    pub crit_range_hits: bool,
}

/// How one attack roll ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackOutcome {
    /// A natural 1: a miss whatever the bonus (a critical miss).
    NaturalOne,
    /// Below the AC.
    Miss,
    /// An ordinary hit.
    Hit,
    /// A critical hit: the damage dice are doubled.
    Critical,
}

impl AttackOutcome {
    /// Whether the attack hits (a critical hit included).
    #[inline]
    pub fn is_hit(self) -> bool {
        matches!(self, AttackOutcome::Hit | AttackOutcome::Critical)
    }

    /// Whether the attack is a critical hit.
    #[inline]
    pub fn is_critical(self) -> bool {
        self == AttackOutcome::Critical
    }
}

/// The exact outcome distribution of an attack roll.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OutcomeChances {
    /// Every miss, natural 1s included.
    pub miss: f64,
    /// The natural 1s among the misses.
    pub natural_one: f64,
    /// Ordinary hits.
    pub hit: f64,
    /// Critical hits.
    pub critical: f64,
}

impl AttackRoll {
    /// The roll of an attack with `bonus` against `ac` under the RAW
    /// defaults: critical hits on a natural 20, which always hits.
    pub fn against(bonus: i32, ac: i32) -> Self {
        AttackRoll {
            bonus,
            ac,
            crit_range: 20,
            auto_crit: false,
            critical_hits: true,
            crit_range_hits: true,
        }
    }

    /// Judges the kept natural d20 `natural` (1..=20).
    ///
    /// ```
    /// use woundsim::rules::attack::{AttackOutcome, AttackRoll};
    /// let roll = AttackRoll::against(4, 18);
    /// assert_eq!(roll.resolve(1), AttackOutcome::NaturalOne);
    /// assert_eq!(roll.resolve(13), AttackOutcome::Miss); // 13 + 4 < 18
    /// assert_eq!(roll.resolve(14), AttackOutcome::Hit);
    /// assert_eq!(roll.resolve(20), AttackOutcome::Critical);
    /// ```
    #[inline]
    pub fn resolve(&self, natural: u8) -> AttackOutcome {
        if natural == 1 {
            return AttackOutcome::NaturalOne;
        }
        let in_crit_range = natural >= self.crit_range;
        let automatic = natural == 20 || (in_crit_range && self.crit_range_hits);
        if !automatic && i32::from(natural) + self.bonus < self.ac {
            return AttackOutcome::Miss;
        }
        if self.critical_hits && (in_crit_range || self.auto_crit) {
            AttackOutcome::Critical
        } else {
            AttackOutcome::Hit
        }
    }

    /// The exact distribution of the outcome when the d20 is rolled in
    /// `mode`, summed natural by natural (1 to 20).
    ///
    /// ```
    /// use woundsim::dice::RollMode;
    /// use woundsim::rules::attack::AttackRoll;
    /// let c = AttackRoll::against(0, 11).chances(RollMode::Normal);
    /// assert_eq!((c.natural_one, c.critical), (0.05, 0.05));
    /// assert!((c.miss + c.hit + c.critical - 1.0).abs() < 1e-15);
    /// ```
    pub fn chances(&self, mode: RollMode) -> OutcomeChances {
        let total = 20f64.powi(mode.dice_per_roll() as i32);
        let mut c = OutcomeChances::default();
        for n in 1..=20u8 {
            let p = mode.natural_weight(n) as f64 / total;
            match self.resolve(n) {
                AttackOutcome::NaturalOne => {
                    c.miss += p;
                    c.natural_one += p;
                }
                AttackOutcome::Miss => c.miss += p,
                AttackOutcome::Hit => c.hit += p,
                AttackOutcome::Critical => c.critical += p,
            }
        }
        c
    }
}

/// A compiled attack slot: one attack of one cutter in a round, against a limb.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackSlot {
    /// Whether the attack rolls at all (a willing target's limb is simply hit).
    pub rolls: bool,
    /// Kept-d20 mode.
    pub mode: RollMode,
    /// The roll against the limb's AC (bonus minus any called-shot penalty).
    pub attack: AttackRoll,
    /// Damage dice.
    pub damage: DiceExpr,
    /// Damage type.
    pub damage_type: DamageType,
    /// What the type does to the limb.
    pub effect: LimbEffect,
    /// Limb modifiers.
    pub modifiers: DamageModifiers,
}

/// One attack: missed, or hit for this much limb damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swing {
    /// No hit.
    Miss,
    /// A hit dealing this much damage to the limb (after modifiers).
    Hit(u32),
}

impl AttackSlot {
    /// Whether the kept natural `n` hits, and whether it crits.
    pub fn judge(&self, natural: u8) -> (bool, bool) {
        if !self.rolls {
            return (true, false);
        }
        let outcome = self.attack.resolve(natural);
        (outcome.is_hit(), outcome.is_critical())
    }

    /// Damage a hit deals to the limb, as a function of the raw roll.
    pub fn limb_damage(&self, raw: i64) -> u32 {
        self.modifiers.apply(raw, self.damage_type)
    }

    /// Rolls one attack.
    #[inline]
    pub fn swing<R: Rng + ?Sized>(&self, rng: &mut R) -> Swing {
        let (hit, crit) = if self.rolls {
            self.judge(self.mode.roll(rng))
        } else {
            (true, false)
        };
        if !hit {
            return Swing::Miss;
        }
        let dice = if crit {
            self.damage.doubled_dice()
        } else {
            self.damage
        };
        Swing::Hit(self.limb_damage(dice.sample(rng)))
    }

    /// Exact distribution of one attack: `(p_miss, [(limb damage, p)])`.
    pub fn distribution(&self) -> (f64, Vec<(u32, f64)>) {
        let c = if self.rolls {
            self.attack.chances(self.mode)
        } else {
            OutcomeChances {
                hit: 1.0,
                ..OutcomeChances::default()
            }
        };
        let mut out: Vec<(u32, f64)> = Vec::new();
        let mut add = |dice: DiceExpr, weight: f64| {
            if weight == 0.0 {
                return;
            }
            for (i, p) in dice.pmf().into_iter().enumerate() {
                let d = self.limb_damage(dice.min() + i as i64);
                match out.iter_mut().find(|(x, _)| *x == d) {
                    Some((_, q)) => *q += weight * p,
                    None => out.push((d, weight * p)),
                }
            }
        };
        add(self.damage, c.hit);
        add(self.damage.doubled_dice(), c.critical);
        out.sort_by_key(|(d, _)| *d);
        (c.miss, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AttackOutcome::*;

    #[test]
    fn a_natural_one_always_misses() {
        let roll = AttackRoll::against(100, 5);
        assert_eq!(roll.resolve(1), NaturalOne);
        assert!(!NaturalOne.is_hit());
    }

    #[test]
    fn a_hit_needs_the_total_to_reach_the_ac() {
        let roll = AttackRoll::against(4, 18);
        assert_eq!(roll.resolve(13), Miss);
        assert_eq!(roll.resolve(14), Hit);
    }

    #[test]
    fn the_critical_range_always_hits_and_crits() {
        let roll = AttackRoll {
            crit_range: 19,
            ..AttackRoll::against(-100, 30)
        };
        assert_eq!(roll.resolve(18), Miss);
        assert_eq!(roll.resolve(19), Critical);
        assert_eq!(roll.resolve(20), Critical);
    }

    #[test]
    fn under_the_other_reading_only_a_natural_twenty_hits_regardless() {
        let roll = AttackRoll {
            crit_range: 18,
            crit_range_hits: false,
            ..AttackRoll::against(0, 19)
        };
        assert_eq!(roll.resolve(18), Miss, "18 < 19: no hit, so no crit");
        assert_eq!(roll.resolve(19), Critical);
        assert_eq!(roll.resolve(20), Critical);
        let roll = AttackRoll { ac: 30, ..roll };
        assert_eq!(roll.resolve(20), Critical, "a natural 20 always hits");
    }

    #[test]
    fn every_hit_on_a_helpless_target_within_5_ft_is_a_critical() {
        let roll = AttackRoll {
            auto_crit: true,
            ..AttackRoll::against(4, 18)
        };
        assert_eq!(roll.resolve(14), Critical);
        assert_eq!(roll.resolve(13), Miss);
        assert_eq!(roll.resolve(1), NaturalOne);
    }

    #[test]
    fn without_critical_hits_the_critical_range_still_hits_but_does_not_crit() {
        let roll = AttackRoll {
            critical_hits: false,
            auto_crit: true,
            crit_range: 19,
            ..AttackRoll::against(-100, 30)
        };
        assert_eq!(roll.resolve(19), Hit);
        assert_eq!(roll.resolve(20), Hit);
    }

    #[test]
    fn the_chances_are_the_resolution_weighted_by_the_roll() {
        for mode in [
            RollMode::Normal,
            RollMode::Advantage,
            RollMode::Disadvantage,
        ] {
            let roll = AttackRoll {
                crit_range: 19,
                ..AttackRoll::against(3, 15)
            };
            let c = roll.chances(mode);
            let of = |pred: fn(AttackOutcome) -> bool| mode.chance_of(|n| pred(roll.resolve(n)));
            assert!((c.critical - of(AttackOutcome::is_critical)).abs() < 1e-15);
            assert!((c.hit + c.critical - of(AttackOutcome::is_hit)).abs() < 1e-15);
            assert!((c.natural_one - of(|o| o == NaturalOne)).abs() < 1e-15);
            assert!((c.miss + c.hit + c.critical - 1.0).abs() < 1e-14);
        }
    }
}
