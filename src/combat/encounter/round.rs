//! The trial and the round loop: a chain of fights; in each, initiative
//! (d20 + modifier, ties to the higher modifier, then to the PCs), turns in
//! order, and the end of a fight (decided at the end of the first round in
//! which one side has no one standing; [`WhenPartyFalls`] says what the
//! monsters do once no PC stands); a turn's order of business.

use rand::Rng;

use super::fighter::{Fighter, State};
use super::positions::Movement;
use super::spell_state::{Affliction, NO_SOURCE};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{Attack, Reach};
use crate::combat::effect;
use crate::combat::policy::WhenPartyFalls;
use crate::combat::spell::bits;
use crate::dice::{RollMode, roll_die};

/// Who is still in the fight, counted in one pass at the end of a round.
struct SideTally {
    party_up: bool,
    /// Some PC is at 0 HP and alive (dying or stable).
    party_downed: bool,
    dying: bool,
    monsters_up: usize,
    monsters_down: usize,
    /// Monsters out of the fight by *banishment* (not dead, not fled).
    monsters_banished: usize,
}

impl SideTally {
    fn of(fighters: &[Fighter]) -> Self {
        // How many of each side are in each state: one counter bumped per
        // creature, no branch on the states (the fight's coin flips).
        let mut counts = [[0u32; State::COUNT]; 2];
        let mut monsters_banished = 0;
        for f in fighters {
            // A banished creature is out of the fight while it lasts.
            let banished = f.spells.conditions & bits::BANISHED != 0;
            monsters_banished += usize::from(banished && !f.party);
            let state = if banished { State::Fled } else { f.state };
            counts[usize::from(f.party)][state as usize] += 1;
        }
        let [monsters, party] = counts;
        let count = |side: &[u32; State::COUNT], state: State| side[state as usize];
        SideTally {
            party_up: count(&party, State::Up) > 0,
            party_downed: count(&party, State::Dying) + count(&party, State::Stable) > 0,
            dying: count(&party, State::Dying) + count(&monsters, State::Dying) > 0,
            monsters_up: count(&monsters, State::Up) as usize,
            monsters_down: count(&monsters, State::Down) as usize,
            monsters_banished,
        }
    }
}

/// (some PC is up, monsters up) as the end of a round counts them.
#[cfg(test)]
pub(super) fn tally_for_tests(fighters: &[Fighter]) -> (bool, usize) {
    let t = SideTally::of(fighters);
    (t.party_up, t.monsters_up)
}

impl Encounter {
    /// Runs one trial: the whole chain of encounters.
    pub fn run<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena) -> TrialOutcome {
        arena.fighters.clear();
        arena
            .fighters
            .extend_from_slice(&self.initial[..self.fielded]);
        self.chain(rng, arena)
    }

    /// The chain of encounters from the fighters in `arena` (the party
    /// first, in order, then this encounter's monsters).
    pub(super) fn chain<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena) -> TrialOutcome {
        let mut out = TrialOutcome {
            party_win: true,
            ..Default::default()
        };
        for fight in 0..self.rules.encounters {
            if fight > 0 {
                self.between_fights(rng, arena);
                if !arena
                    .fighters
                    .iter()
                    .any(|f| f.party && f.state == State::Up)
                {
                    out.party_win = false;
                    break;
                }
            }
            let ahead = self.rules.encounters - fight + arena.later_fights;
            let (won, rounds, timed_out) = self.fight_of(rng, arena, &mut out, ahead);
            self.end_wild_shapes(arena);
            out.fights += 1;
            out.fights_won += u32::from(won);
            out.rounds += rounds;
            out.timed_out |= timed_out;
            if !won {
                out.party_win = false;
                break;
            }
        }
        for (i, f) in arena.fighters.iter().filter(|f| f.party).enumerate() {
            out.pc_dead[i] = f.state == State::Dead;
            out.pc_down[i] = f.went_down;
            out.pc_crits_taken[i] = f.crits_taken;
            out.pc_hp_lost[i] = f.hp_lost;
            out.pc_slot_levels_spent[i] = self.slot_levels_spent(f);
        }
        out
    }

    /// The spell-slot levels `f` has spent: each slot below its full count
    /// weighs its level.
    pub(super) fn slot_levels_spent(&self, f: &Fighter) -> u16 {
        let full = self.spec(f.spec).spell_slots();
        (0..9)
            .map(|k| u16::from(full[k].saturating_sub(f.slots[k])) * (k as u16 + 1))
            .sum()
    }

    /// One fight. Returns (party won, rounds until decided, hit the cap).
    /// Kept out of line: the round loop is compiled as one unit, whatever
    /// calls it (a chain, a campaign's day).
    #[cfg(test)]
    pub(super) fn fight<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        out: &mut TrialOutcome,
    ) -> (bool, u32, bool) {
        self.fight_of(rng, arena, out, 1)
    }

    /// [`Encounter::fight`] with `ahead` fights before the next long rest,
    /// this one included (the casters' slot budget).
    #[inline(never)]
    pub(super) fn fight_of<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        out: &mut TrialOutcome,
        ahead: u32,
    ) -> (bool, u32, bool) {
        let monsters_total = self.monsters.len().max(1) as f64;
        for f in arena.fighters.iter_mut() {
            f.initiative = self.roll_initiative(rng, f);
            f.raging = false;
            f.hampered = crate::combat::creature::Hampered::NONE;
            // Spells of an earlier fight are over; a caster's slot levels
            // are shared over the fights ahead (rounded up).
            f.begin_fight_spells(ahead);
        }
        if let Some(p) = &self.rules.positions {
            self.place(arena, p);
        }
        if self.casters {
            self.cast_aid(rng, arena);
        }
        self.fiendish_vigor(rng, arena);
        self.initiative_order(arena);
        let mut decided_at = None;
        // Whether the party had won when the fight was first over, before
        // any venom spread after it (our extension).
        let mut won_before_venom: Option<bool> = None;
        let mut round = 0;
        loop {
            round += 1;
            arena.round = round;
            if round > self.rules.round_cap {
                let rounds = decided_at.unwrap_or(self.rules.round_cap);
                return (
                    decided_at.is_some() && self.monsters_beaten(arena),
                    rounds,
                    decided_at.is_none(),
                );
            }
            for k in 0..arena.order.len() {
                let me = arena.order[k];
                arena.acting = me + 1;
                self.take_turn(rng, arena, me, decided_at.is_some(), out);
                arena.acting = 0;
                if self.spellcasting
                    && (arena.fighters[me].spells.conditions != 0
                        || arena.fighters[me].spells.zone.source != NO_SOURCE)
                {
                    self.spells_at_turn_end(rng, arena, me, out);
                }
                // Stunning Strike's stuns and a hit's poison end with
                // their source's next turn.
                if self.stunners && {
                    let spec = self.spec(arena.fighters[me].spec);
                    spec.class_features.ki != 0 || spec.poisons_on_hit()
                } {
                    self.features_at_turn_end(arena, me);
                }
                // A failed save's effects "until the end of its next turn".
                if self.hampering && arena.fighters[me].hampered.any() {
                    Self::hampered_turn_end(arena, me);
                }
                // A damage aura burns at the end of its creature's turn.
                if self.damage_auras && decided_at.is_none() {
                    if let Some(aura) = self.spec(arena.fighters[me].spec).damage_aura {
                        self.damage_aura(rng, arena, me, aura, out);
                    }
                }
                // Legendary actions: immediately after another creature's turn.
                if self.legendary && decided_at.is_none() {
                    self.legendary_actions_after(rng, arena, me, out);
                }
            }
            // The dead and the fled take no more turns in this fight
            // (compacted without branches: who died is unpredictable).
            let mut kept = 0;
            for k in 0..arena.order.len() {
                let i = arena.order[k];
                arena.order[kept] = i;
                let gone = matches!(arena.fighters[i].state, State::Dead | State::Fled);
                kept += usize::from(!gone);
                // When it died, for revivify (the dead leave the order once).
                if gone && arena.fighters[i].died_round == 0 {
                    arena.fighters[i].died_round = round;
                }
            }
            arena.order.truncate(kept);
            if self.stunners {
                self.features_at_round_end(arena);
            }
            let mut tally = SideTally::of(&arena.fighters);
            // Morale: the rest flee when too few are left standing.
            if self.rules.monsters_flee_below > 0.0
                && tally.monsters_up > 0
                && (tally.monsters_up as f64) < self.rules.monsters_flee_below * monsters_total
            {
                for f in arena
                    .fighters
                    .iter_mut()
                    .filter(|f| !f.party && f.state == State::Up)
                {
                    f.state = State::Fled;
                }
                tally.monsters_up = 0;
            }
            // Banishment's minute: with only banished monsters left, the
            // spell runs its course and the fight goes on with those that
            // come back.
            if decided_at.is_none()
                && tally.party_up
                && tally.monsters_up + tally.monsters_down == 0
                && tally.monsters_banished > 0
            {
                if self.banishment_runs_its_course(arena) {
                    continue;
                }
                tally = SideTally::of(&arena.fighters);
            }
            let party_up = tally.party_up;
            let monsters_active = tally.monsters_up + tally.monsters_down > 0;
            let dying = tally.dying;
            // With no PC standing the fight is over, unless the monsters
            // stay to finish the downed: then it goes on while a PC is
            // alive at 0 HP, and one back on its feet fights again.
            let monsters_stay = self.rules.when_party_falls == WhenPartyFalls::FinishTheDowned
                && monsters_active
                && tally.party_downed;
            let party_fell = !party_up && !monsters_stay;
            if decided_at.is_none() && (party_fell || !monsters_active) {
                decided_at = Some(round);
            }
            if decided_at.is_some() && !dying {
                let won = *won_before_venom.get_or_insert(party_up && !monsters_active);
                // Spreading venom (our extension): the party races the
                // clocks left; a creature the venom drops is resolved by
                // the loop's death saves before the fight is over.
                if self.rules.venom.is_some() && self.after_fight_venom(rng, arena, out) {
                    continue;
                }
                return (won, decided_at.unwrap_or(round), false);
            }
        }
    }

    /// Initiative of `f`: a Dexterity check, a d20 plus its modifier, with
    /// disadvantage on Dexterity checks (the permanent wound *lost leg*).
    pub(super) fn roll_initiative<R: Rng + ?Sized>(&self, rng: &mut R, f: &Fighter) -> i32 {
        let mode = RollMode::with(false, f.effects & effect::DIS_DEX_CHECKS != 0);
        i32::from(mode.roll(rng)) + self.spec(f.spec).initiative
    }

    /// Sorts `arena.order` by initiative: the higher total first, then the
    /// higher modifier, then PCs, then list order.
    pub(super) fn initiative_order(&self, arena: &mut Arena) {
        // One integer per creature, the smaller acting first: the order key
        // negated. With d20 + modifier in -9..=40 and the modifier in
        // -10..=20 the key is in -1172..=5161, so 16384 - key is positive
        // and fits 15 bits.
        arena.keys.clear();
        for f in &arena.fighters {
            let key = (f.initiative * 64 + self.spec(f.spec).initiative) * 2 + i32::from(f.party);
            arena.keys.push(16384 - key);
        }
        let n = arena.keys.len();
        arena.order.clear();
        arena.order.resize(n, 0);
        if n <= 16 {
            // A small field: the index as the low 4 bits makes the keys
            // distinct; each creature goes to its rank, counted without
            // branches (sorting a few random keys mispredicts at every step).
            let mut packed = [0i32; 16];
            for (i, &k) in arena.keys.iter().enumerate() {
                packed[i] = k << 4 | i as i32;
            }
            let packed = &packed[..n];
            for (i, &k) in packed.iter().enumerate() {
                let rank = packed.iter().filter(|&&other| other < k).count();
                arena.order[rank] = i;
            }
        } else {
            for (i, slot) in arena.order.iter_mut().enumerate() {
                *slot = i;
            }
            let keys = &arena.keys;
            arena.order.sort_by_key(|&i| keys[i]);
        }
    }

    /// SRD 5.2 *Banishment*, once no other monster fights on: its casters
    /// hold their concentration for the full minute (nothing threatens
    /// them), so a banished Aberration, Celestial, Elemental, Fey or Fiend
    /// stays in its home plane (it counts as fled) and any other creature
    /// returns to the fight when the spell ends. The minute passes without
    /// anything else happening (docs/spells.md, "Conditions"). Whether a
    /// creature came back.
    pub(super) fn banishment_runs_its_course(&self, arena: &mut Arena) -> bool {
        let mut returned = false;
        for t in 0..arena.fighters.len() {
            let f = &arena.fighters[t];
            if f.party || f.spells.conditions & bits::BANISHED == 0 {
                continue;
            }
            if self.spec(f.spec).extraplanar {
                arena.fighters[t].state = State::Fled;
                continue;
            }
            let casters: Vec<u16> = f
                .spells
                .afflictions
                .iter()
                .filter(|a| a.bits & bits::BANISHED != 0)
                .map(|a| a.source)
                .collect();
            for source in casters.into_iter().filter(|&s| s != NO_SOURCE) {
                self.end_concentration(arena, usize::from(source));
            }
            // One that no concentration held ends with its minute too.
            let s = &mut arena.fighters[t].spells;
            if s.conditions & bits::BANISHED != 0 {
                for a in s.afflictions.iter_mut() {
                    if a.bits & bits::BANISHED != 0 {
                        *a = Affliction::NONE;
                    }
                }
                s.recompute_conditions();
            }
            returned = true;
        }
        returned
    }

    pub(super) fn monsters_beaten(&self, arena: &Arena) -> bool {
        !arena
            .fighters
            .iter()
            .any(|f| !f.party && matches!(f.state, State::Up | State::Down))
    }

    #[inline(always)]
    pub(super) fn take_turn<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        fight_over: bool,
        out: &mut TrialOutcome,
    ) {
        let spec = self.spec(arena.fighters[me].spec);
        arena.fighters[me].once_used = false;
        // War Cry's advantage lasts until the start of its next turn.
        arena.fighters[me].cried = false;
        if self.legendary {
            self.regain_legendary(arena, me);
        }
        // A reaction comes back at the start of its turn (positions).
        arena.fighters[me].reaction = true;
        // A spreading venom whose clock has run out (our extension).
        if self.rules.venom.is_some() {
            self.venom_at_turn_start(rng, arena, me, out);
            if arena.fighters[me].state == State::Dead {
                return;
            }
        }
        if arena.fighters[me].state == State::Up {
            let f = &mut arena.fighters[me];
            if let Some(regen) = spec.regeneration {
                if !f.regen_blocked {
                    f.hp = (f.hp + regen.hp).min(f.max_hp);
                }
                f.regen_blocked = false;
            }
        } else if !self.turn_at_zero_hp(rng, arena, me, out) {
            return;
        }
        // Spells: shield down, a prone creature up, a zone's damage; an
        // incapacitated creature does nothing more (its repeat saves come
        // at the end of its turn, in the round loop).
        if self.spellcasting {
            // Most turns start with nothing of a spell's to do but lower
            // *shield* and free the turn's slot: done here, without the call.
            let s = &mut arena.fighters[me].spells;
            if s.timed_until == 0
                && s.conditions & bits::PRONE == 0
                && s.zone.source == super::spell_state::NO_SOURCE
                && s.concentrating == 0
            {
                s.shield_up = false;
                s.slot_this_turn = false;
            } else {
                self.spells_at_turn_start(rng, arena, me, out);
            }
            if !arena.fighters[me].can_act() {
                return;
            }
        }
        // Start-of-turn bonus actions: rage, breath recharge.
        {
            let f = &mut arena.fighters[me];
            if spec.rage.is_some() && !f.raging && f.rage_uses > 0 && !fight_over {
                f.raging = true;
                f.rage_uses -= 1;
            }
            if let Some(breath) = spec.breath {
                if !f.breath_ready && roll_die(rng, 6) >= u32::from(breath.recharge) {
                    f.breath_ready = true;
                }
            }
        }
        // Skull fracture and the like: the action may be lost (bonus actions stay).
        let action = !self.loses_action(rng, arena, me);
        arena.fighters[me].spells.bonus_spent = false;
        if let Some(cry) = spec.war_cry {
            self.war_cry(rng, arena, me, cry, fight_over);
        }
        let action_used = self.can_support(&arena.fighters[me], fight_over)
            && self.support(rng, arena, me, fight_over, action);
        // Bardic Inspiration: a bonus action the healing left free.
        if arena.fighters[me].feats.inspirations != 0 && !fight_over {
            self.bardic_inspiration(arena, me);
        }
        if action_used || fight_over || !action {
            return;
        }
        // Restrained by a grapple: the action goes on escaping it.
        if self.grapplers
            && arena.fighters[me].spells.conditions & bits::GRAPPLED != 0
            && self.escape_grapple(rng, arena, me)
        {
            return;
        }
        // A breath weapon ready goes first (a monster's best action); the
        // bonus action may still cast.
        let breath_first = spec.breath.is_some()
            && arena.fighters[me].breath_ready
            && self.enemies_up(arena, me) > 0;
        // Attack, control and buff spells, by the casting policy.
        if arena.fighters[me].spell_caster {
            let lung = arena.fighters[me].effects & effect::ACTION_OR_BONUS != 0;
            let bonus = !arena.fighters[me].spells.bonus_spent;
            let cast = self.cast_spells(rng, arena, me, !breath_first, bonus, out);
            if cast.action || (lung && cast.bonus) {
                return;
            }
        }
        // Wild Shape with the action the casting policy left free.
        if self.wants_wild_shape(arena, me) {
            self.take_wild_shape(arena, me);
            return;
        }
        if let Some(breath) = spec.breath {
            if arena.fighters[me].breath_ready && self.enemies_up(arena, me) > 0 {
                self.breathe(rng, arena, me, breath, out);
                return;
            }
        }
        // A spell of its Spellcasting in place of one attack.
        if arena.fighters[me].spell_for_attack {
            self.spell_for_an_attack(rng, arena, me, out);
        }
        // The positions code is compiled out of the loop without them.
        if self.rules.positions.is_some() {
            self.multiattack::<true, R>(rng, arena, me, out);
        } else {
            self.multiattack::<false, R>(rng, arena, me, out);
        }
        // Action Surge: the Attack action again in the first round.
        if spec.class_features.action_surge != 0 {
            self.action_surge(rng, arena, me, out);
        }
    }

    /// The attacks of `me`'s Attack action (its multiattack), each at the
    /// target the policy picks; with `POSITIONS`, moving into reach first
    /// (or stepping back for a ranged attack) as positions say.
    #[inline]
    pub(super) fn multiattack<const POSITIONS: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) {
        let spec = self.spec(arena.fighters[me].spec);
        // The effects as the turn starts (an injury taken mid-turn acts from the next).
        let effects = arena.fighters[me].effects;
        let mut movement = if POSITIONS {
            self.start_moving(arena, me)
        } else {
            Movement::default()
        };
        // Attacks a buff adds (haste): the first attack again; one a spell
        // replaced this turn is not made.
        let replaced = std::mem::take(&mut arena.fighters[me].attack_replaced);
        let listed = spec.multiattack.len() - usize::from(replaced);
        let extra = if listed > 0 {
            usize::from(self.extra_attacks(arena, me))
        } else {
            0
        };
        for made in 0..listed + extra {
            let index = spec.multiattack[if made < listed { made } else { 0 }];
            let attack = self.attack_in_hand(arena, me, index, effects);
            let Some(target) = self.choose_target_for::<POSITIONS, R>(rng, arena, me, attack)
            else {
                // An attack that spares the creature it grapples may find
                // no other: the Multiattack's next attack may.
                if attack.spares_grappled {
                    continue;
                }
                return;
            };
            if let (true, Some(p)) = (POSITIONS, &self.rules.positions) {
                movement.attacked = made > 0;
                let ready = if attack.reach == Reach::Melee {
                    let gap = |a: &Arena| (a.fighters[me].x - a.fighters[target].x).abs();
                    let before = gap(arena);
                    let ready = self.close_in(rng, arena, me, target, &mut movement, out);
                    // A charge: this attack follows a move of at least its
                    // feet toward the target (a line: every approach is straight).
                    arena.fighters[me].charging =
                        attack.charge.is_some_and(|c| before - gap(arena) >= c.feet);
                    ready
                } else {
                    self.step_back(rng, arena, me, p, &mut movement, out)
                };
                if !ready {
                    return;
                }
            }
            if attack.spell && self.spell_fails(rng, arena, me) {
                continue;
            }
            self.attack::<POSITIONS, R>(rng, arena, me, target, attack, out);
        }
    }

    /// Attack `index` of creature `me` as it can make it under `effects`: the one-handed
    /// fall-back without the use of two hands, an improvised weapon (1d4,
    /// same bonus) for a broken one (tabulated when the encounter is built).
    #[inline]
    pub(super) fn attack_in_hand(
        &self,
        arena: &Arena,
        me: usize,
        index: usize,
        effects: u16,
    ) -> &Attack {
        let creature = arena.fighters[me].spec;
        let table = usize::from(effects & effect::NO_TWO_HANDED != 0)
            | usize::from(effects & effect::WEAPON_BROKEN != 0) << 1;
        match table {
            0 => &self.spec(creature).attacks[index],
            k => &self.in_hand[creature][k - 1][index],
        }
    }
}
