//! Channel Divinity: Turn Undead and Destroy Undead (SRD 5.1 "Cleric"):
//! as an action, each undead within 30 feet that can see or hear the
//! cleric makes a Wisdom saving throw against its spell save DC; one that
//! fails is turned for 1 minute or until it takes any damage (it spends
//! its turns moving away, takes no reactions and its action can only be
//! Dash: the loop makes it incapacitated until damaged, for the rest of
//! the fight), and from cleric level 5 one of the Destroy Undead
//! challenge rating or lower is destroyed instead. It spends a Channel
//! Divinity use (shared with Preserve Life).
//!
//! Which undead are within 30 feet: with positions, those whose distance
//! along the line is at most 30 ft; without, a random set of the conscious
//! undead enemies, at most the DMG's count for a 30-ft emanation (six), as
//! for a spell's area. The casting policy (`casting.rs`) weighs it as an
//! action beside the spells: the threat it removes, each target's chance
//! to fail times its expected damage a round times the rounds the fight
//! has left, as a disabling spell's value.

use rand::Rng;

use super::fighter::State;
use super::spell_state::Affliction;
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::Ability;
use crate::combat::spell::{Condition, Shape, area_targets, bits, save_chance};

/// Turn Undead's reach, feet.
pub const TURN_UNDEAD_FEET: i32 = 30;

impl Encounter {
    /// Whether `t` is an undead enemy of `me` that Turn Undead can reach
    /// now: conscious, not banished or already incapacitated, and within
    /// 30 ft with positions.
    fn turnable(&self, arena: &Arena, me: usize, t: usize) -> bool {
        let f = &arena.fighters[t];
        f.state == State::Up
            && self.spec(f.spec).undead
            && f.spells.conditions & (bits::BANISHED | bits::INCAPACITATED) == 0
            && (self.rules.positions.is_none()
                || (f.x - arena.fighters[me].x).abs() <= TURN_UNDEAD_FEET)
    }

    /// How many undead Turn Undead reaches without positions.
    fn turn_undead_count() -> usize {
        usize::from(area_targets(Shape::Emanation, TURN_UNDEAD_FEET as u16))
    }

    /// The expected value of `me`'s Turn Undead now, in hit points over
    /// `rounds`: for each undead it would reach, the chance it fails the
    /// save times its expected damage a round times `rounds`; 0 without the
    /// feature, a use or an undead in reach.
    pub(super) fn turn_undead_value(&self, arena: &Arena, me: usize, rounds: f64) -> f64 {
        let f = &arena.fighters[me];
        let c = &self.spec(f.spec).class_features;
        if !c.turn_undead || f.feats.preserves == 0 {
            return 0.0;
        }
        self.enemies_of(arena, me)
            .filter(|&t| self.turnable(arena, me, t))
            .take(Self::turn_undead_count())
            .map(|t| {
                let save = self.spec(arena.fighters[t].spec).save(Ability::Wis);
                let fails = 1.0 - save_chance(save, c.turn_dc);
                fails * self.threat.get(t).copied().unwrap_or(0.0) * rounds
            })
            .sum()
    }

    /// `me` uses Turn Undead (see the module docs): a Channel Divinity use
    /// spent, each undead in reach saves or is turned (destroyed at or
    /// below the Destroy Undead challenge rating).
    pub(super) fn turn_undead<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        _out: &mut TrialOutcome,
    ) {
        let c = self.spec(arena.fighters[me].spec).class_features;
        arena.fighters[me].feats.preserves -= 1;
        arena.scratch.clear();
        for t in self.enemies_of(arena, me) {
            if self.turnable(arena, me, t) {
                arena.scratch.push(t);
            }
        }
        let n = if self.rules.positions.is_some() {
            arena.scratch.len()
        } else {
            Self::turn_undead_count().min(arena.scratch.len())
        };
        crate::dice::choose_front(rng, &mut arena.scratch, n);
        for j in 0..n {
            let t = arena.scratch[j];
            if self.save_against_condition(rng, arena, t, Ability::Wis, c.turn_dc, true) {
                continue;
            }
            let challenge = self.spec(arena.fighters[t].spec).challenge;
            let f = &mut arena.fighters[t];
            if c.destroy_cr.is_some_and(|cr| challenge <= cr) {
                // Destroyed: dead at once, whatever its regeneration.
                f.hp_lost += i64::from(f.hp);
                f.hp = 0;
                f.state = State::Dead;
            } else {
                f.spells.afflict(Affliction {
                    bits: Condition::Incapacitated.bits(),
                    source: me as u16,
                    ability: Ability::Wis,
                    dc: c.turn_dc.clamp(0, 127) as i8,
                    ends_on_damage: true,
                    ..Affliction::NONE
                });
            }
        }
    }
}
