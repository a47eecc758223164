//! The bestiary: monsters as validated creature statistics, looked up by
//! name, with what the round loop does not use about them ([`Lore`]: SRD
//! version, type, challenge rating and XP, speeds, condition immunities,
//! the features it does not model).
//!
//! The built-in catalog ([`crate::scenario::data`]) holds two files: the
//! hand-written SRD 5.1 statblocks of `data/bestiary.toml` under their old
//! names (`young_red_dragon`, `ogre`), kept for compatibility so shipped
//! scenarios keep their figures, and the SRD 5.2 monsters of
//! `data/srd-bestiary.toml` under their slugs (`adult-red-dragon`). Where a
//! slug is also an old name (`ogre`, `owlbear`, `troll`, `wolf`,
//! `wyvern`), the bare name is the 5.1 statblock and `NAME@5.2` the SRD 5.2
//! one. A user's own statblocks ([`Bestiary::merge_over`]) replace a
//! built-in entry of the same name.
//!
//! [`Bestiary::resolve`] forgives case, spaces for hyphens and a plural
//! (`Ogre`, `goblins`, `Adult Red Dragon`) when one entry fits (the
//! scenario layer names the nearest entries for a miss). Facts from the System Reference
//! Documents 5.1 and 5.2 by Wizards of the Coast LLC, licensed under
//! CC-BY-4.0 (see NOTICE).

use super::creature::CreatureSpec;

/// The suffix that names the SRD 5.2 statblock of a slug that is also an
/// old SRD 5.1 name (`ogre@5.2`).
pub const SRD52_SUFFIX: &str = "@5.2";

/// Speeds in feet (0 = none), as the statblock gives them. Carried for
/// `woundsim show`: the round loop has no positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Speed {
    /// Walking speed.
    pub walk: u32,
    /// Flying speed.
    pub fly: u32,
    /// Swimming speed.
    pub swim: u32,
    /// Climbing speed.
    pub climb: u32,
    /// Burrowing speed.
    pub burrow: u32,
    /// Hovers while flying.
    pub hover: bool,
}

/// What an entry says about a monster beyond what the round loop uses:
/// shown by `woundsim show`, never read by a fight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lore {
    /// The SRD version of the statblock (`5.1`, `5.2`), if any.
    pub srd: Option<String>,
    /// The SRD slug (`adult-red-dragon`).
    pub slug: Option<String>,
    /// Creature type (`dragon`).
    pub kind: Option<String>,
    /// Challenge rating as written (`1/4`, `17`).
    pub cr: Option<String>,
    /// Experience points for the challenge rating.
    pub xp: Option<u32>,
    /// Proficiency bonus for the challenge rating.
    pub proficiency_bonus: Option<u8>,
    /// Speeds.
    pub speed: Option<Speed>,
    /// Condition immunities (lower case, SRD words), as written; the fight
    /// reads them from [`CreatureSpec::condition_immune`].
    pub condition_immunities: Vec<String>,
    /// Traits and actions the round loop ignores or approximates, in the
    /// statblock's words (`Pack Tactics`, `Spellcasting`).
    pub not_modelled: Vec<String>,
    /// Traits that change nothing in a woundsim fight, in the statblock's
    /// words (`Amphibious`: fights are on dry land; tools/srd/README.md,
    /// "No effect in a fight").
    pub no_fight_effect: Vec<String>,
}

/// One bestiary entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Monster {
    /// The name it is looked up by (`adult-red-dragon`, `young_red_dragon`,
    /// `ogre@5.2`).
    pub key: String,
    /// The statistics a fight uses.
    pub spec: CreatureSpec,
    /// The rest of the statblock.
    pub lore: Lore,
}

/// Why [`Bestiary::resolve`] found no single entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// No entry fits.
    Unknown,
    /// Several entries fit the forgiving readings.
    Ambiguous(Vec<String>),
}

/// Monsters by name, sorted by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bestiary {
    monsters: Vec<Monster>,
}

impl Bestiary {
    /// A bestiary of these entries (each a distinct key).
    pub fn of(mut monsters: Vec<Monster>) -> Self {
        monsters.sort_by(|a, b| a.key.cmp(&b.key));
        Bestiary { monsters }
    }

    /// The built-in bestiary: `old` (SRD 5.1, the compatibility names;
    /// marked `5.1` where they say no version) and `srd52` (slugs); a slug
    /// that is an old name becomes `SLUG@5.2`.
    pub fn builtin(old: Bestiary, srd52: Bestiary) -> Self {
        let mut monsters = old.monsters;
        for m in &mut monsters {
            m.lore.srd.get_or_insert_with(|| "5.1".to_string());
        }
        let clashes = |key: &str| monsters.iter().any(|o| o.key == key);
        let renamed: Vec<Monster> = srd52
            .monsters
            .into_iter()
            .map(|mut m| {
                if clashes(&m.key) {
                    m.key.push_str(SRD52_SUFFIX);
                }
                m
            })
            .collect();
        monsters.extend(renamed);
        Self::of(monsters)
    }

    /// This bestiary with `user`'s entries added; a user entry replaces a
    /// built-in one of the same name.
    pub fn merge_over(&self, user: Bestiary) -> Self {
        let mut monsters: Vec<Monster> = self
            .monsters
            .iter()
            .filter(|m| user.entry(&m.key).is_none())
            .cloned()
            .collect();
        monsters.extend(user.monsters);
        Self::of(monsters)
    }

    /// A monster by its exact name (e.g. `hobgoblin`).
    pub fn lookup(&self, name: &str) -> Option<&CreatureSpec> {
        self.entry(name).map(|m| &m.spec)
    }

    /// An entry by its exact name.
    pub fn entry(&self, name: &str) -> Option<&Monster> {
        self.monsters
            .binary_search_by(|m| m.key.as_str().cmp(name))
            .ok()
            .map(|i| &self.monsters[i])
    }

    /// Every monster name, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.monsters.iter().map(|m| m.key.as_str()).collect()
    }

    /// Every entry, sorted by name.
    pub fn monsters(&self) -> &[Monster] {
        &self.monsters
    }

    /// The entry `name` means: its exact name, else the one entry that its
    /// forgiving readings (lower case; spaces as hyphens; a plural made
    /// singular) name.
    ///
    /// ```
    /// # use woundsim::combat::bestiary::Unresolved;
    /// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    /// let b = &catalog.bestiary;
    /// assert_eq!(b.resolve("Adult Red Dragon").unwrap().key, "adult-red-dragon");
    /// assert_eq!(b.resolve("goblins").unwrap().key, "goblin");
    /// assert_eq!(b.resolve("ogre@5.2").unwrap().lore.srd.as_deref(), Some("5.2"));
    /// assert_eq!(b.resolve("adult red dragn"), Err(Unresolved::Unknown));
    /// ```
    pub fn resolve(&self, name: &str) -> Result<&Monster, Unresolved> {
        if let Some(m) = self.entry(name) {
            return Ok(m);
        }
        let mut found: Vec<&Monster> = Vec::new();
        for form in readings(name) {
            if let Some(m) = self.entry(&form) {
                if !found.iter().any(|f| f.key == m.key) {
                    found.push(m);
                }
            }
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(Unresolved::Unknown),
            _ => Err(Unresolved::Ambiguous(
                found.iter().map(|m| m.key.clone()).collect(),
            )),
        }
    }
}

/// Runs of spaces as one hyphen (`Adult Red Dragon` → `Adult-Red-Dragon`).
pub fn hyphenated(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join("-")
}

/// The forgiving readings of a name: lower case, with spaces as hyphens,
/// each also made singular (`wolves` → `wolf`, `harpies` → `harpy`,
/// `goblins` → `goblin`).
fn readings(name: &str) -> Vec<String> {
    let lower = name.trim().to_lowercase();
    let mut out = Vec::new();
    for form in [lower.clone(), hyphenated(&lower)] {
        let mut singular = Vec::new();
        if let Some(stem) = form.strip_suffix("ves") {
            singular.push(format!("{stem}f"));
            singular.push(format!("{stem}fe"));
        }
        if let Some(stem) = form.strip_suffix("ies") {
            singular.push(format!("{stem}y"));
        }
        if let Some(stem) = form.strip_suffix("es") {
            singular.push(stem.to_string());
        }
        if let Some(stem) = form.strip_suffix('s') {
            singular.push(stem.to_string());
        }
        out.push(form);
        out.extend(singular);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn monster(key: &str) -> Monster {
        Monster {
            key: key.to_string(),
            spec: CreatureSpec::blank(key, false, 0),
            lore: Lore::default(),
        }
    }

    fn bestiary(keys: &[&str]) -> Bestiary {
        Bestiary::of(keys.iter().map(|k| monster(k)).collect())
    }

    fn key(b: &Bestiary, name: &str) -> Result<String, Unresolved> {
        b.resolve(name).map(|m| m.key.clone())
    }

    #[test]
    fn an_exact_name_wins() {
        let b = bestiary(&["young_red_dragon", "young-red-dragon", "goblin"]);
        assert_eq!(key(&b, "young_red_dragon").unwrap(), "young_red_dragon");
        assert_eq!(key(&b, "young-red-dragon").unwrap(), "young-red-dragon");
        assert_eq!(key(&b, "Young Red Dragon").unwrap(), "young-red-dragon");
    }

    #[test]
    fn case_spaces_and_plurals_are_forgiven() {
        let b = bestiary(&["goblin", "ogre", "wolf", "harpy", "adult-red-dragon"]);
        assert_eq!(key(&b, "Ogre").unwrap(), "ogre");
        assert_eq!(key(&b, "goblins").unwrap(), "goblin");
        assert_eq!(key(&b, " GOBLINS ").unwrap(), "goblin");
        assert_eq!(key(&b, "ogres").unwrap(), "ogre");
        assert_eq!(key(&b, "wolves").unwrap(), "wolf");
        assert_eq!(key(&b, "harpies").unwrap(), "harpy");
        assert_eq!(key(&b, "Adult Red Dragon").unwrap(), "adult-red-dragon");
        assert_eq!(key(&b, "adult  red dragons").unwrap(), "adult-red-dragon");
    }

    #[test]
    fn two_fitting_entries_are_ambiguous() {
        // `ogres` reads as `ogre` (minus `s`) and as `ogr` (minus `es`).
        let b = bestiary(&["ogre", "ogr"]);
        assert_eq!(
            key(&b, "ogres"),
            Err(Unresolved::Ambiguous(vec!["ogr".into(), "ogre".into()]))
        );
    }

    #[test]
    fn a_clashing_slug_is_qualified_and_user_entries_replace() {
        let old = bestiary(&["ogre", "goblin"]);
        let new = bestiary(&["ogre", "adult-red-dragon"]);
        let b = Bestiary::builtin(old, new);
        assert_eq!(
            b.names(),
            ["adult-red-dragon", "goblin", "ogre", "ogre@5.2"]
        );
        let mut mine = monster("goblin");
        mine.spec.max_hp = 99;
        let merged = b.merge_over(Bestiary::of(vec![mine, monster("gremlin")]));
        assert_eq!(merged.lookup("goblin").unwrap().max_hp, 99);
        assert_eq!(merged.names().len(), 5);
        assert_eq!(b.lookup("goblin").unwrap().max_hp, 1, "built-in untouched");
    }
}
