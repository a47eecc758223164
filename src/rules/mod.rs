//! Rule sets as data plus pure mechanics, one module per rule set.
//!
//! Nothing here does I/O or knows about scenarios, CSV or charts: a rule is a
//! validated value with pure functions that resolve it.

pub mod amputation;
pub mod attack;
pub mod damage;
pub mod death_save_chain;
pub mod death_saves;
pub mod encounter_difficulty;
pub mod festering;
pub mod injury_cures;
pub mod injury_tags;
pub mod limbs;
pub mod lingering;
pub mod permanent_wounds;
pub mod prices;
pub mod reattachment;
pub mod wound_healing;
