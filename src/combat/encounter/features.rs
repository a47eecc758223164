//! Class features of the PC templates that change a fight, beyond those
//! the attack, damage and support code carries itself (SRD 5.1 class
//! texts; docs/combat.md, "PC templates"). Each is read from the creature's
//! [`ClassFeatures`] and costs the loop one cheap check (a byte of the
//! fighter's [`FeatureState`] or of its spec) where the feature is absent:
//! no die is rolled for a creature without it.
//!
//! - **Action Surge** (fighter 2; SRD 5.1: "you can take one additional
//!   action on top of your regular action and a possible bonus action ...
//!   Once you use this feature, you must finish a short or long rest before
//!   you can use it again. Starting at 17th level, you can use it twice
//!   before a rest, but only once on the same turn"). Policy: on its turn
//!   in the first round of a fight, after its Attack action, while an enemy
//!   is still standing and a use is left, it takes the Attack action again
//!   (its whole multiattack). A short or long rest restores the uses.
//! - **Indomitable** (fighter 9; "you can reroll a saving throw that you
//!   fail. If you do, you must use the new roll ... once before a long
//!   rest", twice from 13, three times from 17). Policy: every failed save
//!   while a use is left; the d20 is rerolled, the bonuses (a *bless* die
//!   already rolled) stay. A long rest restores the uses.
//! - **Uncanny Dodge** (rogue 5; "When an attacker that you can see hits
//!   you with an attack, you can use your reaction to halve the attack's
//!   damage against you"). Policy: the first hit that deals it damage while
//!   its reaction is unused (the reaction shared with *shield* and
//!   opportunity attacks; it comes back at the start of its turn), unless
//!   it is blinded; halved after its resistances, rounded down.
//! - **Brutal Critical** (barbarian 9; "you can roll one additional weapon
//!   damage die when determining the extra damage for a critical hit with a
//!   melee attack", two at 13, three at 17): the weapon's die, not doubled.
//! - **Stunning Strike** (monk 5; "When you hit another creature with a
//!   melee weapon attack, you can spend 1 ki point to attempt a stunning
//!   strike. The target must succeed on a Constitution saving throw or be
//!   stunned until the end of your next turn"; the DC is 8 + proficiency +
//!   Wis; ki points = the monk level, back on a short rest). Policy: the
//!   first hit of its turn on a target still standing and not already
//!   stunned, while ki is left (ki is spent on nothing else). The stun is a
//!   spell-state affliction ([`SpellState::afflict_until_source_turn`])
//!   that ends at the end of the monk's next turn; if the monk leaves the
//!   fight (dead or fled) first, it ends at the end of that round.
//! - **Deflect Missiles** (monk 3; "use your reaction to deflect or catch
//!   the missile when you are hit by a ranged weapon attack. When you do
//!   so, the damage you take from the attack is reduced by 1d10 + your
//!   Dexterity modifier + your monk level"): on a ranged weapon hit while
//!   its reaction is unused, after its resistances, not below 0. Catching
//!   and throwing the missile back is not modelled.
//! - **Aura of Protection** for allies (paladin 6; "Whenever you or a
//!   friendly creature within 10 feet of you must make a saving throw, the
//!   creature gains a bonus to the saving throw equal to your Charisma
//!   modifier ... You must be conscious", 30 feet from 18): its own saves
//!   carry the bonus already (the template); an ally adds the highest bonus
//!   of the conscious paladins of its side less its own (auras do not
//!   stack). Without positions every ally is taken to be within the aura
//!   (an approximation of ours); with positions, within its reach along the
//!   line.
//! - **Bardic Inspiration** (bard 1; "you can use a bonus action on your
//!   turn to choose one creature other than yourself ... That creature
//!   gains one Bardic Inspiration die, a d6 ... can roll the die and add
//!   the number rolled to one ability check, attack roll, or saving throw";
//!   uses = the Charisma modifier per long rest, and per short rest from 5,
//!   Font of Inspiration; the die grows to d8 at 5, d10 at 10, d12 at 15).
//!   Policy: on its turn, with a use left, its bonus action unspent (a
//!   bonus-action healing spell comes first) and an enemy standing, it
//!   gives one to the conscious ally of the highest expected damage
//!   (the encounter's threat) that holds none; the ally adds it to its next
//!   attack roll. Not on ability checks or saves.
//! - **Channel Divinity: Preserve Life** (Life cleric 2; "As an action,
//!   you ... restore a number of hit points equal to five times your cleric
//!   level. Choose any creatures within 30 feet of you, and divide those
//!   hit points among them. This feature can restore a creature to no more
//!   than half of its hit point maximum"; one use per short rest, two from
//!   6, three from 18). Policy (first of its support actions): when two or
//!   more allies (itself included) are below half their maximum or one is
//!   dying, and the HP it would restore reach twice its level; the dying
//!   first, then the lowest share of its maximum, each up to half its
//!   maximum. Not magical healing in the loop's sense (as Lay on Hands).
//!   Its own policy under `heal_when` `"dying"` (the default) and
//!   `"below_half"` alike, never under `"never"`. With positions, the
//!   allies within 30 feet along the line.
//! - **Eldritch Invocations** (warlock 2; the template's picks,
//!   docs/combat.md): *Armor of Shadows* ("You can cast mage armor on
//!   yourself at will": 13 + Dex, the template's armour class), *Fiendish
//!   Vigor* ("You can cast false life on yourself at will as a 1st-level
//!   spell": policy, it does before each fight, 1d4 + 4 temporary hit
//!   points, kept when more than those it has) and *Repelling Blast*
//!   ("When you hit a creature with eldritch blast, you can push the
//!   creature up to 10 feet away from you in a straight line": with
//!   positions, each beam that hits a Large or smaller creature, straight
//!   away along the line; without positions it changes nothing).

use rand::Rng;

use super::fighter::{Fighter, State};
use super::spell_state::Affliction;
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Ability, Attack, CreatureSpec, Reach};
use crate::combat::effect;
use crate::combat::policy::HealWhen;
use crate::combat::spell::Condition;
use crate::dice::{DiceExpr, RollMode, roll_die};

#[cfg(doc)]
use super::spell_state::SpellState;

/// *False life* cast as a 1st-level spell (SRD 5.1: "gaining 1d4 + 4
/// temporary hit points for the duration"), Fiendish Vigor's.
const FALSE_LIFE: DiceExpr = DiceExpr {
    count: 1,
    sides: 4,
    modifier: 4,
};

impl Encounter {
    /// Action Surge: the Attack action again on its turn in the first
    /// round, with a use left and an enemy still standing.
    #[inline(never)]
    pub(super) fn action_surge<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) {
        let f = &arena.fighters[me];
        if arena.round > 1
            || f.feats.surges == 0
            || f.state != State::Up
            || self.enemies_up(arena, me) == 0
        {
            return;
        }
        arena.fighters[me].feats.surges -= 1;
        if self.rules.positions.is_some() {
            self.multiattack::<true, R>(rng, arena, me, out);
        } else {
            self.multiattack::<false, R>(rng, arena, me, out);
        }
    }

    /// Dark One's Blessing: `me` gains its temporary hit points (the
    /// higher of those and what it has: they do not stack) when `target`,
    /// a hostile creature conscious before the blow (`was_up`), is at 0 HP
    /// after it.
    #[inline]
    pub(super) fn blessing_on_drop(
        &self,
        arena: &mut Arena,
        me: usize,
        target: usize,
        was_up: bool,
    ) {
        let gain = self
            .spec(arena.fighters[me].spec)
            .class_features
            .dark_ones_blessing;
        if gain > 0
            && was_up
            && arena.fighters[target].hp == 0
            && arena.fighters[target].party != arena.fighters[me].party
        {
            let f = &mut arena.fighters[me];
            f.temp_hp = f.temp_hp.max(gain);
        }
    }

    /// Fiendish Vigor before a fight: each conscious PC with it casts
    /// *false life* as a 1st-level spell (at will, no slot), 1d4 + 4
    /// temporary hit points, kept only when more than those it has
    /// (temporary hit points do not stack).
    pub(super) fn fiendish_vigor<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena) {
        for f in arena.fighters.iter_mut().filter(|f| f.party) {
            if f.state == State::Up && self.spec(f.spec).class_features.fiendish_vigor {
                let gained = FALSE_LIFE.sample(rng) as i32;
                f.temp_hp = f.temp_hp.max(gained);
            }
        }
    }

    /// Indomitable: a failed save of `target` rolled again with `mode`,
    /// the same `bonus`, against `dc`; one use spent.
    #[inline(never)]
    pub(super) fn indomitable<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        mode: RollMode,
        bonus: i32,
        dc: i32,
    ) -> bool {
        arena.fighters[target].feats.indomitable -= 1;
        i32::from(mode.roll(rng)) + bonus >= dc
    }

    /// The bonus the Aura of Protection of a conscious ally adds to a save
    /// of `target` beyond its own aura (auras do not stack: the highest).
    #[inline(never)]
    pub(super) fn aura_bonus(&self, arena: &Arena, target: usize) -> i32 {
        let t = &arena.fighters[target];
        let own = self.spec(t.spec).class_features.aura;
        let mut best = own;
        let positions = self.rules.positions.is_some();
        for p in &arena.fighters[self.side(t.party, arena.fighters.len())] {
            let c = &self.spec(p.spec).class_features;
            if c.aura > best
                && p.state == State::Up
                && (!positions || (p.x - t.x).abs() <= c.aura_feet)
            {
                best = c.aura;
            }
        }
        best - own
    }

    /// Uncanny Dodge or Deflect Missiles: `total` damage of a hit by
    /// `attack` on `target` as its reaction leaves it.
    #[inline(never)]
    pub(super) fn defensive_reaction<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        attack: &Attack,
        total: i32,
    ) -> i32 {
        let f = &arena.fighters[target];
        if total <= 0 || !f.can_react() {
            return total;
        }
        let c = &self.spec(f.spec).class_features;
        let ranged_weapon = attack.reach == Reach::Ranged && !attack.spell;
        let left = match c.deflect_missiles {
            Some(dice) if ranged_weapon => (total - dice.sample(rng) as i32).max(0),
            _ if c.uncanny_dodge && f.effects & effect::BLINDED == 0 => total / 2,
            _ => return total,
        };
        arena.fighters[target].reaction = false;
        left
    }

    /// Stunning Strike after a melee weapon hit of `me` on `target`: 1 ki,
    /// a Constitution save or stunned until the end of `me`'s next turn.
    #[inline(never)]
    pub(super) fn stunning_strike<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        target: usize,
    ) {
        let stunned = Condition::Stunned.bits();
        let (f, t) = (&arena.fighters[me], &arena.fighters[target]);
        if f.feats.struck
            || f.feats.ki == 0
            || t.state != State::Up
            || t.spells.conditions & stunned == stunned
            || self.spec(t.spec).immune_to(Condition::Stunned)
        {
            return;
        }
        let dc = self.spec(f.spec).class_features.stun_dc;
        let f = &mut arena.fighters[me];
        f.feats.ki -= 1;
        f.feats.struck = true;
        if !self.save_against_condition(rng, arena, target, Ability::Con, dc, false) {
            let stun = Affliction {
                bits: stunned,
                source: me as u16,
                ability: Ability::Con,
                dc: dc.clamp(0, 127) as i8,
                ..Affliction::NONE
            };
            // The end of this turn of the monk's, then of its next.
            arena.fighters[target]
                .spells
                .afflict_until_source_turn(stun, 2);
        }
    }

    /// The end of the turn of `me`, a creature with Stunning Strike: its
    /// strike of the turn is spent, and the stuns it imposed count down.
    #[inline(never)]
    pub(super) fn features_at_turn_end(&self, arena: &mut Arena, me: usize) {
        arena.fighters[me].feats.struck = false;
        let source = me as u16;
        for t in arena.fighters.iter_mut() {
            if t.spells.conditions != 0 {
                t.spells.source_turn_ended(source);
            }
        }
    }

    /// The end of a round: the stuns of a creature that left the fight
    /// (dead or fled) end, since it takes no more turns.
    #[inline(never)]
    pub(super) fn features_at_round_end(&self, arena: &mut Arena) {
        for k in 0..arena.fighters.len() {
            if !matches!(arena.fighters[k].state, State::Dead | State::Fled) {
                continue;
            }
            let source = k as u16;
            for t in arena.fighters.iter_mut() {
                if t.spells.conditions != 0 {
                    t.spells.source_left(source);
                }
            }
        }
    }

    /// Bardic Inspiration: with a use, its bonus action free and an enemy
    /// standing, a die to the conscious ally of the highest threat that
    /// holds none.
    #[inline(never)]
    pub(super) fn bardic_inspiration(&self, arena: &mut Arena, me: usize) {
        let f = &arena.fighters[me];
        if f.feats.inspirations == 0
            || f.spells.bonus_spent
            || f.state != State::Up
            || f.effects & effect::ACTION_OR_BONUS != 0
            || self.enemies_up(arena, me) == 0
        {
            return;
        }
        let die = self.spec(f.spec).class_features.inspiration_die;
        let allies = self.side(f.party, arena.fighters.len());
        let threat = |i: usize| {
            self.threat
                .get(arena.fighters[i].spec)
                .copied()
                .unwrap_or(0.0)
        };
        let pick = allies
            .filter(|&i| {
                let a = &arena.fighters[i];
                i != me && a.state == State::Up && a.feats.inspired == 0
            })
            .max_by(|&a, &b| threat(a).total_cmp(&threat(b)).then(b.cmp(&a)));
        let Some(t) = pick else {
            return;
        };
        arena.fighters[t].feats.inspired = die;
        let f = &mut arena.fighters[me];
        f.feats.inspirations -= 1;
        f.spells.bonus_spent = true;
    }

    /// The Bardic Inspiration die `me` adds to this attack roll (it holds
    /// one: `sides`).
    #[inline(never)]
    pub(super) fn inspiration_roll<R: Rng + ?Sized>(rng: &mut R, sides: u8) -> i32 {
        roll_die(rng, u32::from(sides)) as i32
    }

    /// Preserve Life, if the policy uses it now: says whether it did (its
    /// action is spent).
    #[inline(never)]
    pub(super) fn preserve_life(&self, arena: &mut Arena, me: usize) -> bool {
        let f = &arena.fighters[me];
        let when = self.rules.heal_when;
        if f.feats.preserves == 0 || when == HealWhen::Never {
            return false;
        }
        let spec = self.spec(f.spec);
        let (x, positions) = (f.x, self.rules.positions.is_some());
        let allies = self.side(f.party, arena.fighters.len());
        let within = |t: &Fighter| !positions || (t.x - x).abs() <= 30;
        // The HP it may restore to an ally: up to half its maximum.
        let room = |t: &Fighter| match t.state {
            State::Up | State::Dying | State::Stable if within(t) => (t.max_hp / 2 - t.hp).max(0),
            _ => 0,
        };
        let mut below = 0;
        let mut dying = false;
        let mut restorable = 0;
        for t in &arena.fighters[allies.clone()] {
            let r = room(t);
            below += usize::from(r > 0);
            dying |= t.state == State::Dying && r > 0;
            restorable += r;
        }
        let pool = spec.class_features.preserve_life_hp;
        if !(dying || below >= 2) || restorable.min(pool) < 2 * i32::from(spec.level) {
            return false;
        }
        arena.fighters[me].feats.preserves -= 1;
        let mut left = pool;
        while left > 0 {
            // The dying first, then the lowest share of its maximum.
            let next = allies
                .clone()
                .filter(|&i| room(&arena.fighters[i]) > 0)
                .min_by_key(|&i| {
                    let t = &arena.fighters[i];
                    (t.state != State::Dying, t.hp * 1000 / t.max_hp.max(1), i)
                });
            let Some(t) = next else {
                break;
            };
            let amount = room(&arena.fighters[t]).min(left);
            left -= amount;
            self.heal(arena, t, amount, false, false);
        }
        true
    }
}

/// Brutal Critical: the extra weapon dice of a melee critical hit of
/// `spec` with `attack` (0 without the feature or for a ranged or spell
/// attack).
#[inline(never)]
pub(super) fn brutal_critical<R: Rng + ?Sized>(
    rng: &mut R,
    spec: &CreatureSpec,
    attack: &Attack,
) -> i32 {
    let n = spec.class_features.brutal_critical;
    if n == 0 || attack.reach != Reach::Melee || attack.spell {
        return 0;
    }
    DiceExpr {
        count: u32::from(n),
        sides: attack.damage.sides,
        modifier: 0,
    }
    .sample(rng) as i32
}
