//! The actor's own numbers: scores, CR and proficiency, hit points, armour
//! class (flat, natural, default from the equipped armour, mage, the
//! unarmoured defences), speeds, saves, initiative, damage and condition
//! traits, legendary resources — checked strictly, errors at their path.

use super::*;

/// What the item readers need to know of the actor.
pub(super) struct Ctx<'a> {
    /// The actor's name.
    pub(super) name: String,
    /// Its `system` object.
    pub(super) system: &'a Value,
    /// Its items.
    pub(super) items: &'a [Value],
    /// Ability scores.
    pub(super) scores: [i64; 6],
    /// Proficiency bonus.
    pub(super) prof: i64,
    /// Challenge rating.
    pub(super) cr: Option<f64>,
    /// The spellcasting ability.
    pub(super) spell_ability: Option<usize>,
    /// `bonuses.spell.dc`.
    pub(super) dc_bonus: i64,
    /// Legendary actions a round.
    pub(super) legact: Option<i64>,
}

impl Ctx<'_> {
    /// An ability's modifier.
    pub(super) fn modifier(&self, i: usize) -> i64 {
        modifier(self.scores[i])
    }

    /// The DC of an ability: 8 + proficiency + modifier.
    pub(super) fn ability_dc(&self, i: usize) -> i64 {
        8 + self.prof + self.modifier(i) + self.dc_bonus
    }

    /// The spellcasting modifier (0 without a spellcasting ability).
    pub(super) fn spell_mod(&self) -> i64 {
        self.spell_ability.map_or(0, |i| self.modifier(i))
    }

    /// The spell save DC.
    pub(super) fn spell_dc(&self) -> i64 {
        whole(at(self.system, &["attributes", "spelldc"]))
            .filter(|d| (1..=100).contains(d))
            .unwrap_or(8 + self.prof + self.spell_mod() + self.dc_bonus)
    }

    /// The spell attack bonus.
    pub(super) fn spell_attack(&self) -> i64 {
        self.prof + self.spell_mod()
    }

    /// A skill's passive score: 10 + modifier + proficiency × multiplier.
    pub(super) fn passive(&self, skill: &str) -> Option<i64> {
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
    pub(super) fn var(&self, name: &str, m: i64) -> Option<f64> {
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
    pub(super) fn dice(&self, formula: &str, m: i64) -> Option<Dice> {
        eval_formula(formula, &|n| self.var(n, m))
    }

    /// A formula's constant value ("" is 0).
    pub(super) fn constant(&self, formula: &str, m: i64) -> Option<i64> {
        if formula.trim().is_empty() {
            return Some(0);
        }
        self.dice(formula, m)
            .filter(|d| d.groups.is_empty())
            .map(|d| d.flat)
    }

    /// A bonus formula's value, or why it cannot be read.
    pub(super) fn bonus(&self, formula: &str, m: i64) -> Result<i64, String> {
        self.constant(formula, m)
            .ok_or_else(|| format!("the bonus `{}` is not a plain number", formula.trim()))
    }
}

/// One actor into a statblock.
pub(super) fn read_actor(v: &Value, path: &str) -> Result<Statblock, ImportError> {
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
pub(super) fn read_scores(system: &Value, sys_path: &str) -> Result<[i64; 6], ImportError> {
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
pub(super) fn read_cr(details: &Value, path: &str) -> Result<Option<f64>, ImportError> {
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
pub(super) fn read_resource(
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
pub(super) fn read_kind(details: &Value) -> Option<String> {
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
pub(super) fn read_hp(
    ctx: &Ctx,
    attributes: &Value,
    attr_path: &str,
) -> Result<Option<i64>, ImportError> {
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
pub(super) fn read_ac(
    ctx: &Ctx,
    attributes: &Value,
    attr_path: &str,
) -> Result<Option<i64>, ImportError> {
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
pub(super) fn armour_ac(ctx: &Ctx) -> i64 {
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
pub(super) fn read_speed(attributes: &Value, attr_path: &str) -> Result<Speed, ImportError> {
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
pub(super) fn read_saves(ctx: &Ctx) -> [Option<i64>; 6] {
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
pub(super) fn read_initiative(
    ctx: &Ctx,
    attributes: &Value,
    notes: &mut Vec<String>,
) -> Option<i64> {
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
pub(super) fn read_traits(
    traits: &Value,
    path: &str,
    block: &mut Statblock,
) -> Result<(), ImportError> {
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
