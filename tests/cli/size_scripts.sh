#!/usr/bin/env bash
# size_scripts.sh EGTB SOURCE_DIR SIZE_LAB: scripts/size_report.sh, scripts/compare_sets.sh,
# bench/table_sizes.sh and bench/random_placements.py, the scripts behind docs/table-sizes.md: the
# report's rows and total agree with the files (stat) and with egtb info, its columns take their
# labels; a set and its recompressed copy compare equal, a table of other scores, a damaged one and
# a missing one do not; the DTS share of table_sizes.sh is that of the files; the placements are
# the same for the same seed, other for another, and every line is a FEN egtb probe --epd reads.
set -euo pipefail
egtb=$1
scripts=$2/scripts
bench=$2/bench
size_lab=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$egtb" generate --all 3 --dir "$dir/a" > /dev/null
cp -r "$dir/a" "$dir/b"
"$egtb" recompress --all 3 --dir "$dir/b" > /dev/null
sh "$scripts/size_report.sh" first="$dir/a" "$dir/b" --egtb "$egtb" > "$dir/report"
head -1 "$dir/report" | grep -q "| table | positions | first bytes | per position | b bytes | per position | order | last/first |" ||
  { echo "header:"; head -1 "$dir/report"; exit 1; }
[ "$(grep -c '^| K' "$dir/report")" = 5 ] || { echo "not 5 table rows:"; cat "$dir/report"; exit 1; }
for d in a b; do
  want=$(cat "$dir/$d"/*.egtb | wc -c | sed ':x; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; tx')
  column=$([ $d = a ] && echo 4 || echo 6)
  got=$(grep '^| \*\*total' "$dir/report" | cut -d'|' -f$column | tr -d ' ')
  [ "$got" = "$want" ] || { echo "total of $d: $got, files hold $want"; cat "$dir/report"; exit 1; }
done
positions=$("$egtb" info "$dir/b/KRk.egtb" --json | awk '/^  "positions":/ { gsub(/,/, "", $2); print $2 }')
grep -q "^| KRk | $(echo "$positions" | sed 's/\(.*\)\([0-9]\{3\}\)$/\1,\2/') |" "$dir/report" ||
  { echo "KRk's positions ($positions) not in its row:"; grep KRk "$dir/report"; exit 1; }
grep -q "^| KRk .*| Kk R | [0-9.]*% |$" "$dir/report" || { echo "KRk's order:"; grep KRk "$dir/report"; exit 1; }
status=0
sh "$scripts/size_report.sh" "$dir/a" "$dir/missing" --egtb "$egtb" > /dev/null 2> "$dir/err" || status=$?
[ "$status" != 0 ] && grep -q "missing/KBk.egtb" "$dir/err" || { echo "a missing directory ($status):"; cat "$dir/err"; exit 1; }

sh "$scripts/compare_sets.sh" "$dir/a" "$dir/b" 2 "$size_lab" > "$dir/compared"
[ "$(grep -c 'entries equal$' "$dir/compared")" = 5 ] && grep -q "the 5 tables of .* hold the same scores" "$dir/compared" ||
  { echo "compare_sets.sh of a set and its recompressed copy:"; cat "$dir/compared"; exit 1; }
compare_fails() {  # what, expected text in the output
  status=0
  sh "$scripts/compare_sets.sh" "$dir/a" "$dir/c" 2 "$size_lab" > "$dir/compared" 2>&1 || status=$?
  [ "$status" != 0 ] && grep -q "$2" "$dir/compared" || { echo "compare_sets.sh, $1 ($status):"; cat "$dir/compared"; exit 1; }
}
cp -r "$dir/b" "$dir/c"
"$egtb" generate KRk --rules stalemate-wins --dir "$dir/s" > /dev/null
cp "$dir/s"/KRk*.egtb "$dir/c/KRk.egtb"
compare_fails "a table of other scores" "KRk.egtb: entry [0-9]* of .* differs"
cp "$dir/b/KRk.egtb" "$dir/c/KRk.egtb"
printf 'xx' | dd of="$dir/c/KQk.egtb" bs=1 seek=400 conv=notrunc 2> /dev/null
compare_fails "a damaged table" "KQk.egtb: block 0 .*checksum mismatch"
rm "$dir/c/KQk.egtb"
compare_fails "a missing table" "KQk.egtb is in .*, not in"

"$egtb" generate --all 3 --metrics dtm --dir "$dir/dtm" > /dev/null 2>&1
sh "$bench/table_sizes.sh" "$dir/a" "$dir/dtm" "$egtb" > "$dir/sizes"
[ "$(grep -c '^| K' "$dir/sizes")" = 5 ] || { echo "table_sizes.sh, not 5 table rows:"; cat "$dir/sizes"; exit 1; }
full=$(cat "$dir/a"/*.egtb | wc -c)
dtm=$(cat "$dir/dtm"/*.egtb | wc -c)
grep -q "^| \*\*total\*\* (5 tables) | [0-9]* | $full | [0-9.]* | $dtm | [0-9.]* | +[0-9.]*% |$" "$dir/sizes" ||
  { echo "table_sizes.sh's total is not $full bytes against $dtm:"; cat "$dir/sizes"; exit 1; }

python3 "$bench/random_placements.py" 200 KQk KPk KRkp > "$dir/p1"
python3 "$bench/random_placements.py" 200 KQk KPk KRkp > "$dir/p2"
python3 "$bench/random_placements.py" 200 KQk KPk KRkp --seed 2 > "$dir/p3"
cmp -s "$dir/p1" "$dir/p2" || { echo "the same seed gave other placements"; exit 1; }
! cmp -s "$dir/p1" "$dir/p3" || { echo "seeds 1 and 2 gave the same placements"; exit 1; }
[ "$(wc -l < "$dir/p1")" = 200 ] || { echo "not 200 lines"; exit 1; }
"$egtb" generate KRkp KQk --dir "$dir/a" > /dev/null
"$egtb" probe --epd "$dir/p1" --value-only --dir "$dir/a" > "$dir/probed" 2> "$dir/err" || true
[ "$(wc -l < "$dir/probed")" -ge 200 ] || { echo "probe --epd answered $(wc -l < "$dir/probed") of 200 lines:"; head "$dir/err"; exit 1; }
! grep -qi "cannot parse\|malformed\|bad fen" "$dir/probed" "$dir/err" || { echo "a placement did not parse:"; grep -i "parse\|malformed" "$dir/probed" "$dir/err" | head; exit 1; }
