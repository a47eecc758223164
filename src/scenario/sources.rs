//! Where the files a scenario names come from: its `bestiary = [...]`
//! statblock files and the character sheets of `party = [{ import = ... }]`.
//! The command line reads them from the disk, relative to the scenario
//! file ([`Disk`]); the web page, which has no file system, from the files
//! its user added ([`Added`]). Both give the same text to the same
//! readers, so a scenario parses to the same model either way, and both
//! hold a file to [`MAX_FILE_BYTES`].

use std::collections::BTreeMap;
use std::path::Path;

use super::ScenarioError;
use super::limits::{MAX_BESTIARY_FILES, MAX_FILE_BYTES};

/// A place the files a scenario names are read from.
pub trait FileSource {
    /// The file at `path` (the scenario file's folder joined with the name
    /// as written): its name for messages, and its text.
    fn read(&self, path: &Path) -> Result<(String, String), ScenarioError>;
}

/// The disk: [`super::read_file`] (a regular UTF-8 file of at most
/// [`MAX_FILE_BYTES`], opened without blocking).
pub struct Disk;

impl FileSource for Disk {
    fn read(&self, path: &Path) -> Result<(String, String), ScenarioError> {
        super::read_file(path)
    }
}

/// The most files a user may add beside one scenario: a full bestiary
/// list and as many character sheets as a party holds.
pub const MAX_ADDED_FILES: usize = MAX_BESTIARY_FILES + 8;

/// Files added by name, as the web page holds them: a scenario's file
/// names are looked up as written (`"owlbear.json"`; a leading `./` is
/// the same name).
#[derive(Debug, Default, Clone)]
pub struct Added {
    files: BTreeMap<String, String>,
}

impl Added {
    /// The files `files` (name, text), or why they cannot be used: too
    /// many, a name that is empty, too long or has a folder or a control
    /// character in it, a file larger than a scenario file may be.
    pub fn new(files: BTreeMap<String, String>) -> Result<Self, String> {
        if files.len() > MAX_ADDED_FILES {
            return Err(format!(
                "{} files added (at most {MAX_ADDED_FILES})",
                files.len()
            ));
        }
        for (name, text) in &files {
            let shown = super::error::one_line(name);
            if name.trim().is_empty()
                || name.chars().count() > 200
                || name
                    .chars()
                    .any(|c| c.is_control() || c == '/' || c == '\\')
            {
                return Err(format!(
                    "the added file `{shown}`: a file name is 1 to 200 characters, without folders or control characters"
                ));
            }
            if text.len() as u64 > MAX_FILE_BYTES {
                return Err(format!(
                    "the added file `{shown}` is larger than {MAX_FILE_BYTES} bytes, the most a file may have"
                ));
            }
        }
        Ok(Added { files })
    }
}

impl FileSource for Added {
    fn read(&self, path: &Path) -> Result<(String, String), ScenarioError> {
        let file = path.display().to_string();
        let name = file.strip_prefix("./").unwrap_or(&file);
        match self.files.get(name) {
            Some(text) => Ok((name.to_string(), text.clone())),
            None => Err(ScenarioError::Unreadable {
                file: file.clone(),
                reason: if self.files.is_empty() {
                    "no file has been added: add it beside the scenario first".into()
                } else {
                    format!(
                        "no added file has this name; the added files are {}",
                        self.files
                            .keys()
                            .map(|k| format!("`{}`", super::error::one_line(k)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(pairs: &[(&str, &str)]) -> Result<Added, String> {
        Added::new(
            pairs
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
        )
    }

    #[test]
    fn an_added_file_is_read_by_its_name_as_written() {
        let files = added(&[("owlbear.json", "{}")]).unwrap();
        assert_eq!(
            files.read(Path::new("owlbear.json")).unwrap(),
            ("owlbear.json".to_string(), "{}".to_string())
        );
        assert_eq!(files.read(Path::new("./owlbear.json")).unwrap().1, "{}");
    }

    #[test]
    fn a_missing_file_names_the_files_there_are() {
        let files = added(&[("a.json", "{}"), ("b.toml", "")]).unwrap();
        let e = files.read(Path::new("c.json")).unwrap_err().to_string();
        assert!(
            e.contains("c.json") && e.contains("`a.json`, `b.toml`"),
            "{e}"
        );
        let none = added(&[]).unwrap().read(Path::new("c.json")).unwrap_err();
        assert!(
            none.to_string().contains("no file has been added"),
            "{none}"
        );
    }

    #[test]
    fn added_files_are_held_to_the_limits() {
        let big = "x".repeat(MAX_FILE_BYTES as usize + 1);
        assert!(
            added(&[("big.json", &big)])
                .unwrap_err()
                .contains("larger than")
        );
        assert!(
            added(&[("../etc/passwd", "")])
                .unwrap_err()
                .contains("without folders")
        );
        assert!(added(&[(" ", "")]).unwrap_err().contains("1 to 200"));
        let many: Vec<(String, &str)> = (0..=MAX_ADDED_FILES)
            .map(|i| (format!("f{i}.json"), ""))
            .collect();
        let many: Vec<(&str, &str)> = many.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        assert!(added(&many).unwrap_err().contains("at most"));
    }
}
