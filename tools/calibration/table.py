#!/usr/bin/env python3
"""Tables of docs/calibration.md from a run of the calibration scenario.

    woundsim run combat-calibration --out OUT [--set ...]
    python3 tools/calibration/table.py OUT [--title TEXT] [--summary-only]

Reads OUT/summary.csv and OUT/combat-calibration/encounter.csv and prints
markdown: for each difficulty a table of levels 1-20 with the party's win
rate, the share of fights in which a PC dies, the rounds and the spell-slot
levels spent, each the mean of the three monster pools (equal weight) with
the pools' own win rates beside, and whether the level lands inside the
band this page reads the published description as. The bands are a check
of faithfulness, never a tuning knob. Python 3.11 standard library only.
"""

import argparse
import csv
import pathlib
import sys

POOLS = ["brutes", "dragons", "planar"]
DIFFICULTIES = ["low", "moderate", "high"]
# (least win rate, most PC-death rate), as docs/calibration.md reads the
# published descriptions.
BANDS = {"low": (0.95, 0.05), "moderate": (0.85, 0.15), "high": (0.60, 0.35)}
METRICS = ["p_party_win", "p_pc_death", "mean_rounds", "mean_slot_levels_spent"]


def load(out):
    figures = {}
    trials = None
    with open(out / "summary.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["scenario"] != "combat-calibration":
                continue
            figures[(row["variant"], row["metric"])] = (
                float(row["estimate"]),
                float(row["ci_low"] or "nan"),
                float(row["ci_high"] or "nan"),
            )
            trials = int(row["trials"])
    encounters = {}
    with open(out / "combat-calibration" / "encounter.csv", newline="") as f:
        for row in csv.DictReader(f):
            encounters[row["variant"]] = row["monsters"]
    return figures, encounters, trials


def variant(pool, difficulty, level):
    return f"{pool}-{difficulty}@party_level={level}"


def levels_of(figures):
    return sorted({int(v.rsplit("=", 1)[1]) for v, _ in figures if "@party_level=" in v})


def pct(x):
    return f"{100 * x:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--title", default="")
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--encounters", action="store_true", help="list each level's encounters")
    args = ap.parse_args()
    figures, encounters, trials = load(args.out)
    if not figures:
        sys.exit(f"{args.out}/summary.csv has no combat-calibration figures")
    levels = levels_of(figures)
    if args.title:
        print(f"### {args.title}\n")
    print(f"{trials:,} fights per pool, level and difficulty; each cell the mean of "
          f"the three pools (brutes, dragons, planar) unless named.\n")
    summary = []
    for d in DIFFICULTIES:
        least_win, most_death = BANDS[d]
        inside = []
        rows = []
        for level in levels:
            vals = {}
            for m in METRICS:
                got = [figures.get((variant(p, d, level), m)) for p in POOLS]
                got = [g[0] for g in got if g is not None]
                vals[m] = sum(got) / len(got) if got else float("nan")
            wins = [figures.get((variant(p, d, level), "p_party_win"), (float("nan"),))[0]
                    for p in POOLS]
            ok = vals["p_party_win"] >= least_win and vals["p_pc_death"] <= most_death
            inside.append((level, ok))
            rows.append(
                f"| {level} | {pct(vals['p_party_win'])} | {pct(vals['p_pc_death'])} | "
                f"{vals['mean_rounds']:.1f} | {vals['mean_slot_levels_spent']:.1f} | "
                + " | ".join(pct(w) for w in wins)
                + f" | {'yes' if ok else 'no'} |"
            )
        summary.append((d, inside))
        if args.summary_only:
            continue
        print(f"#### {d.capitalize()} (band: wins at least {100 * least_win:.0f}%, "
              f"a PC dies in at most {100 * most_death:.0f}% of fights)\n")
        print("| level | wins % | a PC dies % | rounds | slot levels spent | "
              "wins % brutes | wins % dragons | wins % planar | in band |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
        print("\n".join(rows))
        print()
    print("| difficulty | levels in band (of " + str(len(levels)) + ") | levels 3-20 in band | outside |")
    print("|---|---:|---:|---|")
    for d, inside in summary:
        n = sum(ok for _, ok in inside)
        n3 = sum(ok for level, ok in inside if level >= 3)
        total3 = sum(1 for level, _ in inside if level >= 3)
        outside = ", ".join(str(level) for level, ok in inside if not ok) or "none"
        print(f"| {d} | {n} | {n3} of {total3} | {outside} |")
    print()
    print("| difficulty | " + " | ".join(f"{p}: levels 3-20 in band" for p in POOLS) + " |")
    print("|---|" + "---:|" * len(POOLS))
    for d in DIFFICULTIES:
        least_win, most_death = BANDS[d]
        cells = []
        for p in POOLS:
            n = 0
            for level in levels:
                win = figures.get((variant(p, d, level), "p_party_win"))
                death = figures.get((variant(p, d, level), "p_pc_death"))
                if level >= 3 and win and death and win[0] >= least_win and death[0] <= most_death:
                    n += 1
            cells.append(f"{n} of {sum(1 for level in levels if level >= 3)}")
        print(f"| {d} | " + " | ".join(cells) + " |")
    print()
    if args.encounters:
        print("| level | difficulty | brutes | dragons | planar |")
        print("|---:|---|---|---|---|")
        for level in levels:
            for d in DIFFICULTIES:
                cells = [encounters.get(variant(p, d, level), "") for p in POOLS]
                print(f"| {level} | {d} | " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    main()
