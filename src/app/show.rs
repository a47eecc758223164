//! `woundsim show NAME [--bestiary FILE]`: a built-in scenario's text, else
//! a monster's (of the bestiary, or of the user's files, imported ones
//! included) or a PC template's statblock; an unknown name lists what
//! there is.

use std::io::Write;

use super::{AppError, print};
use crate::builtin;
use crate::model::Catalog;

/// `woundsim show NAME`: a built-in scenario's text, else a monster's or a
/// PC template's statblock.
pub(super) fn show(
    catalog: &Catalog,
    name: &str,
    files: &[std::path::PathBuf],
    out: &mut dyn Write,
) -> Result<(), AppError> {
    let with_files;
    let catalog = if files.is_empty() {
        catalog
    } else {
        let mut bestiary = catalog.bestiary.clone();
        for path in files {
            let (file, text) = crate::scenario::read_file(path)?;
            let (own, _) =
                crate::scenario::data::user_bestiary::read_text(&file, &text, None, catalog)?;
            bestiary = bestiary.merge_over(own);
        }
        with_files = Catalog {
            bestiary,
            ..catalog.clone()
        };
        &with_files
    };
    let file = format!("{name}.toml");
    if let Some((_, text)) = builtin::shipped().find(|(f, _)| *f == file) {
        return print(out, text);
    }
    if let Ok(monster) = catalog.bestiary.resolve(name) {
        return print(out, &crate::combat::statblock::render_monster(monster));
    }
    if let Some(spec) = catalog.templates.template(name) {
        let mut text = crate::combat::statblock::render(&spec);
        let missing = catalog.templates.not_modelled(name).unwrap_or_default();
        if !missing.is_empty() {
            text.push_str("  Class features not modelled (docs/spells.md, \"Class features\"):\n");
            for m in missing {
                text.push_str(&format!("    - {m}\n"));
            }
        }
        return print(out, &text);
    }
    let scenarios: Vec<String> = builtin::shipped()
        .map(|(f, _)| f.trim_end_matches(".toml").to_string())
        .collect();
    let monsters: Vec<String> = catalog
        .bestiary
        .names()
        .into_iter()
        .map(String::from)
        .collect();
    let templates = catalog.templates.names();
    let all: Vec<&str> = scenarios
        .iter()
        .chain(&monsters)
        .chain(&templates)
        .map(String::as_str)
        .collect();
    let hint = crate::scenario::wording::nearest(name, &all)
        .map(|c| format!("did you mean `{c}`? "))
        .unwrap_or_default();
    Err(AppError::Usage(format!(
        "`{name}` is no built-in scenario, monster or PC template; {hint}scenarios: {}; monsters: {} of them, SRD 5.2 slugs such as `adult-red-dragon` and the SRD 5.1 names {} (`woundsim list` names all); templates: CLASS-LEVEL with CLASS one of {} and LEVEL 1 to {}",
        scenarios.join(", "),
        monsters.len(),
        catalog
            .bestiary
            .monsters()
            .iter()
            .filter(|m| m.lore.srd.as_deref() == Some("5.1"))
            .map(|m| m.key.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        catalog.templates.classes().join(", "),
        catalog.templates.max_level()
    )))
}
