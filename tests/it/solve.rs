//! `woundsim solve` end to end. The lingering-injury count of a campaign
//! is linear in the injury chance: with 3 attacks made and 3 received per
//! encounter at crit range 20, an encounter has 6 × 1/20 = 0.3 triggering
//! events, 6 in a 20-encounter campaign, so the mean number of injuries
//! is exactly 6 × chance, and 3 injuries need a chance of exactly 0.5.
//! The Monte Carlo answer's interval must hold that root.

use crate::common;

use common::cli::woundsim;

fn solve(args: &[&str]) -> assert_cmd::assert::Assert {
    woundsim().arg("solve").args(args).assert()
}

/// The number after `label` in `text`.
fn number_after(text: &str, label: &str) -> f64 {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("{label} in {text}"))
        + label.len();
    text[at..]
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .find(|t| !t.is_empty())
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn solve_finds_the_exact_root_of_a_linear_metric_within_its_interval() {
    let assert = solve(&[
        "lingering-injuries",
        "--vary",
        "injury_chance=0.05:0.9",
        "--metric",
        "mean_injuries_per_campaign",
        "--target",
        "3",
        "--trials",
        "100000",
    ])
    .success();
    let out = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(out.starts_with("lingering-injuries, variant seed-rule: mean_injuries_per_campaign reaches 3 at injury_chance = "), "{out}");
    let value = number_after(&out, "injury_chance = ");
    let low = number_after(&out, "interval ");
    let high = number_after(&out, &format!("{low:.6} .. "));
    assert!(low < 0.5 && 0.5 < high, "{out}");
    assert!(low < value && value < high, "{out}");
    // The interval is the Monte Carlo noise in x: narrow at 100,000 trials.
    assert!(high - low < 0.01, "{out}");
    assert!(
        out.contains("common random numbers (seed 20261203, 100,000 trials each)"),
        "{out}"
    );
}

#[test]
fn a_whole_number_option_is_varied_as_whole_numbers() {
    let assert = solve(&[
        "death-saves",
        "--vary",
        "dc=5:20",
        "--metric",
        "p_dead",
        "--target",
        "0.5",
        "--trials",
        "20000",
    ])
    .success();
    let out = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    // P(dead) by DC (exact, docs/death-saves.md): 0.40 at DC 10, above 0.5 at 12.
    assert!(out.contains("bracket 11..12"), "{out}");
}

#[test]
fn unreachable_targets_and_bad_input_are_refused() {
    let args = |target: &str, metric: &str| {
        vec![
            "lingering-injuries".to_string(),
            "--vary".into(),
            "injury_chance=0.05:0.9".into(),
            "--metric".into(),
            metric.into(),
            "--target".into(),
            target.into(),
            "--trials".into(),
            "2000".into(),
        ]
    };
    let run = |a: Vec<String>| woundsim().arg("solve").args(a).assert();
    let stderr = |a: &assert_cmd::assert::Assert| {
        String::from_utf8_lossy(&a.get_output().stderr).to_string()
    };
    let a = run(args("50", "mean_injuries_per_campaign")).code(1);
    assert!(stderr(&a).contains("outside the range"), "{}", stderr(&a));
    let a = run(args("3", "mean_injuries_per_campaing")).code(2);
    assert!(
        stderr(&a).contains("did you mean `mean_injuries_per_campaign`"),
        "{}",
        stderr(&a)
    );
    let mut bad_variant = args("3", "mean_injuries_per_campaign");
    bad_variant.extend(["--variant".into(), "seed-rul".into()]);
    let a = run(bad_variant).code(2);
    assert!(
        stderr(&a).contains("did you mean `seed-rule`"),
        "{}",
        stderr(&a)
    );
    let mut bad_range = args("3", "mean_injuries_per_campaign");
    bad_range[2] = "injury_chance=0.9:0.1".into();
    run(bad_range).code(2);
}
