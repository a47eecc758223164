//! Amputation against the clock (docs/rules.md, limb damage):
//! cutters attack one limb until its own HP reaches 0, racing a poison (or a
//! possession) clock; what the venom does when it spreads; the called-shot
//! extension for unwilling targets (ours, not the seed's).
//!
//! The limb's HP is its own: no blow here lowers the creature's HP. A limb
//! brought to 0 HP by a damage type that severs ([`LimbEffect::Sever`]) is
//! cut off; by one that only disables (fire, bludgeoning, psychic, when the
//! scenario allows them) it is disabled and stays at 0 HP, and a later
//! severing hit that deals damage cuts it off. Disabling serves a
//! `stop_possession` purpose but not `stop_poison` ([`Purpose::served_by`]).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::{D20Block, DiceExpr, RollMode, roll_die};
pub use crate::rules::attack::{AttackRoll, AttackSlot, Swing};
use crate::rules::death_saves::{DeathSaveRules, Resolution};
use crate::rules::limbs::{
    ArmorPiece, DamageModifiers, DamageType, DamageTypes, Limb, LimbEffect, Purpose, Size,
    limb_defences, limb_effect,
};
use crate::rules::reattachment::{ReattachOutcome, ReattachRules};

/// Who holds the limb still.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// A willing creature (the seed's default): every attack hits, no critical hits.
    Willing,
    /// Paralyzed or unconscious (5e conditions): attack rolls against the
    /// limb's AC with advantage, and every hit is a critical hit (within 5 ft).
    Helpless,
    /// An unwilling, fighting creature: attack rolls with the called-shot
    /// penalty (our extension; needs `called_shots = true`).
    Unwilling,
}

/// What happens to the creature at 0 HP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AtZeroHp {
    /// A monster: dies at 0 HP.
    Dies,
    /// A PC: massive damage kills outright, otherwise RAW death saves with no help.
    DeathSaves,
}

/// The creature whose limb is at stake.
#[derive(Clone, Debug, PartialEq)]
pub struct Creature {
    /// Size category.
    pub size: Size,
    /// The limb being cut.
    pub limb: Limb,
    /// The limb's maximum HP (from the size table or overridden).
    pub limb_hp: u32,
    /// Current HP of the creature (what the venom must beat).
    pub hp: u32,
    /// Maximum HP (massive damage for a PC).
    pub max_hp: u32,
    /// Constitution saving-throw bonus.
    pub con_save: i32,
    /// AC without the listed armor pieces.
    pub ac: i32,
    /// The creature's own damage modifiers (they apply to every limb).
    pub modifiers: DamageModifiers,
    /// Armor pieces and the limbs they cover.
    pub armor: Vec<ArmorPiece>,
    /// Death at 0 HP or death saves.
    pub at_zero_hp: AtZeroHp,
}

impl Creature {
    /// Modifiers and AC that apply to the target limb.
    pub fn limb_defences(&self) -> (DamageModifiers, i32) {
        let (m, bonus) = limb_defences(&self.modifiers, &self.armor, self.limb);
        (m, self.ac + bonus)
    }
}

/// One weapon (or spell) used on the limb.
#[derive(Clone, Debug, PartialEq)]
pub struct Cutter {
    /// Name, for humans.
    pub name: String,
    /// Damage dice and modifier.
    pub damage: DiceExpr,
    /// Damage type.
    pub damage_type: DamageType,
    /// Attacks per round.
    pub attacks: u32,
    /// Attack bonus (when attacks roll).
    pub attack_bonus: i32,
    /// How the d20 is rolled (helpless targets add advantage).
    pub roll: RollMode,
    /// Lowest natural d20 that is a critical hit (20; 19 for a Champion).
    pub crit_on: u8,
}

/// What the venom does when it spreads past the limb.
#[derive(Clone, Debug, PartialEq)]
pub struct Poison {
    /// Damage dice (wyvern sting: 7d6).
    pub damage: DiceExpr,
    /// Its type (the creature's resistances and immunities apply).
    pub damage_type: DamageType,
    /// Constitution save DC for half damage; `None` = no save.
    pub save_dc: Option<i32>,
}

/// One variant of an amputation scenario, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct AmputationRules {
    /// The creature and limb.
    pub creature: Creature,
    /// The cutters, attacking in this order every round.
    pub cutters: Vec<Cutter>,
    /// Why the limb is taken.
    pub purpose: Purpose,
    /// Damage types the GM allows against the limb.
    pub allowed_types: DamageTypes,
    /// The seed's "sharp damage" reading: piercing severs too.
    pub piercing_severs: bool,
    /// Willing, helpless or (extension) unwilling.
    pub target: Target,
    /// Attack penalty of a called shot at an unwilling creature's limb (extension).
    pub called_shot_penalty: i32,
    /// Rounds before the venom spreads past the limb (or the possessed limb
    /// acts); `None` = only the horizon.
    pub clock: Option<DiceExpr>,
    /// Most rounds simulated (the horizon of the rounds distribution).
    pub max_rounds: u32,
    /// The venom, if it resolves against the creature's HP.
    pub poison: Option<Poison>,
    /// Reattachment of a severed limb, if attempted.
    pub reattach: Option<ReattachRules>,
}

/// The limb during the attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimbState {
    /// Remaining limb HP.
    pub hp: u32,
    /// Brought to 0 HP by a disabling type (not cut off).
    pub disabled: bool,
    /// Cut off.
    pub severed: bool,
}

impl LimbState {
    /// An intact limb with `hp` HP.
    pub fn new(hp: u32) -> Self {
        LimbState {
            hp,
            disabled: false,
            severed: false,
        }
    }

    /// Applies `damage` of a type with `effect` (a hit).
    ///
    /// ```
    /// use woundsim::rules::amputation::LimbState;
    /// use woundsim::rules::limbs::LimbEffect;
    /// let mut arm = LimbState::new(5);
    /// arm.strike(6, LimbEffect::Disable);
    /// assert!(arm.disabled && !arm.severed);
    /// arm.strike(1, LimbEffect::Sever);
    /// assert!(arm.severed);
    /// ```
    pub fn strike(&mut self, damage: u32, effect: LimbEffect) {
        if self.severed || damage == 0 || effect == LimbEffect::Nothing {
            return;
        }
        self.hp = self.hp.saturating_sub(damage);
        if self.hp == 0 {
            match effect {
                LimbEffect::Sever => self.severed = true,
                LimbEffect::Disable => self.disabled = true,
                LimbEffect::Nothing => {}
            }
        }
    }

    /// Whether the attempt can stop: the purpose is served.
    pub fn serves(&self, purpose: Purpose) -> bool {
        self.severed || (self.disabled && purpose.served_by(LimbEffect::Disable))
    }
}

/// How the race ended when the clock ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Severed in time.
    Severed,
    /// Disabled (not severed) in time.
    Disabled,
    /// Neither in time.
    Neither,
}

/// Everything one trial decides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrialOutcome {
    /// Rounds on the clock (the horizon when there is no clock).
    pub clock: u32,
    /// Round the purpose was served (severed, or disabled where that serves).
    pub served_round: Option<u32>,
    /// Hits landed up to then (or in the whole horizon).
    pub hits: u32,
    /// Round the limb was cut off, if within the horizon.
    pub sever_round: Option<u32>,
    /// Round the limb was first disabled, if it was.
    pub disable_round: Option<u32>,
    /// The outcome at the clock.
    pub outcome: Outcome,
    /// Whether the purpose was served in time.
    pub purpose_met: bool,
    /// The venom spread (purpose `stop_poison`, not severed in time).
    pub poison_spread: bool,
    /// Damage the creature took (only the venom: limb damage never counts).
    pub creature_damage: u32,
    /// The creature dropped to 0 HP.
    pub zero_hp: bool,
    /// The creature died.
    pub dead: bool,
    /// Reattachment, when the limb was severed in time and it is attempted.
    pub reattach: Option<ReattachOutcome>,
}

/// Per-trial streams: the clock, the attacks, the venom and the healing each
/// draw from their own generator seeded from the trial's `u64`, so every
/// variant sees the same clock and venom rolls whatever its attacks consume.
fn stream(trial_seed: u64, k: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(trial_seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

impl AmputationRules {
    /// The attack slots of one round, in order.
    pub fn slots(&self) -> Vec<AttackSlot> {
        let (modifiers, ac) = self.creature.limb_defences();
        let mut out = Vec::new();
        for c in &self.cutters {
            let (rolls, mode, penalty) = match self.target {
                Target::Willing => (false, RollMode::Normal, 0),
                Target::Helpless => (true, c.roll.combine(RollMode::Advantage), 0),
                Target::Unwilling => (true, c.roll, self.called_shot_penalty),
            };
            let effect = if self.allowed_types.has(c.damage_type) {
                limb_effect(c.damage_type, self.piercing_severs)
            } else {
                LimbEffect::Nothing
            };
            for _ in 0..c.attacks {
                out.push(AttackSlot {
                    rolls,
                    mode,
                    attack: AttackRoll {
                        crit_range: c.crit_on,
                        auto_crit: self.target == Target::Helpless,
                        ..AttackRoll::against(c.attack_bonus - penalty, ac)
                    },
                    damage: c.damage,
                    damage_type: c.damage_type,
                    effect,
                    modifiers,
                });
            }
        }
        out
    }

    /// The rounds the clock allows (the horizon when there is none).
    pub fn clock_rounds<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        match &self.clock {
            Some(c) => c.sample(rng).clamp(0, i64::from(self.max_rounds)) as u32,
            None => self.max_rounds,
        }
    }

    /// Venom damage after the save and the creature's modifiers (not its
    /// armor: the venom is already inside).
    pub fn venom_damage<R: Rng + ?Sized>(&self, poison: &Poison, rng: &mut R) -> u32 {
        let raw = poison.damage.sample(rng).max(0);
        let saved = poison
            .save_dc
            .is_some_and(|dc| roll_die(rng, 20) as i32 + self.creature.con_save >= dc);
        let raw = if saved { raw / 2 } else { raw };
        let modifiers = DamageModifiers {
            reduction: 0,
            ..self.creature.modifiers
        };
        modifiers.apply(raw, poison.damage_type)
    }

    /// Whether `damage` at the creature's HP kills it, with `rng` for death saves.
    pub fn kills<R: Rng + ?Sized>(&self, damage: u32, rng: &mut R) -> (bool, bool) {
        let c = &self.creature;
        if damage < c.hp {
            return (false, false);
        }
        let dead = match c.at_zero_hp {
            AtZeroHp::Dies => true,
            AtZeroHp::DeathSaves => {
                damage - c.hp >= c.max_hp || {
                    let mut block = D20Block::draw(rng);
                    DeathSaveRules::default().roll_sequence(&mut block).0 == Resolution::Dead
                }
            }
        };
        (true, dead)
    }

    /// Resolves one trial from its seed, with the compiled `slots`.
    pub fn resolve(&self, slots: &[AttackSlot], trial_seed: u64) -> TrialOutcome {
        let clock = self.clock_rounds(&mut stream(trial_seed, 1));
        let mut rng = stream(trial_seed, 2);
        let mut limb = LimbState::new(self.creature.limb_hp);
        let (mut hits, mut sever_round, mut disable_round, mut served_round) =
            (0, None, None, None);
        'rounds: for round in 1..=self.max_rounds {
            for slot in slots {
                if let Swing::Hit(d) = slot.swing(&mut rng) {
                    hits += 1;
                    limb.strike(d, slot.effect);
                    if limb.disabled && disable_round.is_none() {
                        disable_round = Some(round);
                    }
                    if limb.serves(self.purpose) {
                        served_round = Some(round);
                        if limb.severed {
                            sever_round = Some(round);
                        }
                        break 'rounds;
                    }
                }
            }
        }
        let within = |r: Option<u32>| r.is_some_and(|r| r <= clock);
        let outcome = if within(sever_round) {
            Outcome::Severed
        } else if within(disable_round) {
            Outcome::Disabled
        } else {
            Outcome::Neither
        };
        let purpose_met = within(served_round);
        let poison_spread = self.purpose == Purpose::StopPoison && outcome != Outcome::Severed;
        let (mut creature_damage, mut zero_hp, mut dead) = (0, false, false);
        if let (true, Some(poison)) = (poison_spread, &self.poison) {
            let mut venom = stream(trial_seed, 3);
            creature_damage = self.venom_damage(poison, &mut venom);
            (zero_hp, dead) = self.kills(creature_damage, &mut venom);
        }
        let reattach = match (&self.reattach, outcome) {
            (Some(r), Outcome::Severed) => {
                Some(r.resolve(self.creature.limb_hp, &mut stream(trial_seed, 4)))
            }
            _ => None,
        };
        TrialOutcome {
            clock,
            served_round,
            hits,
            sever_round,
            disable_round,
            outcome,
            purpose_met,
            poison_spread,
            creature_damage,
            zero_hp,
            dead,
            reattach,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::reattachment::{HealTarget, HealingCategory, HealingSource};

    pub(crate) fn medium_arm_longsword() -> AmputationRules {
        AmputationRules {
            creature: Creature {
                size: Size::Medium,
                limb: Limb::Arm,
                limb_hp: 5,
                hp: 30,
                max_hp: 30,
                con_save: 2,
                ac: 14,
                modifiers: DamageModifiers::default(),
                armor: Vec::new(),
                at_zero_hp: AtZeroHp::Dies,
            },
            cutters: vec![Cutter {
                name: "longsword".into(),
                damage: "1d8+3".parse().unwrap(),
                damage_type: DamageType::Slashing,
                attacks: 1,
                attack_bonus: 5,
                roll: RollMode::Normal,
                crit_on: 20,
            }],
            purpose: Purpose::StopPoison,
            allowed_types: DamageTypes::of([DamageType::Slashing]),
            piercing_severs: false,
            target: Target::Willing,
            called_shot_penalty: 5,
            clock: Some(DiceExpr::constant(2)),
            max_rounds: 20,
            poison: Some(Poison {
                damage: "7d6".parse().unwrap(),
                damage_type: DamageType::Poison,
                save_dc: Some(15),
            }),
            reattach: None,
        }
    }

    #[test]
    fn a_willing_arm_falls_to_one_longsword_blow() {
        // 1d8+3 >= 4 > ... every blow deals at least 4; two blows always beat 5 HP.
        let rules = medium_arm_longsword();
        let slots = rules.slots();
        for seed in 0..2000 {
            let t = rules.resolve(&slots, seed);
            assert!(t.sever_round.is_some_and(|r| r <= 2));
            assert_eq!(t.outcome, Outcome::Severed);
            assert!(!t.poison_spread && t.creature_damage == 0 && !t.dead);
        }
    }

    #[test]
    fn limb_damage_never_lowers_the_creature_hp() {
        let mut rules = medium_arm_longsword();
        rules.poison = None;
        rules.clock = Some(DiceExpr::constant(1));
        rules.creature.limb_hp = 40;
        let slots = rules.slots();
        for seed in 0..500 {
            let t = rules.resolve(&slots, seed);
            assert!(t.hits > 0);
            assert_eq!((t.creature_damage, t.zero_hp, t.dead), (0, false, false));
        }
    }

    #[test]
    fn disallowed_or_non_severing_types_do_not_sever() {
        let mut rules = medium_arm_longsword();
        rules.cutters[0].damage_type = DamageType::Piercing;
        rules.allowed_types = DamageTypes::of([DamageType::Slashing, DamageType::Piercing]);
        let slots = rules.slots();
        assert_eq!(slots[0].effect, LimbEffect::Nothing);
        let t = rules.resolve(&slots, 3);
        assert_eq!((t.outcome, t.sever_round), (Outcome::Neither, None));
        rules.piercing_severs = true;
        let t = rules.resolve(&rules.slots(), 3);
        assert_eq!(t.outcome, Outcome::Severed);
    }

    #[test]
    fn a_disabled_limb_stops_possession_not_poison() {
        let mut rules = medium_arm_longsword();
        rules.cutters[0].damage_type = DamageType::Bludgeoning;
        rules.allowed_types = DamageTypes::of([DamageType::Slashing, DamageType::Bludgeoning]);
        let t = rules.resolve(&rules.slots(), 9);
        assert_eq!(t.outcome, Outcome::Disabled);
        assert!(!t.purpose_met && t.poison_spread);
        rules.purpose = Purpose::StopPossession;
        let t = rules.resolve(&rules.slots(), 9);
        assert_eq!(t.outcome, Outcome::Disabled);
        assert!(t.purpose_met && !t.poison_spread && t.creature_damage == 0);
    }

    #[test]
    fn armor_that_covers_the_limb_slows_the_cut() {
        let mut rules = medium_arm_longsword();
        rules.creature.armor.push(ArmorPiece {
            name: "bracer".into(),
            covers: vec![Limb::Arm],
            ac_bonus: 0,
            modifiers: DamageModifiers {
                reduction: 10,
                ..Default::default()
            },
        });
        let t = rules.resolve(&rules.slots(), 1);
        assert_eq!(
            t.sever_round, None,
            "11 damage at most, 10 absorbed, never 5"
        );
        rules.creature.limb = Limb::Leg;
        rules.creature.limb_hp = 10;
        assert!(rules.resolve(&rules.slots(), 1).sever_round.is_some());
    }

    #[test]
    fn helpless_targets_are_hit_with_advantage_and_crits() {
        let mut rules = medium_arm_longsword();
        rules.target = Target::Helpless;
        let slot = rules.slots()[0];
        assert_eq!(
            (slot.rolls, slot.mode, slot.attack.auto_crit),
            (true, RollMode::Advantage, true)
        );
        assert_eq!(slot.judge(9), (true, true)); // 9 + 5 >= 14
        assert_eq!(slot.judge(8), (false, false));
        assert_eq!(slot.judge(1), (false, false));
        rules.target = Target::Unwilling;
        let slot = rules.slots()[0];
        assert_eq!(slot.attack.bonus, 0);
        assert_eq!(slot.judge(14), (true, false));
        assert_eq!(slot.judge(20), (true, true));
        let (miss, hits) = slot.distribution();
        assert!((miss - 13.0 / 20.0).abs() < 1e-15);
        assert!((hits.iter().map(|h| h.1).sum::<f64>() - 7.0 / 20.0).abs() < 1e-15);
    }

    #[test]
    fn reattachment_follows_a_severed_limb_only() {
        let mut rules = medium_arm_longsword();
        rules.reattach = Some(ReattachRules {
            window_minutes: 60.0,
            delay_minutes: DiceExpr::constant(1),
            sources: vec![HealingSource {
                name: "potion".into(),
                heal: "2d4+2".parse().unwrap(),
                uses: 1,
                gp: 50.0,
                minutes: 0.1,
                target: HealTarget::Limb,
                category: HealingCategory::Potion,
            }],
        });
        let t = rules.resolve(&rules.slots(), 4);
        assert!(t.reattach.is_some_and(|r| r.reattached && r.uses == 1));
        rules.cutters[0].damage = DiceExpr::constant(1);
        let t = rules.resolve(&rules.slots(), 4);
        assert_eq!((t.outcome, t.reattach), (Outcome::Neither, None));
    }
}
