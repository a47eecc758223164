//! Attack rolls against a limb (5e, SRD 5.1): a d20 with advantage or
//! disadvantage against the limb's AC, a natural 1 always misses, the crit
//! range always hits and doubles the damage dice, and every hit on a
//! helpless creature within 5 ft is a critical hit. The limb's damage
//! modifiers turn the damage roll into limb damage (RULES.md §3).
//!
//! Used by the amputation race ([`crate::rules::amputation`]); the combat
//! model can aim called shots with the same slots.

use rand::Rng;

use crate::dice::{DiceExpr, RollMode};
use crate::rules::limbs::{DamageModifiers, DamageType, LimbEffect};

/// A compiled attack slot: one attack of one cutter in a round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackSlot {
    /// Whether the attack rolls at all.
    pub rolls: bool,
    /// Kept-d20 mode.
    pub roll: RollMode,
    /// Attack bonus minus any called-shot penalty.
    pub bonus: i32,
    /// AC to beat.
    pub ac: i32,
    /// Lowest natural that crits.
    pub crit_on: u8,
    /// Every hit crits (helpless target within 5 ft).
    pub always_crit: bool,
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
        let crit_range = natural >= self.crit_on;
        let hit = natural != 1 && (crit_range || i32::from(natural) + self.bonus >= self.ac);
        (hit, hit && (crit_range || self.always_crit))
    }

    /// Damage a hit deals to the limb, as a function of the raw roll.
    pub fn limb_damage(&self, raw: i64) -> u32 {
        self.modifiers.apply(raw, self.damage_type)
    }

    /// Rolls one attack.
    #[inline]
    pub fn swing<R: Rng + ?Sized>(&self, rng: &mut R) -> Swing {
        let (hit, crit) = if self.rolls {
            self.judge(self.roll.roll(rng))
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
        let mut hit = 0.0;
        let mut crit = 0.0;
        let mut miss = 0.0;
        if self.rolls {
            let total = 20f64.powi(self.roll.dice_per_roll() as i32);
            for n in 1..=20u8 {
                let p = self.roll.natural_weight(n) as f64 / total;
                match self.judge(n) {
                    (false, _) => miss += p,
                    (true, false) => hit += p,
                    (true, true) => crit += p,
                }
            }
        } else {
            hit = 1.0;
        }
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
        add(self.damage, hit);
        add(self.damage.doubled_dice(), crit);
        out.sort_by_key(|(d, _)| *d);
        (miss, out)
    }
}
