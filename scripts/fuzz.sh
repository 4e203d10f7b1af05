#!/usr/bin/env bash
# Builds the libFuzzer targets with clang 16 into build-fuzz (address and undefined-behaviour
# sanitizers: scripts/sanitized_build.sh) and runs each for SECONDS (default 45) on its seed
# corpus (tests/fuzz/corpus/*), as many targets at a time as there are cores, new inputs going to
# build-fuzz/corpus-* (the seeds stay as they are). Prints the executions of each target; a
# target stops at its first finding, which libFuzzer leaves as crash-*, leak-* or timeout-* in the
# working directory (its log: build-fuzz/TARGET.log), and fails the run.
# Usage: bash scripts/fuzz.sh [SECONDS]. Used by .ci/run; docs/testing.md, "Fuzzing and sanitizers", says more.
set -euo pipefail
seconds=${1:-45}
cd "$(dirname "$0")/.."

# The targets, one a line: the program under build-fuzz/tests and its seed corpus under
# tests/fuzz/corpus (a new target is a new line here and in tests/fuzz or tests/query).
targets=(
  query/fuzz_query_parser:query
  query/fuzz_query_eval:query
  fuzz/fuzz_fen:fen
  fuzz/fuzz_table_reader:table
  fuzz/fuzz_value_file:value
  fuzz/fuzz_pgn:pgn
  fuzz/fuzz_http:http
)
names=()
for spec in "${targets[@]}"; do
  target=${spec%%:*}
  names+=("${target##*/}")
done
bash scripts/sanitized_build.sh "${names[@]}"

# A report of undefined behaviour stops the target like a crash (-fno-sanitize-recover=undefined),
# with its stack.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# fuzz_one TARGET CORPUS: fuzzes one target for SECONDS; its status is libFuzzer's.
fuzz_one() {
  mkdir -p "build-fuzz/corpus-$2"
  "build-fuzz/tests/$1" "build-fuzz/corpus-$2" "tests/fuzz/corpus/$2" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    > "build-fuzz/${1##*/}.log" 2>&1
}
# The targets run as many at a time as there are cores (each fuzzes on one), then report in order.
declare -A pids
for spec in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  fuzz_one "${spec%%:*}" "${spec##*:}" &
  pids[$spec]=$!
done
status=0
for spec in "${targets[@]}"; do
  target=${spec%%:*}
  name=${target##*/}
  if wait "${pids[$spec]}"; then
    echo "fuzz: $name: $(grep -o 'stat::number_of_executed_units: [0-9]*' "build-fuzz/$name.log" |
      grep -o '[0-9]*$') executions in $seconds s, nothing found"
  else
    status=1
    echo "fuzz: $name FOUND A PROBLEM (build-fuzz/$name.log):"
    grep -E '==[0-9]+==|SUMMARY|Test unit written|runtime error' "build-fuzz/$name.log" | head -20
  fi
done
exit $status
