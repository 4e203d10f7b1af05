#!/usr/bin/env bash
# Builds tables from nothing with the real command line and verifies them: `egtb generate SIG...`
# into a fresh temporary directory (every table the targets depend on is built first, as a run of
# the tool would), then `egtb verify SIG...`, which checks every position of the targets one ply
# forward against its successors (retro/verify.hpp), independently of the solver. Prints the
# wall time of each step; the directory is removed at the end.
set -euo pipefail
egtb=$1
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/egtb-generate-verify.XXXXXX")
trap 'rm -rf "$dir"' EXIT

start=$SECONDS
"$egtb" generate "$@" --dir "$dir"
echo "generate $*: $((SECONDS - start)) s wall"
start=$SECONDS
"$egtb" verify "$@" --dir "$dir"
echo "verify $*: $((SECONDS - start)) s wall"
