#!/bin/bash
# tests/cli/cli_doc.sh must catch what it is for: a help block edited by hand, a command without
# a section, a section of no command; and --write must restore the page exactly.
# Usage: bash tests/cli/cli_doc_selftest.sh EGTB DOC
# It works on a copy of DOC brought up to date first, so it tests the check, not the page (the test
# cli:doc does that).
set -euo pipefail
egtb=$1
check=$(dirname "$0")/cli_doc.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
doc=$work/page.md
cp "$2" "$doc"
bash "$check" "$egtb" "$doc" --write > /dev/null

# One page with three faults: a line of generate's block changed, probe's section gone (its
# heading renamed away), a section of a command egtb does not have. The check must fail naming all
# three.
awk '/^## `egtb generate`$/ {on = 1} on && /--dir DIR/ && !done {sub(/table directory/, "the table directory"); done = 1} {print}' \
  "$doc" > "$work/edited.md"
cmp -s "$doc" "$work/edited.md" && { echo "FAIL: could not edit generate's block"; exit 1; }
sed 's/^## `egtb probe`$/## Probing/' "$work/edited.md" > "$work/faults.md"
printf '\n## `egtb nonsense`\n\n```text\nUsage: egtb nonsense\n```\n' >> "$work/faults.md"
if bash "$check" "$egtb" "$work/faults.md" > "$work/faults.out" 2>&1; then
  echo "FAIL: the check passed on a page with three faults"; exit 1
fi
for word in '`egtb generate`' '`egtb probe`' '`egtb nonsense`'; do
  grep -qF -- "$word" "$work/faults.out" || { echo "FAIL: the check does not name $word:"; cat "$work/faults.out"; exit 1; }
  echo "ok: the check names $word"
done
if grep -qF -- '`egtb info`' "$work/faults.out"; then
  echo "FAIL: the check blames a block that is right:"; cat "$work/faults.out"; exit 1
fi

# --write puts the edited block back as it was, prose untouched.
bash "$check" "$egtb" "$work/edited.md" --write > /dev/null
cmp "$doc" "$work/edited.md" || { echo "FAIL: --write did not restore the page"; exit 1; }
echo "ok: --write restores the page"

# --write gives a command without a section one at the end, and the page then passes.
sed 's/^## `egtb probe`$/## Probing/' "$doc" > "$work/missing.md"
bash "$check" "$egtb" "$work/missing.md" --write > /dev/null 2>&1 || { echo "FAIL: --write left probe out"; exit 1; }
grep -qx '## `egtb probe`' "$work/missing.md" || { echo "FAIL: --write added no section for egtb probe"; exit 1; }
echo "ok: --write adds a missing section"
