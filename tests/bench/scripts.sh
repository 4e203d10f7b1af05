#!/usr/bin/env bash
# scripts.sh CASE SOURCE_DIR BUILD_DIR: one script of bench/ or tools/docs/ run on a small input,
# so that a change that breaks it fails here rather than when the figures are next measured. What
# is checked is the shape of what it prints (no speed: figures are measured, never asserted).
#   load_test       bench/load_test.sh for 1 s over the 3-4-man tables: requests answered, no errors
#   pgn_bench       bench/pgn_bench.sh on 50 games: a row per command, games counted
#   measure_scale   bench/measure_set.py over the 3-man set (a line per table, as egtb reports it);
#                   bench/scale_model.py fits a and b exactly to made-up 5-man rows that follow
#                   its model, and predicts the 6- and 7-man sets
#   bindings        bench/bench_bindings.py on 2,000 positions: every row
#   value_probes    bench/bench_value_probes.sh on 500 placements of KQk, KRk and KPk: both rows
#   vs_fathom       bench/bench_vs_fathom.sh's --help and its refusals of missing or wrong
#                   arguments (it needs Fathom's source and Syzygy's files, so it is not run here);
#                   and, where shellcheck is installed, its verdict on the script
#   rules_findings  tools/docs/rules_findings.sh 3: the three rule sets compared
#   tables5         tools/docs/tables5_docs.sh with 3 men: Tables 1 and 2
#   set_stages      bench/set_stages.py over `egtb generate --all 3 --json`, built and then kept: its
#                   groups, and the stages' sum against the JSON's
# A missing tool (wrk, pgn-extract, the Python module) prints "SKIPPED: ..." (ctest: skipped).
set -euo pipefail
case=$1
source=$2
build=$3
egtb=$build/tools/egtb/egtb
tables=$build/test-tables
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "$case: $1:"
  cat "$work/out"
  exit 1
}

case $case in
load_test)
  command -v wrk > /dev/null || { echo "SKIPPED: wrk is not installed"; exit 0; }
  EGTB=$egtb bash "$source/bench/load_test.sh" "$tables" 1 4 > "$work/out"
  grep -q "^load_test: 4000 positions from 20 tables" "$work/out" || fail "not 4000 positions"
  grep -q "^requests [1-9][0-9]* in " "$work/out" || fail "no requests answered"
  grep -q "^errors 0 " "$work/out" || fail "errors"
  ;;
pgn_bench)
  command -v pgn-extract > /dev/null || [ -x /usr/games/pgn-extract ] ||
    { echo "SKIPPED: pgn-extract is not installed"; exit 0; }
  mkdir "$work/build"
  ln -s "$build/tools" "$build/tests" "$work/build/"
  sh "$source/bench/pgn_bench.sh" 50 "$tables" "$work/build" > "$work/out"
  grep -q "^50 games, " "$work/out" || fail "not 50 games"
  [ "$(grep -c '^| egtb annotate \|^| egtb query --pgn-in \|^| pgn-extract ' "$work/out")" = 4 ] || fail "not 4 rows"
  ;;
measure_scale)
  python3 "$source/bench/measure_set.py" "$egtb" "$work/tables" "$work/measure.jsonl" --all 3 --threads 1 \
    2> "$work/out"
  python3 - "$egtb" "$work" << 'PY' > "$work/out" 2>&1 || fail "measure_set.py's lines"
import json, subprocess, sys
egtb, work = sys.argv[1:]
rows = [json.loads(line) for line in open(f"{work}/measure.jsonl")]
assert sorted(r["signature"] for r in rows) == ["KBk", "KNk", "KPk", "KQk", "KRk"], rows
for r in rows:
    info = json.loads(subprocess.run([egtb, "info", f"{work}/tables/{r['signature']}.egtb", "--json"],
                                     check=True, capture_output=True, text=True).stdout)
    assert r["file_size"] == info["file_size"] and r["positions"] == info["positions"], (r, info)
    assert r["men"] == 3 and r["pawns"] == (r["signature"] == "KPk") and r["peak_rss_bytes"] > 0, r
PY
  # Made-up 5-man rows on the model's line (scale_model.py: cpu = a * L, peak = BaseBytes + b * L +
  # 4 * W + the page cache when subtables are paged), a = 20 ns and b = 3 bytes per position.
  python3 - "$egtb" "$work" << 'PY' >> "$work/measure.jsonl"
import json, subprocess, sys
egtb, work = sys.argv[1:]
plan = json.loads(subprocess.run([egtb, "plan", "--all", "5", "--format", "json"], check=True,
                                 capture_output=True, text=True).stdout)["tables"]
five = [t for t in plan if len(t["signature"]) == 5]
for pawns in (False, True):
    for t in [t for t in five if ("P" in t["signature"] or "p" in t["signature"]) == pawns][:6]:
        l = t["layout_positions_per_side"]
        peak = 9e6 + 3 * l + 4 * t["whole_subtable_entries"] + (64 << 20 if t["pages_subtables"] else 0)
        print(json.dumps({"signature": t["signature"], "pawns": pawns, "men": 5, "positions": 2 * l,
                          "cpu_seconds": 20e-9 * l, "peak_rss_bytes": peak, "slices": 1}))
PY
  python3 "$source/bench/scale_model.py" "$egtb" "$work/measure.jsonl" > "$work/out"
  grep -q "^| pawnless | 6 | 20.0 | 3.00 | held out | 0%, 0%, " "$work/out" || fail "the pawnless fit"
  grep -q "^| pawns | 6 | 20.0 | 3.00 | held out | 0%, 0%, " "$work/out" || fail "the pawn fit"
  grep -q "^Measured: 17 tables (12 of 5 men)" "$work/out" || fail "not 17 tables measured"
  ;;
bindings)
  [ -d "$build/python/egtb" ] || { echo "SKIPPED: the Python module is not built"; exit 0; }
  PYTHONPATH=$build/python python3 "$source/bench/bench_bindings.py" --dir "$tables" --count 2000 \
    --build "$build" --threads 2 > "$work/out"
  grep -q "^2,000 random positions of " "$work/out" || fail "not 2,000 positions"
  for row in "egtb bench probe (C++)" "Python probe_lasker, FEN str" "Python probe_lasker, fen() object" \
    "C egtb_probe, 1 thread" "C egtb_probe, 2 threads, total"; do
    grep -q "^  $row  *[0-9]" "$work/out" || fail "no row $row"
  done
  ;;
value_probes)
  [ -x "$build/tests/capi/capi_check" ] || { echo "SKIPPED: capi_check is not built"; exit 0; }
  mkdir "$work/tables"
  cp "$tables"/K?k.egtb "$work/tables"
  "$egtb" recompress --all 3 --value-files --dir "$work/tables" > /dev/null
  bash "$source/bench/bench_value_probes.sh" "$build/tests/capi/capi_check" "$work/tables" 500 1 KQk KRk KPk \
    > "$work/out"
  grep -q "^500 random placements of 3 signatures" "$work/out" || fail "not 500 placements"
  for row in "egtb_probe (value and depth)" "egtb_probe_value (value files)"; do
    grep -q "^| $row | [0-9]* | [0-9]* | [0-9]* of 500 |$" "$work/out" || fail "no row $row"
  done
  ;;
vs_fathom)
  script=$source/bench/bench_vs_fathom.sh
  bash "$script" --help > "$work/out"
  grep -q "^Usage: bench_vs_fathom.sh FATHOM_SRC SYZYGY_DIR EGTB_DIR CAPI_CHECK COUNT SEED SIG" "$work/out" ||
    fail "no usage"
  refused() { # refused MESSAGE ARG...: exits 1 with MESSAGE on its standard error
    local message=$1 status=0
    shift
    bash "$script" "$@" > "$work/out" 2>&1 || status=$?
    if [ "$status" != 1 ] || ! grep -qF -- "$message" "$work/out"; then fail "'$*' not refused with '$message'"; fi
  }
  refused "expected FATHOM_SRC SYZYGY_DIR EGTB_DIR CAPI_CHECK COUNT SEED SIG..., got 0 arguments"
  refused "got 6 arguments" "$work" "$work" "$work" "$work" 10 1
  refused "no tbprobe.c and tbprobe.h in FATHOM_SRC '$work'" "$work" "$work" "$work" "$work" 10 1 KQk
  touch "$work/tbprobe.c" "$work/tbprobe.h"
  refused "SYZYGY_DIR '$work/none' is not a directory" "$work" "$work/none" "$work" "$work" 10 1 KQk
  refused "CAPI_CHECK '$work/none' is not an executable" "$work" "$work" "$work" "$work/none" 10 1 KQk
  refused "COUNT is a positive whole number, not 'ten'" "$work" "$work" "$work" "$(type -P true)" ten 1 KQk
  refused "--runs takes a positive whole number, not '0'" --runs 0
  refused "unknown option '--fast'" --fast
  refused "no libegtb.so.0 in '$work'" --before-library "$work"
  refused "--before-library takes a directory" --before-library
  if command -v shellcheck > /dev/null; then
    shellcheck "$script" > "$work/out" 2>&1 || fail "shellcheck"
  fi
  ;;
rules_findings)
  (cd "$work" && sh "$source/tools/docs/rules_findings.sh" 3 tables "$build") > "$work/out"
  cp "$work/docs/rules-findings.md" "$work/out"
  grep -q "^Every table of 3 to 3 men, built under" "$work/out" || fail "no heading"
  for rules in stalemate-wins stalemate-passes; do
    grep -q "$rules" "$work/out" || fail "no $rules"
  done
  grep -q "KQk" "$work/out" || fail "no KQk"
  ;;
tables5)
  (cd "$work" && sh "$source/tools/docs/tables5_docs.sh" tables "$build" 3) > "$work/out"
  cp "$work/docs/tables-3.md" "$work/out"
  grep -q "^# Lasker values of every table of 3 to 3 men" "$work/out" || fail "no heading"
  grep -q "KQk" "$work/out" || fail "no KQk"
  ! grep -q "^### Lasker values, positions" "$work/out" || fail "the raw counts are in"
  ;;
set_stages)
  "$egtb" generate --all 3 --dir "$work/tables" --threads 1 --json > "$work/built.json"
  python3 "$source/bench/set_stages.py" "$work/built.json" > "$work/out"
  grep -q '^| 3-4 men | 5 | ' "$work/out" || fail "no row of the 5 tables built"
  [ "$(grep -c '^| K[BNPQR]k | ' "$work/out")" = 5 ] || fail "not 5 slowest tables"
  grep -q "^The process's peak: [1-9]" "$work/out" || fail "no peak"
  stages=$(python3 - "$work/built.json" << 'PY'
import json, sys
tables = json.load(open(sys.argv[1]))["tables"]
print(f"{sum(sum(t['stage_seconds'].values()) for t in tables):,.1f}")
PY
  )
  grep -q "^| all | 5 | .* | $stages |\$" "$work/out" || fail "the stages' sum is not $stages"
  "$egtb" generate --all 3 --dir "$work/tables" --threads 1 --json > "$work/kept.json"
  python3 "$source/bench/set_stages.py" "$work/kept.json" > "$work/out"
  grep -q '^| kept (checksums verified) | 5 | ' "$work/out" || fail "no row of the 5 tables kept"
  ! grep -q "slowest" "$work/out" || fail "slowest tables listed with none built"
  ;;
*)
  echo "scripts.sh: unknown case $case"
  exit 2
  ;;
esac
echo "$case: ok"
