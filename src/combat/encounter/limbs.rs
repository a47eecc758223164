//! Called shots on limbs in a fight (docs/combat.md, "Called shots on
//! limbs"): our extension of the amputation type, not a rule of the seed.
//! An attacker of a side that makes called shots, attacking a conscious
//! creature with a weapon whose damage severs, aims at one of its limbs
//! and takes the scenario's penalty to the roll; a hit deals its damage to
//! the creature as usual and its severing damage (after the creature's
//! resistances, immunities and vulnerabilities) to the limb's own HP, from
//! the limb model's size table ([`crate::rules::limbs`]); a limb brought to
//! 0 HP is severed ([`LimbState::strike`]) and is at once the matching
//! tragic injury ([`super::fighter::severed_effects`]).

use rand::Rng;

use super::fighter::{LIMBS, State};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::Attack;
use crate::combat::policy::{CalledShots, LimbAim};
use crate::dice::uniform_below;
use crate::rules::amputation::LimbState;
use crate::rules::damage::DamageType;
use crate::rules::limbs::{LimbEffect, limb_effect};

impl CalledShots {
    /// Whether damage of type `kind` severs a limb (the limb model's rule:
    /// slashing, and piercing under the seed's "sharp damage" reading).
    pub fn severs(&self, kind: DamageType) -> bool {
        limb_effect(kind, self.piercing_severs) == LimbEffect::Sever
    }
}

impl Encounter {
    /// The limb (an index into [`LIMBS`]) `me` aims `attack` at, if it
    /// makes a called shot at `target`: its side makes them, the target is
    /// conscious, the attack's damage severs, and a limb of the kind aimed
    /// at is still attached.
    pub(super) fn aim<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
        target: usize,
        attack: &Attack,
        shots: &CalledShots,
    ) -> Option<usize> {
        let defender = &arena.fighters[target];
        if !shots.by.aims(arena.fighters[me].party)
            || defender.state != State::Up
            || !shots.severs(attack.kind)
        {
            return None;
        }
        let attached = |i: &usize| defender.severed & (1 << i) == 0;
        match shots.aim {
            LimbAim::WeaponArm => (0..2).find(attached),
            LimbAim::Leg => (2..LIMBS.len()).find(attached),
            LimbAim::Random => {
                let n = (0..LIMBS.len()).filter(attached).count();
                if n == 0 {
                    return None;
                }
                let k = uniform_below(rng, n as u64) as usize;
                (0..LIMBS.len()).filter(attached).nth(k)
            }
        }
    }

    /// A called shot's hit: `damage` (its severing damage after the
    /// target's defences) off limb `limb` of `target`; a limb brought to 0
    /// HP is severed, counted, and imposes its effects at once. A creature
    /// the blow killed loses no limb.
    pub(super) fn strike_limb(
        &self,
        arena: &mut Arena,
        target: usize,
        limb: usize,
        damage: i32,
        out: &mut TrialOutcome,
    ) {
        let f = &mut arena.fighters[target];
        if f.state == State::Dead {
            return;
        }
        let mut state = LimbState::new(u32::from(f.limb_hp[limb]));
        state.strike(damage.max(0) as u32, LimbEffect::Sever);
        f.limb_hp[limb] = state.hp.min(255) as u8;
        if !state.severed {
            return;
        }
        f.severed |= 1 << limb;
        out.limbs_severed += 1;
        if f.party {
            // PCs come first among the fighters, in party order.
            if let Some(count) = out.pc_limbs_severed.get_mut(target) {
                *count = count.saturating_add(1);
            }
        }
        self.recompute_effects(arena, target);
    }
}
