//! A creature's state in one trial: hit points, the death-save tally,
//! resources spent, wounds and lingering injuries, and the effects they
//! impose in the fight (as bits, so the hot loop tests them cheaply).

use super::feature_state::FeatureState;
use super::spell_state::SpellState;
use crate::combat::creature::CreatureSpec;
use crate::combat::effect;
use crate::combat::policy::EncounterRules;
use crate::combat::spell::MAX_DAILY_SPELLS;
use crate::rules::death_saves::Tally;
use crate::rules::limbs::{LOSE_ARM_OR_HAND, LOSE_FOOT_OR_LEG, Limb, table_limb_hp};
use crate::rules::permanent_wounds::WoundSlots;

/// [`Fighter::died_round`] of a creature dead since before this fight:
/// past any *revivify*.
pub const NEVER_REVIVED: u32 = u32::MAX;

/// [`Fighter::prone_after_dash`] of a creature that always falls.
pub const ALWAYS_PRONE: u8 = u8::MAX;

/// Injuries a creature remembers for their in-fight effects (more are
/// counted but only the first ones act).
pub const REMEMBERED: usize = 8;

/// The limbs a creature has for called shots (docs/combat.md, "Called
/// shots on limbs"): the weapon arm, the other arm, then two legs.
pub const LIMBS: [Limb; 4] = [Limb::Arm, Limb::Arm, Limb::Leg, Limb::Leg];

/// Its limbs' HP by its size (the limb model's table, `rules::limbs`),
/// in [`LIMBS`] order.
pub fn limb_hp(spec: &CreatureSpec) -> [u8; 4] {
    LIMBS.map(|limb| table_limb_hp(spec.size, limb).map_or(0, |hp| hp.min(255) as u8))
}

/// The effects of the severed limbs (a bit per [`LIMBS`] index), as the
/// matching tragic injuries of the lingering-injury table impose them, the
/// same whatever severed the limb: a lost arm or hand can't hold anything
/// with two hands (*lose an arm or a hand*); a lost foot or leg sets no bit
/// (*lose a foot or leg*: its halved speed and fall after a Dash are
/// [`severed_speed`]; its disadvantage on Dexterity checks to balance meets
/// no roll of a fight).
pub fn severed_effects(severed: u8) -> u16 {
    let mut bits = 0;
    for (i, limb) in LIMBS.iter().enumerate() {
        if severed & (1 << i) == 0 {
            continue;
        }
        bits |= match limb {
            Limb::Arm if !LOSE_ARM_OR_HAND.two_handed => effect::NO_TWO_HANDED,
            _ => 0,
        };
    }
    bits
}

/// Speed with the severed legs (a bit per [`LIMBS`] index), each as the
/// tragic injury *lose a foot or leg* (speed halved), and whether it then
/// falls prone after a Dash ([`ALWAYS_PRONE`] or 0).
pub fn severed_speed(speed: i32, severed: u8) -> (i32, u8) {
    let mut speed = speed;
    let mut prone = 0;
    for (i, limb) in LIMBS.iter().enumerate() {
        if severed & (1 << i) != 0 && *limb == Limb::Leg {
            speed = (f64::from(speed) * LOSE_FOOT_OR_LEG.speed_factor) as i32;
            if LOSE_FOOT_OR_LEG.prone_after_dash {
                prone = ALWAYS_PRONE;
            }
        }
    }
    (speed, prone)
}

/// [`Fighter::wild_form`] of a creature without Wild Shape.
pub const NO_FORM: u16 = u16::MAX;

/// What a druid in its Wild Shape form keeps of its own shape, to return
/// to: its creature, hit points and speed, and whether it casts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnShape {
    /// Its own creature's index in the encounter.
    pub spec: u16,
    /// Its hit points when it took the form.
    pub hp: i32,
    /// Its hit point maximum.
    pub max_hp: i32,
    /// Its speed before injuries (after its permanent wounds).
    pub base_speed: i32,
    /// It casts attack, control or buff spells.
    pub spell_caster: bool,
    /// It casts healing spells.
    pub casts: bool,
}

/// A spreading venom in one of a creature's limbs (docs/combat.md,
/// "Spreading venom"; our extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Venom {
    /// The poisoned limb (an index into [`LIMBS`]).
    pub limb: u8,
    /// The round of this fight in which it spreads past the limb.
    pub spreads_at: u16,
    /// Its rider, an index into the encounter's spreading riders.
    pub rider: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
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

impl State {
    /// How many states there are (`state as usize` is below it): the
    /// last one's index plus one.
    pub const COUNT: usize = State::Fled as usize + 1;
}

/// The castings a day of each daily spell of `spec`'s Spellcasting, by
/// counter.
pub(super) fn daily_spells(spec: &CreatureSpec) -> [u8; MAX_DAILY_SPELLS] {
    let mut out = [0; MAX_DAILY_SPELLS];
    for i in spec.known_spells.iter().filter_map(|k| k.innate) {
        if let Some(left) = out.get_mut(usize::from(i.counter)) {
            *left = i.per_day;
        }
    }
    out
}

impl Fighter {
    /// Whether it can cast the Spellcasting spell `i` now: at will, or
    /// with castings left today.
    pub(super) fn has_casting(&self, i: crate::combat::spell::Innate) -> bool {
        i.per_day == 0 || self.daily_spells[usize::from(i.counter)] > 0
    }
}

/// One creature's state in a trial.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fighter {
    pub(super) spec: usize,
    pub(super) party: bool,
    pub(super) hp: i32,
    /// Temporary hit points: lost first, not healed, not stacking (the
    /// higher stays), gone after a long rest (Dark One's Blessing).
    pub(super) temp_hp: i32,
    pub(super) max_hp: i32,
    pub(super) state: State,
    pub(super) tally: Tally,
    pub(super) initiative: i32,
    pub(super) heal_uses: u8,
    pub(super) potions: crate::combat::creature::Potions,
    /// Spell slots left, 1st to 9th level.
    pub(super) slots: [u8; 9],
    /// Castings left today of each daily spell of a monster's
    /// Spellcasting, by its counter ([`crate::combat::spell::Innate`]).
    pub(super) daily_spells: [u8; MAX_DAILY_SPELLS],
    /// Diamonds left for *revivify*.
    pub(super) diamonds: u8,
    /// Maximum HP *aid* adds while it lasts (0: none in force).
    pub(super) aid_hp: i32,
    /// The round of the current fight in which it died, for *revivify*
    /// (0: alive, or died this round; [`NEVER_REVIVED`]: dead since before
    /// this fight).
    pub(super) died_round: u32,
    /// It has spells to cast in a fight.
    pub(super) casts: bool,
    pub(super) smite_uses: u8,
    pub(super) rage_uses: u8,
    pub(super) raging: bool,
    /// Relentless Rage saves made since the last long rest (the DC grows).
    pub(super) relentless_uses: u8,
    pub(super) breath_ready: bool,
    /// Its War Cry is recharged.
    pub(super) war_cry_ready: bool,
    /// Its War Cry's advantage on attack rolls, until the start of its
    /// next turn.
    pub(super) cried: bool,
    pub(super) regen_blocked: bool,
    pub(super) once_used: bool,
    pub(super) wounds: WoundSlots,
    /// Per severity, the example of the wound it carries (its index in the
    /// examples of that severity, plus one; 0: none of that severity).
    pub(super) wound_examples: [u8; 3],
    /// Effects that last: permanent wounds, broken weapon or armour.
    pub(super) lasting_effects: u16,
    /// All effects in force: permanent wounds plus lingering injuries.
    pub(super) effects: u16,
    /// Lingering injuries, by table entry (the first [`REMEMBERED`]).
    pub(super) injuries: [u8; REMEMBERED],
    pub(super) n_injuries: u8,
    pub(super) eyes_lost: u8,
    pub(super) lost_max_hp: i32,
    /// Limb HP for called shots, in [`LIMBS`] order.
    pub(super) limb_hp: [u8; 4],
    /// Severed limbs, a bit per [`LIMBS`] index.
    pub(super) severed: u8,
    /// Speed before lingering injuries and severed limbs: its own, less
    /// what permanent wounds took (feet).
    pub(super) base_speed: i32,
    /// Speed in force (feet per round; positions only).
    pub(super) speed: i32,
    /// Falls prone after a Dash: 0 never, [`ALWAYS_PRONE`] always, else the
    /// DC of the Dexterity save that keeps it standing.
    pub(super) prone_after_dash: u8,
    /// Place along the line of battle, feet (positions only).
    pub(super) x: i32,
    /// Its reaction is unused since the start of its last turn.
    pub(super) reaction: bool,
    /// Prone (positions only): knocked to 0 HP, or fallen after a Dash.
    pub(super) prone: bool,
    /// Penalty to its attack rolls, saving throws and ability checks
    /// (the Medicine check to stabilise) after a return from the dead (SRD *raise dead*, *resurrection*: 4, less 1 per long
    /// rest; campaigns only).
    pub(super) return_penalty: u8,
    /// The part of [`Fighter::return_penalty`] its death saves take (0
    /// when the campaign reads death saves as outside the penalty).
    pub(super) death_save_penalty: u8,
    /// Hit dice left to spend on short rests.
    pub(super) hit_dice: u8,
    /// A spreading venom in one of its limbs (our extension).
    pub(super) venom: Option<Venom>,
    /// What spells left on it in this fight.
    pub(super) spells: SpellState,
    /// It casts attack, control or buff spells ([`CreatureSpec::known_spells`]).
    pub(super) spell_caster: bool,
    /// Some spell of its Spellcasting may replace one attack of its
    /// Multiattack.
    pub(super) spell_for_attack: bool,
    /// This turn a spell replaced one attack of its Multiattack.
    pub(super) attack_replaced: bool,
    /// Its next attack comes right after a charge's move toward its target
    /// (positions; read and cleared by that attack).
    pub(super) charging: bool,
    /// Its *shield*-like reaction spell: index into its known spells plus
    /// one (0: none).
    pub(super) shield_spell: u8,
    /// What it has left of its class features (Action Surge, ki, ...).
    pub(super) feats: FeatureState,
    /// The encounter's index of its Wild Shape form's creature
    /// ([`NO_FORM`]: none).
    pub(super) wild_form: u16,
    /// Its own shape while it is in its Wild Shape form (`None`: in its
    /// own).
    pub(super) shape: Option<OwnShape>,
    /// Legendary action uses left this round (`encounter/legendary.rs`).
    pub(super) legendary_uses: u8,
    /// Its legendary options taken since the start of its turn (a bit each).
    pub(super) legendary_taken: u8,
    /// Legendary Resistance uses left today.
    pub(super) legendary_resistances: u8,
    /// A failed save's lingering effects ([`crate::combat::creature::Hampered`]),
    /// until the end of its next turn.
    pub(super) hampered: crate::combat::creature::Hampered,
    // Per-trial tallies.
    pub(super) went_down: bool,
    pub(super) crits_taken: u32,
    pub(super) hp_lost: i64,
}

impl Fighter {
    /// A creature at the start of a trial: its starting HP (0 for a PC
    /// means dying), full resources, the scenario's existing wounds for PCs.
    pub(super) fn new(
        index: usize,
        spec: &CreatureSpec,
        party: bool,
        rules: &EncounterRules,
    ) -> Self {
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
            temp_hp: 0,
            max_hp: spec.max_hp,
            state,
            tally: Tally::default(),
            initiative: 0,
            heal_uses: spec.heal.map_or(0, |h| h.uses),
            potions: spec.potions,
            slots: spec.spell_slots(),
            daily_spells: daily_spells(spec),
            diamonds: spec.spellbook.as_ref().map_or(0, |b| b.diamonds),
            aid_hp: 0,
            died_round: if state == State::Dead {
                NEVER_REVIVED
            } else {
                0
            },
            casts: spec.casts_spells(),
            smite_uses: spec.once_per_turn.and_then(|o| o.uses).unwrap_or(0),
            rage_uses: spec.rage.map_or(0, |r| r.uses),
            raging: false,
            relentless_uses: 0,
            breath_ready: spec.breath.is_some(),
            war_cry_ready: spec.war_cry.is_some(),
            cried: false,
            regen_blocked: false,
            once_used: false,
            wounds: if party {
                rules.death_saves.existing_wounds
            } else {
                WoundSlots::EMPTY
            },
            wound_examples: [0; 3],
            lasting_effects: 0,
            effects: 0,
            injuries: [0; REMEMBERED],
            n_injuries: 0,
            eyes_lost: 0,
            lost_max_hp: 0,
            limb_hp: limb_hp(spec),
            severed: 0,
            base_speed: spec.speed,
            speed: spec.speed,
            prone_after_dash: 0,
            x: 0,
            reaction: true,
            prone: false,
            return_penalty: 0,
            death_save_penalty: 0,
            hit_dice: spec.hit_dice.map_or(0, |h| h.count),
            venom: None,
            spells: SpellState::EMPTY,
            spell_caster: !spec.known_spells.is_empty(),
            spell_for_attack: spec
                .known_spells
                .iter()
                .any(|k| k.innate.is_some_and(|i| i.replaces_attack)),
            attack_replaced: false,
            charging: false,
            shield_spell: spec
                .known_spells
                .iter()
                .position(|k| k.spell.casting_time == crate::combat::spell::CastingTime::Reaction)
                .map_or(0, |i| i as u8 + 1),
            feats: FeatureState::full(&spec.class_features),
            wild_form: NO_FORM,
            shape: None,
            legendary_uses: spec.legendary.as_ref().map_or(0, |l| l.uses),
            legendary_taken: 0,
            legendary_resistances: spec.legendary_resistance,
            hampered: crate::combat::creature::Hampered::NONE,
            went_down: state == State::Dying,
            crits_taken: 0,
            hp_lost: 0,
        }
    }
}

impl Fighter {
    /// Conscious and not incapacitated: it can take actions and reactions
    /// (SRD 5.2 "Incapacitated").
    pub(super) fn can_act(&self) -> bool {
        self.state == State::Up
            && self.spells.conditions & crate::combat::spell::bits::INCAPACITATED == 0
    }

    /// It can take a reaction now: it can act and its reaction is unused
    /// since the start of its turn.
    pub(super) fn can_react(&self) -> bool {
        self.reaction && self.can_act()
    }

    /// Stable at 0 HP: it stops rolling death saves, and both tallies reset
    /// to zero (SRD 5.1: "The number of both is reset to zero when you
    /// regain any hit points or become stable"), so damage taken later
    /// starts a fresh tally. Three successes, a Medicine check and a
    /// permanent wound all end here.
    pub(super) fn become_stable(&mut self) {
        self.state = State::Stable;
        self.tally = Tally::default();
    }
}
