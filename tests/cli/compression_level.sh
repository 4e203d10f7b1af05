#!/usr/bin/env bash
# `egtb generate --compression-level N` changes only how hard zstd works: tables written at level
# 19 hold the same entries as at the default level 3 (the same statistics, depth histograms
# included, which read every entry; every position verified one ply forward) in fewer bytes.
set -euo pipefail
egtb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
tables=(KQk KRk KPk)

"$egtb" generate "${tables[@]}" --dir "$dir/3" > /dev/null
"$egtb" generate "${tables[@]}" --compression-level 19 --dir "$dir/19" > /dev/null
"$egtb" stats "${tables[@]}" --dir "$dir/3" --format csv > "$dir/3.csv"
"$egtb" stats "${tables[@]}" --dir "$dir/19" --format csv > "$dir/19.csv"
cmp "$dir/3.csv" "$dir/19.csv" || { echo "the statistics differ between levels 3 and 19"; exit 1; }
"$egtb" verify "${tables[@]}" --dir "$dir/19" > /dev/null || { echo "the level-19 tables do not verify"; exit 1; }

total() { cat "$1"/*.egtb | wc -c; }
small=$(total "$dir/19")
large=$(total "$dir/3")
[ "$small" -lt "$large" ] || { echo "level 19: $small bytes, not fewer than level 3: $large"; exit 1; }
echo "level 19: $small bytes, level 3: $large bytes"
