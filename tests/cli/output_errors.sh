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

# Output files go through the same checked writer: a full disk gives "cannot write to FILE", exit
# status 1, and a partial regular file is removed (a fresh one: written whole, scripts executable).
# Each line: the file a command cannot write, then the command.
file_commands=(
  "/dev/full annotate $work/game.pgn --dir $tables -o /dev/full"
  "/dev/full stats KQk --dir $tables --pgn /dev/full"
  "/dev/full stats KQk --dir $tables --figures /dev/full"
  "/dev/full plan KQk --format slurm --out /dev/full"
)
for line in "${file_commands[@]}"; do
  read -r -a words <<< "$line"
  "$egtb" "${words[@]:1}" > /dev/null 2> "$work/err"
  status=$?
  [ "$status" -eq 1 ] || fail "egtb ${words[*]:1}: exit status $status, expected 1"
  grep -q "cannot .*${words[0]}" "$work/err" || fail "egtb ${words[*]:1}: no message: $(cat "$work/err")"
done
"$egtb" annotate "$work/game.pgn" --dir "$tables" -o /dev/full > /dev/null 2> "$work/err"
grep -q "^egtb: cannot write to /dev/full: No space left on device$" "$work/err" ||
  fail "annotate -o /dev/full: $(cat "$work/err")"
"$egtb" annotate "$work/game.pgn" --dir "$tables" -o "$work/annotated.pgn" > /dev/null 2> "$work/err" ||
  fail "annotate -o: $(cat "$work/err")"
grep -q "Qh8#" "$work/annotated.pgn" || fail "annotate -o: $(cat "$work/annotated.pgn")"
"$egtb" plan KQk --format slurm --out "$work/jobs" > /dev/null 2> "$work/err" || fail "plan: $(cat "$work/err")"
[ -x "$work/jobs/submit.sh" ] || fail "plan --out: submit.sh is not executable"
# A full file system (a small tmpfs, where mounting one is allowed): the partial file is removed.
mkdir "$work/small"
if mount -t tmpfs -o size=8k tmpfs "$work/small" 2> /dev/null; then
  for i in $(seq 300); do cat "$work/game.pgn"; done > "$work/games.pgn"
  "$egtb" annotate "$work/games.pgn" --dir "$tables" -o "$work/small/out.pgn" > /dev/null 2> "$work/err"
  status=$?
  umount_listing=$(ls "$work/small")
  umount "$work/small"
  [ "$status" -eq 1 ] || fail "annotate -o on a full tmpfs: exit status $status, expected 1"
  grep -q "cannot write to $work/small/out.pgn: No space left on device" "$work/err" ||
    fail "annotate -o on a full tmpfs: $(cat "$work/err")"
  [ -z "$umount_listing" ] || fail "annotate -o on a full tmpfs left $umount_listing"
fi

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
