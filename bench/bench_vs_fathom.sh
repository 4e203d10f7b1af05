#!/bin/bash
# egtb's probes beside Fathom's WDL probe of Syzygy files, from C, one thread, over one list of
# positions: egtb_probe_value (the value files, SIG.egv) and egtb_probe (value and depth) timed by
# tests/capi/capi_check.c's time mode, Fathom's tb_probe_wdl by bench/fathom_probe.c, which this
# script compiles with Fathom's source (github.com/jdart1/Fathom; it is not part of egtb, and
# nothing is downloaded: pass the src/ directory of a copy). Each run opens its tables cold (egtb
# a 1 GiB block cache, Fathom tb_init) and probes the list twice: the first pass opens or maps the
# tables as it goes, the second finds them open. The files themselves stay in the system's page
# cache from run to run.
#
# The list: COUNT random placements of the signatures (bench/random_placements.py, SEED), no
# castling rights, e.p. square or halfmove clock. Their values are compared first, over the whole
# list: egtb's value probe (capi_check value, which also checks it against egtb's full probe)
# beside Fathom's WDL, a Lasker 4 being a Syzygy win (2, or a cursed win 1: Fathom's WDL counts the
# 50-move rule, egtb's tables do not), 0 a loss (-2 or -1) and 3, 2 or 1 a draw (0). Illegal
# placements (the side not to move in check, the kings side by side) must be refused by egtb and
# are not probed with Fathom, whose tb_probe_wdl does not check legality; a position answered by
# one and not the other is a disagreement too. Then the legal placements alone are timed (so all
# three probe the same positions, every one answered), alternating egtb value, egtb full, Fathom,
# for --runs rounds, and a Markdown table gives the median and range of the nanoseconds per probe.
# Exits 1 on any disagreement. With --before-library DIR the value probe of a library built
# before a change is timed too, over the same files, first in each round.
#   bench/bench_vs_fathom.sh ~/Fathom/src ~/syzygy ~/egtb-tables build/tests/capi/capi_check \
#     100000 1 KQk KRk ... --runs 3
set -eu

usage() {
  cat <<'EOF'
Usage: bench_vs_fathom.sh FATHOM_SRC SYZYGY_DIR EGTB_DIR CAPI_CHECK COUNT SEED SIG... [--runs N]
                          [--before-library DIR]
  FATHOM_SRC  the directory holding Fathom's tbprobe.c and tbprobe.h (its src/)
  SYZYGY_DIR  the Syzygy WDL files (.rtbw) of the signatures and of what their captures reach
  EGTB_DIR    egtb's tables with their value files (egtb recompress --value-files)
  CAPI_CHECK  build/tests/capi/capi_check
  COUNT       random placements (bench/random_placements.py), of which the legal ones are timed
  SEED        the placements' seed
  SIG...      signatures in egtb's spelling (KQk, KRPkr)
  --runs N    rounds of the three probes (default 3)
  --before-library DIR  also time egtb_probe_value with the libegtb.so.0 in DIR (a build before a
              change, through LD_LIBRARY_PATH), first in each round
EOF
}

die() {
  echo "bench_vs_fathom.sh: $*" >&2
  exit 1
}

runs=3
before=
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs)
      [ $# -ge 2 ] || die "--runs takes a number"
      [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive whole number, not '$2'"
      runs=$2
      shift 2
      ;;
    --before-library)
      [ $# -ge 2 ] || die "--before-library takes a directory"
      [ -f "$2/libegtb.so.0" ] || die "no libegtb.so.0 in '$2'"
      before=$(cd "$2" && pwd)
      shift 2
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*) die "unknown option '$1' (--help lists them)" ;;
    *)
      args+=("$1")
      shift
      ;;
  esac
done
[ ${#args[@]} -ge 7 ] || die "expected FATHOM_SRC SYZYGY_DIR EGTB_DIR CAPI_CHECK COUNT SEED SIG..., got ${#args[@]} arguments (--help)"
fathom=${args[0]}
syzygy=${args[1]}
egtb_dir=${args[2]}
capi_check=${args[3]}
count=${args[4]}
seed=${args[5]}
signatures=("${args[@]:6}")
{ [ -f "$fathom/tbprobe.c" ] && [ -f "$fathom/tbprobe.h" ]; } ||
  die "no tbprobe.c and tbprobe.h in FATHOM_SRC '$fathom'"
[ -d "$syzygy" ] || die "SYZYGY_DIR '$syzygy' is not a directory"
[ -d "$egtb_dir" ] || die "EGTB_DIR '$egtb_dir' is not a directory"
[ -x "$capi_check" ] || die "CAPI_CHECK '$capi_check' is not an executable (build the target capi_check)"
[[ $count =~ ^[1-9][0-9]*$ ]] || die "COUNT is a positive whole number, not '$count'"
[[ $seed =~ ^[0-9]+$ ]] || die "SEED is a whole number, not '$seed'"
command -v cc > /dev/null || die "no C compiler (cc) found"

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# -march as egtb's own build (cmake/EgtbSettings.cmake), so that both have the same instructions.
cc -O2 -march=x86-64-v2 -std=gnu11 -pthread -I "$here/../tests/capi" -I "$fathom" -o "$tmp/fathom_probe" "$here/fathom_probe.c" \
  "$fathom/tbprobe.c" || die "compiling fathom_probe.c with $fathom/tbprobe.c failed"
python3 "$here/random_placements.py" "$count" "${signatures[@]}" --seed "$seed" > "$tmp/all.epd"

# Values, over every placement. capi_check value prints "status lasker", fathom_probe wdl 0-4 or -.
"$capi_check" value "$egtb_dir" < "$tmp/all.epd" > "$tmp/egtb.values" ||
  die "capi_check value failed: egtb's value probe disagrees with its full probe (above), or $egtb_dir cannot be opened"
"$tmp/fathom_probe" wdl "$syzygy" < "$tmp/all.epd" > "$tmp/fathom.wdl" ||
  die "fathom_probe wdl failed (above): no Syzygy files in $syzygy?"
read -r compared disagreements wins draws losses cursed < <(
  paste -d ' ' "$tmp/egtb.values" "$tmp/fathom.wdl" "$tmp/all.epd" | awk '
    function syzygy(w) { return w >= 3 ? "win" : w <= 1 ? "loss" : "draw" }
    function lasker(v) { return v == 4 ? "win" : v == 0 ? "loss" : "draw" }
    {
      egtb = $1 == 0 ? lasker($2) : "-"
      fathom = $3 == "-" ? "-" : syzygy($3)
      if (egtb != fathom) {
        if (++bad <= 10) printf "disagreement: egtb status %s lasker %s, Fathom %s: %s\n", $1, $2, $3, substr($0, index($0, $4)) > "/dev/stderr"
        next
      }
      if (egtb == "-") next
      ++n; ++count[egtb]; cursed += $3 == 1 || $3 == 3
    }
    END { print n + 0, bad + 0, count["win"] + 0, count["draw"] + 0, count["loss"] + 0, cursed + 0 }')

# Timings, over the legal placements.
"$tmp/fathom_probe" legal < "$tmp/all.epd" > "$tmp/legal.epd"
legal=$(wc -l < "$tmp/legal.epd")
declare -A first warm answered
kinds=(value full fathom)
[ -z "$before" ] || kinds=(before "${kinds[@]}")
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)
for ((run = 1; run <= runs; ++run)); do
  for kind in "${kinds[@]}"; do
    if [ "$kind" = fathom ]; then
      line=$("$tmp/fathom_probe" time "$syzygy" < "$tmp/legal.epd")
    elif [ "$kind" = before ]; then
      line=$(LD_LIBRARY_PATH=$before "$capi_check" time "$egtb_dir" value < "$tmp/legal.epd")
    else
      line=$("$capi_check" time "$egtb_dir" "$kind" < "$tmp/legal.epd")
    fi
    # "first_pass_ns N warm_ns N probes N ok N"
    read -r _ f _ w _ _ _ ok <<< "$line"
    first[$kind]+="$f "
    warm[$kind]+="$w "
    answered[$kind]=$ok
  done
done

# "median (min-max)" of whole numbers.
summary() {
  tr ' ' '\n' <<< "$1" | grep . | sort -n | awk '{ v[NR] = $1 }
    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          if (NR > 1) printf "%.0f (%d-%d)", m, v[1], v[NR]; else printf "%.0f", m }'
}

echo "$count random placements of ${#signatures[@]} signatures (${signatures[*]}), seed $seed;" \
  "$legal legal ones timed, one thread, $runs runs each; load $load_before before the runs," \
  "$(cut -d ' ' -f 1-3 /proc/loadavg) after"
echo
echo "| probe | first pass ns, median (range) | warm ns, median (range) | answered |"
echo "|---|--:|--:|--:|"
for kind in "${kinds[@]}"; do
  case $kind in
    before) name="egtb \`egtb_probe_value\`, the library in $before" ;;
    value) name="egtb \`egtb_probe_value\` (value files)" ;;
    full) name="egtb \`egtb_probe\` (value and depth)" ;;
    fathom) name="Fathom \`tb_probe_wdl\` (Syzygy WDL)" ;;
  esac
  echo "| $name | $(summary "${first[$kind]}") | $(summary "${warm[$kind]}") | ${answered[$kind]} of $legal |"
done
echo
echo "Values compared over all $count placements: $compared answered by both ($wins wins, $draws draws," \
  "$losses losses; $cursed of them Fathom's cursed wins or blessed losses), $disagreements disagreements."
[ "$disagreements" -eq 0 ] || die "$disagreements positions where egtb and Fathom disagree (the first ones above)"
for kind in "${kinds[@]}"; do
  [ "${answered[$kind]}" -eq "$legal" ] || die "$kind answered ${answered[$kind]} of the $legal legal placements"
done
