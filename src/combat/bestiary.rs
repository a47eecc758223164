//! The bestiary: SRD 5.1 monsters as data (`data/bestiary.toml`, embedded),
//! parsed once. Facts from the System Reference Document 5.1 by Wizards of
//! the Coast LLC, licensed under CC-BY-4.0.

use std::sync::OnceLock;

use super::creature::CreatureSpec;

/// The bestiary file, as shipped.
pub const BESTIARY_TOML: &str = include_str!("../../data/bestiary.toml");

fn all() -> &'static [CreatureSpec] {
    static PARSED: OnceLock<Vec<CreatureSpec>> = OnceLock::new();
    PARSED.get_or_init(|| {
        // The shipped file is validated by a test; a broken build fails it.
        crate::scenario::creature::parse_bestiary("data/bestiary.toml (built-in)", BESTIARY_TOML)
            .unwrap_or_default()
    })
}

/// A monster by bestiary name (e.g. `hobgoblin`).
pub fn lookup(name: &str) -> Option<CreatureSpec> {
    all().iter().find(|c| c.name == name).cloned()
}

/// Every monster name, sorted.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|c| c.name.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_bestiary_parses_and_has_the_srd_monsters() {
        crate::scenario::creature::parse_bestiary("bestiary", BESTIARY_TOML).unwrap();
        for name in [
            "goblin",
            "kobold",
            "wolf",
            "orc",
            "hobgoblin",
            "bugbear",
            "gnoll",
            "ogre",
            "owlbear",
            "troll",
            "young_red_dragon",
            "wyvern",
        ] {
            let m = lookup(name).unwrap_or_else(|| panic!("{name}"));
            assert!(!m.is_pc && m.max_hp > 0 && !m.attacks.is_empty(), "{name}");
        }
    }

    #[test]
    fn srd_values_are_transcribed() {
        let hob = lookup("hobgoblin").unwrap();
        assert_eq!((hob.max_hp, hob.ac, hob.attacks[0].to_hit), (11, 18, 3));
        let troll = lookup("troll").unwrap();
        assert_eq!(troll.multiattack.len(), 3);
        assert!(troll.regeneration.is_some());
        let dragon = lookup("young_red_dragon").unwrap();
        assert_eq!(dragon.breath.unwrap().dice.count, 16);
        assert!(
            dragon
                .defenses
                .immunities
                .has(crate::rules::damage::DamageType::Fire)
        );
        let wyvern = lookup("wyvern").unwrap();
        assert_eq!(wyvern.attacks[1].rider.unwrap().dice.count, 7);
    }
}
