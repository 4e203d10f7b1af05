#!/bin/sh
# Writes docs/tables-5.md: the article's Table 1 (maxDTS per stalemater and maxDTM per mater, over
# both sides to move, ranked deepest first) and Table 2 (the Lasker values per side to move) for
# every table of 3 to 5 men, with the command, the commit and the time it took.
#   tools/docs/tables5_docs.sh [DIR] [BUILD] [MEN]
# DIR (default ./tables) receives the 145 tables (`egtb generate --all $men`: tables present and
# valid are kept); BUILD defaults to ./build. MEN (default 5) other than 5 writes
# docs/tables-MEN.md of the tables of 3 to MEN men (tests/bench/scripts.sh runs it with 3).
set -eu
dir=${1:-tables}
build=${2:-./build}
men=${3:-5}
egtb=$build/tools/egtb/egtb
out=docs/tables-$men.md

mkdir -p docs
start=$(date +%s)
"$egtb" generate --all "$men" --dir "$dir" > /dev/null
generated=$(date +%s)
"$egtb" stats --all "$men" --rank --dir "$dir" > "$out.stats"
done_at=$(date +%s)

{
  echo "# Lasker values of every table of 3 to $men men"
  echo
  echo "Written by \`tools/docs/tables5_docs.sh\` ($("$egtb" --version), commit"
  echo "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)): \`egtb generate --all $men\` took $((generated - start)) s"
  echo "(tables already present are only checked) and \`egtb stats --all $men --rank\` $((done_at - generated)) s on"
  echo "$(nproc) cores ($(date -u +%Y-%m-%d)). Positions count the article's index462 convention; depths are plies."
  echo
  # Table 1 and the maxDTM table ranked, and Table 2; the raw counts and histograms stay out.
  sed '/^### Lasker values, positions/,$d' "$out.stats"
} > "$out.tmp"
rm -f "$out.stats"
mv "$out.tmp" "$out"
echo "wrote $out"
