//! The PC-template file (`data/pc-templates.toml`) turned into
//! [`Templates`]: the SRD tables every class shares and one build per class
//! with its features, each per-level value a table by level. Parsed and
//! validated once at start-up; a broken file is a located error naming the
//! file, line:column and field.

mod feature;

use std::collections::BTreeSet;

use serde::Deserialize;
use toml::Spanned;

use crate::combat::creature::{Ability, Reach};
use crate::combat::spell::{MAX_KNOWN_SPELLS, Spells};
use crate::combat::templates::{
    ClassTemplate, Progression, Skills, Spellcasting, TemplateAttack, Templates,
};
use crate::dice::DiceExpr;
use crate::rules::damage::DamageType;
use crate::rules::prices::{SPELLS, spell_index};

use crate::scenario::{Locator, ScenarioError};
use feature::{FeatureCheck, RawFeature};

/// Highest level a template table may reach (the SRD's character levels).
pub const MAX_LEVEL: u8 = 20;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    progression: RawProgression,
    class: Vec<RawClass>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProgression {
    proficiency_bonus: Spanned<Vec<i32>>,
    main_ability_modifier: Spanned<Vec<i32>>,
    cantrip_dice: Spanned<Vec<u32>>,
    half_caster_slots: Spanned<Vec<Vec<u8>>>,
    pact_slots: Spanned<Vec<Vec<u8>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModifiers {
    str: Option<i32>,
    dex: Option<i32>,
    con: Option<i32>,
    int: Option<i32>,
    wis: Option<i32>,
    cha: Option<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmor {
    base: i32,
    #[serde(default)]
    plus: Vec<Ability>,
    /// The shield's part of `base` (0: no shield).
    #[serde(default)]
    shield: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttack {
    name: String,
    ability: Ability,
    damage: Spanned<String>,
    #[serde(rename = "type")]
    kind: DamageType,
    #[serde(default = "melee")]
    reach: Reach,
    #[serde(default)]
    two_handed: bool,
    #[serde(default)]
    spell: bool,
    #[serde(default)]
    cantrip: bool,
}

fn melee() -> Reach {
    Reach::Melee
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClass {
    name: Spanned<String>,
    levels: Spanned<u8>,
    hit_die: Spanned<i32>,
    main_ability: Ability,
    modifiers: Spanned<RawModifiers>,
    saving_throws: Vec<Ability>,
    #[serde(default)]
    skills: Vec<Spanned<String>>,
    armor_class: RawArmor,
    #[serde(default)]
    spellcasting: Spellcasting,
    #[serde(default)]
    healing_spells: Vec<Spanned<String>>,
    #[serde(default)]
    injury_spells: Vec<Spanned<String>>,
    #[serde(default)]
    spells: Vec<Spanned<String>>,
    attacks: Vec<RawAttack>,
    features: Spanned<Vec<RawFeature>>,
    #[serde(default)]
    not_modelled: Vec<Spanned<RawNotModelled>>,
}

/// A class feature the round loop does not model, from the level the
/// class gains it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNotModelled {
    from_level: u8,
    text: String,
}

/// The most class features a class may list as not modelled.
const MAX_NOT_MODELLED: usize = 40;
/// The longest text of one.
const MAX_NOT_MODELLED_TEXT: usize = 300;

/// Parses and validates a PC-template file.
///
/// ```
/// use woundsim::scenario::data::{templates::parse_file, PC_TEMPLATES_TOML};
/// let t = parse_file("pc-templates.toml", PC_TEMPLATES_TOML).unwrap();
/// assert_eq!(t.template("wizard-1").unwrap().max_hp, 8);
/// let e = parse_file("mine.toml", "[progression]\n").unwrap_err().to_string();
/// assert!(e.starts_with("mine.toml:"), "{e}");
/// ```
pub fn parse_file(file: &str, text: &str) -> Result<Templates, ScenarioError> {
    let spells = super::spells::parse_file(super::SPELLS_FILE, super::SPELLS_TOML)?;
    parse_file_with(file, text, spells)
}

/// [`parse_file`] with the spells its classes name.
pub fn parse_file_with(file: &str, text: &str, spells: Spells) -> Result<Templates, ScenarioError> {
    let loc = Locator { file, text };
    let raw: RawFile = crate::scenario::deserialize(&loc, text)?;
    let progression = progression(&loc, &raw.progression)?;
    let mut seen = BTreeSet::new();
    let mut classes = Vec::with_capacity(raw.class.len());
    for (i, c) in raw.class.iter().enumerate() {
        let class = class(&loc, i, c, &spells)?;
        if !seen.insert(class.name.clone()) {
            return Err(loc.error(
                c.name.span().start,
                &format!("class[{i}].name"),
                format!("class `{}` is defined twice", class.name),
            ));
        }
        classes.push(class);
    }
    Ok(Templates {
        progression,
        classes,
        spells,
        forms: Default::default(),
    })
}

/// Resolves the Wild Shape forms of the templates of `file` (its `text`)
/// in `bestiary` and checks each against the Beast Shapes table at the
/// level it is taken from (`combat::wild_shape`); an error points at the
/// class's `features` and names the form.
pub fn attach_forms(
    templates: &mut Templates,
    bestiary: &crate::combat::bestiary::Bestiary,
    file: &str,
    text: &str,
) -> Result<(), ScenarioError> {
    let loc = Locator { file, text };
    let raw: RawFile = crate::scenario::deserialize(&loc, text)?;
    let mut forms = std::collections::BTreeMap::new();
    for (i, class) in templates.classes.iter().enumerate() {
        let at = raw.class.get(i).map_or(0, |c| c.features.span().start);
        for (j, feature) in class.features.iter().enumerate() {
            let crate::combat::templates::Feature::WildShape { forms: listed, .. } = feature else {
                continue;
            };
            for (k, f) in listed.iter().enumerate() {
                let field = format!("class[{i}].features[{j}].forms[{k}].form");
                let Some(entry) = bestiary.entry(&f.form) else {
                    let message = format!("no bestiary entry `{}` to take the shape of", f.form);
                    return Err(loc.error(at, &field, message));
                };
                let speed = entry.lore.speed.unwrap_or_default();
                if let Some(why) = crate::combat::wild_shape::refusal(
                    f.from_level,
                    entry.lore.kind.as_deref(),
                    entry.spec.challenge,
                    speed.walk,
                    speed.fly,
                    speed.swim,
                ) {
                    return Err(loc.error(at, &field, format!("`{}`: {why}", f.form)));
                }
                forms.insert(f.form.clone(), entry.spec.clone());
            }
        }
    }
    templates.forms = forms;
    Ok(())
}

fn progression(loc: &Locator, p: &RawProgression) -> Result<Progression, ScenarioError> {
    let full = |field: &str, t: &Spanned<Vec<i32>>| {
        table_length(loc, field, t.span().start, t.get_ref().len())
    };
    full("progression.proficiency_bonus", &p.proficiency_bonus)?;
    full(
        "progression.main_ability_modifier",
        &p.main_ability_modifier,
    )?;
    table_length(
        loc,
        "progression.cantrip_dice",
        p.cantrip_dice.span().start,
        p.cantrip_dice.get_ref().len(),
    )?;
    Ok(Progression {
        proficiency_bonus: p.proficiency_bonus.get_ref().clone(),
        main_ability_modifier: p.main_ability_modifier.get_ref().clone(),
        cantrip_dice: p.cantrip_dice.get_ref().clone(),
        half_caster_slots: slot_table(loc, "progression.half_caster_slots", &p.half_caster_slots)?,
        pact_slots: slot_table(loc, "progression.pact_slots", &p.pact_slots)?,
    })
}

/// A table of spell slots by level: one row per SRD level, each of at most
/// nine spell levels (those not given are none).
fn slot_table(
    loc: &Locator,
    field: &str,
    t: &Spanned<Vec<Vec<u8>>>,
) -> Result<Vec<[u8; 9]>, ScenarioError> {
    table_length(loc, field, t.span().start, t.get_ref().len())?;
    t.get_ref()
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut out = [0u8; 9];
            if row.len() > 9 {
                return Err(loc.error(
                    t.span().start,
                    &format!("{field}[{i}]"),
                    format!(
                        "spell slots go from 1st to 9th level, got {} levels",
                        row.len()
                    ),
                ));
            }
            out[..row.len()].copy_from_slice(row);
            Ok(out)
        })
        .collect()
}

/// Shared tables cover every SRD level.
fn table_length(loc: &Locator, field: &str, at: usize, len: usize) -> Result<(), ScenarioError> {
    if len == usize::from(MAX_LEVEL) {
        Ok(())
    } else {
        Err(loc.error(
            at,
            field,
            format!(
                "a table by level needs one value for each of levels 1 to {MAX_LEVEL}, got {len}"
            ),
        ))
    }
}

fn dice(loc: &Locator, at: usize, field: &str, text: &str) -> Result<DiceExpr, ScenarioError> {
    text.parse::<DiceExpr>()
        .map_err(|e| loc.error(at, field, format!("`{text}` is not a dice expression: {e}")))
}

/// Why `name` is no template of `templates`, in the user's words: an
/// impossible level of a known class, or an unknown class (with the
/// nearest one).
///
/// ```
/// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
/// use woundsim::scenario::data::templates::unknown;
/// assert_eq!(
///     unknown(&catalog.templates, "fighter-21"),
///     "no PC template `fighter-21`: fighter templates have levels 1 to 20, got 21"
/// );
/// assert!(unknown(&catalog.templates, "figter-3").contains("did you mean `fighter-3`?"));
/// assert!(unknown(&catalog.templates, "clerc-3").contains("did you mean `cleric-3`?"));
/// ```
pub fn unknown(templates: &Templates, name: &str) -> String {
    if let Some((class, level)) = name.rsplit_once('-') {
        if let Some(c) = templates.classes.iter().find(|c| c.name == class) {
            return format!(
                "no PC template `{name}`: {class} templates have levels 1 to {}, got {level}",
                c.levels
            );
        }
    }
    let classes = templates.classes();
    let class = name.rsplit_once('-').map_or(name, |(c, _)| c);
    // The hint is a whole template name: `clerc-3` gets `cleric-3`.
    let hint = match (
        crate::scenario::wording::nearest(class, &classes),
        name.rsplit_once('-'),
    ) {
        (Some(near), Some((_, level))) => format!(" (did you mean `{near}-{level}`?)"),
        (Some(near), None) => format!(" (did you mean `{near}`?)"),
        (None, _) => String::new(),
    };
    format!(
        "unknown PC template `{name}`{hint}; templates are CLASS-LEVEL with CLASS one of {} and LEVEL 1 to {}",
        classes.join(", "),
        templates.max_level()
    )
}

/// The class at `class[i]` validated into its build, key by key in file
/// order (the first bad key is the error).
fn class(
    loc: &Locator,
    i: usize,
    c: &RawClass,
    spells: &Spells,
) -> Result<ClassTemplate, ScenarioError> {
    let path = format!("class[{i}]");
    let name = class_name(loc, &path, &c.name)?;
    let levels = class_levels(loc, &path, &c.levels)?;
    let combat_spells = combat_spells(loc, &path, &name, &c.spells, c.spellcasting, spells)?;
    Ok(ClassTemplate {
        name,
        levels,
        hit_die: hit_die(loc, &path, &c.hit_die)?,
        main_ability: c.main_ability,
        modifiers: modifiers(loc, &path, c)?,
        saving_throws: c.saving_throws.clone(),
        skills: skills(loc, &path, &c.skills)?,
        armor_class: (c.armor_class.base, c.armor_class.plus.clone()),
        shield: i32::from(c.armor_class.shield),
        spellcasting: c.spellcasting,
        healing_spells: spell_list(
            loc,
            &path,
            "healing_spells",
            &c.healing_spells,
            c.spellcasting,
        )?,
        injury_spells: spell_list(
            loc,
            &path,
            "injury_spells",
            &c.injury_spells,
            c.spellcasting,
        )?,
        combat_spells,
        attacks: attacks(loc, &path, &c.attacks)?,
        features: features(loc, &path, levels, &c.features)?,
        not_modelled: not_modelled(loc, &path, levels, &c.not_modelled)?,
    })
}

/// `not_modelled`: the class features the loop ignores, each from a level
/// the class has, with a short text; at most [`MAX_NOT_MODELLED`].
fn not_modelled(
    loc: &Locator,
    path: &str,
    levels: u8,
    items: &[Spanned<RawNotModelled>],
) -> Result<Vec<(u8, String)>, ScenarioError> {
    if items.len() > MAX_NOT_MODELLED {
        let at = items[MAX_NOT_MODELLED].span().start;
        let message = format!(
            "at most {MAX_NOT_MODELLED} features not modelled per class, got {}",
            items.len()
        );
        return Err(loc.error(at, &format!("{path}.not_modelled"), message));
    }
    items
        .iter()
        .enumerate()
        .map(|(j, item)| {
            let at = item.span().start;
            let field = |key: &str| format!("{path}.not_modelled[{j}].{key}");
            let n = item.get_ref();
            if !(1..=levels).contains(&n.from_level) {
                let message = format!(
                    "from_level must be a level of the class, 1 to {levels}, got {}",
                    n.from_level
                );
                return Err(loc.error(at, &field("from_level"), message));
            }
            let text = n.text.trim();
            if text.is_empty() || text.chars().count() > MAX_NOT_MODELLED_TEXT {
                let message = format!(
                    "a text of 1 to {MAX_NOT_MODELLED_TEXT} characters, got {} characters",
                    text.chars().count()
                );
                return Err(loc.error(at, &field("text"), message));
            }
            Ok((n.from_level, text.to_string()))
        })
        .collect()
}

/// `name`: lowercase letters, as it names templates `CLASS-LEVEL`.
fn class_name(loc: &Locator, path: &str, name: &Spanned<String>) -> Result<String, ScenarioError> {
    let n = name.get_ref();
    if n.is_empty() || !n.chars().all(|ch| ch.is_ascii_lowercase()) {
        return Err(loc.error(
            name.span().start,
            &format!("{path}.name"),
            format!(
                "a class name is lowercase letters (it names templates CLASS-LEVEL), got `{n}`"
            ),
        ));
    }
    Ok(n.clone())
}

/// `levels`: how many levels have templates, at most the SRD's.
fn class_levels(loc: &Locator, path: &str, levels: &Spanned<u8>) -> Result<u8, ScenarioError> {
    let n = *levels.get_ref();
    if !(1..=MAX_LEVEL).contains(&n) {
        return Err(loc.error(
            levels.span().start,
            &format!("{path}.levels"),
            format!("levels must be between 1 and {MAX_LEVEL}, got {n}"),
        ));
    }
    Ok(n)
}

/// `hit_die`: one of the SRD's hit dice.
fn hit_die(loc: &Locator, path: &str, die: &Spanned<i32>) -> Result<i32, ScenarioError> {
    let d = *die.get_ref();
    if ![6, 8, 10, 12].contains(&d) {
        return Err(loc.error(
            die.span().start,
            &format!("{path}.hit_die"),
            format!("a hit die is 6, 8, 10 or 12, got {d}"),
        ));
    }
    Ok(d)
}

/// `modifiers`: one for every ability but the main one (the progression
/// sets that), each in range, in [`Ability`] order.
fn modifiers(loc: &Locator, path: &str, c: &RawClass) -> Result<[i32; 6], ScenarioError> {
    let m = c.modifiers.get_ref();
    let error = |message: String| {
        loc.error(
            c.modifiers.span().start,
            &format!("{path}.modifiers"),
            message,
        )
    };
    let given = [m.str, m.dex, m.con, m.int, m.wis, m.cha];
    let mut modifiers = [0; 6];
    for (a, value) in given.iter().enumerate() {
        match value {
            Some(v) if !(-5..=10).contains(v) => {
                return Err(error(format!(
                    "an ability modifier must be between -5 and 10, got {v}"
                )));
            }
            Some(v) => modifiers[a] = *v,
            None if a != c.main_ability as usize => {
                return Err(error(format!(
                    "give a modifier for every ability but the main one; `{}` is missing",
                    ["str", "dex", "con", "int", "wis", "cha"][a]
                )));
            }
            None => {}
        }
    }
    Ok(modifiers)
}

/// `skills`: the proficient skills the round loop rolls (Medicine to
/// stabilise, Athletics or Acrobatics to escape a grapple).
fn skills(loc: &Locator, path: &str, listed: &[Spanned<String>]) -> Result<Skills, ScenarioError> {
    let mut skills = Skills::default();
    for (j, s) in listed.iter().enumerate() {
        match s.get_ref().as_str() {
            "medicine" => skills.medicine = true,
            "athletics" => skills.athletics = true,
            "acrobatics" => skills.acrobatics = true,
            other => {
                return Err(loc.error(
                    s.span().start,
                    &format!("{path}.skills[{j}]"),
                    format!(
                        "the round loop rolls the skills `medicine`, `athletics` and `acrobatics` only, got `{other}`"
                    ),
                ));
            }
        }
    }
    Ok(skills)
}

/// `spells`: attack, control and buff spells of the spell file, each one
/// the round loop casts, on the class's list, once, of a class that casts
/// spells.
fn combat_spells(
    loc: &Locator,
    path: &str,
    class: &str,
    names: &[Spanned<String>],
    spellcasting: Spellcasting,
    spells: &Spells,
) -> Result<Vec<usize>, ScenarioError> {
    let castable = spells.castable_names();
    let mut out = Vec::with_capacity(names.len());
    for (j, name) in names.iter().enumerate() {
        let error =
            |message: String| loc.error(name.span().start, &format!("{path}.spells[{j}]"), message);
        if spellcasting == Spellcasting::None {
            return Err(error(
                "a class without `spellcasting` casts no spells: give it `spellcasting`, or no `spells`".into(),
            ));
        }
        let index = spells
            .index(name.get_ref())
            .filter(|&k| spells.spells[k].cast_in_fights())
            .ok_or_else(|| {
                let hint = crate::scenario::wording::did_you_mean(name.get_ref(), &castable);
                error(format!(
                    "`{}` is no spell the round loop casts{hint} (docs/spells.md lists them)",
                    name.get_ref()
                ))
            })?;
        if !spells.spells[index].classes.iter().any(|c| c == class) {
            return Err(error(format!(
                "`{}` is not on the {class} spell list (it is on: {})",
                name.get_ref(),
                spells.spells[index].classes.join(", ")
            )));
        }
        if out.contains(&index) {
            return Err(error(format!("`{}` is listed twice", name.get_ref())));
        }
        out.push(index);
    }
    if out.len() > MAX_KNOWN_SPELLS {
        return Err(loc.error(
            names[MAX_KNOWN_SPELLS].span().start,
            &format!("{path}.spells"),
            format!("at most {MAX_KNOWN_SPELLS} spells, got {}", names.len()),
        ));
    }
    Ok(out)
}

/// `healing_spells` or `injury_spells` (`key`): spell names of the cost
/// model ([`SPELLS`]) as indices into it, each once, of a class that casts
/// spells (`spellcasting`).
fn spell_list(
    loc: &Locator,
    path: &str,
    key: &str,
    names: &[Spanned<String>],
    spellcasting: Spellcasting,
) -> Result<Vec<usize>, ScenarioError> {
    let known: Vec<&str> = SPELLS.iter().map(|s| s.name).collect();
    let mut spells = Vec::with_capacity(names.len());
    for (j, name) in names.iter().enumerate() {
        let field = format!("{path}.{key}[{j}]");
        let error = |message: String| loc.error(name.span().start, &field, message);
        if spellcasting == Spellcasting::None {
            return Err(error(format!(
                "a class without `spellcasting` casts no spells: give it `spellcasting = \"full\"` or `\"half\"`, or no `{key}`"
            )));
        }
        let Some(index) = spell_index(name.get_ref()) else {
            let hint = crate::scenario::wording::did_you_mean(name.get_ref(), &known);
            return Err(error(format!(
                "unknown spell `{}`{hint}; spells are {}",
                name.get_ref(),
                known.join(", ")
            )));
        };
        if spells.contains(&index) {
            return Err(error(format!("`{}` is listed twice", name.get_ref())));
        }
        spells.push(index);
    }
    Ok(spells)
}

/// `attacks`, each with its damage dice parsed.
fn attacks(
    loc: &Locator,
    path: &str,
    attacks: &[RawAttack],
) -> Result<Vec<TemplateAttack>, ScenarioError> {
    attacks
        .iter()
        .enumerate()
        .map(|(j, a)| {
            Ok(TemplateAttack {
                name: a.name.clone(),
                ability: a.ability,
                damage: dice(
                    loc,
                    a.damage.span().start,
                    &format!("{path}.attacks[{j}].damage"),
                    a.damage.get_ref(),
                )?,
                kind: a.kind,
                reach: a.reach,
                two_handed: a.two_handed,
                spell: a.spell,
                cantrip: a.cantrip,
            })
        })
        .collect()
}

/// `features`, each checked against the class's `levels`
/// ([`feature::feature`]).
fn features(
    loc: &Locator,
    path: &str,
    levels: u8,
    features: &Spanned<Vec<RawFeature>>,
) -> Result<Vec<crate::combat::templates::Feature>, ScenarioError> {
    features
        .get_ref()
        .iter()
        .enumerate()
        .map(|(j, f)| {
            let check = FeatureCheck {
                loc,
                at: features.span().start,
                path: format!("{path}.features[{j}]"),
                levels,
            };
            feature::feature(&check, f)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::data::PC_TEMPLATES_TOML;

    /// Every template of the six classes at levels 1–10 as the code before
    /// templates became data built it (`{:?}` of each creature, one line
    /// each, in class order fighter, cleric, rogue, wizard, barbarian,
    /// paladin): the data file must reproduce them exactly.
    const PINNED: &str = include_str!("../../../tests/fixtures/pc-templates.txt");

    #[test]
    fn a_full_casters_slots_are_the_rule_cores_table() {
        // The PHB table lives once, in the rule core
        // (`rules::prices::full_caster_slots`), for planners that have no
        // catalog; the templates read it at every level.
        let t = parse_file("pc-templates.toml", PC_TEMPLATES_TOML).unwrap();
        for class in ["bard", "cleric", "druid", "sorcerer", "wizard"] {
            for level in 1..=20 {
                let spec = t.template(&format!("{class}-{level}")).unwrap();
                assert_eq!(
                    spec.spellbook.map(|b| b.slots),
                    Some(crate::rules::prices::full_caster_slots(level)),
                    "{class}-{level}"
                );
            }
        }
    }

    /// Each class's progression and its healing and injury spells (SRD
    /// 5.1 class lists, as the campaign hard-coded them before they became
    /// data, less the paladin's *greater restoration*, which is on no
    /// paladin list; `-`: none): CLASS PROGRESSION HEALING INJURY, a line
    /// each.
    const CLASS_SPELLS: &str = "\
fighter - - -
cleric Full lesser_restoration,greater_restoration,revivify,raise_dead,resurrection,true_resurrection cure_wounds,lesser_restoration,greater_restoration,heal,regenerate
rogue - - -
wizard - - -
barbarian - - -
paladin Half lesser_restoration,revivify,raise_dead cure_wounds,lesser_restoration
bard Full lesser_restoration,greater_restoration,raise_dead,resurrection cure_wounds,lesser_restoration,greater_restoration,regenerate
druid Full lesser_restoration,greater_restoration,true_resurrection cure_wounds,lesser_restoration,greater_restoration,heal,regenerate
monk - - -
ranger Half lesser_restoration cure_wounds,lesser_restoration
sorcerer - - -
warlock - - -
";

    #[test]
    fn the_class_spell_lists_are_those_the_campaign_code_hard_coded() {
        let t = parse_file("pc-templates.toml", PC_TEMPLATES_TOML).unwrap();
        let names = |spells: &[usize]| -> String {
            let names: Vec<&str> = spells
                .iter()
                .map(|&i| crate::rules::prices::SPELLS[i].name)
                .collect();
            if names.is_empty() {
                "-".to_string()
            } else {
                names.join(",")
            }
        };
        let mut classes = Vec::new();
        for line in CLASS_SPELLS.lines() {
            let [class, progression, healing, injury] =
                <[&str; 4]>::try_from(line.split(' ').collect::<Vec<_>>()).unwrap();
            let c = t.class(class).unwrap();
            let caster = c
                .healing_caster()
                .map_or("-".to_string(), |(p, _)| format!("{p:?}"));
            assert_eq!(caster, progression, "{class}");
            assert_eq!(names(c.healing_spells()), healing, "{class}");
            assert_eq!(names(c.injury_spells()), injury, "{class}");
            classes.push(class);
        }
        assert_eq!(t.classes(), classes);
        assert!(t.class("cleric-3").is_none() && t.class("artificer").is_none());
    }

    #[test]
    fn every_class_casts_the_healing_spells_of_its_srd_5_1_list_and_no_other() {
        use crate::rules::lingering::MagicClass;
        use crate::rules::prices::RestorationReading;
        use crate::rules::wound_healing::HealingSetting;
        let t = parse_file("pc-templates.toml", PC_TEMPLATES_TOML).unwrap();
        let on_list = |class: &str| -> Vec<usize> {
            (0..SPELLS.len())
                .filter(|&i| SPELLS[i].classes.contains(&class))
                .collect()
        };
        // The spells the healing settings cast (raise or heal permanent wounds).
        let healing: BTreeSet<usize> = HealingSetting::ALL
            .iter()
            .flat_map(|s| s.rules())
            .filter_map(|r| spell_index(r.spell))
            .collect();
        for class in t.classes() {
            let c = t.class(class).unwrap();
            let list = on_list(class);
            let want: Vec<usize> = list
                .iter()
                .copied()
                .filter(|i| healing.contains(i))
                .collect();
            let mut got = c.healing_spells().to_vec();
            got.sort_unstable();
            assert_eq!(
                got, want,
                "{class}: healing_spells against its SRD 5.1 list"
            );
            for &spell in c.injury_spells() {
                assert!(
                    list.contains(&spell),
                    "{class}: {} is on no {class} list",
                    SPELLS[spell].name
                );
            }
            // Every cure its list reaches, its injury spells reach too.
            for reading in [
                RestorationReading::LesserRestoration,
                RestorationReading::GreaterRestoration,
                RestorationReading::Regenerate,
            ] {
                for cure in MagicClass::ALL {
                    let meets = |i: &usize| SPELLS[*i].meets(cure, reading);
                    assert_eq!(
                        c.injury_spells().iter().any(meets),
                        list.iter().any(meets),
                        "{class}: {cure:?} under {reading:?}"
                    );
                }
            }
        }
        // The SRD 5.1 lists themselves, where a template once erred.
        let paladin = on_list("paladin");
        assert!(!paladin.contains(&spell_index("greater_restoration").unwrap()));
        assert!(paladin.contains(&spell_index("raise_dead").unwrap()));
        assert!(!on_list("druid").contains(&spell_index("raise_dead").unwrap()));
        assert!(on_list("druid").contains(&spell_index("true_resurrection").unwrap()));
    }

    #[test]
    fn a_bad_spell_list_is_a_located_error() {
        let half = "spellcasting = \"half\"\n";
        for (casts, lists, field, message) in [
            (
                half,
                "healing_spells = [\"lesser_restoraton\"]",
                "class[0].healing_spells[0]",
                "unknown spell `lesser_restoraton` (did you mean `lesser_restoration`?)",
            ),
            (
                half,
                "injury_spells = [\"heal\", \"heal\"]",
                "class[0].injury_spells[1]",
                "`heal` is listed twice",
            ),
            (
                "",
                "injury_spells = [\"heal\"]",
                "class[0].injury_spells[0]",
                "a class without `spellcasting` casts no spells",
            ),
        ] {
            let class = format!("{FIGHTER}{casts}{lists}\nfeatures = []\n");
            let e = error(&with_class(&class));
            assert!(e.contains(field) && e.contains(message), "{e}");
        }
    }

    #[test]
    fn the_data_file_reproduces_every_template_of_the_match_it_replaced() {
        let t = parse_file("pc-templates.toml", PC_TEMPLATES_TOML).unwrap();
        let mut lines = PINNED.lines();
        for class in [
            "fighter",
            "cleric",
            "rogue",
            "wizard",
            "barbarian",
            "paladin",
        ] {
            for level in 1..=10 {
                let name = format!("{class}-{level}");
                let mut spec = t.template(&name).unwrap_or_else(|| panic!("{name}"));
                // The rogue's Evasion (7) and the cleric's Divine Strike
                // (8) came with the classes' features (issue 31).
                assert_eq!(spec.evasion, class == "rogue" && level >= 7, "{name}");
                spec.evasion = false;
                if class == "cleric" && level >= 8 {
                    let strike = spec.once_per_turn.take().expect("Divine Strike");
                    assert_eq!(
                        (strike.dice.to_string(), strike.kind, strike.uses),
                        ("1d8".to_string(), DamageType::Radiant, None),
                        "{name}"
                    );
                }
                assert!(!spec.relentless_rage, "{name}");
                // The wizard's Empowered Evocation (10) came with the
                // classes' features: + Int to its fire bolt.
                if class == "wizard" && level >= 10 {
                    assert_eq!(spec.attacks[0].damage.modifier, 5, "{name}");
                    spec.attacks[0].damage.modifier = 0;
                }
                // `evasion`, `relentless_rage`, potions by rarity, the
                // spellbook, speed and line came after the pinned creatures;
                // none of them has the first two, and none carries potions.
                let caster = matches!(class, "cleric" | "wizard" | "paladin");
                assert_eq!(spec.spellbook.is_some(), caster, "{name}");
                // Speed (Fast Movement from barbarian 5) and the line came
                // with positions.
                let fast = class == "barbarian" && level >= 5;
                assert_eq!(spec.speed, if fast { 40 } else { 30 }, "{name}");
                assert_eq!(spec.line, None, "{name}");
                // Hit dice and the short-rest recharge came with campaigns'
                // short rests: a die per level, the class's size, Second Wind
                // alone back on a short rest.
                let hit_dice = spec.hit_dice.expect("a template has hit dice");
                assert_eq!(hit_dice.count, level, "{name}");
                let die = match class {
                    "barbarian" => 12,
                    "fighter" | "paladin" => 10,
                    "wizard" => 6,
                    _ => 8,
                };
                assert_eq!(hit_dice.die, die, "{name}");
                let second_wind = class == "fighter";
                assert_eq!(
                    spec.heal.map(|h| h.short_rest),
                    spec.heal.map(|_| second_wind)
                );
                let mut old = spec.clone();
                // Action Surge, Indomitable, Uncanny Dodge, Brutal Critical,
                // the aura for allies and Preserve Life came after the
                // pinned creatures.
                old.class_features = Default::default();
                old.spellbook = None;
                // Attack, control and buff spells came with spells as data.
                old.known_spells = Vec::new();
                old.hit_dice = None;
                if let Some(h) = old.heal.as_mut() {
                    h.short_rest = false;
                }
                // An attack's ability came with the reading
                // `wound_attack_disadvantage`.
                for attack in &mut old.attacks {
                    attack.ability = None;
                }
                // The shield's part of the armour class came with the lost
                // arm's "no weapon and shield": the shield-bearing classes'.
                let shield = if matches!(class, "fighter" | "cleric" | "paladin") {
                    2
                } else {
                    0
                };
                assert_eq!(spec.shield_ac, shield, "{name}");
                let debug = format!("{old:?}")
                    .replace(&format!(", shield_ac: {shield}"), "")
                    .replace(", short_rest: false", "")
                    .replace(", ability: None", "")
                    .replace(", hit_dice: None", "")
                    .replace(", knocks_prone: None, poisons_on_hit: false, hit_condition: None", "")
                    .replace(", grapples: None, spares_grappled: false, charge: None, advantage: None, bloodied: None, advantage_damage: None, save: None", "")
                    .replace(&format!(", escape: {}", spec.escape), "")
                    .replace(", condition_immune: 0", "")
                    .replace(&format!(", speed: {}, line: None", spec.speed), "")
                    .replace(", evasion: false, relentless_rage: false", "")
                    .replace(", known_spells: []", "")
                    .replace(&format!(", class_features: {:?}", old.class_features), "")
                    .replace(
                        ", undead: false, extraplanar: false, challenge: 0.0, legendary_resistance: 0, legendary: None, magic_resistance: false, pack_tactics: false, sunlight: None, war_cry: None, absorbs: DamageTypes(0), bloodied_advantage: None, avoids_opportunity_attacks: false, undead_fortitude: false, death_burst: None, damage_aura: None, parry: 0, wild_shape: None",
                        "",
                    )
                    .replace("potions: [0, 0, 0, 0], spellbook: None", "potions: 0");
                assert_eq!(Some(debug.as_str()), lines.next(), "{name}");
            }
        }
        assert_eq!(lines.next(), None);
        assert!(t.template("fighter-21").is_none());
        assert!(t.template("bard-0").is_none());
        assert_eq!(t.max_level(), 20);
        assert_eq!(t.classes().len(), 12);
    }

    /// The error of the shipped templates with the first Wild Shape form
    /// (`giant-lizard`, from level 2) replaced by `form`.
    fn form_error(form: &str) -> String {
        let text = PC_TEMPLATES_TOML.replacen("\"giant-lizard\"", &format!("\"{form}\""), 1);
        let bestiary = crate::scenario::data::builtin_catalog().unwrap().bestiary;
        let mut t = parse_file("pc-templates.toml", &text).unwrap();
        attach_forms(&mut t, &bestiary, "pc-templates.toml", &text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_wild_shape_form_is_a_walking_beast_the_beast_shapes_table_allows_at_its_level() {
        let e = form_error("giant-lizzard");
        assert!(e.contains("pc-templates.toml:"), "{e}");
        assert!(e.contains(".forms[0].form"), "{e}");
        assert!(e.contains("no bestiary entry `giant-lizzard`"), "{e}");
        assert!(form_error("goblin-warrior").contains("must be a beast, got a fey"));
        assert!(form_error("giant-hyena").contains("challenge rating up to 0.25, got 1"));
        assert!(form_error("giant-bat").contains("no form with a flying speed (from level 8)"));
        assert!(
            form_error("constrictor-snake")
                .contains("no form with a swimming speed (from level 4)")
        );
        // The shipped forms resolve, and each is the land beast (a walking
        // speed of 30 ft or more: not the reef shark's 5 ft) of the most hit
        // points its row allows: the rule the template's comment gives.
        let catalog = crate::scenario::data::builtin_catalog().unwrap();
        for (level, shipped) in [(2, "giant-lizard"), (4, "ape"), (8, "giant-hyena")] {
            let best = catalog
                .bestiary
                .monsters()
                .iter()
                .filter(|m| !m.key.contains('@'))
                .filter(|m| m.lore.speed.unwrap_or_default().walk >= 30)
                .filter(|m| {
                    let speed = m.lore.speed.unwrap_or_default();
                    crate::combat::wild_shape::refusal(
                        level,
                        m.lore.kind.as_deref(),
                        m.spec.challenge,
                        speed.walk,
                        speed.fly,
                        speed.swim,
                    )
                    .is_none()
                })
                .max_by_key(|m| (m.spec.max_hp, m.spec.ac))
                .map(|m| m.spec.max_hp);
            assert_eq!(
                best,
                Some(catalog.bestiary.lookup(shipped).unwrap().max_hp),
                "{level}"
            );
            assert!(catalog.templates.forms.contains_key(shipped));
        }
    }

    fn error(text: &str) -> String {
        parse_file("mine.toml", text).unwrap_err().to_string()
    }

    fn with_class(class: &str) -> String {
        let progression = PC_TEMPLATES_TOML
            .split("\n[[class]]\n")
            .next()
            .unwrap()
            .to_string();
        format!("{progression}\n[[class]]\n{class}")
    }

    const FIGHTER: &str = "name = \"fighter\"\nlevels = 10\nhit_die = 10\nmain_ability = \"str\"\n\
        modifiers = { dex = 1, con = 2, int = 0, wis = 1, cha = -1 }\nsaving_throws = [\"str\"]\n\
        armor_class = { base = 18 }\nattacks = [{ name = \"sword\", ability = \"str\", damage = \"1d8\", type = \"slashing\" }]\n";

    #[test]
    fn a_valid_class_parses() {
        let t = parse_file(
            "mine.toml",
            &with_class(&format!("{FIGHTER}features = []\n")),
        )
        .unwrap();
        assert_eq!(t.classes(), vec!["fighter"]);
    }

    #[test]
    fn a_class_lists_the_features_it_does_not_model_from_a_level_it_has() {
        let t = parse_file(
            "mine.toml",
            &with_class(&format!(
                "{FIGHTER}features = []\nnot_modelled = [{{ from_level = 3, text = \"Survivor\" }}]\n"
            )),
        )
        .unwrap();
        assert_eq!(t.not_modelled("fighter-2"), Some(vec![]));
        assert_eq!(t.not_modelled("fighter-3"), Some(vec!["Survivor"]));
        assert_eq!(t.not_modelled("fighter-11"), None);
        let e = error(&with_class(&format!(
            "{FIGHTER}features = []\nnot_modelled = [{{ from_level = 11, text = \"x\" }}]\n"
        )));
        assert!(
            e.contains("class[0].not_modelled[0].from_level") && e.contains("1 to 10, got 11"),
            "{e}"
        );
        let e = error(&with_class(&format!(
            "{FIGHTER}features = []\nnot_modelled = [{{ from_level = 1, text = \" \" }}]\n"
        )));
        assert!(e.contains("class[0].not_modelled[0].text"), "{e}");
        let many = vec!["{ from_level = 1, text = \"x\" }"; 41].join(", ");
        let e = error(&with_class(&format!(
            "{FIGHTER}features = []\nnot_modelled = [{many}]\n"
        )));
        assert!(e.contains("at most 40"), "{e}");
    }

    #[test]
    fn broken_files_are_located_errors() {
        let short = error(
            "[progression]\nproficiency_bonus = [2]\nmain_ability_modifier = []\ncantrip_dice = []\nhalf_caster_slots = []\npact_slots = []\n[[class]]\n",
        );
        assert!(short.starts_with("mine.toml:"), "{short}");
        let e = error(&with_class(&format!(
            "{FIGHTER}features = [{{ feature = \"rage\", uses = [2], damage_bonus = [2] }}]\n"
        )));
        assert!(
            e.contains("class[0].features[0].uses") && e.contains("10 levels"),
            "{e}"
        );
        let e = error(&with_class(&format!(
            "{FIGHTER}features = [{{ feature = \"flight\" }}]\n"
        )));
        assert!(
            e.contains("class[0].features[0]") && e.contains("flight"),
            "{e}"
        );
        let e = error(&with_class(
            &format!("{FIGHTER}features = []\n").replace("hit_die = 10", "hit_die = 7"),
        ));
        assert!(e.contains("class[0].hit_die") && e.contains("got 7"), "{e}");
        let e = error(&with_class(
            &format!("{FIGHTER}features = []\n").replace(", cha = -1", ""),
        ));
        assert!(e.contains("`cha` is missing"), "{e}");
        let e = error(&with_class(
            &format!("{FIGHTER}features = []\n").replace("1d8", "1d"),
        ));
        assert!(e.contains("class[0].attacks[0].damage"), "{e}");
        let twice = format!("{FIGHTER}features = []\n[[class]]\n{FIGHTER}features = []\n");
        assert!(error(&with_class(&twice)).contains("defined twice"));
    }
}
