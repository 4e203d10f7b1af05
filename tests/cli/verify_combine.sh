#!/usr/bin/env bash
# egtb verify --combine DIR: the reports of a table's parts (--part K/N --json) added up. Every
# part once passes, with the whole run's counts; a part missing, given twice or of another split, a
# report whose entries are not its part's, counts edited away from the table file's, a part that
# found errors, a file that is not a report (or too large to be one) and a directory without one
# are each refused (exit 1, or 2 for input that is no report at all), naming the file.
set -euo pipefail
egtb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$egtb" generate KRk KQk --dir "$dir/t" > /dev/null
mkdir "$dir/parts"
for k in 1 2 3; do "$egtb" verify KRk --dir "$dir/t" --json --part "$k/3" > "$dir/parts/KRk-$k.json"; done
# Another table's report in the same directory is passed over.
"$egtb" verify KQk --dir "$dir/t" --json > "$dir/parts/KQk.json"

"$egtb" verify KRk --dir "$dir/t" --combine "$dir/parts" > "$dir/out" || { echo "a complete set of parts was refused:"; cat "$dir/out"; exit 1; }
"$egtb" verify KRk --dir "$dir/t" > "$dir/whole"
# The sums are the whole run's counts, line for line.
diff <(head -3 "$dir/out") "$dir/whole" || { echo "the parts do not add up to the whole run"; exit 1; }
grep -q "added up from 3 reports, parts 1-3 of 3 once each" "$dir/out" || { echo "unexpected summary:"; cat "$dir/out"; exit 1; }
"$egtb" verify KRk --dir "$dir/t" --combine "$dir/parts" --json | grep -q '"ok": true' || { echo "--json: not ok"; exit 1; }

# refused PARTS_DIR PATTERN: --combine exits 1 and says PATTERN.
refused() {
  if "$egtb" verify KRk --dir "$dir/t" --combine "$1" > "$dir/out" 2>&1; then
    echo "accepted: $2"; cat "$dir/out"; exit 1
  fi
  grep -q -- "$2" "$dir/out" || { echo "expected '$2':"; cat "$dir/out"; exit 1; }
}
cp -r "$dir/parts" "$dir/missing" && rm "$dir/missing/KRk-2.json"
refused "$dir/missing" "part 2 of 3 is missing"
cp -r "$dir/parts" "$dir/twice" && cp "$dir/parts/KRk-2.json" "$dir/twice/again.json"
refused "$dir/twice" "part 2 of 3 (.*again.json) is given twice"
cp -r "$dir/parts" "$dir/split" && "$egtb" verify KRk --dir "$dir/t" --json --part 2/4 > "$dir/split/other.json"
refused "$dir/split" "part 2 of 4 (.*other.json) is of another split than part 1 of 3"
# A report whose entries are not where its part lies: another table file's, or edited.
cp -r "$dir/parts" "$dir/moved" && sed -i '0,/"first": 0/s//"first": 5/' "$dir/moved/KRk-1.json"
refused "$dir/moved" "part 1 of 3 (.*KRk-1.json) checked 19096 entries of White to move from 5"
# Counts edited: the sums are not the table file's.
cp -r "$dir/parts" "$dir/counts" && python3 - "$dir/counts/KRk-3.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["tables"][0]["sides"]["b"]["lasker"][4] += 1
json.dump(doc, open(sys.argv[1], "w"))
PY
refused "$dir/counts" "Black to move: the parts count positions of values 0-4 .* the table file"
# A part that found errors fails the whole.
cp -r "$dir/parts" "$dir/errors" && sed -i '0,/"errors": 0/s//"errors": 2/' "$dir/errors/KRk-1.json"
refused "$dir/errors" "KRk: 57288 entries checked, 2 errors"

# Not reports at all: exit 2, naming the file or directory.
mkdir "$dir/bad" && cp "$dir/parts/KRk-1.json" "$dir/bad/" && echo '{"tables": [{"signature": "KRk"}]}' > "$dir/bad/broken.json"
set +e
"$egtb" verify KRk --dir "$dir/t" --combine "$dir/bad" 2> "$dir/err"; status=$?
set -e
[ "$status" = 2 ] && grep -q 'broken.json: not a report of egtb verify --json: no field "part"' "$dir/err" ||
  { echo "a file without a report's fields: status $status"; cat "$dir/err"; exit 1; }
echo 'not json' > "$dir/bad/broken.json"
set +e
"$egtb" verify KRk --dir "$dir/t" --combine "$dir/bad" 2> "$dir/err"; status=$?
set -e
[ "$status" = 2 ] && grep -q 'broken.json: not JSON' "$dir/err" || { echo "not JSON: status $status"; cat "$dir/err"; exit 1; }
truncate -s 17M "$dir/bad/broken.json"
set +e
"$egtb" verify KRk --dir "$dir/t" --combine "$dir/bad" 2> "$dir/err"; status=$?
set -e
[ "$status" = 2 ] && grep -q 'broken.json: 17825792 bytes, too large for a report' "$dir/err" || { echo "17 MB: status $status"; cat "$dir/err"; exit 1; }
mkdir "$dir/none"
set +e
"$egtb" verify KRk --dir "$dir/t" --combine "$dir/none" 2> "$dir/err"; status=$?
set -e
[ "$status" = 2 ] && grep -q 'no report of KRk among its 0 JSON files' "$dir/err" || { echo "empty: status $status"; cat "$dir/err"; exit 1; }
set +e
"$egtb" verify KRk KQk --dir "$dir/t" --combine "$dir/parts" 2> "$dir/err"; status=$?
set -e
[ "$status" = 2 ] && grep -q 'one signature' "$dir/err" || { echo "two tables: status $status"; cat "$dir/err"; exit 1; }
echo "verify --combine: sums, coverage and refusals as expected"
