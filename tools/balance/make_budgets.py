#!/usr/bin/env python3
"""Write the held-out budget scenarios of the balance harness.

One party of four (fighter, cleric, rogue, wizard templates at level L)
against the encounters that `difficulty = "low" | "moderate" | "high"`
builds from a per-level `monster_pool`, for L = 3..20. A scenario holds at
most 32 variants, so the levels are split by tier into three files:
budgets-t1-t2.toml (levels 3-10), budgets-t3.toml (11-16),
budgets-t4.toml (17-20). Every variant sets its own `party`,
`monster_pool` and `difficulty`.

The pools, and why each was chosen, are in POOLS below; the comments
written into each TOML file repeat them with the encounter the builder
makes at each difficulty (computed here by the same greedy rule as
src/rules/encounter_difficulty.rs `fill`, and checked against the run's
encounter.csv by table.py) and what the engine does not model of each
monster (from data/srd-bestiary.toml's `not_modelled`).

It also writes damage-race.toml: for the budget variants in RACES, the
same two sides each fighting an inert copy of the other (no attacks, no
breath, the same hit points, AC, saves and damage modifiers), so that
`mean_rounds` is how long each side needs, unopposed, to put the other
down: which side's damage dominates, which summary.csv cannot say (it has
the PCs' HP lost but not the monsters'). The inert PCs copy the hit
points, AC and saves that `woundsim show` prints for the templates, so
this step needs a binary (--woundsim, default target/release/woundsim).

Run from the repository root: python3 tools/balance/make_budgets.py
Python 3.11 standard library only.
"""

import argparse
import pathlib
import re
import subprocess
import tomllib

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SEED = 20261205

# SRD 5.2 "XP Budget per Character" (low, moderate, high), levels 1-20,
# as in src/rules/encounter_difficulty.rs.
BUDGET = [
    (50, 75, 100), (100, 150, 200), (150, 225, 400), (250, 375, 500),
    (500, 750, 1100), (600, 1000, 1400), (750, 1300, 1700),
    (1000, 1700, 2100), (1300, 2000, 2600), (1600, 2300, 3100),
    (1900, 2900, 4100), (2200, 3700, 4700), (2600, 4200, 5400),
    (2900, 4900, 6200), (3300, 5400, 7800), (3800, 6100, 9800),
    (4500, 7200, 11700), (5000, 8700, 14200), (5500, 10700, 17200),
    (6400, 13200, 22000),
]
PARTY = ["fighter", "cleric", "rogue", "wizard"]

# level -> (pool, dearest first; why). `NAME@5.2` is the SRD 5.2 statblock
# where data/bestiary.toml keeps an SRD 5.1 one under the bare name.
POOLS = {
    3: (["owlbear@5.2", "ogre@5.2", "gnoll-warrior", "skeleton"],
        "Brutes of CR 2-3 with gnolls and skeletons to spend the remainder; "
        "the owlbear (700 XP) is above the Low budget (600), so Low is an "
        "ogre with two minions."),
    4: (["manticore", "ogre@5.2", "gnoll-warrior", "skeleton"],
        "As level 3 with the manticore (CR 3, a ranged tail-spike volley) as "
        "the leader: one to two of them with minions."),
    5: (["troll@5.2", "warrior-veteran", "bugbear-warrior", "scout"],
        "A CR 5 troll (regenerates unless hit by fire or acid: the wizard's "
        "fire bolt matters) leading CR 3 / 1 / 1/2 soldiers."),
    6: (["wyvern@5.2", "owlbear@5.2", "dire-wolf"],
        "A CR 6 wyvern (its sting's 7d6 poison rider is modelled) with "
        "owlbears and dire wolves; Low is the wyvern alone."),
    7: (["young-black-dragon", "manticore", "polar-bear", "giant-eagle"],
        "A CR 7 young dragon (acid breath, one target) with CR 3 / 2 / 1 "
        "beasts."),
    8: (["young-white-dragon", "hill-giant", "ogre@5.2", "dire-wolf"],
        "A CR 6 young white dragon (cold breath on up to 3) with giants, "
        "ogres and wolves: 5-6 monsters at every difficulty."),
    9: (["stone-giant", "troll@5.2", "owlbear@5.2", "ogre@5.2"],
        "Giants and trolls: CR 7 stone giants (boulders at range) leading "
        "CR 5 / 3 / 2 brutes."),
    10: (["young-green-dragon", "wyvern@5.2", "manticore", "dire-wolf"],
         "A CR 8 young green dragon (poison breath on up to 3) with wyverns, "
         "manticores and wolves."),
    11: (["tyrannosaurus-rex", "mammoth", "triceratops", "polar-bear"],
         "Big beasts, CR 8 / 6 / 5 / 2, no breath and no resistances: a "
         "plain damage race."),
    12: (["roc", "stone-giant", "hill-giant", "ogre@5.2"],
         "A CR 11 roc (two +13 attacks) leading giants and ogres."),
    13: (["young-blue-dragon", "young-green-dragon", "young-white-dragon",
          "blue-dragon-wyrmling"],
         "Young dragons of CR 9 / 8 / 6 and wyrmlings (all breathe; "
         "lightning, poison and cold, none immune to fire)."),
    14: (["storm-giant", "frost-giant", "stone-giant", "ogre@5.2"],
         "A CR 13 storm giant (lightning storm on 2, thunderbolts at range) "
         "with frost and stone giants and ogres."),
    15: (["storm-giant", "hill-giant", "owlbear@5.2", "ogre@5.2"],
         "The storm giant again (no well-modelled SRD monster of CR 14-16 "
         "without fire immunity, see README) with cheaper brutes so that "
         "every difficulty is a mix: 1-3 giants and 2-3 others."),
    16: (["storm-giant", "roc", "treant", "troll@5.2"],
         "Storm giants with a roc, a treant (vulnerable to fire) and trolls."),
    17: (["storm-giant", "young-blue-dragon", "mammoth", "owlbear@5.2"],
         "Storm giants leading a young blue dragon, mammoths and owlbears: "
         "4 to 7 monsters (a dragon turtle would make Low a solo fight)."),
    18: (["dragon-turtle", "roc", "frost-giant", "troll@5.2"],
         "The CR 17 dragon turtle (fire breath on up to 6, resists fire) "
         "with rocs, frost giants and trolls."),
    19: (["dragon-turtle", "storm-giant", "roc", "hill-giant"],
         "Dragon turtles with a storm giant and hill giants."),
    20: (["dragon-turtle", "storm-giant", "roc", "young-blue-dragon"],
         "Dragon turtles with a storm giant, a roc and a young blue dragon: "
         "2 to 6 monsters."),
}

# Budget variants whose two sides also race unopposed (damage-race.toml).
RACES = [(8, "moderate"), (14, "moderate")]

TIERS = [
    ("budgets-t1-t2", range(3, 11), "levels 3-10"),
    ("budgets-t3", range(11, 17), "levels 11-16"),
    ("budgets-t4", range(17, 21), "levels 17-20"),
]


def bestiary():
    with open(ROOT / "data" / "srd-bestiary.toml", "rb") as f:
        return tomllib.load(f)


def entry(beasts, name):
    return beasts[name.removesuffix("@5.2")]


def fill(beasts, pool, budget):
    """The builder's greedy rule: dearest first (equal XP in pool order)."""
    order = sorted(pool, key=lambda n: -entry(beasts, n)["xp"])
    left, out = budget, []
    for name in order:
        xp = entry(beasts, name)["xp"]
        count = left // xp
        left -= count * xp
        if count:
            out.append((count, name))
    return out, budget - left


def variant_block(beasts, level, difficulty, k):
    pool, _ = POOLS[level]
    budget = 4 * BUDGET[level - 1][k]
    built, xp = fill(beasts, pool, budget)
    monsters = " + ".join(f"{c} {n}" for c, n in built)
    party = ", ".join(
        f'{{ template = "{c}-{level}", name = "{c}" }}' for c in PARTY
    )
    pool_toml = ", ".join(f'"{n}"' for n in pool)
    return (
        f"[[variant]]\n"
        f'name = "L{level:02}-{difficulty}"\n'
        f'description = "Level {level}, {difficulty} ({budget} XP): '
        f'{monsters} ({xp} XP)"\n'
        f"party = [{party}]\n"
        f"monster_pool = [{pool_toml}]\n"
        f'difficulty = "{difficulty}"\n'
    )


def level_comment(beasts, level):
    pool, why = POOLS[level]
    lines = [f"# ---- Level {level} " + "-" * 50]
    lines.append(f"# Pool: {', '.join(pool)}")
    for name in pool:
        e = entry(beasts, name)
        notes = []
        for key, word in (("immune", "immune"), ("resistant", "resists"),
                          ("vulnerable", "vulnerable to")):
            if e.get(key):
                notes.append(f"{word} {', '.join(e[key])}")
        nm = e.get("not_modelled", [])
        notes.append("not modelled: " + ("; ".join(nm) if nm else "nothing"))
        lines.append(
            f"#   {name}: CR {e['cr']}, {e['xp']} XP, {e['hp']} HP, AC {e['ac']}; "
            + "; ".join(notes)
        )
    words = why.split()
    line = "# Why:"
    for w in words:
        if len(line) + 1 + len(w) > 78:
            lines.append(line)
            line = "#  "
        line += " " + w
    lines.append(line)
    for k, difficulty in enumerate(("low", "moderate", "high")):
        budget = 4 * BUDGET[level - 1][k]
        built, xp = fill(beasts, pool, budget)
        monsters = " + ".join(f"{c} {n}" for c, n in built)
        lines.append(f"#   {difficulty:8} {budget:6} XP -> {monsters} ({xp} XP)")
    return "\n".join(lines) + "\n"


def write(beasts, stem, levels, words):
    text = [
        "# GENERATED by tools/balance/make_budgets.py; edit POOLS there and rerun.",
        f"# Balance harness (held out, not in the shipped suite): {words}.",
        "# A party of four PC templates (fighter, cleric, rogue, wizard) at",
        "# level L against the SRD 5.2 Low / Moderate / High XP budget of the",
        "# party (4 x the per-character budget), built by `difficulty` from",
        "# the level's `monster_pool` (greedy, dearest monster first; see",
        "# docs/combat.md, \"Encounter difficulty\"). Default rules otherwise:",
        "# one encounter, random targeting, monsters leave when the party",
        "# falls. See tools/balance/README.md.",
        "version = 1",
        f'name = "balance-{stem}"',
        'type = "combat"',
        f'description = "Balance harness: party of four against SRD 5.2 '
        f'budgets, {words}"',
        "trials = 2_000",
        f"seed = {SEED}",
        "",
        "[options]",
        "# Every variant sets its own party, pool and difficulty; this is the",
        "# first variant's, so that [options] alone is a valid fight.",
        "party = ["
        + ", ".join(
            f'{{ template = "{c}-{levels[0]}", name = "{c}" }}' for c in PARTY
        )
        + "]",
        f"monster_pool = [{', '.join(repr(n).replace(chr(39), chr(34)) for n in POOLS[levels[0]][0])}]",
        'difficulty = "low"',
        "",
    ]
    body = "\n".join(text)
    for level in levels:
        body += "\n" + level_comment(beasts, level)
        for k, difficulty in enumerate(("low", "moderate", "high")):
            body += "\n" + variant_block(beasts, level, difficulty, k)
    (HERE / f"{stem}.toml").write_text(body)


def inline(table):
    """A TOML inline table or value of plain strings, numbers, lists."""
    if isinstance(table, dict):
        return "{ " + ", ".join(f"{k} = {inline(v)}" for k, v in table.items()) + " }"
    if isinstance(table, list):
        return "[" + ", ".join(inline(v) for v in table) + "]"
    if isinstance(table, bool):
        return "true" if table else "false"
    if isinstance(table, str):
        return '"' + table + '"'
    return str(table)


def inert_monster(beasts, name, count):
    """A statblock like `name`'s that never acts: no attacks, no breath."""
    e = entry(beasts, name)
    out = {"name": name.removesuffix("@5.2"), "count": count, "hp": e["hp"],
           "ac": e["ac"], "initiative": e["initiative"], "saves": e["saves"],
           "size": e["size"]}
    for key in ("immune", "resistant", "vulnerable", "regeneration"):
        if e.get(key):
            out[key] = e[key]
    out["attacks"] = []
    return out


def inert_pc(woundsim, template, name):
    """A PC with the template's hit points, AC and saves that never acts."""
    text = subprocess.run([woundsim, "show", template], capture_output=True,
                          text=True, check=True).stdout
    hp = int(re.search(r"Hit points (\d+)", text)[1])
    ac = int(re.search(r"Armour class (\d+)", text)[1])
    init = int(re.search(r"Initiative ([+-]\d+)", text)[1])
    saves = {k.lower(): int(v) for k, v in
             re.findall(r"(Str|Dex|Con|Int|Wis|Cha) ([+-]\d+)",
                        re.search(r"Saving throws (.*)", text)[1])}
    return {"name": name, "hp": hp, "ac": ac, "initiative": init,
            "saves": saves, "attacks": []}


def write_races(beasts, woundsim):
    text = [
        "# GENERATED by tools/balance/make_budgets.py; edit RACES there and rerun.",
        "# Balance harness: which side's damage dominates. For each budget",
        "# variant in RACES, each side fights an inert copy of the other (no",
        "# attacks and no breath, the same HP, AC, initiative, saves and damage",
        "# modifiers), so `mean_rounds` is the rounds that side needs, unopposed,",
        "# to put the whole other side down (monsters: kill them; PCs: drop all",
        "# four). The inert PCs copy today's templates' HP, AC and saves as",
        "# `woundsim show` printed them when this file was generated.",
        "version = 1",
        'name = "balance-damage-race"',
        'type = "combat"',
        'description = "Balance harness: each side of two budget fights against an inert copy of the other"',
        "trials = 2_000",
        f"seed = {SEED}",
        "",
    ]
    first = True
    for level, difficulty in RACES:
        pool, _ = POOLS[level]
        k = ("low", "moderate", "high").index(difficulty)
        built, xp = fill(beasts, pool, 4 * BUDGET[level - 1][k])
        party = [{"template": f"{c}-{level}", "name": c} for c in PARTY]
        real = [{"creature": n, "count": c} for c, n in built]
        inert_m = [inert_monster(beasts, n, c) for c, n in built]
        inert_p = [inert_pc(woundsim, f"{c}-{level}", c) for c in PARTY]
        if first:
            text += ["[options]", f"party = {inline(party)}",
                     f"monsters = {inline(real)}", ""]
            first = False
        name = f"L{level:02}-{difficulty}"
        monsters = " + ".join(f"{c} {n}" for c, n in built)
        text += [
            f"# Level {level}, {difficulty}: {monsters} ({xp} XP)",
            "[[variant]]",
            f'name = "{name}-party-unopposed"',
            f'description = "The level-{level} party against inert {monsters}"',
            f"party = {inline(party)}",
            "monsters = [",
            *[f"  {inline(m)}," for m in inert_m],
            "]",
            "",
            "[[variant]]",
            f'name = "{name}-monsters-unopposed"',
            f'description = "{monsters} against an inert level-{level} party"',
            "party = [",
            *[f"  {inline(p)}," for p in inert_p],
            "]",
            f"monsters = {inline(real)}",
            "",
        ]
    (HERE / "damage-race.toml").write_text("\n".join(text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--woundsim", default=str(ROOT / "target" / "release" / "woundsim"))
    a = ap.parse_args()
    beasts = bestiary()
    for stem, levels, words in TIERS:
        write(beasts, stem, list(levels), words)
        print(f"wrote {HERE / (stem + '.toml')}")
    write_races(beasts, a.woundsim)
    print(f"wrote {HERE / 'damage-race.toml'}")


if __name__ == "__main__":
    main()
