//! Attack, control and buff spells in the round loop (SRD 5.2 "Spells",
//! "Casting Spells", "Concentration", "Conditions"; docs/spells.md):
//!
//! - **choosing** ([`SpellPolicy`]): each turn a caster values its free
//!   option (its Attack action: weapon or cantrip) and every known spell it
//!   can cast now in expected hit points, a levelled spell's value divided
//!   by `1 + k × slot level`, and casts the best if it beats the free
//!   option (an action spell) or is worth anything (a bonus-action spell).
//!   It starts no concentration spell while it concentrates, and spends at
//!   most one spell slot a turn;
//! - **resolving**: targets (the policy's enemy for one, a random set of
//!   the conscious enemies for several or an area counted by the DMG rule,
//!   the allies doing most damage for a buff), a spell attack roll per
//!   roll (critical hits double the dice) or a saving throw per target
//!   (half or nothing on a success), damage through the creature's
//!   defences, the condition on a failed save or a hit, the buff, the zone
//!   of ongoing damage;
//! - **lasting effects**: repeat saves at the end of the afflicted
//!   creature's turn, prone creatures standing up on their turn, zones
//!   dealing their damage at the start or the end of a turn spent in them
//!   (as the spell says), *shield*
//!   (+5 AC until the caster's next turn) as a reaction to a hit it would
//!   turn into a miss, and **concentration**: one spell at a time, a
//!   Constitution save (DC 10 or half the damage, whichever is higher)
//!   on each damage, ended by a failed save, by dropping to 0 HP or by a
//!   new concentration spell, taking its conditions, buffs and zones with
//!   it.
//!
//! Durations: a spell without concentration lasting 1 to 9 rounds
//! (*guiding bolt*'s, *vicious mockery*'s "until the end of your next
//! turn") ends at the start of its caster's turn that many rounds on;
//! longer ones last the fight (fights end well within a minute;
//! docs/spells.md says so), concentration spells until it ends.

use rand::Rng;

use super::damage::Blow;
use super::fighter::State;
use super::spell_state::{Affliction, Buff, NO_SOURCE, SpellState};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Ability, Reach};
use crate::combat::spell::{
    CastingTime, Condition, KnownSpell, OnSuccess, OngoingWhen, Targets, bits, hit_chance,
    save_chance,
};
use crate::dice::{DiceExpr, RollMode};
use crate::rules::attack::{AttackOutcome, AttackRoll};
use crate::rules::damage::DamageTypes;

/// The rounds a fight is expected to go on after this turn, for valuing
/// lasting effects (a disabled creature, a buff, a zone).
pub const EXPECTED_ROUNDS: f64 = 3.0;

/// What a creature's spells did with its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SpellTurn {
    /// Its action is spent.
    pub action: bool,
    /// Its bonus action is spent.
    pub bonus: bool,
}

/// The enemies a caster weighs its options against: their means.
#[derive(Clone, Copy, Debug)]
struct Foes {
    /// Conscious enemies.
    up: usize,
    ac: f64,
    hp: f64,
    /// Mean expected damage of one Attack action of theirs.
    threat: f64,
    saves: [f64; 6],
    /// The rounds they are expected to last against the caster's side:
    /// their hit points over the side's expected damage a round, between
    /// 1 and [`EXPECTED_ROUNDS`] (a lasting effect is worth no more rounds
    /// than the fight has left).
    rounds: f64,
}

impl Encounter {
    /// The caster's known spell `k`.
    fn known<'a>(&'a self, arena: &Arena, me: usize, k: usize) -> &'a KnownSpell {
        &self.spec(arena.fighters[me].spec).known_spells[k]
    }

    /// The conscious enemies of `me`, as means.
    fn foes(&self, arena: &Arena, me: usize) -> Foes {
        let range = self.enemies_of(arena, me);
        let mut f = Foes {
            up: 0,
            ac: 0.0,
            hp: 0.0,
            threat: 0.0,
            saves: [0.0; 6],
            rounds: EXPECTED_ROUNDS,
        };
        for i in range {
            let t = &arena.fighters[i];
            if t.state != State::Up || t.spells.conditions & bits::BANISHED != 0 {
                continue;
            }
            let spec = self.spec(t.spec);
            f.up += 1;
            f.ac += f64::from(self.armor_class(t));
            f.hp += f64::from(t.hp);
            f.threat += self.threat.get(i).copied().unwrap_or(0.0);
            for (s, v) in f.saves.iter_mut().zip(spec.saves) {
                *s += f64::from(v);
            }
        }
        if f.up > 0 {
            let ours: f64 = self
                .side(arena.fighters[me].party, arena.fighters.len())
                .filter(|&i| arena.fighters[i].state == State::Up)
                .map(|i| self.threat.get(i).copied().unwrap_or(0.0))
                .sum();
            if ours > 0.0 {
                f.rounds = (f.hp / ours).clamp(1.0, EXPECTED_ROUNDS);
            }
            let n = f.up as f64;
            f.ac /= n;
            f.hp /= n;
            f.threat /= n;
            for s in f.saves.iter_mut() {
                *s /= n;
            }
        }
        f
    }

    /// The expected value, in hit points, of casting known spell `k` with
    /// `slot` now.
    fn spell_value(&self, arena: &Arena, me: usize, k: usize, slot: u8, foes: &Foes) -> f64 {
        let known = self.known(arena, me, k);
        let spell = &known.spell;
        let level = arena.fighters[me].spells_level(self);
        if spell.targets.helps_allies() {
            return self.buff_value(arena, me, k, slot, foes);
        }
        if foes.up == 0 {
            return 0.0;
        }
        let n = f64::from(spell.targets_at(slot)).min(foes.up as f64);
        // The chance that the spell lands on one target, and what a
        // success still does (half damage).
        let (lands, on_success) = match (spell.attack, spell.save) {
            (Some(_), _) => (hit_chance(known.to_hit, foes.ac.round() as i32), 0.0),
            (None, Some(save)) => {
                let saves = save_chance(foes.saves[save.ability as usize].round() as i32, known.dc);
                let half = if save.success == OnSuccess::Half {
                    0.5
                } else {
                    0.0
                };
                (1.0 - saves, saves * half)
            }
            (None, None) => (1.0, 0.0),
        };
        let mut value = 0.0;
        let damage: f64 = spell
            .damage_at(slot, level)
            .iter()
            .flatten()
            .map(|p| p.dice.mean())
            .sum::<f64>()
            + f64::from(known.damage_bonus);
        if damage > 0.0 {
            let rolls = f64::from(spell.rolls_at(slot, level));
            let per_roll = lands * damage.min(foes.hp) + on_success * (damage * 0.5).min(foes.hp);
            // Rolls spread over the targets; each target's share capped at
            // its hit points.
            let dealt = if spell.rolls_at(slot, level) > 1 {
                (rolls * per_roll).min(foes.hp * foes.up as f64)
            } else {
                n * per_roll
            };
            // A zone or a spell used again deals its damage each round.
            let repeats = if spell.ongoing.is_some() {
                foes.rounds
            } else {
                1.0
            };
            value += dealt * repeats;
        }
        if let Some(c) = spell.condition {
            let rounds = if c.repeat_save {
                let p = match spell.save {
                    Some(s) => save_chance(foes.saves[s.ability as usize].round() as i32, known.dc),
                    None => 0.5,
                };
                (1.0 / p.max(0.05)).min(foes.rounds)
            } else {
                foes.rounds
            };
            value += n * lands * foes.threat * rounds * condition_weight(c.condition);
        }
        if let Some(m) = spell.modifiers {
            // A debuff on enemies: their lost hits.
            let mut weight = 0.0;
            if let Some(b) = m.attack_rolls {
                weight += -b.mean() / 20.0 / 0.6;
            }
            if m.no_reactions || m.action_or_bonus {
                weight += 0.25;
            }
            value += n * lands * foes.threat * foes.rounds * weight.max(0.0);
        }
        value
    }

    /// The value of a buff on the caster's side: the extra damage of its
    /// allies (or its own) over the expected rounds.
    fn buff_value(&self, arena: &Arena, me: usize, k: usize, slot: u8, foes: &Foes) -> f64 {
        let spell = &self.known(arena, me, k).spell;
        let Some(m) = spell.modifiers else {
            return 0.0;
        };
        let allies = self.side(arena.fighters[me].party, arena.fighters.len());
        let (me16, k) = (me as u16, k as u8);
        let n = usize::from(spell.targets_at(slot));
        // The allies it would go on: its targets' own damage per round.
        let mut gains = [0.0f64; 8];
        let mut count = 0;
        let candidates: Box<dyn Iterator<Item = usize>> = match spell.targets {
            Targets::Caster => Box::new(std::iter::once(me)),
            _ => Box::new(allies),
        };
        for i in candidates {
            let f = &arena.fighters[i];
            if f.state != State::Up || f.spells.has_buff(me16, k) {
                continue;
            }
            let spec = self.spec(f.spec);
            let threat = self.threat.get(i).copied().unwrap_or(0.0);
            let attacks = spec.multiattack.len().max(1) as f64;
            let mut gain = 0.0;
            if let Some(b) = m.attack_rolls {
                gain += threat * (b.mean() / 20.0) / 0.6;
            }
            if let Some(d) = m.damage_on_hit {
                gain += attacks * 0.6 * d.dice.mean();
            }
            if m.extra_attack > 0 {
                gain += threat / attacks * f64::from(m.extra_attack);
            }
            if m.ac > 0 {
                gain += 3.0 * f64::from(m.ac) * 0.05 * 10.0;
            }
            if count < gains.len() {
                gains[count] = gain;
                count += 1;
            }
        }
        gains[..count].sort_by(|a, b| b.total_cmp(a));
        gains[..count.min(n)].iter().sum::<f64>() * foes.rounds
    }

    /// The lowest slot `me` has left for a spell of `level` (0 for a
    /// cantrip), if any.
    fn open_slot(&self, arena: &Arena, me: usize, level: u8) -> Option<u8> {
        if level == 0 {
            return Some(0);
        }
        let slots = &arena.fighters[me].slots;
        (usize::from(level) - 1..9)
            .find(|&i| slots[i] > 0)
            .map(|i| i as u8 + 1)
    }

    /// `me`'s spells this turn: the policy's choice of a bonus-action
    /// spell and of an action spell over its Attack action (see the
    /// module docs). `action` and `bonus` say what it still has.
    pub(super) fn cast_spells<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        action: bool,
        bonus: bool,
        out: &mut TrialOutcome,
    ) -> SpellTurn {
        let mut turn = SpellTurn {
            action: false,
            bonus: false,
        };
        let Some(k_cost) = self.rules.spending.spell_policy.slot_cost() else {
            return turn;
        };
        let spec = self.spec(arena.fighters[me].spec);
        let foes = self.foes(arena, me);
        if foes.up == 0 {
            return turn;
        }
        let free = spec
            .threat(foes.ac.round() as i32)
            .min(foes.hp * foes.up as f64);
        // A concentration spell used again on later turns (spiritual
        // weapon's bonus-action attack, call lightning's Magic action):
        // with the bonus action whenever free, with the action when one
        // use is worth more than the free option.
        let mut bonus = bonus;
        let mut action = action;
        if let Some(k) = arena.fighters[me].spells.concentrating.checked_sub(1) {
            let k = usize::from(k);
            let spell = &spec.known_spells[k].spell;
            if let Some(o) = spell.ongoing.filter(|o| o.when == OngoingWhen::CasterTurn) {
                let again = match o.action {
                    Some(CastingTime::BonusAction) => bonus,
                    Some(CastingTime::Action) => {
                        action
                            && self.spell_value(arena, me, k, spell.level, &foes) / foes.rounds
                                > free
                    }
                    _ => false,
                };
                if again {
                    self.strike(rng, arena, me, k, spell.level, out);
                    if o.action == Some(CastingTime::BonusAction) {
                        bonus = false;
                        turn.bonus = true;
                    } else {
                        action = false;
                        turn.action = true;
                    }
                }
            }
        }
        for (time, available) in [
            (CastingTime::BonusAction, bonus),
            (CastingTime::Action, action),
        ] {
            if !available {
                continue;
            }
            let mut best: Option<(f64, usize, u8)> = None;
            for (k, known) in spec.known_spells.iter().enumerate() {
                let spell = &known.spell;
                if spell.casting_time != time {
                    continue;
                }
                if spell.concentration && arena.fighters[me].spells.concentrating != 0 {
                    continue;
                }
                if spell.level > 0 && arena.fighters[me].spells.slot_this_turn {
                    continue;
                }
                let Some(slot) = self.open_slot(arena, me, spell.level) else {
                    continue;
                };
                if u16::from(slot) > arena.fighters[me].spells.slot_budget {
                    continue;
                }
                let value =
                    self.spell_value(arena, me, k, slot, &foes) / (1.0 + k_cost * f64::from(slot));
                if best.is_none_or(|(b, _, _)| value > b) {
                    best = Some((value, k, slot));
                }
            }
            let threshold = if time == CastingTime::Action {
                free
            } else {
                0.0
            };
            if let Some((_, k, slot)) = best.filter(|&(v, _, _)| v > threshold) {
                self.cast_known(rng, arena, me, k, slot, out);
                match time {
                    CastingTime::Action => turn.action = true,
                    _ => turn.bonus = true,
                }
            }
        }
        turn
    }

    /// Casts known spell `k` of `me` with `slot` (see the module docs).
    pub(super) fn cast_known<R: Rng + ?Sized>(
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
        if slot > 0 {
            let s = &mut arena.fighters[me];
            s.slots[usize::from(slot) - 1] -= 1;
            s.spells.slot_this_turn = true;
            s.spells.slot_budget = s.spells.slot_budget.saturating_sub(u16::from(slot));
        }
        if spell.verbal && self.spell_fails(rng, arena, me) {
            return;
        }
        if spell.concentration {
            self.end_concentration(arena, me);
            arena.fighters[me].spells.concentrating = k as u8 + 1;
        }
        if spell.targets.helps_allies() {
            self.cast_buff(arena, me, k, slot);
            return;
        }
        self.strike(rng, arena, me, k, slot, out);
    }

    /// The effect of `me`'s known spell `k` cast with `slot` on its
    /// enemies: its targets, attack rolls or saves, damage, conditions and
    /// zones (also a spell used again on a later turn).
    fn strike<R: Rng + ?Sized>(
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
            for r in 0..rolls.max(1) {
                let Some(t) = self.choose_target::<false, R>(rng, arena, me, Reach::Ranged) else {
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
        for j in 0..n {
            let pick =
                j + crate::dice::uniform_below(rng, (arena.scratch.len() - j) as u64) as usize;
            arena.scratch.swap(j, pick);
        }
        // Rolled once for all its targets (as a breath weapon is).
        let rolled = self.roll_damage(rng, damage, false, known.damage_bonus);
        for j in 0..n {
            let t = arena.scratch[j];
            self.resolve_rolled(rng, arena, me, k, t, rolled, out);
        }
    }

    /// Rolls a spell's damage parts (doubled dice on a critical hit) plus
    /// `bonus` on the first.
    fn roll_damage<R: Rng + ?Sized>(
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
    fn resolve_on<R: Rng + ?Sized>(
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
        };
        if let Some(reach) = known.spell.attack {
            let Some(crit) = self.spell_attack(rng, arena, me, t, known.to_hit, reach) else {
                return;
            };
            let rolled = self.roll_damage(rng, damage, crit, bonus);
            self.land(rng, arena, me, k, t, rolled, 1.0, crit, out);
            return;
        }
        let rolled = self.roll_damage(rng, damage, false, bonus);
        self.resolve_rolled(rng, arena, me, k, t, rolled, out);
    }

    /// One target of a spell whose damage is rolled: its save (or none).
    #[allow(clippy::too_many_arguments)]
    fn resolve_rolled<R: Rng + ?Sized>(
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
        let share = match known.spell.save {
            None => 1.0,
            Some(save) => {
                let saved = self.saving_throw(rng, arena, t, save.ability, known.dc);
                let evades =
                    save.ability == Ability::Dex && self.spec(arena.fighters[t].spec).evasion;
                match (saved, save.success, evades) {
                    (false, _, false) => 1.0,
                    (false, _, true) => 0.5,
                    (true, OnSuccess::Half, false) => 0.5,
                    (true, _, _) => 0.0,
                }
            }
        };
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

    /// A spell attack roll of `me` on `t`: `None` on a miss, else whether
    /// it is a critical hit.
    fn spell_attack<R: Rng + ?Sized>(
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
            disadvantage || blinded,
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
    fn land<R: Rng + ?Sized>(
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
        let mut total = 0;
        let mut types = DamageTypes::default();
        for (amount, kind) in rolled {
            let Some(kind) = kind else { continue };
            let amount = (f64::from(amount) * share) as i32;
            total += self.after_defenses(arena, t, kind, amount);
            types = types.with(kind);
        }
        // The condition: on a failed save (full share), or on a hit.
        if let Some(c) = known.spell.condition.filter(|_| share >= 1.0) {
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
            if arena.fighters[t].state == State::Up {
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
        }
    }

    /// A buff on the caster's side: on itself, or on the allies doing most
    /// damage who lack it.
    fn cast_buff(&self, arena: &mut Arena, me: usize, k: usize, slot: u8) {
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
    fn timed_end(&self, arena: &mut Arena, me: usize, k: usize) -> u16 {
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
    fn expire_timed(&self, arena: &mut Arena, me: usize) {
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
    fn add_buff(&self, arena: &mut Arena, t: usize, source: usize, k: usize) {
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

    /// The modifiers of every buff on `who`, for the attack and save code.
    fn buff_modifiers<'a>(
        &'a self,
        arena: &'a Arena,
        who: usize,
    ) -> impl Iterator<Item = crate::combat::spell::Modifiers> + 'a {
        arena.fighters[who]
            .spells
            .buffs
            .iter()
            .filter(|b| b.source != NO_SOURCE)
            .filter_map(move |b| {
                let caster = self.spec(arena.fighters[usize::from(b.source)].spec);
                caster.known_spells[usize::from(b.spell)].spell.modifiers
            })
    }

    /// The damage types its buffs make `who` resist (*stoneskin*).
    pub(super) fn buff_resistances(&self, arena: &Arena, who: usize) -> DamageTypes {
        self.buff_modifiers(arena, who)
            .fold(DamageTypes::default(), |r, m| r.union(m.resistance))
    }

    /// The dice its buffs add to (or take from) an attack roll of `who`.
    pub(super) fn attack_roll_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
    ) -> i32 {
        if !arena.fighters[who].spells.buffed {
            return 0;
        }
        let mut total = 0;
        for m in self.buff_modifiers(arena, who) {
            if let Some(b) = m.attack_rolls {
                let v = b.dice.sample(rng) as i32;
                total += if b.negative { -v } else { v };
            }
        }
        total
    }

    /// The dice its buffs add to (or take from) a saving throw of `who`.
    pub(super) fn save_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
    ) -> i32 {
        if !arena.fighters[who].spells.buffed {
            return 0;
        }
        let mut total = 0;
        for m in self.buff_modifiers(arena, who) {
            if let Some(b) = m.saves {
                let v = b.dice.sample(rng) as i32;
                total += if b.negative { -v } else { v };
            }
        }
        total
    }

    /// The extra damage its buffs add to a hit of `who` (*hunter's mark*,
    /// *hex*), doubled dice on a critical hit, with its type.
    pub(super) fn hit_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
        crit: bool,
    ) -> Option<(i32, crate::rules::damage::DamageType)> {
        if !arena.fighters[who].spells.buffed {
            return None;
        }
        let mut out: Option<(i32, crate::rules::damage::DamageType)> = None;
        for m in self.buff_modifiers(arena, who) {
            if let Some(d) = m.damage_on_hit {
                let dice: DiceExpr = if crit { d.dice.doubled_dice() } else { d.dice };
                let v = dice.sample(rng) as i32;
                out = Some((out.map_or(0, |(a, _)| a) + v, d.kind));
            }
        }
        out
    }

    /// Attacks its buffs add to its Attack action (*haste*).
    pub(super) fn extra_attacks(&self, arena: &Arena, who: usize) -> u8 {
        if !arena.fighters[who].spells.buffed {
            return 0;
        }
        self.buff_modifiers(arena, who)
            .map(|m| m.extra_attack)
            .sum()
    }

    /// Whether its buffs give it advantage on attack rolls, and attack
    /// rolls against it advantage.
    pub(super) fn buff_advantage(&self, arena: &Arena, who: usize) -> (bool, bool) {
        if !arena.fighters[who].spells.buffed {
            return (false, false);
        }
        self.buff_modifiers(arena, who)
            .fold((false, false), |(a, b), m| {
                (
                    a || m.advantage_on_attacks,
                    b || m.attacks_against_have_advantage,
                )
            })
    }

    /// The armour class of `defender` with its buffs and *shield*.
    pub(super) fn defended_ac(&self, defender: &super::fighter::Fighter) -> i32 {
        self.armor_class(defender)
            + i32::from(defender.spells.ac_bonus)
            + if defender.spells.shield_up { 5 } else { 0 }
    }

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
        if !self.saving_throw(rng, arena, me, Ability::Con, dc) {
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
    }

    /// The zone `me` is in, if its caster still holds it, deals its damage
    /// when it is `when` (SRD 5.2: *moonbeam*'s "starts its turn there",
    /// *spirit guardians*' "ends its turn there"); a zone whose caster is
    /// down or lost concentration is gone.
    fn zone_damage<R: Rng + ?Sized>(
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
        let share = match known.spell.save {
            None => 1.0,
            Some(save) if self.saving_throw(rng, arena, me, save.ability, known.dc) => {
                if save.success == OnSuccess::Half {
                    0.5
                } else {
                    0.0
                }
            }
            Some(_) => 1.0,
        };
        let mut total = 0;
        let mut types = DamageTypes::default();
        for (amount, kind) in rolled {
            let Some(kind) = kind else { continue };
            total += self.after_defenses(arena, me, kind, (f64::from(amount) * share) as i32);
            types = types.with(kind);
        }
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
        for slot in 0..arena.fighters[me].spells.afflictions.len() {
            let a = arena.fighters[me].spells.afflictions[slot];
            if a.bits == 0 || !a.repeat_save {
                continue;
            }
            if self.saving_throw(rng, arena, me, a.ability, i32::from(a.dc)) {
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
        if f.shield_spell == 0
            || !f.reaction
            || f.state != State::Up
            || f.spells.conditions & bits::INCAPACITATED != 0
        {
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

/// How much of a creature's damage a condition prevents while it lasts,
/// for valuing control spells: all of it for one that keeps it from acting,
/// half for blinded or restrained (its attacks at disadvantage, attacks on
/// it at advantage), a third for frightened or poisoned, a quarter for
/// prone (until its turn), none for the rest.
pub fn condition_weight(c: Condition) -> f64 {
    match c {
        _ if c.disables() => 1.0,
        Condition::Blinded | Condition::Restrained => 0.5,
        Condition::Frightened | Condition::Poisoned => 1.0 / 3.0,
        Condition::Prone => 0.25,
        _ => 0.0,
    }
}

impl super::fighter::Fighter {
    /// Its character level (a cantrip's tier).
    pub(super) fn spells_level(&self, e: &Encounter) -> u8 {
        e.spec(self.spec).level
    }

    /// A fight begins with `ahead` fights (this one included) left before
    /// the next long rest: the spells of an earlier fight are over, and a
    /// caster's slot levels are shared over the fights ahead (rounded up).
    pub(super) fn begin_fight_spells(&mut self, ahead: u32) {
        self.spells = SpellState::EMPTY;
        if self.spell_caster {
            let levels: u32 = (1..=9u32)
                .map(|l| l * u32::from(self.slots[l as usize - 1]))
                .sum();
            self.spells.slot_budget = levels.div_ceil(ahead.max(1)).min(u32::from(u16::MAX)) as u16;
        }
    }
}
