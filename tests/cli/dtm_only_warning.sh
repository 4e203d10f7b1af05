#!/usr/bin/env bash
# Tables built with --metrics dtm (no DTS) show stalemate wins and losses as draws: probe (one
# position and --epd) and query (tables and --fens) say so on stderr, and in their JSON (a
# "warning" field); complete tables give no warning.
set -uo pipefail
egtb=$1
# shellcheck source=tests/cli/script_support.sh
. "$(dirname "$0")/script_support.sh"

"$egtb" generate KQk --metrics dtm --dir "$work/dtm" > /dev/null 2>&1 || fail "generate --metrics dtm failed"
# json_warning WHAT: the JSON on stdout has the warning as its "warning" field.
json_warning() {
  python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])).get("warning") != sys.argv[2])' \
    "$work/out" "$warning" || fail "$1: no warning field: $(cat "$work/out")"
}
warning="KQk was built without DTS (--metrics dtm): stalemate wins and losses (values 3 and 1) show as draws"
expect 0 "warning: $warning" probe "8/8/8/8/8/8/1Q6/k1K5 b - - 0 1" --dir "$work/dtm"
expect 0 "warning: $warning" probe --json "8/8/8/8/8/8/1Q6/k1K5 b - - 0 1" --dir "$work/dtm"
json_warning "probe --json"
printf '8/8/8/8/8/8/1Q6/k1K5 b - - 0 1\n' > "$work/one.epd"
expect 0 "warning: $warning" probe --epd "$work/one.epd" --dir "$work/dtm"
expect 0 "warning: $warning" query KQk --dir "$work/dtm" --count --json stalemate
json_warning "query --count --json"
expect 0 "warning: $warning" query --fens "$work/one.epd" --dir "$work/dtm" 'dtm >= 0'
# Tables with every metric: no warning.
"$egtb" generate KQk KBk --dir "$work/full" > /dev/null 2>&1 || fail "generate failed"
"$egtb" probe "8/8/8/8/8/8/1Q6/k1K5 b - - 0 1" --dir "$work/full" > /dev/null 2> "$work/err"
[ ! -s "$work/err" ] || fail "probe with complete tables: $(cat "$work/err")"

finish "every command warned about the tables without DTS"
