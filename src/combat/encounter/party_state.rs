//! A party carried from one adventuring day to the next, for campaigns
//! (docs/campaign.md): the fighters of the PCs leave a day's chain of fights
//! as they are (hit points, wounds, lingering injuries, lost max HP, severed
//! limbs, spent potions and diamonds, the dead) and come back for the next
//! one after a long rest. A long rest on another level's encounter levels
//! the party up: each PC takes the template of its slot in that encounter
//! (the party comes first, in the same order, in every level's encounter)
//! and keeps what lasts.
//!
//! What lasts through a long rest (SRD 5.1 "Long Rest"; docs/rules.md):
//! permanent wounds and their effects, lingering injuries, max HP lost
//! (a wound that costs 1 max HP per character level costs the new level's
//! worth after levelling), severed limbs, potions drunk and diamonds used.
//! What comes back: hit points, spell slots, features' uses; *aid* ends.
//! The dead stay dead until raised ([`Encounter::raise`]) or replaced
//! ([`Encounter::replace`]).

use rand::Rng;

use super::fighter::{Fighter, NEVER_REVIVED, State};
use super::setup::regained_hit_dice;
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::policy::Between;
use crate::rules::permanent_wounds::{Severity, WoundSlots};

/// The PCs between two days of a campaign.
#[derive(Debug, PartialEq)]
pub struct PartyState {
    pub(super) fighters: Vec<Fighter>,
    /// Each PC's character level (of the template it was built from).
    pub(super) levels: Vec<u8>,
    /// Each PC plays a level below the party (a replacement who joined a
    /// level behind, [`Encounter::replace_below`]).
    pub(super) below: Vec<bool>,
}

impl Clone for PartyState {
    fn clone(&self) -> Self {
        PartyState {
            fighters: self.fighters.clone(),
            levels: self.levels.clone(),
            below: self.below.clone(),
        }
    }

    /// Copies `source` into the vectors already here (the campaign's
    /// shared fights copy parties twice a fight: no allocation).
    fn clone_from(&mut self, source: &Self) {
        self.fighters.clone_from(&source.fighters);
        self.levels.clone_from(&source.levels);
        self.below.clone_from(&source.below);
    }
}

impl PartyState {
    /// How many PCs (the dead included).
    pub fn len(&self) -> usize {
        self.fighters.len()
    }

    /// Whether the party has no member at all.
    pub fn is_empty(&self) -> bool {
        self.fighters.is_empty()
    }

    /// Whether PC `pc` is dead.
    pub fn is_dead(&self, pc: usize) -> bool {
        self.fighters[pc].state == State::Dead
    }

    /// Whether some PC is alive.
    pub fn anyone_alive(&self) -> bool {
        self.fighters.iter().any(|f| f.state != State::Dead)
    }

    /// The permanent wounds PC `pc` carries.
    pub fn wounds(&self, pc: usize) -> WoundSlots {
        self.fighters[pc].wounds
    }

    /// Lingering injuries PC `pc` carries, by injury-table entry index
    /// (the first ones it took, as many as a fighter remembers).
    pub fn injuries(&self, pc: usize) -> &[u8] {
        let f = &self.fighters[pc];
        &f.injuries[..usize::from(f.n_injuries).min(super::fighter::REMEMBERED)]
    }

    /// Max HP PC `pc` has lost (wounds, festering).
    pub fn lost_max_hp(&self, pc: usize) -> i32 {
        self.fighters[pc].lost_max_hp
    }

    /// PC `pc`'s hit points now.
    pub fn hp(&self, pc: usize) -> i32 {
        self.fighters[pc].hp
    }

    /// PC `pc`'s character level.
    pub fn level(&self, pc: usize) -> u8 {
        self.levels[pc]
    }

    /// Potions of healing PC `pc` carries, by rarity
    /// ([`crate::combat::creature::POTIONS`] order).
    pub fn potions(&self, pc: usize) -> crate::combat::creature::Potions {
        self.fighters[pc].potions
    }

    /// PC `pc` buys `n` potions of healing of rarity `k`.
    pub fn buy_potions(&mut self, pc: usize, k: usize, n: u8) {
        let p = &mut self.fighters[pc].potions[k];
        *p = p.saturating_add(n);
    }

    /// PC `pc`'s penalty to attack rolls and saving throws after a return
    /// from the dead (0: none).
    pub fn return_penalty(&self, pc: usize) -> u8 {
        self.fighters[pc].return_penalty
    }

    /// Whether PC `pc` is up (conscious: not dead, not at 0 HP).
    pub fn is_up(&self, pc: usize) -> bool {
        self.fighters[pc].state == State::Up
    }

    /// PC `pc`'s hit point maximum now (less the max HP it lost).
    pub fn max_hp(&self, pc: usize) -> i32 {
        self.fighters[pc].max_hp
    }

    /// PC `pc`'s spell slots left, 1st to 9th level.
    pub fn slots(&self, pc: usize) -> [u8; 9] {
        self.fighters[pc].slots
    }

    /// PC `pc` spends its lowest slot of spell level `level` or higher;
    /// the slot's level, or `None` when it has none left.
    pub fn spend_slot(&mut self, pc: usize, level: u8) -> Option<u8> {
        let slots = &mut self.fighters[pc].slots;
        let from = usize::from(level.clamp(1, 9)) - 1;
        let k = (from..9).find(|&k| slots[k] > 0)?;
        slots[k] -= 1;
        Some(k as u8 + 1)
    }

    /// Whether PC `pc` plays a level below the party (a replacement who
    /// joined a level behind).
    pub fn is_below(&self, pc: usize) -> bool {
        self.below[pc]
    }

    /// Hit dice PC `pc` has left.
    pub fn hit_dice(&self, pc: usize) -> u8 {
        self.fighters[pc].hit_dice
    }

    /// Limbs PC `pc` has lost to called shots.
    pub fn severed_limbs(&self, pc: usize) -> u32 {
        self.fighters[pc].severed.count_ones()
    }

    /// Sets PC `pc`'s wounds (no example drawn) and whether it is dead, for
    /// tests of what the campaign buys.
    #[cfg(test)]
    pub(crate) fn set_for_tests(&mut self, pc: usize, wounds: WoundSlots, dead: bool) {
        self.fighters[pc].wounds = wounds;
        if dead {
            self.kill(pc);
        }
    }

    /// Kills PC `pc` outside a fight (a festering wound at 0 max HP),
    /// beyond *revivify*.
    pub fn kill(&mut self, pc: usize) {
        let f = &mut self.fighters[pc];
        f.state = State::Dead;
        f.died_round = NEVER_REVIVED;
    }
}

impl Encounter {
    /// The party at the start of a campaign: this encounter's PCs as they
    /// start a trial.
    pub fn fresh_party(&self) -> PartyState {
        PartyState {
            fighters: self.initial[..self.party.len()].to_vec(),
            levels: self.party.iter().map(|c| c.level).collect(),
            below: vec![false; self.party.len()],
        }
    }

    /// One day's chain of fights against this encounter's monsters with
    /// the party as `party` has it, which is handed back as the chain left
    /// it. The outcome's per-PC tallies (went down, critical hits and HP
    /// taken) are this day's.
    pub fn play<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        party: &mut PartyState,
    ) -> TrialOutcome {
        let n = party.fighters.len();
        debug_assert_eq!(
            n,
            self.party.len(),
            "a party plays its own level's encounter"
        );
        arena.fighters.clear();
        arena.fighters.extend_from_slice(&party.fighters);
        for f in &mut arena.fighters {
            f.went_down = false;
            f.crits_taken = 0;
            f.hp_lost = 0;
        }
        arena
            .fighters
            .extend_from_slice(&self.initial[n..self.fielded]);
        let out = self.chain(rng, arena);
        party.fighters.copy_from_slice(&arena.fighters[..n]);
        out
    }

    /// The rest `kind` between two fights of a day for every PC of
    /// `party` (as the chain rests between its fights: a stable PC is up
    /// at 1 HP; a short rest spends hit dice; a long rest restores).
    pub fn rest_between<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        party: &mut PartyState,
        kind: Between,
    ) {
        for f in &mut party.fighters {
            self.rest_between_fights(rng, f, kind);
        }
    }

    /// PC `pc` loses `n` max HP (a festering wound's day): its hit points
    /// stay within the new maximum. Returns whether its maximum has reached
    /// 0 (docs/rules.md: the creature dies; the caller kills it).
    pub fn lose_max_hp(&self, party: &mut PartyState, pc: usize, n: i32) -> bool {
        let f = &mut party.fighters[pc];
        f.lost_max_hp += n;
        let left = self.spec(f.spec).max_hp - f.lost_max_hp;
        f.max_hp = (f.max_hp - n).max(1);
        f.hp = f.hp.min(f.max_hp);
        left <= 0
    }

    /// PC `pc` regains `n` of the max HP it lost (a closed festering
    /// wound's): its maximum after the next rest, or at once with `now`
    /// (magical healing), its hit points unchanged.
    pub fn restore_max_hp(&self, party: &mut PartyState, pc: usize, n: i32, now: bool) {
        let f = &mut party.fighters[pc];
        let n = n.min(f.lost_max_hp).max(0);
        f.lost_max_hp -= n;
        if now {
            f.max_hp += n;
        }
    }

    /// Max HP the wounds of `f` cost at character `level` (1 per level
    /// for each wound whose example costs max HP), with wound effects on.
    fn wound_max_hp(&self, f: &Fighter, level: u8) -> i32 {
        if !self.rules.wound_effects {
            return 0;
        }
        Severity::ALL
            .iter()
            .filter(|&&s| f.wounds.has(s))
            .filter_map(|&s| self.example_of(f, s))
            .filter(|e| e.max_hp_per_level)
            .count() as i32
            * i32::from(level)
    }

    /// The example of the `severity` wound `f` carries.
    fn example_of(
        &self,
        f: &Fighter,
        severity: Severity,
    ) -> Option<&crate::combat::wounds::WoundExample> {
        let drawn = usize::from(f.wound_examples[severity as usize]).checked_sub(1)?;
        self.wound_examples.of(severity).get(drawn)
    }

    /// A long rest, after which each PC of `party` is this encounter's
    /// template of its slot (levelled up if this is a later level's
    /// encounter) with what lasts kept (see the module's docs). The dead
    /// stay dead, beyond *revivify*.
    pub fn long_rest(&self, party: &mut PartyState) {
        for pc in 0..party.fighters.len() {
            self.rest_one(party, pc);
        }
    }

    /// [`Encounter::long_rest`] of PC `pc` alone.
    fn rest_one(&self, party: &mut PartyState, pc: usize) {
        let (start, spec) = match self.bench(pc).filter(|_| party.below[pc]) {
            Some((start, spec)) => (start, spec),
            None => (&self.initial[pc], &self.party[pc]),
        };
        let f = &mut party.fighters[pc];
        if f.state == State::Dead {
            f.died_round = NEVER_REVIVED;
            return;
        }
        let kept = *f;
        let old_level = party.levels[pc];
        *f = *start;
        f.wounds = kept.wounds;
        f.wound_examples = kept.wound_examples;
        f.lasting_effects = kept.lasting_effects;
        f.injuries = kept.injuries;
        f.n_injuries = kept.n_injuries;
        f.severed = kept.severed;
        f.potions = kept.potions;
        f.diamonds = kept.diamonds;
        // A return penalty drops by 1 each long rest.
        f.return_penalty = kept.return_penalty.saturating_sub(1);
        f.death_save_penalty = kept.death_save_penalty.saturating_sub(1);
        f.hit_dice = regained_hit_dice(spec, kept.hit_dice);
        f.lost_max_hp = kept.lost_max_hp - self.wound_max_hp(&kept, old_level)
            + self.wound_max_hp(f, spec.level);
        // Speed: the template's, less what the wounds took.
        f.base_speed = spec.speed;
        if self.rules.wound_effects {
            for s in Severity::ALL {
                if let Some(example) = f.wounds.has(s).then(|| self.example_of(f, s)).flatten() {
                    f.base_speed = example.speed(f.base_speed, self.rules.lost_leg_prosthesis);
                }
            }
        }
        f.max_hp = (spec.max_hp - f.lost_max_hp).max(1);
        f.hp = f.max_hp;
        f.state = State::Up;
        f.went_down = false;
        self.recompute_effects_of(f);
        party.levels[pc] = spec.level;
    }

    /// PC `pc` of `party` raised from the dead (by whatever spell the
    /// campaign paid for), then rested: alive at full HP on this
    /// encounter's template, with the wounds and injuries it died with
    /// (the caller heals those the spell heals, [`Encounter::heal_wounds`]),
    /// and the spell's `penalty` to attack rolls and saving throws, less 1
    /// per later long rest (SRD *raise dead*, *resurrection*: 4); its
    /// death saves take it too when `on_death_saves`.
    pub fn raise(&self, party: &mut PartyState, pc: usize, penalty: u8, on_death_saves: bool) {
        let f = &mut party.fighters[pc];
        if f.state != State::Dead {
            return;
        }
        f.state = State::Up;
        f.died_round = 0;
        self.rest_one(party, pc);
        let f = &mut party.fighters[pc];
        f.return_penalty = penalty;
        f.death_save_penalty = if on_death_saves { penalty } else { 0 };
    }

    /// Heals the permanent wounds `healed` of PC `pc`: they and their
    /// effects are gone, and the max HP they cost comes back.
    pub fn heal_wounds(&self, party: &mut PartyState, pc: usize, healed: WoundSlots) {
        let level = party.levels[pc];
        let f = &mut party.fighters[pc];
        let before = self.wound_max_hp(f, level);
        let effects = |f: &Fighter, wounds: WoundSlots| {
            wounds
                .wounds()
                .filter_map(|s| self.example_of(f, s))
                .fold(0, |bits, e| {
                    bits | e.effects_in_fight(self.rules.wound_attack_disadvantage)
                })
        };
        let gone = WoundSlots::from_wounds(f.wounds.wounds().filter(|&s| healed.has(s)));
        let kept = WoundSlots::from_wounds(f.wounds.wounds().filter(|&s| !healed.has(s)));
        // The effects of the wounds still carried stay.
        f.lasting_effects &= !(effects(f, gone) & !effects(f, kept));
        for s in gone.wounds() {
            f.wound_examples[s as usize] = 0;
        }
        f.wounds = kept;
        f.lost_max_hp -= before - self.wound_max_hp(f, level);
        if f.state != State::Dead {
            self.rest_one(party, pc);
        }
    }

    /// PC `pc` of `party` takes the lingering injury of table entry
    /// `entry` outside a fight, for tests of what the campaign does with it.
    #[cfg(test)]
    pub(crate) fn give_injury_for_tests(&self, party: &mut PartyState, pc: usize, entry: u8) {
        let f = &mut party.fighters[pc];
        let n = usize::from(f.n_injuries);
        if n < super::fighter::REMEMBERED {
            f.injuries[n] = entry;
        }
        f.n_injuries += 1;
        self.recompute_effects_of(f);
    }

    /// Cures PC `pc`'s lingering injury of table entry `entry` (its first
    /// remembered one): it and its effects are gone.
    pub fn cure_injury(&self, party: &mut PartyState, pc: usize, entry: u8) {
        let f = &mut party.fighters[pc];
        let remembered = usize::from(f.n_injuries).min(super::fighter::REMEMBERED);
        let Some(k) = f.injuries[..remembered].iter().position(|&e| e == entry) else {
            return;
        };
        f.injuries.copy_within(k + 1..remembered, k);
        f.injuries[remembered - 1] = 0;
        f.n_injuries -= 1;
        self.recompute_effects_of(f);
    }

    /// PC `pc` of `party` grows its lost limbs back (*regenerate*): they
    /// are whole again and their tragic injuries' effects are gone.
    pub fn regrow_limbs(&self, party: &mut PartyState, pc: usize) {
        let f = &mut party.fighters[pc];
        f.severed = 0;
        f.limb_hp = super::fighter::limb_hp(self.spec(f.spec));
        self.recompute_effects_of(f);
    }

    /// PC `pc` of `party` replaced by a new character: this encounter's
    /// template of its slot, fresh.
    pub fn replace(&self, party: &mut PartyState, pc: usize) {
        party.fighters[pc] = self.initial[pc];
        party.levels[pc] = self.party[pc].level;
        party.below[pc] = false;
    }

    /// PC `pc` of `party` replaced by a new character one level below the
    /// party's (this encounter's bench template of its slot, fresh), who
    /// stays a level behind; at the party's level where there is no bench
    /// (a first level).
    pub fn replace_below(&self, party: &mut PartyState, pc: usize) {
        match self.bench(pc) {
            Some((start, spec)) => {
                party.fighters[pc] = *start;
                party.levels[pc] = spec.level;
                party.below[pc] = true;
            }
            None => self.replace(party, pc),
        }
    }
}
