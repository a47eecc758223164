//! A D&D Beyond character (the JSON its character service answers with:
//! `{"success": true, "data": {...}}`, or the `data` object alone) read
//! into a [`Sheet`]. D&D Beyond documents no export format; these are the
//! fields the public importers read, and every one is optional but the
//! classes:
//!
//! - classes: `classes[].definition.name` and `classes[].level`;
//! - ability scores: `stats[]` (`id` 1–6: Str … Cha) plus `bonusStats`,
//!   plus the modifiers of type `bonus` and sub-type `<ability>-score`;
//!   `overrideStats` wins; a modifier of type `set` (a belt of giant
//!   strength) raises a score to its value;
//! - saving throws: modifiers of type `proficiency`, sub-type
//!   `<ability>-saving-throws`;
//! - hit points: `overrideHitPoints`, else `baseHitPoints` (the hit dice,
//!   without Constitution) + `bonusHitPoints` + (Constitution modifier +
//!   the `hit-points-per-level` bonuses) × level;
//! - armour class: the equipped armour (`armorTypeId` 1 light: + Dex, 2
//!   medium: + Dex up to 2, 3 heavy) or 10 + Dex, or an `unarmored-armor-class`
//!   modifier's ability (a barbarian's Constitution, a monk's Wisdom); an
//!   equipped shield (`armorTypeId` 4); `armor-class` bonuses;
//! - weapons: equipped `inventory` items with `filterType` "Weapon":
//!   `damage.diceString`, `damageType`, `attackType` (2: ranged), the
//!   properties Finesse and Two-Handed, a `magic` bonus modifier;
//! - spells: `classSpells[].spells[]` prepared, always prepared, cantrips,
//!   or of a class that knows its spells (bard, ranger, sorcerer,
//!   warlock), and the spells race, items and feats grant (`spells`).
//!
//! The modifiers are those of `modifiers` (race, class, background, item,
//! feat), an item's counted only while it is equipped (and attuned where
//! it needs attunement), with those an equipped item's `grantedModifiers`
//! add that `modifiers` does not already hold (by `id`).

use serde_json::Value;

use crate::combat::templates::Templates;

use super::super::ImportError;
use super::super::access::{join, kind, list, opt_int, opt_str};
use super::super::convert::Imported;
use super::{Sheet, Weapon, entry, modifier};

/// The classes that know their spells rather than prepare them.
const KNOWN_CASTERS: [&str; 4] = ["bard", "ranger", "sorcerer", "warlock"];

/// Whether a JSON document is a D&D Beyond character: `classes` and
/// `stats` lists, at the top or in the service's `data` object.
pub fn is_dndbeyond(value: &Value) -> bool {
    let d = value.get("data").filter(|d| d.is_object()).unwrap_or(value);
    d.get("classes").is_some_and(Value::is_array) && d.get("stats").is_some_and(Value::is_array)
}

/// The character of a D&D Beyond file as a creature entry.
pub fn dndbeyond_character(
    value: &Value,
    path: &str,
    templates: &Templates,
) -> Result<Imported, ImportError> {
    let (d, dpath) = match value.get("data") {
        Some(d) if d.is_object() => (d, join(path, "data")),
        _ => (value, path.to_string()),
    };
    entry(sheet(d, &dpath)?, &dpath, templates)
}

/// One modifier that counts.
struct Modifier<'a> {
    kind: &'a str,
    sub: &'a str,
    value: i64,
    stat: Option<usize>,
}

/// A `Modifier` of a JSON modifier object.
fn modifier_of(m: &Value) -> Option<Modifier<'_>> {
    Some(Modifier {
        kind: m.get("type").and_then(Value::as_str)?,
        sub: m.get("subType").and_then(Value::as_str)?,
        value: m
            .get("value")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .clamp(-30, 30),
        stat: m
            .get("statId")
            .and_then(Value::as_u64)
            .and_then(|s| usize::try_from(s).ok())
            .filter(|s| (1..=6).contains(s))
            .map(|s| s - 1),
    })
}

/// An inventory item that is equipped (and attuned where it must be).
fn in_use(item: &Value) -> bool {
    let def = item.get("definition").unwrap_or(&Value::Null);
    let equipped = item
        .get("equipped")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let needs = def
        .get("canAttune")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    equipped
        && (!needs
            || item
                .get("isAttuned")
                .and_then(Value::as_bool)
                .unwrap_or(false))
}

/// Every modifier that counts.
fn modifiers<'a>(d: &'a Value, inventory: &'a [Value]) -> Vec<Modifier<'a>> {
    let used: Vec<&Value> = inventory.iter().filter(|i| in_use(i)).collect();
    let used_ids: Vec<i64> = used
        .iter()
        .filter_map(|i| i.get("definition")?.get("id")?.as_i64())
        .collect();
    let mut out = Vec::new();
    let mut seen: Vec<&Value> = Vec::new();
    if let Some(Value::Object(groups)) = d.get("modifiers") {
        for (group, list) in groups {
            for m in list.as_array().map_or(&[][..], Vec::as_slice) {
                if group == "item" {
                    let component = m.get("componentId").and_then(Value::as_i64);
                    if !component.is_some_and(|c| used_ids.contains(&c)) {
                        continue;
                    }
                }
                if let Some(id) = m.get("id") {
                    seen.push(id);
                }
                out.extend(modifier_of(m));
            }
        }
    }
    for item in used {
        let granted = item
            .get("definition")
            .and_then(|d| d.get("grantedModifiers"))
            .and_then(Value::as_array);
        for m in granted.map_or(&[][..], Vec::as_slice) {
            if m.get("id").is_some_and(|id| seen.contains(&id)) {
                continue;
            }
            // A weapon's own attack bonus is read with the weapon.
            if m.get("subType").and_then(Value::as_str) == Some("magic") {
                continue;
            }
            out.extend(modifier_of(m));
        }
    }
    out
}

/// A 1–6 `id` list (`stats`, `bonusStats`, `overrideStats`) as six
/// optional values.
fn stat_list(d: &Value, key: &str, path: &str) -> Result<[Option<i64>; 6], ImportError> {
    let mut out = [None; 6];
    for (i, s) in list(d, key, path)?.iter().enumerate() {
        let spath = format!("{}[{i}]", join(path, key));
        let Some(id) = opt_int(s, "id", &spath, "an ability id")? else {
            continue;
        };
        if !(1..=6).contains(&id) {
            return Err(ImportError::at(
                join(&spath, "id"),
                format!("an ability id is 1 to 6 (Strength to Charisma), not {id}"),
            ));
        }
        if let Some(v) = opt_int(s, "value", &spath, "an ability score")? {
            out[(id - 1) as usize] = Some(v);
        }
    }
    Ok(out)
}

/// What a D&D Beyond character says.
pub fn sheet(d: &Value, path: &str) -> Result<Sheet, ImportError> {
    if !d.is_object() {
        return Err(ImportError::at(
            path,
            format!("a character must be an object, not {}", kind(d)),
        ));
    }
    let name = opt_str(d, "name").unwrap_or("character").to_string();
    let mut classes = Vec::new();
    let mut class_ids: Vec<(i64, String)> = Vec::new();
    let cpath = join(path, "classes");
    for (i, c) in list(d, "classes", path)?.iter().enumerate() {
        let here = format!("{cpath}[{i}]");
        let def = c.get("definition").unwrap_or(&Value::Null);
        let class = opt_str(def, "name")
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let level = opt_int(c, "level", &here, "a class level")?.unwrap_or(1);
        if let Some(id) = c.get("id").and_then(Value::as_i64) {
            class_ids.push((id, class.clone()));
        }
        classes.push((class, level.clamp(1, 20)));
    }
    let level: i64 = classes.iter().map(|c| c.1).sum::<i64>().clamp(1, 20);
    let inventory = list(d, "inventory", path)?;
    let mods_list = modifiers(d, inventory);

    // Ability scores.
    let base = stat_list(d, "stats", path)?;
    let bonus = stat_list(d, "bonusStats", path)?;
    let over = stat_list(d, "overrideStats", path)?;
    let mut scores = [10i64; 6];
    let mut save_proficient = [false; 6];
    for (i, ability) in super::super::ABILITY_WORDS.iter().enumerate() {
        let score_key = format!("{ability}-score");
        let save_key = format!("{ability}-saving-throws");
        let mut score = base[i].unwrap_or(10) + bonus[i].unwrap_or(0);
        for m in &mods_list {
            if m.kind == "bonus" && m.sub == score_key {
                score += m.value;
            }
            if m.kind == "proficiency" && m.sub == save_key {
                save_proficient[i] = true;
            }
        }
        for m in &mods_list {
            if m.kind == "set" && m.sub == score_key {
                score = score.max(m.value);
            }
        }
        scores[i] = over[i].unwrap_or(score).clamp(1, 30);
    }
    let m = scores.map(modifier);

    // Hit points.
    let hp = match opt_int(d, "overrideHitPoints", path, "hit points")? {
        Some(hp) => Some(hp),
        None => opt_int(d, "baseHitPoints", path, "hit points")?.map(|base| {
            let bonus = d
                .get("bonusHitPoints")
                .and_then(Value::as_i64)
                .unwrap_or(0)
                .clamp(-100_000, 100_000);
            let per_level: i64 = mods_list
                .iter()
                .filter(|x| x.kind == "bonus" && x.sub == "hit-points-per-level")
                .map(|x| x.value)
                .sum();
            (base + bonus + (m[2] + per_level) * level).max(1)
        }),
    };

    // Armour class.
    let mut armour: Option<i64> = None;
    let mut shield = 0;
    for item in inventory.iter().filter(|i| in_use(i)) {
        let def = item.get("definition").unwrap_or(&Value::Null);
        let value = def
            .get("armorClass")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .clamp(0, 100);
        match def.get("armorTypeId").and_then(Value::as_i64) {
            Some(1) => armour = Some(value + m[1]),
            Some(2) => armour = Some(value + m[1].min(2)),
            Some(3) => armour = Some(value),
            Some(4) => shield = shield.max(value),
            _ => {}
        }
    }
    let unarmoured = mods_list
        .iter()
        .filter(|x| x.kind == "set" && x.sub == "unarmored-armor-class")
        .filter_map(|x| x.stat)
        .map(|s| m[s])
        .max();
    let worn = armour.is_some();
    let ac_bonus: i64 = mods_list
        .iter()
        .filter(|x| {
            x.kind == "bonus"
                && (x.sub == "armor-class" || (worn && x.sub == "armored-armor-class"))
        })
        .map(|x| x.value)
        .sum();
    let ac = armour.unwrap_or(10 + m[1] + unarmoured.unwrap_or(0)) + shield + ac_bonus;

    // Weapons.
    let mut weapons = Vec::new();
    let mut notes = Vec::new();
    for item in inventory.iter().filter(|i| in_use(i)) {
        let def = item.get("definition").unwrap_or(&Value::Null);
        if opt_str(def, "filterType") != Some("Weapon") {
            continue;
        }
        let item_name = opt_str(def, "name").unwrap_or("weapon");
        match weapon(item_name, def) {
            Some(w) => weapons.push(w),
            None => notes.push(format!("{item_name}: its damage is not read")),
        }
    }
    if !mods_list.is_empty() {
        notes.push("Modifiers other than ability scores, saving-throw proficiencies, armour class and hit points per level (feats' and features' own effects) are not read".into());
    }

    // Spells.
    let mut spells = Vec::new();
    for cs in list(d, "classSpells", path)? {
        let class = cs
            .get("characterClassId")
            .and_then(Value::as_i64)
            .and_then(|id| class_ids.iter().find(|c| c.0 == id))
            .map(|c| c.1.as_str());
        let knows = class.is_some_and(|c| KNOWN_CASTERS.contains(&c));
        for s in cs
            .get("spells")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
        {
            let def = s.get("definition").unwrap_or(&Value::Null);
            let level = def.get("level").and_then(Value::as_i64).unwrap_or(0);
            let flag = |k: &str| s.get(k).and_then(Value::as_bool).unwrap_or(false);
            if level == 0 || knows || flag("prepared") || flag("alwaysPrepared") {
                spells.extend(opt_str(def, "name").map(str::to_string));
            }
        }
    }
    if let Some(Value::Object(groups)) = d.get("spells") {
        for list in groups.values().filter_map(Value::as_array) {
            for s in list {
                let def = s.get("definition").unwrap_or(&Value::Null);
                spells.extend(opt_str(def, "name").map(str::to_string));
            }
        }
    }
    spells.truncate(200);
    Ok(Sheet {
        name,
        classes,
        classes_path: cpath,
        scores,
        save_proficient,
        hp,
        ac,
        weapons,
        spells,
        notes,
    })
}

/// An equipped weapon's numbers; `None` without readable damage.
fn weapon(name: &str, def: &Value) -> Option<Weapon> {
    let dice: String = def
        .get("damage")?
        .get("diceString")?
        .as_str()?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let kind = def.get("damageType")?.as_str()?.to_ascii_lowercase();
    let has = |p: &str| {
        def.get("properties")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|x| opt_str(x, "name") == Some(p)))
    };
    let magic: i64 = def
        .get("grantedModifiers")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(modifier_of)
        .filter(|x| x.kind == "bonus" && x.sub == "magic")
        .map(|x| x.value)
        .sum();
    Some(Weapon {
        name: name.to_string(),
        dice,
        kind,
        ranged: def.get("attackType").and_then(Value::as_i64) == Some(2),
        finesse: has("Finesse"),
        two_handed: has("Two-Handed"),
        magic: magic.clamp(-10, 10),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use toml::Value as Toml;

    fn templates() -> Templates {
        crate::scenario::data::builtin_catalog().unwrap().templates
    }

    /// A level-5 fighter written for the tests in D&D Beyond's shape.
    fn fighter() -> Value {
        json!({"success": true, "data": {
          "name": "Brom",
          "stats": [{"id": 1, "value": 15}, {"id": 2, "value": 13}, {"id": 3, "value": 14},
                    {"id": 4, "value": 8}, {"id": 5, "value": 12}, {"id": 6, "value": 10}],
          "bonusStats": [{"id": 1, "value": null}],
          "overrideStats": [{"id": 6, "value": null}],
          "baseHitPoints": 34, "bonusHitPoints": null, "overrideHitPoints": null,
          "classes": [{"id": 7, "level": 5, "isStartingClass": true, "definition": {"name": "Fighter", "hitDice": 10}}],
          "modifiers": {
            "race": [{"id": "r1", "type": "bonus", "subType": "strength-score", "value": 2},
                     {"id": "r2", "type": "bonus", "subType": "constitution-score", "value": 1}],
            "class": [{"id": "c1", "type": "proficiency", "subType": "strength-saving-throws"},
                      {"id": "c2", "type": "proficiency", "subType": "constitution-saving-throws"}],
            "item": [{"id": "i1", "type": "bonus", "subType": "armor-class", "value": 1, "componentId": 900},
                     {"id": "i2", "type": "bonus", "subType": "armor-class", "value": 1, "componentId": 901}]
          },
          "inventory": [
            {"equipped": true, "definition": {"id": 100, "name": "Longsword", "filterType": "Weapon",
                "damage": {"diceString": "1d8"}, "damageType": "Slashing", "attackType": 1,
                "properties": [{"name": "Versatile"}],
                "grantedModifiers": [{"id": "g1", "type": "bonus", "subType": "magic", "value": 1}]}},
            {"equipped": true, "definition": {"id": 101, "name": "Longbow", "filterType": "Weapon",
                "damage": {"diceString": "1d8"}, "damageType": "Piercing", "attackType": 2,
                "properties": [{"name": "Ammunition"}, {"name": "Heavy"}, {"name": "Two-Handed"}]}},
            {"equipped": false, "definition": {"id": 102, "name": "Greataxe", "filterType": "Weapon",
                "damage": {"diceString": "1d12"}, "damageType": "Slashing", "attackType": 1}},
            {"equipped": true, "definition": {"id": 900, "name": "Chain Mail +1", "filterType": "Armor",
                "armorClass": 16, "armorTypeId": 3, "canAttune": false}},
            {"equipped": true, "definition": {"id": 901, "name": "Ring of Protection", "filterType": "Other",
                "canAttune": true}, "isAttuned": false},
            {"equipped": true, "definition": {"id": 902, "name": "Shield", "filterType": "Armor",
                "armorClass": 2, "armorTypeId": 4}}
          ],
          "classSpells": [], "spells": {"race": [], "class": [], "item": [], "feat": []}
        }})
    }

    fn get<'a>(i: &'a Imported, key: &str) -> &'a Toml {
        &i.keys.iter().find(|(k, _)| *k == key).unwrap().1
    }

    #[test]
    fn a_fighter_reads_its_scores_hit_points_armour_and_weapons() {
        let c = dndbeyond_character(&fighter(), "", &templates()).unwrap();
        assert_eq!(get(&c, "template").as_str(), Some("fighter-5"));
        // 34 from the hit dice + Con 15 (+2) × 5.
        assert_eq!(get(&c, "hp").as_integer(), Some(44));
        // Chain mail 16 + its +1 + shield 2; the ring is not attuned.
        assert_eq!(get(&c, "ac").as_integer(), Some(19));
        let saves = get(&c, "saves");
        // Str 17: +3 and proficient (+3); Dex 13 not proficient.
        assert_eq!(saves.get("str").and_then(Toml::as_integer), Some(6));
        assert_eq!(saves.get("dex").and_then(Toml::as_integer), Some(1));
        assert_eq!(saves.get("con").and_then(Toml::as_integer), Some(5));
        let attacks = get(&c, "attacks").as_array().unwrap();
        assert_eq!(attacks.len(), 2, "the unequipped greataxe is left");
        let sword = &attacks[0];
        assert_eq!(sword.get("to_hit").and_then(Toml::as_integer), Some(7));
        assert_eq!(sword.get("damage").and_then(Toml::as_str), Some("1d8+4"));
        let bow = &attacks[1];
        assert_eq!(bow.get("reach").and_then(Toml::as_str), Some("ranged"));
        assert_eq!(bow.get("to_hit").and_then(Toml::as_integer), Some(4));
        assert_eq!(bow.get("two_handed").and_then(Toml::as_bool), Some(true));
        assert_eq!(
            get(&c, "multiattack").as_array().unwrap().len(),
            2,
            "Extra Attack at 5, with the longsword"
        );
    }

    #[test]
    fn overrides_set_scores_and_unarmoured_defence() {
        let mut v = fighter();
        let d = &mut v["data"];
        d["overrideHitPoints"] = json!(50);
        d["overrideStats"] = json!([{"id": 2, "value": 18}]);
        d["classes"][0]["definition"]["name"] = json!("Barbarian");
        d["modifiers"]["class"] = json!([
            {"id": "u", "type": "set", "subType": "unarmored-armor-class", "statId": 3},
            {"id": "b", "type": "set", "subType": "strength-score", "value": 21}]);
        d["inventory"] = json!([]);
        let c = dndbeyond_character(&v, "", &templates()).unwrap();
        assert_eq!(get(&c, "template").as_str(), Some("barbarian-5"));
        assert_eq!(get(&c, "hp").as_integer(), Some(50));
        // 10 + Dex 18 (+4) + Con 15 (+2).
        assert_eq!(get(&c, "ac").as_integer(), Some(16));
        let saves = get(&c, "saves");
        assert_eq!(saves.get("str").and_then(Toml::as_integer), Some(5));
    }

    #[test]
    fn prepared_known_and_granted_spells_are_read() {
        let mut v = fighter();
        let d = &mut v["data"];
        d["classes"] = json!([{"id": 3, "level": 5, "definition": {"name": "Wizard"}}]);
        d["classSpells"] = json!([{"characterClassId": 3, "spells": [
            {"prepared": true, "definition": {"name": "Fireball", "level": 3}},
            {"prepared": false, "definition": {"name": "Hold Person", "level": 2}},
            {"prepared": false, "definition": {"name": "Fire Bolt", "level": 0}}]}]);
        d["spells"] = json!({"race": [{"definition": {"name": "Misty Step", "level": 2}}]});
        let s = sheet(&v["data"], "data").unwrap();
        assert_eq!(s.spells, ["Fireball", "Fire Bolt", "Misty Step"]);
        let mut v = fighter();
        v["data"]["classes"] = json!([{"id": 4, "level": 5, "definition": {"name": "Sorcerer"}}]);
        v["data"]["classSpells"] = json!([{"characterClassId": 4, "spells": [
            {"prepared": false, "definition": {"name": "Hold Person", "level": 2}}]}]);
        assert_eq!(sheet(&v["data"], "data").unwrap().spells, ["Hold Person"]);
    }

    #[test]
    fn huge_numbers_on_a_sheet_are_bounded_not_overflowed() {
        let mut v = fighter();
        let huge = json!(i64::MAX);
        v["data"]["bonusHitPoints"] = huge.clone();
        v["data"]["inventory"][3]["definition"]["armorClass"] = huge.clone();
        v["data"]["inventory"][5]["definition"]["armorClass"] = huge.clone();
        v["data"]["modifiers"]["race"][0]["value"] = huge.clone();
        let c = dndbeyond_character(&v, "", &templates()).unwrap();
        assert_eq!(get(&c, "ac").as_integer(), Some(40));
        assert_eq!(get(&c, "hp").as_integer(), Some(100_000));
    }

    #[test]
    fn bad_fields_are_errors_at_their_path_and_a_known_class_is_needed() {
        let mut v = fighter();
        v["data"]["stats"][2]["value"] = json!("tough");
        let e = dndbeyond_character(&v, "", &templates()).unwrap_err();
        assert_eq!(e.path, "data.stats[2].value");
        let mut v = fighter();
        v["data"]["stats"][0]["id"] = json!(9);
        assert_eq!(
            dndbeyond_character(&v, "", &templates()).unwrap_err().path,
            "data.stats[0].id"
        );
        let mut v = fighter();
        v["data"]["classes"][0]["definition"]["name"] = json!("Blood Hunter");
        assert_eq!(
            dndbeyond_character(&v, "", &templates()).unwrap_err().path,
            "data.classes"
        );
        assert!(is_dndbeyond(&fighter()));
        assert!(is_dndbeyond(&fighter()["data"]));
        assert!(!is_dndbeyond(&json!({"monster": []})));
    }
}
