//! A player character from a Foundry VTT dnd5e character actor (`"type":
//! "character"`), as a creature entry that starts from woundsim's class
//! template and takes the sheet's own numbers:
//!
//! - the template: the class of the most levels among the twelve SRD
//!   classes (`items` of type `class`: `system.identifier` or the name, and
//!   `system.levels`) at that class's level, so that the class features
//!   the round loop models (Rage, Sneak Attack, Divine Smite, slots, ...)
//!   come with it; the character's level is the sum of its classes'
//!   (its proficiency bonus), other classes are listed as not modelled;
//! - hit points: `system.attributes.hp.max`, else the classes' hit-point
//!   advancement (`"max"`, `"avg"` or the rolled number per level) plus the
//!   Constitution modifier a level, else the template's;
//! - armour class: `attributes.ac` (`flat`/`natural`: its `flat`; `mage`:
//!   13 + Dex; the unarmoured defences), else the equipped armour (light:
//!   plus Dex, medium: plus Dex up to its `armor.dex`, heavy: none) and shield,
//!   with their magical bonuses, else 10 + Dex;
//! - saving throws: ability modifier, plus the proficiency bonus where
//!   `proficient`;
//! - attacks: every equipped weapon (3.x `damage.parts`, 4.x/5.x
//!   `damage.base`), with Strength, Dexterity for a ranged weapon, the
//!   better for a finesse one, the proficiency bonus and its magical bonus;
//!   the Attack action makes as many attacks as the template's (Extra
//!   Attack), with the weapon of the most expected damage;
//! - spells: those prepared (or always prepared, pact, innate, at will, and
//!   cantrips) that woundsim casts in a fight and the template has a slot
//!   for; the rest listed as not modelled.
//!
//! What a sheet's active effects add (fighting styles, magic items'
//! passive bonuses, feats) is not read: the entry says so.

use serde_json::Value;
use toml::Value as Toml;

use crate::combat::templates::Templates;

use super::access::{kind, list, opt_int, opt_str};
use super::convert::Imported;
use super::{ABILITIES, ImportError, slug};

/// The SRD classes with a template.
const CLASSES: [&str; 12] = [
    "barbarian",
    "bard",
    "cleric",
    "druid",
    "fighter",
    "monk",
    "paladin",
    "ranger",
    "rogue",
    "sorcerer",
    "warlock",
    "wizard",
];

fn modifier(score: i64) -> i64 {
    (score - 10).div_euclid(2)
}

fn int(n: i64) -> Toml {
    Toml::Integer(n)
}

fn string(s: &str) -> Toml {
    Toml::String(s.to_string())
}

fn table(pairs: Vec<(&str, Toml)>) -> Toml {
    Toml::Table(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// `path.key`, or `key` at the top.
fn join(path: &str, key: &str) -> String {
    super::access::join(path, key)
}

/// The character of a Foundry actor as a creature entry.
pub fn foundry_character(
    actor: &Value,
    path: &str,
    templates: &Templates,
) -> Result<Imported, ImportError> {
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
    let name = opt_str(actor, "name")
        .unwrap_or("character")
        .trim()
        .to_string();
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
    let mut notes: Vec<String> = Vec::new();

    // Classes, most levels first.
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
    classes.sort_by_key(|c| std::cmp::Reverse(c.1));
    let Some(main) = classes.iter().find(|c| CLASSES.contains(&c.0.as_str())) else {
        return Err(ImportError::at(
            join(path, "items"),
            format!(
                "`{name}` has no class woundsim has a template for (one of {}): a character needs one",
                CLASSES.join(", ")
            ),
        ));
    };
    let level: i64 = classes.iter().map(|c| c.1).sum::<i64>().clamp(1, 20);
    for c in classes.iter().filter(|c| c.0 != main.0) {
        notes.push(format!(
            "Multiclass: {} {} (its features are not modelled)",
            c.0, c.1
        ));
    }
    let template_name = format!("{}-{}", main.0, main.1);
    let template = templates.template(&template_name).ok_or_else(|| {
        ImportError::at(
            join(path, "items"),
            format!("no template `{template_name}`"),
        )
    })?;
    let proficiency = 2 + (level - 1) / 4;

    // Ability scores and saves.
    let mut scores = [10i64; 6];
    let mut proficient = [false; 6];
    let abilities = system.get("abilities").unwrap_or(&Value::Null);
    for (i, a) in ABILITIES.iter().enumerate() {
        let apath = format!("{sys}.abilities");
        if let Some(ab) = abilities.get(*a) {
            scores[i] = opt_int(ab, "value", &join(&apath, a), "an ability score")?
                .unwrap_or(10)
                .clamp(1, 30);
            proficient[i] = ab.get("proficient").and_then(Value::as_f64).unwrap_or(0.0) >= 1.0;
        }
    }
    let mods: Vec<i64> = scores.iter().map(|s| modifier(*s)).collect();

    let mut keys: Vec<(&'static str, Toml)> = vec![
        ("template", string(&template_name)),
        ("name", string(&name.chars().take(64).collect::<String>())),
        ("is_pc", Toml::Boolean(true)),
        ("level", int(level)),
    ];
    let attributes = system.get("attributes").unwrap_or(&Value::Null);
    let apath = format!("{sys}.attributes");
    let hp = match attributes.get("hp").and_then(|h| h.get("max")) {
        Some(v) if !v.is_null() => Some(super::access::int(
            v,
            &format!("{apath}.hp.max"),
            "hit points",
        )?),
        _ => hit_points(&classes, mods[2]),
    };
    match hp {
        Some(hp) => keys.push(("hp", int(hp.clamp(1, 100_000)))),
        None => notes.push("Hit points: not on the sheet; the template's average".into()),
    }
    keys.push((
        "ac",
        int(armour_class(attributes, items, &mods, &apath)?.clamp(1, 40)),
    ));
    let saves = ABILITIES
        .iter()
        .enumerate()
        .map(|(i, a)| {
            (
                *a,
                int((mods[i] + if proficient[i] { proficiency } else { 0 }).clamp(-10, 30)),
            )
        })
        .collect();
    keys.push(("saves", table(saves)));

    // Weapons.
    let mut attacks: Vec<(String, Toml, f64)> = Vec::new();
    for item in items
        .iter()
        .filter(|it| opt_str(it, "type") == Some("weapon"))
    {
        let s = item.get("system").unwrap_or(&Value::Null);
        if !s.get("equipped").and_then(Value::as_bool).unwrap_or(false) {
            continue;
        }
        let item_name = opt_str(item, "name").unwrap_or("weapon");
        match weapon(s, &mods, proficiency) {
            Some((t, mean)) if attacks.len() < 20 => {
                let mut key = slug(item_name);
                if key.is_empty() || attacks.iter().any(|a| a.0 == key) {
                    key = format!("weapon-{}", attacks.len() + 1);
                }
                let mut t = t;
                if let Toml::Table(m) = &mut t {
                    m.insert("name".into(), string(&key));
                }
                attacks.push((key, t, mean));
            }
            _ => notes.push(format!("{item_name}: its damage is not read")),
        }
    }
    if !attacks.is_empty() {
        let count = template.multiattack.len().max(1);
        let best = attacks
            .iter()
            .filter(|a| a.1.get("reach").and_then(Toml::as_str) == Some("melee"))
            .chain(attacks.iter())
            .reduce(|b, a| if a.2 > b.2 { a } else { b })
            .map(|a| a.0.clone())
            .unwrap_or_default();
        keys.push((
            "attacks",
            Toml::Array(attacks.iter().map(|a| a.1.clone()).collect()),
        ));
        keys.push(("multiattack", Toml::Array(vec![string(&best); count])));
        notes.push("Attack rolls: bonuses from active effects (fighting style, feats, items' passive bonuses) are not read".into());
    }

    // Spells.
    let (spells, skipped) = spells(items, templates, &template);
    notes.extend(skipped);
    if !spells.is_empty() || template.spellbook.is_some() {
        keys.push((
            "spells",
            Toml::Array(spells.iter().map(|s| string(s)).collect()),
        ));
    }
    notes.truncate(64);
    keys.push((
        "not_modelled",
        Toml::Array(
            notes
                .iter()
                .map(|n| string(&n.chars().take(200).collect::<String>()))
                .collect(),
        ),
    ));
    Ok(Imported {
        name: name.clone(),
        slug: match slug(&name) {
            s if s.is_empty() => "character".into(),
            s => s,
        },
        path: path.to_string(),
        keys,
        not_modelled: notes,
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
            .and_then(|d| d.trim_start_matches('d').parse().ok())?;
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
                Some(v) => v.as_i64()?,
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
        let value = armor.get("value").and_then(Value::as_i64).unwrap_or(0);
        let magic = armor
            .get("magicalBonus")
            .and_then(Value::as_i64)
            .unwrap_or(0);
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
            a.get("value").and_then(Value::as_i64).unwrap_or(2)
                + a.get("magicalBonus").and_then(Value::as_i64).unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}

/// A weapon's attack (without its name) and mean damage.
fn weapon(s: &Value, mods: &[i64], proficiency: i64) -> Option<(Toml, f64)> {
    let kind = s
        .get("type")
        .and_then(|t| t.get("value"))
        .and_then(Value::as_str)
        .or_else(|| s.get("weaponType").and_then(Value::as_str))
        .unwrap_or("simpleM");
    let ranged = kind.ends_with('R');
    let has = |p: &str| match s.get("properties") {
        Some(Value::Array(a)) => a.iter().any(|x| x.as_str() == Some(p)),
        Some(Value::Object(o)) => o.get(p).and_then(Value::as_bool).unwrap_or(false),
        _ => false,
    };
    let ability = if has("fin") {
        mods[0].max(mods[1])
    } else if ranged {
        mods[1]
    } else {
        mods[0]
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
    if !super::text::DAMAGE_TYPES.contains(&kind_of.as_str()) {
        return None;
    }
    let bonus = ability + magic;
    let expr = match bonus {
        0 => dice.clone(),
        b if b > 0 => format!("{dice}+{b}"),
        b => format!("{dice}{b}"),
    };
    let mean = expr.parse::<crate::dice::expr::DiceExpr>().ok()?.mean();
    let mut t = vec![
        (
            "to_hit",
            int((ability + proficiency + magic).clamp(-10, 30)),
        ),
        ("damage", string(&expr)),
        ("type", string(&kind_of)),
        ("reach", string(if ranged { "ranged" } else { "melee" })),
    ];
    if has("two") {
        t.push(("two_handed", Toml::Boolean(true)));
    }
    Some((table(t), mean))
}

/// The spells the character casts in a fight, and notes for the rest.
fn spells(
    items: &[Value],
    templates: &Templates,
    template: &crate::combat::creature::CreatureSpec,
) -> (Vec<String>, Vec<String>) {
    let highest = template.spellbook.as_ref().map_or(0, |b| b.highest_slot());
    let (mut out, mut notes) = (Vec::new(), Vec::new());
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
        if !(level == 0 || prepared || matches!(mode, "always" | "pact" | "innate" | "atwill")) {
            continue;
        }
        let key = super::text::spell_key(title);
        let combat = templates.spells.get(&key).filter(|sp| sp.cast_in_fights());
        let healing = crate::rules::prices::spell_index(&key)
            .filter(|&i| crate::rules::prices::SPELLS[i].in_fight.is_some());
        let spell_level = combat
            .map(|c| i64::from(c.level))
            .or(healing.map(|i| i64::from(crate::rules::prices::SPELLS[i].level)))
            .unwrap_or(level);
        let castable = (combat.is_some() || healing.is_some())
            && (spell_level == 0 || spell_level <= i64::from(highest));
        if castable && !out.contains(&key) {
            out.push(key);
        } else if !castable {
            notes.push(format!("Spell: {title}"));
        }
    }
    (out, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
            &vec![string("bless")]
        );
        assert!(
            c.not_modelled.contains(&"Spell: Find Steed".to_string()),
            "{:?}",
            c.not_modelled
        );
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
