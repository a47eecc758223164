//! The round loop: a party against monsters under 5e combat rules (SRD 5.1)
//! with death saves under fire and the permanent-wound option.
//!
//! Rules modelled, each with a clause test in `encounter/tests.rs`:
//! initiative (d20 + modifier, ties to the higher modifier, then to the PCs);
//! attack rolls against AC with advantage/disadvantage; a natural 1 always
//! misses; a natural roll in the critical range always hits and doubles the
//! damage dice; resistance, immunity and vulnerability; monsters die at 0 HP
//! (regenerating ones only if they start their turn at 0 HP unable to
//! regenerate); PCs drop to 0 HP and roll death saves at the start of their
//! turns; damage at 0 HP is one failure, a critical hit two; a melee attack
//! against an unconscious creature has advantage and any hit is a critical
//! hit; massive damage (damage at 0 HP, or the overflow past 0, of at least
//! the PC's maximum) kills; healing at 0 HP wakes the PC and resets its
//! tally; an ally can stabilise a dying PC with a DC 10 Medicine check;
//! becoming stable (three successes, a Medicine check, a permanent wound)
//! resets both tallies. A fight is decided at the end of the first round
//! in which one side has no one standing; once no PC stands the monsters
//! leave or finish the downed, as [`WhenPartyFalls`] says (a PC back on
//! its feet in a fight that goes on fights again). The exact chains of
//! `tests/combat_endings.rs` check these endings.
//!
//! Creatures live in one flat `Vec` reused across trials: a trial allocates
//! nothing.

use rand::Rng;

use super::creature::{Ability, Attack, Breath, CreatureSpec, HealTarget, Reach};
use super::policy::{
    AttackDowned, Between, EncounterRules, HealWhen, Stabilize, Targeting, WhenPartyFalls,
};
use crate::dice::{DiceExpr, RollMode, roll_die};
use crate::rules::attack::{AttackOutcome, AttackRoll};
use crate::rules::damage::{DamageType, DamageTypes};
use crate::rules::death_saves::{Resolution, SaveStep, Tally};
use crate::rules::permanent_wounds::{Severity, WoundSlots};

/// Most PCs in a party (metrics are kept per PC).
pub const MAX_PCS: usize = 8;

/// Most monsters in an encounter (a side's creatures are indexed by a byte).
pub const MAX_SIDE: usize = 256;

/// A potion of healing: 2d4 + 2.
const POTION: DiceExpr = DiceExpr {
    count: 2,
    sides: 4,
    modifier: 2,
};

/// Permanent-wound effects that matter in a fight (RULES.md §2, one example
/// of the severity drawn uniformly).
mod effect {
    pub const DIS_RANGED: u16 = 1; // lost eye
    pub const NO_TWO_HANDED: u16 = 2; // lost hand, lost arm
    pub const DIS_CON_SAVES: u16 = 4; // internal wound, severe bruising
    pub const DIS_STR_SAVES: u16 = 8; // lost arm
    pub const DIS_DEX_SAVES: u16 = 16; // lost leg
    pub const BLINDED: u16 = 32; // blindness, or both eyes lost
    pub const ACTION_OR_BONUS: u16 = 64; // punctured lung
    pub const SPELL_FAILURE: u16 = 128; // knocked-out teeth
    pub const WEAPON_BROKEN: u16 = 256; // broken item: a weapon
    pub const ARMOR_BROKEN: u16 = 512; // broken item: armour or shield
}

/// The examples of each severity: (name, effect bits, costs max HP per level).
pub const WOUND_EXAMPLES: [&[(&str, u16, bool)]; 3] = [
    &[
        ("facial scar", 0, false),
        ("lost finger", 0, false),
        ("burn", 0, false),
        ("slight limp", 0, false),
    ],
    &[
        ("lost eye", effect::DIS_RANGED, false),
        ("lost hand", effect::NO_TWO_HANDED, false),
        ("limp", 0, false),
        ("internal wound", effect::DIS_CON_SAVES, true),
    ],
    &[
        (
            "lost arm",
            effect::NO_TWO_HANDED | effect::DIS_STR_SAVES,
            false,
        ),
        ("lost leg", effect::DIS_DEX_SAVES, false),
        ("blindness", effect::BLINDED, false),
        ("severe internal bruising", effect::DIS_CON_SAVES, true),
    ],
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Conscious and fighting.
    Up,
    /// A PC at 0 HP rolling death saves.
    Dying,
    /// A PC at 0 HP, stable (three successes, stabilised, or wounded).
    Stable,
    /// A regenerating monster at 0 HP, dead unless it regenerates.
    Down,
    /// Dead.
    Dead,
    /// A monster that ran away.
    Fled,
}

/// One creature's state in a trial.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fighter {
    spec: usize,
    party: bool,
    hp: i32,
    max_hp: i32,
    state: State,
    tally: Tally,
    initiative: i32,
    heal_uses: u8,
    potions: u8,
    smite_uses: u8,
    rage_uses: u8,
    raging: bool,
    breath_ready: bool,
    regen_blocked: bool,
    once_used: bool,
    wounds: WoundSlots,
    /// Effects that last: permanent wounds, broken weapon or armour.
    lasting_effects: u16,
    /// All effects in force: permanent wounds plus lingering injuries.
    effects: u16,
    /// Lingering injuries, by table entry (the first [`injuries::REMEMBERED`]).
    injuries: [u8; injuries::REMEMBERED],
    n_injuries: u8,
    eyes_lost: u8,
    lost_max_hp: i32,
    // Per-trial tallies.
    went_down: bool,
    crits_taken: u32,
    hp_lost: i64,
}

impl Fighter {
    /// A creature at the start of a trial: its starting HP (0 for a PC
    /// means dying), full resources, the scenario's existing wounds for PCs.
    fn new(index: usize, spec: &CreatureSpec, party: bool, rules: &EncounterRules) -> Self {
        let hp = spec.start_hp.unwrap_or(spec.max_hp);
        // Only PCs make death saves: a party member with `is_pc = false`
        // (a hireling, a familiar) dies at 0 HP like a monster.
        let state = match (hp, party && spec.is_pc) {
            (0, true) => State::Dying,
            (0, false) => State::Dead,
            _ => State::Up,
        };
        Fighter {
            spec: index,
            party,
            hp,
            max_hp: spec.max_hp,
            state,
            tally: Tally::default(),
            initiative: 0,
            heal_uses: spec.heal.map_or(0, |h| h.uses),
            potions: spec.potions,
            smite_uses: spec.once_per_turn.and_then(|o| o.uses).unwrap_or(0),
            rage_uses: spec.rage.map_or(0, |r| r.uses),
            raging: false,
            breath_ready: spec.breath.is_some(),
            regen_blocked: false,
            once_used: false,
            wounds: if party {
                rules.death_saves.existing_wounds
            } else {
                WoundSlots::EMPTY
            },
            lasting_effects: 0,
            effects: 0,
            injuries: [0; injuries::REMEMBERED],
            n_injuries: 0,
            eyes_lost: 0,
            lost_max_hp: 0,
            went_down: state == State::Dying,
            crits_taken: 0,
            hp_lost: 0,
        }
    }
}

impl Fighter {
    /// Stable at 0 HP: it stops rolling death saves, and both tallies reset
    /// to zero (SRD 5.1: "The number of both is reset to zero when you
    /// regain any hit points or become stable"), so damage taken later
    /// starts a fresh tally. Three successes, a Medicine check and a
    /// permanent wound all end here.
    fn become_stable(&mut self) {
        self.state = State::Stable;
        self.tally = Tally::default();
    }
}

/// What one trial (a chain of encounters) produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrialOutcome {
    /// The party won every fight of the chain.
    pub party_win: bool,
    /// Some fight hit the round cap.
    pub timed_out: bool,
    /// Rounds fought until each fight was decided, summed over the chain.
    pub rounds: u32,
    /// Per PC: died.
    pub pc_dead: [bool; MAX_PCS],
    /// Per PC: dropped to 0 HP at least once.
    pub pc_down: [bool; MAX_PCS],
    /// Per PC: critical hits taken.
    pub pc_crits_taken: [u32; MAX_PCS],
    /// Per PC: hit points lost (damage actually taken off its HP).
    pub pc_hp_lost: [i64; MAX_PCS],
    /// Permanent wounds taken in the chain, by severity.
    pub wounds: [u32; 3],
    /// Lingering injuries taken by PCs.
    pub injuries: u32,
    /// Lingering injuries taken by PCs, by table entry.
    pub pc_injury_entries: [u8; 100],
    /// Per PC: lingering injuries taken.
    pub pc_injuries: [u8; MAX_PCS],
}

impl Default for TrialOutcome {
    fn default() -> Self {
        TrialOutcome {
            party_win: false,
            timed_out: false,
            rounds: 0,
            pc_dead: [false; MAX_PCS],
            pc_down: [false; MAX_PCS],
            pc_crits_taken: [0; MAX_PCS],
            pc_hp_lost: [0; MAX_PCS],
            wounds: [0; 3],
            injuries: 0,
            pc_injury_entries: [0; 100],
            pc_injuries: [0; MAX_PCS],
        }
    }
}

/// One blow: damage after defenses, its types, and whether it was a critical hit.
#[derive(Clone, Copy, Debug)]
struct Blow {
    amount: i32,
    types: DamageTypes,
    crit: bool,
}

/// A validated encounter: creatures and rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    /// The party, in order (at most [`MAX_PCS`]).
    pub party: Vec<CreatureSpec>,
    /// The monsters.
    pub monsters: Vec<CreatureSpec>,
    /// Options.
    pub rules: EncounterRules,
    threat: Vec<f64>,
    /// Per creature, per attack: the attack it makes when it cannot use two
    /// hands (the attack itself when it is one-handed).
    one_handed: Vec<Vec<Attack>>,
    /// The party then the monsters, indexed like the fighters of a trial.
    all: Vec<CreatureSpec>,
    /// The fighters at the start of a trial, copied into the arena.
    initial: Vec<Fighter>,
}

/// Who is still in the fight, counted in one pass at the end of a round.
struct SideTally {
    party_up: bool,
    /// Some PC is at 0 HP and alive (dying or stable).
    party_downed: bool,
    dying: bool,
    monsters_up: usize,
    monsters_down: usize,
}

impl SideTally {
    fn of(fighters: &[Fighter]) -> Self {
        let mut t = SideTally {
            party_up: false,
            party_downed: false,
            dying: false,
            monsters_up: 0,
            monsters_down: 0,
        };
        // Counted without branches: the states are the fight's coin flips.
        for f in fighters {
            let up = f.state == State::Up;
            t.party_up |= f.party & up;
            t.party_downed |= f.party & matches!(f.state, State::Dying | State::Stable);
            t.monsters_up += usize::from(!f.party & up);
            t.monsters_down += usize::from(!f.party & (f.state == State::Down));
            t.dying |= f.state == State::Dying;
        }
        t
    }
}

/// Reusable per-thread buffers.
#[derive(Default)]
pub struct Arena {
    fighters: Vec<Fighter>,
    order: Vec<usize>,
    keys: Vec<i32>,
    scratch: Vec<usize>,
}

/// A lost or unusable hand forces a one-handed attack: another attack of
/// the creature with the same reach if it has one, else the same weapon one
/// die size smaller (a d12 greataxe becomes a d8 handaxe-like swing).
fn one_handed_attacks(spec: &CreatureSpec) -> Vec<Attack> {
    spec.attacks
        .iter()
        .map(|attack| {
            if !attack.two_handed {
                return attack.clone();
            }
            if let Some(other) = spec
                .attacks
                .iter()
                .find(|a| !a.two_handed && a.reach == attack.reach)
            {
                return other.clone();
            }
            let mut fallback = attack.clone();
            fallback.two_handed = false;
            fallback.damage.sides = fallback.damage.sides.saturating_sub(4).max(4);
            fallback
        })
        .collect()
}

impl Encounter {
    /// Builds an encounter; `party.len()` must be at most [`MAX_PCS`].
    pub fn new(
        party: Vec<CreatureSpec>,
        monsters: Vec<CreatureSpec>,
        rules: EncounterRules,
    ) -> Self {
        let mean_ac = |side: &[CreatureSpec]| {
            side.iter().map(|c| c.ac as f64).sum::<f64>() / side.len().max(1) as f64
        };
        let (party_ac, monster_ac) = (mean_ac(&party), mean_ac(&monsters));
        let threat = party
            .iter()
            .map(|c| c.threat(monster_ac.round() as i32))
            .chain(monsters.iter().map(|c| c.threat(party_ac.round() as i32)))
            .collect();
        let one_handed = party
            .iter()
            .chain(&monsters)
            .map(one_handed_attacks)
            .collect();
        let all: Vec<CreatureSpec> = party.iter().chain(&monsters).cloned().collect();
        let initial = all
            .iter()
            .enumerate()
            .map(|(i, spec)| Fighter::new(i, spec, i < party.len(), &rules))
            .collect();
        Encounter {
            party,
            monsters,
            rules,
            threat,
            one_handed,
            all,
            initial,
        }
    }

    #[inline]
    fn spec(&self, index: usize) -> &CreatureSpec {
        &self.all[index]
    }

    /// Runs one trial: the whole chain of encounters.
    pub fn run<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena) -> TrialOutcome {
        arena.fighters.clear();
        arena.fighters.extend_from_slice(&self.initial);
        let mut out = TrialOutcome {
            party_win: true,
            ..Default::default()
        };
        for fight in 0..self.rules.encounters {
            if fight > 0 {
                self.between_fights(arena);
                if !arena
                    .fighters
                    .iter()
                    .any(|f| f.party && f.state == State::Up)
                {
                    out.party_win = false;
                    break;
                }
            }
            let (won, rounds, timed_out) = self.fight(rng, arena, &mut out);
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
        }
        out
    }

    /// Resets monsters and rests the party between two fights.
    fn between_fights(&self, arena: &mut Arena) {
        for f in arena.fighters.iter_mut() {
            let spec = self.spec(f.spec);
            if !f.party {
                f.hp = spec.max_hp;
                f.state = State::Up;
                f.breath_ready = spec.breath.is_some();
                f.regen_blocked = false;
                continue;
            }
            if f.state == State::Dead {
                continue;
            }
            f.max_hp = (spec.max_hp - f.lost_max_hp).max(1);
            if self.rules.between == Between::LongRest {
                f.hp = f.max_hp;
                f.heal_uses = spec.heal.map_or(0, |h| h.uses);
                f.smite_uses = spec.once_per_turn.and_then(|o| o.uses).unwrap_or(0);
                f.rage_uses = spec.rage.map_or(0, |r| r.uses);
                f.state = State::Up;
                f.tally = Tally::default();
            } else if f.state == State::Stable {
                // Regains 1 HP after 1d4 hours: up, at 1 HP, before the next fight.
                f.hp = 1;
                f.state = State::Up;
                f.tally = Tally::default();
            }
            f.hp = f.hp.min(f.max_hp);
            f.raging = false;
        }
    }

    /// One fight. Returns (party won, rounds until decided, hit the cap).
    fn fight<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        out: &mut TrialOutcome,
    ) -> (bool, u32, bool) {
        let monsters_total = self.monsters.len().max(1) as f64;
        for f in arena.fighters.iter_mut() {
            let spec = &self.spec(f.spec);
            f.initiative = i32::from(roll_die(rng, 20) as u8) + spec.initiative;
            f.raging = false;
        }
        self.initiative_order(arena);
        let mut decided_at = None;
        let mut round = 0;
        loop {
            round += 1;
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
                self.take_turn(rng, arena, me, decided_at.is_some(), out);
            }
            // The dead and the fled take no more turns in this fight
            // (compacted without branches: who died is unpredictable).
            let mut kept = 0;
            for k in 0..arena.order.len() {
                let i = arena.order[k];
                arena.order[kept] = i;
                kept += usize::from(!matches!(
                    arena.fighters[i].state,
                    State::Dead | State::Fled
                ));
            }
            arena.order.truncate(kept);
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
                return (
                    party_up && !monsters_active,
                    decided_at.unwrap_or(round),
                    false,
                );
            }
        }
    }

    /// Sorts `arena.order` by initiative: the higher total first, then the
    /// higher modifier, then PCs, then list order.
    fn initiative_order(&self, arena: &mut Arena) {
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

    fn monsters_beaten(&self, arena: &Arena) -> bool {
        !arena
            .fighters
            .iter()
            .any(|f| !f.party && matches!(f.state, State::Up | State::Down))
    }

    fn take_turn<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        fight_over: bool,
        out: &mut TrialOutcome,
    ) {
        let spec = self.spec(arena.fighters[me].spec);
        arena.fighters[me].once_used = false;
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
        let action_used = self.can_support(&arena.fighters[me], fight_over)
            && self.support(rng, arena, me, fight_over, action);
        if action_used || fight_over || !action {
            return;
        }
        if let Some(breath) = spec.breath {
            if arena.fighters[me].breath_ready && self.enemies_up(arena, me) > 0 {
                self.breathe(rng, arena, me, breath, out);
                return;
            }
        }
        let effects = arena.fighters[me].effects;
        let one_handed = effects & effect::NO_TWO_HANDED != 0;
        let creature = arena.fighters[me].spec;
        for &index in &spec.multiattack {
            let mut attack = if one_handed {
                &self.one_handed[creature][index]
            } else {
                &spec.attacks[index]
            };
            // A broken weapon: an improvised one (1d4, same bonus) instead.
            let improvised;
            if effects & effect::WEAPON_BROKEN != 0 && !attack.spell {
                let mut a = attack.clone();
                a.damage = DiceExpr {
                    count: 1,
                    sides: 4,
                    ..a.damage
                };
                a.two_handed = false;
                improvised = a;
                attack = &improvised;
            }
            let Some(target) = self.choose_target(rng, arena, me, attack.reach) else {
                return;
            };
            if attack.spell && self.spell_fails(rng, arena, me) {
                continue;
            }
            self.attack(rng, arena, me, target, attack, out);
        }
    }

    /// A breath weapon: a random subset of the conscious enemies is caught
    /// in the area, each saving for half damage.
    #[inline(never)]
    fn breathe<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        breath: Breath,
        out: &mut TrialOutcome,
    ) {
        arena.fighters[me].breath_ready = false;
        self.collect_targets(arena, me);
        let n = usize::from(breath.targets).min(arena.scratch.len());
        // A random subset of the conscious enemies is caught in the area.
        for j in 0..n {
            let pick =
                j + crate::dice::uniform_below(rng, (arena.scratch.len() - j) as u64) as usize;
            arena.scratch.swap(j, pick);
        }
        let rolled = breath.dice.sample(rng) as i32;
        for j in 0..n {
            let t = arena.scratch[j];
            let saved = self.saving_throw(rng, arena, t, breath.save.0, breath.save.1);
            let amount = if saved { rolled / 2 } else { rolled };
            let total = self.after_defenses(arena, t, breath.kind, amount);
            self.deal_total(
                rng,
                arena,
                t,
                Blow {
                    amount: total,
                    types: DamageTypes::of([breath.kind]),
                    crit: false,
                },
                out,
            );
        }
    }

    /// The start of the turn of a creature that is not up: a dying PC's
    /// death save, a regenerating monster at 0 HP getting up (or dying);
    /// the dead, fled and stable do nothing. Returns whether it acts.
    #[cold]
    fn turn_at_zero_hp<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) -> bool {
        let spec = self.spec(arena.fighters[me].spec);
        match arena.fighters[me].state {
            State::Up => true,
            State::Dead | State::Fled | State::Stable => false,
            State::Dying => self.death_save(rng, arena, me, out),
            State::Down => {
                // A regenerating monster at 0 HP: back up unless blocked, else dead.
                let f = &mut arena.fighters[me];
                match spec.regeneration {
                    Some(regen) if !f.regen_blocked => {
                        f.hp = regen.hp.min(f.max_hp);
                        f.state = State::Up;
                        f.regen_blocked = false;
                        true
                    }
                    _ => {
                        f.state = State::Dead;
                        false
                    }
                }
            }
        }
    }

    /// Rolls a dying PC's death save; returns whether it can act this turn.
    fn death_save<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) -> bool {
        let rules = &self.rules.death_saves;
        let natural = rules.roll.roll(rng);
        let f = &mut arena.fighters[me];
        let rules = crate::rules::death_saves::DeathSaveRules {
            existing_wounds: f.wounds,
            ..*rules
        };
        match rules.resolve_save(f.tally, natural) {
            SaveStep::Continue(t) => {
                f.tally = t;
                false
            }
            SaveStep::Resolved(Resolution::Revived) => {
                f.hp = 1;
                f.state = State::Up;
                f.tally = Tally::default();
                true
            }
            SaveStep::Resolved(Resolution::Stable) => {
                f.become_stable();
                false
            }
            SaveStep::Resolved(Resolution::Dead) => {
                f.state = State::Dead;
                false
            }
            SaveStep::Resolved(Resolution::Wounded(severity)) => {
                self.take_wound(rng, arena, me, severity, out);
                false
            }
        }
    }

    fn take_wound<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        severity: Severity,
        out: &mut TrialOutcome,
    ) {
        let level = i32::from(self.spec(arena.fighters[me].spec).level);
        let examples = WOUND_EXAMPLES[severity as usize];
        let (_, bits, costs_hp) =
            examples[crate::dice::uniform_below(rng, examples.len() as u64) as usize];
        let f = &mut arena.fighters[me];
        f.wounds = f.wounds.with(severity);
        f.become_stable();
        f.hp = 0;
        if self.rules.wound_effects {
            f.lasting_effects |= bits;
            f.effects |= bits;
            if costs_hp {
                f.lost_max_hp += level;
            }
        }
        out.wounds[severity as usize] += 1;
    }

    /// Whether the policy has a PC stabilise a dying ally now.
    #[inline]
    fn stabilizes(&self, fight_over: bool) -> bool {
        match self.rules.stabilize {
            Stabilize::Never => false,
            Stabilize::AfterFight => fight_over,
            Stabilize::Always => true,
        }
    }

    /// Whether [`Self::support`] can do anything for this creature: most
    /// turns (every monster without healing) skip it.
    #[inline]
    fn can_support(&self, f: &Fighter, fight_over: bool) -> bool {
        f.heal_uses > 0 || f.potions > 0 || (f.party && self.stabilizes(fight_over))
    }

    /// Healing, potions and stabilising; `action` says whether the creature
    /// still has its action (bonus-action healing needs none). Returns
    /// whether the turn's action is spent.
    fn support<R: Rng + ?Sized>(
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
    fn heal(&self, arena: &mut Arena, target: usize, amount: i32, magical: bool) {
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

    /// Indices of one side's creatures among `n` fighters: the fighters of
    /// a trial are the party, then the monsters.
    #[inline]
    fn side(&self, party: bool, n: usize) -> std::ops::Range<usize> {
        if party {
            0..self.party.len()
        } else {
            self.party.len()..n
        }
    }

    /// Indices of the creatures on the other side from `me`.
    #[inline]
    fn enemies_of(&self, arena: &Arena, me: usize) -> std::ops::Range<usize> {
        self.side(!arena.fighters[me].party, arena.fighters.len())
    }

    fn enemies_up(&self, arena: &Arena, me: usize) -> usize {
        arena.fighters[self.enemies_of(arena, me)]
            .iter()
            .filter(|f| f.state == State::Up)
            .count()
    }

    /// Fills `arena.scratch` with the conscious enemies of `me`.
    fn collect_targets(&self, arena: &mut Arena, me: usize) {
        let range = self.enemies_of(arena, me);
        arena.scratch.clear();
        for i in range {
            if arena.fighters[i].state == State::Up {
                arena.scratch.push(i);
            }
        }
    }

    /// The enemy `me` attacks with an attack of `reach`, if any. Scans the
    /// enemy side in index order (no allocation): the same choice, and the
    /// same random draws, as picking from the list of candidates.
    fn choose_target<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
        reach: Reach,
    ) -> Option<usize> {
        let range = self.enemies_of(arena, me);
        let enemies = &arena.fighters[range.clone()];
        let first = range.start;
        let monster = !arena.fighters[me].party;
        if monster && reach == Reach::Melee {
            let go_for_downed = match self.rules.attack_downed {
                AttackDowned::Never => false,
                AttackDowned::Always => true,
                AttackDowned::Sometimes(chance) => chance.sample(rng),
            };
            if go_for_downed {
                if let Some(k) = enemies
                    .iter()
                    .position(|f| matches!(f.state, State::Dying | State::Stable))
                {
                    return Some(first + k);
                }
            }
        }
        if let Some(k) = self.pick_conscious(rng, enemies, range) {
            return Some(first + k);
        }
        // No one is standing: monsters that stay finish the downed.
        if monster && self.rules.when_party_falls == WhenPartyFalls::FinishTheDowned {
            return enemies
                .iter()
                .position(|f| matches!(f.state, State::Dying | State::Stable))
                .map(|k| first + k);
        }
        None
    }

    /// The conscious enemy (index within `enemies`, the fighters of
    /// `range`) picked by the targeting policy, if any is conscious.
    #[inline]
    fn pick_conscious<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        enemies: &[Fighter],
        range: std::ops::Range<usize>,
    ) -> Option<usize> {
        let up = |f: &Fighter| f.state == State::Up;
        let k = match self.rules.targeting {
            Targeting::Random => {
                // One branch-free pass lists the conscious enemies (write
                // every index, advance past the conscious ones): a branch on
                // each enemy's state would mispredict.
                let mut listed = [0u8; MAX_SIDE];
                let mut n = 0;
                for (k, f) in enemies.iter().enumerate() {
                    listed[n] = k as u8;
                    n += usize::from(up(f));
                }
                if n == 0 {
                    return None;
                }
                usize::from(listed[crate::dice::uniform_below(rng, n as u64) as usize])
            }
            Targeting::FocusFire => enemies.iter().position(up)?,
            Targeting::LowestHp => {
                let mut best: Option<(i32, usize)> = None;
                for (k, f) in enemies.iter().enumerate() {
                    if up(f) && best.is_none_or(|(hp, _)| f.hp < hp) {
                        best = Some((f.hp, k));
                    }
                }
                best?.1
            }
            Targeting::HighestThreat => {
                let threat = &self.threat[range];
                let mut best: Option<usize> = None;
                for (k, f) in enemies.iter().enumerate() {
                    if up(f) && best.is_none_or(|b| threat[k] > threat[b]) {
                        best = Some(k);
                    }
                }
                best?
            }
        };
        Some(k)
    }

    fn saving_throw<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        target: usize,
        ability: Ability,
        dc: i32,
    ) -> bool {
        let f = &arena.fighters[target];
        let spec = self.spec(f.spec);
        if matches!(f.state, State::Dying | State::Stable)
            && matches!(ability, Ability::Str | Ability::Dex)
        {
            return false; // unconscious: automatically fails Strength and Dexterity saves
        }
        let disadvantage = match ability {
            Ability::Con => f.effects & effect::DIS_CON_SAVES != 0,
            Ability::Str => f.effects & effect::DIS_STR_SAVES != 0,
            Ability::Dex => f.effects & effect::DIS_DEX_SAVES != 0,
            _ => false,
        };
        i32::from(RollMode::with(false, disadvantage).roll(rng)) + spec.save(ability) >= dc
    }

    fn attack<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        target: usize,
        attack: &Attack,
        out: &mut TrialOutcome,
    ) {
        let spec = self.spec(arena.fighters[me].spec);
        let (attacker, defender) = (&arena.fighters[me], &arena.fighters[target]);
        let melee = attack.reach == Reach::Melee;
        let unconscious = matches!(defender.state, State::Dying | State::Stable);
        let advantage = (melee && spec.reckless && attacker.raging)
            || (unconscious && melee)
            || (defender.raging && self.spec(defender.spec).reckless)
            || defender.effects & effect::BLINDED != 0;
        let disadvantage = attacker.effects & effect::BLINDED != 0
            || (!melee && attacker.effects & effect::DIS_RANGED != 0);
        let natural = RollMode::with(advantage, disadvantage).roll(rng);
        let armor_broken = defender.effects & effect::ARMOR_BROKEN != 0;
        let roll = AttackRoll {
            bonus: attack.to_hit,
            ac: self.spec(defender.spec).ac - if armor_broken { 2 } else { 0 },
            crit_range: self.rules.crit_range.unwrap_or(spec.crit_range),
            // Any hit within 5 ft on an unconscious creature is a critical
            // hit (unless the table plays without critical hits).
            auto_crit: unconscious && melee,
            critical_hits: self.rules.critical_hits,
            crit_range_hits: true,
        };
        let crit = match roll.resolve(natural) {
            AttackOutcome::NaturalOne => return self.missed(rng, arena, me, true, out),
            AttackOutcome::Miss => return self.missed(rng, arena, me, false, out),
            AttackOutcome::Hit => false,
            AttackOutcome::Critical => true,
        };
        let roll = |rng: &mut R, dice: DiceExpr| -> i32 {
            (if crit { dice.doubled_dice() } else { dice }).sample(rng) as i32
        };
        let mut amount = roll(rng, attack.damage);
        if melee && arena.fighters[me].raging {
            amount += spec.rage.map_or(0, |r| r.damage_bonus);
        }
        let mut extra = None;
        if let Some(once) = spec.once_per_turn {
            let f = &mut arena.fighters[me];
            let available = match once.uses {
                None => true,
                Some(_) => f.smite_uses > 0,
            };
            if !f.once_used && available {
                f.once_used = true;
                if once.uses.is_some() {
                    f.smite_uses -= 1;
                }
                extra = Some((roll(rng, once.dice), once.kind));
            }
        }
        let rider = attack.rider.map(|r| {
            let rolled = roll(rng, r.dice);
            let halved = match r.save {
                Some((ability, dc)) if self.saving_throw(rng, arena, target, ability, dc) => {
                    rolled / 2
                }
                _ => rolled,
            };
            (halved, r.kind)
        });
        // Damage of one hit, type by type, then one blow to the target.
        let mut total = self.after_defenses(arena, target, attack.kind, amount);
        let mut types = DamageTypes::of([attack.kind]);
        for (amount, kind) in extra.into_iter().chain(rider) {
            total += self.after_defenses(arena, target, kind, amount);
            types = types.with(kind);
        }
        if arena.fighters[target].party && crit {
            arena.fighters[target].crits_taken += 1;
        }
        self.deal_total(
            rng,
            arena,
            target,
            Blow {
                amount: total,
                types,
                crit,
            },
            out,
        );
        if crit {
            self.critically_hit(rng, arena, target, out);
        }
    }

    fn after_defenses(&self, arena: &Arena, target: usize, kind: DamageType, amount: i32) -> i32 {
        let f = &arena.fighters[target];
        let mut defenses = self.spec(f.spec).defenses;
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

    /// Applies one blow of `amount` damage (after defenses).
    fn deal_total<R: Rng + ?Sized>(
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
        let spec = self.spec(arena.fighters[target].spec);
        let f = &mut arena.fighters[target];
        if let Some(regen) = spec.regeneration {
            if types.iter().any(|t| regen.stopped_by.has(t)) {
                f.regen_blocked = true;
            }
        }
        if amount <= 0 {
            return;
        }
        match f.state {
            State::Up => {
                f.hp_lost += i64::from(amount.min(f.hp));
                f.hp -= amount;
                if f.hp > 0 {
                    return;
                }
                let overflow = -f.hp;
                f.hp = 0;
                if !(f.party && spec.is_pc) {
                    f.went_down |= f.party;
                    f.state = if spec.regeneration.is_some() {
                        State::Down
                    } else {
                        State::Dead
                    };
                    return;
                }
                f.went_down = true;
                f.raging = false;
                f.tally = Tally::default();
                f.state = if self.rules.massive_damage && overflow >= f.max_hp {
                    State::Dead
                } else {
                    State::Dying
                };
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

mod injuries;

#[cfg(test)]
mod tests;
