#!/usr/bin/env bash
# libegtb.a as a build without the tests makes it (capi/CMakeLists.txt): its objects hold only
# GCC's intermediate code, so the static library is one link-time optimised relocatable link,
# which a build with the tests (fat objects) never runs. Configures such a build of SOURCE in a
# temporary directory, builds the C libraries, installs them, links a C program against
# egtb-static.pc and probes TABLES with it: the static library must hold no intermediate code and
# answer a probe.   static_lto.sh SOURCE TABLES CMAKE
set -euo pipefail
source=$1
tables=$2
cmake=$3
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
cat > "$work/probe.c" <<'C'
#include <egtb.h>
#include <stdio.h>
int main(int argc, char **argv) {
  char error[512];
  egtb_tablebase *tb = egtb_open(argv[1], 16, error, sizeof error);
  if (!tb) { fprintf(stderr, "%s\n", error); return 1; }
  egtb_result r;
  const int status = egtb_probe_fen(tb, argv[2], &r);
  printf("%s %d %d\n", egtb_status_name(status), r.lasker, r.dtm);
  egtb_close(tb);
  return status == EGTB_OK ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror "$work/probe.c" $(pkg-config --cflags --libs egtb-static) -o "$work/probe"
# KQk, White to mate in one: Qb8#.
out=$("$work/probe" "$tables" "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
[ "$out" = "ok 4 1" ] || { echo "the statically linked probe said '$out', expected 'ok 4 1'"; exit 1; }
echo "libegtb.a, link-time optimised: a probe linked against it answers: $out"
