//! A user's own statblocks: `bestiary = ["my-monsters.toml"]` at the top
//! of a combat scenario. Each file is a bestiary in the schema of
//! `data/bestiary.toml` and `data/srd-bestiary.toml` (one table per
//! monster, keyed by its name), as TOML or, for a name ending in `.json`,
//! as JSON (one object per monster, same keys). Paths are relative to the
//! scenario file. The files' entries are laid over the built-in bestiary:
//! a user entry replaces a built-in one of the same name (that is how a
//! table re-balances an SRD monster), while a name defined in two user
//! files is an error. Every error names the user's file, line:column and
//! field; each file is held to [`MAX_FILE_BYTES`] and a scenario to
//! [`MAX_BESTIARY_FILES`] files.

use std::path::Path;

use toml::Spanned;

use crate::combat::bestiary::Bestiary;
use crate::model::Catalog;
use crate::model::InputFile;
use crate::scenario::digest::input_file;
use crate::scenario::error::Located;
use crate::scenario::limits::{MAX_BESTIARY_FILES, MAX_FILE_BYTES};
use crate::scenario::sources::FileSource;
use crate::scenario::values::{self, at_most};
use crate::scenario::{Locator, ScenarioError};

use super::creature::parse_bestiary;
use crate::scenario::import::{self, Format, convert::Imported};

/// `catalog` with the bestiary files `list` (as written in the scenario
/// `loc`, whose file is `scenario_file`) laid over its bestiary, the files
/// read, and a warning for each imported monster that replaces a built-in
/// one of the same name. An entry is a file name (`"x.toml"`; the format
/// of a `.json` file told from its content) or `{ file = "x.json", format =
/// "5etools" }`.
pub fn with_files(
    catalog: &Catalog,
    scenario_file: &str,
    loc: &Locator,
    list: &Spanned<Vec<Spanned<toml::Value>>>,
    files: &dyn FileSource,
) -> Result<(Catalog, Vec<InputFile>, Vec<String>), ScenarioError> {
    at_most(
        &values::at(loc, list, "bestiary"),
        "bestiary files",
        MAX_BESTIARY_FILES,
    )?;
    let dir = Path::new(scenario_file)
        .parent()
        .unwrap_or_else(|| Path::new(""));
    let mut user: Vec<(String, Bestiary)> = Vec::new();
    let mut inputs = Vec::with_capacity(list.get_ref().len());
    let mut warnings = Vec::new();
    for (i, entry) in list.get_ref().iter().enumerate() {
        let field = format!("bestiary[{i}]");
        let (written, format) = file_and_format(loc, entry, &field)?;
        let path = dir.join(&written);
        let (file, text) = read_named(
            files,
            &path,
            ("the bestiary file", "a bestiary file"),
            |why| loc.error(entry.span().start, &field, why),
        )?;
        let (bestiary, shadowing) = read_text(&file, &text, format, catalog)?;
        warnings.extend(shadowing);
        for (earlier, other) in &user {
            if let Some(name) = bestiary
                .names()
                .into_iter()
                .find(|n| other.entry(n).is_some())
            {
                let at = key_offset(&text, name);
                return Err(Locator { file: &file, text: &text }.error(
                    at,
                    name,
                    format!("monster `{name}` is also defined in {earlier}: a name may be defined in one bestiary file only"),
                ));
            }
        }
        inputs.push(input_file(&written, &text));
        user.push((file, bestiary));
    }
    let mut merged = catalog.bestiary.clone();
    for (_, b) in user {
        merged = merged.merge_over(b);
    }
    Ok((
        Catalog {
            bestiary: merged,
            ..catalog.clone()
        },
        inputs,
        warnings,
    ))
}

/// The most characters a character file's name may have as written in
/// `import = "..."` (its bestiary key, `import:NAME`, is a label).
const MAX_IMPORT_NAME: usize = 57;

/// `catalog` with the character files that the scenario `text` names in
/// its `party` lists (`party = [{ import = "my-paladin.json" }]`, in
/// `[options]` or a `[[variant]]`; a campaign's `{ fixed = { import =
/// "..." } }`) read and kept in its bestiary under
/// [`super::creature::imported_key`], and the files read; `None` when it
/// names none. A file is a Foundry VTT character actor
/// ([`import::character`]).
pub fn with_characters(
    catalog: &Catalog,
    scenario_file: &str,
    loc: &Locator,
    files: &dyn FileSource,
) -> Result<Option<(Catalog, Vec<InputFile>)>, ScenarioError> {
    let Ok(doc) = loc.text.parse::<toml::Table>() else {
        return Ok(None);
    };
    let mut names: Vec<String> = Vec::new();
    collect_imports(&toml::Value::Table(doc), false, &mut names);
    if names.is_empty() {
        return Ok(None);
    }
    let dir = Path::new(scenario_file)
        .parent()
        .unwrap_or_else(|| Path::new(""));
    let mut characters = Vec::new();
    let mut inputs = Vec::new();
    for written in &names {
        let at = loc
            .text
            .find(&toml::Value::String(written.clone()).to_string())
            .unwrap_or(0);
        let field = "import";
        if written.trim().is_empty()
            || written.chars().any(char::is_control)
            || written.chars().count() > MAX_IMPORT_NAME
        {
            return Err(loc.error(
                at,
                field,
                format!("a character file name must be 1 to {MAX_IMPORT_NAME} characters, without control characters"),
            ));
        }
        let path = dir.join(written);
        let (file, text) = read_named(files, &path, ("the character file", "a file"), |why| {
            loc.error(at, field, why)
        })?;
        let (format, mut character) = character(&file, &text, catalog)?;
        character.slug = super::creature::imported_key(written);
        let source = path
            .file_name()
            .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
        let toml_text = import::write::bestiary_toml(&[character], &source, format);
        characters.push(parse_bestiary(&file, &toml_text, &catalog.templates)?);
        inputs.push(input_file(written, &text));
    }
    let mut merged = catalog.bestiary.clone();
    for b in characters {
        merged = merged.merge_over(b);
    }
    Ok(Some((
        Catalog {
            bestiary: merged,
            ..catalog.clone()
        },
        inputs,
    )))
}

/// The file at `path` that a scenario names, read from `files`; a file too
/// large or unreadable is the error `placed` makes of the words "`what`
/// `PATH` is larger than ... the most `limit` may have" or "... cannot be
/// read: REASON" (placed at the name in the scenario).
fn read_named(
    files: &dyn FileSource,
    path: &Path,
    (what, limit): (&str, &str),
    placed: impl Fn(String) -> ScenarioError,
) -> Result<(String, String), ScenarioError> {
    files.read(path).map_err(|e| {
        let why = match e {
            ScenarioError::TooLarge { .. } => {
                format!("is larger than {MAX_FILE_BYTES} bytes, the most {limit} may have")
            }
            ScenarioError::Unreadable { reason, .. } => format!("cannot be read: {reason}"),
            other => return other,
        };
        placed(format!("{what} `{}` {why}", path.display()))
    })
}

/// The one character of a character sheet's text (`file` names it: a
/// Foundry VTT character actor or a D&D Beyond character), with its
/// format; anything else is an error at the file's start.
pub fn character(
    file: &str,
    text: &str,
    catalog: &Catalog,
) -> Result<(Format, Imported), ScenarioError> {
    let value = json_value(file, text)?;
    let format = import::detect(&value);
    let one_character = format == Format::DndBeyond
        || (format == Format::Foundry && import::is_character(&value) && !value.is_array());
    if !one_character {
        return Err(located(
            file,
            (1, 1),
            "",
            "not a character sheet (a Foundry VTT character actor, `\"type\": \"character\"`, or a D&D Beyond character): `import` reads one character; monsters go in `bestiary = [...]`".into(),
        ));
    }
    let (_, mut imported, _) = imported(file, text, &value, format, catalog)?;
    Ok((format, imported.remove(0)))
}

/// Every `import = "..."` of a table in a `party` list (or of a
/// campaign's fixed member there, `{ fixed = { import = ... } }`), in
/// order, once.
fn collect_imports(v: &toml::Value, in_party: bool, out: &mut Vec<String>) {
    match v {
        toml::Value::Table(t) => {
            if in_party
                && let Some(toml::Value::String(s)) = t.get("import")
                && !out.contains(s)
            {
                out.push(s.clone());
            }
            for (k, x) in t {
                collect_imports(x, k == "party" || (in_party && k == "fixed"), out);
            }
        }
        toml::Value::Array(a) => a.iter().for_each(|x| collect_imports(x, in_party, out)),
        _ => {}
    }
}

/// A bestiary file's text (`file` names it): woundsim's TOML, or JSON of
/// woundsim's schema or another format (`format`, else told from a `.json`
/// name and the content); with a warning for each imported monster that
/// replaces a built-in one of `catalog`, and one counting the features of
/// the imported creatures that are not modelled.
pub fn read_text(
    file: &str,
    text: &str,
    format: Option<Format>,
    catalog: &Catalog,
) -> Result<(Bestiary, Vec<String>), ScenarioError> {
    let json = file.to_ascii_lowercase().ends_with(".json");
    if matches!(format, Some(Format::Woundsim) | None) && !json {
        return Ok((parse_bestiary(file, text, &catalog.templates)?, Vec::new()));
    }
    let (bestiary, imported) = parse_json(file, text, catalog, format)?;
    let mut warnings: Vec<String> = imported
        .iter()
        .filter(|m| catalog.bestiary.entry(&m.slug).is_some())
        .map(|m| {
            format!(
                "the monster `{}` imported from {file} replaces the built-in `{}` in this scenario",
                m.name, m.slug
            )
        })
        .collect();
    let notes: usize = imported.iter().map(|m| m.not_modelled.len()).sum();
    if let Some(example) = imported.iter().find(|m| !m.not_modelled.is_empty()) {
        let with = imported
            .iter()
            .filter(|m| !m.not_modelled.is_empty())
            .count();
        warnings.push(format!(
            "{file}: {notes} feature{} of {with} imported creature{} {} not modelled (`woundsim show {} --bestiary {file}` lists them)",
            if notes == 1 { "" } else { "s" },
            if with == 1 { "" } else { "s" },
            if notes == 1 { "is" } else { "are" },
            example.slug
        ));
    }
    Ok((bestiary, warnings))
}

/// A `bestiary` entry's file name and stated format.
fn file_and_format(
    loc: &Locator,
    entry: &Spanned<toml::Value>,
    field: &str,
) -> Result<(String, Option<Format>), ScenarioError> {
    let at = entry.span().start;
    let (written, format) = match entry.get_ref() {
        toml::Value::String(s) => (s.clone(), None),
        toml::Value::Table(t) => {
            if let Some(k) = t.keys().find(|k| *k != "file" && *k != "format") {
                return Err(loc.error(
                    at,
                    &format!("{field}.{k}"),
                    format!("unknown key `{k}`: a bestiary entry has `file` and `format`"),
                ));
            }
            let Some(toml::Value::String(file)) = t.get("file") else {
                return Err(loc.error(
                    at,
                    &format!("{field}.file"),
                    "a bestiary entry needs `file = \"NAME\"`",
                ));
            };
            let format = match t.get("format") {
                None => None,
                Some(toml::Value::String(f)) => Some(Format::parse(f).ok_or_else(|| {
                    let names: Vec<&str> = Format::NAMES.iter().map(|(n, _)| *n).collect();
                    loc.error(
                        at,
                        &format!("{field}.format"),
                        format!("unknown format `{f}`: one of {}", names.join(", ")),
                    )
                })?),
                Some(_) => {
                    return Err(loc.error(
                        at,
                        &format!("{field}.format"),
                        "`format` is a name such as \"5etools\"",
                    ));
                }
            };
            (file.clone(), format)
        }
        _ => {
            return Err(loc.error(
                at,
                field,
                "a bestiary entry is a file name or `{ file = \"NAME\", format = \"5etools\" }`",
            ));
        }
    };
    if written.trim().is_empty() || written.chars().any(char::is_control) {
        return Err(loc.error(
            at,
            field,
            "a bestiary file name cannot be empty or hold control characters",
        ));
    }
    Ok((written, format))
}

/// Where the entry `name` starts in a bestiary text (its table header or
/// key), else the start.
fn key_offset(text: &str, name: &str) -> usize {
    [format!("[{name}]"), format!("\"{name}\"")]
        .iter()
        .find_map(|k| text.find(k.as_str()))
        .unwrap_or(0)
}

/// A JSON value read from `text`: a syntax error or a key given twice is
/// a located error.
fn json_value(file: &str, text: &str) -> Result<serde_json::Value, ScenarioError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m)
            .to_string();
        // serde_json counts columns in bytes and may place an error at the
        // end of the text a column past the line's end (found by the
        // bestiary fuzz target): counted here in characters, one past the
        // last at most.
        let line = e.line().max(1);
        let text_of_line = text.lines().nth(line - 1).unwrap_or("");
        let bytes_before = e.column().saturating_sub(1).min(text_of_line.len());
        let past_end = text_of_line
            .char_indices()
            .take_while(|(i, _)| *i < bytes_before)
            .count()
            + 1;
        located(
            file,
            (line, past_end),
            "",
            format!("not valid JSON: {message}"),
        )
    })?;
    if let Some((name, offset)) = crate::scenario::json_text::duplicate_key(text) {
        return Err(located(
            file,
            crate::scenario::error::line_column(text, offset),
            &name,
            format!("`{name}` is defined twice; a key or table may be given only once"),
        ));
    }
    Ok(value)
}

fn located(
    file: &str,
    (line, column): (usize, usize),
    field: &str,
    message: String,
) -> ScenarioError {
    ScenarioError::Invalid(Located {
        file: file.to_string(),
        line,
        column,
        field: field.to_string(),
        message,
    })
}

/// Every error, the first and the others alike, placed by `to_json`.
fn relocate(e: ScenarioError, to_json: &dyn Fn(Located) -> ScenarioError) -> ScenarioError {
    match e {
        ScenarioError::Invalid(l) => to_json(l),
        ScenarioError::Several { first, rest } => ScenarioError::Several {
            first: Box::new(relocate(*first, to_json)),
            rest: rest.into_iter().map(|e| relocate(e, to_json)).collect(),
        },
        other => other,
    }
}

/// A file of another format (5etools, Open5e, Foundry: stated, else told
/// from the content) as woundsim bestiary TOML, checked by the bestiary
/// reader: what `woundsim import` writes and a scenario reads. Errors are
/// placed in the file's text at their JSON path.
pub fn import(
    file: &str,
    text: &str,
    format: Option<Format>,
    catalog: &Catalog,
) -> Result<(Format, Vec<Imported>, String), ScenarioError> {
    let value = json_value(file, text)?;
    let format = format.unwrap_or_else(|| import::detect(&value));
    if format == Format::Woundsim {
        return Err(located(
            file,
            (1, 1),
            "",
            "not a 5etools, Open5e, Foundry or D&D Beyond file: a 5etools bestiary is `{\"monster\": [...]}`, Open5e monsters have `armor_class` and `hit_points`, a Foundry actor `type` and `system`, a D&D Beyond character `classes` and `stats` (woundsim's own bestiary files need no import)".into(),
        ));
    }
    imported(file, text, &value, format, catalog)
}

fn imported(
    file: &str,
    text: &str,
    value: &serde_json::Value,
    format: Format,
    catalog: &Catalog,
) -> Result<(Format, Vec<Imported>, String), ScenarioError> {
    let at = |path: &str, message: String| located(file, json_place(text, path), path, message);
    let monsters = if format == Format::DndBeyond {
        vec![
            import::character::dndbeyond_character(value, "", &catalog.templates)
                .map_err(|e| at(&e.path, e.message))?,
        ]
    } else if format == Format::Foundry && import::is_character(value) {
        let actors: Vec<(String, &serde_json::Value)> = match value {
            serde_json::Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("[{i}]"), v))
                .collect(),
            v => vec![(String::new(), v)],
        };
        let mut out: Vec<Imported> = Vec::new();
        for (path, actor) in actors {
            let c = import::character::foundry_character(actor, &path, &catalog.templates)
                .map_err(|e| at(&e.path, e.message))?;
            if out.iter().any(|o| o.slug == c.slug) {
                return Err(at(&path, format!("two characters are named `{}`", c.name)));
            }
            out.push(c);
        }
        out
    } else {
        let blocks = import::statblocks(value, format).map_err(|e| at(&e.path, e.message))?;
        import::convert::convert_all(&blocks, &catalog.templates.spells)
            .map_err(|e| at(&e.path, e.message))?
    };
    let source = std::path::Path::new(file)
        .file_name()
        .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
    let toml_text = import::write::bestiary_toml(&monsters, &source, format);
    // An entry the schema refuses (it should not happen: the converter
    // writes only what the schema takes) is placed at its monster.
    parse_bestiary(file, &toml_text, &catalog.templates).map_err(|e| {
        relocate(e, &|l| {
            let path = monsters
                .iter()
                .find(|m| l.field == m.slug || l.field.starts_with(&format!("{}.", m.slug)))
                .map_or("", |m| m.path.as_str());
            at(
                path,
                format!("{} (in the imported entry `{}`)", l.message, l.field),
            )
        })
    })?;
    Ok((format, monsters, toml_text))
}

/// A JSON bestiary: woundsim's own schema (checked as JSON, then read by
/// the TOML schema; an error of the schema is placed at its field in the
/// JSON text), or another format imported; with the imported monsters.
fn parse_json(
    file: &str,
    text: &str,
    catalog: &Catalog,
    format: Option<Format>,
) -> Result<(Bestiary, Vec<Imported>), ScenarioError> {
    let value = json_value(file, text)?;
    let format = format.unwrap_or_else(|| import::detect(&value));
    if format != Format::Woundsim {
        let (_, monsters, toml_text) = imported(file, text, &value, format, catalog)?;
        let bestiary = parse_bestiary(file, &toml_text, &catalog.templates)?;
        return Ok((bestiary, monsters));
    }
    let at = |path: &str| json_place(text, path);
    let serde_json::Value::Object(entries) = value else {
        return Err(located(
            file,
            (1, 1),
            "",
            "a JSON bestiary is one object of monsters, keyed by name (or a 5etools, Open5e or Foundry file)".into(),
        ));
    };
    let mut table = toml::Table::new();
    for (key, v) in entries {
        let v = to_toml(&v, &key).map_err(|path| {
            located(
                file,
                at(&path),
                &path,
                "null is not a value here: leave the key out".into(),
            )
        })?;
        table.insert(key, v);
    }
    let toml_text = table.to_string();
    // Every error, the first and the others alike, is placed in the JSON
    // text, not in the TOML text it was read through.
    parse_bestiary(file, &toml_text, &catalog.templates)
        .map_err(|e| relocate(e, &|l| located(file, at(&l.field), &l.field, l.message)))
        .map(|b| (b, Vec::new()))
}

/// A JSON value as TOML; `Err` names the path of a `null`.
fn to_toml(v: &serde_json::Value, path: &str) -> Result<toml::Value, String> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => return Err(path.to_string()),
        J::Bool(b) => toml::Value::Boolean(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => toml::Value::String(s.clone()),
        J::Array(a) => toml::Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, x)| to_toml(x, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        J::Object(o) => toml::Value::Table(
            o.iter()
                .map(|(k, x)| Ok((k.clone(), to_toml(x, &format!("{path}.{k}"))?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}

/// Line and column of the field `path` (`ogre.attacks[0].to_hit`) in the
/// JSON text: of the deepest part of it that the text has.
fn json_place(text: &str, path: &str) -> (usize, usize) {
    let offset = crate::scenario::json_text::offset_of(text, path).unwrap_or(0);
    crate::scenario::error::line_column(text, offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `bestiary` fuzz target: with two errors, the first was
    /// placed in the TOML text the JSON is read through (line 8 of a
    /// one-line file), not in the JSON.
    #[test]
    fn every_error_of_a_json_bestiary_is_placed_in_the_json() {
        let catalog = crate::scenario::data::builtin_catalog().unwrap();
        let text = r#"{"cave-gremlin": {"hp": 18, "ac": 13, "cr": "1", "xp": 200, "attacks": [{"name": "claw", "to_hit": 4, "damAge": "1d6+2", "type": "slashing"}]}}"#;
        let e = parse_json("b.json", text, &catalog, None).err().unwrap();
        let ScenarioError::Several { first, rest } = &e else {
            panic!("two errors expected: {e}");
        };
        for one in std::iter::once(first.as_ref()).chain(rest) {
            let ScenarioError::Invalid(l) = one else {
                panic!("{one}");
            };
            assert_eq!(l.line, 1, "{one}");
            assert!(l.column <= text.len() + 1, "{one}");
        }
        assert!(e.to_string().starts_with("b.json:1:"), "{e}");
    }

    /// Found by the `bestiary` fuzz target: serde_json counts columns in
    /// bytes, so an unterminated string after a multi-byte character was
    /// placed past the end of its line.
    #[test]
    fn a_json_error_is_placed_in_characters_within_its_line() {
        let catalog = crate::scenario::data::builtin_catalog().unwrap();
        let text = "{\"\u{feff}camae\": \"claw\", \"tsize";
        let e = parse_json("b.json", text, &catalog, None).err().unwrap();
        let ScenarioError::Invalid(l) = &e else {
            panic!("{e}");
        };
        assert_eq!(l.line, 1, "{e}");
        // At its last character (serde_json said 27, in bytes).
        assert_eq!(l.column, text.chars().count(), "{e}");
    }
}
