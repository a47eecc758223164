//! The permanent-wound examples (`data/permanent-wounds.toml`) turned into
//! [`WoundExamples`]: parsed and validated once at start-up; a broken file
//! is a located error naming the file, line:column and field.

use serde::Deserialize;
use toml::Spanned;

use crate::combat::wounds::{EFFECTS, WoundExample, WoundExamples};
use crate::scenario::limits::MAX_LABEL_CHARS;
use crate::scenario::{Locator, ScenarioError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    minor: Spanned<Vec<RawExample>>,
    moderate: Spanned<Vec<RawExample>>,
    severe: Spanned<Vec<RawExample>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExample {
    name: Spanned<String>,
    #[serde(default)]
    effects: Vec<Spanned<String>>,
    #[serde(default)]
    max_hp_per_level: bool,
    speed_change: Option<Spanned<i64>>,
    speed_at_most: Option<Spanned<i64>>,
    speed_at_most_with_prosthesis: Option<Spanned<i64>>,
}

/// Parses and validates a permanent-wound examples file.
///
/// ```
/// use woundsim::rules::permanent_wounds::Severity;
/// use woundsim::scenario::data::{wounds::parse_file, PERMANENT_WOUNDS_TOML};
/// let w = parse_file("permanent-wounds.toml", PERMANENT_WOUNDS_TOML).unwrap();
/// assert_eq!(w.of(Severity::Moderate)[0].name, "lost eye");
/// ```
pub fn parse_file(file: &str, text: &str) -> Result<WoundExamples, ScenarioError> {
    let loc = Locator { file, text };
    let raw: RawFile = crate::scenario::deserialize(&loc, text)?;
    let group =
        |key: &str, list: &Spanned<Vec<RawExample>>| -> Result<Vec<WoundExample>, ScenarioError> {
            if list.get_ref().is_empty() || list.get_ref().len() > 64 {
                return Err(loc.error(
                    list.span().start,
                    key,
                    format!("give 1 to 64 examples, got {}", list.get_ref().len()),
                ));
            }
            list.get_ref()
                .iter()
                .enumerate()
                .map(|(i, e)| example(&loc, &format!("{key}[{i}]"), e))
                .collect()
        };
    let by_severity = [
        group("minor", &raw.minor)?,
        group("moderate", &raw.moderate)?,
        group("severe", &raw.severe)?,
    ];
    Ok(WoundExamples::new(by_severity).expect("every severity was checked non-empty"))
}

fn example(loc: &Locator, path: &str, e: &RawExample) -> Result<WoundExample, ScenarioError> {
    let name = e.name.get_ref();
    if name.trim().is_empty() || name.chars().count() > MAX_LABEL_CHARS {
        return Err(loc.error(
            e.name.span().start,
            &format!("{path}.name"),
            format!("a name is 1 to {MAX_LABEL_CHARS} characters"),
        ));
    }
    let mut effects = 0;
    for (j, effect) in e.effects.iter().enumerate() {
        let bits = EFFECTS
            .iter()
            .find(|(n, _)| n == effect.get_ref())
            .map(|(_, b)| *b)
            .ok_or_else(|| {
                loc.error(
                    effect.span().start,
                    &format!("{path}.effects[{j}]"),
                    format!(
                        "unknown effect `{}`; the round loop models: {}",
                        effect.get_ref(),
                        EFFECTS.map(|(n, _)| n).join(", ")
                    ),
                )
            })?;
        effects |= bits;
    }
    let feet = |v: &Option<Spanned<i64>>, key: &str, range: std::ops::RangeInclusive<i64>| {
        v.as_ref()
            .map(|v| {
                crate::scenario::values::keyed_int(
                    Some(crate::scenario::values::at(loc, v, format!("{path}.{key}"))),
                    range,
                    0,
                )
                .map(|f| f as i32)
            })
            .transpose()
    };
    Ok(WoundExample {
        name: name.clone(),
        effects,
        max_hp_per_level: e.max_hp_per_level,
        speed_change: feet(&e.speed_change, "speed_change", -1000..=0)?.unwrap_or(0),
        speed_at_most: feet(&e.speed_at_most, "speed_at_most", 0..=1000)?,
        speed_at_most_with_prosthesis: feet(
            &e.speed_at_most_with_prosthesis,
            "speed_at_most_with_prosthesis",
            0..=1000,
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::effect;
    use crate::rules::permanent_wounds::Severity;
    use crate::scenario::data::PERMANENT_WOUNDS_TOML;

    /// The table the round loop had before it became data: (name, effect
    /// bits, costs max HP per level) by severity.
    #[test]
    fn the_data_file_reproduces_the_table_it_replaced() {
        let pinned: [&[(&str, u16, bool)]; 3] = [
            &[
                ("facial scar", 0, false),
                ("lost finger", 0, false),
                ("burn", 0, false),
                ("slight limp", 0, false),
            ],
            &[
                ("lost eye", effect::DIS_RANGED_FAR, false),
                ("lost hand", effect::NO_TWO_HANDED, false),
                ("limp", 0, false),
                ("internal wound", effect::DIS_CON_SAVES, true),
            ],
            &[
                (
                    "lost arm",
                    effect::NO_TWO_HANDED | effect::NO_SHIELD | effect::DIS_STR_SAVES,
                    false,
                ),
                (
                    "lost leg",
                    effect::DIS_DEX_CHECKS | effect::DIS_DEX_SAVES,
                    false,
                ),
                ("blindness", effect::BLINDED, false),
                (
                    "severe internal bruising",
                    effect::DIS_CON_SAVES | effect::SMALLER_HIT_DICE,
                    true,
                ),
            ],
        ];
        let w = parse_file("w", PERMANENT_WOUNDS_TOML).unwrap();
        for (severity, pinned) in [Severity::Minor, Severity::Moderate, Severity::Severe]
            .into_iter()
            .zip(pinned)
        {
            let got: Vec<(&str, u16, bool)> = w
                .of(severity)
                .iter()
                .map(|e| (e.name.as_str(), e.effects, e.max_hp_per_level))
                .collect();
            assert_eq!(got, pinned, "{severity:?}");
        }
    }

    #[test]
    fn broken_files_are_located_errors() {
        let e = parse_file(
            "w.toml",
            "minor = []\nmoderate = [{ name = \"x\" }]\nsevere = [{ name = \"y\" }]\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "w.toml:1:9: field `minor`: give 1 to 64 examples, got 0");
        let e = parse_file(
            "w.toml",
            "minor = [{ name = \"x\" }]\nmoderate = [{ name = \"x\", effects = [\"flying\"] }]\nsevere = [{ name = \"y\" }]\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("w.toml:2:38: field `moderate[0].effects[0]`: unknown effect `flying`"),
            "{e}"
        );
        assert!(parse_file("w.toml", "minor = [{ name = \"x\" }]\n").is_err());
    }
}
