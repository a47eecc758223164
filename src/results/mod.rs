//! What a simulation or an exact solution hands to the reports: figures with
//! intervals, distribution rows, and the charts to draw from them.
//!
//! These are plain values; `report` only reads them, and the scenario
//! types' Monte Carlo and exact modes only build them, so every output format sees the same numbers.

pub mod catalogue;

use crate::engine::stats::Estimate;
pub use crate::model::{ScanRow, ScanTable};
pub use catalogue::{Kind, Unit};

/// All results of one scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioResult {
    /// Scenario name (the `scenario` column).
    pub scenario: String,
    /// One-line description for report headers.
    pub description: String,
    /// The seed used (the `seed` column; 0 for exact results).
    pub seed: u64,
    /// Trials per variant (the `trials` column; 0 marks exact results).
    pub trials: u64,
    /// Interval confidence level, e.g. 0.95.
    pub confidence: f64,
    /// Variant names in scenario order; the first is the baseline of `_diff` metrics.
    pub variants: Vec<String>,
    /// One row per figure.
    pub figures: Vec<Figure>,
    /// Rows of every distribution, long format.
    pub distributions: Vec<DistributionRow>,
    /// Charts to draw.
    pub charts: Vec<ChartSpec>,
    /// Long per-item lists of figures that the stdout table shortens.
    pub item_rows: Vec<ItemRows>,
    /// Figures whose number stands for "not available" (an injury no
    /// remedy at hand can cure has a healing cost of 0 gp in
    /// `summary.csv`): tables and charts show the reason instead.
    pub not_available: Vec<NotAvailable>,
    /// One description per variant, in `variants` order, for the HTML
    /// report (empty where none is known).
    pub variant_descriptions: Vec<String>,
    /// The parameter scan the variants come from, if any.
    pub scan: Option<ScanTable>,
    /// Tables of constants per variant (not Monte Carlo figures), each
    /// written as `DIR/<scenario>/<file>.csv`: e.g. a combat encounter's
    /// XP and the party's XP budgets.
    pub tables: Vec<ConstantTable>,
    /// The answer to the scenario's question, before any table: paired
    /// differences in plain words (a campaign's standard against harsh).
    pub verdicts: Vec<Verdict>,
    /// Why some figures cannot mean what they seem to (two settings that
    /// cannot differ here), printed before the figures.
    pub warnings: Vec<String>,
    /// The metrics the human-readable reports show by default, where the
    /// type names them (`None`: every metric). The others stay in
    /// `summary.csv`, the charts and the HTML report's folded table;
    /// `--metrics` prints them.
    pub headline: Option<Vec<String>>,
}

/// One paired comparison in plain words: what the reports print first.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// What is compared: `harsh against standard (they differ only in
    /// healing)`.
    pub heading: String,
    /// One line per figure: the two values and their paired difference
    /// with its interval.
    pub lines: Vec<String>,
}

/// A table of values each variant has by its definition, not by
/// simulation (no interval): one row per variant, in variant order.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstantTable {
    /// File stem: `encounter` → `DIR/<scenario>/encounter.csv`.
    pub file: String,
    /// Column names (lower_snake_case); the first is `variant`.
    pub columns: Vec<String>,
    /// Cells as written (an empty cell: not available), each row as long
    /// as `columns`.
    pub rows: Vec<Vec<String>>,
    /// The columns the stdout table and the HTML report show, as rows
    /// above the figures (`encounter_xp`, `difficulty`).
    pub shown: Vec<String>,
}

/// A figure that means "not available": the reports print `reason` (e.g.
/// `no cure available`) instead of its number, which `summary.csv` keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct NotAvailable {
    /// Variant name.
    pub variant: String,
    /// Metric name.
    pub metric: String,
    /// What to show instead of the number, e.g. `no cure available`.
    pub reason: String,
}

/// One figure: a metric of a variant with its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Variant name.
    pub variant: String,
    /// Metric name (lower_snake_case, documented in the README).
    pub metric: String,
    /// Estimate and interval.
    pub estimate: Estimate,
    /// The observations behind the figure where they are not the run's
    /// trials: the events, encounters or injuries a per-event, per-encounter
    /// or per-injury figure is taken over, the trials a conditional figure
    /// is taken over (`mean_heal_gp_entry_*`: the injuries of that entry).
    /// `None`: every trial (the result's `trials`).
    pub trials: Option<u64>,
    /// What kind of number it is (how its interval was made, how `check`
    /// tests it), from the type's metric catalogue.
    pub kind: Kind,
    /// What it is measured in.
    pub unit: Unit,
}

/// One bin of a distribution of a variant.
#[derive(Clone, Debug, PartialEq)]
pub struct DistributionRow {
    /// Variant name.
    pub variant: String,
    /// Distribution name, e.g. `rolls`.
    pub distribution: String,
    /// The bin's value.
    pub bin: i64,
    /// Trials in the bin (0 for exact results).
    pub count: u64,
    /// Share of trials in the bin with its interval.
    pub share: Estimate,
    /// The observations the shares are taken over where they are not the
    /// run's trials (a conditional distribution, such as the days until a
    /// wound closed among closed wounds); `None`: every trial.
    pub trials: Option<u64>,
}

/// A long list of per-item figures — the same few metrics for every item,
/// such as each of the 23 injury-table entries — that the stdout table
/// shortens to the items ranked first; `summary.csv` keeps every figure.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemRows {
    /// What the items are, plural, for the table: `injury-table entries`.
    pub items: String,
    /// What the first metric of every item measures, for the table:
    /// `probability per triggering event`.
    pub ranked_by: String,
    /// Each item's metrics, in table order. The items are ranked by
    /// [`ItemRows::odds`] where known, else by their first metric's
    /// estimate averaged over the variants, highest first; ties keep table
    /// order.
    pub metrics: Vec<Vec<String>>,
    /// How many items the table shows.
    pub shown: usize,
    /// Each item's exact weight where every variant shares it (an
    /// injury-table entry's share of the d100), which ranks the items
    /// without noise: entries of equal true probability are not ordered by
    /// chance. `None`: rank by the estimates.
    pub odds: Option<Vec<f64>>,
}

/// A chart to draw from a result.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartSpec {
    /// Grouped bars: one group per category (a proportion metric), one bar
    /// per variant, with interval whiskers; shown in percent.
    Shares {
        /// File stem, e.g. `outcomes` → `outcomes.png` and `outcomes.svg`.
        file: String,
        /// Chart title.
        title: String,
        /// X-axis caption.
        x_label: String,
        /// `(metric, label)` for each group.
        categories: Vec<(String, String)>,
    },
    /// Grouped bars of a distribution's shares by bin, one bar per variant.
    Distribution {
        /// File stem.
        file: String,
        /// Chart title.
        title: String,
        /// The distribution to draw.
        distribution: String,
        /// X-axis caption, with units.
        x_label: String,
    },
    /// Horizontal bars: one row per category (a metric), one bar per
    /// variant, with interval whiskers — for long category lists such as
    /// the 23 injury-table entries.
    Bars {
        /// File stem.
        file: String,
        /// Chart title.
        title: String,
        /// Value-axis caption, with units.
        value_label: String,
        /// `(metric, label)` for each row, top to bottom.
        categories: Vec<(String, String)>,
        /// Proportions drawn in percent (else the raw value).
        percent: bool,
    },
    /// Lines: one curve per listed variant (or per metric, see
    /// [`LinePoints::PerMetric`]) over numeric x values, with interval
    /// bands (Monte Carlo) — e.g. death probability against max HP, one
    /// curve per Medicine modifier.
    Lines {
        /// File stem.
        file: String,
        /// Chart title.
        title: String,
        /// X-axis caption, with units.
        x_label: String,
        /// Y-axis caption, with units.
        y_label: String,
        /// Variants to draw, one curve each (in this order); with
        /// [`LinePoints::PerMetric`], the curves' labels.
        variants: Vec<String>,
        /// Where the points come from.
        points: LinePoints,
        /// Proportions drawn in percent (else the raw value).
        percent: bool,
    },
    /// Stacked shares: one panel per variant, the layers' shares stacked
    /// over numeric x values (in percent, 0–100%) — e.g. PCs by wound
    /// state after each level of a campaign. The note gives the widest
    /// interval; every interval is in `summary.csv`.
    Stacked {
        /// File stem.
        file: String,
        /// Chart title.
        title: String,
        /// X-axis caption, with units.
        x_label: String,
        /// Y-axis caption, with units.
        y_label: String,
        /// Variants to draw, one panel each (in this order).
        variants: Vec<String>,
        /// `(label, points (x, metric))` of each layer, bottom to top; every
        /// layer has the same x values.
        layers: Vec<(String, Vec<(f64, String)>)>,
    },
}

/// The points of a [`ChartSpec::Lines`] curve.
#[derive(Clone, Debug, PartialEq)]
pub enum LinePoints {
    /// `(x, metric)`: the curve of a variant passes through its metric's estimate at x.
    Metrics(Vec<(f64, String)>),
    /// The shares of a distribution by bin (x = bin).
    Distribution(String),
    /// A parameter scan: curve `j` (named `variants[j]`) passes through
    /// `metric` of variant `v` at x for each `(x, v)` of `series[j]`;
    /// `sequential`: the curves are ordered values of a second scanned
    /// key, coloured dark to light.
    Scan {
        /// The metric drawn.
        metric: String,
        /// Each curve's points: `(x, variant)`.
        series: Vec<Vec<(f64, String)>>,
        /// A sequential palette (ordered curves) instead of a qualitative one.
        sequential: bool,
        /// What the chart's note says first (empty: nothing), e.g. that
        /// the scan charts only some of its metrics. A note wraps where a
        /// title would run off the canvas.
        note: String,
    },
    /// One curve per metric across variants: curve `j` (named
    /// `variants[j]`) passes through `metrics[j]` of variant `v` at x for
    /// each `(x, v)` of `points` — e.g. death and injury rates against
    /// each variant's encounter XP.
    PerMetric {
        /// The metric of each curve.
        metrics: Vec<String>,
        /// The points every curve shares: `(x, variant)`.
        points: Vec<(f64, String)>,
    },
}

impl ScenarioResult {
    /// A result for `header`'s scenario with no figures yet; `trials = 0`
    /// in the header marks exact figures (their seed is written as 0).
    pub fn for_header(header: &crate::model::ScenarioHeader, variants: Vec<String>) -> Self {
        ScenarioResult {
            scenario: header.name.clone(),
            description: header.description.clone(),
            seed: if header.trials == 0 { 0 } else { header.seed },
            trials: header.trials,
            confidence: header.confidence,
            variants,
            figures: Vec::new(),
            distributions: Vec::new(),
            charts: Vec::new(),
            item_rows: Vec::new(),
            not_available: Vec::new(),
            variant_descriptions: Vec::new(),
            scan: None,
            tables: Vec::new(),
            verdicts: Vec::new(),
            warnings: Vec::new(),
            headline: None,
        }
    }

    /// This result with the type's headline metrics
    /// ([`ScenarioResult::headline`]): the rows the terminal table shows
    /// by default. A name with no figure in this result is ignored.
    pub fn with_headline(mut self, metrics: &[&str]) -> Self {
        self.headline = Some(metrics.iter().map(|m| m.to_string()).collect());
        self
    }

    /// This result with the variants' descriptions (in `variants` order).
    pub fn described(mut self, descriptions: Vec<String>) -> Self {
        self.variant_descriptions = descriptions;
        self
    }

    /// Why the figure for `metric` of `variant` is not available, if it
    /// stands for that rather than for its number.
    pub fn not_available(&self, variant: &str, metric: &str) -> Option<&str> {
        self.not_available
            .iter()
            .find(|n| n.variant == variant && n.metric == metric)
            .map(|n| n.reason.as_str())
    }

    /// The figure for `metric` of `variant`, if any.
    pub fn figure(&self, variant: &str, metric: &str) -> Option<&Figure> {
        self.figures
            .iter()
            .find(|f| f.variant == variant && f.metric == metric)
    }

    /// Whether these are exact figures rather than Monte Carlo estimates.
    pub fn is_exact(&self) -> bool {
        self.trials == 0
    }
}

/// What the reports say about the run as a whole (the HTML report's
/// header). The application fills it; fields it does not know stay `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunMetadata {
    /// woundsim's version.
    pub version: String,
    /// When the run started.
    pub started: Option<std::time::SystemTime>,
    /// Worker threads (never changes a figure).
    pub threads: Option<usize>,
    /// Seconds from the start of the run until the reports were rendered.
    pub wall_seconds: Option<f64>,
}

impl Default for RunMetadata {
    fn default() -> Self {
        RunMetadata {
            version: env!("CARGO_PKG_VERSION").to_string(),
            started: None,
            threads: None,
            wall_seconds: None,
        }
    }
}

/// A name as a part of a metric name: lower_snake_case ASCII (the metric
/// naming contract), every other character a `_`, runs of `_` merged.
///
/// ```
/// use woundsim::results::metric_part;
/// assert_eq!(metric_part("Fighter-3-1"), "fighter_3_1");
/// assert_eq!(metric_part("  Sir Éric "), "sir_ric");
/// assert_eq!(metric_part("--"), "");
/// ```
pub fn metric_part(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// `1234567` → `"1,234,567"`, for titles and tables.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `-12345` → `"-12,345"`: [`thousands`] for signed numbers.
pub fn thousands_signed(n: i64) -> String {
    let digits = thousands(n.unsigned_abs());
    if n < 0 { format!("-{digits}") } else { digits }
}

/// The kind the naming convention gives a metric (`p_` a proportion,
/// `_diff` a difference, anything else a mean): for the fixtures of the
/// report's tests only; the library reads a figure's recorded kind.
#[cfg(test)]
pub(crate) fn fixture_kind(metric: &str) -> Kind {
    if metric.ends_with("_diff") {
        Kind::Difference
    } else if metric.starts_with("p_") {
        Kind::Proportion
    } else {
        Kind::Mean
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_groups_digits() {
        assert_eq!(super::thousands_signed(-12345), "-12,345");
        assert_eq!(super::thousands_signed(7), "7");
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1000), "1,000");
        assert_eq!(super::thousands(20_000_000), "20,000,000");
    }
}
