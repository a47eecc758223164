//! Test fixtures: the shipped data files, parsed once for every unit test
//! that needs real SRD creatures or the default injury table.

use std::sync::OnceLock;

use crate::model::Catalog;

/// The built-in catalog.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        crate::scenario::data::builtin_catalog().expect("the shipped data are valid")
    })
}
