//! Clause tests of the round loop, one file per job of the loop (attack,
//! damage, dying, support, targeting, round, setup, injuries), each rule
//! checked on the exact roll that triggers it: a [`Table`] drives the
//! encounter on scripted dice, and every scripted die must be used.

mod attack;
mod casting;
mod damage;
mod dying;
mod features;
mod grapple;
mod immunity;
mod injuries;
mod legendary;
mod limbs;
mod party_state;
mod positions;
mod round;
mod setup;
mod spells;
mod support;
mod targeting;
mod traits;
mod venom;

use std::collections::VecDeque;
use std::convert::Infallible;

use super::damage::Blow;
use super::fighter::{Fighter, State};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Attack, CreatureSpec, Reach};
use crate::combat::policy::EncounterRules;
use crate::rules::damage::{DamageType, DamageTypes};
use crate::rules::death_saves::Tally;

/// A generator that yields scripted die results: each entry is
/// `(value, sides)` for one `uniform_below`/`roll_die` call.
pub(super) struct Script(VecDeque<u64>);

fn script(dice: &[(u64, u64)]) -> Script {
    Script(
        dice.iter()
            .map(|&(value, sides)| {
                // The middle of the interval that Lemire's method maps to `value - 1`.
                let width = (1u128 << 64) / u128::from(sides);
                (u128::from(value - 1) * (1u128 << 64) / u128::from(sides) + width / 2) as u64
            })
            .collect(),
    )
}

impl rand::TryRng for Script {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.pop_front().expect("the script ran out of dice"))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        dst.fill(0);
        Ok(())
    }
}

/// A generator with no dice at all: for steps that must roll none.
fn no_dice() -> Script {
    script(&[])
}

/// Runs `f` on the scripted `dice`; every die must be used.
fn with_dice<T>(dice: &[(u64, u64)], f: impl FnOnce(&mut Script) -> T) -> T {
    let mut rng = script(dice);
    let result = f(&mut rng);
    assert!(
        rng.0.is_empty(),
        "{} scripted dice were not used",
        rng.0.len()
    );
    result
}

/// A level-1 fighter (12 HP, AC 18, longsword +5, Second Wind).
fn fighter() -> CreatureSpec {
    template("fighter-1")
}

/// A PC template of the shipped data.
fn template(name: &str) -> CreatureSpec {
    crate::fixtures::catalog().templates.template(name).unwrap()
}

/// A monster of the shipped bestiary.
fn monster(name: &str) -> CreatureSpec {
    crate::fixtures::catalog()
        .bestiary
        .lookup(name)
        .unwrap()
        .clone()
}

/// A goblin (7 HP, AC 15, scimitar +4 1d6+2, shortbow +4 1d6+2).
fn goblin() -> CreatureSpec {
    monster("goblin")
}

/// A blow of `amount` slashing damage.
fn slashing(amount: i32, crit: bool) -> Blow {
    Blow {
        amount,
        types: DamageTypes::of([DamageType::Slashing]),
        crit,
    }
}

/// An encounter under test with every creature up at full HP, its arena
/// and the trial's outcome so far; the party are fighters `0..`, then the
/// monsters.
struct Table {
    enc: Encounter,
    arena: Arena,
    out: TrialOutcome,
}

impl Table {
    fn new(party: Vec<CreatureSpec>, monsters: Vec<CreatureSpec>, rules: EncounterRules) -> Self {
        let enc = Encounter::new(
            party,
            monsters,
            rules,
            crate::fixtures::catalog().wound_examples.clone(),
        );
        let mut arena = Arena::default();
        arena.fighters.extend_from_slice(&enc.initial);
        // A one-fight day: every slot is the fight's to spend.
        for f in arena.fighters.iter_mut() {
            f.begin_fight_spells(1);
        }
        Table {
            enc,
            arena,
            out: TrialOutcome::default(),
        }
    }

    /// One fighter against one goblin.
    fn duel(rules: EncounterRules) -> Self {
        Table::new(vec![fighter()], vec![goblin()], rules)
    }

    /// Creature `who`'s state.
    fn f(&self, who: usize) -> &Fighter {
        &self.arena.fighters[who]
    }

    /// Creature `who`'s state, to set up a situation.
    fn f_mut(&mut self, who: usize) -> &mut Fighter {
        &mut self.arena.fighters[who]
    }

    /// Creature `who`'s state and hit points.
    fn state(&self, who: usize) -> (State, i32) {
        (self.f(who).state, self.f(who).hp)
    }

    /// Puts creature `who` at 0 HP, dying, with this tally.
    fn dying(&mut self, who: usize, successes: u8, failures: u8) {
        let f = self.f_mut(who);
        f.hp = 0;
        f.state = State::Dying;
        f.tally = Tally {
            successes,
            failures,
        };
    }

    /// `attacker` makes `attack` against `target`.
    fn attack_with(
        &mut self,
        attacker: usize,
        target: usize,
        attack: &Attack,
        dice: &[(u64, u64)],
    ) {
        let Table { enc, arena, out } = self;
        with_dice(dice, |rng| {
            if enc.rules.positions.is_some() {
                enc.attack::<true, _>(rng, arena, attacker, target, attack, out)
            } else {
                enc.attack::<false, _>(rng, arena, attacker, target, attack, out)
            }
        });
    }

    /// `attacker` makes its first attack against `target`.
    fn attack(&mut self, attacker: usize, target: usize, dice: &[(u64, u64)]) {
        let attack = self.enc.all[attacker].attacks[0].clone();
        self.attack_with(attacker, target, &attack, dice);
    }

    /// One blow to `target`.
    fn deal(&mut self, target: usize, blow: Blow, dice: &[(u64, u64)]) {
        let Table { enc, arena, out } = self;
        with_dice(dice, |rng| enc.deal_total(rng, arena, target, blow, out));
    }

    /// Creature `me`'s turn.
    fn turn(&mut self, me: usize, fight_over: bool, dice: &[(u64, u64)]) {
        let Table { enc, arena, out } = self;
        with_dice(dice, |rng| enc.take_turn(rng, arena, me, fight_over, out));
    }

    /// Creature `me`'s support actions; whether its action is spent.
    fn support(&mut self, me: usize, fight_over: bool, action: bool, dice: &[(u64, u64)]) -> bool {
        let Table { enc, arena, .. } = self;
        with_dice(dice, |rng| enc.support(rng, arena, me, fight_over, action))
    }

    /// `amount` HP of healing to `who`.
    fn heal(&mut self, who: usize, amount: i32, magical: bool) {
        self.enc.heal(&mut self.arena, who, amount, magical, false);
    }

    /// The enemy `me` attacks with an attack of `reach`.
    fn target(&self, me: usize, reach: Reach, dice: &[(u64, u64)]) -> Option<usize> {
        with_dice(dice, |rng| {
            if self.enc.rules.positions.is_some() {
                self.enc
                    .choose_target::<true, _>(rng, &self.arena, me, reach)
            } else {
                self.enc
                    .choose_target::<false, _>(rng, &self.arena, me, reach)
            }
        })
    }

    /// One whole fight: (party won, rounds, timed out).
    fn fight(&mut self, dice: &[(u64, u64)]) -> (bool, u32, bool) {
        let Table { enc, arena, out } = self;
        with_dice(dice, |rng| enc.fight(rng, arena, out))
    }
}
