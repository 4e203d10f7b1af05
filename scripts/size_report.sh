#!/bin/sh
# The disk size of the same tables in several directories, as a Markdown table: per table and in
# total, the file bytes and bytes per position (both sides to move, the index462 count) in each
# directory, the index order of the last directory's file and the last directory's size as a share
# of the first's. Used for docs/table-sizes.md:
#   scripts/size_report.sh DIR... [--egtb EGTB]
# for example, a set as generated and the same set after `egtb recompress --all 5`:
#   scripts/size_report.sh generated archival
# EGTB defaults to ./build/tools/egtb/egtb. Every table of the first directory is listed; it must
# be in each other directory too.
set -eu
egtb=./build/tools/egtb/egtb
dirs=
while [ $# -gt 0 ]; do
  case $1 in
    --egtb) egtb=$2; shift 2 ;;
    *) dirs="$dirs $1"; shift ;;
  esac
done
[ -n "$dirs" ] || { echo "usage: scripts/size_report.sh DIR... [--egtb EGTB]" >&2; exit 2; }
set -- $dirs
first=$1

# "FILE_SIZE POSITIONS ORDER" of a table file, from the top level of `egtb info FILE --json`
# (ORDER with its spaces turned into underscores, "Kk_R_r").
size_positions_order() {
  "$egtb" info "$1" --json |
    awk '/^  "file_size":/ { gsub(/,/, "", $2); size = $2 }
         /^  "positions":/ { gsub(/,/, "", $2); positions = $2 }
         /^  "index_order":/ { sub(/^  "index_order": "/, ""); sub(/",?$/, ""); gsub(/ /, "_"); order = $0 }
         END { print size, positions, (order == "" ? "-" : order) }'
}

header="| table | positions |"
rule="|---|---:|"
for dir in "$@"; do
  header="$header $(basename "$dir") bytes | per position |"
  rule="$rule---:|---:|"
done
echo "$header order | last/first |"
echo "$rule---|---:|"
for file in "$first"/*.egtb; do
  name=$(basename "$file" .egtb)
  line=$name
  for dir in "$@"; do
    [ -f "$dir/$name.egtb" ] || { echo "no $dir/$name.egtb" >&2; exit 1; }
    line="$line $(size_positions_order "$dir/$name.egtb")"
  done
  echo "$line"
done | awk -v dirs=$# '
  function row(name, n, order,    i, out) {
    out = sprintf("| %s | %d |", name, n)
    for (i = 1; i <= dirs; ++i) out = out sprintf(" %d | %.4f |", b[i], b[i] / n)
    printf "%s %s | %.1f%% |\n", out, order, 100 * b[dirs] / b[1]
  }
  {
    for (i = 1; i <= dirs; ++i) { b[i] = $(3 * i - 1); total[i] += b[i] }
    order = $(3 * dirs + 1); gsub(/_/, " ", order)
    positions += $3
    row($1, $3, order)
  }
  END { for (i = 1; i <= dirs; ++i) b[i] = total[i]; row("**total** (" NR " tables)", positions, "") }'
