#!/usr/bin/env bash
# scripts/size_report.sh and scripts/random_placements.py, the two scripts behind
# docs/table-sizes.md: the report's rows and total agree with the files (stat) and with egtb info,
# its columns take their labels; the placements are the same for the same seed, other for another,
# and every line is a FEN egtb probe --epd reads.
set -euo pipefail
egtb=$1
scripts=$2
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

python3 "$scripts/random_placements.py" 200 KQk KPk KRkp > "$dir/p1"
python3 "$scripts/random_placements.py" 200 KQk KPk KRkp > "$dir/p2"
python3 "$scripts/random_placements.py" 200 KQk KPk KRkp --seed 2 > "$dir/p3"
cmp -s "$dir/p1" "$dir/p2" || { echo "the same seed gave other placements"; exit 1; }
! cmp -s "$dir/p1" "$dir/p3" || { echo "seeds 1 and 2 gave the same placements"; exit 1; }
[ "$(wc -l < "$dir/p1")" = 200 ] || { echo "not 200 lines"; exit 1; }
"$egtb" generate KRkp KQk --dir "$dir/a" > /dev/null
"$egtb" probe --epd "$dir/p1" --value-only --dir "$dir/a" > "$dir/probed" 2> "$dir/err" || true
[ "$(wc -l < "$dir/probed")" -ge 200 ] || { echo "probe --epd answered $(wc -l < "$dir/probed") of 200 lines:"; head "$dir/err"; exit 1; }
! grep -qi "cannot parse\|malformed\|bad fen" "$dir/probed" "$dir/err" || { echo "a placement did not parse:"; grep -i "parse\|malformed" "$dir/probed" "$dir/err" | head; exit 1; }
