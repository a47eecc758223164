//! The gate's JUnit XML report (`woundsim check --junit FILE`), the format
//! every CI system reads: `testsuites` → one `testsuite` per scenario →
//! one `testcase` per variant × metric (`classname` `woundsim.SCENARIO`,
//! `name` `VARIANT/METRIC`), with a `failure` for a moved figure and
//! `skipped` for an untested one or one that only one side has (with
//! `--allow-missing`). With `--max-slowdown`, each scenario whose rate
//! both runs recorded has a `throughput` test case: a `failure` when it is
//! slower than the limit and `--fail-on-slowdown` is given, else a
//! `system-out` warning. Every text is escaped for XML 1.0; characters XML
//! cannot hold at all (control characters) become U+FFFD.

use super::table::{describe, speed};
use crate::gate::compare::{Comparison, Missing, Verdict};
use crate::report::run_info::si;

/// `text` escaped for an XML attribute or element.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Kept as characters in attributes, where a raw one would be
            // normalised to a space.
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// One test case: its name and what happened.
struct Case {
    name: String,
    outcome: Outcome,
}

enum Outcome {
    Passed,
    Failed { kind: String, message: String },
    Skipped(String),
    Warned(String),
}

/// A scenario's test cases.
struct Suite {
    name: String,
    cases: Vec<Case>,
}

fn suite<'a>(suites: &'a mut Vec<Suite>, name: &str) -> &'a mut Suite {
    let i = match suites.iter().position(|s| s.name == name) {
        Some(i) => i,
        None => {
            suites.push(Suite {
                name: name.to_string(),
                cases: Vec::new(),
            });
            suites.len() - 1
        }
    };
    &mut suites[i]
}

fn missing_case(m: &Missing) -> Case {
    let name = match (&m.variant, &m.metric) {
        (None, _) => "(scenario)".to_string(),
        (Some(v), None) => v.clone(),
        (Some(v), Some(metric)) => format!("{v}/{metric}"),
    };
    Case {
        name,
        outcome: Outcome::Skipped(m.describe()),
    }
}

fn suites(c: &Comparison, fail_on_slowdown: bool) -> Vec<Suite> {
    let mut suites = Vec::new();
    for m in &c.metrics {
        let outcome = match m.verdict {
            v if v.is_moved() => Outcome::Failed {
                kind: v.text().to_string(),
                message: describe(m),
            },
            Verdict::Untested => Outcome::Skipped(describe(m)),
            _ => Outcome::Passed,
        };
        suite(&mut suites, &m.scenario).cases.push(Case {
            name: format!("{}/{}", m.variant, m.metric),
            outcome,
        });
    }
    for m in &c.missing {
        suite(&mut suites, &m.scenario).cases.push(missing_case(m));
    }
    if let Some(limit) = c.max_slowdown {
        for t in &c.throughput {
            let text = format!(
                "{} trials/s against the baseline's {} trials/s: {} (limit {limit}x)",
                si(t.current),
                si(t.baseline),
                speed(t.slowdown)
            );
            let outcome = match (t.beyond_limit, fail_on_slowdown) {
                (false, _) => Outcome::Passed,
                (true, true) => Outcome::Failed {
                    kind: "slower".into(),
                    message: text,
                },
                (true, false) => Outcome::Warned(format!("warning: {text}")),
            };
            suite(&mut suites, &t.scenario).cases.push(Case {
                name: "throughput".into(),
                outcome,
            });
        }
    }
    suites
}

/// Failures and skipped cases among `cases`.
fn counts<'a>(cases: impl IntoIterator<Item = &'a Case>) -> (usize, usize) {
    cases.into_iter().fold((0, 0), |(f, s), c| match c.outcome {
        Outcome::Failed { .. } => (f + 1, s),
        Outcome::Skipped(_) => (f, s + 1),
        _ => (f, s),
    })
}

/// The JUnit XML document of a comparison.
pub fn render(c: &Comparison, fail_on_slowdown: bool) -> String {
    let suites = suites(c, fail_on_slowdown);
    let all: Vec<&Case> = suites.iter().flat_map(|s| &s.cases).collect();
    let (failures, skipped) = counts(all.iter().copied());
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"woundsim check\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n",
        all.len()
    ));
    for s in &suites {
        let (failures, skipped) = counts(&s.cases);
        let name = escape(&s.name);
        out.push_str(&format!(
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n",
            s.cases.len()
        ));
        for case in &s.cases {
            out.push_str(&format!(
                "    <testcase classname=\"woundsim.{name}\" name=\"{}\"",
                escape(&case.name)
            ));
            match &case.outcome {
                Outcome::Passed => out.push_str("/>\n"),
                Outcome::Failed { kind, message } => out.push_str(&format!(
                    ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                    escape(kind),
                    escape(message),
                    escape(message)
                )),
                Outcome::Skipped(message) => out.push_str(&format!(
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                    escape(message)
                )),
                Outcome::Warned(message) => out.push_str(&format!(
                    ">\n      <system-out>{}</system-out>\n    </testcase>\n",
                    escape(message)
                )),
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::compare::{Comparison, Method, MetricCheck, Throughput};
    use crate::gate::folder::Side;

    fn check(variant: &str, metric: &str, verdict: Verdict) -> MetricCheck {
        MetricCheck {
            scenario: "s-1".into(),
            variant: variant.into(),
            metric: metric.into(),
            baseline: 0.4,
            current: 0.45,
            difference: 0.05,
            interval: Some((0.04, 0.06)),
            level: 0.95,
            method: Method::TwoProportions,
            z: Some(9.0),
            p: Some(1e-19),
            p_holm: Some(1e-18),
            verdict,
            note: (verdict == Verdict::Untested).then(|| "a <note> & more".into()),
        }
    }

    fn comparison() -> Comparison {
        let odd = "a<b>&\"c'd\u{1}e\tf";
        Comparison {
            baseline: "b".into(),
            current: "c".into(),
            alpha: 0.001,
            min_effect: None,
            max_slowdown: Some(1.5),
            tests: 3,
            metrics: vec![
                check("raw", "p_dead", Verdict::MovedUp),
                check(odd, "p_dead", Verdict::NoChange),
                check("raw", "q50_x", Verdict::Untested),
            ],
            missing: vec![Missing {
                only_in: Side::Baseline,
                scenario: "gone".into(),
                variant: None,
                metric: None,
            }],
            not_run: Vec::new(),
            throughput: vec![Throughput {
                scenario: "s-1".into(),
                baseline: 2e6,
                current: 1e6,
                slowdown: 2.0,
                baseline_threads: Some(2),
                current_threads: Some(2),
                beyond_limit: true,
            }],
            notes: Vec::new(),
        }
    }

    /// The common JUnit schema's shape: `testsuites` holding `testsuite`s
    /// holding `testcase`s (with `classname` and `name`), each with at most
    /// one `failure` (with `message` and `type`), `skipped` or
    /// `system-out`; the counts on the suites add up.
    fn assert_junit_shape(xml: &str) -> roxmltree::Document<'_> {
        let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        let attr = |n: roxmltree::Node, a: &str| -> usize {
            n.attribute(a)
                .unwrap_or_else(|| panic!("{} has no {a}", n.tag_name().name()))
                .parse()
                .unwrap()
        };
        let (mut tests, mut failures, mut skipped) = (0, 0, 0);
        for suite in root.children().filter(|n| n.is_element()) {
            assert_eq!(suite.tag_name().name(), "testsuite");
            assert!(suite.attribute("name").is_some());
            let cases: Vec<_> = suite.children().filter(|n| n.is_element()).collect();
            assert_eq!(attr(suite, "tests"), cases.len());
            let mut f = 0;
            let mut s = 0;
            for case in &cases {
                assert_eq!(case.tag_name().name(), "testcase");
                assert!(case.attribute("classname").is_some() && case.attribute("name").is_some());
                let inner: Vec<_> = case.children().filter(|n| n.is_element()).collect();
                assert!(inner.len() <= 1);
                if let Some(child) = inner.first() {
                    match child.tag_name().name() {
                        "failure" => {
                            assert!(child.attribute("message").is_some());
                            assert!(child.attribute("type").is_some());
                            f += 1;
                        }
                        "skipped" => s += 1,
                        "system-out" => {}
                        other => panic!("unexpected <{other}> in a testcase"),
                    }
                }
            }
            assert_eq!((attr(suite, "failures"), attr(suite, "skipped")), (f, s));
            assert_eq!(attr(suite, "errors"), 0);
            tests += cases.len();
            failures += f;
            skipped += s;
        }
        assert_eq!(attr(root, "tests"), tests);
        assert_eq!(attr(root, "failures"), failures);
        assert_eq!(attr(root, "skipped"), skipped);
        doc
    }

    #[test]
    fn the_report_has_the_junit_shape_and_survives_any_name() {
        let xml = render(&comparison(), true);
        let doc = assert_junit_shape(&xml);
        let names: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|n| n.attribute("name").unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "raw/p_dead",
                "a<b>&\"c'd\u{FFFD}e\tf/p_dead",
                "raw/q50_x",
                "throughput",
                "(scenario)"
            ]
        );
        let root = doc.root_element();
        assert_eq!(root.attribute("failures"), Some("2"));
        assert_eq!(root.attribute("skipped"), Some("2"));
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert!(
            failure
                .attribute("message")
                .unwrap()
                .starts_with("moved up: 0.400000 -> 0.450000")
        );
        assert_eq!(failure.attribute("type"), Some("moved up"));
    }

    #[test]
    fn a_slowdown_only_warns_without_fail_on_slowdown() {
        let xml = render(&comparison(), false);
        let doc = assert_junit_shape(&xml);
        assert_eq!(doc.root_element().attribute("failures"), Some("1"));
        let out = doc
            .descendants()
            .find(|n| n.has_tag_name("system-out"))
            .unwrap();
        assert!(out.text().unwrap().starts_with("warning: 1.00 M trials/s"));
    }

    #[test]
    fn escaping_covers_markup_quotes_and_control_characters() {
        assert_eq!(
            escape("<a href=\"x\">&'\u{0}\n"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;\u{FFFD}&#10;"
        );
    }
}
