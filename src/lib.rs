//! woundsim: a Monte Carlo statistics and balance simulator for D&D 5e
//! injury rules — death saves, permanent wounds, lingering injuries with
//! festering wounds and healing costs, limb damage and amputation, and
//! combats of parties against monsters ([`combat`]).
//!
//! A scenario (TOML) is validated once into rule values; the [`engine`]
//! runs its variants on common random numbers across threads,
//! deterministically for any thread count; [`exact`] solves the same model
//! exactly where it is small enough; [`report`] writes CSV, charts and
//! tables.
//!
//! ```
//! use woundsim::engine::{Engine, NoProgress};
//! use woundsim::scenario;
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
//! let scenario = scenario::parse("demo.toml", text).unwrap();
//! let engine = Engine::new(2).unwrap();
//! let mc = woundsim::sim::simulate(&scenario, &engine, &NoProgress).unwrap();
//! let exact = woundsim::exact::solve(&scenario).unwrap();
//! let p = mc.figure("raw", "p_dead").unwrap().estimate;
//! let q = exact.figure("raw", "p_dead").unwrap().estimate.value;
//! assert!(p.low <= q && q <= p.high);
//! ```

#![deny(missing_docs)]

pub mod app;
pub mod check;
pub mod cli;
pub mod combat;
pub mod dice;
pub mod engine;
pub mod exact;
pub mod report;
pub mod results;
pub mod rules;
pub mod scenario;
pub mod sim;
pub mod testhook;
