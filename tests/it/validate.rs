//! End-to-end tests of `woundsim validate FILE...`: scenarios parsed and
//! validated without running, one line each, exit code 2 if any is invalid.

use crate::common;

use common::cli::woundsim;

#[test]
fn valid_scenarios_are_ok_with_their_type_and_variants() {
    let dir = tempfile::tempdir().unwrap();
    woundsim()
        .current_dir(dir.path())
        .args(["validate", "death-saves", "combat-ogres.toml"])
        .assert()
        .success()
        .stderr("")
        .stdout(
            "death-saves: ok (type death_saves, 6 variants)\n\
             combat-ogres.toml: ok (type combat, 5 variants)\n",
        );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
    woundsim()
        .args(["validate", "death-saves", "--set", "roll=advantage"])
        .assert()
        .success()
        .stdout("death-saves: ok (type death_saves, 6 variants)\n");
}

#[test]
fn each_invalid_scenario_gets_its_error_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "version = 1\nname = \"x\"\ntype = \"death_saves\"\ntrials = 0\nseed = 1\n";
    std::fs::write(dir.path().join("bad.toml"), bad).unwrap();
    woundsim()
        .current_dir(dir.path())
        .args(["validate", "bad.toml", "death-saves", "nope"])
        .assert()
        .code(2)
        .stdout(
            "bad.toml:4:10: field `trials`: trials must be between 1 and 10000000000000, got 0\n\
             death-saves: ok (type death_saves, 6 variants)\n\
             nope: cannot read scenario: no such file, and no built-in scenario of that name (see `woundsim list`)\n",
        )
        .stderr("woundsim: 2 of 3 scenarios are invalid\n");
    woundsim()
        .current_dir(dir.path())
        .args(["validate", "death-saves", "--set", "roll=sideways"])
        .assert()
        .code(2)
        .stdout(predicates::str::starts_with(
            "--set roll=sideways:1:6: field `roll`: ",
        ));
}

/// An option no rule of a variant reads (its rule is off there) is a
/// warning, in `validate` and in `run`; the run still succeeds.
#[test]
fn options_with_no_effect_are_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.toml");
    std::fs::write(
        &file,
        "version = 1\nname = \"w\"\ntype = \"combat\"\ntrials = 200\nseed = 1\n\
         [options]\ninjury_chance = 0.2\nparty = [{ template = \"fighter-3\" }]\n\
         monsters = [{ creature = \"goblin\" }]\n\
         [[variant]]\nname = \"off\"\n[[variant]]\nname = \"on\"\nlingering_injuries = true\n",
    )
    .unwrap();
    let file = file.display().to_string();
    let warning = "`injury_chance` (in [options]) has no effect in variant `off`: no rule there reads it (is the rule it belongs to turned off?)";
    woundsim()
        .args(["validate", &file])
        .assert()
        .success()
        .stdout(format!(
            "{file}: ok (type combat, 2 variants)\n{file}: warning: {warning}\n"
        ));
    woundsim()
        .args(["run", &file, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .success()
        .stderr(predicates::str::contains(format!(
            "woundsim: warning: {file}: {warning}"
        )));
    // With the rule on everywhere, nothing to say; a --set nobody reads is named too.
    woundsim()
        .args(["validate", &file, "--set", "lingering_injuries=true"])
        .assert()
        .success()
        .stdout(format!("{file}: ok (type combat, 2 variants)\n"));
    woundsim()
        .args(["validate", &file, "--set", "bad_weather=true"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "warning: `bad_weather` (in --set bad_weather=true) has no effect in variant `off`",
        ));
}

/// Every invalid variant of a file is reported by `validate`, one line
/// each in file order; `run` reports the first and counts the others.
#[test]
fn every_invalid_variant_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.toml");
    std::fs::write(
        &file,
        "version = 1\nname = \"b\"\ntype = \"death_saves\"\ntrials = 100\nseed = 1\n[options]\ndc = 10\n\
         [[variant]]\nname = \"a\"\ndc = 40\n[[variant]]\nname = \"ok\"\n\
         [[variant]]\nname = \"c\"\nstart_failures = 9\n[[variant]]\nname = \"d\"\ndc = 0\n",
    )
    .unwrap();
    let f = file.display().to_string();
    woundsim()
        .args(["validate", &f])
        .assert()
        .code(2)
        .stdout(format!(
            "{f}:10:6: field `variant[0].dc`: the save DC must be between 1 and 30, got 40\n\
             {f}:15:18: field `variant[2].start_failures`: start_failures must be between 0 and 2, got 9\n\
             {f}:18:6: field `variant[3].dc`: the save DC must be between 1 and 30, got 0\n"
        ));
    woundsim()
        .args(["run", &f, "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(format!(
            "woundsim: {f}:10:6: field `variant[0].dc`: the save DC must be between 1 and 30, got 40 (and 2 more: `woundsim validate` lists them)\n"
        ));
    assert!(!dir.path().join("out").exists());
}

/// Every error of one file, not only the first: errors of reading (a
/// wrong type, an unknown key, a bad list entry spanning lines), of the
/// header and of several settings of one variant, each once and in file
/// order; a key left out after its error is not reported again as missing.
#[test]
fn every_error_within_a_file_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.toml");
    std::fs::write(
        &file,
        "version = 1\nname = \"m\"\ntype = \"death_saves\"\ntrials = 0\nseed = 1\nconfidence = 3.0\n\
         [options]\ndc = \"ten\"\nbogus = 3\nsave_bonus = 50\nexisting_wounds = [\n  \"minor\",\n  5,\n]\n\
         [[variant]]\nname = \"a\"\nroll = \"sideways\"\nstart_failures = 7\nstart_successes = 5\n",
    )
    .unwrap();
    let f = file.display().to_string();
    woundsim()
        .args(["validate", &f])
        .assert()
        .code(2)
        .stdout(format!(
            "{f}:4:10: field `trials`: trials must be between 1 and 10000000000000, got 0\n\
             {f}:6:14: field `confidence`: confidence must be a level from 0.5 to 0.999999, got 3\n\
             {f}:8:6: field `options.dc`: expected a whole number, found the text \"ten\"\n\
             {f}:9:1: field `options.bogus`: unknown key `bogus`; the keys here are `name`, `description`, `dc`, `roll`, `save_bonus`, `start_successes`, `start_failures`, `wound_policy`, `existing_wounds`\n\
             {f}:10:14: field `options.save_bonus`: save_bonus must be between -20 and 20, got 50\n\
             {f}:13:3: field `options.existing_wounds[1]`: wanted string or table\n\
             {f}:17:8: field `variant[0].roll`: must be one of `normal`, `advantage`, `disadvantage`; found `sideways`\n\
             {f}:18:18: field `variant[0].start_failures`: start_failures must be between 0 and 2, got 7\n\
             {f}:19:19: field `variant[0].start_successes`: start_successes must be between 0 and 2, got 5\n"
        ));
    // A required key with a bad value: its error once, no "missing" after.
    std::fs::write(
        &file,
        "version = 1\nname = \"m\"\ntype = \"death_saves\"\ntrials = \"many\"\nseed = 1\n",
    )
    .unwrap();
    woundsim()
        .args(["validate", &f])
        .assert()
        .code(2)
        .stdout(predicates::str::starts_with(format!(
            "{f}:4:10: field `trials`: "
        )))
        .stdout(predicates::function::function(|out: &str| {
            out.lines().count() == 1
        }));
    // A syntax error cannot be stepped over: it alone is reported.
    std::fs::write(
        &file,
        "version = 1\nname = \"m\"\ntype = \"death_saves\"\ntrials = [1,\nseed = 1\ndc = 99\n",
    )
    .unwrap();
    woundsim()
        .args(["validate", &f])
        .assert()
        .code(2)
        .stdout(predicates::function::function(|out: &str| {
            out.lines().count() == 1
        }));
}

/// Each bad entry of a combat side and the fight's other settings are
/// all reported at once.
#[test]
fn every_bad_combatant_and_setting_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.toml");
    std::fs::write(
        &file,
        "version = 1\nname = \"c\"\ntype = \"combat\"\ntrials = 100\nseed = 1\n[options]\n\
         party = [\n  { template = \"wizzard-5\" },\n  { template = \"rogue-25\" },\n]\n\
         monsters = [{ creature = \"goblin\", count = -1 }, { creature = \"dragun\" }]\nround_cap = 0\n",
    )
    .unwrap();
    let f = file.display().to_string();
    let out = woundsim().args(["validate", &f]).assert().code(2);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let fields: Vec<&str> = text
        .lines()
        .map(|l| l.split('`').nth(1).unwrap_or_default())
        .collect();
    assert_eq!(
        fields,
        [
            "options.party[0].template",
            "options.party[1].template",
            "options.monsters[0].count",
            "options.monsters[1].creature",
            "options.round_cap"
        ],
        "{text}"
    );
}
