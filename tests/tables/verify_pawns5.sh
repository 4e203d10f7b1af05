#!/usr/bin/env bash
# Builds the whole 3-5-man set as a user with little memory would, in one process (`egtb generate
# --all 5 --max-memory 1G`: the pawn tables estimated above 1 GB are solved one slice at a time),
# then checks every 5-man table with pawns one ply forward (`egtb verify`, retro/verify.hpp,
# independent of the solver), each against the subtables the same run built. Prints the peak
# memory of the largest table (each table's own is reported, so the largest is the run's) and
# fails above 1 GB; prints the tables solved in slices and the wall time of each step. The
# directory is removed at the end unless given as the third argument (kept, to compare the tables
# with another set's). Run alone: both cores for hours (docs/scale.md, "One process").
set -euo pipefail
egtb=$1
men=${2:-5}  # 4: the same over the 3-4-man set, in a minute (a check of this script)
if [ $# -ge 3 ]; then
  dir=$3
  mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/egtb-verify-pawns5.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi

start=$SECONDS
"$egtb" generate --all "$men" --max-memory 1G --dir "$dir/tables" >"$dir/generate.log"
peak=$(grep -o 'peak [0-9]* MB' "$dir/generate.log" | awk '$2 > max { max = $2 } END { print max }')
echo "generate --all $men --max-memory 1G: $((SECONDS - start)) s wall, peak $peak MB (the largest" \
  "table's), $(grep -c ' in [0-9]* slices' "$dir/generate.log") tables in slices"
[ "$peak" -lt 1024 ] || { echo "the run peaked at $peak MB, above 1 GB"; exit 1; }

signatures=()
for file in "$dir"/tables/*.egtb; do
  signature=$(basename "$file" .egtb)
  if [ ${#signature} -eq "$men" ] && [[ $signature == *[Pp]* ]]; then signatures+=("$signature"); fi
done
[ ${#signatures[@]} -gt 0 ] || { echo "no $men-man pawn table was built"; exit 1; }
echo "${#signatures[@]} $men-man pawn tables to verify"

start=$SECONDS
"$egtb" verify "${signatures[@]}" --dir "$dir/tables"
echo "verify ${#signatures[@]} tables: $((SECONDS - start)) s wall"
