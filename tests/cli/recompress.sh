#!/usr/bin/env bash
# egtb recompress: the tables of a directory rewritten at the archival zstd level and block size
# are no larger, hold the same entries (verify passes, the same probes and statistics), --all
# takes the tables present, a named table that is missing is refused, naming it and the command
# that builds it, and so are a block size out of range and an unknown --orders; `--orders solvable`
# at level 3 on 32,768-entry blocks writes generate's very file; --fill writes smaller files that
# read the same, and back without it, and so does --packed; an interrupted run's temporary file is
# removed.
set -euo pipefail
egtb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$egtb" generate --all 3 --dir "$dir/t" > /dev/null
"$egtb" generate KQk KRk --dir "$dir/level3" > /dev/null
"$egtb" stats --all 3 --dir "$dir/t" > "$dir/stats.before"
fen='8/8/8/8/8/8/1Q6/k1K5 b - - 0 1'
"$egtb" probe "$fen" --dir "$dir/t" > "$dir/probe.before"

"$egtb" recompress --all 3 --dir "$dir/t" > "$dir/out"
[ "$(wc -l < "$dir/out")" = 5 ] || { echo "recompress --all 3 did not report the 5 tables:"; cat "$dir/out"; exit 1; }
while read -r sig before arrow after rest; do
  [ "$after" -le "$before" ] || { echo "$sig grew: $before -> $after"; exit 1; }
  [ "$(stat -c %s "$dir/t/$sig.egtb")" = "$after" ] || { echo "$sig: reported $after bytes, file differs"; exit 1; }
done < "$dir/out"
"$egtb" verify --all 3 --dir "$dir/t" > /dev/null || { echo "verify failed after recompress"; exit 1; }
"$egtb" stats --all 3 --dir "$dir/t" > "$dir/stats.after"
cmp "$dir/stats.before" "$dir/stats.after" || { echo "statistics changed"; exit 1; }
"$egtb" probe "$fen" --dir "$dir/t" > "$dir/probe.after"
cmp "$dir/probe.before" "$dir/probe.after" || { echo "probe changed"; exit 1; }

# --all takes what is there (KQk and KRk only); a named table that is not there is refused.
"$egtb" recompress --all 3 --dir "$dir/level3" > "$dir/out"
[ "$(cut -d' ' -f1 "$dir/out" | tr '\n' ' ')" = "KQk KRk " ] || { echo "--all on two tables:"; cat "$dir/out"; exit 1; }
status=0
"$egtb" recompress KBk --dir "$dir/level3" > /dev/null 2> "$dir/err" || status=$?
[ "$status" != 0 ] && grep -q "KBk" "$dir/err" && grep -q "egtb generate" "$dir/err" ||
  { echo "a missing table was not refused by name ($status):"; cat "$dir/err"; exit 1; }

# A block size out of range is refused, naming the option; the table is left as it was.
before=$(sha256sum < "$dir/level3/KQk.egtb")
status=0
"$egtb" recompress KQk --dir "$dir/level3" --block-entries 10 > /dev/null 2> "$dir/err" || status=$?
[ "$status" != 0 ] && grep -q -- "--block-entries" "$dir/err" && [ "$(sha256sum < "$dir/level3/KQk.egtb")" = "$before" ] ||
  { echo "--block-entries 10 was not refused ($status):"; cat "$dir/err"; exit 1; }

# --orders: an unknown set is refused by name, the table left as it was; `--orders solvable` at
# generate's level and block size gives back generate's very file.
status=0
"$egtb" recompress KQk --dir "$dir/level3" --orders some > /dev/null 2> "$dir/err" || status=$?
[ "$status" != 0 ] && grep -q -- "--orders takes any or solvable" "$dir/err" &&
  [ "$(sha256sum < "$dir/level3/KQk.egtb")" = "$before" ] ||
  { echo "--orders some was not refused ($status):"; cat "$dir/err"; exit 1; }
"$egtb" generate KQk --dir "$dir/fresh" > /dev/null
"$egtb" recompress KQk --dir "$dir/level3" --orders solvable --compression-level 3 --block-entries 32768 > /dev/null
cmp -s "$dir/level3/KQk.egtb" "$dir/fresh/KQk.egtb" ||
  { echo "recompress --orders solvable at level 3 did not give back generate's file"; exit 1; }

# --fill: a file of version 3 that `info` calls filled, smaller than the same level without it;
# verify, stats, query and probe give what they gave; recompressed without --fill it is generate's
# file.
cp "$dir/fresh/KQk.egtb" "$dir/plain.egtb"
mkdir "$dir/filled"
"$egtb" generate --all 3 --dir "$dir/filled" > /dev/null
"$egtb" recompress --all 3 --dir "$dir/filled" --fill --compression-level 9 --block-entries 32768 > /dev/null
"$egtb" recompress KQk --dir "$dir/fresh" --compression-level 9 --block-entries 32768 > /dev/null
[ "$(stat -c %s "$dir/filled/KQk.egtb")" -lt "$(stat -c %s "$dir/fresh/KQk.egtb")" ] ||
  { echo "--fill did not make KQk smaller"; exit 1; }
"$egtb" info "$dir/filled/KQk.egtb" | grep -q "^format version   3 (filled" ||
  { echo "info does not say the file is filled:"; "$egtb" info "$dir/filled/KQk.egtb"; exit 1; }
"$egtb" verify --all 3 --dir "$dir/filled" > /dev/null || { echo "verify failed on filled tables"; exit 1; }
"$egtb" stats --all 3 --dir "$dir/filled" > "$dir/stats.filled"
cmp "$dir/stats.before" "$dir/stats.filled" || { echo "statistics of filled tables differ"; exit 1; }
for q in 'value == 0' 'btm check' 'purestalemate'; do
  plain=$("$egtb" query KQk KRk KPk KBk KNk --count --dir "$dir/t" "$q")
  filled=$("$egtb" query KQk KRk KPk KBk KNk --count --dir "$dir/filled" "$q")
  grep -q "^total" <<< "$plain" && [ "$plain" = "$filled" ] ||
    { echo "query '$q' counts otherwise on filled tables: $plain / $filled"; exit 1; }
done
"$egtb" probe "$fen" --dir "$dir/filled" > "$dir/probe.filled"
cmp "$dir/probe.before" "$dir/probe.filled" || { echo "probe of filled tables differs"; exit 1; }
"$egtb" recompress KQk --dir "$dir/filled" --orders solvable --compression-level 3 --block-entries 32768 > /dev/null
cmp -s "$dir/filled/KQk.egtb" "$dir/plain.egtb" ||
  { echo "a filled file recompressed without --fill is not generate's file"; exit 1; }

# --packed: a file of version 4 that `info` calls packed, its blocks read in place by probes;
# verify, stats and probe give what they gave; recompressed without it, it is generate's file.
mkdir "$dir/packed"
"$egtb" generate --all 3 --dir "$dir/packed" > /dev/null
"$egtb" recompress --all 3 --dir "$dir/packed" --packed --compression-level 3 --block-entries 1024 > /dev/null
"$egtb" info "$dir/packed/KQk.egtb" | grep -q "^format version   4 (packed" ||
  { echo "info does not say the file is packed:"; "$egtb" info "$dir/packed/KQk.egtb"; exit 1; }
"$egtb" info "$dir/packed/KQk.egtb" --json | grep -q '"packed": true' || { echo "info --json: not packed"; exit 1; }
"$egtb" verify --all 3 --dir "$dir/packed" > /dev/null || { echo "verify failed on packed tables"; exit 1; }
"$egtb" stats --all 3 --dir "$dir/packed" > "$dir/stats.packed"
cmp "$dir/stats.before" "$dir/stats.packed" || { echo "statistics of packed tables differ"; exit 1; }
"$egtb" probe "$fen" --dir "$dir/packed" > "$dir/probe.packed"
cmp "$dir/probe.before" "$dir/probe.packed" || { echo "probe of packed tables differs"; exit 1; }
"$egtb" recompress KQk --dir "$dir/packed" --orders solvable --compression-level 3 --block-entries 32768 > /dev/null
cmp -s "$dir/packed/KQk.egtb" "$dir/plain.egtb" ||
  { echo "a packed file recompressed without --packed is not generate's file"; exit 1; }

# The half-written file of an interrupted recompress (its process gone) is removed by the next
# recompress of the table; one whose process lives (this shell) is kept.
stale="$dir/level3/KQk.egtb.tmp.$(uname -n).999999999"
live="$dir/level3/KQk.egtb.tmp.$(uname -n).$$"
echo "half-written" > "$stale"
echo "being written" > "$live"
"$egtb" recompress KQk --dir "$dir/level3" > /dev/null
[ ! -e "$stale" ] || { echo "recompress left an interrupted run's temporary file: $(ls "$dir/level3")"; exit 1; }
[ -e "$live" ] || { echo "recompress removed the temporary file of a live process"; exit 1; }

# --value-files writes SIG.egv beside each table and leaves the tables byte for byte as they were;
# probe --epd --value-file reads them, the same lasker as the full probe's; a value file's block
# size must be a power of two.
sha256sum "$dir"/t/*.egtb > "$dir/sums"
"$egtb" recompress --all 3 --value-files --dir "$dir/t" > "$dir/out"
[ "$(grep -c '\.egv ' "$dir/out")" = 5 ] || { echo "recompress --value-files did not report 5 files:"; cat "$dir/out"; exit 1; }
sha256sum -c --quiet "$dir/sums" || { echo "recompress --value-files changed a table file"; exit 1; }
printf '%s\n' "$fen" '8/8/8/8/8/1N6/8/1k1K4 w - - 0 1' '8/8/8/8/8/8/8/2K1B1k1 b - - 0 1' '8/8/8/8/8/8/8/K6k w - - 0 1' \
  '4k3/8/8/8/8/8/8/R3K3 w Q - 0 1' > "$dir/fens"
"$egtb" probe --epd "$dir/fens" --dir "$dir/t" --value-file > "$dir/values" || true
"$egtb" probe --epd "$dir/fens" --dir "$dir/t" --value-only | sed 's/,"dtm":[^,]*,"dts":[^}]*}/}/' > "$dir/full" || true
cmp "$dir/values" "$dir/full" || { echo "value file probes differ from full probes:"; diff "$dir/values" "$dir/full"; exit 1; }
# info checks a value file through: every block, so a damaged last block is refused, naming it.
"$egtb" info "$dir/t/KQk.egv" > "$dir/info" || { echo "info refused a sound value file"; exit 1; }
grep -q '^checksums        verified' "$dir/info" || { echo "info did not verify the value file:"; cat "$dir/info"; exit 1; }
# ... and says what its blocks hold: their forms, with the pairs of the grammar among them.
grep -Eq '^grammar          [1-9][0-9,]* rules \(symbols of [0-9]+ bits\)$' "$dir/info" &&
  grep -Eq '^block forms      ([a-z 5]+ [1-9][0-9,]* \([0-9,]+ bytes\), )*pairs [1-9][0-9,]* \([0-9,]+ bytes\)$' "$dir/info" ||
  { echo "info does not describe the value file's grammar and blocks:"; cat "$dir/info"; exit 1; }
"$egtb" info "$dir/t/KQk.egv" --json | grep -q '"grammar_rules": [1-9]' || { echo "info --json: no grammar_rules"; exit 1; }
"$egtb" info "$dir/t/KQk.egv" --json | grep -q '"kind": "value file"' || { echo "info --json: no value file kind"; exit 1; }
cp "$dir/t/KQk.egv" "$dir/damaged.egv"
size=$(stat -c %s "$dir/damaged.egv")
last=$(od -An -tu1 -j $((size - 1)) -N1 "$dir/damaged.egv")
printf '%b' "\\$(printf '%03o' $((255 - last)))" | dd of="$dir/damaged.egv" bs=1 seek=$((size - 1)) conv=notrunc status=none
cmp -s "$dir/t/KQk.egv" "$dir/damaged.egv" && { echo "the damage changed nothing"; exit 1; }
if "$egtb" info "$dir/damaged.egv" 2> "$dir/err"; then
  echo "info accepted a value file with a damaged last block"; exit 1
fi
grep -q 'damaged.egv: block [0-9]*: checksum mismatch' "$dir/err" || { echo "unexpected message:"; cat "$dir/err"; exit 1; }
rm "$dir/t/KNk.egv"
if "$egtb" probe --epd "$dir/fens" --dir "$dir/t" --value-file > "$dir/values"; then
  echo "a missing value file was not an error"; exit 1
fi
grep -q 'egtb recompress KNk --value-files' "$dir/values" || { echo "no command for the missing value file:"; cat "$dir/values"; exit 1; }
if "$egtb" recompress KQk --value-files --block-entries 3000 --dir "$dir/t" 2> "$dir/err"; then
  echo "a value file block size of 3000 was accepted"; exit 1
fi
grep -q 'must be a power of two' "$dir/err" || { echo "unexpected message:"; cat "$dir/err"; exit 1; }
