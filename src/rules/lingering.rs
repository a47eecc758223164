//! Lingering injuries (docs/rules.md, lingering injuries): the
//! trigger on critical hits and critical misses, and the extended d100
//! injury table with typed effects and cures, as data.
//!
//! The default table lives in `data/lingering-injuries.toml` (embedded);
//! [`crate::scenario::data::injury_table`] validates it (the d100 ranges
//! cover 1..=100 exactly once) into an [`InjuryTable`] once, at start-up. Nothing here hard-codes an entry:
//! the mechanics read the tags ([`Effect`], [`Cure`]) so a designer's own
//! table works the same way.

use serde::Deserialize;

use crate::dice::Chance;

pub use crate::rules::injury_tags::{
    Ability, Check, Component, Cure, CureClass, Effect, ItemKind, ItemRow, MagicClass, SaveWhen,
};

/// One entry of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Injury {
    /// lower_snake_case id (in metric names).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Inclusive d100 range.
    pub low: u8,
    /// Inclusive d100 range.
    pub high: u8,
    /// Effects.
    pub effects: Vec<Effect>,
    /// Alternative cures.
    pub cures: Vec<Cure>,
}

impl Injury {
    /// d100 results that give this entry.
    pub fn width(&self) -> u32 {
        u32::from(self.high - self.low) + 1
    }

    /// The weakest magic that cures it, if any.
    pub fn cure_class(&self) -> CureClass {
        self.cures
            .iter()
            .filter_map(|c| match c {
                Cure::Magic { class } => Some(*class),
                _ => None,
            })
            .min()
            .map_or(CureClass::NoMagic, CureClass::Magic)
    }

    /// Permanent: only *regenerate*-class magic ends it (no rest, no tending).
    ///
    /// ```
    /// let t = woundsim::scenario::data::builtin_catalog().unwrap().injury_table;
    /// assert!(t.entry("lose_an_eye").unwrap().is_permanent());
    /// assert!(!t.entry("limp").unwrap().is_permanent());
    /// ```
    pub fn is_permanent(&self) -> bool {
        !self.cures.is_empty()
            && self.cures.iter().all(|c| {
                matches!(
                    c,
                    Cure::Magic {
                        class: MagicClass::Regenerate
                    }
                )
            })
    }

    /// Whether an effect with this tag shape is present.
    pub fn has(&self, pred: impl Fn(&Effect) -> bool) -> bool {
        self.effects.iter().any(pred)
    }

    /// The organ count after which losing all of them blinds (eyes: 2).
    pub fn blinding_count(&self) -> Option<u8> {
        self.effects.iter().find_map(|e| match e {
            Effect::BlindedWhenAllLost { count } => Some(*count),
            _ => None,
        })
    }

    /// Whether `lost` injuries of this entry blind the creature.
    pub fn blinds_after(&self, lost: u32) -> bool {
        self.blinding_count().is_some_and(|c| lost >= u32::from(c))
    }

    /// Whether `lost` fingers on one hand count as losing the hand.
    pub fn hand_lost_after(&self, lost_on_hand: u32) -> bool {
        self.effects.iter().any(|e| {
            matches!(e, Effect::HandLostWhenAllLost { count } if lost_on_hand >= u32::from(*count))
        })
    }

    /// Whether the `nth` (1-based) concurrent injury of this entry drops the creature to 0 HP.
    pub fn drops_to_zero_at(&self, nth: u32) -> bool {
        nth >= 2 && self.has(|e| matches!(e, Effect::SecondDropsToZeroHp))
    }

    /// Whether a spell with `component` fails on this `roll` of the effect's die.
    pub fn spell_fails(&self, component: Component, roll: u8) -> bool {
        self.effects.iter().any(|e| {
            matches!(e, Effect::SpellFailure { component: c, fails_on, .. } if *c == component && roll <= *fails_on)
        })
    }

    /// Whether an action in combat is lost: the save `total` against the
    /// injury's DC (only while it precipitates, for `when = precipitation`).
    pub fn action_lost(&self, total: i32, precipitating: bool) -> bool {
        self.effects.iter().any(|e| match e {
            Effect::ActionLossSave { dc, when, .. } => {
                (matches!(when, SaveWhen::Always) || precipitating) && total < i32::from(*dc)
            }
            _ => false,
        })
    }

    /// Walking speed after the injury, from `speed` feet.
    pub fn speed(&self, speed: i32) -> i32 {
        self.effects.iter().fold(speed, |s, e| match e {
            Effect::SpeedHalved => s / 2,
            Effect::SpeedChange { feet } => (s + feet).max(0),
            _ => s,
        })
    }

    /// The item a broken-item roll of `roll` on the sub-table destroys.
    pub fn broken_item(&self, roll: u8) -> Option<ItemKind> {
        self.effects.iter().find_map(|e| match e {
            Effect::BrokenItem { items, .. } => items
                .iter()
                .find(|r| (r.d[0]..=r.d[1]).contains(&roll))
                .map(|r| r.item),
            _ => None,
        })
    }

    /// The broken-item sub-table die and rows, if this entry breaks items.
    pub fn item_table(&self) -> Option<(u8, &[ItemRow])> {
        self.effects.iter().find_map(|e| match e {
            Effect::BrokenItem { die, items } => Some((*die, items.as_slice())),
            _ => None,
        })
    }
}

/// A validated injury table: entries in d100 order covering 1..=100 once,
/// and the injury chance per triggering event.
#[derive(Clone, Debug, PartialEq)]
pub struct InjuryTable {
    /// Probability that a triggering event injures (docs/rules.md, lingering injuries: 0.05).
    pub chance: Chance,
    /// Entries sorted by range.
    pub entries: Vec<Injury>,
    /// `index[d100 - 1]`: the entry of each d100 result.
    index: [u8; 100],
}

impl InjuryTable {
    /// Builds the table; the caller (the scenario layer) has checked that
    /// the ranges cover 1..=100 exactly once and that there are at most 100
    /// entries.
    pub fn new(chance: Chance, mut entries: Vec<Injury>) -> Self {
        entries.sort_by_key(|e| e.low);
        let mut index = [0u8; 100];
        for (i, e) in entries.iter().enumerate() {
            for d in e.low..=e.high {
                index[usize::from(d) - 1] = i as u8;
            }
        }
        InjuryTable {
            chance,
            entries,
            index,
        }
    }

    /// Index of the entry for a d100 result (1..=100).
    #[inline]
    pub fn lookup(&self, d100: u8) -> usize {
        usize::from(self.index[usize::from(d100.clamp(1, 100)) - 1])
    }

    /// The entry with this id.
    pub fn entry(&self, id: &str) -> Option<&Injury> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// Each entry's share of the d100 (its chance given that an injury
    /// happens), in table order.
    pub fn odds(&self) -> Vec<f64> {
        self.entries
            .iter()
            .map(|e| f64::from(e.width()) / 100.0)
            .collect()
    }

    /// The entries' d100 shares ([`InjuryTable::odds`]) if every one of
    /// `tables` has the same entries with the same ranges, so that the
    /// shares rank the entries of every variant; `None` otherwise or
    /// without tables.
    pub fn shared_odds<'a>(tables: impl IntoIterator<Item = &'a InjuryTable>) -> Option<Vec<f64>> {
        let mut tables = tables.into_iter();
        let first = tables.next()?;
        let ranges = |t: &InjuryTable| -> Vec<(String, u8, u8)> {
            t.entries
                .iter()
                .map(|e| (e.id.clone(), e.low, e.high))
                .collect()
        };
        let want = ranges(first);
        tables.all(|t| ranges(t) == want).then(|| first.odds())
    }

    /// One line per entry: d100 range, name, id, cures (for `woundsim list`).
    pub fn describe(&self) -> Vec<String> {
        self.entries
            .iter()
            .map(|e| {
                let cures: Vec<String> = e.cures.iter().map(Cure::describe).collect();
                format!(
                    "{:>3}-{:<3} {:<22} {:<20} cure: {}{}",
                    e.low,
                    e.high,
                    e.name,
                    e.id,
                    if cures.is_empty() {
                        "none".to_string()
                    } else {
                        cures.join(" | ")
                    },
                    if e.is_permanent() {
                        "  [permanent]"
                    } else {
                        ""
                    }
                )
            })
            .collect()
    }
}

/// Who the injury rules apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppliesTo {
    /// PCs and monsters (default).
    #[default]
    Both,
    /// Only PCs.
    Pcs,
    /// Only monsters.
    Monsters,
}

/// Which side a creature is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// A player character (default).
    #[default]
    Pc,
    /// A monster.
    Monster,
}

impl AppliesTo {
    /// Whether the rules apply to a creature of `side`.
    pub fn covers(self, side: Side) -> bool {
        match self {
            AppliesTo::Both => true,
            AppliesTo::Pcs => side == Side::Pc,
            AppliesTo::Monsters => side == Side::Monster,
        }
    }
}

/// Which of the creature's own attack rolls can injure it. The seed says
/// "при критическом попадании или промахе" — "on a critical hit or miss";
/// docs/rules.md reads a critical miss (natural 1), but "or a miss" (any miss)
/// is a grammatical reading too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissTrigger {
    /// A natural 1 (docs/rules.md default).
    #[default]
    #[serde(rename = "natural_1")]
    Natural1,
    /// Any miss: a natural 1, or a roll below what it needs to hit.
    AnyMiss,
}

/// The trigger: which events roll on the table (docs/rules.md, lingering injuries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trigger {
    /// A critical hit taken injures the target.
    pub on_crit_hit: bool,
    /// A critical miss (natural 1) on an attack roll injures the attacker.
    pub on_crit_miss: bool,
    /// Who the rules apply to.
    pub applies_to: AppliesTo,
}

impl Default for Trigger {
    fn default() -> Self {
        Trigger {
            on_crit_hit: true,
            on_crit_miss: true,
            applies_to: AppliesTo::Both,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> InjuryTable {
        crate::fixtures::catalog().injury_table.clone()
    }

    #[test]
    fn the_default_table_has_23_entries_covering_d100_once() {
        let t = table();
        assert_eq!(t.entries.len(), 23);
        assert_eq!(t.chance.p(), 0.05);
        let widths: u32 = t.entries.iter().map(Injury::width).sum();
        assert_eq!(widths, 100);
        assert_eq!(t.entries[t.lookup(1)].id, "lose_an_eye");
        assert_eq!(t.entries[t.lookup(2)].id, "lose_an_eye");
        assert_eq!(t.entries[t.lookup(3)].id, "lose_an_arm_or_hand");
        assert_eq!(t.entries[t.lookup(60)].id, "festering_wound");
        assert_eq!(t.entries[t.lookup(61)].id, "open_wound");
        assert_eq!(t.entries[t.lookup(100)].id, "minor_scar");
    }

    #[test]
    fn entry_odds_are_d100_shares_shared_only_by_equal_tables() {
        let t = table();
        let odds = t.odds();
        assert_eq!(odds[0], 0.02, "lose an eye: 1-2");
        assert_eq!(odds[5], 0.05, "blurred vision: 11-15");
        assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert_eq!(InjuryTable::shared_odds([&t, &table()]), Some(odds));
        // Another chance of an injury keeps the entries' shares.
        let harsh = InjuryTable::new(Chance::constant(0.1), t.entries.clone());
        assert!(InjuryTable::shared_odds([&t, &harsh]).is_some());
        let mut entries = t.entries.clone();
        entries[0].high = 1;
        entries[1].low = 2;
        let moved = InjuryTable::new(Chance::constant(0.05), entries);
        assert_eq!(InjuryTable::shared_odds([&t, &moved]), None);
        assert_eq!(InjuryTable::shared_odds([]), None);
    }

    #[test]
    fn losing_both_eyes_blinds() {
        let eye = table().entry("lose_an_eye").cloned().unwrap();
        assert!(!eye.blinds_after(1));
        assert!(eye.blinds_after(2));
        let blurred = table().entry("blurred_vision").cloned().unwrap();
        assert!(!blurred.blinds_after(5));
    }

    #[test]
    fn losing_all_fingers_of_a_hand_loses_the_hand() {
        let finger = table().entry("lose_a_finger").cloned().unwrap();
        assert!(!finger.hand_lost_after(4));
        assert!(finger.hand_lost_after(5));
        assert!(
            finger.has(
                |e| matches!(e, Effect::Disadvantage { on } if on.contains(&Check::FineTools))
            )
        );
    }

    #[test]
    fn a_second_punctured_lung_drops_to_zero_hp() {
        let lung = table().entry("punctured_lung").cloned().unwrap();
        assert!(!lung.drops_to_zero_at(1));
        assert!(lung.drops_to_zero_at(2));
        assert!(lung.has(|e| matches!(e, Effect::ActionOrBonusAction)));
        assert!(!table().entry("limp").unwrap().drops_to_zero_at(2));
    }

    #[test]
    fn knocked_out_teeth_fail_verbal_spells_on_a_one() {
        let teeth = table().entry("knocked_out_teeth").cloned().unwrap();
        assert!(teeth.spell_fails(Component::Verbal, 1));
        assert!(!teeth.spell_fails(Component::Verbal, 2));
        assert!(!teeth.spell_fails(Component::Somatic, 1));
    }

    #[test]
    fn action_loss_saves_use_the_entry_dc() {
        let t = table();
        let skull = t.entry("skull_fracture").unwrap();
        assert!(skull.action_lost(19, false));
        assert!(!skull.action_lost(20, false));
        let internal = t.entry("internal_injury").unwrap();
        assert!(internal.action_lost(14, false) && !internal.action_lost(15, false));
        let ribs = t.entry("broken_ribs").unwrap();
        assert!(ribs.action_lost(9, false) && !ribs.action_lost(10, false));
        let painful = t.entry("painful_scar").unwrap();
        assert!(
            !painful.action_lost(1, false),
            "only while it rains or snows"
        );
        assert!(painful.action_lost(14, true));
    }

    #[test]
    fn speed_effects() {
        let t = table();
        assert_eq!(t.entry("lose_a_foot_or_leg").unwrap().speed(30), 15);
        assert_eq!(t.entry("broken_leg_or_foot").unwrap().speed(30), 15);
        assert_eq!(t.entry("limp").unwrap().speed(30), 25);
        assert_eq!(t.entry("limp").unwrap().speed(5), 0);
        assert!(
            t.entry("limp")
                .unwrap()
                .has(|e| matches!(e, Effect::ProneAfterDash { save_dc: Some(10) }))
        );
        assert!(
            t.entry("lose_a_foot_or_leg")
                .unwrap()
                .has(|e| matches!(e, Effect::ProneAfterDash { save_dc: None }))
        );
    }

    #[test]
    fn broken_item_sub_table() {
        let item = table().entry("broken_item").cloned().unwrap();
        assert_eq!(item.broken_item(1), Some(ItemKind::Weapon));
        assert_eq!(item.broken_item(2), Some(ItemKind::ArmorOrShield));
        for r in 3..=10 {
            assert_eq!(item.broken_item(r), Some(ItemKind::Other));
        }
        assert_eq!(item.item_table().unwrap().0, 10);
        assert_eq!(item.cure_class(), CureClass::NoMagic);
    }

    #[test]
    fn cure_classes_follow_the_text() {
        let t = table();
        let class = |id: &str| t.entry(id).unwrap().cure_class();
        for id in [
            "lose_an_eye",
            "lose_an_arm_or_hand",
            "lose_a_foot_or_leg",
            "lose_an_ear",
            "lose_the_nose",
        ] {
            assert_eq!(class(id), CureClass::Magic(MagicClass::Regenerate), "{id}");
            assert!(t.entry(id).unwrap().is_permanent());
        }
        assert_eq!(
            class("lose_a_finger"),
            CureClass::Magic(MagicClass::Restoration)
        );
        assert_eq!(
            class("horrible_scar"),
            CureClass::Magic(MagicClass::Healing6th)
        );
        assert_eq!(
            class("minor_scar"),
            CureClass::Magic(MagicClass::Healing6th)
        );
        for id in [
            "blurred_vision",
            "limp",
            "festering_wound",
            "punctured_lung",
            "painful_scar",
        ] {
            assert_eq!(
                class(id),
                CureClass::Magic(MagicClass::MagicalHealing),
                "{id}"
            );
        }
        let permanent = t.entries.iter().filter(|e| e.is_permanent()).count();
        assert_eq!(permanent, 5);
        assert!(
            t.entry("broken_arm_or_hand")
                .unwrap()
                .cures
                .contains(&Cure::MedicineAndRest { dc: 15, days: 30 })
        );
        assert!(
            t.entry("broken_finger")
                .unwrap()
                .cures
                .contains(&Cure::MedicineAndRest { dc: 10, days: 10 })
        );
        assert!(
            t.entry("blurred_vision")
                .unwrap()
                .cures
                .contains(&Cure::Rest { days: 3 })
        );
        assert!(
            t.entry("skull_fracture")
                .unwrap()
                .cures
                .contains(&Cure::Rest { days: 30 })
        );
        assert!(
            t.entry("open_wound")
                .unwrap()
                .cures
                .contains(&Cure::Tending {
                    dc: 15,
                    successes: 10
                })
        );
    }

    #[test]
    fn applies_to_sides() {
        assert!(AppliesTo::Both.covers(Side::Monster));
        assert!(AppliesTo::Pcs.covers(Side::Pc) && !AppliesTo::Pcs.covers(Side::Monster));
        assert!(AppliesTo::Monsters.covers(Side::Monster) && !AppliesTo::Monsters.covers(Side::Pc));
    }
}
