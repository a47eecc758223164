//! Support actions (SRD 5.1): healing features and spells on the ally most
//! in need (when [`HealWhen`] says), potions of healing poured into a dying
//! ally, and stabilising a dying ally with a DC 10 Wisdom (Medicine) check
//! (when [`Stabilize`] says); healing at 0 HP wakes a PC and resets its
//! tally, and magical healing cures what any magical healing cures.
//!
//! A caster with a spellbook (`spells = [...]`) spends its slots on its
//! turn, in this order (docs/combat.md, spells and potions): *revivify* on
//! an ally dead for at most 10 rounds (an action, a 3rd-level slot and a
//! 300 gp diamond); a healing spell on the dying — a spell of several
//! targets when two or more are dying, else the lowest-level spell, bonus
//! action first — and, under `heal_when = "below_half"`, on an ally below
//! half while more slots than `slot_reserve` are left; *spare the dying*
//! on a dying ally when it cast no healing spell. The slot is the lowest (or, under
//! `spell_slot = "highest"`, the highest) that the spell allows; upcast
//! healing adds its dice per level. *Aid* is cast before a fight in which
//! it is not in force ([`Encounter::cast_aid`]). Every spell has a verbal
//! component: knocked-out teeth can make it fail (the slot is spent).

use rand::Rng;

use super::fighter::{Fighter, NEVER_REVIVED, State};
use super::{Arena, Encounter};
use crate::combat::creature::{HealTarget, POTIONS, Spellbook};
use crate::combat::effect;
use crate::combat::policy::{AidWhen, DrinkWhen, HealWhen, SlotChoice, Stabilize};
use crate::dice::roll_die;
use crate::rules::death_saves::Tally;
use crate::rules::injury_cures::{FightEffect, InFight, SPELLS};

/// The creature of `allies` most in need among those `eligible` (by their
/// index within `allies`): the dying first, then the lowest share of its
/// HP, the first in list order on a tie.
fn most_in_need(
    arena: &Arena,
    allies: std::ops::Range<usize>,
    eligible: impl Fn(usize, &Fighter) -> bool,
) -> Option<usize> {
    let mut best: Option<((bool, i32), usize)> = None;
    for (k, f) in arena.fighters[allies.clone()].iter().enumerate() {
        if eligible(k, f) {
            let key = (f.state != State::Dying, f.hp * 1000 / f.max_hp.max(1));
            if best.is_none_or(|(b, _)| key < b) {
                best = Some((key, k));
            }
        }
    }
    best.map(|(_, k)| allies.start + k)
}

impl Encounter {
    /// Whether the policy has a PC stabilise a dying ally now.
    #[inline]
    pub(super) fn stabilizes(&self, fight_over: bool) -> bool {
        match self.rules.stabilize {
            Stabilize::Never => false,
            Stabilize::AfterFight => fight_over,
            Stabilize::Always => true,
        }
    }

    /// Whether [`Self::support`] can do anything for this creature: most
    /// turns (every monster without healing) skip it.
    #[inline]
    pub(super) fn can_support(&self, f: &Fighter, fight_over: bool) -> bool {
        // A beast form heals no one and carries no potion it can pour.
        f.shape.is_none() && self.can_support_as_itself(f, fight_over)
    }

    /// [`Encounter::can_support`] in its own shape.
    fn can_support_as_itself(&self, f: &Fighter, fight_over: bool) -> bool {
        f.heal_uses > 0
            || f.feats.preserves > 0
            || f.potions != [0; 4]
            || f.casts
            || (f.party && self.stabilizes(fight_over))
    }

    /// Healing, potions and stabilising; `action` says whether the creature
    /// still has its action (bonus-action healing needs none). Returns
    /// whether the turn's action is spent.
    pub(super) fn support<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        fight_over: bool,
        action: bool,
    ) -> bool {
        let spec = self.spec(arena.fighters[me].spec);
        let party = arena.fighters[me].party;
        let stabilize = self.stabilizes(fight_over);
        let needs = |f: &Fighter, when: HealWhen| -> bool {
            match when {
                HealWhen::Never => false,
                HealWhen::Dying => f.state == State::Dying,
                HealWhen::BelowHalf => {
                    f.state == State::Dying || (f.state == State::Up && f.hp * 2 < f.max_hp)
                }
            }
        };
        let when = self.rules.heal_when;
        let allies = self.side(party, arena.fighters.len());
        // Channel Divinity: Preserve Life, an action, before the rest
        // (`encounter/features.rs`); a bonus action may still heal.
        let preserved =
            action && arena.fighters[me].feats.preserves > 0 && self.preserve_life(arena, me);
        if preserved && arena.fighters[me].effects & effect::ACTION_OR_BONUS != 0 {
            return true;
        }
        let action = action && !preserved;
        let patient = |arena: &Arena, self_only: bool| -> Option<usize> {
            if self_only {
                return needs(&arena.fighters[me], when).then_some(me);
            }
            most_in_need(arena, allies.clone(), |_, f| needs(f, when))
        };
        let mut bonus_used = false;
        if let Some(heal) = spec.heal {
            if arena.fighters[me].heal_uses > 0 && (heal.bonus_action || action) {
                if let Some(t) = patient(arena, heal.target == HealTarget::SelfOnly) {
                    arena.fighters[me].heal_uses -= 1;
                    if !(heal.spell && self.spell_fails(rng, arena, me)) {
                        let amount = heal.dice.sample(rng) as i32;
                        self.heal(arena, t, amount, heal.spell, false);
                    }
                    // A punctured lung allows an action or a bonus action, not both.
                    let lung = arena.fighters[me].effects & effect::ACTION_OR_BONUS != 0;
                    if !heal.bonus_action || lung {
                        return true;
                    }
                    bonus_used = heal.bonus_action;
                    arena.fighters[me].spells.bonus_spent = true;
                }
            }
        }
        if let Some(book) = spec.spellbook.as_ref().filter(|_| arena.fighters[me].casts) {
            if let Some(spent) = self.cast(rng, arena, me, book, action, bonus_used) {
                return spent || preserved;
            }
        }
        if !action {
            return true;
        }
        // A potion poured into a dying ally, as an action: the weakest one.
        if arena.fighters[me].potions != [0; 4] && when != HealWhen::Never {
            if let Some(k) = arena.fighters[allies.clone()]
                .iter()
                .position(|f| f.state == State::Dying)
            {
                let t = allies.start + k;
                self.use_potion(rng, arena, me, t, false);
                return true;
            }
        }
        // Its own potion, the strongest, when the policy says.
        if self.rules.spending.drink_potions == DrinkWhen::BelowHalf
            && arena.fighters[me].potions != [0; 4]
            && arena.fighters[me].hp * 2 < arena.fighters[me].max_hp
        {
            self.use_potion(rng, arena, me, me, true);
            return true;
        }
        if stabilize && party {
            if let Some(k) = arena.fighters[allies.clone()]
                .iter()
                .position(|f| f.state == State::Dying)
            {
                let t = allies.start + k;
                // A return from the dead's penalty takes from ability
                // checks too (SRD 5.1 *raise dead*).
                let penalty = i32::from(arena.fighters[me].return_penalty);
                if i32::from(roll_die(rng, 20) as u8) + spec.medicine - penalty >= 10 {
                    arena.fighters[t].become_stable();
                }
                return true;
            }
        }
        false
    }

    /// `me` gives `target` one of its potions, as an action: the strongest
    /// when `strongest`, else the weakest (any healing wakes the dying).
    fn use_potion<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        target: usize,
        strongest: bool,
    ) {
        let potions = &mut arena.fighters[me].potions;
        let mut carried = (0..POTIONS.len()).filter(|&i| potions[i] > 0);
        let pick = if strongest {
            carried.next_back()
        } else {
            carried.next()
        };
        let Some(i) = pick else {
            return;
        };
        potions[i] -= 1;
        let amount = POTIONS[i].1.sample(rng) as i32;
        self.heal(arena, target, amount, true, false);
    }

    /// The slot level `me` casts a spell of `level` with under the policy,
    /// if it has one; cantrips need none (`Some(0)`).
    fn slot_for(&self, arena: &Arena, me: usize, level: u8) -> Option<u8> {
        if level == 0 {
            return Some(0);
        }
        let slots = &arena.fighters[me].slots;
        let mut open = (usize::from(level) - 1..9).filter(|&i| slots[i] > 0);
        let slot = match self.rules.spending.slot {
            SlotChoice::Lowest => open.next(),
            SlotChoice::Highest => open.next_back(),
        };
        slot.map(|i| i as u8 + 1)
    }

    /// Spell slots `me` has left.
    fn slots_left(arena: &Arena, me: usize) -> u32 {
        arena.fighters[me].slots.iter().map(|&n| u32::from(n)).sum()
    }

    /// Spends the slot of `level` (none for a cantrip) and says whether
    /// the spell works (knocked-out teeth: a verbal spell may fail).
    fn spend<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena, me: usize, slot: u8) -> bool {
        if slot > 0 {
            arena.fighters[me].slots[usize::from(slot) - 1] -= 1;
        }
        !self.spell_fails(rng, arena, me)
    }

    /// The HP a healing spell cast with `slot` restores (rolled once for
    /// all its targets), with Disciple of Life.
    fn spell_healing<R: Rng + ?Sized>(
        rng: &mut R,
        book: &Spellbook,
        spell: usize,
        use_: InFight,
        slot: u8,
    ) -> i32 {
        let level = SPELLS[spell].level;
        let above = slot.saturating_sub(level);
        let amount = use_
            .effect
            .healing(above, book.modifier)
            .map_or(0, |d| d.sample(rng) as i32);
        let disciple = if book.disciple_of_life && level > 0 {
            2 + i32::from(slot)
        } else {
            0
        };
        amount + disciple
    }

    /// A caster's turn of spells (see the module docs); `None` when it
    /// cast nothing, else whether the action is spent.
    fn cast<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        book: &Spellbook,
        action: bool,
        bonus_used: bool,
    ) -> Option<bool> {
        let party = arena.fighters[me].party;
        let allies = self.side(party, arena.fighters.len());
        let lung = arena.fighters[me].effects & effect::ACTION_OR_BONUS != 0;
        let bonus = !bonus_used;
        let known = |effect: fn(&FightEffect) -> bool| {
            book.spells.iter().copied().filter_map(move |i| {
                SPELLS[i]
                    .in_fight
                    .filter(|u| effect(&u.effect))
                    .map(|u| (i, u))
            })
        };
        // Revivify: an ally dead for at most `within_rounds` rounds.
        if action && self.rules.spending.revivify && arena.fighters[me].diamonds > 0 {
            for (spell, use_) in known(|e| matches!(e, FightEffect::Revive { .. })) {
                let FightEffect::Revive { within_rounds } = use_.effect else {
                    continue;
                };
                let Some(slot) = self.slot_for(arena, me, SPELLS[spell].level) else {
                    continue;
                };
                let round = arena.round;
                let dead = arena.fighters[allies.clone()].iter().position(|f| {
                    f.state == State::Dead
                        && self.spec(f.spec).is_pc
                        && f.died_round != NEVER_REVIVED
                        && (f.died_round == 0 || round - f.died_round <= within_rounds)
                });
                if let Some(k) = dead {
                    let t = allies.start + k;
                    if self.spend(rng, arena, me, slot) {
                        arena.fighters[me].diamonds -= 1;
                        let f = &mut arena.fighters[t];
                        f.state = State::Up;
                        f.hp = 1;
                        f.tally = Tally::default();
                        f.died_round = 0;
                    }
                    return Some(true);
                }
            }
        }
        // Healing spells: on the dying, and (below half) on those in need.
        let when = self.rules.heal_when;
        if when != HealWhen::Never {
            let dying = arena.fighters[allies.clone()]
                .iter()
                .filter(|f| f.state == State::Dying)
                .count();
            let below_half = when == HealWhen::BelowHalf
                && Self::slots_left(arena, me) > u32::from(self.rules.spending.slot_reserve);
            let in_need = |f: &Fighter| {
                f.state == State::Dying
                    || (below_half && f.state == State::Up && f.hp * 2 < f.max_hp)
            };
            let needing = arena.fighters[allies.clone()]
                .iter()
                .filter(|f| in_need(f))
                .count();
            if needing > 0 {
                // Castable now: with two or more dying a spell of several
                // targets first, then bonus-action spells, then the lowest level.
                let mut choice: Option<(usize, InFight, u8)> = None;
                let mut best_key = (true, true, u8::MAX);
                for (spell, use_) in known(|e| matches!(e, FightEffect::Heal { .. })) {
                    let can = if use_.bonus_action { bonus } else { action };
                    let Some(slot) = self.slot_for(arena, me, SPELLS[spell].level) else {
                        continue;
                    };
                    let key = (
                        dying >= 2 && use_.targets == 1,
                        !use_.bonus_action,
                        SPELLS[spell].level,
                    );
                    if can && (choice.is_none() || key < best_key) {
                        best_key = key;
                        choice = Some((spell, use_, slot));
                    }
                }
                if let Some((spell, use_, slot)) = choice {
                    let works = self.spend(rng, arena, me, slot);
                    if works {
                        let amount = Self::spell_healing(rng, book, spell, use_, slot);
                        let sixth = SPELLS[spell].level >= 6;
                        // The dying first, then the lowest share of HP.
                        // Each target once (a side has at most 256 creatures).
                        let mut healed = [0u64; 4];
                        for _ in 0..use_.targets {
                            let Some(t) = most_in_need(arena, allies.clone(), |k, f| {
                                in_need(f) && healed[k / 64] & (1 << (k % 64)) == 0
                            }) else {
                                break;
                            };
                            let k = t - allies.start;
                            healed[k / 64] |= 1 << (k % 64);
                            self.heal(arena, t, amount, true, sixth);
                        }
                    }
                    if !use_.bonus_action || lung {
                        return Some(true);
                    }
                    arena.fighters[me].spells.bonus_spent = true;
                    // A bonus-action spell: the action is free for a cantrip attack.
                    return None;
                }
            }
            // Spare the dying, when it cast no healing spell.
            let spares = known(|e| matches!(e, FightEffect::Stabilize))
                .next()
                .is_some();
            if action && dying > 0 && spares {
                if let Some(k) = arena.fighters[allies.clone()]
                    .iter()
                    .position(|f| f.state == State::Dying)
                {
                    if self.spend(rng, arena, me, 0) {
                        arena.fighters[allies.start + k].become_stable();
                    }
                    return Some(true);
                }
            }
        }
        None
    }

    /// Before a fight: each party caster who knows *aid* and has a slot for
    /// it casts it on up to three living allies without it in force (the
    /// lowest maximum HP first), when [`AidWhen`] says.
    pub(super) fn cast_aid<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena) {
        if self.rules.spending.aid == AidWhen::Never {
            return;
        }
        let n = arena.fighters.len();
        let allies = self.side(true, n);
        for me in allies.clone() {
            let f = &arena.fighters[me];
            if !f.casts || f.state != State::Up {
                continue;
            }
            let Some(book) = self.spec(f.spec).spellbook.as_ref() else {
                continue;
            };
            for &spell in &book.spells {
                let Some(InFight {
                    effect: FightEffect::Aid { hp, per_level },
                    targets,
                    ..
                }) = SPELLS[spell].in_fight
                else {
                    continue;
                };
                let without = arena.fighters[allies.clone()]
                    .iter()
                    .filter(|f| f.aid_hp == 0 && f.state != State::Dead)
                    .count();
                if without == 0 {
                    continue;
                }
                let Some(slot) = self.slot_for(arena, me, SPELLS[spell].level) else {
                    continue;
                };
                if !self.spend(rng, arena, me, slot) {
                    continue;
                }
                let bonus = hp + per_level * i32::from(slot - SPELLS[spell].level);
                for _ in 0..targets {
                    let pick = arena.fighters[allies.clone()]
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| f.aid_hp == 0 && f.state != State::Dead)
                        .min_by_key(|(_, f)| f.max_hp)
                        .map(|(k, _)| allies.start + k);
                    let Some(t) = pick else {
                        break;
                    };
                    let f = &mut arena.fighters[t];
                    f.aid_hp = bonus;
                    f.max_hp += bonus;
                    f.hp += bonus;
                    if matches!(f.state, State::Dying | State::Stable) {
                        f.state = State::Up;
                        f.tally = Tally::default();
                    }
                }
            }
        }
    }

    /// Restores HP; `magical` healing (a spell or a potion) also cures the
    /// lingering injuries that any magical healing cures, and
    /// `sixth_level` healing (*heal*) those that need 6th-level magic.
    pub(super) fn heal(
        &self,
        arena: &mut Arena,
        target: usize,
        amount: i32,
        magical: bool,
        sixth_level: bool,
    ) {
        if magical {
            self.cure_by_magical_healing(arena, target, sixth_level);
        }
        let f = &mut arena.fighters[target];
        if amount <= 0 || matches!(f.state, State::Dead | State::Fled) {
            return;
        }
        f.hp = (f.hp + amount).min(f.max_hp);
        if matches!(f.state, State::Dying | State::Stable | State::Down) {
            f.state = State::Up;
            f.tally = Tally::default();
        }
    }
}
