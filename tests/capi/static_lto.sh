#!/usr/bin/env bash
# libegtb.a as a build without the tests makes it (capi/CMakeLists.txt): its objects hold only
# GCC's intermediate code, so the static library is one link-time optimised relocatable link,
# which a build with the tests (fat objects) never runs. Configures such a build of SOURCE in a
# temporary directory, builds the C libraries, installs them, compiles capi_check.c against
# egtb-static.pc and probes TABLES with it: the static library must hold no intermediate code and
# probe as REFERENCE (the tested build's capi_check) does.   static_lto.sh SOURCE TABLES CMAKE REFERENCE
set -euo pipefail
source=$1
tables=$2
cmake=$3
reference=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cmake" -S "$source" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEGTB_BUILD_TESTS=OFF \
  -DEGTB_PYTHON_MODULE=OFF > "$work/configure.log"
"$cmake" --build "$work/build" --target egtb_capi egtb_capi_static > "$work/build.log" ||
  { tail -30 "$work/build.log"; exit 1; }
grep -q -- "-flto-partition=one" "$work/build/build.ninja" ||
  { echo "libegtb.a was not linked with link-time optimisation"; exit 1; }
if objdump -h "$work/build/capi/egtb_static.o" | grep -q "gnu\.lto"; then
  echo "egtb_static.o still holds GCC's intermediate code"; exit 1
fi
"$cmake" --install "$work/build" --prefix "$work/prefix" --component capi > /dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -pedantic -Werror -o "$work/capi_check" "$(dirname "$0")/capi_check.c" \
  $(pkg-config --cflags --libs egtb-static) -pthread
# Its probes (value, depths and every root move) are those of REFERENCE, the capi_check of the
# tested build; the first, KQk, is White's mate in one (Qb8#).
fens=$'7k/8/6K1/8/8/8/8/1Q6 w - - 0 1\n8/8/8/4k3/8/8/2P5/4K3 w - - 0 1\n8/3k4/8/8/8/2R5/1p6/4K3 b - - 0 1\n'
got=$(printf "%s" "$fens" | "$work/capi_check" probe "$tables")
expected=$(printf "%s" "$fens" | "$reference" probe "$tables")
[ "$got" = "$expected" ] || { echo "the statically linked probes differ:"; diff <(echo "$got") <(echo "$expected"); exit 1; }
[[ "$got" == "0 4 1 -1|b1b8 4 1 -1|"* ]] || { echo "not Qb8#: ${got%%$'\n'*}"; exit 1; }
echo "libegtb.a, link-time optimised: its probes are the tested build's ($(wc -l <<< "$got") positions)"
