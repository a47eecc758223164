//! Combat: parties against monsters under 5e rules, with death saves under
//! fire and the permanent-wound option (docs/rules.md, death saves, §2).
//!
//! [`creature`] holds creature statistics as data, [`bestiary`] the SRD
//! monsters and [`templates`] the PC templates, [`policy`] the tactical
//! options and [`encounter`] the round loop; [`wild_shape`] the druid's
//! beast forms.

pub mod ability;
pub mod bestiary;
pub mod creature;
pub mod effect;
pub mod encounter;
pub mod magic_items;
pub mod policy;
pub mod spell;
pub mod statblock;
pub mod templates;
pub mod wild_shape;
pub mod wounds;
