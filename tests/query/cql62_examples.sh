#!/usr/bin/env bash
# CQL 6.2's published example programs over (part of) its sample PGN: egtb must select exactly the
# games CQL 6.2 selected, in CQL 6.2's order (the programs that sort) (tests/data/cql62/
# expected-games.txt, written by CQL 6.2 itself; see tests/data/cql62/README.md). With SET, the
# programs of tests/data/cql62/SET/ instead (line/: written for egtb's tests), and the games CQL 6.2
# selects with them in SET/expected-games.txt. Where output/NAME.txt holds what CQL 6.2 writes after
# its run (its persistent variables), egtb's standard error must say the same.
# Usage: cql62_examples.sh EGTB [SET]
set -u
egtb=$1
data=$(cd "$(dirname "$0")/../data/cql62" && pwd)
programs=$data/examples
list=$data/expected-games.txt
if [ $# -gt 1 ]; then
  programs=$data/$2
  list=$programs/expected-games.txt
fi
failures=0
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
while IFS=: read -r name expected; do
  expected=$(echo $expected)
  got=$("$egtb" query --pgn-in "$data/sample.pgn" --file "$programs/$name.cql" --json --threads 1 2>"$errors" \
        | grep -o '"game":[0-9]*' | cut -d: -f2 | uniq | tr '\n' ' ')
  got=$(echo $got)
  if [ -f "$data/output/$name.txt" ] && ! diff "$data/output/$name.txt" "$errors"; then
    echo "FAIL $name.cql: egtb's persistent variables differ from CQL 6.2's (above)"
    failures=$((failures + 1))
  elif [ "$got" != "$expected" ]; then
    echo "FAIL $name.cql: CQL 6.2 selects games [$expected], egtb [$got]"
    failures=$((failures + 1))
  else
    echo "ok   $name.cql: games [$expected]"
  fi
done < "$list"
[ "$failures" -eq 0 ]
