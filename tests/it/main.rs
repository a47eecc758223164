//! The integration tests, one binary (`cargo test --test it`): each module
//! below was once a test binary of its own. One binary links the crate
//! once, which keeps a clean `cargo test` fast and `target/` small.
//! [`common`] holds the helpers every module shares.

mod common;

mod amputation;
mod check;
mod check_false_alarms;
mod check_inputs;
mod cli;
mod cli_inputs;
mod combat;
mod combat_endings;
mod conveniences;
mod crafted_states;
mod deploy;
mod docs_links;
mod encounter_difficulty;
mod exact_agreement;
mod figure_trials;
mod golden;
mod hostile_folders;
mod html_report;
mod import;
mod injury_agreement;
mod injury_cli;
mod interrupt;
mod layers;
mod overrides;
mod ownership;
mod pc_templates;
mod positions;
mod precision;
mod run_metadata;
mod scan;
mod scenario_fixtures;
mod shards;
mod solve;
mod srd_bestiary;
mod stdout_formats;
mod validate;
mod wound_readings;
