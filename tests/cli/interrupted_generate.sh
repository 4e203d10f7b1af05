#!/usr/bin/env bash
# An interrupted `egtb generate` leaves no table that looks valid, and the next run resumes: the
# finished tables are kept, the interrupted one is built, stale temporary files are removed.
set -euo pipefail
set -m  # job control: a background job then receives SIGINT like a foreground one (Ctrl-C)
egtb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$egtb" generate KQk --dir "$dir" > /dev/null
"$egtb" generate KQRk --dir "$dir" > /dev/null &
pid=$!
for _ in $(seq 1 400); do
  [ -f "$dir/KRk.egtb" ] && break
  sleep 0.05
done
kill -INT "$pid"
wait "$pid" && { echo "generate was not interrupted"; exit 1; }

for table in "$dir"/*.egtb; do
  "$egtb" info "$table" > /dev/null || { echo "$table looks like a table but does not verify"; exit 1; }
done
[ ! -f "$dir/KQRk.egtb" ] || { echo "the interrupted table was left behind"; exit 1; }

echo "half-written" > "$dir/KQRk.egtb.tmp.999999999"
"$egtb" generate KQRk --dir "$dir" > "$dir/log"
grep -q "^KQk *kept" "$dir/log" || { echo "the finished KQk was rebuilt"; cat "$dir/log"; exit 1; }
grep -q "^KQRk *built" "$dir/log" || { echo "KQRk was not built"; cat "$dir/log"; exit 1; }
"$egtb" info "$dir/KQRk.egtb" > /dev/null
if ls "$dir" | grep -q '\.tmp\.'; then
  echo "a stale temporary file was not removed"
  exit 1
fi
echo "interrupted run resumed"
