#!/usr/bin/env bash
# Builds tables from nothing with the real command line, compares them byte for byte with the
# SHA-256 sums of the files an earlier solver wrote (SUMS, lines of `sha256sum`), and verifies
# them one ply forward: `egtb generate SIG...` into a fresh temporary directory, the sums of the
# targets, then `egtb verify SIG...` (retro/verify.hpp, independent of the solver). The targets are
# solved twice and compared each time: whole with their subtables, then again alone under
# --force --no-closure --max-memory 1M, a pawn table one slice at a time, a pawnless one on the
# lean path (retro/depth_records.hpp). Prints the wall time of each step; the directory is
# removed at the end.
set -euo pipefail
egtb=$1
sums=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/egtb-generate-compare.XXXXXX")
trap 'rm -rf "$dir"' EXIT

compare() {
  for signature in "$@"; do
    grep -q "  $signature.egtb\$" "$sums" || { echo "$signature.egtb has no sum in $sums"; exit 1; }
    (cd "$dir" && grep "  $signature.egtb\$" "$sums" | sha256sum --check --strict)
  done
}

start=$SECONDS
"$egtb" generate "$@" --dir "$dir"
echo "generate $*: $((SECONDS - start)) s wall"
compare "$@"
start=$SECONDS
"$egtb" generate "$@" --dir "$dir" --force --no-closure --max-memory 1M |
  grep -cE ' in [0-9]* slices$| on the lean path$' |
  grep -qx "$#" || { echo "not every one of $* was solved in slices or on the lean path"; exit 1; }
echo "generate $* --max-memory 1M: $((SECONDS - start)) s wall"
compare "$@"
start=$SECONDS
"$egtb" verify "$@" --dir "$dir"
echo "verify $*: $((SECONDS - start)) s wall"
