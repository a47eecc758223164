//! A scenario's variants validated: each `[[variant]]` table (or, without
//! any, one variant `base`) over `[options]`, crossed with a scan's values
//! and under the `--set` overrides, built by the type's schema
//! ([`RawScenario::variants`]). The steps are plain functions: the checks
//! of `[options]` and of the variant count, the base variants' names, the
//! layers of one variant, its build with every error collected
//! ([`build_reporting`]), the keys it never read ([`Unread`]), and its
//! name, description and row of the scan table.

use toml::Spanned;

use super::layers::{Layer, Layers};
use super::scan::{self, ScanAxis, ScanPoint};
use super::{Locator, Named, RawScenario, ScenarioError, limits, values};
use crate::model::{ScanRow, ScanTable, Variant};

/// `build` of one variant's `layers`, and after an error again with the
/// setting at fault left out, until it builds or an error names no setting
/// it can leave out: each error into `failures` once (an error of
/// `[options]` is the same in every variant). The rules, if there was no
/// error.
fn build_reporting<'a, S, R>(
    layers: &Layers<'a, S>,
    build: impl Fn(&Layers<'a, S>) -> Result<R, ScenarioError>,
    failures: &mut Vec<ScenarioError>,
) -> Option<R> {
    let mut failed = false;
    for _ in 0..limits::MAX_ERRORS_PER_FILE {
        layers.forget_found();
        let e = match build(layers) {
            Ok(rules) => return (!failed).then_some(rules),
            Err(e) => e,
        };
        let mut left_out = false;
        // Read again, an error about a setting that is not there follows
        // from one left out ("needs a `clock`"): not the user's.
        let found: Vec<ScenarioError> = e
            .into_all()
            .into_iter()
            .filter(|one| !failed || stands_alone(layers, one))
            .collect();
        failed = true;
        for one in found {
            left_out |= one.field().is_some_and(|f| layers.leave_out(f));
            if !failures.contains(&one) {
                failures.push(one);
            }
        }
        if !left_out {
            break;
        }
    }
    None
}

/// Whether an error of a rebuild (a setting left out) is the user's: about
/// a setting the rebuild found, not naming one left out.
fn stands_alone<S>(layers: &Layers<S>, one: &ScenarioError) -> bool {
    match one {
        ScenarioError::Invalid(l) => {
            layers.was_found(&l.field) && !layers.names_left_out(&l.message)
        }
        _ => false,
    }
}

/// The keys of `[options]` and of each `[[variant]]` as written, read from
/// the text as plain TOML (the typed tables do not list what they hold).
struct GenericTables {
    table: toml::Table,
}

impl GenericTables {
    fn of(text: &str) -> Self {
        GenericTables {
            table: toml::from_str(text).unwrap_or_default(),
        }
    }

    fn options_keys(&self) -> Vec<String> {
        match self.table.get("options") {
            Some(toml::Value::Table(t)) => t.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    fn variant_keys(&self, i: usize) -> Vec<String> {
        match self.table.get("variant") {
            Some(toml::Value::Array(v)) => match v.get(i) {
                Some(toml::Value::Table(t)) => t.keys().cloned().collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
}

/// The top-level key of a dotted key (`creature.hp` → `creature`).
fn top_key(key: &str) -> String {
    key.split('.').next().unwrap_or(key).trim().to_string()
}

/// The top-level keys of an override's text.
fn top_keys(text: &str) -> Vec<String> {
    toml::from_str::<toml::Table>(text)
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

/// A scan's axes and each point's settings table, for [`RawScenario::variants`].
pub(super) struct Scan<'a, S> {
    pub axes: &'a [ScanAxis],
    /// `tables[axis][point]`.
    pub tables: &'a [Vec<(Locator<'a>, S)>],
}

impl<S> Scan<'_, S> {
    /// Every combination of point indices ([`scan::combinations`]).
    fn combinations(&self) -> Vec<Vec<usize>> {
        scan::combinations(self.axes)
    }

    fn points(&self, combination: &[usize]) -> Vec<&ScanPoint> {
        self.axes
            .iter()
            .zip(combination)
            .map(|(a, &p)| &a.points[p])
            .collect()
    }
}

/// A variant of the file before any scan: its name, description and own
/// table.
struct Base<'a, S> {
    name: String,
    description: String,
    /// Its `[[variant]]` table, that table's field path and its index;
    /// `None` for the one variant of a file without any.
    own: Option<(&'a Spanned<S>, String, usize)>,
}

/// What [`RawScenario::variants`] makes: the variants, the scan table (if
/// scanned) and a warning per key without effect.
type Expanded<R> = (Vec<Variant<R>>, Option<ScanTable>, Vec<String>);

impl<S: Named + Default> RawScenario<S> {
    /// Validates variants: each variant's table over `[options]`, a scan's
    /// values over both (one variant per combination), the overrides
    /// `over` above all.
    pub(super) fn variants<'a, R>(
        &'a self,
        loc: &Locator<'a>,
        over: &'a [(Locator<'a>, S)],
        scan: &Scan<'a, S>,
        build: impl Fn(&Layers<'a, S>) -> Result<R, ScenarioError>,
    ) -> Result<Expanded<R>, ScenarioError> {
        self.check_options(loc)?;
        let raw_variants = self.variants.as_ref().map_or(&[][..], |v| v.get_ref());
        let combinations = scan.combinations();
        let expanded = check_count(loc, raw_variants, scan, combinations.len())?;
        let bases = bases(loc, raw_variants, scan)?;
        let mut out: Vec<Variant<R>> = Vec::with_capacity(expanded);
        let mut rows = Vec::new();
        let generic = GenericTables::of(loc.text);
        let mut failures: Vec<ScenarioError> = Vec::new();
        let mut unread = Unread::default();
        let mut skipped: Vec<(String, Vec<&ScanAxis>)> = Vec::new();
        for base in &bases {
            let mut made = Vec::with_capacity(combinations.len());
            for combination in &combinations {
                let layers = self.layers(loc, over, scan, base, combination);
                let Some(rules) = build_reporting(&layers, &build, &mut failures) else {
                    continue;
                };
                // Without a scan: the base name itself.
                let points = scan.points(combination);
                let name = scan::variant_name(&base.name, scan.axes, &points);
                let read = layers.keys_read();
                made.push((name, read, points, rules));
            }
            // A scanned key no rule of this variant reads would give one
            // figure at every value: the variant is left out of the scan.
            let idle: Vec<&ScanAxis> = scan
                .axes
                .iter()
                .filter(|a| {
                    let key = top_key(&a.key);
                    !made.is_empty() && made.iter().all(|(_, read, _, _)| !read.contains(&key))
                })
                .collect();
            if !idle.is_empty() {
                skipped.push((base.name.clone(), idle));
                continue;
            }
            for (name, read, points, rules) in made {
                let given = given_keys(&generic, base, over, scan.axes);
                unread.note(given, &read, &name);
                let (variant, row) = scanned(base, name, scan.axes, &points, rules);
                out.push(variant);
                rows.extend(row);
            }
        }
        let table = (!scan.axes.is_empty()).then(|| ScanTable {
            keys: scan.axes.iter().map(|a| a.key.clone()).collect(),
            rows,
        });
        if let Some(e) = ScenarioError::from_all(failures) {
            return Err(e);
        }
        if out.is_empty() {
            if let Some((_, idle)) = skipped.first() {
                let axis = idle[0];
                let at = Locator {
                    file: &axis.source,
                    text: "",
                };
                return Err(at.error(
                    0,
                    &axis.key,
                    format!(
                        "`{}` has no effect in any variant: no rule there reads it (is the rule it belongs to turned off?)",
                        axis.key
                    ),
                ));
            }
        }
        let mut warnings = unread.warnings(out.len());
        warnings.extend(skipped.into_iter().map(|(base, idle)| {
            let keys: Vec<String> = idle.iter().map(|a| format!("`{}`", a.key)).collect();
            format!(
                "variant `{base}` is left out of the scan: {} {} no effect in it (no rule there reads {})",
                keys.join(" and "),
                if keys.len() == 1 { "has" } else { "have" },
                if keys.len() == 1 { "it" } else { "them" },
            )
        }));
        Ok((out, table, warnings))
    }

    /// `[options]` names no variant and its description is short enough.
    fn check_options(&self, loc: &Locator) -> Result<(), ScenarioError> {
        let default_options = S::default();
        let options = match &self.options {
            Some(o) => o.get_ref(),
            None => &default_options,
        };
        if let Some(name) = options.name() {
            return Err(loc.error(
                name.span().start,
                "options.name",
                "`name` belongs in a [[variant]] table, not in [options]",
            ));
        }
        values::opt_text(
            options
                .description()
                .map(|d| values::at(loc, d, "options.description")),
            "the description",
            limits::MAX_DESCRIPTION_CHARS,
        )?;
        Ok(())
    }

    /// The layers of the variant of `base` at `combination` of the scan:
    /// its own table over `[options]`, the scanned values over both, the
    /// overrides `over` above all (a later one over an earlier one).
    fn layers<'a>(
        &'a self,
        loc: &Locator<'a>,
        over: &'a [(Locator<'a>, S)],
        scan: &Scan<'a, S>,
        base: &Base<'a, S>,
        combination: &[usize],
    ) -> Layers<'a, S> {
        let layers = match &base.own {
            Some((raw, path, _)) => {
                Layers::new(*loc, path.clone()).under(Layer::spanned(*loc, path.clone(), raw))
            }
            None => Layers::new(*loc, "options"),
        };
        let layers = match &self.options {
            Some(o) => layers.under(Layer::spanned(*loc, "options", o)),
            None => layers,
        };
        let layers = layers.over_all(combination.iter().enumerate().map(|(axis, &point)| {
            let (at, table) = &scan.tables[axis][point];
            Layer::new(*at, "", table)
        }));
        layers.over_all(over.iter().map(|(at, table)| Layer::new(*at, "", table)))
    }
}

/// The number of variants the scan makes of `raw_variants`, if neither
/// the file's variants nor the scan's exceed their limits.
fn check_count<S>(
    loc: &Locator,
    raw_variants: &[Spanned<S>],
    scan: &Scan<S>,
    combinations: usize,
) -> Result<usize, ScenarioError> {
    if let Some(extra) = raw_variants.get(limits::MAX_VARIANTS) {
        return Err(loc.error(
            extra.span().start,
            &format!("variant[{}]", limits::MAX_VARIANTS),
            format!(
                "a scenario has at most {} variants, got {} (split it into several scenarios)",
                limits::MAX_VARIANTS,
                raw_variants.len()
            ),
        ));
    }
    let expanded = raw_variants.len().max(1) * combinations;
    if expanded > scan::MAX_SCAN_VARIANTS {
        let file = scan.axes.first().map_or(loc.file, |a| a.source.as_str());
        return Err(ScenarioError::Unreadable {
            file: file.to_string(),
            reason: format!(
                "the scan makes {expanded} variants ({} base variants × {combinations} combinations of values); at most {}",
                raw_variants.len().max(1),
                scan::MAX_SCAN_VARIANTS
            ),
        });
    }
    Ok(expanded)
}

/// The base variants: each `[[variant]]` with its name and description
/// checked, or `base` for a file without any.
fn bases<'a, S: Named>(
    loc: &Locator,
    raw_variants: &'a [Spanned<S>],
    scan: &Scan<S>,
) -> Result<Vec<Base<'a, S>>, ScenarioError> {
    let mut bases: Vec<Base<S>> = Vec::new();
    if raw_variants.is_empty() {
        bases.push(Base {
            name: "base".into(),
            description: String::new(),
            own: None,
        });
    }
    for (i, raw) in raw_variants.iter().enumerate() {
        let path = format!("variant[{i}]");
        let name = variant_name(loc, &path, raw, &bases, scan)?;
        let description = values::opt_text(
            raw.get_ref()
                .description()
                .map(|d| values::at(loc, d, format!("{path}.description"))),
            "the description",
            limits::MAX_DESCRIPTION_CHARS,
        )?;
        bases.push(Base {
            name,
            description: description.to_string(),
            own: Some((raw, path, i)),
        });
    }
    Ok(bases)
}

/// The `name` of the `[[variant]]` `raw` at `path`: given, not blank, not
/// too long, unlike those of `bases` before it, and without `@` when
/// scanned.
fn variant_name<S: Named>(
    loc: &Locator,
    path: &str,
    raw: &Spanned<S>,
    bases: &[Base<S>],
    scan: &Scan<S>,
) -> Result<String, ScenarioError> {
    let field = format!("{path}.name");
    let Some(name) = raw.get_ref().name() else {
        return Err(loc.error(raw.span().start, &field, "every [[variant]] needs a `name`"));
    };
    let error = |message: String| loc.error(name.span().start, &field, message);
    if name.get_ref().trim().is_empty() {
        return Err(error("a variant name cannot be empty".into()));
    }
    values::text(
        &values::at(loc, name, field.clone()),
        "a variant name",
        limits::MAX_NAME_CHARS,
    )?;
    if bases.iter().any(|v| v.name == *name.get_ref()) {
        return Err(error(format!(
            "variant name `{}` is used twice",
            name.get_ref()
        )));
    }
    if !scan.axes.is_empty() && name.get_ref().contains('@') {
        return Err(error(
            "a scanned variant's name cannot contain `@` (it separates the scanned values)".into(),
        ));
    }
    Ok(name.get_ref().clone())
}

/// The keys given to a variant of `base`, by where given: its own
/// `[[variant]]`, `[options]`, each override, each scanned key.
fn given_keys<S>(
    generic: &GenericTables,
    base: &Base<S>,
    over: &[(Locator, S)],
    axes: &[ScanAxis],
) -> Vec<(String, Vec<String>)> {
    let own = base.own.as_ref().map(|(_, _, i)| {
        let source = format!("[[variant]] `{}`", base.name);
        (source, generic.variant_keys(*i))
    });
    let options = ("[options]".to_string(), generic.options_keys());
    let overrides = over
        .iter()
        .map(|(at, _)| (at.file.to_string(), top_keys(at.text)));
    let scanned = axes
        .iter()
        .map(|a| (a.source.clone(), vec![top_key(&a.key)]));
    own.into_iter()
        .chain(std::iter::once(options))
        .chain(overrides)
        .chain(scanned)
        .collect()
}

/// The variant `name` of `base` with `rules`, and its row of the scan
/// table at `points` (none without a scan; then the description is the
/// base's, else it says the scanned values).
fn scanned<S, R>(
    base: &Base<S>,
    name: String,
    axes: &[ScanAxis],
    points: &[&ScanPoint],
    rules: R,
) -> (Variant<R>, Option<ScanRow>) {
    if axes.is_empty() {
        let variant = Variant {
            name,
            description: base.description.clone(),
            rules,
        };
        return (variant, None);
    }
    let with: Vec<String> = axes
        .iter()
        .zip(points)
        .map(|(a, p)| format!("{} = {}", a.key, p.label))
        .collect();
    let row = ScanRow {
        variant: name.clone(),
        base: base.name.clone(),
        values: points.iter().map(|p| (p.label.clone(), p.number)).collect(),
    };
    let description = if base.description.is_empty() {
        with.join(", ")
    } else {
        format!("{} ({})", base.description, with.join(", "))
    };
    let variant = Variant {
        name,
        description,
        rules,
    };
    (variant, Some(row))
}

/// Keys given that no rule read: each key with where it was given and
/// the variants in which it did nothing, in the order met.
#[derive(Default)]
struct Unread(Vec<(String, String, Vec<String>)>);

impl Unread {
    /// Notes the keys of `given` (by where given) that `variant` did not
    /// `read` (its name and description aside).
    fn note(&mut self, given: Vec<(String, Vec<String>)>, read: &[String], variant: &str) {
        for (source, keys) in given {
            let unread = keys
                .into_iter()
                .filter(|key| key != "name" && key != "description" && !read.contains(key));
            for key in unread {
                let known = self
                    .0
                    .iter_mut()
                    .find(|(k, s, _)| *k == key && *s == source);
                match known {
                    Some((_, _, variants)) => variants.push(variant.to_string()),
                    None => self
                        .0
                        .push((key, source.clone(), vec![variant.to_string()])),
                }
            }
        }
    }

    /// One warning per key, naming the variants (all `total`: "any").
    fn warnings(self, total: usize) -> Vec<String> {
        self.0
            .into_iter()
            .map(|(key, source, variants)| {
                let which = if variants.len() == total && total > 1 {
                    "any variant".to_string()
                } else if variants.len() <= 3 {
                    let names: Vec<String> = variants.iter().map(|v| format!("`{v}`")).collect();
                    format!("variant {}", names.join(", "))
                } else {
                    format!("{} variants", variants.len())
                };
                format!(
                    "`{key}` (in {source}) has no effect in {which}: no rule there reads it (is the rule it belongs to turned off?)"
                )
            })
            .collect()
    }
}
