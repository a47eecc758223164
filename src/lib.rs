//! woundsim: a Monte Carlo statistics and balance simulator for D&D 5e
//! injury rules — death saves, permanent wounds, lingering injuries with
//! festering wounds and healing costs, limb damage and amputation, and
//! combats of parties against monsters ([`combat`]).
//!
//! A scenario (TOML) is validated once into model values ([`scenario`],
//! against the game data of the [`model::Catalog`]); each scenario type
//! ([`types`]) runs its variants on the [`engine`] on common random
//! numbers across threads, deterministically for any thread count, and
//! solves the same model exactly where it is small enough; [`report`]
//! writes CSV, charts and tables. The mechanics live once, in layers that
//! only point down: [`dice`] and [`engine`], then [`rules`], then
//! [`combat`], then [`model`], then [`types`], then [`app`].
//!
//! ```
//! use woundsim::engine::{Engine, NoProgress};
//! use woundsim::{scenario, types};
//!
//! let text = r#"
//!     version = 1
//!     name = "demo"
//!     type = "death_saves"
//!     trials = 200000
//!     seed = 1
//!     [[variant]]
//!     name = "raw"
//! "#;
//! let catalog = scenario::data::builtin_catalog().unwrap();
//! let scenario = types::parse(&catalog, "demo.toml", text).unwrap();
//! let engine = Engine::new(2).unwrap();
//! let mc = types::simulate(&scenario, &engine, &NoProgress).unwrap();
//! let exact = types::solve(&scenario).unwrap();
//! let p = mc.figure("raw", "p_dead").unwrap().estimate;
//! let q = exact.figure("raw", "p_dead").unwrap().estimate.value;
//! assert!(p.low <= q && q <= p.high);
//! ```

#![deny(missing_docs)]

#[cfg(feature = "cli")]
pub mod app;
pub mod builtin;
#[cfg(feature = "cli")]
pub mod cli;
pub mod combat;
pub mod dice;
pub mod engine;
pub mod files;
#[cfg(test)]
mod fixtures;
#[cfg(feature = "cli")]
pub mod gate;
pub mod model;
pub mod report;
pub mod results;
pub mod rules;
pub mod scenario;
#[cfg(feature = "cli")]
pub mod testhook;
pub mod types;
