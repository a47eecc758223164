"""Tests of the SRD bestiary tools (standard library only):

    python3 -m unittest discover -s tools/srd -p 'test_*.py'

They need no wheel: the generator's pieces are tested on small hand-made
package records, and the checker on a valid entry with one fault at a time.
A run against the real file is `check_bestiary.py` itself.
"""

from __future__ import annotations

import copy
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_bestiary as cb  # noqa: E402
import generate_bestiary as gb  # noqa: E402


def attack(name: str, to_hit: int, damage: str) -> gb.Attack:
    return gb.Attack(name=name, to_hit=to_hit, damage=gb.parse_dice(damage), kind="slashing", reach="melee")


def monster(**over) -> dict:
    m = {
        "slug": "test", "name": "Test",
        "ability_scores": {"str": 18, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 8},
        "proficiency_bonus": 2, "spellcasting_ability": "cha",
        "special_abilities": [], "actions": [],
    }
    m.update(over)
    return m


def part(number, denomination, types, bonus="") -> dict:
    return {"number": number, "denomination": denomination, "bonus": bonus, "types": types,
            "custom": {"enabled": False, "formula": ""}}


def attack_activity(parts, ability="", value="", classification="", include_base=True) -> dict:
    return {
        "kind": "attack", "id": "x", "name": "",
        "attack": {"ability": ability, "bonus": "", "flat": False,
                   "type": {"value": value, "classification": classification}},
        "damage": {"include_base": include_base, "parts": parts},
    }


class Multiattack(unittest.TestCase):
    """The Multiattack sentence becomes a list of attack names."""

    def resolve(self, text: str, attacks: list[gb.Attack]) -> tuple[list[str], list[str]]:
        by_name = {a.name: a for a in attacks}
        plans, replacements = gb.plan_multiattack({}, text, "test")
        chosen, notes = gb.resolve_plan(plans[0], by_name)
        return chosen, notes

    def test_n_attacks_of_one_kind(self):
        chosen, _ = self.resolve("The monster makes two «Rend» attacks.", [attack("rend", 5, "1d8+3")])
        self.assertEqual(chosen, ["rend", "rend"])

    def test_one_of_this_and_two_of_that(self):
        chosen, _ = self.resolve(
            "The monster makes one «Bite» attack and two «Claw» attacks.",
            [attack("bite", 5, "1d10+3"), attack("claw", 5, "1d6+3")],
        )
        self.assertEqual(chosen, ["bite", "claw", "claw"])

    def test_any_combination_picks_the_best_each_time(self):
        chosen, _ = self.resolve(
            "The monster makes three attacks, using «Shortsword» or «Light Crossbow» in any combination.",
            [attack("shortsword", 5, "1d6+3"), attack("light crossbow", 5, "1d8+3")],
        )
        self.assertEqual(chosen, ["light crossbow"] * 3)

    def test_a_tie_keeps_the_first_listed(self):
        chosen, _ = self.resolve(
            "The monster makes two attacks, using «Scimitar» or «Shortbow» in any combination.",
            [attack("scimitar", 4, "1d6+2"), attack("shortbow", 4, "1d6+2")],
        )
        self.assertEqual(chosen, ["scimitar", "scimitar"])

    def test_a_special_action_is_dropped_and_noted(self):
        chosen, notes = self.resolve(
            "The monster makes one «Bite» attack and uses «Constrict».", [attack("bite", 5, "1d10+3")]
        )
        self.assertEqual(chosen, ["bite"])
        self.assertEqual(notes, ["uses Constrict"])

    def test_or_it_makes_takes_the_better_alternative(self):
        m = monster(actions=[{"name": "Multiattack", "activities": [], "description":
                              "The monster makes one [[/item Claws]] attack and one [[/item Tail]] attack, "
                              "or it makes two [[/item Hurl Flame]] attacks."}])
        attacks = {"claws": attack("claws", 6, "1d6"), "tail": attack("tail", 6, "1d6"),
                   "hurl flame": attack("hurl flame", 6, "5d6")}
        notes: list[str] = []
        pkg = gb.Package({}, {}, {})
        self.assertEqual(gb.multiattack_of(m, m["actions"][0], attacks, pkg, notes), ["hurl flame", "hurl flame"])
        self.assertEqual(notes, ["Multiattack: alternative not used: one Claws, one Tail"])

    def test_a_better_replacement_attack_is_taken(self):
        m = monster(actions=[{"name": "Multiattack", "activities": [], "description":
                              "The monster makes two [[/item Beak]] attacks. It can replace one attack with a [[/item Talons]] attack."}])
        attacks = {"beak": attack("beak", 6, "1d6"), "talons": attack("talons", 6, "4d6")}
        notes: list[str] = []
        chosen = gb.multiattack_of(m, m["actions"][0], attacks, gb.Package({}, {}, {}), notes)
        self.assertEqual(chosen, ["beak", "talons"])

    def test_an_unreadable_text_fails_loudly(self):
        with self.assertRaises(gb.Unsupported):
            gb.parse_alternative("flails about wildly", "test")


class Numbers(unittest.TestCase):
    """To-hit, damage and DCs are rebuilt the way the source system does."""

    def test_weapon_attack_adds_ability_and_proficiency(self):
        m = monster()
        x = attack_activity([part(1, 10, ["slashing"]), part(2, 4, ["fire"])])
        a = gb.build_attack(m, {"name": "Rend"}, x, {}, [])
        self.assertEqual((a.to_hit, a.damage.text(), a.kind), (6, "1d10+4", "slashing"))
        self.assertEqual((a.rider[0].text(), a.rider[1]), ("2d4", "fire"))

    def test_finesse_style_attacks_use_the_better_of_str_and_dex(self):
        m = monster(ability_scores={"str": 8, "dex": 16, "con": 10, "int": 10, "wis": 10, "cha": 10})
        a = gb.build_attack(m, {"name": "Scimitar"}, attack_activity([part(1, 6, ["slashing"])], value="melee"), {}, [])
        self.assertEqual((a.to_hit, a.damage.text()), (5, "1d6+3"))

    def test_ranged_attacks_use_dex(self):
        m = monster()
        a = gb.build_attack(m, {"name": "Longbow"}, attack_activity([part(1, 8, ["piercing"])], value="ranged"),
                            {"longbow": {"properties": ["two_handed"]}}, [])
        self.assertEqual((a.to_hit, a.damage.text(), a.reach, a.two_handed), (4, "1d8+2", "ranged", True))

    def test_extra_parts_without_base_get_no_modifier(self):
        m = monster()
        x = attack_activity([part(2, 10, ["radiant"])], ability="wis", value="ranged", include_base=False)
        a = gb.build_attack(m, {"name": "Radiant Flame"}, x, {}, [])
        self.assertEqual((a.to_hit, a.damage.text()), (2, "2d10"))

    def test_an_attack_without_damage_is_not_an_attack(self):
        m = monster()
        self.assertIsNone(gb.build_attack(m, {"name": "Tentacle"}, attack_activity([part(None, 0, [])]), {}, []))

    def test_save_dc_from_an_ability_or_a_flat_formula(self):
        m = monster()
        x = {"save": {"ability": ["dex"], "dc": {"calculation": "con", "formula": "11"}}}
        self.assertEqual(gb.save_dc(x, m), 8 + 2 + 1)
        x = {"save": {"ability": ["con"], "dc": {"calculation": "", "formula": "8 + @mod + @prof"}}}
        self.assertEqual(gb.save_dc(x, m), 8 + 1 + 2)
        x = {"save": {"ability": ["wis"], "dc": {"calculation": "", "formula": "15"}}}
        self.assertEqual(gb.save_dc(x, m), 15)


class LegendaryActions(unittest.TestCase):
    """A legendary action that makes one of the monster's attacks is kept,
    with its move and its once-a-round rule; anything else is listed."""

    attacks = {"rend": attack("rend", 14, "1d10+8"), "tail": attack("tail", 14, "2d8+8"),
               "claw": attack("claw", 14, "1d8+8")}

    def option(self, text: str, cost: int = 1) -> dict | None:
        return gb.legendary_option({"name": "Pounce", "description": text, "legendary_cost": cost}, self.attacks)

    def test_one_attack_after_a_move(self):
        o = self.option("The [[lookup @name lowercase]]{monster} moves up to half its Speed, and it makes one "
                        "[[/item Rend]] attack.")
        self.assertEqual(o, {"name": "pounce", "attack": "rend", "cost": 1, "once_per_round": False,
                             "moves_first": True})

    def test_plain_names_costs_and_once_a_round(self):
        o = self.option("The aboleth makes one Tail attack. The aboleth can't take this action again until the "
                        "start of its next turn.", cost=2)
        self.assertEqual((o["attack"], o["cost"], o["once_per_round"], o["moves_first"]), ("tail", 2, True, False))

    def test_one_of_two_attacks_takes_the_better(self):
        o = self.option("The tarrasque moves up to half its Speed, and it makes one [[/item .mmClaw0]]{Claw} or "
                        "[[/item .mmTail0]]{Tail} attack.")
        self.assertEqual(o["attack"], "tail")

    def save_action(self, text: str, on_save: str = "none") -> dict:
        x = {"kind": "save", "save": {"ability": ["dex"], "dc": {"calculation": "", "formula": "17"}},
             "damage": {"on_save": on_save, "parts": [part(4, 10, ["poison"])]},
             "target": {"template": {"type": "", "size": ""}, "affects": {"count": ""}}}
        return {"name": "Cloud of Insects", "description": text, "legendary_cost": 1, "activities": [x]}

    def test_a_save_against_damage_with_its_rider_listed(self):
        notes: list[str] = []
        a = self.save_action("Dexterity Saving Throw: DC 17, one creature. Failure: [[/damage average]] damage, "
                             "and the target has Disadvantage on saving throws to maintain Concentration. Failure "
                             "or Success: The dragon can't take this action again until the start of its next turn.")
        o = gb.legendary_option(a, self.attacks, monster(), notes)
        self.assertEqual(o["save"], {"dice": "4d10", "type": "poison", "save": "dex", "dc": 17, "targets": 1,
                                     "on_success": "none"})
        self.assertTrue(o["once_per_round"])
        self.assertEqual(notes, ["Cloud of Insects (Legendary Action): on a failed save, also: the target has "
                                 "Disadvantage on saving throws to maintain Concentration."])
        # Damage alone: nothing listed; half on a success.
        notes = []
        a = self.save_action("Dexterity Saving Throw: DC 17. Failure: [[/damage average]] damage. Success: Half "
                             "damage.", on_save="half")
        self.assertEqual(gb.legendary_option(a, self.attacks, monster(), notes)["save"]["on_success"], "half")
        self.assertEqual(notes, [])

    def test_a_failed_saves_lasting_effect_in_known_words_is_written_not_listed(self):
        for words, hampered in (
                ("the target takes a −2 penalty to AC until the end of its next turn.", {"ac_penalty": 2}),
                ("the target has Disadvantage on saving throws to maintain &amp;Reference[Concentration} until "
                 "the end of its next turn.", {"concentration_disadvantage": True}),
                ("the target's Speed is 0 until the end of the target's next turn.", {"speed_zero": True}),
                ("the target's Speed is halved until the end of its next turn.", {"speed_halved": True})):
            with self.subTest(words=words):
                notes: list[str] = []
                a = self.save_action(f"Dexterity Saving Throw: DC 17. Failure: [[/damage average]] damage, and "
                                     f"{words} Failure or Success: The dragon can't take this action again until "
                                     "the start of its next turn.")
                o = gb.legendary_option(a, self.attacks, monster(), notes)
                self.assertEqual(o["save"]["on_failure"], hampered)
                self.assertEqual(notes, [])
        # Other words (a longer duration) stay listed, with no on_failure.
        notes = []
        a = self.save_action("Dexterity Saving Throw: DC 17. Failure: [[/damage average]] damage, and the target "
                             "takes a −2 penalty to AC for 1 minute.")
        o = gb.legendary_option(a, self.attacks, monster(), notes)
        self.assertNotIn("on_failure", o["save"])
        self.assertEqual(len(notes), 1)

    def test_spells_saves_and_unknown_attacks_are_not_modelled(self):
        self.assertIsNone(self.option("The dragon uses [[/item Spellcasting]] to cast Scorching Ray."))
        self.assertIsNone(self.option("The unicorn makes one Horn attack."))
        self.assertIsNone(self.option("The tarrasque moves up to its Speed. At the end of this movement, it "
                                      "creates a shock wave. It makes one Claw attack."))


class Parry(unittest.TestCase):
    """A reaction adding to the AC against a melee hit becomes `parry`."""

    def reaction(self, formula: str, condition: str = "hit by a melee attack roll while holding a weapon") -> dict:
        return {"kind": "reaction", "name": "Parry",
                "description": "Response: The monster adds 2 to its AC against that attack, possibly causing it to miss.",
                "activities": [{"activation": {"condition": condition}, "roll": {"formula": formula}}]}

    def test_the_bonus_is_read(self):
        self.assertEqual(gb.parry_of(self.reaction("3"), monster()), 3)

    def test_not_against_ranged_attacks_or_other_reactions(self):
        self.assertEqual(gb.parry_of(self.reaction("2", "hit by a ranged attack roll"), monster()), 0)
        other = self.reaction("2")
        other["description"] = "The monster makes one attack."
        self.assertEqual(gb.parry_of(other, monster()), 0)


class Regeneration(unittest.TestCase):
    """Regeneration keeps the monster's own words: what stops it, and
    whether it works at 0 HP."""

    def trait(self, text: str, hp: str = "10") -> dict:
        return {"description": text, "activities": [{"kind": "heal", "healing": {
            "number": None, "denomination": 0, "bonus": hp, "custom": {"enabled": False, "formula": ""}}}]}

    def test_at_least_1_hp_means_it_dies_at_0(self):
        t = self.trait("The monster regains 10 Hit Points at the start of each of its turns if it has at least 1 Hit Point.")
        self.assertEqual(gb.regeneration_of(monster(slug="oni"), t), (10, (), False))

    def test_the_trolls_wording_revives_unless_stopped(self):
        t = self.trait("The hag regains 20 Hit Points at the start of each of its turns. If the hag takes Fire or "
                       "Radiant damage, this trait doesn't function on its next turn. The hag dies only if it starts "
                       "its turn with 0 Hit Points and doesn't regenerate.", "20")
        self.assertEqual(gb.regeneration_of(monster(slug="hag"), t), (20, ("fire", "radiant"), True))

    def test_the_troll_is_corrected(self):
        t = self.trait("The monster regains 10 Hit Points at the start of each of its turns if it has at least 1 Hit Point.")
        self.assertEqual(gb.regeneration_of(monster(slug="troll"), t), (15, ("acid", "fire"), True))


class Areas(unittest.TestCase):
    """Area sizes become a number of creatures caught (README, "Areas")."""

    def targets(self, shape: str, size: str, count: str = "") -> int:
        return gb.targets_of({"target": {"template": {"type": shape, "size": size}, "affects": {"count": count}}})

    def test_mapping(self):
        self.assertEqual(self.targets("cone", "15"), 2)
        self.assertEqual(self.targets("cone", "30"), 3)
        self.assertEqual(self.targets("cone", "60"), 6)
        self.assertEqual(self.targets("line", "30"), 1)
        self.assertEqual(self.targets("line", "90"), 3)
        self.assertEqual(self.targets("sphere", "20"), 4)
        self.assertEqual(self.targets("cube", "10"), 2)
        self.assertEqual(self.targets("", "", "1"), 1)
        self.assertEqual(self.targets("radius", "500"), 20)

    def test_recharge(self):
        self.assertEqual([gb.recharge_of(r) for r in ("5-6", "6", "4-6")], [5, 6, 4])


class Output(unittest.TestCase):
    def test_cr_and_dice_text(self):
        self.assertEqual([gb.cr_text(c) for c in (0.125, 0.25, 0.5, 0, 17.0)], ["1/8", "1/4", "1/2", "0", "17"])
        self.assertEqual([gb.parse_dice(d).text() for d in ("1d4-1", "2d6+3", "7", "10d6")],
                         ["1d4-1", "2d6+3", "7", "10d6"])

    def test_toml_strings_are_escaped(self):
        self.assertEqual(gb.q('a "b" \\ c'), '"a \\"b\\" \\\\ c"')


VALID = {
    "slug": "test-beast", "srd": "5.2", "type": "beast", "size": "medium", "cr": "1/4", "xp": 50,
    "proficiency_bonus": 2, "hp": 11, "ac": 13, "initiative": 2,
    "speed": {"walk": 40, "fly": 0, "swim": 0, "climb": 0, "burrow": 0},
    "saves": {"str": 1, "dex": 2, "con": 1, "int": -4, "wis": 1, "cha": -2}, "medicine": 1,
    "attacks": [{"name": "bite", "to_hit": 4, "damage": "2d4+2", "type": "piercing", "reach": "melee",
                 "rider": {"dice": "1d6", "type": "fire"}}],
    "multiattack": ["bite"],
    "breath": {"dice": "4d6", "type": "fire", "save": "dex", "dc": 12, "recharge": 5, "targets": 2},
    "regeneration": {"hp": 5, "stopped_by": ["acid"], "revives": True},
    "not_modelled": ["Pack Tactics"],
}


class SpellsAndRiders(unittest.TestCase):
    def test_a_spell_named_in_the_multiattack_replaces_an_attack_and_leaves_the_note(self):
        e = gb.Entry(slug="d", name="D")
        e.spellcasting = (17, 9, [("scorching_ray", 2, 0), ("fireball", 3, 1)])
        e.not_modelled = [
            "Multiattack: It can replace one attack with a use of Spellcasting to cast Scorching Ray",
            "Amphibious",
        ]
        gb.spells_replacing_attacks(e)
        self.assertEqual(e.replaces_attack, ["scorching_ray"])
        self.assertEqual(e.not_modelled, ["Amphibious"])

    def test_the_other_choice_of_a_replacement_stays_listed(self):
        e = gb.Entry(slug="d", name="D")
        e.spellcasting = (17, 9, [("ice_knife", 1, 0)])
        e.not_modelled = ["Multiattack: It can replace one attack with a use of (A) Paralyzing Breath "
                          "or (B) Spellcasting to cast Ice Knife"]
        gb.spells_replacing_attacks(e)
        self.assertEqual(e.replaces_attack, ["ice_knife"])
        self.assertEqual(e.not_modelled,
                         ["Multiattack: It can replace one attack with a use of Paralyzing Breath"])

    def test_an_unnamed_spellcasting_replacement_takes_every_spell_and_none_without_it(self):
        e = gb.Entry(slug="o", name="O")
        e.spellcasting = (13, 5, [("sleep", 1, 1)])
        e.not_modelled = ["Multiattack: It can replace one attack with a use of Spellcasting"]
        gb.spells_replacing_attacks(e)
        self.assertEqual((e.replaces_attack, e.not_modelled), (["sleep"], []))
        e = gb.Entry(slug="n", name="N")
        e.not_modelled = ["Multiattack: It can replace one attack with a use of Spellcasting"]
        gb.spells_replacing_attacks(e)
        self.assertEqual(len(e.not_modelled), 1, "no spell cast: the note stays")

    def test_escapes_illusions_and_spells_already_in_the_stat_block_have_no_fight_effect(self):
        text = ("At Will: Detect Magic, Invisibility, Mage Armor (included in AC), Shapechange (Beast or "
                "Humanoid form only, no Temporary Hit Points) 1/Day Each: Plane Shift (self only), Major Image")
        for slug, title in (("plane_shift", "Plane Shift"), ("major_image", "Major Image"),
                            ("mage_armor", "Mage Armor"), ("shapechange", "Shapechange"),
                            ("teleport", "Teleport"), ("gaseous_form", "Gaseous Form")):
            self.assertTrue(gb.without_fight_effect(slug, title, text), slug)
        # A spell that changes a fight stays listed; Mage Armor or
        # Shapechange without the stat block's words too.
        self.assertFalse(gb.without_fight_effect("invisibility", "Invisibility", text))
        self.assertFalse(gb.without_fight_effect("dispel_magic", "Dispel Magic", text))
        self.assertFalse(gb.without_fight_effect("mage_armor", "Mage Armor", "At Will: Mage Armor"))
        self.assertFalse(gb.without_fight_effect("shapechange", "Shapechange", "1/Day Each: Shapechange"))

    def test_prone_and_poison_riders_are_read_only_in_their_plain_forms(self):
        prone = "If the target is a Large or smaller creature, it has the Prone condition."
        self.assertEqual(gb.KNOCKS_PRONE.search(prone).group(1), "Large")
        moved = ("If the target is a Large or smaller creature and the boar moved 20+ feet straight "
                 "toward it immediately before the hit, the target has the Prone condition.")
        self.assertIn("moved", gb.KNOCKS_PRONE.search(moved).group(0))
        poison = "Hit: 11 damage, and the target has the Poisoned condition until the start of the wyvern's next turn."
        self.assertTrue(gb.POISONS.search(poison))
        more = poison + " While Poisoned, the target can't regain Hit Points."
        self.assertFalse(gb.POISONS.search(more))
        self.assertEqual(gb.spell_slug("Hold Person"), "hold_person")

    def test_a_charge_is_read_with_its_size_distance_damage_and_prone(self):
        charge = ("If the target is a Large or smaller creature and the elk moved 20+ feet straight "
                  "toward it immediately before the hit, the target takes an extra damage and has the Prone condition.")
        found = gb.CHARGE.search(charge)
        self.assertEqual((found.group(1), found.group(2), bool(found.group(3)), bool(found.group(4))),
                         ("Large", "20", True, True))
        # The package's typos; a size given by an enricher.
        for typo in ("straight it", "straight towardit"):
            self.assertTrue(gb.CHARGE.search(charge.replace("straight toward it", typo)), typo)
        self.assertIsNone(gb.CHARGE.search(charge.replace("a Large or smaller creature", "a creature")).group(1))
        # A charge that brings another attack (the allosaurus's bite) is not one of these.
        bite = charge.replace("the target takes an extra damage and has the Prone condition.",
                              "the target has the Prone condition, and the allosaurus can make one Bite attack against it.")
        self.assertIsNone(gb.CHARGE.search(bite))


class Checker(unittest.TestCase):
    """Each rule of check_bestiary.py rejects a file that breaks it."""

    def problems(self, entry: dict, legacy: bool = False) -> list[str]:
        c = cb.Checker(Path("t.toml"), legacy)
        c.entry(entry.get("slug", "test-beast"), entry)
        return c.problems

    def broken(self, change) -> list[str]:
        e = copy.deepcopy(VALID)
        change(e)
        return self.problems(e)

    def test_the_valid_entry_passes(self):
        self.assertEqual(self.problems(VALID), [])

    def test_each_fault_is_found(self):
        faults = {
            "hp": lambda e: e.update(hp=0),
            "ac": lambda e: e.update(ac=0),
            "saves": lambda e: e["saves"].pop("cha"),
            "attacks[0].damage": lambda e: e["attacks"][0].update(damage="2d4+"),
            "attacks[0].rider.dice": lambda e: e["attacks"][0]["rider"].update(dice="d"),
            "breath.dice": lambda e: e["breath"].update(dice="101d6"),
            "attacks[0].type": lambda e: e["attacks"][0].update(type="sonic"),
            "breath.type": lambda e: e["breath"].update(type="holy"),
            "multiattack[0]": lambda e: e.update(multiattack=["claw"]),
            "regeneration.stopped_by": lambda e: e["regeneration"].update(stopped_by=["silver"]),
            "xp": lambda e: e.update(xp=100),
            "proficiency_bonus": lambda e: e.update(proficiency_bonus=3),
            "speed": lambda e: e["speed"].pop("burrow"),
            "slug": lambda e: e.update(slug="Test Beast"),
            "bogus": lambda e: e.update(bogus=1),
            "not_modelled": lambda e: e.update(not_modelled=["a", "a"]),
            "condition_immune": lambda e: e.update(condition_immune=["sleepy"]),
            "resistant/immune/vulnerable": lambda e: e.update(resistant=["fire"], immune=["fire"]),
        }
        for field, change in faults.items():
            with self.subTest(field=field):
                found = self.broken(change)
                self.assertTrue(any(f"] {field}" in p for p in found), found)

    def test_spellcasting_and_its_legendary_spells_are_checked(self):
        def with_spells(e):
            e["spellcasting"] = {"dc": 15, "to_hit": 7, "spells": [
                {"spell": "fireball", "level": 4, "per_day": 2},
                {"spell": "scorching_ray", "replaces_attack": True},
                {"spell": "fear", "level": 3, "legendary_only": True},
            ]}
            e["legendary_actions"] = {"uses": 3, "options": [{"name": "gaze", "spell": "fear"}]}
        self.assertEqual(self.broken(with_spells), [])
        faults = {
            "spellcasting.dc": lambda e: e["spellcasting"].update(dc=0),
            "spellcasting.spells[0].per_day": lambda e: e["spellcasting"]["spells"][0].update(per_day=0),
            "spellcasting.spells[1].spell": lambda e: e["spellcasting"]["spells"][1].update(spell="fireball"),
            "spellcasting.spells[2].legendary_only": lambda e: e["spellcasting"]["spells"][2].update(legendary_only=1),
            "legendary_actions.options[0].spell": lambda e: e["legendary_actions"]["options"][0].update(spell="light"),
        }
        for field, change in faults.items():
            with self.subTest(field=field):
                found = self.broken(lambda e: (with_spells(e), change(e)))
                self.assertTrue(any(f"] {field}" in p for p in found), found)

    def test_prone_and_poison_riders_are_flags_of_an_attack(self):
        ok = self.broken(lambda e: e["attacks"][0].update(knocks_prone="large", poisons_on_hit=True))
        self.assertEqual(ok, [])
        for field, value in (("knocks_prone", "enormous"), ("poisons_on_hit", 1)):
            with self.subTest(field=field):
                found = self.broken(lambda e: e["attacks"][0].update({field: value}))
                self.assertTrue(any(f"] attacks[0].{field}" in p for p in found), found)

    def test_sunlight_is_sensitivity_or_weakness(self):
        for ok in ("sensitivity", "weakness"):
            self.assertEqual(self.broken(lambda e: e.update(sunlight=ok)), [])
        found = self.broken(lambda e: e.update(sunlight="dazzled"))
        self.assertTrue(any("] sunlight" in p for p in found), found)

    def test_the_bloodied_absorption_war_cry_and_advantage_keys_are_checked(self):
        good = lambda e: (e.update(bloodied_advantage="attacks_and_saves", absorbs=["fire"],
                                   war_cry={"temp_hp": "2d10+5", "recharge": 5}),
                          e["attacks"][0].update(advantage_damage={"dice": "1d4", "type": "slashing"}))
        self.assertEqual(self.broken(good), [])
        faults = {
            "bloodied_advantage": lambda e: e.update(bloodied_advantage="always"),
            "absorbs": lambda e: e.update(absorbs=["heat"]),
            "war_cry.recharge": lambda e: e.update(war_cry={"temp_hp": "2d10+5", "recharge": 7}),
            "war_cry": lambda e: e.update(war_cry={"temp_hp": "2d10+5"}),
            "attacks[0].advantage_damage.type": lambda e: e["attacks"][0].update(
                advantage_damage={"dice": "1d4", "type": "sharp"}),
            "attacks[0].advantage_damage": lambda e: e["attacks"][0].update(advantage_damage={"dice": "1d4"}),
        }
        for field, change in faults.items():
            with self.subTest(field=field):
                found = self.broken(lambda e: (good(e), change(e)))
                self.assertTrue(any(f"] {field}" in p for p in found), found)

    def test_the_bloodied_absorption_war_cry_and_advantage_words_are_read(self):
        self.assertEqual(gb.BLOODIED_ADVANTAGE["While Bloodied, the monster has Advantage on attack rolls."], "attacks")
        absorbed = gb.ABSORPTION.match("Whenever the monster is subjected to Fire damage, it regains a number of "
                                       "Hit Points equal to the Fire damage dealt.")
        self.assertEqual(absorbed.group(1), "Fire")
        self.assertIsNone(gb.ABSORPTION.match("Whenever the monster is subjected to Fire damage, it regains a "
                                              "number of Hit Points equal to the Cold damage dealt."))
        cry = {"kind": "bonus_action", "recharge": "5-6", "description": gb.WAR_CRY,
               "activities": [{"kind": "heal", "healing": {"types": ["temphp"], "custom": {"enabled": False},
                                                           "number": 2, "denomination": 10, "bonus": "5"}}]}
        self.assertEqual(gb.war_cry_of(cry, monster()), {"temp_hp": "2d10+5", "recharge": 5})
        self.assertIsNone(gb.war_cry_of(dict(cry, recharge=None), monster()))
        self.assertIsNone(gb.war_cry_of(dict(cry, description=gb.WAR_CRY + " It also shouts."), monster()))
        action = {"description": "[[/attack extended]]. [[/damage average extended]], plus "
                                 "[[/damage 1d4 slashing average]] damage if the attack roll had Advantage."}
        self.assertEqual(gb.advantage_damage_of(action, "Attack with Advantage (+1d4 slashing)"),
                         {"dice": "1d4", "type": "slashing"})
        self.assertEqual(gb.advantage_damage_of(action, "Attack at Advantage (+1d4 slashing)"),
                         {"dice": "1d4", "type": "slashing"})
        self.assertIsNone(gb.advantage_damage_of(action, "Bloodied Attack (1d4 piercing instead)"))

    def test_a_hits_save_against_a_condition_is_checked_and_read(self):
        good = lambda e: e["attacks"][0].update(hit_condition={"save": "con", "dc": 10, "condition": "paralyzed"})
        self.assertEqual(self.broken(good), [])
        faults = {
            "attacks[0].hit_condition.condition": lambda e: e["attacks"][0].update(
                hit_condition={"save": "con", "dc": 10, "condition": "exhaustion"}),
            "attacks[0].hit_condition.dc": lambda e: e["attacks"][0].update(
                hit_condition={"save": "con", "dc": 31, "condition": "paralyzed"}),
            "attacks[0].hit_condition.save": lambda e: e["attacks"][0].update(
                hit_condition={"save": "luck", "dc": 10, "condition": "paralyzed"}),
            "attacks[0].hit_condition": lambda e: e["attacks"][0].update(hit_condition={"save": "con"}),
        }
        for field, change in faults.items():
            with self.subTest(field=field):
                found = self.broken(lambda e: (good(e), change(e)))
                self.assertTrue(any(f"] {field}" in p for p in found), found)
        save = {"kind": "save", "save": {"ability": ["con"], "dc": {"calculation": "", "formula": "10"}}}
        claw = {"activities": [{"kind": "attack"}, save],
                "description": "[[/attack extended]]. [[/damage average extended]]. If the target is a non-Undead "
                "creature, it is subjected to the following effect. Constitution Saving Throw: DC 10. Failure: "
                "The target has the Paralyzed condition until the end of its next turn."}
        held = gb.hit_condition_of(monster(), claw)
        self.assertEqual((held["save"], held["condition"]), ("con", "paralyzed"))
        # Anything more (a second failure, another duration) stays listed.
        longer = dict(claw, description=claw["description"][:-1] + " It repeats the save.")
        self.assertIsNone(gb.hit_condition_of(monster(), longer))
        other = dict(claw, description=claw["description"].replace("end of its next turn", "start of its next turn"))
        self.assertIsNone(gb.hit_condition_of(monster(), other))

    def test_a_plain_text_rider_of_an_attack_is_listed_not_dropped(self):
        a = {"activities": [], "description": "[[/attack extended]]. [[/damage average extended]], and the "
             "target's Speed decreases by 10 feet until the end of its next turn."}
        self.assertEqual(gb.plain_riders(a, []),
                         ["the target's Speed decreases by 10 feet until the end of its next turn"])
        # What the parser reads is not listed again: a charge, Bloodied or
        # Advantage damage, a sentence of a condition already listed.
        for text in ("If the target is a creature and the boar moved 20+ feet straight toward it immediately "
                     "before the hit, the target has the Prone condition.",
                     "[[/damage average extended]], plus [[/damage 1d4 slashing average]] damage if the attack "
                     "roll had Advantage.",
                     "The target has the Poisoned condition. While Poisoned, it can't take Reactions."):
            with self.subTest(text=text):
                got = gb.plain_riders({"activities": [], "description": text}, ["Poisoned condition"])
                self.assertEqual(got, [])

    def test_a_charge_is_checked(self):
        good = {"feet": 20, "size": "large", "damage": "1d6", "type": "bludgeoning", "prone": True}
        self.assertEqual(self.broken(lambda e: e["attacks"][0].update(charge=dict(good))), [])
        for bad in ({**good, "feet": 0}, {**good, "size": "vast"}, {"feet": 20, "size": "large", "damage": "1d6"},
                    {"feet": 20, "size": "large"}, {**good, "speed": 3}):
            with self.subTest(charge=bad):
                found = self.broken(lambda e: e["attacks"][0].update(charge=bad))
                self.assertTrue(any("] attacks[0].charge" in p for p in found), found)

    def test_a_grapple_and_an_advantage_are_checked(self):
        grapple = {"escape": 13, "size": "large", "restrains": True, "holds": 2}
        ok = self.broken(lambda e: e["attacks"][0].update(grapples=dict(grapple), advantage="grappled"))
        self.assertEqual(ok, [])
        faults = {
            "grapples": lambda a: a.update(grapples={"size": "large"}),
            "grapples.escape": lambda a: a.update(grapples=dict(grapple, escape=40)),
            "grapples.size": lambda a: a.update(grapples=dict(grapple, size="enormous")),
            "grapples.restrains": lambda a: a.update(grapples=dict(grapple, restrains=1)),
            "grapples.holds": lambda a: a.update(grapples=dict(grapple, holds=0)),
            "advantage": lambda a: a.update(advantage="always"),
        }
        for field, change in faults.items():
            with self.subTest(field=field):
                found = self.broken(lambda e: change(e["attacks"][0]))
                self.assertTrue(any(f"] attacks[0].{field}" in p for p in found), found)

    def test_no_fight_effect_is_a_list_apart_from_not_modelled(self):
        self.assertEqual(self.broken(lambda e: e.update(no_fight_effect=["Amphibious"])), [])
        for bad in ([], ["Amphibious", "Amphibious"], "Amphibious", [e for e in VALID["not_modelled"][:1]]):
            with self.subTest(bad=bad):
                found = self.broken(lambda e: e.update(no_fight_effect=bad))
                self.assertTrue(any("] no_fight_effect" in p for p in found), found)

    def test_a_trait_of_no_effect_in_a_fight_goes_apart(self):
        self.assertIn("Amphibious", gb.NO_FIGHT_EFFECT)
        self.assertNotIn("Sunlight Sensitivity", gb.NO_FIGHT_EFFECT, "it would matter in daylight")

    def test_a_death_burst_is_a_save_against_damage(self):
        burst = {"dice": "2d4", "type": "fire", "save": "dex", "dc": 10, "targets": 1, "on_success": "half"}
        self.assertEqual(self.broken(lambda e: e.update(death_burst=dict(burst), undead_fortitude=True)), [])
        for field, bad in (("death_burst.dc", dict(burst, dc=0)), ("death_burst.type", dict(burst, type="fiery")),
                           ("death_burst", {"dice": "2d4"}), ("undead_fortitude", 1)):
            with self.subTest(field=field):
                key = field.split(".")[0]
                found = self.broken(lambda e: e.update({key: bad}))
                self.assertTrue(any(f"] {field}" in p for p in found), found)

    def test_a_damage_aura_is_checked(self):
        aura = {"dice": "3d8", "type": "fire", "targets": 1}
        self.assertEqual(self.broken(lambda e: e.update(damage_aura=dict(aura))), [])
        for field, bad in (("damage_aura.targets", dict(aura, targets=0)), ("damage_aura.type", dict(aura, type="hot")),
                           ("damage_aura", {"dice": "3d8"}),
                           ("damage_aura.unless_incapacitated", dict(aura, unless_incapacitated=1))):
            with self.subTest(field=field):
                found = self.broken(lambda e: e.update(damage_aura=bad))
                self.assertTrue(any(f"] {field}" in p for p in found), found)
        text = ("At the end of each of the monster's turns, each of the monster's choice in a -foot Emanation "
                "originating from the monster takes damage unless the monster has the Incapacitated condition.")
        self.assertTrue(gb.DAMAGE_AURA.match(text).group("unless"))
        self.assertIsNone(gb.DAMAGE_AURA.match(text[:-1] + ". Creatures in the Emanation start burning."))

    def test_a_save_action_resolved_like_an_attack(self):
        constrict = ("Strength Saving Throw: DC , one creature the monster can see within feet. Failure: "
                     "damage. The target has the Grappled condition (escape DC ), and it has the Restrained "
                     "condition until the grapple ends.")
        found = gb.SAVE_ATTACK.search(constrict)
        self.assertTrue(found.group("grapple") and found.group("restrain"))
        bash = "Failure: damage. If the target is a Medium or smaller creature, it has the Prone condition."
        self.assertEqual(gb.SAVE_ATTACK.search(bash).group("prone"), "Medium")
        self.assertIsNone(gb.SAVE_ATTACK.search("Failure: damage, and the target is cursed for 1 hour."))
        save = {"ability": "str", "dc": 16, "on_success": "none"}
        ok = self.broken(lambda e: (e["attacks"][0].pop("to_hit"), e["attacks"][0].update(save=dict(save))))
        self.assertEqual(ok, [])
        for field, change in (("to_hit", lambda a: a.update(save=dict(save))),
                              ("save.dc", lambda a: (a.pop("to_hit"), a.update(save=dict(save, dc=0)))),
                              ("save.ability", lambda a: (a.pop("to_hit"), a.update(save=dict(save, ability="luck"))))):
            with self.subTest(field=field):
                found = self.broken(lambda e: change(e["attacks"][0]))
                self.assertTrue(any(f"] attacks[0].{field}" in p for p in found), found)

    def test_a_grapple_is_read_from_the_attack_text(self):
        text = ("If the target is a Large or smaller creature, it has the Grappled condition "
                "(escape DC ) from one of two chains, and it has the Restrained condition "
                "until the grapple ends.")
        found = gb.GRAPPLES.search(text)
        self.assertEqual((found.group("size"), found.group("n")), ("Large", "two"))
        self.assertNotEqual(found.group("restrains"), ".")
        plain = "If the target is a creature, it has the Grappled condition (escape DC )."
        self.assertEqual(gb.GRAPPLES.search(plain).group("restrains"), ".")
        # Anything more after the grapple keeps it listed.
        more = plain[:-1] + ". While Grappled, the target can't teleport."
        self.assertIsNone(gb.GRAPPLES.search(more))
        # The tyrannosaurus rex: a Tail that spares the grappled (the
        # source's doubled parenthesis read as one).
        rex = ("If the target is a Large or smaller creature, it has the Grappled condition (escape DC )). "
               "While Grappled, the target has the Restrained condition and can't be targeted by the monster's Tail.")
        found = gb.GRAPPLES.search(rex)
        self.assertEqual((found.group("size"), found.group("spares")), ("Large", "Tail"))
        self.assertNotEqual(found.group("restrains"), ".")

    def test_an_attack_that_spares_the_grappled_needs_a_grapple(self):
        grapple = {"escape": 15, "size": "large", "restrains": True}
        ok = self.broken(lambda e: (e["attacks"][0].update(grapples=dict(grapple)),
                                    e["attacks"][0].update(spares_grappled=True)))
        self.assertEqual(ok, [])
        found = self.broken(lambda e: e["attacks"][0].update(spares_grappled=True))
        self.assertTrue(any("] attacks" in p and "no attack grapples" in p for p in found), found)
        found = self.broken(lambda e: (e["attacks"][0].update(grapples=dict(grapple)),
                                       e["attacks"][0].update(spares_grappled=1)))
        self.assertTrue(any("] attacks[0].spares_grappled" in p for p in found), found)

    def test_a_creature_that_cannot_fight_must_be_listed(self):
        found = self.broken(lambda e: (e.update(attacks=[], multiattack=[]), e.pop("breath")))
        self.assertTrue(any("no attack and no breath" in p for p in found), found)

    def test_the_new_keys_are_optional_only_in_legacy_mode(self):
        e = {k: v for k, v in VALID.items() if k not in cb.SRD_KEYS}
        self.assertTrue(self.problems(e))
        self.assertEqual(self.problems(e, legacy=True), [])

    def test_a_legacy_cr_needs_no_bonus_but_a_wrong_one_is_caught(self):
        e = {k: v for k, v in VALID.items() if k not in cb.SRD_KEYS}
        e.update(cr="2", xp=450)
        self.assertEqual(self.problems(e, legacy=True), [])
        e["proficiency_bonus"] = 3
        self.assertTrue(any("proficiency_bonus" in p for p in self.problems(e, legacy=True)))

    def test_the_shipped_hand_written_bestiary_passes_in_legacy_mode(self):
        path = Path(__file__).resolve().parents[2] / "data" / "bestiary.toml"
        self.assertEqual(cb.main([str(path), "--legacy"]), 0)

    def test_an_unreadable_file_fails(self):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write("[a\n")
        self.assertEqual(cb.main([f.name]), 1)


if __name__ == "__main__":
    unittest.main()
