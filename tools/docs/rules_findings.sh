#!/bin/sh
# Writes docs/rules-findings.md: every table of 3 to MEN men under the three rule sets side by side
# (`egtb compare`: values that change, deepest wins per winner, examples with optimal lines). The
# tables of the three rule sets are built into DIR first (tables present and valid are kept).
#   tools/docs/rules_findings.sh [MEN] [DIR] [BUILD]
# MEN defaults to 4, DIR to ./tables, BUILD to ./build. Signatures beyond 4 men may be listed in
# EGTB_FINDINGS_EXTRA (e.g. "KQRkr KRPkr"): their tables are built and compared too.
set -eu
men=${1:-4}
dir=${2:-tables}
build=${3:-./build}
egtb=$build/tools/egtb/egtb
out=docs/rules-findings.md
extra=${EGTB_FINDINGS_EXTRA:-}

for rules in lasker stalemate-wins stalemate-passes; do
  # shellcheck disable=SC2086 # the extra signatures are separate words
  "$egtb" generate --all "$men" $extra --rules "$rules" --dir "$dir" > /dev/null
done

mkdir -p docs
{
  echo "# Lasker chess and the article's two other rule sets, side by side"
  echo
  echo "Every table of 3 to $men men${extra:+ and $extra}, built under \`lasker\`, \`stalemate-wins\` and"
  echo "\`stalemate-passes\` (docs/rules.md). Written by \`tools/docs/rules_findings.sh $men\`"
  echo "with \`egtb compare\` ($("$egtb" --version)); positions count the index462 convention, both sides"
  echo "to move; depths are plies."
  echo
  # shellcheck disable=SC2086
  "$egtb" compare --all "$men" $extra --dir "$dir"
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
