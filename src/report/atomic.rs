//! All-or-nothing output: every file is first written to a temporary file
//! beside its destination, and only when all of them are written are they
//! renamed into place. A failed run replaces nothing; an interrupted one
//! leaves at most hidden `.woundsim-*` temporaries, never a truncated report.

use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// Files staged for an all-or-nothing commit.
#[derive(Default)]
pub struct StagedFiles {
    staged: Vec<(NamedTempFile, PathBuf)>,
}

impl StagedFiles {
    /// Writes `bytes` to a temporary file that will become `path`.
    pub fn stage(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".woundsim-")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        tmp.write_all(bytes)?;
        // Temporary files are private (0600); a report is an ordinary file.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))?;
        }
        tmp.as_file().sync_all()?;
        self.staged.push((tmp, path.to_path_buf()));
        Ok(())
    }

    /// Renames every staged file into place; returns the final paths.
    pub fn commit(self) -> std::io::Result<Vec<PathBuf>> {
        let mut done = Vec::with_capacity(self.staged.len());
        for (tmp, path) in self.staged {
            tmp.persist(&path).map_err(|e| e.error)?;
            done.push(path);
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_appears_until_commit_and_dropping_cleans_up() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("sub/a.csv");
        let mut staged = StagedFiles::default();
        staged.stage(&target, b"x,y\n").unwrap();
        assert!(!target.exists());
        drop(staged);
        assert!(!target.exists());
        let leftovers = std::fs::read_dir(dir.path().join("sub")).unwrap().count();
        assert_eq!(leftovers, 0);

        let mut staged = StagedFiles::default();
        staged.stage(&target, b"x,y\n").unwrap();
        assert_eq!(staged.commit().unwrap(), vec![target.clone()]);
        assert_eq!(std::fs::read(&target).unwrap(), b"x,y\n");
    }
}
