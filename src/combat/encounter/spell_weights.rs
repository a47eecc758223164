//! What the casting policy (`casting.rs`) weighs of each known spell,
//! worked out once per encounter for its caster (`setup.rs`): how the
//! spell lands (attack roll, save, always), the condition or debuff it
//! brings and its means per slot (docs/spells.md, "Casting policy").

use crate::combat::spell::{Condition, KnownSpell, OnSuccess, SlotMeans};

/// What the casting policy weighs of one known spell, worked out once per
/// encounter for its caster (its level, save DC and attack bonus are fixed
/// in a fight): how it lands, what it does beside damage, and its means at
/// each slot ([`SlotMeans`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SpellWeights {
    /// A buff on the caster's side (`Encounter::buff_value`).
    pub(super) helps_allies: bool,
    pub(super) lands: Lands,
    /// A zone or a spell used again: its damage each round.
    pub(super) ongoing: bool,
    pub(super) condition: Option<ConditionWeight>,
    /// It kills a target of at most this many hit points outright
    /// (*power word kill*).
    pub(super) kills_at_most_hp: Option<u16>,
    /// A debuff on enemies: the share of their hits it takes away.
    pub(super) debuff: Option<f64>,
    /// Per slot 0..=9.
    pub(super) slots: [SlotMeans; 10],
}

/// How a spell lands on a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Lands {
    /// A spell attack roll with this bonus.
    Attack { to_hit: i32 },
    /// A saving throw of this ability (index) against `dc`; `half` of the
    /// damage on a success (0 or 0.5).
    Save { ability: usize, dc: i32, half: f64 },
    /// Always.
    Always,
}

/// A condition the spell imposes: [`condition_weight`], and, with a
/// repeat save, that save (`None`: even odds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ConditionWeight {
    /// The condition (a creature immune to it is worth nothing here).
    pub(super) condition: Condition,
    pub(super) weight: f64,
    pub(super) repeat_save: Option<Option<(usize, i32)>>,
    /// Only a creature of at most this many hit points takes it (*power
    /// word stun*).
    pub(super) hp_at_most: Option<u16>,
}

impl SpellWeights {
    /// The weights of `known` cast by a caster of `level`.
    pub(super) fn of(known: &KnownSpell, level: u8) -> Self {
        let spell = &known.spell;
        let lands = match (spell.attack, spell.save) {
            (Some(_), _) => Lands::Attack {
                to_hit: known.to_hit,
            },
            (None, Some(save)) => Lands::Save {
                ability: save.ability as usize,
                dc: known.dc,
                half: if save.success == OnSuccess::Half {
                    0.5
                } else {
                    0.0
                },
            },
            (None, None) => Lands::Always,
        };
        let condition = spell.condition.map(|c| ConditionWeight {
            condition: c.condition,
            weight: condition_weight(c.condition),
            repeat_save: c
                .repeat_save
                .then(|| spell.save.map(|s| (s.ability as usize, known.dc))),
            hp_at_most: c.hp_at_most,
        });
        let debuff = spell.modifiers.map(|m| {
            let mut weight = 0.0;
            if let Some(b) = m.attack_rolls {
                weight += -b.mean() / 20.0 / 0.6;
            }
            if m.no_reactions || m.action_or_bonus {
                weight += 0.25;
            }
            f64::max(weight, 0.0)
        });
        SpellWeights {
            helps_allies: spell.targets.helps_allies(),
            lands,
            ongoing: spell.ongoing.is_some(),
            condition,
            kills_at_most_hp: spell.kills_at_most_hp,
            debuff,
            slots: known.slot_means(level),
        }
    }
}

/// How much of a creature's damage a condition prevents while it lasts,
/// for valuing control spells: all of it for one that keeps it from acting,
/// half for blinded or restrained (its attacks at disadvantage, attacks on
/// it at advantage), a third for frightened or poisoned, a quarter for
/// prone (until its turn), none for the rest.
pub fn condition_weight(c: Condition) -> f64 {
    match c {
        _ if c.disables() => 1.0,
        Condition::Blinded | Condition::Restrained => 0.5,
        Condition::Frightened | Condition::Poisoned => 1.0 / 3.0,
        Condition::Prone => 0.25,
        _ => 0.0,
    }
}
