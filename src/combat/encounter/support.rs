//! Support actions (SRD 5.1): healing features and spells on the ally most
//! in need (when [`HealWhen`] says), potions of healing poured into a dying
//! ally, and stabilising a dying ally with a DC 10 Wisdom (Medicine) check
//! (when [`Stabilize`] says); healing at 0 HP wakes a PC and resets its
//! tally, and magical healing cures what any magical healing cures.

use rand::Rng;

use super::fighter::{Fighter, State, effect};
use super::{Arena, Encounter};
use crate::combat::creature::HealTarget;
use crate::combat::policy::{HealWhen, Stabilize};
use crate::dice::{DiceExpr, roll_die};
use crate::rules::death_saves::Tally;

/// A potion of healing: 2d4 + 2.
const POTION: DiceExpr = DiceExpr {
    count: 2,
    sides: 4,
    modifier: 2,
};

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
        f.heal_uses > 0 || f.potions > 0 || (f.party && self.stabilizes(fight_over))
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
        // The ally most in need: dying first, then the lowest HP share (the
        // first in list order on a tie).
        let patient = |arena: &Arena, self_only: bool| -> Option<usize> {
            if self_only {
                return needs(&arena.fighters[me], when).then_some(me);
            }
            let mut best: Option<((bool, i32), usize)> = None;
            for (k, f) in arena.fighters[allies.clone()].iter().enumerate() {
                if needs(f, when) {
                    let key = (f.state != State::Dying, f.hp * 1000 / f.max_hp.max(1));
                    if best.is_none_or(|(b, _)| key < b) {
                        best = Some((key, k));
                    }
                }
            }
            best.map(|(_, k)| allies.start + k)
        };
        if let Some(heal) = spec.heal {
            if arena.fighters[me].heal_uses > 0 && (heal.bonus_action || action) {
                if let Some(t) = patient(arena, heal.target == HealTarget::SelfOnly) {
                    arena.fighters[me].heal_uses -= 1;
                    if !(heal.spell && self.spell_fails(rng, arena, me)) {
                        let amount = heal.dice.sample(rng) as i32;
                        self.heal(arena, t, amount, heal.spell);
                    }
                    // A punctured lung allows an action or a bonus action, not both.
                    let lung = arena.fighters[me].effects & effect::ACTION_OR_BONUS != 0;
                    if !heal.bonus_action || lung {
                        return true;
                    }
                }
            }
        }
        if !action {
            return true;
        }
        // A potion (2d4 + 2) poured into a dying ally, as an action.
        if arena.fighters[me].potions > 0 && when != HealWhen::Never {
            if let Some(k) = arena.fighters[allies.clone()]
                .iter()
                .position(|f| f.state == State::Dying)
            {
                let t = allies.start + k;
                arena.fighters[me].potions -= 1;
                let amount = POTION.sample(rng) as i32;
                self.heal(arena, t, amount, true);
                return true;
            }
        }
        if stabilize && party {
            if let Some(k) = arena.fighters[allies.clone()]
                .iter()
                .position(|f| f.state == State::Dying)
            {
                let t = allies.start + k;
                if i32::from(roll_die(rng, 20) as u8) + spec.medicine >= 10 {
                    arena.fighters[t].become_stable();
                }
                return true;
            }
        }
        false
    }

    /// Restores HP; `magical` healing (a spell or a potion) also cures the
    /// lingering injuries that any magical healing cures.
    pub(super) fn heal(&self, arena: &mut Arena, target: usize, amount: i32, magical: bool) {
        if magical {
            self.cure_by_magical_healing(arena, target);
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
