//! A 5etools bestiary file (`{"monster": [...]}`, the 2014 and 2024
//! schemas) read into [`Statblock`]s: `name`, `size` (`["L"]`), `type`
//! (text or `{"type": ...}`), `ac` (numbers or `{"ac": N, "from": [...]}`,
//! the first), `hp.average`, `speed` (numbers or `{"number": N}`,
//! `canHover`), the six scores, `save`, `initiative`, `cr` (text or
//! `{"cr": ...}`), `resist`/`immune`/`vulnerable`/`conditionImmune` (names,
//! or groups with a `note`, which is kept as not modelled), `trait`,
//! `action`, `bonus`, `reaction`, `legendary` (with `legendaryActions`),
//! `spellcasting` (`headerEntries`, `will`, `daily`, `spells` by level
//! with `slots`), and `mythic` (noted). Entry text is flattened and its
//! `{@tag ...}` markup written out as the statblock prints it
//! (`{@atk mw} {@hit 7}` → "Melee Weapon Attack: +7", `{@h}` → "Hit: ",
//! `{@damage 1d10 + 5}` → "1d10 + 5", `{@recharge 5}` → "(Recharge 5-6)").
//! An entry made with `_copy` (a copy of another entry with changes) is
//! refused: it needs the other file.

use serde_json::Value;

use super::access::{int, kind, list, opt_int, opt_str};
use super::{ABILITIES, Feature, ImportError, Section, Speed, Statblock};

/// The statblocks of a 5etools bestiary document.
pub fn read(value: &Value) -> Result<Vec<Statblock>, ImportError> {
    let monsters = list(value, "monster", "")?;
    monsters
        .iter()
        .enumerate()
        .map(|(i, m)| monster(m, &format!("monster[{i}]")))
        .collect()
}

fn monster(m: &Value, path: &str) -> Result<Statblock, ImportError> {
    if !m.is_object() {
        return Err(ImportError::at(
            path,
            format!("a monster must be an object, not {}", kind(m)),
        ));
    }
    let name = opt_str(m, "name")
        .ok_or_else(|| ImportError::at(format!("{path}.name"), "a monster needs a `name`"))?
        .to_string();
    if m.get("_copy").is_some() {
        return Err(ImportError::at(
            format!("{path}._copy"),
            format!(
                "`{name}` is a copy of another 5etools entry (`_copy`): export the full entry, not the copy"
            ),
        ));
    }
    let mut b = Statblock {
        name,
        path: path.to_string(),
        ..Statblock::default()
    };
    b.size = match m.get("size") {
        Some(Value::Array(a)) => a.first().and_then(Value::as_str).and_then(size_letter),
        Some(Value::String(s)) => size_letter(s),
        _ => None,
    };
    b.kind = match m.get("type") {
        Some(Value::String(s)) => Some(s.to_ascii_lowercase()),
        Some(t @ Value::Object(_)) => t
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase),
        _ => None,
    };
    b.ac = match m.get("ac") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => match a.first() {
            Some(v @ Value::Object(_)) => {
                opt_int(v, "ac", &format!("{path}.ac[0]"), "armor class")?
            }
            Some(v) => Some(int(v, &format!("{path}.ac[0]"), "armor class")?),
            None => None,
        },
        Some(v) => Some(int(v, &format!("{path}.ac"), "armor class")?),
    };
    b.hp = match m.get("hp") {
        Some(h @ Value::Object(_)) => opt_int(h, "average", &format!("{path}.hp"), "hit points")?,
        None | Some(Value::Null) => None,
        Some(v) => Some(int(v, &format!("{path}.hp"), "hit points")?),
    };
    if b.hp.is_none() {
        return Err(ImportError::at(
            format!("{path}.hp"),
            format!("`{}` has no average hit points (`hp.average`)", b.name),
        ));
    }
    b.speed = speed(m.get("speed"), &format!("{path}.speed"))?;
    for (i, a) in ["str", "dex", "con", "int", "wis", "cha"]
        .iter()
        .enumerate()
    {
        b.abilities[i] = opt_int(m, a, path, "an ability score")?.unwrap_or(10);
    }
    if let Some(saves) = m.get("save").filter(|s| s.is_object()) {
        for (i, a) in ABILITIES.iter().enumerate() {
            b.saves[i] = opt_int(saves, a, &format!("{path}.save"), "a saving throw bonus")?;
        }
    }
    b.initiative = match m.get("initiative") {
        Some(Value::Number(_)) => opt_int(m, "initiative", path, "initiative")?,
        _ => None,
    };
    b.cr = match m.get("cr") {
        Some(Value::String(s)) => Some(s.trim().to_string()),
        Some(c @ Value::Object(_)) => opt_str(c, "cr").map(|s| s.trim().to_string()),
        _ => None,
    };
    for (key, what, out) in [
        ("resist", "resistant", &mut b.resistant),
        ("immune", "immune", &mut b.immune),
        ("vulnerable", "vulnerable", &mut b.vulnerable),
        (
            "conditionImmune",
            "condition immune",
            &mut b.condition_immune,
        ),
    ] {
        damage_list(m.get(key), key, what, out, &mut b.not_modelled);
    }
    for (key, section) in [
        ("trait", Section::Trait),
        ("action", Section::Action),
        ("bonus", Section::Bonus),
        ("reaction", Section::Reaction),
        ("legendary", Section::Legendary),
    ] {
        for f in list(m, key, path)? {
            let name = opt_str(f, "name").map(markup).unwrap_or_default();
            let text = entries_text(f.get("entries"));
            if name.is_empty() && text.is_empty() {
                continue;
            }
            if name.is_empty() && section == Section::Legendary {
                continue;
            }
            b.features.push(Feature {
                section,
                name,
                text,
            });
        }
    }
    if let Some(n) = m.get("legendaryActions") {
        b.legendary_uses = Some(int(
            n,
            &format!("{path}.legendaryActions"),
            "legendary actions",
        )?);
    }
    for (i, s) in list(m, "spellcasting", path)?.iter().enumerate() {
        b.features
            .push(spellcasting(s, &format!("{path}.spellcasting[{i}]")));
    }
    if !list(m, "mythic", path)?.is_empty() {
        b.not_modelled.push("Mythic Actions".into());
    }
    Ok(b)
}

/// "L" → "large".
fn size_letter(s: &str) -> Option<String> {
    let word = match s.trim().to_ascii_uppercase().as_str() {
        "T" => "tiny",
        "S" => "small",
        "M" => "medium",
        "L" => "large",
        "H" => "huge",
        "G" => "gargantuan",
        _ => return None,
    };
    Some(word.into())
}

/// `{"walk": 40, "fly": {"number": 80, "condition": "(hover)"}, "canHover": true}`.
fn speed(v: Option<&Value>, path: &str) -> Result<Speed, ImportError> {
    Speed::read(v, path, "canHover")
}

/// A damage or condition list: names, or groups `{"resist": [...], "note":
/// "from nonmagical attacks"}` whose note is kept as not modelled (the
/// types are taken as plain resistances).
fn damage_list(
    v: Option<&Value>,
    key: &str,
    what: &str,
    out: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let Some(Value::Array(a)) = v else {
        return;
    };
    for item in a {
        match item {
            Value::String(s) => out.push(s.to_ascii_lowercase()),
            Value::Object(o) => {
                let inner: Vec<String> = o
                    .get(key)
                    .and_then(Value::as_array)
                    .map(|x| {
                        x.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_ascii_lowercase)
                            .collect()
                    })
                    .unwrap_or_default();
                if let Some(note) = o.get("note").and_then(Value::as_str) {
                    notes.push(format!(
                        "{} {}: only {}",
                        what,
                        inner.join(", "),
                        markup(note)
                    ));
                } else if let Some(special) = o.get("special").and_then(Value::as_str) {
                    notes.push(format!("{what}: {}", markup(special)));
                }
                out.extend(inner);
            }
            _ => {}
        }
    }
}

/// The text of an `entries` list: strings and nested entries, lists and
/// items, flattened, markup written out.
pub fn entries_text(v: Option<&Value>) -> String {
    let mut parts = Vec::new();
    flatten(v, &mut parts, 0);
    parts.join(" ")
}

fn flatten(v: Option<&Value>, out: &mut Vec<String>, depth: usize) {
    if depth > 16 {
        return;
    }
    match v {
        Some(Value::String(s)) => out.push(markup(s)),
        Some(Value::Array(a)) => a.iter().for_each(|x| flatten(Some(x), out, depth + 1)),
        Some(o @ Value::Object(_)) => {
            if let Some(name) = o.get("name").and_then(Value::as_str) {
                out.push(format!("{}.", markup(name)));
            }
            for key in ["entry", "entries", "items"] {
                flatten(o.get(key), out, depth + 1);
            }
        }
        _ => {}
    }
}

/// A spellcasting block as the text a statblock prints: its header, then
/// "At will: ...", "3/day each: ...", "Cantrips (at will): ...", "1st
/// level (4 slots): ...".
fn spellcasting(s: &Value, _path: &str) -> Feature {
    let name = opt_str(s, "name")
        .map(markup)
        .unwrap_or_else(|| "Spellcasting".into());
    let mut lines = vec![entries_text(s.get("headerEntries"))];
    let names = |v: Option<&Value>| -> String {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|x| match x {
                        Value::String(t) => markup(t),
                        o => o
                            .get("entry")
                            .and_then(Value::as_str)
                            .map(markup)
                            .unwrap_or_default(),
                    })
                    .filter(|t| !t.is_empty())
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    let will = names(s.get("will"));
    if !will.is_empty() {
        lines.push(format!("At will: {will}"));
    }
    if let Some(Value::Object(daily)) = s.get("daily") {
        for (k, v) in daily {
            let n = k.trim_end_matches('e');
            let each = if k.ends_with('e') { " each" } else { "" };
            lines.push(format!("{n}/day{each}: {}", names(Some(v))));
        }
    }
    if let Some(Value::Object(levels)) = s.get("spells") {
        for (k, v) in levels {
            let list = names(v.get("spells"));
            match (k.as_str(), v.get("slots").and_then(Value::as_i64)) {
                ("0", _) => lines.push(format!("Cantrips (at will): {list}")),
                (level, Some(slots)) => lines.push(format!(
                    "{} level ({slots} slot{}): {list}",
                    ordinal(level),
                    if slots == 1 { "" } else { "s" }
                )),
                (level, None) => lines.push(format!("{} level: {list}", ordinal(level))),
            }
        }
    }
    lines.push(entries_text(s.get("footerEntries")));
    Feature {
        section: Section::Spellcasting,
        name,
        text: lines
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// "1" → "1st", "3" → "3rd".
fn ordinal(n: &str) -> String {
    let suffix = match n {
        "1" => "st",
        "2" => "nd",
        "3" => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// 5etools `{@tag ...}` markup written out as a statblock prints it,
/// innermost first.
pub fn markup(s: &str) -> String {
    let mut out = s.to_string();
    for _ in 0..256 {
        // The last tag whose closing brace comes before any other opening
        // one: an innermost tag.
        let innermost = out.rmatch_indices("{@").map(|(i, _)| i).find_map(|open| {
            let after = &out[open + 2..];
            let close = after.find('}')?;
            (!after[..close].contains('{')).then_some((open, close + 2))
        });
        let Some((open, len)) = innermost else {
            break;
        };
        let inner = &out[open + 2..open + len];
        let (tag, rest) = inner.split_once(' ').unwrap_or((inner, ""));
        let written = tag_text(tag, rest.trim());
        out.replace_range(open..open + len + 1, &written);
    }
    out
}

/// One tag's text.
fn tag_text(tag: &str, rest: &str) -> String {
    let first = rest.split('|').next().unwrap_or("").to_string();
    let display = rest
        .split('|')
        .nth(2)
        .filter(|d| !d.is_empty())
        .map(str::to_string);
    match tag {
        "atk" | "atkr" => {
            let melee = rest.contains('m');
            let ranged = rest.contains('r');
            let spell = rest.contains('s') && tag == "atk";
            let reach = match (melee, ranged) {
                (true, true) => "Melee or Ranged",
                (false, true) => "Ranged",
                _ => "Melee",
            };
            if tag == "atkr" {
                format!("{reach} Attack Roll:")
            } else {
                format!("{reach} {} Attack:", if spell { "Spell" } else { "Weapon" })
            }
        }
        "hit" => {
            let n = first.trim();
            if n.starts_with('-') || n.starts_with('+') {
                n.to_string()
            } else {
                format!("+{n}")
            }
        }
        "h" => "Hit: ".into(),
        "m" => "Miss: ".into(),
        "hom" => "Hit or Miss: ".into(),
        "dc" => format!("DC {first}"),
        "recharge" if first.is_empty() => "(Recharge 6)".into(),
        "recharge" => format!("(Recharge {first}-6)"),
        "actSave" => {
            let word = match first.as_str() {
                "str" => "Strength",
                "dex" => "Dexterity",
                "con" => "Constitution",
                "int" => "Intelligence",
                "wis" => "Wisdom",
                _ => "Charisma",
            };
            format!("{word} Saving Throw:")
        }
        "actSaveFail" => "Failure:".into(),
        "actSaveSuccess" => "Success:".into(),
        "actSaveSuccessOrFail" => "Failure or Success:".into(),
        "actTrigger" => "Trigger:".into(),
        "actResponse" => "Response:".into(),
        "hitYourSpellAttack" => "your spell attack modifier".into(),
        _ => display.unwrap_or(first),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn markup_is_written_as_printed() {
        assert_eq!(
            markup(
                "{@atk mw} {@hit 7} to hit, reach 5 ft., one target. {@h}10 ({@damage 1d10 + 5}) piercing damage."
            ),
            "Melee Weapon Attack: +7 to hit, reach 5 ft., one target. Hit: 10 (1d10 + 5) piercing damage."
        );
        assert_eq!(
            markup("{@atkr m,r} {@hit 4}"),
            "Melee or Ranged Attack Roll: +4"
        );
        assert_eq!(
            markup("Fire Breath {@recharge 5}"),
            "Fire Breath (Recharge 5-6)"
        );
        assert_eq!(markup("{@spell fireball|XPHB}"), "fireball");
        assert_eq!(markup("{@creature goblin|MM|goblins}"), "goblins");
        assert_eq!(
            markup("{@actSave dex} {@dc 21}"),
            "Dexterity Saving Throw: DC 21"
        );
        assert_eq!(markup("{@b {@i nested}} {@unclosed"), "nested {@unclosed");
    }

    #[test]
    fn a_monster_is_read_with_its_groups() {
        let doc = json!({"monster": [{
            "name": "Test Dragon", "size": ["H"], "type": {"type": "dragon", "tags": ["chromatic"]},
            "ac": [{"ac": 19, "from": ["natural armor"]}], "hp": {"average": 256, "formula": "19d12 + 133"},
            "speed": {"walk": 40, "fly": {"number": 80, "condition": ""}, "canHover": false},
            "str": 27, "dex": 10, "con": 25, "int": 16, "wis": 13, "cha": 21,
            "save": {"dex": "+6", "con": "+13"}, "cr": {"cr": "17", "lair": "18"},
            "immune": ["fire"], "resist": [{"resist": ["bludgeoning", "piercing", "slashing"], "note": "from nonmagical attacks", "cond": true}],
            "conditionImmune": ["frightened"],
            "languages": null,
            "trait": [{"name": "Legendary Resistance (3/Day)", "entries": ["If the dragon fails a saving throw, it can choose to succeed instead."]}],
            "legendaryActions": 3,
            "legendary": [{"name": "Tail Attack", "entries": ["The dragon makes a tail attack."]}],
            "spellcasting": [{"name": "Innate Spellcasting", "headerEntries": ["(spell save {@dc 17}, {@hit 9} to hit with spell attacks):"], "will": ["{@spell fire bolt}"], "daily": {"1e": ["{@spell fireball}", "{@spell wish}"]}}]
        }]});
        let b = read(&doc).unwrap().remove(0);
        assert_eq!(
            (b.size.as_deref(), b.kind.as_deref()),
            (Some("huge"), Some("dragon"))
        );
        assert_eq!(
            (b.ac, b.hp, b.cr.as_deref()),
            (Some(19), Some(256), Some("17"))
        );
        assert_eq!((b.speed.walk, b.speed.fly), (40, 80));
        assert_eq!(b.saves[1..3], [Some(6), Some(13)]);
        assert_eq!(b.resistant, vec!["bludgeoning", "piercing", "slashing"]);
        assert_eq!(
            b.not_modelled,
            vec!["resistant bludgeoning, piercing, slashing: only from nonmagical attacks"]
        );
        assert_eq!(b.legendary_uses, Some(3));
        let cast = b
            .features
            .iter()
            .find(|f| f.section == Section::Spellcasting)
            .unwrap();
        assert!(
            cast.text
                .contains("At will: fire bolt\n1/day each: fireball, wish"),
            "{}",
            cast.text
        );
    }

    #[test]
    fn bad_fields_are_errors_at_their_path() {
        let e = read(&json!({"monster": [{"name": "a", "hp": {"average": 5}}, {"name": "b", "hp": {"average": "lots"}}]})).unwrap_err();
        assert_eq!(e.path, "monster[1].hp.average");
        let e =
            read(&json!({"monster": [{"name": "a", "hp": {"special": "varies"}}]})).unwrap_err();
        assert_eq!(e.path, "monster[0].hp");
        let e = read(&json!({"monster": [{"name": "a", "_copy": {"name": "b"}}]})).unwrap_err();
        assert_eq!(e.path, "monster[0]._copy");
        let e = read(&json!({"monster": [3]})).unwrap_err();
        assert_eq!(e.path, "monster[0]");
        let e =
            read(&json!({"monster": [{"name": "a", "hp": {"average": 5}, "action": {"x": 1}}]}))
                .unwrap_err();
        assert_eq!(e.path, "monster[0].action");
    }
}
