#!/usr/bin/env bash
# Several `egtb generate` processes on one directory build each table exactly once (each table is
# built under its lock, egtb/store/table_lock.hpp), and their files are byte-identical to those of
# a single process. A holder killed with SIGKILL in the middle of a table blocks nobody (its lock
# goes with it) and leaves no damaged table; its temporary file is removed by the next holder.
#   cooperating_generate.sh EGTB TABLES
# TABLES holds the 3-4-man tables of one `egtb generate --all 4` (the fixture tables_34, whose
# bytes tables:checksums-34 checks against the recorded sums).
set -euo pipefail
egtb=$1
single=$2
dir=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2> /dev/null || true; rm -rf "$dir"' EXIT

for i in 1 2 3; do
  "$egtb" generate --all 4 --dir "$dir/shared" --threads 1 --json > "$dir/run$i.json" &
done
wait
# Every table built by exactly one of the three and listed by each. A process that starts late may
# find a table finished before it looked (kept, not "by another process"), so only the count of
# builds tells.
python3 - "$dir" << 'PY'
import collections, json, sys
built = collections.Counter()
for i in (1, 2, 3):
    tables = json.load(open(f"{sys.argv[1]}/run{i}.json"))["tables"]
    assert len(tables) == 35, f"run {i} lists {len(tables)} tables, not 35"
    for t in tables:
        built[t["signature"]] += t["built"]
wrong = {sig: n for sig, n in built.items() if n != 1}
assert len(built) == 35 and not wrong, f"tables not built exactly once: {wrong}"
PY
for table in "$dir"/shared/*.egtb; do
  cmp "$table" "$single/$(basename "$table")" || { echo "cooperating runs differ from one run"; exit 1; }
done

# SIGKILL the holder of KQRk in the middle of its build (while it holds KQRk's lock), with a
# temporary file of a dead process of another host beside it, then let two processes finish.
"$egtb" generate KQk KRk --dir "$dir/killed" --threads 1 > /dev/null
echo "half-written" > "$dir/killed/KQRk.egtb.tmp.otherhost.4711"
"$egtb" generate KQRk --dir "$dir/killed" --threads 1 > /dev/null &
holder=$!
for _ in $(seq 1 2000); do
  [ -f "$dir/killed/KQRk.egtb.lock" ] && ! flock -n "$dir/killed/KQRk.egtb.lock" true && break
  sleep 0.005
done
kill -9 "$holder"
status=0
wait "$holder" || status=$?
[ "$status" = 137 ] || { echo "the holder ended ($status) before it was killed"; exit 1; }
[ ! -f "$dir/killed/KQRk.egtb" ] || { echo "a killed holder left a table"; exit 1; }
"$egtb" generate KQRk --dir "$dir/killed" --threads 1 > "$dir/after1" &
"$egtb" generate KQRk --dir "$dir/killed" --threads 1 > "$dir/after2" &
wait
[ "$(cat "$dir/after1" "$dir/after2" | grep -c '^KQRk *built')" = 1 ] || {
  echo "KQRk not built exactly once after its holder died"
  cat "$dir/after1" "$dir/after2"
  exit 1
}
cmp "$dir/killed/KQRk.egtb" "$single/KQRk.egtb" || { echo "KQRk differs from one run"; exit 1; }
if ls "$dir/killed" | grep -q '\.tmp\.'; then
  echo "a dead process's temporary file was not removed"
  exit 1
fi
echo "cooperating processes built each table once"
