//! Setting up: an encounter built once from its creatures and rules (the
//! fighters of a trial's start, the targeting threat, the one-handed
//! fall-backs), and the reset between two chained fights (monsters anew,
//! the party rested or not, docs/rules.md, permanent wounds wounds kept).

use super::fighter::{Fighter, NEVER_REVIVED, State};
use super::{Arena, Encounter};
use crate::combat::creature::{Attack, CreatureSpec};
use crate::combat::policy::{Between, EncounterRules};
use crate::combat::wounds::WoundExamples;
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

impl Encounter {
    /// Builds an encounter; `party.len()` must be at most [`MAX_PCS`]. A PC
    /// that accepts a permanent wound takes one of `wound_examples`.
    pub fn new(
        party: Vec<CreatureSpec>,
        monsters: Vec<CreatureSpec>,
        rules: EncounterRules,
        wound_examples: WoundExamples,
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
        let casters = party.iter().any(CreatureSpec::casts_spells);
        Encounter {
            party,
            monsters,
            rules,
            threat,
            one_handed,
            all,
            casters,
            initial,
            wound_examples,
        }
    }

    #[inline]
    pub(super) fn spec(&self, index: usize) -> &CreatureSpec {
        &self.all[index]
    }

    /// Resets monsters and rests the party between two fights.
    pub(super) fn between_fights(&self, arena: &mut Arena) {
        for f in arena.fighters.iter_mut() {
            let spec = self.spec(f.spec);
            if !f.party {
                // Monsters anew: every per-creature field as at the start
                // of the trial (HP, state, limbs, lingering injuries and
                // their effects, speed, resources); nothing of theirs
                // persists from one fight to the next.
                *f = self.initial[f.spec];
                continue;
            }
            if f.state == State::Dead {
                // Past a minute: beyond revivify.
                f.died_round = NEVER_REVIVED;
                continue;
            }
            if self.rules.between == Between::LongRest {
                // Aid lasts 8 hours; the slots come back.
                f.aid_hp = 0;
                f.slots = spec.spell_slots();
            }
            f.max_hp = (spec.max_hp - f.lost_max_hp).max(1) + f.aid_hp;
            if self.rules.between == Between::LongRest {
                // The limbs still attached heal; a severed one stays lost.
                f.limb_hp = self.initial[f.spec].limb_hp;
                f.hp = f.max_hp;
                f.heal_uses = spec.heal.map_or(0, |h| h.uses);
                f.smite_uses = spec.once_per_turn.and_then(|o| o.uses).unwrap_or(0);
                f.rage_uses = spec.rage.map_or(0, |r| r.uses);
                f.relentless_uses = 0;
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
}
