//! What the command line lays over scenario files: `--set` overrides
//! ([`super::overrides`]) and `--scan` axes ([`super::scan`]), as one
//! value passed to the parser, recorded in `run.json` and carried by shard
//! states as the arguments written.

use super::overrides::Override;
use super::scan::ScanAxis;

/// What the command line lays over a scenario file: `--set` overrides
/// (highest) and `--scan` axes (over the file's `[scan]` axes of the same
/// key).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommandLayers {
    /// `--set KEY=VALUE`, a later one over an earlier one.
    pub sets: Vec<Override>,
    /// `--scan KEY=SPEC`, crossed in order.
    pub scans: Vec<ScanAxis>,
}

impl CommandLayers {
    /// Only `--set` overrides.
    pub fn sets(sets: &[Override]) -> Self {
        CommandLayers {
            sets: sets.to_vec(),
            scans: Vec::new(),
        }
    }

    /// Whether nothing is laid over the files.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty() && self.scans.is_empty()
    }

    /// The arguments as written (`--set dc=11`, `--scan dc=10:12:1`), for
    /// `run.json` and shard states.
    pub fn args(&self) -> Vec<String> {
        self.sets
            .iter()
            .map(|s| s.flag().to_string())
            .chain(self.scans.iter().map(|a| a.source.clone()))
            .collect()
    }

    /// The layers of [`CommandLayers::args`] (as a shard state carries them).
    pub fn from_args(args: &[String]) -> Result<Self, String> {
        let mut out = CommandLayers::default();
        for arg in args {
            if let Some(set) = arg.strip_prefix("--set ") {
                out.sets
                    .push(Override::parse(set).map_err(|e| format!("{arg}: {e}"))?);
            } else if let Some(scan) = arg.strip_prefix("--scan ") {
                out.scans
                    .push(ScanAxis::parse(scan).map_err(|e| format!("{arg}: {e}"))?);
            } else {
                return Err(format!("`{arg}` is neither a --set nor a --scan"));
            }
        }
        Ok(out)
    }
}
