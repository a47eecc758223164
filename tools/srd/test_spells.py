"""Tests of tools/srd/generate_spells.py (standard library only):

    python3 -m unittest discover -s tools/srd -p 'test_*.py'

The schema checker and the tables are tested without the wheel; the tests
that convert the package skip when target/srd/ lacks the wheel.
"""

from __future__ import annotations

import copy
import io
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_spells as gs  # noqa: E402

HAVE_WHEEL = gs.DEFAULT_WHEEL.is_file()

FIREBALL = {
    "name": "fireball", "title": "Fireball", "level": 3, "school": "evocation",
    "classes": ["sorcerer", "wizard"], "casting_time": "action", "range": 150, "duration": 0,
    "concentration": False, "components": ["V", "S", "M"], "fight": "modelled",
    "targets": {"kind": "area", "shape": "sphere", "size": 20, "side": "any"},
    "save": {"ability": "dex", "success": "half"},
    "damage": [{"dice": "8d6", "type": "fire"}], "damage_per_slot": [{"dice": "1d6", "type": "fire"}],
}
EXPECTED = {
    "fireball": FIREBALL,
    "hold_person": {
        "name": "hold_person", "title": "Hold Person", "level": 2, "school": "enchantment",
        "classes": ["bard", "cleric", "druid", "sorcerer", "warlock", "wizard"], "casting_time": "action",
        "range": 60, "duration": 10, "concentration": True, "components": ["V", "S", "M"], "fight": "partial",
        "targets": {"kind": "creature", "side": "enemies"}, "targets_per_slot": 1,
        "save": {"ability": "wis", "success": "none"},
        "condition": {"name": "paralyzed", "repeat_save": "end_of_turn"},
        "not_modelled": ["only Humanoids"],
    },
    "bless": {
        "name": "bless", "title": "Bless", "level": 1, "school": "enchantment", "classes": ["cleric", "paladin"],
        "casting_time": "action", "range": 30, "duration": 10, "concentration": True, "components": ["V", "S", "M"],
        "fight": "modelled", "targets": {"kind": "creature", "count": 3, "side": "allies"}, "targets_per_slot": 1,
        "modifiers": {"attack_rolls": "1d4", "saves": "1d4"},
    },
    "eldritch_blast": {
        "name": "eldritch_blast", "title": "Eldritch Blast", "level": 0, "school": "evocation", "classes": ["warlock"],
        "casting_time": "action", "range": 120, "duration": 0, "concentration": False, "components": ["V", "S"],
        "fight": "modelled", "targets": {"kind": "creature", "side": "enemies"}, "attack": "ranged",
        "damage": [{"dice": "1d10", "type": "force"}], "cantrip_scaling": "rolls",
    },
    "shield": {
        "name": "shield", "title": "Shield", "level": 1, "school": "abjuration", "classes": ["sorcerer", "wizard"],
        "casting_time": "reaction", "trigger": "hit_by_attack", "range": 0, "duration": 1, "concentration": False,
        "components": ["V", "S"], "fight": "partial", "targets": {"kind": "self"}, "modifiers": {"ac": 5},
        "not_modelled": ["no damage from Magic Missile"],
    },
    "spirit_guardians": {
        "name": "spirit_guardians", "title": "Spirit Guardians", "level": 3, "school": "conjuration", "classes": ["cleric"],
        "casting_time": "action", "range": 0, "duration": 100, "concentration": True, "components": ["V", "S", "M"],
        "fight": "partial", "targets": {"kind": "area", "shape": "emanation", "size": 15, "side": "enemies"},
        "save": {"ability": "wis", "success": "half"}, "damage": [{"dice": "3d8", "type": "radiant"}],
        "damage_per_slot": [{"dice": "1d8", "type": "radiant"}], "ongoing": {"when": "end_of_turn", "enters": True},
        "not_modelled": ["Speed halved in the Emanation", "Necrotic instead of Radiant damage for an evil caster"],
    },
    "magic_missile": {
        "name": "magic_missile", "title": "Magic Missile", "level": 1, "school": "evocation", "classes": ["sorcerer", "wizard"],
        "casting_time": "action", "range": 120, "duration": 0, "concentration": False, "components": ["V", "S"],
        "fight": "modelled", "targets": {"kind": "creature", "side": "enemies"}, "rolls": 3, "rolls_per_slot": 1,
        "damage": [{"dice": "1d4+1", "type": "force"}],
    },
    "scorching_ray": {
        "name": "scorching_ray", "title": "Scorching Ray", "level": 2, "school": "evocation", "classes": ["sorcerer", "wizard"],
        "casting_time": "action", "range": 120, "duration": 0, "concentration": False, "components": ["V", "S"],
        "fight": "modelled", "targets": {"kind": "creature", "side": "enemies"}, "attack": "ranged", "rolls": 3,
        "rolls_per_slot": 1, "damage": [{"dice": "2d6", "type": "fire"}],
    },
}


class Checker(unittest.TestCase):
    """check_entry: a valid entry passes, each fault is reported."""

    def assertFault(self, change, fragment: str):
        e = copy.deepcopy(FIREBALL)
        change(e)
        problems = gs.check_entry(e)
        self.assertTrue(any(fragment in p for p in problems), problems)

    def test_valid(self):
        self.assertEqual(gs.check_entry(copy.deepcopy(FIREBALL)), [])

    def test_every_expected_entry_is_valid(self):
        for e in EXPECTED.values():
            self.assertEqual(gs.check_entry(copy.deepcopy(e)), [], e["name"])

    def test_faults(self):
        self.assertFault(lambda e: e.pop("school"), "missing school")
        self.assertFault(lambda e: e.update(colour="red"), "unknown keys")
        self.assertFault(lambda e: e.update(classes=[]), "classes")
        self.assertFault(lambda e: e.update(casting_time="minute"), "casting_time")
        self.assertFault(lambda e: e.update(trigger="falls"), "trigger")
        self.assertFault(lambda e: e.update(fight="partial"), "not_modelled")
        self.assertFault(lambda e: e.update(not_modelled=["x"]), "not_modelled")
        self.assertFault(lambda e: e.update(damage=[{"dice": "8x6", "type": "fire"}]), "dice")
        self.assertFault(lambda e: e.update(damage=[{"dice": "8d6", "type": "holy"}]), "type")
        self.assertFault(lambda e: e.update(save={"ability": "dex", "success": "quarter"}), "save")
        self.assertFault(lambda e: e.update(attack="thrown"), "attack")
        self.assertFault(lambda e: e.update(targets={"kind": "area", "shape": "blob", "size": 20, "side": "any"}), "targets")
        self.assertFault(lambda e: e.update(condition={"name": "sad", "repeat_save": "none"}), "condition")
        self.assertFault(lambda e: e.update(ongoing={"when": "caster_turn"}), "ongoing")
        self.assertFault(lambda e: e.update(modifiers={"luck": 1}), "modifiers")
        self.assertFault(lambda e: e.update(modifiers={"damage_on_hit": "1d6"}), "damage_type")
        self.assertFault(lambda e: e.update(cantrip_scaling="dice"), "cantrip_scaling")
        self.assertFault(lambda e: e.update(healing_per_slot="1d8"), "healing_per_slot")
        self.assertFault(lambda e: e.update(fight="no_fight_use", not_modelled=["x"]), "mechanics")

    def test_dice(self):
        for ok in ("1d4", "8d6", "1d4+1", "10d6+40", "70"):
            self.assertTrue(gs.is_dice(ok), ok)
        for bad in ("d6", "1d7", "1d4+", "-1d4", "0", ""):
            self.assertFalse(gs.is_dice(bad), bad)
        self.assertTrue(gs.is_signed("-1d4"))
        self.assertTrue(gs.is_signed(-2))


class Tables(unittest.TestCase):
    """The hand-written tables are consistent with each other."""

    def test_class_lists_sorted_and_unique(self):
        for cls, slugs in gs.CLASS_SPELL_LISTS.items():
            self.assertEqual(list(slugs), sorted(set(slugs)), cls)
        for cls in ("barbarian", "fighter", "monk", "rogue"):
            self.assertEqual(gs.CLASS_SPELL_LISTS[cls], ())

    def test_one_classification_per_spell(self):
        self.assertFalse(set(gs.MODELS) & set(gs.NOT_MODELLED))
        self.assertFalse(set(gs.MODELS) & set(gs.NO_FIGHT_USE))
        self.assertFalse(set(gs.NOT_MODELLED) & set(gs.NO_FIGHT_USE))

    def test_models_cite_the_srd(self):
        for slug, m in gs.MODELS.items():
            self.assertIn("srd", m, slug)
            self.assertIn(m["fight"], ("modelled", "partial"), slug)
            self.assertEqual("not_modelled" in m, m["fight"] == "partial", slug)

    def test_cross_check_catches_a_wrong_die(self):
        spell = {"activities": [{"kind": "save", "save": {"ability": ["dex"]},
                                 "damage": {"parts": [{"number": 8, "denomination": 6, "bonus": "", "types": ["fire"]}]}}]}
        self.assertEqual(gs.cross_check("x", spell, {"damage": [gs.dmg("8d6", "fire")], "save": gs.save("dex", "half")}), [])
        self.assertEqual(len(gs.cross_check("x", spell, {"damage": [gs.dmg("8d8", "cold")], "save": gs.save("con", "half")})), 3)


@unittest.skipUnless(HAVE_WHEEL, f"needs {gs.DEFAULT_WHEEL}")
class FromThePackage(unittest.TestCase):
    """Conversion of the real package."""

    @classmethod
    def setUpClass(cls):
        cls.spells = gs.read_spells(gs.DEFAULT_WHEEL)
        cls.entries = gs.build(cls.spells)
        cls.by_name = {e["name"]: e for e in cls.entries}

    def test_class_list_slugs_exist(self):
        for cls, slugs in gs.CLASS_SPELL_LISTS.items():
            for slug in slugs:
                self.assertTrue(slug in self.spells or slug in gs.EXTRA_SPELLS, f"{cls}: {slug}")

    def test_every_package_spell_appears(self):
        self.assertEqual({s.replace("-", "_") for s in self.spells} | {"ice_knife"}, set(self.by_name))

    def test_expected_entries(self):
        for name, expected in EXPECTED.items():
            self.assertEqual(self.by_name[name], expected, name)

    def test_deterministic(self):
        self.assertEqual(gs.render(gs.build(self.spells)), gs.render(self.entries))

    def test_check_detects_a_stale_file(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "spells.toml"
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                self.assertEqual(gs.main(["--out", str(out)]), 0)
                self.assertEqual(gs.main(["--out", str(out), "--check"]), 0)
                out.write_text(out.read_text(encoding="utf-8").replace('"8d6"', '"8d8"', 1), encoding="utf-8")
                self.assertEqual(gs.main(["--out", str(out), "--check"]), 1)

    def test_the_toml_parses(self):
        import tomllib
        data = tomllib.loads(gs.render(self.entries))
        self.assertEqual(data["spell"], self.entries)


if __name__ == "__main__":
    unittest.main()
