//! Shards and merging, end to end: N `woundsim run --shard K/N` processes
//! plus `woundsim merge` write byte-identical folders to one run, for every
//! shipped scenario type, merged in one step or in a tree; and every kind
//! of state that does not belong is refused (exit 2, nothing written).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::cli::woundsim;

/// Four chunks and a bit: shards split inside the run, and 7 shards leave
/// some empty.
const TRIALS: &str = "200000";

/// One shipped scenario of each type.
const ONE_OF_EACH_TYPE: [&str; 5] = [
    "death-saves",
    "lingering-injuries",
    "festering-wounds",
    "amputation",
    "combat-goblin-ambush",
];

/// Every file below `dir`, relative path → bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = fs::read(&path).unwrap();
                out.push((path.strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    out.sort();
    out
}

fn assert_same_folders(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    let names = |f: &[(PathBuf, Vec<u8>)]| f.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(names(&fa), names(&fb));
    assert!(fa.len() > 5, "{:?}", names(&fa));
    for ((path, x), (_, y)) in fa.iter().zip(&fb) {
        assert!(x == y, "{} differs", path.display());
    }
}

/// Runs shard `k` of `n` of `scenarios` into `dir/shard-k-of-n.state`.
fn shard(dir: &Path, scenarios: &[&str], k: u64, n: u64, extra: &[&str]) -> PathBuf {
    // In a folder that does not exist yet: the run makes it.
    let state = dir.join("states").join(format!("shard-{k}-of-{n}.state"));
    woundsim()
        .arg("run")
        .args(scenarios)
        .args([
            "--trials",
            TRIALS,
            "--threads",
            "2",
            "--shard",
            &format!("{k}/{n}"),
        ])
        .arg("--state-out")
        .arg(&state)
        .args(extra)
        .assert()
        .success();
    state
}

fn single(dir: &Path, scenarios: &[&str]) -> PathBuf {
    let out = dir.join("single");
    woundsim()
        .arg("run")
        .args(scenarios)
        .args([
            "--trials",
            TRIALS,
            "--threads",
            "1",
            "--reproducible",
            "-q",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    out
}

fn merge(states: &[PathBuf], out: &Path) -> assert_cmd::assert::Assert {
    woundsim()
        .arg("merge")
        .args(states)
        .args(["--reproducible", "-q", "--out"])
        .arg(out)
        .assert()
}

#[test]
fn shards_merged_at_once_or_in_a_tree_write_the_single_run_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let one = single(tmp.path(), &ONE_OF_EACH_TYPE);
    // Four shards, given to merge out of order.
    let states: Vec<PathBuf> = (0..4)
        .map(|k| shard(tmp.path(), &ONE_OF_EACH_TYPE, k, 4, &[]))
        .collect();
    let merged = tmp.path().join("merged");
    let reversed: Vec<PathBuf> = states.iter().rev().cloned().collect();
    merge(&reversed, &merged).success();
    assert_same_folders(&one, &merged);

    // A tree: (0 + 1), then that + (2 + 3).
    let part = |a: &PathBuf, b: &PathBuf, name: &str| {
        let out = tmp.path().join(name);
        woundsim()
            .arg("merge")
            .arg(a)
            .arg(b)
            .arg("--state-out")
            .arg(&out)
            .args(["-q", "--out"])
            .arg(tmp.path().join("unused"))
            .assert()
            .success();
        out
    };
    let left = part(&states[0], &states[1], "left.state");
    let right = part(&states[2], &states[3], "right.state");
    assert!(
        !tmp.path().join("unused").exists(),
        "a partial merge writes no reports"
    );
    let tree = tmp.path().join("tree");
    merge(&[right, left], &tree).success();
    assert_same_folders(&one, &tree);
}

#[test]
fn more_shards_than_chunks_leave_some_empty_and_still_merge_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let scenarios = ["death-saves"];
    let one = single(tmp.path(), &scenarios);
    let states: Vec<PathBuf> = (0..7)
        .map(|k| shard(tmp.path(), &scenarios, k, 7, &[]))
        .collect();
    let merged = tmp.path().join("merged");
    merge(&states, &merged).success();
    assert_same_folders(&one, &merged);
}

/// Runs `merge` on `states` and checks the refusal: exit 2, the message
/// naming `file` (when given) and containing `says`, nothing written.
fn refused(states: &[&Path], file: Option<&Path>, says: &str) {
    let out = tempfile::tempdir().unwrap().path().join("reports");
    let assert = woundsim()
        .arg("merge")
        .args(states)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(stderr.contains(says), "{says:?} not in {stderr}");
    if let Some(file) = file {
        assert!(stderr.contains(&file.display().to_string()), "{stderr}");
    }
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

#[test]
fn states_that_do_not_belong_together_are_refused_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s = ["death-saves"];
    let a = shard(dir, &s, 0, 2, &[]);
    let b = shard(dir, &s, 1, 2, &[]);
    // Missing: one shard of two.
    refused(&[&a], None, "a shard is missing");
    // Overlapping: the same shard twice.
    refused(&[&a, &a, &b], Some(&a), "overlaps");
    // Another seed, another trial count, another scenario.
    let other_dir = dir.join("other");
    fs::create_dir(&other_dir).unwrap();
    let seed = shard(&other_dir, &s, 1, 2, &["--seed", "99"]);
    refused(&[&a, &seed], Some(&seed), "another seed");
    let trials_dir = dir.join("trials");
    fs::create_dir(&trials_dir).unwrap();
    let trials = trials_dir.join("t.state");
    woundsim()
        .args([
            "run",
            "death-saves",
            "--trials",
            "300000",
            "--shard",
            "1/2",
            "--state-out",
        ])
        .arg(&trials)
        .assert()
        .success();
    refused(&[&a, &trials], Some(&trials), "another trial count");
    let scen_dir = dir.join("scen");
    fs::create_dir(&scen_dir).unwrap();
    let scenario = shard(&scen_dir, &["permanent-wounds"], 1, 2, &[]);
    refused(&[&a, &scenario], Some(&scenario), "not shards of one run");
    // Gap: shards 0 and 2 of 3.
    let g0 = shard(&other_dir, &s, 0, 3, &[]);
    let g2 = shard(&other_dir, &s, 2, 3, &[]);
    refused(&[&g0, &g2], Some(&g2), "in none of the files");
    // Corrupt: one byte flipped, truncated, not a state file, a folder.
    let bytes = fs::read(&b).unwrap();
    let flipped = dir.join("flipped.state");
    let mut f = bytes.clone();
    let last = f.len() - 1;
    f[last] ^= 1;
    fs::write(&flipped, &f).unwrap();
    refused(&[&a, &flipped], Some(&flipped), "checksum does not match");
    let truncated = dir.join("truncated.state");
    fs::write(&truncated, &bytes[..20]).unwrap();
    refused(&[&a, &truncated], Some(&truncated), "truncated");
    let text = dir.join("summary.csv");
    fs::write(&text, "scenario,variant\n").unwrap();
    refused(&[&a, &text], Some(&text), "not a woundsim state file");
    refused(&[&a, dir], Some(dir), "not a file");
    refused(&[&a, &dir.join("nope.state")], None, "cannot read it");
}

#[test]
fn shard_options_are_checked() {
    for bad in ["3/3", "1/0", "a/b", "2"] {
        woundsim()
            .args([
                "run",
                "death-saves",
                "--shard",
                bad,
                "--state-out",
                "x.state",
            ])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("0 <= K < N"));
    }
    // --shard without --state-out.
    woundsim()
        .args(["run", "death-saves", "--shard", "0/2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--state-out"));
}

/// A user bestiary file is part of what the shards ran: its hash travels
/// in the states and `run.json`, and a file changed between the shards and
/// the merge is refused, not merged into figures of two different monsters.
#[test]
fn a_bestiary_file_changed_after_the_shards_ran_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let monsters = dir.join("m.toml");
    let gremlin = "[cave-gremlin]\nhp = 18\nac = 13\nattacks = [{ name = \"claw\", to_hit = 4, damage = \"1d6+2\", type = \"slashing\" }]\n";
    fs::write(&monsters, gremlin).unwrap();
    let scenario = dir.join("g.toml");
    fs::write(
        &scenario,
        "version = 1\nname = \"g\"\ntype = \"combat\"\ntrials = 1000\nseed = 1\nbestiary = [\"m.toml\"]\n\
         [options]\nparty = [{ template = \"fighter-3\" }]\nmonsters = [{ creature = \"cave-gremlin\", count = 2 }]\n",
    )
    .unwrap();
    let s = scenario.display().to_string();
    let a = shard(dir, &[&s], 0, 2, &[]);
    let b = shard(dir, &[&s], 1, 2, &[]);
    let out = dir.join("merged");
    merge(&[a.clone(), b.clone()], &out).success();
    let run: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["scenarios"][0]["inputs"][0]["file"], "m.toml");
    assert_eq!(
        run["scenarios"][0]["inputs"][0]["sha256"]
            .as_str()
            .unwrap()
            .len(),
        64
    );
    fs::write(&monsters, gremlin.replace("hp = 18", "hp = 30")).unwrap();
    refused(
        &[&a, &b],
        None,
        "the bestiary file `m.toml` of scenario `g` changed since the shards ran",
    );
    // A shard run after the change does not belong with one run before it.
    let c = shard(&dir.join("later"), &[&s], 1, 2, &[]);
    refused(&[&a, &c], Some(&c), "another bestiary file");
}

/// Every shipped scenario at its own trial count splits into four shards
/// of even work: the chunk size of each type is small enough that no
/// shard is left empty or with twice another's trials (before chunk sizes
/// were per type, three of the shipped campaign's four shards were empty).
#[test]
fn every_shipped_scenario_splits_into_four_even_shards() {
    use woundsim::engine::shard::Shard;
    let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    for s in woundsim::builtin::all(&catalog).unwrap() {
        let shape = s.shape();
        let trials: Vec<u64> = (0..4)
            .map(|k| shape.trials_in(Shard { index: k, count: 4 }.chunks_of(shape.chunks())))
            .collect();
        let (least, most) = (trials.iter().min().unwrap(), trials.iter().max().unwrap());
        assert!(
            *least > 0 && most <= &(2 * least),
            "{}: trials per shard {trials:?}",
            s.header.name
        );
        assert_eq!(trials.iter().sum::<u64>(), s.header.trials);
    }
}
