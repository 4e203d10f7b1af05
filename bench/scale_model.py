#!/usr/bin/env python3
"""Fits the solver's cost model to a measured 3-5-man run and predicts the 6- and 7-man sets.

    bench/scale_model.py EGTB MEASURE.jsonl [SLICED.jsonl] > docs/scale-figures.md

MEASURE.jsonl is what bench/measure_set.py wrote (one table per line, built alone on one thread).
The model (retro/cost_model.hpp): with L the layout positions per side and W the entries per side of
the subtables loaded whole,

    cpu_seconds = a * L                     peak_bytes = BaseBytes + b * L + 4 * W (+ page cache)

with a and b fitted apart for pawnless tables and tables with pawns, on the 5-man tables (the
3-4-man ones are too small: their peak is the program's). The fit is checked by two-fold cross
validation (fitted on every other table in the order of L, checked on the rest, and the other way
round), and the coefficients compiled into EGTB are checked on every table. The predictions come
from `EGTB plan --all 6|7 --format json`, that is from the compiled coefficients. Writes Markdown.

SLICED.jsonl, if given, is a measure_set.py run with --max-memory: the tables it solved in
slices fit the bytes per position p beside the slice of the sliced estimate (f the largest slice's share),

    sliced_peak_bytes = BaseBytes + b * f * L + p * L + 4 * W (+ page cache),

checked the same ways.
"""
import heapq
import json
import statistics
import subprocess
import sys

GB = 1e9
SUBTABLE_BYTES_PER_ENTRY = 4  # retro/cost_model.hpp
PAGE_CACHE = 64 << 20         # retro/subtables.hpp, PagedCacheBytes
BASE_BYTES = 9e6              # retro/cost_model.hpp, BaseBytes
SLICE_OVERHEAD_BYTES = 0.15   # retro/cost_model.hpp, SliceOverheadBytesPerPosition


def plan(egtb, men):
    out = subprocess.run([egtb, "plan", "--all", str(men), "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["tables"]


def joined(egtb, measure_path):
    """The measured tables with their plan entries (layout positions, W, the compiled estimate)."""
    planned = {t["signature"]: t for t in plan(egtb, 5)}
    rows = []
    with open(measure_path, encoding="utf-8") as f:
        for line in f:
            m = json.loads(line)
            rows.append({**m, "plan": planned[m["signature"]]})
    return rows


def solver_bytes(row):
    """The measured peak less what the model does not scale with L."""
    p = row["plan"]
    return (row["peak_rss_bytes"] - BASE_BYTES - SUBTABLE_BYTES_PER_ENTRY * p["whole_subtable_entries"]
            - (PAGE_CACHE if p["pages_subtables"] else 0))


def fit(rows):
    """a and b by least squares through the origin (the largest tables weigh most)."""
    ls = [r["plan"]["layout_positions_per_side"] for r in rows]
    sq = sum(l * l for l in ls)
    a = sum(r["cpu_seconds"] * l for r, l in zip(rows, ls)) / sq
    b = sum(solver_bytes(r) * l for r, l in zip(rows, ls)) / sq
    return a, b


def predict(row, a, b):
    p = row["plan"]
    l = p["layout_positions_per_side"]
    peak = (BASE_BYTES + b * l + SUBTABLE_BYTES_PER_ENTRY * p["whole_subtable_entries"]
            + (PAGE_CACHE if p["pages_subtables"] else 0))
    return a * l, peak


def errors(rows, estimate):
    """Relative errors (estimate / measured - 1) of CPU and peak memory."""
    cpu, mem = [], []
    for r in rows:
        c, m = estimate(r)
        cpu.append(c / r["cpu_seconds"] - 1)
        mem.append(m / r["peak_rss_bytes"] - 1)
    return cpu, mem


def describe(errs):
    absolute = sorted(abs(e) for e in errs)
    return (f"{statistics.median(absolute):.0%}, {absolute[int(0.9 * (len(absolute) - 1))]:.0%}, "
            f"{min(errs):+.0%} … {max(errs):+.0%}")


def fit_section(rows):
    out = ["## The fit", "",
           "Least squares on the 5-man tables, per class; *held out*: two-fold cross validation "
           "(fitted on every other table in the order of L, checked on the others, and the other way "
           "round); *compiled*: the coefficients in `retro/cost_model.hpp` on every 5-man table. Errors "
           "are estimate / measured − 1: median and 90th percentile of their size, then the range.", "",
           "| class | tables | a (ns CPU per position) | b (bytes per position) | check | CPU error: median, p90, range | memory error: median, p90, range |",
           "|---|---:|---:|---:|---|---|---|"]
    for name, pawns in (("pawnless", False), ("pawns", True)):
        group = sorted((r for r in rows if r["pawns"] == pawns and r["men"] == 5),
                       key=lambda r: (r["plan"]["layout_positions_per_side"], r["signature"]))
        if len(group) < 4:
            continue
        a, b = fit(group)
        held_cpu, held_mem = [], []
        for fold in (0, 1):
            train = group[fold::2]
            test = group[1 - fold::2]
            fa, fb = fit(train)
            c, m = errors(test, lambda r: predict(r, fa, fb))
            held_cpu += c
            held_mem += m
        comp_cpu, comp_mem = errors(group, lambda r: (r["plan"]["estimated_cpu_seconds"],
                                                      r["plan"]["estimated_peak_bytes"]))
        out.append(f"| {name} | {len(group)} | {a * 1e9:.1f} | {b:.2f} | held out | {describe(held_cpu)} | {describe(held_mem)} |")
        out.append(f"| | | | | compiled | {describe(comp_cpu)} | {describe(comp_mem)} |")
    out.append("")
    return out


def worst_section(rows):
    out = ["The tables the compiled model misses most (CPU):", "",
           "| table | L | measured CPU s | estimated | measured peak MB | estimated |", "|---|---:|---:|---:|---:|---:|"]
    five = [r for r in rows if r["men"] == 5]
    five.sort(key=lambda r: -abs(r["plan"]["estimated_cpu_seconds"] / r["cpu_seconds"] - 1))
    for r in five[:8]:
        p = r["plan"]
        out.append(f"| {r['signature']} | {p['layout_positions_per_side']:,} | {r['cpu_seconds']:.1f} | "
                   f"{p['estimated_cpu_seconds']:.1f} | {r['peak_rss_bytes'] / 2**20:,.0f} | "
                   f"{p['estimated_peak_bytes'] / 2**20:,.0f} |")
    out.append("")
    return out


def makespan(tables, nodes, cores, memory):
    """Hours to build `tables` on `nodes` nodes of `cores` single-thread job slots and `memory`
    bytes each, every table after its dependencies, as a greedy list scheduler (Slurm's backfill
    does no worse): the ready table with the most estimated CPU first, on any node with a free
    core and room for its peak. Tables that fit no node are left out (they need slicing)."""
    fits = {t["signature"] for t in tables if t["estimated_peak_bytes"] <= memory}
    todo = {t["signature"]: t for t in tables if t["signature"] in fits}
    waiting = {s: {d for d in t["dependencies"] if d in todo} for s, t in todo.items()}
    free = [[cores, memory] for _ in range(nodes)]
    ready = [s for s, w in waiting.items() if not w]
    running = []  # (end time, signature, node)
    now = 0.0
    done = 0
    while done < len(todo):
        ready.sort(key=lambda s: -todo[s]["estimated_cpu_seconds"])
        started = []
        for s in ready:
            need = todo[s]["estimated_peak_bytes"]
            node = next((n for n, f in enumerate(free) if f[0] > 0 and f[1] >= need), None)
            if node is None:
                continue
            free[node][0] -= 1
            free[node][1] -= need
            heapq.heappush(running, (now + todo[s]["estimated_cpu_seconds"], s, node))
            started.append(s)
        ready = [s for s in ready if s not in started]
        now, s, node = heapq.heappop(running)
        free[node][0] += 1
        free[node][1] += todo[s]["estimated_peak_bytes"]
        done += 1
        for t, w in waiting.items():
            if s in w:
                w.discard(s)
                if not w:
                    ready.append(t)
    return now / 3600, len(tables) - len(todo)


def set_section(men, tables):
    mine = [t for t in tables if len(t["signature"]) == men]
    out = [f"## The {men}-man set, predicted", ""]
    for name, pawns in (("pawnless", False), ("with pawns", True)):
        group = [t for t in mine if (("P" in t["signature"]) or ("p" in t["signature"])) == pawns]
        cpu = sum(t["estimated_cpu_seconds"] for t in group) / 3600
        out.append(f"* {len(group)} tables {name}: {sum(t['layout_positions_per_side'] for t in group):,} "
                   f"layout positions per side, {cpu:,.0f} CPU hours, the largest peak "
                   f"{max(t['estimated_peak_bytes'] for t in group) / GB:,.1f} GB.")
    out += ["", "Tables by estimated peak memory (today's solver, whole table in memory):", "",
            "| peak at most | tables | CPU hours |", "|---|---:|---:|"]
    last = 0
    for limit in (24, 64, 128, 256, 512, 1024, 2048, 4096, 8192):
        group = [t for t in mine if last * GB < t["estimated_peak_bytes"] <= limit * GB]
        if group:
            out.append(f"| {limit:,} GB | {len(group)} | {sum(t['estimated_cpu_seconds'] for t in group) / 3600:,.1f} |")
        last = limit
    big = sorted(mine, key=lambda t: -t["estimated_peak_bytes"])[:10]
    out += ["", "The largest:", "", "| table | layout positions per side | index entries per side | CPU hours | peak GB |",
            "|---|---:|---:|---:|---:|"]
    for t in big:
        out.append(f"| {t['signature']} | {t['layout_positions_per_side']:,} | {t['entries_per_side']:,} | "
                   f"{t['estimated_cpu_seconds'] / 3600:,.2f} | {t['estimated_peak_bytes'] / GB:,.1f} |")
    out.append("")
    return out


def cluster_section(tables):
    out = ["## The 3-6-man set on N nodes", "",
           "Every table one single-thread job after its subtables (what `egtb plan --format make|slurm` "
           "writes, with `--threads 1`), greedy list scheduling on N identical nodes; tables whose "
           "peak exceeds a node's memory are left out and counted (they need slicing or a bigger node).", "",
           "| nodes | cores, memory per node | hours | tables left out |", "|---:|---|---:|---:|"]
    for cores, memory in ((2, 24), (32, 256), (64, 1024)):
        for nodes in (1, 4, 16, 64):
            if cores == 2 and nodes > 1:
                continue
            hours, left = makespan(tables, nodes, cores, memory * GB)
            out.append(f"| {nodes} | {cores} cores, {memory} GB | {hours:,.1f} | {left} |")
    out.append("")
    return out


def men_of(signature):
    pawns = sum(c in "Pp" for c in signature)
    return len(signature) - 2 - pawns, pawns


def bytes_per_position(tables):
    """b of the compiled model, read back from a plan's estimates (pawnless, pawns)."""
    out = {}
    for t in sorted(tables, key=lambda t: -t["layout_positions_per_side"]):
        pawns = men_of(t["signature"])[1] > 0
        if pawns not in out:
            rest = (BASE_BYTES + SUBTABLE_BYTES_PER_ENTRY * t["whole_subtable_entries"]
                    + (PAGE_CACHE if t["pages_subtables"] else 0))
            out[pawns] = (t["estimated_peak_bytes"] - rest) / t["layout_positions_per_side"]
    return out


def slicing_section(men, tables):
    """Pawn tables solved one file slice at a time: every pawn on a fixed file (a pawn keeps its
    file unless it captures, which leaves the table), so the slices are independent and a slice has
    the pieces' 64 squares each and 6 ranks per pawn (pairs * 64^pieces * 6^pawns positions);
    a slice of one placement of the pawns has pairs * 64^pieces positions but reads the finished
    slices its pawn moves lead to. Pawnless tables cannot be ordered (kings move both ways) and are
    split over ranks instead."""
    mine = [t for t in tables if len(t["signature"]) == men]
    b = bytes_per_position(tables)
    out = [f"### {men} men: pawn tables by file slices", "",
           "| pawns | tables | largest table's peak GB | file slices | largest file slice's positions | its peak GB | "
           "largest pawn-placement slice's positions | its peak GB |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for pawns in range(1, men - 1):
        group = [t for t in mine if men_of(t["signature"])[1] == pawns]
        if not group:
            continue
        pieces = men - 2 - pawns
        slice_positions = 1806 * 64 ** pieces * 6 ** pawns
        peak = max(t["estimated_peak_bytes"] for t in group)
        placement = 1806 * 64 ** pieces
        out.append(f"| {pawns} | {len(group)} | {peak / GB:,.1f} | {8 ** pawns:,} | {slice_positions:,} | "
                   f"{(BASE_BYTES + b[True] * slice_positions) / GB:,.1f} | {placement:,} | "
                   f"{(BASE_BYTES + b[True] * placement) / GB:,.2f} |")
    out.append("")
    return out


def mpi_section(tables, link_gb_per_s=10):
    """The largest pawnless 7-man table split by king-pair slices over R ranks."""
    b = bytes_per_position(tables)[False]
    a = max(t["estimated_cpu_seconds"] / t["layout_positions_per_side"] for t in tables
            if men_of(t["signature"])[1] == 0)
    big = max((t for t in tables if men_of(t["signature"])[1] == 0),
              key=lambda t: (t["layout_positions_per_side"], t["entries_per_side"]))
    positions = big["layout_positions_per_side"]
    out = [f"### One 7-man table over MPI ranks: {big['signature']}, {positions:,} layout positions per side", "",
           f"Solver state b × L = {b * positions / 1e12:,.2f} TB, {a * positions / 3600:,.0f} CPU hours by the "
           "linear model. Per rank: its king pairs' state, ghost copies of the nonwon bits of the pairs one king "
           "move away (at most all of them: 2 bits per position, both sides), and the frontier bitmap it sends "
           "per ply to the ranks holding neighbouring pairs (1 bit per own position and side when dense; over a "
           f"whole solve at most 8 bytes per position, side and phase when sparse). Link: {link_gb_per_s} GB/s.", "",
           "| ranks | king pairs per rank | state GB per rank | ghost bits GB (bound) | dense frontier per ply, GB | "
           "seconds per dense ply on the link | sparse volume per rank over the solve, GB |",
           "|---:|---:|---:|---:|---:|---:|---:|"]
    for ranks in (8, 16, 32, 64, 128, 462):
        own = positions / ranks
        ghost = min(positions, 16 * own) * 2 / 8
        frontier = own * 2 / 8
        sparse = own * 2 * 2 * 8
        out.append(f"| {ranks} | {462 / ranks:.1f} | {b * own / GB:,.1f} | {ghost / GB:,.1f} | {frontier / GB:,.2f} | "
                   f"{frontier / (link_gb_per_s * GB):.2f} | {sparse / GB:,.0f} |")
    out.append("")
    return out


def sliced_estimate(row):
    """The compiled estimate of the slicing the measured run used: the promoting slices joined
    (fewer slices) or each alone."""
    p = row["plan"]
    if p.get("joined_slices") and row["slices"] == p["joined_slices"]:
        return p["estimated_joined_peak_bytes"]
    return p["estimated_sliced_peak_bytes"]


def sliced_residual(row):
    """The measured peak of a sliced solve less the compiled estimate's terms but p * L."""
    p = row["plan"]
    return row["peak_rss_bytes"] - (sliced_estimate(row) - SLICE_OVERHEAD_BYTES * p["layout_positions_per_side"])


def fit_overhead(rows):
    ls = [r["plan"]["layout_positions_per_side"] for r in rows]
    return sum(sliced_residual(r) * l for r, l in zip(rows, ls)) / sum(l * l for l in ls)


def sliced_errors(rows, packed):
    """Relative errors (estimate / measured - 1) of the sliced estimate with p = packed."""
    return [(sliced_estimate(r) + (packed - SLICE_OVERHEAD_BYTES) * r["plan"]["layout_positions_per_side"])
            / r["peak_rss_bytes"] - 1 for r in rows]


def sliced_section(egtb, sliced_path):
    rows = [r for r in joined(egtb, sliced_path) if r.get("slices", 1) > 1]
    rows.sort(key=lambda r: (r["plan"]["layout_positions_per_side"], r["signature"]))
    packed = fit_overhead(rows)
    held = []
    for fold in (0, 1):
        held += sliced_errors(rows[1 - fold::2], fit_overhead(rows[fold::2]))
    compiled = sliced_errors(rows, SLICE_OVERHEAD_BYTES)
    whole = [r["plan"]["estimated_peak_bytes"] for r in rows]
    out = ["## Solved in slices", "",
           f"{len(rows)} tables solved in slices (`measure_set.py --max-memory`), "
           f"{sum(r['cpu_seconds'] for r in rows) / 60:,.1f} CPU minutes; their whole solves are "
           f"estimated at {min(whole) / 2**20:,.0f}-{max(whole) / 2**20:,.0f} MB.", "",
           "| p (bytes per position beside the slice) | check | memory error: median, p90, range |", "|---:|---|---|",
           f"| {packed:.2f} | held out | {describe(held)} |",
           f"| {SLICE_OVERHEAD_BYTES:.2f} (compiled) | all | {describe(compiled)} |", "",
           "| table | slices | L | measured CPU s | measured peak MB | estimated sliced | estimated whole |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: -r["peak_rss_bytes"]):
        p = r["plan"]
        out.append(f"| {r['signature']} | {r['slices']} | {p['layout_positions_per_side']:,} | {r['cpu_seconds']:.1f} | "
                   f"{r['peak_rss_bytes'] / 2**20:,.0f} | {sliced_estimate(r) / 2**20:,.0f} | "
                   f"{p['estimated_peak_bytes'] / 2**20:,.0f} |")
    out.append("")
    return out


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    egtb, measure_path = sys.argv[1], sys.argv[2]
    rows = joined(egtb, measure_path)
    five = [r for r in rows if r["men"] == 5]
    print("<!-- Written by bench/scale_model.py from a bench/measure_set.py run; do not edit. -->")
    print(f"# Cost model figures\n\nMeasured: {len(rows)} tables ({len(five)} of 5 men), "
          f"{sum(r['cpu_seconds'] for r in rows) / 60:,.1f} CPU minutes, the largest peak "
          f"{max(r['peak_rss_bytes'] for r in rows) / 2**20:,.0f} MB.\n")
    for line in fit_section(rows) + worst_section(rows):
        print(line)
    if len(sys.argv) == 4:
        for line in sliced_section(egtb, sys.argv[3]):
            print(line)
    six = plan(egtb, 6)
    seven = plan(egtb, 7)
    sections = (set_section(6, six) + cluster_section(six) + set_section(7, seven) + ["## Slicing", ""] +
                slicing_section(6, six) + slicing_section(7, seven) + mpi_section(seven))
    for line in sections:
        print(line)


if __name__ == "__main__":
    main()
