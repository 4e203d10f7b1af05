#!/usr/bin/env bash
# CQL 6.2's published example programs over (part of) its sample PGN: egtb must select exactly the
# games CQL 6.2 selected, in CQL 6.2's order (the programs that sort) (tests/data/cql62/
# expected-games.txt, written by CQL 6.2 itself; see tests/data/cql62/README.md). Usage: cql62_examples.sh EGTB
set -u
egtb=$1
data=$(cd "$(dirname "$0")/../data/cql62" && pwd)
failures=0
while IFS=: read -r name expected; do
  expected=$(echo $expected)
  got=$("$egtb" query --pgn-in "$data/sample.pgn" --file "$data/examples/$name.cql" --json --threads 1 \
        | grep -o '"game":[0-9]*' | cut -d: -f2 | uniq | tr '\n' ' ')
  got=$(echo $got)
  if [ "$got" != "$expected" ]; then
    echo "FAIL $name.cql: CQL 6.2 selects games [$expected], egtb [$got]"
    failures=$((failures + 1))
  else
    echo "ok   $name.cql: games [$expected]"
  fi
done < "$data/expected-games.txt"
[ "$failures" -eq 0 ]
