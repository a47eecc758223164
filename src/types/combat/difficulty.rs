//! Encounter difficulty of a combat variant, by the SRD 5.2 encounter
//! budgets ([`crate::rules::encounter_difficulty`]): the encounter's XP
//! (its monsters' XP summed), the party's Low/Moderate/High budgets and the
//! difficulty they give, reported per variant as constants — the table
//! `encounter.csv` — and the chart of deaths and injuries against
//! encounter XP. Also the `difficulty` option's builder: the monster side
//! from `monster_pool` for a budget.
//!
//! What counts: the party's PCs (`is_pc`; a hireling with `is_pc = false`
//! is no character and adds no budget) at the level their entry states (a
//! `template`, or `level = N`). A PC without a stated level (a bestiary
//! creature, one written from scratch) leaves the budget not available,
//! never 0. A monster's XP is its entry's `xp`, else its bestiary
//! monster's; one without either leaves the encounter's XP not available.

use toml::Spanned;

use super::CombatVariant;
use crate::combat::bestiary::Bestiary;
use crate::combat::creature::CreatureSpec;
use crate::combat::encounter::MAX_SIDE;
use crate::model::{ScenarioHeader, Variant};
use crate::results::{ChartSpec, ConstantTable, LinePoints, thousands};
use crate::rules::encounter_difficulty::{Budget, Difficulty, FillError, fill, rate};
use crate::scenario::ScenarioError;
use crate::scenario::data::creature::monster;
use crate::scenario::layers::Setting;
use crate::scenario::limits::{MAX_MONSTER_POOL, MAX_XP_BUDGET};
use crate::scenario::values::at_most;

/// A variant's encounter against the SRD 5.2 budgets: constants of its
/// definition, not simulated.
#[derive(Clone, Debug, PartialEq)]
pub struct EncounterXp {
    /// The monsters' XP summed, or why it is not available.
    pub xp: Result<u64, String>,
    /// The monsters, as `count name` groups (`6 hobgoblin`).
    pub monsters: Vec<(usize, String)>,
    /// The levels of the characters the budget counts, or why the budget
    /// is not available.
    pub levels: Result<Vec<u8>, String>,
    /// What `difficulty` asked for, when it built the monsters
    /// (`3000 XP (moderate)`, `2500 XP`).
    pub built_for: Option<String>,
}

impl EncounterXp {
    /// The party's budget, or why there is none.
    pub fn budget(&self) -> Result<Budget, String> {
        budget_of(&self.levels)
    }

    /// The monsters as a table cell: `count name` groups joined by ` + `.
    pub fn monsters_cell(&self) -> String {
        self.monsters
            .iter()
            .map(|(n, name)| format!("{n} {name}"))
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// The XP as a table cell (empty: not available).
    pub fn xp_cell(&self) -> String {
        self.xp.as_ref().map_or(String::new(), u64::to_string)
    }

    /// The party's Low, Moderate and High budgets as table cells (empty:
    /// not available).
    pub fn budget_cells(&self) -> [String; 3] {
        let budget = self.budget().ok();
        [
            |b: &Budget| b.low,
            |b: &Budget| b.moderate,
            |b: &Budget| b.high,
        ]
        .map(|f| budget.as_ref().map_or(String::new(), |b| f(b).to_string()))
    }
}

/// The budget of the characters' `levels`, or why there is none.
fn budget_of(levels: &Result<Vec<u8>, String>) -> Result<Budget, String> {
    let levels = levels.as_ref().map_err(Clone::clone)?;
    crate::rules::encounter_difficulty::party_budget(levels)
        .ok_or_else(|| "no PC in the party".to_string())
}

/// The characters' levels of a party: `(creature, whether its entry
/// states its level)`; an error names a PC without one.
pub fn party_levels(party: &[(CreatureSpec, bool)]) -> Result<Vec<u8>, String> {
    let mut levels = Vec::new();
    for (pc, stated) in party.iter().filter(|(c, _)| c.is_pc) {
        if !stated {
            return Err(format!(
                "PC `{}` has no level (give it `level = N` or a `template`)",
                pc.name
            ));
        }
        levels.push(pc.level);
    }
    if levels.is_empty() {
        return Err("no PC in the party".into());
    }
    Ok(levels)
}

/// The XP budget `difficulty` gives: a named difficulty of the party's
/// budget, or a whole number of XP; with a label for reports.
fn asked_budget(
    difficulty: &Setting<'_, toml::Value>,
    party: &Result<Budget, String>,
) -> Result<(u64, String), ScenarioError> {
    let words: Vec<&str> = Difficulty::ALL.iter().map(|(_, w)| *w).collect();
    match difficulty.get() {
        toml::Value::String(word) => {
            let Some(d) = Difficulty::named(word) else {
                let hint = crate::scenario::wording::did_you_mean(word, &words);
                return Err(difficulty.error(format!(
                    "unknown difficulty `{word}`{hint}: one of `low`, `moderate`, `high` (SRD 5.2), or an XP budget as a whole number"
                )));
            };
            let budget = party.as_ref().map_err(|why| {
                difficulty.error(format!(
                    "difficulty `{word}` needs the party's XP budget, which is not available: {why}; or give the budget in XP (`difficulty = 3000`)"
                ))
            })?;
            let xp = budget.of(d);
            Ok((xp, format!("{xp} XP ({word})")))
        }
        toml::Value::Integer(xp) if (1..=MAX_XP_BUDGET).contains(xp) => {
            Ok((*xp as u64, format!("{xp} XP")))
        }
        toml::Value::Integer(xp) => Err(difficulty.error(format!(
            "an XP budget must be between 1 and {MAX_XP_BUDGET}, got {xp}"
        ))),
        other => Err(difficulty.error(format!(
            "difficulty must be `low`, `moderate`, `high` or an XP budget (a whole number), got {}",
            other.type_str()
        ))),
    }
}

/// The monster side `difficulty` builds from `pool` for a party of
/// characters of `levels` (SRD 5.2 budgets, [`fill`]: greedy from the
/// highest XP down), with what it is worth.
pub fn build_monsters(
    difficulty: Setting<'_, toml::Value>,
    pool: Option<Setting<'_, Vec<Spanned<String>>>>,
    levels: Result<Vec<u8>, String>,
    bestiary: &Bestiary,
) -> Result<(Vec<CreatureSpec>, EncounterXp), ScenarioError> {
    let (budget, asked) = asked_budget(&difficulty, &budget_of(&levels))?;
    let Some(pool) = pool else {
        return Err(difficulty.error(
            "`difficulty` needs `monster_pool = [\"NAME\", ...]`: the bestiary monsters to build the encounter from",
        ));
    };
    at_most(&pool, "monsters in `monster_pool`", MAX_MONSTER_POOL)?;
    if pool.get().is_empty() {
        return Err(pool.error("`monster_pool` is empty: name at least one bestiary monster"));
    }
    let mut monsters = Vec::with_capacity(pool.get().len());
    for (i, name) in pool.get().iter().enumerate() {
        let item = pool.item(i, name);
        let m = monster(bestiary, &item.loc, name, &item.field)?;
        if monsters.iter().any(|(k, _, _)| *k == m.key) {
            return Err(item.error(format!("`{}` is in `monster_pool` twice", m.key)));
        }
        let Some(xp) = m.lore.xp else {
            return Err(item.error(format!(
                "`{}` has no XP in the bestiary, so it cannot count against a budget",
                m.key
            )));
        };
        monsters.push((m.key.clone(), &m.spec, u64::from(xp)));
    }
    let xp: Vec<u64> = monsters.iter().map(|(_, _, x)| *x).collect();
    let counts = fill(&xp, budget, MAX_SIDE).map_err(|e| match e {
        FillError::ZeroXp(i) => pool.item(i, &pool.get()[i]).error(format!(
            "`{}` is worth 0 XP: any number of it fits a budget",
            monsters[i].0
        )),
        FillError::NoneFits { cheapest } => difficulty.error(format!(
            "a budget of {asked} fits no monster of `monster_pool`: the cheapest is worth {cheapest} XP"
        )),
        FillError::TooMany { count } => difficulty.error(format!(
            "a budget of {asked} buys {count} monsters of `monster_pool`, more than the {MAX_SIDE} an encounter may have: add a monster worth more XP, or lower the budget"
        )),
    })?;
    let mut specs = Vec::new();
    let mut groups = Vec::new();
    for ((_, spec, _), &count) in monsters.iter().zip(&counts) {
        if count > 0 {
            copies(spec, count as usize, &mut specs);
            groups.push((count as usize, spec.name.clone()));
        }
    }
    let total = xp.iter().zip(&counts).map(|(x, c)| x * c).sum();
    Ok((
        specs,
        EncounterXp {
            xp: Ok(total),
            monsters: groups,
            levels,
            built_for: Some(asked),
        },
    ))
}

/// `count` copies of `spec` onto `out`, numbered (`hobgoblin-1`, ...) when
/// there are several.
pub fn copies(spec: &CreatureSpec, count: usize, out: &mut Vec<CreatureSpec>) {
    for k in 0..count {
        let mut copy = spec.clone();
        if count > 1 {
            copy.name = format!("{}-{}", spec.name, k + 1);
        }
        out.push(copy);
    }
}

/// The columns of `encounter.csv`.
pub const ENCOUNTER_COLUMNS: [&str; 10] = [
    "variant",
    "monsters",
    "encounter_xp",
    "party_levels",
    "low_budget",
    "moderate_budget",
    "high_budget",
    "difficulty",
    "built_for",
    "note",
];

/// `encounter.csv`: one row per variant.
pub fn table(variants: &[Variant<CombatVariant>]) -> ConstantTable {
    let rows = variants
        .iter()
        .map(|v| {
            let e = &v.rules.difficulty;
            let budget = e.budget();
            let notes: Vec<&str> = [e.xp.as_ref().err(), budget.as_ref().err()]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            let [low, moderate, high] = e.budget_cells();
            vec![
                v.name.clone(),
                e.monsters_cell(),
                e.xp_cell(),
                e.levels.as_ref().map_or(String::new(), |l| {
                    l.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
                }),
                low,
                moderate,
                high,
                match (&e.xp, &budget) {
                    (Ok(xp), Ok(b)) => rate(*xp, *b).label().to_string(),
                    _ => String::new(),
                },
                e.built_for.clone().unwrap_or_default(),
                notes.join("; "),
            ]
        })
        .collect();
    ConstantTable {
        file: "encounter".into(),
        columns: ENCOUNTER_COLUMNS.iter().map(|c| c.to_string()).collect(),
        rows,
        shown: vec!["encounter_xp".into(), "difficulty".into()],
    }
}

/// The chart of deaths and injuries against encounter XP: one curve per
/// headline share (a PC dies, a PC drops; a permanent wound and a
/// lingering injury when some variant has the rule on), x = each
/// variant's encounter XP. Drawn when every variant's XP is known and no
/// two variants share one (one point per XP), at least two.
pub fn chart(
    header: &ScenarioHeader,
    variants: &[Variant<CombatVariant>],
    injuries: bool,
) -> Option<ChartSpec> {
    let mut points: Vec<(f64, String)> = variants
        .iter()
        .map(|v| {
            v.rules
                .difficulty
                .xp
                .as_ref()
                .ok()
                .map(|&xp| (xp as f64, v.name.clone()))
        })
        .collect::<Option<_>>()?;
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    if points.len() < 2 || points.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let wounds = variants.iter().any(|v| {
        v.rules.encounter.rules.death_saves.wound_policy
            != crate::rules::permanent_wounds::WoundPolicy::Never
    });
    let mut curves = vec![
        ("p_pc_death", "a PC dies"),
        ("p_pc_down", "a PC drops to 0 HP"),
    ];
    if wounds {
        curves.push(("p_permanent_wound", "a permanent wound"));
    }
    if injuries {
        curves.push(("p_injury", "a lingering injury"));
    }
    let what = if injuries {
        "deaths and injuries"
    } else {
        "deaths and drops"
    };
    Some(ChartSpec::Lines {
        file: "deaths-by-xp".into(),
        title: format!(
            "{}: {what} against encounter XP ({} trials per variant)",
            header.name,
            thousands(header.trials)
        ),
        x_label: "Encounter XP (the monsters' XP summed; budgets in encounter.csv)".into(),
        y_label: "Trials in which it happens (%)".into(),
        variants: curves.iter().map(|(_, l)| l.to_string()).collect(),
        points: LinePoints::PerMetric {
            metrics: curves.iter().map(|(m, _)| m.to_string()).collect(),
            points,
        },
        percent: true,
    })
}
