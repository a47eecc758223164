//! `woundsim import FILE... [--out FILE] [--format F]`: monsters from
//! 5etools, Open5e or Foundry VTT JSON written as woundsim's bestiary TOML
//! ([`crate::scenario::data::user_bestiary::import`], the same conversion a
//! scenario's `bestiary = [...]` reads such a file through). Every file is
//! read and converted before anything is written: an error in any of them
//! writes nothing. A summary per file goes to stderr.

use std::io::Write;

use super::{AppError, print, writable, write_file};
use crate::cli::ImportArgs;
use crate::model::Catalog;
use crate::scenario::ScenarioError;
use crate::scenario::data::user_bestiary;
use crate::scenario::import::Format;
use crate::scenario::limits::MAX_BESTIARY_FILES;

/// `woundsim import`.
pub(super) fn import(
    catalog: &Catalog,
    args: ImportArgs,
    out: &mut dyn Write,
) -> Result<(), AppError> {
    if args.files.len() > MAX_BESTIARY_FILES {
        return Err(AppError::Usage(format!(
            "at most {MAX_BESTIARY_FILES} files at once, not {}",
            args.files.len()
        )));
    }
    if let Some(path) = &args.out {
        writable(path)?;
    }
    let format = args.format.as_deref().and_then(Format::parse);
    let mut parts = Vec::new();
    let mut slugs: Vec<(String, String)> = Vec::new();
    let mut summary = Vec::new();
    for path in &args.files {
        let (file, text) = crate::scenario::read_file(path)?;
        let (found, monsters, toml_text) = user_bestiary::import(&file, &text, format, catalog)?;
        for m in &monsters {
            if let Some((_, earlier)) = slugs.iter().find(|(s, _)| *s == m.slug) {
                return Err(AppError::Scenario(ScenarioError::Invalid(
                    crate::scenario::error::Located {
                        file: file.clone(),
                        line: 1,
                        column: 1,
                        field: m.path.clone(),
                        message: format!(
                            "`{}` is also a creature of {earlier}: give each name once, or import the files apart",
                            m.name
                        ),
                    },
                )));
            }
            slugs.push((m.slug.clone(), file.clone()));
        }
        let notes: usize = monsters.iter().map(|m| m.not_modelled.len()).sum();
        // A file holds monsters or Foundry characters, never both.
        let noun = if monsters
            .iter()
            .any(|m| m.keys.iter().any(|(k, _)| *k == "is_pc"))
        {
            "character"
        } else {
            "monster"
        };
        summary.push(format!(
            "woundsim: {file}: {} {noun}{} ({}); {notes} feature{} not modelled, listed in each entry's not_modelled",
            monsters.len(),
            if monsters.len() == 1 { "" } else { "s" },
            found.name(),
            if notes == 1 { "" } else { "s" },
        ));
        parts.push(toml_text);
    }
    let sources: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
    let text = format!(
        "# A woundsim bestiary written by `woundsim import {}`.\n# Name it in a scenario as `bestiary = [\"FILE\"]`; docs/import.md.\n\n{}",
        sources.join(" "),
        parts.join("\n")
    );
    match &args.out {
        Some(path) => write_file(path, text.as_bytes())?,
        None => print(out, &text)?,
    }
    for line in summary {
        eprintln!("{line}");
    }
    Ok(())
}
