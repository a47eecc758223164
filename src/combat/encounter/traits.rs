//! Monster traits that change a fight, from the statblock's data (SRD 5.2;
//! docs/combat.md, "Monster traits"): Pack Tactics here; Magic Resistance
//! is [`Encounter::magic_save`] (advantage on saves against spells and
//! Turn Undead).

use super::fighter::State;
use super::positions::REACH;
use super::{Arena, Encounter};
use crate::combat::spell::bits;

impl Encounter {
    /// Pack Tactics: whether one of `me`'s allies, conscious and not
    /// incapacitated, is within 5 feet of `target`. Without positions every
    /// such ally counts (no map says who stands where: ours, as for melee
    /// reach); with positions, by place.
    pub(super) fn pack_ally_near<const POSITIONS: bool>(
        &self,
        arena: &Arena,
        me: usize,
        target: usize,
    ) -> bool {
        let at = arena.fighters[target].x;
        self.side(arena.fighters[me].party, arena.fighters.len())
            .filter(|&i| i != me)
            .any(|i| {
                let f = &arena.fighters[i];
                f.state == State::Up
                    && f.spells.conditions & bits::INCAPACITATED == 0
                    && (!POSITIONS || (f.x - at).abs() <= REACH)
            })
    }
}
