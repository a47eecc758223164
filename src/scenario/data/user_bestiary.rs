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
use crate::scenario::values::{self, at_most};
use crate::scenario::{Locator, ScenarioError};

use super::creature::parse_bestiary;

/// `catalog` with the bestiary files `list` (as written in the scenario
/// `loc`, whose file is `scenario_file`) laid over its bestiary.
pub fn with_files(
    catalog: &Catalog,
    scenario_file: &str,
    loc: &Locator,
    list: &Spanned<Vec<Spanned<String>>>,
) -> Result<(Catalog, Vec<InputFile>), ScenarioError> {
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
    for (i, entry) in list.get_ref().iter().enumerate() {
        let field = format!("bestiary[{i}]");
        let written = entry.get_ref();
        if written.trim().is_empty() || written.chars().any(char::is_control) {
            return Err(loc.error(
                entry.span().start,
                &field,
                "a bestiary file name cannot be empty or hold control characters",
            ));
        }
        let path = dir.join(written);
        let (file, text) = crate::scenario::read_file(&path).map_err(|e| {
            let why = match e {
                ScenarioError::TooLarge { .. } => {
                    format!(
                        "is larger than {MAX_FILE_BYTES} bytes, the most a bestiary file may have"
                    )
                }
                ScenarioError::Unreadable { reason, .. } => format!("cannot be read: {reason}"),
                other => return other,
            };
            loc.error(
                entry.span().start,
                &field,
                format!("the bestiary file `{}` {why}", path.display()),
            )
        })?;
        let bestiary = if written.to_ascii_lowercase().ends_with(".json") {
            parse_json(&file, &text, catalog)?
        } else {
            parse_bestiary(&file, &text, &catalog.templates)?
        };
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
        inputs.push(input_file(written, &text));
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
    ))
}

/// Where the entry `name` starts in a bestiary text (its table header or
/// key), else the start.
fn key_offset(text: &str, name: &str) -> usize {
    [format!("[{name}]"), format!("\"{name}\"")]
        .iter()
        .find_map(|k| text.find(k.as_str()))
        .unwrap_or(0)
}

/// A JSON bestiary: checked as JSON, then read by the TOML schema; an
/// error of the schema is placed at its field in the JSON text.
fn parse_json(file: &str, text: &str, catalog: &Catalog) -> Result<Bestiary, ScenarioError> {
    let located = |(line, column): (usize, usize), field: &str, message: String| {
        ScenarioError::Invalid(Located {
            file: file.to_string(),
            line,
            column,
            field: field.to_string(),
            message,
        })
    };
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
        located((line, past_end), "", format!("not valid JSON: {message}"))
    })?;
    let at = |path: &str| json_place(text, path);
    let serde_json::Value::Object(entries) = value else {
        return Err(located(
            (1, 1),
            "",
            "a JSON bestiary is one object of monsters, keyed by name".into(),
        ));
    };
    if let Some((name, offset)) = json::duplicate_key(text) {
        return Err(located(
            crate::scenario::error::line_column(text, offset),
            &name,
            format!("`{name}` is defined twice; a key or table may be given only once"),
        ));
    }
    let mut table = toml::Table::new();
    for (key, v) in entries {
        let v = to_toml(&v, &key).map_err(|path| {
            located(
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
    parse_bestiary(file, &toml_text, &catalog.templates)
        .map_err(|e| relocate(e, &|l| located(at(&l.field), &l.field, l.message)))
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
    let offset = json::offset_of(text, path).unwrap_or(0);
    crate::scenario::error::line_column(text, offset)
}

/// Byte offsets of values in a JSON text that `serde_json` accepted.
mod json {
    /// One step of a field path.
    #[derive(Debug, PartialEq)]
    enum Step {
        Key(String),
        Index(usize),
    }

    /// The steps of `path`: the top-level key is the longest key of the
    /// text's object that starts the path (names may hold dots).
    fn steps(text: &str, path: &str) -> Vec<Step> {
        let mut keys = top_keys(text);
        keys.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
        let Some((first, _)) = keys.into_iter().find(|(k, _)| {
            path == k || path.starts_with(&format!("{k}.")) || path.starts_with(&format!("{k}["))
        }) else {
            return Vec::new();
        };
        let mut out = vec![Step::Key(first.clone())];
        let rest = &path[first.len()..];
        for part in rest.split('.').filter(|p| !p.is_empty()) {
            let mut pieces = part.split('[');
            if let Some(key) = pieces.next().filter(|k| !k.is_empty()) {
                out.push(Step::Key(key.to_string()));
            }
            for index in pieces {
                if let Ok(i) = index.trim_end_matches(']').parse() {
                    out.push(Step::Index(i));
                }
            }
        }
        out
    }

    struct Walker<'a> {
        b: &'a [u8],
        text: &'a str,
        i: usize,
    }

    impl Walker<'_> {
        fn ws(&mut self) {
            while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
        }

        fn peek(&self) -> u8 {
            self.b.get(self.i).copied().unwrap_or(0)
        }

        /// A string at the cursor, decoded.
        fn string(&mut self) -> String {
            let start = self.i;
            self.i += 1;
            while self.i < self.b.len() && self.b[self.i] != b'"' {
                if self.b[self.i] == b'\\' {
                    self.i += 1;
                }
                self.i += 1;
            }
            self.i += 1;
            let raw = self.text.get(start..self.i.min(self.b.len())).unwrap_or("");
            serde_json::from_str(raw).unwrap_or_default()
        }

        fn skip(&mut self) {
            self.ws();
            match self.peek() {
                b'"' => {
                    self.string();
                }
                open @ (b'{' | b'[') => {
                    let close = if open == b'{' { b'}' } else { b']' };
                    self.i += 1;
                    loop {
                        self.ws();
                        match self.peek() {
                            0 => return,
                            c if c == close => {
                                self.i += 1;
                                return;
                            }
                            b',' | b':' => self.i += 1,
                            _ => self.skip(),
                        }
                    }
                }
                _ => {
                    while self.i < self.b.len() && !b",]} \t\r\n".contains(&self.b[self.i]) {
                        self.i += 1;
                    }
                }
            }
        }

        /// The members of the object at the cursor: key, offset of the key.
        fn members(&mut self, mut each: impl FnMut(&mut Self, String, usize) -> bool) {
            self.ws();
            if self.peek() != b'{' {
                return;
            }
            self.i += 1;
            loop {
                self.ws();
                match self.peek() {
                    b'"' => {
                        let at = self.i;
                        let key = self.string();
                        self.ws();
                        self.i += 1; // ':'
                        self.ws();
                        if each(self, key, at) {
                            return;
                        }
                        self.skip();
                    }
                    b',' => self.i += 1,
                    _ => return,
                }
            }
        }

        /// The first key given twice in the value at the cursor or in
        /// any value inside it (`path` is the value's), as for
        /// [`duplicate_key`]; the cursor ends after the value.
        fn duplicate(&mut self, path: &str) -> Option<(String, usize)> {
            self.ws();
            match self.peek() {
                b'{' => {
                    self.i += 1;
                    let mut seen = std::collections::HashSet::new();
                    loop {
                        self.ws();
                        match self.peek() {
                            b'"' => {
                                let at = self.i;
                                let key = self.string();
                                let here = match path {
                                    "" => key.clone(),
                                    _ => format!("{path}.{key}"),
                                };
                                if !seen.insert(key) {
                                    return Some((here, at));
                                }
                                self.ws();
                                self.i += 1; // ':'
                                if let Some(found) = self.duplicate(&here) {
                                    return Some(found);
                                }
                            }
                            b',' => self.i += 1,
                            b'}' => {
                                self.i += 1;
                                return None;
                            }
                            _ => return None,
                        }
                    }
                }
                b'[' => {
                    self.i += 1;
                    let mut index = 0;
                    loop {
                        self.ws();
                        match self.peek() {
                            0 => return None,
                            b']' => {
                                self.i += 1;
                                return None;
                            }
                            b',' => {
                                self.i += 1;
                                index += 1;
                            }
                            _ => {
                                if let Some(found) = self.duplicate(&format!("{path}[{index}]")) {
                                    return Some(found);
                                }
                            }
                        }
                    }
                }
                _ => {
                    self.skip();
                    None
                }
            }
        }

        /// The offset of the deepest value along `steps`.
        fn find(&mut self, steps: &[Step]) -> usize {
            self.ws();
            let here = self.i;
            match steps.first() {
                None => here,
                Some(Step::Key(k)) => {
                    let mut found = None;
                    self.members(|w, key, _| {
                        if key == *k {
                            found = Some(w.find(&steps[1..]));
                            true
                        } else {
                            false
                        }
                    });
                    found.unwrap_or(here)
                }
                Some(Step::Index(n)) => {
                    if self.peek() != b'[' {
                        return here;
                    }
                    self.i += 1;
                    let mut index = 0;
                    loop {
                        self.ws();
                        match self.peek() {
                            0 | b']' => return here,
                            b',' => self.i += 1,
                            _ if index == *n => return self.find(&steps[1..]),
                            _ => {
                                self.skip();
                                index += 1;
                            }
                        }
                    }
                }
            }
        }
    }

    fn walker(text: &str) -> Walker<'_> {
        Walker {
            b: text.as_bytes(),
            text,
            i: 0,
        }
    }

    /// The top-level object's keys with their offsets, in order.
    fn top_keys(text: &str) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        walker(text).members(|_, key, at| {
            out.push((key, at));
            false
        });
        out
    }

    /// The first key given twice in any object of `text` (valid JSON):
    /// its path (`imp`, `ogre.attacks[0].name`) and the offset of its
    /// second place.
    pub(super) fn duplicate_key(text: &str) -> Option<(String, usize)> {
        walker(text).duplicate("")
    }

    /// The offset of the value at `path` (or of its deepest part there).
    pub(super) fn offset_of(text: &str, path: &str) -> Option<usize> {
        let steps = steps(text, path);
        if steps.is_empty() {
            return None;
        }
        Some(walker(text).find(&steps))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        const TEXT: &str = r#"{
  "ogre@5.2": { "hp": 1, "attacks": [ { "name": "a" }, { "name": "b", "to_hit": 99 } ] },
  "imp": { "hp": 0 },
  "imp": {}
}"#;

        #[test]
        fn paths_find_their_values() {
            let at = |p| &TEXT[offset_of(TEXT, p).unwrap()..];
            assert!(at("imp.hp").starts_with("0 }"));
            assert!(at("ogre@5.2.attacks[1].to_hit").starts_with("99"));
            assert!(at("ogre@5.2.attacks[1]").starts_with("{ \"name\": \"b\""));
            assert!(at("ogre@5.2.nothing").starts_with("{ \"hp\": 1"));
            assert_eq!(offset_of(TEXT, "gremlin.hp"), None);
        }

        #[test]
        fn a_twice_given_name_is_found() {
            let (k, at) = duplicate_key(TEXT).unwrap();
            assert_eq!(k, "imp");
            assert!(TEXT[at..].starts_with("\"imp\": {}"));
        }

        #[test]
        fn a_key_twice_inside_an_entry_is_found() {
            let text = r#"{ "imp": { "hp": 18, "hp": 20 }, "ogre": { "hp": 1 } }"#;
            let (k, at) = duplicate_key(text).unwrap();
            assert_eq!(k, "imp.hp");
            assert!(text[at..].starts_with("\"hp\": 20"));
            let text =
                r#"{ "ogre": { "attacks": [ { "name": "a" }, { "name": "b", "name": "c" } ] } }"#;
            assert_eq!(duplicate_key(text).unwrap().0, "ogre.attacks[1].name");
            let text = r#"{ "ogre": { "hp": 1, "attacks": [ { "hp": 1 } ] }, "imp": { "hp": 1 } }"#;
            assert_eq!(duplicate_key(text), None);
        }
    }
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
        let e = parse_json("b.json", text, &catalog).err().unwrap();
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
        let e = parse_json("b.json", text, &catalog).err().unwrap();
        let ScenarioError::Invalid(l) = &e else {
            panic!("{e}");
        };
        assert_eq!(l.line, 1, "{e}");
        // At its last character (serde_json said 27, in bytes).
        assert_eq!(l.column, text.chars().count(), "{e}");
    }
}
