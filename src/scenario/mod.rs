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
pub mod layers;
pub mod limits;
pub mod overrides;
pub mod prices;
pub mod scan;
pub mod values;
pub mod wording;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use toml::Spanned;

pub use error::{Located, Locator, ScenarioError};

use crate::model::{Catalog, ScenarioHeader, Variant};
use command::CommandLayers;
use layers::{Layer, Layers};
use scan::{ScanAxis, ScanPoint};

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

/// `build` of one variant's `layers`, and after an error again with the
/// setting at fault left out, until it builds or an error names no setting
/// it can leave out: each error into `failures` once (an error of
/// `[options]` is the same in every variant). The rules, if there was no
/// error.
fn build_reporting<'a, S, R>(
    layers: &Layers<'a, S>,
    build: impl Fn(&Layers<'a, S>) -> Result<R, ScenarioError>,
    failures: &mut Vec<ScenarioError>,
) -> Option<R> {
    let mut failed = false;
    for _ in 0..limits::MAX_ERRORS_PER_FILE {
        layers.forget_found();
        let e = match build(layers) {
            Ok(rules) => return (!failed).then_some(rules),
            Err(e) => e,
        };
        let mut left_out = false;
        // Read again, an error about a setting that is not there follows
        // from one left out ("needs a `clock`"): not the user's.
        let found: Vec<ScenarioError> = e
            .into_all()
            .into_iter()
            .filter(|one| {
                !failed
                    || match one {
                        ScenarioError::Invalid(l) => {
                            layers.was_found(&l.field) && !layers.names_left_out(&l.message)
                        }
                        _ => false,
                    }
            })
            .collect();
        failed = true;
        for one in found {
            left_out |= one.field().is_some_and(|f| layers.leave_out(f));
            if !failures.contains(&one) {
                failures.push(one);
            }
        }
        if !left_out {
            break;
        }
    }
    None
}

/// The keys of `[options]` and of each `[[variant]]` as written, read from
/// the text as plain TOML (the typed tables do not list what they hold).
struct GenericTables {
    table: toml::Table,
}

impl GenericTables {
    fn of(text: &str) -> Self {
        GenericTables {
            table: toml::from_str(text).unwrap_or_default(),
        }
    }

    fn options_keys(&self) -> Vec<String> {
        match self.table.get("options") {
            Some(toml::Value::Table(t)) => t.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    fn variant_keys(&self, i: usize) -> Vec<String> {
        match self.table.get("variant") {
            Some(toml::Value::Array(v)) => match v.get(i) {
                Some(toml::Value::Table(t)) => t.keys().cloned().collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
}

/// The top-level key of a dotted key (`creature.hp` → `creature`).
fn top_key(key: &str) -> String {
    key.split('.').next().unwrap_or(key).trim().to_string()
}

/// The top-level keys of an override's text.
fn top_keys(text: &str) -> Vec<String> {
    toml::from_str::<toml::Table>(text)
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

/// A scan's axes and each point's settings table, for [`RawScenario::variants`].
struct Scan<'a, S> {
    axes: &'a [ScanAxis],
    /// `tables[axis][point]`.
    tables: &'a [Vec<(Locator<'a>, S)>],
}

impl<S> Scan<'_, S> {
    /// Every combination of point indices ([`scan::combinations`]).
    fn combinations(&self) -> Vec<Vec<usize>> {
        scan::combinations(self.axes)
    }

    fn points(&self, combination: &[usize]) -> Vec<&ScanPoint> {
        self.axes
            .iter()
            .zip(combination)
            .map(|(a, &p)| &a.points[p])
            .collect()
    }
}

/// Deserializes with the field path of any error and its place in the file;
/// every error [`deserialize_all`] finds, not only the first.
pub(crate) fn deserialize<T: DeserializeOwned>(
    loc: &Locator,
    text: &str,
) -> Result<T, ScenarioError> {
    let reading = deserialize_all(loc, text);
    match reading.value {
        Some(value) if reading.errors.is_empty() => Ok(value),
        _ => Err(loc.errors(reading.errors)),
    }
}

/// What [`deserialize_all`] read.
pub(crate) struct Reading<T> {
    /// The value of the text with every bad setting left out, for the
    /// checks that follow to report theirs; `None` if that did not read.
    pub value: Option<T>,
    /// The errors, in the order found (at most
    /// [`limits::MAX_ERRORS_PER_FILE`]).
    pub errors: Vec<ScenarioError>,
    /// The keys of the settings blanked out (the last segment of each
    /// blanked `key = value` line's key), whose absence later checks must
    /// not report.
    pub blanked: Vec<String>,
}

/// Deserializes `text`, and after an error goes on: the lines of the
/// setting at fault are blanked out (spaces, so every later offset, line
/// and column stays where it was) and the text is read again, until it
/// reads or an error cannot be stepped over (a TOML syntax error, a
/// missing key, a table header).
pub(crate) fn deserialize_all<T: DeserializeOwned>(loc: &Locator, text: &str) -> Reading<T> {
    let mut reading = Reading {
        value: None,
        errors: Vec::new(),
        blanked: Vec::new(),
    };
    let mut current = std::borrow::Cow::Borrowed(text);
    let mut rereads = limits::MAX_REREADS_PER_FILE;
    loop {
        let (span, error) = match deserialize_once(loc, &current) {
            Ok(value) => {
                reading.value = Some(value);
                return reading;
            }
            Err(found) => found,
        };
        // A missing key's span is its table: nothing to blank out.
        let missing = span.is_none();
        if missing && reading.errors.iter().any(|e| e.field() == error.field()) {
            // The key at fault was blanked out: nothing new.
            return reading;
        }
        reading.errors.push(error);
        if missing || reading.errors.len() >= limits::MAX_ERRORS_PER_FILE {
            return reading;
        }
        match without_setting_at(&current, span, &mut rereads) {
            Some((next, key)) => {
                current = std::borrow::Cow::Owned(next);
                reading.blanked.extend(key);
            }
            None => return reading,
        }
    }
}

/// The key under which the TOML parser hands a date to a deserializer.
const TOML_DATE_KEY: &str = ".$__toml_private_datetime";

/// One reading of `text`: the value, or the first error and the byte span
/// of the setting at fault (none for a syntax error or a missing key).
fn deserialize_once<T: DeserializeOwned>(
    loc: &Locator,
    text: &str,
) -> Result<T, (Option<std::ops::Range<usize>>, ScenarioError)> {
    let de = toml::de::Deserializer::parse(text).map_err(|e| (None, toml_error(loc, "", &e)))?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        // A date is read as a table with one private key: the field is
        // the setting itself.
        let field = e.path().to_string();
        let field = field.strip_suffix(TOML_DATE_KEY).unwrap_or(&field);
        let missing = e.inner().message().starts_with("missing field");
        let span = e.inner().span().filter(|_| !missing);
        (
            span,
            toml_error(loc, if field == "." { "" } else { field }, e.inner()),
        )
    })
}

/// Most lines one blanked-out setting may span (a long array).
const MAX_SETTING_LINES: usize = 64;

/// `text` with the setting at `span` blanked out: its lines from the one
/// `span` starts on, as few as still leave valid TOML, and the key of
/// the first of them if it is a `key = value` line. `None` where that is
/// not a setting (a table header), no such cut reads, or `rereads` (the
/// readings left for the file) runs out.
fn without_setting_at(
    text: &str,
    span: Option<std::ops::Range<usize>>,
    rereads: &mut usize,
) -> Option<(String, Option<String>)> {
    let span = span?;
    let start = text.get(..span.start)?.rfind('\n').map_or(0, |i| i + 1);
    let first_line = text[start..]
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start();
    if first_line.starts_with('[') || first_line.is_empty() {
        return None;
    }
    let key = first_line.split_once('=').map(|(key, _)| {
        let last = key.rsplit('.').next().unwrap_or(key);
        last.trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_string()
    });
    let mut end = start;
    for _ in 0..MAX_SETTING_LINES {
        end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
        if end < span.end.min(text.len()) {
            continue;
        }
        let mut bytes = text.as_bytes().to_vec();
        for b in &mut bytes[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        // Whole lines became ASCII spaces: still UTF-8.
        let next = String::from_utf8(bytes).ok()?;
        *rereads = rereads.checked_sub(1)?;
        if toml::de::Deserializer::parse(&next).is_ok() {
            return Some((next, key));
        }
        if end == text.len() {
            break;
        }
    }
    None
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
        let trials = *self.trials.get_ref();
        if trials < 1 || trials as u64 > MAX_TRIALS {
            errors.push(loc.error(
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
                    errors.push(loc.error(
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
        if let Some(e) = ScenarioError::from_all(errors) {
            return Err(e);
        }
        Ok(ScenarioHeader {
            name: name.clone(),
            description: description.to_string(),
            trials: trials as u64,
            seed: self.seed,
            confidence,
        })
    }

    /// Validates variants: each variant's table over `[options]`, a scan's
    /// values over both (one variant per combination), the overrides
    /// `over` above all.
    #[allow(clippy::type_complexity)]
    fn variants<'a, R>(
        &'a self,
        loc: &Locator<'a>,
        over: &'a [(Locator<'a>, S)],
        scan: &Scan<'a, S>,
        build: impl Fn(&Layers<'a, S>) -> Result<R, ScenarioError>,
    ) -> Result<
        (
            Vec<Variant<R>>,
            Option<crate::model::ScanTable>,
            Vec<String>,
        ),
        ScenarioError,
    > {
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
        let combinations = scan.combinations();
        let base = |layers: Layers<'a, S>, combination: &[usize]| -> Layers<'a, S> {
            let layers = match &self.options {
                Some(o) => layers.under(Layer::spanned(*loc, "options", o)),
                None => layers,
            };
            let layers = combination
                .iter()
                .enumerate()
                .fold(layers, |l, (axis, &point)| {
                    let (at, table) = &scan.tables[axis][point];
                    l.over(Layer::new(*at, "", table))
                });
            over.iter()
                .fold(layers, |l, (at, table)| l.over(Layer::new(*at, "", table)))
        };
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
        let expanded = raw_variants.len().max(1) * combinations.len();
        if expanded > scan::MAX_SCAN_VARIANTS {
            let file = scan.axes.first().map_or(loc.file, |a| a.source.as_str());
            return Err(ScenarioError::Unreadable {
                file: file.to_string(),
                reason: format!(
                    "the scan makes {expanded} variants ({} base variants × {} combinations of values); at most {}",
                    raw_variants.len().max(1),
                    combinations.len(),
                    scan::MAX_SCAN_VARIANTS
                ),
            });
        }
        // The base variants: (name, description, own table, its path and index).
        #[allow(clippy::type_complexity)]
        let mut bases: Vec<(String, String, Option<(&'a Spanned<S>, String, usize)>)> = Vec::new();
        if raw_variants.is_empty() {
            bases.push(("base".into(), String::new(), None));
        }
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
            if bases.iter().any(|v| v.0 == *name.get_ref()) {
                return Err(loc.error(
                    name.span().start,
                    &format!("{path}.name"),
                    format!("variant name `{}` is used twice", name.get_ref()),
                ));
            }
            if !scan.axes.is_empty() && name.get_ref().contains('@') {
                return Err(loc.error(
                    name.span().start,
                    &format!("{path}.name"),
                    "a scanned variant's name cannot contain `@` (it separates the scanned values)",
                ));
            }
            let description = values::opt_text(
                raw.get_ref()
                    .description()
                    .map(|d| values::at(loc, d, format!("{path}.description"))),
                "the description",
                limits::MAX_DESCRIPTION_CHARS,
            )?;
            bases.push((
                name.get_ref().clone(),
                description.to_string(),
                Some((raw, path, i)),
            ));
        }
        let mut out: Vec<Variant<R>> = Vec::with_capacity(expanded);
        let mut rows = Vec::new();
        let generic = GenericTables::of(loc.text);
        let mut failures: Vec<ScenarioError> = Vec::new();
        let mut unread: Vec<(String, String, Vec<String>)> = Vec::new();
        for (name, description, own) in &bases {
            for combination in &combinations {
                let layers =
                    match own {
                        Some((raw, path, _)) => Layers::new(*loc, path.clone())
                            .under(Layer::spanned(*loc, path.clone(), raw)),
                        None => Layers::new(*loc, "options"),
                    };
                let layers = base(layers, combination);
                let Some(rules) = build_reporting(&layers, &build, &mut failures) else {
                    continue;
                };
                let read = layers.keys_read();
                // Without a scan: the base name itself.
                let points = scan.points(combination);
                let variant_name = scan::variant_name(name, scan.axes, &points);
                let own_keys = own
                    .as_ref()
                    .map(|(_, _, i)| (format!("[[variant]] `{name}`"), generic.variant_keys(*i)));
                let given = own_keys
                    .into_iter()
                    .chain(std::iter::once((
                        "[options]".to_string(),
                        generic.options_keys(),
                    )))
                    .chain(
                        over.iter()
                            .map(|(at, _)| (at.file.to_string(), top_keys(at.text))),
                    )
                    .chain(
                        scan.axes
                            .iter()
                            .map(|a| (a.source.clone(), vec![top_key(&a.key)])),
                    );
                for (source, keys) in given {
                    for key in keys {
                        if key != "name" && key != "description" && !read.contains(&key) {
                            match unread
                                .iter_mut()
                                .find(|(k, s, _)| *k == key && *s == source)
                            {
                                Some((_, _, vs)) => vs.push(variant_name.clone()),
                                None => {
                                    unread.push((key, source.clone(), vec![variant_name.clone()]))
                                }
                            }
                        }
                    }
                }
                if scan.axes.is_empty() {
                    out.push(Variant {
                        name: variant_name,
                        description: description.clone(),
                        rules,
                    });
                    continue;
                }
                let with: Vec<String> = scan
                    .axes
                    .iter()
                    .zip(&points)
                    .map(|(a, p)| format!("{} = {}", a.key, p.label))
                    .collect();
                rows.push(crate::model::ScanRow {
                    variant: variant_name.clone(),
                    base: name.clone(),
                    values: points.iter().map(|p| (p.label.clone(), p.number)).collect(),
                });
                out.push(Variant {
                    name: variant_name,
                    description: if description.is_empty() {
                        with.join(", ")
                    } else {
                        format!("{description} ({})", with.join(", "))
                    },
                    rules,
                });
            }
        }
        let table = (!scan.axes.is_empty()).then(|| crate::model::ScanTable {
            keys: scan.axes.iter().map(|a| a.key.clone()).collect(),
            rows,
        });
        if let Some(e) = ScenarioError::from_all(failures) {
            return Err(e);
        }
        let total = out.len();
        let warnings = unread
            .into_iter()
            .map(|(key, source, variants)| {
                let which = if variants.len() == total && total > 1 {
                    "any variant".to_string()
                } else if variants.len() <= 3 {
                    let names: Vec<String> = variants.iter().map(|v| format!("`{v}`")).collect();
                    format!("variant {}", names.join(", "))
                } else {
                    format!("{} variants", variants.len())
                };
                format!(
                    "`{key}` (in {source}) has no effect in {which}: no rule there reads it (is the rule it belongs to turned off?)"
                )
            })
            .collect();
        Ok((out, table, warnings))
    }
}
