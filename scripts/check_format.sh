#!/usr/bin/env bash
# Checks that every C++ source and header of the repository (outside .git and build directories)
# is formatted as .clang-format says; prints each violation and exits non-zero if there is one.
# Run by .ci/run and by the fast test suite (ctest test lint:format).
#   bash scripts/check_format.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check_format.sh: clang-format is not installed (scripts/setup.sh installs it)" >&2; exit 2; }
find . \( -path ./.git -o -path './build*' \) -prune -o \( -name '*.cpp' -o -name '*.hpp' \) -print0 |
  xargs -0 clang-format --dry-run --Werror
