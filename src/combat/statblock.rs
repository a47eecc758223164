//! A creature as a short statblock, for `woundsim show`: what the round
//! loop will use (hit points, armour class, saves, attacks, the features it
//! models), in the SRD's order and words; for a bestiary entry also its
//! source, type, challenge rating and XP, speeds, condition immunities and
//! the features the loop does not model ([`render_monster`]).

use std::fmt::Write;

use super::bestiary::{Monster, Speed};
use super::creature::{
    AttackAdvantage, BloodiedWho, CreatureSpec, HealTarget, LegendaryEffect, Reach,
};

/// `walk 40 ft, fly 80 ft (hover)`.
fn speeds(s: &Speed) -> String {
    let mut parts: Vec<String> = [
        ("walk", s.walk),
        ("fly", s.fly),
        ("swim", s.swim),
        ("climb", s.climb),
        ("burrow", s.burrow),
    ]
    .iter()
    .filter(|(_, feet)| *feet > 0)
    .map(|(how, feet)| format!("{how} {feet} ft"))
    .collect();
    if s.hover {
        parts.push("hover".to_string());
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

/// The statblock of a bestiary entry: [`render`] of its statistics, then
/// what the entry says that a fight does not use.
///
/// ```
/// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
/// let text = woundsim::combat::statblock::render_monster(catalog.bestiary.entry("adult-red-dragon").unwrap());
/// assert!(text.contains("CR 17 (18000 XP)"), "{text}");
/// let text = woundsim::combat::statblock::render_monster(catalog.bestiary.entry("kraken").unwrap());
/// assert!(text.contains("Not modelled"), "{text}");
/// ```
pub fn render_monster(m: &Monster) -> String {
    let mut out = render(&m.spec);
    let l = &m.lore;
    let mut source = match l.srd.as_deref() {
        Some(v) => format!("SRD {v}"),
        None => "no SRD version given".to_string(),
    };
    if let Some(kind) = &l.kind {
        let _ = write!(source, ", {kind}");
    }
    if let Some(cr) = &l.cr {
        let _ = write!(source, ", CR {cr}");
        if let Some(xp) = l.xp {
            let _ = write!(source, " ({xp} XP)");
        }
    } else if let Some(xp) = l.xp {
        let _ = write!(source, ", {xp} XP");
    }
    if let Some(pb) = l.proficiency_bonus {
        let _ = write!(source, ", proficiency bonus +{pb}");
    }
    let _ = writeln!(out, "  Bestiary name `{}`: {source}", m.key);
    if let Some(s) = &l.speed {
        let _ = writeln!(
            out,
            "  Speed {} (moves at the faster of walk and fly with positions)",
            speeds(s)
        );
    }
    if !l.condition_immunities.is_empty() {
        let _ = writeln!(
            out,
            "  Condition immunities: {} (no spell, hit or feature puts these on it)",
            l.condition_immunities.join(", ")
        );
    }
    if !l.not_modelled.is_empty() {
        let _ = writeln!(
            out,
            "  Not modelled (ignored or approximated by the round loop):"
        );
        for item in &l.not_modelled {
            let _ = writeln!(out, "    - {item}");
        }
    }
    if !l.no_fight_effect.is_empty() {
        let _ = writeln!(
            out,
            "  No effect in a woundsim fight (no water, terrain, objects, light, deception or time after it; monsters fight on rather than escape): {}",
            l.no_fight_effect.join(", ")
        );
    }
    out
}

/// `1 enemy`, `2 enemies`.
fn enemies(n: u8) -> String {
    if n == 1 {
        "1 enemy".to_string()
    } else {
        format!("{n} enemies")
    }
}

/// How an attack lands: `+5 to hit`, or `DC 16 Str save (none on a
/// success)` for one resolved by a saving throw.
fn lands(a: &crate::combat::creature::Attack) -> String {
    match a.save {
        None => format!("{} to hit", signed(a.to_hit)),
        Some(s) => format!(
            "DC {} {:?} save ({} on a success)",
            s.dc,
            s.ability,
            if s.half { "half" } else { "none" }
        ),
    }
}

/// A challenge rating as the SRD writes it: `1/2`, `3`.
fn challenge_text(cr: f32) -> String {
    [(0.125, "1/8"), (0.25, "1/4"), (0.5, "1/2")]
        .iter()
        .find(|(x, _)| *x == cr)
        .map_or_else(|| format!("{cr}"), |(_, text)| text.to_string())
}

/// `+3`, `-1`, `+0`.
fn signed(x: i32) -> String {
    format!("{x:+}")
}

/// The statblock of `spec`, one fact per line.
///
/// ```
/// let catalog = woundsim::scenario::data::builtin_catalog().unwrap();
/// let text = woundsim::combat::statblock::render(catalog.bestiary.lookup("ogre").unwrap());
/// assert!(text.contains("Hit points 59"), "{text}");
/// assert!(text.contains("greatclub: +6 to hit, 2d8+4 bludgeoning"), "{text}");
/// ```
pub fn render(spec: &CreatureSpec) -> String {
    let mut out = String::new();
    let kind = if spec.is_pc {
        format!("PC, level {}", spec.level)
    } else {
        "monster".to_string()
    };
    let _ = writeln!(out, "{} ({kind}, {:?})", spec.name, spec.size);
    let _ = writeln!(out, "  Hit points {}", spec.max_hp);
    if let Some(start) = spec.start_hp {
        let _ = writeln!(out, "  Starts the fight at {start} HP");
    }
    let _ = writeln!(out, "  Armour class {}", spec.ac);
    let _ = writeln!(out, "  Initiative {}", signed(spec.initiative));
    let saves: Vec<String> = ["Str", "Dex", "Con", "Int", "Wis", "Cha"]
        .iter()
        .zip(spec.saves)
        .map(|(a, s)| format!("{a} {}", signed(s)))
        .collect();
    let _ = writeln!(out, "  Saving throws {}", saves.join(", "));
    let _ = writeln!(out, "  Medicine {}", signed(spec.medicine));
    let d = &spec.defenses;
    for (label, types) in [
        ("Resistances", d.resistances),
        ("Immunities", d.immunities),
        ("Vulnerabilities", d.vulnerabilities),
    ] {
        if types.iter().next().is_some() {
            let _ = writeln!(out, "  {label}: {}", types.names());
        }
    }
    if d.reduction > 0 {
        let _ = writeln!(out, "  Damage reduction {} per hit", d.reduction);
    }
    let crit = match spec.crit_range {
        20 => "a 20".to_string(),
        r => format!("{r}-20"),
    };
    let _ = writeln!(out, "  Attacks (critical hit on {crit}):");
    for a in &spec.attacks {
        let mut line = format!(
            "    {}: {}, {} {}",
            a.name,
            lands(a),
            a.damage,
            a.kind.name()
        );
        if a.reach == Reach::Ranged {
            line.push_str(", ranged");
        }
        if a.two_handed {
            line.push_str(", two-handed");
        }
        if a.spell {
            line.push_str(", spell");
        }
        if let Some(r) = &a.rider {
            let _ = write!(line, ", plus {} {}", r.dice, r.kind.name());
            if let Some((ability, dc)) = r.save {
                let _ = write!(line, " (DC {dc} {ability:?} save for half)");
            }
        }
        if let Some(size) = a.knocks_prone {
            let _ = write!(line, ", knocks a {size:?} or smaller target prone");
        }
        if let Some(c) = a.charge {
            let _ = write!(
                line,
                ", after moving {}+ ft straight toward a {:?} or smaller target (positions):",
                c.feet, c.size
            );
            if let Some((dice, kind)) = c.damage {
                let _ = write!(line, " +{dice} {}", kind.name());
            }
            if c.prone {
                line.push_str(if c.damage.is_some() {
                    " and prone"
                } else {
                    " prone"
                });
            }
        }
        match a.advantage {
            Some(AttackAdvantage::Grappled) => {
                line.push_str(", advantage against a creature it grapples");
            }
            Some(AttackAdvantage::Wounded) => {
                line.push_str(", advantage against a creature below its hit point maximum");
            }
            None => {}
        }
        if let Some(b) = a.bloodied {
            let _ = write!(
                line,
                ", {} instead when {} Bloodied",
                b.damage,
                match b.of {
                    BloodiedWho::Attacker => "it is",
                    BloodiedWho::Target => "the target is",
                }
            );
        }
        if let Some((dice, kind)) = a.advantage_damage {
            let _ = write!(
                line,
                ", +{dice} {} when its roll has advantage",
                kind.name()
            );
        }
        if a.poisons_on_hit {
            line.push_str(", poisons until the end of its next turn");
        }
        if let Some(h) = a.hit_condition {
            let _ = write!(
                line,
                ", DC {} {:?} save or {} until the end of its next turn",
                h.dc,
                h.ability,
                h.condition.name()
            );
        }
        if let Some(g) = a.grapples {
            let _ = write!(
                line,
                ", grapples a {:?} or smaller target (escape DC {}{}{})",
                g.size,
                g.escape,
                if g.restrains { ", restrained" } else { "" },
                if g.holds > 1 {
                    format!(", up to {} at once", g.holds)
                } else {
                    String::new()
                }
            );
        }
        if a.spares_grappled {
            line.push_str(", never at a creature it grapples");
        }
        let _ = writeln!(out, "{line}");
    }
    if !spec.multiattack.is_empty() {
        let names: Vec<&str> = spec
            .multiattack
            .iter()
            .filter_map(|&i| spec.attacks.get(i).map(|a| a.name.as_str()))
            .collect();
        let _ = writeln!(out, "  Attack action: {}", names.join(", "));
    }
    if let Some(o) = &spec.once_per_turn {
        let uses = o
            .uses
            .map_or("every turn".to_string(), |u| format!("{u} uses"));
        let _ = writeln!(
            out,
            "  Once per turn on a hit: +{} {} ({uses})",
            o.dice,
            o.kind.name()
        );
    }
    if let Some(h) = &spec.heal {
        let target = match h.target {
            HealTarget::SelfOnly => "itself",
            HealTarget::Ally => "an ally",
        };
        let action = if h.bonus_action {
            "bonus action"
        } else {
            "action"
        };
        let uses = if h.uses == 1 {
            "1 use".to_string()
        } else {
            format!("{} uses", h.uses)
        };
        let _ = writeln!(out, "  Heals {target} for {} ({action}, {uses})", h.dice);
    }
    let potions: Vec<String> = crate::combat::creature::POTIONS
        .iter()
        .zip(spec.potions)
        .filter(|(_, n)| *n > 0)
        .map(|((name, dice), n)| format!("{n} × {} ({dice})", name.replace('_', " ")))
        .collect();
    if !potions.is_empty() {
        let _ = writeln!(out, "  Potions of healing: {}", potions.join(", "));
    }
    if let Some(book) = spec.spellbook.as_ref().filter(|b| !b.spells.is_empty()) {
        let names: Vec<&str> = book
            .spells
            .iter()
            .map(|&i| crate::rules::injury_cures::SPELLS[i].name)
            .collect();
        let slots: Vec<String> = book
            .slots
            .iter()
            .take(usize::from(book.highest_slot()))
            .map(u8::to_string)
            .collect();
        let _ = writeln!(
            out,
            "  Spells: {} (slots {}, modifier {:+}, {} diamonds)",
            names.join(", "),
            slots.join("/"),
            book.modifier,
            book.diamonds
        );
    }
    render_known_spells(spec, &mut out);
    if let Some(b) = &spec.breath {
        let _ = writeln!(
            out,
            "  Breath: {} {}, DC {} {:?} save for half, recharge {}-6, up to {} targets",
            b.dice,
            b.kind.name(),
            b.save.1,
            b.save.0,
            b.recharge,
            b.targets
        );
    }
    if let Some(r) = &spec.regeneration {
        let stopped = if r.stopped_by.iter().next().is_some() {
            format!(" unless hit by {}", r.stopped_by.names())
        } else {
            String::new()
        };
        let revives = if r.revives {
            "; at 0 HP it gets up again unless so stopped"
        } else {
            " while above 0 HP; dies at 0 HP"
        };
        let _ = writeln!(out, "  Regenerates {} HP a turn{stopped}{revives}", r.hp);
    }
    render_legendary(spec, &mut out);
    if let Some(r) = &spec.rage {
        let _ = writeln!(out, "  Rage: +{} damage, {} uses", r.damage_bonus, r.uses);
    }
    if spec.magic_resistance {
        let _ = writeln!(
            out,
            "  Magic Resistance: advantage on saves against spells and Turn Undead"
        );
    }
    if spec.pack_tactics {
        let _ = writeln!(
            out,
            "  Pack Tactics: advantage on attacks at a creature an able ally is next to"
        );
    }
    match spec.sunlight {
        Some(crate::combat::creature::Sunlight::Sensitivity) => {
            let _ = writeln!(
                out,
                "  Sunlight Sensitivity: disadvantage on attack rolls in a fight in sunlight (`sunlight = true`)"
            );
        }
        Some(crate::combat::creature::Sunlight::Weakness) => {
            let _ = writeln!(
                out,
                "  Sunlight Weakness: disadvantage on attack rolls and saving throws in a fight in sunlight (`sunlight = true`)"
            );
        }
        None => {}
    }
    if let Some(c) = spec.war_cry {
        let _ = writeln!(
            out,
            "  War Cry (bonus action, recharge {}-6): {} temporary hit points and advantage on attack rolls until the start of its next turn, for itself",
            c.recharge, c.temp_hp
        );
    }
    if spec.absorbs != crate::rules::damage::DamageTypes::NONE {
        let _ = writeln!(
            out,
            "  Absorption: {} damage dealt to it heals it by as much instead",
            spec.absorbs.names()
        );
    }
    if let Some(b) = spec.bloodied_advantage {
        let _ = writeln!(
            out,
            "  {}: advantage on attack rolls{} while Bloodied (at or below half its hit points)",
            if b.on_saves() {
                "Bloodied Frenzy"
            } else {
                "Bloodied Fury"
            },
            if b.on_saves() {
                " and saving throws"
            } else {
                ""
            }
        );
    }
    if spec.avoids_opportunity_attacks {
        let _ = writeln!(
            out,
            "  Flyby or Nimble Escape: its moves provoke no opportunity attacks (positions)"
        );
    }
    if spec.undead_fortitude {
        let _ = writeln!(
            out,
            "  Undead Fortitude: dropped to 0 HP (not by radiant damage or a critical hit), a DC 5 + damage Constitution save leaves it at 1 HP"
        );
    }
    if let Some(b) = &spec.death_burst {
        let _ = writeln!(
            out,
            "  Death Burst: {} {} to {} (DC {} {:?} save, {} on a success)",
            b.dice,
            b.kind.name(),
            enemies(b.targets),
            b.save.1,
            b.save.0,
            if b.half { "half" } else { "none" }
        );
    }
    if let Some(a) = &spec.damage_aura {
        let _ = writeln!(
            out,
            "  Damage aura: {} {} to {} at the end of each of its turns{}",
            a.dice,
            a.kind.name(),
            enemies(a.targets),
            if a.unless_incapacitated {
                ", unless incapacitated"
            } else {
                ""
            }
        );
    }
    if spec.parry > 0 {
        let _ = writeln!(
            out,
            "  Parry (reaction): +{} AC against one melee attack that would hit",
            spec.parry
        );
    }
    if spec.reckless {
        let _ = writeln!(out, "  Reckless Attack");
    }
    render_class_features(spec, &mut out);
    out
}

/// Legendary Resistance and the legendary actions the loop takes, one
/// line each.
fn render_legendary(spec: &CreatureSpec, out: &mut String) {
    if spec.legendary_resistance > 0 {
        let _ = writeln!(
            out,
            "  Legendary Resistance ({}/Day): a failed save against a condition becomes a success",
            spec.legendary_resistance
        );
    }
    if let Some(l) = &spec.legendary {
        let options: Vec<String> = l
            .options
            .iter()
            .map(|o| {
                let mut text = format!("{}: ", o.name);
                if o.moves_first {
                    text.push_str("moves, then ");
                }
                match &o.effect {
                    LegendaryEffect::Attack { name, .. } => {
                        text.push_str(&format!("one {name} attack"));
                    }
                    LegendaryEffect::Spell { name, .. } => {
                        text.push_str(&format!("casts {}", name.replace('_', " ")));
                    }
                    LegendaryEffect::Save(a) => text.push_str(&format!(
                        "{} {}, DC {} {:?} save for {}, {}{}",
                        a.dice,
                        a.kind.name(),
                        a.save.1,
                        a.save.0,
                        if a.half { "half" } else { "none" },
                        if a.targets == 1 {
                            "one target".to_string()
                        } else {
                            format!("up to {} targets", a.targets)
                        },
                        hampered_text(a.on_failure)
                    )),
                }
                if o.cost > 1 {
                    text.push_str(&format!(", costs {}", o.cost));
                }
                if o.once_per_round {
                    text.push_str(", once a round");
                }
                text
            })
            .collect();
        let _ = writeln!(
            out,
            "  Legendary actions: {} a round, after another creature's turn; {}",
            l.uses,
            options.join("; ")
        );
    }
}

/// The class features of [`crate::combat::creature::ClassFeatures`] it
/// has, and Evasion and Relentless Rage, one line each.
fn render_class_features(spec: &CreatureSpec, out: &mut String) {
    let c = &spec.class_features;
    let uses = |n: u8, per: &str| {
        let s = if n == 1 { "" } else { "s" };
        format!("{n} use{s} per {per} rest")
    };
    if spec.evasion {
        let _ = writeln!(out, "  Evasion");
    }
    if spec.relentless_rage {
        let _ = writeln!(out, "  Relentless Rage");
    }
    if c.action_surge > 0 {
        let _ = writeln!(
            out,
            "  Action Surge: the Attack action again on its first turn ({})",
            uses(c.action_surge, "short")
        );
    }
    if c.indomitable > 0 {
        let _ = writeln!(
            out,
            "  Indomitable: reroll a failed save ({})",
            uses(c.indomitable, "long")
        );
    }
    if c.uncanny_dodge {
        let _ = writeln!(out, "  Uncanny Dodge: reaction, halves a hit's damage");
    }
    if c.brutal_critical > 0 {
        let _ = writeln!(
            out,
            "  Brutal Critical: +{} weapon dice on a melee critical hit",
            c.brutal_critical
        );
    }
    if let Some(d) = c.deflect_missiles {
        let _ = writeln!(
            out,
            "  Deflect Missiles: reaction, {d} off a ranged weapon hit"
        );
    }
    if c.ki > 0 {
        let _ = writeln!(
            out,
            "  Stunning Strike: 1 ki, DC {} Con save or stunned ({} ki per short rest)",
            c.stun_dc, c.ki
        );
    }
    if c.aura > 0 {
        let _ = writeln!(
            out,
            "  Aura of Protection: allies within {} ft add +{} to saves",
            c.aura_feet, c.aura
        );
    }
    if c.inspiration_die > 0 && c.inspiration_uses > 0 {
        let rest = if c.inspiration_short_rest {
            "short"
        } else {
            "long"
        };
        let _ = writeln!(
            out,
            "  Bardic Inspiration: d{} to an ally's attack roll (bonus action, {})",
            c.inspiration_die,
            uses(c.inspiration_uses, rest)
        );
    }
    if c.preserve_life > 0 {
        let _ = writeln!(
            out,
            "  Preserve Life: {} HP among allies below half (action, {})",
            c.preserve_life_hp,
            uses(c.preserve_life, "short")
        );
    }
    if c.turn_undead {
        let destroy = c.destroy_cr.map_or(String::new(), |cr| {
            format!(
                "; Destroy Undead: challenge rating {} or lower",
                challenge_text(cr)
            )
        });
        let _ = writeln!(
            out,
            "  Turn Undead: each undead within 30 ft saves (Wis DC {}) or is turned until damaged (action, a Channel Divinity use){destroy}",
            c.turn_dc
        );
    }
    if c.dark_ones_blessing > 0 {
        let _ = writeln!(
            out,
            "  Dark One's Blessing: {} temporary hit points when it drops a hostile creature to 0 HP",
            c.dark_ones_blessing
        );
    }
    if c.fiendish_vigor {
        let _ = writeln!(
            out,
            "  Fiendish Vigor: false life at will before each fight, 1d4 + 4 temporary hit points"
        );
    }
    if c.repel_feet > 0 {
        let _ = writeln!(
            out,
            "  Repelling Blast: each eldritch blast hit pushes a Large or smaller creature {} ft away (with positions)",
            c.repel_feet
        );
    }
    if let Some(form) = spec.wild_shape.as_deref().filter(|_| c.wild_shape > 0) {
        let attacks: Vec<String> = form
            .multiattack
            .iter()
            .filter_map(|&i| form.attacks.get(i))
            .map(|a| format!("{} {}, {} {}", a.name, lands(a), a.damage, a.kind.name()))
            .collect();
        let _ = writeln!(
            out,
            "  Wild Shape ({}, an action): {} ({} HP, AC {}; {}); no spells in the form, concentration kept",
            uses(c.wild_shape, "short"),
            form.name,
            form.max_hp,
            form.ac,
            attacks.join(", ")
        );
    }
    if c.sorcery_points > 0 {
        let _ = writeln!(
            out,
            "  Quickened Spell: an action spell cast as a bonus action for 2 of {} sorcery points (per long rest)",
            c.sorcery_points
        );
    }
}

/// The slots and the attack, control and buff spells of `spec`, one line
/// each: level, casting time, what it does, DC or attack bonus.
fn render_known_spells(spec: &CreatureSpec, out: &mut String) {
    use crate::combat::spell::{CastingTime, Targets};
    let slots = spec.spell_slots();
    let highest = slots.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
    let pact = spec.spellbook.as_ref().is_some_and(|b| b.short_rest_slots);
    if pact && highest > 0 {
        let pact_level = slots[..5].iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
        if pact_level > 0 {
            let _ = writeln!(
                out,
                "  Pact Magic: {} slots of {} level (back on a short rest)",
                slots[pact_level - 1],
                ordinal(pact_level)
            );
        }
        let arcanum: Vec<String> = (6..=highest)
            .filter(|&l| slots[l - 1] > 0)
            .map(ordinal)
            .collect();
        if !arcanum.is_empty() {
            let _ = writeln!(
                out,
                "  Mystic Arcanum: one spell each of {} level (per long rest)",
                arcanum.join(", ")
            );
        }
    } else if highest > 0 {
        let list: Vec<String> = slots[..highest].iter().map(u8::to_string).collect();
        let _ = writeln!(
            out,
            "  Spell slots (1st to {}): {}",
            ordinal(highest),
            list.join("/")
        );
    }
    if spec.known_spells.is_empty() {
        return;
    }
    let _ = writeln!(out, "  Spells cast in a fight (docs/spells.md):");
    for k in &spec.known_spells {
        let s = &k.spell;
        let mut level = if s.level == 0 {
            "cantrip".to_string()
        } else {
            format!("level {}", s.level)
        };
        // A monster's Spellcasting: its level version and uses, no slot.
        if let Some(i) = k.innate {
            if i.level != s.level {
                level.push_str(&format!(" cast at level {}", i.level));
            }
            if i.per_day > 0 {
                level.push_str(&format!(", {}/day", i.per_day));
            } else {
                level.push_str(", at will");
            }
            if i.replaces_attack {
                level.push_str(", or in place of one attack");
            }
            if i.legendary_only {
                level.push_str(", by a legendary action only");
            }
        }
        let time = match s.casting_time {
            CastingTime::Action => "action",
            CastingTime::BonusAction => "bonus action",
            CastingTime::Reaction => "reaction",
            CastingTime::Long => "longer",
        };
        let mut what = Vec::new();
        match s.targets {
            Targets::Creatures { count, .. } if count > 1 => {
                what.push(format!("{count} creatures"))
            }
            Targets::Area { shape, size, .. } => {
                let n = crate::combat::spell::area_targets(shape, size);
                what.push(format!(
                    "{size}-ft {} ({n} target{})",
                    format!("{shape:?}").to_lowercase(),
                    if n == 1 { "" } else { "s" }
                ))
            }
            _ => {}
        }
        if s.attack.is_some() {
            what.push(format!("{} to hit", signed(k.to_hit)));
        }
        if let Some(save) = s.save {
            what.push(format!("DC {} {:?} save", k.dc, save.ability));
        }
        let damage: Vec<String> = s
            .damage
            .iter()
            .map(|d| format!("{} {}", d.dice, d.kind.name()))
            .collect();
        if !damage.is_empty() {
            let rolls = if s.rolls > 1 {
                format!("{} × ", s.rolls)
            } else {
                String::new()
            };
            let modifier = if k.modifier_damage != 0 {
                format!(" {} (spellcasting modifier)", signed(k.modifier_damage))
            } else {
                String::new()
            };
            what.push(format!("{rolls}{}{modifier}", damage.join(" + ")));
        }
        if k.damage_bonus != 0 {
            what.push(format!("{} damage", signed(k.damage_bonus)));
        }
        if let Some(limit) = s.kills_at_most_hp {
            what.push(format!("kills a creature with {limit} HP or fewer instead"));
        }
        if let Some(c) = s.condition {
            match c.hp_at_most {
                Some(limit) => what.push(format!(
                    "{} (a creature with {limit} HP or fewer)",
                    c.condition.name()
                )),
                None => what.push(c.condition.name().to_string()),
            }
        }
        if s.modifiers.is_some() {
            what.push("buff/debuff".to_string());
        }
        if s.ongoing.is_some() {
            what.push("again each round".to_string());
        }
        if s.concentration {
            what.push("concentration".to_string());
        }
        let _ = writeln!(
            out,
            "    {} ({level}, {time}): {}",
            s.title,
            what.join(", ")
        );
        for n in &s.not_modelled {
            let _ = writeln!(out, "      not modelled: {n}");
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// What a failed save does until the end of the target's next turn, as
/// `show` words it (empty for nothing).
fn hampered_text(h: crate::combat::creature::Hampered) -> String {
    let mut parts = Vec::new();
    if h.ac_penalty > 0 {
        parts.push(format!("-{} AC", h.ac_penalty));
    }
    if h.concentration_disadvantage {
        parts.push("disadvantage on concentration saves".to_string());
    }
    if h.speed_zero {
        parts.push("Speed 0 (positions)".to_string());
    }
    if h.speed_halved {
        parts.push("Speed halved (positions)".to_string());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(
            "; a failure also: {} until the end of its next turn",
            parts.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_template_lists_its_class_features() {
        let t = |name: &str| {
            let spec = crate::fixtures::catalog().templates.template(name).unwrap();
            super::render(&spec)
        };
        let fighter = t("fighter-9");
        assert!(
            fighter.contains(
                "Action Surge: the Attack action again on its first turn (1 use per short rest)"
            ),
            "{fighter}"
        );
        assert!(
            fighter.contains("Indomitable: reroll a failed save (1 use per long rest)"),
            "{fighter}"
        );
        assert!(!t("fighter-1").contains("Action Surge"));
        assert!(t("rogue-5").contains("Uncanny Dodge"));
        assert!(t("barbarian-13").contains("Brutal Critical: +2 weapon dice"));
        let monk = t("monk-5");
        assert!(
            monk.contains("Deflect Missiles: reaction, 1d10+9 off a ranged weapon hit"),
            "{monk}"
        );
        assert!(
            monk.contains("Stunning Strike: 1 ki, DC 13 Con save or stunned (5 ki per short rest)"),
            "{monk}"
        );
        assert!(
            t("paladin-18").contains("Aura of Protection: allies within 30 ft add +2 to saves")
        );
        assert!(t("bard-5").contains(
            "Bardic Inspiration: d8 to an ally's attack roll (bonus action, 4 uses per short rest)"
        ));
        assert!(t("cleric-2").contains(
            "Preserve Life: 10 HP among allies below half (action, 1 use per short rest)"
        ));
    }
}
