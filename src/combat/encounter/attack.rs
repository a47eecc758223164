//! Attacks (SRD 5.1): advantage and disadvantage from rage, reckless
//! attacks, the unconscious and blindness (and, under the reading
//! `wound_attack_disadvantage`, a lost arm's or leg's on Strength or
//! Dexterity weapon attacks; docs/rules.md, "Two readings"); the roll judged by the one
//! attack rule ([`AttackRoll::resolve`]); damage dice doubled on a
//! critical hit, once-per-turn extra damage and riders; breath weapons;
//! saving throws (unconscious creatures fail Strength and Dexterity).

use rand::Rng;

use super::damage::Blow;
use super::fighter::{Fighter, State};
use super::positions::REACH;
use super::spell_state::{Affliction, NO_SOURCE};
use super::{Arena, Encounter, TrialOutcome};
use crate::combat::creature::{
    Ability, AreaSave, Attack, AttackAdvantage, AttackSave, BloodiedWho, Breath, Reach, Sunlight,
};
use crate::combat::effect;
use crate::combat::spell::{Condition, bits};
use crate::dice::{DiceExpr, RollMode};
use crate::rules::attack::{AttackOutcome, AttackRoll};
use crate::rules::damage::{DamageTypes, Size};

/// Whether a wound's disadvantage on an ability's weapon attack rolls
/// (`effects`; the reading `wound_attack_disadvantage`) falls on `attack`:
/// a weapon attack made with Strength or Dexterity (docs/rules.md, "Two
/// readings").
fn ability_disadvantage(effects: u16, attack: &Attack) -> bool {
    match attack.ability {
        Some(Ability::Str) => effects & effect::DIS_STR_ATTACKS != 0,
        Some(Ability::Dex) => effects & effect::DIS_DEX_ATTACKS != 0,
        _ => false,
    }
}

impl Encounter {
    /// A breath weapon: a random subset of the conscious enemies is caught
    /// in the area, each saving for half damage.
    #[inline(never)]
    pub(super) fn breathe<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        breath: Breath,
        out: &mut TrialOutcome,
    ) {
        arena.fighters[me].breath_ready = false;
        self.area_save(rng, arena, me, breath.area(), out);
    }

    /// Damage against a save ([`AreaSave`]): a random subset of the
    /// conscious enemies is caught, the dice rolled once for all, each
    /// saving for half (or none) as it says; Evasion against a Dexterity
    /// save for half: half on a failure, none on a success.
    pub(super) fn area_save<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        area: AreaSave,
        out: &mut TrialOutcome,
    ) {
        self.collect_targets(arena, me);
        let n = usize::from(area.targets).min(arena.scratch.len());
        // A random subset of the conscious enemies is caught in the area.
        crate::dice::choose_front(rng, &mut arena.scratch, n);
        let rolled = area.dice.sample(rng) as i32;
        let on_success = if area.half { rolled / 2 } else { 0 };
        for j in 0..n {
            let t = arena.scratch[j];
            let saved = self.saving_throw(rng, arena, t, area.save.0, area.save.1);
            // Evasion is for a Dexterity save "to take only half damage".
            let evades = area.half
                && area.save.0 == Ability::Dex
                && self.spec(arena.fighters[t].spec).evasion;
            let amount = match (saved, evades) {
                (true, true) => 0,
                (true, false) => on_success,
                (false, true) => rolled / 2,
                (false, false) => rolled,
            };
            if !saved && area.on_failure.any() && arena.fighters[t].state == State::Up {
                let f = &mut arena.fighters[t];
                f.hampered = f.hampered.with(area.on_failure);
            }
            let total = self.after_defenses(arena, t, area.kind, amount);
            self.deal_total(
                rng,
                arena,
                t,
                Blow {
                    amount: total,
                    types: DamageTypes::of([area.kind]),
                    crit: false,
                },
                out,
            );
        }
    }

    /// The end of `me`'s turn: what a failed save left on it "until the end
    /// of its next turn" ends ([`crate::combat::creature::Hampered`]; every
    /// one comes outside its own turn, from a legendary action, so this is
    /// the end of that next turn).
    pub(super) fn hampered_turn_end(arena: &mut Arena, me: usize) {
        arena.fighters[me].hampered = crate::combat::creature::Hampered::NONE;
    }

    /// The armour class of `defender`: its statblock's, less 2 for broken
    /// armour or shield (a lingering injury's broken item, **ours**), less
    /// its shield's part when a lost arm leaves no hand for it (the
    /// permanent wound *lost arm*: no weapon and shield).
    pub(super) fn armor_class(&self, defender: &Fighter) -> i32 {
        let spec = self.spec(defender.spec);
        let broken = if defender.effects & effect::ARMOR_BROKEN != 0 {
            2
        } else {
            0
        };
        let shield = if defender.effects & effect::NO_SHIELD != 0 {
            spec.shield_ac
        } else {
            0
        };
        spec.ac - broken - shield
    }

    /// A saving throw of `target` against `dc`; with an ally's Aura of
    /// Protection and Indomitable's reroll of a failure
    /// (`encounter/features.rs`).
    pub(super) fn saving_throw<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        ability: Ability,
        dc: i32,
    ) -> bool {
        self.save_roll(rng, arena, target, ability, dc, false, false)
    }

    /// A Constitution save to keep concentration, DC `dc`: at disadvantage
    /// while a failed save says so (Cloud of Insects).
    pub(super) fn concentration_save<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        dc: i32,
    ) -> bool {
        let hampered = arena.fighters[target].hampered.concentration_disadvantage;
        self.save_roll(rng, arena, target, Ability::Con, dc, false, hampered)
    }

    /// A saving throw against a spell or another magical effect (Turn
    /// Undead): at advantage with Magic Resistance.
    pub(super) fn magic_save<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        ability: Ability,
        dc: i32,
    ) -> bool {
        let advantage = self.spec(arena.fighters[target].spec).magic_resistance;
        self.save_roll(rng, arena, target, ability, dc, advantage, false)
    }

    /// [`Encounter::saving_throw`], at `advantage` or not, and with a
    /// `hampered` disadvantage or not.
    #[allow(clippy::too_many_arguments)]
    fn save_roll<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        ability: Ability,
        dc: i32,
        advantage: bool,
        hampered: bool,
    ) -> bool {
        let f = &arena.fighters[target];
        let spec = self.spec(f.spec);
        let str_dex = matches!(ability, Ability::Str | Ability::Dex);
        if str_dex
            && (matches!(f.state, State::Dying | State::Stable)
                || f.spells.conditions & bits::FAILS_STR_DEX != 0)
        {
            // Unconscious, paralyzed or stunned: automatically fails
            // Strength and Dexterity saves.
            return false;
        }
        let disadvantage = hampered
            || match ability {
                Ability::Con => f.effects & effect::DIS_CON_SAVES != 0,
                Ability::Str => f.effects & effect::DIS_STR_SAVES != 0,
                Ability::Dex => {
                    f.effects & effect::DIS_DEX_SAVES != 0
                        || f.spells.conditions & bits::DIS_DEX_SAVES != 0
                }
                _ => false,
            }
            || (self.rules.sunlight && spec.sunlight == Some(Sunlight::Weakness));
        // Bloodied Frenzy: advantage on saves while Bloodied.
        let advantage = advantage
            || (self.rare_traits
                && spec.bloodied_advantage.is_some_and(|b| b.on_saves())
                && 2 * f.hp <= f.max_hp);
        let mode = RollMode::with(advantage, disadvantage);
        let natural = i32::from(mode.roll(rng));
        let mut bonus =
            spec.save(ability) - i32::from(f.return_penalty) + self.save_bonus(rng, arena, target);
        if self.auras {
            bonus += self.aura_bonus(arena, target);
        }
        let saved = natural + bonus >= dc;
        if saved || arena.fighters[target].feats.indomitable == 0 {
            return saved;
        }
        self.indomitable(rng, arena, target, mode, bonus, dc)
    }

    /// One attack of `me` on `target`. `POSITIONS` says whether the
    /// scenario has positions (a constant, so the loop without them carries
    /// none of their checks).
    pub(super) fn attack<const POSITIONS: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        target: usize,
        attack: &Attack,
        out: &mut TrialOutcome,
    ) {
        // A charge counts for the attack right after its move only.
        let charge = if POSITIONS && std::mem::take(&mut arena.fighters[me].charging) {
            attack
                .charge
                .filter(|c| self.spec(arena.fighters[target].spec).size <= c.size)
        } else {
            None
        };
        if self.emanations && attack.reach == Reach::Melee {
            self.melee_enters_emanation(arena, me, target);
        }
        if let Some(save) = attack.save {
            self.save_attack(rng, arena, me, target, attack, save, out);
            return;
        }
        let spec = self.spec(arena.fighters[me].spec);
        let (attacker, defender) = (&arena.fighters[me], &arena.fighters[target]);
        let melee = attack.reach == Reach::Melee;
        let unconscious = matches!(defender.state, State::Dying | State::Stable);
        // Conditions from spells (SRD 5.2 "Conditions") and buffs.
        let (spell_adv, spell_dis, spell_crit) = super::spell_lasting::spell_roll_mode(
            attacker.spells.conditions,
            defender.spells.conditions,
            melee,
        );
        let (buff_adv, _) = self.buff_advantage(arena, me);
        let (_, buff_against) = self.buff_advantage(arena, target);
        let advantage = spell_adv
            || buff_adv
            || buff_against
            || (melee && spec.reckless && attacker.raging)
            || (unconscious && melee)
            || (defender.raging && self.spec(defender.spec).reckless)
            || defender.effects & effect::BLINDED != 0
            || (spec.pack_tactics && self.pack_ally_near::<POSITIONS>(arena, me, target))
            || (self.rare_traits
                && (attacker.cried
                    || (spec.bloodied_advantage.is_some() && 2 * attacker.hp <= attacker.max_hp)))
            || attack.advantage.is_some_and(|a| match a {
                AttackAdvantage::Grappled => self.grappler(arena, target) == Some(me),
                AttackAdvantage::Wounded => defender.hp < defender.max_hp,
            })
            // Prone (positions only): advantage within 5 feet.
            || (POSITIONS && defender.prone && (defender.x - attacker.x).abs() <= REACH);
        let disadvantage = spell_dis
            || (self.rules.sunlight && spec.sunlight.is_some())
            || attacker.effects & effect::BLINDED != 0
            || self.grappled_away(arena, me, target)
            || (attacker.effects & (effect::DIS_STR_ATTACKS | effect::DIS_DEX_ATTACKS) != 0
                && ability_disadvantage(attacker.effects, attack))
            || if POSITIONS {
                self.position_disadvantage(arena, me, target, melee)
            } else {
                !melee && attacker.effects & (effect::DIS_RANGED | effect::DIS_RANGED_FAR) != 0
            };
        // A called shot at a limb (our extension), only when some side makes them.
        let aimed = match &self.rules.called_shots {
            None => None,
            Some(shots) => self
                .aim(rng, arena, me, target, attack, shots)
                .map(|limb| (limb, *shots)),
        };
        let penalty = aimed.map_or(0, |(_, shots)| shots.penalty);
        // A Bardic Inspiration die it holds goes on this roll.
        let inspired = attacker.feats.inspired;
        let mode = RollMode::with(advantage, disadvantage);
        let natural = mode.roll(rng);
        let roll = AttackRoll {
            bonus: attack.to_hit - penalty - i32::from(attacker.return_penalty)
                + self.attack_roll_bonus(rng, arena, me)
                + if inspired != 0 {
                    Self::inspiration_roll(rng, inspired)
                } else {
                    0
                },
            ac: self.defended_ac(defender),
            crit_range: self.rules.crit_range.unwrap_or(spec.crit_range),
            // Any hit within 5 ft on an unconscious (or paralyzed) creature
            // is a critical hit (unless the table plays without critical hits).
            auto_crit: (unconscious && melee) || spell_crit,
            critical_hits: self.rules.critical_hits,
            crit_range_hits: true,
        };
        if inspired != 0 {
            arena.fighters[me].feats.inspired = 0;
        }
        let crit = match roll.resolve(natural) {
            AttackOutcome::NaturalOne => return self.missed(rng, arena, me, true, out),
            AttackOutcome::Miss => return self.missed(rng, arena, me, false, out),
            // A reaction spell (shield) may turn the hit into a miss.
            AttackOutcome::Hit
                if arena.fighters[target].shield_spell != 0
                    && self.shield_reaction(arena, target, i32::from(natural) + roll.bonus) =>
            {
                return self.missed(rng, arena, me, false, out);
            }
            // Parry: a monster's reaction against a melee hit.
            AttackOutcome::Hit
                if melee
                    && self.spec(arena.fighters[target].spec).parry > 0
                    && self.parry(arena, target, i32::from(natural) + roll.bonus) =>
            {
                return self.missed(rng, arena, me, false, out);
            }
            AttackOutcome::Hit => false,
            AttackOutcome::Critical => true,
        };
        let roll = |rng: &mut R, dice: DiceExpr| -> i32 {
            (if crit { dice.doubled_dice() } else { dice }).sample(rng) as i32
        };
        // "or 3 (1d4) Piercing damage if the swarm is Bloodied".
        let dice = match attack.bloodied {
            Some(b) => {
                let who = &arena.fighters[match b.of {
                    BloodiedWho::Attacker => me,
                    BloodiedWho::Target => target,
                }];
                if 2 * who.hp <= who.max_hp {
                    b.damage
                } else {
                    attack.damage
                }
            }
            None => attack.damage,
        };
        let mut amount = roll(rng, dice);
        if crit {
            amount += super::features::brutal_critical(rng, spec, attack);
        }
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
        // A spreading venom (our extension) poisons a limb instead.
        let poisons = self.poisons(arena, target, attack.rider);
        let rider = attack.rider.filter(|_| !poisons).map(|r| {
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
        // A called shot's severing damage, which the limb takes too.
        let mut to_limb = if aimed.is_some() { total } else { 0 };
        // The once-per-turn dice, then the rider (an array of two
        // options: fewer instructions than a chained iterator).
        // A buff's damage on each hit (hunter's mark, hex).
        let marked = self.hit_bonus(rng, arena, me, crit);
        let charged = charge
            .and_then(|c| c.damage)
            .map(|(d, kind)| (roll(rng, d), kind));
        // "plus 2 (1d4) Slashing damage if the attack roll had Advantage".
        let favoured = attack
            .advantage_damage
            .filter(|_| mode == RollMode::Advantage)
            .map(|(d, kind)| (roll(rng, d), kind));
        for (amount, kind) in [extra, rider, marked, charged, favoured]
            .into_iter()
            .flatten()
        {
            let dealt = self.after_defenses(arena, target, kind, amount);
            total += dealt;
            types = types.with(kind);
            if aimed.is_some_and(|(_, shots)| shots.severs(kind)) {
                to_limb += dealt;
            }
        }
        // Uncanny Dodge, Deflect Missiles: the defender's reaction.
        if arena.fighters[target].feats.reacts {
            total = self.defensive_reaction(rng, arena, target, attack, total);
            to_limb = to_limb.min(total);
        }
        if arena.fighters[target].party && crit {
            arena.fighters[target].crits_taken += 1;
        }
        let was_up = arena.fighters[target].state == State::Up;
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
        if spec.class_features.dark_ones_blessing > 0 {
            self.blessing_on_drop(arena, me, target, was_up);
        }
        // Repelling Blast: a hit of its eldritch blast pushes the target.
        if POSITIONS && spec.class_features.repel_feet > 0 && attack.spell {
            self.repel(arena, me, target, spec.class_features.repel_feet);
        }
        if let Some((limb, _)) = aimed {
            self.strike_limb(arena, target, limb, to_limb, out);
        }
        if crit {
            self.critically_hit(rng, arena, target, out);
        }
        if let Some(rider) = attack.rider.filter(|_| poisons) {
            self.envenom(rng, arena, target, rider);
        }
        self.conditions_of_a_hit(rng, arena, me, target, attack);
        if let Some(c) = charge.filter(|c| c.prone) {
            self.knock_prone(arena, target, c.size);
        }
        // Stunning Strike on a melee weapon hit.
        if arena.fighters[me].feats.ki != 0 && melee && !attack.spell {
            self.stunning_strike(rng, arena, me, target);
        }
    }
}

impl Encounter {
    /// An action used like an attack but resolved by `target`'s saving
    /// throw (Constrict: "Strength Saving Throw: DC 16 ... Failure: 11
    /// (2d6 + 4) Bludgeoning damage, and the target has the Grappled
    /// condition"): on a failure its damage and rider (no critical hit)
    /// and what its hit does (a grapple, prone, poison); on a success half
    /// the damage or none, and nothing else. Evasion applies to a Dexterity
    /// save for half. Legendary Resistance may turn a failure that would
    /// put a condition on it.
    #[allow(clippy::too_many_arguments)]
    fn save_attack<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        target: usize,
        attack: &Attack,
        save: AttackSave,
        out: &mut TrialOutcome,
    ) {
        let conditions =
            attack.grapples.is_some() || attack.knocks_prone.is_some() || attack.poisons_on_hit;
        let saved = if conditions {
            self.save_against_condition(rng, arena, target, save.ability, save.dc, false)
        } else {
            self.saving_throw(rng, arena, target, save.ability, save.dc)
        };
        let evades = save.half
            && save.ability == Ability::Dex
            && self.spec(arena.fighters[target].spec).evasion;
        // Halves of the damage it takes: all, half, or none.
        let halves = match (saved, save.half, evades) {
            (false, _, false) => 2,
            (false, _, true) | (true, true, false) => 1,
            _ => return,
        };
        let share = |x: i32| if halves == 2 { x } else { x / 2 };
        let rolled = attack.damage.sample(rng) as i32;
        let rider = attack.rider.map(|r| (r.dice.sample(rng) as i32, r.kind));
        let mut total = self.after_defenses(arena, target, attack.kind, share(rolled));
        let mut types = DamageTypes::of([attack.kind]);
        if let Some((amount, kind)) = rider {
            total += self.after_defenses(arena, target, kind, share(amount));
            types = types.with(kind);
        }
        self.deal_total(
            rng,
            arena,
            target,
            Blow {
                amount: total,
                types,
                crit: false,
            },
            out,
        );
        if !saved {
            self.conditions_of_a_hit(rng, arena, me, target, attack);
        }
    }

    /// A hit's save against a condition "until the end of its next turn"
    /// ([`crate::combat::creature::HitCondition`]: the ghoul's Claw): a
    /// conscious target not immune to it saves (Legendary Resistance may
    /// turn a failure) or has it until the end of its next turn, that is
    /// the end of its turn after this one if the hit came in its own turn
    /// (an opportunity attack). One it already has from a hit is not
    /// renewed.
    #[inline(never)]
    pub(super) fn hit_condition<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        target: usize,
        h: crate::combat::creature::HitCondition,
    ) {
        let t = &arena.fighters[target];
        let bits = h.condition.bits();
        if t.state != State::Up
            || self.spec(t.spec).immune_to(h.condition)
            || bits == 0
            || t.spells
                .afflictions
                .iter()
                .any(|a| a.bits == bits && a.source == NO_SOURCE)
        {
            return;
        }
        if self.save_against_condition(rng, arena, target, h.ability, h.dc, false) {
            return;
        }
        let turns = if arena.acting == target + 1 { 2 } else { 1 };
        arena.fighters[target].spells.afflict_until_own_turn(
            Affliction {
                bits,
                ability: h.ability,
                dc: h.dc.clamp(0, 127) as i8,
                ..Affliction::NONE
            },
            turns,
        );
    }

    /// The conditions a hit of `attack` puts on `target`: prone, poisoned,
    /// grappled, a condition on a failed save (each as its attack says).
    fn conditions_of_a_hit<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &mut Arena,
        me: usize,
        target: usize,
        attack: &Attack,
    ) {
        if let Some(size) = attack.knocks_prone {
            self.knock_prone(arena, target, size);
        }
        if attack.poisons_on_hit {
            self.poison_on_hit(arena, me, target);
        }
        if let Some(g) = attack.grapples {
            self.grapple(arena, me, target, g);
        }
        if let Some(h) = attack.hit_condition {
            self.hit_condition(rng, arena, target, h);
        }
    }

    /// A hit that knocks its target prone (SRD 5.2 stat blocks: "If the
    /// target is a Large or smaller creature, it has the Prone condition"):
    /// a conscious target of at most `size` is prone until it stands up at
    /// the start of its turn (docs/spells.md, "Conditions").
    pub(super) fn knock_prone(&self, arena: &mut Arena, target: usize, size: Size) {
        let t = &mut arena.fighters[target];
        if t.state != State::Up
            || self.spec(t.spec).size > size
            || t.spells.conditions & bits::PRONE != 0
            || self.spec(t.spec).immune_to(Condition::Prone)
        {
            return;
        }
        t.spells.afflict(Affliction {
            bits: Condition::Prone.bits(),
            prone: true,
            ..Affliction::NONE
        });
    }

    /// A hit that poisons (SRD 5.2: "the target has the Poisoned condition
    /// until the start of the wyvern's next turn", "... until the end of
    /// its next turn"): a conscious target is poisoned until the end of
    /// `me`'s next turn; a second hit of `me`'s renews it.
    pub(super) fn poison_on_hit(&self, arena: &mut Arena, me: usize, target: usize) {
        let t = &mut arena.fighters[target];
        if t.state != State::Up || self.spec(t.spec).immune_to(Condition::Poisoned) {
            return;
        }
        let poisoned = Affliction {
            bits: Condition::Poisoned.bits(),
            source: me as u16,
            ..Affliction::NONE
        };
        let s = &mut t.spells;
        match s.afflictions.iter().position(|a| *a == poisoned) {
            Some(k) => s.source_turns[k] = 2,
            None => {
                s.afflict_until_source_turn(poisoned, 2);
            }
        }
    }
}
