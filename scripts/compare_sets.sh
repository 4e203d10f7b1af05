#!/bin/sh
# Checks that two directories hold the same scores for every position of every table, whatever
# their block sizes, zstd levels and index orders: for example a set as `egtb generate` wrote it
# and the same set after `egtb recompress` (docs/table-sizes.md):
#   scripts/compare_sets.sh DIR_A DIR_B [JOBS] [SIZE_LAB]
# Every table of DIR_A must be in DIR_B. Each pair of files is compared entry by entry by
# `size_lab --compare` (tools/size_lab, built by `cmake --build build --target size_lab`), JOBS
# at a time (default 2). Prints one line per table, then a summary when all are equal; exits non-zero
# when a table differs, is missing from DIR_B or cannot be read (damaged: the reason is printed).
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/compare_sets.sh DIR_A DIR_B [JOBS] [SIZE_LAB]" >&2; exit 2; }
a=$1
b=$2
jobs=${3:-2}
lab=${4:-./build/tools/size_lab/size_lab}
[ -x "$lab" ] || { echo "compare_sets.sh: $lab not built (cmake --build build --target size_lab)" >&2; exit 2; }
count=$(find "$a" -maxdepth 1 -name '*.egtb' | wc -l)
[ "$count" -gt 0 ] || { echo "compare_sets.sh: no table in $a" >&2; exit 2; }
for file in "$a"/*.egtb; do
  name=$(basename "$file")
  [ -f "$b/$name" ] || { echo "compare_sets.sh: $name is in $a, not in $b" >&2; exit 1; }
done
# Largest first, so that the long comparisons start early.
ls -S "$a"/*.egtb | while read -r file; do
  printf '%s\0%s\0' "$file" "$b/$(basename "$file")"
done | xargs -0 -n 2 -P "$jobs" "$lab" --compare
echo "compare_sets.sh: the $count tables of $a hold the same scores in $b"
