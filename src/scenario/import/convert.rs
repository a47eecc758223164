//! One [`Statblock`] as an entry of woundsim's bestiary schema
//! (docs/combat.md, "Creature entries"), key by key in schema order:
//!
//! - numbers: size, type, challenge rating with its XP and proficiency
//!   bonus (the SRD's tables by CR), hit points, armour class, initiative
//!   (the statblock's, else the Dexterity modifier), speeds, the six saves
//!   (the statblock's, else the ability modifier), Medicine (the Wisdom
//!   modifier), damage resistances, immunities and vulnerabilities,
//!   condition immunities;
//! - actions ([`super::text`]): attack lines as `attacks` (their first extra
//!   damage as a `rider`, a grapple and a knock-prone hit read), the
//!   Multiattack sentence as `multiattack` (else the best attack alone), a
//!   recharge saving throw with damage as `breath`, other damaging saving
//!   throws against one target as save attacks;
//! - traits by name: Legendary Resistance (N/Day), Magic Resistance, Pack
//!   Tactics, Undead Fortitude, Regeneration (its hit points and the damage
//!   types that stop it), the Parry reaction; the traits that change
//!   nothing in a woundsim fight (tools/srd/README.md, "No effect in a
//!   fight") as `no_fight_effect`;
//! - legendary actions that make one attack (after a move or not), cast a
//!   spell of its Spellcasting, or force a save against damage;
//! - Spellcasting: the spells woundsim's spell data casts in a fight, with
//!   their uses a day (a slot list's spells each with that level's slots,
//!   which the entry says it approximates).
//!
//! Everything else — a rider sentence, a condition, a spell the data does
//! not cast, a bonus action — is a `not_modelled` item in the statblock's
//! words ("Tentacle: If the target is a creature, it must succeed ...").

use toml::Value;

use crate::combat::spell::Spells;

use super::text::{self, DAMAGE_TYPES};
use super::{ABILITIES, Feature, ImportError, SIZES, Section, Statblock, slug};

/// An imported monster: its name, slug and bestiary keys in schema order.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The name as written.
    pub name: String,
    /// Its bestiary key.
    pub slug: String,
    /// The JSON path of the entry in its file.
    pub path: String,
    /// The entry's keys and values, `not_modelled` last.
    pub keys: Vec<(&'static str, Value)>,
    /// What the entry lists as not modelled.
    pub not_modelled: Vec<String>,
}

/// Experience points by challenge rating (SRD, "Experience Points by
/// Challenge Rating").
const XP_BY_CR: [(&str, i64); 34] = [
    ("0", 10),
    ("1/8", 25),
    ("1/4", 50),
    ("1/2", 100),
    ("1", 200),
    ("2", 450),
    ("3", 700),
    ("4", 1_100),
    ("5", 1_800),
    ("6", 2_300),
    ("7", 2_900),
    ("8", 3_900),
    ("9", 5_000),
    ("10", 5_900),
    ("11", 7_200),
    ("12", 8_400),
    ("13", 10_000),
    ("14", 11_500),
    ("15", 13_000),
    ("16", 15_000),
    ("17", 18_000),
    ("18", 20_000),
    ("19", 22_000),
    ("20", 25_000),
    ("21", 33_000),
    ("22", 41_000),
    ("23", 50_000),
    ("24", 62_000),
    ("25", 75_000),
    ("26", 90_000),
    ("27", 105_000),
    ("28", 120_000),
    ("29", 135_000),
    ("30", 155_000),
];

/// The proficiency bonus of a challenge rating as written (`1/4`, `17`).
fn proficiency(cr: &str) -> i64 {
    let cr = crate::scenario::data::creature::challenge(cr);
    i64::from(crate::rules::encounter_difficulty::proficiency_by_cr(
        f64::from(cr),
    ))
}

/// Spells of a Spellcasting that change nothing in a woundsim fight:
/// escapes and travel (a monster of the model fights on) and deception —
/// the same list as the SRD generator's `SPELLS_WITHOUT_FIGHT_EFFECT`
/// (tools/srd/README.md, "No effect in a fight"), listed apart as
/// `no_fight_effect`.
const SPELLS_WITHOUT_FIGHT_EFFECT: [&str; 9] = [
    "plane_shift",
    "teleport",
    "word_of_recall",
    "etherealness",
    "dimension_door",
    "gaseous_form",
    "minor_illusion",
    "major_image",
    "modify_memory",
];

/// Traits that change nothing in a woundsim fight (no water, terrain,
/// objects, light, telepathy, or what happens after death), listed apart
/// as `no_fight_effect` — the same list as the SRD generator's.
const NO_FIGHT_EFFECT: [&str; 33] = [
    "Amphibious",
    "Limited Amphibiousness",
    "Water Breathing",
    "Hold Breath",
    "Water Susceptibility",
    "Spider Climb",
    "Web Walker",
    "Ice Walk",
    "Tunneler",
    "Amorphous",
    "Jumper",
    "Standing Leap",
    "Running Leap",
    "Incorporeal Movement",
    "Siege Monster",
    "Illumination",
    "Beast of Burden",
    "Swarm",
    "Immutable Form",
    "Probing Telepathy",
    "Telepathic Bond",
    "Shark Telepathy",
    "Celestial Restoration",
    "Demonic Restoration",
    "Diabolical Restoration",
    "Eldritch Restoration",
    "Elemental Restoration",
    "Exalted Restoration",
    "Fiendish Restoration",
    "Hellish Restoration",
    "Undead Restoration",
    "Spirit Jar",
    "Rejuvenation",
];

/// Traits the round loop models by a yes/no key.
const FLAG_TRAITS: [(&str, &str); 4] = [
    ("Magic Resistance", "magic_resistance"),
    ("Pack Tactics", "pack_tactics"),
    ("Undead Fortitude", "undead_fortitude"),
    ("Nimble Escape", "avoids_opportunity_attacks"),
];

/// The creature types woundsim's schema names.
const CREATURE_TYPES: [&str; 14] = [
    "aberration",
    "beast",
    "celestial",
    "construct",
    "dragon",
    "elemental",
    "fey",
    "fiend",
    "giant",
    "humanoid",
    "monstrosity",
    "ooze",
    "plant",
    "undead",
];

/// The most attacks, and attacks of a multiattack, an entry may have
/// (docs/scenarios.md, "Limits").
const MAX_ATTACKS: usize = 20;

/// The longest `not_modelled` item the bestiary reader takes.
const MAX_NOTE_CHARS: usize = 200;

/// The most `not_modelled` items an entry may list.
const MAX_NOTES: usize = 64;

/// The ability modifier of a score.
fn modifier(score: i64) -> i64 {
    (score - 10).div_euclid(2)
}

fn int(n: i64) -> Value {
    Value::Integer(n)
}

fn string(s: &str) -> Value {
    Value::String(s.to_string())
}

fn table(pairs: Vec<(&str, Value)>) -> Value {
    Value::Table(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A note cut to the reader's length, on a character boundary.
fn note(text: &str) -> String {
    let t = text::clean(text);
    if t.chars().count() <= MAX_NOTE_CHARS {
        return t;
    }
    let cut: String = t.chars().take(MAX_NOTE_CHARS - 3).collect();
    format!("{}...", cut.trim_end())
}

/// The SRD weapons with the Two-Handed property (the SRD's weapon table),
/// by the slug of their name: an attack named so is `two_handed`, which a
/// lost arm or hand then forbids (docs/rules.md).
const TWO_HANDED_WEAPONS: [&str; 11] = [
    "greatclub",
    "light-crossbow",
    "shortbow",
    "glaive",
    "greataxe",
    "greatsword",
    "halberd",
    "maul",
    "pike",
    "heavy-crossbow",
    "longbow",
];

/// Whether an action named `name` is an attack with a two-handed SRD weapon.
fn is_two_handed(name: &str) -> bool {
    TWO_HANDED_WEAPONS.contains(&slug(text::bare_name(name)).as_str())
}

/// An attack's key: its name's slug, unique among `taken`.
fn attack_key(name: &str, taken: &[String]) -> String {
    let base = match slug(text::bare_name(name)) {
        s if s.is_empty() => "attack".to_string(),
        s => s,
    };
    let mut key = base.clone();
    let mut n = 2;
    while taken.contains(&key) {
        key = format!("{base}-{n}");
        n += 1;
    }
    key
}

/// The expected damage of a dice expression such as "2d6+5" (for choosing
/// the best attack).
fn mean(dice: &str) -> f64 {
    dice.parse::<crate::dice::expr::DiceExpr>()
        .map_or(0.0, |d| d.mean())
}

/// A statblock as a bestiary entry; `spells` is woundsim's spell data.
pub fn convert(b: &Statblock, spells: &Spells) -> Imported {
    let mut keys: Vec<(&'static str, Value)> = Vec::new();
    let mut notes: Vec<String> = b.not_modelled.iter().map(|n| note(n)).collect();
    let mut no_effect: Vec<String> = Vec::new();
    let slug_name = slug(&b.name);
    keys.push(("slug", string(&slug_name)));
    if let Some(kind) = &b.kind {
        let k = kind.to_ascii_lowercase();
        if CREATURE_TYPES.contains(&k.as_str()) {
            keys.push(("type", string(&k)));
        }
    }
    if let Some(size) = &b.size
        && SIZES.contains(&size.as_str())
    {
        keys.push(("size", string(size)));
    }
    if let Some(cr) = &b.cr
        && let Some(i) = XP_BY_CR.iter().position(|(c, _)| c == cr)
    {
        keys.push(("cr", string(cr)));
        keys.push(("xp", int(XP_BY_CR[i].1)));
        keys.push(("proficiency_bonus", int(proficiency(cr))));
    }
    keys.push(("hp", int(b.hp.unwrap_or(1))));
    keys.push(("ac", int(b.ac.unwrap_or(10))));
    let dex = modifier(b.abilities[1]);
    keys.push(("initiative", int(b.initiative.unwrap_or(dex))));
    let s = b.speed;
    let mut speed = vec![
        ("walk", int(s.walk)),
        ("fly", int(s.fly)),
        ("swim", int(s.swim)),
        ("climb", int(s.climb)),
        ("burrow", int(s.burrow)),
    ];
    if s.hover {
        speed.push(("hover", Value::Boolean(true)));
    }
    keys.push(("speed", table(speed)));
    let saves = ABILITIES
        .iter()
        .enumerate()
        .map(|(i, a)| (*a, int(b.saves[i].unwrap_or(modifier(b.abilities[i])))))
        .collect();
    keys.push(("saves", table(saves)));
    keys.push(("medicine", int(modifier(b.abilities[4]))));
    for (key, list) in [
        ("resistant", &b.resistant),
        ("immune", &b.immune),
        ("vulnerable", &b.vulnerable),
    ] {
        let known: Vec<Value> = list
            .iter()
            .filter(|t| DAMAGE_TYPES.contains(&t.as_str()))
            .map(|t| string(t))
            .collect();
        for t in list.iter().filter(|t| !DAMAGE_TYPES.contains(&t.as_str())) {
            notes.push(note(&format!("{key}: {t}")));
        }
        if !known.is_empty() {
            keys.push((key, Value::Array(known)));
        }
    }
    let conditions: Vec<Value> = b
        .condition_immune
        .iter()
        .filter(|c| super::CONDITIONS.contains(&c.as_str()))
        .map(|c| string(c))
        .collect();
    if !conditions.is_empty() {
        keys.push(("condition_immune", Value::Array(conditions)));
    }

    let actions = Actions::read(b, &mut notes);
    actions.write(&mut keys);
    traits(b, &mut keys, &mut notes, &mut no_effect);
    let cast = spellcasting(b, spells, &mut notes, &mut no_effect);
    legendary(b, &actions, &cast, &mut keys, &mut notes);
    if let Some(cast) = cast {
        keys.push(("spellcasting", cast.value));
    }
    if !no_effect.is_empty() {
        keys.push((
            "no_fight_effect",
            Value::Array(no_effect.iter().map(|n| string(n)).collect()),
        ));
    }
    notes.dedup();
    if notes.len() > MAX_NOTES {
        let more = notes.len() - (MAX_NOTES - 1);
        notes.truncate(MAX_NOTES - 1);
        notes.push(format!("and {more} more features"));
    }
    keys.push((
        "not_modelled",
        Value::Array(notes.iter().map(|n| string(n)).collect()),
    ));
    Imported {
        name: b.name.clone(),
        slug: slug_name,
        path: b.path.clone(),
        keys,
        not_modelled: notes,
    }
}

/// Every statblock converted; two with the same slug are an error at the
/// second (a nameless one is `monster-N`, N its place in the file).
pub fn convert_all(blocks: &[Statblock], spells: &Spells) -> Result<Vec<Imported>, ImportError> {
    let mut out: Vec<Imported> = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.iter().enumerate() {
        let mut m = convert(b, spells);
        if m.slug.is_empty() {
            m.slug = format!("monster-{}", i + 1);
            if let Some(v) = m.keys.iter_mut().find(|(k, _)| *k == "slug") {
                v.1 = string(&m.slug);
            }
        }
        if let Some(first) = out.iter().find(|o| o.slug == m.slug) {
            return Err(ImportError::at(
                &b.path,
                format!(
                    "`{}` has the same name as `{}` ({}): a file may define a monster once",
                    b.name, first.name, first.path
                ),
            ));
        }
        out.push(m);
    }
    Ok(out)
}

/// The attacks and the multiattack read from the actions.
struct Actions {
    /// (key, name as written, attack table, mean damage).
    attacks: Vec<(String, String, Value, f64)>,
    multiattack: Vec<String>,
    breath: Option<Value>,
}

impl Actions {
    fn read(b: &Statblock, notes: &mut Vec<String>) -> Actions {
        let mut attacks: Vec<(String, String, Value, f64)> = Vec::new();
        let mut breath = None;
        let mut multi_text: Option<&Feature> = None;
        for f in b.features.iter().filter(|f| f.section == Section::Action) {
            let bare = text::bare_name(&f.name);
            if bare.eq_ignore_ascii_case("multiattack") {
                multi_text = Some(f);
                continue;
            }
            if let Some(a) = text::attack(&f.text).filter(|_| attacks.len() < MAX_ATTACKS) {
                let taken: Vec<String> = attacks.iter().map(|x| x.0.clone()).collect();
                let key = attack_key(&f.name, &taken);
                let mut t = vec![
                    ("name", string(&key)),
                    ("to_hit", int(a.to_hit.clamp(-10, 30))),
                    ("damage", string(&a.damage[0].dice)),
                    ("type", string(&a.damage[0].kind)),
                    ("reach", string(if a.melee { "melee" } else { "ranged" })),
                ];
                if is_two_handed(&f.name) {
                    t.push(("two_handed", Value::Boolean(true)));
                }
                if let Some(r) = a.damage.get(1) {
                    t.push((
                        "rider",
                        table(vec![("dice", string(&r.dice)), ("type", string(&r.kind))]),
                    ));
                }
                for extra in a.damage.iter().skip(2) {
                    notes.push(note(&format!(
                        "{}: plus {} {} damage",
                        f.name, extra.dice, extra.kind
                    )));
                }
                if let Some(dc) = a.grapple_escape {
                    t.push(("grapples", table(vec![("escape", int(dc.clamp(1, 40)))])));
                }
                if let Some(size) = &a.knocks_prone {
                    t.push(("knocks_prone", string(size)));
                }
                if !a.rest.is_empty() {
                    notes.push(note(&format!("{}: {}", f.name, a.rest)));
                }
                let m = a.damage.iter().map(|d| mean(&d.dice)).sum();
                attacks.push((key, f.name.clone(), table(t), m));
                continue;
            }
            if let Some(sa) = text::save_action(&f.text) {
                let recharge = text::recharge(&f.name);
                if let (Some(r), None) = (recharge, &breath) {
                    breath = Some(table(vec![
                        ("dice", string(&sa.damage.dice)),
                        ("type", string(&sa.damage.kind)),
                        ("save", string(sa.ability)),
                        ("dc", int(sa.dc.clamp(1, 30))),
                        ("recharge", int(r)),
                        ("targets", int(i64::from(sa.targets).min(20))),
                    ]));
                    if !sa.half {
                        notes.push(note(&format!(
                            "{}: no damage on a success (taken as half)",
                            f.name
                        )));
                    }
                    if !sa.rest.is_empty() {
                        notes.push(note(&format!("{}: {}", f.name, sa.rest)));
                    }
                    continue;
                }
                if recharge.is_none() && sa.targets == 1 && attacks.len() < MAX_ATTACKS {
                    let taken: Vec<String> = attacks.iter().map(|x| x.0.clone()).collect();
                    let key = attack_key(&f.name, &taken);
                    let t = table(vec![
                        ("name", string(&key)),
                        ("damage", string(&sa.damage.dice)),
                        ("type", string(&sa.damage.kind)),
                        ("reach", string("melee")),
                        (
                            "save",
                            table(vec![
                                ("ability", string(sa.ability)),
                                ("dc", int(sa.dc.clamp(1, 30))),
                                ("on_success", string(if sa.half { "half" } else { "none" })),
                            ]),
                        ),
                    ]);
                    if !sa.rest.is_empty() {
                        notes.push(note(&format!("{}: {}", f.name, sa.rest)));
                    }
                    attacks.push((key, f.name.clone(), t, mean(&sa.damage.dice)));
                    continue;
                }
            }
            notes.push(note(&f.name));
        }
        let mut multiattack = Vec::new();
        if let Some(m) = multi_text {
            let names: Vec<&str> = attacks.iter().map(|a| text::bare_name(&a.1)).collect();
            // "makes two melee attacks": read against the melee attacks only.
            let lower = m.text.to_ascii_lowercase();
            let kind_only = |melee: bool| -> Vec<&str> {
                self_kind(&attacks, melee)
                    .into_iter()
                    .map(|a| text::bare_name(&a.1))
                    .collect()
            };
            let read = text::multiattack(&m.text, &names).or_else(|| {
                let melee = lower.contains("melee attacks");
                let ranged = lower.contains("ranged attacks");
                if melee == ranged {
                    return None;
                }
                let only = kind_only(melee);
                let total = lower
                    .split_whitespace()
                    .skip_while(|w| *w != "makes")
                    .nth(1)
                    .and_then(text::number_word)?;
                only.first()
                    .map(|n| vec![n.to_string(); total.min(12) as usize])
            });
            match read {
                Some(list) => {
                    for name in list {
                        if let Some(a) = attacks.iter().find(|a| text::bare_name(&a.1) == name) {
                            multiattack.push(a.0.clone());
                        }
                    }
                    let lower = m.text.to_ascii_lowercase();
                    if lower.contains("replace")
                        || lower.contains(" use ")
                        || lower.contains(" uses ")
                    {
                        notes.push(note(&format!("Multiattack: {}", m.text)));
                    }
                }
                None => notes.push(note(&format!("Multiattack: {}", m.text))),
            }
        }
        multiattack.truncate(MAX_ATTACKS);
        // No multiattack: the attack of the most expected damage (the first
        // of equals) alone.
        if multiattack.is_empty()
            && let Some(best) = attacks
                .iter()
                .reduce(|best, a| if a.3 > best.3 { a } else { best })
        {
            multiattack.push(best.0.clone());
        }
        Actions {
            attacks,
            multiattack,
            breath,
        }
    }

    fn write(&self, keys: &mut Vec<(&'static str, Value)>) {
        if !self.attacks.is_empty() {
            keys.push((
                "attacks",
                Value::Array(self.attacks.iter().map(|a| a.2.clone()).collect()),
            ));
        }
        if !self.multiattack.is_empty() {
            keys.push((
                "multiattack",
                Value::Array(self.multiattack.iter().map(|k| string(k)).collect()),
            ));
        }
        if let Some(b) = &self.breath {
            keys.push(("breath", b.clone()));
        }
    }

    /// The key of the attack written `name` ("Claw", "claws").
    fn key_of(&self, name: &str) -> Option<&str> {
        let singular = |s: String| s.strip_suffix('s').map(str::to_string).unwrap_or(s);
        let want = singular(slug(name));
        self.attacks
            .iter()
            .find(|a| {
                singular(a.0.clone()) == want || singular(slug(text::bare_name(&a.1))) == want
            })
            .map(|a| a.0.as_str())
    }
}

/// The attacks that are melee (`true`) or ranged, in order.
fn self_kind(
    attacks: &[(String, String, Value, f64)],
    melee: bool,
) -> Vec<&(String, String, Value, f64)> {
    let want = if melee { "melee" } else { "ranged" };
    attacks
        .iter()
        .filter(|a| a.2.get("reach").and_then(Value::as_str) == Some(want))
        .collect()
}

/// Traits and reactions by name.
fn traits(
    b: &Statblock,
    keys: &mut Vec<(&'static str, Value)>,
    notes: &mut Vec<String>,
    no_effect: &mut Vec<String>,
) {
    for f in &b.features {
        let bare = text::bare_name(&f.name);
        match f.section {
            Section::Trait => {}
            Section::Reaction => {
                let lower = f.text.to_ascii_lowercase();
                if bare.eq_ignore_ascii_case("parry")
                    && let Some(n) = text::int_after(&lower, "adds ")
                {
                    keys.push(("parry", int(n.clamp(1, 10))));
                } else {
                    notes.push(note(&format!("{}{}", f.name, f.section.label())));
                }
                continue;
            }
            Section::Bonus => {
                notes.push(note(&format!("{}{}", f.name, f.section.label())));
                continue;
            }
            _ => continue,
        }
        if bare.eq_ignore_ascii_case("legendary resistance") {
            let n = text::per_day(&f.name)
                .or_else(|| text::per_day(&f.text))
                .unwrap_or(3);
            keys.push(("legendary_resistance", int(n.clamp(1, 10))));
        } else if let Some((_, key)) = FLAG_TRAITS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(bare))
        {
            keys.push((key, Value::Boolean(true)));
        } else if bare.eq_ignore_ascii_case("regeneration")
            && let Some(r) = regeneration(&f.text)
        {
            keys.push(("regeneration", r));
        } else if NO_FIGHT_EFFECT.iter().any(|n| n.eq_ignore_ascii_case(bare)) {
            no_effect.push(note(&f.name));
        } else {
            notes.push(note(&f.name));
        }
    }
}

/// "The troll regains 10 Hit Points at the start of each of its turns. If
/// the troll takes Acid or Fire damage, this trait doesn't function on the
/// troll's next turn. The troll dies only if it starts its turn with 0 Hit
/// Points and doesn't regenerate." → { hp = 10, stopped_by = ["acid",
/// "fire"] }; "if it has at least 1 hit point" → `revives = false`.
fn regeneration(t: &str) -> Option<Value> {
    let lower = text::clean(t).to_ascii_lowercase();
    let hp = text::int_after(&lower, "regains")?;
    let stopped: Vec<Value> = lower
        .find(" takes ")
        .map(|at| &lower[at..])
        .map(|rest| {
            let clause = rest.split(" damage").next().unwrap_or("");
            DAMAGE_TYPES
                .iter()
                .filter(|d| clause.contains(*d))
                .map(|d| string(d))
                .collect()
        })
        .unwrap_or_default();
    let mut pairs = vec![
        ("hp", int(hp.clamp(1, 100))),
        ("stopped_by", Value::Array(stopped)),
    ];
    if lower.contains("at least 1 hit point") {
        pairs.push(("revives", Value::Boolean(false)));
    }
    Some(table(pairs))
}

/// The Spellcasting entry and the spells it casts in fights.
struct Cast {
    value: Value,
    names: Vec<String>,
}

/// The statblock's Spellcasting (the first block with a DC) as woundsim's
/// `spellcasting`; spells the data does not cast in a fight are noted.
fn spellcasting(
    b: &Statblock,
    spells: &Spells,
    notes: &mut Vec<String>,
    no_effect: &mut Vec<String>,
) -> Option<Cast> {
    let mut entries: Vec<Value> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut daily = 0;
    let mut found: Option<(i64, i64)> = None;
    for f in b.features.iter().filter(|f| {
        f.section == Section::Spellcasting || text::bare_name(&f.name).contains("Spellcasting")
    }) {
        let sc = text::spellcasting(&f.text);
        let Some(dc) = sc.dc else {
            notes.push(note(&f.name));
            continue;
        };
        let to_hit = sc.to_hit.unwrap_or(dc - 8);
        if found.is_some_and(|x| x != (dc, to_hit)) {
            notes.push(note(&format!("{}: a second spell save DC", f.name)));
            continue;
        }
        found = Some((dc, to_hit));
        let mut slot_note = false;
        for g in &sc.groups {
            let when = match (g.per_day, g.slot_level) {
                (None, _) => "At Will".to_string(),
                (Some(n), None) => format!("{n}/Day"),
                (Some(1), Some(l)) => format!("level {l}, 1 slot"),
                (Some(n), Some(l)) => format!("level {l}, {n} slots"),
            };
            for name in &g.spells {
                let key = text::spell_key(name);
                let spec = spells.get(&key).filter(|s| s.cast_in_fights());
                let usable = spec.filter(|s| {
                    !names.contains(&key)
                        && entries.len() < crate::combat::spell::MAX_KNOWN_SPELLS
                        && (g.per_day.is_none() || daily < crate::combat::spell::MAX_DAILY_SPELLS)
                        && g.slot_level
                            .is_none_or(|l| l >= i64::from(s.level) && l <= 9)
                });
                let Some(spec) = usable else {
                    // No use in a fight (data/spells.toml `no_fight_use`:
                    // Mage Hand, Detect Magic): left out, as the SRD
                    // generator does; an escape or an illusion: no effect.
                    if spells
                        .get(&key)
                        .is_some_and(|s| s.fight == crate::combat::spell::FightUse::NoFightUse)
                    {
                        continue;
                    }
                    if SPELLS_WITHOUT_FIGHT_EFFECT.contains(&key.as_str()) {
                        no_effect.push(note(&format!("{name} (Spellcasting, {when})")));
                        continue;
                    }
                    let why = match spec {
                        None => "",
                        Some(_) if names.contains(&key) => ": listed twice",
                        Some(_)
                            if g.per_day.is_some()
                                && daily >= crate::combat::spell::MAX_DAILY_SPELLS =>
                        {
                            ": beyond the 8 spells with uses a day the loop keeps"
                        }
                        Some(_) => ": beyond what the loop keeps",
                    };
                    notes.push(note(&format!("Spellcasting: {name} ({when}){why}")));
                    continue;
                };
                let level = g.slot_level.unwrap_or(i64::from(spec.level));
                let mut e = vec![("spell", string(&key)), ("level", int(level))];
                if let Some(n) = g.per_day {
                    e.push(("per_day", int(n.clamp(1, 20))));
                    daily += 1;
                }
                if g.slot_level.is_some() {
                    slot_note = true;
                }
                entries.push(table(e));
                names.push(key);
            }
        }
        if slot_note {
            notes.push(note(&format!(
                "{}: spell slots are shared; each spell is given all of its level's slots",
                f.name
            )));
        }
    }
    let (dc, to_hit) = found?;
    if entries.is_empty() {
        return None;
    }
    Some(Cast {
        value: table(vec![
            ("dc", int(dc.clamp(1, 40))),
            ("to_hit", int(to_hit.clamp(-10, 30))),
            ("spells", Value::Array(entries)),
        ]),
        names,
    })
}

/// Legendary actions: one attack (after a move or not), a spell of its
/// Spellcasting, or a saving throw against damage; the rest noted.
fn legendary(
    b: &Statblock,
    actions: &Actions,
    cast: &Option<Cast>,
    keys: &mut Vec<(&'static str, Value)>,
    notes: &mut Vec<String>,
) {
    let mut options: Vec<Value> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    for f in b
        .features
        .iter()
        .filter(|f| f.section == Section::Legendary)
    {
        let t = text::clean(&f.text);
        let lower = t.to_ascii_lowercase();
        let cost = text::int_after(&f.name.to_ascii_lowercase(), "costs").unwrap_or(1);
        let key = attack_key(&f.name, &taken);
        let mut o = vec![("name", string(&key))];
        let once = lower.contains("can't take this action again");
        let spell = cast.as_ref().and_then(|c| {
            c.names
                .iter()
                .find(|n| lower.contains(&n.replace('_', " ")))
                .cloned()
        });
        let one_attack = one_attack(&lower, actions);
        if let Some(attack) = one_attack {
            o.push(("attack", string(&attack)));
            if lower.contains("moves up to") || lower.contains("teleport") {
                o.push(("moves_first", Value::Boolean(true)));
            }
        } else if let Some(spell) = spell {
            o.push(("spell", string(&spell)));
        } else if let Some(sa) = text::save_action(&t) {
            o.push((
                "save",
                table(vec![
                    ("dice", string(&sa.damage.dice)),
                    ("type", string(&sa.damage.kind)),
                    ("save", string(sa.ability)),
                    ("dc", int(sa.dc.clamp(1, 30))),
                    ("targets", int(i64::from(sa.targets).min(20))),
                    ("on_success", string(if sa.half { "half" } else { "none" })),
                ]),
            ));
            if !sa.rest.is_empty() {
                notes.push(note(&format!("{} (Legendary Action): {}", f.name, sa.rest)));
            }
        } else {
            notes.push(note(&format!("{}{}", f.name, f.section.label())));
            continue;
        }
        if cost > 1 {
            o.push(("cost", int(cost.clamp(1, 3))));
        }
        if once {
            o.push(("once_per_round", Value::Boolean(true)));
        }
        taken.push(key);
        options.push(table(o));
    }
    if !options.is_empty() {
        let uses = b.legendary_uses.unwrap_or(3).clamp(1, 5);
        keys.push((
            "legendary_actions",
            table(vec![
                ("uses", int(uses)),
                ("options", Value::Array(options)),
            ]),
        ));
    }
}

/// "makes one claw attack", "makes one Rend attack", "makes one attack
/// with its tail", "The dragon makes a tail attack": the attack's key.
fn one_attack(lower: &str, actions: &Actions) -> Option<String> {
    if let Some(at) = lower.find("uses its ") {
        let rest = &lower[at + 9..];
        let name = rest.split(['.', ',']).next().unwrap_or("").trim();
        if let Some(k) = actions.key_of(name) {
            return Some(k.to_string());
        }
    }
    for lead in ["makes one ", "makes a ", "makes an "] {
        if let Some(at) = lower.find(lead) {
            let rest = &lower[at + lead.len()..];
            let end = rest.find(" attack").unwrap_or(rest.len());
            let name = rest[..end].trim();
            let name = if name.is_empty() || name == "weapon" || name == "melee" {
                rest.find("with its ")
                    .map(|w| rest[w + 9..].split(['.', ',', ' ']).next().unwrap_or(""))
                    .unwrap_or("")
            } else {
                name.split(" or ").next().unwrap_or(name)
            };
            if let Some(k) = actions.key_of(name) {
                return Some(k.to_string());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::import::{Feature, Speed};

    fn feature(section: Section, name: &str, text: &str) -> Feature {
        Feature {
            section,
            name: name.into(),
            text: text.into(),
        }
    }

    fn spells() -> Spells {
        crate::scenario::data::builtin_catalog()
            .unwrap()
            .templates
            .spells
    }

    fn owlbear() -> Statblock {
        Statblock {
            name: "Owlbear".into(),
            path: "monster[0]".into(),
            size: Some("large".into()),
            kind: Some("monstrosity".into()),
            ac: Some(13),
            hp: Some(59),
            speed: Speed {
                walk: 40,
                ..Speed::default()
            },
            abilities: [20, 12, 17, 3, 12, 7],
            cr: Some("3".into()),
            features: vec![
                feature(
                    Section::Trait,
                    "Keen Sight and Smell",
                    "The owlbear has advantage ...",
                ),
                feature(
                    Section::Action,
                    "Multiattack",
                    "The owlbear makes two attacks: one with its beak and one with its claws.",
                ),
                feature(
                    Section::Action,
                    "Beak",
                    "Melee Weapon Attack: +7 to hit, reach 5 ft., one creature. Hit: 10 (1d10 + 5) piercing damage.",
                ),
                feature(
                    Section::Action,
                    "Claws",
                    "Melee Weapon Attack: +7 to hit, reach 5 ft., one target. Hit: 14 (2d8 + 5) slashing damage.",
                ),
            ],
            ..Statblock::default()
        }
    }

    fn get<'a>(i: &'a Imported, key: &str) -> &'a Value {
        &i.keys.iter().find(|(k, _)| *k == key).unwrap().1
    }

    #[test]
    fn numbers_come_from_the_statblock_and_the_cr_tables() {
        let i = convert(&owlbear(), &spells());
        assert_eq!(i.slug, "owlbear");
        assert_eq!(get(&i, "xp").as_integer(), Some(700));
        assert_eq!(get(&i, "proficiency_bonus").as_integer(), Some(2));
        assert_eq!(get(&i, "saves").get("str").unwrap().as_integer(), Some(5));
        assert_eq!(get(&i, "initiative").as_integer(), Some(1));
        assert_eq!(get(&i, "multiattack").to_string(), r#"["beak", "claws"]"#);
        assert_eq!(i.not_modelled, vec!["Keen Sight and Smell"]);
        assert_eq!(proficiency("5"), 3);
        assert_eq!(proficiency("17"), 6);
        assert_eq!(proficiency("30"), 9);
    }

    #[test]
    fn legendary_features_and_spells_are_read() {
        let mut b = owlbear();
        b.features.extend([
            feature(Section::Trait, "Legendary Resistance (3/Day)", "If it fails a saving throw, it can choose to succeed instead."),
            feature(Section::Action, "Fire Breath (Recharge 5–6)", "The dragon exhales fire in a 60-foot cone. Each creature in that area must make a DC 21 Dexterity saving throw, taking 63 (18d6) fire damage on a failed save, or half as much damage on a successful one."),
            feature(Section::Spellcasting, "Spellcasting", "spell save DC 20, +12 to hit with spell attacks: At will: fire bolt, mage hand 1/day each: fireball, wish, plane shift"),
            feature(Section::Legendary, "Claw", "The owlbear makes one claw attack."),
            feature(Section::Legendary, "Blast (Costs 2 Actions)", "The owlbear casts fireball."),
            feature(Section::Legendary, "Sing", "The owlbear sings."),
        ]);
        let i = convert(&b, &spells());
        assert_eq!(get(&i, "legendary_resistance").as_integer(), Some(3));
        assert_eq!(
            get(&i, "breath").to_string(),
            r#"{ dc = 21, dice = "18d6", recharge = 5, save = "dex", targets = 6, type = "fire" }"#
        );
        let legendary = get(&i, "legendary_actions").to_string();
        assert!(legendary.contains(r#"attack = "claws""#), "{legendary}");
        assert!(
            legendary.contains(r#"spell = "fireball""#) && legendary.contains("cost = 2"),
            "{legendary}"
        );
        assert!(
            i.not_modelled
                .contains(&"Sing (Legendary Action)".to_string()),
            "{:?}",
            i.not_modelled
        );
        // Mage Hand is of no use in a fight (left out, as the SRD
        // generator does); Plane Shift an escape (no effect in a fight).
        assert!(
            !i.not_modelled.iter().any(|n| n.contains("mage hand")),
            "{:?}",
            i.not_modelled
        );
        let no_effect = get(&i, "no_fight_effect").to_string();
        assert!(
            no_effect.contains("plane shift (Spellcasting, 1/Day)"),
            "{no_effect}"
        );
        assert!(
            i.not_modelled
                .contains(&"Spellcasting: wish (1/Day)".to_string()),
            "{:?}",
            i.not_modelled
        );
        let cast = get(&i, "spellcasting").to_string();
        assert!(
            cast.contains(r#"spell = "fire_bolt""#) && cast.contains("per_day = 1"),
            "{cast}"
        );
    }

    #[test]
    fn regeneration_reads_its_stoppers() {
        let r = regeneration("The troll regains 10 Hit Points at the start of each of its turns. If the troll takes Acid or Fire damage, this trait doesn't function on the troll's next turn.").unwrap();
        assert_eq!(
            r.to_string(),
            r#"{ hp = 10, stopped_by = ["acid", "fire"] }"#
        );
        let oni = regeneration("The oni regains 10 hit points at the start of its turn if it has at least 1 hit point.").unwrap();
        assert!(oni.to_string().contains("revives = false"));
    }
}
