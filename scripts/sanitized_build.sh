#!/usr/bin/env bash
# Configures build-fuzz, the sanitized build that scripts/fuzz.sh and scripts/sanitize.sh share
# (clang 16, RelWithDebInfo without LTO, AddressSanitizer and UndefinedBehaviorSanitizer, the
# latter stopping at its first report, and libFuzzer's coverage instrumentation), so that the
# libraries are compiled once for the fuzz targets and the sanitized tests; then builds the
# targets given. Usage: bash scripts/sanitized_build.sh TARGET...
set -euo pipefail
cd "$(dirname "$0")/.."

cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-16 -DEGTB_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEGTB_LTO=OFF -DEGTB_PYTHON_MODULE=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fconstexpr-steps=100000000" \
  > /dev/null
cmake --build build-fuzz --target "$@"
