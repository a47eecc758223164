//! Healing permanent wounds and raising the dead (docs/rules.md, permanent wounds: "Healing
//! permanent wounds: standard and harsh settings"; campaign facts: "Raising the dead", "Spell
//! availability by caster level").
//!
//! The GM's [`HealingSetting`] says which casting heals which wound ([`CastingRule`] tables,
//! one per setting): in the standard setting a ritual *lesser restoration* heals a minor wound,
//! a ritual *greater restoration* a moderate one and *resurrection* (normal rules, so it
//! restores every missing part: **our reading**, it heals every wound) a severe one; in the
//! harsh setting a ritual *greater restoration* heals a minor wound, one *resurrection* either
//! raises a dead PC or heals its moderate and minor wounds (never both), and *true
//! resurrection* raises and heals everything (10,000 gp instead of 25,000 when it only heals).
//! *Revivify*, *raise dead*, *resurrection* and *true resurrection* raise within 1 minute,
//! 10 days, 100 years and 200 years of death.
//!
//! A [`Provider`] casts: the party's own caster (its class level and [`Progression`] set the
//! highest spell level it casts) or a temple (a maximum spell level and a fee per spell).
//! Whoever casts pays the casting's materials — the ritual cost of the seed's table, else the
//! spell's consumed components of [`PriceList::materials`] — and a temple adds its fee on top
//! of them, never instead of them (docs/rules.md, "Who casts and what it costs"). [`plan`] returns the cheapest list of castings that reaches a [`Goal`], or `None`.
//! Castings are spread over downtime, so a caster's slots per day do not limit them.

use crate::rules::permanent_wounds::{Severity, WoundSlots};
use crate::rules::prices::{PriceList, SPELLS, full_caster_slots, spell_index};

/// Which healing table the GM uses (docs/rules.md, permanent wounds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealingSetting {
    /// Much healing magic about: restorations and *resurrection*.
    #[default]
    Standard,
    /// Harder conditions: *greater restoration*, *resurrection* (either/or) and *true
    /// resurrection*.
    Harsh,
}

impl HealingSetting {
    /// Both settings, standard first.
    pub const ALL: [HealingSetting; 2] = [HealingSetting::Standard, HealingSetting::Harsh];

    /// Scenario-file name of the setting.
    pub fn name(self) -> &'static str {
        match self {
            HealingSetting::Standard => "standard",
            HealingSetting::Harsh => "harsh",
        }
    }

    /// Looks a setting up by its scenario-file name.
    ///
    /// ```
    /// use woundsim::rules::wound_healing::HealingSetting;
    /// assert_eq!(HealingSetting::from_name("harsh"), Some(HealingSetting::Harsh));
    /// assert_eq!(HealingSetting::from_name("easy"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<HealingSetting> {
        HealingSetting::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What each casting does under this setting.
    pub fn rules(self) -> &'static [CastingRule] {
        match self {
            HealingSetting::Standard => &STANDARD_RULES,
            HealingSetting::Harsh => &HARSH_RULES,
        }
    }
}

/// Seconds in a combat round (SRD: 6 seconds).
pub const SECONDS_PER_ROUND: u64 = 6;
/// Seconds in a minute.
pub const SECONDS_PER_MINUTE: u64 = 60;
/// Seconds in a day.
pub const SECONDS_PER_DAY: u64 = 86_400;
/// Days in a year (**ours**: leap days ignored; only the century and 200-year limits use it).
pub const DAYS_PER_YEAR: u64 = 365;

/// How long a creature has been dead, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DeadFor(pub u64);

impl DeadFor {
    /// `n` combat rounds.
    pub const fn rounds(n: u64) -> DeadFor {
        DeadFor(n.saturating_mul(SECONDS_PER_ROUND))
    }
    /// `n` minutes.
    pub const fn minutes(n: u64) -> DeadFor {
        DeadFor(n.saturating_mul(SECONDS_PER_MINUTE))
    }
    /// `n` days.
    pub const fn days(n: u64) -> DeadFor {
        DeadFor(n.saturating_mul(SECONDS_PER_DAY))
    }
    /// `n` years of [`DAYS_PER_YEAR`] days.
    pub const fn years(n: u64) -> DeadFor {
        DeadFor::days(n.saturating_mul(DAYS_PER_YEAR))
    }
}

/// The attack, save and check penalty of *raise dead* and *resurrection* (SRD: −4, less 1
/// per long rest).
pub const RETURN_PENALTY: u8 = 4;

/// How a raised creature comes back (SRD 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Revival {
    /// The longest time since death the spell allows (inclusive).
    pub within: DeadFor,
    /// It returns with all its hit points (else 1 HP).
    pub all_hp: bool,
    /// Penalty to attack rolls, saving throws and ability checks, less 1 per long rest.
    pub penalty: u8,
}

/// Whom a casting targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A living PC: the casting heals wounds only.
    Alive,
    /// A dead PC: the casting raises it (and heals the rule's wounds).
    Dead(Revival),
}

/// What one casting of a spell does under a setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastingRule {
    /// Spell name in [`SPELLS`].
    pub spell: &'static str,
    /// Whom it targets.
    pub target: Target,
    /// The wounds it heals (those the PC carries).
    pub heals: &'static [Severity],
    /// It restores missing body parts, so it raises a PC missing a part it needs to live.
    pub restores_body: bool,
    /// The seed's ritual materials, paid whoever casts (a temple adds its fee); `None`: the
    /// spell's consumed materials ([`PriceList::materials`], 0 when unlisted).
    pub ritual_gp: Option<f64>,
}

/// Standard setting: a ritual *lesser restoration*'s materials for a minor wound (100 gp).
pub const STANDARD_LESSER_RITUAL_GP: f64 = 100.0;
/// Standard setting: a ritual *greater restoration*'s materials for a moderate wound (500 gp).
pub const STANDARD_GREATER_RITUAL_GP: f64 = 500.0;
/// Harsh setting: a ritual *greater restoration*'s materials for a minor wound (300 gp).
pub const HARSH_GREATER_RITUAL_GP: f64 = 300.0;
/// Harsh setting: *true resurrection* cast only to heal wounds (10,000 gp, not 25,000).
pub const HARSH_TRUE_RESURRECTION_HEAL_GP: f64 = 10_000.0;

/// Every severity, for castings that heal all wounds.
const ALL_WOUNDS: &[Severity] = &Severity::ALL;

/// *Revivify*: within 1 minute, 1 HP, no penalty, no missing part restored.
pub const REVIVIFY: CastingRule = CastingRule {
    spell: "revivify",
    target: Target::Dead(Revival {
        within: DeadFor::minutes(1),
        all_hp: false,
        penalty: 0,
    }),
    heals: &[],
    restores_body: false,
    ritual_gp: None,
};

/// *Raise dead*: within 10 days, 1 HP, the −4 penalty; it fails when a part needed to live
/// is missing.
pub const RAISE_DEAD: CastingRule = CastingRule {
    spell: "raise_dead",
    target: Target::Dead(Revival {
        within: DeadFor::days(10),
        all_hp: false,
        penalty: RETURN_PENALTY,
    }),
    heals: &[],
    restores_body: false,
    ritual_gp: None,
};

/// *Resurrection* raising a PC: within a century, all HP, the −4 penalty.
const RESURRECTION_REVIVAL: Revival = Revival {
    within: DeadFor::years(100),
    all_hp: true,
    penalty: RETURN_PENALTY,
};

/// *True resurrection* raising a PC: within 200 years, all HP, a whole body and every wound
/// healed (both settings).
pub const TRUE_RESURRECTION: CastingRule = CastingRule {
    spell: "true_resurrection",
    target: Target::Dead(Revival {
        within: DeadFor::years(200),
        all_hp: true,
        penalty: 0,
    }),
    heals: ALL_WOUNDS,
    restores_body: true,
    ritual_gp: None,
};

/// The standard setting's castings.
pub const STANDARD_RULES: [CastingRule; 7] = [
    // Minor: a ritual lesser restoration.
    CastingRule {
        spell: "lesser_restoration",
        target: Target::Alive,
        heals: &[Severity::Minor],
        restores_body: false,
        ritual_gp: Some(STANDARD_LESSER_RITUAL_GP),
    },
    // Moderate: a ritual greater restoration.
    CastingRule {
        spell: "greater_restoration",
        target: Target::Alive,
        heals: &[Severity::Moderate],
        restores_body: false,
        ritual_gp: Some(STANDARD_GREATER_RITUAL_GP),
    },
    // Severe: resurrection under its normal rules, which restore every missing part, so it
    // heals every wound (our reading).
    CastingRule {
        spell: "resurrection",
        target: Target::Alive,
        heals: ALL_WOUNDS,
        restores_body: true,
        ritual_gp: None,
    },
    REVIVIFY,
    RAISE_DEAD,
    // Normal rules: raises and restores every missing part.
    CastingRule {
        spell: "resurrection",
        target: Target::Dead(RESURRECTION_REVIVAL),
        heals: ALL_WOUNDS,
        restores_body: true,
        ritual_gp: None,
    },
    TRUE_RESURRECTION,
];

/// The harsh setting's castings.
pub const HARSH_RULES: [CastingRule; 7] = [
    // Minor: a ritual greater restoration.
    CastingRule {
        spell: "greater_restoration",
        target: Target::Alive,
        heals: &[Severity::Minor],
        restores_body: false,
        ritual_gp: Some(HARSH_GREATER_RITUAL_GP),
    },
    // Moderate: resurrection heals the wounds up to moderate...
    CastingRule {
        spell: "resurrection",
        target: Target::Alive,
        heals: &[Severity::Minor, Severity::Moderate],
        restores_body: false,
        ritual_gp: None,
    },
    // Severe: true resurrection cast only to heal, at its reduced cost.
    CastingRule {
        spell: "true_resurrection",
        target: Target::Alive,
        heals: ALL_WOUNDS,
        restores_body: true,
        ritual_gp: Some(HARSH_TRUE_RESURRECTION_HEAL_GP),
    },
    REVIVIFY,
    RAISE_DEAD,
    // ...or raises, healing nothing and restoring no part.
    CastingRule {
        spell: "resurrection",
        target: Target::Dead(RESURRECTION_REVIVAL),
        heals: &[],
        restores_body: false,
        ritual_gp: None,
    },
    TRUE_RESURRECTION,
];

/// Class level at which a half caster (paladin, ranger) first casts spells of each level,
/// 1st to 5th (SRD class tables).
pub const HALF_CASTER_FIRST_LEVEL: [u8; 5] = [2, 5, 9, 13, 17];

/// How a caster's spell levels grow with its class level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Progression {
    /// Bard, cleric, druid, sorcerer, wizard ([`full_caster_slots`]).
    Full,
    /// Paladin, ranger ([`HALF_CASTER_FIRST_LEVEL`]).
    Half,
}

impl Progression {
    /// The highest spell level a caster of `level` casts (0: none).
    ///
    /// ```
    /// use woundsim::rules::wound_healing::Progression;
    /// assert_eq!(Progression::Full.max_spell_level(13), 7);
    /// assert_eq!(Progression::Half.max_spell_level(17), 5);
    /// ```
    pub fn max_spell_level(self, level: u8) -> u8 {
        match self {
            Progression::Full => full_caster_slots(level)
                .iter()
                .rposition(|&n| n > 0)
                .map_or(0, |i| i as u8 + 1),
            Progression::Half => HALF_CASTER_FIRST_LEVEL
                .iter()
                .filter(|&&first| level >= first)
                .count() as u8,
        }
    }
}

/// Who casts.
#[derive(Clone, Debug, PartialEq)]
pub enum Provider {
    /// The party's own caster; it pays the materials.
    Party {
        /// Class level.
        level: u8,
        /// Its class's progression.
        progression: Progression,
        /// Spells it knows or prepares (indices into [`SPELLS`]).
        spells: Vec<usize>,
    },
    /// A temple or other casting service.
    Service {
        /// The highest spell level it casts.
        max_spell_level: u8,
        /// `(spell, gp)`: its fee for one casting, paid on top of the casting's materials.
        fees: Vec<(usize, f64)>,
    },
}

impl Provider {
    /// A temple casting up to `max_spell_level` at the price list's services.
    pub fn temple(max_spell_level: u8, prices: &PriceList) -> Provider {
        Provider::Service {
            max_spell_level,
            fees: prices.services.clone(),
        }
    }

    /// The highest spell level it casts.
    pub fn max_spell_level(&self) -> u8 {
        match self {
            Provider::Party {
                level, progression, ..
            } => progression.max_spell_level(*level),
            Provider::Service {
                max_spell_level, ..
            } => *max_spell_level,
        }
    }

    /// Gold for one casting of `spell` under `rule`; `None` when it cannot cast it. Whoever
    /// casts pays the materials ([`CastingRule::materials`]); a temple adds its fee on top.
    fn price(&self, spell: usize, rule: &CastingRule, prices: &PriceList) -> Option<f64> {
        let level = SPELLS.get(spell)?.level;
        if level > self.max_spell_level() {
            return None;
        }
        let materials = rule.materials(spell, prices);
        match self {
            Provider::Party { spells, .. } => spells.contains(&spell).then_some(materials),
            Provider::Service { fees, .. } => fees
                .iter()
                .find(|(s, _)| *s == spell)
                .map(|(_, fee)| fee + materials),
        }
    }
}

impl CastingRule {
    /// Gold of the materials one casting consumes, whoever casts: the seed's ritual cost
    /// ([`CastingRule::ritual_gp`]) where the table gives one, else the spell's consumed
    /// components ([`PriceList::material`]).
    pub fn materials(&self, spell: usize, prices: &PriceList) -> f64 {
        self.ritual_gp.unwrap_or_else(|| prices.material(spell))
    }
}

/// A PC's state before healing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PcState {
    /// Permanent wounds it carries.
    pub wounds: WoundSlots,
    /// How long it has been dead; `None`: alive.
    pub dead_for: Option<DeadFor>,
    /// It lacks a body part it needs to live (its head, say): only a casting that restores
    /// the body raises it.
    pub missing_vital_part: bool,
}

/// What the castings must achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Bring a dead PC back (its wounds may stay).
    Raise,
    /// Heal every wound of a living PC (`None` for a dead one).
    HealWounds,
    /// End alive with no wound.
    RaiseAndHeal,
}

/// What a casting's gold counts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastingPurpose {
    /// It raised the PC (whatever it healed besides).
    Raising,
    /// It healed wounds of a living PC.
    PermanentWounds,
}

/// One casting of a plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Casting {
    /// The spell (index into [`SPELLS`]).
    pub spell: usize,
    /// Index of the provider in the slice given to [`plan`].
    pub provider: usize,
    /// Gold it costs.
    pub gold: f64,
    /// What its gold counts as.
    pub purpose: CastingPurpose,
    /// The wounds it healed.
    pub heals: WoundSlots,
}

/// The cheapest castings for a goal, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HealingPlan {
    /// The castings, first cast first.
    pub castings: Vec<Casting>,
}

impl HealingPlan {
    /// Total gold.
    pub fn gold(&self) -> f64 {
        self.castings.iter().map(|c| c.gold).sum()
    }

    /// Gold of the castings of one purpose.
    pub fn gold_for(&self, purpose: CastingPurpose) -> f64 {
        self.castings
            .iter()
            .filter(|c| c.purpose == purpose)
            .map(|c| c.gold)
            .sum()
    }
}

/// Where a plan stands: dead or alive, and the wounds left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    dead: bool,
    wounds: WoundSlots,
}

impl Node {
    fn reaches(self, goal: Goal) -> bool {
        match goal {
            Goal::Raise => !self.dead,
            Goal::HealWounds | Goal::RaiseAndHeal => !self.dead && self.wounds == WoundSlots::EMPTY,
        }
    }
}

/// The cheapest castings that take `pc` to `goal` under `setting` (ties: fewer castings,
/// then the first rule and provider), or `None` when no provider can (a spell level out of
/// reach, past a time limit, a dead PC for [`Goal::HealWounds`]). Gold only ranks plans; the
/// caller decides whether it can pay.
///
/// ```
/// use woundsim::rules::permanent_wounds::{Severity, WoundSlots};
/// use woundsim::rules::prices::{PriceList, spell_index};
/// use woundsim::rules::wound_healing::{Goal, HealingSetting, PcState, Progression, Provider, plan};
/// let cleric = Provider::Party {
///     level: 3,
///     progression: Progression::Full,
///     spells: vec![spell_index("lesser_restoration").unwrap()],
/// };
/// let pc = PcState { wounds: WoundSlots::from_wounds([Severity::Minor]), ..PcState::default() };
/// let p = plan(HealingSetting::Standard, &pc, Goal::HealWounds, &[cleric], &PriceList::default());
/// assert_eq!(p.unwrap().gold(), 100.0);
/// ```
pub fn plan(
    setting: HealingSetting,
    pc: &PcState,
    goal: Goal,
    providers: &[Provider],
    prices: &PriceList,
) -> Option<HealingPlan> {
    if goal == Goal::HealWounds && pc.dead_for.is_some() {
        return None;
    }
    let start = Node {
        dead: pc.dead_for.is_some(),
        wounds: pc.wounds,
    };
    // Dijkstra over at most 16 nodes, ranked by (gold, castings).
    let mut settled: Vec<Node> = Vec::new();
    let mut frontier: Vec<(Node, HealingPlan)> = vec![(start, HealingPlan::default())];
    let rank = |p: &HealingPlan| (p.gold(), p.castings.len());
    while !frontier.is_empty() {
        let best = (0..frontier.len())
            .min_by(|&a, &b| {
                let (ga, na) = rank(&frontier[a].1);
                let (gb, nb) = rank(&frontier[b].1);
                ga.total_cmp(&gb).then(na.cmp(&nb)).then(a.cmp(&b))
            })
            .unwrap_or(0);
        let (node, path) = frontier.swap_remove(best);
        if settled.contains(&node) {
            continue;
        }
        settled.push(node);
        if node.reaches(goal) {
            return Some(path);
        }
        for rule in setting.rules() {
            let Some((next, purpose)) = step(node, rule, pc) else {
                continue;
            };
            let Some(spell) = spell_index(rule.spell) else {
                continue;
            };
            if settled.contains(&next) {
                continue;
            }
            for (i, provider) in providers.iter().enumerate() {
                if let Some(gold) = provider.price(spell, rule, prices) {
                    let mut castings = path.castings.clone();
                    castings.push(Casting {
                        spell,
                        provider: i,
                        gold,
                        purpose,
                        heals: healed(node.wounds, rule.heals),
                    });
                    frontier.push((next, HealingPlan { castings }));
                }
            }
        }
    }
    None
}

/// The wounds of `wounds` that `heals` names.
fn healed(wounds: WoundSlots, heals: &[Severity]) -> WoundSlots {
    WoundSlots::from_wounds(wounds.wounds().filter(|s| heals.contains(s)))
}

/// Where one casting of `rule` takes `node`, if it applies and changes something.
fn step(node: Node, rule: &CastingRule, pc: &PcState) -> Option<(Node, CastingPurpose)> {
    let left = WoundSlots::from_wounds(node.wounds.wounds().filter(|s| !rule.heals.contains(s)));
    match rule.target {
        Target::Alive => (!node.dead && left != node.wounds).then_some((
            Node {
                dead: false,
                wounds: left,
            },
            CastingPurpose::PermanentWounds,
        )),
        Target::Dead(revival) => {
            let in_time = pc.dead_for.is_some_and(|t| t <= revival.within);
            let body_ok = rule.restores_body || !pc.missing_vital_part;
            (node.dead && in_time && body_ok).then_some((
                Node {
                    dead: false,
                    wounds: left,
                },
                CastingPurpose::Raising,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CastingPurpose::*;
    use HealingSetting::*;
    use Severity::*;

    fn at(name: &str) -> usize {
        spell_index(name).unwrap()
    }

    /// Every raising and wound-healing spell.
    const ALL_SPELLS: [&str; 6] = [
        "lesser_restoration",
        "greater_restoration",
        "revivify",
        "raise_dead",
        "resurrection",
        "true_resurrection",
    ];

    fn caster(progression: Progression, level: u8, spells: &[&str]) -> Provider {
        Provider::Party {
            level,
            progression,
            spells: spells.iter().map(|s| at(s)).collect(),
        }
    }

    fn cleric(level: u8) -> Provider {
        caster(Progression::Full, level, &ALL_SPELLS)
    }

    fn alive(wounds: &[Severity]) -> PcState {
        PcState {
            wounds: WoundSlots::from_wounds(wounds.iter().copied()),
            ..PcState::default()
        }
    }

    fn dead(wounds: &[Severity], for_: DeadFor) -> PcState {
        PcState {
            dead_for: Some(for_),
            ..alive(wounds)
        }
    }

    fn run(
        s: HealingSetting,
        pc: PcState,
        goal: Goal,
        providers: &[Provider],
    ) -> Option<HealingPlan> {
        plan(s, &pc, goal, providers, &PriceList::default())
    }

    /// `(spell, gold, purpose)` of each casting.
    fn steps(p: &HealingPlan) -> Vec<(&'static str, f64, CastingPurpose)> {
        p.castings
            .iter()
            .map(|c| (SPELLS[c.spell].name, c.gold, c.purpose))
            .collect()
    }

    #[test]
    fn setting_names_round_trip() {
        for s in HealingSetting::ALL {
            assert_eq!(HealingSetting::from_name(s.name()), Some(s));
        }
        assert_eq!(Standard.name(), "standard");
        assert_eq!(Harsh.name(), "harsh");
        assert_eq!(HealingSetting::default(), Standard);
    }

    #[test]
    fn every_rule_names_a_known_spell_of_its_srd_level() {
        let level = |n: &str| SPELLS[at(n)].level;
        assert_eq!(level("lesser_restoration"), 2);
        assert_eq!(level("revivify"), 3);
        assert_eq!(level("greater_restoration"), 5);
        assert_eq!(level("raise_dead"), 5);
        assert_eq!(level("resurrection"), 7);
        assert_eq!(level("true_resurrection"), 9);
        for s in HealingSetting::ALL {
            assert!(s.rules().iter().all(|r| spell_index(r.spell).is_some()));
        }
    }

    /// The default price list with every temple fee 0.
    fn no_fees() -> PriceList {
        let mut prices = PriceList::default();
        for fee in &mut prices.services {
            fee.1 = 0.0;
        }
        prices
    }

    /// `(spell, gold, purpose)` of the cheapest plan of a temple casting up to 9th level.
    fn at_temple(
        s: HealingSetting,
        pc: PcState,
        goal: Goal,
        prices: &PriceList,
    ) -> Vec<(&'static str, f64, CastingPurpose)> {
        let temple = [Provider::temple(9, prices)];
        steps(&plan(s, &pc, goal, &temple, prices).unwrap())
    }

    #[test]
    fn a_temple_with_no_fees_costs_exactly_the_seeds_materials() {
        let prices = no_fees();
        let heal = |s, wounds: &[Severity]| at_temple(s, alive(wounds), Goal::HealWounds, &prices);
        assert_eq!(
            heal(Standard, &[Minor]),
            [("lesser_restoration", 100.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Standard, &[Moderate]),
            [("greater_restoration", 500.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Standard, &[Severe]),
            [("resurrection", 1000.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Harsh, &[Minor]),
            [("greater_restoration", 300.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Harsh, &[Moderate]),
            [("resurrection", 1000.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Harsh, &[Severe]),
            [("true_resurrection", 10_000.0, PermanentWounds)]
        );
        let raise = |s, pc| at_temple(s, pc, Goal::Raise, &prices);
        assert_eq!(
            raise(Harsh, dead(&[], DeadFor::days(1))),
            [("raise_dead", 500.0, Raising)]
        );
        assert_eq!(
            raise(Harsh, dead(&[], DeadFor::years(150))),
            [("true_resurrection", 25_000.0, Raising)]
        );
        // Every casting of both tables: the temple's price is the party caster's.
        let temple = Provider::temple(9, &prices);
        let party = cleric(20);
        for s in HealingSetting::ALL {
            for rule in s.rules() {
                let spell = at(rule.spell);
                if rule.spell == "revivify" {
                    // Not on the price list: a temple does not cast it.
                    assert_eq!(temple.price(spell, rule, &prices), None);
                    continue;
                }
                assert_eq!(
                    temple.price(spell, rule, &prices),
                    party.price(spell, rule, &prices),
                    "{} {}",
                    s.name(),
                    rule.spell
                );
            }
        }
    }

    #[test]
    fn a_temple_charges_its_fee_on_top_of_the_seeds_materials() {
        let prices = PriceList::default();
        let heal = |s, wounds: &[Severity]| at_temple(s, alive(wounds), Goal::HealWounds, &prices);
        // Standard: 40 + 100, 350 + 500, 2,000 + 1,000.
        assert_eq!(
            heal(Standard, &[Minor]),
            [("lesser_restoration", 140.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Standard, &[Moderate]),
            [("greater_restoration", 850.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Standard, &[Severe]),
            [("resurrection", 3000.0, PermanentWounds)]
        );
        // Harsh: 350 + 300, 2,000 + 1,000, 25,000 + 10,000 when it only heals.
        assert_eq!(
            heal(Harsh, &[Minor]),
            [("greater_restoration", 650.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Harsh, &[Moderate]),
            [("resurrection", 3000.0, PermanentWounds)]
        );
        assert_eq!(
            heal(Harsh, &[Severe]),
            [("true_resurrection", 35_000.0, PermanentWounds)]
        );
        // Raising: 750 + 500; 25,000 + 25,000 when true resurrection raises.
        let raise = |pc| at_temple(Harsh, pc, Goal::Raise, &prices);
        assert_eq!(
            raise(dead(&[], DeadFor::days(1))),
            [("raise_dead", 1250.0, Raising)]
        );
        assert_eq!(
            raise(dead(&[], DeadFor::years(150))),
            [("true_resurrection", 50_000.0, Raising)]
        );
    }

    #[test]
    fn full_casters_reach_spell_levels_by_the_class_table() {
        for (level, top) in [
            (0, 0),
            (1, 1),
            (2, 1),
            (3, 2),
            (5, 3),
            (7, 4),
            (9, 5),
            (11, 6),
            (13, 7),
            (15, 8),
            (17, 9),
            (20, 9),
        ] {
            assert_eq!(
                Progression::Full.max_spell_level(level),
                top,
                "level {level}"
            );
        }
    }

    #[test]
    fn half_casters_reach_spell_levels_by_the_class_table() {
        for (level, top) in [
            (1, 0),
            (2, 1),
            (4, 1),
            (5, 2),
            (9, 3),
            (13, 4),
            (16, 4),
            (17, 5),
            (20, 5),
        ] {
            assert_eq!(
                Progression::Half.max_spell_level(level),
                top,
                "level {level}"
            );
        }
    }

    #[test]
    fn a_paladin_17_casts_5th_level_spells_but_not_7th() {
        let paladin = caster(Progression::Half, 17, &ALL_SPELLS);
        let p = run(
            Standard,
            alive(&[Moderate]),
            Goal::HealWounds,
            std::slice::from_ref(&paladin),
        )
        .unwrap();
        assert_eq!(steps(&p), [("greater_restoration", 500.0, PermanentWounds)]);
        assert_eq!(
            run(Standard, alive(&[Severe]), Goal::HealWounds, &[paladin]),
            None
        );
    }

    #[test]
    fn standard_minor_is_a_100_gp_lesser_restoration_from_a_3rd_level_caster() {
        let pc = alive(&[Minor]);
        assert_eq!(run(Standard, pc, Goal::HealWounds, &[cleric(2)]), None);
        let p = run(Standard, pc, Goal::HealWounds, &[cleric(3)]).unwrap();
        assert_eq!(steps(&p), [("lesser_restoration", 100.0, PermanentWounds)]);
        assert_eq!(p.castings[0].heals, WoundSlots::from_wounds([Minor]));
    }

    #[test]
    fn standard_moderate_is_a_500_gp_greater_restoration_that_heals_only_it() {
        let p = run(Standard, alive(&[Moderate]), Goal::HealWounds, &[cleric(9)]).unwrap();
        assert_eq!(steps(&p), [("greater_restoration", 500.0, PermanentWounds)]);
        // Each ritual heals its own severity: a minor wound needs its lesser restoration.
        let greater_only = caster(Progression::Full, 9, &["greater_restoration"]);
        assert_eq!(
            run(Standard, alive(&[Minor]), Goal::HealWounds, &[greater_only]),
            None
        );
        let both = run(
            Standard,
            alive(&[Minor, Moderate]),
            Goal::HealWounds,
            &[cleric(9)],
        )
        .unwrap();
        assert_eq!(both.gold(), 600.0);
        assert_eq!(both.castings.len(), 2);
    }

    #[test]
    fn standard_severe_is_a_resurrection_that_heals_every_wound() {
        assert_eq!(
            run(Standard, alive(&[Severe]), Goal::HealWounds, &[cleric(12)]),
            None
        );
        let p = run(
            Standard,
            alive(&Severity::ALL),
            Goal::HealWounds,
            &[cleric(13)],
        )
        .unwrap();
        assert_eq!(steps(&p), [("resurrection", 1000.0, PermanentWounds)]);
        assert_eq!(p.castings[0].heals, WoundSlots::from_wounds(Severity::ALL));
    }

    #[test]
    fn standard_resurrection_raises_and_heals_in_one_casting() {
        // Dead a year: no raise dead; one resurrection beats nothing else.
        let pc = dead(&[Moderate, Minor], DeadFor::years(1));
        let p = run(Standard, pc, Goal::RaiseAndHeal, &[cleric(13)]).unwrap();
        assert_eq!(steps(&p), [("resurrection", 1000.0, Raising)]);
        // Within 10 days raise dead + greater restoration also cost 1,000: fewer castings win.
        let pc = dead(&[Moderate], DeadFor::days(1));
        let p = run(Standard, pc, Goal::RaiseAndHeal, &[cleric(13)]).unwrap();
        assert_eq!(steps(&p), [("resurrection", 1000.0, Raising)]);
    }

    #[test]
    fn harsh_minor_is_a_300_gp_greater_restoration_needing_5th_level() {
        let pc = alive(&[Minor]);
        assert_eq!(run(Harsh, pc, Goal::HealWounds, &[cleric(8)]), None);
        let p = run(Harsh, pc, Goal::HealWounds, &[cleric(9)]).unwrap();
        assert_eq!(steps(&p), [("greater_restoration", 300.0, PermanentWounds)]);
        let prices = PriceList::default();
        let t4 = Provider::temple(4, &prices);
        assert_eq!(run(Harsh, pc, Goal::HealWounds, &[t4]), None);
        let t5 = Provider::temple(5, &prices);
        let p = run(Harsh, pc, Goal::HealWounds, &[t5]).unwrap();
        // The temple's 350 gp fee comes on top of the ritual's 300 gp.
        assert_eq!(steps(&p), [("greater_restoration", 650.0, PermanentWounds)]);
        // Lesser restoration heals nothing in the harsh setting.
        let lesser = caster(Progression::Full, 20, &["lesser_restoration"]);
        assert_eq!(run(Harsh, pc, Goal::HealWounds, &[lesser]), None);
    }

    #[test]
    fn harsh_moderate_and_minor_are_healed_by_one_resurrection() {
        let p = run(
            Harsh,
            alive(&[Minor, Moderate]),
            Goal::HealWounds,
            &[cleric(13)],
        )
        .unwrap();
        assert_eq!(steps(&p), [("resurrection", 1000.0, PermanentWounds)]);
        assert_eq!(
            p.castings[0].heals,
            WoundSlots::from_wounds([Minor, Moderate])
        );
        // Greater restoration does not heal a moderate wound in the harsh setting.
        assert_eq!(
            run(Harsh, alive(&[Moderate]), Goal::HealWounds, &[cleric(12)]),
            None
        );
    }

    #[test]
    fn harsh_resurrection_does_not_heal_a_severe_wound() {
        assert_eq!(
            run(Harsh, alive(&[Severe]), Goal::HealWounds, &[cleric(16)]),
            None
        );
    }

    #[test]
    fn harsh_severe_on_a_living_pc_is_a_10000_gp_true_resurrection() {
        let p = run(Harsh, alive(&[Severe]), Goal::HealWounds, &[cleric(17)]).unwrap();
        assert_eq!(
            steps(&p),
            [("true_resurrection", 10_000.0, PermanentWounds)]
        );
        // It heals the lesser wounds too.
        let p = run(
            Harsh,
            alive(&Severity::ALL),
            Goal::HealWounds,
            &[cleric(17)],
        )
        .unwrap();
        assert_eq!(
            steps(&p),
            [("true_resurrection", 10_000.0, PermanentWounds)]
        );
    }

    #[test]
    fn harsh_resurrection_raises_or_heals_never_both() {
        // Dead a year with a moderate wound; only resurrection in reach.
        let pc = dead(&[Moderate], DeadFor::years(1));
        let p = run(Harsh, pc, Goal::Raise, &[cleric(13)]).unwrap();
        assert_eq!(steps(&p), [("resurrection", 1000.0, Raising)]);
        assert_eq!(p.castings[0].heals, WoundSlots::EMPTY);
        let p = run(Harsh, pc, Goal::RaiseAndHeal, &[cleric(13)]).unwrap();
        assert_eq!(
            steps(&p),
            [
                ("resurrection", 1000.0, Raising),
                ("resurrection", 1000.0, PermanentWounds)
            ]
        );
        assert_eq!(p.gold_for(Raising), 1000.0);
        assert_eq!(p.gold_for(PermanentWounds), 1000.0);
    }

    #[test]
    fn harsh_dead_pc_with_a_moderate_wound_takes_the_cheaper_of_two_resurrections_or_one_true() {
        let pc = dead(&[Moderate], DeadFor::years(1));
        let p = run(Harsh, pc, Goal::RaiseAndHeal, &[cleric(17)]).unwrap();
        assert_eq!(p.gold(), 2000.0);
        assert_eq!(p.castings.len(), 2);
        // Where resurrection's diamond costs 20,000, one true resurrection (25,000) is cheaper.
        let mut dear = PriceList::default();
        dear.materials.retain(|(s, _)| *s != at("resurrection"));
        dear.materials.push((at("resurrection"), 20_000.0));
        let p = plan(Harsh, &pc, Goal::RaiseAndHeal, &[cleric(17)], &dear).unwrap();
        assert_eq!(steps(&p), [("true_resurrection", 25_000.0, Raising)]);
    }

    #[test]
    fn harsh_true_resurrection_raises_and_heals_a_dead_pc_for_25000() {
        // Dead 150 years: only true resurrection reaches it.
        let pc = dead(&[Severe, Minor], DeadFor::years(150));
        let p = run(Harsh, pc, Goal::RaiseAndHeal, &[cleric(17)]).unwrap();
        assert_eq!(steps(&p), [("true_resurrection", 25_000.0, Raising)]);
        assert_eq!(
            p.castings[0].heals,
            WoundSlots::from_wounds([Severe, Minor])
        );
        // Within 10 days, raise dead then a heal-only true resurrection is cheaper.
        let pc = dead(&[Severe], DeadFor::days(2));
        let p = run(Harsh, pc, Goal::RaiseAndHeal, &[cleric(17)]).unwrap();
        assert_eq!(
            steps(&p),
            [
                ("raise_dead", 500.0, Raising),
                ("true_resurrection", 10_000.0, PermanentWounds)
            ]
        );
    }

    #[test]
    fn revivify_works_only_within_a_minute() {
        let p = run(
            Standard,
            dead(&[], DeadFor::minutes(1)),
            Goal::Raise,
            &[cleric(5)],
        )
        .unwrap();
        assert_eq!(steps(&p), [("revivify", 300.0, Raising)]);
        let late = dead(&[], DeadFor(DeadFor::minutes(1).0 + 1));
        assert_eq!(run(Standard, late, Goal::Raise, &[cleric(5)]), None);
        // The same minute as the fight's revivify (10 rounds).
        let Some(crate::rules::prices::InFight {
            effect: crate::rules::prices::FightEffect::Revive { within_rounds },
            ..
        }) = SPELLS[at("revivify")].in_fight
        else {
            panic!("revivify has a fight effect");
        };
        assert_eq!(
            Some(DeadFor::rounds(u64::from(within_rounds))),
            match REVIVIFY.target {
                Target::Dead(r) => Some(r.within),
                Target::Alive => None,
            }
        );
    }

    #[test]
    fn raise_dead_works_only_within_10_days() {
        let priest = caster(Progression::Full, 9, &["raise_dead"]);
        let p = run(
            Harsh,
            dead(&[], DeadFor::days(10)),
            Goal::Raise,
            std::slice::from_ref(&priest),
        )
        .unwrap();
        assert_eq!(steps(&p), [("raise_dead", 500.0, Raising)]);
        let late = dead(&[], DeadFor(DeadFor::days(10).0 + 1));
        assert_eq!(run(Harsh, late, Goal::Raise, &[priest]), None);
    }

    #[test]
    fn resurrection_within_a_century_true_resurrection_within_200_years() {
        let r = caster(Progression::Full, 13, &["resurrection"]);
        assert!(
            run(
                Standard,
                dead(&[], DeadFor::years(100)),
                Goal::Raise,
                std::slice::from_ref(&r)
            )
            .is_some()
        );
        assert_eq!(
            run(Standard, dead(&[], DeadFor::years(101)), Goal::Raise, &[r]),
            None
        );
        let t = caster(Progression::Full, 17, &["true_resurrection"]);
        assert!(
            run(
                Standard,
                dead(&[], DeadFor::years(200)),
                Goal::Raise,
                std::slice::from_ref(&t)
            )
            .is_some()
        );
        assert_eq!(
            run(Standard, dead(&[], DeadFor::years(201)), Goal::Raise, &[t]),
            None
        );
    }

    #[test]
    fn raise_dead_fails_without_a_vital_part_resurrection_restores_it_only_when_standard() {
        let pc = PcState {
            missing_vital_part: true,
            ..dead(&[], DeadFor::days(1))
        };
        assert_eq!(
            run(
                Standard,
                pc,
                Goal::Raise,
                &[caster(Progression::Full, 9, &["raise_dead"])]
            ),
            None
        );
        let r = caster(Progression::Full, 13, &["raise_dead", "resurrection"]);
        let p = run(Standard, pc, Goal::Raise, std::slice::from_ref(&r)).unwrap();
        assert_eq!(steps(&p), [("resurrection", 1000.0, Raising)]);
        assert_eq!(run(Harsh, pc, Goal::Raise, &[r]), None);
        let p = run(Harsh, pc, Goal::Raise, &[cleric(17)]).unwrap();
        assert_eq!(steps(&p), [("true_resurrection", 25_000.0, Raising)]);
    }

    #[test]
    fn no_provider_of_the_level_means_no_plan() {
        let pc = dead(&[], DeadFor::years(1));
        assert_eq!(run(Standard, pc, Goal::Raise, &[]), None);
        let prices = PriceList::default();
        assert_eq!(
            run(Standard, pc, Goal::Raise, &[Provider::temple(6, &prices)]),
            None
        );
        let p = run(Standard, pc, Goal::Raise, &[Provider::temple(7, &prices)]).unwrap();
        assert_eq!(steps(&p), [("resurrection", 3000.0, Raising)]);
        // A temple without a fee for the spell does not cast it.
        let no_fee = Provider::Service {
            max_spell_level: 9,
            fees: vec![],
        };
        assert_eq!(run(Standard, pc, Goal::Raise, &[no_fee]), None);
    }

    #[test]
    fn the_cheapest_provider_casts() {
        let prices = PriceList::default();
        let providers = [Provider::temple(9, &prices), cleric(13)];
        let p = run(Standard, alive(&[Severe]), Goal::HealWounds, &providers).unwrap();
        assert_eq!(p.castings[0].provider, 1);
        assert_eq!(p.gold(), 1000.0);
    }

    #[test]
    fn goals_already_met_cost_nothing_and_a_dead_pc_cannot_only_be_healed() {
        assert_eq!(
            run(Standard, alive(&[Minor]), Goal::Raise, &[]),
            Some(HealingPlan::default())
        );
        assert_eq!(
            run(Standard, alive(&[]), Goal::HealWounds, &[]),
            Some(HealingPlan::default())
        );
        assert_eq!(
            run(
                Standard,
                dead(&[Minor], DeadFor::days(1)),
                Goal::HealWounds,
                &[cleric(20)]
            ),
            None
        );
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let odd = Provider::Party {
            level: u8::MAX,
            progression: Progression::Full,
            spells: vec![usize::MAX, at("resurrection")],
        };
        let odd_fee = Provider::Service {
            max_spell_level: u8::MAX,
            fees: vec![(usize::MAX, f64::NAN), (at("resurrection"), -5.0)],
        };
        let pc = dead(&Severity::ALL, DeadFor(u64::MAX));
        assert_eq!(
            run(
                Harsh,
                pc,
                Goal::RaiseAndHeal,
                &[odd.clone(), odd_fee.clone()]
            ),
            None
        );
        assert!(
            run(
                Harsh,
                alive(&Severity::ALL),
                Goal::HealWounds,
                &[odd, odd_fee]
            )
            .is_none()
        );
        assert_eq!(DeadFor::years(u64::MAX), DeadFor(u64::MAX));
    }
}
