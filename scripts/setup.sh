#!/bin/sh
# Sets up and builds egtb on Debian 12: installs the missing Debian packages (as root, or through
# sudo) and the npm packages of the browser tests, configures with CMake and Ninja into ./build
# (Release) and builds everything.
# Extra arguments go to the CMake configure step, e.g. -DEGTB_WARNINGS_AS_ERRORS=ON.
# Used by the two commands at the top of README.md and by .ci/run.
set -eu

PACKAGES="cmake g++ ninja-build libtbb-dev libzstd-dev libxxhash-dev catch2
  libboost-program-options-dev libboost-dev nlohmann-json3-dev libfmt-dev stockfish libgaviotatb-dev
  clang-format libxml2-utils python3 pkg-config python3-dev pybind11-dev curl wrk chromium pgn-extract make"

cd "$(dirname "$0")/.."

missing=""
for package in $PACKAGES; do
  dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $package"
done
# Node.js for the browser tests (tests/web): Debian's nodejs and npm, unless a node is already there.
command -v node >/dev/null || missing="$missing nodejs"
command -v npm >/dev/null || missing="$missing npm"
if [ -n "$missing" ]; then
  as_root=""
  [ "$(id -u)" -eq 0 ] || as_root=sudo
  $as_root apt-get update
  # shellcheck disable=SC2086 # one word per package
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

# The browser tests' npm packages (playwright-core, which drives Debian's chromium), as locked in
# tests/web/package-lock.json; without them those tests are skipped, not failed.
if ! (cd tests/web && npm ci --no-audit --no-fund --loglevel=error); then
  echo "setup: npm ci in tests/web failed: the browser tests will be skipped" >&2
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build
