//! `woundsim validate`: each scenario parsed and validated, not run; one
//! line per scenario (and one per warning or error).

use std::io::Write;

use super::load::load_one;
use super::{AppError, print};
use crate::cli::ValidateArgs;
use crate::model::Catalog;

/// `woundsim validate`: each scenario parsed and validated, not run.
pub(super) fn validate(
    catalog: &Catalog,
    args: ValidateArgs,
    out: &mut dyn Write,
) -> Result<(), AppError> {
    let mut invalid = 0;
    for arg in &args.scenarios {
        let line = match load_one(catalog, arg, &args.layers()) {
            Ok(s) => {
                let name = crate::scenario::error::one_line(arg);
                let mut line = format!(
                    "{name}: ok (type {}, {} variants)",
                    s.kind(),
                    s.variant_names().len()
                );
                for w in &s.warnings {
                    line.push_str(&format!("\n{name}: warning: {w}"));
                }
                line
            }
            Err(e) => {
                invalid += 1;
                e.all()
                    .iter()
                    .map(|e| crate::scenario::error::one_line(&e.to_string()).into_owned())
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        print(out, &format!("{line}\n"))?;
    }
    match invalid {
        0 => Ok(()),
        n => Err(AppError::Usage(format!(
            "{n} of {} scenarios are invalid",
            args.scenarios.len()
        ))),
    }
}
