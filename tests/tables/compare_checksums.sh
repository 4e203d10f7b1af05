#!/usr/bin/env bash
# Compares the table files in DIR byte for byte with the SHA-256 sums in SUMS (lines of
# `sha256sum`: sum, two spaces, file name), which hold the files an earlier solver wrote: every
# listed file must be present and have its sum. The solver's data layout may change (file slices,
# packed results), its tables may not; a deliberate change of the file format or of the values
# regenerates SUMS (`cd DIR && sha256sum FILES > SUMS`) in the same commit and says why.
set -euo pipefail
dir=$1
sums=$2
cd "$dir"
sha256sum --check --strict --quiet "$sums"
echo "$(wc -l < "$sums") tables byte-identical to $sums"
