//! Items and their activities (dnd5e 3.x `actionType` and 4.x/5.x
//! `activities`): an attack's to-hit, reach and damage parts, a save's DC,
//! area and damage, recharge and uses, and the statblock section the item
//! belongs in.

use super::*;

/// What an activity does, in the order an item's main one is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
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
pub(super) struct Act<'a> {
    /// `_id` (or its key).
    pub(super) id: String,
    /// What it does.
    pub(super) kind: Kind,
    /// The activity (4.x+) or the item's `system` (3.x).
    pub(super) v: &'a Value,
    /// Whether `v` is a 3.x item's `system`.
    pub(super) legacy: bool,
    /// Whether it has a name of its own (a second "Attack with Advantage").
    pub(super) named: bool,
    /// Its `sort`.
    pub(super) sort: i64,
}

impl Act<'_> {
    /// `activation.type`.
    pub(super) fn activation(&self) -> &str {
        str_at(self.v, &["activation", "type"])
    }

    /// The legendary action cost (`activation.value`, 3.x `cost`).
    pub(super) fn cost(&self) -> Option<i64> {
        let key = if self.legacy { "cost" } else { "value" };
        whole(at(self.v, &["activation", key]))
    }
}

/// One item of the actor, with its activities.
pub(super) struct Item<'a> {
    /// The item object.
    pub(super) v: &'a Value,
    /// Its `system`.
    pub(super) sys: &'a Value,
    /// Its name.
    pub(super) name: String,
    /// Its `type`.
    pub(super) kind: &'a str,
    /// Its activities.
    pub(super) acts: Vec<Act<'a>>,
}

impl<'a> Item<'a> {
    /// Reads an item object.
    pub(super) fn new(v: &'a Value) -> Item<'a> {
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
    pub(super) fn primary(&self) -> Option<&Act<'a>> {
        self.acts.iter().min_by_key(|a| (a.kind, a.named, a.sort))
    }

    /// The activity `id`, else the first of `kinds`.
    pub(super) fn act(&self, id: Option<&str>, kinds: &[Kind]) -> Option<&Act<'a>> {
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
    pub(super) fn cached(&self) -> bool {
        at(self.v, &["flags", "dnd5e", "cachedFor"]).is_some()
    }

    /// Whether this is a weapon.
    pub(super) fn weapon(&self) -> bool {
        self.kind == "weapon"
    }

    /// Its description HTML as text (paragraphs on lines), enrichers kept.
    pub(super) fn description(&self) -> String {
        html_to_text(str_at(self.sys, &["description", "value"]))
    }

    /// Its identifier, or its name, in lower case.
    pub(super) fn key(&self) -> String {
        match str_at(self.sys, &["identifier"]) {
            "" => self.name.to_lowercase(),
            id => id.replace('-', " "),
        }
    }
}

/// A 4.x/5.x activity.
pub(super) fn modern_act<'a>(key: &str, a: &'a Value) -> Option<Act<'a>> {
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
pub(super) fn legacy_act(sys: &Value) -> Option<Act<'_>> {
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
pub(super) struct Part {
    /// The dice.
    pub(super) dice: Dice,
    /// Lower-case damage types.
    pub(super) types: Vec<String>,
}

impl Part {
    /// `10 (1d10 + 5) Piercing` (no "damage").
    pub(super) fn printed(&self) -> String {
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
pub(super) fn parts_before_damage(parts: &[Part]) -> String {
    parts
        .iter()
        .map(Part::printed)
        .collect::<Vec<_>>()
        .join(" damage plus ")
}

/// `A (f) T1 damage plus B (f) T2 damage`.
pub(super) fn parts_text(parts: &[Part]) -> String {
    format!("{} damage", parts_before_damage(parts))
}

/// A damage part of either schema: a 4.x `{number, denomination, bonus,
/// types, custom}` object or a 3.x `[formula, type]` pair.
pub(super) fn read_part(ctx: &Ctx, p: &Value, m: i64) -> Result<Part, String> {
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
pub(super) fn damage_formula(p: &Value) -> String {
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
pub(super) struct Attack {
    /// Whether it can be a melee attack.
    pub(super) melee: bool,
    /// Whether it can be a ranged attack.
    pub(super) ranged: bool,
    /// The attack bonus.
    pub(super) to_hit: i64,
    /// Reach in feet.
    pub(super) reach: i64,
    /// Normal and long range in feet.
    pub(super) range: Option<(i64, Option<i64>)>,
    /// Damage on a hit.
    pub(super) parts: Vec<Part>,
}

impl Attack {
    /// `Melee Attack Roll: +7, reach 5 ft` (no final period).
    pub(super) fn roll(&self) -> String {
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
    pub(super) fn head(&self) -> String {
        if self.parts.is_empty() {
            self.roll()
        } else {
            format!("{}. Hit: {}", self.roll(), parts_text(&self.parts))
        }
    }
}

/// The weapon type's attack type: "melee", "ranged", or None (natural,
/// improvised).
pub(super) fn weapon_attack_type(sys: &Value) -> Option<&'static str> {
    match str_at(sys, &["type", "value"]) {
        "simpleM" | "martialM" => Some("melee"),
        "simpleR" | "martialR" | "siege" => Some("ranged"),
        _ => None,
    }
}

/// The better of Strength and Dexterity.
pub(super) fn finesse(ctx: &Ctx) -> usize {
    if ctx.modifier(1) > ctx.modifier(0) {
        1
    } else {
        0
    }
}

/// An attack activity's numbers, or why they cannot be read.
pub(super) fn attack(ctx: &Ctx, item: &Item, act: &Act) -> Result<Attack, String> {
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
pub(super) fn reach_and_range(
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
pub(super) struct Save {
    /// The abilities it may be made with.
    pub(super) abilities: Vec<usize>,
    /// Its DC.
    pub(super) dc: i64,
    /// Damage on a failure.
    pub(super) parts: Vec<Part>,
    /// "half", "none" or "full".
    pub(super) on_save: String,
    /// Who it affects: "each creature in a 60-foot Cone".
    pub(super) area: String,
}

impl Save {
    /// `Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone.`
    pub(super) fn head(&self) -> String {
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
pub(super) fn save(ctx: &Ctx, item: &Item, act: &Act) -> Result<Save, String> {
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
pub(super) fn area_words(act: &Act) -> String {
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
pub(super) fn target_words(t: &str) -> (&'static str, &'static str) {
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
pub(super) fn recharge(ctx: &Ctx, item: &Item, act: Option<&Act>) -> Option<i64> {
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
pub(super) fn uses_per(ctx: &Ctx, uses: &Value) -> Option<(i64, &'static str)> {
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
pub(super) fn name_suffix(ctx: &Ctx, item: &Item, act: Option<&Act>) -> String {
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
pub(super) fn section_of(item: &Item, act: Option<&Act>) -> Section {
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
