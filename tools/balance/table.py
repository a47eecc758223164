#!/usr/bin/env python3
"""Print the balance harness's markdown tables from a run's output folder.

    python3 tools/balance/table.py OUT [--detail L08-moderate,L14-moderate]

OUT is the `--out` folder of `woundsim run` over tools/balance/*.toml. The
figures come from OUT/summary.csv (docs/output.md: scenario, variant,
metric, estimate, ci_low, ci_high, trials, seed), the encounters from
OUT/<scenario>/encounter.csv, the rounds from OUT/<scenario>/rounds.csv.
Intervals are the run's own (95%: Wilson for proportions, normal for
means). With --detail, each named budget variant gets a line on how long
its fights last and which side's damage dominates; the hit points of the
party and of the monsters are read with `$WOUNDSIM show NAME` (WOUNDSIM:
the binary, default `woundsim`), the monsters named through the variant's
`monster_pool` in the scenario file (tools/balance/*.toml).

Python 3.11 standard library only.
"""

import argparse
import csv
import os
import pathlib
import re
import subprocess
import sys
import tomllib
from collections import defaultdict

HERE = pathlib.Path(__file__).resolve().parent
LONE = "balance-lone-casters"
BUDGETS = ("balance-budgets-t1-t2", "balance-budgets-t3", "balance-budgets-t4")
DIFFICULTIES = ("low", "moderate", "high")
RACE = "balance-damage-race"


def read_summary(out):
    """scenario -> variant -> metric -> (estimate, low, high, trials, seed)."""
    fig = defaultdict(lambda: defaultdict(dict))
    with open(out / "summary.csv", newline="") as f:
        for row in csv.DictReader(f):
            def num(key):
                return float(row[key]) if row[key] != "" else None
            fig[row["scenario"]][row["variant"]][row["metric"]] = (
                num("estimate"), num("ci_low"), num("ci_high"),
                int(row["trials"]), row["seed"],
            )
    return fig


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def pct(v):
    est, lo, hi = v[:3]
    return f"{100 * est:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def mean(v):
    est, lo, hi = v[:3]
    if lo is None:
        return f"{est:.2f} [n/a]"
    return f"{est:.2f} [{lo:.2f}, {hi:.2f}]"


def lone_table(fig):
    rows = fig.get(LONE)
    if not rows:
        return ""
    out = [
        "| class (level 9, alone) | win % [95% CI] | PC dies % [95% CI] | PC down % | mean rounds [95% CI] | trials |",
        "|---|---|---|---|---|---|",
    ]
    for variant, m in rows.items():
        out.append(
            f"| {variant} | {pct(m['p_party_win'])} | {pct(m['p_pc_death'])} | "
            f"{100 * m['p_pc_down'][0]:.1f} | {mean(m['mean_rounds'])} | "
            f"{m['p_party_win'][3]} |"
        )
    return "\n".join(out) + "\n"


def budget_rows(fig, out):
    """(level, difficulty, variant, scenario, metrics, encounter row)."""
    rows = []
    for scenario in BUDGETS:
        if scenario not in fig:
            continue
        enc = {r["variant"]: r for r in read_csv(out / scenario / "encounter.csv")}
        for variant, m in fig[scenario].items():
            match = re.fullmatch(r"L(\d+)-(low|moderate|high)", variant)
            if not match:
                continue
            built = enc[variant]["monsters"]
            planned = scenario_variant(scenario, variant).get("description", "")
            planned = re.sub(r"^.*?: | \(\d+ XP\)$", "", planned).replace("@5.2", "")
            if planned != built:
                print(f"table.py: {variant}: the builder made `{built}`, "
                      f"the file's comment says `{planned}`", file=sys.stderr)
            rows.append((int(match[1]), match[2], variant, scenario, m, enc[variant]))
    rows.sort(key=lambda r: (r[0], DIFFICULTIES.index(r[1])))
    return rows


def budget_table(rows):
    out = [
        "| level | difficulty | monsters (XP of budget) | win % [95% CI] | a PC dies % [95% CI] | mean rounds [95% CI] | a PC down % | timeout % | trials |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for level, diff, _, _, m, enc in rows:
        budget = enc[f"{diff}_budget"]
        out.append(
            f"| {level} | {diff} | {enc['monsters']} ({enc['encounter_xp']}/{budget}) | "
            f"{pct(m['p_party_win'])} | {pct(m['p_pc_death'])} | {mean(m['mean_rounds'])} | "
            f"{100 * m['p_pc_down'][0]:.1f} | {100 * m['p_timeout'][0]:.1f} | "
            f"{m['p_party_win'][3]} |"
        )
    return "\n".join(out) + "\n"


def grid(rows, metric, title):
    """A compact level x difficulty grid of one proportion, in percent."""
    cell = {(l, d): m[metric][0] for l, d, _, _, m, _ in rows}
    levels = sorted({l for l, *_ in rows})
    out = [f"| level | {title}: low | moderate | high |", "|---|---|---|---|"]
    for l in levels:
        vals = [cell.get((l, d)) for d in DIFFICULTIES]
        out.append(
            f"| {l} | "
            + " | ".join("" if v is None else f"{100 * v:.1f}" for v in vals)
            + " |"
        )
    return "\n".join(out) + "\n"


_HP = {}


def show_hp(woundsim, name):
    """Hit points of a template or bestiary entry, from `woundsim show`."""
    if name not in _HP:
        text = subprocess.run(
            [woundsim, "show", name], capture_output=True, text=True, check=True
        ).stdout
        _HP[name] = int(re.search(r"Hit points (\d+)", text)[1])
    return _HP[name]


_DOCS = []


def scenario_variant(scenario, variant):
    if not _DOCS:
        for path in sorted(HERE.glob("*.toml")):
            with open(path, "rb") as f:
                _DOCS.append(tomllib.load(f))
    for doc in _DOCS:
        if doc.get("name") == scenario:
            for v in doc.get("variant", []):
                if v["name"] == variant:
                    return {**doc.get("options", {}), **v}
    raise SystemExit(f"table.py: no variant {variant} of {scenario} in {HERE}")


def quantile(bins, q):
    total = sum(c for _, c in bins)
    seen = 0
    for b, c in bins:
        seen += c
        if seen >= q * total:
            return b
    return bins[-1][0]


def detail(fig, rows, out, woundsim, names):
    race = fig.get(RACE, {})
    lines = []
    for level, diff, variant, scenario, m, enc in rows:
        if variant not in names:
            continue
        v = scenario_variant(scenario, variant)
        party_hp = sum(show_hp(woundsim, pc["template"]) for pc in v["party"])
        by_name = {p.removesuffix("@5.2"): p for p in v["monster_pool"]}
        monster_hp = 0
        for part in enc["monsters"].split(" + "):
            count, name = part.split(" ", 1)
            monster_hp += int(count) * show_hp(woundsim, by_name.get(name, name))
        bins = [
            (int(r["bin"]), int(r["count"]))
            for r in read_csv(out / scenario / "rounds.csv")
            if r["variant"] == variant
        ]
        rounds = m["mean_rounds"][0]
        lost = m["mean_pc_hp_lost"][0]
        downs = ", ".join(
            f"{pc} {100 * m[f'p_pc_down_{pc}'][0]:.0f}%"
            for pc in ("fighter", "cleric", "rogue", "wizard")
        )
        line = (
            f"- **{variant}** ({enc['monsters']}; {monster_hp} monster HP against "
            f"the party's {party_hp}): fights last {mean(m['mean_rounds'])} rounds "
            f"(median {quantile(bins, 0.5)}, 90th percentile {quantile(bins, 0.9)}); "
            f"the PCs lose {lost:.0f} HP a fight ({100 * lost / party_hp:.0f}% of "
            f"their HP, {lost / rounds:.0f} HP a round); down at least once: {downs}."
        )
        p_un = race.get(f"{variant}-party-unopposed")
        m_un = race.get(f"{variant}-monsters-unopposed")
        if p_un and m_un:
            tp, tm = p_un["mean_rounds"][0], m_un["mean_rounds"][0]
            side = "the monsters'" if tm < tp else "the party's"
            line += (
                f" Unopposed (damage-race.toml), the party needs {mean(p_un['mean_rounds'])} "
                f"rounds to kill the monsters (about {monster_hp / tp:.0f} HP a round) and "
                f"the monsters {mean(m_un['mean_rounds'])} rounds to drop all four PCs "
                f"(about {party_hp / tm:.0f} HP a round): {side} damage dominates, "
                f"{max(tp, tm) / min(tp, tm):.1f} to 1 in time to kill."
            )
        lines.append(line)
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--detail", default="", help="budget variants, comma-separated")
    ap.add_argument("--woundsim", default=None)
    a = ap.parse_args()
    woundsim = a.woundsim or os.environ.get("WOUNDSIM", "woundsim")
    fig = read_summary(a.out)
    seeds = sorted({m["p_party_win"][4] for s in fig.values() for m in s.values()})
    print(f"Seed {', '.join(seeds)}; intervals are 95%.\n")
    if LONE in fig:
        print("### Lone level-9 casters against six hobgoblin warriors\n")
        print(lone_table(fig))
    rows = budget_rows(fig, a.out)
    if rows:
        print("### A party of four against SRD 5.2 budgets\n")
        print("Fighter, cleric, rogue and wizard templates at the level; monsters built by "
              "`difficulty` from the level's pool (tools/balance/*.toml).\n")
        print(budget_table(rows))
        print(grid(rows, "p_party_win", "party win %"))
        print(grid(rows, "p_pc_death", "a PC dies %"))
    if a.detail:
        names = {n.strip() for n in a.detail.split(",") if n.strip()}
        print("### Fight length and which side's damage dominates\n")
        print(detail(fig, rows, a.out, woundsim, names))


if __name__ == "__main__":
    sys.exit(main())
