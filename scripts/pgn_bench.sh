#!/bin/sh
# Games per second of `egtb annotate`, `egtb query --pgn-in` and of reading PGN, beside
# pgn-extract reading the same file (README.md, "Annotating games and PGN queries").
#   scripts/pgn_bench.sh [GAMES] [TABLES] [BUILD]
# GAMES (default 100000) games of random play into the 3-4-man tables are written by
# BUILD/tests/pgn/make_games (seed 1, so every run reads the same file) to BUILD/pgn-bench.pgn,
# once; TABLES defaults to BUILD/test-tables (egtb generate --all 4 --dir TABLES), BUILD to
# ./build. Each command runs on every core (egtb's default) unless EGTB_THREADS is set; times are
# wall-clock seconds of the best of two runs, so a second run sees the file and tables cached.
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

# The best wall time in seconds of two runs of a command (its output discarded); a command that
# fails stops the script with its messages, so that no time of a failed run is printed.
best_time() {
  best=""
  for _ in 1 2; do
    start=$(date +%s.%N)
    if ! "$@" > /dev/null 2> "$file.err"; then
      echo "failed: $*" >&2
      cat "$file.err" >&2
      exit 1
    fi
    end=$(date +%s.%N)
    best=$(echo "$start $end ${best:-1e9}" | awk '{ t = $2 - $1; print (t < $3 ? t : $3) }')
  done
  echo "$best"
}

# A table row: the label, the best time of the command and games per second.
row() {
  label=$1
  shift
  seconds=$(best_time "$@")
  echo "$seconds" | awk -v games="$games" -v what="$label" '{ printf "| %s | %.2f | %.0f |\n", what, $1, games / $1 }'
}

echo "$games games, $(wc -c < "$file") bytes ($file); tables $tables; $(nproc) cores;" \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | seconds | games/s |"
echo "|---|---:|---:|"
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
rm -f "$file.err"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
