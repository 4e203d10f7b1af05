#!/usr/bin/env bash
# serve_command.sh EGTB TABLES: `egtb serve` as users start it. It prints one line with the URL,
# answers /api/lasker, HEAD as a link checker sends it (curl -I) and OPTIONS, stops cleanly (exit 0,
# "stopped") on SIGTERM and on SIGINT, promptly even with a query running, and refuses a missing
# directory and an --cors-origin that is not an origin with exit status 2.
set -euo pipefail
egtb=$1
tables=$2
command -v curl >/dev/null || { echo "SKIPPED: curl is not installed"; exit 0; }
work=$(mktemp -d)
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

# Starts the server on a free port, with the options given; sets pid and url.
start() {
  : >"$work/out"  # now, not when the background job gets to it: no URL of an earlier run is read
  "$egtb" serve --dir "$tables" --port 0 "$@" >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 100); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/out" || true)
    [ -n "$url" ] && return 0
    sleep 0.1
  done
  echo "no URL printed: $(cat "$work/out" "$work/err")"
  exit 1
}

# Sends a signal and checks the clean stop.
stop_with() {
  kill "-$1" "$pid"
  status=0
  wait "$pid" || status=$?
  [ "$status" -eq 0 ] || { echo "exit status $status after SIG$1"; exit 1; }
  grep -q "egtb serve: stopped" "$work/out" || { echo "no 'stopped' line after SIG$1"; exit 1; }
}

start
grep -q "^egtb serve: http://127.0.0.1:[0-9]*/  (35 tables in " "$work/out" || { cat "$work/out"; exit 1; }
answer=$(curl -sf "${url}api/lasker?fen=8/8/8/8/8/1N6/8/1k1K4_w_-_-_0_1")
echo "$answer" | grep -q '"category":"stalemate-win","lasker":3,"dtm":null,"dts":27' || { echo "$answer"; exit 1; }
stop_with TERM

start
page=$(curl -sf "${url}")
[[ "$page" == *'<svg id="board"'* ]] || { echo "no page"; exit 1; }
bytes=$(curl -sf "${url}" | wc -c)
head=$(curl -sfI "${url}")
[[ "$head" == "HTTP/1.1 200 OK"* && "$head" == *"Content-Length: ${bytes}"$'\r'* ]] || { echo "HEAD /: $head"; exit 1; }
options=$(curl -sf -X OPTIONS -D - -o /dev/null "${url}api/tables")
[[ "$options" == "HTTP/1.1 204"* && "$options" == *"Allow: GET, HEAD, OPTIONS"* ]] || { echo "OPTIONS: $options"; exit 1; }
stop_with INT

# SIGTERM with a query running (milliseconds per position, a minute's budget) stops within seconds.
start --query-seconds 60
curl -s -o /dev/null -d '{"tables": ["KQkp", "KRkp"], "query": "square s1 in . square s2 in . square s3 in . wtm"}' \
  "${url}api/query" &
curl_pid=$!
sleep 0.5
started=$(date +%s%N)
stop_with TERM
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
wait "$curl_pid" || true
[ "$elapsed_ms" -lt 5000 ] || { echo "SIGTERM with a query running took $elapsed_ms ms"; exit 1; }

status=0
"$egtb" serve --dir "$tables" --port 0 --cors-origin $'http://a.example\r\nX-Injected: 1' >/dev/null \
  2>"$work/err" || status=$?
[ "$status" -eq 2 ] || { echo "--cors-origin with CR LF: exit status $status"; exit 1; }
grep -q "is not an origin" "$work/err" || { cat "$work/err"; exit 1; }

status=0
"$egtb" serve --dir "$work/none" --port 0 >/dev/null 2>"$work/err" || status=$?
[ "$status" -eq 2 ] || { echo "missing directory: exit status $status"; exit 1; }
grep -q "is not a directory" "$work/err" || { cat "$work/err"; exit 1; }
echo "serve_command: ok"
