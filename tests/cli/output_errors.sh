#!/usr/bin/env bash
# Standard output is checked in every command (tools/egtb/output.hpp): writing to a full disk
# (/dev/full) gives a message and exit status 1, and a reader that has gone (a closed pipe) ends
# the command quietly with exit status 141, even when the parent ignores SIGPIPE and even when the
# command has nothing more to write (a long table scan stops soon, instead of running on).
# Usage: output_errors.sh EGTB TABLES (the 3-4-man tables of every rule set, fixture tables_34).
set -uo pipefail
egtb=$1
tables=$2
# shellcheck source=tests/cli/script_support.sh
. "$(dirname "$0")/script_support.sh"

printf '8/8/8/8/8/8/1Q6/k1K5 b - - 0 1\n8/8/8/8/8/8/8/kQK5 b - - 0 1\n' > "$work/positions.epd"
printf '[Result "1-0"]\n[FEN "k7/8/1K6/8/8/8/7Q/8 w - - 0 1"]\n\n1. Qh8# 1-0\n' > "$work/game.pgn"

# Each line: the arguments of one command that prints something on standard output.
commands=(
  "--help"
  "--version"
  "fen 8/8/8/8/8/8/1Q6/k1K5 b - - 0 1"
  "perft 8/8/8/8/8/8/1Q6/k1K5 b - - 0 1 2"
  "info KQk"
  "info $tables/KQk.egtb"
  "probe 8/8/8/8/8/8/1Q6/k1K5 b - - 0 1 --dir $tables"
  "probe --epd $work/positions.epd --dir $tables"
  "query KQk --dir $tables mate"
  "query KQk --dir $tables --count mate"
  "query --fens $work/positions.epd mate"
  "query --pgn-in $work/game.pgn --dir $tables mate"
  "annotate $work/game.pgn --dir $tables"
  "stats KQk --dir $tables"
  "compare KQk --dir $tables"
  "verify KQk --dir $tables"
)
for line in "${commands[@]}"; do
  # The FEN of fen and probe is one argument: split at the command's words, keep the FEN whole.
  read -r -a words <<< "$line"
  args=()
  if [ "${words[0]}" = fen ] || [ "${words[0]}" = perft ] ||
    { [ "${words[0]}" = probe ] && [ "${words[1]}" != --epd ]; }; then
    args=("${words[0]}" "${words[*]:1:6}" "${words[@]:7}")
  else
    args=("${words[@]}")
  fi
  "$egtb" "${args[@]}" > /dev/null 2> "$work/err" || fail "egtb $line: exit $? with a working stdout: $(cat "$work/err")"
  "$egtb" "${args[@]}" > /dev/full 2> "$work/err"
  status=$?
  [ "$status" -eq 1 ] || fail "egtb $line > /dev/full: exit status $status, expected 1"
  grep -q "cannot write to standard output: No space left on device" "$work/err" ||
    fail "egtb $line > /dev/full: no message: $(cat "$work/err")"
done

# A closed pipe, SIGPIPE ignored as some parents leave it: quiet, status 141.
(
  trap '' PIPE
  "$egtb" query KRRk --dir "$tables" true 2> "$work/err" | head -c 1 > /dev/null
  echo "${PIPESTATUS[0]}" > "$work/status"
)
[ "$(cat "$work/status")" = 141 ] || fail "query | head -c 1: exit status $(cat "$work/status"), expected 141"
[ ! -s "$work/err" ] || fail "query | head -c 1: messages: $(cat "$work/err")"

# A scan with nothing to print (--count) whose reader has gone stops at once: exit status 141
# well before the full scan (which takes far longer than the limit below).
(
  trap '' PIPE
  start=$(date +%s%N)
  "$egtb" query KRRk KQRk KRBk KRNk KRPk --dir "$tables" --count 'check' 2> "$work/err" | true
  echo "${PIPESTATUS[0]} $((($(date +%s%N) - start) / 1000000))" > "$work/status"
)
read -r status ms < "$work/status"
[ "$status" = 141 ] || fail "query --count | true: exit status $status, expected 141"
full_start=$(date +%s%N)
"$egtb" query KRRk KQRk KRBk KRNk KRPk --dir "$tables" --count 'check' > /dev/null
full_ms=$((($(date +%s%N) - full_start) / 1000000))
[ "$ms" -lt $((full_ms / 2)) ] || fail "query --count | true took $ms ms, the whole scan $full_ms ms"

finish "every command reported its write errors"
