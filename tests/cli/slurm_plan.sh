#!/usr/bin/env bash
# egtb plan --format slurm on a real Slurm: a one-node cluster on localhost
# (scripts/slurm_local.sh) runs the 35 jobs of `egtb plan --all 4` as submitted by their
# submit.sh, each after its subtables' jobs; every job completes (the cluster kills a job over its
# --mem) and builds exactly its own table within the --mem it asked for, and the files are
# byte-identical to one `egtb generate --all 4`. Then a failed job cancels the job that needs its
# table, and submit.sh run again builds what is missing. Exits 77 (skipped) when Slurm or munge is
# not installed or when not run as root.
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
started=$(date +%s)

# submit_and_wait JOBS: runs JOBS/submit.sh (its "SIG JOBID" lines into JOBS/jobs.txt) and waits
# until the queue is empty (at most TIMEOUT_SECONDS from the start of the test); a job left pending
# on a failed dependency for 10 s, which would wait for ever, fails at once.
submit_and_wait() {
  local jobs=$1 queue stuck=0
  "$jobs/submit.sh" > "$jobs/jobs.txt" 2> "$jobs/submit.err" || {
    echo "$jobs/submit.sh failed after $(wc -l < "$jobs/jobs.txt") jobs:"
    cat "$jobs/submit.err"
    exit 1
  }
  while true; do
    queue=$(squeue --noheader --format=%i) || { echo "squeue failed: is slurmctld still running?"; exit 1; }
    [ -n "$queue" ] || break
    if squeue --noheader --states=PENDING --format=%r | grep -q DependencyNeverSatisfied; then
      stuck=$((stuck + 1))
    else
      stuck=0
    fi
    if [ "$stuck" -ge 5 ]; then
      echo "jobs pending on a failed dependency (not cancelled):"
      squeue --format='%i %j %T %R'
      exit 1
    fi
    if [ $(($(date +%s) - started)) -gt "$timeout" ]; then
      echo "jobs still queued or running after $timeout s:"
      squeue --format='%i %j %T %R'
      exit 1
    fi
    sleep 2
  done
}

# The state of a job ("COMPLETED", "FAILED", ...) while the controller keeps it (MinJobAge=3600).
job_state() { scontrol --oneliner show job "$1" | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p'; }

# "SIG STATE OUTCOME" of each job of JOBS/jobs.txt, sorted, on one line; OUTCOME is what its log
# says of its table (built or kept).
outcomes() {
  local sig job
  while read -r sig job; do
    echo "$sig $(job_state "$job") $(sed -n "s/^$sig  *\(built\|kept\) .*/\1/p" "$1/logs/$sig-$job.out" 2> /dev/null)"
  done < "$1/jobs.txt" | sort | paste -sd ' '
}

"$egtb" plan --all 4 --format slurm --dir "$dir/tables" --out "$dir/jobs" > /dev/null
submit_and_wait "$dir/jobs"
seconds=$(($(date +%s) - started))
[ "$(wc -l < "$dir/jobs/jobs.txt")" = 35 ] || { echo "submit.sh submitted $(wc -l < "$dir/jobs/jobs.txt") jobs, not 35"; exit 1; }

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
done < "$dir/jobs/jobs.txt"
[ "$failures" = 0 ] || exit 1

"$egtb" generate --all 4 --dir "$dir/single" > /dev/null
tables=("$dir"/tables/*.egtb)
[ "${#tables[@]}" = 35 ] || { echo "the jobs wrote ${#tables[@]} tables, not 35"; exit 1; }
for table in "$dir"/single/*.egtb; do
  cmp "$table" "$dir/tables/$(basename "$table")" || { echo "the Slurm jobs' tables differ from one generate"; exit 1; }
done

# A failed job cancels the job that needs its table (--kill-on-invalid-dep; without it that job
# would wait for ever); once the cause is mended, submit.sh run again keeps what was built and
# builds the rest. The cause here: an egtb that refuses KQk, then the real one.
# shellcheck disable=SC2016 # $2 and $@ are the wrapper's
printf '#!/bin/sh\n[ "$2" != KQk ] || { echo "refusing KQk" >&2; exit 3; }\nexec "%s" "$@"\n' "$egtb" > "$dir/refuses-KQk"
chmod +x "$dir/refuses-KQk"
"$egtb" plan KQRk --format slurm --dir "$dir/mend" --egtb "$dir/refuses-KQk" --out "$dir/mend-jobs" > /dev/null
submit_and_wait "$dir/mend-jobs"
got=$(outcomes "$dir/mend-jobs")
[ "$got" = "KQRk CANCELLED  KQk FAILED  KRk COMPLETED built" ] || { echo "with KQk failing: $got"; exit 1; }
"$egtb" plan KQRk --format slurm --dir "$dir/mend" --out "$dir/mend-jobs" > /dev/null
submit_and_wait "$dir/mend-jobs"
got=$(outcomes "$dir/mend-jobs")
[ "$got" = "KQRk COMPLETED built KQk COMPLETED built KRk COMPLETED kept" ] || { echo "submit.sh again: $got"; exit 1; }
for table in KQk KRk KQRk; do
  cmp "$dir/single/$table.egtb" "$dir/mend/$table.egtb" || { echo "the mended run's $table differs"; exit 1; }
done
echo "35 Slurm jobs built the 3-4-man set in $seconds s (wall, submit to last job); a failed job" \
  "cancelled its dependent and submit.sh run again built the rest"
