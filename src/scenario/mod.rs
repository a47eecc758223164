//! Scenario files: TOML → validated model values, once, with errors that
//! name the file, line:column and field.
//!
//! A scenario file has a header (`version = 1`, `name`, `type`,
//! `description`, `trials`, `seed`, optional `confidence`), an `[options]`
//! table shared by all variants, and `[[variant]]` tables that override
//! options. The `type` selects the schema of the options: each scenario type
//! has one module here that turns its raw settings into rule values. The
//! hot loops never re-check what this module accepted.

pub mod amputation;
pub mod amputation_healing;
pub mod amputation_parts;
pub mod builtin;
pub mod combat;
pub mod creature;
pub mod death_saves;
pub mod error;
pub mod festering;
pub mod injuries;
pub mod injury_table;
pub mod limits;
pub mod values;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use toml::Spanned;

pub use error::{Located, Locator, ScenarioError};

use crate::rules::amputation::AmputationRules;
use crate::rules::death_saves::DeathSaveRules;

/// The only scenario format version this build reads.
pub const FORMAT_VERSION: i64 = 1;

/// Largest trial count a scenario may ask for (10^13, hours on a laptop).
pub const MAX_TRIALS: u64 = 10_000_000_000_000;

/// Scenario-wide settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioHeader {
    /// Name: letters, digits, `-` and `_` (it names the output folder).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Trials per variant.
    pub trials: u64,
    /// Seed of the run.
    pub seed: u64,
    /// Interval confidence level (default 0.95).
    pub confidence: f64,
}

/// One variant: a name and the rules it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant<R> {
    /// Variant name, unique within the scenario.
    pub name: String,
    /// What the variant changes, for humans.
    pub description: String,
    /// The validated rules.
    pub rules: R,
}

/// The model a scenario runs, by scenario type.
#[derive(Clone, Debug, PartialEq)]
pub enum Model {
    /// `type = "death_saves"`: death-save sequences, optionally with permanent wounds.
    DeathSaves(Vec<Variant<DeathSaveRules>>),
    /// `type = "amputation"`: cutting off a limb against the clock, and reattaching it.
    Amputation(Vec<Variant<AmputationRules>>),
    /// `type = "combat"`: a party against monsters, one encounter or a chain.
    Combat(Vec<Variant<crate::combat::encounter::Encounter>>),
    /// `type = "injuries"`: lingering injuries from crits and fumbles, and their healing cost.
    Injuries(Vec<Variant<injuries::InjuryScenario>>),
    /// `type = "festering"`: the festering-wound tending process.
    Festering(Vec<Variant<festering::FesteringScenario>>),
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Where it came from (a path, or `built-in:NAME`).
    pub source: String,
    /// Line and column of `name = ...` in the source, for errors found
    /// later about the name (e.g. against the output folder).
    pub name_at: (usize, usize),
    /// Header settings.
    pub header: ScenarioHeader,
    /// The model and its variants.
    pub model: Model,
}

impl Scenario {
    /// Scenario type name as written in files.
    pub fn kind(&self) -> &'static str {
        match self.model {
            Model::DeathSaves(_) => death_saves::TYPE_NAME,
            Model::Amputation(_) => amputation::TYPE_NAME,
            Model::Combat(_) => combat::TYPE_NAME,
            Model::Injuries(_) => injuries::TYPE_NAME,
            Model::Festering(_) => festering::TYPE_NAME,
        }
    }

    /// Variant descriptions in order (empty where a variant has none).
    pub fn variant_descriptions(&self) -> Vec<String> {
        match &self.model {
            Model::DeathSaves(v) => v.iter().map(|v| v.description.clone()).collect(),
            Model::Amputation(v) => v.iter().map(|v| v.description.clone()).collect(),
            Model::Combat(v) => v.iter().map(|v| v.description.clone()).collect(),
            Model::Injuries(v) => v.iter().map(|v| v.description.clone()).collect(),
            Model::Festering(v) => v.iter().map(|v| v.description.clone()).collect(),
        }
    }

    /// Variant names in order.
    pub fn variant_names(&self) -> Vec<&str> {
        match &self.model {
            Model::DeathSaves(v) => v.iter().map(|v| v.name.as_str()).collect(),
            Model::Amputation(v) => v.iter().map(|v| v.name.as_str()).collect(),
            Model::Combat(v) => v.iter().map(|v| v.name.as_str()).collect(),
            Model::Injuries(v) => v.iter().map(|v| v.name.as_str()).collect(),
            Model::Festering(v) => v.iter().map(|v| v.name.as_str()).collect(),
        }
    }
}

/// Reads and validates a scenario file (at most
/// [`limits::MAX_FILE_BYTES`] of UTF-8 text).
pub fn load_file(path: &std::path::Path) -> Result<Scenario, ScenarioError> {
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
    let text = utf8(&file, &bytes)?;
    parse(&file, text)
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
}

/// Parses and validates scenario text; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let loc = Locator { file, text };
    let probe: Probe = deserialize(&loc, text)?;
    match probe.version {
        None => {
            return Err(loc.error(0, "version", "missing `version = 1` at the top of the file"));
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
            format!("missing `type`; one of: {}", TYPES.join(", ")),
        ));
    };
    match kind.get_ref().as_str() {
        death_saves::TYPE_NAME => {
            let raw: RawScenario<death_saves::RawSettings> = deserialize(&loc, text)?;
            raw.scenario(&loc, death_saves::build, Model::DeathSaves)
        }
        amputation::TYPE_NAME => {
            let raw: RawScenario<amputation::RawSettings> = deserialize(&loc, text)?;
            raw.scenario(&loc, amputation::build, Model::Amputation)
        }
        combat::TYPE_NAME => {
            let raw: RawScenario<combat::RawSettings> = deserialize(&loc, text)?;
            raw.scenario(&loc, combat::build, Model::Combat)
        }
        injuries::TYPE_NAME => {
            let raw: RawScenario<injuries::RawSettings> = deserialize(&loc, text)?;
            raw.scenario(&loc, injuries::build, Model::Injuries)
        }
        festering::TYPE_NAME => {
            let raw: RawScenario<festering::RawSettings> = deserialize(&loc, text)?;
            raw.scenario(&loc, festering::build, Model::Festering)
        }
        other => Err(loc.error(
            kind.span().start,
            "type",
            format!(
                "unknown scenario type `{other}`; one of: {}",
                TYPES.join(", ")
            ),
        )),
    }
}

/// Scenario types this build knows.
pub const TYPES: [&str; 5] = [
    death_saves::TYPE_NAME,
    injuries::TYPE_NAME,
    festering::TYPE_NAME,
    amputation::TYPE_NAME,
    combat::TYPE_NAME,
];

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
    loc.error(offset, &field, message)
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
    fn scenario<R>(
        &self,
        loc: &Locator,
        build: impl Fn(&Locator, &S, &S, &str) -> Result<R, ScenarioError>,
        model: impl FnOnce(Vec<Variant<R>>) -> Model,
    ) -> Result<Scenario, ScenarioError> {
        let header = self.header(loc)?;
        let variants = self.variants(loc, build)?;
        Ok(Scenario {
            source: loc.file.to_string(),
            name_at: error::line_column(loc.text, self.name.span().start),
            header,
            model: model(variants),
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
            loc,
            &self.name,
            "name",
            "a scenario name",
            limits::MAX_NAME_CHARS,
        )?;
        let description = values::opt_text(
            loc,
            self.description.as_ref(),
            "description",
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

    /// Validates variants: base options overridden by each variant's table.
    fn variants<R>(
        &self,
        loc: &Locator,
        build: impl Fn(&Locator, &S, &S, &str) -> Result<R, ScenarioError>,
    ) -> Result<Vec<Variant<R>>, ScenarioError> {
        let default_options = S::default();
        let options = self
            .options
            .as_ref()
            .map_or(&default_options, |o| o.get_ref());
        if let Some(name) = options.name() {
            return Err(loc.error(
                name.span().start,
                "options.name",
                "`name` belongs in a [[variant]] table, not in [options]",
            ));
        }
        values::opt_text(
            loc,
            options.description(),
            "options.description",
            "the description",
            limits::MAX_DESCRIPTION_CHARS,
        )?;
        let raw_variants = self.variants.as_ref().map_or(&[][..], |v| v.get_ref());
        if raw_variants.is_empty() {
            let rules = build(loc, options, &default_options, "options")?;
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
                loc,
                name,
                &format!("{path}.name"),
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
                loc,
                raw.get_ref().description(),
                &format!("{path}.description"),
                "the description",
                limits::MAX_DESCRIPTION_CHARS,
            )?;
            let rules = build(loc, options, raw.get_ref(), &path)?;
            out.push(Variant {
                name: name.get_ref().clone(),
                description: description.to_string(),
                rules,
            });
        }
        Ok(out)
    }
}

/// A setting that may come from `[options]` or be overridden by a variant.
pub fn pick<'a, T>(
    variant: &'a Option<Spanned<T>>,
    base: &'a Option<Spanned<T>>,
    variant_path: &str,
    key: &str,
) -> Option<(&'a Spanned<T>, String)> {
    match (variant, base) {
        (Some(v), _) => Some((v, format!("{variant_path}.{key}"))),
        (None, Some(b)) => Some((b, format!("options.{key}"))),
        (None, None) => None,
    }
}
