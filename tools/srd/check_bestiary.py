#!/usr/bin/env python3
"""Check a woundsim bestiary file against the schema the round loop reads.

Usage (Python 3.11+, standard library only):

    python3 tools/srd/check_bestiary.py                     # data/srd-bestiary.toml
    python3 tools/srd/check_bestiary.py FILE.toml --legacy  # a hand-written bestiary

Every entry must have hp > 0, ac > 0, a saving throw for each of the six
abilities, dice that woundsim's dice parser accepts (`NdM`, `NdM+K`, `NdM-K`
or a whole number, within its limits) for every attack, rider and breath,
damage types woundsim knows (src/rules/damage.rs), multiattack names that
are among its attacks, and at least one attack or breath weapon, unless the
generator lists it as a creature that cannot fight (CANNOT_FIGHT, with the
reason). Unknown keys are errors, as in the Rust loader. Without `--legacy`
the keys the SRD generator adds (slug, srd, cr, xp, proficiency_bonus,
speed, type, not_modelled) are required and checked too.

Prints one line per problem (file, entry, field) and exits 1 if there is
any; otherwise prints the counts (entries, attacks, breaths, regenerations,
entries with not_modelled items) and exits 0.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_bestiary import (  # noqa: E402
    ABILITIES, CANNOT_FIGHT, CONDITIONS, DAMAGE_TYPES, DEFAULT_OUT, SIZES, XP_BY_CR,
)

CREATURE_TYPES = (
    "aberration", "beast", "celestial", "construct", "dragon", "elemental", "fey",
    "fiend", "giant", "humanoid", "monstrosity", "ooze", "plant", "undead",
)
# The keys src/scenario/creature.rs (RawCreature) accepts today, and the
# keys the SRD generator adds.
LEGACY_KEYS = {
    "creature", "template", "count", "name", "is_pc", "level", "size", "hp", "start_hp",
    "ac", "initiative", "saves", "medicine", "resistant", "immune", "vulnerable",
    "attacks", "multiattack", "crit_range", "once_per_turn", "heal", "potions", "breath",
    "regeneration", "rage", "reckless", "legendary_resistance", "legendary_actions",
    "magic_resistance", "pack_tactics", "sunlight", "bloodied_advantage", "absorbs", "war_cry", "parry", "spellcasting", "avoids_opportunity_attacks",
    "undead_fortitude", "death_burst", "damage_aura",
}
SRD_KEYS = {
    "slug", "srd", "type", "cr", "xp", "proficiency_bonus", "speed", "condition_immune",
    "not_modelled", "no_fight_effect",
}
REQUIRED_SRD = SRD_KEYS - {"condition_immune", "no_fight_effect"}
ATTACK_KEYS = {"name", "to_hit", "damage", "type", "reach", "two_handed", "rider", "spell", "knocks_prone", "charge", "poisons_on_hit",
               "grapples", "advantage", "bloodied", "advantage_damage", "save", "hit_condition",
               "spares_grappled"}
GRAPPLE_KEYS = {"escape", "size", "restrains", "holds"}
ADVANTAGES = ("grappled", "wounded")
RIDER_KEYS = {"dice", "type", "save", "dc"}
BREATH_KEYS = {"dice", "type", "save", "dc", "recharge", "targets"}
LEGENDARY_OPTION_KEYS = {"name", "attack", "save", "spell", "cost", "once_per_round", "moves_first"}
SPELLCASTING_KEYS = {"dc", "to_hit", "spells"}
INNATE_KEYS = {"spell", "level", "per_day", "replaces_attack", "legendary_only"}
SAVE_OPTION_KEYS = {"dice", "type", "save", "dc", "targets", "on_success"}
HAMPERED_KEYS = {"ac_penalty", "concentration_disadvantage", "speed_zero", "speed_halved"}
SPEEDS = ("walk", "fly", "swim", "climb", "burrow")
# woundsim's dice limits (src/dice/expr.rs).
MAX_COUNT, MAX_SIDES, MAX_MODIFIER = 100, 1000, 10_000
# Proficiency bonus by challenge rating (SRD).
PB_BY_CR = [(4, 2), (8, 3), (12, 4), (16, 5), (20, 6), (24, 7), (28, 8), (30, 9)]


def dice_ok(text: object) -> bool:
    if not isinstance(text, str):
        return False
    m = re.fullmatch(r"(\d+)d(\d+)([+-]\d+)?", text)
    if m:
        count, sides = int(m.group(1)), int(m.group(2))
        modifier = int(m.group(3) or 0)
        return 1 <= count <= MAX_COUNT and 1 <= sides <= MAX_SIDES and abs(modifier) <= MAX_MODIFIER
    m = re.fullmatch(r"-?\d+", text)
    return bool(m) and abs(int(text)) <= MAX_MODIFIER


def cr_value(cr: str) -> float:
    if "/" in cr:
        a, b = cr.split("/")
        return int(a) / int(b)
    return float(cr)


class Checker:
    def __init__(self, path: Path, legacy: bool):
        self.path = path
        self.legacy = legacy
        self.problems: list[str] = []

    def bad(self, entry: str, field: str, what: str) -> None:
        self.problems.append(f"{self.path}: [{entry}] {field}: {what}")

    def int_in(self, entry: str, field: str, value: object, lo: int, hi: int) -> bool:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            self.bad(entry, field, f"{value!r} is not a whole number in {lo}..={hi}")
            return False
        return True

    def types(self, entry: str, field: str, values: object, allowed) -> None:
        if not isinstance(values, list) or len(set(values)) != len(values):
            self.bad(entry, field, f"{values!r} is not a list without repeats")
            return
        for v in values:
            if v not in allowed:
                self.bad(entry, field, f"unknown {v!r}")

    def rider(self, entry: str, field: str, r: object) -> None:
        if not isinstance(r, dict):
            self.bad(entry, field, "not a table")
            return
        for k in r.keys() - RIDER_KEYS:
            self.bad(entry, f"{field}.{k}", "unknown key")
        if not dice_ok(r.get("dice")):
            self.bad(entry, f"{field}.dice", f"{r.get('dice')!r} is not NdM+K dice")
        if r.get("type") not in DAMAGE_TYPES:
            self.bad(entry, f"{field}.type", f"unknown damage type {r.get('type')!r}")
        if ("save" in r) != ("dc" in r):
            self.bad(entry, field, "`save` and `dc` go together")
        if "save" in r and r["save"] not in ABILITIES:
            self.bad(entry, f"{field}.save", f"unknown ability {r['save']!r}")
        if "dc" in r:
            self.int_in(entry, f"{field}.dc", r["dc"], 1, 30)

    def attack(self, entry: str, i: int, a: object) -> str | None:
        f = f"attacks[{i}]"
        if not isinstance(a, dict):
            self.bad(entry, f, "not a table")
            return None
        for k in a.keys() - ATTACK_KEYS:
            self.bad(entry, f"{f}.{k}", "unknown key")
        for k in ("name", "damage", "type"):
            if k not in a:
                self.bad(entry, f"{f}.{k}", "missing")
        if ("to_hit" in a) == ("save" in a):
            self.bad(entry, f"{f}.to_hit", "an attack has a to_hit or a save, not both or neither")
        if "save" in a:
            sv = a["save"]
            if not isinstance(sv, dict) or set(sv) != {"ability", "dc", "on_success"}:
                self.bad(entry, f"{f}.save", f"{sv!r} is not {{ ability, dc, on_success }}")
            else:
                if sv["ability"] not in ABILITIES:
                    self.bad(entry, f"{f}.save.ability", f"unknown ability {sv['ability']!r}")
                self.int_in(entry, f"{f}.save.dc", sv["dc"], 1, 30)
                if sv["on_success"] not in ("half", "none"):
                    self.bad(entry, f"{f}.save.on_success", f"{sv['on_success']!r} is not half or none")
        if not isinstance(a.get("name"), str) or not a.get("name"):
            self.bad(entry, f"{f}.name", "not a name")
        if "save" not in a:
            self.int_in(entry, f"{f}.to_hit", a.get("to_hit"), -10, 30)
        if not dice_ok(a.get("damage")):
            self.bad(entry, f"{f}.damage", f"{a.get('damage')!r} is not NdM+K dice")
        if a.get("type") not in DAMAGE_TYPES:
            self.bad(entry, f"{f}.type", f"unknown damage type {a.get('type')!r}")
        if a.get("reach", "melee") not in ("melee", "ranged"):
            self.bad(entry, f"{f}.reach", f"{a.get('reach')!r} is not melee or ranged")
        for k in ("two_handed", "spell", "poisons_on_hit", "spares_grappled"):
            if k in a and not isinstance(a[k], bool):
                self.bad(entry, f"{f}.{k}", "not true or false")
        if "knocks_prone" in a and a["knocks_prone"] not in SIZES:
            self.bad(entry, f"{f}.knocks_prone", f"{a['knocks_prone']!r} is not one of {', '.join(SIZES)}")
        if "charge" in a:
            c = a["charge"]
            if not isinstance(c, dict) or c.keys() - {"feet", "size", "damage", "type", "prone"}:
                self.bad(entry, f"{f}.charge", f"{c!r} is not {{ feet, size, damage, type, prone }}")
            else:
                self.int_in(entry, f"{f}.charge.feet", c.get("feet"), 5, 120)
                if c.get("size") not in SIZES:
                    self.bad(entry, f"{f}.charge.size", f"{c.get('size')!r} is not one of {', '.join(SIZES)}")
                if ("damage" in c) != ("type" in c):
                    self.bad(entry, f"{f}.charge", "`damage` and `type` go together")
                if "damage" in c and not dice_ok(c["damage"]):
                    self.bad(entry, f"{f}.charge.damage", f"{c['damage']!r} is not NdM+K dice")
                if "type" in c and c["type"] not in DAMAGE_TYPES:
                    self.bad(entry, f"{f}.charge.type", f"unknown damage type {c['type']!r}")
                if "prone" in c and c["prone"] is not True:
                    self.bad(entry, f"{f}.charge.prone", "`prone = true` or left out")
                if "damage" not in c and not c.get("prone"):
                    self.bad(entry, f"{f}.charge", "a charge adds damage, knocks prone, or both")
        if "grapples" in a:
            self.grapple(entry, f"{f}.grapples", a["grapples"])
        if "bloodied" in a:
            b = a["bloodied"]
            if not isinstance(b, dict) or set(b) != {"damage", "of"}:
                self.bad(entry, f"{f}.bloodied", f"{b!r} is not {{ damage, of }}")
            else:
                if not dice_ok(b["damage"]):
                    self.bad(entry, f"{f}.bloodied.damage", f"{b['damage']!r} is not NdM+K dice")
                if b["of"] not in ("attacker", "target"):
                    self.bad(entry, f"{f}.bloodied.of", f"{b['of']!r} is not attacker or target")
        if "advantage_damage" in a:
            x = a["advantage_damage"]
            if not isinstance(x, dict) or set(x) != {"dice", "type"}:
                self.bad(entry, f"{f}.advantage_damage", f"{x!r} is not {{ dice, type }}")
            else:
                if not dice_ok(x["dice"]):
                    self.bad(entry, f"{f}.advantage_damage.dice", f"{x['dice']!r} is not NdM+K dice")
                if x["type"] not in DAMAGE_TYPES:
                    self.bad(entry, f"{f}.advantage_damage.type", f"unknown damage type {x['type']!r}")
        if "hit_condition" in a:
            h = a["hit_condition"]
            if not isinstance(h, dict) or set(h) != {"save", "dc", "condition"}:
                self.bad(entry, f"{f}.hit_condition", f"{h!r} is not {{ save, dc, condition }}")
            else:
                if h["save"] not in ABILITIES:
                    self.bad(entry, f"{f}.hit_condition.save", f"unknown ability {h['save']!r}")
                self.int_in(entry, f"{f}.hit_condition.dc", h["dc"], 1, 30)
                if h["condition"] not in {c.lower() for c in CONDITIONS} - {"exhaustion"}:
                    self.bad(entry, f"{f}.hit_condition.condition", f"unknown condition {h['condition']!r}")
        if "advantage" in a and a["advantage"] not in ADVANTAGES:
            self.bad(entry, f"{f}.advantage", f"{a['advantage']!r} is not one of {', '.join(ADVANTAGES)}")
        if "rider" in a:
            self.rider(entry, f"{f}.rider", a["rider"])
        return a.get("name") if isinstance(a.get("name"), str) else None

    def area_save(self, entry: str, f: str, v: object) -> None:
        """A saving throw against damage (a legendary option's `save`, a
        `death_burst`): `{ dice, type, save, dc, targets, on_success }`."""
        if not isinstance(v, dict) or not SAVE_OPTION_KEYS <= set(v) <= SAVE_OPTION_KEYS | {"on_failure"}:
            self.bad(entry, f, f"{v!r} is not {{ {', '.join(sorted(SAVE_OPTION_KEYS))} }}")
            return
        if not dice_ok(v["dice"]):
            self.bad(entry, f"{f}.dice", f"{v['dice']!r} is not NdM+K dice")
        if v["type"] not in DAMAGE_TYPES:
            self.bad(entry, f"{f}.type", f"unknown damage type {v['type']!r}")
        if v["save"] not in ABILITIES:
            self.bad(entry, f"{f}.save", f"unknown ability {v['save']!r}")
        if v["on_success"] not in ("half", "none"):
            self.bad(entry, f"{f}.on_success", f"{v['on_success']!r} is not half or none")
        self.int_in(entry, f"{f}.dc", v["dc"], 1, 30)
        self.int_in(entry, f"{f}.targets", v["targets"], 1, 20)
        if "on_failure" in v:
            h = v["on_failure"]
            if not isinstance(h, dict) or not h or set(h) - HAMPERED_KEYS:
                self.bad(entry, f"{f}.on_failure", f"{h!r} is not a table of {', '.join(sorted(HAMPERED_KEYS))}")
            else:
                if "ac_penalty" in h:
                    self.int_in(entry, f"{f}.on_failure.ac_penalty", h["ac_penalty"], 1, 10)
                for k in HAMPERED_KEYS - {"ac_penalty"}:
                    if k in h and h[k] is not True:
                        self.bad(entry, f"{f}.on_failure.{k}", "`true` or left out")

    def grapple(self, entry: str, f: str, g: object) -> None:
        """`grapples = { escape, size, restrains?, holds? }`."""
        if not isinstance(g, dict) or not {"escape", "size"} <= set(g) or set(g) - GRAPPLE_KEYS:
            self.bad(entry, f, f"{g!r} is not {{ escape, size, restrains?, holds? }}")
            return
        self.int_in(entry, f"{f}.escape", g["escape"], 1, 30)
        if g["size"] not in SIZES:
            self.bad(entry, f"{f}.size", f"{g['size']!r} is not one of {', '.join(SIZES)}")
        if "restrains" in g and not isinstance(g["restrains"], bool):
            self.bad(entry, f"{f}.restrains", "not true or false")
        if "holds" in g:
            self.int_in(entry, f"{f}.holds", g["holds"], 1, 10)

    def spellcasting(self, entry: str, sc: object) -> list:
        """`spellcasting = { dc, to_hit, spells = [{ spell, level, per_day?,
        replaces_attack? }] }`: the spells' names."""
        if not isinstance(sc, dict) or set(sc) != SPELLCASTING_KEYS:
            self.bad(entry, "spellcasting", f"{sc!r} is not {{ dc, to_hit, spells }}")
            return []
        self.int_in(entry, "spellcasting.dc", sc["dc"], 1, 40)
        self.int_in(entry, "spellcasting.to_hit", sc["to_hit"], -10, 30)
        names = []
        spells = sc["spells"] if isinstance(sc["spells"], list) else []
        if not spells:
            self.bad(entry, "spellcasting.spells", "not a list of spells")
        for i, v in enumerate(spells):
            f = f"spellcasting.spells[{i}]"
            if not isinstance(v, dict) or v.keys() - INNATE_KEYS or "spell" not in v:
                self.bad(entry, f, f"{v!r} is not {{ spell, level?, per_day?, replaces_attack? }}")
                continue
            if v["spell"] in names:
                self.bad(entry, f"{f}.spell", f"{v['spell']!r} is listed twice")
            names.append(v["spell"])
            if "level" in v:
                self.int_in(entry, f"{f}.level", v["level"], 0, 9)
            if "per_day" in v:
                self.int_in(entry, f"{f}.per_day", v["per_day"], 1, 20)
            for k in ("replaces_attack", "legendary_only"):
                if k in v and not isinstance(v[k], bool):
                    self.bad(entry, f"{f}.{k}", "not true or false")
        return names

    def legendary(self, entry: str, la: object, attacks: list, spells: list | None = None) -> None:
        """`legendary_actions = { uses, options = [{ name, attack, ... }] }`."""
        if not isinstance(la, dict) or la.keys() != {"uses", "options"}:
            self.bad(entry, "legendary_actions", f"{la!r} is not {{ uses, options }}")
            return
        self.int_in(entry, "legendary_actions.uses", la["uses"], 1, 5)
        options = la["options"]
        if not isinstance(options, list) or not 1 <= len(options) <= 8:
            self.bad(entry, "legendary_actions.options", "not a list of 1 to 8 options")
            return
        seen = set()
        for i, o in enumerate(options):
            f = f"legendary_actions.options[{i}]"
            if (not isinstance(o, dict) or o.keys() - LEGENDARY_OPTION_KEYS or "name" not in o
                    or sum(k in o for k in ("attack", "save", "spell")) != 1):
                self.bad(entry, f, f"{o!r} is not {{ name, attack, save or spell, cost?, once_per_round?, moves_first? }}")
                continue
            if o["name"] in seen:
                self.bad(entry, f"{f}.name", f"{o['name']!r} is listed twice")
            seen.add(o["name"])
            if "spell" in o and o["spell"] not in (spells or []):
                self.bad(entry, f"{f}.spell", f"{o['spell']!r} is not a spell of its spellcasting")
            if "attack" in o and o["attack"] not in attacks:
                self.bad(entry, f"{f}.attack", f"{o['attack']!r} is not one of its attacks")
            if "save" in o:
                self.area_save(entry, f"{f}.save", o["save"])
            if "cost" in o:
                self.int_in(entry, f"{f}.cost", o["cost"], 1, la["uses"] if isinstance(la["uses"], int) else 5)
            for k in ("once_per_round", "moves_first"):
                if k in o and not isinstance(o[k], bool):
                    self.bad(entry, f"{f}.{k}", "not true or false")

    def entry(self, key: str, e: object) -> dict:
        counts = {"attacks": 0, "breath": 0, "regeneration": 0, "not_modelled": 0}
        if not isinstance(e, dict):
            self.bad(key, "-", "not a table")
            return counts
        allowed = LEGACY_KEYS | SRD_KEYS
        for k in e.keys() - allowed:
            self.bad(key, k, "unknown key")
        if not self.legacy:
            for k in sorted(REQUIRED_SRD - e.keys()):
                self.bad(key, k, "missing")
        # The numbers the loop reads.
        self.int_in(key, "hp", e.get("hp"), 1, 100_000)
        self.int_in(key, "ac", e.get("ac"), 1, 40)
        self.int_in(key, "initiative", e.get("initiative"), -10, 20)
        if "medicine" in e:
            self.int_in(key, "medicine", e["medicine"], -10, 20)
        if e.get("size") not in SIZES:
            self.bad(key, "size", f"{e.get('size')!r} is not one of {', '.join(SIZES)}")
        saves = e.get("saves")
        if not isinstance(saves, dict) or set(saves) != set(ABILITIES):
            self.bad(key, "saves", f"needs exactly {', '.join(ABILITIES)}, got {saves!r}")
        else:
            for a in ABILITIES:
                self.int_in(key, f"saves.{a}", saves[a], -10, 30)
        for k in ("resistant", "immune", "vulnerable"):
            if k in e:
                self.types(key, k, e[k], DAMAGE_TYPES)
        lists = [set(e.get(k, [])) for k in ("resistant", "immune", "vulnerable")]
        if lists[0] & lists[1] or lists[1] & lists[2] or lists[0] & lists[2]:
            self.bad(key, "resistant/immune/vulnerable", "a damage type in two lists")
        # Attacks, multiattack, breath, regeneration.
        attacks = e.get("attacks", [])
        names = []
        if not isinstance(attacks, list):
            self.bad(key, "attacks", "not a list")
            attacks = []
        for i, a in enumerate(attacks):
            n = self.attack(key, i, a)
            if n is not None:
                if n in names:
                    self.bad(key, f"attacks[{i}].name", f"{n!r} twice")
                names.append(n)
        counts["attacks"] = len(attacks)
        if any(isinstance(a, dict) and a.get("spares_grappled") for a in attacks) \
                and not any(isinstance(a, dict) and "grapples" in a for a in attacks):
            self.bad(key, "attacks", "an attack spares_grappled, but no attack grapples")
        multi = e.get("multiattack", [])
        if not isinstance(multi, list):
            self.bad(key, "multiattack", "not a list")
            multi = []
        for i, n in enumerate(multi):
            if n not in names:
                self.bad(key, f"multiattack[{i}]", f"{n!r} is not one of this creature's attacks")
        if names and not multi and not self.legacy:
            self.bad(key, "multiattack", "empty although the creature has attacks")
        if "breath" in e:
            b = e["breath"]
            counts["breath"] = 1
            if not isinstance(b, dict):
                self.bad(key, "breath", "not a table")
            else:
                for k in b.keys() - BREATH_KEYS:
                    self.bad(key, f"breath.{k}", "unknown key")
                if not dice_ok(b.get("dice")):
                    self.bad(key, "breath.dice", f"{b.get('dice')!r} is not NdM+K dice")
                if b.get("type") not in DAMAGE_TYPES:
                    self.bad(key, "breath.type", f"unknown damage type {b.get('type')!r}")
                if b.get("save") not in ABILITIES:
                    self.bad(key, "breath.save", f"unknown ability {b.get('save')!r}")
                self.int_in(key, "breath.dc", b.get("dc"), 1, 30)
                self.int_in(key, "breath.recharge", b.get("recharge"), 1, 6)
                self.int_in(key, "breath.targets", b.get("targets"), 1, 20)
        if "regeneration" in e:
            r = e["regeneration"]
            counts["regeneration"] = 1
            if not isinstance(r, dict) or r.keys() - {"hp", "stopped_by", "revives"}:
                self.bad(key, "regeneration", f"{r!r} is not {{ hp, stopped_by, revives }}")
            else:
                self.int_in(key, "regeneration.hp", r.get("hp"), 1, 1000)
                self.types(key, "regeneration.stopped_by", r.get("stopped_by", []), DAMAGE_TYPES)
                if not isinstance(r.get("revives", True), bool):
                    self.bad(key, "regeneration.revives", "not true or false")
                if not self.legacy and "revives" not in r:
                    self.bad(key, "regeneration.revives", "missing")
        if "war_cry" in e:
            c = e["war_cry"]
            if not isinstance(c, dict) or set(c) != {"temp_hp", "recharge"}:
                self.bad(key, "war_cry", f"{c!r} is not {{ temp_hp, recharge }}")
            else:
                if not dice_ok(c["temp_hp"]):
                    self.bad(key, "war_cry.temp_hp", f"{c['temp_hp']!r} is not NdM+K dice")
                self.int_in(key, "war_cry.recharge", c["recharge"], 2, 6)
        if "absorbs" in e:
            self.types(key, "absorbs", e["absorbs"], DAMAGE_TYPES)
        if "bloodied_advantage" in e and e["bloodied_advantage"] not in ("attacks", "attacks_and_saves"):
            self.bad(key, "bloodied_advantage", f"{e['bloodied_advantage']!r} is not \"attacks\" or \"attacks_and_saves\"")
        if "sunlight" in e and e["sunlight"] not in ("sensitivity", "weakness"):
            self.bad(key, "sunlight", f"{e['sunlight']!r} is not \"sensitivity\" or \"weakness\"")
        for k in ("magic_resistance", "pack_tactics", "avoids_opportunity_attacks", "undead_fortitude"):
            if k in e and not isinstance(e[k], bool):
                self.bad(key, k, "not true or false")
        if "spellcasting" in e and "legendary_actions" not in e:
            self.spellcasting(key, e["spellcasting"])
        if "parry" in e:
            self.int_in(key, "parry", e["parry"], 0, 10)
        if "death_burst" in e:
            self.area_save(key, "death_burst", e["death_burst"])
        if "damage_aura" in e:
            a = e["damage_aura"]
            if not isinstance(a, dict) or not {"dice", "type", "targets"} <= set(a) \
                    or set(a) - {"dice", "type", "targets", "unless_incapacitated"}:
                self.bad(key, "damage_aura", f"{a!r} is not {{ dice, type, targets, unless_incapacitated? }}")
            else:
                if not dice_ok(a["dice"]):
                    self.bad(key, "damage_aura.dice", f"{a['dice']!r} is not NdM+K dice")
                if a["type"] not in DAMAGE_TYPES:
                    self.bad(key, "damage_aura.type", f"unknown damage type {a['type']!r}")
                self.int_in(key, "damage_aura.targets", a["targets"], 1, 20)
                if not isinstance(a.get("unless_incapacitated", False), bool):
                    self.bad(key, "damage_aura.unless_incapacitated", "not true or false")
        if "legendary_resistance" in e:
            self.int_in(key, "legendary_resistance", e["legendary_resistance"], 0, 10)
        if "legendary_actions" in e:
            self.legendary(key, e["legendary_actions"], names,
                           self.spellcasting(key, e["spellcasting"]) if "spellcasting" in e else [])
        fights = bool(names) or "breath" in e
        if not fights and key not in CANNOT_FIGHT and key != "training_dummy":
            self.bad(key, "attacks", "no attack and no breath, and not listed in CANNOT_FIGHT")
        if fights and key in CANNOT_FIGHT:
            self.bad(key, "attacks", "listed in CANNOT_FIGHT but it can fight")
        # The SRD generator's keys.
        if "slug" in e:
            if e["slug"] != key or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", str(e["slug"])):
                self.bad(key, "slug", f"{e['slug']!r} is not the table key in kebab case")
        if "srd" in e and e["srd"] not in ("5.1", "5.2"):
            self.bad(key, "srd", f"{e['srd']!r} is not 5.1 or 5.2")
        if "type" in e and e["type"] not in CREATURE_TYPES:
            self.bad(key, "type", f"unknown creature type {e['type']!r}")
        if "cr" in e:
            cr = e["cr"]
            if cr not in XP_BY_CR:
                self.bad(key, "cr", f"{cr!r} is not a challenge rating")
            else:
                xp = e.get("xp")
                if cr == "0" and xp not in (0, 10) or cr != "0" and xp != XP_BY_CR[cr]:
                    self.bad(key, "xp", f"{xp!r} does not match CR {cr}")
                pb = next(p for top, p in PB_BY_CR if cr_value(cr) <= top)
                # A hand-written entry may give its CR without the bonus.
                optional = self.legacy and "proficiency_bonus" not in e
                if not optional and e.get("proficiency_bonus") != pb:
                    self.bad(key, "proficiency_bonus", f"{e.get('proficiency_bonus')!r}, CR {cr} gives {pb}")
        if "speed" in e:
            sp = e["speed"]
            if not isinstance(sp, dict) or set(sp) - {"hover"} != set(SPEEDS):
                self.bad(key, "speed", f"needs exactly {', '.join(SPEEDS)} (and optionally hover)")
            else:
                for k in SPEEDS:
                    self.int_in(key, f"speed.{k}", sp[k], 0, 1000)
                if "hover" in sp and sp["hover"] is not True:
                    self.bad(key, "speed.hover", "only written as true")
        if "condition_immune" in e:
            self.types(key, "condition_immune", e["condition_immune"], {c.lower() for c in CONDITIONS})
        if "not_modelled" in e:
            nm = e["not_modelled"]
            if not isinstance(nm, list) or not all(isinstance(s, str) and s.strip() for s in nm) or len(set(nm)) != len(nm):
                self.bad(key, "not_modelled", "not a list of distinct non-empty strings")
            elif nm:
                counts["not_modelled"] = 1
        if "no_fight_effect" in e:
            nf = e["no_fight_effect"]
            if not isinstance(nf, list) or not nf or not all(isinstance(s, str) and s.strip() for s in nf) \
                    or len(set(nf)) != len(nf):
                self.bad(key, "no_fight_effect", "not a list of distinct non-empty strings")
            elif set(nf) & set(e.get("not_modelled") or []):
                self.bad(key, "no_fight_effect", "names an item not_modelled lists too")
        return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", nargs="?", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--legacy", action="store_true", help="the SRD generator's keys are optional")
    args = ap.parse_args(argv)
    try:
        data = tomllib.loads(args.path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        print(f"{args.path}: {err}", file=sys.stderr)
        return 1
    c = Checker(args.path, args.legacy)
    totals = {"attacks": 0, "breath": 0, "regeneration": 0, "not_modelled": 0}
    for key, e in data.items():
        for k, v in c.entry(key, e).items():
            totals[k] += v
    if c.problems:
        print("\n".join(c.problems))
        return 1
    print(
        f"{args.path}: {len(data)} entries, {totals['attacks']} attacks, {totals['breath']} breath weapons, "
        f"{totals['regeneration']} regenerations, {totals['not_modelled']} entries with not_modelled items; "
        f"{sum(1 for k in data if k in CANNOT_FIGHT)} cannot fight ({', '.join(sorted(k for k in data if k in CANNOT_FIGHT))})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
