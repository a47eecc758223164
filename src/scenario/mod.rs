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

pub mod command;
pub mod data;
pub mod digest;
pub mod error;
pub mod fights;
pub mod groups;
pub mod import;
pub mod json_text;
pub mod layers;
pub mod limits;
pub mod overrides;
pub mod prices;
mod reading;
pub mod scan;
pub mod sources;
pub mod values;
mod variants;
pub mod wording;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use toml::Spanned;

pub use error::{Located, Locator, ScenarioError};
pub(crate) use reading::{deserialize, deserialize_all};

use crate::model::{Catalog, ScenarioHeader, Variant};
use command::CommandLayers;
use layers::Layers;
use scan::ScanAxis;
use variants::Scan;

/// The only scenario format version this build reads.
pub const FORMAT_VERSION: i64 = 1;

/// Largest trial count a scenario may ask for (10^13, hours on a laptop).
pub const MAX_TRIALS: u64 = 10_000_000_000_000;

/// Reads a scenario file (at most [`limits::MAX_FILE_BYTES`] of UTF-8
/// text, a regular file opened without blocking: a FIFO is refused at
/// once): its name for messages, and its text.
pub fn read_file(path: &std::path::Path) -> Result<(String, String), ScenarioError> {
    use crate::files::read::{ReadError, read_regular};
    let file = path.display().to_string();
    let bytes = read_regular(path, limits::MAX_FILE_BYTES).map_err(|e| match e {
        ReadError::TooLarge { .. } => ScenarioError::TooLarge { file: file.clone() },
        other => ScenarioError::Unreadable {
            file: file.clone(),
            reason: other.to_string(),
        },
    })?;
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
    bestiary: Option<Spanned<Vec<Spanned<toml::Value>>>>,
}

/// A scenario text whose version is checked and whose `type` is read.
#[derive(Clone, Debug)]
pub struct Document<'a> {
    loc: Locator<'a>,
    kind: Spanned<String>,
    bestiary: Option<Spanned<Vec<Spanned<toml::Value>>>>,
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
    /// The scan the variants come from, if any.
    pub scan: Option<crate::model::ScanTable>,
    /// Options given that have no effect (no rule of the variants reads
    /// them), one message each.
    pub warnings: Vec<String>,
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
    pub fn bestiary(&self) -> Option<&Spanned<Vec<Spanned<toml::Value>>>> {
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
    /// variant with `build`: each variant of the file, or of its scan
    /// (one per base variant and combination of scanned values, the
    /// values laid over the variant's tables), with each `--set` override
    /// laid over all (a later one over an earlier one).
    pub fn parse<S, R>(
        &self,
        catalog: &Catalog,
        layers: &CommandLayers,
        build: impl Fn(&Layers<S>, &Catalog) -> Result<R, ScenarioError>,
    ) -> Result<Parsed<R>, ScenarioError>
    where
        S: DeserializeOwned + Named + Default,
    {
        // Every error of the file: those of its reading, then those of the
        // checks of what read (the bad settings left out), in file order.
        let reading = deserialize_all::<RawScenario<S>>(&self.loc, self.loc.text);
        let mut errors = reading.errors;
        if let Some(raw) = reading.value {
            match self.parse_raw(&raw, catalog, layers, build) {
                Ok(parsed) if errors.is_empty() => return Ok(parsed),
                Ok(_) => {}
                // Not what follows from a setting blanked out ("needs a
                // `clock`" after `clock = ...` was).
                Err(e) => errors.extend(e.into_all().into_iter().filter(|e| {
                    !e.field()
                        .is_some_and(|f| reading.blanked.iter().any(|k| layers::key_of(f) == k))
                })),
            }
        }
        let errors = error::in_file_order(errors, self.loc.file);
        Err(self.loc.errors(errors))
    }

    /// [`Document::parse`] of the file as read.
    fn parse_raw<S, R>(
        &self,
        raw: &RawScenario<S>,
        catalog: &Catalog,
        layers: &CommandLayers,
        build: impl Fn(&Layers<S>, &Catalog) -> Result<R, ScenarioError>,
    ) -> Result<Parsed<R>, ScenarioError>
    where
        S: DeserializeOwned + Named + Default,
    {
        let table = |o: &'_ overrides::Override| -> Result<S, ScenarioError> {
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
            Ok(table)
        };
        let over = layers
            .sets
            .iter()
            .map(|o| Ok((o.locator(), table(o)?)))
            .collect::<Result<Vec<_>, ScenarioError>>()?;
        let axes = scan::combine(raw.scan_axes(&self.loc)?, &layers.scans);
        if let Some(set) = layers.sets.iter().find(|s| {
            axes.iter()
                .any(|a| a.key.split('.').next() == Some(s.key()))
        }) {
            let loc = set.locator();
            return Err(loc.error(
                0,
                set.key(),
                format!(
                    "`{}` is also scanned: set it or scan it, not both",
                    set.key()
                ),
            ));
        }
        let scan_tables = axes
            .iter()
            .map(|axis| {
                axis.points
                    .iter()
                    .map(|p| Ok((p.set.locator(), table(&p.set)?)))
                    .collect::<Result<Vec<_>, ScenarioError>>()
            })
            .collect::<Result<Vec<_>, ScenarioError>>()?;
        let scan = Scan {
            axes: &axes,
            tables: &scan_tables,
        };
        raw.parsed(&self.loc, &over, &scan, catalog, build)
    }
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
    trials: Spanned<toml::Value>,
    seed: u64,
    confidence: Option<Spanned<f64>>,
    /// Read by [`Document::probe`]; only its presence matters here.
    #[allow(dead_code)]
    bestiary: Option<toml::Value>,
    #[serde(default)]
    options: Option<Spanned<S>>,
    #[serde(default, rename = "variant")]
    variants: Option<Spanned<Vec<Spanned<S>>>>,
    /// `[scan]`: KEY = "FROM:TO:STEP" or KEY = [v1, v2, ...].
    #[serde(default)]
    scan: Option<Spanned<toml::Table>>,
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
        scan: &Scan<'a, S>,
        catalog: &Catalog,
        build: impl Fn(&Layers<S>, &Catalog) -> Result<R, ScenarioError>,
    ) -> Result<Parsed<R>, ScenarioError> {
        let header = self.header(loc);
        let variants = self.variants(loc, over, scan, |layers| build(layers, catalog));
        let (header, (variants, table, warnings)) = match (header, variants) {
            (Ok(h), Ok(v)) => (h, v),
            (h, v) => {
                let errors = h.err().into_iter().chain(v.err()).collect();
                return Err(loc.errors(errors));
            }
        };
        Ok(Parsed {
            header,
            name_at: error::line_column(loc.text, self.name.span().start),
            variants,
            scan: table,
            warnings,
        })
    }

    /// The axes of the file's `[scan]` table, in the order written.
    fn scan_axes(&self, loc: &Locator) -> Result<Vec<ScanAxis>, ScenarioError> {
        let Some(table) = &self.scan else {
            return Ok(Vec::new());
        };
        // The table's span may be its header only: its body runs to the
        // next table header.
        let span = table.span();
        let rest = loc.text.get(span.start..).unwrap_or_default();
        let end = rest
            .match_indices("\n[")
            .map(|(i, _)| i)
            .find(|&i| i >= span.end - span.start)
            .unwrap_or(rest.len());
        let body = &rest[..end];
        // Where each key is written (the table keeps no order or places).
        let place = |key: &str| {
            let mut from = 0;
            while let Some(i) = body[from..].find(key) {
                let at = from + i;
                let before = body[..at].chars().next_back();
                let after = body[at + key.len()..].trim_start();
                if before.is_none_or(|c| c.is_whitespace() || c == '"' || c == '{' || c == ',')
                    && (after.starts_with('=') || after.starts_with('"'))
                {
                    return span.start + at;
                }
                from = at + key.len();
            }
            span.start
        };
        let mut axes: Vec<(usize, ScanAxis)> = Vec::new();
        for (key, value) in table.get_ref() {
            let at = place(key);
            let source = format!("{} [scan] {key}", loc.file);
            let axis = ScanAxis::from_value(&source, key, value)
                .map_err(|e| loc.error(at, &format!("scan.{key}"), e))?;
            axes.push((at, axis));
        }
        axes.sort_by_key(|(at, _)| *at);
        Ok(axes.into_iter().map(|(_, a)| a).collect())
    }

    /// The header, or every error in it.
    fn header(&self, loc: &Locator) -> Result<ScenarioHeader, ScenarioError> {
        let mut errors = Vec::new();
        let name = self.name.get_ref();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            errors.push(loc.error(
                self.name.span().start,
                "name",
                "a scenario name must be non-empty ASCII letters, digits, `-` or `_` (it names the output folder)",
            ));
        } else if let Err(e) = values::text(
            &values::at(loc, &self.name, "name"),
            "a scenario name",
            limits::MAX_NAME_CHARS,
        ) {
            errors.push(e);
        }
        let description = values::opt_text(
            values::opt_at(loc, &self.description, "description"),
            "the description",
            limits::MAX_DESCRIPTION_CHARS,
        )
        .map_err(|e| errors.push(e))
        .unwrap_or_default();
        let trials = values::trials_value(self.trials.get_ref())
            .map_err(|e| errors.push(loc.error(self.trials.span().start, "trials", e)))
            .unwrap_or(1);
        let confidence = match &self.confidence {
            None => 0.95,
            Some(c) => {
                let level = *c.get_ref();
                if !crate::engine::stats::level_accepted(level) {
                    errors.push(loc.error(
                        c.span().start,
                        "confidence",
                        format!(
                            "confidence must be a level {}, got {}",
                            crate::engine::stats::accepted_levels(),
                            crate::engine::stats::shown_level(level)
                        ),
                    ));
                }
                level
            }
        };
        if let Some(e) = ScenarioError::from_all(errors) {
            return Err(e);
        }
        Ok(ScenarioHeader {
            name: name.clone(),
            description: description.to_string(),
            trials,
            seed: self.seed,
            confidence,
        })
    }
}
