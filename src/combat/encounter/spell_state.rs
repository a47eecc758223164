//! What spells leave on a creature during a fight (docs/spells.md): the
//! conditions imposed on it with their repeat saves ([`Affliction`]), the
//! buffs and debuffs in force on it ([`Buff`]), the zone of ongoing damage
//! it stands in, the spell it concentrates on, and *shield*'s armour class
//! until its next turn. Small and `Copy`: a fighter carries it, and a
//! fight starts with it empty.

use crate::combat::creature::Ability;

/// No source: an empty slot of [`SpellState`].
pub const NO_SOURCE: u16 = u16::MAX;

/// A condition a spell imposed, until a save or the caster's
/// concentration ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affliction {
    /// Its effects ([`crate::combat::spell::bits`]); 0: an empty slot.
    pub bits: u16,
    /// The caster (a fighter index), [`NO_SOURCE`] for none.
    pub source: u16,
    /// The save that ends it.
    pub ability: Ability,
    /// Its DC.
    pub dc: i8,
    /// Repeated at the end of each of its turns.
    pub repeat_save: bool,
    /// Ends when it takes damage.
    pub ends_on_damage: bool,
    /// Ends with the caster's concentration.
    pub concentration: bool,
    /// It is prone from a spell: it stands up on its turn.
    pub prone: bool,
    /// The round at whose caster's turn a short spell's condition ends
    /// (0: it lasts until a save or the fight's end).
    pub until: u16,
}

impl Affliction {
    /// An empty slot.
    pub const NONE: Affliction = Affliction {
        bits: 0,
        source: NO_SOURCE,
        ability: Ability::Str,
        dc: 0,
        repeat_save: false,
        ends_on_damage: false,
        concentration: false,
        prone: false,
        until: 0,
    };
}

/// A buff or debuff in force: the caster and which of its known spells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buff {
    /// The caster (a fighter index), [`NO_SOURCE`] for an empty slot.
    pub source: u16,
    /// Index into the caster's known spells.
    pub spell: u8,
    /// The round at whose caster's turn a short spell's buff ends (0: it
    /// lasts the fight or the caster's concentration).
    pub until: u16,
}

impl Buff {
    /// An empty slot.
    pub const NONE: Buff = Buff {
        source: NO_SOURCE,
        spell: 0,
        until: 0,
    };
}

/// Most conditions one creature carries from spells at once.
pub const AFFLICTIONS: usize = 2;

/// Most buffs and debuffs in force on one creature at once.
pub const BUFFS: usize = 3;

/// A creature's spell state in a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpellState {
    /// The bits of every affliction, or-ed.
    pub conditions: u16,
    /// Conditions imposed on it.
    pub afflictions: [Affliction; AFFLICTIONS],
    /// Buffs and debuffs on it.
    pub buffs: [Buff; BUFFS],
    /// Some buff is in force (the attack and save code looks no further
    /// when not).
    pub buffed: bool,
    /// Armour class the buffs add.
    pub ac_bonus: i8,
    /// *shield* is up until the start of its next turn (+5 AC).
    pub shield_up: bool,
    /// The spell it concentrates on: index into its known spells plus
    /// one; 0 for none.
    pub concentrating: u8,
    /// The caster whose zone of ongoing damage it stands in
    /// ([`NO_SOURCE`]: none) and the spell.
    pub zone: Buff,
    /// It spent a spell slot this turn (one slot a turn, SRD 5.2 "Casting
    /// Spells").
    pub slot_this_turn: bool,
    /// Its bonus action of this turn is spent (a bonus-action healing
    /// spell).
    pub bonus_spent: bool,
    /// Slot levels it may still spend on attack, control and buff spells
    /// in this fight: its slot levels left shared evenly over the fights
    /// still planned for the day (docs/spells.md, "Casting policy").
    pub slot_budget: u16,
    /// Per affliction slot, the ends of its source's turns after which it
    /// ends (0: not so limited): Stunning Strike's "until the end of your
    /// next turn" (`encounter/features.rs`).
    pub source_turns: [u8; AFFLICTIONS],
    /// Per affliction slot, the ends of its bearer's own turns after which
    /// it ends (0: not so limited): a hit's "until the end of its next
    /// turn" ([`crate::combat::creature::HitCondition`]).
    pub own_turns: [u8; AFFLICTIONS],
    /// The earliest round at whose start of its turn a short spell it cast
    /// ends (0: none pending).
    pub timed_until: u16,
}

impl Default for SpellState {
    fn default() -> Self {
        SpellState::EMPTY
    }
}

impl SpellState {
    /// No spell on it.
    pub const EMPTY: SpellState = SpellState {
        conditions: 0,
        afflictions: [Affliction::NONE; AFFLICTIONS],
        buffs: [Buff::NONE; BUFFS],
        buffed: false,
        ac_bonus: 0,
        shield_up: false,
        concentrating: 0,
        zone: Buff::NONE,
        slot_this_turn: false,
        bonus_spent: false,
        slot_budget: 0,
        source_turns: [0; AFFLICTIONS],
        own_turns: [0; AFFLICTIONS],
        timed_until: 0,
    };

    /// Removes the short spells of `source` that end by round `round`.
    /// Says whether anything was removed.
    pub fn expire_from(&mut self, source: u16, round: u16) -> bool {
        let mut removed = false;
        for a in self.afflictions.iter_mut() {
            if a.bits != 0 && a.source == source && a.until != 0 && a.until <= round {
                *a = Affliction::NONE;
                removed = true;
            }
        }
        for b in self.buffs.iter_mut() {
            if b.source == source && b.until != 0 && b.until <= round {
                *b = Buff::NONE;
                removed = true;
            }
        }
        if removed {
            self.recompute_conditions();
        }
        removed
    }

    /// Recomputes [`SpellState::conditions`] from the afflictions.
    pub fn recompute_conditions(&mut self) {
        self.conditions = self.afflictions.iter().fold(0, |b, a| {
            let held = a.ends_on_damage && a.bits & crate::combat::spell::bits::INCAPACITATED != 0;
            b | a.bits
                | if held {
                    crate::combat::spell::bits::HELD_UNTIL_DAMAGED
                } else {
                    0
                }
        });
    }

    /// Adds an affliction in a free slot (a creature already carrying
    /// [`AFFLICTIONS`] keeps them: the new one is lost). Says whether it
    /// was added.
    pub fn afflict(&mut self, a: Affliction) -> bool {
        self.afflict_until_source_turn(a, 0)
    }

    /// [`SpellState::afflict`] of an affliction that ends at the end of
    /// its source's turn once `turns` of them have ended (0: not so
    /// limited), counting the one in progress if it is the source's.
    pub fn afflict_until_source_turn(&mut self, a: Affliction, turns: u8) -> bool {
        self.put(a, turns, 0)
    }

    /// [`SpellState::afflict`] of an affliction that ends at the end of
    /// its bearer's own turn once `turns` of them have ended, counting the
    /// one in progress if it is the bearer's.
    pub fn afflict_until_own_turn(&mut self, a: Affliction, turns: u8) -> bool {
        self.put(a, 0, turns)
    }

    /// Puts `a` in a free slot with its turn limits.
    fn put(&mut self, a: Affliction, source_turns: u8, own_turns: u8) -> bool {
        match self.afflictions.iter().position(|s| s.bits == 0) {
            Some(k) => {
                self.afflictions[k] = a;
                self.source_turns[k] = source_turns;
                self.own_turns[k] = own_turns;
                self.recompute_conditions();
                true
            }
            None => false,
        }
    }

    /// The end of its own turn: its afflictions limited to its turns
    /// count down, and end at 0.
    pub fn own_turn_ended(&mut self) {
        let mut changed = false;
        for (a, turns) in self.afflictions.iter_mut().zip(&mut self.own_turns) {
            if *turns > 0 {
                *turns -= 1;
                if *turns == 0 {
                    if a.bits != 0 {
                        changed = true;
                    }
                    *a = Affliction::NONE;
                }
            }
        }
        if changed {
            self.recompute_conditions();
        }
    }

    /// The end of a turn of `source`: its afflictions limited to its turns
    /// count down, and end at 0.
    pub fn source_turn_ended(&mut self, source: u16) {
        let mut changed = false;
        for (a, turns) in self.afflictions.iter_mut().zip(&mut self.source_turns) {
            if a.bits != 0 && a.source == source && *turns > 0 {
                *turns -= 1;
                if *turns == 0 {
                    *a = Affliction::NONE;
                    changed = true;
                }
            }
        }
        if changed {
            self.recompute_conditions();
        }
    }

    /// `source` left the fight: its afflictions limited to its turns end.
    pub fn source_left(&mut self, source: u16) {
        let mut changed = false;
        for (a, turns) in self.afflictions.iter_mut().zip(&mut self.source_turns) {
            if a.bits != 0 && a.source == source && *turns > 0 {
                *turns = 0;
                *a = Affliction::NONE;
                changed = true;
            }
        }
        if changed {
            self.recompute_conditions();
        }
    }

    /// Whether a buff of `source`'s spell `spell` is on it.
    pub fn has_buff(&self, source: u16, spell: u8) -> bool {
        self.buffs
            .iter()
            .any(|b| b.source == source && b.spell == spell)
    }

    /// Removes everything `source` put on it (its concentration ended, or
    /// all when `only_concentration` is false). Says whether anything
    /// was removed (the caller recomputes the buff totals).
    pub fn remove_from(&mut self, source: u16, only_concentration: bool) -> bool {
        let mut removed = false;
        for a in self.afflictions.iter_mut() {
            if a.bits != 0 && a.source == source && (a.concentration || !only_concentration) {
                *a = Affliction::NONE;
                removed = true;
            }
        }
        for b in self.buffs.iter_mut() {
            if b.source == source {
                *b = Buff::NONE;
                removed = true;
            }
        }
        if self.zone.source == source {
            self.zone = Buff::NONE;
            removed = true;
        }
        if removed {
            self.recompute_conditions();
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn afflictions_fill_two_slots_and_leave_with_their_caster() {
        let mut s = SpellState::EMPTY;
        let a = |bits, source, concentration| Affliction {
            bits,
            source,
            concentration,
            ..Affliction::NONE
        };
        assert!(s.afflict(a(1, 4, true)));
        assert!(s.afflict(a(2, 5, false)));
        assert!(!s.afflict(a(4, 6, true)), "a third is lost");
        assert_eq!(s.conditions, 3);
        assert!(s.remove_from(4, true));
        assert_eq!(s.conditions, 2);
        assert!(!s.remove_from(5, true), "not a concentration spell");
        assert!(s.remove_from(5, false));
        assert_eq!(s.conditions, 0);
    }

    #[test]
    fn an_affliction_limited_to_its_source_turns_ends_with_the_last() {
        let mut s = SpellState::EMPTY;
        let stun = Affliction {
            bits: 1,
            source: 3,
            ..Affliction::NONE
        };
        assert!(s.afflict_until_source_turn(stun, 2));
        s.source_turn_ended(4);
        s.source_turn_ended(3);
        assert_eq!(s.conditions, 1, "one of its source's turns still to end");
        s.source_turn_ended(3);
        assert_eq!(s.conditions, 0);
        // A later affliction in the slot is not limited.
        assert!(s.afflict(Affliction { bits: 2, ..stun }));
        s.source_turn_ended(3);
        assert_eq!(s.conditions, 2);
        assert!(s.afflict_until_source_turn(Affliction { bits: 4, ..stun }, 2));
        s.source_left(3);
        assert_eq!(s.conditions, 2, "the limited one ends with its source gone");
    }
}
