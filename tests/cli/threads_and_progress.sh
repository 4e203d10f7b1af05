#!/usr/bin/env bash
# --threads means the same in every command that takes one count: 0 (every core) to 1024, with
# one message for anything else; `bench` takes a list of counts from 1. A table scan and a
# recompress show their progress on a terminal (a pseudo-terminal from script(1)) and nothing when
# stderr is a file.
set -uo pipefail
egtb=$1
# shellcheck source=tests/cli/script_support.sh
. "$(dirname "$0")/script_support.sh"

"$egtb" generate KQk --dir "$work/tables" > /dev/null 2>&1 || fail "generate failed"
echo "8/8/8/8/8/8/1Q6/k1K5 b - - 0 1" > "$work/one.epd"
for command in "generate KQk" "verify KQk" "probe --epd $work/one.epd" "stats KQk" "query KQk mate" \
  "annotate $work/one.epd" "serve"; do
  read -r -a words <<< "$command"
  for bad in 1025 -1 two; do
    expect 2 "--threads must be a whole number from 0 to 1024, not '$bad'" "${words[@]}" --dir "$work/tables" \
      --threads "$bad"
  done
done
expect 2 "--threads must be a whole number from 1 to 1024, not '0'" bench generate KQk --threads 0,1

# Progress of a scan: on a terminal a line "KQk 57,288 / 57,288 entries", redrawn in place.
script -qec "'$egtb' query KQk mate --count --dir '$work/tables'" /dev/null > "$work/tty" 2>&1 ||
  fail "query on a terminal failed: $(cat "$work/tty")"
grep -q "KQk 57,288 / 57,288 entries" "$work/tty" || fail "no progress line on a terminal: $(cat "$work/tty")"
"$egtb" query KQk mate --count --dir "$work/tables" > "$work/out" 2> "$work/err" || fail "query failed"
[ ! -s "$work/err" ] || fail "progress written to a file: $(cat "$work/err")"

# Progress of a recompress: the table, its share written, the tables and bytes of the run.
script -qec "'$egtb' recompress KQk --dir '$work/tables'" /dev/null > "$work/tty" 2>&1 ||
  fail "recompress on a terminal failed: $(cat "$work/tty")"
grep -q "KQk 0% (table 1 of 1; 0 of 0 MB; 0 s)" "$work/tty" || fail "no recompress progress on a terminal: $(cat "$work/tty")"
"$egtb" recompress KQk --dir "$work/tables" > "$work/out" 2> "$work/err" || fail "recompress failed"
[ ! -s "$work/err" ] || fail "recompress progress written to a file: $(cat "$work/err")"

finish "--threads alike in every command; progress on a terminal only"
