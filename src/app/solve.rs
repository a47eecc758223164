//! `woundsim solve`: the value of one option at which a metric reaches a
//! target, by root finding on common random numbers.
//!
//! Method: the scenario's variant is evaluated at a grid of
//! [`GRID`] values of KEY from FROM to TO (one run, as a scan: every value
//! on the same random rolls), which must be monotone and bracket the
//! target; the bracket is then bisected, one run per midpoint, at the same
//! seed and trials, until it is narrower than the tolerance. Because every
//! evaluation uses the same random numbers, the estimated metric is a
//! fixed, smooth function of the value, and bisection converges on its
//! crossing instead of chasing noise. The value is interpolated linearly
//! in the last bracket. Its interval is where the figure's interval band
//! holds the target: where the band's upper and lower edges cross the
//! target, interpolated between the evaluated values. With `--exact`
//! (types with an exact solver) every evaluation is exact and the
//! interval is the point.

use std::io::Write;

use super::load::load_one;
use super::{AppError, print};
use crate::cli::SolveArgs;
use crate::engine::stats::Estimate;
use crate::engine::{Engine, Stop};
use crate::model::Catalog;
use crate::results::Kind;
use crate::scenario::command::CommandLayers;
use crate::scenario::scan::ScanAxis;
use crate::types;

/// Values of the first, bracketing grid.
pub const GRID: usize = 9;

/// Most bisection steps.
const MAX_STEPS: usize = 60;

/// The range to vary.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    /// The option.
    pub key: String,
    /// The range's ends.
    pub from: f64,
    /// The range's upper end.
    pub to: f64,
    /// Whether the option takes whole numbers (FROM and TO are written so).
    pub whole: bool,
}

impl Vary {
    /// Reads `KEY=FROM:TO`.
    pub fn parse(arg: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "--vary {arg}: expected KEY=FROM:TO with numbers FROM < TO, e.g. injury_chance=0.01:0.5"
            )
        };
        let (key, range) = arg.split_once('=').ok_or_else(bad)?;
        let (from, to) = range.split_once(':').ok_or_else(bad)?;
        let number = |t: &str| {
            t.trim()
                .replace('_', "")
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
        };
        let (Some(a), Some(b)) = (number(from), number(to)) else {
            return Err(bad());
        };
        if key.trim().is_empty() || a >= b {
            return Err(bad());
        }
        let whole_text = |t: &str| t.trim().replace('_', "").parse::<i64>().is_ok();
        Ok(Vary {
            key: key.trim().to_string(),
            from: a,
            to: b,
            whole: whole_text(from) && whole_text(to),
        })
    }

    /// A value as written in the scenario (whole numbers without `.0`).
    fn label(&self, x: f64) -> String {
        if self.whole {
            format!("{}", x.round() as i64)
        } else {
            format!("{x}")
        }
    }

    /// A value for people: whole numbers as such, else 6 decimals.
    fn shown(&self, x: f64) -> String {
        if self.whole {
            self.label(x)
        } else {
            format!("{x:.6}")
        }
    }
}

/// One evaluated value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The option's value.
    pub x: f64,
    /// The metric there.
    pub estimate: Estimate,
}

/// Where `f` (given at the points, sorted by x) crosses 0, interpolated
/// linearly between the first two points of opposite sign.
pub fn crossing(points: &[Point], f: impl Fn(&Estimate) -> f64) -> Option<f64> {
    points.windows(2).find_map(|w| {
        let (fa, fb) = (f(&w[0].estimate), f(&w[1].estimate));
        if fa == 0.0 {
            return Some(w[0].x);
        }
        if (fa < 0.0) != (fb < 0.0) || fb == 0.0 {
            return Some(w[0].x + (w[1].x - w[0].x) * fa / (fa - fb));
        }
        None
    })
}

/// What `solve` found.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The value where the metric reaches the target.
    pub value: f64,
    /// The values whose figure's interval holds the target (`None` at an
    /// end the evaluated values do not reach).
    pub interval: (Option<f64>, Option<f64>),
    /// The last bracket.
    pub bracket: (f64, f64),
    /// Every evaluated value, sorted.
    pub points: Vec<Point>,
    /// Bisection steps taken.
    pub steps: usize,
}

/// Root finding over `eval` (the metric at some values, in one run).
pub fn find(
    vary: &Vary,
    target: f64,
    tolerance: f64,
    mut eval: impl FnMut(&[f64]) -> Result<Vec<Point>, AppError>,
) -> Result<Solution, AppError> {
    let mut grid: Vec<f64> = (0..GRID)
        .map(|i| vary.from + (vary.to - vary.from) * i as f64 / (GRID - 1) as f64)
        .map(|x| if vary.whole { x.round() } else { x })
        .collect();
    grid.dedup();
    let mut points = eval(&grid)?;
    let value = |p: &Point| p.estimate.value;
    if let Some(p) = points.iter().find(|p| !value(p).is_finite()) {
        return Err(AppError::Unsolved(format!(
            "the metric is undefined at {} = {}",
            vary.key,
            vary.label(p.x)
        )));
    }
    let rising = points.windows(2).all(|w| value(&w[1]) >= value(&w[0]));
    let falling = points.windows(2).all(|w| value(&w[1]) <= value(&w[0]));
    let listing = || {
        points
            .iter()
            .map(|p| format!("{}: {}", vary.label(p.x), value(p)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !rising && !falling {
        return Err(AppError::Unsolved(format!(
            "the metric is not monotone in {} over {}..{} ({}); narrow the range",
            vary.key,
            vary.label(vary.from),
            vary.label(vary.to),
            listing()
        )));
    }
    let below = |p: &Point| (value(p) - target) * if rising { 1.0 } else { -1.0 } < 0.0;
    let (first, last) = (points[0], points[points.len() - 1]);
    if !below(&first) && value(&first) != target || below(&last) {
        return Err(AppError::Unsolved(format!(
            "the target {target} is outside the range: the metric goes from {} at {} = {} to {} at {}",
            value(&first),
            vary.key,
            vary.label(first.x),
            value(&last),
            vary.label(last.x)
        )));
    }
    let k = points.iter().rposition(&below).unwrap_or(0);
    let (mut lo, mut hi) = (points[k], points[(k + 1).min(points.len() - 1)]);
    let mut steps = 0;
    while hi.x - lo.x > tolerance && steps < MAX_STEPS {
        let mid = if vary.whole {
            ((lo.x + hi.x) / 2.0).floor()
        } else {
            (lo.x + hi.x) / 2.0
        };
        if mid <= lo.x || mid >= hi.x {
            break;
        }
        let p = eval(&[mid])?[0];
        points.push(p);
        if below(&p) {
            lo = p;
        } else {
            hi = p;
        }
        steps += 1;
    }
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    let value_at = crossing(&[lo, hi], |e| e.value - target).unwrap_or(hi.x);
    let edges = [
        crossing(&points, |e| e.high - target),
        crossing(&points, |e| e.low - target),
    ];
    let interval = if rising {
        (edges[0], edges[1])
    } else {
        (edges[1], edges[0])
    };
    Ok(Solution {
        value: value_at,
        interval,
        bracket: (lo.x, hi.x),
        points,
        steps,
    })
}

/// `woundsim solve`.
pub fn solve(
    catalog: &Catalog,
    args: SolveArgs,
    out: &mut dyn Write,
    stop: Stop<'_>,
) -> Result<(), AppError> {
    let vary = Vary::parse(&args.vary).map_err(AppError::Usage)?;
    let plain = load_one(catalog, &args.scenario, &CommandLayers::sets(&args.set))?;
    let names: Vec<String> = plain
        .variant_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let variant = match &args.variant {
        None => first_with_effect(catalog, &args, &vary, &names[0])?,
        Some(v) if names.contains(v) => v.clone(),
        Some(v) => {
            let all: Vec<&str> = names.iter().map(String::as_str).collect();
            let near = crate::scenario::wording::nearest(v, &all)
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            return Err(AppError::Usage(format!(
                "--variant {v}: scenario `{}` has no such variant{near} (it has: {})",
                plain.header.name,
                names.join(", ")
            )));
        }
    };
    let tolerance = args.tolerance.unwrap_or(if vary.whole {
        1.0
    } else {
        (vary.to - vary.from) / 1000.0
    });
    if tolerance.is_nan() || tolerance <= 0.0 {
        return Err(AppError::Usage("--tolerance must be above 0".into()));
    }
    let engine = Engine::new(args.threads.count)?;
    // No bar (the evaluations are short and many); it carries the stop.
    let sink = super::progress::ProgressBarSink::new(1, true, stop);
    let mut header = plain.header.clone();
    let eval = |xs: &[f64]| -> Result<Vec<Point>, AppError> {
        let labels: Vec<String> = xs.iter().map(|&x| vary.label(x)).collect();
        let source = format!("--vary {}", args.vary);
        let axis = ScanAxis::from_spec(&source, &vary.key, &labels.join(","))
            .map_err(|e| AppError::Usage(format!("{source}: {e}")))?;
        let layers = CommandLayers {
            sets: args.set.clone(),
            scans: vec![axis.clone()],
        };
        let mut scenario = load_one(catalog, &args.scenario, &layers)?;
        if let Some(t) = args.trials {
            scenario.header.trials = t;
        }
        if let Some(s) = args.seed {
            scenario.header.seed = s;
        }
        let prefix = format!("{variant}@");
        scenario
            .variants
            .retain_variants(|name| name.starts_with(&prefix));
        let result = types::simulate(&scenario, &engine, &sink)?;
        header = scenario.header.clone();
        xs.iter()
            .zip(&axis.points)
            .map(|(&x, point)| {
                let name = format!("{variant}@{}={}", vary.key, point.label);
                match result.figure(&name, &args.metric) {
                    Some(f) if f.kind == Kind::Proportion && !(0.0..=1.0).contains(&args.target) => {
                        Err(AppError::Usage(format!(
                            "--target {}: `{}` is a share from 0 to 1, not a percentage; for {}% write --target {}",
                            args.target,
                            args.metric,
                            args.target,
                            args.target / 100.0
                        )))
                    }
                    Some(f) => Ok(Point {
                        x,
                        estimate: f.estimate,
                    }),
                    None => {
                        let metrics: Vec<&str> = result
                            .figures
                            .iter()
                            .filter(|f| f.variant == name)
                            .map(|f| f.metric.as_str())
                            .collect();
                        let near = crate::scenario::wording::nearest(&args.metric, &metrics)
                            .map(|n| format!("; did you mean `{n}`?"))
                            .unwrap_or_default();
                        Err(AppError::Usage(format!(
                            "--metric {}: no such figure for variant `{variant}` at {} = {}{near}",
                            args.metric, vary.key, point.label
                        )))
                    }
                }
            })
            .collect()
    };
    let solution = find(&vary, args.target, tolerance, eval)?;
    let level = header.confidence * 100.0;
    let show = |x: Option<f64>, side: &str| match x {
        Some(x) => format!("{x:.6}"),
        None => format!("beyond the values evaluated ({side})"),
    };
    let text = format!(
        "{scenario}, variant {variant}: {metric} reaches {target} at {key} = {value:.6}\n  \
         interval {low} .. {high}: the values whose figure's {level}% interval holds {target} (interpolated between evaluated values)\n  \
         method: a {grid}-value grid bracketed {target}; {steps} bisection steps to the bracket {a}..{b}; {evaluations} evaluations on common random numbers (seed {seed}, {per} trials each), {total} trials in all\n",
        scenario = header.name,
        metric = args.metric,
        target = args.target,
        key = vary.key,
        value = solution.value,
        low = show(solution.interval.0, "low"),
        high = show(solution.interval.1, "high"),
        grid = GRID,
        steps = solution.steps,
        a = vary.shown(solution.bracket.0),
        b = vary.shown(solution.bracket.1),
        evaluations = solution.points.len(),
        seed = header.seed,
        per = crate::results::thousands(header.trials),
        total = crate::results::thousands(header.trials * solution.points.len() as u64),
    );
    print(out, &text)
}

/// The variant `solve` varies when `--variant` is not given: the first
/// where `--vary`'s key has an effect (a scan leaves out the variants where
/// no rule reads it), with a note on stderr when that is not `first`.
fn first_with_effect(
    catalog: &Catalog,
    args: &SolveArgs,
    vary: &Vary,
    first: &str,
) -> Result<String, AppError> {
    let source = format!("--vary {}", args.vary);
    let ends = format!("{},{}", vary.label(vary.from), vary.label(vary.to));
    let axis = ScanAxis::from_spec(&source, &vary.key, &ends)
        .map_err(|e| AppError::Usage(format!("{source}: {e}")))?;
    let layers = CommandLayers {
        sets: args.set.clone(),
        scans: vec![axis],
    };
    let probe = load_one(catalog, &args.scenario, &layers)?;
    let base = probe
        .scan
        .as_ref()
        .and_then(|t| t.rows.first())
        .map_or_else(|| first.to_string(), |r| r.base.clone());
    if base != first {
        eprintln!(
            "woundsim: note: `{}` has no effect in variant `{first}`: solving for `{base}`, the first variant where it has (--variant picks another)",
            vary.key
        );
    }
    Ok(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(slope: f64, intercept: f64) -> impl FnMut(&[f64]) -> Result<Vec<Point>, AppError> {
        move |xs: &[f64]| {
            Ok(xs
                .iter()
                .map(|&x| {
                    let v = slope * x + intercept;
                    Point {
                        x,
                        estimate: Estimate {
                            value: v,
                            low: v - 0.1,
                            high: v + 0.1,
                        },
                    }
                })
                .collect())
        }
    }

    #[test]
    fn bisection_finds_the_root_of_a_line_and_its_band() {
        let vary = Vary::parse("x=0:10").unwrap();
        assert!(vary.whole);
        let vary = Vary {
            whole: false,
            ..vary
        };
        let s = find(&vary, 3.0, 1e-6, line(0.5, 0.0)).unwrap();
        assert!((s.value - 6.0).abs() < 1e-6, "{s:?}");
        let (a, b) = s.interval;
        assert!(
            (a.unwrap() - 5.8).abs() < 1e-6 && (b.unwrap() - 6.2).abs() < 1e-6,
            "{s:?}"
        );
        // Falling metrics too.
        let s = find(&vary, 3.0, 1e-6, line(-0.5, 5.0)).unwrap();
        assert!((s.value - 4.0).abs() < 1e-6, "{s:?}");
        let (a, b) = s.interval;
        assert!(a.unwrap() < 4.0 && b.unwrap() > 4.0);
    }

    #[test]
    fn whole_numbers_bisect_to_neighbours() {
        let vary = Vary::parse("dc=5:25").unwrap();
        let s = find(&vary, 3.0, 1.0, line(0.5, -2.0)).unwrap();
        assert_eq!(s.bracket.1 - s.bracket.0, 1.0);
        assert!((s.value - 10.0).abs() < 1e-9);
    }

    #[test]
    fn a_target_outside_the_range_or_a_bump_is_refused() {
        let vary = Vary::parse("x=0.0:1.0").unwrap();
        let e = find(&vary, 9.0, 1e-3, line(1.0, 0.0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside the range"), "{e}");
        let bump = |xs: &[f64]| {
            Ok(xs
                .iter()
                .map(|&x| Point {
                    x,
                    estimate: Estimate::exact(x * (1.0 - x)),
                })
                .collect())
        };
        let e = find(&vary, 0.2, 1e-3, bump).unwrap_err().to_string();
        assert!(e.contains("not monotone"), "{e}");
        assert!(Vary::parse("x=1:0").is_err());
        assert!(Vary::parse("x=1").is_err());
    }
}
