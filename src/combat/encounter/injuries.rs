//! Lingering injuries in combat (docs/rules.md, lingering injuries): a critical hit taken or a
//! natural 1 rolled (or, under the seed's `any_miss` reading, any miss) may
//! roll on the injury table, and the entry's tags act
//! in the fight — action-loss saves (skull fracture, internal injury, broken
//! ribs, a painful scar in bad weather), action *or* bonus action (punctured
//! lung) and the second punctured lung dropping the creature to 0 HP,
//! blindness once both eyes are lost, disadvantage on ranged attacks (eye
//! injuries), no two-handed weapon (lost or broken arm), a broken weapon
//! (an improvised 1d4 instead) or armour (AC −2), and spells with a verbal
//! component failing on a d20 of 1 (knocked-out teeth).

use rand::Rng;

use super::fighter::{ALWAYS_PRONE, Fighter, REMEMBERED, State, severed_effects, severed_speed};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::Ability;
use crate::combat::effect;
use crate::combat::policy::CombatInjuries;
use crate::dice::roll_die;
use crate::rules::death_saves::Tally;
use crate::rules::injury_tags::{self, Check, Component, Cure, Effect, ItemKind, MagicClass};
use crate::rules::lingering::{MissTrigger, Side};

fn ability(a: injury_tags::Ability) -> Ability {
    match a {
        injury_tags::Ability::Strength => Ability::Str,
        injury_tags::Ability::Dexterity => Ability::Dex,
        injury_tags::Ability::Constitution => Ability::Con,
        injury_tags::Ability::Intelligence => Ability::Int,
        injury_tags::Ability::Wisdom => Ability::Wis,
        injury_tags::Ability::Charisma => Ability::Cha,
    }
}

impl Encounter {
    fn injury_rules(&self) -> Option<&CombatInjuries> {
        self.rules.injuries.as_ref()
    }

    /// A missed attack roll (`natural_one`: a natural 1): the attacker may
    /// be injured — on a natural 1, or on any miss under the seed's
    /// `any_miss` reading.
    #[inline]
    pub(super) fn missed<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        attacker: usize,
        natural_one: bool,
        out: &mut TrialOutcome,
    ) {
        if let Some(rules) = self.injury_rules() {
            let counts = natural_one || rules.miss_trigger == MissTrigger::AnyMiss;
            if rules.trigger.on_crit_miss && counts {
                self.maybe_injure(rng, arena, attacker, rules, out);
            }
        }
    }

    /// A critical hit taken: the target may be injured.
    pub(super) fn critically_hit<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        out: &mut TrialOutcome,
    ) {
        if let Some(rules) = self.injury_rules() {
            if rules.trigger.on_crit_hit && arena.fighters[target].state != State::Dead {
                self.maybe_injure(rng, arena, target, rules, out);
            }
        }
    }

    pub(super) fn maybe_injure<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        who: usize,
        rules: &CombatInjuries,
        out: &mut TrialOutcome,
    ) {
        let side = if arena.fighters[who].party {
            Side::Pc
        } else {
            Side::Monster
        };
        if !rules.trigger.applies_to.covers(side) || !rules.table.chance.sample(rng) {
            return;
        }
        let index = rules.table.lookup(roll_die(rng, 100) as u8);
        let entry = &rules.table.entries[index];
        let f = &mut arena.fighters[who];
        let same_before = f.injuries[..usize::from(f.n_injuries).min(REMEMBERED)]
            .iter()
            .filter(|&&i| usize::from(i) == index)
            .count() as u32;
        if usize::from(f.n_injuries) < REMEMBERED {
            f.injuries[usize::from(f.n_injuries)] = index as u8;
        }
        f.n_injuries = f.n_injuries.saturating_add(1);
        if f.party {
            out.injuries += 1;
            // PCs come first among the fighters, in party order.
            if let Some(count) = out.pc_injuries.get_mut(who) {
                *count = count.saturating_add(1);
            }
            if let Some(count) = out.pc_injury_entries.get_mut(index) {
                *count = count.saturating_add(1);
            }
        }
        if entry.drops_to_zero_at(same_before + 1) && matches!(f.state, State::Up) {
            f.hp_lost += i64::from(f.hp);
            f.hp = 0;
            if f.party && self.spec(f.spec).is_pc {
                f.state = State::Dying;
                f.tally = Tally::default();
                f.went_down = true;
                f.raging = false;
            } else {
                f.went_down |= f.party;
                f.state = State::Dead;
            }
        }
        if let Some((die, _)) = entry.item_table() {
            match entry.broken_item(roll_die(rng, u32::from(die)) as u8) {
                Some(ItemKind::Weapon) => f.lasting_effects |= effect::WEAPON_BROKEN,
                Some(ItemKind::ArmorOrShield) => f.lasting_effects |= effect::ARMOR_BROKEN,
                _ => {}
            }
        }
        self.recompute_effects(arena, who);
    }

    /// The effects in force: lasting ones, those of severed limbs (called
    /// shots) and those of the remembered injuries.
    pub(super) fn recompute_effects(&self, arena: &mut Arena, who: usize) {
        self.recompute_effects_of(&mut arena.fighters[who]);
    }

    /// [`Encounter::recompute_effects`] of one fighter.
    pub(super) fn recompute_effects_of(&self, f: &mut Fighter) {
        if f.n_injuries == 0 && f.severed == 0 {
            // Nothing but the lasting effects (the common case, at every
            // long rest of a campaign): what the general path below gives
            // without its loops (about 1% of a campaign's instructions,
            // callgrind).
            f.effects = f.lasting_effects;
            f.eyes_lost = 0;
            f.speed = f.base_speed;
            f.prone_after_dash = 0;
            return;
        }
        let mut effects = f.lasting_effects | severed_effects(f.severed);
        let mut eyes = 0u32;
        // Speed (positions): each severed leg as *lose a foot or leg*.
        let (mut speed, mut prone_dc) = severed_speed(f.base_speed, f.severed);
        if let Some(rules) = self.injury_rules() {
            for &i in &f.injuries[..usize::from(f.n_injuries).min(REMEMBERED)] {
                let entry = &rules.table.entries[usize::from(i)];
                speed = entry.speed(speed);
                for e in &entry.effects {
                    match e {
                        Effect::ProneAfterDash { save_dc } => {
                            prone_dc = prone_dc.max(save_dc.map_or(ALWAYS_PRONE, |d| d.min(254)));
                        }
                        Effect::Disadvantage { on } if on.contains(&Check::RangedAttacks) => {
                            effects |= effect::DIS_RANGED;
                        }
                        Effect::OneHandOnly => effects |= effect::NO_TWO_HANDED,
                        Effect::BlindedWhenAllLost { .. } => {
                            eyes += 1;
                            if entry.blinds_after(eyes) {
                                effects |= effect::BLINDED;
                            }
                        }
                        Effect::ActionOrBonusAction => effects |= effect::ACTION_OR_BONUS,
                        Effect::SpellFailure { .. } => effects |= effect::SPELL_FAILURE,
                        _ => {}
                    }
                }
            }
        }
        f.effects = effects;
        f.eyes_lost = eyes.min(255) as u8;
        f.speed = speed;
        f.prone_after_dash = prone_dc;
    }

    /// Magical healing (a spell or a potion) cures every injury that "any
    /// magical healing" cures (docs/rules.md, lingering injuries), and
    /// healing magic of 6th level or higher (`sixth_level`: *heal*) also
    /// those that need it (scars).
    pub(super) fn cure_by_magical_healing(&self, arena: &mut Arena, who: usize, sixth_level: bool) {
        let Some(rules) = self.injury_rules() else {
            return;
        };
        let f = &mut arena.fighters[who];
        let remembered = usize::from(f.n_injuries).min(REMEMBERED);
        let kept: Vec<u8> = f.injuries[..remembered]
            .iter()
            .copied()
            .filter(|&i| {
                !rules.table.entries[usize::from(i)]
                    .cures
                    .iter()
                    .any(|c| match c {
                        Cure::Magic { class } => {
                            *class == MagicClass::MagicalHealing
                                || (sixth_level && *class == MagicClass::Healing6th)
                        }
                        _ => false,
                    })
            })
            .collect();
        if kept.len() == remembered {
            return;
        }
        f.injuries = [0; REMEMBERED];
        f.injuries[..kept.len()].copy_from_slice(&kept);
        f.n_injuries = kept.len() as u8;
        self.recompute_effects(arena, who);
    }

    /// Whether the creature loses its action this turn to an action-loss
    /// save (one save per such injury).
    #[inline]
    pub(super) fn loses_action<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
    ) -> bool {
        arena.fighters[me].n_injuries > 0 && self.action_loss_saves(rng, arena, me)
    }

    /// The action-loss saves of an injured creature.
    fn action_loss_saves<R: Rng + ?Sized>(&self, rng: &mut R, arena: &Arena, me: usize) -> bool {
        let Some(rules) = self.injury_rules() else {
            return false;
        };
        let f = &arena.fighters[me];
        let spec = self.spec(f.spec);
        for &i in &f.injuries[..usize::from(f.n_injuries).min(REMEMBERED)] {
            let entry = &rules.table.entries[usize::from(i)];
            for e in &entry.effects {
                if let Effect::ActionLossSave { ability: a, .. } = e {
                    let total = i32::from(roll_die(rng, 20) as u8) + spec.save(ability(*a));
                    if entry.action_lost(total, rules.bad_weather) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether a spell the creature casts now fails (a verbal component and
    /// a d20 of 1, for knocked-out teeth).
    pub(super) fn spell_fails<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        me: usize,
    ) -> bool {
        let Some(rules) = self.injury_rules() else {
            return false;
        };
        let f = &arena.fighters[me];
        if f.effects & effect::SPELL_FAILURE == 0 {
            return false;
        }
        let roll = roll_die(rng, 20) as u8;
        f.injuries[..usize::from(f.n_injuries).min(REMEMBERED)]
            .iter()
            .any(|&i| rules.table.entries[usize::from(i)].spell_fails(Component::Verbal, roll))
    }
}
