//! Foundry VTT dnd5e NPC actors: what "Export Data" of an actor writes,
//! and what the system's compendium packs hold (`packs/_source/monsters`,
//! `packs/_source/actors24` of github.com/foundryvtt/dnd5e). The file is one
//! actor object or a JSON list of them; only `"type": "npc"` actors are read
//! (a `"character"` or any other type is an error naming the actor's path).
//!
//! Both item schemas are read: dnd5e 3.x (`system.actionType` "mwak",
//! "rwak", "msak", "rsak", "save"; `system.damage.parts` as
//! `[["1d10 + @mod", "piercing"]]`; `system.attackBonus`, `system.save`,
//! `system.recharge`, `system.activation`, `system.uses.per`) and 4.x/5.x
//! (`system.activities`: attack, save, damage, cast, utility... each with
//! its `activation`, `attack`, `damage.parts` of `{number, denomination,
//! bonus, types}`, `save.dc.calculation`, `target.template`, `uses.recovery`;
//! weapons' `system.damage.base`).
//!
//! Actor fields and where they go in the [`Statblock`]:
//! - `name` → name; `system.traits.size` ("tiny", "sm", "med", "lg", "huge",
//!   "grg") → size; `system.details.type.value` (or `.custom`) → kind;
//! - `system.attributes.ac`: `calc` "flat"/"natural" → `flat`; "default"
//!   → 10 + Dexterity modifier, or the equipped armour and shield items;
//!   "mage"/"draconic" → 13 + Dex; the unarmored defences; "custom" → its
//!   formula; `value` where a tool wrote the derived number;
//! - `system.attributes.hp.max` (else `value`, else the `formula`'s average);
//! - `system.attributes.movement` walk, fly, swim, climb, burrow, hover;
//! - `system.abilities.{str..cha}.value` → scores; `proficient` → save
//!   bonus (modifier + proficiency, plus a numeric `bonuses.save`);
//! - `system.attributes.init.bonus` (a number, or a formula such as
//!   `@prof * 2`) + the Dexterity (or `init.ability`) modifier → initiative;
//! - `system.details.cr` (0.125 → "1/8", 0.25 → "1/4", 0.5 → "1/2");
//!   proficiency from `system.attributes.prof`, else from the CR;
//! - `system.traits.dr/di/dv.value` → resistant/immune/vulnerable, their
//!   `bypasses` ("mgc", "ada", "sil") and `custom` text, `dm` amounts and
//!   `system.traits.ci` custom text → `not_modelled`; `ci.value` →
//!   condition_immune;
//! - `system.resources.legact.max` → legendary_uses (else "can take N
//!   legendary actions" in a "Legendary Actions" item);
//!   `system.resources.legres.max` → a trait "Legendary Resistance (N/Day)".
//!
//! Each item becomes one [`Feature`], in the file's order, in the section
//! its activation names (action, bonus, reaction, legendary; else a
//! trait; a "Multiattack" is an action), its name carrying "(Recharge
//! 5–6)", "(N/Day)" or "(Costs 2 Actions)". Its text is the statblock line
//! computed from the numbers — to-hit from the ability modifier (str for
//! melee, dex for ranged, the better one for finesse and natural weapons,
//! or the item's own ability), proficiency and flat bonuses; damage
//! averages; save DCs from `dc.calculation`/`scaling` or the formula —
//! in the sentence forms the shared text parser reads:
//!
//! - `Melee Attack Roll: +7, reach 5 ft. Hit: 10 (1d10 + 5) Piercing damage
//!   plus 7 (2d6) Fire damage.` (also `Ranged Attack Roll: ..., range
//!   80/320 ft.` and `Melee or Ranged Attack Roll: ..., reach 5 ft. or
//!   range 20/60 ft.`), followed by what the description says after the
//!   hit (riders such as "If the target is a Large or smaller creature, it
//!   has the Prone condition.");
//! - `Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone.
//!   Failure: 59 (17d6) Fire damage. Success: Half damage.`, where a
//!   2024-style description ("... Saving Throw: DC [[lookup ...]]") is
//!   used as it reads once its enrichers are resolved;
//! - one `Spellcasting` feature in [`Section::Spellcasting`] gathering the
//!   spell items (and the "cast" activities of a 2024 "Spellcasting"
//!   feat): `The mage casts spells using Intelligence as the spellcasting
//!   ability (spell save DC 14, +6 to hit with spell attacks). Cantrips (at
//!   will): fire bolt, light. 1st level (4 slots): magic missile, shield.`
//!   with `At will:` and `N/Day each:` groups for at-will and innate ones;
//! - anything else: its description, HTML removed and enrichers made words
//!   (`[[lookup @name lowercase]]` → "owlbear", `[[/item Rend]]` → "Rend",
//!   `@UUID[...]{Fireball}` → "Fireball", `&Reference[prone]` → "Prone",
//!   `[[/save]]` → "DC 21 Dexterity", `[[/damage average]]` → "63 (18d6)
//!   Fire"). A 3.x description's `<section class="secret">` (the GM's
//!   statblock text) is read instead of the players' flavour around it.
//!
//! Items dropped on purpose: `loot`, `container`, `backpack` and the
//! character-building `class`, `subclass`, `race`, `background` items;
//! equipment, consumables and tools without an attack or save (armour
//! counts towards AC only); weapons with no attack or other activity (gear
//! the NPC carries); spell items (listed in the Spellcasting feature
//! instead, and those a 2024 "cast" activity caches, `flags.dnd5e.cachedFor`);
//! a "Legendary Actions" header item (its number is `legendary_uses`) and
//! the "Legendary Resistance" item where `legres.max` gives the canonical
//! trait. An item whose numbers cannot be computed (a formula with an
//! unknown `@` term, say) keeps its name and description and gets a
//! `not_modelled` note.
//!
//! Errors carry the JSON path (`[2].system.attributes.hp.max` for the third
//! actor of a list, `system.attributes.ac.flat` for a single actor). The
//! actor-level numbers are checked strictly; items are read leniently.

use std::collections::BTreeMap;

use serde_json::Value;

use super::access;
use super::{ABILITIES, Feature, ImportError, SIZES, Section, Speed, Statblock};

/// The absent value, for lookups that find nothing.
static NULL: Value = Value::Null;

/// The abilities' names, in [`ABILITIES`] order.
const ABILITY_NAMES: [&str; 6] = [
    "Strength",
    "Dexterity",
    "Constitution",
    "Intelligence",
    "Wisdom",
    "Charisma",
];

/// Foundry's size keys, in [`SIZES`] order.
const SIZE_KEYS: [&str; 6] = ["tiny", "sm", "med", "lg", "huge", "grg"];

/// The conditions, for rewriting "be knocked prone" style riders.
const CONDITIONS: [&str; 15] = [
    "blinded",
    "charmed",
    "deafened",
    "exhaustion",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
];

/// The damage types a `[[/damage ...]]` enricher may name.
const DAMAGE_TYPES: [&str; 15] = [
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
    "healing",
    "temphp",
];

/// Skills: Foundry key, name, default ability index.
const SKILLS: [(&str, &str, usize); 18] = [
    ("acr", "Acrobatics", 1),
    ("ani", "Animal Handling", 4),
    ("arc", "Arcana", 3),
    ("ath", "Athletics", 0),
    ("dec", "Deception", 5),
    ("his", "History", 3),
    ("ins", "Insight", 4),
    ("itm", "Intimidation", 5),
    ("inv", "Investigation", 3),
    ("med", "Medicine", 4),
    ("nat", "Nature", 3),
    ("prc", "Perception", 4),
    ("prf", "Performance", 5),
    ("per", "Persuasion", 5),
    ("rel", "Religion", 3),
    ("slt", "Sleight of Hand", 1),
    ("ste", "Stealth", 1),
    ("sur", "Survival", 4),
];

/// Reads a Foundry VTT dnd5e actor export: one actor object, or a list of
/// them (each becomes one statblock, its path `[i]`).
pub fn read(value: &Value) -> Result<Vec<Statblock>, ImportError> {
    match value {
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, v)| read_actor(v, &format!("[{i}]")))
            .collect(),
        Value::Object(_) => Ok(vec![read_actor(value, "")?]),
        other => Err(ImportError::at(
            "",
            format!(
                "a Foundry VTT actor file holds an actor object or a list of them, not {}",
                access::kind(other)
            ),
        )),
    }
}

// ---------------------------------------------------------------------------
// JSON access
// ---------------------------------------------------------------------------

/// `path.key`, or `key` at the top.
fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The value at nested `keys`, if present and not null.
fn at<'a>(v: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for k in keys {
        cur = cur.get(*k)?;
    }
    (!cur.is_null()).then_some(cur)
}

/// The text at nested `keys`, trimmed; "" when absent or not text.
fn str_at<'a>(v: &'a Value, keys: &[&str]) -> &'a str {
    at(v, keys).and_then(Value::as_str).map_or("", str::trim)
}

/// A number given as a number or as numeric text ("5", "+2").
fn number(v: Option<&Value>) -> Option<f64> {
    let f = match v? {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().trim_start_matches('+').parse::<f64>().ok()?,
        _ => return None,
    };
    (f.is_finite() && f.abs() <= 1e9).then_some(f)
}

/// [`number`], rounded down to a whole number.
fn whole(v: Option<&Value>) -> Option<i64> {
    number(v).map(|f| f.floor() as i64)
}

/// The list at nested `keys` (empty when absent or not a list).
fn list_at<'a>(v: &'a Value, keys: &[&str]) -> &'a [Value] {
    at(v, keys)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Whether a Foundry property set (a list, or an old `{key: true}` object)
/// holds `key`.
fn has_property(sys: &Value, key: &str) -> bool {
    match sys.get("properties") {
        Some(Value::Array(a)) => a.iter().any(|p| p.as_str() == Some(key)),
        Some(Value::Object(o)) => o.get(key).and_then(Value::as_bool) == Some(true),
        _ => false,
    }
}

/// `o[key]` as an object: absent or null is None, another kind an error.
fn object<'a>(o: &'a Value, key: &str, path: &str) -> Result<Option<&'a Value>, ImportError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v)),
        Some(v) => Err(ImportError::at(
            child(path, key),
            format!("`{key}` must be an object, not {}", access::kind(v)),
        )),
    }
}

/// `o[key]` as a whole number: absent, null or empty text is None; any
/// other value must be a whole number (strictly, with the path).
fn opt_whole(o: &Value, key: &str, path: &str, what: &str) -> Result<Option<i64>, ImportError> {
    match o.get(key) {
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        _ => access::opt_int(o, key, path, what),
    }
}

/// The index of an ability key ("str") or name ("strength").
fn ability_index(key: &str) -> Option<usize> {
    let k = key.trim().to_ascii_lowercase();
    ABILITIES.iter().position(|a| *a == k).or_else(|| {
        ABILITY_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&k))
    })
}

/// The modifier of an ability score.
fn modifier(score: i64) -> i64 {
    (score - 10).div_euclid(2)
}

/// The proficiency bonus of a challenge rating.
fn proficiency_for_cr(cr: f64) -> i64 {
    if cr < 5.0 { 2 } else { (cr as i64 - 1) / 4 + 2 }
}

/// A challenge rating as a statblock writes it, if it is one.
fn cr_text(cr: f64) -> Option<String> {
    if !(0.0..=100.0).contains(&cr) {
        return None;
    }
    if cr.fract() == 0.0 {
        return Some(format!("{}", cr as i64));
    }
    [(0.125, "1/8"), (0.25, "1/4"), (0.5, "1/2")]
        .iter()
        .find(|(f, _)| (cr - f).abs() < 1e-6)
        .map(|(_, t)| (*t).to_string())
}

/// The first letter in upper case.
fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Each word's first letter in upper case.
fn title(s: &str) -> String {
    s.split(' ').map(capitalize).collect::<Vec<_>>().join(" ")
}

/// "1st", "2nd", "3rd", "4th".
fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Case-insensitive (ASCII) find.
fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    hay.to_ascii_lowercase().find(&needle.to_ascii_lowercase())
}

// ---------------------------------------------------------------------------
// Dice formulas
// ---------------------------------------------------------------------------

/// A sum of dice and a flat number: `2d6 + 1d8 + 3`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Dice {
    /// (count, sides), one entry per die size.
    groups: Vec<(i64, i64)>,
    /// The flat part.
    flat: i64,
}

impl Dice {
    /// Its average as a statblock prints it: the dice mean rounded down,
    /// plus the flat part (at least 1 where there are dice).
    fn average(&self) -> i64 {
        let twice: i64 = self.groups.iter().map(|(n, s)| n * (s + 1)).sum();
        let avg = twice / 2 + self.flat;
        if self.groups.is_empty() {
            avg.max(0)
        } else {
            avg.max(1)
        }
    }

    /// `1d10 + 5`, `2d6`, `1d4 - 1`, `3`.
    fn formula(&self) -> String {
        let mut s = self
            .groups
            .iter()
            .map(|(n, d)| format!("{n}d{d}"))
            .collect::<Vec<_>>()
            .join(" + ");
        if s.is_empty() {
            return self.flat.to_string();
        }
        if self.flat > 0 {
            s.push_str(&format!(" + {}", self.flat));
        } else if self.flat < 0 {
            s.push_str(&format!(" - {}", -self.flat));
        }
        s
    }

    /// `10 (1d10 + 5)`, or `3` for a flat number.
    fn printed(&self) -> String {
        if self.groups.is_empty() {
            self.average().to_string()
        } else {
            format!("{} ({})", self.average(), self.formula())
        }
    }
}

/// A partial sum while evaluating: dice groups and a real flat part.
#[derive(Clone, Debug, Default)]
struct Sum {
    groups: Vec<(i64, i64)>,
    flat: f64,
}

impl Sum {
    /// A constant.
    fn c(f: f64) -> Sum {
        Sum {
            groups: Vec::new(),
            flat: f,
        }
    }

    /// The constant, if this holds no dice.
    fn constant(&self) -> Option<f64> {
        self.groups.is_empty().then_some(self.flat)
    }

    /// `self + other`, dice of one size merged.
    fn add(mut self, other: Sum) -> Option<Sum> {
        for (n, d) in other.groups {
            match self.groups.iter_mut().find(|(_, e)| *e == d) {
                Some(g) => g.0 = g.0.checked_add(n).filter(|v| *v <= 1000)?,
                None => self.groups.push((n, d)),
            }
        }
        self.flat += other.flat;
        (self.groups.len() <= 20 && self.flat.abs() <= 1e9).then_some(self)
    }
}

/// A token of a roll formula.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A number.
    Num(f64),
    /// `NdM`.
    Die(i64, i64),
    /// `@path`.
    Var(String),
    /// A function name before `(`.
    Func(String),
    /// `+ - * /`.
    Op(char),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `,`.
    Comma,
}

/// Reads the digits at `i`, returning the number and the next index.
fn digits(c: &[char], mut i: usize) -> (Option<i64>, usize) {
    let start = i;
    while i < c.len() && c[i].is_ascii_digit() {
        i += 1;
    }
    let n = c[start..i].iter().collect::<String>().parse().ok();
    (n, i)
}

/// The tokens of a roll formula; None where it holds what a statblock
/// cannot print (dice modifiers such as `kh`, unknown words).
fn tokenize(formula: &str) -> Option<Vec<Tok>> {
    // Flavour annotations (`2d6[fire]`) and comments (`#...`) go.
    let mut plain = String::new();
    let mut depth = 0usize;
    for ch in formula.split('#').next().unwrap_or("").chars() {
        match ch {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    let c: Vec<char> = plain
        .chars()
        .map(|ch| match ch {
            '−' | '–' => '-',
            '×' => '*',
            other => other,
        })
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch.is_ascii_digit() || ch == '.' {
            let start = i;
            while i < c.len() && (c[i].is_ascii_digit() || c[i] == '.') {
                i += 1;
            }
            let text: String = c[start..i].iter().collect();
            if i < c.len() && (c[i] == 'd' || c[i] == 'D') {
                let count: i64 = text.parse().ok()?;
                let (sides, next) = digits(&c, i + 1);
                out.push(Tok::Die(count, sides?));
                i = next;
                if i < c.len() && c[i].is_ascii_alphanumeric() {
                    return None;
                }
            } else {
                out.push(Tok::Num(text.parse().ok()?));
            }
        } else if ch == '@' {
            let start = i + 1;
            i += 1;
            while i < c.len() && (c[i].is_ascii_alphanumeric() || "._-".contains(c[i])) {
                i += 1;
            }
            let name: String = c[start..i].iter().collect();
            out.push(Tok::Var(name.trim_end_matches(['.', '-']).to_string()));
        } else if ch.is_ascii_alphabetic() {
            let start = i;
            while i < c.len() && c[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let word: String = c[start..i].iter().collect::<String>().to_ascii_lowercase();
            if word.starts_with('d')
                && word[1..].chars().all(|d| d.is_ascii_digit())
                && word.len() > 1
            {
                out.push(Tok::Die(1, word[1..].parse().ok()?));
            } else if ["floor", "ceil", "round", "abs", "min", "max"].contains(&word.as_str()) {
                out.push(Tok::Func(word));
            } else {
                return None;
            }
        } else {
            out.push(match ch {
                '+' | '-' | '*' | '/' => Tok::Op(ch),
                '(' => Tok::Open,
                ')' => Tok::Close,
                ',' => Tok::Comma,
                _ => return None,
            });
            i += 1;
        }
    }
    Some(out)
}

/// A recursive-descent evaluator over [`Tok`]s.
struct Eval<'t, 'v> {
    toks: &'t [Tok],
    pos: usize,
    depth: usize,
    vars: &'v dyn Fn(&str) -> Option<f64>,
}

impl Eval<'_, '_> {
    /// The next token, if any.
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    /// `term (('+'|'-') term)*`.
    fn expr(&mut self) -> Option<Sum> {
        self.depth += 1;
        if self.depth > 32 {
            return None;
        }
        let mut acc = self.term()?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.term()?;
            acc = if op == '+' {
                acc.add(rhs)?
            } else {
                acc.add(Sum::c(-rhs.constant()?))?
            };
        }
        self.depth -= 1;
        Some(acc)
    }

    /// `unary (('*'|'/') unary)*`, constants only.
    fn term(&mut self) -> Option<Sum> {
        let mut acc = self.unary()?;
        while let Some(Tok::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.unary()?.constant()?;
            let lhs = acc.constant()?;
            acc = Sum::c(if op == '*' {
                lhs * rhs
            } else if rhs != 0.0 {
                lhs / rhs
            } else {
                return None;
            });
        }
        Some(acc)
    }

    /// A signed atom.
    fn unary(&mut self) -> Option<Sum> {
        match self.peek() {
            Some(Tok::Op('-')) => {
                self.pos += 1;
                Some(Sum::c(-self.unary()?.constant()?))
            }
            Some(Tok::Op('+')) => {
                self.pos += 1;
                self.unary()
            }
            _ => self.atom(),
        }
    }

    /// A number, die, variable, bracketed expression or function call.
    fn atom(&mut self) -> Option<Sum> {
        let tok = self.peek()?.clone();
        self.pos += 1;
        match tok {
            Tok::Num(f) => Some(Sum::c(f)),
            Tok::Die(n, d) => {
                if !(0..=1000).contains(&n) || !(1..=1000).contains(&d) {
                    return None;
                }
                Some(Sum {
                    groups: if n == 0 { Vec::new() } else { vec![(n, d)] },
                    flat: 0.0,
                })
            }
            Tok::Var(name) => (self.vars)(&name).map(Sum::c),
            Tok::Open => {
                let inner = self.expr()?;
                (self.peek() == Some(&Tok::Close)).then_some(())?;
                self.pos += 1;
                Some(inner)
            }
            Tok::Func(name) => {
                (self.peek() == Some(&Tok::Open)).then_some(())?;
                self.pos += 1;
                let mut args = vec![self.expr()?.constant()?];
                while self.peek() == Some(&Tok::Comma) {
                    self.pos += 1;
                    args.push(self.expr()?.constant()?);
                }
                (self.peek() == Some(&Tok::Close)).then_some(())?;
                self.pos += 1;
                let a = args[0];
                Some(Sum::c(match name.as_str() {
                    "floor" => a.floor(),
                    "ceil" => a.ceil(),
                    "round" => a.round(),
                    "abs" => a.abs(),
                    "min" => args.iter().copied().fold(f64::INFINITY, f64::min),
                    _ => args.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                }))
            }
            _ => None,
        }
    }
}

/// Evaluates a roll formula to dice and a flat part; `vars` resolves the
/// `@` terms. None where the formula is not a plain sum a statblock prints.
fn eval_formula(formula: &str, vars: &dyn Fn(&str) -> Option<f64>) -> Option<Dice> {
    let toks = tokenize(formula)?;
    if toks.is_empty() {
        return Some(Dice::default());
    }
    let mut e = Eval {
        toks: &toks,
        pos: 0,
        depth: 0,
        vars,
    };
    let sum = e.expr()?;
    if e.pos != toks.len() || !sum.flat.is_finite() || sum.flat.abs() > 1e9 {
        return None;
    }
    Some(Dice {
        groups: sum.groups,
        flat: sum.flat.floor() as i64,
    })
}

// ---------------------------------------------------------------------------
// The actor
// ---------------------------------------------------------------------------

/// What the item readers need to know of the actor.
struct Ctx<'a> {
    /// The actor's name.
    name: String,
    /// Its `system` object.
    system: &'a Value,
    /// Its items.
    items: &'a [Value],
    /// Ability scores.
    scores: [i64; 6],
    /// Proficiency bonus.
    prof: i64,
    /// Challenge rating.
    cr: Option<f64>,
    /// The spellcasting ability.
    spell_ability: Option<usize>,
    /// `bonuses.spell.dc`.
    dc_bonus: i64,
    /// Legendary actions a round.
    legact: Option<i64>,
}

impl Ctx<'_> {
    /// An ability's modifier.
    fn modifier(&self, i: usize) -> i64 {
        modifier(self.scores[i])
    }

    /// The DC of an ability: 8 + proficiency + modifier.
    fn ability_dc(&self, i: usize) -> i64 {
        8 + self.prof + self.modifier(i) + self.dc_bonus
    }

    /// The spellcasting modifier (0 without a spellcasting ability).
    fn spell_mod(&self) -> i64 {
        self.spell_ability.map_or(0, |i| self.modifier(i))
    }

    /// The spell save DC.
    fn spell_dc(&self) -> i64 {
        whole(at(self.system, &["attributes", "spelldc"]))
            .filter(|d| (1..=100).contains(d))
            .unwrap_or(8 + self.prof + self.spell_mod() + self.dc_bonus)
    }

    /// The spell attack bonus.
    fn spell_attack(&self) -> i64 {
        self.prof + self.spell_mod()
    }

    /// A skill's passive score: 10 + modifier + proficiency × multiplier.
    fn passive(&self, skill: &str) -> Option<i64> {
        let (_, _, default) = SKILLS.iter().find(|(k, _, _)| *k == skill)?;
        let s = at(self.system, &["skills", skill]).unwrap_or(&NULL);
        let ability = ability_index(str_at(s, &["ability"])).unwrap_or(*default);
        let mult = number(s.get("value")).unwrap_or(0.0);
        let bonus = self
            .constant(str_at(s, &["bonuses", "passive"]), 0)
            .unwrap_or(0);
        Some(10 + self.modifier(ability) + (mult * self.prof as f64).floor() as i64 + bonus)
    }

    /// The value of an `@` term, `m` being the `@mod` of the roll.
    fn var(&self, name: &str, m: i64) -> Option<f64> {
        let parts: Vec<&str> = name.split('.').collect();
        let v = match parts.as_slice() {
            ["mod"] => m,
            ["prof"] | ["attributes", "prof"] => self.prof,
            ["abilities", a, field] => {
                let i = ability_index(a)?;
                match *field {
                    "mod" => self.modifier(i),
                    "value" => self.scores[i],
                    "dc" => self.ability_dc(i),
                    _ => return None,
                }
            }
            ["details", "cr"] => return self.cr,
            ["attributes", "spell", "dc"] | ["attributes", "spelldc"] => self.spell_dc(),
            ["attributes", "spell", "mod"] | ["attributes", "spellmod"] => self.spell_mod(),
            ["skills", s, "passive"] => self.passive(s)?,
            ["resources", "legact", "max"] => self.legact?,
            _ => return None,
        };
        Some(v as f64)
    }

    /// A formula's dice, `m` being its `@mod`.
    fn dice(&self, formula: &str, m: i64) -> Option<Dice> {
        eval_formula(formula, &|n| self.var(n, m))
    }

    /// A formula's constant value ("" is 0).
    fn constant(&self, formula: &str, m: i64) -> Option<i64> {
        if formula.trim().is_empty() {
            return Some(0);
        }
        self.dice(formula, m)
            .filter(|d| d.groups.is_empty())
            .map(|d| d.flat)
    }

    /// A bonus formula's value, or why it cannot be read.
    fn bonus(&self, formula: &str, m: i64) -> Result<i64, String> {
        self.constant(formula, m)
            .ok_or_else(|| format!("the bonus `{}` is not a plain number", formula.trim()))
    }
}

/// One actor into a statblock.
fn read_actor(v: &Value, path: &str) -> Result<Statblock, ImportError> {
    if !v.is_object() {
        return Err(ImportError::at(
            path,
            format!("a Foundry actor must be an object, not {}", access::kind(v)),
        ));
    }
    let name = access::opt_str(v, "name").map(str::trim).unwrap_or("");
    match v.get("type").and_then(Value::as_str) {
        Some("npc") => {}
        Some("character") => {
            return Err(ImportError::at(
                path,
                format!(
                    "`{name}` is a player character (\"type\": \"character\"): characters are not read yet as bestiary entries; export an NPC actor instead"
                ),
            ));
        }
        Some(other) => {
            return Err(ImportError::at(
                path,
                format!(
                    "`{name}` is a Foundry `{other}` actor; only NPC actors (\"type\": \"npc\") are read"
                ),
            ));
        }
        None => {
            return Err(ImportError::at(
                child(path, "type"),
                "the actor has no `type`; a Foundry NPC actor has \"type\": \"npc\"",
            ));
        }
    }
    if name.is_empty() {
        return Err(ImportError::at(
            child(path, "name"),
            "the actor has no `name`",
        ));
    }
    let sys_path = child(path, "system");
    let system = object(v, "system", path)?.ok_or_else(|| {
        ImportError::at(
            &sys_path,
            "the actor has no `system` object: is this a Foundry VTT dnd5e export?",
        )
    })?;
    let items = match v.get("items") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(a)) => a.as_slice(),
        Some(other) => {
            return Err(ImportError::at(
                child(path, "items"),
                format!("`items` must be a list, not {}", access::kind(other)),
            ));
        }
    };
    let attributes = object(system, "attributes", &sys_path)?.unwrap_or(&NULL);
    let attr_path = child(&sys_path, "attributes");
    let details = object(system, "details", &sys_path)?.unwrap_or(&NULL);
    let details_path = child(&sys_path, "details");
    let traits = object(system, "traits", &sys_path)?.unwrap_or(&NULL);
    let traits_path = child(&sys_path, "traits");

    let scores = read_scores(system, &sys_path)?;
    let cr = read_cr(details, &details_path)?;
    let prof = match opt_whole(attributes, "prof", &attr_path, "the proficiency bonus")? {
        Some(p) if (0..=30).contains(&p) => p,
        Some(p) => {
            return Err(ImportError::at(
                child(&attr_path, "prof"),
                format!("the proficiency bonus {p} is outside 0 to 30"),
            ));
        }
        None => cr.map_or(2, proficiency_for_cr),
    };
    let resources = object(system, "resources", &sys_path)?.unwrap_or(&NULL);
    let res_path = child(&sys_path, "resources");
    let legact = read_resource(resources, "legact", &res_path, "legendary actions")?;
    let legres = read_resource(resources, "legres", &res_path, "legendary resistances")?;
    let mut ctx = Ctx {
        name: name.to_string(),
        system,
        items,
        scores,
        prof,
        cr,
        spell_ability: ability_index(str_at(attributes, &["spellcasting"])),
        dc_bonus: 0,
        legact,
    };
    ctx.dc_bonus = ctx
        .constant(str_at(system, &["bonuses", "spell", "dc"]), 0)
        .unwrap_or(0);

    let mut block = Statblock {
        name: name.to_string(),
        path: path.to_string(),
        cr: cr.and_then(cr_text),
        abilities: scores,
        legendary_uses: legact.filter(|n| *n > 0),
        ..Statblock::default()
    };
    match str_at(traits, &["size"]) {
        "" => {}
        s => match SIZE_KEYS.iter().position(|k| k.eq_ignore_ascii_case(s)) {
            Some(i) => block.size = Some(SIZES[i].to_string()),
            None => block.not_modelled.push(format!("Size: {s}")),
        },
    }
    block.kind = read_kind(details);
    block.hp = read_hp(&ctx, attributes, &attr_path)?;
    block.ac = read_ac(&ctx, attributes, &attr_path)?;
    block.speed = read_speed(attributes, &attr_path)?;
    block.saves = read_saves(&ctx);
    block.initiative = read_initiative(&ctx, attributes, &mut block.not_modelled);
    read_traits(traits, &traits_path, &mut block)?;
    read_features(&ctx, path, legres.unwrap_or(0), &mut block)?;
    Ok(block)
}

/// The six ability scores (10 where not given).
fn read_scores(system: &Value, sys_path: &str) -> Result<[i64; 6], ImportError> {
    let mut scores = [10; 6];
    let Some(abilities) = object(system, "abilities", sys_path)? else {
        return Ok(scores);
    };
    let abil_path = child(sys_path, "abilities");
    for (i, key) in ABILITIES.iter().enumerate() {
        let Some(a) = object(abilities, key, &abil_path)? else {
            continue;
        };
        let a_path = child(&abil_path, key);
        if let Some(n) = opt_whole(a, "value", &a_path, "an ability score")? {
            if !(0..=100).contains(&n) {
                return Err(ImportError::at(
                    child(&a_path, "value"),
                    format!("the ability score {n} is outside 0 to 100"),
                ));
            }
            scores[i] = n;
        }
    }
    Ok(scores)
}

/// `details.cr`: a number (0.125, 0.25, 0.5, whole) or text ("1/4").
fn read_cr(details: &Value, path: &str) -> Result<Option<f64>, ImportError> {
    let p = child(path, "cr");
    let cr = match details.get("cr") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(None),
        Some(Value::String(s)) => match s.trim().split_once('/') {
            Some((a, b)) => match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
                (Ok(a), Ok(b)) if b != 0.0 => Some(a / b),
                _ => None,
            },
            None => s.trim().parse::<f64>().ok(),
        },
        Some(Value::Number(n)) => n.as_f64(),
        Some(other) => {
            return Err(ImportError::at(
                p,
                format!(
                    "the challenge rating must be a number, not {}",
                    access::kind(other)
                ),
            ));
        }
    };
    match cr {
        Some(c) if cr_text(c).is_some() => Ok(Some(c)),
        _ => Err(ImportError::at(
            p,
            "the challenge rating must be 0, 1/8, 1/4, 1/2 or a whole number up to 100",
        )),
    }
}

/// `resources.<key>.max` (else `.value`).
fn read_resource(
    resources: &Value,
    key: &str,
    path: &str,
    what: &str,
) -> Result<Option<i64>, ImportError> {
    let Some(r) = object(resources, key, path)? else {
        return Ok(None);
    };
    let r_path = child(path, key);
    let n = match opt_whole(r, "max", &r_path, what)? {
        Some(n) => Some(n),
        None => opt_whole(r, "value", &r_path, what)?,
    };
    match n {
        Some(n) if !(0..=100).contains(&n) => Err(ImportError::at(
            child(&r_path, "max"),
            format!("{n} {what} is outside 0 to 100"),
        )),
        n => Ok(n),
    }
}

/// `details.type.value` (or its custom text), lower case.
fn read_kind(details: &Value) -> Option<String> {
    let t = match details.get("type") {
        Some(Value::String(s)) => s.trim(),
        Some(t @ Value::Object(_)) => match str_at(t, &["value"]) {
            "custom" => str_at(t, &["custom"]),
            v => v,
        },
        _ => "",
    };
    (!t.is_empty()).then(|| t.to_lowercase())
}

/// `attributes.hp.max`, else `value`, else the formula's average.
fn read_hp(ctx: &Ctx, attributes: &Value, attr_path: &str) -> Result<Option<i64>, ImportError> {
    let Some(hp) = object(attributes, "hp", attr_path)? else {
        return Ok(None);
    };
    let hp_path = child(attr_path, "hp");
    let (key, n) = match opt_whole(hp, "max", &hp_path, "hit points")? {
        Some(n) => ("max", Some(n)),
        None => ("value", opt_whole(hp, "value", &hp_path, "hit points")?),
    };
    if let Some(n) = n {
        if n < 0 {
            return Err(ImportError::at(
                child(&hp_path, key),
                format!("hit points {n} are below 0"),
            ));
        }
        return Ok(Some(n));
    }
    Ok(ctx
        .dice(str_at(hp, &["formula"]), 0)
        .map(|d| d.average())
        .filter(|n| *n > 0))
}

/// Armour class as Foundry computes it for `attributes.ac.calc`.
fn read_ac(ctx: &Ctx, attributes: &Value, attr_path: &str) -> Result<Option<i64>, ImportError> {
    let Some(ac) = object(attributes, "ac", attr_path)? else {
        return Ok(Some(armour_ac(ctx)));
    };
    let ac_path = child(attr_path, "ac");
    let flat = opt_whole(ac, "flat", &ac_path, "armor class")?;
    let value = opt_whole(ac, "value", &ac_path, "armor class")?;
    for (key, n) in [("flat", flat), ("value", value)] {
        if let Some(n) = n.filter(|n| !(0..=100).contains(n)) {
            return Err(ImportError::at(
                child(&ac_path, key),
                format!("armor class {n} is outside 0 to 100"),
            ));
        }
    }
    let dex = ctx.modifier(1);
    let computed = match str_at(ac, &["calc"]) {
        "flat" | "natural" => flat.or(value),
        "default" => value.or(Some(armour_ac(ctx))),
        "mage" | "draconic" => Some(13 + dex),
        "unarmoredMonk" => Some(10 + dex + ctx.modifier(4)),
        "unarmoredBarb" => Some(10 + dex + ctx.modifier(2)),
        "unarmoredBard" => Some(10 + dex + ctx.modifier(5)),
        "custom" => ctx
            .constant(str_at(ac, &["formula"]), dex)
            .filter(|_| !str_at(ac, &["formula"]).is_empty())
            .or(flat)
            .or(value),
        _ => flat.or(value),
    };
    Ok(Some(computed.unwrap_or_else(|| armour_ac(ctx))))
}

/// 10 + Dex, or the equipped armour (its Dex cap) plus a shield.
fn armour_ac(ctx: &Ctx) -> i64 {
    let dex = ctx.modifier(1);
    let mut base = 10 + dex;
    let mut shield = 0;
    for item in ctx.items {
        let sys = item.get("system").unwrap_or(&NULL);
        if item.get("type").and_then(Value::as_str) != Some("equipment")
            || at(sys, &["equipped"]).and_then(Value::as_bool) != Some(true)
        {
            continue;
        }
        let Some(value) = whole(at(sys, &["armor", "value"])) else {
            continue;
        };
        let magic = if has_property(sys, "mgc") {
            whole(at(sys, &["armor", "magicalBonus"])).unwrap_or(0)
        } else {
            0
        };
        let cap = whole(at(sys, &["armor", "dex"]));
        match str_at(sys, &["type", "value"]) {
            "shield" => shield = value + magic,
            "light" | "natural" => base = value + magic + cap.map_or(dex, |c| dex.min(c)),
            "medium" => base = value + magic + dex.min(cap.unwrap_or(2)),
            "heavy" => base = value + magic + cap.map_or(0, |c| dex.min(c)),
            _ => {}
        }
    }
    base + shield
}

/// `attributes.movement`.
fn read_speed(attributes: &Value, attr_path: &str) -> Result<Speed, ImportError> {
    let Some(m) = object(attributes, "movement", attr_path)? else {
        return Ok(Speed::default());
    };
    let m_path = child(attr_path, "movement");
    let mut speed = Speed::default();
    for (key, slot) in [
        ("walk", &mut speed.walk),
        ("fly", &mut speed.fly),
        ("swim", &mut speed.swim),
        ("climb", &mut speed.climb),
        ("burrow", &mut speed.burrow),
    ] {
        let n = opt_whole(m, key, &m_path, "a speed")?.unwrap_or(0);
        if !(0..=10_000).contains(&n) {
            return Err(ImportError::at(
                child(&m_path, key),
                format!("the speed {n} is outside 0 to 10000 feet"),
            ));
        }
        *slot = n;
    }
    speed.hover = match m.get("hover") {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s.trim().eq_ignore_ascii_case("true"),
        _ => false,
    };
    Ok(speed)
}

/// Saving throw bonuses: proficient ones, and those with a numeric bonus.
fn read_saves(ctx: &Ctx) -> [Option<i64>; 6] {
    let mut saves = [None; 6];
    let global = ctx
        .constant(str_at(ctx.system, &["bonuses", "abilities", "save"]), 0)
        .unwrap_or(0);
    for (i, key) in ABILITIES.iter().enumerate() {
        let a = at(ctx.system, &["abilities", key]).unwrap_or(&NULL);
        let mult = number(a.get("proficient")).unwrap_or(0.0).clamp(0.0, 2.0);
        let m = ctx.modifier(i);
        let bonus = ctx
            .constant(str_at(a, &["bonuses", "save"]), m)
            .unwrap_or(0)
            + global;
        if mult > 0.0 || bonus != 0 {
            saves[i] = Some(m + (mult * ctx.prof as f64).floor() as i64 + bonus);
        }
    }
    saves
}

/// The initiative bonus, where `init.bonus` or `init.ability` states one.
fn read_initiative(ctx: &Ctx, attributes: &Value, notes: &mut Vec<String>) -> Option<i64> {
    let ability = ability_index(str_at(attributes, &["init", "ability"]));
    let m = ctx.modifier(ability.unwrap_or(1));
    let bonus = match at(attributes, &["init", "bonus"]) {
        Some(n @ Value::Number(_)) => whole(Some(n)),
        Some(Value::String(s)) if !s.trim().is_empty() => {
            let b = ctx.constant(s, m);
            if b.is_none() {
                notes.push(format!("Initiative bonus: {}", s.trim()));
            }
            b
        }
        _ => None,
    };
    match (bonus, ability) {
        (Some(b), _) if b != 0 => Some(m + b),
        (_, Some(_)) => Some(m),
        _ => None,
    }
}

/// Damage resistances, immunities, vulnerabilities and condition immunities.
fn read_traits(traits: &Value, path: &str, block: &mut Statblock) -> Result<(), ImportError> {
    for (key, label, custom_label) in [
        ("dr", "Resistance", "Damage resistances"),
        ("di", "Immunity", "Damage immunities"),
        ("dv", "Vulnerability", "Damage vulnerabilities"),
        ("ci", "", "Condition immunities"),
    ] {
        let Some(t) = object(traits, key, path)? else {
            continue;
        };
        let values: Vec<String> = list_at(t, &["value"])
            .iter()
            .filter_map(Value::as_str)
            .map(|s| s.trim().to_lowercase())
            .filter(|s| !s.is_empty())
            .collect();
        let custom = str_at(t, &["custom"]);
        if !custom.is_empty() {
            block.not_modelled.push(format!("{custom_label}: {custom}"));
        }
        if key == "ci" {
            block.condition_immune.extend(values);
            continue;
        }
        let bypasses: Vec<&str> = list_at(t, &["bypasses"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let physical: Vec<&str> = values
            .iter()
            .map(String::as_str)
            .filter(|v| ["bludgeoning", "piercing", "slashing"].contains(v))
            .collect();
        if !bypasses.is_empty() && !physical.is_empty() {
            let mut qual = if bypasses.contains(&"mgc") {
                "nonmagical attacks".to_string()
            } else {
                "attacks".to_string()
            };
            let metals: Vec<&str> = [("ada", "adamantine"), ("sil", "silvered")]
                .iter()
                .filter(|(k, _)| bypasses.contains(k))
                .map(|(_, w)| *w)
                .collect();
            if !metals.is_empty() {
                qual.push_str(&format!(" that aren't {}", metals.join(" or ")));
            }
            block.not_modelled.push(format!(
                "{label} to {}: only from {qual}",
                physical.join(", ")
            ));
        }
        match key {
            "dr" => block.resistant.extend(values),
            "di" => block.immune.extend(values),
            _ => block.vulnerable.extend(values),
        }
    }
    if let Some(amounts) = at(traits, &["dm", "amount"]).and_then(Value::as_object) {
        for (kind, amount) in amounts {
            let a = match amount {
                Value::String(s) => s.trim().to_string(),
                other => other.to_string(),
            };
            if !a.is_empty() {
                block
                    .not_modelled
                    .push(format!("Damage from {kind} is changed by {a}"));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Items and activities
// ---------------------------------------------------------------------------

/// What an activity does, in the order an item's main one is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// An attack roll.
    Attack,
    /// A saving throw.
    Save,
    /// Damage with no roll.
    Damage,
    /// Healing.
    Heal,
    /// Casting a spell.
    Cast,
    /// Anything else with an activation.
    Utility,
    /// A type this reader does not know.
    Other,
}

/// One activity: a 4.x/5.x `system.activities` entry, or for a 3.x item
/// its `system` itself.
struct Act<'a> {
    /// `_id` (or its key).
    id: String,
    /// What it does.
    kind: Kind,
    /// The activity (4.x+) or the item's `system` (3.x).
    v: &'a Value,
    /// Whether `v` is a 3.x item's `system`.
    legacy: bool,
    /// Whether it has a name of its own (a second "Attack with Advantage").
    named: bool,
    /// Its `sort`.
    sort: i64,
}

impl Act<'_> {
    /// `activation.type`.
    fn activation(&self) -> &str {
        str_at(self.v, &["activation", "type"])
    }

    /// The legendary action cost (`activation.value`, 3.x `cost`).
    fn cost(&self) -> Option<i64> {
        let key = if self.legacy { "cost" } else { "value" };
        whole(at(self.v, &["activation", key]))
    }
}

/// One item of the actor, with its activities.
struct Item<'a> {
    /// The item object.
    v: &'a Value,
    /// Its `system`.
    sys: &'a Value,
    /// Its name.
    name: String,
    /// Its `type`.
    kind: &'a str,
    /// Its activities.
    acts: Vec<Act<'a>>,
}

impl<'a> Item<'a> {
    /// Reads an item object.
    fn new(v: &'a Value) -> Item<'a> {
        let sys = v.get("system").filter(|s| s.is_object()).unwrap_or(&NULL);
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        let name = match access::opt_str(v, "name") {
            Some(n) => n.trim().to_string(),
            None => format!("Unnamed {}", if kind.is_empty() { "item" } else { kind }),
        };
        let acts = match sys.get("activities") {
            Some(Value::Object(map)) => map.iter().filter_map(|(k, a)| modern_act(k, a)).collect(),
            Some(Value::Array(list)) => list.iter().filter_map(|a| modern_act("", a)).collect(),
            Some(_) => Vec::new(),
            None => legacy_act(sys).into_iter().collect(),
        };
        Item {
            v,
            sys,
            name,
            kind,
            acts,
        }
    }

    /// The activity the statblock line is about: attacks before saves
    /// before the rest, an unnamed one before a named variant.
    fn primary(&self) -> Option<&Act<'a>> {
        self.acts.iter().min_by_key(|a| (a.kind, a.named, a.sort))
    }

    /// The activity `id`, else the first of `kinds`.
    fn act(&self, id: Option<&str>, kinds: &[Kind]) -> Option<&Act<'a>> {
        if let Some(id) = id {
            if let Some(a) = self.acts.iter().find(|a| a.id == id) {
                return Some(a);
            }
        }
        kinds.iter().find_map(|k| {
            self.acts
                .iter()
                .filter(|a| a.kind == *k)
                .min_by_key(|a| (a.named, a.sort))
        })
    }

    /// Whether a 2024 cast activity created it (`flags.dnd5e.cachedFor`).
    fn cached(&self) -> bool {
        at(self.v, &["flags", "dnd5e", "cachedFor"]).is_some()
    }

    /// Whether this is a weapon.
    fn weapon(&self) -> bool {
        self.kind == "weapon"
    }

    /// Its description HTML as text (paragraphs on lines), enrichers kept.
    fn description(&self) -> String {
        html_to_text(str_at(self.sys, &["description", "value"]))
    }

    /// Its identifier, or its name, in lower case.
    fn key(&self) -> String {
        match str_at(self.sys, &["identifier"]) {
            "" => self.name.to_lowercase(),
            id => id.replace('-', " "),
        }
    }
}

/// A 4.x/5.x activity.
fn modern_act<'a>(key: &str, a: &'a Value) -> Option<Act<'a>> {
    a.as_object()?;
    let kind = match str_at(a, &["type"]) {
        "attack" => Kind::Attack,
        "save" => Kind::Save,
        "damage" => Kind::Damage,
        "heal" => Kind::Heal,
        "cast" => Kind::Cast,
        "utility" => Kind::Utility,
        _ => Kind::Other,
    };
    let id = match str_at(a, &["_id"]) {
        "" => key.to_string(),
        id => id.to_string(),
    };
    Some(Act {
        id,
        kind,
        v: a,
        legacy: false,
        named: !str_at(a, &["name"]).is_empty(),
        sort: whole(a.get("sort")).unwrap_or(0),
    })
}

/// A 3.x item's one implied activity, if it has an action type or an
/// activation.
fn legacy_act(sys: &Value) -> Option<Act<'_>> {
    let action = str_at(sys, &["actionType"]);
    let has_damage = !list_at(sys, &["damage", "parts"]).is_empty();
    let kind = match action {
        "mwak" | "rwak" | "msak" | "rsak" => Kind::Attack,
        "save" => Kind::Save,
        "heal" => Kind::Heal,
        _ if has_damage => Kind::Damage,
        "" if str_at(sys, &["activation", "type"]).is_empty() => return None,
        _ => Kind::Utility,
    };
    Some(Act {
        id: String::new(),
        kind,
        v: sys,
        legacy: true,
        named: false,
        sort: 0,
    })
}

/// A damage part: its dice and its types.
#[derive(Clone, Debug, PartialEq)]
struct Part {
    /// The dice.
    dice: Dice,
    /// Lower-case damage types.
    types: Vec<String>,
}

impl Part {
    /// `10 (1d10 + 5) Piercing` (no "damage").
    fn printed(&self) -> String {
        let types: Vec<String> = self.types.iter().map(|t| title(t)).collect();
        let types = types.join(" or ");
        if types.is_empty() {
            self.dice.printed()
        } else {
            format!("{} {types}", self.dice.printed())
        }
    }
}

/// `A (f) T1 damage plus B (f) T2` — the words before a final "damage".
fn parts_before_damage(parts: &[Part]) -> String {
    parts
        .iter()
        .map(Part::printed)
        .collect::<Vec<_>>()
        .join(" damage plus ")
}

/// `A (f) T1 damage plus B (f) T2 damage`.
fn parts_text(parts: &[Part]) -> String {
    format!("{} damage", parts_before_damage(parts))
}

/// A damage part of either schema: a 4.x `{number, denomination, bonus,
/// types, custom}` object or a 3.x `[formula, type]` pair.
fn read_part(ctx: &Ctx, p: &Value, m: i64) -> Result<Part, String> {
    let (formula, types) = match p {
        Value::Array(pair) => {
            let f = pair
                .first()
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let t: Vec<String> = pair
                .get(1)
                .and_then(Value::as_str)
                .map(|s| s.trim().to_lowercase())
                .filter(|s| !s.is_empty())
                .into_iter()
                .collect();
            (f, t)
        }
        Value::Object(_) => {
            let types = list_at(p, &["types"])
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.trim().to_lowercase())
                .collect();
            (damage_formula(p), types)
        }
        _ => return Err("a damage part is neither a list nor an object".to_string()),
    };
    let dice = ctx.dice(&formula, m).ok_or_else(|| {
        format!(
            "the damage `{}` is not a plain dice expression",
            formula.trim()
        )
    })?;
    Ok(Part { dice, types })
}

/// The formula of a 4.x damage object.
fn damage_formula(p: &Value) -> String {
    if at(p, &["custom", "enabled"]).and_then(Value::as_bool) == Some(true) {
        return str_at(p, &["custom", "formula"]).to_string();
    }
    let number = whole(p.get("number")).unwrap_or(0);
    let die = whole(p.get("denomination")).unwrap_or(0);
    let bonus = str_at(p, &["bonus"]);
    let mut f = if number > 0 && die > 0 {
        format!("{number}d{die}")
    } else {
        String::new()
    };
    if !bonus.is_empty() {
        f = if f.is_empty() {
            bonus.to_string()
        } else {
            format!("{f} + {bonus}")
        };
    }
    f
}

/// An attack's numbers.
#[derive(Clone, Debug, PartialEq)]
struct Attack {
    /// Whether it can be a melee attack.
    melee: bool,
    /// Whether it can be a ranged attack.
    ranged: bool,
    /// The attack bonus.
    to_hit: i64,
    /// Reach in feet.
    reach: i64,
    /// Normal and long range in feet.
    range: Option<(i64, Option<i64>)>,
    /// Damage on a hit.
    parts: Vec<Part>,
}

impl Attack {
    /// `Melee Attack Roll: +7, reach 5 ft` (no final period).
    fn roll(&self) -> String {
        let kind = match (self.melee, self.ranged) {
            (true, true) => "Melee or Ranged",
            (false, true) => "Ranged",
            _ => "Melee",
        };
        let reach = format!("reach {} ft", self.reach);
        let range = self.range.map(|(n, long)| match long {
            Some(l) if l > n => format!("range {n}/{l} ft"),
            _ => format!("range {n} ft"),
        });
        let place = match (self.melee, self.ranged, range) {
            (true, true, Some(r)) => format!("{reach}. or {r}"),
            (false, true, Some(r)) => r,
            (false, true, None) => String::new(),
            _ => reach,
        };
        if place.is_empty() {
            format!("{kind} Attack Roll: {:+}", self.to_hit)
        } else {
            format!("{kind} Attack Roll: {:+}, {place}", self.to_hit)
        }
    }

    /// The line without its final period: roll, then `Hit: ...`.
    fn head(&self) -> String {
        if self.parts.is_empty() {
            self.roll()
        } else {
            format!("{}. Hit: {}", self.roll(), parts_text(&self.parts))
        }
    }
}

/// The weapon type's attack type: "melee", "ranged", or None (natural,
/// improvised).
fn weapon_attack_type(sys: &Value) -> Option<&'static str> {
    match str_at(sys, &["type", "value"]) {
        "simpleM" | "martialM" => Some("melee"),
        "simpleR" | "martialR" | "siege" => Some("ranged"),
        _ => None,
    }
}

/// The better of Strength and Dexterity.
fn finesse(ctx: &Ctx) -> usize {
    if ctx.modifier(1) > ctx.modifier(0) {
        1
    } else {
        0
    }
}

/// An attack activity's numbers, or why they cannot be read.
fn attack(ctx: &Ctx, item: &Item, act: &Act) -> Result<Attack, String> {
    let sys = item.sys;
    let natural = str_at(sys, &["type", "value"]) == "natural";
    let thrown = has_property(sys, "thr");
    let (melee, ranged, spell, ability) = if act.legacy {
        let action = str_at(sys, &["actionType"]);
        let melee = action.starts_with('m');
        let spell = action.ends_with("sak");
        let ability = match str_at(sys, &["ability"]) {
            "none" => None,
            "spellcasting" => ctx.spell_ability,
            "" => Some(if has_property(sys, "fin") {
                finesse(ctx)
            } else if spell {
                ctx.spell_ability.unwrap_or(3)
            } else if melee {
                0
            } else {
                1
            }),
            a => ability_index(a),
        };
        (melee, !melee || thrown, spell, ability)
    } else {
        let t = str_at(act.v, &["attack", "type", "value"]);
        let class = match str_at(act.v, &["attack", "type", "classification"]) {
            "" if item.kind == "spell" => "spell",
            "" => "weapon",
            c => c,
        };
        let spell = class == "spell";
        let range_value = whole(at(sys, &["range", "value"])).unwrap_or(0);
        let (melee, ranged) = match t {
            "melee" => (true, false),
            "ranged" => (false, true),
            _ if item.weapon() => {
                let at_ = weapon_attack_type(sys);
                (
                    at_ != Some("ranged"),
                    at_ == Some("ranged") || thrown || (at_.is_none() && range_value > 0),
                )
            }
            _ => (true, false),
        };
        let ability = match str_at(act.v, &["attack", "ability"]) {
            "none" => None,
            "spellcasting" => ctx.spell_ability,
            "" => Some(
                if item.weapon() && !spell && (natural || has_property(sys, "fin")) {
                    finesse(ctx)
                } else if spell {
                    ctx.spell_ability.unwrap_or(3)
                } else if melee && !(item.weapon() && weapon_attack_type(sys) == Some("ranged")) {
                    0
                } else {
                    1
                },
            ),
            a => ability_index(a),
        };
        (melee, ranged, spell, ability)
    };
    let m = ability.map_or(0, |i| ctx.modifier(i));
    let flat = if act.legacy {
        at(sys, &["attack", "flat"]).and_then(Value::as_bool) == Some(true)
    } else {
        at(act.v, &["attack", "flat"]).and_then(Value::as_bool) == Some(true)
    };
    let bonus_formula = if act.legacy {
        match str_at(sys, &["attackBonus"]) {
            "" => str_at(sys, &["attack", "bonus"]),
            b => b,
        }
    } else {
        str_at(act.v, &["attack", "bonus"])
    };
    let bonus = ctx.bonus(bonus_formula, m)?;
    let magic = if has_property(sys, "mgc") {
        ctx.constant(str_at(sys, &["magicalBonus"]), m).unwrap_or(0)
    } else {
        0
    };
    let to_hit = if flat {
        bonus
    } else {
        let mult = if item.weapon() && !act.legacy {
            number(sys.get("proficient")).unwrap_or(1.0)
        } else {
            1.0
        };
        let action_key = match (melee, spell) {
            (true, false) => "mwak",
            (false, false) => "rwak",
            (true, true) => "msak",
            (false, true) => "rsak",
        };
        let actor_bonus = ctx
            .constant(str_at(ctx.system, &["bonuses", action_key, "attack"]), m)
            .unwrap_or(0);
        m + (mult * ctx.prof as f64).floor() as i64 + bonus + magic + actor_bonus
    };

    let mut parts = Vec::new();
    if act.legacy {
        for p in list_at(sys, &["damage", "parts"]) {
            parts.push(read_part(ctx, p, m)?);
        }
    } else {
        let include_base =
            at(act.v, &["damage", "includeBase"]).and_then(Value::as_bool) != Some(false);
        let base = at(sys, &["damage", "base"]);
        if let (true, true, Some(base)) = (include_base, item.weapon(), base) {
            let mut f = damage_formula(base);
            if !f.is_empty() {
                let has_dice = ctx.dice(&f, m).is_some_and(|d| !d.groups.is_empty());
                if has_dice && !f.contains("@mod") && !(spell && natural) {
                    f.push_str(" + @mod");
                }
                if magic != 0 {
                    f.push_str(&format!(" + {magic}"));
                }
                let mut part = read_part(ctx, base, m)?;
                part.dice = ctx
                    .dice(&f, m)
                    .ok_or_else(|| format!("the damage `{f}` is not a plain dice expression"))?;
                parts.push(part);
            }
        }
        for p in list_at(act.v, &["damage", "parts"]) {
            parts.push(read_part(ctx, p, m)?);
        }
    }

    let (reach, range) = reach_and_range(item, act, melee, ranged, thrown);
    let ranged = ranged && !(melee && range.is_none());
    Ok(Attack {
        melee,
        ranged,
        to_hit,
        reach,
        range,
        parts,
    })
}

/// Reach, and normal/long range, in feet.
fn reach_and_range(
    item: &Item,
    act: &Act,
    melee: bool,
    ranged: bool,
    thrown: bool,
) -> (i64, Option<(i64, Option<i64>)>) {
    let sys = item.sys;
    let in_feet = |units: &str| matches!(units, "" | "ft");
    let item_value = whole(at(sys, &["range", "value"])).filter(|n| *n > 0);
    let item_long = whole(at(sys, &["range", "long"])).filter(|n| *n > 0);
    let item_units = str_at(sys, &["range", "units"]);
    let reach_default = if has_property(sys, "rch") { 10 } else { 5 };
    if act.legacy {
        let feet = in_feet(item_units);
        if melee && !ranged {
            let reach = item_value.filter(|_| feet).unwrap_or(reach_default);
            return (reach, None);
        }
        // A 3.x thrown weapon's `range.value` of 5 is its reach, not a range.
        let range = item_value
            .filter(|v| !melee || *v > reach_default || item_long.is_some())
            .filter(|_| feet)
            .map(|n| (n, item_long));
        return (reach_default, range);
    }
    if item.weapon() {
        let reach = whole(at(sys, &["range", "reach"]))
            .filter(|n| *n > 0)
            .unwrap_or(reach_default);
        let value = if at(act.v, &["range", "override"]).and_then(Value::as_bool) == Some(true) {
            whole(at(act.v, &["range", "value"])).filter(|n| *n > 0)
        } else {
            item_value
        };
        let range = value.map(|n| (n, item_long));
        return (reach, if ranged || thrown { range } else { None });
    }
    let value = whole(at(act.v, &["range", "value"]))
        .filter(|n| *n > 0)
        .filter(|_| in_feet(str_at(act.v, &["range", "units"])))
        .or(item_value);
    if melee && !ranged {
        (value.unwrap_or(5), None)
    } else {
        (5, value.map(|n| (n, item_long)))
    }
}

/// A saving throw's numbers.
#[derive(Clone, Debug, PartialEq)]
struct Save {
    /// The abilities it may be made with.
    abilities: Vec<usize>,
    /// Its DC.
    dc: i64,
    /// Damage on a failure.
    parts: Vec<Part>,
    /// "half", "none" or "full".
    on_save: String,
    /// Who it affects: "each creature in a 60-foot Cone".
    area: String,
}

impl Save {
    /// `Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone.`
    fn head(&self) -> String {
        let names: Vec<&str> = self.abilities.iter().map(|i| ABILITY_NAMES[*i]).collect();
        format!(
            "{} Saving Throw: DC {}, {}.",
            names.join(" or "),
            self.dc,
            self.area
        )
    }
}

/// A save activity's numbers, or why they cannot be read.
fn save(ctx: &Ctx, item: &Item, act: &Act) -> Result<Save, String> {
    let (abilities, dc, calc_ability) = if act.legacy {
        let abilities: Vec<usize> = ability_index(str_at(act.v, &["save", "ability"]))
            .into_iter()
            .collect();
        let explicit = whole(at(act.v, &["save", "dc"]));
        let scaling = str_at(act.v, &["save", "scaling"]);
        let (dc, calc) = match scaling {
            "spell" => (Some(ctx.spell_dc()), ctx.spell_ability),
            "flat" | "" => (explicit, None),
            a => match ability_index(a) {
                Some(i) => (Some(ctx.ability_dc(i)), Some(i)),
                None => (explicit, None),
            },
        };
        (
            abilities,
            dc,
            calc.or(ability_index(str_at(act.v, &["ability"]))),
        )
    } else {
        let abilities: Vec<usize> = match at(act.v, &["save", "ability"]) {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(Value::as_str)
                .filter_map(ability_index)
                .collect(),
            Some(Value::String(s)) => ability_index(s).into_iter().collect(),
            _ => Vec::new(),
        };
        let calc = match str_at(act.v, &["save", "dc", "calculation"]) {
            "initial" if item.kind == "spell" => "spellcasting",
            "initial" => "",
            c => c,
        };
        let formula = str_at(act.v, &["save", "dc", "formula"]);
        match calc {
            "spellcasting" => (abilities, Some(ctx.spell_dc()), ctx.spell_ability),
            "" => {
                let dc = ctx
                    .constant(formula, 0)
                    .filter(|_| !formula.is_empty())
                    .ok_or_else(|| format!("the save DC `{formula}` is not a plain number"))?;
                (abilities, Some(dc), None)
            }
            a => match ability_index(a) {
                Some(i) => (abilities, Some(ctx.ability_dc(i)), Some(i)),
                None => return Err(format!("the save DC calculation `{a}` is unknown")),
            },
        }
    };
    if abilities.is_empty() {
        return Err("the saving throw names no ability".to_string());
    }
    let dc = dc.ok_or("the saving throw has no DC")?;
    if !(0..=100).contains(&dc) {
        return Err(format!("the save DC {dc} is outside 0 to 100"));
    }
    let m = calc_ability
        .or(abilities.first().copied())
        .map_or(0, |i| ctx.modifier(i));
    let parts = list_at(act.v, &["damage", "parts"])
        .iter()
        .map(|p| read_part(ctx, p, m))
        .collect::<Result<Vec<_>, _>>()?;
    let on_save = if act.legacy {
        let desc = str_at(item.sys, &["description", "value"]).to_ascii_lowercase();
        if desc.is_empty()
            || ["half as much", "half damage", "half the damage"]
                .iter()
                .any(|h| desc.contains(h))
        {
            "half"
        } else {
            "none"
        }
    } else {
        match str_at(act.v, &["damage", "onSave"]) {
            "" => "half",
            s => s,
        }
    }
    .to_string();
    Ok(Save {
        abilities,
        dc,
        parts,
        on_save,
        area: area_words(act),
    })
}

/// The words for whom an activity affects: "each creature in a 60-foot
/// Cone", "one creature within 120 feet".
fn area_words(act: &Act) -> String {
    let v = act.v;
    let area_types = [
        "cone", "cube", "cylinder", "line", "radius", "sphere", "square", "wall", "circle",
    ];
    let (shape, size, width, height, who, count) = if act.legacy {
        let t = str_at(v, &["target", "type"]);
        if area_types.contains(&t) {
            (
                t,
                whole(at(v, &["target", "value"])),
                whole(at(v, &["target", "width"])),
                None,
                "creature",
                None,
            )
        } else {
            ("", None, None, None, t, whole(at(v, &["target", "value"])))
        }
    } else {
        (
            str_at(v, &["target", "template", "type"]),
            whole(at(v, &["target", "template", "size"])),
            whole(at(v, &["target", "template", "width"])),
            whole(at(v, &["target", "template", "height"])),
            str_at(v, &["target", "affects", "type"]),
            whole(at(v, &["target", "affects", "count"])),
        )
    };
    let (one, many) = target_words(who);
    if let (true, Some(size)) = (area_types.contains(&shape), size.filter(|s| *s > 0)) {
        let place = match shape {
            "line" => format!("{size}-foot-long, {}-foot-wide Line", width.unwrap_or(5)),
            "sphere" => format!("{size}-foot-radius Sphere"),
            "circle" => format!("{size}-foot-radius Circle"),
            "radius" => format!("{size}-foot Emanation"),
            "cylinder" => match height {
                Some(h) => format!("{size}-foot-radius, {h}-foot-high Cylinder"),
                None => format!("{size}-foot-radius Cylinder"),
            },
            s => format!("{size}-foot {}", capitalize(s)),
        };
        return format!("each {one} in a {place}");
    }
    let whom = match count {
        Some(1) => format!("one {one}"),
        Some(n) if n > 1 => format!("up to {n} {many}"),
        _ => format!("each {one}"),
    };
    let range = whole(at(v, &["range", "value"])).filter(|n| *n > 0);
    match (range, str_at(v, &["range", "units"])) {
        (Some(r), "" | "ft") => format!("{whom} within {r} feet"),
        _ => whom,
    }
}

/// Singular and plural words for a Foundry target type.
fn target_words(t: &str) -> (&'static str, &'static str) {
    match t {
        "ally" => ("ally", "allies"),
        "enemy" => ("enemy", "enemies"),
        "object" => ("object", "objects"),
        "space" => ("space", "spaces"),
        "creatureOrObject" => ("creature or object", "creatures or objects"),
        "any" => ("target", "targets"),
        "willing" => ("willing creature", "willing creatures"),
        _ => ("creature", "creatures"),
    }
}

/// The recharge number: 3.x `recharge.value`, 4.x a `recharge` recovery.
fn recharge(ctx: &Ctx, item: &Item, act: Option<&Act>) -> Option<i64> {
    if let Some(n) = whole(at(item.sys, &["recharge", "value"])) {
        return (2..=6).contains(&n).then_some(n);
    }
    let mut recoveries: Vec<&Value> = list_at(item.sys, &["uses", "recovery"]).iter().collect();
    if let Some(a) = act.filter(|a| !a.legacy) {
        recoveries.extend(list_at(a.v, &["uses", "recovery"]));
    }
    recoveries
        .into_iter()
        .find(|r| str_at(r, &["period"]) == "recharge")
        .map(|r| match str_at(r, &["formula"]) {
            "" => 6,
            f => ctx.constant(f, 0).unwrap_or(6),
        })
        .filter(|n| (2..=6).contains(n))
}

/// Uses a day: (count, period) from `uses.max` and its recovery period
/// (4.x) or `uses.per` (3.x).
fn uses_per(ctx: &Ctx, uses: &Value) -> Option<(i64, &'static str)> {
    let max = match at(uses, &["max"]) {
        Some(Value::Number(n)) => n.as_f64().map(|f| f.floor() as i64),
        Some(Value::String(s)) if !s.trim().is_empty() => ctx.constant(s, 0),
        _ => None,
    }
    .filter(|n| (1..=100).contains(n))?;
    let period = match str_at(uses, &["per"]) {
        "" => list_at(uses, &["recovery"])
            .iter()
            .map(|r| str_at(r, &["period"]))
            .find(|p| !p.is_empty())
            .unwrap_or(""),
        p => p,
    };
    match period {
        "day" | "dawn" | "dusk" | "lr" => Some((max, "day")),
        "sr" => Some((max, "sr")),
        _ => None,
    }
}

/// The words a statblock adds after an item's name.
fn name_suffix(ctx: &Ctx, item: &Item, act: Option<&Act>) -> String {
    let lower = item.name.to_lowercase();
    let mut s = String::new();
    if let Some(n) = recharge(ctx, item, act) {
        if !lower.contains("recharge") {
            s.push_str(&if n < 6 {
                format!(" (Recharge {n}–6)")
            } else {
                " (Recharge 6)".to_string()
            });
        }
    } else if !lower.contains("/day") && !lower.contains("recharges") {
        match uses_per(ctx, at(item.sys, &["uses"]).unwrap_or(&NULL)) {
            Some((n, "day")) => s.push_str(&format!(" ({n}/Day)")),
            Some(_) => s.push_str(" (Recharges after a Short or Long Rest)"),
            None => {}
        }
    }
    if let Some(a) = act {
        match a.activation() {
            "legendary" => {
                if let Some(c) = a.cost().filter(|c| *c > 1) {
                    if !lower.contains("costs") {
                        s.push_str(&format!(" (Costs {c} Actions)"));
                    }
                }
            }
            "mythic" => s.push_str(" (Mythic Action)"),
            "lair" => s.push_str(" (Lair Action)"),
            _ => {}
        }
    }
    s
}

/// The section an activation type puts an item in.
fn section_of(item: &Item, act: Option<&Act>) -> Section {
    let activation = match act {
        Some(a) => a.activation(),
        None => str_at(item.sys, &["activation", "type"]),
    };
    match activation {
        "action" => Section::Action,
        "bonus" => Section::Bonus,
        "reaction" | "reactiondamage" | "reactionmanual" => Section::Reaction,
        "legendary" => Section::Legendary,
        _ if item.key() == "multiattack" => Section::Action,
        _ => Section::Trait,
    }
}

// ---------------------------------------------------------------------------
// Description text: HTML and enrichers
// ---------------------------------------------------------------------------

/// HTML as plain text: tags gone (block tags as line breaks), entities
/// decoded, spaces collapsed. Where the HTML has `<section class="secret">`
/// (3.x: the GM's statblock text), only those sections are read.
fn html_to_text(html: &str) -> String {
    let secret = secret_sections(html);
    let html = if secret.is_empty() {
        html.to_string()
    } else {
        secret.join("<p>")
    };
    let mut out = String::new();
    let mut rest = html.as_str();
    while let Some(open) = rest.find('<') {
        push_spaced(&mut out, &rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            push_spaced(&mut out, &rest[open..]);
            rest = "";
            break;
        };
        let tag = rest[open + 1..open + close]
            .trim_start_matches('/')
            .to_ascii_lowercase();
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if [
            "p",
            "div",
            "br",
            "li",
            "ul",
            "ol",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "section",
            "tr",
            "table",
            "blockquote",
            "hr",
            "dd",
            "dt",
        ]
        .contains(&name.as_str())
        {
            out.push('\n');
        }
        rest = &rest[open + close + 1..];
    }
    push_spaced(&mut out, rest);
    let decoded = decode_entities(&out);
    decoded
        .split('\n')
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Pushes text with its line breaks as spaces (HTML whitespace).
fn push_spaced(out: &mut String, s: &str) {
    out.extend(s.chars().map(|c| if c.is_whitespace() { ' ' } else { c }));
}

/// The inner HTML of each `<section class="secret">`.
fn secret_sections(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(rel) = lower[from..].find("<section") {
        let start = from + rel;
        let Some(tag_end) = lower[start..].find('>').map(|e| start + e + 1) else {
            break;
        };
        if !lower[start..tag_end].contains("secret") {
            from = tag_end;
            continue;
        }
        let mut depth = 1;
        let mut pos = tag_end;
        let mut end = lower.len();
        while depth > 0 {
            let next_open = lower[pos..].find("<section").map(|p| p + pos);
            let Some(next_close) = lower[pos..].find("</section").map(|p| p + pos) else {
                break;
            };
            match next_open {
                Some(o) if o < next_close => {
                    depth += 1;
                    pos = o + 8;
                }
                _ => {
                    depth -= 1;
                    pos = next_close + 9;
                    end = next_close;
                }
            }
        }
        found.push(html[tag_end..end.max(tag_end)].to_string());
        from = pos.max(tag_end);
    }
    found
}

/// HTML character references.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest
            .char_indices()
            .take_while(|(i, _)| *i < 12)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                "nbsp" => ' ',
                "ndash" => '–',
                "mdash" => '—',
                "minus" => '−',
                "rsquo" => '’',
                "lsquo" => '‘',
                "ldquo" => '“',
                "rdquo" => '”',
                "hellip" => '…',
                "times" => '×',
                _ => {
                    let code = if let Some(hex) =
                        name.strip_prefix("#x").or_else(|| name.strip_prefix("#X"))
                    {
                        u32::from_str_radix(hex, 16).ok()
                    } else {
                        name.strip_prefix('#').and_then(|d| d.parse().ok())
                    };
                    char::from_u32(code?)?
                }
            };
            Some((c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(if c == '\u{a0}' { ' ' } else { c });
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A piece of description text.
#[derive(Clone, Debug, PartialEq)]
enum Seg<'t> {
    /// Plain words.
    Text(&'t str),
    /// `[[...]]`: its inside and `{label}`.
    Roll(&'t str, Option<&'t str>),
    /// `@UUID[...]{label}` and the like: its kind, inside and label.
    Link(&'t str, &'t str, Option<&'t str>),
    /// `&Reference[...]{label}`.
    Reference(&'t str, Option<&'t str>),
}

/// The end of a bracketed part opened just before `from`.
fn matching(s: &str, from: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in s[from..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(from + i);
            }
        }
    }
    None
}

/// A `{label}` at `pos`, and the index after it.
fn label_at(s: &str, pos: usize) -> (Option<&str>, usize) {
    if s[pos..].starts_with('{') {
        if let Some(end) = matching(s, pos + 1, '{', '}') {
            return (Some(&s[pos + 1..end]), end + 1);
        }
    }
    (None, pos)
}

/// The enricher starting at `i`, if one does: it and the index after it.
fn enricher_at(s: &str, i: usize) -> Option<(Seg<'_>, usize)> {
    let rest = &s[i..];
    if rest.starts_with("[[") {
        let mut close = i + 2 + rest[2..].find("]]")?;
        while s[close + 2..].starts_with(']') {
            close += 1;
        }
        let (label, end) = label_at(s, close + 2);
        return Some((Seg::Roll(&s[i + 2..close], label), end));
    }
    if rest.starts_with("&Reference[") {
        let close = matching(s, i + 11, '[', ']')?;
        let (label, end) = label_at(s, close + 1);
        return Some((Seg::Reference(&s[i + 11..close], label), end));
    }
    if rest.starts_with('@') {
        let name_len = rest[1..].find(|c: char| !c.is_ascii_alphabetic())?;
        let name = &rest[1..1 + name_len];
        if name.is_empty()
            || !name.starts_with(|c: char| c.is_ascii_uppercase())
            || !rest[1 + name_len..].starts_with('[')
        {
            return None;
        }
        let open = i + 1 + name_len + 1;
        let close = matching(s, open, '[', ']')?;
        let (label, end) = label_at(s, close + 1);
        return Some((Seg::Link(name, &s[open..close], label), end));
    }
    None
}

/// Text split into words and enrichers.
fn segments(s: &str) -> Vec<Seg<'_>> {
    let mut out = Vec::new();
    let mut text_start = 0;
    let mut i = 0;
    while i < s.len() {
        if matches!(s.as_bytes()[i], b'[' | b'&' | b'@') {
            if let Some((seg, end)) = enricher_at(s, i) {
                if text_start < i {
                    out.push(Seg::Text(&s[text_start..i]));
                }
                out.push(seg);
                i = end;
                text_start = end;
                continue;
            }
        }
        i += s[i..].chars().next().map_or(1, char::len_utf8);
    }
    if text_start < s.len() {
        out.push(Seg::Text(&s[text_start..]));
    }
    out
}

/// An enricher's words: bare ones, and `key=value` ones.
fn options(body: &str) -> (Vec<&str>, BTreeMap<String, &str>) {
    let mut bare = Vec::new();
    let mut keyed = BTreeMap::new();
    for tok in body.split_whitespace() {
        match tok.split_once('=') {
            Some((k, v)) => {
                keyed.insert(k.to_ascii_lowercase(), v.trim_matches(['"', '\'']));
            }
            None => bare.push(tok),
        }
    }
    (bare, keyed)
}

/// Makes enrichers words, for one item (or for the actor).
struct Resolver<'c, 'a> {
    /// The actor.
    ctx: &'c Ctx<'a>,
    /// The item whose description this is.
    item: Option<&'c Item<'a>>,
}

impl Resolver<'_, '_> {
    /// Text with its enrichers made words (paragraph breaks kept).
    fn resolve(&self, text: &str) -> String {
        self.resolve_segs(&segments(text))
    }

    /// Pieces of text with their enrichers made words.
    fn resolve_segs(&self, segs: &[Seg]) -> String {
        segs.iter().map(|s| self.seg(s)).collect()
    }

    /// One piece as words.
    fn seg(&self, seg: &Seg) -> String {
        match seg {
            Seg::Text(t) => (*t).to_string(),
            Seg::Roll(body, label) => self.roll(body, *label),
            Seg::Link(kind, body, label) => match (*kind, label) {
                ("Embed", _) => String::new(),
                (_, Some(l)) => (*l).to_string(),
                _ => self.uuid_name(body),
            },
            Seg::Reference(body, label) => match label {
                Some(l) => (*l).to_string(),
                None => {
                    let first = body.split_whitespace().next().unwrap_or("");
                    let word = first.split_once('=').map_or(first, |(_, v)| v);
                    capitalize(word)
                }
            },
        }
    }

    /// The name of the document a UUID points to, where the actor holds it.
    fn uuid_name(&self, uuid: &str) -> String {
        let uuid = uuid.trim();
        for item in self.ctx.items {
            let source = at(item, &["_stats", "compendiumSource"])
                .or_else(|| at(item, &["flags", "core", "sourceId"]))
                .and_then(Value::as_str);
            let id = item.get("_id").and_then(Value::as_str).unwrap_or("");
            if source == Some(uuid) || (!id.is_empty() && uuid.ends_with(&format!(".Item.{id}"))) {
                if let Some(n) = access::opt_str(item, "name") {
                    return n.to_string();
                }
            }
        }
        uuid.rsplit('.').next().unwrap_or("").to_string()
    }

    /// A `[[...]]` enricher as words.
    fn roll(&self, body: &str, label: Option<&str>) -> String {
        let body = body.trim();
        if let Some(rest) = body.strip_prefix("lookup ") {
            return self.lookup(rest, label);
        }
        let Some(cmd_line) = body.strip_prefix('/') else {
            return body.split('#').next().unwrap_or("").trim().to_string();
        };
        let (cmd, args) = cmd_line
            .split_once(char::is_whitespace)
            .unwrap_or((cmd_line, ""));
        match cmd.to_ascii_lowercase().as_str() {
            "attack" => self.attack_enricher(args),
            "damage" | "dmg" => self.damage_enricher(args),
            "save" => self.save_enricher(args),
            "check" | "skill" | "tool" => check_enricher(self.ctx, args),
            "item" => label.map_or_else(|| self.item_enricher(args), str::to_string),
            "r" | "roll" | "pr" | "publicroll" | "gmr" | "gmroll" | "br" | "blindroll" | "sr"
            | "selfroll" => args.split('#').next().unwrap_or("").trim().to_string(),
            "award" => args.trim().to_string(),
            "heal" | "healing" => self.heal_enricher(args),
            _ => label.unwrap_or("").to_string(),
        }
    }

    /// `[[/attack]]`: "+7", or with `extended` the whole roll line.
    fn attack_enricher(&self, args: &str) -> String {
        let (bare, keyed) = options(args);
        let extended = bare.contains(&"extended") || keyed.get("format") == Some(&"extended");
        let formula: Vec<&str> = bare.iter().copied().filter(|b| *b != "extended").collect();
        if !formula.is_empty() && !extended {
            return formula.join(" ");
        }
        let Some(item) = self.item else {
            return String::new();
        };
        let act = item.act(keyed.get("activity").copied(), &[Kind::Attack]);
        match act.map(|a| attack(self.ctx, item, a)) {
            Some(Ok(a)) if extended => a.roll(),
            Some(Ok(a)) => format!("{:+}", a.to_hit),
            _ => String::new(),
        }
    }

    /// `[[/damage]]`: "63 (18d6) Fire", or with `extended` "Hit: ... damage".
    fn damage_enricher(&self, args: &str) -> String {
        let (bare, keyed) = options(args);
        let extended = bare.contains(&"extended") || keyed.get("format") == Some(&"extended");
        let mut types: Vec<String> = keyed
            .get("type")
            .or(keyed.get("types"))
            .map(|t| {
                t.split(['|', ','])
                    .map(|s| s.trim().to_lowercase())
                    .collect()
            })
            .unwrap_or_default();
        let mut formula = Vec::new();
        for b in &bare {
            let lower = b.to_ascii_lowercase();
            if ["average", "extended", "long", "short"].contains(&lower.as_str()) {
                continue;
            }
            if DAMAGE_TYPES.contains(&lower.as_str()) {
                types.push(lower);
            } else {
                formula.push(*b);
            }
        }
        if let Some(f) = keyed.get("formula") {
            formula.push(*f);
        }
        let parts = if formula.is_empty() {
            let Some(item) = self.item else {
                return String::new();
            };
            let kinds = [Kind::Attack, Kind::Save, Kind::Damage];
            match item.act(keyed.get("activity").copied(), &kinds) {
                Some(a) => act_parts(self.ctx, item, a),
                None => Vec::new(),
            }
        } else {
            let f = formula.join(" ");
            match self.ctx.dice(&f, 0) {
                Some(dice) => vec![Part { dice, types }],
                None => {
                    let t: Vec<String> = types.iter().map(|t| title(t)).collect();
                    return format!("{f} {}", t.join(" or ")).trim().to_string();
                }
            }
        };
        if parts.is_empty() {
            return String::new();
        }
        if extended {
            format!("Hit: {}", parts_text(&parts))
        } else {
            parts_before_damage(&parts)
        }
    }

    /// `[[/save]]`: "DC 21 Dexterity" (with `format=long`, "... saving throw").
    fn save_enricher(&self, args: &str) -> String {
        let (bare, keyed) = options(args);
        let long = bare.contains(&"long") || keyed.get("format") == Some(&"long");
        let mut abilities: Vec<usize> = keyed
            .get("ability")
            .map(|a| a.split(['|', ',']).filter_map(ability_index).collect())
            .unwrap_or_default();
        let mut dc = keyed.get("dc").and_then(|f| self.ctx.constant(f, 0));
        for b in &bare {
            if let Some(i) = ability_index(b) {
                abilities.push(i);
            } else if let Ok(n) = b.parse::<i64>() {
                dc = Some(n);
            }
        }
        if let Some(item) = self.item {
            if let Some(a) = item.act(keyed.get("activity").copied(), &[Kind::Save]) {
                if let Ok(s) = save(self.ctx, item, a) {
                    if abilities.is_empty() {
                        abilities = s.abilities.clone();
                    }
                    if dc.is_none() && abilities == s.abilities {
                        dc = Some(s.dc);
                    }
                }
            }
        }
        let names: Vec<&str> = abilities.iter().map(|i| ABILITY_NAMES[*i]).collect();
        let mut out = names.join(" or ");
        if let Some(dc) = dc {
            out = format!("DC {dc} {out}");
        }
        if long {
            out.push_str(" saving throw");
        }
        out.trim().to_string()
    }

    /// `[[/item Rend]]`, `[[/item .id]]`: the item's name.
    fn item_enricher(&self, args: &str) -> String {
        let (bare, _) = options(args);
        let target = bare.join(" ");
        let target = target.trim();
        let by_id = target
            .strip_prefix('.')
            .or_else(|| target.rsplit_once(".Item.").map(|(_, id)| id));
        if let Some(id) = by_id {
            for item in self.ctx.items {
                if item.get("_id").and_then(Value::as_str) == Some(id) {
                    if let Some(n) = access::opt_str(item, "name") {
                        return n.to_string();
                    }
                }
            }
            return String::new();
        }
        target.to_string()
    }

    /// `[[/heal]]`: "7 (2d4 + 2)".
    fn heal_enricher(&self, args: &str) -> String {
        let (bare, _) = options(args);
        let formula: Vec<&str> = bare
            .iter()
            .copied()
            .filter(|b| !["average", "extended", "temp", "healing", "temphp"].contains(b))
            .collect();
        if !formula.is_empty() {
            let f = formula.join(" ");
            return self.ctx.dice(&f, 0).map_or(f, |d| d.printed());
        }
        let Some(item) = self.item else {
            return String::new();
        };
        let Some(act) = item.act(None, &[Kind::Heal]) else {
            return String::new();
        };
        let healing = if act.legacy {
            list_at(act.v, &["damage", "parts"]).first()
        } else {
            at(act.v, &["healing"])
        };
        healing
            .and_then(|h| read_part(self.ctx, h, 0).ok())
            .map(|p| p.dice.printed())
            .unwrap_or_default()
    }

    /// `[[lookup @path]]`: the value, else the label.
    fn lookup(&self, args: &str, label: Option<&str>) -> String {
        let (bare, keyed) = options(args);
        let Some(path) = bare.iter().find_map(|b| b.strip_prefix('@')) else {
            return label.unwrap_or("").to_string();
        };
        let act = self.item.and_then(|item| {
            let all = [
                Kind::Attack,
                Kind::Save,
                Kind::Damage,
                Kind::Heal,
                Kind::Cast,
                Kind::Utility,
                Kind::Other,
            ];
            item.act(keyed.get("activity").copied(), &all)
        });
        let Some(value) = self.lookup_value(path, act) else {
            return label.unwrap_or("").to_string();
        };
        if bare.contains(&"lowercase") {
            value.to_lowercase()
        } else if bare.contains(&"uppercase") {
            value.to_uppercase()
        } else if bare.contains(&"capitalize") {
            capitalize(&value)
        } else {
            value
        }
    }

    /// The value a lookup path names.
    fn lookup_value(&self, path: &str, act: Option<&Act>) -> Option<String> {
        let ctx = self.ctx;
        match path {
            "name" => return Some(ctx.name.clone()),
            "resources.legact.label" => return Some(String::new()),
            "item.name" => return self.item.map(|i| i.name.clone()),
            "item.level" => {
                return self
                    .item
                    .and_then(|i| whole(at(i.sys, &["level"])))
                    .map(|n| n.to_string());
            }
            "save.dc.value" => {
                let (item, act) = (self.item?, act?);
                return save(ctx, item, act).ok().map(|s| s.dc.to_string());
            }
            "target.affects.type" => {
                let t = str_at(act?.v, &["target", "affects", "type"]);
                return Some(target_words(t).0.to_string());
            }
            "target.template.type" => {
                let t = str_at(act?.v, &["target", "template", "type"]);
                return Some(if t == "radius" {
                    "emanation".to_string()
                } else {
                    t.to_string()
                });
            }
            _ => {}
        }
        if let Some(v) = ctx.var(path, 0) {
            return Some(format!("{}", v.floor() as i64));
        }
        let act = act.filter(|a| !a.legacy)?;
        let keys: Vec<&str> = path.split('.').collect();
        match at(act.v, &keys)? {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }
}

/// `[[/check ability=str skill=ath dc=15]]`: "DC 15 Strength (Athletics)".
fn check_enricher(ctx: &Ctx, args: &str) -> String {
    let (bare, keyed) = options(args);
    let long = bare.contains(&"long") || keyed.get("format") == Some(&"long");
    let mut ability = keyed.get("ability").and_then(|a| ability_index(a));
    let mut skill = keyed.get("skill").and_then(|s| skill_of(s));
    let mut dc = keyed.get("dc").and_then(|f| ctx.constant(f, 0));
    let passive = bare.contains(&"passive") || keyed.get("passive") == Some(&"true");
    for b in &bare {
        if let Some(i) = ability_index(b) {
            ability = Some(i);
        } else if let Some(s) = skill_of(b) {
            skill = Some(s);
        } else if let Ok(n) = b.parse::<i64>() {
            dc = Some(n);
        }
    }
    let mut label = match (skill, ability) {
        (Some((name, default)), a) => format!("{} ({name})", ABILITY_NAMES[a.unwrap_or(default)]),
        (None, Some(a)) => ABILITY_NAMES[a].to_string(),
        (None, None) => String::new(),
    };
    if passive {
        label = format!("passive {label}");
    }
    if let Some(dc) = dc {
        label = format!("DC {dc} {label}");
    }
    if long {
        label.push_str(" check");
    }
    label.trim().to_string()
}

/// A skill by key ("ath") or name ("athletics"): its name and ability.
fn skill_of(s: &str) -> Option<(&'static str, usize)> {
    SKILLS
        .iter()
        .find(|(k, n, _)| k.eq_ignore_ascii_case(s) || n.eq_ignore_ascii_case(s))
        .map(|(_, n, a)| (*n, *a))
}

/// The damage parts of any activity (none where they cannot be read).
fn act_parts(ctx: &Ctx, item: &Item, act: &Act) -> Vec<Part> {
    match act.kind {
        Kind::Attack => attack(ctx, item, act).map(|a| a.parts).unwrap_or_default(),
        Kind::Save => save(ctx, item, act).map(|s| s.parts).unwrap_or_default(),
        _ => list_at(act.v, &["damage", "parts"])
            .iter()
            .filter_map(|p| read_part(ctx, p, 0).ok())
            .collect(),
    }
}

// ---------------------------------------------------------------------------
// Sentences
// ---------------------------------------------------------------------------

/// Paragraphs joined into one line (a period added to one that ends in a
/// word), spaces collapsed, no space before punctuation.
fn flatten(text: &str) -> String {
    let mut out = String::new();
    for para in text.split('\n').map(str::trim).filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            if out.ends_with(|c: char| c.is_alphanumeric()) {
                out.push('.');
            }
            out.push(' ');
        }
        out.push_str(para);
    }
    tidy(&out)
}

/// Spaces collapsed, none before `.,;:`, doubled periods made one.
fn tidy(s: &str) -> String {
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(collapsed.len());
    for c in collapsed.chars() {
        if matches!(c, '.' | ',' | ';' | ':') && out.ends_with(' ') {
            out.pop();
        }
        if c == '.' && out.ends_with('.') && !out.ends_with("..") {
            continue;
        }
        out.push(c);
    }
    out.trim().to_string()
}

/// Ends a text with a period unless it ends with other sentence punctuation.
fn with_period(s: String) -> String {
    if s.is_empty() || s.ends_with(['.', '!', '?']) {
        s
    } else {
        format!("{s}.")
    }
}

/// Sentences: split after `.`, `!` or `?` followed by a space and a
/// capital letter or digit.
fn sentences(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut i = 0;
    while i < chars.len() {
        cur.push(chars[i]);
        if matches!(chars[i], '.' | '!' | '?')
            && chars.get(i + 1) == Some(&' ')
            && chars
                .get(i + 2)
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        {
            out.push(cur.trim().to_string());
            cur.clear();
        }
        i += 1;
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The byte length of a damage listing at the start of `s` ("10 (1d10 +
/// 5) piercing damage plus 7 (2d6) fire damage"), up to its last "damage".
fn scan_damage_list(s: &str) -> Option<usize> {
    let mut pos = 0;
    let mut last = None;
    loop {
        let rest = &s[pos..];
        let trimmed = rest.trim_start();
        let mut p = pos + (rest.len() - trimmed.len());
        if last.is_some() {
            let Some(joiner) = ["plus ", "and "].iter().find(|j| s[p..].starts_with(**j)) else {
                return last;
            };
            p += joiner.len();
        }
        let digits = s[p..].chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return last;
        }
        p += digits;
        let after = s[p..].trim_start();
        p = s.len() - after.len();
        if after.starts_with('(') {
            let close = after.find(')')?;
            p += close + 1;
        }
        let window: String = s[p..].chars().take(48).collect();
        let Some(d) = window.find("damage") else {
            return last;
        };
        if !window[..d].chars().all(|c| c.is_alphabetic() || c == ' ') {
            return last;
        }
        p += d + "damage".len();
        last = Some(p);
        pos = p;
    }
}

/// Joins a line and what follows it in the description: a tail starting
/// with punctuation attaches, other words start a new sentence.
fn join_tail(head: &str, tail: &str) -> String {
    let t = tail.trim_start();
    let joined = if t.is_empty() {
        head.to_string()
    } else if t.starts_with(['.', ',', ';']) {
        format!("{head}{t}")
    } else {
        format!("{head}. {t}")
    };
    with_period(flatten(&joined))
}

/// An attack item's text: the roll and hit line, then what its description
/// says after the damage.
fn attack_text(a: &Attack, r: &Resolver, desc: &str) -> String {
    let segs = segments(desc);
    let extended = segs.iter().position(|s| match s {
        Seg::Roll(body, _) => {
            let b = body.trim_start();
            (b.starts_with("/damage") || b.starts_with("/dmg")) && b.contains("extended")
        }
        _ => false,
    });
    let tail = if let Some(k) = extended {
        r.resolve_segs(&segs[k + 1..])
    } else {
        let all = flatten(&r.resolve_segs(&segs));
        match find_ci(&all, "hit:") {
            Some(h) if !a.parts.is_empty() => {
                let after = &all[h + 4..];
                scan_damage_list(after).map_or(String::new(), |e| after[e..].to_string())
            }
            Some(h) => all[h..].to_string(),
            None if segs
                .iter()
                .any(|s| matches!(s, Seg::Roll(b, _) if b.trim_start().starts_with("/attack"))) =>
            {
                String::new()
            }
            None => all,
        }
    };
    join_tail(&a.head(), &tail)
}

/// Whether a text reads as a 2024 save line ("Dexterity Saving Throw: ...").
fn structured_save(text: &str) -> bool {
    let Some(i) = text.find("Saving Throw:") else {
        return false;
    };
    let prefix = text[..i].trim();
    !prefix.is_empty()
        && prefix
            .split_whitespace()
            .all(|w| w == "or" || ability_index(w.trim_matches(',')).is_some())
}

/// A save item's text: a 2024-style description as it reads, else the
/// canonical lines plus the description's riders.
fn save_text(s: &Save, r: &Resolver, desc: &str) -> String {
    let resolved = flatten(&r.resolve(desc));
    if structured_save(&resolved) {
        return with_period(resolved);
    }
    let mut sents = sentences(&resolved);
    let primary = sents
        .iter()
        .position(|x| x.to_lowercase().contains("saving throw"));
    let mut rider = String::new();
    let mut rest: Vec<String>;
    if let Some(p) = primary {
        rest = sents.split_off(p + 1);
        rider = save_rider(&sents[p], !s.parts.is_empty());
        if rider.is_empty() && s.parts.is_empty() {
            if let Some(next) = rest.first() {
                if let Some(after) = next.strip_prefix("On a failed save,") {
                    rider = rewrite_rider(after.trim().trim_end_matches('.'));
                    rest.remove(0);
                }
            }
        }
    } else {
        rest = sents;
    }
    let mut out = vec![s.head()];
    if !s.parts.is_empty() {
        let mut fail = format!("Failure: {}", parts_text(&s.parts));
        if !rider.is_empty() {
            fail.push_str(&format!(", and {rider}"));
        }
        out.push(with_period(fail));
        match s.on_save.as_str() {
            "half" => out.push("Success: Half damage.".to_string()),
            "full" => out.push("Success: Full damage.".to_string()),
            _ => {}
        }
    } else if !rider.is_empty() {
        out.push(with_period(format!("Failure: {}", capitalize(&rider))));
    }
    out.extend(rest);
    tidy(&out.join(" "))
}

/// What a narrative save sentence says happens on a failure besides the
/// damage: "... or take 15 (2d6 + 8) damage and be knocked prone" →
/// "the target has the Prone condition".
fn save_rider(sentence: &str, has_damage: bool) -> String {
    let Some(i) = find_ci(sentence, "saving throw") else {
        return String::new();
    };
    let mut rest = sentence[i + "saving throw".len()..].trim_start_matches([',', ' ']);
    let leads = ["or ", "and ", "taking ", "take "];
    if !leads.iter().any(|l| rest.starts_with(l)) {
        // "... saving throw against this magic or become ..."
        if let Some(k) = rest.find(" or ") {
            rest = &rest[k + 1..];
        }
    }
    for lead in ["or ", "and "] {
        rest = rest.strip_prefix(lead).unwrap_or(rest);
    }
    for lead in ["taking ", "take ", "takes "] {
        rest = rest.strip_prefix(lead).unwrap_or(rest);
    }
    let mut clause = if has_damage {
        match scan_damage_list(rest) {
            Some(end) => rest[end..].to_string(),
            None => return String::new(),
        }
    } else {
        rest.to_string()
    };
    for phrase in ["on a failed save", "on a failure"] {
        if let Some(k) = find_ci(&clause, phrase) {
            clause.replace_range(k..k + phrase.len(), "");
        }
    }
    for phrase in [
        ", or half as much",
        " or half as much",
        ", or half",
        " or half",
    ] {
        if let Some(k) = find_ci(&clause, phrase) {
            clause.truncate(k);
        }
    }
    let c = clause.trim().trim_end_matches(['.', ',']).trim();
    let c = c.trim_start_matches(',').trim();
    let c = c.strip_prefix("and ").unwrap_or(c).trim();
    if c.is_empty() {
        return String::new();
    }
    rewrite_rider(c)
}

/// "be knocked prone" → "the target has the Prone condition"; "become
/// frightened for 1 minute" → "the target has the Frightened condition for
/// 1 minute"; other words as they are.
fn rewrite_rider(clause: &str) -> String {
    let mut c = clause.trim();
    for subject in ["the target ", "a creature ", "it ", "the creature "] {
        if c.get(..subject.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(subject))
        {
            c = &c[subject.len()..];
        }
    }
    let lower = c.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("be knocked prone") {
        return format!(
            "the target has the Prone condition{}",
            &c[c.len() - rest.len()..]
        );
    }
    for verb in ["becomes ", "become ", "be ", "is "] {
        if let Some(after) = lower.strip_prefix(verb) {
            let word: String = after.chars().take_while(|ch| ch.is_alphabetic()).collect();
            if CONDITIONS.contains(&word.as_str()) {
                let rest = &c[verb.len() + word.len()..];
                return format!("the target has the {} condition{rest}", capitalize(&word));
            }
        }
    }
    clause.trim().to_string()
}

// ---------------------------------------------------------------------------
// Features
// ---------------------------------------------------------------------------

/// Spells gathered for the one Spellcasting feature.
#[derive(Default)]
struct Spells {
    /// At will (innate or `atwill`).
    at_will: Vec<String>,
    /// N/Day.
    per_day: BTreeMap<i64, Vec<String>>,
    /// Level-0 slot spells.
    cantrips: Vec<String>,
    /// Slot spells by level.
    levels: BTreeMap<i64, Vec<String>>,
    /// Pact magic spells.
    pact: Vec<String>,
}

impl Spells {
    /// Whether nothing was gathered.
    fn is_empty(&self) -> bool {
        self.at_will.is_empty()
            && self.per_day.is_empty()
            && self.cantrips.is_empty()
            && self.levels.is_empty()
            && self.pact.is_empty()
    }

    /// A spell item, by its preparation (`method`/`prepared` in 5.x,
    /// `preparation.mode` before).
    fn add_item(&mut self, ctx: &Ctx, item: &Item) {
        let name = item.name.to_lowercase();
        let level = whole(at(item.sys, &["level"])).unwrap_or(0).clamp(0, 9);
        let mode = match str_at(item.sys, &["method"]) {
            "" => str_at(item.sys, &["preparation", "mode"]),
            m => m,
        };
        match mode {
            "atwill" => self.at_will.push(name),
            "innate" => match uses_per(ctx, at(item.sys, &["uses"]).unwrap_or(&NULL)) {
                Some((n, _)) => self.per_day.entry(n).or_default().push(name),
                None => self.at_will.push(name),
            },
            "pact" => self.pact.push(name),
            _ if level == 0 => self.cantrips.push(name),
            _ => self.levels.entry(level).or_default().push(name),
        }
    }

    /// The cast activities of a 2024 Spellcasting feat; how many it read.
    fn add_casts(&mut self, ctx: &Ctx, item: &Item, labels: &[(String, String)]) -> usize {
        let mut added = 0;
        let mut casts: Vec<&Act> = item.acts.iter().filter(|a| a.kind == Kind::Cast).collect();
        // In the order the description lists them.
        casts.sort_by_key(|a| {
            let uuid = str_at(a.v, &["spell", "uuid"]);
            let place = labels.iter().position(|(u, _)| u == uuid);
            (a.sort, place.unwrap_or(usize::MAX))
        });
        for act in casts {
            let uuid = str_at(act.v, &["spell", "uuid"]);
            let cached = ctx.items.iter().find(|i| {
                at(i, &["flags", "dnd5e", "cachedFor"])
                    .and_then(Value::as_str)
                    .is_some_and(|c| {
                        !act.id.is_empty() && c.ends_with(&format!(".Activity.{}", act.id))
                    })
            });
            let name = cached
                .and_then(|i| access::opt_str(i, "name"))
                .map(str::to_string)
                .or_else(|| {
                    labels
                        .iter()
                        .find(|(u, _)| u == uuid)
                        .map(|(_, l)| l.clone())
                });
            let Some(name) = name else {
                continue;
            };
            let mut name = name.trim().to_lowercase();
            let base = cached.and_then(|i| whole(at(i, &["system", "level"])));
            if let (Some(l), Some(b)) = (whole(at(act.v, &["spell", "level"])), base) {
                if l > b {
                    name.push_str(&format!(" (level {l} version)"));
                }
            }
            match uses_per(ctx, at(act.v, &["uses"]).unwrap_or(&NULL)) {
                Some((n, _)) => self.per_day.entry(n).or_default().push(name),
                None => self.at_will.push(name),
            }
            added += 1;
        }
        added
    }

    /// Slots of a spell level: `max`, `override`, the NPC's caster level,
    /// else `value`.
    fn slots(ctx: &Ctx, level: i64) -> Option<i64> {
        let s = at(ctx.system, &["spells", &format!("spell{level}")]).unwrap_or(&NULL);
        if let Some(n) = whole(s.get("max")).or_else(|| whole(s.get("override"))) {
            return Some(n);
        }
        let caster = whole(at(ctx.system, &["details", "spellLevel"]))
            .or_else(|| whole(at(ctx.system, &["attributes", "spell", "level"])))
            .unwrap_or(0);
        if (1..=20).contains(&caster) {
            return Some(full_caster_slots(caster, level));
        }
        whole(s.get("value"))
    }

    /// The feature's text.
    fn text(&self, ctx: &Ctx) -> String {
        let list = |v: &Vec<String>| v.join(", ");
        let mut out = match ctx.spell_ability {
            Some(i) => format!(
                "The {} casts spells using {} as the spellcasting ability (spell save DC {}, {:+} to hit with spell attacks).",
                ctx.name.to_lowercase(),
                ABILITY_NAMES[i],
                ctx.spell_dc(),
                ctx.spell_attack()
            ),
            None => format!(
                "The {} casts spells (spell save DC {}, {:+} to hit with spell attacks).",
                ctx.name.to_lowercase(),
                ctx.spell_dc(),
                ctx.spell_attack()
            ),
        };
        if !self.at_will.is_empty() {
            out.push_str(&format!(" At will: {}.", list(&self.at_will)));
        }
        for (n, spells) in self.per_day.iter().rev() {
            let each = if spells.len() > 1 { " each" } else { "" };
            out.push_str(&format!(" {n}/Day{each}: {}.", list(spells)));
        }
        if !self.cantrips.is_empty() {
            out.push_str(&format!(" Cantrips (at will): {}.", list(&self.cantrips)));
        }
        for (level, spells) in &self.levels {
            let slots = match Self::slots(ctx, *level) {
                Some(1) => " (1 slot)".to_string(),
                Some(n) if n > 1 => format!(" ({n} slots)"),
                _ => String::new(),
            };
            out.push_str(&format!(
                " {} level{slots}: {}.",
                ordinal(*level),
                list(spells)
            ));
        }
        if !self.pact.is_empty() {
            let pact = at(ctx.system, &["spells", "pact"]).unwrap_or(&NULL);
            let n = whole(pact.get("max"))
                .or_else(|| whole(pact.get("override")))
                .or_else(|| whole(pact.get("value")))
                .unwrap_or(0);
            let level = whole(pact.get("level")).unwrap_or(0);
            let slots = if n > 0 && level > 0 {
                format!(" ({n} {}-level slots)", ordinal(level))
            } else {
                String::new()
            };
            out.push_str(&format!(" Pact magic{slots}: {}.", list(&self.pact)));
        }
        out
    }
}

/// A full caster's spell slots of `level` at caster level `caster`.
fn full_caster_slots(caster: i64, level: i64) -> i64 {
    const TABLE: [[i64; 9]; 20] = [
        [2, 0, 0, 0, 0, 0, 0, 0, 0],
        [3, 0, 0, 0, 0, 0, 0, 0, 0],
        [4, 2, 0, 0, 0, 0, 0, 0, 0],
        [4, 3, 0, 0, 0, 0, 0, 0, 0],
        [4, 3, 2, 0, 0, 0, 0, 0, 0],
        [4, 3, 3, 0, 0, 0, 0, 0, 0],
        [4, 3, 3, 1, 0, 0, 0, 0, 0],
        [4, 3, 3, 2, 0, 0, 0, 0, 0],
        [4, 3, 3, 3, 1, 0, 0, 0, 0],
        [4, 3, 3, 3, 2, 0, 0, 0, 0],
        [4, 3, 3, 3, 2, 1, 0, 0, 0],
        [4, 3, 3, 3, 2, 1, 0, 0, 0],
        [4, 3, 3, 3, 2, 1, 1, 0, 0],
        [4, 3, 3, 3, 2, 1, 1, 0, 0],
        [4, 3, 3, 3, 2, 1, 1, 1, 0],
        [4, 3, 3, 3, 2, 1, 1, 1, 0],
        [4, 3, 3, 3, 2, 1, 1, 1, 1],
        [4, 3, 3, 3, 3, 1, 1, 1, 1],
        [4, 3, 3, 3, 3, 2, 1, 1, 1],
        [4, 3, 3, 3, 3, 2, 2, 1, 1],
    ];
    match (usize::try_from(caster - 1), usize::try_from(level - 1)) {
        (Ok(c), Ok(l)) if c < 20 && l < 9 => TABLE[c][l],
        _ => 0,
    }
}

/// `@UUID[uuid]{Label}` pairs of a description, in its order.
fn uuid_labels(desc: &str) -> Vec<(String, String)> {
    segments(desc)
        .into_iter()
        .filter_map(|s| match s {
            Seg::Link(_, uuid, Some(label)) => Some((uuid.trim().to_string(), label.to_string())),
            _ => None,
        })
        .collect()
}

/// Item types that are never statblock entries.
const SKIPPED_TYPES: [&str; 7] = [
    "loot",
    "container",
    "backpack",
    "class",
    "subclass",
    "race",
    "background",
];

/// Whether an item is a spellcasting trait.
fn is_spellcasting(item: &Item) -> bool {
    let key = item.key();
    item.kind == "feat"
        && (key.starts_with("spellcasting") || key.starts_with("innate spellcasting"))
}

/// The Legendary Resistance trait.
fn legendary_resistance(ctx: &Ctx, n: i64, text: Option<String>) -> Feature {
    Feature {
        section: Section::Trait,
        name: format!("Legendary Resistance ({n}/Day)"),
        text: text.filter(|t| !t.is_empty()).unwrap_or_else(|| {
            format!(
                "If the {} fails a saving throw, it can choose to succeed instead.",
                ctx.name.to_lowercase()
            )
        }),
    }
}

/// "can take 3 legendary actions" → 3.
fn legendary_count(text: &str) -> Option<i64> {
    let i = find_ci(text, "can take ")?;
    let rest = &text[i + "can take ".len()..];
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = rest[n.len()..].trim_start().to_ascii_lowercase();
    if after.starts_with("legendary action") {
        n.parse().ok()
    } else {
        None
    }
}

/// An item's feature; a note in `notes` where its numbers are unreadable.
fn item_feature(ctx: &Ctx, item: &Item, notes: &mut Vec<String>) -> Feature {
    let act = item.primary();
    let section = section_of(item, act);
    let name = format!("{}{}", item.name, name_suffix(ctx, item, act));
    let r = Resolver {
        ctx,
        item: Some(item),
    };
    let desc = item.description();
    let plain = || with_period(flatten(&r.resolve(&desc)));
    let text = match act {
        Some(a) if a.kind == Kind::Attack => match attack(ctx, item, a) {
            Ok(atk) => attack_text(&atk, &r, &desc),
            Err(why) => {
                notes.push(format!("{}: {why}", item.name));
                plain()
            }
        },
        Some(a) if a.kind == Kind::Save => match save(ctx, item, a) {
            Ok(s) => save_text(&s, &r, &desc),
            Err(why) => {
                notes.push(format!("{}: {why}", item.name));
                plain()
            }
        },
        _ => plain(),
    };
    Feature {
        section,
        name,
        text,
    }
}

/// Every item into features, in order; the Legendary Resistance trait and
/// the Spellcasting feature where their items stood.
fn read_features(
    ctx: &Ctx,
    path: &str,
    legres: i64,
    block: &mut Statblock,
) -> Result<(), ImportError> {
    let items_path = child(path, "items");
    let mut views = Vec::with_capacity(ctx.items.len());
    for (j, v) in ctx.items.iter().enumerate() {
        if !v.is_object() {
            return Err(ImportError::at(
                format!("{items_path}[{j}]"),
                format!("an item must be an object, not {}", access::kind(v)),
            ));
        }
        views.push(Item::new(v));
    }
    let mut out: Vec<Feature> = Vec::new();
    let mut spells = Spells::default();
    let mut spell_at: Option<usize> = None;
    let mut spell_fallback: Vec<Feature> = Vec::new();
    let mut resistance_done = false;
    for item in &views {
        if SKIPPED_TYPES.contains(&item.kind) || item.cached() {
            continue;
        }
        if item.kind == "spell" {
            spells.add_item(ctx, item);
            continue;
        }
        let key = item.key();
        let fights = item
            .acts
            .iter()
            .any(|a| matches!(a.kind, Kind::Attack | Kind::Save));
        if matches!(item.kind, "equipment" | "consumable" | "tool") && !fights {
            continue;
        }
        if item.weapon() && item.acts.is_empty() {
            continue;
        }
        let r = Resolver {
            ctx,
            item: Some(item),
        };
        if key == "legendary actions" && item.primary().is_none_or(|a| a.activation().is_empty()) {
            if block.legendary_uses.is_none() {
                block.legendary_uses = legendary_count(&r.resolve(&item.description()));
            }
            continue;
        }
        if key.starts_with("legendary resistance") && legres > 0 {
            if !resistance_done {
                let text = with_period(flatten(&r.resolve(&item.description())));
                out.push(legendary_resistance(ctx, legres, Some(text)));
                resistance_done = true;
            }
            continue;
        }
        if is_spellcasting(item) {
            spell_at.get_or_insert(out.len());
            let labels = uuid_labels(&item.description());
            if spells.add_casts(ctx, item, &labels) == 0 {
                let mut f = item_feature(ctx, item, &mut block.not_modelled);
                f.section = Section::Spellcasting;
                spell_fallback.push(f);
            }
            continue;
        }
        out.push(item_feature(ctx, item, &mut block.not_modelled));
    }
    if legres > 0 && !resistance_done {
        out.insert(0, legendary_resistance(ctx, legres, None));
        spell_at = spell_at.map(|i| i + 1);
    }
    let at_index = spell_at.unwrap_or(out.len()).min(out.len());
    if spells.is_empty() {
        for (k, f) in spell_fallback.into_iter().enumerate() {
            out.insert(at_index + k, f);
        }
    } else {
        out.insert(
            at_index,
            Feature {
                section: Section::Spellcasting,
                name: "Spellcasting".to_string(),
                text: spells.text(ctx),
            },
        );
    }
    block.features = out;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A fixture of tests/data/import.
    fn fixture(name: &str) -> Value {
        let path = format!("{}/tests/data/import/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    /// The one statblock of a document.
    fn one(v: &Value) -> Statblock {
        let mut blocks = read(v).unwrap();
        assert_eq!(blocks.len(), 1);
        blocks.remove(0)
    }

    /// The feature named `name`.
    fn feature<'a>(b: &'a Statblock, name: &str) -> &'a Feature {
        b.features
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("no feature `{name}` in {:#?}", b.features))
    }

    /// The error of reading a document.
    fn error(v: &Value) -> ImportError {
        read(v).expect_err("should not read")
    }

    /// A dnd5e 3.x adult red dragon (SRD 5.1), trimmed to what it tests, in
    /// the shape release-3.3.1's packs/_source/monsters hold.
    fn legacy_dragon() -> Value {
        let ability = |value: i64, proficient: i64| json!({"value": value, "proficient": proficient, "bonuses": {"check": "", "save": ""}});
        json!({
            "name": "Adult Red Dragon",
            "type": "npc",
            "system": {
                "abilities": {
                    "str": ability(27, 0), "dex": ability(10, 1), "con": ability(25, 1),
                    "int": ability(16, 0), "wis": ability(13, 1), "cha": ability(21, 1)
                },
                "attributes": {
                    "ac": {"flat": 19, "calc": "natural", "formula": ""},
                    "hp": {"value": 256, "max": 256, "temp": 0, "tempmax": 0, "formula": "19d12 + 133"},
                    "init": {"ability": "", "bonus": "0"},
                    "movement": {"burrow": 0, "climb": 40, "fly": 80, "swim": 0, "walk": 40, "units": "ft", "hover": false},
                    "spellcasting": "cha",
                    "prof": null,
                    "spelldc": null
                },
                "details": {"type": {"value": "dragon", "subtype": "", "swarm": "", "custom": ""}, "cr": 17, "spellLevel": 0},
                "resources": {"legact": {"value": 3, "max": 3}, "legres": {"value": 3, "max": 3}, "lair": {"value": true, "initiative": 20}},
                "traits": {
                    "size": "huge",
                    "di": {"value": ["fire"], "bypasses": [], "custom": ""},
                    "dr": {"value": ["bludgeoning", "piercing", "slashing"], "bypasses": ["mgc"], "custom": ""},
                    "dv": {"value": [], "bypasses": [], "custom": ""},
                    "ci": {"value": ["frightened"], "custom": "Sleep"}
                }
            },
            "items": [
                {
                    "_id": "legres0000000000",
                    "name": "Legendary Resistance (3/Day)",
                    "type": "feat",
                    "system": {
                        "description": {"value": "<p>If the dragon fails a saving throw, it can choose to succeed instead.</p>", "chat": ""},
                        "activation": {"type": "special", "cost": 1, "condition": ""},
                        "actionType": "", "attackBonus": "", "damage": {"parts": [], "versatile": ""},
                        "save": {"ability": "", "dc": null, "scaling": "spell"},
                        "recharge": {"value": null, "charged": false}
                    }
                },
                {
                    "_id": "bite000000000000",
                    "name": "Bite",
                    "type": "weapon",
                    "system": {
                        "description": {"value": "<section class=\"secret\"><p><em>Melee Weapon Attack:</em><strong>+14 to hit,</strong>, <strong>10 ft.,</strong> one target. Hit: <strong>19 (2d10 + 8) <em>piercing damage</em></strong> plus <strong>7 (2d6) <em>fire damage</em></strong>.</p><p></p></section><p>The Adult Red Dragon attacks with its Bite.</p>", "chat": ""},
                        "activation": {"type": "action", "cost": 1, "condition": ""},
                        "range": {"value": 10, "long": null, "units": "ft"},
                        "uses": {"value": null, "max": "", "per": null, "recovery": ""},
                        "ability": "str", "actionType": "mwak", "attackBonus": "",
                        "damage": {"parts": [["2d10 + @mod", "piercing"], ["2d6", "fire"]], "versatile": ""},
                        "save": {"ability": "", "dc": null, "scaling": "spell"},
                        "properties": [], "proficient": 1,
                        "type": {"value": "natural", "baseItem": ""}
                    }
                },
                {
                    "_id": "firebreath000000",
                    "name": "Fire Breath",
                    "type": "feat",
                    "system": {
                        "description": {"value": "<section class=\"secret\"><p>The dragon exhales fire in a 60-foot cone. Each creature in that area must make a  <strong>DC 21 Dexterity</strong> saving throw, taking <strong>63 (18d6) <em>fire damage</em></strong> on a failed save, or half as much damage on a successful one.</p></section><p>The dragon exhales fire in a 60-foot cone.</p>", "chat": ""},
                        "activation": {"type": "action", "cost": 1, "condition": ""},
                        "target": {"value": 60, "width": null, "units": "ft", "type": "cone", "prompt": true},
                        "range": {"value": null, "long": null, "units": "self"},
                        "uses": {"value": null, "max": "", "per": null, "recovery": ""},
                        "ability": "con", "actionType": "save", "attackBonus": "",
                        "damage": {"parts": [["18d6", "fire"]], "versatile": ""},
                        "save": {"ability": "dex", "dc": 21, "scaling": "flat"},
                        "recharge": {"value": 5, "charged": true}
                    }
                },
                {
                    "_id": "legactions000000",
                    "name": "Legendary Actions",
                    "type": "feat",
                    "system": {
                        "description": {"value": "<p>The dragon can take 3 legendary actions. Only one legendary action option can be used at a time and only at the end of another creature's turn.</p>", "chat": ""},
                        "activation": {"type": "", "cost": null, "condition": ""},
                        "actionType": "", "damage": {"parts": [], "versatile": ""}
                    }
                },
                {
                    "_id": "wingattack000000",
                    "name": "Wing Attack",
                    "type": "weapon",
                    "system": {
                        "description": {"value": "<section class=\"secret\">\n<p>The dragon beats its wings. <strong>Each creature within 10 feet of the dragon</strong> must succeed on a <strong>DC 22 Dexterity saving throw</strong> or take <strong>15 (2d6+8) bludgeoning</strong> damage and be <strong>knocked prone.</strong> The dragon can then <strong>fly up to half its flying speed.</strong></p>\n</section>\n<p>The dragon beats its wings!</p>", "chat": ""},
                        "activation": {"type": "legendary", "cost": 2, "condition": ""},
                        "target": {"value": null, "width": null, "units": "any", "type": "creature"},
                        "range": {"value": 10, "long": null, "units": "ft"},
                        "ability": "str", "actionType": "save", "attackBonus": "",
                        "damage": {"parts": [["2d6 + @mod", "bludgeoning"]], "versatile": ""},
                        "save": {"ability": "dex", "dc": 22, "scaling": "str"},
                        "properties": [], "proficient": 1,
                        "type": {"value": "natural", "baseItem": ""}
                    }
                },
                {
                    "_id": "fireball00000000",
                    "name": "Fireball",
                    "type": "spell",
                    "system": {
                        "level": 3,
                        "actionType": "save",
                        "activation": {"type": "action", "cost": 1},
                        "save": {"ability": "dex", "dc": null, "scaling": "spell"},
                        "damage": {"parts": [["8d6", "fire"]], "versatile": ""},
                        "preparation": {"mode": "innate", "prepared": true},
                        "uses": {"value": 1, "max": "1", "per": "day", "recovery": ""}
                    }
                },
                {
                    "_id": "magehand00000000",
                    "name": "Mage Hand",
                    "type": "spell",
                    "system": {
                        "level": 0,
                        "actionType": "util",
                        "activation": {"type": "action", "cost": 1},
                        "preparation": {"mode": "atwill", "prepared": true},
                        "uses": {"value": null, "max": "", "per": null, "recovery": ""}
                    }
                },
                {
                    "_id": "hoard00000000000",
                    "name": "Gold Hoard",
                    "type": "loot",
                    "system": {"description": {"value": "<p>Coins.</p>"}, "quantity": 1}
                }
            ],
            "_stats": {"systemId": "dnd5e", "systemVersion": "3.0.0", "coreVersion": "11.315"}
        })
    }

    #[test]
    fn the_2024_owlbear_reads_with_its_numbers_and_rend() {
        let b = one(&fixture("foundry-owlbear.json"));
        assert_eq!(b.name, "Owlbear");
        assert_eq!(b.path, "");
        assert_eq!(b.size.as_deref(), Some("large"));
        assert_eq!(b.kind.as_deref(), Some("monstrosity"));
        assert_eq!((b.ac, b.hp), (Some(13), Some(59)));
        assert_eq!((b.speed.walk, b.speed.climb, b.speed.fly), (40, 40, 0));
        assert_eq!(b.abilities, [20, 12, 17, 3, 12, 7]);
        assert_eq!(b.saves, [None; 6]);
        assert_eq!(b.cr.as_deref(), Some("3"));
        assert_eq!(b.initiative, None);
        assert_eq!(b.legendary_uses, None);
        assert!(b.not_modelled.is_empty(), "{:?}", b.not_modelled);
        assert_eq!(
            b.features,
            vec![
                Feature {
                    section: Section::Action,
                    name: "Multiattack".into(),
                    text: "The owlbear makes two Rend attacks.".into(),
                },
                Feature {
                    section: Section::Action,
                    name: "Rend".into(),
                    text: "Melee Attack Roll: +7, reach 5 ft. Hit: 14 (2d8 + 5) Slashing damage."
                        .into(),
                },
            ]
        );
    }

    #[test]
    fn the_2024_red_dragon_reads_its_breath_legendary_actions_and_spells() {
        let b = one(&fixture("foundry-adult-red-dragon.json"));
        assert_eq!(b.size.as_deref(), Some("huge"));
        assert_eq!(b.kind.as_deref(), Some("dragon"));
        assert_eq!((b.ac, b.hp), (Some(19), Some(256)));
        assert_eq!((b.speed.walk, b.speed.climb, b.speed.fly), (40, 40, 80));
        assert_eq!(b.abilities, [27, 10, 25, 16, 13, 23]);
        assert_eq!(b.saves, [None, Some(6), None, None, Some(7), None]);
        assert_eq!(b.initiative, Some(12), "`@prof * 2` with proficiency 6");
        assert_eq!(b.cr.as_deref(), Some("17"));
        assert_eq!(b.immune, vec!["fire"]);
        assert_eq!(b.legendary_uses, Some(3));

        let lr = feature(&b, "Legendary Resistance (3/Day)");
        assert_eq!(lr.section, Section::Trait);
        assert_eq!(
            lr.text,
            "If the adult red dragon fails a saving throw, it can choose to succeed instead."
        );
        assert_eq!(
            feature(&b, "Multiattack").text,
            "The adult red dragon makes three Rend attacks. It can replace one attack with a use of Spellcasting to cast Scorching Ray."
        );
        assert_eq!(
            feature(&b, "Rend").text,
            "Melee Attack Roll: +14, reach 10 ft. Hit: 13 (1d10 + 8) Slashing damage plus 5 (2d4) Fire damage."
        );
        let breath = feature(&b, "Fire Breath (Recharge 5–6)");
        assert_eq!(breath.section, Section::Action);
        assert_eq!(
            breath.text,
            "Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone. Failure: 59 (17d6) Fire damage. Success: Half damage."
        );
        let pounce = feature(&b, "Pounce");
        assert_eq!(pounce.section, Section::Legendary);
        assert_eq!(
            pounce.text,
            "The adult red dragon moves up to half its Speed, and it makes one Rend attack."
        );
        let legendary: Vec<&str> = b
            .features
            .iter()
            .filter(|f| f.section == Section::Legendary)
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(legendary, ["Commanding Presence", "Fiery Rays", "Pounce"]);
        let spells = feature(&b, "Spellcasting");
        assert_eq!(spells.section, Section::Spellcasting);
        assert_eq!(
            spells.text,
            "The adult red dragon casts spells using Charisma as the spellcasting ability (spell save DC 20, +12 to hit with spell attacks). At will: command (level 2 version), detect magic, scorching ray. 1/Day: fireball."
        );
        // The spells the cast activities cache are not features of their own.
        assert!(
            !b.features
                .iter()
                .any(|f| f.name == "Command" || f.name == "Fireball")
        );
        assert_eq!(b.features.len(), 8);
    }

    #[test]
    fn the_legacy_mage_reads_its_slots_and_thrown_dagger() {
        let b = one(&fixture("foundry-mage.json"));
        assert_eq!(
            (b.ac, b.hp, b.cr.as_deref()),
            (Some(12), Some(40), Some("6"))
        );
        assert_eq!(b.size.as_deref(), Some("medium"));
        assert_eq!(b.saves, [None, None, None, Some(6), Some(4), None]);
        assert_eq!(
            b.features,
            vec![
                Feature {
                    section: Section::Spellcasting,
                    name: "Spellcasting".into(),
                    text: "The mage casts spells using Intelligence as the spellcasting ability (spell save DC 14, +6 to hit with spell attacks). \
                           Cantrips (at will): fire bolt, light, mage hand, prestidigitation. \
                           1st level (4 slots): detect magic, mage armor, magic missile, shield. \
                           2nd level (3 slots): misty step, suggestion. \
                           3rd level (3 slots): counterspell, fireball, fly. \
                           4th level (3 slots): greater invisibility, ice storm. \
                           5th level (1 slot): cone of cold."
                        .into(),
                },
                Feature {
                    section: Section::Action,
                    name: "Dagger".into(),
                    text: "Melee or Ranged Attack Roll: +5, reach 5 ft. or range 20/60 ft. Hit: 4 (1d4 + 2) Piercing damage.".into(),
                },
            ]
        );
    }

    #[test]
    fn a_3x_actor_reads_its_attack_breath_and_legendary_actions() {
        let b = one(&legacy_dragon());
        assert_eq!(
            (b.ac, b.hp, b.cr.as_deref()),
            (Some(19), Some(256), Some("17"))
        );
        assert_eq!(b.saves, [None, Some(6), Some(13), None, Some(7), Some(11)]);
        assert_eq!(b.initiative, None, "a bonus of 0 states nothing");
        assert_eq!(b.legendary_uses, Some(3));
        assert_eq!(b.resistant, vec!["bludgeoning", "piercing", "slashing"]);
        assert_eq!(b.condition_immune, vec!["frightened"]);
        assert_eq!(
            b.not_modelled,
            vec![
                "Resistance to bludgeoning, piercing, slashing: only from nonmagical attacks"
                    .to_string(),
                "Condition immunities: Sleep".to_string(),
            ]
        );
        let names: Vec<&str> = b.features.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Legendary Resistance (3/Day)",
                "Bite",
                "Fire Breath (Recharge 5–6)",
                "Wing Attack (Costs 2 Actions)",
                "Spellcasting"
            ]
        );
        assert_eq!(
            b.features[0].text,
            "If the dragon fails a saving throw, it can choose to succeed instead."
        );
        assert_eq!(
            feature(&b, "Bite").text,
            "Melee Attack Roll: +14, reach 10 ft. Hit: 19 (2d10 + 8) Piercing damage plus 7 (2d6) Fire damage."
        );
        assert_eq!(
            feature(&b, "Fire Breath (Recharge 5–6)").text,
            "Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone. Failure: 63 (18d6) Fire damage. Success: Half damage."
        );
        let wing = feature(&b, "Wing Attack (Costs 2 Actions)");
        assert_eq!(wing.section, Section::Legendary);
        assert_eq!(
            wing.text,
            "Dexterity Saving Throw: DC 22, each creature within 10 feet. Failure: 15 (2d6 + 8) Bludgeoning damage, and the target has the Prone condition. The dragon can then fly up to half its flying speed."
        );
        assert_eq!(
            feature(&b, "Spellcasting").text,
            "The adult red dragon casts spells using Charisma as the spellcasting ability (spell save DC 19, +11 to hit with spell attacks). At will: mage hand. 1/Day: fireball."
        );
    }

    #[test]
    fn legendary_actions_are_counted_from_the_header_item_without_resources() {
        let mut v = legacy_dragon();
        v["system"]["resources"] = json!({});
        let b = one(&v);
        assert_eq!(b.legendary_uses, Some(3));
        // Without `legres`, the resistance item is an ordinary trait.
        let lr = feature(&b, "Legendary Resistance (3/Day)");
        assert_eq!(lr.section, Section::Trait);
    }

    #[test]
    fn a_list_of_actors_reads_each_with_its_path() {
        let v = json!([fixture("foundry-owlbear.json"), legacy_dragon()]);
        let blocks = read(&v).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(
            (blocks[0].path.as_str(), blocks[1].path.as_str()),
            ("[0]", "[1]")
        );
        assert_eq!(blocks[1].name, "Adult Red Dragon");
        assert!(read(&json!([])).unwrap().is_empty());
    }

    #[test]
    fn bad_numbers_are_errors_at_their_path() {
        let mut v = fixture("foundry-owlbear.json");
        v["system"]["attributes"]["hp"]["max"] = json!("lots");
        let e = error(&v);
        assert_eq!(e.path, "system.attributes.hp.max");
        assert!(e.message.contains("whole number"), "{}", e.message);

        let list = json!([fixture("foundry-owlbear.json"), legacy_dragon(), v]);
        assert_eq!(error(&list).path, "[2].system.attributes.hp.max");

        let mut v = fixture("foundry-owlbear.json");
        v["system"]["attributes"]["ac"]["flat"] = json!({"value": 13});
        assert_eq!(error(&v).path, "system.attributes.ac.flat");

        let mut v = fixture("foundry-owlbear.json");
        v["system"]["details"]["cr"] = json!(0.3);
        assert_eq!(error(&v).path, "system.details.cr");

        let mut v = fixture("foundry-owlbear.json");
        v["system"]["abilities"]["str"]["value"] = json!(1e12);
        assert_eq!(error(&v).path, "system.abilities.str.value");

        let mut v = fixture("foundry-owlbear.json");
        v["system"]["attributes"]["movement"]["walk"] = json!("forty feet");
        assert_eq!(error(&v).path, "system.attributes.movement.walk");

        let mut v = fixture("foundry-owlbear.json");
        v["system"]["attributes"] = json!([1, 2]);
        assert_eq!(error(&v).path, "system.attributes");

        let mut v = fixture("foundry-owlbear.json");
        v["items"] = json!({"a": 1});
        assert_eq!(error(&v).path, "items");

        let mut v = fixture("foundry-owlbear.json");
        v["items"][1] = json!("Rend");
        assert_eq!(error(&v).path, "items[1]");
    }

    #[test]
    fn what_is_not_an_npc_actor_is_an_error() {
        let e = error(&json!("owlbear"));
        assert_eq!(e.path, "");
        let e = error(&json!([legacy_dragon(), 7]));
        assert_eq!(e.path, "[1]");
        assert!(e.message.contains("must be an object"), "{}", e.message);

        let pc = json!({"name": "Aria", "type": "character", "system": {"abilities": {}}});
        let e = error(&pc);
        assert_eq!(e.path, "");
        assert!(
            e.message.contains("characters are not read yet"),
            "{}",
            e.message
        );
        assert_eq!(error(&json!([legacy_dragon(), pc])).path, "[1]");

        let e = error(&json!({"name": "Ship", "type": "vehicle", "system": {}}));
        assert!(e.message.contains("vehicle"), "{}", e.message);
        assert_eq!(error(&json!({"name": "X", "system": {}})).path, "type");
        assert_eq!(error(&json!({"name": "X", "type": "npc"})).path, "system");
        assert_eq!(error(&json!({"type": "npc", "system": {}})).path, "name");
    }

    #[test]
    fn junk_anywhere_in_an_actor_never_panics() {
        /// Every JSON pointer below `v`.
        fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
            match v {
                Value::Object(o) => o.iter().for_each(|(k, c)| {
                    let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                    out.push(p.clone());
                    pointers(c, p, out);
                }),
                Value::Array(a) => a.iter().enumerate().for_each(|(i, c)| {
                    let p = format!("{at}/{i}");
                    out.push(p.clone());
                    pointers(c, p, out);
                }),
                _ => {}
            }
        }
        let junk = [
            json!(null),
            json!("lots"),
            json!(1e300),
            json!(-9_223_372_036_854_775_808i64),
            json!([]),
            json!({}),
            json!(true),
            json!("[[/damage 99999d99999]] @UUID[ &Reference[ [[lookup @x"),
        ];
        let bases = [
            (fixture("foundry-owlbear.json"), junk.len()),
            (legacy_dragon(), junk.len()),
            (fixture("foundry-adult-red-dragon.json"), 3),
            (fixture("foundry-mage.json"), 2),
        ];
        for (base, kinds) in &bases {
            let mut paths = Vec::new();
            pointers(base, String::new(), &mut paths);
            for p in &paths {
                for j in &junk[..*kinds] {
                    let mut v = base.clone();
                    *v.pointer_mut(p).unwrap() = j.clone();
                    let _ = read(&v);
                }
            }
        }
    }

    #[test]
    fn formulas_evaluate_to_printed_dice() {
        let vars = |n: &str| match n {
            "mod" => Some(5.0),
            "prof" => Some(3.0),
            _ => None,
        };
        let d = eval_formula("2d10 + @mod", &vars).unwrap();
        assert_eq!(
            (d.formula(), d.average(), d.printed()),
            ("2d10 + 5".into(), 16, "16 (2d10 + 5)".into())
        );
        assert_eq!(
            eval_formula("1d4-1", &vars).unwrap().printed(),
            "1 (1d4 - 1)"
        );
        assert_eq!(
            eval_formula("1d6 + 1d6 + 2d8[fire]", &vars)
                .unwrap()
                .formula(),
            "2d6 + 2d8"
        );
        assert_eq!(eval_formula("@prof * 2", &vars).unwrap().printed(), "6");
        assert_eq!(
            eval_formula("floor(@mod / 2) + d8", &vars)
                .unwrap()
                .formula(),
            "1d8 + 2"
        );
        assert_eq!(eval_formula("", &vars), Some(Dice::default()));
        assert_eq!(eval_formula("2d20kh", &vars), None);
        assert_eq!(eval_formula("1d6 + @scale.rogue.sneak", &vars), None);
        assert_eq!(eval_formula("2d6 - 1d4", &vars), None);
        assert_eq!(eval_formula(&"(".repeat(100), &vars), None);
        assert_eq!(eval_formula("5000d6", &vars), None);
    }

    #[test]
    fn challenge_ratings_and_proficiency() {
        assert_eq!(cr_text(0.125).as_deref(), Some("1/8"));
        assert_eq!(cr_text(0.25).as_deref(), Some("1/4"));
        assert_eq!(cr_text(0.5).as_deref(), Some("1/2"));
        assert_eq!(cr_text(17.0).as_deref(), Some("17"));
        assert_eq!(cr_text(0.3), None);
        let profs: Vec<i64> = [
            0.0, 4.0, 5.0, 8.0, 9.0, 12.0, 13.0, 17.0, 21.0, 25.0, 29.0, 30.0,
        ]
        .iter()
        .map(|cr| proficiency_for_cr(*cr))
        .collect();
        assert_eq!(profs, [2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 9]);
    }

    #[test]
    fn html_and_enrichers_become_plain_words() {
        assert_eq!(
            html_to_text(
                "<section class=\"secret\"><p>GM <strong>text</strong>.</p></section><p>Players.</p>"
            ),
            "GM text."
        );
        assert_eq!(
            html_to_text("<p>a &amp; b&nbsp;c</p><p>d &#8211; e</p>"),
            "a & b c\nd – e"
        );
        let v = legacy_dragon();
        let system = &v["system"];
        let ctx = Ctx {
            name: "Adult Red Dragon".into(),
            system,
            items: v["items"].as_array().unwrap(),
            scores: [27, 10, 25, 16, 13, 21],
            prof: 6,
            cr: Some(17.0),
            spell_ability: Some(5),
            dc_bonus: 0,
            legact: Some(3),
        };
        let r = Resolver {
            ctx: &ctx,
            item: None,
        };
        let text = html_to_text(
            "<p>The [[lookup @name lowercase]]{monster} has the &amp;Reference[Prone apply=false] condition, \
             casts @UUID[Compendium.dnd5e.spells.Item.abc]{Fire Bolt} and bites ([[/item .bite000000000000]]) \
             for [[/r 1d10#Days]] days; DC [[lookup @attributes.spell.dc]] [[/save ability=wis dc=15 format=long]], \
             [[/check ability=str skill=ath dc=@attributes.spell.dc]]; [[/damage 2d6 fire average]] damage.\
             @Embed[Compendium.x caption=false]</p>",
        );
        assert_eq!(
            flatten(&r.resolve(&text)),
            "The adult red dragon has the Prone condition, casts Fire Bolt and bites (Bite) for 1d10 days; \
             DC 19 DC 15 Wisdom saving throw, DC 19 Strength (Athletics); 7 (2d6) Fire damage."
        );
    }

    #[test]
    fn narrative_save_riders_become_failure_lines() {
        assert_eq!(
            save_rider(
                "Each creature must succeed on a DC 16 Wisdom saving throw or become Frightened for 1 minute.",
                false
            ),
            "the target has the Frightened condition for 1 minute"
        );
        assert_eq!(
            save_rider(
                "The target must succeed on a DC 18 Wisdom saving throw against this magic or be knocked prone.",
                false
            ),
            "the target has the Prone condition"
        );
        assert_eq!(
            save_rider(
                "Each creature must make a DC 21 Dexterity saving throw, taking 63 (18d6) Fire damage on a failed save, or half as much damage on a successful one.",
                true
            ),
            ""
        );
    }
}
