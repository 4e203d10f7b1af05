#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying `egtb plan --format slurm` without a
# cluster (the test slurm:plan_34 uses it). Debian 12's slurmctld, slurmd, slurm-client and munge
# must be installed (`apt-get install slurmctld slurmd slurm-client munge`); nothing is installed
# here. Run as root (SlurmUser=root), as in a container without systemd or cgroups.
#   scripts/slurm_local.sh start DIR    configure into DIR (created) and start munged, slurmctld
#                                       and slurmd; returns when sinfo shows the node idle
#   scripts/slurm_local.sh stop DIR     cancel the cluster's jobs and stop its daemons
#   scripts/slurm_local.sh status DIR   sinfo and squeue of the cluster
# Everything lives in DIR: slurm.conf, the munge key and socket, state, spool, pid files and logs
# (log/slurmctld.log, log/slurmd.log, log/munged.log, log/jobcomp.log: a line per finished job
# with its JobState and ExitCode). Nothing goes to /etc: the Slurm commands find the cluster
# through SLURM_CONF, so run them as `SLURM_CONF=DIR/slurm.conf sbatch ...` (start prints the
# export). Starting a running cluster only waits for its node; its slurm.conf is kept.
#
# The node is `localhost` with the CPUs and memory that `slurmd -C` finds here (RealMemory in MB),
# memory a consumable resource (CR_Core_Memory): a job's --mem is granted as asked, never clamped;
# a job asking more than the machine has is refused by sbatch. Process tracking by /proc
# (proctrack/linuxproc, task/none: no cgroups); jobacct_gather/linux polls each job's memory every
# second and kills a job over its --mem (OverMemoryKill: state FAILED, "exceeded memory limit" in
# its output), the nearest to a real cluster's cgroup limit that works without cgroups. Batch jobs
# are scheduled as soon as they can run (batch_sched_delay=0; Slurm's default waits up to 3 s,
# which doubled the time of the 35 sub-second jobs of `egtb plan --all 4`). Ports:
# SLURM_LOCAL_PORT (default 6817) for slurmctld and the next one for slurmd.
# Exit status: 0 done, 1 a daemon did not start (its log's last lines are printed), 2 usage,
# 77 a package is missing (named) or not run as root.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|status DIR" >&2
  exit 2
}
die() {
  echo "slurm_local: $*" >&2
  exit 1
}

[ $# = 2 ] || usage
command=$1
case $command in
  start) mkdir -p "$2" ;;
  stop | status) [ -d "$2" ] || die "no cluster directory $2" ;;
  *) usage ;;
esac
dir=$(cd "$2" && pwd)
export SLURM_CONF=$dir/slurm.conf
export PATH=$PATH:/usr/sbin:/sbin # the daemons, for a user whose PATH lacks them
port=${SLURM_LOCAL_PORT:-6817}

# Exits 77 naming the Debian package of the first missing program, or when not root.
require_packages() {
  local program package
  for program in munged:munge mungekey:munge slurmctld:slurmctld slurmd:slurmd sinfo:slurm-client \
    sbatch:slurm-client; do
    package=${program#*:}
    program=${program%%:*}
    command -v "$program" > /dev/null || {
      echo "slurm_local: $program not found: install Debian's $package (apt-get install slurmctld slurmd slurm-client munge)" >&2
      exit 77
    }
  done
  [ "$(id -u)" = 0 ] || {
    echo "slurm_local: run as root (the daemons run as SlurmUser=root)" >&2
    exit 77
  }
}

# The pid in a pid file if that process is alive.
running() {
  local pid
  [ -s "$1" ] && pid=$(cat "$1") && kill -0 "$pid" 2> /dev/null && echo "$pid"
}

# Prints the last lines of a daemon's log, stops the daemons already started and exits 1.
failed() {
  local name=$1 log=$2
  echo "slurm_local: $name did not start; last lines of $log:" >&2
  tail -n 20 "$log" >&2 2> /dev/null || echo "(no log)" >&2
  if grep -q "Address already in use" "$log" 2> /dev/null; then
    echo "slurm_local: port $port or $((port + 1)) is taken (another cluster?): set SLURM_LOCAL_PORT" >&2
  fi
  stop_daemon slurmd
  stop_daemon slurmctld
  stop_daemon munged
  exit 1
}

write_config() {
  # "CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105"
  local node
  node=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p')
  [ -n "$node" ] || die "slurmd -C did not describe this machine"
  : > "$dir/plugstack.conf"
  cat > "$dir/slurm.conf" << EOF
# Written by scripts/slurm_local.sh: a one-node cluster on localhost.
ClusterName=egtblocal
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.log
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=3600
NodeName=localhost NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munge() {
  [ -z "$(running "$dir/run/munged.pid")" ] || return 0
  mkdir -p "$dir/munge"
  chmod 700 "$dir/munge"
  [ -s "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key" > /dev/null
  # --force: without it munged refuses a socket in a directory not everyone may enter ("execute
  # permissions for all required"), as DIR is when made by mktemp -d (mode 700).
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" || failed munged "$dir/log/munged.log"
}

start_slurm() {
  if [ -z "$(running "$dir/run/slurmctld.pid")" ]; then
    slurmctld -i || failed slurmctld "$dir/log/slurmctld.log"
  fi
  if [ -z "$(running "$dir/run/slurmd.pid")" ]; then
    slurmd -N localhost || failed slurmd "$dir/log/slurmd.log"
  fi
}

# Waits up to 60 s for `sinfo` to show the node idle.
wait_idle() {
  local state=""
  for _ in $(seq 1 120); do
    state=$(sinfo --noheader --nodes=localhost --format=%t 2> /dev/null || true)
    [ "$state" = idle ] && return 0
    [ -n "$(running "$dir/run/slurmctld.pid")" ] || failed slurmctld "$dir/log/slurmctld.log"
    [ -n "$(running "$dir/run/slurmd.pid")" ] || failed slurmd "$dir/log/slurmd.log"
    sleep 0.5
  done
  echo "slurm_local: the node is '${state:-not listed}', not idle, after 60 s; last lines of the logs:" >&2
  tail -n 10 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2
  exit 1
}

# SIGTERM to a daemon, then up to 20 s for it to end.
stop_daemon() {
  local pid
  pid=$(running "$dir/run/$1.pid") || return 0
  kill "$pid"
  for _ in $(seq 1 40); do
    kill -0 "$pid" 2> /dev/null || return 0
    sleep 0.5
  done
  die "$1 (pid $pid) still running 20 s after SIGTERM"
}

case $command in
  start)
    require_packages
    mkdir -p "$dir/state" "$dir/spool" "$dir/run" "$dir/log"
    if [ ! -s "$dir/slurm.conf" ] || [ -z "$(running "$dir/run/slurmctld.pid")" ]; then
      write_config
      rm -f "$dir"/log/*.log
    fi
    start_munge
    start_slurm
    wait_idle
    echo "slurm_local: node localhost idle; use it with: export SLURM_CONF=$SLURM_CONF"
    ;;
  stop)
    if [ -n "$(running "$dir/run/slurmctld.pid")" ]; then
      timeout 20 scancel --quiet --user="$(id -un)" || true
    fi
    stop_daemon slurmd
    stop_daemon slurmctld
    stop_daemon munged
    ;;
  status)
    [ -n "$(running "$dir/run/slurmctld.pid")" ] || die "no cluster is running in $dir"
    sinfo
    squeue
    ;;
  *) usage ;;
esac
