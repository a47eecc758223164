//! Parameter scans end to end (`--scan`, `[scan]`): a scan's figures are
//! those of the same values written by hand as variants, `scan.csv` holds
//! every figure with its scanned values, the charts are drawn, shards of a
//! scan merge into the one-machine run byte for byte, and bad scans are
//! one-line errors.

use crate::common;

use std::path::Path;

use common::cli::woundsim;

const SCANNED: &str = "version = 1\nname = \"ds\"\ntype = \"death_saves\"\ntrials = 70000\nseed = 11\n\
[options]\ndc = 10\n[[variant]]\nname = \"raw\"\n[[variant]]\nname = \"adv\"\nroll = \"advantage\"\n";

/// The same variants as `SCANNED --scan dc=10,12`, by hand, named as the
/// scan names them.
const BY_HAND: &str = "version = 1\nname = \"ds\"\ntype = \"death_saves\"\ntrials = 70000\nseed = 11\n\
[options]\ndc = 10\n\
[[variant]]\nname = \"raw@dc=10\"\ndc = 10\n\
[[variant]]\nname = \"raw@dc=12\"\ndc = 12\n\
[[variant]]\nname = \"adv@dc=10\"\nroll = \"advantage\"\ndc = 10\n\
[[variant]]\nname = \"adv@dc=12\"\nroll = \"advantage\"\ndc = 12\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn run(args: &[&str], out: &Path) {
    woundsim()
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("-q")
        .assert()
        .success();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_scan_equals_its_values_written_as_variants() {
    let tmp = tempfile::tempdir().unwrap();
    let scanned = write(tmp.path(), "scanned.toml", SCANNED);
    let by_hand = write(tmp.path(), "by-hand.toml", BY_HAND);
    run(&[&scanned, "--scan", "dc=10,12"], &tmp.path().join("scan"));
    run(&[&by_hand], &tmp.path().join("hand"));
    let summary = |d: &str| read(&tmp.path().join(d).join("summary.csv"));
    assert_eq!(summary("scan"), summary("hand"));
    assert_eq!(
        read(&tmp.path().join("scan/ds/rolls.csv")),
        read(&tmp.path().join("hand/ds/rolls.csv"))
    );
    // The same as a [scan] table in the file, and as a range.
    let in_file = write(
        tmp.path(),
        "in-file.toml",
        &SCANNED.replace("[options]", "[scan]\ndc = \"10:12:2\"\n[options]"),
    );
    run(&[&in_file], &tmp.path().join("file"));
    assert_eq!(summary("file"), summary("hand"));
    // scan.csv: one row per figure, with the base variant and the value.
    let csv = read(&tmp.path().join("scan/ds/scan.csv"));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "scenario,variant,base_variant,dc,metric,estimate,ci_low,ci_high,trials,seed"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), summary("scan").lines().count() - 1);
    assert!(
        rows.iter()
            .any(|r| r.starts_with("ds,adv@dc=12,adv,12,p_dead,")),
        "{csv}"
    );
    // One chart per headline metric against dc; no per-variant charts.
    for metric in ["p_dead", "p_stable", "mean_rolls"] {
        let png = tmp.path().join(format!("scan/ds/scan-{metric}.png"));
        assert!(
            std::fs::metadata(&png).unwrap().len() > 1000,
            "{}",
            png.display()
        );
    }
    assert!(!tmp.path().join("scan/ds/outcomes.png").exists());
    let html = read(&tmp.path().join("scan/index.html"));
    assert!(
        html.contains("p_dead against dc"),
        "the HTML report shows the scan charts"
    );
}

#[test]
fn crossed_scans_name_each_combination_with_the_first_key_outermost() {
    let tmp = tempfile::tempdir().unwrap();
    let scanned = write(tmp.path(), "s.toml", SCANNED);
    let out = tmp.path().join("out");
    run(
        &[
            &scanned,
            "--scan",
            "dc=10:11:1",
            "--scan",
            "roll=normal,disadvantage",
            "--trials",
            "1000",
        ],
        &out,
    );
    let csv = read(&out.join("ds/scan.csv"));
    assert!(csv.starts_with("scenario,variant,base_variant,dc,roll,metric,"));
    let variants: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .fold(Vec::new(), |mut v, name| {
            if v.last() != Some(&name) {
                v.push(name);
            }
            v
        });
    assert_eq!(
        variants,
        [
            "raw@dc=10@roll=normal",
            "raw@dc=10@roll=disadvantage",
            "raw@dc=11@roll=normal",
            "raw@dc=11@roll=disadvantage",
            "adv@dc=10@roll=normal",
            "adv@dc=10@roll=disadvantage",
            "adv@dc=11@roll=normal",
            "adv@dc=11@roll=disadvantage",
        ]
    );
    let run_json = read(&out.join("run.json"));
    assert!(run_json.contains("--scan dc=10:11:1"), "{run_json}");
}

#[test]
fn shards_of_a_scan_with_a_set_merge_into_the_one_machine_run() {
    let tmp = tempfile::tempdir().unwrap();
    let scanned = write(tmp.path(), "s.toml", SCANNED);
    let layers = [
        "--scan",
        "dc=9:11:1",
        "--set",
        "wound_policy=accept_least_severe",
        "--trials",
        "140000",
    ];
    run(
        &[&[scanned.as_str()][..], &layers, &["--reproducible"]].concat(),
        &tmp.path().join("one"),
    );
    let mut states = Vec::new();
    for k in 0..3 {
        let state = tmp.path().join(format!("{k}.state"));
        woundsim()
            .arg("run")
            .arg(&scanned)
            .args(layers)
            .args(["--shard", &format!("{k}/3"), "--state-out"])
            .arg(&state)
            .arg("-q")
            .assert()
            .success();
        states.push(state);
    }
    let merged = tmp.path().join("merged");
    woundsim()
        .arg("merge")
        .args(&states)
        .arg("--out")
        .arg(&merged)
        .args(["-q", "--reproducible"])
        .assert()
        .success();
    for file in ["summary.csv", "ds/scan.csv", "ds/rolls.csv", "run.json"] {
        assert_eq!(
            read(&tmp.path().join("one").join(file)),
            read(&merged.join(file)),
            "{file}"
        );
    }
}

#[test]
fn bad_scans_are_one_line_errors_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let scanned = write(tmp.path(), "s.toml", SCANNED);
    let out = tmp.path().join("out");
    let fails = |args: &[&str], message: &str| {
        let assert = woundsim()
            .arg("run")
            .arg(&scanned)
            .args(args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(!out.exists());
    };
    fails(
        &["--scan", "dc=1:2:0.5"],
        "--scan dc=1:2:0.5:1:4: field `dc`: expected a whole number",
    );
    fails(&["--scan", "dc=12:10:1"], "ends below its start");
    fails(
        &["--scan", "dc=10,11", "--set", "dc=3"],
        "`dc` is also scanned",
    );
    fails(&["--scan", "dc=0:2000:1"], "more than 1000 points");
    fails(&["--scan", "dc=1:600:1"], "the scan makes 1200 variants");
    fails(&["--scan", "hp=1,2"], "unknown key `hp`");
    let in_file = write(
        tmp.path(),
        "bad.toml",
        &SCANNED.replace("[options]", "[scan]\ndc = 12\n[options]"),
    );
    let assert = woundsim()
        .args(["run", &in_file, "--out"])
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains("bad.toml:7:1: field `scan.dc`: `dc` in [scan] must be a range"),
        "{stderr}"
    );
}

/// A combat scenario whose variant `off` has no lingering injuries: no
/// rule there reads `injury_chance`.
const HALF_OFF: &str = "version = 1\nname = \"w\"\ntype = \"combat\"\ntrials = 200\nseed = 1\n\
    [options]\ninjury_chance = 0.2\nparty = [{ template = \"fighter-3\" }]\n\
    monsters = [{ creature = \"goblin\" }]\n\
    [[variant]]\nname = \"off\"\n[[variant]]\nname = \"on\"\nlingering_injuries = true\n";

#[test]
fn a_scanned_key_without_effect_in_a_variant_leaves_that_variant_out() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "w.toml", HALF_OFF);
    woundsim()
        .args(["validate", &file, "--scan", "injury_chance=0.1,0.2"])
        .assert()
        .success()
        .stdout(format!(
            "{file}: ok (type combat, 2 variants)\n{file}: warning: variant `off` is left out of the scan: `injury_chance` has no effect in it (no rule there reads it)\n"
        ));
    // In no variant: an error naming the flag, not a scan of flat lines.
    let out = woundsim()
        .args([
            "validate",
            &file,
            "--scan",
            "injury_chance=0.1,0.2",
            "--set",
            "lingering_injuries=false",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stdout).to_string()
        + &String::from_utf8_lossy(&out.get_output().stderr);
    assert!(
        err.contains("--scan injury_chance=0.1,0.2:1:1: field `injury_chance`: `injury_chance` has no effect in any variant"),
        "{err}"
    );
}

#[test]
fn solve_varies_the_first_variant_where_the_key_has_an_effect() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "w.toml", HALF_OFF);
    let out = woundsim()
        .args([
            "solve",
            &file,
            "--vary",
            "injury_chance=0.05:0.9",
            "--metric",
            "nope",
            "--target",
            "1",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("`injury_chance` has no effect in variant `off`: solving for `on`"),
        "{err}"
    );
    assert!(err.contains("no such figure for variant `on`"), "{err}");
}

#[test]
fn solve_says_a_share_is_not_a_percentage() {
    let out = woundsim()
        .args([
            "solve",
            "death-saves",
            "--vary",
            "dc=5:20",
            "--metric",
            "p_dead",
            "--target",
            "50",
            "--trials",
            "2000",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("--target 50: `p_dead` is a share from 0 to 1, not a percentage; for 50% write --target 0.5"),
        "{err}"
    );
}

/// The text drawn by an SVG chart, one entry per `<text>` element, with
/// `&quot;` read back.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().replace("&quot;", "\""))
        })
        .collect()
}

#[test]
#[ignore = "no built-in scan reaches the 24-chart cap since every type names its headline metrics (issue 29.6): needs a scenario or a unit test that does"]
fn a_capped_scan_says_so_on_each_chart_in_a_note_that_is_not_cut_off() {
    // lingering-injuries has more headline metrics than a scan charts (28).
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run(
        &[
            "lingering-injuries",
            "--scan",
            "injury_chance=0.1,0.2",
            "--trials",
            "1000",
        ],
        &out,
    );
    let dir = out.join("lingering-injuries");
    let charts: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("scan-") && n.ends_with(".svg"))
        .collect();
    assert_eq!(charts.len(), 24, "{charts:?}");
    for chart in &charts {
        let texts = svg_texts(&read(&dir.join(chart)));
        let note = texts
            .iter()
            .find(|t| {
                t.starts_with("24 of ") && t.contains(" metrics charted; all are in scan.csv.")
            })
            .unwrap_or_else(|| panic!("{chart}: no cap note in {texts:?}"));
        let n: usize = note["24 of ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(n > 24, "{note}");
        // Not in the title, which it would push off the canvas.
        assert!(!texts[0].contains("metrics charted"), "{}", texts[0]);
    }
    let html = read(&out.join("index.html"));
    assert_eq!(
        html.matches("metrics charted; all are in scan.csv.")
            .count(),
        24
    );
}

#[test]
fn a_list_valued_scan_legend_shows_only_the_items_that_differ() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(
        tmp.path(),
        "l.toml",
        "version = 1\nname = \"l\"\ntype = \"combat\"\ntrials = 200\nseed = 1\n\
         [options]\ninjury_chance = 0.2\nlingering_injuries = true\n\
         party = [{ template = \"fighter-3\" }]\nmonsters = [{ creature = \"goblin\" }]\n",
    );
    let out = tmp.path().join("out");
    run(
        &[
            &file,
            "--scan",
            "injury_chance=0.1,0.2",
            "--scan",
            "party=[{template=\"fighter-3\"},{template=\"cleric-3\"},{template=\"rogue-3\"}],\
             [{template=\"fighter-3\"},{template=\"wizard-3\"},{template=\"rogue-3\"}]",
        ],
        &out,
    );
    let texts = svg_texts(&read(&out.join("l/scan-mean_rounds.svg")));
    let legend: Vec<&String> = texts.iter().filter(|t| t.starts_with("party = ")).collect();
    assert_eq!(
        legend,
        [
            "party = […, {template=\"cleric-3\"}, …]",
            "party = […, {template=\"wizard-3\"}, …]"
        ],
        "{texts:?}"
    );
}
