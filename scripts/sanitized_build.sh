#!/usr/bin/env bash
# Configures build-fuzz, the sanitized build that scripts/fuzz.sh and scripts/sanitize.sh share
# (clang 16, RelWithDebInfo without LTO, AddressSanitizer and UndefinedBehaviorSanitizer, the
# latter stopping at its first report, and libFuzzer's coverage instrumentation), so that the
# libraries are compiled once for the fuzz targets and the sanitized tests; then builds the
# targets given. Its debug information is line tables only (-gline-tables-only), all that the
# sanitizers' stack traces print (functions, inlined ones too, files and lines): the full -g of
# RelWithDebInfo costs a fifth more compile time (the api library's first batch: 51 against 40
# CPU s). Usage: bash scripts/sanitized_build.sh TARGET...
set -euo pipefail
cd "$(dirname "$0")/.."

cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-16 -DEGTB_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
  -DEGTB_LTO=OFF -DEGTB_PYTHON_MODULE=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fconstexpr-steps=100000000" \
  > /dev/null
cmake --build build-fuzz --target "$@"
