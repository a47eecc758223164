//! Fingerprints of what a run read: the SHA-256 of a text, and the files a
//! scenario reads besides its own text (its `bestiary` files), each with
//! its hash, so that `run.json` records them and a merge of shards can
//! tell that a file changed between the shards and the merge.

use sha2::{Digest, Sha256};

use crate::model::InputFile;

/// The lowercase hex SHA-256 of `bytes`.
///
/// ```
/// let h = woundsim::scenario::digest::sha256_hex(b"abc");
/// assert_eq!(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The record of `file` (as the scenario names it), read as `text`.
pub fn input_file(file: &str, text: &str) -> InputFile {
    InputFile {
        file: file.to_string(),
        sha256: sha256_hex(text.as_bytes()),
    }
}
