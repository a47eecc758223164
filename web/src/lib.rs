//! woundsim's engine for the web page (`web/static/`), bound to
//! JavaScript with wasm-bindgen. The page splits a run as the command
//! line's `--shard K/N` does and merges as `woundsim merge` does:
//!
//! * [`plan`]: a request (a built-in scenario's name or scenario text,
//!   with trials, seed and `--set` arguments) parsed and checked: its
//!   name, variants and chunk count, or the error in the user's words;
//! * [`Runner`], in each Web Worker: the worker's range of chunks
//!   ([`Shard::chunks_of`]), stepped a few chunks at a time so the page can
//!   show progress and cancel, into one postcard-encoded part;
//! * [`Merger`], on the page: the parts appended in chunk order (the
//!   one-machine merge tree, so `summary.csv` is byte for byte the CLI's),
//!   then every report file rendered in memory ([`report::render`]).
//!
//! Nothing here reads a file, a clock or the environment: the page passes
//! what it measured (seconds, workers, start time).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use woundsim::engine::shard::{MAX_SHARDS, Shard};
use woundsim::engine::{Engine, NoProgress, Stop};
use woundsim::model::Catalog;
use woundsim::report::manifest::{self, Manifest};
use woundsim::report::{self, run_info};
use woundsim::scenario::MAX_TRIALS;
use woundsim::scenario::ScenarioError;
use woundsim::scenario::command::CommandLayers;
use woundsim::scenario::error::one_line;
use woundsim::scenario::sources::Added;
use woundsim::types::{self, Scenario, State};

/// Longest scenario text the page accepts (as a scenario file's limit).
const MAX_TEXT_BYTES: usize = woundsim::scenario::limits::MAX_FILE_BYTES as usize;

/// Most `--set`/`--scan` arguments a request may carry.
const MAX_LAYERS: usize = 64;

/// What the page asks to run.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// A built-in scenario's name (`death-saves`) ...
    #[serde(default)]
    builtin: Option<String>,
    /// ... or a scenario's text (the editor).
    #[serde(default)]
    text: Option<String>,
    /// Trials per variant (the scenario's own when absent), as a decimal
    /// string: a JavaScript number cannot hold every `u64`.
    #[serde(default)]
    trials: Option<String>,
    /// Seed, a decimal string (the scenario's own when absent).
    #[serde(default)]
    seed: Option<String>,
    /// `--set KEY=VALUE` and `--scan KEY=SPEC` arguments, as written.
    #[serde(default)]
    layers: Vec<String>,
    /// The files the user added beside the scenario text (bestiary files,
    /// character sheets), by name: what `bestiary = [...]` and `import =
    /// "..."` name.
    #[serde(default)]
    files: BTreeMap<String, String>,
}

/// Why a request has no scenario: the request itself (trials, seed,
/// arguments), or the scenario's text (every error, placed).
enum Refusal {
    Request(String),
    Scenario(ScenarioError),
}

impl From<String> for Refusal {
    fn from(e: String) -> Self {
        Refusal::Request(e)
    }
}

impl Refusal {
    /// The refusal in one line of the user's words.
    fn words(&self) -> String {
        match self {
            Refusal::Request(e) => e.clone(),
            Refusal::Scenario(e) => words(e),
        }
    }
}

/// A request's scenario, parsed, with the request's trials and seed.
fn scenario_of(request: &str) -> Result<Scenario, String> {
    checked_scenario(request).map_err(|r| r.words())
}

/// [`scenario_of`], keeping every error of a scenario's text.
fn checked_scenario(request: &str) -> Result<Scenario, Refusal> {
    let request: Request =
        serde_json::from_str(request).map_err(|e| format!("the page's request: {e}"))?;
    if request.layers.len() > MAX_LAYERS {
        return Err(Refusal::Request(format!(
            "{} --set/--scan arguments (at most {MAX_LAYERS})",
            request.layers.len()
        )));
    }
    let layers = CommandLayers::from_args(&request.layers)?;
    let catalog = catalog()?;
    let mut scenario = match (&request.builtin, &request.text) {
        (Some(name), None) => woundsim::builtin::find_with(catalog, name, &layers)
            .ok_or_else(|| format!("there is no built-in scenario `{name}`"))?
            .map_err(Refusal::Scenario)?,
        (None, Some(text)) => {
            if text.len() > MAX_TEXT_BYTES {
                return Err(Refusal::Request(format!(
                    "the scenario is larger than {MAX_TEXT_BYTES} bytes, the most a scenario may have"
                )));
            }
            let files = Added::new(request.files)?;
            types::parse_with_files(catalog, "scenario.toml", text, &layers, &files)
                .map_err(Refusal::Scenario)?
        }
        _ => {
            return Err(Refusal::Request(
                "the page's request names neither one built-in scenario nor one text".into(),
            ));
        }
    };
    if let Some(trials) = &request.trials {
        scenario.header.trials = parse_count(trials, "trials", 1, MAX_TRIALS)?;
    }
    if let Some(seed) = &request.seed {
        scenario.header.seed = parse_count(seed, "seed", 0, u64::MAX)?;
    }
    Ok(scenario)
}

/// `text` as a whole number from `low` to `high`, or an error naming
/// `field`.
fn parse_count(text: &str, field: &str, low: u64, high: u64) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| format!("{field}: `{text}` is not a whole number from {low} to {high}"))
}

/// The built-in game data, parsed once per thread (a worker has one).
fn catalog() -> Result<&'static Catalog, String> {
    thread_local! {
        static CATALOG: &'static Result<Catalog, String> = &*Box::leak(Box::new(
            woundsim::scenario::data::builtin_catalog().map_err(|e| words(&e)),
        ));
    }
    let catalog: &'static Result<Catalog, String> = CATALOG.with(|c| *c);
    catalog.as_ref().map_err(Clone::clone)
}

/// This thread's engine (its one worker is the thread itself).
fn with_engine<T>(f: impl FnOnce(&Engine) -> Result<T, String>) -> Result<T, String> {
    thread_local! {
        static ENGINE: Result<Engine, String> =
            Engine::on_this_thread().map_err(|e| e.to_string());
    }
    ENGINE.with(|engine| f(engine.as_ref().map_err(Clone::clone)?))
}

/// An error as one line of the user's words.
fn words(e: &impl std::fmt::Display) -> String {
    one_line(&e.to_string()).into_owned()
}

fn js(e: String) -> JsError {
    JsError::new(&e)
}

/// A built-in scenario, as the page lists it.
#[derive(Serialize)]
struct Builtin {
    name: String,
    kind: &'static str,
    description: String,
}

/// The shipped scenarios (the default suite and those run on request), as
/// JSON: `[{name, kind, description}]`.
#[wasm_bindgen]
pub fn builtins() -> Result<String, JsError> {
    let catalog = catalog().map_err(js)?;
    let list: Vec<Builtin> = woundsim::builtin::shipped()
        .filter_map(|(file, _)| {
            let name = file.strip_suffix(".toml")?;
            let s = woundsim::builtin::find(catalog, name)?.ok()?;
            Some(Builtin {
                name: name.to_string(),
                kind: s.kind(),
                description: s.header.description.clone(),
            })
        })
        .collect();
    serde_json::to_string(&list).map_err(|e| js(e.to_string()))
}

/// A bestiary entry, as the page's monster pool lists it.
#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    /// Challenge rating (0 where the entry has none).
    cr: f32,
}

/// Every built-in bestiary entry (SRD 5.1 and 5.2) a campaign's monster
/// pool may name, as JSON `[{name, cr}]`, sorted by name.
#[wasm_bindgen]
pub fn bestiary() -> Result<String, JsError> {
    let catalog = catalog().map_err(js)?;
    let list: Vec<Entry<'_>> = catalog
        .bestiary
        .monsters()
        .iter()
        .map(|m| Entry {
            name: &m.key,
            cr: m.spec.challenge,
        })
        .collect();
    serde_json::to_string(&list).map_err(|e| js(e.to_string()))
}

/// A character sheet, as the game master's form shows it.
#[derive(Serialize)]
struct Character {
    name: String,
    /// The class whose template it starts from (most levels).
    class: String,
    /// Its level (all classes).
    level: i64,
    /// The sheet's format, in words (`Foundry VTT`, `D&D Beyond`).
    format: &'static str,
    /// What the entry lists as not modelled.
    not_modelled: Vec<String>,
}

/// A character sheet added by name (`file`: a Foundry VTT character actor
/// or a D&D Beyond character's JSON), read as `party = [{ import = FILE }]`
/// reads it: JSON `{name, class, level, format, not_modelled}`, or the
/// error at its line:column and JSON path.
#[wasm_bindgen]
pub fn character(file: &str, text: &str) -> Result<String, JsError> {
    let catalog = catalog().map_err(js)?;
    if text.len() > MAX_TEXT_BYTES {
        return Err(js(format!(
            "{}: larger than {MAX_TEXT_BYTES} bytes, the most a file may have",
            one_line(file)
        )));
    }
    let (format, c) = woundsim::scenario::data::user_bestiary::character(file, text, catalog)
        .map_err(|e| js(words(&e)))?;
    let key = |name: &str| c.keys.iter().find(|(k, _)| *k == name).map(|(_, v)| v);
    let template = key("template").and_then(|v| v.as_str()).unwrap_or_default();
    let class = template
        .rsplit_once('-')
        .map_or(template, |(c, _)| c)
        .to_string();
    let level = key("level").and_then(|v| v.as_integer()).unwrap_or(1);
    serde_json::to_string(&Character {
        name: c.name.clone(),
        class,
        level,
        format: match format {
            woundsim::scenario::import::Format::DndBeyond => "D&D Beyond",
            _ => "Foundry VTT",
        },
        not_modelled: c.not_modelled.clone(),
    })
    .map_err(|e| js(e.to_string()))
}

/// The text of a shipped scenario (`death-saves`), for the editor.
#[wasm_bindgen]
pub fn builtin_text(name: &str) -> Result<String, JsError> {
    woundsim::builtin::lookup(name)
        .map(|(_, text)| (*text).to_string())
        .ok_or_else(|| js(format!("there is no built-in scenario `{name}`")))
}

/// A request's plan, as the page needs it.
#[derive(Serialize)]
struct Plan {
    name: String,
    kind: &'static str,
    description: String,
    /// Decimal strings (they may exceed a JavaScript number's integers).
    trials: String,
    seed: String,
    variants: Vec<String>,
    /// Chunks of the run (a worker runs a range of them).
    chunks: u64,
    /// Trials × variants of the whole run (for progress).
    work: f64,
}

/// Parses and checks a request (JSON: `{builtin | text, trials?, seed?,
/// layers?}`); its plan as JSON, or the error in the user's words (file,
/// line:column and field for a scenario text).
#[wasm_bindgen]
pub fn plan(request: &str) -> Result<String, JsError> {
    let s = scenario_of(request).map_err(js)?;
    serde_json::to_string(&plan_of(&s)).map_err(|e| js(e.to_string()))
}

/// A scenario's plan.
fn plan_of(s: &Scenario) -> Plan {
    Plan {
        name: s.header.name.clone(),
        kind: s.kind(),
        description: s.header.description.clone(),
        trials: s.header.trials.to_string(),
        seed: s.header.seed.to_string(),
        variants: s.variant_names().iter().map(ToString::to_string).collect(),
        chunks: s.chunks(),
        work: types::work(s) as f64,
    }
}

/// One error of a scenario's text, for the editor.
#[derive(Serialize)]
struct Problem {
    /// 1-based line and column in the text (absent for an error of a
    /// `--set`/`--scan` argument or of the request).
    line: Option<usize>,
    column: Option<usize>,
    /// The field path (`variant[1].dc`), empty for the whole document.
    field: String,
    /// The error in one line, as the command line prints it.
    message: String,
}

/// The editor's check of a request: JSON `{plan}` when it runs, else
/// `{problems: [{line, column, field, message}]}` — every error of the
/// text in file order, each placed where it can be.
#[wasm_bindgen]
pub fn check(request: &str) -> Result<String, JsError> {
    let problems: Vec<Problem> = match checked_scenario(request) {
        Ok(s) => {
            return serde_json::to_string(&serde_json::json!({ "plan": plan_of(&s) }))
                .map_err(|e| js(e.to_string()));
        }
        Err(Refusal::Request(message)) => vec![Problem {
            line: None,
            column: None,
            field: String::new(),
            message,
        }],
        Err(Refusal::Scenario(e)) => e
            .all()
            .into_iter()
            .map(|one| {
                let at = match one {
                    ScenarioError::Invalid(at) if at.file == "scenario.toml" => {
                        (Some(at.line), Some(at.column))
                    }
                    _ => (None, None),
                };
                Problem {
                    line: at.0,
                    column: at.1,
                    field: one.field().unwrap_or_default().to_string(),
                    message: words(one),
                }
            })
            .collect(),
    };
    serde_json::to_string(&serde_json::json!({ "problems": problems }))
        .map_err(|e| js(e.to_string()))
}

/// One worker's part of a run: chunks `start..end` and their counts.
#[derive(Serialize, Deserialize)]
struct Part {
    start: u64,
    end: u64,
    state: State,
}

/// A worker's share of a run: the chunks of shard `index` of `count`
/// (as `woundsim run --shard K/N`), run a few at a time.
#[wasm_bindgen]
pub struct Runner {
    scenario: Scenario,
    start: u64,
    next: u64,
    end: u64,
    state: Option<State>,
}

#[wasm_bindgen]
impl Runner {
    /// The runner of shard `index` (from 0) of `count` for `request`.
    #[wasm_bindgen(constructor)]
    pub fn new(request: &str, index: u32, count: u32) -> Result<Runner, JsError> {
        let scenario = scenario_of(request).map_err(js)?;
        let (index, count) = (u64::from(index), u64::from(count));
        if !(1..=MAX_SHARDS).contains(&count) || index >= count {
            return Err(js(format!("shard {} of {count} does not exist", index + 1)));
        }
        let chunks = Shard { index, count }.chunks_of(scenario.chunks());
        Ok(Runner {
            scenario,
            start: chunks.start,
            next: chunks.start,
            end: chunks.end,
            state: None,
        })
    }

    /// Chunks this runner has left.
    pub fn left(&self) -> f64 {
        (self.end - self.next) as f64
    }

    /// Runs up to `chunks` more chunks; returns the trials × variants
    /// they held (for the progress bar).
    pub fn step(&mut self, chunks: u32) -> Result<f64, JsError> {
        let to = self
            .next
            .saturating_add(u64::from(chunks.max(1)))
            .min(self.end);
        if to == self.next {
            return Ok(0.0);
        }
        let range = self.next..to;
        let later = with_engine(|engine| {
            self.scenario
                .simulate_chunks(engine, range.clone(), &NoProgress)
                .map_err(|e| e.to_string())
        })
        .map_err(js)?;
        match &mut self.state {
            Some(state) => state.append(later).map_err(|e| js(e.to_string()))?,
            None => self.state = Some(later),
        }
        self.next = to;
        let shape = self.scenario.shape();
        let variants = self.scenario.variant_names().len() as f64;
        Ok(shape.trials_in(range) as f64 * variants)
    }

    /// The part, postcard-encoded, once every chunk has run.
    pub fn finish(self) -> Result<Vec<u8>, JsError> {
        if self.next != self.end {
            return Err(js(format!(
                "chunks {}..{} have not run yet",
                self.next, self.end
            )));
        }
        let state = match self.state {
            Some(state) => state,
            // An empty shard (more workers than chunks).
            None => with_engine(|engine| {
                self.scenario
                    .simulate_chunks(engine, self.start..self.start, &NoProgress)
                    .map_err(|e| e.to_string())
            })
            .map_err(js)?,
        };
        let part = Part {
            start: self.start,
            end: self.end,
            state,
        };
        postcard::to_allocvec(&part).map_err(|e| js(e.to_string()))
    }
}

/// The workers' parts of one run, merged in chunk order, then its reports.
#[wasm_bindgen]
pub struct Merger {
    scenario: Scenario,
    parts: Vec<Part>,
}

/// One report file, as the page offers it.
#[derive(Serialize)]
struct File {
    name: String,
    /// UTF-8 text (every file the library renders in a browser is text:
    /// CSV, SVG, HTML, JSON).
    text: String,
}

#[wasm_bindgen]
impl Merger {
    /// A merger for `request` (the request the workers ran).
    #[wasm_bindgen(constructor)]
    pub fn new(request: &str) -> Result<Merger, JsError> {
        Ok(Merger {
            scenario: scenario_of(request).map_err(js)?,
            parts: Vec::new(),
        })
    }

    /// Adds a worker's part ([`Runner::finish`]).
    pub fn add(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        let part: Part = postcard::from_bytes(bytes)
            .map_err(|e| js(format!("a worker's part cannot be read: {e}")))?;
        self.scenario
            .check_state(&part.state, self.scenario.header.trials)
            .map_err(|e| js(format!("a worker's part does not fit the scenario: {e}")))?;
        self.parts.push(part);
        Ok(())
    }

    /// Every report file of the merged run and its verdicts (a campaign's
    /// paired answer in plain words), as JSON `{files: [{name, text}],
    /// verdicts: [{heading, lines}]}`; `seconds` is the simulation's wall time, `workers` the
    /// workers that ran it, `started` the start (RFC 3339).
    pub fn finish(self, seconds: f64, workers: u32, started: &str) -> Result<String, JsError> {
        let Merger {
            scenario,
            mut parts,
        } = self;
        parts.sort_by_key(|p| (p.start, p.end));
        let mut merged: Option<(u64, State)> = None;
        for part in parts.into_iter().filter(|p| p.start != p.end) {
            merged = Some(match merged {
                None if part.start == 0 => (part.end, part.state),
                Some((end, mut state)) if part.start == end => {
                    state.append(part.state).map_err(|e| js(e.to_string()))?;
                    (part.end, state)
                }
                _ => return Err(js("the workers' parts leave a gap".into())),
            });
        }
        let state = match merged {
            Some((end, state)) if end == scenario.chunks() => state,
            _ => return Err(js("the workers' parts do not cover the run".into())),
        };
        let result = scenario
            .finish(state)
            .map_err(|e| js(format!("the merged counts do not fit: {e}")))?
            .described(scenario.variant_descriptions());
        let seconds = if seconds.is_finite() && seconds > 0.0 {
            seconds
        } else {
            0.0
        };
        let run = run_info::ScenarioRun::of(&scenario, scenario.kind(), &result, seconds);
        let info = run_info::RunInfo {
            commit: run_info::COMMIT.map(str::to_string),
            started: Some(started.chars().take(32).collect()),
            wall_seconds: Some(seconds),
            threads: Some(workers as usize),
            trials_per_second: run.trials_per_second,
            scenarios: vec![run],
        };
        let mut files = report::render(std::slice::from_ref(&result), &info, Stop::never())
            .map_err(|e| js(e.to_string()))?;
        // The manifest, as the CLI writes it into a new folder (the PNG
        // files the page draws itself are not in it).
        let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
        let manifest = Manifest {
            run: info,
            ..manifest::plan(None, &names, |_| false).manifest
        };
        files.push((manifest::FILE.to_string(), manifest.to_json()));
        let files: Vec<File> = files
            .into_iter()
            .map(|(name, bytes)| File {
                name,
                text: String::from_utf8_lossy(&bytes).into_owned(),
            })
            .collect();
        let verdicts: Vec<serde_json::Value> = result
            .verdicts
            .iter()
            .map(|v| serde_json::json!({ "heading": v.heading, "lines": v.lines }))
            .collect();
        serde_json::to_string(&serde_json::json!({ "files": files, "verdicts": verdicts }))
            .map_err(|e| js(e.to_string()))
    }
}
