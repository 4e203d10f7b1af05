#!/usr/bin/env bash
# Solves 3-4-man tables of the three rule sets again another way and compares each file byte for
# byte with SUMS, the sums of the tables the solver wrote before (tables34.sha256). MODE:
#   sliced  every 4-man pawn table one slice at a time (`egtb generate --max-memory 1M`: every
#           table is estimated above 1 MB, so every pawn table with a digit pawn is sliced);
#   lean    every pawnless table on the lean path (the same limit: a table of one slice is then
#           solved without a depth byte in memory, retro/depth_records.hpp).
# Each table is built alone (--no-closure) beside links to the fixture's tables in TABLES, so only
# those tables are solved again. Fails when a table is not solved that way (its JSON record says
# "slices": 1, or "lean": false), when a sum differs, when a scratch file is left, or when no table
# was compared.
# Usage: resolve_compare.sh MODE EGTB TABLES SUMS [RULES [SIGNATURE...]]: RULES the rule sets,
# comma-separated (default all three), SIGNATURE... the tables (default every one MODE solves).
set -euo pipefail
mode=$1
egtb=$2
tables=$(realpath "$3")
sums=$(realpath "$4")
rule_sets=${5:-lasker,stalemate-wins,stalemate-passes}
shift $(($# < 5 ? $# : 5))
chosen=" $* "
dir=$(mktemp -d "${TMPDIR:-/tmp}/egtb-$mode.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# The signatures of rule-set suffix $1 in SUMS that MODE solves again.
signatures() {
  local names
  names=$(sed -n "s/^[0-9a-f]*  \([KQRBNPkqrbnp]*\)$1\.egtb\$/\1/p" "$sums")
  if [ "$mode" = sliced ]; then names=$(echo "$names" | awk 'length($0) == 4 && /[Pp]/'); else names=$(echo "$names" | grep -v '[Pp]'); fi
  echo "$names" | awk -v chosen="$chosen" 'chosen == "  " || index(chosen, " " $0 " ")'
}

# How the last table of JSON output $1 was solved, and "ok" when MODE's way: "24 slices, lean False ok".
solved_as() {
  python3 -c 'import json, sys
t = json.load(sys.stdin)["tables"][-1]
ok = t["slices"] > 1 if sys.argv[1] == "sliced" else t["lean"]
print(t["slices"], "slices, lean", t["lean"], "ok" if ok else "")' "$mode" <<<"$1"
}

compared=0
for rules in ${rule_sets//,/ }; do
  suffix=$([ "$rules" = lasker ] && echo "" || echo ".$rules")
  for signature in $(signatures "$suffix"); do
    rm -rf "$dir/t" && mkdir "$dir/t"
    ln -s "$tables"/*"$suffix".egtb "$dir/t/"
    rm "$dir/t/$signature$suffix.egtb"
    json=$("$egtb" generate "$signature" --rules "$rules" --no-closure --max-memory 1M --dir "$dir/t" --json)
    how=$(solved_as "$json")
    [[ "$how" == *ok ]] || { echo "$signature ($rules): not solved $mode ($how)"; exit 1; }
    (cd "$dir/t" && grep "  $signature$suffix.egtb\$" "$sums" | sha256sum --check --strict --quiet)
    [ -z "$(find "$dir/t" -name 'egtb-scratch.*')" ] || { echo "$signature ($rules): a scratch file was left"; exit 1; }
    echo "$signature ($rules): solved $mode ($how), byte-identical"
    compared=$((compared + 1))
  done
done
[ "$compared" -gt 0 ] || { echo "no table compared: $sums lists none to solve $mode"; exit 1; }
echo "$compared tables solved $mode, byte-identical to $sums"
