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

pub mod mc;
pub mod schema;
pub mod spending;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::ScenarioType;
use super::combat::difficulty::EncounterXp;
use crate::combat::encounter::Encounter;
use crate::engine::Stop;
use crate::model::{Catalog, ScenarioHeader, Variant};
use crate::results::ScenarioResult;
use crate::rules::healing::Plan;
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

    /// The encounter of one day: the only one, or one drawn by weight
    /// (one die from `rng` only when there are several).
    pub fn pick<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> &Encounter {
        if self.fights.len() == 1 {
            return &self.fights[0].encounter;
        }
        let total: u64 = self.fights.iter().map(|f| u64::from(f.weight)).sum();
        let mut x = crate::dice::uniform_below(rng, total.max(1));
        for f in &self.fights {
            if x < u64::from(f.weight) {
                return &f.encounter;
            }
            x -= u64::from(f.weight);
        }
        self.party()
    }
}

/// The cheapest cure of each lingering-injury table entry for each PC at
/// one level ([`crate::rules::healing::Plan::cheapest`]: the healer's
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
    /// The campaign goes on short-handed.
    Never,
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
    /// Adventuring days per level (a long rest after each).
    pub days_per_level: u32,
    /// Fights per adventuring day.
    pub fights_per_day: u32,
    /// The healing setting of permanent wounds.
    pub healing: HealingSetting,
    /// The temple's highest spell level (0: no temple).
    pub temple_spell_level: u8,
    /// The price list (temple fees, materials).
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
    /// Whether the party cures lingering injuries in downtime.
    pub cure_injuries: bool,
    /// Common potions of healing each PC carries after downtime, bought
    /// at the price list's price when the purse allows (0: none bought).
    pub restock_potions: u8,
    /// The PCs' names, in party order.
    pub pc_names: Vec<String>,
}

impl ScenarioType for Campaign {
    const NAME: &'static str = "campaign";
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

    fn simulate_chunk(
        prepared: &mc::Prepared<'_>,
        rng: &mut Xoshiro256PlusPlus,
        _first_trial: u64,
        count: u64,
        acc: &mut mc::CampaignAcc,
        stop: Stop<'_>,
    ) {
        mc::simulate_chunk(prepared, rng, count, acc, stop);
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
