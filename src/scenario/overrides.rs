//! Command-line option overrides, `--set KEY=VALUE`: one scenario option set
//! for every variant, as the highest layer of [`super::layers::Layers`]
//! (above each `[[variant]]` table and `[options]`).
//!
//! `KEY=VALUE` is read as one line of TOML, so VALUE is a TOML value
//! (`injury_chance=0.1`, `roll="advantage"`, `existing_wounds=["minor"]`,
//! a dotted key such as `creature.hp=12` for one key of a nested table); a
//! bare word that is not valid TOML (`roll=advantage`) is read as a string.
//! The override is then deserialized and validated by the type's own schema
//! like the file, and its errors name the flag (`--set KEY=VALUE:1:COL:
//! field `KEY`: ...`). Header keys (`name`, `trials`, `seed`, ...) are
//! refused here, with a pointer to the flag that sets them.
//!
//! ```
//! use woundsim::scenario::overrides::Override;
//! let o = Override::parse("roll=advantage").unwrap();
//! assert_eq!((o.flag(), o.text()), ("--set roll=advantage", "roll=\"advantage\""));
//! assert!(Override::parse("trials=5").unwrap_err().contains("--trials"));
//! ```

use super::Locator;

/// One `--set KEY=VALUE`: the argument and the TOML text it is read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    /// `--set KEY=VALUE`, as the user wrote it: the file name in messages.
    flag: String,
    /// One line of TOML, `KEY=VALUE` (a bare word VALUE quoted).
    text: String,
}

/// The header keys of a scenario file, and where the user sets them instead.
const HEADER_KEYS: [(&str, &str); 8] = [
    ("bestiary", "it cannot be set from the command line"),
    ("trials", "use --trials N"),
    ("seed", "use --seed S"),
    ("confidence", "use --confidence LEVEL"),
    ("name", "it cannot be set from the command line"),
    ("description", "it cannot be set from the command line"),
    ("version", "it cannot be set from the command line"),
    ("type", "it cannot be set from the command line"),
];

/// Whether `value` is a bare word that stands for a string: letters,
/// digits and `_ - . + : /`, no spaces or TOML punctuation.
fn bare_word(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.+:/".contains(c))
}

impl Override {
    /// Reads the argument of one `--set`; the error (for clap, which names
    /// the flag) says what is wrong with it.
    pub fn parse(arg: &str) -> Result<Self, String> {
        if arg.chars().any(char::is_control) {
            return Err("expected one KEY=VALUE on one line".into());
        }
        let Some((key, value)) = arg.split_once('=') else {
            return Err("expected KEY=VALUE, e.g. injury_chance=0.1".into());
        };
        let top = key.split('.').next().unwrap_or_default().trim();
        let top = top.trim_matches(|c| c == '"' || c == '\'');
        if top.is_empty() {
            return Err("expected KEY=VALUE: the KEY is missing".into());
        }
        if let Some((_, hint)) = HEADER_KEYS.iter().find(|(k, _)| *k == top) {
            return Err(format!("`{top}` is a header key, not an option: {hint}"));
        }
        if top == "options" || top == "variant" {
            return Err(format!(
                "`{top}` is a table of the file: --set the option itself (e.g. injury_chance=0.1), for every variant"
            ));
        }
        let text = match toml::from_str::<toml::Table>(arg) {
            Ok(_) => arg.to_string(),
            Err(_) if bare_word(value.trim()) => {
                format!("{key}={}", toml::Value::String(value.trim().to_string()))
            }
            Err(e) => {
                return Err(format!(
                    "`{}` is not a TOML value ({}); quote a string: KEY='\"text\"'",
                    value.trim(),
                    super::error::one_line(e.message().trim())
                ));
            }
        };
        Ok(Override {
            flag: format!("--set {arg}"),
            text,
        })
    }

    /// The same setting named `flag` in messages (a scan's point is named
    /// by its `--scan` argument or its `[scan]` table).
    pub fn named(mut self, flag: &str) -> Self {
        self.flag = flag.to_string();
        self
    }

    /// The top-level key set (`creature` of `creature.hp=12`).
    pub fn key(&self) -> &str {
        let key = self
            .text
            .split(['=', '.'])
            .next()
            .unwrap_or_default()
            .trim();
        key.trim_matches(|c| c == '"' || c == '\'')
    }

    /// `--set KEY=VALUE` as written, for messages.
    pub fn flag(&self) -> &str {
        &self.flag
    }

    /// The TOML text the override is read as.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The override's text, named by its flag in messages.
    pub fn locator(&self) -> Locator<'_> {
        Locator {
            file: &self.flag,
            text: &self.text,
        }
    }
}

#[cfg(test)]
mod tests {
    use toml::Spanned;

    use super::Override;
    use crate::scenario::Document;
    use crate::scenario::layers::{Layers, get};

    #[derive(Default, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Raw {
        name: Option<Spanned<String>>,
        description: Option<Spanned<String>>,
        dc: Option<Spanned<i64>>,
        roll: Option<Spanned<String>>,
    }
    crate::scenario::impl_named!(Raw);

    const FILE: &str = "version = 1\nname = \"t\"\ntype = \"x\"\ntrials = 1\nseed = 1\n\
        [options]\ndc = 10\nroll = \"a\"\n[[variant]]\nname = \"v0\"\n[[variant]]\nname = \"v1\"\ndc = 12\n";

    /// Each variant's (dc, its field, roll, its field), or the error.
    fn settings(sets: &[&str]) -> Result<Vec<(i64, String, String, String)>, String> {
        let overrides: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
        let doc = Document::probe("f.toml", FILE, &["x"]).unwrap();
        let build = |l: &Layers<Raw>, _: &crate::model::Catalog| {
            let dc = get!(l, dc).unwrap();
            if *dc.get() > 20 {
                return Err(dc.error("dc must be at most 20"));
            }
            let roll = get!(l, roll).unwrap();
            Ok((
                *dc.get(),
                dc.field.clone(),
                roll.get().clone(),
                roll.field.clone(),
            ))
        };
        doc.parse(
            crate::fixtures::catalog(),
            &crate::scenario::command::CommandLayers::sets(&overrides),
            build,
        )
        .map(|p| p.variants.into_iter().map(|v| v.rules).collect())
        .map_err(|e| e.to_string())
    }

    #[test]
    fn an_override_is_the_highest_layer_of_every_variant() {
        let s = |dc: i64, field: &str, roll: &str, rfield: &str| {
            (dc, field.to_string(), roll.to_string(), rfield.to_string())
        };
        assert_eq!(
            settings(&[]).unwrap(),
            [
                s(10, "options.dc", "a", "options.roll"),
                s(12, "variant[1].dc", "a", "options.roll")
            ]
        );
        assert_eq!(
            settings(&["dc=15"]).unwrap(),
            [
                s(15, "dc", "a", "options.roll"),
                s(15, "dc", "a", "options.roll")
            ]
        );
        assert_eq!(
            settings(&["dc=15", "roll=b", "dc=3"]).unwrap(),
            [s(3, "dc", "b", "roll"), s(3, "dc", "b", "roll")],
            "a later --set wins over an earlier one"
        );
    }

    #[test]
    fn an_override_is_validated_like_the_file_and_named_by_its_flag() {
        assert_eq!(
            settings(&["dc=40"]).unwrap_err(),
            "--set dc=40:1:4: field `dc`: dc must be at most 20"
        );
        assert_eq!(
            settings(&["dc=\"x\""]).unwrap_err(),
            "--set dc=\"x\":1:4: field `dc`: expected a whole number, found the text \"x\""
        );
        let unknown = settings(&["hp=3"]).unwrap_err();
        assert!(
            unknown.starts_with("--set hp=3:1:1: field `hp`: unknown key `hp`"),
            "{unknown}"
        );
    }

    #[test]
    fn values_are_toml_and_a_bare_word_is_a_string() {
        let text = |arg: &str| Override::parse(arg).unwrap().text().to_string();
        assert_eq!(text("injury_chance=0.1"), "injury_chance=0.1");
        assert_eq!(text("roll=\"advantage\""), "roll=\"advantage\"");
        assert_eq!(text("roll=advantage"), "roll=\"advantage\"");
        assert_eq!(
            text("existing_wounds=[\"minor\"]"),
            "existing_wounds=[\"minor\"]"
        );
        assert_eq!(text("creature.hp = 12"), "creature.hp = 12");
        assert_eq!(Override::parse("dc=4").unwrap().flag(), "--set dc=4");
    }

    #[test]
    fn malformed_arguments_and_header_keys_are_refused() {
        let error = |arg: &str| Override::parse(arg).unwrap_err();
        assert!(
            error("dc").contains("expected KEY=VALUE"),
            "{}",
            error("dc")
        );
        assert!(error("=3").contains("KEY is missing"));
        assert!(error("a=1\nb=2").contains("one line"));
        assert!(
            error("dc=[1,").contains("is not a TOML value"),
            "{}",
            error("dc=[1,")
        );
        assert_eq!(
            error("trials=5"),
            "`trials` is a header key, not an option: use --trials N"
        );
        assert!(error("seed=1").contains("--seed"));
        assert!(error("confidence=0.9").contains("--confidence"));
        for key in ["name", "description", "version", "type"] {
            assert!(
                error(&format!("{key}=x")).contains("cannot be set"),
                "{key}"
            );
        }
        assert!(error("options.dc=3").contains("the option itself"));
        assert!(error("variant=[]").contains("the option itself"));
    }
}
