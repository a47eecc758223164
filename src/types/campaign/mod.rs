//! `type = "campaign"`: a party's adventuring career from a start level to
//! an end level under the standard or the harsh healing setting of
//! permanent wounds (docs/campaign.md). It composes the rule core and
//! re-implements none of it: each day is a chain of fights of the combat
//! round loop ([`crate::combat::encounter::Encounter::play`]) with every
//! combat option in force (lingering injuries, permanent wounds, tactics,
//! positions), the party is carried between days
//! ([`crate::combat::encounter::PartyState`]), levels up at each milestone,
//! and pays for raising the dead and healing permanent wounds by the
//! castings [`crate::rules::wound_healing::plan`] finds (spending in
//! [`spending`]). Monte Carlo only.

pub mod career;
mod charts;
pub mod mc;
mod metrics;
pub mod schema;
pub mod shared_fights;
pub mod spending;
mod verdict;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use crate::combat::encounter::Encounter;
use crate::combat::policy::Between;
use crate::engine::Stop;
use crate::engine::rng::TrialSeeds;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::ScenarioResult;
use crate::rules::encounter_difficulty::EncounterXp;
use crate::rules::festering::LostHp;
use crate::rules::injury_cures::Plan;
use crate::rules::lingering::InjuryTable;
use crate::rules::prices::PriceList;
use crate::rules::wound_healing::{HealingSetting, Progression};
use crate::scenario::ScenarioError;
use crate::scenario::layers::Layers;

/// The `campaign` scenario type.
pub struct Campaign;

/// One level of a career: the party's templates at that level against the
/// monsters built for it (or drawn from the pool, a day at a time), fought
/// `fights_per_day` at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelPlan {
    /// Character level.
    pub level: u8,
    /// The encounters of this level (at least one), each a day's chain of
    /// fights; with several, each day draws one by weight.
    pub fights: Vec<LevelFight>,
    /// Gold found per fight won at this level.
    pub treasure: u64,
    /// How each lingering injury is cured in downtime at this level, when
    /// the fights have lingering injuries.
    pub cures: Option<InjuryCures>,
    /// The healing planner's answers at this level, tabulated.
    pub healing: spending::HealingCache,
}

/// One encounter a level's days may fight.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelFight {
    /// Its weight among the level's encounters.
    pub weight: u32,
    /// The day's chain of fights (the party first: its PCs are the same
    /// in every encounter of the level).
    pub encounter: Encounter,
    /// Its XP against the party's budgets.
    pub difficulty: EncounterXp,
}

impl LevelPlan {
    /// The encounter whose templates the party has at this level (for
    /// resting, levelling, raising and replacing).
    pub fn party(&self) -> &Encounter {
        &self.fights[0].encounter
    }

    /// The encounter of one day, as its index among the level's: the only
    /// one, or one drawn by weight (one die from `rng` only when there are
    /// several).
    pub fn pick_index<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> usize {
        if self.fights.len() == 1 {
            return 0;
        }
        let total: u64 = self.fights.iter().map(|f| u64::from(f.weight)).sum();
        let mut x = crate::dice::uniform_below(rng, total.max(1));
        for (i, f) in self.fights.iter().enumerate() {
            if x < u64::from(f.weight) {
                return i;
            }
            x -= u64::from(f.weight);
        }
        0
    }

    /// Whether this level's fights are `other`'s: the same encounters with
    /// the same rules, by index (so a fight at one is a fight at the other).
    pub fn same_fights(&self, other: &LevelPlan) -> bool {
        self.fights.len() == other.fights.len()
            && self
                .fights
                .iter()
                .zip(&other.fights)
                .all(|(a, b)| a.encounter == b.encounter)
    }
}

/// The cheapest cure of each lingering-injury table entry for each PC at
/// one level ([`crate::rules::injury_cures::Plan::cheapest`]: the healer's
/// spells, the temple, potions, rest, Medicine and the festering wound's
/// tending), with the party's healer alive and without it.
#[derive(Clone, Debug, PartialEq)]
pub struct InjuryCures {
    /// `[healer alive][pc][entry]`.
    pub plans: [Vec<Vec<Plan>>; 2],
    /// The same without the temple's services and the market's potions
    /// (the party's own spells, rest, Medicine and tending).
    pub unpaid: [Vec<Vec<Plan>>; 2],
}

impl InjuryCures {
    /// The plan for table entry `entry` of PC `pc`.
    pub fn plan(&self, healer_alive: bool, pc: usize, entry: usize) -> &Plan {
        &self.plans[usize::from(healer_alive)][pc][entry]
    }

    /// The plan for table entry `entry` of PC `pc` without the temple and
    /// the market.
    pub fn unpaid_plan(&self, healer_alive: bool, pc: usize, entry: usize) -> &Plan {
        &self.unpaid[usize::from(healer_alive)][pc][entry]
    }
}

/// A party member's class as a caster of the spells that heal wounds and
/// raise the dead.
#[derive(Clone, Debug, PartialEq)]
pub struct Caster {
    /// Its place in the party.
    pub pc: usize,
    /// How its spell levels grow.
    pub progression: Progression,
    /// The spells of its class list among those that heal wounds or raise
    /// (indices into [`crate::rules::prices::SPELLS`]).
    pub spells: Vec<usize>,
}

/// Which permanent wounds the party pays to heal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealWounds {
    /// Every wound whose healing the purse affords.
    #[default]
    WhenAffordable,
    /// Only severe wounds.
    SevereOnly,
    /// None.
    Never,
}

/// What the purse goes to first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum First {
    /// Healing wounds leaves enough gold to raise one PC.
    #[default]
    Raise,
    /// Wounds are healed with whatever the purse holds.
    Heal,
}

/// What happens to a dead PC the party cannot raise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplaceDead {
    /// A new PC of the party's level takes its place.
    #[default]
    SameLevel,
    /// A new PC one level below the party's takes its place, and stays a
    /// level behind (at a first level, the party's level).
    LevelBelow,
    /// The campaign goes on short-handed.
    Never,
}

/// When the party's casters spend spell slots out of combat on lingering
/// injuries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InjurySpells {
    /// At the end of every day (an adventuring day, a day on the road, a
    /// day of downtime), the healer spends the slots it has left on the
    /// injuries its spells cure, before the night's long rest.
    #[default]
    AfterEachDay,
    /// Only in downtime.
    Downtime,
    /// Never: the party's spells cure no injury out of combat (the temple,
    /// potions, rest and Medicine do).
    Never,
}

/// How long a downtime between two adventures lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Downtime {
    /// As long as the cures the party chose need (rest, Medicine, tending),
    /// at most [`career::MAX_DOWNTIME_DAYS`].
    #[default]
    AsNeeded,
    /// This many days: a rest cure that needs more is not started, and a
    /// festering wound still open goes on festering on the road.
    Days(u32),
}

/// When an adventuring day's encounter is drawn from the pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Draw {
    /// One encounter for all the fights of a day.
    #[default]
    PerDay,
    /// A new draw for every fight.
    PerFight,
}

/// The calendar of a career (docs/campaign.md, "The career, day by day").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calendar {
    /// Adventuring days per level (a long rest after each).
    pub days_per_level: u32,
    /// Adventures per level: its adventuring days split as evenly as they
    /// go (the first ones longer), each followed by the road back and a
    /// downtime.
    pub adventures_per_level: u32,
    /// Fights per adventuring day.
    pub fights_per_day: u32,
    /// Short rests in a day, spread over the gaps between its fights.
    pub short_rests: u32,
    /// What the other gaps between a day's fights are (no rest unless the
    /// fights' `between_encounters` says otherwise).
    pub between: Between,
    /// Days on the road from town to an adventure's site, and back.
    pub travel_days: u32,
    /// How long the downtime after each adventure lasts.
    pub downtime: Downtime,
    /// When the pool's encounter is drawn.
    pub draw: Draw,
}

impl Calendar {
    /// The adventuring days of each adventure of a level, in order.
    pub fn adventure_days(&self) -> impl Iterator<Item = u32> + use<> {
        let (days, n) = (self.days_per_level, self.adventures_per_level.max(1));
        (0..n).map(move |k| days / n + u32::from(k < days % n))
    }

    /// The rest between fight `k` and fight `k + 1` of a day (0-based):
    /// a short rest after fights ⌈j·F / (N + 1)⌉ for j = 1..=N (N short
    /// rests in F fights, spread evenly), else [`Calendar::between`].
    ///
    /// ```
    /// use woundsim::combat::policy::Between;
    /// use woundsim::types::campaign::{Calendar, Downtime, Draw};
    /// let c = Calendar {
    ///     days_per_level: 1, adventures_per_level: 1, fights_per_day: 6, short_rests: 2,
    ///     between: Between::NoRest, travel_days: 0, downtime: Downtime::AsNeeded,
    ///     draw: Draw::PerDay,
    /// };
    /// let rests: Vec<u32> = (0..5).filter(|&k| c.rest_after(k) == Between::ShortRest).collect();
    /// assert_eq!(rests, [1, 3]); // after the 2nd and the 4th fight
    /// ```
    pub fn rest_after(&self, k: u32) -> Between {
        let (f, n) = (self.fights_per_day, self.short_rests);
        if (1..=n).any(|j| (j * f).div_ceil(n + 1) == k + 1) {
            Between::ShortRest
        } else {
            self.between
        }
    }

    /// Adventuring days in a career of `levels` levels.
    pub fn career_days(&self, levels: usize) -> usize {
        levels * self.days_per_level as usize
    }
}

/// A festering or open wound's process (docs/rules.md, lingering
/// injuries: max HP lost every 24 hours, tended with a Medicine check
/// every 24 hours until enough successes close it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FesterRule {
    /// The tending check's DC.
    pub dc: u8,
    /// Successes that close the wound.
    pub successes: u8,
    /// Max HP lost per day it stays open.
    pub hp_per_day: i32,
}

/// Which rolls a return from the dead penalizes (SRD 5.1 *raise dead*
/// and *resurrection*: −4 to attack rolls, saving throws and ability
/// checks, less 1 per long rest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnPenalty {
    /// Attack rolls and every saving throw, death saves included (a death
    /// save is a saving throw).
    #[default]
    EverySave,
    /// Attack rolls and saving throws, but not death saves (our reading
    /// for tables that treat a death save as outside the penalty).
    NotDeathSaves,
    /// No penalty at all.
    None,
}

/// One campaign variant's validated rules.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignVariant {
    /// The levels of the career, first to last.
    pub levels: Vec<LevelPlan>,
    /// Adventures, days, fights, rests, travel and downtime.
    pub calendar: Calendar,
    /// The healing setting of permanent wounds.
    pub healing: HealingSetting,
    /// The temple's highest spell level (0: no temple).
    pub temple_spell_level: u8,
    /// The price list (temple fees, materials, potions).
    pub prices: PriceList,
    /// Gold in the purse at the start.
    pub starting_gold: u64,
    /// Which wounds the party heals.
    pub heal_wounds: HealWounds,
    /// Raising before healing, or not.
    pub first: First,
    /// The dead the party cannot raise.
    pub replace_dead: ReplaceDead,
    /// Whether the party pays to raise its dead at all.
    pub raise_dead: bool,
    /// The rolls a return from the dead penalizes.
    pub return_penalty: ReturnPenalty,
    /// The party's casters.
    pub casters: Vec<Caster>,
    /// The PC whose spells cure lingering injuries (the first caster).
    pub healer: Option<usize>,
    /// The healer's spells that cure lingering injuries (indices into
    /// [`crate::rules::prices::SPELLS`]).
    pub healer_spells: Vec<usize>,
    /// Whether the party cures lingering injuries in downtime.
    pub cure_injuries: bool,
    /// When the healer spends slots on injuries out of combat.
    pub injury_spells: InjurySpells,
    /// Whether the party spends downtime days on rest cures.
    pub rest_cures: bool,
    /// When max HP lost to a festering wound comes back.
    pub festering_lost_hp: LostHp,
    /// The fights' injury table (with lingering injuries on).
    pub injuries: Option<InjuryTable>,
    /// Per entry of the injury table: its festering process, if it festers.
    pub festering: Vec<Option<FesterRule>>,
    /// Potions of healing by rarity each PC carries after downtime, bought
    /// at the price list's prices while the purse pays (0: none bought).
    pub restock_potions: [u8; 4],
    /// The PCs' names, in party order.
    pub pc_names: Vec<String>,
}

impl CampaignVariant {
    /// Whether this variant's careers fight `other`'s fights, level by
    /// level ([`LevelPlan::same_fights`]): then the two can share fights
    /// ([`shared_fights`]).
    pub fn same_fights(&self, other: &CampaignVariant) -> bool {
        self.levels.len() == other.levels.len()
            && self
                .levels
                .iter()
                .zip(&other.levels)
                .all(|(a, b)| a.same_fights(b))
    }
}

impl ScenarioType for Campaign {
    const NAME: &'static str = "campaign";
    /// 128 careers: about 19 ms of one thread for the shipped
    /// `campaign-healing-settings` (4 variants, 145 µs a trial) and 21 ms
    /// for `campaign-career` (2 variants, 161 µs).
    const CHUNK_TRIALS: u64 = 1 << 7;
    type Raw = schema::RawSettings;
    type Rules = CampaignVariant;
    type Prepared<'a> = mc::Prepared<'a>;
    type Acc = mc::CampaignAcc;

    fn build(
        layers: &Layers<Self::Raw>,
        catalog: &Catalog,
    ) -> Result<CampaignVariant, ScenarioError> {
        schema::build(layers, catalog)
    }

    fn prepare(variants: &[Variant<CampaignVariant>]) -> mc::Prepared<'_> {
        mc::Prepared::new(variants)
    }

    fn new_acc(prepared: &mc::Prepared<'_>) -> mc::CampaignAcc {
        prepared.new_acc()
    }

    fn trials_counted(acc: &mc::CampaignAcc) -> Vec<u64> {
        acc.trials_counted()
    }

    fn simulate_chunk(
        prepared: &mc::Prepared<'_>,
        _rng: &mut Xoshiro256PlusPlus,
        trials: TrialSeeds,
        acc: &mut mc::CampaignAcc,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, trials, acc, stop);
    }

    fn finish(
        header: &ScenarioHeader,
        variants: &[Variant<CampaignVariant>],
        prepared: &mc::Prepared<'_>,
        acc: &mc::CampaignAcc,
    ) -> ScenarioResult {
        mc::finish(header, variants, prepared, acc)
    }

    fn solve(
        _header: &ScenarioHeader,
        _variants: &[Variant<CampaignVariant>],
    ) -> Option<ScenarioResult> {
        // A career's fights have no exact solution (see the combat type).
        None
    }
}
