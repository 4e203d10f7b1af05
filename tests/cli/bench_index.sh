#!/usr/bin/env bash
# `egtb bench index` times a scheme over real entries: its counts of valid entries agree with the
# table's own statistics (KQk's whole normal section with White to move: every entry places its men,
# 18,492 hold a position, as `egtb stats` counts), a 6-man scheme runs without its table, and bad
# input is refused.
set -uo pipefail
egtb=$1
# shellcheck source=tests/cli/script_support.sh
. "$(dirname "$0")/script_support.sh"

"$egtb" generate KQk --dir "$work/tables" > /dev/null 2>&1 || fail "generate failed"
"$egtb" stats KQk --dir "$work/tables" --json > "$work/stats" || fail "stats failed"
"$egtb" bench index KQk --entries 28644 --json > "$work/bench" || fail "bench index KQk failed"
python3 - "$work/stats" "$work/bench" <<'PY' || fail "bench index counts differ from the statistics"
import json, sys
stats = json.load(open(sys.argv[1]))["tables"][0]["sides"]["w"]["positions"]
passes = {p["pass"]: p for p in json.load(open(sys.argv[2]))["passes"]}
assert passes["men"]["entries"] == 28644 and passes["men"]["valid"] == 28644, passes["men"]
assert passes["round trip"]["valid"] == stats == 18492, (passes["round trip"], stats)
PY

"$egtb" bench index KQRBkr --entries 100000 > "$work/out" 2> "$work/err" || fail "bench index KQRBkr: $(cat "$work/err")"
grep -q "KQRBkr  round trip  100000 entries" "$work/out" || fail "no 6-man round trip line: $(cat "$work/out")"

expect 2 "has 7 men; this build supports at most 6" bench index KQRBNkr
expect 2 "\-\-entries must be a whole number from 1" bench index KQk --entries 0
expect 2 "name at least one signature" bench index

finish "bench index: counts agree with the statistics; 6 men without tables; bad input refused"
