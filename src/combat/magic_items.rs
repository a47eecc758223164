//! Magic items a PC carries into a fight (SRD 5.2 "Magic Items"): a
//! weapon +1, +2 or +3 (its bonus on attack and damage rolls), armour +1,
//! +2 or +3 (on armour class), and a spellcasting focus of the *wand of the
//! war mage* kind, +1 to +3 on spell attack rolls. Given per party member
//! (`magic_items = { weapon = 1, armor = 0, focus = 1 }`) or as the
//! documented typical set for the character's level
//! (`magic_items = "typical"`; docs/combat.md, "Magic items").

use super::creature::CreatureSpec;

/// The bonuses of a PC's magic items.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MagicItems {
    /// Weapon +N: attack and damage rolls of its weapon attacks.
    pub weapon: u8,
    /// Armour +N: armour class.
    pub armor: u8,
    /// A focus +N: spell attack rolls.
    pub focus: u8,
}

/// The typical items at character `level`: one rarity below the highest
/// the SRD 5.2 "Magic Item Rarity" table allows at that level (uncommon
/// from level 1, rare from 5, very rare from 11, legendary from 17), the
/// weapon and focus first, armour (a rarity dearer: armour +1 is rare)
/// from level 11. A documented assumption of ours, not a rule: no SRD
/// table hands out items by level.
///
/// | levels | weapon (rarity) | armour | focus |
/// |---|---|---|---|
/// | 1–4 | — | — | — |
/// | 5–10 | +1 (uncommon) | — | +1 (uncommon) |
/// | 11–16 | +2 (rare) | +1 (rare) | +2 (rare) |
/// | 17–20 | +3 (very rare) | +2 (very rare) | +3 (very rare) |
///
/// ```
/// use woundsim::combat::magic_items::{typical, MagicItems};
/// assert_eq!(typical(4), MagicItems::default());
/// assert_eq!(typical(11), MagicItems { weapon: 2, armor: 1, focus: 2 });
/// ```
pub fn typical(level: u8) -> MagicItems {
    match level {
        0..=4 => MagicItems::default(),
        5..=10 => MagicItems {
            weapon: 1,
            armor: 0,
            focus: 1,
        },
        11..=16 => MagicItems {
            weapon: 2,
            armor: 1,
            focus: 2,
        },
        _ => MagicItems {
            weapon: 3,
            armor: 2,
            focus: 3,
        },
    }
}

impl MagicItems {
    /// `spec` carrying these items: the weapon's bonus on its weapon
    /// attacks' attack and damage rolls, the armour's on its armour class,
    /// the focus's on its spell attacks (cantrip attacks and known spells).
    pub fn apply(self, spec: &mut CreatureSpec) {
        for a in spec.attacks.iter_mut() {
            if a.spell {
                a.to_hit += i32::from(self.focus);
            } else {
                a.to_hit += i32::from(self.weapon);
                a.damage.modifier += i32::from(self.weapon);
            }
        }
        spec.ac += i32::from(self.armor);
        for k in spec.known_spells.iter_mut() {
            k.to_hit += i32::from(self.focus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_add_to_weapon_attacks_armour_and_spell_attacks() {
        let catalog = crate::fixtures::catalog();
        let fighter = catalog.templates.template("fighter-5").unwrap();
        let mut f = fighter.clone();
        typical(5).apply(&mut f);
        assert_eq!(f.attacks[0].to_hit, fighter.attacks[0].to_hit + 1);
        assert_eq!(
            f.attacks[0].damage.modifier,
            fighter.attacks[0].damage.modifier + 1
        );
        assert_eq!(f.ac, fighter.ac);
        let wizard = catalog.templates.template("wizard-17").unwrap();
        let mut w = wizard.clone();
        typical(17).apply(&mut w);
        assert_eq!(w.ac, wizard.ac + 2);
        assert_eq!(w.attacks[0].to_hit, wizard.attacks[0].to_hit + 3);
        assert_eq!(
            w.attacks[0].damage, wizard.attacks[0].damage,
            "no damage from a focus"
        );
        for (a, b) in w.known_spells.iter().zip(&wizard.known_spells) {
            assert_eq!((a.to_hit, a.dc), (b.to_hit + 3, b.dc));
        }
    }

    #[test]
    fn the_typical_set_grows_by_tier() {
        let weapons: Vec<u8> = [1, 4, 5, 10, 11, 16, 17, 20]
            .map(|l| typical(l).weapon)
            .to_vec();
        assert_eq!(weapons, [0, 0, 1, 1, 2, 2, 3, 3]);
        let armour: Vec<u8> = [5, 10, 11, 17].map(|l| typical(l).armor).to_vec();
        assert_eq!(armour, [0, 0, 1, 2]);
    }
}
