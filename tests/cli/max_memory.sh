#!/usr/bin/env bash
# egtb generate --max-memory: a pawn table estimated above the limit is solved one slice at a
# time ("in 24 slices" on its summary line, "slices": 24 in JSON: a slice per square of its pawn
# and the mirror image), one below it whole ("slices": 1), and both give the same bytes; sizes take
# K, M, G or T; a malformed size is refused (exit 2). The JSON record's stage_seconds (load,
# solve, order, write) are each non-negative and add up to its seconds within 50 ms.
set -euo pipefail
egtb=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/egtb-max-memory.XXXXXX")
trap 'rm -rf "$dir"' EXIT

slices() { python3 -c 'import json,sys; print(json.load(sys.stdin)["tables"][-1]["slices"])'; }

whole=$("$egtb" generate KRkp --dir "$dir" --max-memory 1T --json | slices)
[ "$whole" = 1 ] || { echo "KRkp under --max-memory 1T: $whole slices, expected 1 (whole)"; exit 1; }
cp "$dir/KRkp.egtb" "$dir/whole.egtb"

line=$("$egtb" generate KRkp --dir "$dir" --force --max-memory 1M | tail -n 1)
case $line in
  *" in 24 slices") ;;
  *) echo "KRkp under --max-memory 1M: '$line' does not end in 'in 24 slices'"; exit 1 ;;
esac
cmp "$dir/KRkp.egtb" "$dir/whole.egtb"
json=$("$egtb" generate KRkp --dir "$dir" --force --max-memory 2048K --json)
sliced=$(echo "$json" | slices)
echo "$json" | python3 -c '
import json, sys
t = json.load(sys.stdin)["tables"][-1]
stages = t["stage_seconds"]
assert sorted(stages) == ["load", "order", "solve", "write"], stages
assert all(v >= 0 for v in stages.values()), stages
assert abs(sum(stages.values()) - t["seconds"]) < 0.05, (stages, t["seconds"])
' || { echo "KRkp's stage_seconds do not add up to its seconds: $json"; exit 1; }
[ "$sliced" = 24 ] || { echo "KRkp under --max-memory 2048K: $sliced slices, expected 24"; exit 1; }
cmp "$dir/KRkp.egtb" "$dir/whole.egtb"

for bad in 0 800MB 1.5G -1 G 99999999T; do
  if "$egtb" generate KRkp --dir "$dir" --max-memory "$bad" 2> "$dir/err"; then
    echo "--max-memory $bad was accepted"; exit 1
  fi
  grep -q "^egtb: --max-memory must be a size such as 800M or 2G .*, not '$bad'\$" "$dir/err" ||
    { echo "--max-memory $bad: unexpected message: $(cat "$dir/err")"; exit 1; }
done
echo "KRkp whole under 1T, in 24 slices under 1M, byte-identical, its stage times adding up; 6 malformed sizes refused"
