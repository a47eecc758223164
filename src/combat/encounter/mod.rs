//! The round loop: a party against monsters under 5e combat rules (SRD 5.1)
//! with death saves under fire and the permanent-wound option.
//!
//! Rules modelled, each with a clause test in `encounter/tests/` (one file per job, like the code):
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
//! `tests/it/combat_endings.rs` check these endings.
//!
//! Creatures live in one flat `Vec` reused across trials: a trial allocates
//! nothing.
//!
//! One file per job: `fighter.rs` (a creature's state in a trial),
//! `setup.rs` (building an encounter, resetting between fights),
//! `round.rs` (the trial, the fight, initiative, a turn), `targeting.rs`,
//! `attack.rs` (attack rolls, breath weapons, saving throws), `damage.rs`,
//! `dying.rs` (turns at 0 HP, death saves, permanent wounds), `support.rs`
//! (healing, potions, stabilising), `injuries.rs` (lingering injuries
//! in a fight), `limbs.rs` (called shots on limbs, our extension) and
//! `positions.rs` (places, movement and opportunity attacks, our
//! approximation), `features.rs` (class features of the templates: Action
//! Surge, Indomitable, Uncanny Dodge, Brutal Critical, Stunning Strike,
//! Deflect Missiles, Aura of Protection for allies, Bardic Inspiration,
//! Preserve Life; what is left of them is `feature_state.rs`), legendary
//! actions and Legendary Resistance (`legendary.rs`), monster traits
//! (`traits.rs`: Pack Tactics; Magic Resistance in `attack.rs`), the spells
//! of the fight (`casting.rs`: the casting policy, `spell_weights.rs` what
//! it weighs of each spell; `spell_effects.rs`: what
//! a cast spell does; `spell_buffs.rs`: buffs and debuffs in play;
//! `spell_lasting.rs`: concentration, zones, turn starts and ends,
//! *shield*; `spell_state.rs`: a creature's spell state),
//! `party_state.rs` (a party carried between days of a campaign); the
//! clause tests follow the same split under `tests/`.

mod attack;
mod casting;
mod damage;
mod dying;
mod feature_state;
mod features;
mod fighter;
mod grapple;
mod injuries;
mod legendary;
mod limbs;
mod party_state;
mod positions;
mod round;
mod setup;
mod spell_buffs;
mod spell_effects;
mod spell_lasting;
mod spell_state;
mod spell_weights;
mod support;
mod targeting;
mod traits;
mod turn_undead;
mod venom;
mod wild_shape;

#[cfg(test)]
mod tests;

pub use party_state::PartyState;

use super::creature::{Attack, CreatureSpec};
use super::policy::EncounterRules;
use crate::combat::wounds::WoundExamples;
use fighter::Fighter;

/// Most PCs in a party (metrics are kept per PC).
pub const MAX_PCS: usize = 8;

/// Most monsters in an encounter (a side's creatures are indexed by a byte).
pub const MAX_SIDE: usize = 256;

/// What one trial (a chain of encounters) produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrialOutcome {
    /// The party won every fight of the chain.
    pub party_win: bool,
    /// Some fight hit the round cap.
    pub timed_out: bool,
    /// Rounds fought until each fight was decided, summed over the chain.
    pub rounds: u32,
    /// Fights of the chain fought.
    pub fights: u32,
    /// Fights of the chain the party won.
    pub fights_won: u32,
    /// Per PC: died.
    pub pc_dead: [bool; MAX_PCS],
    /// Per PC: dropped to 0 HP at least once.
    pub pc_down: [bool; MAX_PCS],
    /// Per PC: critical hits taken.
    pub pc_crits_taken: [u32; MAX_PCS],
    /// Per PC: hit points lost (damage actually taken off its HP).
    pub pc_hp_lost: [i64; MAX_PCS],
    /// Per PC: spell-slot levels spent by the end of the chain (each slot
    /// below its full count weighs its level; net of slots regained
    /// between fights).
    pub pc_slot_levels_spent: [u16; MAX_PCS],
    /// Permanent wounds taken in the chain, by severity.
    pub wounds: [u32; 3],
    /// Lingering injuries taken by PCs.
    pub injuries: u32,
    /// Lingering injuries taken by PCs, by table entry.
    pub pc_injury_entries: [u8; 100],
    /// Per PC: lingering injuries taken.
    pub pc_injuries: [u8; MAX_PCS],
    /// Limbs severed by called shots, PCs and monsters.
    pub limbs_severed: u32,
    /// Per PC: limbs severed by called shots.
    pub pc_limbs_severed: [u8; MAX_PCS],
    /// Per PC: spreading venoms that reached it (our extension).
    pub pc_venom_spread: [u8; MAX_PCS],
    /// Per PC: poisoned limbs the party cut off after a fight.
    pub pc_limbs_amputated: [u8; MAX_PCS],
    /// Per PC: limbs cut off and put back on within the window.
    pub pc_limbs_reattached: [u8; MAX_PCS],
}

impl Default for TrialOutcome {
    fn default() -> Self {
        TrialOutcome {
            party_win: false,
            timed_out: false,
            rounds: 0,
            fights: 0,
            fights_won: 0,
            pc_dead: [false; MAX_PCS],
            pc_down: [false; MAX_PCS],
            pc_crits_taken: [0; MAX_PCS],
            pc_hp_lost: [0; MAX_PCS],
            pc_slot_levels_spent: [0; MAX_PCS],
            wounds: [0; 3],
            injuries: 0,
            pc_injury_entries: [0; 100],
            pc_injuries: [0; MAX_PCS],
            limbs_severed: 0,
            pc_limbs_severed: [0; MAX_PCS],
            pc_venom_spread: [0; MAX_PCS],
            pc_limbs_amputated: [0; MAX_PCS],
            pc_limbs_reattached: [0; MAX_PCS],
        }
    }
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
    /// Per creature (indexed like `all`), per known spell, what the casting
    /// policy weighs of it at each slot (its caster's level is fixed).
    spell_weights: Vec<Vec<spell_weights::SpellWeights>>,
    /// Per creature, its attacks as it makes them without the use of two
    /// hands (the attack itself when one-handed), with a broken weapon (an
    /// improvised 1d4), and both.
    in_hand: Vec<[Vec<Attack>; 3]>,
    /// The party then the monsters, indexed like the fighters of a trial.
    all: Vec<CreatureSpec>,
    /// The fighters at the start of a trial, copied into the arena.
    initial: Vec<Fighter>,
    /// Some party member casts spells from a spellbook (*aid* before a
    /// fight is looked for only then).
    casters: bool,
    /// Some creature casts attack, control or buff spells: the round loop
    /// looks at spell state only then.
    spellcasting: bool,
    /// Some creature has Stunning Strike (its stuns end with its turns).
    stunners: bool,
    /// Some creature has an Aura of Protection for its allies.
    auras: bool,
    /// Some creature has legendary actions (`legendary.rs`).
    legendary: bool,
    /// Some creature grapples on a hit (`grapple.rs`).
    grapplers: bool,
    /// Some creature has a damage aura (`traits.rs`).
    damage_auras: bool,
    /// Some creature has Bloodied Fury or Frenzy, War Cry or an
    /// Absorption (`attack.rs`, `damage.rs`): their checks run only then.
    rare_traits: bool,
    /// Some creature's save leaves effects until its target's next turn
    /// ([`crate::combat::creature::Hampered`]).
    hampering: bool,
    /// Some creature knows a spell of ongoing damage in an emanation
    /// around itself (*spirit guardians*): melee attackers step into it.
    emanations: bool,
    /// Some creature is immune to a condition (the casting policy weighs
    /// and aims conditions only then).
    immunities: bool,
    /// Some creature has damage defenses, Magic Resistance or Legendary
    /// Resistance: the casting policy weighs them (`casting.rs`).
    defenses: bool,
    /// Some creature is immune to a condition or has Legendary Resistance:
    /// a single-target condition spell is aimed at a creature that can
    /// take it (`spell_effects.rs`).
    aims_conditions: bool,
    /// The permanent wounds a PC may take, by severity.
    wound_examples: WoundExamples,
    /// The riders of the monsters' attacks that spread (our extension).
    venom_riders: Vec<super::creature::Rider>,
    /// The fighters of a trial: `initial[..fielded]`, the party then the
    /// monsters. Beyond them, a campaign's bench (`Encounter::with_bench`):
    /// each PC's template one level below, for replacements who join a
    /// level behind.
    fielded: usize,
    /// Where the Wild Shape forms start in `all` and `initial` (after the
    /// fielded and the bench); `all.len()` when none.
    forms_from: usize,
}

/// Reusable per-thread buffers.
#[derive(Default)]
pub struct Arena {
    fighters: Vec<Fighter>,
    /// The round of the current fight (1 = the first).
    round: u32,
    /// Whose turn it is, as its index plus one (0 between turns: legendary
    /// actions, auras at a turn's end).
    acting: usize,
    order: Vec<usize>,
    keys: Vec<i32>,
    scratch: Vec<usize>,
    listed: TargetList,
    /// Fights planned after this chain before the next long rest (a
    /// campaign's later fights of the day), for the casters' slot budget.
    later_fights: u32,
}

impl Arena {
    /// Says how many fights the day still holds after the next chain (a
    /// campaign's: its fights per day less those fought, less one): the
    /// casters budget their slots over them.
    pub fn plan_later_fights(&mut self, n: u32) {
        self.later_fights = n;
    }
}

/// The conscious enemies a random target is drawn among, by index within
/// their side: written before they are read, through a shared arena (cells,
/// so choosing a target needs no exclusive borrow).
struct TargetList([std::cell::Cell<u8>; MAX_SIDE]);

impl Default for TargetList {
    fn default() -> Self {
        TargetList(std::array::from_fn(|_| std::cell::Cell::new(0)))
    }
}
