//! Buffs and debuffs in play (SRD 5.2 spell texts; docs/spells.md, "Buffs
//! and debuffs"): what the spells on a creature add to its attack rolls
//! and saves (*bless*, *bane*), its hits (*hunter's mark*, *hex*), its
//! Attack action (*haste*), its armour class (*shield of faith*,
//! *shield*) and resistances (*stoneskin*), and the advantage they give.

use rand::Rng;

use super::spell_state::NO_SOURCE;
use super::{Arena, Encounter};
use crate::dice::DiceExpr;
use crate::rules::damage::DamageTypes;

impl Encounter {
    /// The modifiers of every buff on `who`, for the attack and save code.
    pub(super) fn buff_modifiers<'a>(
        &'a self,
        arena: &'a Arena,
        who: usize,
    ) -> impl Iterator<Item = crate::combat::spell::Modifiers> + 'a {
        arena.fighters[who]
            .spells
            .buffs
            .iter()
            .filter(|b| b.source != NO_SOURCE)
            .filter_map(move |b| {
                let caster = self.spec(arena.fighters[usize::from(b.source)].spec);
                caster.known_spells[usize::from(b.spell)].spell.modifiers
            })
    }

    /// The damage types its buffs make `who` resist (*stoneskin*).
    pub(super) fn buff_resistances(&self, arena: &Arena, who: usize) -> DamageTypes {
        self.buff_modifiers(arena, who)
            .fold(DamageTypes::default(), |r, m| r.union(m.resistance))
    }

    /// The dice its buffs add to (or take from) an attack roll of `who`.
    pub(super) fn attack_roll_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
    ) -> i32 {
        self.roll_bonus(rng, arena, who, |m| m.attack_rolls)
    }

    /// The dice its buffs add to (or take from) a saving throw of `who`.
    pub(super) fn save_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
    ) -> i32 {
        self.roll_bonus(rng, arena, who, |m| m.saves)
    }

    /// The dice the buffs of `who` add to (or take from) the roll that
    /// `part` picks out of each buff's modifiers.
    fn roll_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
        part: fn(crate::combat::spell::Modifiers) -> Option<crate::combat::spell::RollBonus>,
    ) -> i32 {
        if !arena.fighters[who].spells.buffed {
            return 0;
        }
        let mut total = 0;
        for b in self.buff_modifiers(arena, who).filter_map(part) {
            let v = b.dice.sample(rng) as i32;
            total += if b.negative { -v } else { v };
        }
        total
    }

    /// The extra damage its buffs add to a hit of `who` (*hunter's mark*,
    /// *hex*), doubled dice on a critical hit, with its type.
    #[inline(always)]
    pub(super) fn hit_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
        crit: bool,
    ) -> Option<(i32, crate::rules::damage::DamageType)> {
        if !arena.fighters[who].spells.buffed {
            return None;
        }
        self.buffed_hit_bonus(rng, arena, who, crit)
    }

    /// [`Encounter::hit_bonus`] of a buffed creature.
    #[inline(never)]
    fn buffed_hit_bonus<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        arena: &Arena,
        who: usize,
        crit: bool,
    ) -> Option<(i32, crate::rules::damage::DamageType)> {
        let mut out: Option<(i32, crate::rules::damage::DamageType)> = None;
        for m in self.buff_modifiers(arena, who) {
            if let Some(d) = m.damage_on_hit {
                let dice: DiceExpr = if crit { d.dice.doubled_dice() } else { d.dice };
                let v = dice.sample(rng) as i32;
                out = Some((out.map_or(0, |(a, _)| a) + v, d.kind));
            }
        }
        out
    }

    /// Attacks its buffs add to its Attack action (*haste*).
    #[inline(always)]
    pub(super) fn extra_attacks(&self, arena: &Arena, who: usize) -> u8 {
        if !arena.fighters[who].spells.buffed {
            return 0;
        }
        self.buffed_extra_attacks(arena, who)
    }

    /// [`Encounter::extra_attacks`] of a buffed creature.
    #[inline(never)]
    fn buffed_extra_attacks(&self, arena: &Arena, who: usize) -> u8 {
        self.buff_modifiers(arena, who)
            .map(|m| m.extra_attack)
            .sum()
    }

    /// Whether its buffs give it advantage on attack rolls, and attack
    /// rolls against it advantage.
    #[inline(always)]
    pub(super) fn buff_advantage(&self, arena: &Arena, who: usize) -> (bool, bool) {
        if !arena.fighters[who].spells.buffed {
            return (false, false);
        }
        self.buffed_advantage(arena, who)
    }

    /// [`Encounter::buff_advantage`] of a buffed creature.
    #[inline(never)]
    fn buffed_advantage(&self, arena: &Arena, who: usize) -> (bool, bool) {
        self.buff_modifiers(arena, who)
            .fold((false, false), |(a, b), m| {
                (
                    a || m.advantage_on_attacks,
                    b || m.attacks_against_have_advantage,
                )
            })
    }

    /// The armour class of `defender` with its buffs and *shield*.
    pub(super) fn defended_ac(&self, defender: &super::fighter::Fighter) -> i32 {
        self.armor_class(defender)
            + i32::from(defender.spells.ac_bonus)
            + if defender.spells.shield_up { 5 } else { 0 }
            - i32::from(defender.hampered.ac_penalty)
    }
}
