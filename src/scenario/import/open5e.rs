//! Open5e monster JSON read into [`Statblock`]s: one monster object, a
//! list of them, or an API page `{"results": [...]}`. Both API versions:
//! v1 (`armor_class`, `hit_points`, `strength` … `charisma`,
//! `strength_save` …, `challenge_rating`, the comma-separated
//! `damage_resistances`/`damage_immunities`/`damage_vulnerabilities`/
//! `condition_immunities`, `special_abilities`, `actions`,
//! `bonus_actions`, `reactions`, `legendary_actions` with
//! `legendary_desc`) and v2 (`ability_scores`, `saving_throws`,
//! `challenge_rating_text`, `size`/`type` as objects with a `name`,
//! `traits`, and `actions` each with its `action_type`). An action's `desc`
//! is read as statblock text; its `attack_bonus`/`damage_dice` fields say
//! the same and are not needed. `spell_list` holds links, not spells: the
//! Spellcasting trait's text is read instead.

use serde_json::Value;

use super::access::{join, kind, list, opt_int, opt_str};
use super::{Feature, ImportError, Section, Speed, Statblock};

/// The statblocks of an Open5e document.
pub fn read(value: &Value) -> Result<Vec<Statblock>, ImportError> {
    match value {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, m)| monster(m, &format!("[{i}]")))
            .collect(),
        Value::Object(o) if o.contains_key("results") => list(value, "results", "")?
            .iter()
            .enumerate()
            .map(|(i, m)| monster(m, &format!("results[{i}]")))
            .collect(),
        v => Ok(vec![monster(v, "")?]),
    }
}

/// A field that is text or an object with a `name` ("Large", `{"name":
/// "Large"}`), lower case.
fn named(m: &Value, key: &str) -> Option<String> {
    match m.get(key) {
        Some(Value::String(s)) => Some(s.trim().to_ascii_lowercase()),
        Some(o @ Value::Object(_)) => opt_str(o, "name").map(|s| s.trim().to_ascii_lowercase()),
        _ => None,
    }
}

fn monster(m: &Value, path: &str) -> Result<Statblock, ImportError> {
    if !m.is_object() {
        return Err(ImportError::at(
            if path.is_empty() { "" } else { path },
            format!("a monster must be an object, not {}", kind(m)),
        ));
    }
    let name = opt_str(m, "name")
        .ok_or_else(|| ImportError::at(join(path, "name"), "a monster needs a `name`"))?
        .to_string();
    let mut b = Statblock {
        name,
        path: path.to_string(),
        ..Statblock::default()
    };
    b.size = named(m, "size");
    b.kind = named(m, "type");
    let at = |key: &str| join(path, key);
    b.ac = opt_int(m, "armor_class", path, "armor class")?;
    b.hp = opt_int(m, "hit_points", path, "hit points")?;
    if b.hp.is_none() {
        return Err(ImportError::at(
            at("hit_points"),
            format!("`{}` has no `hit_points`", b.name),
        ));
    }
    b.speed = speed(m.get("speed"), &at("speed"))?;
    let scores = m.get("ability_scores").filter(|v| v.is_object());
    let saves = m.get("saving_throws").filter(|v| v.is_object());
    for (i, long) in super::ABILITY_WORDS.iter().enumerate() {
        b.abilities[i] = match scores {
            Some(s) => opt_int(s, long, &at("ability_scores"), "an ability score")?,
            None => opt_int(m, long, path, "an ability score")?,
        }
        .unwrap_or(10);
        b.saves[i] = match saves {
            Some(s) => opt_int(s, long, &at("saving_throws"), "a saving throw bonus")?,
            None => opt_int(m, &format!("{long}_save"), path, "a saving throw bonus")?,
        };
    }
    b.initiative = opt_int(m, "initiative_bonus", path, "initiative")?;
    b.cr = opt_str(m, "challenge_rating")
        .or_else(|| opt_str(m, "challenge_rating_text"))
        .map(|s| s.trim().to_string())
        .or_else(|| {
            m.get("challenge_rating_decimal")
                .and_then(Value::as_str)
                .map(decimal_cr)
        });
    for (key, what, out) in [
        ("damage_resistances", "resistant", &mut b.resistant),
        ("damage_immunities", "immune", &mut b.immune),
        ("damage_vulnerabilities", "vulnerable", &mut b.vulnerable),
        (
            "condition_immunities",
            "condition immune",
            &mut b.condition_immune,
        ),
    ] {
        if let Some(s) = opt_str(m, key) {
            words(s, what, out, &mut b.not_modelled);
        }
    }
    for (key, section) in [
        ("special_abilities", Section::Trait),
        ("traits", Section::Trait),
        ("actions", Section::Action),
        ("bonus_actions", Section::Bonus),
        ("reactions", Section::Reaction),
        ("legendary_actions", Section::Legendary),
    ] {
        for f in list(m, key, path)? {
            let name = opt_str(f, "name").unwrap_or("").trim().to_string();
            let text = opt_str(f, "desc").unwrap_or("").to_string();
            if name.is_empty() && text.is_empty() {
                continue;
            }
            let section = match opt_str(f, "action_type") {
                Some("BONUS_ACTION") => Section::Bonus,
                Some("REACTION") => Section::Reaction,
                Some("LEGENDARY_ACTION") => Section::Legendary,
                _ => section,
            };
            let section = if name.contains("Spellcasting") {
                Section::Spellcasting
            } else {
                section
            };
            let name = match opt_int(f, "legendary_cost", path, "a legendary cost")? {
                Some(c) if c > 1 => format!("{name} (Costs {c} Actions)"),
                _ => name,
            };
            b.features.push(Feature {
                section,
                name,
                text,
            });
        }
    }
    if let Some(desc) = opt_str(m, "legendary_desc") {
        b.legendary_uses = super::text::int_after(desc, "can take ");
    }
    Ok(b)
}

/// "0.125" → "1/8".
fn decimal_cr(s: &str) -> String {
    match s.trim() {
        "0.125" => "1/8".into(),
        "0.25" => "1/4".into(),
        "0.5" => "1/2".into(),
        other => other
            .trim_end_matches(".0")
            .trim_end_matches(".000")
            .to_string(),
    }
}

/// `{"walk": 40, "fly": 80, "hover": true}`.
fn speed(v: Option<&Value>, path: &str) -> Result<Speed, ImportError> {
    Speed::read(v, path, "hover")
}

/// "poison; bludgeoning, piercing, and slashing from nonmagical attacks"
/// → the types; a qualified group ("from nonmagical attacks") noted.
fn words(s: &str, what: &str, out: &mut Vec<String>, notes: &mut Vec<String>) {
    for group in s.split(';') {
        let lower = group.trim().to_ascii_lowercase();
        let found: Vec<String> = lower
            .split([',', ' '])
            .map(|w| w.trim())
            .filter(|w| !w.is_empty() && *w != "and")
            .take_while(|w| !["from", "that", "except", "while"].contains(w))
            .map(str::to_string)
            .collect();
        if found.len()
            < lower
                .split([',', ' '])
                .filter(|w| !w.is_empty() && *w != "and")
                .count()
        {
            notes.push(format!("{what}: {}", group.trim()));
        }
        out.extend(found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn owlbear() -> Value {
        json!({"slug": "owlbear", "name": "Owlbear", "size": "Large", "type": "Monstrosity",
            "armor_class": 13, "hit_points": 59, "speed": {"walk": 40},
            "strength": 20, "dexterity": 12, "constitution": 17, "intelligence": 3, "wisdom": 12, "charisma": 7,
            "strength_save": null, "dexterity_save": null, "challenge_rating": "3",
            "damage_resistances": "", "damage_immunities": "", "condition_immunities": "",
            "actions": [{"name": "Multiattack", "desc": "The owlbear makes two attacks: one with its beak and one with its claws."},
                {"name": "Beak", "desc": "Melee Weapon Attack: +7 to hit, reach 5 ft., one creature. Hit: 10 (1d10 + 5) piercing damage.", "attack_bonus": 7, "damage_dice": "1d10", "damage_bonus": 5}],
            "bonus_actions": null, "reactions": null, "legendary_desc": "", "legendary_actions": null,
            "special_abilities": [{"name": "Keen Sight and Smell", "desc": "..."}], "spell_list": []})
    }

    #[test]
    fn one_object_a_list_and_a_page_are_read() {
        let one = read(&owlbear()).unwrap();
        assert_eq!(one.len(), 1);
        let b = &one[0];
        assert_eq!(
            (b.size.as_deref(), b.kind.as_deref(), b.cr.as_deref()),
            (Some("large"), Some("monstrosity"), Some("3"))
        );
        assert_eq!(
            (b.ac, b.hp, b.abilities[0], b.saves[0]),
            (Some(13), Some(59), 20, None)
        );
        assert_eq!(b.features.len(), 3);
        assert_eq!(read(&json!([owlbear(), owlbear()])).unwrap().len(), 2);
        assert_eq!(
            read(&json!({"count": 1, "results": [owlbear()]})).unwrap()[0].path,
            "results[0]"
        );
    }

    #[test]
    fn qualified_resistances_are_noted() {
        let mut m = owlbear();
        m["damage_resistances"] =
            json!("cold; bludgeoning, piercing, and slashing from nonmagical attacks");
        let b = read(&m).unwrap().remove(0);
        assert_eq!(
            b.resistant,
            vec!["cold", "bludgeoning", "piercing", "slashing"]
        );
        assert_eq!(
            b.not_modelled,
            vec!["resistant: bludgeoning, piercing, and slashing from nonmagical attacks"]
        );
    }

    #[test]
    fn bad_fields_are_errors_at_their_path() {
        let mut m = owlbear();
        m["hit_points"] = json!("many");
        assert_eq!(
            read(&json!({"results": [owlbear(), m]})).unwrap_err().path,
            "results[1].hit_points"
        );
        assert_eq!(read(&json!([1])).unwrap_err().path, "[0]");
        let mut m = owlbear();
        m["actions"] = json!("none");
        assert_eq!(read(&m).unwrap_err().path, "actions");
    }
}
