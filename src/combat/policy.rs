//! Tactical policies and encounter options: how creatures pick targets,
//! whether monsters attack downed PCs, when healers heal, what happens
//! between chained encounters. Each is a scenario option, because tables
//! play these differently.

use crate::rules::death_saves::DeathSaveRules;

/// How an attacker picks among conscious enemies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Targeting {
    /// Uniformly at random.
    #[default]
    Random,
    /// The one with the fewest hit points left.
    LowestHp,
    /// The one whose Attack action deals the most expected damage.
    HighestThreat,
    /// Everyone on a side attacks the same enemy until it drops.
    FocusFire,
}

/// Whether monsters attack PCs who are down (dying or stable at 0 HP).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum AttackDowned {
    /// Only conscious PCs are attacked.
    #[default]
    Never,
    /// Each attack goes to a downed PC within reach with this probability.
    Sometimes(crate::dice::Chance),
    /// Downed PCs are finished off first.
    Always,
}

impl AttackDowned {
    /// The chance of [`AttackDowned::Sometimes`] when a scenario gives none.
    pub const DEFAULT_CHANCE: crate::dice::Chance = crate::dice::Chance::constant(0.5);
}

/// What the monsters do once no PC is left standing (docs/rules.md, campaign facts: nothing
/// in the rules decides it; it is the GM's call).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenPartyFalls {
    /// The fight is over at the end of the round in which the last PC
    /// falls: the monsters leave (or take captives), and the downed PCs
    /// resolve their death saves on their own.
    #[default]
    MonstersLeave,
    /// The monsters stay and attack the downed PCs (every attack, melee or
    /// ranged, goes to a downed PC while none stands) until every PC is
    /// dead or one is back on its feet, which rejoins the fight.
    FinishTheDowned,
}

/// When a creature spends healing on an ally (or itself).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealWhen {
    /// Only to bring a dying ally back up (the common "whack-a-mole" play).
    #[default]
    Dying,
    /// Also when an ally is below half its hit points.
    BelowHalf,
    /// Never spend healing.
    Never,
}

/// When a conscious PC spends its action stabilising a dying ally
/// (DC 10 Wisdom (Medicine)) if it has no healing to give.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stabilize {
    /// Never.
    Never,
    /// Once no enemy is left standing.
    #[default]
    AfterFight,
    /// Whenever an ally is dying, even mid-fight.
    Always,
}

/// What happens to the party between chained encounters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Between {
    /// A long rest: hit points and resources restored (wounds stay).
    #[default]
    LongRest,
    /// No rest: hit points and resources carry over.
    NoRest,
    /// A short rest (SRD 5.1, 1 hour): each PC below its maximum spends hit
    /// dice, one at a time, until it is full or has none left, regaining
    /// each die's roll plus its Constitution modifier; features that come
    /// back on a short rest (Second Wind) come back. Spell slots, rage and
    /// the rest wait for a long rest.
    ShortRest,
}

/// Lingering injuries in combat (docs/rules.md, lingering injuries): the table, the trigger, and
/// whether it rains (a painful scar then costs actions).
#[derive(Clone, Debug, PartialEq)]
pub struct CombatInjuries {
    /// The injury table and its chance per triggering event.
    pub table: crate::rules::lingering::InjuryTable,
    /// Which events trigger it, for whom.
    pub trigger: crate::rules::lingering::Trigger,
    /// Which of a creature's own missed attacks can injure it (with
    /// `trigger.on_crit_miss`): natural 1s only, or any miss.
    pub miss_trigger: crate::rules::lingering::MissTrigger,
    /// Rain, sleet, hail or snow during the fights.
    pub bad_weather: bool,
}

/// Who makes called shots at limbs (docs/combat.md, "Called shots on
/// limbs"; our extension of the amputation type, not a rule of the seed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CalledShooters {
    /// Nobody (the default: the loop plays as without the extension).
    #[default]
    Never,
    /// The party.
    Pcs,
    /// The monsters.
    Monsters,
    /// Both sides.
    Both,
}

impl CalledShooters {
    /// Whether a creature of the party (`party`) or of the monsters aims.
    pub fn aims(self, party: bool) -> bool {
        match self {
            CalledShooters::Never => false,
            CalledShooters::Pcs => party,
            CalledShooters::Monsters => !party,
            CalledShooters::Both => true,
        }
    }
}

/// Which limb a called shot aims at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimbAim {
    /// The weapon arm, then the other arm (disarming the foe).
    #[default]
    WeaponArm,
    /// A leg, then the other leg.
    Leg,
    /// One of the limbs still attached, uniformly at random.
    Random,
}

/// Called shots at limbs in a fight (our extension): who aims, the attack
/// penalty, which limb, and which damage severs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CalledShots {
    /// Who makes them.
    pub by: CalledShooters,
    /// Subtracted from the attack roll of a called shot.
    pub penalty: i32,
    /// Which limb is aimed at.
    pub aim: LimbAim,
    /// The seed's "sharp damage" reading: piercing severs too (as in the
    /// amputation type).
    pub piercing_severs: bool,
}

impl CalledShots {
    /// The default attack penalty of a called shot (a house-rule default
    /// of ours, the amputation type's too).
    pub const DEFAULT_PENALTY: i32 = 5;
}

/// What a ranged attacker does with a hostile creature within 5 feet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangedInMelee {
    /// Stays and shoots with disadvantage (RAW).
    #[default]
    Shoot,
    /// Steps back out of reach first (provoking opportunity attacks), then
    /// shoots without disadvantage if no hostile is left within 5 feet.
    StepBack,
}

/// Positions on one line of battle (docs/combat.md, "Positions"; an
/// approximation of ours): each side has a front line and a back line
/// behind it, every creature has a place in feet along the line and moves
/// by its speed; melee needs 5 feet, passing an enemy provokes its
/// opportunity attack, a ranged attack with a conscious hostile within 5
/// feet has disadvantage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Positions {
    /// Feet between the two front lines when a fight starts.
    pub start_distance: i32,
    /// Feet between a side's front line and its back line.
    pub back_line: i32,
    /// Melee attackers may pick a target behind a conscious enemy and move
    /// past it (taking its opportunity attack); otherwise they attack only
    /// enemies with no conscious enemy between.
    pub move_past_front: bool,
    /// What ranged attackers do in melee.
    pub ranged_in_melee: RangedInMelee,
}

impl Positions {
    /// The defaults: 60 ft between the front lines (a room or a clearing),
    /// back lines 30 ft behind, no moving past the front, ranged attackers
    /// shoot where they stand.
    pub const DEFAULT: Positions = Positions {
        start_distance: 60,
        back_line: 30,
        move_past_front: false,
        ranged_in_melee: RangedInMelee::Shoot,
    };
}

/// Options of an encounter chain, shared by every creature in it.
#[derive(Clone, Debug, PartialEq)]
pub struct EncounterRules {
    /// Death saves and the permanent-wound option for PCs.
    pub death_saves: DeathSaveRules,
    /// Target choice of PCs and monsters.
    pub targeting: Targeting,
    /// Whether monsters attack downed PCs.
    pub attack_downed: AttackDowned,
    /// What the monsters do once no PC is standing.
    pub when_party_falls: WhenPartyFalls,
    /// When healing is spent.
    pub heal_when: HealWhen,
    /// When dying allies are stabilised with Medicine.
    pub stabilize: Stabilize,
    /// Massive damage kills outright (RAW).
    pub massive_damage: bool,
    /// The fight is in sunlight: Sunlight Sensitivity and Sunlight Weakness
    /// act ([`crate::combat::creature::Sunlight`]).
    pub sunlight: bool,
    /// Rounds after which a fight is called a draw.
    pub round_cap: u32,
    /// Overrides every creature's critical range (e.g. 19) when set.
    pub crit_range: Option<u8>,
    /// Critical hits exist (RAW). Without them (the "no critical hits"
    /// table variant) a natural roll in the critical range still hits, but
    /// it is an ordinary hit: dice not doubled, one death-save failure, no
    /// lingering injury from a critical hit, and a melee hit on an
    /// unconscious creature is an ordinary hit too.
    pub critical_hits: bool,
    /// The remaining monsters flee once fewer than this share of them is left standing (0 = never).
    pub monsters_flee_below: f64,
    /// Fights in a row within one trial; wounds carry over.
    pub encounters: u32,
    /// Rest between them.
    pub between: Between,
    /// Permanent wounds impose their effects in later fights of the chain.
    pub wound_effects: bool,
    /// The other reading of a severe wound's "all Strength rolls" (all
    /// Dexterity rolls for a lost leg): weapon attack rolls with that
    /// ability have disadvantage too (docs/rules.md, "Two readings"; off:
    /// checks and saves only).
    pub wound_attack_disadvantage: bool,
    /// PCs with a lost leg walk with a prosthesis: 10 ft instead of 5 ft
    /// (with positions; docs/rules.md, "What a wound does").
    pub lost_leg_prosthesis: bool,
    /// Lingering injuries, when the scenario turns them on.
    pub injuries: Option<CombatInjuries>,
    /// How casters spend spell slots and potions.
    pub spending: Spending,
    /// Called shots at limbs (our extension), when some side makes them.
    pub called_shots: Option<CalledShots>,
    /// Positions and movement (our approximation), when turned on.
    pub positions: Option<Positions>,
    /// Spreading venom (our extension), when some attacks carry it.
    pub venom: Option<SpreadingVenom>,
}

/// Spreading venom (docs/combat.md, "Spreading venom"): our extension for
/// the amputation seed's situation, not a rule of any source. The rider of
/// the listed monster attacks (the wyvern's stinger: 7d6 poison, DC 15
/// Constitution for half) does not strike at once: it poisons one limb of
/// the PC it hits and spreads past it `clock` rounds later, dealing its
/// damage then — unless the party cuts the limb off first, after the
/// fight, with the amputation model (limb HP by size, only severing damage,
/// the creature's damage modifiers), and may put it back on within
/// `reattach_minutes` by healing the limb itself to full.
#[derive(Clone, Debug, PartialEq)]
pub struct SpreadingVenom {
    /// The monster attacks (by name) whose rider spreads.
    pub attacks: Vec<String>,
    /// Rounds from the sting until the venom spreads past the limb.
    pub clock: crate::dice::DiceExpr,
    /// The party cuts a poisoned limb off after a fight when it can.
    pub amputate: bool,
    /// Piercing damage severs too (the seed's "sharp damage" reading).
    pub piercing_severs: bool,
    /// Minutes within which a limb cut off and healed back to its full HP
    /// reattaches (0: no attempt).
    pub reattach_minutes: u32,
}

impl SpreadingVenom {
    /// The clock when a scenario gives none (**ours**): 3d6 rounds, about
    /// a minute.
    pub const DEFAULT_CLOCK: crate::dice::DiceExpr = crate::dice::DiceExpr {
        count: 3,
        sides: 6,
        modifier: 0,
    };

    /// The seed's hour for reattaching a limb.
    pub const DEFAULT_REATTACH_MINUTES: u32 = 60;
}

/// Which slot a caster spends on a spell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotChoice {
    /// The lowest slot of the spell's level or higher (saves the big ones).
    #[default]
    Lowest,
    /// The highest slot left (upcasts: heals the most now).
    Highest,
}

/// When a creature drinks one of its own potions of healing (an action).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrinkWhen {
    /// Never: potions are kept for dying allies.
    #[default]
    Never,
    /// When below half its hit points and no ally is dying.
    BelowHalf,
}

/// When casters cast *aid*.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AidWhen {
    /// Before each fight in which it is not in force (it lasts 8 hours:
    /// until the next long rest).
    #[default]
    BeforeFights,
    /// Never.
    Never,
}

/// The healer's spending policies (docs/combat.md, spells and potions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spending {
    /// Which slot a spell is cast with.
    pub slot: SlotChoice,
    /// Slots kept for dying allies: a healing spell on an ally who is not
    /// dying is cast only while more slots than this are left.
    pub slot_reserve: u8,
    /// Whether a caster who knows *revivify* and has a diamond raises an
    /// ally dead for at most a minute (10 rounds).
    pub revivify: bool,
    /// When *aid* is cast.
    pub aid: AidWhen,
    /// When a creature drinks its own potion.
    pub drink_potions: DrinkWhen,
    /// How casters choose among their attack, control and buff spells
    /// (docs/spells.md, "Casting policy").
    pub spell_policy: SpellPolicy,
}

/// How a caster chooses among its weapon or cantrip attack and its
/// levelled attack, control and buff spells (docs/spells.md, "Casting
/// policy"). Every option is valued in expected hit points: damage dealt
/// (each target's share capped at its hit points), damage prevented (a
/// disabled creature's expected damage for the rounds it is expected to
/// stay disabled), damage added (a buff's extra hits); a levelled spell's
/// value is divided by `1 + k × slot level` before the comparison, so that
/// a slot is spent only where it buys clearly more than the free option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellPolicy {
    /// `k = 0.5`: a 3rd-level slot must buy 2.5 times the free option.
    #[default]
    BestExpected,
    /// `k = 1.5`: slots kept for what clearly needs them (a 3rd-level
    /// slot must buy 5.5 times the free option).
    Conserve,
    /// Levelled attack, control and buff spells are never cast (the
    /// healing policy still spends slots): the model before spells.
    Never,
}

impl SpellPolicy {
    /// The slot-cost factor `k` (`None`: never cast).
    pub fn slot_cost(self) -> Option<f64> {
        match self {
            SpellPolicy::BestExpected => Some(0.5),
            SpellPolicy::Conserve => Some(1.5),
            SpellPolicy::Never => None,
        }
    }
}

impl Spending {
    /// The defaults: lowest slots, no reserve, *revivify* when possible,
    /// *aid* before fights, potions kept for the dying.
    pub const DEFAULT: Spending = Spending {
        slot: SlotChoice::Lowest,
        slot_reserve: 0,
        revivify: true,
        aid: AidWhen::BeforeFights,
        drink_potions: DrinkWhen::Never,
        spell_policy: SpellPolicy::BestExpected,
    };
}

impl Default for EncounterRules {
    fn default() -> Self {
        EncounterRules {
            death_saves: DeathSaveRules::default(),
            targeting: Targeting::default(),
            attack_downed: AttackDowned::default(),
            when_party_falls: WhenPartyFalls::default(),
            heal_when: HealWhen::default(),
            stabilize: Stabilize::default(),
            massive_damage: true,
            sunlight: false,
            round_cap: 50,
            crit_range: None,
            critical_hits: true,
            monsters_flee_below: 0.0,
            encounters: 1,
            between: Between::default(),
            wound_effects: true,
            wound_attack_disadvantage: false,
            lost_leg_prosthesis: true,
            injuries: None,
            spending: Spending::DEFAULT,
            called_shots: None,
            positions: None,
            venom: None,
        }
    }
}
