#!/usr/bin/env python3
"""Builds every table of 3 to N men, one `egtb generate` process per table, and records what each
cost: wall and CPU seconds, the process's peak resident memory, the positions per side, the file
size. One process per table makes the peak memory that table's own (a process's peak covers every
table it built). The signatures come in build order (fewer men, then fewer pawns, then the text), so
each process finds its subtables built and builds one table; a process that built more is reported.

    bench/measure_set.py EGTB DIR OUT.jsonl [--all 5] [--threads 2] [--max-memory SIZE]

Each line of OUT.jsonl is one table, e.g.
    {"signature": "KQRkr", "pawns": false, "positions": 73081344, "positions_w": ..., "seconds": 9.1,
     "cpu_seconds": 17.5, "peak_rss_bytes": 529530880, "file_size": ..., "slices": 1}
Tables already in DIR are kept by egtb and not measured (delete them to measure them again). The
figures are what a cost model of the solver (retro/cost_model.hpp) is fitted to.
"""
import argparse
import json
import subprocess
import sys
import time


def signatures(egtb, men):
    """Every signature of 3 to `men` men in build order, as `egtb plan` lists them."""
    out = subprocess.run([egtb, "plan", "--all", str(men), "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return [t["signature"] for t in json.loads(out)["tables"]]


def measure(egtb, directory, signature, threads, max_memory):
    command = [egtb, "generate", signature, "--dir", directory, "--json", "--threads", str(threads)]
    if max_memory:
        command += ["--max-memory", max_memory]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"measure_set: {' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    built = [t for t in json.loads(done.stdout)["tables"] if t["built"]]
    if len(built) > 1:
        print(f"measure_set: {signature}'s process built {len(built)} tables; its peak memory is "
              "theirs together", file=sys.stderr)
    return built


def record(table):
    sides = table["sides"]
    return {
        "signature": table["signature"],
        "pawns": "P" in table["signature"] or "p" in table["signature"],
        "men": sum(1 for c in table["signature"] if c.isalpha()),
        "positions_w": sides["w"]["positions"],
        "positions_b": sides["b"]["positions"],
        "positions": sides["w"]["positions"] + sides["b"]["positions"],
        "seconds": table["seconds"],
        "cpu_seconds": table["cpu_seconds"],
        "peak_rss_bytes": table["peak_rss_bytes"],
        "file_size": table["file_size"],
        "slices": table.get("slices", 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("egtb")
    parser.add_argument("dir")
    parser.add_argument("out")
    parser.add_argument("--all", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-memory", help="passed to egtb generate: pawn tables estimated above it "
                        "are solved in slices")
    args = parser.parse_args()
    start = time.monotonic()
    todo = signatures(args.egtb, args.all)
    with open(args.out, "a", encoding="utf-8") as out:
        for n, signature in enumerate(todo, 1):
            for table in measure(args.egtb, args.dir, signature, args.threads, args.max_memory):
                line = record(table)
                out.write(json.dumps(line) + "\n")
                out.flush()
                if sys.stderr.isatty():
                    print(f"\r{n}/{len(todo)} {signature:8} {line['cpu_seconds']:8.1f} s cpu "
                          f"{line['peak_rss_bytes'] >> 20:6} MB", end="", file=sys.stderr)
    print(f"measure_set: {len(todo)} signatures in {time.monotonic() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
