//! Limbs as data (docs/rules.md, limb damage): limb HP by size
//! category, what each damage type does to a limb, damage modifiers with
//! per-limb armor coverage, and the tragic injury a lost limb becomes
//! (docs/rules.md, lingering injuries, *lose an arm or a hand* / *lose a foot or leg*).
//!
//! Limb HP is separate from the creature's HP: nothing here touches the
//! creature's own hit points.

use serde::Deserialize;

pub use super::damage::{DamageModifiers, DamageType, DamageTypes, Size};

/// A limb that can be damaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limb {
    /// An arm (or hand).
    Arm,
    /// A leg (or foot).
    Leg,
    /// The head: not amputable unless a scenario says so (docs/rules.md, limb damage).
    Head,
}

impl Limb {
    /// Name as written in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            Limb::Arm => "arm",
            Limb::Leg => "leg",
            Limb::Head => "head",
        }
    }

    /// The tragic injury a lost limb becomes; the head has none (losing it
    /// is the scenario's business, e.g. a hydra).
    pub fn tragic_injury(self) -> Option<&'static TragicInjury> {
        match self {
            Limb::Arm => Some(&LOSE_ARM_OR_HAND),
            Limb::Leg => Some(&LOSE_FOOT_OR_LEG),
            Limb::Head => None,
        }
    }
}

/// One row of the seed's table: size, category, arm HP, leg HP.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimbHpRow {
    /// D&D size.
    pub size: Size,
    /// The seed's size category.
    pub category: f64,
    /// Arm HP.
    pub arm: u32,
    /// Leg HP.
    pub leg: u32,
}

/// Limb HP of flesh and bone by size category (the seed's table; a GM may
/// override it per creature and per limb).
pub const LIMB_HP: [LimbHpRow; 6] = [
    LimbHpRow {
        size: Size::Tiny,
        category: 0.25,
        arm: 1,
        leg: 2,
    },
    LimbHpRow {
        size: Size::Small,
        category: 0.5,
        arm: 3,
        leg: 5,
    },
    LimbHpRow {
        size: Size::Medium,
        category: 1.0,
        arm: 5,
        leg: 10,
    },
    LimbHpRow {
        size: Size::Large,
        category: 2.0,
        arm: 10,
        leg: 20,
    },
    LimbHpRow {
        size: Size::Huge,
        category: 3.0,
        arm: 20,
        leg: 40,
    },
    LimbHpRow {
        size: Size::Gargantuan,
        category: 4.0,
        arm: 40,
        leg: 80,
    },
];

/// Table limb HP for a size and limb; `None` for the head (no table value:
/// a scenario that makes the head amputable must give its HP).
///
/// ```
/// use woundsim::rules::limbs::{Limb, Size, table_limb_hp};
/// assert_eq!(table_limb_hp(Size::Medium, Limb::Leg), Some(10));
/// assert_eq!(table_limb_hp(Size::Medium, Limb::Head), None);
/// ```
pub fn table_limb_hp(size: Size, limb: Limb) -> Option<u32> {
    let row = LIMB_HP.iter().find(|r| r.size == size)?;
    match limb {
        Limb::Arm => Some(row.arm),
        Limb::Leg => Some(row.leg),
        Limb::Head => None,
    }
}

/// What damage of a type does to a limb brought to 0 HP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimbEffect {
    /// Cuts it off (amputation).
    Sever,
    /// Destroys its use without cutting it off: burned away (fire), bones
    /// broken (bludgeoning), nerves cut (psychic).
    Disable,
    /// Nothing the seed describes.
    Nothing,
}

/// What a damage type does to a limb, by default (the seed: only slashing
/// amputates; fire, bludgeoning and psychic can disable, when the GM allows
/// them). `piercing_severs` is the seed's broader reading: its text says
/// "sharp" damage (острый урон), which a GM may read as slashing and piercing.
///
/// ```
/// use woundsim::rules::limbs::{DamageType, LimbEffect, limb_effect};
/// assert_eq!(limb_effect(DamageType::Slashing, false), LimbEffect::Sever);
/// assert_eq!(limb_effect(DamageType::Fire, false), LimbEffect::Disable);
/// assert_eq!(limb_effect(DamageType::Piercing, false), LimbEffect::Nothing);
/// assert_eq!(limb_effect(DamageType::Piercing, true), LimbEffect::Sever);
/// ```
pub fn limb_effect(t: DamageType, piercing_severs: bool) -> LimbEffect {
    match t {
        DamageType::Slashing => LimbEffect::Sever,
        DamageType::Piercing if piercing_severs => LimbEffect::Sever,
        DamageType::Fire | DamageType::Bludgeoning | DamageType::Psychic => LimbEffect::Disable,
        _ => LimbEffect::Nothing,
    }
}

/// Why a limb is being taken: the seed's two purposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Stop a spreading poison: only a severed limb helps.
    StopPoison,
    /// Stop a possessed limb: a severed or a disabled limb helps.
    StopPossession,
}

impl Purpose {
    /// Name as written in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            Purpose::StopPoison => "stop_poison",
            Purpose::StopPossession => "stop_possession",
        }
    }

    /// Whether a limb with this effect serves the purpose.
    pub fn served_by(self, effect: LimbEffect) -> bool {
        matches!(
            (self, effect),
            (_, LimbEffect::Sever) | (Purpose::StopPossession, LimbEffect::Disable)
        )
    }
}

/// A piece of armor and the limbs it covers (a chain shirt covers the torso
/// and arms, not the legs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmorPiece {
    /// Name, for humans.
    pub name: String,
    /// The limbs it covers.
    pub covers: Vec<Limb>,
    /// AC it adds against attacks aimed at a covered limb.
    pub ac_bonus: i32,
    /// Damage modifiers it gives a covered limb.
    pub modifiers: DamageModifiers,
}

impl ArmorPiece {
    /// Whether the piece covers `limb`.
    pub fn covers(&self, limb: Limb) -> bool {
        self.covers.contains(&limb)
    }
}

/// The modifiers and AC bonus that apply to `limb`: the creature's own
/// modifiers plus those of each covering piece.
pub fn limb_defences(
    creature: &DamageModifiers,
    armor: &[ArmorPiece],
    limb: Limb,
) -> (DamageModifiers, i32) {
    armor
        .iter()
        .filter(|a| a.covers(limb))
        .fold((*creature, 0), |(m, ac), a| {
            (m.plus(&a.modifiers), ac + a.ac_bonus)
        })
}

/// A tragic injury from the lingering-injury table (docs/rules.md, lingering injuries), with its
/// effects as data for the combat and campaign models.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TragicInjury {
    /// Metric-friendly name.
    pub name: &'static str,
    /// The table's wording.
    pub label: &'static str,
    /// Can still hold things with two hands.
    pub two_handed: bool,
    /// Walking speed multiplier.
    pub speed_factor: f64,
    /// Needs a cane or crutch unless it has a peg leg or prosthesis.
    pub needs_crutch: bool,
    /// Falls prone after the Dash action.
    pub prone_after_dash: bool,
    /// Disadvantage on Dexterity checks made to balance.
    pub balance_disadvantage: bool,
    /// What cures it.
    pub cure: &'static str,
}

/// *Lose an arm or a hand* (d100 3-4).
pub const LOSE_ARM_OR_HAND: TragicInjury = TragicInjury {
    name: "lose_arm_or_hand",
    label: "Lose an arm or a hand: can't hold anything with two hands; holds one object at a time",
    two_handed: false,
    speed_factor: 1.0,
    needs_crutch: false,
    prone_after_dash: false,
    balance_disadvantage: false,
    cure: "regenerate",
};

/// *Lose a foot or leg* (d100 5-6).
pub const LOSE_FOOT_OR_LEG: TragicInjury = TragicInjury {
    name: "lose_foot_or_leg",
    label: "Lose a foot or leg: speed halved; cane or crutch unless a peg leg or prosthesis; prone after Dash; disadvantage on Dexterity checks to balance",
    two_handed: true,
    speed_factor: 0.5,
    needs_crutch: true,
    prone_after_dash: true,
    balance_disadvantage: true,
    cure: "regenerate",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_table_matches_the_seed() {
        let expect = [
            (Size::Tiny, 0.25, 1, 2),
            (Size::Small, 0.5, 3, 5),
            (Size::Medium, 1.0, 5, 10),
            (Size::Large, 2.0, 10, 20),
            (Size::Huge, 3.0, 20, 40),
            (Size::Gargantuan, 4.0, 40, 80),
        ];
        for (row, (size, cat, arm, leg)) in LIMB_HP.iter().zip(expect) {
            assert_eq!(
                (row.size, row.category, row.arm, row.leg),
                (size, cat, arm, leg)
            );
            assert_eq!(table_limb_hp(size, Limb::Arm), Some(arm));
            assert_eq!(table_limb_hp(size, Limb::Leg), Some(leg));
            assert_eq!(table_limb_hp(size, Limb::Head), None);
        }
    }

    #[test]
    fn only_slashing_severs_by_default() {
        for t in DamageType::ALL {
            let e = limb_effect(t, false);
            assert_eq!(e == LimbEffect::Sever, t == DamageType::Slashing, "{t:?}");
        }
        let disabling: Vec<_> = DamageType::ALL
            .into_iter()
            .filter(|t| limb_effect(*t, false) == LimbEffect::Disable)
            .collect();
        assert_eq!(
            disabling,
            [
                DamageType::Bludgeoning,
                DamageType::Fire,
                DamageType::Psychic
            ]
        );
    }

    #[test]
    fn disabling_stops_possession_but_not_poison() {
        assert!(Purpose::StopPoison.served_by(LimbEffect::Sever));
        assert!(!Purpose::StopPoison.served_by(LimbEffect::Disable));
        assert!(Purpose::StopPossession.served_by(LimbEffect::Disable));
        assert!(Purpose::StopPossession.served_by(LimbEffect::Sever));
        assert!(!Purpose::StopPossession.served_by(LimbEffect::Nothing));
    }

    #[test]
    fn modifiers_apply_in_5e_order() {
        let slash = DamageTypes::of([DamageType::Slashing]);
        let resist = DamageModifiers {
            resistances: slash,
            ..Default::default()
        };
        assert_eq!(resist.apply(7, DamageType::Slashing), 3);
        let immune = DamageModifiers {
            immunities: slash,
            ..Default::default()
        };
        assert_eq!(immune.apply(100, DamageType::Slashing), 0);
        let vulnerable = DamageModifiers {
            vulnerabilities: slash,
            reduction: 3,
            ..Default::default()
        };
        assert_eq!(vulnerable.apply(5, DamageType::Slashing), 4);
        assert_eq!(vulnerable.apply(2, DamageType::Slashing), 0);
        let both = resist.plus(&vulnerable);
        assert_eq!(both.apply(9, DamageType::Slashing), 6);
        assert_eq!(resist.plus(&resist).apply(8, DamageType::Slashing), 4);
    }

    #[test]
    fn armor_protects_only_the_limbs_it_covers() {
        let shirt = ArmorPiece {
            name: "chain shirt".into(),
            covers: vec![Limb::Arm],
            ac_bonus: 3,
            modifiers: DamageModifiers {
                reduction: 2,
                ..Default::default()
            },
        };
        let own = DamageModifiers::default();
        let (arm, arm_ac) = limb_defences(&own, std::slice::from_ref(&shirt), Limb::Arm);
        let (leg, leg_ac) = limb_defences(&own, std::slice::from_ref(&shirt), Limb::Leg);
        assert_eq!((arm.reduction, arm_ac), (2, 3));
        assert_eq!((leg.reduction, leg_ac), (0, 0));
        assert_eq!(arm.apply(5, DamageType::Slashing), 3);
        assert_eq!(leg.apply(5, DamageType::Slashing), 5);
    }

    #[test]
    fn lost_limbs_become_the_matching_tragic_injury() {
        assert_eq!(Limb::Arm.tragic_injury().unwrap().name, "lose_arm_or_hand");
        let leg = Limb::Leg.tragic_injury().unwrap();
        assert_eq!(leg.name, "lose_foot_or_leg");
        assert_eq!(leg.speed_factor, 0.5);
        assert!(leg.prone_after_dash && leg.needs_crutch);
        assert!(!Limb::Arm.tragic_injury().unwrap().two_handed);
        assert!(Limb::Head.tragic_injury().is_none());
    }
}
