#!/bin/sh
# Games per second of `egtb annotate`, `egtb query --pgn-in` and of reading PGN, beside
# pgn-extract reading the same file (docs/benchmarks.md, "Games (PGN)").
#   bench/pgn_bench.sh [GAMES] [TABLES] [BUILD]
# GAMES (default 100000) games of random play into the 3-4-man tables are written by
# BUILD/tests/pgn/make_games (seed 1, so every run reads the same file) to BUILD/pgn-bench.pgn,
# once; TABLES defaults to BUILD/test-tables (egtb generate --all 4 --dir TABLES), BUILD to
# ./build. Each command runs on every core (egtb's default) unless EGTB_THREADS is set; times are
# those of the faster of two runs (wall clock, and CPU seconds, user and system, which say more on
# a machine shared with other work), so a second run sees the file and tables cached.
set -eu
games=${1:-100000}
build=${3:-./build}
tables=${2:-$build/test-tables}
egtb=$build/tools/egtb/egtb
file=$build/pgn-bench.pgn
threads=${EGTB_THREADS:+--threads $EGTB_THREADS}
pgn_extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)

[ -d "$tables" ] || { echo "no tables in $tables (egtb generate --all 4 --dir $tables)" >&2; exit 1; }
if [ ! -f "$file" ] || [ "$(grep -c '^\[Event ' "$file")" -ne "$games" ]; then
  "$build/tests/pgn/make_games" "$games" 4 1 > "$file"
fi

# The CPU seconds (user and system) of the finished children of the shell, as `times` wrote them
# to $file.times (`times` must run in the shell that ran them: a subshell has other children).
children_cpu() {
  awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$file.times"
}

# "WALL CPU": the wall-clock and CPU seconds of the faster of two runs of a command (its output
# discarded); a command that fails stops the script with its messages, so that no time of a
# failed run is printed.
best_time() {
  best=""
  for _ in 1 2; do
    times > "$file.times"
    cpu_before=$(children_cpu)
    start=$(date +%s.%N)
    if ! "$@" > /dev/null 2> "$file.err"; then
      echo "failed: $*" >&2
      cat "$file.err" >&2
      exit 1
    fi
    end=$(date +%s.%N)
    times > "$file.times"
    cpu_after=$(children_cpu)
    best=$(echo "$start $end $cpu_before $cpu_after ${best:-1e9 0}" |
      awk '{ t = $2 - $1; print (t < $5 ? t " " ($4 - $3) : $5 " " $6) }')
  done
  echo "$best"
}

# A table row: the label, the wall-clock and CPU seconds of the faster run, games per second of
# each.
row() {
  label=$1
  shift
  times=$(best_time "$@")
  echo "$times" | awk -v games="$games" -v what="$label" \
    '{ printf "| %s | %.2f | %.0f | %.2f | %.0f |\n", what, $1, games / $1, $2, games / $2 }'
}

echo "$games games, $(wc -c < "$file") bytes ($file); tables $tables; $(nproc) cores;" \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | wall s | games/s | CPU s | games per CPU s |"
echo "|---|---:|---:|---:|---:|"
# shellcheck disable=SC2086 # $threads is empty or two words
row "egtb annotate" "$egtb" annotate "$file" --dir "$tables" $threads -o /dev/null
# shellcheck disable=SC2086
row "egtb query --pgn-in 'stalemate'" "$egtb" query --pgn-in "$file" --count $threads stalemate
# shellcheck disable=SC2086
row "egtb query --pgn-in 'dts > 10'" "$egtb" query --pgn-in "$file" --dir "$tables" --count $threads "dts > 10"
row "pgn-extract -r (reads, checks moves)" "$pgn_extract" -r "$file"
echo
echo "egtb bench pgn (reading alone: parser, parser and replay, the parallel stream):"
"$egtb" bench pgn "$file"
rm -f "$file.err" "$file.times"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
