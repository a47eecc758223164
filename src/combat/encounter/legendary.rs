//! Legendary actions and Legendary Resistance (SRD 5.2 "Legendary
//! Actions", a statblock's "Legendary Resistance (N/Day)"; docs/combat.md,
//! "Legendary actions").
//!
//! A creature with legendary actions regains all its uses at the start of
//! each of its turns. Immediately after another creature's turn it may
//! spend uses on one option; the policy (ours) spends them as soon as it
//! can, one option after each other creature's turn, on the option of the
//! most expected damage among those it can afford and has not taken since
//! its turn when the statblock says it can't take it again until then
//! (ties to the first listed; an attack's mean damage, a save's times the
//! creatures it catches). It takes none while it is at 0 HP or
//! incapacitated. An attack option makes one of its attacks at the target
//! the targeting policy picks; with positions it first moves toward a
//! melee target (half its speed when the option moves it, no Dash) and
//! attacks if it reaches. A save option catches a random set of the
//! conscious enemies, as a breath weapon does ([`Encounter::area_save`]).
//!
//! Legendary Resistance: when it fails a saving throw it can choose to
//! succeed instead, a number of times a day (a fight). The policy (ours,
//! the usual table reading): it spends one on a failed save against an
//! effect that would put a condition on it (a spell's condition, Stunning
//! Strike, Turn Undead, a repeat save to end a condition), never on a save
//! against damage alone or on a concentration check.

use rand::Rng;

use super::fighter::State;
use super::positions::Movement;
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Ability, LegendaryEffect, Reach};

impl Encounter {
    /// The start of `me`'s turn: its legendary action uses come back.
    pub(super) fn regain_legendary(&self, arena: &mut Arena, me: usize) {
        if let Some(l) = &self.spec(arena.fighters[me].spec).legendary {
            let f = &mut arena.fighters[me];
            f.legendary_uses = l.uses;
            f.legendary_taken = 0;
        }
    }

    /// After `done`'s turn: each other creature with legendary action uses
    /// left takes one option (see the module docs).
    pub(super) fn legendary_actions_after<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        done: usize,
        out: &mut TrialOutcome,
    ) {
        for me in 0..arena.fighters.len() {
            let f = &arena.fighters[me];
            if me == done || f.legendary_uses == 0 || !f.can_act() {
                continue;
            }
            if self.rules.positions.is_some() {
                self.legendary_action::<true, R>(rng, arena, me, out);
            } else {
                self.legendary_action::<false, R>(rng, arena, me, out);
            }
        }
    }

    /// The option `me` takes now, if any: its index among its options.
    fn legendary_choice(&self, arena: &Arena, me: usize) -> Option<usize> {
        let f = &arena.fighters[me];
        let spec = self.spec(f.spec);
        let legendary = spec.legendary.as_ref()?;
        let mut best: Option<(f64, usize)> = None;
        // The foes as the casting policy weighs them, for spell options.
        let mut foes = None;
        for (i, o) in legendary.options.iter().enumerate() {
            let taken = o.once_per_round && f.legendary_taken & (1 << i) != 0;
            if o.cost > f.legendary_uses || taken {
                continue;
            }
            let value = match &o.effect {
                // A spell: as the casting policy values it, while it has
                // castings left.
                LegendaryEffect::Spell { known, .. } => {
                    let Some(i) = spec.known_spells[*known]
                        .innate
                        .filter(|&i| f.has_casting(i))
                    else {
                        continue;
                    };
                    let foes = foes.get_or_insert_with(|| self.foes(arena, me));
                    self.spell_value(arena, me, *known, i.level, foes)
                }
                _ => o.mean_damage(&spec.attacks),
            };
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// One legendary action of `me`, if it has one it can take.
    fn legendary_action<const POSITIONS: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) {
        let Some(i) = self.legendary_choice(arena, me) else {
            return;
        };
        let spec = self.spec(arena.fighters[me].spec);
        let Some(option) = spec.legendary.as_ref().map(|l| &l.options[i]) else {
            return;
        };
        let attack = match &option.effect {
            LegendaryEffect::Attack { index, .. } => &spec.attacks[*index],
            LegendaryEffect::Spell { known, .. } => {
                let level = spec.known_spells[*known].cast_level();
                if self.enemies_up(arena, me) == 0 {
                    return;
                }
                arena.fighters[me].spend_legendary(i, option.cost);
                self.cast_known(rng, arena, me, *known, level, out);
                return;
            }
            LegendaryEffect::Save(area) => {
                if self.enemies_up(arena, me) == 0 {
                    return;
                }
                arena.fighters[me].spend_legendary(i, option.cost);
                self.area_save(rng, arena, me, *area, out);
                return;
            }
        };
        let Some(target) = self.choose_target::<POSITIONS, R>(rng, arena, me, attack.reach) else {
            return;
        };
        arena.fighters[me].spend_legendary(i, option.cost);
        if POSITIONS && attack.reach == Reach::Melee {
            let mut movement = Movement {
                left: if option.moves_first {
                    arena.fighters[me].speed / 2
                } else {
                    0
                },
                dashed: true,
                attacked: true,
            };
            if !self.close_in(rng, arena, me, target, &mut movement, out) {
                return;
            }
        }
        self.attack::<POSITIONS, R>(rng, arena, me, target, attack, out);
    }

    /// A saving throw of `target` against an effect that would put a
    /// condition on it (`magical`: a spell's or Turn Undead's, which Magic
    /// Resistance meets at advantage): a failure turned into a success by
    /// Legendary Resistance while it has uses left (see the module docs).
    pub(super) fn save_against_condition<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        ability: Ability,
        dc: i32,
        magical: bool,
    ) -> bool {
        let saved = if magical {
            self.magic_save(rng, arena, target, ability, dc)
        } else {
            self.saving_throw(rng, arena, target, ability, dc)
        };
        if saved {
            return true;
        }
        let f = &mut arena.fighters[target];
        if f.legendary_resistances > 0 && f.state == State::Up {
            f.legendary_resistances -= 1;
            return true;
        }
        false
    }
}

impl super::fighter::Fighter {
    /// Its legendary option `i` taken: `cost` uses spent, the option
    /// marked as taken since its turn.
    fn spend_legendary(&mut self, i: usize, cost: u8) {
        self.legendary_uses -= cost;
        self.legendary_taken |= 1 << i;
    }
}
