//! What the output folder must be able to hold, checked before anything
//! runs: `--out` is (or can become) a folder, each scenario's subfolder is
//! a real folder (not a file, not a link: a run writes only inside its
//! folder), its `run.json` is a regular file if it is anything, and no
//! report path is longer than the system allows — so a run never computes
//! for an hour and then fails to write.

use std::path::Path;

use super::AppError;
use crate::files::inside::{Entry, lookup};
use crate::report::manifest::{self, Manifest};
use crate::scenario::limits::{MAX_REPORT_FILE_NAME, NAME_MAX, PATH_MAX};
use crate::scenario::{Located, ScenarioError};
use crate::types::Scenario;

/// Whether `out` can receive the reports of `scenarios`: an error saying why not.
pub fn can_hold(out: &Path, scenarios: &[Scenario]) -> Result<(), AppError> {
    for part in out.components() {
        let bytes = part.as_os_str().len();
        if bytes > NAME_MAX {
            return Err(AppError::Output(format!(
                "--out `{}`: a folder name of {bytes} bytes is longer than the {NAME_MAX} a file name may have",
                out.display()
            )));
        }
    }
    // The deepest part of `out` that exists must be a folder.
    if let Some(existing) = out
        .ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .find(|p| p.exists())
    {
        not_a_folder(out, existing)?;
    }
    if let Err(e) = Manifest::read(out) {
        return Err(AppError::Refused(format!(
            "cannot write reports into `{}`: its `{}` cannot be the manifest of a run: {e}; remove it or choose another --out",
            out.display(),
            manifest::FILE
        )));
    }
    for s in scenarios {
        let name = &s.header.name;
        not_a_folder(out, &out.join(name))?;
        if lookup(out, Path::new(name)).is_ok_and(|e| e == Entry::Other) {
            return Err(AppError::Output(format!(
                "cannot write reports into `{}`: `{}` is a symbolic link or a special file, and a run writes only inside its folder; remove it or choose another --out",
                out.display(),
                out.join(name).display()
            )));
        }
        // `OUT/NAME/FILE`: the longest path this scenario writes.
        let longest = out.as_os_str().len() + 1 + name.len() + 1 + MAX_REPORT_FILE_NAME;
        if longest > PATH_MAX {
            let (line, column) = s.name_at;
            return Err(ScenarioError::Invalid(Located {
                file: s.source.clone(),
                line,
                column,
                field: "name".into(),
                message: format!(
                    "the reports of `{name}` in `{}` would have paths of up to {longest} bytes, more than the {PATH_MAX} the system allows: choose a shorter --out",
                    out.display()
                ),
            })
            .into());
        }
    }
    Ok(())
}

/// An error if `path`, where the reports in `out` need a folder, is a file.
fn not_a_folder(out: &Path, path: &Path) -> Result<(), AppError> {
    if !path.exists() || path.is_dir() {
        return Ok(());
    }
    Err(AppError::Output(if path == out {
        format!(
            "cannot write reports: `{}` is not a directory",
            path.display()
        )
    } else {
        format!(
            "cannot write reports into `{}`: `{}` is not a directory",
            out.display(),
            path.display()
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    fn death_saves() -> Vec<Scenario> {
        vec![
            builtin::find(crate::fixtures::catalog(), "death-saves")
                .unwrap()
                .unwrap(),
        ]
    }

    #[test]
    fn a_file_where_a_folder_must_go_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("afile");
        std::fs::write(&file, "x").unwrap();
        let e = can_hold(&file, &death_saves()).unwrap_err().to_string();
        let not_a_dir = format!("`{}` is not a directory", file.display());
        assert_eq!(e, format!("cannot write reports: {not_a_dir}"));
        let e = can_hold(&file.join("sub"), &death_saves())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("cannot write reports into `"), "{e}");
        assert!(e.ends_with(&not_a_dir), "{e}");
        std::fs::write(dir.path().join("death-saves"), "x").unwrap();
        let e = can_hold(dir.path(), &death_saves())
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("death-saves` is not a directory"), "{e}");
        assert!(can_hold(&dir.path().join("new/folder"), &[]).is_ok());
    }

    #[test]
    fn a_path_too_long_for_the_system_blames_the_scenario_name() {
        let deep: String = (0..=PATH_MAX / 100)
            .map(|_| format!("{}/", "d".repeat(99)))
            .collect();
        let e = can_hold(Path::new(&deep), &death_saves())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("scenarios/death-saves.toml (built-in):5:8: field `name`: the reports of `death-saves` in"),
            "{e}"
        );
        assert!(e.contains("more than the"), "{e}");
        let long_part = "x".repeat(NAME_MAX + 1);
        let e = can_hold(Path::new(&long_part), &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("256 bytes is longer than the 255"), "{e}");
    }
}
