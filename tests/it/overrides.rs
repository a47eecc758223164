//! End-to-end tests of `--set KEY=VALUE`: an option set for every variant
//! over the file's tables, validated like the file, with errors naming the
//! flag; and `--trials` in `100_000` or `1e5` form.

use crate::common;

use common::cli::woundsim;

/// An injuries scenario whose `harsh` variant sets `injury_chance` itself.
const SCENARIO: &str = r#"version = 1
name = "set-test"
type = "injuries"
trials = 5000
seed = 7

[options]
side = "pc"
attacks_made = 3
attacks_received = 3
encounters = 4
injury_chance = 0.05

[[variant]]
name = "base"

[[variant]]
name = "harsh"
injury_chance = 0.10
"#;

/// SCENARIO as it reads with `injury_chance = 0.3` for every variant.
const SCENARIO_AT_0_3: &str = r#"version = 1
name = "set-test"
type = "injuries"
trials = 5000
seed = 7

[options]
side = "pc"
attacks_made = 3
attacks_received = 3
encounters = 4
injury_chance = 0.3

[[variant]]
name = "base"

[[variant]]
name = "harsh"
"#;

/// Runs `woundsim CMD FILE ARGS` on `text` and returns summary.csv.
fn summary(cmd: &str, text: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.toml");
    std::fs::write(&file, text).unwrap();
    woundsim()
        .arg(cmd)
        .arg(&file)
        .args(args)
        .arg("--out")
        .arg(dir.path().join("out"))
        .arg("-q")
        .assert()
        .success()
        .stderr("");
    std::fs::read_to_string(dir.path().join("out/summary.csv")).unwrap()
}

#[test]
fn set_gives_every_variant_the_value_over_its_own_table() {
    let set = summary("run", SCENARIO, &["--set", "injury_chance=0.3"]);
    assert_eq!(set, summary("run", SCENARIO_AT_0_3, &[]));
    assert_ne!(set, summary("run", SCENARIO, &[]), "--set changed nothing");
    let exact = summary("exact", SCENARIO, &["--set", "injury_chance=0.3"]);
    assert_eq!(exact, summary("exact", SCENARIO_AT_0_3, &[]));
}

#[test]
fn a_later_set_wins_and_a_bare_word_is_a_string() {
    let twice = summary(
        "run",
        SCENARIO,
        &["--set", "injury_chance=0.9", "--set", "injury_chance=0.3"],
    );
    assert_eq!(twice, summary("run", SCENARIO_AT_0_3, &[]));
    let monster = SCENARIO_AT_0_3.replace("side = \"pc\"", "side = \"monster\"");
    let want = summary("run", &monster, &[]);
    for arg in ["side=monster", "side=\"monster\"", "side = 'monster'"] {
        let got = summary(
            "run",
            SCENARIO,
            &["--set", "injury_chance=0.3", "--set", arg],
        );
        assert_eq!(got, want, "{arg}");
    }
}

#[test]
fn set_takes_lists_on_a_builtin_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str], out: &str| {
        woundsim()
            .current_dir(dir.path())
            .args(["exact", "permanent-wounds", "-q", "--out", out])
            .args(args)
            .assert()
            .success();
        std::fs::read_to_string(dir.path().join(out).join("summary.csv")).unwrap()
    };
    let plain = run(&[], "a");
    let minor = run(&["--set", "existing_wounds=[\"minor\"]"], "b");
    assert_ne!(plain, minor);
    // Every variant now carries the minor wound of `has-minor` (`raw`
    // never takes wounds, so it is as before).
    let row = |csv: &str, variant: &str| -> Vec<String> {
        csv.lines()
            .filter(|l| l.contains(&format!(",{variant},")))
            .map(|l| l.replace(&format!(",{variant},"), ",V,"))
            .collect()
    };
    assert_eq!(row(&minor, "no-wounds"), row(&plain, "has-minor"));
    assert_ne!(row(&plain, "no-wounds"), row(&plain, "has-minor"));
}

/// `woundsim ARGS` fails with exit code 2, writing nothing, with `stderr`.
fn fails(args: &[&str], stderr: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.toml");
    std::fs::write(&file, SCENARIO).unwrap();
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("FILE", &file.display().to_string()))
        .collect();
    woundsim()
        .current_dir(dir.path())
        .args(&args)
        .args(["--out", "out"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("woundsim: {stderr}\n"));
    assert!(!dir.path().join("out").exists());
}

#[test]
fn a_bad_set_is_a_one_line_error_naming_the_flag() {
    fails(
        &["run", "FILE", "--set", "injury_chance=2"],
        "--set injury_chance=2:1:15: field `injury_chance`: the injury chance must be a probability between 0 and 1, got 2",
    );
    fails(
        &["exact", "FILE", "--set", "injury_chance=2"],
        "--set injury_chance=2:1:15: field `injury_chance`: the injury chance must be a probability between 0 and 1, got 2",
    );
    fails(
        &["run", "FILE", "--set", "side=bogus"],
        "--set side=bogus:1:6: field `side`: must be one of `pc`, `monster`; found `bogus`",
    );
    fails(
        &["run", "FILE", "--set", "injury_chance=\"high\""],
        "--set injury_chance=\"high\":1:15: field `injury_chance`: expected a number, found the text \"high\"",
    );
}

#[test]
fn an_unknown_key_is_named_with_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let out = woundsim()
        .current_dir(dir.path())
        .args([
            "run",
            "lingering-injuries",
            "--set",
            "bogus=1",
            "--out",
            "o",
        ])
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8(out).unwrap();
    assert!(
        stderr.starts_with(
            "woundsim: --set bogus=1:1:1: field `bogus`: unknown key `bogus`; the nearest of the 34 keys here are `name`, `side`, `table`, `potions`, `temple`; every key: docs/injuries.md\n"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    assert!(!dir.path().join("o").exists());
}

#[test]
fn header_keys_and_malformed_sets_are_refused_with_a_pointer() {
    fails(
        &["run", "FILE", "--set", "trials=5"],
        "invalid value 'trials=5' for '--set <KEY=VALUE>': `trials` is a header key, not an option: use --trials N (see --help)",
    );
    fails(
        &["exact", "FILE", "--set", "seed=5"],
        "invalid value 'seed=5' for '--set <KEY=VALUE>': `seed` is a header key, not an option: use --seed S (see --help)",
    );
    fails(
        &["run", "FILE", "--set", "name=x"],
        "invalid value 'name=x' for '--set <KEY=VALUE>': `name` is a header key, not an option: it cannot be set from the command line (see --help)",
    );
    fails(
        &["run", "FILE", "--set", "injury_chance"],
        "invalid value 'injury_chance' for '--set <KEY=VALUE>': expected KEY=VALUE, e.g. injury_chance=0.1 (see --help)",
    );
    fails(
        &["run", "FILE", "--set", "existing_wounds=[\"minor\""],
        "invalid value 'existing_wounds=[\"minor\"' for '--set <KEY=VALUE>': `[\"minor\"` is not a TOML value (unclosed array, expected `]`); quote a string: KEY='\"text\"' (see --help)",
    );
    // A shard state carries its --set arguments (tests/it/scan.rs merges one).
}

#[test]
fn trials_accept_separators_and_whole_scientific_notation() {
    let at = |trials: &str| summary("run", SCENARIO, &["--trials", trials]);
    let want = at("100000");
    assert!(want.contains(",100000,"), "{want}");
    assert_eq!(at("100_000"), want);
    assert_eq!(at("1e5"), want);
    assert!(at("1.5e5").contains(",150000,"));
    fails(
        &["run", "FILE", "--trials", "1.23456e2"],
        "invalid value '1.23456e2' for '--trials <N>': `1.23456e2` is not a whole number of trials from 1 to 10000000000000 (e.g. 100000, 100_000 or 1e5) (see --help)",
    );
}

/// `--set` repeated 50,000 times is read, the last flag winning in every
/// variant. Its cost (linear in the number of flags; it was quadratic) is
/// measured by `cargo bench --bench overrides`, not here.
#[test]
fn fifty_thousand_sets_are_read() {
    use woundsim::scenario::command::CommandLayers;
    use woundsim::scenario::overrides::Override;
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/death-saves.toml"),
    )
    .unwrap();
    let read = |sets: &[Override]| {
        woundsim::types::parse_with(
            common::catalog(),
            "death-saves.toml",
            &text,
            &CommandLayers::sets(sets),
        )
        .unwrap()
    };
    let mut sets = vec![Override::parse("dc=11").unwrap(); 50_000];
    sets.push(Override::parse("dc=12").unwrap());
    let many = read(&sets);
    assert_eq!(many.variant_names().len(), 6);
    // What the scenario reads, not the flags it was given.
    assert!(many.variants == read(&[Override::parse("dc=12").unwrap()]).variants);
    assert!(many.variants != read(&[Override::parse("dc=11").unwrap()]).variants);
}
