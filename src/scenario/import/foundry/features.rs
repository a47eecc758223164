//! Items as statblock [`Feature`]s: one per item in the file's order, the
//! Spellcasting feature gathered from spell items and cast activities
//! (slots, at-will and per-day groups), Legendary Resistance and the
//! legendary-action count.

use super::*;

/// Spells gathered for the one Spellcasting feature.
#[derive(Default)]
pub(super) struct Spells {
    /// At will (innate or `atwill`).
    pub(super) at_will: Vec<String>,
    /// N/Day.
    pub(super) per_day: BTreeMap<i64, Vec<String>>,
    /// Level-0 slot spells.
    pub(super) cantrips: Vec<String>,
    /// Slot spells by level.
    pub(super) levels: BTreeMap<i64, Vec<String>>,
    /// Pact magic spells.
    pub(super) pact: Vec<String>,
}

impl Spells {
    /// Whether nothing was gathered.
    pub(super) fn is_empty(&self) -> bool {
        self.at_will.is_empty()
            && self.per_day.is_empty()
            && self.cantrips.is_empty()
            && self.levels.is_empty()
            && self.pact.is_empty()
    }

    /// A spell item, by its preparation (`method`/`prepared` in 5.x,
    /// `preparation.mode` before).
    pub(super) fn add_item(&mut self, ctx: &Ctx, item: &Item) {
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
    pub(super) fn add_casts(
        &mut self,
        ctx: &Ctx,
        item: &Item,
        labels: &[(String, String)],
    ) -> usize {
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
    pub(super) fn slots(ctx: &Ctx, level: i64) -> Option<i64> {
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
    pub(super) fn text(&self, ctx: &Ctx) -> String {
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

/// A full caster's spell slots of `level` at caster level `caster` (the
/// SRD's table, [`crate::rules::prices::full_caster_slots`]).
pub(super) fn full_caster_slots(caster: i64, level: i64) -> i64 {
    match (u8::try_from(caster), usize::try_from(level - 1)) {
        (Ok(c), Ok(l)) if (1..=20).contains(&c) && l < 9 => {
            i64::from(crate::rules::prices::full_caster_slots(c)[l])
        }
        _ => 0,
    }
}

/// `@UUID[uuid]{Label}` pairs of a description, in its order.
pub(super) fn uuid_labels(desc: &str) -> Vec<(String, String)> {
    segments(desc)
        .into_iter()
        .filter_map(|s| match s {
            Seg::Link(_, uuid, Some(label)) => Some((uuid.trim().to_string(), label.to_string())),
            _ => None,
        })
        .collect()
}

/// Item types that are never statblock entries.
pub(super) const SKIPPED_TYPES: [&str; 7] = [
    "loot",
    "container",
    "backpack",
    "class",
    "subclass",
    "race",
    "background",
];

/// Whether an item is a spellcasting trait.
pub(super) fn is_spellcasting(item: &Item) -> bool {
    let key = item.key();
    item.kind == "feat"
        && (key.starts_with("spellcasting") || key.starts_with("innate spellcasting"))
}

/// The Legendary Resistance trait.
pub(super) fn legendary_resistance(ctx: &Ctx, n: i64, text: Option<String>) -> Feature {
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
pub(super) fn legendary_count(text: &str) -> Option<i64> {
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

/// Whether an item has more than one activity of `kind` (alternatives such
/// as a legacy "Breath Weapons" item's two breaths).
pub(super) fn several(item: &Item, kind: Kind) -> bool {
    item.acts.iter().filter(|a| a.kind == kind).count() > 1
}

/// An item's feature; a note in `notes` where its numbers are unreadable.
pub(super) fn item_feature(ctx: &Ctx, item: &Item, notes: &mut Vec<String>) -> Feature {
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
        Some(a) if a.kind == Kind::Save && several(item, Kind::Save) => {
            match structured_save(&flatten(&r.resolve(&desc))) {
                Some(_) => {
                    save(ctx, item, a).map_or_else(|_| plain(), |s| save_text(&s, &r, &desc))
                }
                None => plain(),
            }
        }
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
pub(super) fn read_features(
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
