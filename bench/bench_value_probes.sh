#!/bin/bash
# Nanoseconds per probe from C of the full probe (egtb_probe: value and depth, a zstd block decoded
# where the block cache does not hold it) and the value probe (egtb_probe_value: the value files,
# SIG.egv, probed in memory), over one list of random placements of the signatures given, one
# thread, each on a tablebase opened cold (a cache of 1 GiB): the first pass opens the tables (and
# reads the value files whole) as it goes, the second finds everything open. Illegal placements
# are probed too and counted out of "ok" (as they fail). The program is tests/capi/capi_check.c
# ("time" mode), built as build/tests/capi/capi_check. The value files must be in DIR (`egtb
# recompress --all N --value-files --dir DIR`).
#   bench/bench_value_probes.sh build/tests/capi/capi_check build/test-tables 100000 1 KQk KRkr ...
set -eu

[ $# -ge 5 ] || {
  echo "usage: bench_value_probes.sh CAPI_CHECK DIR COUNT SEED SIG..." >&2
  exit 2
}
capi_check=$1
dir=$2
count=$3
seed=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
positions=$(mktemp)
trap 'rm -f "$positions"' EXIT
python3 "$here/random_placements.py" "$count" "$@" --seed "$seed" > "$positions"

echo "$count random placements of $# signatures ($*), seed $seed, $dir; ns per probe, one thread"
echo
echo "| probe | first pass ns | warm ns | answered |"
echo "|---|---|---|---|"
for kind in full value; do
  # "first_pass_ns N warm_ns N probes N ok N"
  read -r _ first _ warm _ probes _ ok < <("$capi_check" time "$dir" "$kind" < "$positions")
  name=$([ "$kind" = full ] && echo "egtb_probe (value and depth)" || echo "egtb_probe_value (value files)")
  echo "| $name | $first | $warm | $ok of $probes |"
done
