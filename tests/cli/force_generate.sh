#!/usr/bin/env bash
# `egtb generate --force` with several processes on one directory (retro/scheduler.hpp): a --force
# target counts as rebuilt when any process renamed a new file into place after this process
# started, so N --force processes rebuild each table once, not N times; a rebuild finished before a
# process started does not count for it. Readers and plain processes meanwhile see each table whole
# (the old file or the new one), and the files stay byte-identical to a single run.
#
# The processes are started while the test holds the locks of the tables they can take first, and
# the locks are released only when each has printed that it waits: so every process has looked at
# the files (its start) before any table is rebuilt, and the counts below are exact, not a race.
set -euo pipefail
egtb=$1
dir=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2> /dev/null || true; rm -rf "$dir"' EXIT
tables=(KQk KRk KBk KNk KPk KQRk KRRk KBNk)
first=(KQk KRk KBk KNk) # the tables that need no other: what a process takes first

fail() {
  echo "FAIL: $*"
  exit 1
}

"$egtb" generate "${tables[@]}" --dir "$dir/single" --threads 1 > /dev/null

inodes() { for t in "${tables[@]}"; do stat -c '%i' "$1/$t.egtb"; done; }

# hold DIR SIG...: holds the locks of DIR's tables SIG... until release; $holder is its pid.
hold() {
  local d=$1
  shift
  rm -f "$dir/held"
  (
    fd=3
    for t in "$@"; do
      eval "exec $fd> \"$d/$t.egtb.lock\""
      flock "$fd"
      fd=$((fd + 1))
    done
    touch "$dir/held"
    exec sleep 600
  ) &
  holder=$!
  for _ in $(seq 1 1000); do [ -f "$dir/held" ] && return; sleep 0.01; done
  fail "the test could not take the locks"
}

release() {
  kill "$holder"
  wait "$holder" || true
}

# wait_for_waiting OUT...: until each output file says its process waits (it has looked at the files).
wait_for_waiting() {
  for out in "$@"; do
    for _ in $(seq 1 3000); do grep -q '^waiting  for' "$out" && continue 2; sleep 0.01; done
    fail "$out: the process never waited: $(cat "$out")"
  done
}

# read_while_running DIR: compares every table of DIR with the single run's, again and again,
# until $dir/stop appears; a table missing or different (half-written) at any moment is noted in
# $dir/partial.
read_while_running() {
  rm -f "$dir/stop" "$dir/partial"
  (
    while [ ! -f "$dir/stop" ]; do
      for t in "${tables[@]}"; do
        cmp -s "$dir/single/$t.egtb" "$1/$t.egtb" || echo "$t" >> "$dir/partial"
      done
    done
  ) &
  reader=$!
}

stop_reading() {
  touch "$dir/stop"
  wait "$reader"
  [ ! -f "$dir/partial" ] || fail "a reader saw tables missing or not whole: $(sort -u "$dir/partial" | tr '\n' ' ')"
}

# built OUT: how many tables OUT reports built.
built() { grep -Ec '^[A-Za-z]+ +built ' "$1" || true; }

# check DIR BEFORE: after a run, no temporary file is left, each table is a new file (a new inode,
# not the one in BEFORE) byte-identical to the single run's.
check() {
  if compgen -G "$1/*.tmp.*" > /dev/null; then fail "$1: a temporary file was left: $(ls "$1")"; fi
  local i=0
  local -a now
  mapfile -t now < <(inodes "$1")
  for t in "${tables[@]}"; do
    [ "${now[$i]}" != "$(sed -n "$((i + 1))p" "$2")" ] || fail "$1/$t.egtb was not rebuilt (same inode)"
    cmp "$dir/single/$t.egtb" "$1/$t.egtb" || fail "$1/$t.egtb differs from a single run's"
    i=$((i + 1))
  done
}

# 1. Three --force processes on a directory holding the set: each table rebuilt once in all, and
# each process reports every table either built or built by another process.
cp -r "$dir/single" "$dir/three"
inodes "$dir/three" > "$dir/three.before"
hold "$dir/three" "${first[@]}"
for i in 1 2 3; do
  "$egtb" generate "${tables[@]}" --force --dir "$dir/three" --threads 1 > "$dir/three$i" &
  pids[i]=$!
done
wait_for_waiting "$dir"/three{1,2,3}
read_while_running "$dir/three"
release
for i in 1 2 3; do wait "${pids[i]}" || fail "--force process $i failed: $(cat "$dir/three$i")"; done
stop_reading
for t in "${tables[@]}"; do
  built=$(cat "$dir"/three{1,2,3} | grep -Ec "^$t +built ") || true
  other=$(cat "$dir"/three{1,2,3} | grep -Ec "^$t +kept .*\(built by another process\)$") || true
  [ "$built/$other" = 1/2 ] ||
    fail "$t: built $built times and kept as built by another process $other times, not 1 and 2: $(cat "$dir"/three{1,2,3})"
done
check "$dir/three" "$dir/three.before"

# 2. A --force process and a plain one together: the --force one rebuilds every table; the plain
# one builds nothing (every table it finds whole is kept, without waiting for its lock).
inodes "$dir/three" > "$dir/mixed.before"
hold "$dir/three" "${first[@]}"
"$egtb" generate "${tables[@]}" --force --dir "$dir/three" --threads 1 > "$dir/forced" &
forced=$!
"$egtb" generate "${tables[@]}" --dir "$dir/three" --threads 1 > "$dir/plain" &
plain=$!
wait_for_waiting "$dir/forced"
read_while_running "$dir/three"
release
wait "$forced" || fail "the --force process failed: $(cat "$dir/forced")"
wait "$plain" || fail "the plain process failed: $(cat "$dir/plain")"
stop_reading
[ "$(built "$dir/forced")" = ${#tables[@]} ] ||
  fail "the --force process did not build every table: $(cat "$dir/forced")"
[ "$(built "$dir/plain")" = 0 ] ||
  fail "the plain process built tables beside a --force one: $(cat "$dir/plain")"
check "$dir/three" "$dir/mixed.before"

# 3. A rebuild finished before a --force process starts does not count for it: run again, it
# rebuilds every table once more.
inodes "$dir/three" > "$dir/again.before"
"$egtb" generate "${tables[@]}" --force --dir "$dir/three" --threads 1 > "$dir/again"
[ "$(built "$dir/again")" = ${#tables[@]} ] || fail "a second --force run: $(cat "$dir/again")"
check "$dir/three" "$dir/again.before"

# 4. Another process's rebuild is told by the file's inode, not only its time and size: a
# byte-identical KQk renamed into place, with the old file's modification time to the nanosecond
# (as a byte-identical rebuild within a coarse file system's time resolution has), counts as rebuilt.
hold "$dir/three" KQk
"$egtb" generate KQk --force --dir "$dir/three" --threads 1 > "$dir/same_time" &
pid=$!
wait_for_waiting "$dir/same_time"
cp "$dir/single/KQk.egtb" "$dir/three/KQk.egtb.new"
touch -r "$dir/three/KQk.egtb" "$dir/three/KQk.egtb.new"
mv -f "$dir/three/KQk.egtb.new" "$dir/three/KQk.egtb"
release
wait "$pid" || fail "--force KQk failed: $(cat "$dir/same_time")"
grep -Eq '^KQk +kept .*\(built by another process\)$' "$dir/same_time" ||
  fail "KQk replaced by another process with the same time and size was rebuilt again: $(cat "$dir/same_time")"

echo "--force processes rebuilt each table once, plain ones and readers saw whole tables"
