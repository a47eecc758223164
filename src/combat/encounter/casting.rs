//! The casting policy (SRD 5.2 "Spells", "Casting Spells"; docs/spells.md,
//! "Casting policy"): each turn a caster values its free option (its
//! Attack action: weapon or cantrip) and every known spell it can cast now
//! in expected hit points, over the rounds its foes are expected to last,
//! a levelled spell's value divided by `1 + k × slot level` ([`SpellPolicy`]),
//! and casts the best if it beats the free option (an action spell) or is
//! worth anything (a bonus-action spell). It starts no concentration spell
//! while it concentrates, uses one it holds again on a later turn
//! (*spiritual weapon*), spends at most one spell slot a turn and no more
//! slot levels than its share of the day's (a campaign's fights ahead).
//!
//! What a cast spell then does is `spell_effects.rs`; the buffs in play
//! `spell_buffs.rs`; concentration, turn starts and ends, zones and
//! *shield* `spell_lasting.rs`.
//!
//! [`SpellPolicy`]: crate::combat::policy::SpellPolicy

use rand::Rng;

use super::fighter::State;
use super::spell_state::SpellState;
use super::spell_weights::Lands;
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::spell::{
    CastingTime, Condition, KnownSpell, OngoingWhen, Targets, bits, hit_chance, save_chance,
};
use crate::rules::damage::DamageType;

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

/// A spell the policy may cast this turn: its value per resource, which
/// known spell, with which slot (0: a cantrip), and whether it needs
/// concentration.
#[derive(Clone, Copy, Debug)]
struct Choice {
    value: f64,
    k: usize,
    slot: u8,
    /// It spends a spell slot (a monster's daily or at-will spell does not).
    uses_slot: bool,
    concentration: bool,
    /// An action spell cast as a bonus action with Quickened Spell.
    quickened: bool,
    /// Its place among the turn's choices (the first of equal values wins).
    order: u16,
}

/// The turn's choices as the policy weighs them, without a list: for each
/// of the action and the bonus action, the best choice of each kind
/// (concentration or not, spell slot or not), the first of equal values
/// kept. The best choice a kind of resource allows is then the best of
/// those kinds (the first offered among equal values): the same choice as
/// scanning every offer in order.
#[derive(Clone, Copy, Debug, Default)]
struct Candidates {
    /// `[bonus action][concentration | slot << 1]`.
    best: [[Option<Choice>; 4]; 2],
    offered: u16,
}

impl Candidates {
    /// Weighs `choice` for the bonus action (or the action).
    fn offer(&mut self, bonus_action: bool, mut choice: Choice) {
        choice.order = self.offered;
        self.offered += 1;
        let kind = usize::from(choice.concentration) | usize::from(choice.uses_slot) << 1;
        let best = &mut self.best[usize::from(bonus_action)][kind];
        if best.is_none_or(|b| choice.value > b.value) {
            *best = Some(choice);
        }
    }

    /// The best choice for the bonus action (or the action) that needs no
    /// concentration when `no_concentration`, no slot when `no_slot`.
    fn best(&self, bonus_action: bool, no_concentration: bool, no_slot: bool) -> Option<Choice> {
        let mut best: Option<Choice> = None;
        for (kind, c) in self.best[usize::from(bonus_action)].iter().enumerate() {
            let Some(c) = *c else { continue };
            if kind & 1 != 0 && no_concentration || kind & 2 != 0 && no_slot {
                continue;
            }
            if best.is_none_or(|b| c.value > b.value || c.value == b.value && c.order < b.order) {
                best = Some(c);
            }
        }
        best
    }
}

/// Sorcery points a quickened spell costs (Metamagic: Quickened Spell).
pub const QUICKENED_SPELL_POINTS: u8 = 2;

/// The [`Choice`] index that stands for Channel Divinity: Turn Undead, an
/// action the policy weighs beside the spells (`turn_undead.rs`).
const TURN_UNDEAD: usize = usize::MAX;

/// The enemies a caster weighs its options against: their means.
#[derive(Clone, Copy, Debug)]
pub(super) struct Foes {
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
    /// How many of them are immune to each condition (by
    /// [`crate::combat::spell::Condition`] as an index).
    immune: [u8; Condition::ALL.len()],
    /// Some of them have damage defenses (resistance, immunity,
    /// vulnerability, absorption): `damage_factor` then holds, by
    /// [`DamageType`] in declaration order, the mean share of damage of
    /// that type they take (immune 0, resistant 0.5, vulnerable 2, a type
    /// it absorbs -1: the damage heals it); all 1 otherwise.
    defended: bool,
    damage_factor: [f64; DamageType::ALL.len()],
    /// The share of them with Magic Resistance (advantage on saves against
    /// spells).
    magic_resistant: f64,
    /// How many of them have Legendary Resistance left (a failed save
    /// against a condition becomes a success).
    legendary: u8,
}

impl Foes {
    /// The expected damage of `spec`'s Attack action against them (its
    /// free option), weighed by their damage defenses.
    pub(super) fn free_option(&self, spec: &crate::combat::creature::CreatureSpec) -> f64 {
        let ac = self.ac.round() as i32;
        if self.defended {
            spec.threat_weighed(ac, |t| self.damage_factor[t as usize])
        } else {
            spec.threat(ac)
        }
    }
}

/// The share of damage of type `t` a creature with `spec`'s defenses takes
/// (see [`Foes`]); flat reductions are left out.
fn damage_share(spec: &crate::combat::creature::CreatureSpec, t: DamageType) -> f64 {
    if spec.absorbs.has(t) {
        return -1.0;
    }
    spec.defenses.share(t)
}

impl Encounter {
    /// The caster's known spell `k`.
    pub(super) fn known<'a>(&'a self, arena: &Arena, me: usize, k: usize) -> &'a KnownSpell {
        &self.spec(arena.fighters[me].spec).known_spells[k]
    }

    /// The conscious enemies of `me`, as means.
    pub(super) fn foes(&self, arena: &Arena, me: usize) -> Foes {
        let range = self.enemies_of(arena, me);
        let mut f = Foes {
            up: 0,
            ac: 0.0,
            hp: 0.0,
            threat: 0.0,
            saves: [0.0; 6],
            rounds: EXPECTED_ROUNDS,
            immune: [0; Condition::ALL.len()],
            defended: false,
            damage_factor: [1.0; DamageType::ALL.len()],
            magic_resistant: 0.0,
            legendary: 0,
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
            if spec.condition_immune != 0 {
                for (c, n) in f.immune.iter_mut().enumerate() {
                    *n += u8::from(spec.condition_immune & (1 << c) != 0);
                }
            }
            if !self.defenses {
                continue;
            }
            if spec.magic_resistance {
                f.magic_resistant += 1.0;
            }
            f.legendary += u8::from(t.legendary_resistances > 0);
            if spec.has_damage_defenses() {
                // The sum of their shares less one each; made a mean below.
                f.defended = true;
                for (share, t) in f.damage_factor.iter_mut().zip(DamageType::ALL) {
                    *share += damage_share(spec, t) - 1.0;
                }
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
            f.magic_resistant /= n;
            if f.defended {
                for share in f.damage_factor.iter_mut() {
                    *share = 1.0 + (*share - 1.0) / n;
                }
            }
        }
        f
    }

    /// The expected value, in hit points, of casting known spell `k` with
    /// `slot` now.
    pub(super) fn spell_value(
        &self,
        arena: &Arena,
        me: usize,
        k: usize,
        slot: u8,
        foes: &Foes,
    ) -> f64 {
        let weights = &self.spell_weights[arena.fighters[me].spec][k];
        if weights.helps_allies {
            return self.buff_value(arena, me, k, slot, foes);
        }
        if foes.up == 0 {
            return 0.0;
        }
        let means = weights.slots[usize::from(slot)];
        let n = f64::from(means.targets).min(foes.up as f64);
        // Magic Resistance: those that have it save at advantage.
        let save_odds = |ability: usize, dc: i32| {
            let p = save_chance(foes.saves[ability].round() as i32, dc);
            if foes.magic_resistant > 0.0 {
                let m = foes.magic_resistant;
                (1.0 - m) * p + m * (1.0 - (1.0 - p) * (1.0 - p))
            } else {
                p
            }
        };
        // The chance that the spell lands on one target, and what a
        // success still does (half damage).
        let (lands, on_success) = match weights.lands {
            Lands::Attack { to_hit } => (hit_chance(to_hit, foes.ac.round() as i32), 0.0),
            Lands::Save { ability, dc, half } => {
                let saves = save_odds(ability, dc);
                (1.0 - saves, saves * half)
            }
            Lands::Always => (1.0, 0.0),
        };
        let mut value = 0.0;
        // What its damage is worth against their defenses: none against
        // immunity, half against resistance, a loss where it heals them.
        let damage = if foes.defended {
            means
                .parts
                .iter()
                .flatten()
                .map(|&(t, mean)| mean * foes.damage_factor[t as usize])
                .sum()
        } else {
            means.damage
        };
        if damage < 0.0 {
            // Healing them: a loss, uncapped.
            value += n * (lands + on_success * 0.5) * damage;
        }
        // *Power word kill*: aimed at a foe it kills when one stands, worth
        // that foe's hit points (the mean of those it would kill).
        let kills = weights
            .kills_at_most_hp
            .map_or(0.0, |limit| self.within_hp(arena, me, limit, None).1);
        if kills > 0.0 {
            value += lands * kills.max(damage.min(foes.hp));
        } else if damage > 0.0 {
            let rolls = f64::from(means.rolls);
            let per_roll = lands * damage.min(foes.hp) + on_success * (damage * 0.5).min(foes.hp);
            // Rolls spread over the targets; each target's share capped at
            // its hit points.
            let dealt = if means.rolls > 1 {
                (rolls * per_roll).min(foes.hp * foes.up as f64)
            } else {
                n * per_roll
            };
            // A zone or a spell used again deals its damage each round.
            let repeats = if weights.ongoing { foes.rounds } else { 1.0 };
            value += dealt * repeats;
        }
        if let Some(c) = weights.condition {
            let rounds = match c.repeat_save {
                Some(save) => {
                    let p = match save {
                        Some((ability, dc)) => save_odds(ability, dc),
                        None => 0.5,
                    };
                    (1.0 / p.max(0.05)).min(foes.rounds)
                }
                None => foes.rounds,
            };
            // Only the foes not immune to it: a single target is chosen
            // among them, an area holds them in their share.
            // Legendary Resistance turns a failed save into a success.
            let resisted = match weights.lands {
                Lands::Save { .. } => usize::from(foes.legendary),
                _ => 0,
            };
            let open = match c.hp_at_most {
                // Only those within its limit in hit points (*power word
                // stun*), counted one by one.
                Some(limit) => {
                    let saved = matches!(weights.lands, Lands::Save { .. });
                    self.within_hp(arena, me, limit, Some((c.condition, saved)))
                        .0
                }
                None => foes
                    .up
                    .saturating_sub(usize::from(foes.immune[c.condition as usize]) + resisted),
            };
            let held = if means.targets <= 1 {
                n.min(open as f64)
            } else {
                n * open as f64 / foes.up as f64
            };
            value += held * lands * foes.threat * rounds * c.weight;
        }
        if let Some(weight) = weights.debuff {
            // A debuff on enemies: their lost hits.
            value += n * lands * foes.threat * foes.rounds * weight;
        }
        value
    }

    /// `me`'s conscious enemies (not banished) with at most `limit` hit
    /// points: how many, and their mean hit points. With `condition`
    /// (and whether a save resists it), only those that can take it: not
    /// immune to it, and for a save, no Legendary Resistance left.
    fn within_hp(
        &self,
        arena: &Arena,
        me: usize,
        limit: u16,
        condition: Option<(Condition, bool)>,
    ) -> (usize, f64) {
        let (mut n, mut hp) = (0usize, 0.0f64);
        for t in &arena.fighters[self.enemies_of(arena, me)] {
            if t.state != State::Up
                || t.spells.conditions & bits::BANISHED != 0
                || t.hp > i32::from(limit)
                || condition.is_some_and(|(c, saved)| !self.can_take(t, c, saved))
            {
                continue;
            }
            n += 1;
            hp += f64::from(t.hp);
        }
        (n, if n > 0 { hp / n as f64 } else { 0.0 })
    }

    /// Whether `t` can take condition `c` from a spell (`saved`: one a
    /// save resists): it is not immune to it, and for a save it has no
    /// Legendary Resistance left to turn the failure.
    pub(super) fn can_take(&self, t: &super::fighter::Fighter, c: Condition, saved: bool) -> bool {
        !(self.spec(t.spec).immune_to(c) || saved && t.legendary_resistances > 0)
    }

    /// The value of a buff on the caster's side: the extra damage of its
    /// allies (or its own) over the expected rounds.
    fn buff_value(&self, arena: &Arena, me: usize, k: usize, slot: u8, foes: &Foes) -> f64 {
        let spell = &self.known(arena, me, k).spell;
        let Some(m) = spell.modifiers else {
            return 0.0;
        };
        let (me16, k) = (me as u16, k as u8);
        let n = usize::from(spell.targets_at(slot));
        // The allies it would go on: its targets' own damage per round.
        let mut gains = [0.0f64; 8];
        let mut count = 0;
        let candidates = match spell.targets {
            Targets::Caster => me..me + 1,
            _ => self.side(arena.fighters[me].party, arena.fighters.len()),
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
    /// cantrip), if any. A warlock's Pact Magic slots (up to 5th level)
    /// take its spells up to 5th level; each Mystic Arcanum slot (6th to
    /// 9th) only a spell of its own level.
    pub(super) fn open_slot(&self, arena: &Arena, me: usize, level: u8) -> Option<u8> {
        if level == 0 {
            return Some(0);
        }
        let pact = self
            .spec(arena.fighters[me].spec)
            .spellbook
            .as_ref()
            .is_some_and(|b| b.short_rest_slots);
        let level = usize::from(level);
        let top = match (pact, level <= super::setup::PACT_SLOT_MAX) {
            (false, _) => 9,
            (true, true) => super::setup::PACT_SLOT_MAX,
            (true, false) => level,
        };
        let slots = &arena.fighters[me].slots;
        (level - 1..top.min(9))
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
        let free = foes.free_option(spec).min(foes.hp * foes.up as f64);
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
                let level = spec.known_spells[k].cast_level();
                let again = match o.action {
                    Some(CastingTime::BonusAction) => bonus,
                    Some(CastingTime::Action) => {
                        action && self.spell_value(arena, me, k, level, &foes) / foes.rounds > free
                    }
                    _ => false,
                };
                if again {
                    self.strike(rng, arena, me, k, level, out);
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
        // The best pair of a bonus-action and an action choice that fit
        // together (one concentration spell, one slot a turn): the best
        // action then the best bonus action beside it, or the other way
        // round, whichever pair is worth more.
        // Every spell it can cast now, valued once; with Quickened Spell
        // an action spell is a bonus-action choice too.
        let feats = arena.fighters[me].feats;
        let quicken = bonus
            && feats.sorcery_points >= QUICKENED_SPELL_POINTS
            && feats.points_budget >= QUICKENED_SPELL_POINTS;
        let mut cands = Candidates::default();
        {
            let s = &arena.fighters[me].spells;
            for (k, known) in spec.known_spells.iter().enumerate() {
                let spell = &known.spell;
                let time = spell.casting_time;
                let (open, quickened) = match time {
                    CastingTime::Action => (action, quicken),
                    CastingTime::BonusAction => (bonus, false),
                    _ => (false, false),
                };
                if !(open || quickened) || spell.concentration && s.concentrating != 0 {
                    continue;
                }
                // A monster's spell of its Spellcasting: at its level, while
                // it has castings left today; an at-will spell costs nothing.
                let (slot, cost) = if let Some(i) = known.innate {
                    if !arena.fighters[me].has_casting(i) || i.legendary_only {
                        continue;
                    }
                    (i.level, i.cost())
                } else {
                    if spell.level > 0 && s.slot_this_turn {
                        continue;
                    }
                    let Some(slot) = self.open_slot(arena, me, spell.level) else {
                        continue;
                    };
                    if u16::from(slot) > s.slot_budget {
                        continue;
                    }
                    (slot, slot)
                };
                let value =
                    self.spell_value(arena, me, k, slot, &foes) / (1.0 + k_cost * f64::from(cost));
                let choice = Choice {
                    value,
                    k,
                    slot,
                    uses_slot: known.innate.is_none() && slot > 0,
                    concentration: spell.concentration,
                    quickened: false,
                    order: 0,
                };
                if open {
                    cands.offer(time == CastingTime::BonusAction, choice);
                }
                if quickened {
                    let quick = Choice {
                        quickened: true,
                        ..choice
                    };
                    cands.offer(true, quick);
                }
            }
        }
        // Channel Divinity: Turn Undead, an action of no slot.
        if action && spec.class_features.turn_undead {
            let value = self.turn_undead_value(arena, me, foes.rounds);
            if value > 0.0 {
                cands.offer(
                    false,
                    Choice {
                        value,
                        k: TURN_UNDEAD,
                        slot: 0,
                        uses_slot: false,
                        concentration: false,
                        quickened: false,
                        order: 0,
                    },
                );
            }
        }
        let best = |bonus_action: bool, no_concentration: bool, no_slot: bool| {
            let threshold = if bonus_action { 0.0 } else { free };
            cands
                .best(bonus_action, no_concentration, no_slot)
                .filter(|b| b.value > threshold)
        };
        let beside = |first: Option<Choice>, bonus_action: bool, available: bool| {
            let (conc, slot) = first.map_or((false, false), |c| (c.concentration, c.uses_slot));
            if available {
                best(bonus_action, conc, slot)
            } else {
                None
            }
        };
        let worth = |a: Option<Choice>, b: Option<Choice>| {
            a.map_or(free, |c| c.value) + b.map_or(0.0, |c| c.value)
        };
        let a1 = beside(None, false, action);
        let b1 = beside(a1, true, bonus);
        let b2 = beside(None, true, bonus);
        let a2 = beside(b2, false, action);
        let (a, b) = if worth(a1, b1) >= worth(a2, b2) {
            (a1, b1)
        } else {
            (a2, b2)
        };
        if let Some(c) = b {
            if c.quickened {
                let feats = &mut arena.fighters[me].feats;
                feats.sorcery_points -= QUICKENED_SPELL_POINTS;
                feats.points_budget -= QUICKENED_SPELL_POINTS;
            }
            self.cast_known(rng, arena, me, c.k, c.slot, out);
            turn.bonus = true;
        }
        if let Some(c) = a {
            if c.k == TURN_UNDEAD {
                self.turn_undead(rng, arena, me, out);
            } else {
                self.cast_known(rng, arena, me, c.k, c.slot, out);
            }
            turn.action = true;
        }
        turn
    }

    /// SRD 5.2 "It can replace one attack with a use of Spellcasting to
    /// cast ...": the best spell of `me` that may replace an attack,
    /// cast instead of one attack of its Multiattack when it is worth more
    /// than one attack is (its Attack action's expected damage over its
    /// attacks), valued as the turn's other spells are. Whether it cast
    /// (its Multiattack then makes one attack fewer).
    pub(super) fn spell_for_an_attack<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) -> bool {
        let spec = self.spec(arena.fighters[me].spec);
        let Some(k_cost) = self.rules.spending.spell_policy.slot_cost() else {
            return false;
        };
        if spec.multiattack.len() < 2 {
            return false;
        }
        let foes = self.foes(arena, me);
        if foes.up == 0 {
            return false;
        }
        let one_attack = foes.free_option(spec) / spec.multiattack.len() as f64;
        let f = &arena.fighters[me];
        let mut best: Option<(f64, usize, u8)> = None;
        for (k, known) in spec.known_spells.iter().enumerate() {
            let Some(i) = known.innate.filter(|i| i.replaces_attack) else {
                continue;
            };
            let spell = &known.spell;
            if spell.casting_time != CastingTime::Action
                || spell.concentration && f.spells.concentrating != 0
                || !f.has_casting(i)
            {
                continue;
            }
            let value = self.spell_value(arena, me, k, i.level, &foes)
                / (1.0 + k_cost * f64::from(i.cost()));
            if value > one_attack && best.is_none_or(|b| value > b.0) {
                best = Some((value, k, i.level));
            }
        }
        let Some((_, k, level)) = best else {
            return false;
        };
        self.cast_known(rng, arena, me, k, level, out);
        arena.fighters[me].attack_replaced = true;
        true
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
        if let Some(i) = known.innate {
            if i.per_day > 0 {
                // The policy casts none without a casting left.
                arena.fighters[me].daily_spells[usize::from(i.counter)] -= 1;
            }
        } else if slot > 0 {
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
        self.feats.points_budget = u32::from(self.feats.sorcery_points)
            .div_ceil(ahead.max(1))
            .min(255) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The best of the offers a scan in offer order keeps: the first of
    /// the highest value among those the resources allow.
    fn scanned(
        offers: &[(bool, Choice)],
        bonus_action: bool,
        no_concentration: bool,
        no_slot: bool,
    ) -> Option<Choice> {
        let mut best: Option<Choice> = None;
        for &(b, c) in offers {
            if b != bonus_action || c.concentration && no_concentration || c.uses_slot && no_slot {
                continue;
            }
            if best.is_none_or(|x| c.value > x.value) {
                best = Some(c);
            }
        }
        best
    }

    #[test]
    fn candidates_pick_what_a_scan_of_every_offer_picks() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..2000 {
            let mut cands = Candidates::default();
            let mut offers = Vec::new();
            for k in 0..rng.random_range(0..12usize) {
                // Few distinct values: ties are common.
                let value = f64::from(rng.random_range(0..4u8));
                let slot = rng.random_range(0..3u8);
                let choice = Choice {
                    value,
                    k,
                    slot,
                    uses_slot: slot > 0,
                    concentration: rng.random_bool(0.5),
                    quickened: false,
                    order: 0,
                };
                let bonus_action = rng.random_bool(0.4);
                cands.offer(bonus_action, choice);
                offers.push((
                    bonus_action,
                    Choice {
                        order: offers.len() as u16,
                        ..choice
                    },
                ));
            }
            for bits in 0..8u8 {
                let (b, c, s) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
                let got = cands.best(b, c, s).map(|x| x.k);
                assert_eq!(
                    got,
                    scanned(&offers, b, c, s).map(|x| x.k),
                    "{offers:?} {bits}"
                );
            }
        }
    }
}
