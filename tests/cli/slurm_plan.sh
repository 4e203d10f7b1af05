#!/usr/bin/env bash
# egtb plan --format slurm on a real Slurm: a one-node cluster on localhost
# (scripts/slurm_local.sh) runs the 35 jobs of `egtb plan --all 4` as submitted by their
# submit.sh, each after its subtables' jobs; every job completes (the cluster kills a job over its
# --mem) and builds exactly its own table within the --mem it asked for, and the files are
# byte-identical to one `egtb generate --all 4`. Exits 77 (skipped) when Slurm or munge is not
# installed or when not run as root.
#   slurm_plan.sh EGTB SLURM_LOCAL_SH [TIMEOUT_SECONDS]
set -euo pipefail
egtb=$1
slurm_local=$2
timeout=${3:-1800}
dir=$(mktemp -d)
cluster=$dir/cluster
trap 'bash "$slurm_local" stop "$cluster" > /dev/null 2>&1 || true; rm -rf "$dir"' EXIT

status=0
bash "$slurm_local" start "$cluster" > "$dir/start.log" 2>&1 || status=$?
if [ "$status" = 77 ]; then
  echo "skipped: $(cat "$dir/start.log")"
  exit 77
fi
[ "$status" = 0 ] || { echo "the local Slurm cluster did not start:"; cat "$dir/start.log"; exit 1; }
export SLURM_CONF=$cluster/slurm.conf

"$egtb" plan --all 4 --format slurm --dir "$dir/tables" --out "$dir/jobs" > /dev/null
started=$(date +%s)
"$dir/jobs/submit.sh" > "$dir/jobs.txt" 2> "$dir/submit.err" || {
  echo "submit.sh failed after $(wc -l < "$dir/jobs.txt") jobs:"
  cat "$dir/submit.err"
  exit 1
}
[ "$(wc -l < "$dir/jobs.txt")" = 35 ] || { echo "submit.sh submitted $(wc -l < "$dir/jobs.txt") jobs, not 35"; exit 1; }

# The state of a job ("COMPLETED", "FAILED", ...) while the controller keeps it (MinJobAge=3600).
job_state() { scontrol --oneliner show job "$1" | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p'; }

while true; do
  queue=$(squeue --noheader --format=%i) || { echo "squeue failed: is slurmctld still running?"; exit 1; }
  [ -n "$queue" ] || break
  if [ $(($(date +%s) - started)) -gt "$timeout" ]; then
    echo "jobs still queued or running after $timeout s:"
    squeue --format='%i %j %T %R'
    exit 1
  fi
  sleep 2
done
seconds=$(($(date +%s) - started))

failures=0
while read -r sig job; do
  state=$(job_state "$job")
  log=$dir/jobs/logs/$sig-$job.out
  if [ "$state" != COMPLETED ]; then
    echo "FAIL: job $job ($sig) ended $state: $(scontrol --oneliner show job "$job" | grep -o 'Reason=[^ ]*\|Dependency=[^ ]*\|ExitCode=[^ ]*' | paste -sd ' ')"
    [ -f "$log" ] && sed 's/^/  | /' "$log"
    failures=$((failures + 1))
  elif [ "$(grep -c ' built ' "$log")" != 1 ] || ! grep -q "^$sig  *built " "$log"; then
    echo "FAIL: job $job did not build exactly $sig:"
    sed 's/^/  | /' "$log"
    failures=$((failures + 1))
  else
    # Its peak (MiB, rounded down) within the --mem its script asked for (MiB): Slurm's memory
    # poll may miss a job shorter than a second, this does not.
    peak=$(sed -n 's/.* peak \([0-9]*\) MB$/\1/p' "$log")
    mem=$(sed -n 's/^#SBATCH --mem=\([0-9]*\)M$/\1/p' "$dir/jobs/$sig.sbatch")
    if [ -z "$peak" ] || [ -z "$mem" ] || [ $((peak + 1)) -gt "$mem" ]; then
      echo "FAIL: $sig peaked at ${peak:-?} MiB, its job asked for --mem=${mem:-?}M"
      failures=$((failures + 1))
    fi
  fi
done < "$dir/jobs.txt"
[ "$failures" = 0 ] || exit 1

"$egtb" generate --all 4 --dir "$dir/single" > /dev/null
tables=("$dir"/tables/*.egtb)
[ "${#tables[@]}" = 35 ] || { echo "the jobs wrote ${#tables[@]} tables, not 35"; exit 1; }
for table in "$dir"/single/*.egtb; do
  cmp "$table" "$dir/tables/$(basename "$table")" || { echo "the Slurm jobs' tables differ from one generate"; exit 1; }
done
echo "35 Slurm jobs built the 3-4-man set in $seconds s (wall, submit to last job)"
