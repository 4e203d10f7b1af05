#!/usr/bin/env bash
# Verifies the 3- and 4-man tables in DIR of one PART, "pawnless" or "pawns" (two processes, so that
# ctest runs the two halves side by side: Gaviota's probing code takes one probe at a time per
# process): one ply forward, and against the Gaviota tables in GAVIOTA_DIR. Without those tables
# (or an egtb built without libgaviotatb, which answers --gaviota with a usage error, exit 2) the
# forward check runs alone and the test says SKIPPED, which ctest reports as skipped.
#   verify_tables.sh EGTB DIR GAVIOTA_DIR PART
set -uo pipefail
egtb=$1
dir=$2
gaviota=$3
part=$4
# The part's signatures, from the Lasker tables' file names (KPk.egtb, not KPk.stalemate-wins.egtb).
case $part in
  pawnless) pattern='^[KQRBNkqrbn]{3,4}\.egtb$' ;;
  pawns) pattern='^[KQRBNPkqrbnp]{3,4}\.egtb$' ;;
  *) echo "verify_tables.sh: PART must be pawnless or pawns, not '$part'" >&2; exit 2 ;;
esac
mapfile -t signatures < <(ls "$dir" | grep -E "$pattern" | grep -E "$([ "$part" = pawns ] && echo '[Pp]' || echo .)" |
  sed 's/\.egtb$//')
[ "${#signatures[@]}" -gt 0 ] || { echo "no $part 3-4-man table in $dir"; exit 1; }
echo "$part: ${#signatures[@]} tables"
if [ -d "$gaviota" ]; then
  "$egtb" verify "${signatures[@]}" --dir "$dir" --gaviota "$gaviota"
  status=$?
  [ "$status" -ne 2 ] && exit "$status"
  reason="this egtb was built without libgaviotatb"
else
  reason="no Gaviota tables at $gaviota"
fi
"$egtb" verify "${signatures[@]}" --dir "$dir" || exit 1
echo "SKIPPED: Gaviota comparison: $reason (the forward check above passed)"
