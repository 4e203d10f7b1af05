#!/bin/sh
# Sets up egtb on Debian 12 (as root, or through sudo): installs the Debian packages that are
# missing, configures with CMake and Ninja into ./build (Release) and builds. The two commands at
# the top of README.md:
#   sh scripts/setup.sh            the packages egtb needs, and only the egtb program
#   sh scripts/setup.sh --tests    also those of the tests (chromium, Node.js and `npm ci` in
#                                  tests/web, stockfish, pgn-extract, Gaviota, pybind11, wrk, ...),
#                                  and every target: the tests, the C library, the Python module
# Both can run again (nothing present is installed twice) and in either order. Other arguments go
# to the CMake configure step, e.g. -DEGTB_WARNINGS_AS_ERRORS=ON (.ci/run).
set -eu

# What building the egtb program needs (make: GCC's link-time optimisation runs its partitions in
# parallel through it, serially without).
PACKAGES="cmake g++ make ninja-build libtbb-dev libzstd-dev libxxhash-dev libboost-program-options-dev
  libboost-dev nlohmann-json3-dev"
# What the tests, the C library and the Python module need besides: Catch2, the oracles (Stockfish,
# Gaviota's probing code, pgn-extract), the formatting check, the tools the test scripts call, the
# Python module's headers and what pip install uses, the browser tests' Chromium and Node.js.
TEST_PACKAGES="catch2 stockfish libgaviotatb-dev pgn-extract clang-format libxml2-utils python3
  python3-dev pybind11-dev python3-pip python3-venv python3-setuptools pkg-config curl wrk chromium"

tests=false
if [ "${1-}" = --tests ]; then
  tests=true
  shift
fi
cd "$(dirname "$0")/.."

wanted=$PACKAGES
$tests && wanted="$wanted $TEST_PACKAGES"
missing=""
for package in $wanted; do
  dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $package"
done
# Node.js for the browser tests: Debian's nodejs and npm, unless a node is already there.
if $tests; then
  command -v node >/dev/null || missing="$missing nodejs"
  command -v npm >/dev/null || missing="$missing npm"
fi
if [ -n "$missing" ]; then
  as_root=""
  [ "$(id -u)" -eq 0 ] || as_root=sudo
  $as_root apt-get update
  # shellcheck disable=SC2086 # one word per package
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

if $tests; then
  # The browser tests' npm packages (playwright-core, which drives Debian's chromium), as locked in
  # tests/web/package-lock.json; without them those tests are skipped, not failed.
  if ! (cd tests/web && npm ci --no-audit --no-fund --loglevel=error); then
    echo "setup: npm ci in tests/web failed: the browser tests will be skipped" >&2
  fi
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DEGTB_BUILD_TESTS=ON "$@"
  cmake --build build
else
  # The tests are configured only if they were before (setup.sh --tests) or Catch2 is installed.
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build build --target egtb
fi
