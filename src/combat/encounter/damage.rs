//! Damage: temporary hit points first, resistance, immunity and vulnerability (rage resists
//! bludgeoning, piercing and slashing), regeneration stopped by its damage
//! types, monsters dying at 0 HP (regenerating ones going down), PCs
//! dropping to 0 HP and dying; massive damage (the overflow past 0, or one
//! blow at 0 HP, of at least the PC's maximum) kills; damage at 0 HP is one
//! death-save failure, a critical hit two, and the third may become a
//! permanent wound (docs/rules.md, permanent wounds).

use rand::Rng;

use super::fighter::State;
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::Ability;
use crate::rules::damage::{DamageType, DamageTypes};
use crate::rules::death_saves::Tally;

/// One blow: damage after defenses, its types, and whether it was a critical hit.
#[derive(Clone, Copy, Debug)]
pub struct Blow {
    pub(super) amount: i32,
    pub(super) types: DamageTypes,
    pub(super) crit: bool,
}

impl Encounter {
    /// The damage `target` takes of `amount` of type `kind` after its
    /// defenses (resistance, immunity, vulnerability; rage, spell buffs);
    /// negative for a type it absorbs (Fire Absorption: the amount heals
    /// it, see [`Encounter::deal_total`]).
    pub(super) fn after_defenses(
        &self,
        arena: &Arena,
        target: usize,
        kind: DamageType,
        amount: i32,
    ) -> i32 {
        let f = &arena.fighters[target];
        let spec = self.spec(f.spec);
        if self.rare_traits && spec.absorbs.has(kind) {
            // Absorption: this damage heals it (a negative part of the
            // blow, see `deal_total`).
            return -amount.max(0);
        }
        let mut defenses = spec.defenses;
        if f.spells.buffed {
            defenses.resistances = defenses
                .resistances
                .union(self.buff_resistances(arena, target));
        }
        if f.raging
            && matches!(
                kind,
                DamageType::Bludgeoning | DamageType::Piercing | DamageType::Slashing
            )
        {
            defenses.resistances = defenses.resistances.with(kind);
        }
        defenses
            .apply(i64::from(amount.max(0)), kind)
            .min(i32::MAX as u32) as i32
    }

    /// Applies one blow of `amount` damage (after defenses). The common
    /// case (a conscious creature left standing) is inlined at each blow;
    /// the rest is [`Encounter::deal_rest`].
    #[inline(always)]
    pub(super) fn deal_total<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        blow: Blow,
        out: &mut TrialOutcome,
    ) {
        let spec = self.spec(arena.fighters[target].spec);
        let f = &mut arena.fighters[target];
        if let Some(regen) = spec.regeneration {
            if blow.types.iter().any(|t| regen.stopped_by.has(t)) {
                f.regen_blocked = true;
            }
        }
        if blow.amount <= 0 {
            if blow.amount < 0 {
                Self::absorb(f, -blow.amount);
            }
            return;
        }
        // Concentration and conditions that end on damage, temporary hit
        // points: the cold path.
        let spelled = f.spells.concentrating != 0 || f.spells.conditions != 0 || f.temp_hp > 0;
        if f.state == State::Up && blow.amount < f.hp && !spelled {
            f.hp_lost += i64::from(blow.amount);
            f.hp -= blow.amount;
            return;
        }
        self.deal_rest(rng, arena, target, blow, out);
    }

    /// Fire or Lightning Absorption: a blow whose absorbed damage
    /// outweighs the rest heals a conscious creature by the difference, up
    /// to its hit point maximum (a blow's parts are netted: the golem
    /// "regains a number of Hit Points equal to the Fire damage dealt" and
    /// takes the rest).
    #[cold]
    fn absorb(f: &mut super::fighter::Fighter, heal: i32) {
        if f.state == State::Up {
            f.hp = (f.hp + heal).min(f.max_hp);
        }
    }

    /// [`Encounter::deal_total`] of a positive blow that drops a conscious
    /// creature or lands on one at 0 HP, or lands on a creature that
    /// concentrates on a spell, carries a spell's condition or has
    /// temporary hit points.
    #[inline(never)]
    fn deal_rest<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        blow: Blow,
        out: &mut TrialOutcome,
    ) {
        let f = &mut arena.fighters[target];
        let concentrating = f.spells.concentrating != 0;
        let afflicted = f.spells.conditions != 0;
        // Temporary hit points take the damage first; the rest reaches
        // its hit points. Concentration saves against all it took.
        let absorbed = blow.amount.min(f.temp_hp);
        f.temp_hp -= absorbed;
        let rest = Blow {
            amount: blow.amount - absorbed,
            ..blow
        };
        if rest.amount > 0 {
            if f.state == State::Up && rest.amount < f.hp {
                f.hp_lost += i64::from(rest.amount);
                f.hp -= rest.amount;
            } else {
                self.drop_or_fail(rng, arena, target, rest, out);
            }
        }
        if concentrating {
            self.concentration_check(rng, arena, target, blow.amount);
        }
        if afflicted {
            self.damaged_afflicted(arena, target);
        }
    }

    /// A conscious creature dies outright (*power word kill*: "it dies"):
    /// no death saves for a PC, no regeneration for a troll; out of a
    /// Wild Shape form first, its grapples ended, a Death Burst burst.
    pub(super) fn slay<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        out: &mut TrialOutcome,
    ) {
        if arena.fighters[target].state != State::Up {
            return;
        }
        if self.grapplers {
            self.release_grapples(arena, target);
        }
        if arena.fighters[target].shape.is_some() {
            self.leave_wild_shape(arena, target);
        }
        let spec = self.spec(arena.fighters[target].spec);
        let f = &mut arena.fighters[target];
        f.hp_lost += i64::from(f.hp);
        f.hp = 0;
        f.went_down |= f.party;
        f.raging = false;
        f.state = State::Dead;
        if let Some(burst) = spec.death_burst {
            self.area_save(rng, arena, target, burst, out);
        }
    }

    /// A positive blow that drops a conscious creature or lands on one at
    /// 0 HP.
    fn drop_or_fail<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        blow: Blow,
        out: &mut TrialOutcome,
    ) {
        let Blow {
            amount,
            types,
            crit,
        } = blow;
        // Undead Fortitude: a Constitution save, DC 5 + the damage, unless
        // it is radiant or a critical hit, leaves it at 1 HP.
        if arena.fighters[target].state == State::Up
            && self.spec(arena.fighters[target].spec).undead_fortitude
            && !crit
            && !types.has(DamageType::Radiant)
            && self.saving_throw(rng, arena, target, Ability::Con, 5 + amount)
        {
            let f = &mut arena.fighters[target];
            f.hp_lost += i64::from(f.hp - 1);
            f.hp = 1;
            return;
        }
        // Dropped (or out of its Wild Shape form): its grapples end.
        if self.grapplers && arena.fighters[target].state == State::Up {
            self.release_grapples(arena, target);
        }
        if arena.fighters[target].shape.is_some() && arena.fighters[target].state == State::Up {
            // Its Wild Shape form drops to 0 HP: back in its own shape,
            // the excess damage carries over (`encounter/wild_shape.rs`).
            let f = &mut arena.fighters[target];
            f.hp_lost += i64::from(f.hp);
            let excess = amount - f.hp;
            self.leave_wild_shape(arena, target);
            let f = &mut arena.fighters[target];
            if excess > 0 && excess < f.hp {
                f.hp_lost += i64::from(excess);
                f.hp -= excess;
            } else if excess > 0 {
                self.drop_or_fail(
                    rng,
                    arena,
                    target,
                    Blow {
                        amount: excess,
                        ..blow
                    },
                    out,
                );
            }
            return;
        }
        let spec = self.spec(arena.fighters[target].spec);
        let f = &mut arena.fighters[target];
        match f.state {
            State::Up => {
                // The blow drops it: `deal_total` applied those it stands.
                f.hp_lost += i64::from(f.hp);
                let overflow = amount - f.hp;
                f.hp = 0;
                if !(f.party && spec.is_pc) {
                    f.went_down |= f.party;
                    f.state = if spec.regeneration.is_some_and(|r| r.revives) {
                        State::Down
                    } else {
                        State::Dead
                    };
                    // Death Burst: it explodes as it dies.
                    if let Some(burst) = spec.death_burst.filter(|_| f.state == State::Dead) {
                        self.area_save(rng, arena, target, burst, out);
                    }
                    return;
                }
                let killed = self.rules.massive_damage && overflow >= f.max_hp;
                if !killed && f.raging && spec.relentless_rage {
                    // Relentless Rage: DC 10, then 5 more for each use since a long rest.
                    let dc = 10 + 5 * i32::from(f.relentless_uses);
                    f.relentless_uses = f.relentless_uses.saturating_add(1);
                    if self.saving_throw(rng, arena, target, Ability::Con, dc) {
                        arena.fighters[target].hp = 1;
                        return;
                    }
                }
                let f = &mut arena.fighters[target];
                f.went_down = true;
                f.raging = false;
                f.tally = Tally::default();
                f.state = if killed { State::Dead } else { State::Dying };
                // Unconscious creatures fall prone (with positions).
                f.prone = self.rules.positions.is_some();
            }
            State::Dying | State::Stable => {
                if self.rules.massive_damage && amount >= f.max_hp {
                    f.state = State::Dead;
                    return;
                }
                let failures = f.tally.failures + if crit { 2 } else { 1 };
                f.state = State::Dying;
                if failures < 3 {
                    f.tally.failures = failures;
                    return;
                }
                let rules = &self.rules.death_saves;
                match rules.wound_policy.choose(f.tally.successes, f.wounds) {
                    Some(severity) => self.take_wound(rng, arena, target, severity, out),
                    None => f.state = State::Dead,
                }
            }
            State::Down => {}
            State::Dead | State::Fled => {}
        }
    }
}
