//! Monsters from the formats game masters already have: a 5etools
//! bestiary (`{"monster": [...]}`, [`five_etools`]), Open5e monster JSON
//! (one object, a list, or the API's `{"results": [...]}`, [`open5e`]) and
//! Foundry VTT dnd5e NPC actors ([`foundry`]). Each format is read into one
//! neutral [`Statblock`] (the numbers and, per trait or action, its name and
//! English text), and [`convert`] turns a statblock into an entry of
//! woundsim's own bestiary schema (docs/combat.md, "Creature entries"):
//! attacks, multiattack, breath and other save actions, legendary actions
//! and resistance, spellcasting, the traits the round loop models. What
//! it cannot read is never dropped: it becomes a `not_modelled` item with
//! the statblock's words, which `woundsim show` prints and the import
//! counts. [`detect`] tells the format from the content.
//!
//! Errors name the JSON path of the field (`monster[3].action[1].entries[0]`),
//! which the caller places at its line:column.

pub mod character;
pub mod convert;
pub mod five_etools;
pub mod foundry;
pub mod open5e;
pub mod text;
pub mod write;

use serde_json::Value;

/// A file format the importer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// woundsim's own bestiary schema (TOML, or JSON with the same keys).
    Woundsim,
    /// A 5etools bestiary file.
    FiveEtools,
    /// Open5e monster JSON.
    Open5e,
    /// Foundry VTT dnd5e actor JSON.
    Foundry,
    /// A D&D Beyond character's JSON.
    DndBeyond,
}

impl Format {
    /// The names a scenario or the command line may give.
    pub const NAMES: [(&'static str, Format); 5] = [
        ("woundsim", Format::Woundsim),
        ("5etools", Format::FiveEtools),
        ("open5e", Format::Open5e),
        ("foundry", Format::Foundry),
        ("dndbeyond", Format::DndBeyond),
    ];

    /// The format named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Format> {
        Self::NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(_, f)| *f)
    }

    /// Its name, as [`Format::parse`] reads it.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("woundsim", |(n, _)| n)
    }
}

/// The format of a parsed JSON document: `{"monster": [...]}` is 5etools;
/// an actor (`"type": "npc"` or `"character"` with a `system` object), or
/// a list of them, is Foundry; `{"results": [...]}`, an object with
/// `armor_class` and `hit_points`, or a list of such, is Open5e; `classes`
/// and `stats` lists (at the top or in a `data` object) are a D&D Beyond
/// character; anything else is woundsim's own schema (one object of
/// monsters keyed by name).
pub fn detect(value: &Value) -> Format {
    if character::dndbeyond::is_dndbeyond(value) {
        return Format::DndBeyond;
    }
    let one = |v: &Value| -> Option<Format> {
        let o = v.as_object()?;
        if o.get("system").is_some_and(Value::is_object)
            && o.get("type").and_then(Value::as_str).is_some()
        {
            return Some(Format::Foundry);
        }
        if o.contains_key("armor_class") && o.contains_key("hit_points") {
            return Some(Format::Open5e);
        }
        None
    };
    match value {
        Value::Object(o) if o.get("monster").is_some_and(Value::is_array) => Format::FiveEtools,
        Value::Object(o) if o.get("results").is_some_and(Value::is_array) => Format::Open5e,
        Value::Array(a) => a.first().and_then(one).unwrap_or(Format::Woundsim),
        v => one(v).unwrap_or(Format::Woundsim),
    }
}

/// The conditions a creature may be immune to in woundsim's schema (and
/// the words a rider's condition is read from).
pub const CONDITIONS: [&str; 15] = [
    "blinded",
    "charmed",
    "deafened",
    "exhaustion",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
];

/// A size category.
pub const SIZES: [&str; 6] = ["tiny", "small", "medium", "large", "huge", "gargantuan"];

/// The six abilities' names in lower case, in [`ABILITIES`] order (Open5e's
/// `strength_save`, D&D Beyond's `strength-score`).
pub const ABILITY_WORDS: [&str; 6] = [
    "strength",
    "dexterity",
    "constitution",
    "intelligence",
    "wisdom",
    "charisma",
];

/// The six abilities in their usual order, as woundsim's `saves` keys.
pub const ABILITIES: [&str; 6] = ["str", "dex", "con", "int", "wis", "cha"];

/// Where in a statblock a trait or action is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// A trait (no action needed).
    Trait,
    /// An action.
    Action,
    /// A bonus action.
    Bonus,
    /// A reaction.
    Reaction,
    /// A legendary action.
    Legendary,
    /// A spellcasting block (a trait or an action).
    Spellcasting,
}

impl Section {
    /// The words `not_modelled` adds after a feature's name.
    pub fn label(self) -> &'static str {
        match self {
            Section::Trait | Section::Action => "",
            Section::Bonus => " (Bonus Action)",
            Section::Reaction => " (Reaction)",
            Section::Legendary => " (Legendary Action)",
            Section::Spellcasting => "",
        }
    }
}

/// One trait or action: its name and its English text, markup removed.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    /// Which part of the statblock.
    pub section: Section,
    /// "Bite", "Fire Breath (Recharge 5–6)".
    pub name: String,
    /// "Melee Weapon Attack: +7 to hit, reach 5 ft., ...".
    pub text: String,
}

/// Movement speeds in feet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Speed {
    /// Walking.
    pub walk: i64,
    /// Flying.
    pub fly: i64,
    /// Swimming.
    pub swim: i64,
    /// Climbing.
    pub climb: i64,
    /// Burrowing.
    pub burrow: i64,
    /// Whether it hovers.
    pub hover: bool,
}

impl Speed {
    /// A speed object at `path`: each of `walk`, `fly`, `swim`, `climb`,
    /// `burrow` a number or `{"number": N}` (absent, null or `true`: 0),
    /// and `hover_key` true when it hovers; not an object: no speed given.
    pub(crate) fn read(
        v: Option<&Value>,
        path: &str,
        hover_key: &str,
    ) -> Result<Speed, ImportError> {
        let Some(v @ Value::Object(_)) = v else {
            return Ok(Speed::default());
        };
        let get = |key: &str| -> Result<i64, ImportError> {
            let here = access::join(path, key);
            match v.get(key) {
                None | Some(Value::Null) | Some(Value::Bool(_)) => Ok(0),
                Some(n @ Value::Object(_)) => {
                    Ok(access::opt_int(n, "number", &here, "a speed")?.unwrap_or(0))
                }
                Some(n) => access::int(n, &here, "a speed"),
            }
        };
        Ok(Speed {
            walk: get("walk")?,
            fly: get("fly")?,
            swim: get("swim")?,
            climb: get("climb")?,
            burrow: get("burrow")?,
            hover: v.get(hover_key).and_then(Value::as_bool).unwrap_or(false),
        })
    }
}

/// One monster as any format gives it, before conversion.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Statblock {
    /// Its name as written ("Adult Red Dragon").
    pub name: String,
    /// The JSON path of the entry (`monster[3]`), for messages.
    pub path: String,
    /// A size of [`SIZES`], if given.
    pub size: Option<String>,
    /// Creature type, lower case ("dragon").
    pub kind: Option<String>,
    /// Armour class.
    pub ac: Option<i64>,
    /// Hit points (the average).
    pub hp: Option<i64>,
    /// Speeds.
    pub speed: Speed,
    /// Ability scores in [`ABILITIES`] order (10 where not given).
    pub abilities: [i64; 6],
    /// Saving throw bonuses the statblock states, in [`ABILITIES`] order.
    pub saves: [Option<i64>; 6],
    /// Initiative bonus, if stated (else the Dexterity modifier).
    pub initiative: Option<i64>,
    /// Challenge rating as written ("1/4", "17").
    pub cr: Option<String>,
    /// Damage types it resists, lower case.
    pub resistant: Vec<String>,
    /// Damage types it is immune to.
    pub immune: Vec<String>,
    /// Damage types it is vulnerable to.
    pub vulnerable: Vec<String>,
    /// Conditions it is immune to.
    pub condition_immune: Vec<String>,
    /// Every trait and action, in statblock order.
    pub features: Vec<Feature>,
    /// Legendary actions a round, if stated.
    pub legendary_uses: Option<i64>,
    /// What the format reader itself could not read, in the file's words.
    pub not_modelled: Vec<String>,
}

/// An error in an imported file: the JSON path of the field and what is
/// wrong, in the user's words.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportError {
    /// `monster[3].hp.average`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl ImportError {
    /// An error at `path`.
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        ImportError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// The most monsters one imported file may hold.
pub const MAX_MONSTERS: usize = 2_000;

/// The most traits and actions one imported monster may hold.
pub const MAX_FEATURES: usize = 200;

/// The statblocks of a JSON document in `format` (not
/// [`Format::Woundsim`], which the bestiary reader reads itself).
pub fn statblocks(value: &Value, format: Format) -> Result<Vec<Statblock>, ImportError> {
    let blocks = match format {
        Format::FiveEtools => five_etools::read(value)?,
        Format::Open5e => open5e::read(value)?,
        Format::Foundry => foundry::read(value)?,
        Format::DndBeyond => {
            return Err(ImportError::at(
                "",
                "a D&D Beyond file holds a character, not monsters",
            ));
        }
        Format::Woundsim => {
            return Err(ImportError::at(
                "",
                "this is a woundsim bestiary already: name it in `bestiary = [...]` as it is",
            ));
        }
    };
    if blocks.len() > MAX_MONSTERS {
        return Err(ImportError::at(
            "",
            format!(
                "holds {} monsters; an imported file may hold at most {MAX_MONSTERS}",
                blocks.len()
            ),
        ));
    }
    if blocks.is_empty() {
        return Err(ImportError::at("", "holds no monster"));
    }
    for b in &blocks {
        if b.features.len() > MAX_FEATURES {
            return Err(ImportError::at(
                &b.path,
                format!(
                    "`{}` has {} traits and actions; an imported monster may have at most {MAX_FEATURES}",
                    b.name,
                    b.features.len()
                ),
            ));
        }
    }
    Ok(blocks)
}

/// Whether a JSON document is a Foundry character actor, or a list of them.
pub fn is_character(value: &Value) -> bool {
    let one = |v: &Value| v.get("type").and_then(Value::as_str) == Some("character");
    match value {
        Value::Array(a) => !a.is_empty() && a.iter().all(one),
        v => one(v),
    }
}

/// The slug of a name: lower case, runs of anything but letters and digits
/// as one hyphen (`Adult Red Dragon` → `adult-red-dragon`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') && c != '\'' && c != '’' {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// Shared helpers of the format readers: typed access to JSON values with
/// the path in every error.
pub(crate) mod access {
    use super::ImportError;
    use serde_json::Value;

    /// `path.key`, or `key` at the top of the document.
    pub fn join(path: &str, key: &str) -> String {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    }

    /// The JSON name of a value's kind, for messages.
    pub fn kind(v: &Value) -> &'static str {
        match v {
            Value::Null => "null",
            Value::Bool(_) => "a true/false value",
            Value::Number(_) => "a number",
            Value::String(_) => "text",
            Value::Array(_) => "a list",
            Value::Object(_) => "an object",
        }
    }

    /// `v` as an integer (a whole number, or text holding one such as
    /// "+5"), else an error at `path`.
    pub fn int(v: &Value, path: &str, what: &str) -> Result<i64, ImportError> {
        let found = match v {
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
            Value::String(s) => s.trim().trim_start_matches('+').parse().ok(),
            _ => None,
        };
        let n = found.ok_or_else(|| {
            ImportError::at(
                path,
                format!("{what} must be a whole number, not {}", kind(v)),
            )
        })?;
        if !(-10_000..=100_000).contains(&n) {
            return Err(ImportError::at(
                path,
                format!("{what} {n} is outside -10000 to 100000"),
            ));
        }
        Ok(n)
    }

    /// `o[key]` as an integer if present and not null.
    pub fn opt_int(
        o: &Value,
        key: &str,
        path: &str,
        what: &str,
    ) -> Result<Option<i64>, ImportError> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => int(v, &join(path, key), what).map(Some),
        }
    }

    /// `o[key]` as text if present, not null and not empty.
    pub fn opt_str<'a>(o: &'a Value, key: &str) -> Option<&'a str> {
        o.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    }

    /// `o[key]` as a list (absent or null: empty), else an error.
    pub fn list<'a>(o: &'a Value, key: &str, path: &str) -> Result<&'a [Value], ImportError> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(a)) => Ok(a),
            Some(v) => Err(ImportError::at(
                join(path, key),
                format!("`{key}` must be a list, not {}", kind(v)),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn slugs_are_lower_case_and_hyphenated() {
        assert_eq!(slug("Adult Red Dragon"), "adult-red-dragon");
        assert_eq!(slug("  Giant Spider (Variant) "), "giant-spider-variant");
        assert_eq!(slug("Will-o'-Wisp"), "will-o-wisp");
        assert_eq!(slug("Owlbear"), "owlbear");
    }

    #[test]
    fn the_format_is_told_from_the_content() {
        assert_eq!(detect(&json!({"monster": []})), Format::FiveEtools);
        assert_eq!(detect(&json!({"results": []})), Format::Open5e);
        assert_eq!(
            detect(&json!({"name": "x", "armor_class": 12, "hit_points": 3})),
            Format::Open5e
        );
        assert_eq!(
            detect(&json!([{"name": "x", "armor_class": 12, "hit_points": 3}])),
            Format::Open5e
        );
        assert_eq!(
            detect(&json!({"name": "x", "type": "npc", "system": {}})),
            Format::Foundry
        );
        assert_eq!(detect(&json!({"ogre": {"hp": 3}})), Format::Woundsim);
        assert_eq!(Format::parse("5ETOOLS"), Some(Format::FiveEtools));
        assert_eq!(Format::parse("roll20"), None);
    }
}
