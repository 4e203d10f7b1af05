#!/usr/bin/env bash
# run_browser_tests.sh EGTB TABLES SHOT_DIR [--docs PNG]: starts `egtb serve` over TABLES on a free
# loopback port and runs browser_test.mjs against it in Debian's headless Chromium. Prints
# "SKIPPED: ..." (ctest then reports the test skipped) when node, chromium or the npm packages
# (installed by scripts/setup.sh with npm ci) are missing.
set -euo pipefail
egtb=$1
tables=$2
shots=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "SKIPPED: node is not installed (apt-get install nodejs)"; exit 0; }
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || { echo "SKIPPED: playwright-core needs Node.js 20 or later, this is $(node --version)"; exit 0; }
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "SKIPPED: $chromium is missing (apt-get install chromium)"; exit 0; }
[ -d "$here/node_modules/playwright-core" ] ||
  { echo "SKIPPED: playwright-core is not installed (cd tests/web && npm ci)"; exit 0; }
mkdir -p "$shots"
log=$(mktemp)
"$egtb" serve --dir "$tables" --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "egtb serve printed no URL:"; cat "$log"; exit 1; }
cd "$here"
CHROMIUM=$chromium node browser_test.mjs "$url" "$shots" "$@"
