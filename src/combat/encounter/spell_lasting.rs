//! Spells that last (SRD 5.2 "Concentration", "Conditions"; docs/spells.md):
//! concentration (one spell at a time; a Constitution save, DC 10 or half
//! the damage if higher, on each damage; ended by a failed save, by
//! dropping to 0 HP or by a new concentration spell, taking its
//! conditions, buffs and zones with it), the start and end of a turn
//! (repeat saves, a prone creature standing up, zones dealing their damage
//! at the start or the end of a turn spent in them, short spells timed in
//! rounds), conditions ended by damage, *shield* as a reaction, and the
//! roll modes the spell conditions give attack rolls.

use rand::Rng;

use super::damage::Blow;
use super::fighter::State;
use super::spell_state::{Affliction, Buff, NO_SOURCE};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::spell::{OngoingWhen, bits};

impl Encounter {
    /// Ends `me`'s concentration: its conditions, buffs and zones leave
    /// every creature.
    pub(super) fn end_concentration(&self, arena: &mut Arena, me: usize) {
        if arena.fighters[me].spells.concentrating == 0 {
            return;
        }
        arena.fighters[me].spells.concentrating = 0;
        let source = me as u16;
        for t in 0..arena.fighters.len() {
            if arena.fighters[t].spells.remove_from(source, true) {
                self.recompute_buffs(arena, t);
            }
        }
    }

    /// A concentrating creature took `damage`: a Constitution save, DC 10
    /// or half the damage if higher; concentration ends on a failure or
    /// once it is no longer conscious.
    #[inline(never)]
    pub(super) fn concentration_check<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        damage: i32,
    ) {
        if arena.fighters[me].state != State::Up {
            self.end_concentration(arena, me);
            return;
        }
        let dc = (damage / 2).max(10);
        if !self.concentration_save(rng, arena, me, dc) {
            self.end_concentration(arena, me);
        }
    }

    /// Damage ended the conditions of `t` that end on damage.
    #[inline(never)]
    pub(super) fn damaged_afflicted(&self, arena: &mut Arena, t: usize) {
        let s = &mut arena.fighters[t].spells;
        let mut changed = false;
        for a in s.afflictions.iter_mut() {
            if a.bits != 0 && a.ends_on_damage {
                *a = Affliction::NONE;
                changed = true;
            }
        }
        if changed {
            s.recompute_conditions();
        }
    }

    /// The start of `me`'s turn: *shield* goes down, its slot of the turn
    /// is free again, its short spells that end now end, a creature prone
    /// from a spell stands up, and a zone whose damage comes at the start
    /// of a turn spent in it deals it.
    #[inline(never)]
    pub(super) fn spells_at_turn_start<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) {
        self.expire_timed(arena, me);
        let s = &mut arena.fighters[me].spells;
        s.shield_up = false;
        s.slot_this_turn = false;
        if s.conditions & bits::PRONE != 0 {
            for a in s.afflictions.iter_mut() {
                if a.prone {
                    *a = Affliction::NONE;
                }
            }
            s.recompute_conditions();
        }
        if arena.fighters[me].spells.zone.source != NO_SOURCE {
            self.zone_damage(rng, arena, me, OngoingWhen::StartOfTurn, out);
        }
        if arena.fighters[me].spells.concentrating != 0 && arena.fighters[me].state == State::Up {
            self.emanation_follows(rng, arena, me);
        }
    }

    /// An emanation of ongoing damage around `me` (*spirit guardians*:
    /// "whenever the Emanation enters a creature's space") moves with its
    /// caster: at the start of the caster's turn it holds again as many
    /// enemies as the area's count rule gives, the ones it lost (dead,
    /// fled, banished) replaced by a random pick of the conscious enemies
    /// in no zone (the caster moves among those fighting it; our
    /// approximation without a map).
    fn emanation_follows<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena, me: usize) {
        let k = arena.fighters[me].spells.concentrating - 1;
        let spell = &self.known(arena, me, usize::from(k)).spell;
        if !spell.is_caster_emanation() {
            return;
        }
        let room = usize::from(spell.targets_at(spell.level));
        let source = me as u16;
        self.collect_targets(arena, me);
        let fighters = &arena.fighters;
        let inside = arena
            .scratch
            .iter()
            .filter(|&&i| fighters[i].spells.zone.source == source)
            .count();
        arena.scratch.retain(|&i| {
            let s = &fighters[i].spells;
            s.zone.source == NO_SOURCE && s.conditions & bits::BANISHED == 0
        });
        let n = room.saturating_sub(inside).min(arena.scratch.len());
        crate::dice::choose_front(rng, &mut arena.scratch, n);
        for j in 0..n {
            let t = arena.scratch[j];
            arena.fighters[t].spells.zone = Buff {
                source,
                spell: k,
                until: 0,
            };
        }
    }

    /// A melee attack of `me` on `target` puts `me` within its reach of
    /// `target`, so inside an emanation of ongoing damage that `target`
    /// holds (*spirit guardians*, 15 feet: "whenever a creature enters the
    /// Emanation or ends its turn there"): an enemy of `target` in no zone
    /// joins it, beyond the area's count rule, and takes its damage when
    /// its turn ends (or starts) there. Our reading without a map: the
    /// attacker stays where it attacked from.
    #[inline]
    pub(super) fn melee_enters_emanation(&self, arena: &mut Arena, me: usize, target: usize) {
        let k = arena.fighters[target].spells.concentrating;
        if k == 0
            || arena.fighters[me].spells.zone.source != NO_SOURCE
            || arena.fighters[me].party == arena.fighters[target].party
        {
            return;
        }
        if !self
            .known(arena, target, usize::from(k - 1))
            .spell
            .is_caster_emanation()
        {
            return;
        }
        arena.fighters[me].spells.zone = Buff {
            source: target as u16,
            spell: k - 1,
            until: 0,
        };
    }

    /// The zone `me` is in, if its caster still holds it, deals its damage
    /// when it is `when` (SRD 5.2: *moonbeam*'s "starts its turn there",
    /// *spirit guardians*' "ends its turn there"); a zone whose caster is
    /// down or lost concentration is gone.
    pub(super) fn zone_damage<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        when: OngoingWhen,
        out: &mut TrialOutcome,
    ) {
        if arena.fighters[me].state != State::Up {
            return;
        }
        let zone = arena.fighters[me].spells.zone;
        let caster = usize::from(zone.source);
        let k = usize::from(zone.spell);
        let c = &arena.fighters[caster];
        let known = &self.spec(c.spec).known_spells[k];
        let active = c.state == State::Up
            && (!known.spell.concentration || c.spells.concentrating == zone.spell + 1);
        if !active {
            arena.fighters[me].spells.zone = Buff::NONE;
            return;
        }
        if !known.spell.ongoing.is_some_and(|o| o.when == when) {
            return;
        }
        let level = c.spells_level(self);
        // The zone's damage at the slot it was cast with is not
        // remembered: the spell's own level (docs/spells.md).
        let damage = known.spell.damage_at(known.spell.level, level);
        let rolled = self.roll_damage(rng, damage, false, 0);
        let (save, dc) = (known.spell.save, known.dc);
        let share = self.save_share(rng, arena, me, save, dc, false);
        let (total, types) = self.spell_damage(arena, me, rolled, share);
        self.deal_total(
            rng,
            arena,
            me,
            Blow {
                amount: total,
                types,
                crit: false,
            },
            out,
        );
    }

    /// The end of `me`'s turn: a save against each condition it repeats,
    /// and the damage of a zone it ends its turn in.
    #[inline(never)]
    pub(super) fn spells_at_turn_end<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) {
        // A hit's condition "until the end of its next turn" ends.
        arena.fighters[me].spells.own_turn_ended();
        for slot in 0..arena.fighters[me].spells.afflictions.len() {
            let a = arena.fighters[me].spells.afflictions[slot];
            if a.bits == 0 || !a.repeat_save {
                continue;
            }
            if self.save_against_condition(rng, arena, me, a.ability, i32::from(a.dc), true) {
                let s = &mut arena.fighters[me].spells;
                s.afflictions[slot] = Affliction::NONE;
                s.recompute_conditions();
            }
        }
        if arena.fighters[me].spells.zone.source != NO_SOURCE {
            self.zone_damage(rng, arena, me, OngoingWhen::EndOfTurn, out);
        }
    }

    /// A reaction spell that raises `defender`'s AC (*shield*): cast when
    /// an attack roll of `total` hits it and the raised AC would turn the
    /// hit into a miss, with a slot left. Says whether it did.
    #[inline(never)]
    pub(super) fn shield_reaction(&self, arena: &mut Arena, defender: usize, total: i32) -> bool {
        let f = &arena.fighters[defender];
        if f.shield_spell == 0 || !f.can_react() {
            return false;
        }
        let k = usize::from(f.shield_spell - 1);
        let known = &self.spec(f.spec).known_spells[k];
        let ac = known.spell.modifiers.map_or(0, |m| i32::from(m.ac));
        if total >= self.defended_ac(f) + ac {
            return false;
        }
        let Some(slot) = self.open_slot(arena, defender, known.spell.level) else {
            return false;
        };
        let f = &mut arena.fighters[defender];
        if slot > 0 {
            f.slots[usize::from(slot) - 1] -= 1;
        }
        f.reaction = false;
        f.spells.shield_up = true;
        true
    }
}

/// Advantage, disadvantage and an automatic critical hit of an attack roll
/// from the spell conditions of the attacker and the defender (SRD 5.2
/// "Conditions"): `melee` says whether it is made within 5 feet.
pub(super) fn spell_roll_mode(attacker: u16, defender: u16, melee: bool) -> (bool, bool, bool) {
    let advantage = defender & bits::ATTACKED_WITH_ADVANTAGE != 0
        || attacker & bits::ATTACKS_WITH_ADVANTAGE != 0
        || (melee && defender & bits::PRONE != 0);
    let disadvantage = attacker & bits::ATTACKS_WITH_DISADVANTAGE != 0
        || defender & bits::ATTACKED_WITH_DISADVANTAGE != 0
        || (!melee && defender & bits::PRONE != 0);
    let auto_crit = melee && defender & bits::CRITICAL_WITHIN_5 != 0;
    (advantage, disadvantage, auto_crit)
}

/// The round at whose start of its caster's turn an effect cast in
/// `round` ends: a spell without concentration lasting 1 to 9 rounds ends
/// `duration` rounds on; others (a minute or more, concentration,
/// instantaneous) are not timed (`None`): fights end well within a minute.
pub fn timed_until(concentration: bool, duration: Option<u32>, round: u32) -> Option<u16> {
    match duration {
        Some(d @ 1..=9) if !concentration => Some((round + d).min(u32::from(u16::MAX)) as u16),
        _ => None,
    }
}
