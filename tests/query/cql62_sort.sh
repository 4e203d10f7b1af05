#!/usr/bin/env bash
# CQL's sort over games: each program of tests/data/cql62/sort/, run over the first 30 games of
# tests/data/cql62/sample.pgn (gamenumber 1 30 in its header), must put the games in the order
# CQL 6.2 puts them and write the same label comments. sort/expected.txt is CQL 6.2's own output
# (its "Game number N  LABEL" comments, one game a line, in its order; see
# tests/data/cql62/README.md). Usage: cql62_sort.sh EGTB
set -u
egtb=$1
data=$(cd "$(dirname "$0")/../data/cql62/sort" && pwd)
got=$(
  for program in "$data"/*.cql; do
    echo "== $(basename "$program" .cql)"
    run() { "$egtb" query --pgn-in "$data/../sample.pgn" --file "$program" --threads 2 "$@"; }
    # The games in order (the game of each match, JSON), beside the label comment of each game
    # (the comment of its own that is all "LABEL: VALUE" pairs).
    paste -d ' ' <(run --json | grep -o '"game":[0-9]*' | cut -d: -f2 | uniq) \
      <(run | tr '\n' ' ' | grep -o '{[^{}]*}' | grep -E '^\{([^ ]+: (-?[0-9]+|none) ?)+\}$' | tr -d '{}')
  done
)
if ! diff <(echo "$got") "$data/expected.txt"; then
  echo "FAIL: egtb's sorted games (<) differ from CQL 6.2's (>)"
  exit 1
fi
echo "ok: $(grep -c '^==' "$data/expected.txt") sorting programs order and label the games as CQL 6.2 does"
