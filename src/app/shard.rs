//! The state files of a run's shards (`woundsim run --shard K/N
//! --state-out FILE`, `woundsim merge FILE ...`).
//!
//! Which chunks a shard runs: [`crate::engine::shard::Shard`].
//!
//! **State file.** `MAGIC`, then the SHA-256 of the payload, then the
//! payload: a [`StateFile`] in postcard (a compact, versioned serde binary
//! format). It carries the woundsim version, the state format, and per
//! scenario its text and the `--set`/`--scan` arguments laid over it (so a
//! merge parses exactly what the shards ran), the text's SHA-256, seed,
//! trials, confidence, the chunk range and the
//! frontier of the range's merge tree ([`crate::engine::frontier`]). It is
//! written atomically (a temporary file beside it, renamed).
//!
//! **Merge.** The states must carry the same version, scenarios, texts,
//! seeds, trials and confidence; their ranges must not overlap and, for
//! reports, must cover every chunk. Appending adjacent frontiers rebuilds
//! the one-machine merge tree exactly, so the reports are byte-identical to
//! a run on one machine, and merges can be merged again (a tree of merges).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{AppError, write_file};
use crate::report::run_info::sha256_hex;
use crate::types::{Scenario, State};

/// First bytes of every state file.
pub const MAGIC: &[u8; 16] = b"woundsim-state\n\0";

/// The layout of [`StateFile`]; a file of another format is refused.
pub const FORMAT: u32 = 3;

/// Largest state file `merge` reads (a state is a few KiB per scenario).
pub const MAX_STATE_BYTES: u64 = 256 << 20;

/// One scenario's part of a state file.
#[derive(Serialize, Deserialize)]
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
            chunks: scenario.chunks(),
            start,
            end,
            seconds,
            state,
        }
    }
}

/// [`StateFile`] borrowing its scenarios, for writing (postcard encodes a
/// slice as it encodes a `Vec`).
#[derive(Serialize)]
struct StateFileRef<'a> {
    format: u32,
    woundsim_version: &'a str,
    scenarios: &'a [ScenarioState],
}

impl StateFile {
    /// The bytes of a state file of `scenarios` (this woundsim's version
    /// and format): magic, checksum, payload.
    pub fn encode(scenarios: &[ScenarioState]) -> Vec<u8> {
        Self::encode_as(FORMAT, env!("CARGO_PKG_VERSION"), scenarios)
    }

    fn encode_as(format: u32, woundsim_version: &str, scenarios: &[ScenarioState]) -> Vec<u8> {
        let file = StateFileRef {
            format,
            woundsim_version,
            scenarios,
        };
        let payload = postcard::to_allocvec(&file).expect("a state serialises");
        let mut out = Vec::with_capacity(MAGIC.len() + 64 + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(sha256_hex(&payload).as_bytes());
        out.extend_from_slice(&payload);
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
        let file: StateFile = postcard::from_bytes(payload)
            .map_err(|e| error(path, format!("corrupt: cannot decode it ({e})")))?;
        let mine = env!("CARGO_PKG_VERSION");
        if file.woundsim_version != mine {
            return Err(error(
                path,
                format!(
                    "written by woundsim {}; this is woundsim {mine}: merge states with the version that wrote them",
                    file.woundsim_version
                ),
            ));
        }
        for s in &file.scenarios {
            let (range, well_formed) = s.state.coverage();
            let empty = s.start == s.end;
            let consistent = well_formed
                && s.start <= s.end
                && s.end <= s.chunks
                && sha256_hex(s.text.as_bytes()) == s.sha256
                && if empty {
                    range.is_empty()
                } else {
                    range == (s.start..s.end)
                };
            if !consistent {
                return Err(error(
                    path,
                    format!(
                        "corrupt: the state of scenario `{}` is inconsistent",
                        s.name
                    ),
                ));
            }
        }
        Ok(file)
    }

    /// Writes a state file of `scenarios` to `path` atomically, making its
    /// folder if need be (a shard's `--state-out
    /// states/shard-0-of-8.state` on a fresh node).
    pub fn write(path: &Path, scenarios: &[ScenarioState]) -> Result<(), AppError> {
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
        let (end, seconds) = (s.end, s.seconds);
        if !merged.state.append(s.state) {
            return Err(error(
                path,
                format!("corrupt: the state of scenario `{}` does not fit", s.name),
            ));
        }
        merged.end = end;
        merged.seconds += seconds;
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
        let ok = StateFile::from_bytes(path, &StateFile::encode(&[])).unwrap();
        assert!(ok.scenarios.is_empty());
        let e = StateFile::from_bytes(path, &StateFile::encode_as(FORMAT, "0.0.1", &[]))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.starts_with("s.state: written by woundsim 0.0.1; this is woundsim "),
            "{e}"
        );
        let e = StateFile::from_bytes(path, &StateFile::encode_as(FORMAT + 1, "x", &[]))
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
        let e = StateFile::from_bytes(path, &StateFile::encode_as(2, "x", &[]))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("state format 2 (this woundsim reads format 3)"),
            "{e}"
        );
    }
}
