//! What a spell does once cast (SRD 5.2 "Spells", "Casting Spells",
//! "Conditions"; docs/spells.md, "What the loop does with a spell"): its
//! targets (the policy's enemy for one, a random set of the conscious
//! enemies for several or an area counted by the DMG rule, the allies
//! doing most damage for a buff), a spell attack roll per roll (critical
//! hits double the dice) or a saving throw per target (half or nothing on
//! a success, Evasion), damage through the creature's defences, the
//! condition on a failed save or a hit, the buff, the zone of ongoing
//! damage, and the end of a short spell timed in rounds.

use rand::Rng;

use super::damage::Blow;
use super::fighter::State;
use super::spell_lasting::{spell_roll_mode, timed_until};
use super::spell_state::{Affliction, Buff, NO_SOURCE};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Ability, Reach};
use crate::combat::spell::{Condition, OnSuccess, OngoingWhen, Targets, bits};
use crate::dice::RollMode;
use crate::rules::attack::{AttackOutcome, AttackRoll};
use crate::rules::damage::DamageTypes;

impl Encounter {
    /// The effect of `me`'s known spell `k` cast with `slot` on its
    /// enemies: its targets, attack rolls or saves, damage, conditions and
    /// zones (also a spell used again on a later turn).
    pub(super) fn strike<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        k: usize,
        slot: u8,
        out: &mut TrialOutcome,
    ) {
        let known = self.known(arena, me, k);
        let spell = &known.spell;
        let level = arena.fighters[me].spells_level(self);
        let damage = spell.damage_at(slot, level);
        let rolls = spell.rolls_at(slot, level);
        let n = usize::from(spell.targets_at(slot));
        if rolls > 1 || matches!(spell.targets, Targets::Creatures { count: 1, .. }) && n == 1 {
            // One target at a time, chosen by the targeting policy: each
            // roll (ray, beam, dart) at the policy's target.
            // A spell's condition: a target not immune to it and, for a
            // condition a save resists, with no Legendary Resistance left
            // (the casting policy values no other), if any.
            // A limit in hit points (*power word stun*, *power word
            // kill*): a target within it, if any.
            let condition = spell
                .condition
                .filter(|_| self.aims_conditions)
                .map(|c| c.condition);
            let hp_limit = spell.hp_limit();
            let saved = spell.save.is_some();
            let aims = condition.is_some() || hp_limit.is_some();
            for r in 0..rolls.max(1) {
                let open = if aims {
                    let fighters = &arena.fighters;
                    self.choose_among(rng, arena, me, Reach::Ranged, |t| {
                        let f = &fighters[t];
                        condition.is_none_or(|c| self.can_take(f, c, saved))
                            && hp_limit.is_none_or(|h| f.hp <= i32::from(h))
                    })
                } else {
                    None
                };
                // None open (or no condition): the policy's target.
                let Some(t) =
                    open.or_else(|| self.choose_target::<false, R>(rng, arena, me, Reach::Ranged))
                else {
                    break;
                };
                self.resolve_on(rng, arena, me, k, t, damage, r == 0, out);
            }
            return;
        }
        // Several targets: a random set of the conscious enemies.
        self.collect_targets(arena, me);
        arena
            .scratch
            .retain(|&i| arena.fighters[i].spells.conditions & bits::BANISHED == 0);
        let n = n.min(arena.scratch.len());
        crate::dice::choose_front(rng, &mut arena.scratch, n);
        // Rolled once for all its targets (as a breath weapon is).
        let rolled = self.roll_damage(
            rng,
            damage,
            false,
            known.damage_bonus + known.modifier_damage,
        );
        for j in 0..n {
            let t = arena.scratch[j];
            self.resolve_rolled(rng, arena, me, k, t, rolled, out);
        }
    }

    /// Rolls a spell's damage parts (doubled dice on a critical hit) plus
    /// `bonus` on the first.
    pub(super) fn roll_damage<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        parts: [Option<crate::combat::spell::DamagePart>; 2],
        crit: bool,
        bonus: i32,
    ) -> [(i32, Option<crate::rules::damage::DamageType>); 2] {
        let mut out = [(0, None); 2];
        for (o, part) in out.iter_mut().zip(parts) {
            if let Some(p) = part {
                let dice = if crit { p.dice.doubled_dice() } else { p.dice };
                *o = (dice.sample(rng) as i32, Some(p.kind));
            }
        }
        if out[0].1.is_some() {
            out[0].0 += bonus;
        }
        out
    }

    /// One target of a single-target spell or of one roll: the attack roll
    /// or the save, then damage and the condition. `first` says whether it
    /// is the casting's first roll (a damage bonus goes on one roll unless
    /// the spell's caster adds it to every roll).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn resolve_on<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        k: usize,
        t: usize,
        damage: [Option<crate::combat::spell::DamagePart>; 2],
        first: bool,
        out: &mut TrialOutcome,
    ) {
        let known = self.known(arena, me, k);
        let bonus = if first || known.bonus_every_roll {
            known.damage_bonus
        } else {
            0
        } + known.modifier_damage;
        if let Some(reach) = known.spell.attack {
            let Some(crit) = self.spell_attack(rng, arena, me, t, known.to_hit, reach) else {
                return;
            };
            let rolled = self.roll_damage(rng, damage, crit, bonus);
            self.land(rng, arena, me, k, t, rolled, 1.0, crit, out);
            return;
        }
        // A target *power word kill* kills takes no damage: none is rolled.
        let killed =
            arena.fighters[t].state == State::Up && known.spell.kills(arena.fighters[t].hp);
        let rolled = if killed {
            [(0, None); 2]
        } else {
            self.roll_damage(rng, damage, false, bonus)
        };
        self.resolve_rolled(rng, arena, me, k, t, rolled, out);
    }

    /// One target of a spell whose damage is rolled: its save (or none).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn resolve_rolled<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        k: usize,
        t: usize,
        rolled: [(i32, Option<crate::rules::damage::DamageType>); 2],
        out: &mut TrialOutcome,
    ) {
        let known = self.known(arena, me, k);
        // Legendary Resistance is not spent on a condition it is immune to.
        let condition = known
            .spell
            .condition
            .is_some_and(|c| !self.spec(arena.fighters[t].spec).immune_to(c.condition));
        let share = self.save_share(rng, arena, t, known.spell.save, known.dc, condition);
        self.land(rng, arena, me, k, t, rolled, share, false, out);
        if let Some(o) = known.spell.ongoing {
            if o.when != OngoingWhen::CasterTurn || known.spell.concentration {
                arena.fighters[t].spells.zone = Buff {
                    source: me as u16,
                    spell: k as u8,
                    until: 0,
                };
            }
        }
    }

    /// The share of a spell's damage that `t` takes after its save
    /// (`None`: no save): all on a failure, half or none on a success as
    /// the spell says; with Evasion, against a Dexterity save, half on a
    /// failure and none on a success. `condition`: a failure would also
    /// put a condition on it (Legendary Resistance may turn it).
    pub(super) fn save_share<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        t: usize,
        save: Option<crate::combat::spell::SpellSave>,
        dc: i32,
        condition: bool,
    ) -> f64 {
        let Some(save) = save else { return 1.0 };
        // A spell: Magic Resistance meets it at advantage.
        let saved = if condition {
            self.save_against_condition(rng, arena, t, save.ability, dc, true)
        } else {
            self.magic_save(rng, arena, t, save.ability, dc)
        };
        let evades = save.ability == Ability::Dex && self.spec(arena.fighters[t].spec).evasion;
        match (saved, save.success, evades) {
            (false, _, false) => 1.0,
            (false, _, true) => 0.5,
            (true, OnSuccess::Half, false) => 0.5,
            (true, _, _) => 0.0,
        }
    }

    /// The damage `t` takes from a spell's rolled parts, `share` of each
    /// (rounded down) through its defences, and their types.
    pub(super) fn spell_damage(
        &self,
        arena: &Arena,
        t: usize,
        rolled: [(i32, Option<crate::rules::damage::DamageType>); 2],
        share: f64,
    ) -> (i32, DamageTypes) {
        let mut total = 0;
        let mut types = DamageTypes::default();
        for (amount, kind) in rolled {
            let Some(kind) = kind else { continue };
            total += self.after_defenses(arena, t, kind, (f64::from(amount) * share) as i32);
            types = types.with(kind);
        }
        (total, types)
    }

    /// A spell attack roll of `me` on `t`: `None` on a miss, else whether
    /// it is a critical hit.
    pub(super) fn spell_attack<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        t: usize,
        to_hit: i32,
        reach: Reach,
    ) -> Option<bool> {
        let (attacker, defender) = (&arena.fighters[me], &arena.fighters[t]);
        let melee = reach == Reach::Melee;
        let (advantage, disadvantage, auto_crit) = spell_roll_mode(
            attacker.spells.conditions,
            defender.spells.conditions,
            melee,
        );
        let blinded = attacker.effects & crate::combat::effect::BLINDED != 0;
        let natural = RollMode::with(
            advantage || defender.effects & crate::combat::effect::BLINDED != 0,
            disadvantage
                || blinded
                || self.grappled_away(arena, me, t)
                || (self.rules.sunlight && self.spec(attacker.spec).sunlight.is_some()),
        )
        .roll(rng);
        let roll = AttackRoll {
            bonus: to_hit - i32::from(attacker.return_penalty)
                + self.attack_roll_bonus(rng, arena, me),
            ac: self.defended_ac(&arena.fighters[t]),
            crit_range: 20,
            auto_crit,
            critical_hits: self.rules.critical_hits,
            crit_range_hits: true,
        };
        match roll.resolve(natural) {
            AttackOutcome::NaturalOne | AttackOutcome::Miss => None,
            AttackOutcome::Hit => Some(false),
            AttackOutcome::Critical => Some(true),
        }
    }

    /// Damage (`share` of each rolled part, rounded down) and the
    /// condition of a spell that landed on `t`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn land<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        k: usize,
        t: usize,
        rolled: [(i32, Option<crate::rules::damage::DamageType>); 2],
        share: f64,
        crit: bool,
        out: &mut TrialOutcome,
    ) {
        let known = self.known(arena, me, k);
        // *Power word kill*: a target with few enough hit points dies
        // instead of taking the damage.
        if share >= 1.0
            && arena.fighters[t].state == State::Up
            && known.spell.kills(arena.fighters[t].hp)
        {
            self.slay(rng, arena, t, out);
            self.blessing_on_drop(arena, me, t, true);
            return;
        }
        let (total, types) = self.spell_damage(arena, t, rolled, share);
        // The condition: on a failed save (full share), or on a hit; with
        // a limit in hit points, only on a creature within it.
        if let Some(c) = known
            .spell
            .condition
            .filter(|c| share >= 1.0 && c.reaches(arena.fighters[t].hp))
        {
            let (ability, dc) = match known.spell.save {
                Some(s) => (s.ability, known.dc),
                None => (Ability::Wis, known.dc),
            };
            let a = Affliction {
                bits: c.condition.bits(),
                source: me as u16,
                ability,
                dc: dc.clamp(0, 127) as i8,
                repeat_save: c.repeat_save,
                ends_on_damage: c.ends_on_damage,
                concentration: known.spell.concentration,
                prone: c.condition == Condition::Prone,
                until: self.timed_end(arena, me, k),
            };
            let f = &arena.fighters[t];
            if f.state == State::Up
                && !(self.immunities && self.spec(f.spec).immune_to(c.condition))
            {
                arena.fighters[t].spells.afflict(a);
            }
        }
        if let Some(m) = known.spell.modifiers.filter(|_| share >= 1.0) {
            let _ = m;
            self.add_buff(arena, t, me, k);
        }
        if total > 0 || types.iter().next().is_some() {
            if arena.fighters[t].party && crit {
                arena.fighters[t].crits_taken += 1;
            }
            let was_up = arena.fighters[t].state == State::Up;
            self.deal_total(
                rng,
                arena,
                t,
                Blow {
                    amount: total,
                    types,
                    crit,
                },
                out,
            );
            self.blessing_on_drop(arena, me, t, was_up);
        }
    }

    /// A buff on the caster's side: on itself, or on the allies doing most
    /// damage who lack it.
    pub(super) fn cast_buff(&self, arena: &mut Arena, me: usize, k: usize, slot: u8) {
        let known = self.known(arena, me, k);
        if matches!(known.spell.targets, Targets::Caster) {
            self.add_buff(arena, me, me, k);
            return;
        }
        let n = usize::from(known.spell.targets_at(slot));
        let allies = self.side(arena.fighters[me].party, arena.fighters.len());
        for _ in 0..n {
            let pick = allies
                .clone()
                .filter(|&i| {
                    let f = &arena.fighters[i];
                    f.state == State::Up && !f.spells.has_buff(me as u16, k as u8)
                })
                .max_by(|&a, &b| {
                    let ta = self.threat.get(a).copied().unwrap_or(0.0);
                    let tb = self.threat.get(b).copied().unwrap_or(0.0);
                    ta.total_cmp(&tb).then(b.cmp(&a))
                });
            let Some(t) = pick else { break };
            self.add_buff(arena, t, me, k);
        }
    }

    /// The round at whose start of its caster's turn an effect of `me`'s
    /// spell `k` cast now ends: for a spell without concentration lasting
    /// 1 to 9 rounds (*guiding bolt*'s "until the end of your next turn"
    /// is 1), the current round plus its duration; 0 (the fight, or the
    /// concentration) otherwise. Notes the end on the caster, whose turn
    /// start removes it ([`Encounter::expire_timed`]).
    pub(super) fn timed_end(&self, arena: &mut Arena, me: usize, k: usize) -> u16 {
        let spell = &self.known(arena, me, k).spell;
        let Some(until) = timed_until(spell.concentration, spell.duration, arena.round) else {
            return 0;
        };
        let s = &mut arena.fighters[me].spells;
        if s.timed_until == 0 || until < s.timed_until {
            s.timed_until = until;
        }
        until
    }

    /// The start of `me`'s turn: its short spells that end now leave
    /// every creature (see [`Encounter::timed_end`]).
    pub(super) fn expire_timed(&self, arena: &mut Arena, me: usize) {
        let round = arena.round.min(u32::from(u16::MAX)) as u16;
        let due = arena.fighters[me].spells.timed_until;
        if due == 0 || round < due {
            return;
        }
        let source = me as u16;
        let mut next = 0u16;
        for t in 0..arena.fighters.len() {
            if arena.fighters[t].spells.expire_from(source, round) {
                self.recompute_buffs(arena, t);
            }
            let s = &arena.fighters[t].spells;
            let pending = s
                .afflictions
                .iter()
                .filter(|a| a.bits != 0 && a.source == source)
                .map(|a| a.until)
                .chain(
                    s.buffs
                        .iter()
                        .filter(|b| b.source == source)
                        .map(|b| b.until),
                )
                .filter(|&u| u != 0)
                .min();
            if let Some(u) = pending {
                next = if next == 0 { u } else { next.min(u) };
            }
        }
        arena.fighters[me].spells.timed_until = next;
    }

    /// Puts `source`'s spell `k` on `t` as a buff (or debuff).
    pub(super) fn add_buff(&self, arena: &mut Arena, t: usize, source: usize, k: usize) {
        let free = arena.fighters[t]
            .spells
            .buffs
            .iter()
            .position(|b| b.source == NO_SOURCE);
        if let Some(slot) = free {
            arena.fighters[t].spells.buffs[slot] = Buff {
                source: source as u16,
                spell: k as u8,
                until: self.timed_end(arena, source, k),
            };
        }
        self.recompute_buffs(arena, t);
    }

    /// The buff totals of `t` from its buffs.
    pub(super) fn recompute_buffs(&self, arena: &mut Arena, t: usize) {
        let buffs = arena.fighters[t].spells.buffs;
        let mut ac = 0i8;
        let mut any = false;
        for b in buffs.iter().filter(|b| b.source != NO_SOURCE) {
            any = true;
            let caster = self.spec(arena.fighters[usize::from(b.source)].spec);
            if let Some(m) = caster.known_spells[usize::from(b.spell)].spell.modifiers {
                ac = ac.saturating_add(m.ac);
            }
        }
        let s = &mut arena.fighters[t].spells;
        s.buffed = any;
        s.ac_bonus = ac;
    }
}
