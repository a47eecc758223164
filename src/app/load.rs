//! Scenario arguments into scenarios: a file, else the built-in scenario of
//! that name, each with the command's `--set` and `--scan` layers laid over
//! it; no argument, the whole built-in suite.

use std::path::Path;

use super::AppError;
use crate::builtin;
use crate::model::Catalog;
use crate::scenario::ScenarioError;
use crate::scenario::command::CommandLayers;
use crate::types::{self, Scenario};

/// Resolves scenario arguments (files, else built-in names); none = all
/// built-ins; each with the command's `--set`/`--scan` `layers`.
pub fn load_scenarios(
    catalog: &Catalog,
    args: &[String],
    layers: &CommandLayers,
) -> Result<Vec<Scenario>, AppError> {
    let scenarios = if args.is_empty() {
        builtin::all_with(catalog, layers)?
    } else {
        args.iter()
            .map(|a| load_one(catalog, a, layers))
            .collect::<Result<Vec<_>, _>>()?
    };
    for (i, s) in scenarios.iter().enumerate() {
        if let Some(first) = scenarios[..i]
            .iter()
            .find(|o| o.header.name == s.header.name)
        {
            return Err(AppError::Usage(format!(
                "{} and {} are both named `{}`: their reports would overwrite each other",
                first.source, s.source, s.header.name
            )));
        }
    }
    Ok(scenarios)
}

/// One scenario argument: a readable regular file is read; anything else
/// (no such file, a folder, an unreadable file, `-`, a pipe or a device)
/// is the built-in scenario of that name if there is one — so a report folder named like a
/// built-in (after `--out .`) does not shadow it — and an error otherwise.
pub(super) fn load_one(
    catalog: &Catalog,
    arg: &str,
    layers: &CommandLayers,
) -> Result<Scenario, ScenarioError> {
    let path = Path::new(arg);
    let file_error = if path.is_file() {
        match types::load_file_with(catalog, path, layers) {
            Err(ScenarioError::Unreadable { reason, .. }) => Some(reason),
            read => return read,
        }
    } else {
        None
    };
    if let Some(found) = builtin::find_with(catalog, arg, layers) {
        return found;
    }
    let reason = match file_error {
        Some(reason) => reason,
        None if path.is_dir() => {
            return Err(ScenarioError::NotAFile {
                file: arg.to_string(),
            });
        }
        None if arg == "-" => {
            "standard input is not read: give the scenario file's path (or a built-in name, see `woundsim list`)".into()
        }
        // There, but not a file: a pipe, a device, a socket.
        None if std::fs::metadata(path).is_ok() => {
            "not a regular file (a pipe, a device or a socket): a scenario is read from a TOML file".into()
        }
        None => {
            let names: Vec<&str> = builtin::shipped()
                .map(|(f, _)| f.trim_end_matches(".toml"))
                .collect();
            let stem = arg.trim_end_matches(".toml");
            match crate::scenario::wording::nearest(stem, &names) {
                Some(near) => format!(
                    "no such file, and no built-in scenario of that name; did you mean `{near}`? (see `woundsim list`)"
                ),
                None => "no such file, and no built-in scenario of that name (see `woundsim list`)"
                    .into(),
            }
        }
    };
    Err(ScenarioError::Unreadable {
        file: arg.to_string(),
        reason,
    })
}
