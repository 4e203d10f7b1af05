#!/usr/bin/env python3
"""Where the time of a set's build goes: reads the JSON of `egtb generate --all N --json` (one
process building the whole set) and prints, as Markdown, the wall and CPU seconds of its tables and
the seconds of each stage (`stage_seconds`: load the subtables, solve, order the index, write the
file) summed by group (3-4 men; 5 men and more without pawns; with pawns, whole, in slices or on
the lean path), then the slowest tables.

    egtb generate --all 5 --threads 2 --dir DIR --json > set.json
    bench/set_stages.py set.json [--slowest 10]

A table's wall seconds are its stages and what lies between them; the stages' sum is printed
beside it. Tables the run found built (kept: their checksums verified) are counted, untimed (the
run's own wall time is theirs). The peak is the process's (its high-water mark: a set built in one
process reports the largest table's peak, not each table's own; bench/measure_set.py measures
those).
"""
import argparse
import json
import sys

STAGES = ("load", "solve", "order", "write")


def men(signature):
    return sum(1 for c in signature if c.isalpha())


def group_of(table):
    if not table["built"]:
        return "kept (checksums verified)"
    signature = table["signature"]
    if men(signature) <= 4:
        return "3-4 men"
    if "P" not in signature.upper():
        return f"{men(signature)} men without pawns" + (", lean path" if table.get("lean") else "")
    if table.get("slices", 1) > 1:
        return f"{men(signature)} men with pawns, in slices"
    return f"{men(signature)} men with pawns, whole"


def seconds(table, key):
    return table.get(key) or 0.0


def stage(table, name):
    return (table.get("stage_seconds") or {}).get(name, 0.0)


def row(name, tables):
    wall = sum(seconds(t, "seconds") for t in tables)
    cpu = sum(seconds(t, "cpu_seconds") for t in tables)
    stages = [sum(stage(t, s) for t in tables) for s in STAGES]
    cells = [name, f"{len(tables)}", f"{wall:,.1f}", f"{cpu:,.1f}"] + [f"{s:,.1f}" for s in stages]
    return "| " + " | ".join(cells + [f"{sum(stages):,.1f}"]) + " |"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="the output of egtb generate --all N --json")
    parser.add_argument("--slowest", type=int, default=10, help="how many of the slowest tables to list")
    args = parser.parse_args()
    try:
        with open(args.json, encoding="utf-8") as f:
            tables = json.load(f)["tables"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"set_stages: cannot read {args.json} as egtb generate --json output: {e}")

    groups = {}
    for t in tables:
        groups.setdefault(group_of(t), []).append(t)
    header = ["group", "tables", "wall s", "CPU s"] + [f"{s} s" for s in STAGES] + ["stages s"]
    print("| " + " | ".join(header) + " |")
    print("|---|" + "--:|" * (len(header) - 1))
    for name in sorted(groups):
        print(row(name, groups[name]))
    print(row("all", tables))
    peak = max((t.get("peak_rss_bytes") or 0 for t in tables), default=0)
    print()
    if peak:
        print(f"The process's peak: {peak / 2**20:,.0f} MiB.")
    built = sorted((t for t in tables if t["built"]), key=lambda t: -seconds(t, "seconds"))
    if not built or args.slowest <= 0:
        return
    print()
    print(f"The {min(args.slowest, len(built))} slowest tables:")
    print()
    print("| table | wall s | CPU s | " + " | ".join(f"{s} s" for s in STAGES) + " | slices |")
    print("|---|--:|--:|" + "--:|" * len(STAGES) + "--:|")
    for t in built[: args.slowest]:
        cells = [t["signature"], f"{seconds(t, 'seconds'):.1f}", f"{seconds(t, 'cpu_seconds'):.1f}"]
        cells += [f"{stage(t, s):.1f}" for s in STAGES]
        cells.append(str(t.get("slices", 1)))
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
