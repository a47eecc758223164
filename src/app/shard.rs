//! The state files of a run's shards (`woundsim run --shard K/N
//! --state-out FILE`, `woundsim merge FILE ...`).
//!
//! Which chunks a shard runs: [`crate::engine::shard::Shard`].
//!
//! **State file.** `MAGIC`, then the SHA-256 of the payload, then the
//! payload: a [`StateFile`] in postcard (a compact, versioned serde binary
//! format). It carries the woundsim version, the state format, the hash of
//! the accumulators' layout ([`State::layout_hash`]), and per
//! scenario its text and the `--set`/`--scan` arguments laid over it (so a
//! merge parses exactly what the shards ran), the text's SHA-256, seed,
//! trials, confidence, the chunk range and the
//! frontier of the range's merge tree ([`crate::engine::frontier`]). It is
//! written atomically (a temporary file beside it, renamed).
//!
//! **Checks.** Nothing in a state file is trusted ([`StateFile::from_bytes`]):
//! another format, version or accumulator layout is refused; every header
//! field is held to the bounds `run` holds its options to (trials,
//! confidence, seconds, the chunk count the trials give, the range, the
//! text's hash), a scenario may appear once, and the merge tree must be the
//! one a run builds. The accumulators are checked against the scenario
//! when it is parsed again (`merge`, [`crate::types::Scenario::check_state`])
//! and merged with checked arithmetic.
//!
//! **Merge.** The states must carry the same version, scenarios, texts,
//! seeds, trials and confidence; their ranges must not overlap and, for
//! reports, must cover every chunk. Appending adjacent frontiers rebuilds
//! the one-machine merge tree exactly, so the reports are byte-identical to
//! a run on one machine, and merges can be merged again (a tree of merges).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{AppError, write_file};
use crate::engine::RunShape;
use crate::report::run_info::sha256_hex;
use crate::scenario::MAX_TRIALS;
use crate::scenario::limits::MAX_NAME_CHARS;
use crate::types::{Scenario, State};

/// First bytes of every state file.
pub const MAGIC: &[u8; 16] = b"woundsim-state\n\0";

/// The layout of [`StateFile`]; a file of another format is refused.
/// Format 4 added the accumulators' layout hash; format 5 the trials per
/// chunk.
pub const FORMAT: u32 = 5;

/// Largest state file `merge` reads (a state is a few KiB per scenario).
pub const MAX_STATE_BYTES: u64 = 256 << 20;

/// One scenario's part of a state file.
#[derive(Clone, Serialize, Deserialize)]
pub struct ScenarioState {
    /// Scenario name.
    pub name: String,
    /// Where the shard read it from (a path, or a built-in).
    pub source: String,
    /// The scenario text.
    pub text: String,
    /// SHA-256 (hex) of `text`.
    pub sha256: String,
    /// The `--set` and `--scan` arguments the shard ran with (format 2).
    pub layers: Vec<String>,
    /// The files the scenario read besides its text, with their hashes
    /// when the shard ran (format 3).
    pub inputs: Vec<crate::model::InputFile>,
    /// Seed of the run.
    pub seed: u64,
    /// Trials per variant.
    pub trials: u64,
    /// Confidence level of the intervals.
    pub confidence: f64,
    /// Trials per chunk of the scenario's type (format 5): a state of
    /// another chunk size is refused.
    pub chunk_trials: u64,
    /// Chunks of the whole run.
    pub chunks: u64,
    /// Chunks this state covers.
    pub start: u64,
    /// One past the last chunk covered.
    pub end: u64,
    /// Seconds the simulation of these chunks took (summed over the
    /// shards merged into it).
    pub seconds: f64,
    /// The accumulated counts.
    pub state: State,
}

/// What a state file holds.
#[derive(Serialize, Deserialize)]
pub struct StateFile {
    /// [`FORMAT`].
    pub format: u32,
    /// The woundsim version that wrote it.
    pub woundsim_version: String,
    /// [`State::layout_hash`] of the build that wrote it (format 4).
    pub layout: String,
    /// One entry per scenario of the run, in run order.
    pub scenarios: Vec<ScenarioState>,
}

/// A state file that cannot be used, with the file and the problem.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {problem}")]
pub struct StateError {
    /// The file.
    pub file: String,
    /// What is wrong, in the user's words.
    pub problem: String,
}

fn error(file: &Path, problem: impl Into<String>) -> StateError {
    StateError {
        file: file.display().to_string(),
        problem: problem.into(),
    }
}

impl ScenarioState {
    /// The state of chunks `start..end` of `scenario`.
    pub fn new(scenario: &Scenario, start: u64, end: u64, state: State, seconds: f64) -> Self {
        ScenarioState {
            name: scenario.header.name.clone(),
            source: scenario.source.clone(),
            text: scenario.text.clone(),
            sha256: sha256_hex(scenario.text.as_bytes()),
            layers: scenario.layers.clone(),
            inputs: scenario.inputs.clone(),
            seed: scenario.header.seed,
            trials: scenario.header.trials,
            confidence: scenario.header.confidence,
            chunk_trials: scenario.shape().chunk_trials,
            chunks: scenario.chunks(),
            start,
            end,
            seconds,
            state,
        }
    }
}

/// Longest `source` a state may name (a path).
const MAX_SOURCE_BYTES: usize = 4096;

impl ScenarioState {
    /// `Ok` when the words a message may repeat are words a run writes:
    /// the name a scenario name (as `run` holds it), the source, the
    /// arguments and the input files' names without control characters.
    fn check_words(&self) -> Result<(), String> {
        let name_ok = (1..=MAX_NAME_CHARS).contains(&self.name.len())
            && self
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !name_ok {
            return Err(format!(
                "field `name`: {:?} is not a scenario name (1 to {MAX_NAME_CHARS} letters, digits, `-` and `_`)",
                self.name
            ));
        }
        let plain = |text: &str| !text.chars().any(char::is_control);
        if !(plain(&self.source) && self.source.len() <= MAX_SOURCE_BYTES) {
            return Err(format!(
                "scenario `{}`, field `source`: not a file name (control characters, or over {MAX_SOURCE_BYTES} bytes)",
                self.name
            ));
        }
        let words = self
            .layers
            .iter()
            .chain(self.inputs.iter().map(|i| &i.file));
        let hashes = self.inputs.iter().map(|i| &i.sha256);
        let hex = |h: &String| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit());
        if !(words.into_iter().all(|w| plain(w)) && hashes.into_iter().all(hex)) {
            return Err(format!(
                "scenario `{}`, field `layers` or `inputs`: an argument or a file name holds a control character, or a file's SHA-256 is not 64 hex digits",
                self.name
            ));
        }
        Ok(())
    }

    /// `Ok` when every field but the accumulators holds what a run of
    /// this build writes; otherwise the field and the problem.
    fn check_header(&self) -> Result<(), (&'static str, String)> {
        if !(1..=MAX_TRIALS).contains(&self.trials) {
            return Err((
                "trials",
                format!("{} trials (a run has 1 to {MAX_TRIALS})", self.trials),
            ));
        }
        crate::cli::parse_level(&self.confidence.to_string())
            .map_err(|problem| ("confidence", problem))?;
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err((
                "seconds",
                format!(
                    "{} seconds (a time must be a finite number, at least 0)",
                    self.seconds
                ),
            ));
        }
        let chunk_trials = self.state.chunk_trials();
        if self.chunk_trials != chunk_trials {
            return Err((
                "chunk_trials",
                format!(
                    "written in chunks of {} trials; this build runs `{}` scenarios in chunks of {chunk_trials} (a state of another chunk size cannot be merged: rerun the shard with this build)",
                    self.chunk_trials,
                    self.state.kind()
                ),
            ));
        }
        let chunks = RunShape {
            trials: self.trials,
            seed: self.seed,
            chunk_trials,
        }
        .chunks();
        if self.chunks != chunks {
            return Err((
                "chunks",
                format!(
                    "{} chunks where {} trials make {chunks}",
                    self.chunks, self.trials
                ),
            ));
        }
        if !(self.start <= self.end && self.end <= self.chunks) {
            return Err((
                "end",
                format!(
                    "chunks {}..{} of a run of {} chunks",
                    self.start, self.end, self.chunks
                ),
            ));
        }
        if sha256_hex(self.text.as_bytes()) != self.sha256 {
            return Err((
                "sha256",
                "the scenario text does not have the SHA-256 recorded with it".into(),
            ));
        }
        let (range, well_formed) = self.state.coverage();
        let covers = if self.start == self.end {
            range.is_empty()
        } else {
            range == (self.start..self.end)
        };
        if !(well_formed && covers) {
            return Err((
                "state",
                format!(
                    "its merge tree is not the one a run of chunks {}..{} builds",
                    self.start, self.end
                ),
            ));
        }
        Ok(())
    }
}

/// [`StateFile`] borrowing its scenarios, for writing (postcard encodes a
/// slice as it encodes a `Vec`).
#[derive(Serialize)]
struct StateFileRef<'a, S> {
    format: u32,
    woundsim_version: &'a str,
    layout: &'a str,
    scenarios: &'a [S],
}

impl StateFile {
    /// The bytes of a state file of `scenarios` (this woundsim's version
    /// and format): magic, checksum, payload.
    pub fn encode<S: Serialize>(scenarios: &[S]) -> Vec<u8> {
        Self::encode_as(
            FORMAT,
            env!("CARGO_PKG_VERSION"),
            State::layout_hash(),
            scenarios,
        )
    }

    /// The bytes of a state file of another format, version or layout
    /// (for tests of what `merge` refuses).
    #[doc(hidden)]
    pub fn encode_as<S: Serialize>(
        format: u32,
        woundsim_version: &str,
        layout: &str,
        scenarios: &[S],
    ) -> Vec<u8> {
        let file = StateFileRef {
            format,
            woundsim_version,
            layout,
            scenarios,
        };
        Self::with_header(&postcard::to_allocvec(&file).expect("a state serialises"))
    }

    /// A state file of `payload`: the magic, the payload's checksum, the
    /// payload (so a fuzzer or a test reaches the payload's checks).
    pub fn with_header(payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(MAGIC.len() + 64 + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(sha256_hex(payload).as_bytes());
        out.extend_from_slice(payload);
        out
    }

    /// Reads and checks a state file: magic, checksum, format, version,
    /// and that every scenario's state is well formed.
    pub fn read(path: &Path) -> Result<StateFile, StateError> {
        use crate::files::read::{ReadError, read_regular};
        let bytes = read_regular(path, MAX_STATE_BYTES).map_err(|e| match e {
            ReadError::NotRegular { kind } => error(path, format!("not a file: it is {kind}")),
            ReadError::TooLarge { .. } => error(
                path,
                format!("larger than a state file can be ({MAX_STATE_BYTES} bytes)"),
            ),
            ReadError::Io(e) => error(path, format!("cannot read it: {e}")),
        })?;
        Self::from_bytes(path, &bytes)
    }

    /// [`Self::read`] of bytes already read from `path`.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<StateFile, StateError> {
        let not_state = || {
            error(
                path,
                "not a woundsim state file (written by `woundsim run --shard K/N --state-out FILE` or `woundsim merge --state-out FILE`)",
            )
        };
        let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or_else(not_state)?;
        if rest.len() < 64 {
            return Err(error(path, "truncated: the file ends inside its header"));
        }
        let (sum, payload) = rest.split_at(64);
        if sum != sha256_hex(payload).as_bytes() {
            return Err(error(
                path,
                "corrupt: its checksum does not match its contents (truncated or damaged in transfer?)",
            ));
        }
        // The format first: a file of another format does not decode as
        // this one.
        let (format, _) = postcard::take_from_bytes::<u32>(payload)
            .map_err(|e| error(path, format!("corrupt: cannot decode it ({e})")))?;
        if format != FORMAT {
            return Err(error(
                path,
                format!("state format {format} (this woundsim reads format {FORMAT})"),
            ));
        }
        // Then the version and the layout: a file of another build does not
        // decode as this one's either.
        let ((_, woundsim_version, layout), _) =
            postcard::take_from_bytes::<(u32, String, String)>(payload)
                .map_err(|e| error(path, format!("corrupt: cannot decode it ({e})")))?;
        let mine = env!("CARGO_PKG_VERSION");
        if woundsim_version != mine {
            // Repeated from the file: escaped, and cut short.
            let theirs: String = woundsim_version.chars().take(32).collect();
            return Err(error(
                path,
                format!(
                    "written by woundsim {}; this is woundsim {mine}: merge states with the version that wrote them",
                    theirs.escape_debug()
                ),
            ));
        }
        if layout != State::layout_hash() {
            return Err(error(
                path,
                "written by a build of woundsim whose accumulators are laid out differently (field `layout`): merge states with the build that wrote them",
            ));
        }
        let file: StateFile = postcard::from_bytes(payload)
            .map_err(|e| error(path, format!("corrupt: cannot decode it ({e})")))?;
        let mut seen = std::collections::HashSet::new();
        for s in &file.scenarios {
            s.check_words().map_err(|problem| error(path, problem))?;
            if !seen.insert(s.name.as_str()) {
                return Err(error(
                    path,
                    format!(
                        "holds scenario `{}` twice: a run holds each scenario once",
                        s.name
                    ),
                ));
            }
            s.check_header().map_err(|(field, problem)| {
                error(
                    path,
                    format!("scenario `{}`, field `{field}`: {problem}", s.name),
                )
            })?;
        }
        Ok(file)
    }

    /// Writes a state file of `scenarios` to `path` atomically, making its
    /// folder if need be (a shard's `--state-out
    /// states/shard-0-of-8.state` on a fresh node).
    pub fn write<S: Serialize>(path: &Path, scenarios: &[S]) -> Result<(), AppError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                AppError::Output(format!(
                    "cannot make the folder `{}`: {e}",
                    parent.display()
                ))
            })?;
        }
        write_file(path, &Self::encode(scenarios))
    }
}

/// The states of one scenario from several files, merged: checks that they
/// belong together and do not overlap; returns the merged state (by chunk
/// order) with the files it came from.
pub fn merge_scenario(parts: Vec<(&Path, ScenarioState)>) -> Result<ScenarioState, StateError> {
    let mut parts = parts;
    parts.sort_by_key(|(_, s)| (s.start, s.end));
    let mut iter = parts.into_iter();
    let (first_path, mut merged) = iter.next().expect("at least one state");
    let first_path = first_path.to_path_buf();
    let mut last_path = first_path.clone();
    for (path, s) in iter {
        let differs = |what: &str| {
            error(
                path,
                format!(
                    "scenario `{}` has another {what} than in {}: the states are not shards of one run",
                    s.name,
                    first_path.display()
                ),
            )
        };
        if s.sha256 != merged.sha256 {
            return Err(differs("scenario text"));
        }
        if s.layers != merged.layers {
            return Err(differs("set of --set/--scan arguments"));
        }
        if s.inputs != merged.inputs {
            return Err(differs(
                "bestiary file (its content changed between the shards)",
            ));
        }
        if s.seed != merged.seed {
            return Err(differs(&format!("seed ({} vs {})", s.seed, merged.seed)));
        }
        if s.trials != merged.trials {
            return Err(differs(&format!(
                "trial count ({} vs {})",
                s.trials, merged.trials
            )));
        }
        if s.confidence.to_bits() != merged.confidence.to_bits() {
            return Err(differs("confidence level"));
        }
        if s.start == s.end {
            continue;
        }
        if merged.start == merged.end {
            let (start, end) = (s.start, s.end);
            merged = ScenarioState { start, end, ..s };
            last_path = path.to_path_buf();
            continue;
        }
        if s.start < merged.end {
            return Err(error(
                path,
                format!(
                    "overlaps {}: both hold chunks {}..{} of scenario `{}` (the same shard twice?)",
                    last_path.display(),
                    s.start,
                    merged.end.min(s.end),
                    s.name
                ),
            ));
        }
        if s.start > merged.end {
            return Err(error(
                path,
                format!(
                    "chunks {}..{} of scenario `{}` are in none of the files (a shard is missing): cannot merge across the gap",
                    merged.end, s.start, s.name
                ),
            ));
        }
        let (end, seconds, name) = (s.end, s.seconds, s.name.clone());
        if let Err(e) = merged.state.append(s.state) {
            return Err(error(
                path,
                format!(
                    "the state of scenario `{name}` does not merge with the earlier shards': {e}"
                ),
            ));
        }
        merged.end = end;
        merged.seconds += seconds;
        if !merged.seconds.is_finite() {
            return Err(error(
                path,
                format!(
                    "scenario `{name}`, field `seconds`: the shards' times add up to more than a time can hold"
                ),
            ));
        }
        last_path = path.to_path_buf();
    }
    Ok(merged)
}

/// The states of several files of one run, merged scenario by scenario:
/// the files must hold the same scenarios in the same order.
pub fn merge_files(files: Vec<(&Path, StateFile)>) -> Result<Vec<ScenarioState>, StateError> {
    let names = |f: &StateFile| {
        f.scenarios
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
    };
    let Some((first_path, first)) = files.first() else {
        return Ok(Vec::new());
    };
    let first_names = names(first);
    let first_path = first_path.to_path_buf();
    let mut columns: Vec<Vec<(&Path, ScenarioState)>> =
        first_names.iter().map(|_| Vec::new()).collect();
    for (path, file) in files {
        let these = names(&file);
        if these != first_names {
            return Err(error(
                path,
                format!(
                    "holds scenarios [{}] where {} holds [{}]: not shards of one run",
                    these.join(", "),
                    first_path.display(),
                    first_names.join(", ")
                ),
            ));
        }
        for (column, s) in columns.iter_mut().zip(file.scenarios) {
            column.push((path, s));
        }
    }
    columns.into_iter().map(merge_scenario).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_format_or_version_is_refused() {
        let path = Path::new("s.state");
        let ok = StateFile::from_bytes(path, &StateFile::encode::<ScenarioState>(&[])).unwrap();
        assert!(ok.scenarios.is_empty());
        // Found by the `merge` fuzz target: the version is repeated from the
        // file, so it is escaped (one line, no control characters).
        let e = StateFile::from_bytes(
            path,
            &StateFile::encode_as::<ScenarioState>(FORMAT, "0.1\n\u{1b}[31m", "x", &[]),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains("written by woundsim 0.1\\n\\u{1b}[31m; this"),
            "{e}"
        );
        let e = StateFile::from_bytes(
            path,
            &StateFile::encode_as::<ScenarioState>(FORMAT, "0.0.1", State::layout_hash(), &[]),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.starts_with("s.state: written by woundsim 0.0.1; this is woundsim "),
            "{e}"
        );
        let e = StateFile::from_bytes(
            path,
            &StateFile::encode_as::<ScenarioState>(FORMAT + 1, "x", "x", &[]),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains(&format!(
                "state format {} (this woundsim reads format {FORMAT})",
                FORMAT + 1
            )),
            "{e}"
        );
        // A file of the previous format is named as such, not as corrupt.
        let e = StateFile::from_bytes(
            path,
            &StateFile::encode_as::<ScenarioState>(FORMAT - 1, "x", "x", &[]),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains(&format!(
                "state format {} (this woundsim reads format {FORMAT})",
                FORMAT - 1
            )),
            "{e}"
        );
        // This version, but accumulators laid out by another build.
        let e = StateFile::from_bytes(
            path,
            &StateFile::encode_as::<ScenarioState>(
                FORMAT,
                env!("CARGO_PKG_VERSION"),
                &sha256_hex(b"another layout"),
                &[],
            ),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(e.contains("laid out differently (field `layout`)"), "{e}");
    }

    #[test]
    fn the_layout_names_every_field_of_every_accumulator() {
        let layout = State::layout();
        for part in [
            "death_saves=JointCounts{counts:[u64],}",
            "festering=FesteringAcc{variants:[VariantAcc{n:u64,",
            "curve_deaths:[u64]",
            "Histogram{first:i64,bins:[u64],underflow:u64,overflow:u64}",
            "PairedRatio{",
        ] {
            assert!(layout.contains(part), "{part} not in {layout}");
        }
        assert_eq!(State::layout_hash().len(), 64);
    }

    /// The state of chunks `chunks` of a death-save scenario of `trials`.
    fn state_of(trials: u64, chunks: std::ops::Range<u64>) -> ScenarioState {
        let catalog = crate::scenario::data::builtin_catalog().unwrap();
        let text = format!(
            "version = 1\ntype = \"death_saves\"\nname = \"ds\"\ntrials = {trials}\nseed = 1\n"
        );
        let scenario = crate::types::parse(&catalog, "ds.toml", &text).unwrap();
        let engine = crate::engine::Engine::new(1).unwrap();
        let (start, end) = (chunks.start, chunks.end);
        let state = scenario
            .simulate_chunks(&engine, chunks, &crate::engine::NoProgress)
            .unwrap();
        ScenarioState::new(&scenario, start, end, state, 0.5)
    }

    fn one_state() -> ScenarioState {
        state_of(10, 0..1)
    }

    fn death_saves_chunk() -> u64 {
        <crate::types::death_saves::DeathSaves as crate::types::ScenarioType>::CHUNK_TRIALS
    }

    #[test]
    fn a_state_of_another_chunk_size_is_refused() {
        let mut s = one_state();
        s.chunk_trials = death_saves_chunk() / 2;
        let e = refusal(&[s]);
        assert!(e.contains("field `chunk_trials`"), "{e}");
        assert!(
            e.contains(&format!("chunks of {}", death_saves_chunk() / 2)),
            "{e}"
        );
        assert!(e.contains("rerun the shard with this build"), "{e}");
    }

    fn refusal(states: &[ScenarioState]) -> String {
        match StateFile::from_bytes(Path::new("s.state"), &StateFile::encode(states)) {
            Ok(_) => "accepted".into(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_header_field_is_held_to_what_a_run_writes() {
        assert_eq!(refusal(&[one_state()]), "accepted");
        type Edit = fn(&mut ScenarioState);
        let cases: [(Edit, &str); 12] = [
            (|s| s.confidence = 0.0, "field `confidence`"),
            (|s| s.confidence = 1.0, "field `confidence`"),
            (|s| s.confidence = 2.0, "field `confidence`"),
            (|s| s.confidence = f64::NAN, "field `confidence`"),
            (|s| s.confidence = -0.5, "field `confidence`"),
            (|s| s.trials = 0, "field `trials`"),
            (|s| s.trials = u64::MAX, "field `trials`"),
            (|s| s.seconds = -1.0, "field `seconds`"),
            (|s| s.seconds = f64::NAN, "field `seconds`"),
            (|s| s.chunks = 2, "field `chunks`"),
            (|s| s.sha256 = "0".repeat(64), "field `sha256`"),
            (|s| s.end = 0, "field `state`"),
        ];
        for (edit, field) in cases {
            let mut s = one_state();
            edit(&mut s);
            let e = refusal(&[s]);
            assert!(
                e.starts_with("s.state: scenario `ds`, ") && e.contains(field),
                "{field}: {e}"
            );
        }
    }

    #[test]
    fn words_a_message_repeats_are_held_to_what_a_run_writes() {
        let mut s = one_state();
        s.name = "a\nb".into();
        assert!(refusal(&[s]).contains("field `name`: \"a\\nb\""));
        let mut s = one_state();
        s.source = "x\u{1b}[31m".into();
        assert!(refusal(&[s]).contains("field `source`"));
        let mut s = one_state();
        s.layers = vec!["dc=1\n".into()];
        assert!(refusal(&[s]).contains("field `layers`"));
        let mut s = one_state();
        s.inputs = vec![crate::model::InputFile {
            file: "m.toml".into(),
            sha256: "\n".into(),
        }];
        assert!(refusal(&[s]).contains("field `layers` or `inputs`"));
    }

    #[test]
    fn a_scenario_held_twice_is_refused() {
        let e = refusal(&[one_state(), one_state()]);
        assert!(e.contains("holds scenario `ds` twice"), "{e}");
    }

    #[test]
    fn seconds_that_add_up_past_a_double_are_refused() {
        let trials = 2 * death_saves_chunk();
        let (mut a, mut b) = (state_of(trials, 0..1), state_of(trials, 1..2));
        a.seconds = f64::MAX;
        b.seconds = f64::MAX;
        let e = merge_scenario(vec![(Path::new("a"), a), (Path::new("b"), b)])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("field `seconds`"), "{e}");
    }
}
