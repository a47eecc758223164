//! A run owns what it writes (`DIR/run.json`): the next run into the same
//! folder removes the previous run's files that it does not rewrite, and
//! the folders a run created that are left empty, and never anything else.

use crate::common;

use std::path::Path;

use common::cli::woundsim;
use common::folder::{Entry, snapshot};

fn run(args: &[&str], out: &Path) {
    woundsim()
        .args(args)
        .args(["--trials=2000", "--quiet", "--out"])
        .arg(out)
        .assert()
        .success();
}

/// The files the manifest in `out` lists.
fn manifest_files(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("run.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["woundsim_version"], env!("CARGO_PKG_VERSION"));
    json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

/// Every file under `out`, relative, `/`-separated, sorted.
fn files(out: &Path) -> Vec<String> {
    snapshot(out)
        .into_iter()
        .filter(|(_, e)| matches!(e, Entry::File(_)))
        .map(|(p, _)| p.to_string_lossy().replace('\\', "/"))
        .collect()
}

#[test]
fn a_rerun_with_fewer_scenarios_removes_the_others_reports() {
    // The reproduction: `death-saves permanent-wounds`, then `death-saves`
    // alone, used to leave `permanent-wounds/` beside the new summary.
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("o");
    run(&["run", "death-saves", "permanent-wounds"], &out);
    assert!(out.join("permanent-wounds/rolls.csv").is_file());
    let mut written = manifest_files(&out);
    written.push("run.json".into());
    written.sort();
    assert_eq!(files(&out), written);

    run(&["run", "death-saves"], &out);
    assert!(!out.join("permanent-wounds").exists());
    let mut written = manifest_files(&out);
    assert!(written.iter().all(|f| !f.starts_with("permanent-wounds/")));
    written.push("run.json".into());
    written.sort();
    assert_eq!(files(&out), written);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(!summary.contains("\npermanent-wounds,"));
}

#[test]
fn a_combat_rerun_without_lingering_injuries_drops_the_injury_charts() {
    let root = tempfile::tempdir().unwrap();
    let scenario = root.path().join("fight.toml");
    let write = |injuries: bool| {
        std::fs::write(
            &scenario,
            format!(
                "version = 1\nname = \"fight\"\ntype = \"combat\"\ntrials = 1000\nseed = 1\n\
                 [options]\nparty = [{{ template = \"fighter-5\", name = \"fighter\" }}]\n\
                 monsters = [{{ creature = \"hobgoblin\", count = 2 }}]\n\
                 lingering_injuries = {injuries}\n[[variant]]\nname = \"a\"\n"
            ),
        )
        .unwrap();
    };
    let out = root.path().join("o");
    write(true);
    run(&["run", scenario.to_str().unwrap()], &out);
    assert!(out.join("fight/injuries.png").is_file());
    write(false);
    run(&["run", scenario.to_str().unwrap()], &out);
    assert!(out.join("fight/outcomes.png").is_file());
    assert!(!out.join("fight/injuries.png").exists());
    assert!(!out.join("fight/injuries.svg").exists());
}

#[test]
fn files_and_folders_no_manifest_lists_are_never_removed() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("o");
    // The user's: a file beside the reports, one inside a scenario's
    // folder, a folder the run writes into but did not create, and a file
    // outside the folder that a tampered manifest names.
    std::fs::create_dir_all(out.join("permanent-wounds")).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    std::fs::write(root.path().join("outside.txt"), "mine").unwrap();
    run(&["run", "death-saves", "permanent-wounds"], &out);
    std::fs::write(out.join("death-saves/mine.txt"), "mine").unwrap();
    let manifest = std::fs::read_to_string(out.join("run.json")).unwrap();
    let tampered = manifest.replacen("\"files\": [", "\"files\": [\"../outside.txt\", ", 1);
    std::fs::write(out.join("run.json"), tampered).unwrap();

    run(&["run", "festering-wounds"], &out);
    assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"mine");
    assert_eq!(
        std::fs::read(root.path().join("outside.txt")).unwrap(),
        b"mine"
    );
    // Its reports are gone; the folder stays for the user's file.
    assert_eq!(files(&out.join("death-saves")), ["mine.txt"]);
    // Emptied, but the user made it: it stays.
    assert!(out.join("permanent-wounds").is_dir());
    assert!(files(&out.join("permanent-wounds")).is_empty());
    assert!(out.join("festering-wounds").is_dir());
}

#[test]
fn a_folder_without_a_manifest_keeps_every_file() {
    // A folder written by a version without manifests (or whose manifest
    // was deleted): the run owns nothing there yet.
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("o");
    run(&["run", "death-saves", "permanent-wounds"], &out);
    std::fs::remove_file(out.join("run.json")).unwrap();
    run(&["run", "death-saves"], &out);
    assert!(out.join("permanent-wounds/rolls.csv").is_file());
    // The new manifest claims only the new run's files.
    assert!(
        manifest_files(&out)
            .iter()
            .all(|f| !f.starts_with("permanent-wounds/"))
    );
}
