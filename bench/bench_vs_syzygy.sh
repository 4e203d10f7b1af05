#!/bin/bash
# Side by side: the time and memory of `egtb generate` beside Syzygy's generator (rtbgen for
# pawnless tables, rtbgenp with pawns) building the same tables on as many threads. egtb's
# run rebuilds the table (--force) with both metrics (DTM and DTS) and writes its file; Syzygy's
# runs with -g, which does the retrograde analysis its WDL and DTZ files (50-move rule) come from
# but neither compresses nor writes them, so the comparison leaves Syzygy's compression out. Each signature's
# subtables are built once, untimed: egtb's by `egtb generate SIG --dir` (which builds what SIG
# depends on, and SIG), Syzygy's WDL files by its generator with -w, one for each table it stops
# on as "Missing table", until `-g SIG` runs through. Then the runs alternate (egtb, Syzygy, egtb,
# ...), each timed by GNU time, and a Markdown table gives the medians of wall seconds, CPU seconds
# (user and system) and peak resident megabytes, the ratios egtb/Syzygy and the machine's load
# before and after: on a shared machine, CPU seconds say more than wall seconds. Nothing is
# downloaded: build Syzygy's generator from its public source (github.com/syzygy1/tb) with
# `make rtbgen rtbgenp` in its src/ directory (gcc, libzstd-dev; its Makefile asks for a BMI2 CPU)
# and pass that directory.
#   bench/bench_vs_syzygy.sh build/tools/egtb/egtb ~/tb/src /tmp/bench KQRkr KRPkr --runs 3
set -eu

usage() {
  cat >&2 <<'EOF'
Usage: bench_vs_syzygy.sh EGTB SYZYGY_DIR WORK_DIR [SIG...] [--runs N] [--threads N] [--max-memory SIZE]
  EGTB        the egtb binary
  SYZYGY_DIR  the directory holding Syzygy's rtbgen and rtbgenp
  WORK_DIR    where the tables and logs go (WORK_DIR/egtb, WORK_DIR/syzygy, WORK_DIR/logs)
  SIG...      signatures in egtb's spelling (default: KQRkr KRPkr)
  --runs N    timed runs of each tool per signature (default 3)
  --threads N threads of each tool (default 2)
  --max-memory SIZE  also time egtb with --max-memory SIZE (a pawn table solved in slices),
              in the same alternation
EOF
  exit 2
}

die() {
  echo "bench_vs_syzygy.sh: $*" >&2
  exit 1
}

runs=3
threads=2
max_memory=
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs | --threads)
      [ $# -ge 2 ] || usage
      [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 takes a positive whole number, not '$2'"
      if [ "$1" = --runs ]; then runs=$2; else threads=$2; fi
      shift 2
      ;;
    --max-memory)
      [ $# -ge 2 ] || usage
      max_memory=$2
      shift 2
      ;;
    -h | --help | -*) usage ;;
    *)
      args+=("$1")
      shift
      ;;
  esac
done
[ ${#args[@]} -ge 3 ] || usage
egtb=${args[0]}
syzygy_bin=${args[1]}
work=${args[2]}
signatures=("${args[@]:3}")
[ ${#signatures[@]} -gt 0 ] || signatures=(KQRkr KRPkr)

timer=/usr/bin/time
[ -x "$timer" ] || die "GNU time not found at $timer (Debian package: time)"
[ -x "$egtb" ] || die "egtb binary not found or not executable: $egtb"
for tool in rtbgen rtbgenp; do
  [ -x "$syzygy_bin/$tool" ] || die "Syzygy's $tool not found or not executable in $syzygy_bin" \
    "(build it with 'make rtbgen rtbgenp' in the src/ directory of github.com/syzygy1/tb)"
done
egtb=$(realpath "$egtb")
syzygy_bin=$(realpath "$syzygy_bin")
mkdir -p "$work/egtb" "$work/syzygy" "$work/logs"
work=$(realpath "$work")
egtb_dir=$work/egtb
syzygy_dir=$work/syzygy
logs=$work/logs

verbose=false
[ -t 1 ] && verbose=true
say() {
  if $verbose; then echo "$*"; fi
}

# Syzygy's name of a signature: each side's pieces in the order KQRBNP, the side with more men
# first, or with as many men the side whose pieces come first in that order. It takes egtb's
# spelling (KRPkr), the v spelling (KQvK) and Syzygy's names of either side first:
# KRPkr -> KRPvKR, KRkq -> KQvKR, KvKR -> KRvK.
syzygy_name() {
  local sig=$1 white black
  if [[ $sig == *v* ]]; then
    white=${sig%%v*}
    black=${sig#*v}
  else
    white=${sig%%[a-z]*}
    black=${sig#"$white"}
  fi
  white=$(side_key "${white^^}")
  black=$(side_key "${black^^}")
  if [ ${#black} -gt ${#white} ] || { [ ${#black} -eq ${#white} ] && [[ $black < $white ]]; }; then
    set -- "$black" "$white"
  else
    set -- "$white" "$black"
  fi
  local name
  name="$(tr 012345 KQRBNP <<<"$1")v$(tr 012345 KQRBNP <<<"$2")"
  [[ $name =~ ^K[QRBNP]*vK[QRBNP]*$ ]] || die "not a signature Syzygy can generate: $sig"
  echo "$name"
}

# One side's pieces as digits in Syzygy's order, K=0 Q=1 R=2 B=3 N=4 P=5, sorted: KRP -> 025.
side_key() {
  tr KQRBNP 012345 <<<"$1" | fold -w 1 | sort | tr -d '\n'
}

syzygy_tool() {
  if [[ $1 == *P* ]]; then echo "$syzygy_bin/rtbgenp"; else echo "$syzygy_bin/rtbgen"; fi
}

# Runs Syzygy's generator on table $1 with option $2 (-w: write its WDL file, -g: generate only)
# in $syzygy_dir, where it also reads subtables. When it stops on "Missing table: KvKR", builds that
# table (as KRvK) the same way with -w and tries again.
syzygy_with_subtables() {
  local name=$1 option=$2 log=$logs/syzygy-prepare-$1.log missing
  if [ "$option" = -w ] && [ -e "$syzygy_dir/$name.rtbw" ]; then return; fi
  say "  Syzygy $option $name"
  until (cd "$syzygy_dir" && RTBPATH=$syzygy_dir "$(syzygy_tool "$name")" -t "$threads" "$option" \
    "$name") >"$log" 2>&1; do
    missing=$(sed -n 's/.*Missing table: \(K[KQRBNPv]*\).*/\1/p' "$log" | head -n 1)
    [ -n "$missing" ] || die "Syzygy's generator failed on $name; see $log: $(tail -n 3 "$log")"
    missing=$(syzygy_name "$missing")
    [ ! -e "$syzygy_dir/$missing.rtbw" ] || die "Syzygy misses $missing although present; see $log"
    syzygy_with_subtables "$missing" -w
  done
}

# Runs a command under GNU time, its output in log $1, and appends "wall cpu peak_mb" to file $2.
timed() {
  local log=$1 figures=$2 times=$1.time
  shift 2
  "$timer" -f '%e %U %S %M' -o "$times" "$@" >"$log" 2>&1 ||
    die "failed: $*; see $log: $(tail -n 3 "$log")"
  awk '{ printf "%.2f %.2f %.1f\n", $1, $2 + $3, $4 / 1024 }' "$times" >>"$figures"
}

# The median of column $2 of file $1, printed in printf format $3.
median() {
  cut -d ' ' -f "$2" "$1" | sort -g | awk -v format="$3" '{ v[NR] = $1 }
    END { printf format, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.2f" : "n/a"), (b > 0 ? a / b : 0) }'
}

for sig in "${signatures[@]}"; do syzygy_name "$sig" >/dev/null; done
rows=()
loads=()
for sig in "${signatures[@]}"; do
  name=$(syzygy_name "$sig")
  syzygy_gen=$(syzygy_tool "$name")
  say "$sig: preparing subtables (untimed)"
  say "  egtb generate $sig --dir $egtb_dir"
  "$egtb" generate "$sig" --dir "$egtb_dir" --threads "$threads" >"$logs/egtb-prepare-$sig.log" 2>&1 ||
    die "egtb generate $sig failed; see $logs/egtb-prepare-$sig.log"
  syzygy_with_subtables "$name" -g

  egtb_figures=$logs/egtb-$sig.figures
  syzygy_figures=$logs/syzygy-$name.figures
  : >"$egtb_figures"
  : >"$syzygy_figures"
  sliced_figures="$logs/egtb-sliced-$sig.figures"
  : >"$sliced_figures"
  load_before=$(uptime)
  for run in $(seq "$runs"); do
    say "$sig: run $run of $runs: egtb generate --force, then $(basename "$syzygy_gen") -g $name"
    timed "$logs/egtb-$sig-$run.log" "$egtb_figures" \
      "$egtb" generate "$sig" --force --dir "$egtb_dir" --threads "$threads"
    if [ -n "$max_memory" ]; then
      timed "$logs/egtb-sliced-$sig-$run.log" "$sliced_figures" \
        "$egtb" generate "$sig" --force --dir "$egtb_dir" --threads "$threads" --max-memory "$max_memory"
    fi
    (cd "$syzygy_dir" && timed "$logs/syzygy-$name-$run.log" "$syzygy_figures" \
      env RTBPATH="$syzygy_dir" "$syzygy_gen" -t "$threads" -g "$name")
  done

  e_wall=$(median "$egtb_figures" 1 %.2f)
  e_cpu=$(median "$egtb_figures" 2 %.2f)
  e_mb=$(median "$egtb_figures" 3 %.0f)
  s_wall=$(median "$syzygy_figures" 1 %.2f)
  s_cpu=$(median "$syzygy_figures" 2 %.2f)
  s_mb=$(median "$syzygy_figures" 3 %.0f)
  rows+=("| $sig | egtb generate --force (DTM+DTS, writes the file) | $e_wall | $e_cpu | $e_mb | $(
    ratio "$e_wall" "$s_wall") | $(ratio "$e_cpu" "$s_cpu") | $(ratio "$e_mb" "$s_mb") |")
  if [ -n "$max_memory" ]; then
    m_wall=$(median "$sliced_figures" 1 %.2f)
    m_cpu=$(median "$sliced_figures" 2 %.2f)
    m_mb=$(median "$sliced_figures" 3 %.0f)
    rows+=("| $sig | egtb generate --force --max-memory $max_memory | $m_wall | $m_cpu | $m_mb | $(
      ratio "$m_wall" "$s_wall") | $(ratio "$m_cpu" "$s_cpu") | $(ratio "$m_mb" "$s_mb") |")
  fi
  rows+=("| $name | Syzygy $(basename "$syzygy_gen") -g (WDL+DTZ, no compression, no file) | $s_wall | $s_cpu | $s_mb | | | |")
  loads+=("Load before the $sig runs: $load_before" "Load after the $sig runs: $(uptime)")
done

echo "Medians of $runs alternating runs each, $threads threads (egtb --threads $threads," \
  "Syzygy -t $threads), $(nproc) cores: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)."
echo
echo "| table | tool | wall s | CPU s | peak MB | egtb/Syzygy wall | egtb/Syzygy CPU | egtb/Syzygy memory |"
echo "|---|---|--:|--:|--:|--:|--:|--:|"
for row in "${rows[@]}"; do echo "$row"; done
echo
for line in "${loads[@]}"; do echo "$line"; done
