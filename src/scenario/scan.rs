//! Parameter scans: `--scan KEY=FROM:TO:STEP`, `--scan KEY=v1,v2,...`
//! (repeatable, crossed) and the scenario file's `[scan]` table, where each
//! key is a range string `"FROM:TO:STEP"` or a list of values.
//!
//! A scan turns each base variant into one variant per point (per
//! combination of points, the first axis outermost), named
//! `BASE@KEY=VALUE` (`raw@injury_chance=0.05`, crossed:
//! `raw@dc=10@roll=advantage`). Each point is a layer laid over the base
//! variant's tables like a `--set` ([`super::overrides`]), so it is
//! validated by the type's own schema and its errors name the scan. All
//! variants of a scenario share common random numbers, so neighbouring
//! points differ smoothly.
//!
//! A range's points are `FROM + i·STEP` up to `TO` (within a millionth of
//! a step), written with as many decimals as the range was: `0.01:0.05:0.01`
//! gives `0.01, 0.02, 0.03, 0.04, 0.05`, never `0.30000000000000004`.
//!
//! ```
//! use woundsim::scenario::scan::ScanAxis;
//! let axis = ScanAxis::parse("injury_chance=0.01:0.03:0.01").unwrap();
//! let labels: Vec<&str> = axis.points.iter().map(|p| p.label.as_str()).collect();
//! assert_eq!(labels, ["0.01", "0.02", "0.03"]);
//! let list = ScanAxis::parse("roll=normal,advantage").unwrap();
//! assert_eq!(list.points[1].set.text(), "roll=\"advantage\"");
//! ```

use super::overrides::Override;

/// Most points of one axis.
pub const MAX_POINTS: usize = 1000;

/// Most variants a scan may expand a scenario into (base variants × points).
pub const MAX_SCAN_VARIANTS: usize = 1024;

/// One scanned key and its points.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanAxis {
    /// Where it was given, for messages: `--scan KEY=SPEC` or `FILE [scan]`.
    pub source: String,
    /// The option scanned.
    pub key: String,
    /// The points, in order.
    pub points: Vec<ScanPoint>,
}

/// One value of a scanned key.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanPoint {
    /// The value as it appears in variant names and `scan.csv`.
    pub label: String,
    /// The value as a number, where it is one (the x of a scan chart).
    pub number: Option<f64>,
    /// `KEY=VALUE`, laid over every base variant.
    pub set: Override,
}

/// Decimals written in a number as given (`0.010` → 3, `1e-3` → 3).
fn decimals(text: &str) -> usize {
    let t = text.trim();
    if let Some((mantissa, exp)) = t.split_once(['e', 'E']) {
        let shift: i64 = exp.parse().unwrap_or(0);
        return (decimals(mantissa) as i64 - shift).max(0) as usize;
    }
    t.split_once('.').map_or(0, |(_, f)| f.len())
}

/// `x` with `d` decimals, trailing zeros dropped (`0.10` → `0.1`, `2.0` → `2`).
fn label(x: f64, d: usize) -> String {
    let s = format!("{x:.d$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

/// The values of `FROM:TO:STEP`, as labels.
fn range(spec: &str) -> Result<Vec<String>, String> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [from, to, step] = parts[..] else {
        return Err(format!(
            "`{spec}` is not FROM:TO:STEP (e.g. 0.01:0.1:0.01) or a list v1,v2,..."
        ));
    };
    let number = |name: &str, text: &str| -> Result<f64, String> {
        match text.trim().replace('_', "").parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(format!(
                "the {name} of `{spec}`, `{}`, is not a number",
                text.trim()
            )),
        }
    };
    let (a, b, s) = (
        number("start", from)?,
        number("end", to)?,
        number("step", step)?,
    );
    if s <= 0.0 {
        return Err(format!("the step of `{spec}` must be above 0"));
    }
    if b < a {
        return Err(format!("`{spec}` ends below its start"));
    }
    let steps = (b - a) / s;
    if steps > MAX_POINTS as f64 {
        return Err(format!(
            "`{spec}` has more than {MAX_POINTS} points; use a larger step"
        ));
    }
    let count = (steps + 1e-6).floor() as usize + 1;
    let d = decimals(from).max(decimals(step)).max(decimals(to));
    Ok((0..count).map(|i| label(a + i as f64 * s, d)).collect())
}

/// The items of `v1,v2,...`, split at commas outside brackets and quotes.
fn list(spec: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut quote, mut current) = (0i32, None::<char>, String::new());
    for c in spec.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                items.push(std::mem::take(&mut current).trim().to_string());
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current.trim().to_string());
    items
}

impl ScanAxis {
    /// Reads the argument of one `--scan KEY=SPEC`.
    pub fn parse(arg: &str) -> Result<Self, String> {
        let Some((key, spec)) = arg.split_once('=') else {
            return Err(
                "expected KEY=FROM:TO:STEP or KEY=v1,v2,..., e.g. injury_chance=0.01:0.1:0.01"
                    .into(),
            );
        };
        Self::from_spec(&format!("--scan {arg}"), key.trim(), spec.trim())
    }

    /// The axis of `key` scanned over `spec` (a range or a list), given at
    /// `source`.
    pub fn from_spec(source: &str, key: &str, spec: &str) -> Result<Self, String> {
        if key.is_empty() {
            return Err("the KEY is missing".into());
        }
        if key.contains('@') {
            return Err(format!(
                "`{key}` cannot be scanned: `@` separates scan values in variant names"
            ));
        }
        let is_range = spec.contains(':') && !spec.contains(['"', '\'', '[', '{', ',']);
        let labels = if is_range { range(spec)? } else { list(spec) };
        if labels.iter().any(String::is_empty) {
            return Err(format!("`{spec}` has an empty value"));
        }
        if labels.len() > MAX_POINTS {
            return Err(format!(
                "a scan has at most {MAX_POINTS} values, got {}",
                labels.len()
            ));
        }
        let mut points: Vec<ScanPoint> = Vec::with_capacity(labels.len());
        for value in labels {
            let set = Override::parse(&format!("{key}={value}"))?.named(source);
            let label = value.trim_matches(|c| c == '"' || c == '\'').to_string();
            if points.iter().any(|p| p.label == label) {
                return Err(format!("`{label}` is scanned twice"));
            }
            points.push(ScanPoint {
                number: label.parse::<f64>().ok().filter(|x| x.is_finite()),
                label,
                set,
            });
        }
        Ok(ScanAxis {
            source: source.to_string(),
            key: key.to_string(),
            points,
        })
    }

    /// The axis of a `[scan]` entry: a range string or an array of values.
    pub fn from_value(source: &str, key: &str, value: &toml::Value) -> Result<Self, String> {
        match value {
            toml::Value::String(s) if s.contains(':') => Self::from_spec(source, key, s),
            toml::Value::Array(items) if !items.is_empty() => {
                let texts: Vec<String> = items.iter().map(toml::Value::to_string).collect();
                Self::from_spec(source, key, &texts.join(","))
            }
            _ => Err(format!(
                "`{key}` in [scan] must be a range \"FROM:TO:STEP\" or a non-empty list of values"
            )),
        }
    }
}

/// The axes of a run: the file's `[scan]` axes, each replaced by a
/// `--scan` of the same key, then the other `--scan` axes in order.
pub fn combine(file: Vec<ScanAxis>, cli: &[ScanAxis]) -> Vec<ScanAxis> {
    let mut axes: Vec<ScanAxis> = file
        .into_iter()
        .map(|a| cli.iter().find(|c| c.key == a.key).cloned().unwrap_or(a))
        .collect();
    for c in cli {
        if !axes.iter().any(|a| a.key == c.key) {
            axes.push(c.clone());
        }
    }
    axes
}

/// Every combination of one point per axis, as point indices, the first
/// axis outermost; one empty combination without axes.
pub fn combinations(axes: &[ScanAxis]) -> Vec<Vec<usize>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.into_iter()
            .flat_map(|prefix| {
                (0..axis.points.len()).map(move |p| {
                    let mut next = prefix.clone();
                    next.push(p);
                    next
                })
            })
            .collect()
    })
}

/// The name of base variant `base` at the points `points` of `axes`.
pub fn variant_name(base: &str, axes: &[ScanAxis], points: &[&ScanPoint]) -> String {
    let mut name = base.to_string();
    for (axis, point) in axes.iter().zip(points) {
        name.push_str(&format!("@{}={}", axis.key, point.label));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(arg: &str) -> Vec<String> {
        ScanAxis::parse(arg)
            .unwrap()
            .points
            .into_iter()
            .map(|p| p.label)
            .collect()
    }

    #[test]
    fn ranges_step_from_the_start_and_keep_the_written_decimals() {
        assert_eq!(labels("x=0.1:0.5:0.1"), ["0.1", "0.2", "0.3", "0.4", "0.5"]);
        assert_eq!(labels("dc=10:14:2"), ["10", "12", "14"]);
        assert_eq!(labels("x=0:1:0.25"), ["0", "0.25", "0.5", "0.75", "1"]);
        assert_eq!(
            labels("x=1:2:0.3"),
            ["1", "1.3", "1.6", "1.9"],
            "TO need not be a point"
        );
        assert_eq!(labels("x=5:5:1"), ["5"]);
        assert_eq!(labels("x=1e-3:3e-3:1e-3"), ["0.001", "0.002", "0.003"]);
    }

    #[test]
    fn lists_split_at_top_level_commas_and_take_toml_values() {
        assert_eq!(labels("roll=normal,advantage"), ["normal", "advantage"]);
        let axis = ScanAxis::parse("existing_wounds=[\"minor\"],[\"minor\",\"severe\"]").unwrap();
        assert_eq!(axis.points.len(), 2);
        assert_eq!(
            axis.points[1].set.text(),
            "existing_wounds=[\"minor\",\"severe\"]"
        );
        assert_eq!(axis.points[0].number, None);
        assert_eq!(
            ScanAxis::parse("dc=10,11").unwrap().points[1].number,
            Some(11.0)
        );
        assert_eq!(
            axis.points[0].set.flag(),
            "--scan existing_wounds=[\"minor\"],[\"minor\",\"severe\"]"
        );
    }

    #[test]
    fn bad_scans_are_refused_with_the_reason() {
        let error = |arg: &str| ScanAxis::parse(arg).unwrap_err();
        assert!(error("dc").contains("KEY=FROM:TO:STEP"));
        assert!(error("x=1:2").contains("FROM:TO:STEP"));
        assert!(error("x=2:1:1").contains("ends below"));
        assert!(error("x=1:2:0").contains("above 0"));
        assert!(error("x=a:2:1").contains("not a number"));
        assert!(error("x=0:1:0.0001").contains("more than 1000"));
        assert!(error("x=1,,2").contains("empty value"));
        assert!(error("x=1,1").contains("twice"));
        assert!(error("trials=1,2").contains("--trials"));
    }

    #[test]
    fn axes_cross_with_the_first_outermost_and_the_command_line_wins() {
        let a = ScanAxis::parse("a=1,2").unwrap();
        let b = ScanAxis::parse("b=x,y").unwrap();
        let axes = combine(vec![a.clone()], std::slice::from_ref(&b));
        let names: Vec<String> = combinations(&axes)
            .iter()
            .map(|c| {
                let points: Vec<&ScanPoint> =
                    axes.iter().zip(c).map(|(x, &p)| &x.points[p]).collect();
                variant_name("raw", &axes, &points)
            })
            .collect();
        assert_eq!(
            names,
            ["raw@a=1@b=x", "raw@a=1@b=y", "raw@a=2@b=x", "raw@a=2@b=y"]
        );
        let a3 = ScanAxis::parse("a=3").unwrap();
        assert_eq!(
            combine(vec![a, b.clone()], std::slice::from_ref(&a3)),
            [a3, b]
        );
    }
}
