//! Setting up: an encounter built once from its creatures and rules (the
//! fighters of a trial's start, the targeting threat, the one-handed
//! fall-backs), and the reset between two chained fights (monsters anew,
//! the party rested or not, docs/rules.md, permanent wounds wounds kept).

use rand::Rng;

use super::feature_state::FeatureState;
use super::fighter::{Fighter, NEVER_REVIVED, State};
use super::{Arena, Encounter};
use crate::combat::creature::{Attack, CreatureSpec};
use crate::combat::effect;
use crate::combat::policy::{Between, EncounterRules};
use crate::combat::wounds::WoundExamples;
use crate::dice::{DiceExpr, roll_die};
use crate::rules::death_saves::Tally;

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

/// A broken weapon forces an improvised one: 1d4 with the same bonus, in
/// one hand; a spell attack needs no weapon.
fn improvised(attacks: &[Attack]) -> Vec<Attack> {
    attacks
        .iter()
        .map(|attack| {
            let mut a = attack.clone();
            if !a.spell {
                a.damage = DiceExpr {
                    count: 1,
                    sides: 4,
                    ..a.damage
                };
                a.two_handed = false;
            }
            a
        })
        .collect()
}

/// A creature's attacks as it can make them without the use of two hands,
/// with a broken weapon, and both ([`Encounter::attack_in_hand`]).
fn attacks_in_hand(spec: &CreatureSpec) -> [Vec<Attack>; 3] {
    let one_handed = one_handed_attacks(spec);
    let broken = improvised(&spec.attacks);
    let both = improvised(&one_handed);
    [one_handed, broken, both]
}

/// Whether the casting policy weighs something of `c` as a foe: damage
/// defenses, Magic Resistance, Legendary Resistance.
fn weighs_defenses(c: &CreatureSpec) -> bool {
    c.has_damage_defenses() || c.magic_resistance || c.legendary_resistance > 0
}

/// Whether `c` puts conditions that last to the end of their source's
/// next turn: Stunning Strike's stun, a hit's poison.
fn puts_turn_limited_conditions(c: &CreatureSpec) -> bool {
    c.class_features.ki > 0 || c.poisons_on_hit()
}

/// Whether `c` puts conditions the loop keeps as spell state: its spells,
/// the conditions above, a hit (or a charge) that knocks prone.
fn puts_conditions(c: &CreatureSpec) -> bool {
    !c.known_spells.is_empty()
        || puts_turn_limited_conditions(c)
        || c.attacks.iter().any(|a| {
            a.knocks_prone.is_some()
                || a.hit_condition.is_some()
                || a.charge.is_some_and(|c| c.prone)
        })
        || c.grapples()
}

/// What the casting policy weighs of each known spell of `spec` at each
/// slot, for its level.
fn spell_weights(spec: &CreatureSpec) -> Vec<super::spell_weights::SpellWeights> {
    spec.known_spells
        .iter()
        .map(|k| super::spell_weights::SpellWeights::of(k, spec.level))
        .collect()
}

impl Encounter {
    /// Builds an encounter; `party.len()` must be at most [`MAX_PCS`]. A PC
    /// that accepts a permanent wound takes one of `wound_examples`.
    pub fn new(
        party: Vec<CreatureSpec>,
        mut monsters: Vec<CreatureSpec>,
        rules: EncounterRules,
        wound_examples: WoundExamples,
    ) -> Self {
        // Spreading venom (our extension): the listed monster attacks'
        // riders spread instead of striking at once.
        let mut venom_riders = Vec::new();
        if let Some(venom) = &rules.venom {
            for attack in monsters.iter_mut().flat_map(|m| m.attacks.iter_mut()) {
                if let Some(rider) = attack
                    .rider
                    .as_mut()
                    .filter(|_| venom.attacks.contains(&attack.name))
                {
                    rider.spreads = true;
                    if !venom_riders.contains(rider) {
                        venom_riders.push(*rider);
                    }
                }
            }
        }
        let mean_ac = |side: &[CreatureSpec]| {
            side.iter().map(|c| c.ac as f64).sum::<f64>() / side.len().max(1) as f64
        };
        let (party_ac, monster_ac) = (mean_ac(&party), mean_ac(&monsters));
        let threat = party
            .iter()
            .map(|c| c.threat(monster_ac.round() as i32))
            .chain(monsters.iter().map(|c| c.threat(party_ac.round() as i32)))
            .collect();
        let in_hand = party.iter().chain(&monsters).map(attacks_in_hand).collect();
        let all: Vec<CreatureSpec> = party.iter().chain(&monsters).cloned().collect();
        let initial = all
            .iter()
            .enumerate()
            .map(|(i, spec)| Fighter::new(i, spec, i < party.len(), &rules))
            .collect();
        let spell_weights = all.iter().map(spell_weights).collect();
        let casters = party.iter().any(CreatureSpec::casts_spells);
        // Stunning Strike's stuns are spell state: the loop looks at it.
        let stunners = all.iter().any(puts_turn_limited_conditions);
        let auras = all.iter().any(|c| c.class_features.aura > 0);
        let legendary = all.iter().any(|c| c.legendary.is_some());
        let spellcasting = all.iter().any(puts_conditions);
        let grapplers = all.iter().any(CreatureSpec::grapples);
        let immunities = all.iter().any(|c| c.condition_immune != 0);
        let aims_conditions = immunities || all.iter().any(|c| c.legendary_resistance > 0);
        let defenses = all.iter().any(weighs_defenses);
        let damage_auras = all.iter().any(|c| c.damage_aura.is_some());
        let rare_traits = all.iter().any(has_rare_traits);
        let hampering = all.iter().any(hampers);
        let emanations = all.iter().any(has_emanation);
        let fielded = all.len();
        let mut encounter = Encounter {
            party,
            monsters,
            rules,
            threat,
            spell_weights,
            in_hand,
            all,
            casters,
            spellcasting,
            stunners,
            auras,
            legendary,
            grapplers,
            immunities,
            defenses,
            aims_conditions,
            damage_auras,
            rare_traits,
            hampering,
            emanations,
            initial,
            wound_examples,
            venom_riders,
            fielded,
            forms_from: fielded,
        };
        encounter.add_forms();
        encounter
    }

    /// The Wild Shape forms of the fielded creatures and the bench, after
    /// them: each form a creature of its own, which a druid's fighter
    /// points to ([`Fighter::wild_form`]) and becomes by Wild Shape.
    fn add_forms(&mut self) {
        self.forms_from = self.all.len();
        for i in 0..self.forms_from {
            let Some(form) = self.all[i].wild_shape.as_deref().cloned() else {
                continue;
            };
            let index = self.all.len();
            self.spellcasting |= puts_conditions(&form);
            self.grapplers |= form.grapples();
            self.immunities |= form.condition_immune != 0;
            self.damage_auras |= form.damage_aura.is_some();
            self.rare_traits |= has_rare_traits(&form);
            self.hampering |= hampers(&form);
            self.emanations |= has_emanation(&form);
            self.defenses |= weighs_defenses(&form);
            self.aims_conditions |= form.condition_immune != 0 || form.legendary_resistance > 0;
            self.initial
                .push(Fighter::new(index, &form, true, &self.rules));
            self.in_hand.push(attacks_in_hand(&form));
            self.spell_weights.push(spell_weights(&form));
            self.all.push(form);
            self.initial[i].wild_form = u16::try_from(index).unwrap_or(super::fighter::NO_FORM);
        }
    }

    /// This encounter with a bench: `below`, each PC's template one level
    /// below the party's (in party order), which a replacement who joins a
    /// level behind fights with (docs/campaign.md, `replace_dead`).
    pub fn with_bench(mut self, below: Vec<CreatureSpec>) -> Self {
        assert_eq!(below.len(), self.party.len(), "one bench template per PC");
        self.stunners |= below.iter().any(puts_turn_limited_conditions);
        self.auras |= below.iter().any(|c| c.class_features.aura > 0);
        self.spellcasting |= below.iter().any(puts_conditions);
        self.defenses |= below.iter().any(weighs_defenses);
        self.all.truncate(self.fielded);
        self.initial.truncate(self.fielded);
        self.in_hand.truncate(self.fielded);
        self.spell_weights.truncate(self.fielded);
        for f in &mut self.initial {
            f.wild_form = super::fighter::NO_FORM;
        }
        for spec in below {
            let index = self.all.len();
            self.initial
                .push(Fighter::new(index, &spec, true, &self.rules));
            self.in_hand.push(attacks_in_hand(&spec));
            self.spell_weights.push(spell_weights(&spec));
            self.all.push(spec);
        }
        self.add_forms();
        self
    }

    /// The bench's fighter and template of PC `pc`, if there is a bench.
    pub(super) fn bench(&self, pc: usize) -> Option<(&Fighter, &CreatureSpec)> {
        let i = self.fielded + pc;
        if i >= self.forms_from {
            return None;
        }
        Some((self.initial.get(i)?, self.all.get(i)?))
    }

    #[inline]
    pub(super) fn spec(&self, index: usize) -> &CreatureSpec {
        &self.all[index]
    }

    /// Resets monsters and rests the party between two fights.
    pub(super) fn between_fights<R: Rng + ?Sized>(&self, rng: &mut R, arena: &mut Arena) {
        for f in arena.fighters.iter_mut() {
            if !f.party {
                // Monsters anew: every per-creature field as at the start
                // of the trial (HP, state, limbs, lingering injuries and
                // their effects, speed, resources); nothing of theirs
                // persists from one fight to the next.
                *f = self.initial[f.spec];
                continue;
            }
            self.rest_between_fights(rng, f, self.rules.between);
        }
    }

    /// A PC between two fights: the rest `kind` (docs/combat.md, "Between
    /// fights"); a stable PC is up at 1 HP before the next fight (it regains
    /// 1 HP after 1d4 hours).
    pub(super) fn rest_between_fights<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        f: &mut Fighter,
        kind: Between,
    ) {
        let spec = self.spec(f.spec);
        if f.state == State::Dead {
            // Past a minute: beyond revivify.
            f.died_round = NEVER_REVIVED;
            return;
        }
        if kind == Between::LongRest {
            // Aid lasts 8 hours, temporary hit points end; the slots come
            // back.
            f.aid_hp = 0;
            f.temp_hp = 0;
            f.slots = spec.spell_slots();
            f.daily_spells = super::fighter::daily_spells(spec);
        }
        f.max_hp = (spec.max_hp - f.lost_max_hp).max(1) + f.aid_hp;
        if kind == Between::LongRest {
            // The limbs still attached heal; a severed one stays lost.
            f.limb_hp = self.initial[f.spec].limb_hp;
            f.hp = f.max_hp;
            f.heal_uses = spec.heal.map_or(0, |h| h.uses);
            f.smite_uses = spec.once_per_turn.and_then(|o| o.uses).unwrap_or(0);
            f.rage_uses = spec.rage.map_or(0, |r| r.uses);
            f.relentless_uses = 0;
            f.feats = FeatureState::full(&spec.class_features);
            f.hit_dice = regained_hit_dice(spec, f.hit_dice);
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
        if kind == Between::ShortRest {
            if let Some(h) = spec.heal.filter(|h| h.short_rest) {
                f.heal_uses = h.uses;
            }
            // Pact Magic: the slots come back on a short rest (those of
            // Mystic Arcanum, above 5th level, on a long rest only).
            if spec.spellbook.as_ref().is_some_and(|b| b.short_rest_slots) {
                let all = spec.spell_slots();
                f.slots[..PACT_SLOT_MAX].copy_from_slice(&all[..PACT_SLOT_MAX]);
            }
            // Action Surge, ki, Channel Divinity, Font of Inspiration.
            f.feats.short_rest(&spec.class_features);
            spend_hit_dice(rng, spec, f);
        }
    }
}

/// The highest level of a Pact Magic slot (SRD 5.1 "Pact Magic"); a
/// warlock's slots above it are its Mystic Arcanum.
pub const PACT_SLOT_MAX: usize = 5;

/// Hit dice after a long rest: half the total back (at least one), never
/// more than the total.
pub(super) fn regained_hit_dice(spec: &CreatureSpec, left: u8) -> u8 {
    spec.hit_dice.map_or(0, |h| {
        left.saturating_add(h.regained_by_long_rest()).min(h.count)
    })
}

/// A short rest's healing: hit dice spent one at a time while the PC is
/// below its maximum, each die's roll plus the Constitution modifier (at
/// least 0) regained; each die one size smaller with severe internal
/// bruising ([`effect::SMALLER_HIT_DICE`]).
fn spend_hit_dice<R: Rng + ?Sized>(rng: &mut R, spec: &CreatureSpec, f: &mut Fighter) {
    let Some(h) = spec.hit_dice else {
        return;
    };
    let die = if f.effects & effect::SMALLER_HIT_DICE != 0 {
        one_size_smaller(h.die)
    } else {
        h.die
    };
    while f.hit_dice > 0 && f.hp < f.max_hp {
        f.hit_dice -= 1;
        let regained = roll_die(rng, u32::from(die)) as i32 + i32::from(h.con);
        f.hp = (f.hp + regained.max(0)).min(f.max_hp);
    }
}

/// The die one size below `die` among d4, d6, d8, d10, d12 (a d10 becomes a
/// d8; **ours**: a d4, the smallest, stays a d4, and a die off that ladder
/// loses 2 faces).
pub(super) fn one_size_smaller(die: u8) -> u8 {
    match die {
        0..=4 => die,
        d => d - 2,
    }
}

/// Bloodied Fury or Frenzy, War Cry or an Absorption.
fn has_rare_traits(c: &CreatureSpec) -> bool {
    c.bloodied_advantage.is_some()
        || c.war_cry.is_some()
        || c.absorbs != crate::rules::damage::DamageTypes::NONE
}

/// A save of its legendary options leaves effects until the target's
/// next turn.
fn hampers(c: &CreatureSpec) -> bool {
    c.legendary.as_ref().is_some_and(|l| {
        l.options.iter().any(|o| {
            matches!(o.effect, crate::combat::creature::LegendaryEffect::Save(a) if a.on_failure.any())
        })
    })
}

/// It knows a spell of ongoing damage in an emanation around itself.
fn has_emanation(c: &CreatureSpec) -> bool {
    c.known_spells.iter().any(|k| k.spell.is_caster_emanation())
}
