//! A Foundry VTT dnd5e character actor (`"type": "character"`) read into
//! a [`Sheet`]:
//!
//! - classes: `items` of type `class` (`system.identifier` or the name,
//!   and `system.levels`);
//! - hit points: `system.attributes.hp.max`, else the classes' hit-point
//!   advancement (`"max"`, `"avg"` or the rolled number per level) plus the
//!   Constitution modifier a level;
//! - armour class: `attributes.ac` (`flat`/`natural`: its `flat`; `mage`:
//!   13 + Dex; the unarmoured defences), else the equipped armour (light:
//!   plus Dex, medium: plus Dex up to its `armor.dex`, heavy: none) and
//!   shield, with their magical bonuses, else 10 + Dex;
//! - scores and saves: `system.abilities.*.value` and `proficient`;
//! - weapons: every equipped weapon (3.x `damage.parts`, 4.x/5.x
//!   `damage.base`) with its type (`...R` ranged), properties (`fin`,
//!   `two`) and `magicalBonus`;
//! - spells: those prepared, always prepared, pact, innate, at will, and
//!   cantrips.
//!
//! What a sheet's active effects add (fighting styles, magic items'
//! passive bonuses, feats) is not read: the entry says so.

use serde_json::Value;

use crate::combat::templates::Templates;

use super::super::access::{kind, list, opt_int, opt_str};
use super::super::convert::Imported;
use super::super::{ABILITIES, ImportError};
use super::{Sheet, Weapon, entry, modifier};

/// `path.key`, or `key` at the top.
fn join(path: &str, key: &str) -> String {
    super::super::access::join(path, key)
}

/// The character of a Foundry actor as a creature entry.
pub fn foundry_character(
    actor: &Value,
    path: &str,
    templates: &Templates,
) -> Result<Imported, ImportError> {
    entry(sheet(actor, path)?, path, templates)
}

/// What a Foundry character actor says.
pub fn sheet(actor: &Value, path: &str) -> Result<Sheet, ImportError> {
    if !actor.is_object() {
        return Err(ImportError::at(
            path,
            format!("a character must be an object, not {}", kind(actor)),
        ));
    }
    if opt_str(actor, "type") != Some("character") {
        return Err(ImportError::at(
            join(path, "type"),
            "not a character actor (`\"type\": \"character\"`): monsters go in `bestiary = [...]`",
        ));
    }
    let name = opt_str(actor, "name").unwrap_or("character").to_string();
    let system = actor
        .get("system")
        .filter(|s| s.is_object())
        .ok_or_else(|| {
            ImportError::at(
                join(path, "system"),
                "a Foundry actor needs its `system` object",
            )
        })?;
    let sys = join(path, "system");
    let items = list(actor, "items", path)?;

    let mut classes: Vec<(String, i64, &Value)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if opt_str(item, "type") != Some("class") {
            continue;
        }
        let ipath = format!("{}[{i}]", join(path, "items"));
        let s = item.get("system").unwrap_or(&Value::Null);
        let id = opt_str(s, "identifier")
            .or_else(|| opt_str(item, "name"))
            .unwrap_or("")
            .to_ascii_lowercase();
        let levels = opt_int(s, "levels", &join(&ipath, "system"), "class levels")?.unwrap_or(1);
        classes.push((id, levels.clamp(1, 20), s));
    }

    let mut scores = [10i64; 6];
    let mut save_proficient = [false; 6];
    let abilities = system.get("abilities").unwrap_or(&Value::Null);
    for (i, a) in ABILITIES.iter().enumerate() {
        let apath = format!("{sys}.abilities");
        if let Some(ab) = abilities.get(*a) {
            scores[i] = opt_int(ab, "value", &join(&apath, a), "an ability score")?
                .unwrap_or(10)
                .clamp(1, 30);
            save_proficient[i] = ab.get("proficient").and_then(Value::as_f64).unwrap_or(0.0) >= 1.0;
        }
    }
    let mods: Vec<i64> = scores.iter().map(|s| modifier(*s)).collect();

    let attributes = system.get("attributes").unwrap_or(&Value::Null);
    let apath = format!("{sys}.attributes");
    let hp = match attributes.get("hp").and_then(|h| h.get("max")) {
        Some(v) if !v.is_null() => Some(super::super::access::int(
            v,
            &format!("{apath}.hp.max"),
            "hit points",
        )?),
        _ => hit_points(&classes, mods[2]),
    };
    let ac = armour_class(attributes, items, &mods, &apath)?;

    let mut notes = Vec::new();
    let mut weapons = Vec::new();
    for item in items
        .iter()
        .filter(|it| opt_str(it, "type") == Some("weapon"))
    {
        let s = item.get("system").unwrap_or(&Value::Null);
        if !s.get("equipped").and_then(Value::as_bool).unwrap_or(false) {
            continue;
        }
        let item_name = opt_str(item, "name").unwrap_or("weapon");
        match weapon(item_name, s) {
            Some(w) => weapons.push(w),
            None => notes.push(format!("{item_name}: its damage is not read")),
        }
    }
    Ok(Sheet {
        name,
        classes: classes.iter().map(|c| (c.0.clone(), c.1)).collect(),
        classes_path: join(path, "items"),
        scores,
        save_proficient,
        hp,
        ac,
        weapons,
        spells: ready_spells(items),
        notes,
    })
}

/// Hit points from the classes' hit-point advancement: per level `"max"`
/// (the die), `"avg"` (half the die + 1) or the number rolled, plus the
/// Constitution modifier a level; `None` without advancement data.
fn hit_points(classes: &[(String, i64, &Value)], con: i64) -> Option<i64> {
    let mut total = 0;
    let mut levels = 0;
    for (_, n, s) in classes {
        let die: i64 = s
            .get("hitDice")
            .and_then(Value::as_str)
            .or_else(|| {
                s.get("hd")
                    .and_then(|h| h.get("denomination"))
                    .and_then(Value::as_str)
            })
            .and_then(|d| d.trim_start_matches('d').parse::<i64>().ok())?
            .clamp(1, 100);
        let advancement = s.get("advancement")?;
        let entries: Vec<&Value> = match advancement {
            Value::Array(a) => a.iter().collect(),
            Value::Object(o) => o.values().collect(),
            _ => return None,
        };
        let hp = entries
            .iter()
            .find(|a| a.get("type").and_then(Value::as_str) == Some("HitPoints"))?
            .get("value")?;
        for l in 1..=*n {
            let each = match hp.get(l.to_string()) {
                Some(Value::String(s)) if s == "max" => die,
                Some(Value::String(s)) if s == "avg" => die / 2 + 1,
                Some(v) => v.as_i64()?.clamp(0, 1000),
                None => return None,
            };
            total += each;
            levels += 1;
        }
    }
    (levels > 0).then(|| (total + con * levels).max(1))
}

/// The armour class the sheet gives or implies.
fn armour_class(
    attributes: &Value,
    items: &[Value],
    mods: &[i64],
    path: &str,
) -> Result<i64, ImportError> {
    let ac = attributes.get("ac").unwrap_or(&Value::Null);
    let (dex, con, wis) = (mods[1], mods[2], mods[4]);
    let calc = opt_str(ac, "calc").unwrap_or("default");
    let flat = opt_int(ac, "flat", &format!("{path}.ac"), "armor class")?;
    match calc {
        "flat" | "natural" if flat.is_some() => return Ok(flat.unwrap_or(10)),
        "mage" => return Ok(13 + dex),
        "draconic" => return Ok(13 + dex),
        "unarmoredBarb" => return Ok(10 + dex + con + shield(items)),
        "unarmoredMonk" => return Ok(10 + dex + wis),
        _ => {}
    }
    let mut base = 10 + dex;
    for item in items
        .iter()
        .filter(|i| opt_str(i, "type") == Some("equipment"))
    {
        let s = item.get("system").unwrap_or(&Value::Null);
        if !s.get("equipped").and_then(Value::as_bool).unwrap_or(false) {
            continue;
        }
        let armor = s.get("armor").unwrap_or(&Value::Null);
        let kind = s
            .get("type")
            .and_then(|t| t.get("value"))
            .and_then(Value::as_str)
            .or_else(|| armor.get("type").and_then(Value::as_str))
            .unwrap_or("");
        let value = armor
            .get("value")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .clamp(0, 100);
        let magic = armor
            .get("magicalBonus")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .clamp(-10, 10);
        let max_dex = armor.get("dex").and_then(Value::as_i64);
        base = match kind {
            "light" => value + magic + dex,
            "medium" => value + magic + dex.min(max_dex.unwrap_or(2)),
            "heavy" => value + magic,
            _ => base,
        };
    }
    Ok(base + shield(items))
}

/// An equipped shield's bonus.
fn shield(items: &[Value]) -> i64 {
    items
        .iter()
        .filter(|i| opt_str(i, "type") == Some("equipment"))
        .filter_map(|i| i.get("system"))
        .filter(|s| s.get("equipped").and_then(Value::as_bool).unwrap_or(false))
        .filter(|s| {
            s.get("type")
                .and_then(|t| t.get("value"))
                .and_then(Value::as_str)
                == Some("shield")
                || s.get("armor")
                    .and_then(|a| a.get("type"))
                    .and_then(Value::as_str)
                    == Some("shield")
        })
        .map(|s| {
            let a = s.get("armor").unwrap_or(&Value::Null);
            a.get("value")
                .and_then(Value::as_i64)
                .unwrap_or(2)
                .clamp(0, 100)
                + a.get("magicalBonus")
                    .and_then(Value::as_i64)
                    .unwrap_or(0)
                    .clamp(-10, 10)
        })
        .max()
        .unwrap_or(0)
}

/// An equipped weapon's numbers; `None` without readable damage.
fn weapon(name: &str, s: &Value) -> Option<Weapon> {
    let kind = s
        .get("type")
        .and_then(|t| t.get("value"))
        .and_then(Value::as_str)
        .or_else(|| s.get("weaponType").and_then(Value::as_str))
        .unwrap_or("simpleM");
    let has = |p: &str| match s.get("properties") {
        Some(Value::Array(a)) => a.iter().any(|x| x.as_str() == Some(p)),
        Some(Value::Object(o)) => o.get(p).and_then(Value::as_bool).unwrap_or(false),
        _ => false,
    };
    let magic = s
        .get("magicalBonus")
        .and_then(Value::as_i64)
        .or_else(|| {
            s.get("attackBonus")
                .and_then(Value::as_str)
                .and_then(|b| b.trim().parse().ok())
        })
        .unwrap_or(0);
    let (dice, kind_of) = if let Some(base) = s.get("damage").and_then(|d| d.get("base")) {
        let n = base.get("number").and_then(Value::as_i64)?;
        let d = base.get("denomination").and_then(Value::as_i64)?;
        let t = base
            .get("types")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)?;
        (format!("{n}d{d}"), t.to_string())
    } else {
        let part = s
            .get("damage")?
            .get("parts")?
            .as_array()?
            .first()?
            .as_array()?;
        let formula = part.first()?.as_str()?;
        let dice: String = formula
            .split('+')
            .next()?
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        (dice, part.get(1)?.as_str()?.to_string())
    };
    Some(Weapon {
        name: name.to_string(),
        dice,
        kind: kind_of,
        ranged: kind.ends_with('R'),
        finesse: has("fin"),
        two_handed: has("two"),
        magic: magic.clamp(-10, 10),
    })
}

/// The spells ready to cast: prepared (or always prepared, pact, innate,
/// at will) and cantrips.
fn ready_spells(items: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for item in items.iter().filter(|i| opt_str(i, "type") == Some("spell")) {
        let s = item.get("system").unwrap_or(&Value::Null);
        let title = opt_str(item, "name").unwrap_or("");
        let level = s.get("level").and_then(Value::as_i64).unwrap_or(0);
        let prep = s.get("preparation").unwrap_or(&Value::Null);
        let mode = opt_str(prep, "mode")
            .or_else(|| opt_str(s, "method"))
            .unwrap_or("prepared");
        let prepared = prep
            .get("prepared")
            .or_else(|| s.get("prepared"))
            .map(|p| p.as_bool().unwrap_or(p.as_i64().unwrap_or(0) > 0))
            .unwrap_or(false);
        if level == 0 || prepared || matches!(mode, "always" | "pact" | "innate" | "atwill") {
            out.push(title.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use toml::Value as Toml;

    fn templates() -> Templates {
        crate::scenario::data::builtin_catalog().unwrap().templates
    }

    fn paladin() -> Value {
        json!({"name": "Aria", "type": "character", "system": {
          "abilities": {"str": {"value": 16, "proficient": 0}, "dex": {"value": 10}, "con": {"value": 14},
              "int": {"value": 8}, "wis": {"value": 12, "proficient": 1}, "cha": {"value": 16, "proficient": 1}},
          "attributes": {"ac": {"calc": "default"}, "hp": {"value": 44, "max": null}}},
        "items": [
          {"type": "class", "name": "Paladin", "system": {"identifier": "paladin", "levels": 5, "hitDice": "d10",
              "advancement": [{"type": "HitPoints", "value": {"1": "max", "2": "avg", "3": 8, "4": "avg", "5": "avg"}}]}},
          {"type": "weapon", "name": "Longsword +1", "system": {"equipped": true, "magicalBonus": 1,
              "damage": {"base": {"number": 1, "denomination": 8, "types": ["slashing"]}},
              "type": {"value": "martialM"}, "properties": ["ver", "mgc"]}},
          {"type": "weapon", "name": "Javelin", "system": {"equipped": false}},
          {"type": "equipment", "name": "Chain Mail", "system": {"equipped": true, "type": {"value": "heavy"}, "armor": {"value": 16}}},
          {"type": "equipment", "name": "Shield", "system": {"equipped": true, "type": {"value": "shield"}, "armor": {"value": 2}}},
          {"type": "spell", "name": "Bless", "system": {"level": 1, "preparation": {"mode": "prepared", "prepared": true}}},
          {"type": "spell", "name": "Find Steed", "system": {"level": 2, "preparation": {"mode": "always", "prepared": true}}},
          {"type": "spell", "name": "Wrathful Smite", "system": {"level": 1, "preparation": {"mode": "prepared", "prepared": false}}}
        ]})
    }

    fn get<'a>(i: &'a Imported, key: &str) -> &'a Toml {
        &i.keys.iter().find(|(k, _)| *k == key).unwrap().1
    }

    #[test]
    fn a_paladin_sheet_gives_its_numbers_over_the_template() {
        let c = foundry_character(&paladin(), "", &templates()).unwrap();
        assert_eq!(get(&c, "template").as_str(), Some("paladin-5"));
        // 10 + 6 + 8 + 6 + 6 hit dice, + 2 a level.
        assert_eq!(get(&c, "hp").as_integer(), Some(46));
        assert_eq!(get(&c, "ac").as_integer(), Some(18));
        assert_eq!(
            get(&c, "saves").get("wis").and_then(Toml::as_integer),
            Some(4)
        );
        assert_eq!(
            get(&c, "saves").get("str").and_then(Toml::as_integer),
            Some(3)
        );
        let attack = get(&c, "attacks").as_array().unwrap()[0].clone();
        assert_eq!(attack.get("to_hit").and_then(Toml::as_integer), Some(7));
        assert_eq!(attack.get("damage").and_then(Toml::as_str), Some("1d8+4"));
        assert_eq!(
            get(&c, "multiattack").as_array().unwrap().len(),
            2,
            "Extra Attack at 5"
        );
        assert_eq!(
            get(&c, "spells").as_array().unwrap(),
            &vec![Toml::String("bless".into())]
        );
        assert!(
            c.not_modelled.contains(&"Spell: Find Steed".to_string()),
            "{:?}",
            c.not_modelled
        );
    }

    #[test]
    fn huge_numbers_on_a_sheet_are_bounded_not_overflowed() {
        let mut v = paladin();
        let huge = json!(i64::MAX);
        v["items"][0]["system"]["hitDice"] = json!("d9223372036854775807");
        v["items"][0]["system"]["advancement"][0]["value"]["3"] = huge.clone();
        v["items"][3]["system"]["armor"]["value"] = huge.clone();
        v["items"][3]["system"]["armor"]["magicalBonus"] = huge.clone();
        v["items"][4]["system"]["armor"]["value"] = huge.clone();
        let c = foundry_character(&v, "", &templates()).unwrap();
        assert_eq!(get(&c, "ac").as_integer(), Some(40));
        assert!(get(&c, "hp").as_integer().unwrap() <= 100_000);
    }

    #[test]
    fn a_sheet_without_a_known_class_or_not_a_character_is_refused() {
        let mut v = paladin();
        v["items"][0]["system"]["identifier"] = json!("artificer");
        v["items"][0]["name"] = json!("Artificer");
        assert_eq!(
            foundry_character(&v, "", &templates()).unwrap_err().path,
            "items"
        );
        let mut v = paladin();
        v["type"] = json!("npc");
        assert_eq!(
            foundry_character(&v, "", &templates()).unwrap_err().path,
            "type"
        );
    }
}
