//! Monster traits that change a fight, from the statblock's data (SRD 5.2;
//! docs/combat.md, "Monster traits"): Pack Tactics and Parry here; Magic
//! Resistance is [`Encounter::magic_save`] (advantage on saves against
//! spells and Turn Undead).

use super::positions::REACH;
use super::{Arena, Encounter};

impl Encounter {
    /// Parry (a reaction): when a melee attack roll of `total` hits
    /// `defender` and its parry's armour class would turn it into a miss,
    /// it spends its reaction to do so (conscious, not incapacitated, its
    /// reaction unused since its turn). Says whether it did.
    pub(super) fn parry(&self, arena: &mut Arena, defender: usize, total: i32) -> bool {
        let f = &arena.fighters[defender];
        let bonus = i32::from(self.spec(f.spec).parry);
        if !f.can_react() || total >= self.defended_ac(f) + bonus {
            return false;
        }
        arena.fighters[defender].reaction = false;
        true
    }

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
                f.can_act() && (!POSITIONS || (f.x - at).abs() <= REACH)
            })
    }
}
