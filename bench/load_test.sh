#!/usr/bin/env bash
# bench/load_test.sh [DIR] [SECONDS] [CONNECTIONS]: the load test of `egtb serve` on loopback.
# Starts `egtb serve --dir DIR` (default build/test-tables, the 3-4-man tables) on a free port,
# takes 4,000 positions of 20 tables from `egtb query`, warms the tables with a 3-second run, then
# runs wrk (Debian's wrk) for SECONDS (default 20) with CONNECTIONS (default 100) connections
# on two threads, each request GET /api/lasker?fen=... of the next position (every move's value
# in the answer), and prints requests per second, latency percentiles (p99) and errors. Traffic
# goes to 127.0.0.1 only, and the run ends by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/test-tables}
seconds=${2:-20}
connections=${3:-100}
egtb=${EGTB:-build/tools/egtb/egtb}
command -v wrk >/dev/null || { echo "load_test: wrk is not installed (apt-get install wrk)"; exit 1; }
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

for sig in KQk KRk KBk KNk KPk KQkq KQkr KRkr KRkn KRkb KBNk KBBk KNNk KQPk KRPk KBPk KNPk KPPk KPkp KRkp; do
  "$egtb" query "$sig" 'wtm or btm' --dir "$dir" --convention physical --limit 200 | cut -d' ' -f1-6
done >"$work/fens.txt"
echo "load_test: $(wc -l <"$work/fens.txt") positions from 20 tables of $dir"

"$egtb" serve --dir "$dir" --port 0 >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$work/serve.log"; exit 1; }

wrk -t2 -c"$connections" -d3s -s bench/load_test.lua "$url" -- "$work/fens.txt" >/dev/null
echo "load_test: tables warm; wrk -t2 -c$connections -d${seconds}s on ${url}api/lasker"
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 5s -s bench/load_test.lua "$url" -- "$work/fens.txt" |
  sed -n '/^requests /,$p'
