#!/bin/sh
# The disk size of the same tables in several directories, as a Markdown table: per table and in
# total, the file bytes and bytes per position (both sides to move, the index462 count) in each
# directory, the index order of the last directory's file and the last directory's size as a share
# of the first's. Used for docs/table-sizes.md:
#   scripts/size_report.sh [LABEL=]DIR... [--egtb EGTB]
# for example, a set as generated and the same set after `egtb recompress --all 5`, the columns
# headed "generate" and "recompress" (the directory's name without a label):
#   scripts/size_report.sh generate=tables archival=archive
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
[ -n "$dirs" ] || { echo "usage: scripts/size_report.sh [LABEL=]DIR... [--egtb EGTB]" >&2; exit 2; }
set -- $dirs
first=${1#*=}

# "FILE_SIZE POSITIONS ORDER" of a table file, from the top level of `egtb info FILE --json`
# (ORDER with its spaces turned into underscores, "Kk_R_r").
size_positions_order() {
  "$egtb" info "$1" --json |
    awk '/^  "file_size":/ { gsub(/,/, "", $2); size = $2 }
         /^  "positions":/ { gsub(/,/, "", $2); positions = $2 }
         /^  "index_order":/ { sub(/^  "index_order": "/, ""); sub(/",?$/, ""); gsub(/ /, "_"); order = $0 }
         END { print size, positions, (order == "" ? "-" : order) }'
}

for file in "$first"/*.egtb; do
  for arg in "$@"; do
    [ -f "${arg#*=}/$(basename "$file")" ] || { echo "no ${arg#*=}/$(basename "$file")" >&2; exit 1; }
  done
done

header="| table | positions |"
rule="|---|---:|"
for arg in "$@"; do
  case $arg in
    *=*) label=${arg%%=*} ;;
    *) label=$(basename "$arg") ;;
  esac
  header="$header $label bytes | per position |"
  rule="$rule---:|---:|"
done
echo "$header order | last/first |"
echo "$rule---|---:|"
for file in "$first"/*.egtb; do
  name=$(basename "$file" .egtb)
  line=$name
  for arg in "$@"; do
    line="$line $(size_positions_order "${arg#*=}/$name.egtb")"
  done
  echo "$line"
done | awk -v dirs=$# '
  # 1234567 as "1,234,567".
  function grouped(x,    s) {
    s = sprintf("%.0f", x)
    while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
    return s
  }
  function row(name, n, order,    i, out) {
    out = sprintf("| %s | %s |", name, grouped(n))
    for (i = 1; i <= dirs; ++i) out = out sprintf(" %s | %.4f |", grouped(b[i]), b[i] / n)
    printf "%s %s | %.1f%% |\n", out, order, 100 * b[dirs] / b[1]
  }
  {
    for (i = 1; i <= dirs; ++i) { b[i] = $(3 * i - 1); total[i] += b[i] }
    order = $(3 * dirs + 1); gsub(/_/, " ", order)
    positions += $3
    row($1, $3, order)
  }
  END { for (i = 1; i <= dirs; ++i) b[i] = total[i]; row("**total** (" NR " tables)", positions, "") }'
