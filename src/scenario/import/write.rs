//! Imported monsters written as woundsim's own bestiary TOML, one table
//! per monster in the layout of `data/srd-bestiary.toml` (a list of tables
//! one per line), each headed by a comment naming its source file, format
//! and entry, and how many of its features are not modelled. The text is
//! what `woundsim import` prints and what a scenario's `bestiary = [...]`
//! reads an imported file through, so the two never differ.

use toml::Value;

use super::Format;
use super::convert::Imported;

/// A TOML key: bare where it can be, else quoted.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        Value::String(k.to_string()).to_string()
    }
}

/// The order keys are written in inside inline tables (the order of
/// docs/combat.md); any other key after them, alphabetically.
const KEY_ORDER: [&str; 42] = [
    "name",
    "spell",
    "attack",
    "to_hit",
    "damage",
    "dice",
    "type",
    "reach",
    "two_handed",
    "rider",
    "grapples",
    "knocks_prone",
    "save",
    "ability",
    "dc",
    "on_success",
    "recharge",
    "targets",
    "level",
    "per_day",
    "cost",
    "moves_first",
    "once_per_round",
    "uses",
    "options",
    "spells",
    "hp",
    "stopped_by",
    "revives",
    "escape",
    "walk",
    "fly",
    "swim",
    "climb",
    "burrow",
    "hover",
    "str",
    "dex",
    "con",
    "int",
    "wis",
    "cha",
];

/// A value as TOML, inline tables in [`KEY_ORDER`].
fn inline(v: &Value) -> String {
    match v {
        Value::Table(t) => {
            let mut keys: Vec<&String> = t.keys().collect();
            keys.sort_by_key(|k| {
                (
                    KEY_ORDER
                        .iter()
                        .position(|o| o == k)
                        .unwrap_or(KEY_ORDER.len()),
                    k.to_string(),
                )
            });
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{} = {}", key(k), inline(&t[k.as_str()])))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(inline).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// One comment line: control characters and line breaks as spaces.
fn comment(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("# {}\n", clean.trim_end())
}

/// The bestiary TOML of `monsters`, read from `source` in `format`.
pub fn bestiary_toml(monsters: &[Imported], source: &str, format: Format) -> String {
    let mut out = String::new();
    for m in monsters {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("[{}]\n", key(&m.slug)));
        let at = if m.path.is_empty() {
            String::new()
        } else {
            format!(", {}", m.path)
        };
        out.push_str(&comment(&format!(
            "{}: imported from {source} ({}{at})",
            m.name,
            format.name()
        )));
        if !m.not_modelled.is_empty() {
            out.push_str(&comment(&format!(
                "{} of its features not modelled: see not_modelled",
                m.not_modelled.len()
            )));
        }
        for (k, v) in &m.keys {
            match v {
                Value::Array(items) if items.iter().any(Value::is_table) || items.len() > 4 => {
                    out.push_str(&format!("{} = [\n", key(k)));
                    for item in items {
                        out.push_str(&format!("  {},\n", inline(item)));
                    }
                    out.push_str("]\n");
                }
                v => out.push_str(&format!("{} = {}\n", key(k), inline(v))),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_written_with_their_source() {
        let m = Imported {
            name: "Cave Gremlin".into(),
            slug: "cave-gremlin".into(),
            path: "monster[0]".into(),
            keys: vec![
                ("hp", Value::Integer(18)),
                (
                    "attacks",
                    Value::Array(vec![Value::Table(
                        [("name".to_string(), Value::String("claw".into()))]
                            .into_iter()
                            .collect(),
                    )]),
                ),
                (
                    "not_modelled",
                    Value::Array(vec![Value::String("Light Sensitivity".into())]),
                ),
            ],
            not_modelled: vec!["Light Sensitivity".into()],
        };
        let text = bestiary_toml(&[m], "gremlin.json", Format::FiveEtools);
        assert_eq!(
            text,
            "[cave-gremlin]\n# Cave Gremlin: imported from gremlin.json (5etools, monster[0])\n# 1 of its features not modelled: see not_modelled\nhp = 18\nattacks = [\n  { name = \"claw\" },\n]\nnot_modelled = [\"Light Sensitivity\"]\n"
        );
        let parsed: toml::Table = text.parse().unwrap();
        assert!(parsed.contains_key("cave-gremlin"));
        assert_eq!(key("a b"), "\"a b\"");
    }
}
