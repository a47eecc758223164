//! Combat encounter difficulty, SRD 5.2 ("Combat Encounter Difficulty"):
//! the XP Budget per Character table by level and difficulty (Low,
//! Moderate, High), summed over the party's characters; an encounter's XP
//! is the sum of its monsters' XP, and a budget is the most XP an encounter
//! of that difficulty spends.
//!
//! [`rate`] names the difficulty an encounter's XP fits, [`fill`] builds
//! the monster side of an encounter from a pool of monsters and a budget
//! (deterministically: greedy, from the highest XP down). Facts from the
//! System Reference Document 5.2 by Wizards of the Coast LLC, licensed
//! under CC-BY-4.0 (see NOTICE).

/// The proficiency bonus of a creature of challenge rating `cr` (SRD
/// "Proficiency Bonus by CR"): +2 up to CR 4, then one more every four
/// ratings (+3 at CR 5-8, ... +9 at CR 29-30).
pub fn proficiency_by_cr(cr: f64) -> i32 {
    if cr < 5.0 {
        2
    } else {
        (cr.min(30.0) as i32 - 1) / 4 + 2
    }
}

/// One of the SRD's three encounter difficulties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// Low difficulty.
    Low,
    /// Moderate difficulty.
    Moderate,
    /// High difficulty.
    High,
}

impl Difficulty {
    /// Every difficulty, lowest first, with the word a scenario writes.
    pub const ALL: [(Difficulty, &'static str); 3] = [
        (Difficulty::Low, "low"),
        (Difficulty::Moderate, "moderate"),
        (Difficulty::High, "high"),
    ];

    /// The difficulty a scenario names (`low`, `moderate`, `high`).
    pub fn named(word: &str) -> Option<Difficulty> {
        Self::ALL.iter().find(|(_, w)| *w == word).map(|(d, _)| *d)
    }
}

/// XP budgets of the three difficulties (per character, or summed over a
/// party).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Low difficulty.
    pub low: u64,
    /// Moderate difficulty.
    pub moderate: u64,
    /// High difficulty.
    pub high: u64,
}

impl Budget {
    /// The budget of `difficulty`.
    pub fn of(self, difficulty: Difficulty) -> u64 {
        match difficulty {
            Difficulty::Low => self.low,
            Difficulty::Moderate => self.moderate,
            Difficulty::High => self.high,
        }
    }
}

const fn row(low: u64, moderate: u64, high: u64) -> Budget {
    Budget {
        low,
        moderate,
        high,
    }
}

/// SRD 5.2, "XP Budget per Character": row `k` is character level `k + 1`.
pub const XP_BUDGET_PER_CHARACTER: [Budget; 20] = [
    row(50, 75, 100),
    row(100, 150, 200),
    row(150, 225, 400),
    row(250, 375, 500),
    row(500, 750, 1100),
    row(600, 1000, 1400),
    row(750, 1300, 1700),
    row(1000, 1700, 2100),
    row(1300, 2000, 2600),
    row(1600, 2300, 3100),
    row(1900, 2900, 4100),
    row(2200, 3700, 4700),
    row(2600, 4200, 5400),
    row(2900, 4900, 6200),
    row(3300, 5400, 7800),
    row(3800, 6100, 9800),
    row(4500, 7200, 11700),
    row(5000, 8700, 14200),
    row(5500, 10700, 17200),
    row(6400, 13200, 22000),
];

/// The budget of one character of `level` (1–20; `None` outside).
pub fn per_character(level: u8) -> Option<Budget> {
    XP_BUDGET_PER_CHARACTER
        .get(usize::from(level).checked_sub(1)?)
        .copied()
}

/// The party's budget: the per-character budgets of `levels` summed; `None`
/// for no character or a level outside 1–20 (never a budget of 0).
///
/// ```
/// use woundsim::rules::encounter_difficulty::party_budget;
/// let b = party_budget(&[5, 5, 5, 5]).unwrap();
/// assert_eq!((b.low, b.moderate, b.high), (2000, 3000, 4400));
/// assert_eq!(party_budget(&[]), None);
/// ```
pub fn party_budget(levels: &[u8]) -> Option<Budget> {
    if levels.is_empty() {
        return None;
    }
    levels.iter().try_fold(Budget::default(), |sum, &level| {
        let b = per_character(level)?;
        Some(Budget {
            low: sum.low + b.low,
            moderate: sum.moderate + b.moderate,
            high: sum.high + b.high,
        })
    })
}

/// Where an encounter's XP falls against a party's budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rating {
    /// Within the Low budget.
    Low,
    /// Above Low, within Moderate.
    Moderate,
    /// Above Moderate, within High.
    High,
    /// Above the High budget: harder than any difficulty the SRD builds.
    AboveHigh,
}

impl Rating {
    /// The label in reports (`low`, `moderate`, `high`, `above high`).
    pub fn label(self) -> &'static str {
        match self {
            Rating::Low => "low",
            Rating::Moderate => "moderate",
            Rating::High => "high",
            Rating::AboveHigh => "above high",
        }
    }
}

/// The difficulty encounter XP `xp` has for `budget`: the lowest whose
/// budget holds it (a budget is the most XP an encounter of that
/// difficulty spends), or above High.
pub fn rate(xp: u64, budget: Budget) -> Rating {
    if xp <= budget.low {
        Rating::Low
    } else if xp <= budget.moderate {
        Rating::Moderate
    } else if xp <= budget.high {
        Rating::High
    } else {
        Rating::AboveHigh
    }
}

/// Why [`fill`] builds no encounter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FillError {
    /// The pool's monster at this index is worth 0 XP: any number of it
    /// fits any budget.
    ZeroXp(usize),
    /// Not one monster of the pool fits the budget; the cheapest is worth
    /// this much XP.
    NoneFits {
        /// The cheapest pool monster's XP.
        cheapest: u64,
    },
    /// The budget buys more monsters than `max`.
    TooMany {
        /// How many it buys.
        count: u64,
    },
}

/// The monster side for `budget` from a pool of monsters worth `xp[i]`
/// each: how many of each (in pool order). Greedy, from the highest XP
/// down (ties in pool order): as many of the dearest monster as fit in
/// what is left of the budget, then the next. Deterministic: the same
/// pool and budget always give the same encounter; at most `max` monsters.
///
/// ```
/// use woundsim::rules::encounter_difficulty::fill;
/// // A 3,000 XP budget from ogres (450 XP) and goblins (50 XP).
/// assert_eq!(fill(&[50, 450], 3000, 256), Ok(vec![6, 6]));
/// ```
pub fn fill(xp: &[u64], budget: u64, max: usize) -> Result<Vec<u64>, FillError> {
    if let Some(i) = xp.iter().position(|&x| x == 0) {
        return Err(FillError::ZeroXp(i));
    }
    let mut order: Vec<usize> = (0..xp.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(xp[i]));
    let mut counts = vec![0; xp.len()];
    let mut left = budget;
    for i in order {
        counts[i] = left / xp[i];
        left -= counts[i] * xp[i];
    }
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return Err(FillError::NoneFits {
            cheapest: xp.iter().copied().min().unwrap_or(0),
        });
    }
    if total > max as u64 {
        return Err(FillError::TooMany { count: total });
    }
    Ok(counts)
}

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
pub fn budget_of(levels: &Result<Vec<u8>, String>) -> Result<Budget, String> {
    let levels = levels.as_ref().map_err(Clone::clone)?;
    party_budget(levels).ok_or_else(|| "no PC in the party".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SRD 5.2 table, level by level (Low, Moderate, High).
    const SRD: [(u8, u64, u64, u64); 20] = [
        (1, 50, 75, 100),
        (2, 100, 150, 200),
        (3, 150, 225, 400),
        (4, 250, 375, 500),
        (5, 500, 750, 1100),
        (6, 600, 1000, 1400),
        (7, 750, 1300, 1700),
        (8, 1000, 1700, 2100),
        (9, 1300, 2000, 2600),
        (10, 1600, 2300, 3100),
        (11, 1900, 2900, 4100),
        (12, 2200, 3700, 4700),
        (13, 2600, 4200, 5400),
        (14, 2900, 4900, 6200),
        (15, 3300, 5400, 7800),
        (16, 3800, 6100, 9800),
        (17, 4500, 7200, 11700),
        (18, 5000, 8700, 14200),
        (19, 5500, 10700, 17200),
        (20, 6400, 13200, 22000),
    ];

    #[test]
    fn each_level_has_the_srd_budget_per_character() {
        for (level, low, moderate, high) in SRD {
            assert_eq!(
                per_character(level),
                Some(row(low, moderate, high)),
                "level {level}"
            );
            assert_eq!(party_budget(&[level]), Some(row(low, moderate, high)));
        }
    }

    #[test]
    fn levels_outside_1_to_20_have_no_budget() {
        assert_eq!(per_character(0), None);
        assert_eq!(per_character(21), None);
        assert_eq!(party_budget(&[5, 0]), None);
        assert_eq!(party_budget(&[]), None, "no character: no budget, not 0");
    }

    #[test]
    fn a_party_budget_is_the_sum_over_its_characters() {
        // Four level-5 PCs: 4 × (500, 750, 1100).
        assert_eq!(party_budget(&[5, 5, 5, 5]), Some(row(2000, 3000, 4400)));
        // Mixed levels: 1 + 20.
        assert_eq!(party_budget(&[1, 20]), Some(row(6450, 13275, 22100)));
    }

    #[test]
    fn each_row_boundary_rates_as_its_difficulty() {
        // At each budget the encounter is of that difficulty; one XP more
        // is the next.
        for (level, low, moderate, high) in SRD {
            let b = per_character(level).unwrap();
            assert_eq!(rate(0, b), Rating::Low, "level {level}");
            assert_eq!(rate(low, b), Rating::Low, "level {level}");
            assert_eq!(rate(low + 1, b), Rating::Moderate, "level {level}");
            assert_eq!(rate(moderate, b), Rating::Moderate, "level {level}");
            assert_eq!(rate(moderate + 1, b), Rating::High, "level {level}");
            assert_eq!(rate(high, b), Rating::High, "level {level}");
            assert_eq!(rate(high + 1, b), Rating::AboveHigh, "level {level}");
        }
    }

    #[test]
    fn difficulties_are_named_by_their_words() {
        assert_eq!(Difficulty::named("moderate"), Some(Difficulty::Moderate));
        assert_eq!(Difficulty::named("Moderate"), None);
        assert_eq!(Difficulty::named("deadly"), None);
        let b = row(1, 2, 3);
        let of: Vec<u64> = Difficulty::ALL.iter().map(|(d, _)| b.of(*d)).collect();
        assert_eq!(of, [1, 2, 3]);
    }

    #[test]
    fn the_builder_fills_greedily_from_the_highest_xp_down() {
        // Hobgoblins (100) and goblins (50), a 2,250 XP budget: 22
        // hobgoblins, then one goblin for the 50 left.
        assert_eq!(fill(&[100, 50], 2250, 256), Ok(vec![22, 1]));
        // Pool order does not matter, only XP (ties keep pool order).
        assert_eq!(fill(&[50, 100], 2250, 256), Ok(vec![1, 22]));
        // The dearest monster does not fit: the next fills the budget.
        assert_eq!(fill(&[5900, 450], 3000, 256), Ok(vec![0, 6]));
        // Exactly the budget.
        assert_eq!(fill(&[100], 400, 256), Ok(vec![4]));
    }

    #[test]
    fn an_impossible_budget_is_an_error() {
        assert_eq!(
            fill(&[450, 700], 400, 256),
            Err(FillError::NoneFits { cheapest: 450 })
        );
        assert_eq!(
            fill(&[50], 50 * 257, 256),
            Err(FillError::TooMany { count: 257 })
        );
        assert_eq!(fill(&[50], 50 * 256, 256), Ok(vec![256]));
        assert_eq!(fill(&[100, 0], 400, 256), Err(FillError::ZeroXp(1)));
    }
}
