#!/bin/sh
# Sets up and builds egtb on Debian 12: installs the missing Debian packages (as root, or through
# sudo), configures with CMake and Ninja into ./build (Release) and builds everything.
# Extra arguments go to the CMake configure step, e.g. -DEGTB_WARNINGS_AS_ERRORS=ON.
# Used by the two commands at the top of README.md and by .ci/run.
set -eu

PACKAGES="cmake g++ ninja-build libtbb-dev libzstd-dev libxxhash-dev catch2
  libboost-program-options-dev nlohmann-json3-dev libfmt-dev stockfish libgaviotatb-dev clang-format
  libxml2-utils pgn-extract"

cd "$(dirname "$0")/.."

missing=""
for package in $PACKAGES; do
  dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $package"
done
if [ -n "$missing" ]; then
  as_root=""
  [ "$(id -u)" -eq 0 ] || as_root=sudo
  $as_root apt-get update
  # shellcheck disable=SC2086 # one word per package
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build
