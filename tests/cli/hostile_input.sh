#!/usr/bin/env bash
# Input a hostile user gives, each case of issue 17 that has no test of its own elsewhere:
# - a directory given as --epd, --file or --fens is refused (status 2), never read as empty input;
# - a read error is reported (status 1), never taken for the end of the input;
# - a FIFO in place of a table file is refused at once by probe and info, not read (which blocks);
# - a line past the 1 MiB cap is reported with its number at once, and the batch goes on;
# - bytes that are not UTF-8 in an --epd line give that line an error, valid JSON, and the batch
#   goes on; so does a damaged table, whose positions get the checksum error line by line;
# - generate replaces a table whose blocks are damaged instead of keeping it;
# - a truncated table and a link that loops among good tables: stats --all leaves them out with
#   their errors (status 1), serve starts and /api/tables lists them with their errors;
# - generate keeps a whole table stored under another table's name, and reports the tables of a
#   directory it cannot write as kept.
set -uo pipefail
egtb=$1
# shellcheck source=tests/cli/script_support.sh
. "$(dirname "$0")/script_support.sh"

mate="8/8/8/8/8/8/1Q6/k1K5 b - - 0 1"
"$egtb" generate KQk KBk --dir "$work/tables" > /dev/null 2>&1 || fail "generate failed"

# A directory as input file.
mkdir "$work/dir"
expect 2 "cannot read EPD file '$work/dir': it is a directory" probe --epd "$work/dir" --dir "$work/tables"
expect 2 "cannot read query file '$work/dir': it is a directory" query KQk --file "$work/dir" --dir "$work/tables"
expect 2 "cannot read FEN file '$work/dir': it is a directory" query --fens "$work/dir" mate

# A read error (EIO from /proc/self/mem) is reported as such, status 1, never taken for the end of
# the input (an empty query, no positions, no games).
printf '[Result "1-0"]\n[FEN "k7/8/1K6/8/8/8/7Q/8 w - - 0 1"]\n\n1. Qh8# 1-0\n' > "$work/game.pgn"
for args in "query KBk --dir $work/tables --count --file /proc/self/mem" "query --fens /proc/self/mem mate" \
  "probe --epd /proc/self/mem --dir $work/tables" "annotate /proc/self/mem --dir $work/tables" \
  "query --pgn-in /proc/self/mem --dir $work/tables mate"; do
  read -r -a words <<< "$args"
  expect 1 "^egtb: cannot read /proc/self/mem: Input/output error$" "${words[@]}"
  ! grep -q "games\|positions" "$work/err" || fail "egtb $args: counted: $(cat "$work/err")"
done

# A FIFO as table file: refused before it is opened for reading (which would wait for a writer).
mkdir "$work/fifo"
mkfifo "$work/fifo/KQk.egtb"
for args in "probe" "info"; do
  if [ "$args" = probe ]; then words=(probe "$mate" --dir "$work/fifo"); else words=(info "$work/fifo/KQk.egtb"); fi
  timeout 60 "$egtb" "${words[@]}" > "$work/out" 2> "$work/err"
  status=$?
  [ "$status" -eq 1 ] || fail "egtb ${words[*]}: exit status $status, expected 1 (124: it blocked)"
  grep -q "is not a regular file (a FIFO, device or socket)" "$work/err" ||
    fail "egtb ${words[*]}: stderr: $(cat "$work/err")"
done

# An endless line (/dev/zero) is reported at once, its rest skipped without holding it: probe
# --epd on stdout, query --fens on stderr; both run until stopped.
timeout 5 "$egtb" probe --epd /dev/zero --dir "$work/tables" > "$work/out" 2> "$work/err"
[ $? -eq 124 ] || fail "probe --epd /dev/zero ended before the timeout: $(cat "$work/err")"
grep -q '^{"line":1,"input":"","error":"the line is longer than 1048576 bytes"}$' "$work/out" ||
  fail "probe --epd /dev/zero: no error line: $(head -c 300 "$work/out")"
timeout 5 "$egtb" query --fens /dev/zero mate > "$work/out" 2> "$work/err"
grep -q "/dev/zero:1: the line is longer than 1048576 bytes" "$work/err" ||
  fail "query --fens /dev/zero: no message: $(head -c 300 "$work/err")"

# probe --epd: a line of 3 MB, a line with bytes that are not UTF-8, then a position: two error
# lines and the probe, exit status 1.
{
  head -c 3000000 /dev/zero | tr '\0' 'x'
  echo
  printf '%s \xe9t\xff\n' "$mate"
  echo "$mate"
} > "$work/hostile.epd"
"$egtb" probe --epd "$work/hostile.epd" --dir "$work/tables" > "$work/out" 2> "$work/err"
status=$?
[ "$status" -eq 1 ] || fail "probe --epd hostile.epd: exit status $status, expected 1"
grep -q '^{"line":1,"input":"","error":"the line is longer than 1048576 bytes"}$' "$work/out" ||
  fail "probe --epd: no error for the long line 1: $(head -c 300 "$work/out")"
grep -q '^{"line":2,.*"error":"the line is not valid UTF-8 text"}$' "$work/out" ||
  fail "probe --epd: no error for line 2: $(head -c 300 "$work/out")"
# The input is echoed with U+FFFD for each byte that is not UTF-8, so the line is UTF-8 JSON.
grep -q $'1 \xef\xbf\xbdt\xef\xbf\xbd"' "$work/out" || fail "probe --epd: line 2 not echoed as UTF-8: $(cat "$work/out")"
[ "$(grep -c '"checkmate":true' "$work/out")" -eq 1 ] || fail "probe --epd: line 3 not probed: $(cat "$work/out")"

# A damaged block in KQk: its positions get the checksum error, KBk's are probed, exit status 1.
cp -r "$work/tables" "$work/damaged"
size=$(stat -c %s "$work/damaged/KQk.egtb")
printf '\x55\x55\x55\x55' | dd of="$work/damaged/KQk.egtb" bs=1 seek=$((size - 200)) conv=notrunc 2> /dev/null
printf '%s\n8/8/8/8/8/8/2B5/k1K5 w - - 0 1\n' "$mate" > "$work/two.epd"
"$egtb" probe --epd "$work/two.epd" --dir "$work/damaged" --value-only > "$work/out" 2> "$work/err"
status=$?
[ "$status" -eq 1 ] || fail "probe --epd on a damaged table: exit status $status, expected 1"
grep -q '^{"line":1,.*KQk.egtb: block [0-9]* (.*): checksum mismatch"}$' "$work/out" ||
  fail "probe --epd: no checksum error for line 1: $(cat "$work/out")"
grep -q '"fen":"8/8/8/8/8/8/2B5/k1K5 w - - 0 1","lasker":3' "$work/out" ||
  fail "probe --epd: line 2 (KBk) not probed after the damaged table: $(cat "$work/out")"

# generate does not keep the damaged table: it says why and builds it again, which info verifies.
"$egtb" generate KQk --dir "$work/damaged" > "$work/out" 2>&1 || fail "generate over a damaged table failed"
grep -q "^KQk *built" "$work/out" || fail "generate kept the damaged KQk: $(cat "$work/out")"
grep -q "replaced .*KQk.egtb: block [0-9]* (.*): checksum mismatch" "$work/out" ||
  fail "generate did not say why it rebuilt KQk: $(cat "$work/out")"
"$egtb" info "$work/damaged/KQk.egtb" > /dev/null 2>&1 || fail "the rebuilt KQk does not verify"

# A truncated table and a link that loops, beside good tables.
mkdir "$work/mixed"
cp "$work/tables/KQk.egtb" "$work/tables/KBk.egtb" "$work/mixed/"
head -c 2000 "$work/tables/KQk.egtb" > "$work/mixed/KRk.egtb"
ln -s KNk.egtb "$work/mixed/KNk.egtb"
"$egtb" stats --all 3 --dir "$work/mixed" > "$work/out" 2> "$work/err"
status=$?
[ "$status" -eq 1 ] || fail "stats --all 3 over a truncated table: exit status $status, expected 1"
grep -q "KRk.egtb: .*(left out)" "$work/err" || fail "stats --all 3: KRk not reported: $(cat "$work/err")"
grep -q "KNk.egtb: .*Too many levels of symbolic links (left out)" "$work/err" ||
  fail "stats --all 3: KNk not reported: $(cat "$work/err")"
grep -q "KQk" "$work/out" && grep -q "KBk" "$work/out" || fail "stats --all 3: $(cat "$work/out")"
"$egtb" serve --dir "$work/mixed" --port 0 > "$work/serve.out" 2> "$work/serve.err" &
serve=$!
for _ in $(seq 100); do grep -q "http://" "$work/serve.out" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$work/serve.out")
[ -n "$url" ] || fail "serve over a link loop did not start: $(cat "$work/serve.err")"
if [ -n "$url" ]; then
  curl -s -o "$work/tables.json" -w '%{http_code}' "${url}api/tables" > "$work/code"
  [ "$(cat "$work/code")" = 200 ] || fail "/api/tables: HTTP $(cat "$work/code"): $(cat "$work/tables.json")"
  python3 - "$work/tables.json" << 'PYTHON' || fail "/api/tables: $(cat "$work/tables.json")"
import json, sys
tables = {t["signature"]: t for t in json.load(open(sys.argv[1]))["tables"]}
assert "sides" in tables["KQk"] and "sides" in tables["KBk"], tables
assert "truncated" in tables["KRk"]["error"] and "symbolic links" in tables["KNk"]["error"], tables
PYTHON
fi
kill "$serve"
wait "$serve" 2> /dev/null

# A whole table under another table's name: generate keeps it and says where it belongs.
mkdir "$work/misnamed"
cp "$work/tables/KBk.egtb" "$work/misnamed/KQk.egtb"
expect 1 "KQk.egtb: holds the whole table of KBk under lasker rules, not KQk .*move it to $work/misnamed/KBk.egtb" \
  generate KQk --dir "$work/misnamed"
cmp -s "$work/tables/KBk.egtb" "$work/misnamed/KQk.egtb" || fail "generate KQk over KBk's table changed it"
expect 1 "holds the whole table of KBk" generate KQk --force --dir "$work/misnamed"
cmp -s "$work/tables/KBk.egtb" "$work/misnamed/KQk.egtb" || fail "generate --force KQk over KBk's table changed it"

# A directory of finished tables this process cannot write (read-only, as a mounted archive):
# every table kept, no lock file needed.
mkdir "$work/readonly"
cp "$work/tables/KQk.egtb" "$work/tables/KBk.egtb" "$work/readonly/"
if mount --bind "$work/readonly" "$work/readonly" 2> /dev/null && mount -o remount,bind,ro "$work/readonly"; then
  "$egtb" generate KQk KBk --dir "$work/readonly" > "$work/out" 2> "$work/err"
  status=$?
  umount "$work/readonly"
  [ "$status" -eq 0 ] || fail "generate on a read-only directory: exit status $status: $(cat "$work/err")"
  [ "$(grep -c ' kept ' "$work/out")" -eq 2 ] || fail "generate on a read-only directory: $(cat "$work/out")"
fi

finish "hostile input: directories, a FIFO table, long and non-UTF-8 lines, a damaged table in a batch and in generate"
