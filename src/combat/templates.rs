//! PC templates as data: one build per class (`data/pc-templates.toml`,
//! parsed once by [`crate::scenario::data`]) turned into a creature for a
//! level. The SRD 5.1 tables every class shares ([`Progression`]:
//! proficiency bonus, a half caster's spell slots, cantrip dice, the main
//! ability's modifier; a full caster's slots are the rule core's table) and
//! each class's build ([`ClassTemplate`]: hit die, ability modifiers,
//! proficiencies, armour, attacks, the [`Feature`]s the round loop models,
//! each with its per-level values, and the spells a campaign's healer of
//! the class casts) are plain values; nothing here names a class. Scenarios refer to a template as `fighter-5` and may
//! override any field.

mod feature;

pub use feature::{Feature, WildShapeForm};

use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;
use crate::rules::prices::full_caster_slots;
use crate::rules::wound_healing::Progression as CasterProgression;

use super::creature::{Ability, Attack, CreatureSpec, HitDice, Reach, Spellbook};
use super::spell::{KnownSpell, Spells};

/// The SRD tables every class shares, by level (`[0]` is level 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progression {
    /// Proficiency bonus by character level.
    pub proficiency_bonus: Vec<i32>,
    /// The main ability's modifier by level (the build's ability score
    /// increases).
    pub main_ability_modifier: Vec<i32>,
    /// Damage dice of a cantrip by character level (1, then 2 at 5th, ...).
    pub cantrip_dice: Vec<u32>,
    /// Spell slots of a half caster, by class level. A full caster's are
    /// the rule core's table ([`full_caster_slots`]), which planners
    /// without a catalog read too.
    pub half_caster_slots: Vec<[u8; 9]>,
    /// Pact Magic slots of a warlock by class level (all of one level;
    /// they come back on a short rest).
    pub pact_slots: Vec<[u8; 9]>,
}

/// How a class casts spells: which slot table its level reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spellcasting {
    /// No spell slots.
    #[default]
    None,
    /// The full-caster table.
    Full,
    /// The half-caster table.
    Half,
    /// Pact Magic (warlock): few slots, all of one level, back on a short
    /// rest. No spell of the healing settings' cost model.
    Pact,
}

/// An attack of a template: the ability that adds to the attack roll (and
/// to a weapon's damage), the dice, and the kind of attack.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateAttack {
    /// Name, e.g. `longsword`.
    pub name: String,
    /// The ability of the attack roll (and of a weapon's damage).
    pub ability: Ability,
    /// Damage dice without modifier.
    pub damage: DiceExpr,
    /// Damage type.
    pub kind: DamageType,
    /// Melee or ranged.
    pub reach: Reach,
    /// Needs two hands.
    pub two_handed: bool,
    /// A spell attack (no ability modifier to damage).
    pub spell: bool,
    /// A cantrip: its dice grow with [`Progression::cantrip_dice`].
    pub cantrip: bool,
}

/// The skills a class build is proficient in, of those the loop rolls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skills {
    /// Wisdom (Medicine): stabilising a dying ally.
    pub medicine: bool,
    /// Strength (Athletics): escaping a grapple.
    pub athletics: bool,
    /// Dexterity (Acrobatics): escaping a grapple.
    pub acrobatics: bool,
}

/// One class's build.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassTemplate {
    /// Class name, e.g. `fighter`.
    pub name: String,
    /// Templates exist for levels `1..=levels`.
    pub levels: u8,
    /// Hit die (10 for a d10).
    pub hit_die: i32,
    /// The main ability (its modifier follows the progression).
    pub main_ability: Ability,
    /// Ability modifiers in [`Ability`] order (the main one is replaced).
    pub modifiers: [i32; 6],
    /// Proficient saving throws.
    pub saving_throws: Vec<Ability>,
    /// Proficient skills the loop rolls: Wisdom (Medicine), Strength
    /// (Athletics), Dexterity (Acrobatics).
    pub skills: Skills,
    /// Armour class: a base plus these abilities' modifiers.
    pub armor_class: (i32, Vec<Ability>),
    /// The armour class its shield gives, part of the base (0: none).
    pub shield: i32,
    /// Spell-slot table.
    pub spellcasting: Spellcasting,
    /// Attacks, in order of preference.
    pub attacks: Vec<TemplateAttack>,
    /// Features.
    pub features: Vec<Feature>,
    /// Spells that heal permanent wounds or raise the dead, as indices
    /// into [`SPELLS`](crate::rules::prices::SPELLS) (validated by the
    /// parser, hence not public: [`ClassTemplate::healing_spells`]).
    pub(crate) healing_spells: Vec<usize>,
    /// Spells that cure lingering injuries, as indices into
    /// [`SPELLS`](crate::rules::prices::SPELLS)
    /// ([`ClassTemplate::injury_spells`]).
    pub(crate) injury_spells: Vec<usize>,
    /// Attack, control and buff spells it prepares (a typical choice,
    /// docs/spells.md), as indices into [`Templates::spells`]; a template
    /// knows those of a level its slots reach.
    pub(crate) combat_spells: Vec<usize>,
    /// The class features the round loop does not model, each with the
    /// level the class gains it (shown by `woundsim show`).
    pub not_modelled: Vec<(u8, String)>,
}

/// Every class's build and the shared tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Templates {
    /// The shared tables.
    pub progression: Progression,
    /// The classes, in file order.
    pub classes: Vec<ClassTemplate>,
    /// The spells templates and party members name (`data/spells.toml`).
    pub spells: Spells,
    /// The beasts of the Wild Shape features by bestiary name, resolved
    /// and checked against the Beast Shapes table when the catalog reads
    /// its bestiary (`scenario::data::templates::attach_forms`); empty
    /// before, when a druid keeps its own shape.
    pub forms: std::collections::BTreeMap<String, CreatureSpec>,
}

/// `count` dice of `sides` faces plus `modifier`.
fn dice(count: u32, sides: u32, modifier: i32) -> DiceExpr {
    DiceExpr {
        count,
        sides,
        modifier,
    }
}

/// The value of a by-level table at `level` (tables reach every level a
/// class has, the parser checks it).
fn at<T: Copy + Default>(table: &[T], level: u8) -> T {
    table
        .get(usize::from(level) - 1)
        .copied()
        .unwrap_or_default()
}

impl Templates {
    /// The template for `name` (e.g. `fighter-5`), or `None` if there is none.
    ///
    /// ```
    /// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    /// let f = catalog.templates.template("fighter-5").unwrap();
    /// assert_eq!(f.max_hp, 44);
    /// assert_eq!(f.multiattack.len(), 2); // Extra Attack
    /// assert!(catalog.templates.template("fighter-21").is_none());
    /// ```
    pub fn template(&self, name: &str) -> Option<CreatureSpec> {
        let (class, level) = self.class_and_level(name)?;
        let mut spec = class.creature(name, level, &self.progression, &self.spells);
        let form = class
            .features
            .iter()
            .find_map(|f| f.wild_shape_form(level))
            .and_then(|form| self.forms.get(form));
        if let Some(beast) = form {
            spec.wild_shape = Some(Box::new(crate::combat::wild_shape::form_of(&spec, beast)));
        } else {
            spec.class_features.wild_shape = 0;
        }
        Some(spec)
    }

    /// The template name of `name`'s class at `level`: `cleric-3` and
    /// `cleric` both give `cleric-LEVEL`; a name that is not a class's is
    /// returned as it is (for the error that names it).
    ///
    /// ```
    /// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    /// assert_eq!(catalog.templates.at_level("cleric-3", 9), "cleric-9");
    /// assert_eq!(catalog.templates.at_level("cleric", 9), "cleric-9");
    /// assert_eq!(catalog.templates.at_level("clerc", 9), "clerc");
    /// ```
    pub fn at_level(&self, name: &str, level: u8) -> String {
        let class = name
            .rsplit_once('-')
            .filter(|(_, l)| l.parse::<u8>().is_ok())
            .map_or(name, |(class, _)| class);
        match self.class(class) {
            Some(_) => format!("{class}-{level}"),
            None => name.to_string(),
        }
    }

    /// The build and the level a template name `CLASS-LEVEL` names, if the
    /// class has templates at that level.
    fn class_and_level(&self, name: &str) -> Option<(&ClassTemplate, u8)> {
        let (class, level) = name.rsplit_once('-')?;
        let class = self.class(class)?;
        let level: u8 = level
            .parse()
            .ok()
            .filter(|l| (1..=class.levels).contains(l))?;
        Some((class, level))
    }

    /// The class features template `name` (`druid-9`) has that the round
    /// loop does not model, in file order; `None` for no such template.
    ///
    /// ```
    /// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    /// let druid = catalog.templates.not_modelled("druid-9").unwrap();
    /// assert!(druid.iter().any(|f| f.starts_with("Wild Shape")));
    /// assert!(catalog.templates.not_modelled("druid-21").is_none());
    /// ```
    pub fn not_modelled(&self, name: &str) -> Option<Vec<&str>> {
        let (class, level) = self.class_and_level(name)?;
        Some(
            class
                .not_modelled
                .iter()
                .filter(|(from, _)| *from <= level)
                .map(|(_, text)| text.as_str())
                .collect(),
        )
    }

    /// The build of class `name` (e.g. `cleric`), or `None` if there is
    /// none.
    ///
    /// ```
    /// use woundsim::rules::prices::SPELLS;
    /// use woundsim::rules::wound_healing::Progression;
    /// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
    /// let ranger = catalog.templates.class("ranger").unwrap();
    /// assert_eq!(ranger.progression(), Some(Progression::Half));
    /// let names: Vec<&str> = ranger.injury_spells().iter().map(|&i| SPELLS[i].name).collect();
    /// assert_eq!(names, ["cure_wounds", "lesser_restoration"]);
    /// assert!(catalog.templates.class("wizard").unwrap().healing_caster().is_none());
    /// assert!(catalog.templates.class("ranger-3").is_none());
    /// ```
    pub fn class(&self, name: &str) -> Option<&ClassTemplate> {
        self.classes.iter().find(|c| c.name == name)
    }

    /// The class names, in file order.
    pub fn classes(&self) -> Vec<&str> {
        self.classes.iter().map(|c| c.name.as_str()).collect()
    }

    /// Every template name, e.g. for `woundsim list`.
    pub fn names(&self) -> Vec<String> {
        self.classes
            .iter()
            .flat_map(|c| (1..=c.levels).map(move |l| format!("{}-{l}", c.name)))
            .collect()
    }

    /// The highest level any class has a template for.
    pub fn max_level(&self) -> u8 {
        self.classes.iter().map(|c| c.levels).max().unwrap_or(0)
    }
}

/// What a class's features read at one level: the shared tables' values
/// there and the build's modifiers after its ability bonuses.
struct Level<'a> {
    /// The character level.
    level: u8,
    /// Proficiency bonus.
    proficiency: i32,
    /// Ability modifiers in [`Ability`] order.
    modifiers: [i32; 6],
    /// The main ability's modifier (spellcasting, healing word).
    main_modifier: i32,
    /// Cantrip damage dice per die of the cantrip.
    cantrip_dice: u32,
    /// Spell slots of all levels together.
    slots: u8,
    /// Proficient saving throws.
    proficient_saves: &'a [Ability],
}

impl Level<'_> {
    /// Whether the level has a feature gained at `first`.
    fn has(&self, first: u8) -> bool {
        self.level >= first
    }

    /// How many of `levels` the level has reached.
    fn reached(&self, levels: &[u8]) -> usize {
        levels.iter().filter(|&&l| self.has(l)).count()
    }

    /// The modifier of ability `a`.
    fn modifier(&self, a: Ability) -> i32 {
        self.modifiers[a as usize]
    }
}

/// The creature of a level while its features apply: the spec, and what
/// the features add up before it is final.
struct Build {
    spec: CreatureSpec,
    /// Saving-throw modifiers in [`Ability`] order.
    saves: [i32; 6],
    /// Attacks of the Attack action.
    attacks_per_action: usize,
}

impl ClassTemplate {
    /// How its spell levels grow with its class level, for the spells it
    /// casts between fights; `None` for a class without spell slots.
    pub fn progression(&self) -> Option<CasterProgression> {
        match self.spellcasting {
            Spellcasting::None => None,
            Spellcasting::Full => Some(CasterProgression::Full),
            Spellcasting::Half => Some(CasterProgression::Half),
            Spellcasting::Pact => None,
        }
    }

    /// Its spells that heal permanent wounds or raise the dead (SRD 5.1
    /// class list), as indices into [`SPELLS`](crate::rules::prices::SPELLS),
    /// in file order; empty for a class with none.
    pub fn healing_spells(&self) -> &[usize] {
        &self.healing_spells
    }

    /// Its spells that cure lingering injuries (SRD 5.1 class list, among
    /// those the cost model knows), as indices into
    /// [`SPELLS`](crate::rules::prices::SPELLS), in file order.
    pub fn injury_spells(&self) -> &[usize] {
        &self.injury_spells
    }

    /// Its progression and healing spells if it casts any (the party's
    /// own healer of a campaign); `None` for a class without.
    pub fn healing_caster(&self) -> Option<(CasterProgression, &[usize])> {
        if self.healing_spells.is_empty() {
            return None;
        }
        Some((self.progression()?, &self.healing_spells))
    }

    /// The creature of this build at `level`, named `name`: the build's
    /// numbers at that level (hit points, armour, attacks, saves), then
    /// each feature in file order ([`Feature`]).
    pub fn creature(
        &self,
        name: &str,
        level: u8,
        p: &Progression,
        spells: &Spells,
    ) -> CreatureSpec {
        let modifiers = self.modifiers_at(level, p);
        let slot_table = self.slot_table(level, p);
        let l = Level {
            level,
            proficiency: at(&p.proficiency_bonus, level),
            modifiers,
            main_modifier: modifiers[self.main_ability as usize],
            cantrip_dice: at(&p.cantrip_dice, level),
            slots: slot_table.map_or(0, |t| t.iter().sum()),
            proficient_saves: &self.saving_throws,
        };
        let mut spec = CreatureSpec::blank(name, true, level);
        // A caster's slots for the spells a scenario gives it (`spells`).
        spec.spellbook = slot_table.map(|slots| self.spellbook(slots, &l));
        self.vitals(&mut spec, &l);
        spec.attacks = self.attacks.iter().map(|a| a.at(&l)).collect();
        let mut saves = modifiers;
        for &a in &self.saving_throws {
            saves[a as usize] += l.proficiency;
        }
        let mut build = Build {
            spec,
            saves,
            attacks_per_action: 1,
        };
        for feature in &self.features {
            feature.apply(&mut build, &l);
        }
        let mut spec = build.spec;
        spec.saves = build.saves;
        // Empowered Evocation on the template's cantrip attacks that are
        // evocations (the wizard's fire bolt).
        for a in spec.attacks.iter_mut().filter(|a| a.spell) {
            if let Some(s) = spells.get(&a.name.replace(' ', "_")) {
                a.damage.modifier += self
                    .features
                    .iter()
                    .filter(|f| matches!(f, Feature::EmpoweredEvocation { .. }))
                    .map(|f| f.spell_damage_bonus(l.level, s, l.main_modifier))
                    .sum::<i32>();
            }
        }
        spec.known_spells = self.known_spells(&l, spells, spec.spell_slots());
        spec.multiattack = if spec.attacks.is_empty() {
            Vec::new()
        } else {
            vec![0; build.attacks_per_action]
        };
        spec
    }

    /// The ability modifiers at `level`: the build's, the main one from
    /// the progression, plus the ability bonuses reached.
    fn modifiers_at(&self, level: u8, p: &Progression) -> [i32; 6] {
        let mut modifiers = self.modifiers;
        modifiers[self.main_ability as usize] = at(&p.main_ability_modifier, level);
        for (ability, bonus) in self.features.iter().filter_map(|f| f.ability_bonus(level)) {
            modifiers[ability as usize] += bonus;
        }
        modifiers
    }

    /// The spell slots of 1st to 9th level at `level`; `None` for a class
    /// that casts no spells.
    fn slot_table(&self, level: u8, p: &Progression) -> Option<[u8; 9]> {
        match self.spellcasting {
            Spellcasting::None => None,
            Spellcasting::Full => Some(full_caster_slots(level)),
            Spellcasting::Half => Some(at(&p.half_caster_slots, level)),
            Spellcasting::Pact => Some(at(&p.pact_slots, level)),
        }
    }

    /// A caster's empty spellbook with its slots; the healing_word
    /// feature's bonus is Disciple of Life.
    fn spellbook(&self, slots: [u8; 9], l: &Level) -> Spellbook {
        Spellbook {
            spells: Vec::new(),
            slots,
            modifier: l.main_modifier,
            disciple_of_life: self
                .features
                .iter()
                .any(|f| matches!(f, Feature::HealingWord { bonus, .. } if *bonus > 0)),
            diamonds: 0,
            short_rest_slots: self.spellcasting == Spellcasting::Pact,
        }
    }

    /// Its attack, control and buff spells at level `l`: the cantrips and
    /// those of a level its `slots` reach, with its save DC (8 +
    /// proficiency + the main modifier), spell attack bonus and damage
    /// bonus.
    fn known_spells(&self, l: &Level, spells: &Spells, slots: [u8; 9]) -> Vec<KnownSpell> {
        let highest = slots
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |i| i as u8 + 1);
        self.combat_spells
            .iter()
            .map(|&i| &spells.spells[i])
            .filter(|s| s.level <= highest)
            .map(|s| {
                let damage_bonus = self
                    .features
                    .iter()
                    .map(|f| f.spell_damage_bonus(l.level, s, l.main_modifier))
                    .sum();
                known_spell(s.clone(), l.proficiency, l.main_modifier, damage_bonus)
            })
            .collect()
    }

    /// Hit points and hit dice, armour class, initiative and Medicine.
    fn vitals(&self, spec: &mut CreatureSpec, l: &Level) {
        let con = l.modifier(Ability::Con);
        let level = i32::from(l.level);
        spec.max_hp = self.hit_die + con + (level - 1) * (self.hit_die / 2 + 1 + con);
        spec.hit_dice = Some(HitDice {
            die: self.hit_die.clamp(1, 255) as u8,
            count: l.level,
            con: con.clamp(-128, 127) as i8,
        });
        let (base, plus) = &self.armor_class;
        spec.ac = base + plus.iter().map(|&a| l.modifier(a)).sum::<i32>();
        spec.shield_ac = self.shield;
        spec.initiative = l.modifier(Ability::Dex);
        let skill = |proficient: bool, ability: Ability| {
            l.modifier(ability) + if proficient { l.proficiency } else { 0 }
        };
        spec.medicine = skill(self.skills.medicine, Ability::Wis);
        spec.escape = skill(self.skills.athletics, Ability::Str)
            .max(skill(self.skills.acrobatics, Ability::Dex));
    }
}

/// A spell known with the caster's proficiency bonus and spellcasting
/// modifier: its save DC (8 + both) and attack bonus (both), and the
/// modifier on its damage where the spell adds it.
pub fn known_spell(
    spell: crate::combat::spell::SpellSpec,
    proficiency: i32,
    modifier: i32,
    damage_bonus: i32,
) -> KnownSpell {
    KnownSpell {
        modifier_damage: if spell.damage_modifier { modifier } else { 0 },
        spell,
        dc: 8 + proficiency + modifier,
        to_hit: proficiency + modifier,
        damage_bonus,
        bonus_every_roll: false,
        innate: None,
    }
}

impl TemplateAttack {
    /// The attack at level `l`: proficiency and the ability on the attack
    /// roll, the ability on a weapon's damage, a cantrip's dice grown.
    fn at(&self, l: &Level) -> Attack {
        let count = if self.cantrip {
            self.damage.count * l.cantrip_dice
        } else {
            self.damage.count
        };
        let modifier = if self.spell {
            0
        } else {
            l.modifier(self.ability)
        };
        Attack {
            name: self.name.clone(),
            to_hit: l.proficiency + l.modifier(self.ability),
            damage: dice(count, self.damage.sides, self.damage.modifier + modifier),
            kind: self.kind,
            reach: self.reach,
            two_handed: self.two_handed,
            rider: None,
            knocks_prone: None,
            poisons_on_hit: false,
            hit_condition: None,
            charge: None,
            grapples: None,
            spares_grappled: false,
            advantage: None,
            bloodied: None,
            advantage_damage: None,
            save: None,
            spell: self.spell,
            ability: (!self.spell).then_some(self.ability),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each template feature as the class table states it, on the shipped
    //! builds (the round loop's use of the values has its own clause tests).

    fn t(name: &str) -> crate::combat::creature::CreatureSpec {
        crate::fixtures::catalog().templates.template(name).unwrap()
    }

    #[test]
    fn fighters_attack_four_times_at_20_and_crit_on_18_from_15() {
        let counts: Vec<usize> = [4, 5, 10, 11, 19, 20]
            .map(|l| t(&format!("fighter-{l}")).multiattack.len())
            .to_vec();
        assert_eq!(counts, [1, 2, 2, 3, 3, 4]);
        assert_eq!(
            (t("fighter-14").crit_range, t("fighter-15").crit_range),
            (19, 18)
        );
    }

    #[test]
    fn improved_divine_smite_adds_1d8_radiant_to_melee_hits_from_11() {
        assert!(t("paladin-10").attacks[0].rider.is_none());
        let r = t("paladin-11").attacks[0].rider.unwrap();
        assert_eq!(
            (r.dice.to_string(), r.kind.name()),
            ("1d8".into(), "radiant")
        );
    }

    #[test]
    fn primal_champion_raises_strength_and_constitution_at_20() {
        let (b19, b20) = (t("barbarian-19"), t("barbarian-20"));
        assert_eq!(b20.attacks[0].to_hit - b19.attacks[0].to_hit, 2);
        assert_eq!(
            b20.attacks[0].damage.modifier - b19.attacks[0].damage.modifier,
            2
        );
        // 12 + 5 at 1, then 7 + 5 per level (Con +3) → Con +5 at 20: 12 + 5 + 19 × 12.
        assert_eq!(b20.max_hp, 12 + 5 + 19 * 12);
        assert_eq!(b20.rage.unwrap().damage_bonus, 4);
    }

    #[test]
    fn the_martial_arts_die_grows_and_the_monk_strikes_as_a_bonus_action() {
        let dice: Vec<String> = [1, 5, 11, 17]
            .map(|l| t(&format!("monk-{l}")).attacks[0].damage.to_string())
            .to_vec();
        assert_eq!(dice, ["1d4+3", "1d6+4", "1d8+5", "1d10+5"]);
        assert_eq!(
            (t("monk-4").multiattack.len(), t("monk-5").multiattack.len()),
            (2, 3)
        );
        // Unarmored Defense: 10 + Dex + Wis.
        assert_eq!(t("monk-1").ac, 10 + 3 + 2);
    }

    #[test]
    fn diamond_soul_makes_every_save_proficient() {
        let (m13, m14) = (t("monk-13"), t("monk-14"));
        let prof = 5;
        assert_eq!(m14.saves[0], m13.saves[0], "Str was proficient");
        assert_eq!(m14.saves[2] - m13.saves[2], prof, "Con becomes proficient");
    }

    #[test]
    fn the_ranger_shoots_with_archery_and_colossus_slayer() {
        let (r1, r3) = (t("ranger-1"), t("ranger-3"));
        assert_eq!(r1.attacks[0].to_hit, 2 + 3, "no fighting style at 1");
        assert_eq!(r3.attacks[0].to_hit, 2 + 3 + 2);
        assert!(r1.once_per_turn.is_none());
        let o = r3.once_per_turn.unwrap();
        assert_eq!((o.dice.to_string(), o.uses), ("1d8".into(), None));
        assert!(t("ranger-15").evasion && !t("ranger-14").evasion);
    }

    #[test]
    fn the_sorcerer_and_warlock_add_their_charisma_to_spell_damage() {
        assert_eq!(t("sorcerer-5").attacks[0].damage.to_string(), "2d10");
        assert_eq!(t("sorcerer-6").attacks[0].damage.to_string(), "2d10+4");
        // Draconic Resilience: +1 HP per level.
        assert_eq!(t("sorcerer-1").max_hp, 6 + 2 + 1);
        assert_eq!(t("sorcerer-1").ac, 13 + 2);
        let (w1, w2) = (t("warlock-1"), t("warlock-2"));
        assert_eq!(
            (
                w1.attacks[0].damage.to_string(),
                w2.attacks[0].damage.to_string()
            ),
            ("1d10".into(), "1d10+3".into())
        );
        let beams: Vec<usize> = [4, 5, 11, 17]
            .map(|l| t(&format!("warlock-{l}")).multiattack.len())
            .to_vec();
        assert_eq!(beams, [1, 2, 3, 4]);
    }

    #[test]
    fn bards_and_druids_heal_with_healing_word_per_slot() {
        let h = t("bard-14").heal.unwrap();
        assert_eq!(
            (h.dice.to_string(), h.uses, h.spell),
            ("1d4+5".into(), 4 + 3 + 3 + 3 + 2 + 1 + 1, true)
        );
        let d = t("druid-5");
        assert_eq!(d.attacks[0].damage.to_string(), "2d8");
        assert_eq!(d.heal.unwrap().uses, 4 + 3 + 2);
    }

    /// One class-feature value at each level 1..=20.
    fn by_level<T>(
        class: &str,
        f: impl Fn(&crate::combat::creature::ClassFeatures) -> T,
    ) -> Vec<T> {
        (1..=20)
            .map(|l| f(&t(&format!("{class}-{l}")).class_features))
            .collect()
    }

    #[test]
    fn action_surge_from_2_twice_from_17_and_indomitable_at_9_13_17() {
        let surge = by_level("fighter", |c| c.action_surge);
        assert_eq!(
            surge,
            [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2]
        );
        let indomitable = by_level("fighter", |c| c.indomitable);
        assert_eq!(
            indomitable,
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
        );
        assert_eq!(t("rogue-5").class_features.action_surge, 0);
    }

    #[test]
    fn uncanny_dodge_from_rogue_5_and_brutal_critical_at_9_13_17() {
        let dodge = by_level("rogue", |c| c.uncanny_dodge);
        assert_eq!(dodge.iter().position(|&d| d), Some(4));
        assert!(dodge[4..].iter().all(|&d| d));
        let brutal = by_level("barbarian", |c| c.brutal_critical);
        assert_eq!(
            brutal,
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
        );
    }

    #[test]
    fn the_monk_deflects_from_3_and_stuns_from_5_with_ki_equal_to_its_level() {
        let ki = by_level("monk", |c| c.ki);
        let expected: Vec<u8> = (1..=20).map(|l| if l < 5 { 0 } else { l }).collect();
        assert_eq!(ki, expected);
        // DC 8 + proficiency + Wis (+2): 13 at 5, 14 at 9, 15 at 13, 16 at 17.
        let dc: Vec<i32> = [5, 9, 13, 17]
            .map(|l| t(&format!("monk-{l}")).class_features.stun_dc)
            .to_vec();
        assert_eq!(dc, [13, 14, 15, 16]);
        assert!(t("monk-2").class_features.deflect_missiles.is_none());
        // 1d10 + Dex + monk level: Dex +3 at 3, +5 at 20.
        let d3 = t("monk-3").class_features.deflect_missiles.unwrap();
        let d20 = t("monk-20").class_features.deflect_missiles.unwrap();
        assert_eq!(
            (d3.to_string(), d20.to_string()),
            ("1d10+6".into(), "1d10+25".into())
        );
    }

    #[test]
    fn the_paladins_aura_reaches_allies_from_6_at_10_feet_then_30_from_18() {
        let aura = by_level("paladin", |c| (c.aura, c.aura_feet));
        assert_eq!(aura[4], (0, 0));
        assert_eq!((aura[5], aura[16], aura[17]), ((2, 10), (2, 10), (2, 30)));
        // Its own saves still carry it: Wis 0 + proficiency 3 + 2.
        assert_eq!(t("paladin-6").saves[4], 5);
    }

    #[test]
    fn bardic_inspiration_dice_and_uses_grow_and_come_back_on_short_rests_from_5() {
        let dice = by_level("bard", |c| c.inspiration_die);
        assert_eq!(
            dice,
            [
                6, 6, 6, 6, 8, 8, 8, 8, 8, 10, 10, 10, 10, 10, 12, 12, 12, 12, 12, 12
            ]
        );
        // The Charisma modifier: 3, 4 from 4, 5 from 8.
        let uses = by_level("bard", |c| c.inspiration_uses);
        assert_eq!((uses[0], uses[3], uses[7], uses[19]), (3, 4, 5, 5));
        let font = by_level("bard", |c| c.inspiration_short_rest);
        assert_eq!(font.iter().position(|&f| f), Some(4));
    }

    #[test]
    fn preserve_life_from_cleric_2_with_five_hp_per_level() {
        let uses = by_level("cleric", |c| c.preserve_life);
        assert_eq!(
            uses,
            [0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3]
        );
        let pool = by_level("cleric", |c| c.preserve_life_hp);
        assert_eq!((pool[1], pool[19]), (10, 100));
    }
}
