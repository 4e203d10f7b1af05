#!/usr/bin/env bash
# Solves every 4-man pawn table of the three rule sets one slice at a time (`egtb generate
# --max-memory 1M`: every table is estimated above 1 MB, so every pawn table with a digit pawn is
# sliced) and compares each file byte for byte with SUMS, the sums of the tables the solver wrote
# before slices (tables34.sha256). Each table is built alone (--no-closure) beside links to the
# fixture's tables in TABLES, so only the pawn tables are solved again. Fails when a table is not
# sliced (its JSON record says "slices": 1), when a sum differs, or when no table was compared.
# Usage: sliced_compare.sh EGTB TABLES SUMS [RULES [SIGNATURE...]]: RULES the rule sets, comma-
# separated (default all three), SIGNATURE... the tables (default every 4-man pawn table in SUMS).
set -euo pipefail
egtb=$1
tables=$(realpath "$2")
sums=$(realpath "$3")
rule_sets=${4:-lasker,stalemate-wins,stalemate-passes}
shift $(($# < 4 ? $# : 4))
chosen="$*"
dir=$(mktemp -d "${TMPDIR:-/tmp}/egtb-sliced.XXXXXX")
trap 'rm -rf "$dir"' EXIT

compared=0
for rules in ${rule_sets//,/ }; do
  suffix=$([ "$rules" = lasker ] && echo "" || echo ".$rules")
  # The 4-man signatures with a pawn of this rule set, from the file names in SUMS.
  signatures=$(sed -n "s/^[0-9a-f]*  \([KQRBNPkqrbnp]*\)$suffix\.egtb\$/\1/p" "$sums" |
    awk -v chosen=" $chosen " 'length($0) == 4 && /[Pp]/ && (chosen == "  " || index(chosen, " " $0 " "))')
  for signature in $signatures; do
    rm -rf "$dir/t" && mkdir "$dir/t"
    ln -s "$tables"/*"$suffix".egtb "$dir/t/"
    rm "$dir/t/$signature$suffix.egtb"
    json=$("$egtb" generate "$signature" --rules "$rules" --no-closure --max-memory 1M --dir "$dir/t" --json)
    slices=$(echo "$json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tables"][-1]["slices"])')
    if [ "$slices" -lt 2 ]; then
      echo "$signature ($rules): solved in $slices slice, not sliced"
      exit 1
    fi
    (cd "$dir/t" && grep "  $signature$suffix.egtb\$" "$sums" | sha256sum --check --strict --quiet)
    echo "$signature ($rules): $slices slices, byte-identical"
    compared=$((compared + 1))
  done
done
[ "$compared" -gt 0 ] || { echo "no table compared: $sums lists no 4-man pawn table"; exit 1; }
echo "$compared tables solved in slices, byte-identical to $sums"
