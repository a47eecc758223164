//! Monster traits that change a fight, from the statblock's data (SRD 5.2;
//! docs/combat.md, "Monster traits"): Pack Tactics, Parry, damage auras
//! and War Cry here; Magic Resistance is [`Encounter::magic_save`] (advantage on
//! saves against spells and Turn Undead).

use rand::Rng;

use super::damage::Blow;
use super::fighter::State;
use super::positions::REACH;
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{DamageAura, WarCry};
use crate::combat::spell::bits;
use crate::rules::damage::DamageTypes;

impl Encounter {
    /// War Cry, early in `me`'s turn (a bonus action): a d6 of at least its
    /// recharge makes it ready again; ready, and the fight not over, it
    /// cries (ours: for itself, the statblock's "the giant or one creature
    /// of its choice"): temporary hit points (the higher of these and what
    /// it has) and advantage on its attack rolls until the start of its
    /// next turn.
    pub(super) fn war_cry<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        cry: WarCry,
        fight_over: bool,
    ) {
        let f = &mut arena.fighters[me];
        if !f.war_cry_ready && crate::dice::roll_die(rng, 6) >= u32::from(cry.recharge) {
            f.war_cry_ready = true;
        }
        if !f.war_cry_ready || fight_over || f.spells.bonus_spent {
            return;
        }
        f.war_cry_ready = false;
        f.spells.bonus_spent = true;
        f.temp_hp = f.temp_hp.max(cry.temp_hp.sample(rng) as i32);
        f.cried = true;
    }

    /// Parry (a reaction): when a melee attack roll of `total` hits
    /// `defender` and its parry's armour class would turn it into a miss,
    /// it spends its reaction to do so (conscious, not incapacitated, its
    /// reaction unused since its turn). Says whether it did.
    pub(super) fn parry(&self, arena: &mut Arena, defender: usize, total: i32) -> bool {
        let f = &arena.fighters[defender];
        let bonus = i32::from(self.spec(f.spec).parry);
        if !f.can_react() || total >= self.defended_ac(f) + bonus {
            return false;
        }
        arena.fighters[defender].reaction = false;
        true
    }

    /// A damage aura at the end of `me`'s turn: its dice, rolled once, to
    /// as many of its conscious enemies as the emanation holds, picked at
    /// random (the creatures "of its choice": every enemy it can reach);
    /// none while `me` is down, or incapacitated when the aura says so.
    pub(super) fn damage_aura<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        aura: DamageAura,
        out: &mut TrialOutcome,
    ) {
        let f = &arena.fighters[me];
        if f.state != State::Up || (aura.unless_incapacitated && !f.can_act()) {
            return;
        }
        self.collect_targets(arena, me);
        let fighters = &arena.fighters;
        arena
            .scratch
            .retain(|&i| fighters[i].spells.conditions & bits::BANISHED == 0);
        let n = usize::from(aura.targets).min(arena.scratch.len());
        if n == 0 {
            return;
        }
        crate::dice::choose_front(rng, &mut arena.scratch, n);
        let rolled = aura.dice.sample(rng) as i32;
        for j in 0..n {
            let t = arena.scratch[j];
            let amount = self.after_defenses(arena, t, aura.kind, rolled);
            self.deal_total(
                rng,
                arena,
                t,
                Blow {
                    amount,
                    types: DamageTypes::of([aura.kind]),
                    crit: false,
                },
                out,
            );
        }
    }

    /// Pack Tactics: whether one of `me`'s allies, conscious and not
    /// incapacitated, is within 5 feet of `target`. With positions, by
    /// place; without them, an ally whose Attack action is a melee attack
    /// (no map says who stands where: ours, as for melee reach, a melee
    /// attacker is taken to reach its target, so to stand by it), never
    /// one that shoots or casts from afar.
    pub(super) fn pack_ally_near<const POSITIONS: bool>(
        &self,
        arena: &Arena,
        me: usize,
        target: usize,
    ) -> bool {
        let at = arena.fighters[target].x;
        self.side(arena.fighters[me].party, arena.fighters.len())
            .filter(|&i| i != me)
            .any(|i| {
                let f = &arena.fighters[i];
                f.can_act()
                    && if POSITIONS {
                        (f.x - at).abs() <= REACH
                    } else {
                        self.spec(f.spec).fights_in_melee()
                    }
            })
    }
}
