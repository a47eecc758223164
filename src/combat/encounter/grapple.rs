//! Grapples (SRD 5.2 "Grappled" and "Restrained" conditions, "Unarmed
//! Strike: Grapple", and the stat blocks' grappling attacks, e.g. "If the
//! target is a Large or smaller creature, it has the Grappled condition
//! (escape DC 13) from one of two claws, and it has the Restrained
//! condition until the grapple ends"; docs/combat.md, "Grapples").
//!
//! A hit of an attack with a grapple ([`Grapple`]) grapples a conscious
//! target of at most its size that no one grapples yet, while the attacker
//! holds fewer creatures than the attack's `holds`. The grapple is an
//! [`Affliction`] of its grappler carrying [`bits::GRAPPLED`] (and the
//! Restrained condition's bits when the attack restrains): the grappled
//! creature's Speed is 0 (positions), and its attack rolls against anyone
//! but its grappler have Disadvantage.
//!
//! It ends when the grappled creature escapes — its action, a Strength
//! (Athletics) or Dexterity (Acrobatics) check, the better of the two
//! ([`crate::combat::creature::CreatureSpec::escape`]), against the escape
//! DC — or when the grappler drops, dies, flees or is Incapacitated (the
//! last two seen at the start of the grappled creature's turn).
//!
//! Policy (ours; the rules leave the choice to the player): a creature
//! that is Restrained by its grapple spends its action on the check; one
//! only Grappled fights on and attacks its grappler, the one target it
//! attacks without Disadvantage.

use rand::Rng;

use super::fighter::State;
use super::spell_state::Affliction;
use super::{Arena, Encounter};
use crate::combat::creature::{Ability, Grapple};
use crate::combat::spell::{Condition, bits};
use crate::dice::roll_die;

impl Encounter {
    /// A hit of `me`'s grappling attack on `target`.
    pub(super) fn grapple(&self, arena: &mut Arena, me: usize, target: usize, g: Grapple) {
        let t = &arena.fighters[target];
        let spec = self.spec(t.spec);
        if t.state != State::Up
            || spec.size > g.size
            || t.spells.conditions & bits::GRAPPLED != 0
            || spec.immune_to(Condition::Grappled)
        {
            return;
        }
        let held = (0..arena.fighters.len())
            .filter(|&t| hold(arena, t).is_some_and(|(_, by)| by == me))
            .count();
        if held >= usize::from(g.holds) {
            return;
        }
        let restrained = if g.restrains && !spec.immune_to(Condition::Restrained) {
            Condition::Restrained.bits()
        } else {
            0
        };
        arena.fighters[target].spells.afflict(Affliction {
            bits: bits::GRAPPLED | restrained,
            source: me as u16,
            ability: Ability::Str,
            dc: g.escape.clamp(1, 127) as i8,
            ..Affliction::NONE
        });
    }

    /// Who grapples `me`, if anyone (never anyone in an encounter without
    /// a grappler: the check is skipped).
    #[inline]
    pub(super) fn grappler(&self, arena: &Arena, me: usize) -> Option<usize> {
        if !self.grapplers {
            return None;
        }
        hold(arena, me).map(|(_, by)| by)
    }

    /// Whether `me`'s attack roll against `target` has Disadvantage from a
    /// grapple: `me` is grappled by someone else.
    #[inline]
    pub(super) fn grappled_away(&self, arena: &Arena, me: usize, target: usize) -> bool {
        self.grappler(arena, me).is_some_and(|g| g != target)
    }

    /// The start of `me`'s turn, grappled: a grapple whose grappler cannot
    /// hold it any more ends; `me`, Restrained by it, spends its action on
    /// a check to escape. Says whether the action is spent.
    pub(super) fn escape_grapple<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
    ) -> bool {
        let Some((k, by)) = hold(arena, me) else {
            return false;
        };
        let hold = arena.fighters[me].spells.afflictions[k];
        if !arena.fighters[by].can_act() {
            self.end_grapple(arena, me, k);
            return false;
        }
        let restrained = Condition::Restrained.bits();
        if hold.bits & restrained != restrained {
            return false;
        }
        let check = roll_die(rng, 20) as i32 + self.spec(arena.fighters[me].spec).escape;
        if check >= i32::from(hold.dc) {
            self.end_grapple(arena, me, k);
        }
        true
    }

    /// The grapple in `me`'s affliction slot `k` ends.
    fn end_grapple(&self, arena: &mut Arena, me: usize, k: usize) {
        let s = &mut arena.fighters[me].spells;
        s.afflictions[k] = Affliction::NONE;
        s.recompute_conditions();
    }

    /// `me` dropped, died or left: every grapple it holds ends.
    pub(super) fn release_grapples(&self, arena: &mut Arena, me: usize) {
        for t in 0..arena.fighters.len() {
            if let Some((k, _)) = hold(arena, t).filter(|&(_, by)| by == me) {
                self.end_grapple(arena, t, k);
            }
        }
    }
}

/// The grapple on `me`, if any: its affliction slot and its grappler (a
/// creature is grappled by one at most).
#[inline]
fn hold(arena: &Arena, me: usize) -> Option<(usize, usize)> {
    let s = &arena.fighters[me].spells;
    if s.conditions & bits::GRAPPLED == 0 {
        return None;
    }
    s.afflictions
        .iter()
        .position(|a| a.bits & bits::GRAPPLED != 0)
        .map(|k| (k, usize::from(s.afflictions[k].source)))
}
