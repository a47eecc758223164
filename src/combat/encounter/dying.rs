//! Dying (SRD 5.1, docs/rules.md, death saves, §2): a dying PC's death save at the start
//! of its turn (a natural 20 gets it up and it acts), a regenerating
//! monster at 0 HP getting up or dying, three successes stabilising it,
//! and a permanent wound instead of death: one example of its severity
//! drawn uniformly from the
//! examples of the data (`data/permanent-wounds.toml`), whose effects last through the chain of fights.

use rand::Rng;

use super::fighter::State;
use super::{Arena, Encounter, TrialOutcome};
use crate::rules::death_saves::{Resolution, SaveStep, Tally};
use crate::rules::permanent_wounds::Severity;

impl Encounter {
    /// The start of the turn of a creature that is not up: a dying PC's
    /// death save, a regenerating monster at 0 HP getting up (or dying);
    /// the dead, fled and stable do nothing. Returns whether it acts.
    #[cold]
    pub(super) fn turn_at_zero_hp<R: Rng + ?Sized>(
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
    pub(super) fn death_save<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        out: &mut TrialOutcome,
    ) -> bool {
        let rules = &self.rules.death_saves;
        let natural = rules.roll.roll(rng);
        let f = &mut arena.fighters[me];
        // A return penalty lowers the total, never the die: a natural 20
        // still revives and only a natural 1 counts twice.
        let natural = match (f.death_save_penalty, natural) {
            (0, n) | (_, n @ (1 | 20)) => n,
            (p, n) => n.saturating_sub(p).max(2),
        };
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

    pub(super) fn take_wound<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        severity: Severity,
        out: &mut TrialOutcome,
    ) {
        let level = i32::from(self.spec(arena.fighters[me].spec).level);
        let examples = self.wound_examples.of(severity);
        let drawn = crate::dice::uniform_below(rng, examples.len() as u64) as usize;
        let example = &examples[drawn];
        let (bits, costs_hp) = (
            example.effects_in_fight(self.rules.wound_attack_disadvantage),
            example.max_hp_per_level,
        );
        let f = &mut arena.fighters[me];
        f.wounds = f.wounds.with(severity);
        f.wound_examples[severity as usize] = (drawn + 1).min(255) as u8;
        f.become_stable();
        f.hp = 0;
        if self.rules.wound_effects {
            f.lasting_effects |= bits;
            f.effects |= bits;
            if costs_hp {
                f.lost_max_hp += level;
            }
            if example.slows() {
                f.base_speed = example.speed(f.base_speed, self.rules.lost_leg_prosthesis);
                self.recompute_effects(arena, me);
            }
        }
        out.wounds[severity as usize] += 1;
    }
}
