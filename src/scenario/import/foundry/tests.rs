//! Tests of the Foundry VTT reader.

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
