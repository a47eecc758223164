//! Scenario types as plugins: each type is one folder here, behind the
//! [`ScenarioType`] trait, and one line of the [`registry!`] below, which
//! generates everything that enumerates the types: the [`Variants`] enum,
//! parsing by `type`, [`Variants::kind`], [`Variants::variant_names`], the
//! Monte Carlo and exact dispatch, the accumulated [`State`] and [`TYPES`].
//! A type left out of one of them is a compile error, not a missing arm.
//!
//! A type's folder holds `mod.rs` (the type, its metric catalogue shared by
//! Monte Carlo and exact mode, and the result assembly), `schema.rs` (TOML
//! settings → validated rules, on [`crate::scenario`]), `mc.rs` (the hot
//! loop and its accumulator) and `exact.rs` (the exact solver, or the
//! reason there is none).
//!
//! A run is split in two steps that the trait keeps apart: accumulating a
//! range of chunks ([`Variants::simulate_chunks`], one machine's shard, one
//! block of a run that watches its intervals) into a serialisable,
//! mergeable [`State`], and turning the merged state into a
//! [`ScenarioResult`] ([`Variants::finish`]).

pub mod amputation;
pub mod campaign;
pub mod combat;
pub mod death_saves;
pub mod festering;
pub mod injuries;
pub mod scan;

use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::engine::checked::{Checked, Misfit, layout_of};
use crate::engine::frontier::{AppendError, Frontier};
use crate::engine::rng::TrialSeeds;
use crate::engine::{Engine, EngineError, Progress, RunShape, Stop};
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::ScenarioResult;
use crate::scenario::command::CommandLayers;
use crate::scenario::layers::Layers;
use crate::scenario::{Document, Named, ScenarioError};

/// One scenario type: how its settings become rules, how its trials run,
/// and how its accumulated counts (or its exact solution) become figures.
pub trait ScenarioType {
    /// The `type` value in scenario files.
    const NAME: &'static str;
    /// Trials per chunk of a run ([`RunShape::chunk_trials`]): a constant
    /// of the type, chosen from the cost of its trial so that a chunk of a
    /// shipped scenario is roughly 10–50 ms of one thread's work
    /// (docs/performance.md, "Chunk sizes"). Changing it changes every
    /// figure of the type, and a state file of another chunk size is
    /// refused by `merge`.
    const CHUNK_TRIALS: u64;
    /// One `[options]` or `[[variant]]` table as written.
    type Raw: DeserializeOwned + Default + Named;
    /// One variant's validated rules.
    type Rules: Clone + std::fmt::Debug + PartialEq + Send + Sync;
    /// What the hot loop reads, compiled once per run from the variants.
    type Prepared<'a>: Sync
    where
        Self: 'a;
    /// The counts of a range of chunks: mergeable in chunk order,
    /// serialisable (a shard's state, written on one machine and merged on
    /// another) and checkable against an empty one of the same scenario
    /// (a state read from a file).
    type Acc: Clone + Checked + Serialize + DeserializeOwned + Send;

    /// Validates one variant's settings (`layers`, highest first) against
    /// the game data.
    fn build(layers: &Layers<Self::Raw>, catalog: &Catalog) -> Result<Self::Rules, ScenarioError>;

    /// Compiles the variants for the hot loop.
    fn prepare(variants: &[Variant<Self::Rules>]) -> Self::Prepared<'_>;

    /// An empty accumulator.
    fn new_acc(prepared: &Self::Prepared<'_>) -> Self::Acc;

    /// Every count of trials `acc` keeps (per variant, or per variant and
    /// metric): a state read from a file must have counted, in each, the
    /// trials of the chunks it covers.
    fn trials_counted(acc: &Self::Acc) -> Vec<u64>;

    /// Runs the trials of one chunk into `acc`, every variant on common
    /// random numbers; returns early (its chunk is then discarded) once
    /// `stop` is requested, which it polls at least once per unit of
    /// bounded cost. `trials` are the seeds of the chunk's trials, each a
    /// pure function of the run's seed and the trial's index (a type that
    /// seeds each trial from them computes the same trials for any chunk
    /// size); `rng` is the chunk's own stream, for a type that draws its
    /// trials' numbers in lockstep from one stream (death saves).
    fn simulate_chunk(
        prepared: &Self::Prepared<'_>,
        rng: &mut Xoshiro256PlusPlus,
        trials: TrialSeeds,
        acc: &mut Self::Acc,
        stop: Stop<'_>,
    );

    /// The figures, distributions and charts of the merged accumulator.
    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<Self::Rules>],
        prepared: &Self::Prepared<'_>,
        acc: &Self::Acc,
    ) -> ScenarioResult;

    /// The exact figures in the shape of a Monte Carlo result (`header`
    /// has `trials = 0`), or `None` where the type has no exact solution.
    fn solve(header: &ScenarioHeader, variants: &[Variant<Self::Rules>]) -> Option<ScenarioResult>;
}

/// The shape of a scenario's run, in chunks of its type's size.
fn shape<T: ScenarioType>(header: &ScenarioHeader) -> RunShape {
    RunShape {
        trials: header.trials,
        seed: header.seed,
        chunk_trials: T::CHUNK_TRIALS,
    }
}

/// Runs chunks `chunks` of a type's run on `engine` with its compiled
/// `prepared` variants, into the frontier of their canonical merge tree.
fn run_frontier<T: ScenarioType>(
    header: &ScenarioHeader,
    prepared: &T::Prepared<'_>,
    engine: &Engine,
    chunks: std::ops::Range<u64>,
    progress: &dyn Progress,
) -> Result<Frontier<T::Acc>, EngineError> {
    engine.run_frontier(
        shape::<T>(header),
        chunks,
        progress,
        || T::new_acc(prepared),
        |rng, first, count, acc, stop| {
            let trials = TrialSeeds::new(header.seed, first..first + count);
            T::simulate_chunk(prepared, rng, trials, acc, stop)
        },
    )
}

/// Runs chunks `chunks` of a type's run on `engine`, into the frontier of
/// their canonical merge tree.
pub fn simulate_chunks<T: ScenarioType>(
    header: &ScenarioHeader,
    variants: &[Variant<T::Rules>],
    engine: &Engine,
    chunks: std::ops::Range<u64>,
    progress: &dyn Progress,
) -> Result<Frontier<T::Acc>, EngineError> {
    run_frontier::<T>(header, &T::prepare(variants), engine, chunks, progress)
}

/// A type's whole run by Monte Carlo.
pub fn simulate_type<T: ScenarioType>(
    header: &ScenarioHeader,
    variants: &[Variant<T::Rules>],
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<ScenarioResult, EngineError> {
    let prepared = T::prepare(variants);
    let chunks = 0..shape::<T>(header).chunks();
    let acc = run_frontier::<T>(header, &prepared, engine, chunks, progress)?
        .total()
        .unwrap_or_else(|| T::new_acc(&prepared));
    Ok(T::finish(header, variants, &prepared, &acc))
}

/// A scenario type with no exact solver.
#[derive(Debug, thiserror::Error)]
#[error("{file}: scenarios of type `{kind}` have no exact solution; run them with `woundsim run`")]
pub struct NoExactSolution {
    /// The scenario's source.
    pub file: String,
    /// Its type.
    pub kind: &'static str,
}

/// A document parsed under its type's schema.
struct Parsed {
    header: ScenarioHeader,
    name_at: (usize, usize),
    variants: Variants,
    scan: Option<crate::results::ScanTable>,
    warnings: Vec<String>,
}

/// The registry: one line per type, `Variant(module::Type)`.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident($ty:ty)),+ $(,)?) => {
        /// A scenario's variants, of its type.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Variants {
            $($(#[$doc])* $variant(Vec<Variant<<$ty as ScenarioType>::Rules>>),)+
        }

        /// The accumulated counts of a range of chunks of a scenario's run:
        /// the frontier of their canonical merge tree.
        #[derive(Clone, serde::Serialize, serde::Deserialize)]
        pub enum State {
            $($(#[$doc])* $variant(Frontier<<$ty as ScenarioType>::Acc>),)+
        }

        /// Scenario types this build knows, in the order messages list them.
        pub const TYPES: &[&str] = &[$(<$ty as ScenarioType>::NAME),+];

        impl Variants {
            /// Scenario type name as written in files.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Variants::$variant(_) => <$ty as ScenarioType>::NAME,)+
                }
            }

            /// Trials per chunk of the type's runs ([`ScenarioType::CHUNK_TRIALS`]).
            pub fn chunk_trials(&self) -> u64 {
                match self {
                    $(Variants::$variant(_) => <$ty as ScenarioType>::CHUNK_TRIALS,)+
                }
            }

            /// Variant names in order.
            pub fn variant_names(&self) -> Vec<&str> {
                match self {
                    $(Variants::$variant(v) => v.iter().map(|v| v.name.as_str()).collect(),)+
                }
            }

            /// Keeps only the variants whose name passes `keep`.
            pub fn retain_variants(&mut self, keep: impl Fn(&str) -> bool) {
                match self {
                    $(Variants::$variant(v) => v.retain(|v| keep(&v.name)),)+
                }
            }

            /// Variant descriptions in order (empty where a variant has none).
            pub fn variant_descriptions(&self) -> Vec<String> {
                match self {
                    $(Variants::$variant(v) => v.iter().map(|v| v.description.clone()).collect(),)+
                }
            }

            /// The document under the schema of its `type`.
            fn parse(
                doc: &Document,
                catalog: &Catalog,
                layers: &CommandLayers,
            ) -> Result<Parsed, ScenarioError> {
                $(if doc.kind() == <$ty as ScenarioType>::NAME {
                    let p = doc.parse(catalog, layers, <$ty as ScenarioType>::build)?;
                    return Ok(Parsed {
                        header: p.header,
                        name_at: p.name_at,
                        variants: Variants::$variant(p.variants),
                        scan: p.scan,
                        warnings: p.warnings,
                    });
                })+
                Err(doc.unknown_type(TYPES))
            }

            /// Runs chunks `chunks` of the scenario's run.
            pub fn simulate_chunks(
                &self,
                header: &ScenarioHeader,
                engine: &Engine,
                chunks: std::ops::Range<u64>,
                progress: &dyn Progress,
            ) -> Result<State, EngineError> {
                Ok(match self {
                    $(Variants::$variant(v) => State::$variant(
                        simulate_chunks::<$ty>(header, v, engine, chunks, progress)?,
                    ),)+
                })
            }

            /// The result of the accumulated state of these variants' whole
            /// run; an error for a state of another type or one whose
            /// merged counts do not fit (a sum that wraps).
            pub fn finish(&self, header: &ScenarioHeader, state: State) -> Result<ScenarioResult, Misfit> {
                match (self, state) {
                    $((Variants::$variant(v), State::$variant(frontier)) => {
                        let prepared = <$ty as ScenarioType>::prepare(v);
                        let fresh = <$ty as ScenarioType>::new_acc(&prepared);
                        let acc = match frontier.try_total()? {
                            Some(acc) => {
                                acc.check_like(&fresh)?;
                                acc
                            }
                            None => fresh,
                        };
                        Ok(<$ty as ScenarioType>::finish(header, v, &prepared, &acc))
                    })+
                    #[allow(unreachable_patterns)]
                    _ => Err(other_type()),
                }
            }

            /// `Ok` when `state` is a state of these variants' type (of a
            /// run of `trials`) whose every accumulator has the shape these
            /// variants give it, holds values a run can produce
            /// ([`Checked::check_like`]) and counted the trials of its
            /// chunks.
            pub fn check_state(&self, state: &State, trials: u64) -> Result<(), Misfit> {
                match (self, state) {
                    $((Variants::$variant(v), State::$variant(frontier)) => {
                        let prepared = <$ty as ScenarioType>::prepare(v);
                        frontier.check_like(&<$ty as ScenarioType>::new_acc(&prepared))?;
                        let shape = RunShape {
                            trials,
                            seed: 0,
                            chunk_trials: <$ty as ScenarioType>::CHUNK_TRIALS,
                        };
                        for node in frontier.nodes() {
                            let counted = <$ty as ScenarioType>::trials_counted(&node.acc);
                            check_trials(&counted, shape, node.start()..node.end())?;
                        }
                        Ok(())
                    })+
                    #[allow(unreachable_patterns)]
                    _ => Err(other_type()),
                }
            }

            fn simulate(
                &self,
                header: &ScenarioHeader,
                engine: &Engine,
                progress: &dyn Progress,
            ) -> Result<ScenarioResult, EngineError> {
                match self {
                    $(Variants::$variant(v) => simulate_type::<$ty>(header, v, engine, progress),)+
                }
            }

            fn solve(&self, header: &ScenarioHeader) -> Option<ScenarioResult> {
                match self {
                    $(Variants::$variant(v) => <$ty as ScenarioType>::solve(header, v),)+
                }
            }
        }

        impl State {
            /// Appends `later`, the state of the chunks right after this
            /// one's, with checked arithmetic; an error for another type's
            /// state, a range that does not follow on or a sum that wraps
            /// (`self` is then to be discarded).
            pub fn append(&mut self, later: State) -> Result<(), AppendError> {
                match (self, later) {
                    $((State::$variant(a), State::$variant(b)) => a.try_append(b),)+
                    #[allow(unreachable_patterns)]
                    _ => Err(other_type().into()),
                }
            }

            /// A description of the serialised layout of every type's
            /// accumulator, in registry order ([`Checked::layout`]); a
            /// state file carries its SHA-256 ([`State::layout_hash`]).
            pub fn layout() -> String {
                let mut out = String::new();
                $(
                    out.push_str(<$ty as ScenarioType>::NAME);
                    out.push('=');
                    out.push_str(&layout_of::<<$ty as ScenarioType>::Acc>());
                    out.push(';');
                )+
                out
            }

            /// The state's scenario type as written in files.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(State::$variant(_) => <$ty as ScenarioType>::NAME,)+
                }
            }

            /// Trials per chunk of the state's type in this build
            /// ([`ScenarioType::CHUNK_TRIALS`]).
            pub fn chunk_trials(&self) -> u64 {
                match self {
                    $(State::$variant(_) => <$ty as ScenarioType>::CHUNK_TRIALS,)+
                }
            }

            /// The chunks the state covers, `start..end` (`0..0` when empty)
            /// and whether its merge tree is well formed.
            pub fn coverage(&self) -> (std::ops::Range<u64>, bool) {
                match self {
                    $(State::$variant(f) => (f.range(), f.is_well_formed()),)+
                }
            }
        }
    };
}

registry! {
    /// `type = "death_saves"`: death-save sequences, optionally with permanent wounds.
    DeathSaves(death_saves::DeathSaves),
    /// `type = "injuries"`: lingering injuries from crits and fumbles, and their healing cost.
    Injuries(injuries::Injuries),
    /// `type = "festering"`: the festering-wound tending process.
    Festering(festering::Festering),
    /// `type = "amputation"`: cutting off a limb against the clock, and reattaching it.
    Amputation(amputation::Amputation),
    /// `type = "combat"`: a party against monsters, one encounter or a chain.
    Combat(combat::Combat),
    /// `type = "campaign"`: a party's career under the standard or harsh healing setting.
    Campaign(campaign::Campaign),
}

/// `Ok` when every count of trials in `counted` is the number of trials
/// of `chunks` in a run of `shape`.
fn check_trials(
    counted: &[u64],
    shape: RunShape,
    chunks: std::ops::Range<u64>,
) -> Result<(), Misfit> {
    let trials = shape.trials;
    let want = shape.trials_in(chunks.clone());
    match counted.iter().find(|&&n| n != want) {
        None => Ok(()),
        Some(n) => Err(Misfit::new(format!(
            "counted {n} trials in chunks {}..{}, which hold {want} trials of the run's {trials}",
            chunks.start, chunks.end
        ))),
    }
}

fn other_type() -> Misfit {
    Misfit::new("the state is of another scenario type")
}

impl State {
    /// The SHA-256 (hex) of [`State::layout`]: two builds whose
    /// accumulators are laid out alike have the same hash, so a state of a
    /// build with another layout is refused before its counts are read.
    pub fn layout_hash() -> &'static str {
        static HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
            crate::scenario::digest::sha256_hex(State::layout().as_bytes())
        });
        &HASH
    }
}

/// A validated scenario.
pub type Scenario = crate::model::Scenario<Variants>;

impl Scenario {
    /// Scenario type name as written in files.
    pub fn kind(&self) -> &'static str {
        self.variants.kind()
    }

    /// Variant names in order.
    pub fn variant_names(&self) -> Vec<&str> {
        self.variants.variant_names()
    }

    /// Variant descriptions in order (empty where a variant has none).
    pub fn variant_descriptions(&self) -> Vec<String> {
        self.variants.variant_descriptions()
    }

    /// The shape of the scenario's run: its trials and seed, in chunks of
    /// its type's size.
    pub fn shape(&self) -> RunShape {
        RunShape {
            trials: self.header.trials,
            seed: self.header.seed,
            chunk_trials: self.variants.chunk_trials(),
        }
    }

    /// Chunks of the scenario's run ([`ScenarioType::CHUNK_TRIALS`] trials
    /// each, the last one shorter).
    pub fn chunks(&self) -> u64 {
        self.shape().chunks()
    }

    /// Runs chunks `chunks` of the scenario's run into a [`State`].
    pub fn simulate_chunks(
        &self,
        engine: &Engine,
        chunks: std::ops::Range<u64>,
        progress: &dyn Progress,
    ) -> Result<State, EngineError> {
        self.variants
            .simulate_chunks(&self.header, engine, chunks, progress)
    }

    /// `result` with this scenario's scan (the types' results know none).
    pub fn scanned(&self, mut result: ScenarioResult) -> ScenarioResult {
        result.scan = self.scan.clone();
        if let Some(charts) = scan::charts(&result) {
            result.charts = charts;
        }
        result
    }

    /// `Ok` when `state`, of a run of `trials`, is a state of this
    /// scenario whose accumulators fit it ([`Variants::check_state`]).
    pub fn check_state(&self, state: &State, trials: u64) -> Result<(), Misfit> {
        self.variants.check_state(state, trials)
    }

    /// The result of the state of the whole run (an error: a state of
    /// another type, or merged counts that wrap).
    pub fn finish(&self, state: State) -> Result<ScenarioResult, Misfit> {
        self.variants
            .finish(&self.header, state)
            .map(|r| self.scanned(r))
    }
}

/// Parses and validates scenario text; `file` names it in errors.
pub fn parse(catalog: &Catalog, file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    parse_with(catalog, file, text, &CommandLayers::default())
}

/// Parses and validates scenario text with `--set` overrides over every
/// variant (errors about an override name its flag).
pub fn parse_with(
    catalog: &Catalog,
    file: &str,
    text: &str,
    layers: &CommandLayers,
) -> Result<Scenario, ScenarioError> {
    parse_with_files(catalog, file, text, layers, &crate::scenario::sources::Disk)
}

/// [`parse_with`], reading the files the scenario names (`bestiary`,
/// `party = [{ import = ... }]`) from `files` instead of the disk: the web
/// page's added files.
pub fn parse_with_files(
    catalog: &Catalog,
    file: &str,
    text: &str,
    layers: &CommandLayers,
    files: &dyn crate::scenario::sources::FileSource,
) -> Result<Scenario, ScenarioError> {
    let doc = Document::probe(file, text, TYPES)?;
    let own;
    let mut inputs = Vec::new();
    let mut file_warnings = Vec::new();
    let catalog = match doc.bestiary() {
        None => catalog,
        Some(list)
            if doc.kind() != <combat::Combat as ScenarioType>::NAME
                && doc.kind() != <campaign::Campaign as ScenarioType>::NAME =>
        {
            return Err(doc.locator().error(
                list.span().start,
                "bestiary",
                format!(
                    "`bestiary` names monster files for combat and campaign scenarios; this is a `{}` scenario",
                    doc.kind()
                ),
            ));
        }
        Some(list) => {
            let (with_files, read, warned) = crate::scenario::data::user_bestiary::with_files(
                catalog,
                file,
                doc.locator(),
                list,
                files,
            )?;
            own = with_files;
            inputs = read;
            file_warnings = warned;
            &own
        }
    };
    let with_characters;
    let catalog = match crate::scenario::data::user_bestiary::with_characters(
        catalog,
        file,
        doc.locator(),
        files,
    )? {
        None => catalog,
        Some((c, read)) => {
            with_characters = c;
            inputs.extend(read);
            &with_characters
        }
    };
    let p = Variants::parse(&doc, catalog, layers).map_err(|e| with_page(e, doc.kind()))?;
    Ok(Scenario {
        source: file.to_string(),
        text: text.to_string(),
        layers: layers.args(),
        name_at: p.name_at,
        header: p.header,
        variants: p.variants,
        scan: p.scan,
        warnings: file_warnings.into_iter().chain(p.warnings).collect(),
        inputs,
    })
}

/// The page of `docs/` that lists every key of each scenario type.
pub const PAGES: &[(&str, &str)] = &[
    ("death_saves", "docs/death-saves.md"),
    ("injuries", "docs/injuries.md"),
    ("festering", "docs/injuries.md"),
    ("amputation", "docs/amputation.md"),
    ("combat", "docs/combat.md"),
    ("campaign", "docs/campaign.md"),
];

/// `error` with the type's page named after each unknown-key message that
/// lists only the nearest keys of a long table.
fn with_page(error: ScenarioError, kind: &str) -> ScenarioError {
    let Some((_, page)) = PAGES.iter().find(|(k, _)| *k == kind) else {
        return error;
    };
    let errors = error
        .into_all()
        .into_iter()
        .map(|e| match e {
            ScenarioError::Invalid(mut l)
                if l.message.contains(crate::scenario::wording::NEAREST_OF) =>
            {
                l.message.push_str(&format!("; every key: {page}"));
                ScenarioError::Invalid(l)
            }
            e => e,
        })
        .collect();
    ScenarioError::from_all(errors).expect("an error stays an error")
}

/// Reads and validates a scenario file.
pub fn load_file(catalog: &Catalog, path: &std::path::Path) -> Result<Scenario, ScenarioError> {
    load_file_with(catalog, path, &CommandLayers::default())
}

/// Reads and validates a scenario file with `--set` overrides.
pub fn load_file_with(
    catalog: &Catalog,
    path: &std::path::Path,
    layers: &CommandLayers,
) -> Result<Scenario, ScenarioError> {
    let (file, text) = crate::scenario::read_file(path)?;
    parse_with(catalog, &file, &text, layers)
}

/// Runs a scenario by Monte Carlo.
pub fn simulate(
    scenario: &Scenario,
    engine: &Engine,
    progress: &dyn Progress,
) -> Result<ScenarioResult, EngineError> {
    scenario
        .variants
        .simulate(&scenario.header, engine, progress)
        .map(|r| scenario.scanned(r))
}

/// Solves a scenario exactly, in the same result shape as a Monte Carlo run
/// (`trials = 0`, intervals collapsed to the point).
pub fn solve(scenario: &Scenario) -> Result<ScenarioResult, NoExactSolution> {
    let header = ScenarioHeader {
        trials: 0,
        ..scenario.header.clone()
    };
    scenario
        .variants
        .solve(&header)
        .map(|r| scenario.scanned(r))
        .ok_or_else(|| NoExactSolution {
            file: scenario.source.clone(),
            kind: scenario.kind(),
        })
}

/// Number of sequences a scenario simulates (trials × variants), for progress bars.
pub fn work(scenario: &Scenario) -> u64 {
    scenario.header.trials
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_has_a_page_that_exists() {
        for kind in TYPES {
            let (_, page) = PAGES
                .iter()
                .find(|(k, _)| k == kind)
                .unwrap_or_else(|| panic!("type `{kind}` has no page"));
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
            assert!(path.is_file(), "{page}");
        }
    }
}
