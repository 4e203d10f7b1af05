#!/usr/bin/env python3
"""Probes per second through the Python module and the C library, beside `egtb bench probe`, on
the same random positions (api/sample.hpp: same directory, count and seed) in one run.

    cmake --build build --target egtb egtb_python capi_check
    PYTHONPATH=build/python /usr/bin/python3 bench/bench_bindings.py --dir build/test-tables

Each figure is a warm pass: every position is probed once first, so that the tables are open and
their blocks decoded (a cache of 1 GiB, as `egtb bench probe` uses), then timed again.

  egtb bench probe     Tablebase::probe on Position objects (C++, no parsing)
  Python, FEN str      Tablebase.probe_lasker(fen): FEN parsed, probed, an int returned
  Python, fen()        the same through an object with a fen() method (as a python-chess Board)
  C, bitboards         egtb_probe on bitboards (tests/capi/capi_check.c), 1 thread and N threads
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import egtb


class Board:
    def __init__(self, fen):
        self._fen = fen

    def fen(self):
        return self._fen


def python_rate(tb, positions):
    """Probes per second of wall time and of this thread's CPU time, warm."""
    probe = tb.probe_lasker
    for p in positions:
        probe(p)
    start, cpu_start = time.perf_counter(), time.thread_time()
    for p in positions:
        probe(p)
    return len(positions) / (time.perf_counter() - start), len(positions) / (time.thread_time() - cpu_start)


def bench_probe_rate(egtb_exe, args):
    out = subprocess.run([egtb_exe, "bench", "probe", "--dir", args.dir, "--count", str(args.count), "--seed",
                          str(args.seed), "--json"], check=True, capture_output=True, text=True).stdout
    timing = json.loads(out)
    return timing["probes_per_second"], timing["probes_per_cpu_second"]


def c_rates(capi_check, args, fens_path, threads):
    with open(fens_path) as fens:
        out = subprocess.run([capi_check, "bench", args.dir, str(threads)], stdin=fens, check=True,
                             capture_output=True, text=True).stdout
    words = out.splitlines()[-1].split()  # "threads N probes/s per thread X total Y per cpu second Z"
    return float(words[5]), float(words[7]), float(words[11])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default="tables", help="the table directory")
    parser.add_argument("--count", type=int, default=1_000_000, help="positions (default 1000000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--build", default="build", help="the build directory (egtb and capi_check)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads of the C run")
    args = parser.parse_args()
    egtb_exe = os.path.join(args.build, "tools", "egtb", "egtb")
    capi_check = os.path.join(args.build, "tests", "capi", "capi_check")

    fens = egtb.random_positions(args.dir, args.count, seed=args.seed)
    rows = [("egtb bench probe (C++)", *bench_probe_rate(egtb_exe, args))]
    with egtb.open_tablebase(args.dir, cache_mb=1024) as tb:
        rows.append(("Python probe_lasker, FEN str", *python_rate(tb, fens)))
        rows.append(("Python probe_lasker, fen() object", *python_rate(tb, [Board(f) for f in fens])))
    with tempfile.NamedTemporaryFile("w", suffix=".fens", delete=False) as f:
        f.write("\n".join(fens) + "\n")
    try:
        wall, _, cpu = c_rates(capi_check, args, f.name, 1)
        rows.append(("C egtb_probe, 1 thread", wall, cpu))
        if args.threads > 1:
            per_thread, total, cpu = c_rates(capi_check, args, f.name, args.threads)
            rows.append((f"C egtb_probe, {args.threads} threads, per thread", per_thread, cpu))
            rows.append((f"C egtb_probe, {args.threads} threads, total", total, None))
    finally:
        os.remove(f.name)
    print(f"{args.count:,} random positions of {args.dir} (seed {args.seed}), warm tables; probes/s of wall")
    print("time, and per second of the probing threads' CPU time (what other jobs on the machine leave out)")
    for name, wall, cpu in rows:
        print(f"  {name:<42} {wall:>12,.0f}" + (f" {cpu:>12,.0f} per CPU s" if cpu else ""))

if __name__ == "__main__":
    sys.exit(main())
