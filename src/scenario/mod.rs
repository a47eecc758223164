//! TOML machinery: scenario text turned into validated model values, once,
//! with errors that name the file, line:column and field.
//!
//! A scenario file has a header (`version = 1`, `name`, `type`,
//! `description`, `trials`, `seed`, optional `confidence`, and for combat
//! an optional `bestiary` list of the user's statblock files), an `[options]`
//! table shared by all variants, and `[[variant]]` tables that override
//! options. [`Document`] checks the version and reads the `type`; the type's
//! schema (`types/<type>/schema.rs`, chosen by the registry in
//! [`crate::types`]) then turns each variant's [`layers::Layers`] into rule
//! values with the validators of [`values`]. [`data`] parses the data files
//! into the [`crate::model::Catalog`]. The hot loops never re-check what
//! this module accepted.

pub mod data;
pub mod error;
pub mod groups;
pub mod layers;
pub mod limits;
pub mod overrides;
pub mod values;
pub mod wording;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use toml::Spanned;

pub use error::{Located, Locator, ScenarioError};

use crate::model::{Catalog, ScenarioHeader, Variant};
use layers::{Layer, Layers};
use overrides::Override;

/// The only scenario format version this build reads.
pub const FORMAT_VERSION: i64 = 1;

/// Largest trial count a scenario may ask for (10^13, hours on a laptop).
pub const MAX_TRIALS: u64 = 10_000_000_000_000;

/// Reads a scenario file (at most [`limits::MAX_FILE_BYTES`] of UTF-8
/// text): its name for messages, and its text.
pub fn read_file(path: &std::path::Path) -> Result<(String, String), ScenarioError> {
    use std::io::Read;
    let file = path.display().to_string();
    let unreadable = |e: std::io::Error| ScenarioError::Unreadable {
        file: file.clone(),
        reason: e.to_string(),
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limits::MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    if bytes.len() as u64 > limits::MAX_FILE_BYTES {
        return Err(ScenarioError::TooLarge { file });
    }
    let text = utf8(&file, &bytes)?.to_string();
    Ok((file, text))
}

/// `bytes` as text, or an error at the first byte that is not UTF-8.
fn utf8<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, ScenarioError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        // Everything before the bad byte is text: count lines and columns in it.
        let before = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let loc = Locator { file, text: before };
        loc.error(
            at,
            "",
            format!(
                "the file is not UTF-8 text: byte {at} (0x{:02X}) is not valid UTF-8; save it as UTF-8",
                bytes[at]
            ),
        )
    })
}

/// The header fields every type shares; the type decides the rest.
#[derive(Deserialize)]
struct Probe {
    version: Option<Spanned<toml::Value>>,
    #[serde(rename = "type")]
    kind: Option<Spanned<String>>,
    bestiary: Option<Spanned<Vec<Spanned<String>>>>,
}

/// A scenario text whose version is checked and whose `type` is read.
#[derive(Clone, Debug)]
pub struct Document<'a> {
    loc: Locator<'a>,
    kind: Spanned<String>,
    bestiary: Option<Spanned<Vec<Spanned<String>>>>,
}

/// What a document becomes under its type's schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<R> {
    /// The header.
    pub header: ScenarioHeader,
    /// Line and column of `name = ...`.
    pub name_at: (usize, usize),
    /// The validated variants.
    pub variants: Vec<Variant<R>>,
}

impl<'a> Document<'a> {
    /// Checks the version of `text` and reads its `type`; `types` lists the
    /// known types for the message about a missing one.
    pub fn probe(file: &'a str, text: &'a str, types: &[&str]) -> Result<Self, ScenarioError> {
        let loc = Locator { file, text };
        let probe: Probe = deserialize(&loc, text)?;
        match probe.version {
            None => {
                return Err(loc.error(
                    0,
                    "version",
                    "missing `version = 1` at the top of the file",
                ));
            }
            Some(v) if v.get_ref().as_integer() != Some(FORMAT_VERSION) => {
                return Err(loc.error(
                    v.span().start,
                    "version",
                    format!(
                        "unsupported scenario version {}: this woundsim reads version {FORMAT_VERSION}",
                        match v.get_ref() {
                            toml::Value::String(s) => format!("{s:?}"),
                            other => other.to_string(),
                        }
                    ),
                ));
            }
            Some(_) => {}
        }
        let Some(kind) = probe.kind else {
            return Err(loc.error(
                0,
                "type",
                format!("missing `type`; one of: {}", types.join(", ")),
            ));
        };
        Ok(Document {
            loc,
            kind,
            bestiary: probe.bestiary,
        })
    }

    /// The text and its file name, for errors.
    pub fn locator(&self) -> &Locator<'a> {
        &self.loc
    }

    /// `bestiary = [...]`: the user's statblock files, as written.
    pub fn bestiary(&self) -> Option<&Spanned<Vec<Spanned<String>>>> {
        self.bestiary.as_ref()
    }

    /// The file's name in messages.
    pub fn file(&self) -> &'a str {
        self.loc.file
    }

    /// The `type` value.
    pub fn kind(&self) -> &str {
        self.kind.get_ref()
    }

    /// The error for a `type` that is none of `types`.
    pub fn unknown_type(&self, types: &[&str]) -> ScenarioError {
        self.loc.error(
            self.kind.span().start,
            "type",
            format!(
                "unknown scenario type `{}`; one of: {}",
                self.kind(),
                types.join(", ")
            ),
        )
    }

    /// Reads the document with settings tables `S` and validates every
    /// variant with `build`, each `--set` override laid over every
    /// variant's tables (a later one over an earlier one).
    pub fn parse<S, R>(
        &self,
        catalog: &Catalog,
        overrides: &[Override],
        build: impl Fn(&Layers<S>, &Catalog) -> Result<R, ScenarioError>,
    ) -> Result<Parsed<R>, ScenarioError>
    where
        S: DeserializeOwned + Named + Default,
    {
        let raw: RawScenario<S> = deserialize(&self.loc, self.loc.text)?;
        let over = overrides
            .iter()
            .map(|o| {
                let loc = o.locator();
                let table: S = deserialize(&loc, loc.text)?;
                if let Some(name) = table.name().or(table.description()) {
                    let key = if table.name().is_some() {
                        "name"
                    } else {
                        "description"
                    };
                    return Err(loc.error(
                        name.span().start,
                        key,
                        "a header key cannot be set from the command line",
                    ));
                }
                Ok((loc, table))
            })
            .collect::<Result<Vec<_>, _>>()?;
        raw.parsed(&self.loc, &over, catalog, build)
    }
}

/// Deserializes with the field path of any error and its place in the file.
pub(crate) fn deserialize<T: DeserializeOwned>(
    loc: &Locator,
    text: &str,
) -> Result<T, ScenarioError> {
    let de = toml::de::Deserializer::parse(text).map_err(|e| toml_error(loc, "", &e))?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let field = e.path().to_string();
        toml_error(loc, if field == "." { "" } else { &field }, e.inner())
    })
}

/// Deepest nesting of arrays, inline tables and dotted keys the TOML
/// parser accepts.
const MAX_NESTING: usize = 80;

fn toml_error(loc: &Locator, field: &str, e: &toml::de::Error) -> ScenarioError {
    let span = e.span().unwrap_or(0..0);
    let offset = span.start;
    let mut message = e.message().trim_end().to_string();
    if message == "duplicate key" {
        // The parser's span is the repeated key itself: name it.
        let key = loc.text.get(span).unwrap_or_default().trim();
        let key = key.trim_matches(|c| c == '"' || c == '\'');
        return loc.error(
            offset,
            key,
            format!("`{key}` is defined twice; a key or table may be given only once"),
        );
    }
    if message.starts_with("cannot recurse further") || message == "recursion limit" {
        message = format!(
            "values are nested too deeply: at most {MAX_NESTING} levels of arrays, inline tables or dotted keys"
        );
    }
    // `Spanned` values show up as a private wrapper segment: drop it.
    let mut field = field
        .replace(".$__serde_spanned_private_value", "")
        .replace("$__serde_spanned_private_value", "");
    // Name an unknown or missing key itself, not only the table holding it.
    let key = ["unknown field `", "missing field `"]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))
        .and_then(|m| m.split('`').next());
    if let Some(key) = key {
        if field.is_empty() {
            field = key.to_string();
        } else if field.rsplit('.').next() != Some(key) {
            field = format!("{field}.{key}");
        }
    }
    loc.error(offset, &field, wording::humane(&message))
}

/// The common shape of a scenario file; `S` is the type's settings table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario<S> {
    #[allow(dead_code)]
    version: i64,
    name: Spanned<String>,
    #[serde(rename = "type")]
    #[allow(dead_code)]
    kind: String,
    description: Option<Spanned<String>>,
    trials: Spanned<i64>,
    seed: u64,
    confidence: Option<Spanned<f64>>,
    /// Read by [`Document::probe`]; only its presence matters here.
    #[allow(dead_code)]
    bestiary: Option<toml::Value>,
    #[serde(default)]
    options: Option<Spanned<S>>,
    #[serde(default, rename = "variant")]
    variants: Option<Spanned<Vec<Spanned<S>>>>,
}

/// Implements [`Named`] for a settings table with `name` and `description` fields.
macro_rules! impl_named {
    ($table:ty) => {
        impl $crate::scenario::Named for $table {
            fn name(&self) -> Option<&toml::Spanned<String>> {
                self.name.as_ref()
            }
            fn description(&self) -> Option<&toml::Spanned<String>> {
                self.description.as_ref()
            }
        }
    };
}
pub(crate) use impl_named;

/// The variant-naming fields every settings table has.
pub trait Named {
    /// `name = "..."` with its place.
    fn name(&self) -> Option<&Spanned<String>>;
    /// `description = "..."` with its place.
    fn description(&self) -> Option<&Spanned<String>>;
}

impl<S: Named + Default> RawScenario<S> {
    /// The validated scenario: header, then each variant through `build`.
    fn parsed<'a, R>(
        &'a self,
        loc: &Locator<'a>,
        over: &'a [(Locator<'a>, S)],
        catalog: &Catalog,
        build: impl Fn(&Layers<S>, &Catalog) -> Result<R, ScenarioError>,
    ) -> Result<Parsed<R>, ScenarioError> {
        let header = self.header(loc)?;
        let variants = self.variants(loc, over, |layers| build(layers, catalog))?;
        Ok(Parsed {
            header,
            name_at: error::line_column(loc.text, self.name.span().start),
            variants,
        })
    }

    fn header(&self, loc: &Locator) -> Result<ScenarioHeader, ScenarioError> {
        let name = self.name.get_ref();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(loc.error(
                self.name.span().start,
                "name",
                "a scenario name must be non-empty ASCII letters, digits, `-` or `_` (it names the output folder)",
            ));
        }
        values::text(
            &values::at(loc, &self.name, "name"),
            "a scenario name",
            limits::MAX_NAME_CHARS,
        )?;
        let description = values::opt_text(
            values::opt_at(loc, &self.description, "description"),
            "the description",
            limits::MAX_DESCRIPTION_CHARS,
        )?;
        let trials = *self.trials.get_ref();
        if trials < 1 || trials as u64 > MAX_TRIALS {
            return Err(loc.error(
                self.trials.span().start,
                "trials",
                format!("trials must be between 1 and {MAX_TRIALS}, got {trials}"),
            ));
        }
        let confidence = match &self.confidence {
            None => 0.95,
            Some(c) => {
                let level = *c.get_ref();
                if !(level > 0.0 && level < 1.0) {
                    return Err(loc.error(
                        c.span().start,
                        "confidence",
                        format!(
                            "confidence must be a probability strictly between 0 and 1, got {level}"
                        ),
                    ));
                }
                level
            }
        };
        Ok(ScenarioHeader {
            name: name.clone(),
            description: description.to_string(),
            trials: trials as u64,
            seed: self.seed,
            confidence,
        })
    }

    /// Validates variants: each variant's table over `[options]`, the
    /// overrides `over` above both.
    fn variants<'a, R>(
        &'a self,
        loc: &Locator<'a>,
        over: &'a [(Locator<'a>, S)],
        build: impl Fn(&Layers<'a, S>) -> Result<R, ScenarioError>,
    ) -> Result<Vec<Variant<R>>, ScenarioError> {
        let default_options = S::default();
        let options = match &self.options {
            Some(o) => o.get_ref(),
            None => &default_options,
        };
        if let Some(name) = options.name() {
            return Err(loc.error(
                name.span().start,
                "options.name",
                "`name` belongs in a [[variant]] table, not in [options]",
            ));
        }
        values::opt_text(
            options
                .description()
                .map(|d| values::at(loc, d, "options.description")),
            "the description",
            limits::MAX_DESCRIPTION_CHARS,
        )?;
        let raw_variants = self.variants.as_ref().map_or(&[][..], |v| v.get_ref());
        let base = |layers: Layers<'a, S>| -> Layers<'a, S> {
            let layers = match &self.options {
                Some(o) => layers.under(Layer::spanned(*loc, "options", o)),
                None => layers,
            };
            over.iter()
                .fold(layers, |l, (at, table)| l.over(Layer::new(*at, "", table)))
        };
        if raw_variants.is_empty() {
            let rules = build(&base(Layers::new(*loc, "options")))?;
            return Ok(vec![Variant {
                name: "base".into(),
                description: String::new(),
                rules,
            }]);
        }
        if let Some(extra) = raw_variants.get(limits::MAX_VARIANTS) {
            return Err(loc.error(
                extra.span().start,
                &format!("variant[{}]", limits::MAX_VARIANTS),
                format!(
                    "a scenario has at most {} variants, got {} (split it into several scenarios)",
                    limits::MAX_VARIANTS,
                    raw_variants.len()
                ),
            ));
        }
        let mut out: Vec<Variant<R>> = Vec::with_capacity(raw_variants.len());
        for (i, raw) in raw_variants.iter().enumerate() {
            let path = format!("variant[{i}]");
            let Some(name) = raw.get_ref().name() else {
                return Err(loc.error(
                    raw.span().start,
                    &format!("{path}.name"),
                    "every [[variant]] needs a `name`",
                ));
            };
            if name.get_ref().trim().is_empty() {
                return Err(loc.error(
                    name.span().start,
                    &format!("{path}.name"),
                    "a variant name cannot be empty",
                ));
            }
            values::text(
                &values::at(loc, name, format!("{path}.name")),
                "a variant name",
                limits::MAX_NAME_CHARS,
            )?;
            if out.iter().any(|v| v.name == *name.get_ref()) {
                return Err(loc.error(
                    name.span().start,
                    &format!("{path}.name"),
                    format!("variant name `{}` is used twice", name.get_ref()),
                ));
            }
            let description = values::opt_text(
                raw.get_ref()
                    .description()
                    .map(|d| values::at(loc, d, format!("{path}.description"))),
                "the description",
                limits::MAX_DESCRIPTION_CHARS,
            )?;
            let layers = Layers::new(*loc, path.clone()).under(Layer::spanned(*loc, path, raw));
            let rules = build(&base(layers))?;
            out.push(Variant {
                name: name.get_ref().clone(),
                description: description.to_string(),
                rules,
            });
        }
        Ok(out)
    }
}
