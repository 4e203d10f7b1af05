#!/bin/sh
# Compares the disk size of tables with DTM and DTS against tables with DTM only, as a Markdown
# table: per table and in total, the file bytes, the bytes per position (both sides to move, the
# index462 count) and the extra share DTS costs.
#   bench/table_sizes.sh FULL_DIR DTM_DIR [EGTB]
# FULL_DIR from `egtb generate --all 4 --dir FULL_DIR`, DTM_DIR from `egtb generate --all 4
# --metrics dtm --dir DTM_DIR`; EGTB defaults to ./build/tools/egtb/egtb. Every table of FULL_DIR
# is listed; its DTM-only twin must be in DTM_DIR.
set -eu
full=$1
dtm=$2
egtb=${3:-./build/tools/egtb/egtb}

# "FILE_SIZE POSITIONS" of a table file, from the top level of `egtb info FILE --json`.
size_and_positions() {
  "$egtb" info "$1" --json |
    awk '/^  "file_size":/ { gsub(/,/, "", $2); size = $2 }
         /^  "positions":/ { gsub(/,/, "", $2); positions = $2 }
         END { print size, positions }'
}

echo "| table | positions | DTM+DTS bytes | bytes/position | DTM-only bytes | bytes/position | DTS extra |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for file in "$full"/*.egtb; do
  name=$(basename "$file" .egtb)
  [ -f "$dtm/$name.egtb" ] || { echo "no $dtm/$name.egtb" >&2; exit 1; }
  echo "$name $(size_and_positions "$file") $(size_and_positions "$dtm/$name.egtb")"
done | awk '
  function row(name, n, a, b) {
    printf "| %s | %d | %d | %.4f | %d | %.4f | %+.1f%% |\n", name, n, a, a / n, b, b / n, 100 * (a - b) / b
  }
  { row($1, $3, $2, $4); positions += $3; full += $2; dtm += $4 }
  END { row("**total** (" NR " tables)", positions, full, dtm) }'
