#!/usr/bin/env bash
# egtb plan: the Makefile builds with make -j2 the same 3-4-man files as one `egtb generate --all 4`;
# the JSON plan lists every table after its dependencies; the Slurm submit.sh submits each table
# after its dependencies' jobs (a stand-in sbatch); a table built without its closure refuses to
# start when a subtable is missing, and names it.
#   plan_make.sh EGTB TABLES
# TABLES holds the 3-4-man tables of one `egtb generate --all 4` (the fixture tables_34, whose
# bytes tables:checksums-34 checks against the recorded sums).
set -euo pipefail
egtb=$1
single=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

status=0
"$egtb" generate KQRk --no-closure --dir "$dir/none" 2> "$dir/err" || status=$?
[ "$status" = 1 ] || { echo "--no-closure with missing subtables exited $status"; exit 1; }
grep -q "KQRk needs KRk, KQk\|KQRk needs KQk, KRk" "$dir/err" || { echo "missing subtables not named:"; cat "$dir/err"; exit 1; }
[ -z "$(ls "$dir/none" | grep '\.egtb$' || true)" ] || { echo "--no-closure built a subtable"; exit 1; }

"$egtb" plan --all 4 --format json --dir "$dir/make" > "$dir/plan.json"
python3 - "$dir/plan.json" << 'PY'
import json, sys
tables = json.load(open(sys.argv[1]))["tables"]
assert len(tables) == 35, len(tables)
seen = set()
for t in tables:
    missing = [d for d in t["dependencies"] if d not in seen]
    assert not missing, f"{t['signature']} listed before {missing}"
    assert t["command"][1:5] == ["generate", t["signature"], "--no-closure", "--dir"], t["command"]
    assert t["entries_per_side"] > 0 and t["estimated_cpu_seconds"] > 0 and t["memory_bytes"] > t["estimated_peak_bytes"]
    seen.add(t["signature"])
deps = {t["signature"]: t["dependencies"] for t in tables}
assert sorted(deps["KQRk"]) == ["KQk", "KRk"] and sorted(deps["KPk"]) == ["KBk", "KNk", "KQk", "KRk"], deps
PY

# 6 men are buildable, given the memory (generate refuses a table its machine cannot solve, before
# building anything): 365 6-man tables (as many as the 6-man Syzygy set has files per kind).
"$egtb" plan --all 6 --format json > "$dir/plan6.json"
python3 - "$dir/plan6.json" << 'PY'
import json, sys
tables = json.load(open(sys.argv[1]))["tables"]
six = [t for t in tables if len(t["signature"]) == 6]
assert len(tables) == 510 and len(six) == 365, (len(tables), len(six))
assert all(t["buildable"] for t in tables)
krrkqr = next(t for t in six if t["signature"] == "KQRkrr")
assert krrkqr["layout_positions_per_side"] == 462 * 64**4, krrkqr
assert krrkqr["estimated_peak_bytes"] > 462 * 64**4, krrkqr
PY
"$egtb" plan KQRkrr --format json | grep -q '"layout_positions_per_side": 7751073792' ||
  { echo "plan of a named 6-man signature failed"; exit 1; }
# Beyond 6 men a plan is an estimate: Make and Slurm jobs for a 7-man table are refused.
"$egtb" plan KQRkqrb --format json | grep -q '"buildable": false' ||
  { echo "a 7-man table was not marked unbuildable"; exit 1; }
status=0
"$egtb" plan KQRkqrb --format make > /dev/null 2> "$dir/err" || status=$?
[ "$status" != 0 ] && grep -q "KQRBkqr has 7 men; this build generates at most 6" "$dir/err" ||
  { echo "a Makefile of a 7-man table was not refused ($status):"; cat "$dir/err"; exit 1; }
status=0
"$egtb" plan --all 8 > /dev/null 2> "$dir/err" || status=$?
[ "$status" != 0 ] && grep -q "from 3 to 7" "$dir/err" || { echo "--all 8 not refused ($status)"; cat "$dir/err"; exit 1; }
# The Slurm scripts without a Slurm (slurm:plan_34, slow, runs them on one): submit.sh with a
# stand-in sbatch that records its arguments and answers "JOBID;CLUSTER" as `sbatch --parsable`
# does submits each table once, after the jobs of exactly its JSON dependencies, with its
# arguments passed on, and each script asks for the JSON's memory and CPUs.
"$egtb" plan --all 4 --format slurm --dir "$dir/slurm-tables" --out "$dir/slurm" > /dev/null
mkdir "$dir/bin"
cat > "$dir/bin/sbatch" << 'SH'
#!/bin/sh
id=$(($(wc -l < "$SBATCH_LOG") + 101))
echo "$id $*" >> "$SBATCH_LOG"
echo "$id;cluster"
SH
chmod +x "$dir/bin/sbatch"
: > "$dir/sbatch.log"
PATH=$dir/bin:$PATH SBATCH_LOG=$dir/sbatch.log "$dir/slurm/submit.sh" --partition=p > "$dir/submitted"
python3 - "$dir" << 'PY'
import json, re, sys
d = sys.argv[1]
tables = {t["signature"]: t for t in json.load(open(f"{d}/plan.json"))["tables"]}
printed = dict(line.split() for line in open(f"{d}/submitted"))
signature_of = {}
for line in open(f"{d}/sbatch.log"):
    job, *args = line.split()
    sig = args[-1].removesuffix(".sbatch")
    assert printed[sig] == job, (sig, printed[sig], job)
    after = [a for a in args if a.startswith("--dependency=")]
    deps = [signature_of[j] for j in after[0].removeprefix("--dependency=afterok:").split(":")] if after else []
    assert sorted(deps) == sorted(tables[sig]["dependencies"]), (sig, deps)
    assert ("--kill-on-invalid-dep=yes" in args) == bool(deps) and "--partition=p" in args, args
    script = open(f"{d}/slurm/{sig}.sbatch").read()
    assert f"#SBATCH --mem={tables[sig]['memory_bytes'] >> 20}M\n" in script, sig
    assert f"#SBATCH --cpus-per-task={tables[sig]['cpus']}\n" in script, sig
    signature_of[job] = sig
assert sorted(signature_of.values()) == sorted(tables), "not every table submitted once"
PY

"$egtb" plan --all 4 --format make --dir "$dir/make" > "$dir/Makefile"
make -s -j2 -f "$dir/Makefile" > "$dir/make.log"
[ "$(ls "$dir/make" | grep -c '\.egtb$')" = 35 ] || { echo "make built $(ls "$dir/make" | grep -c '\.egtb$') tables"; exit 1; }
for table in "$dir"/make/*.egtb; do
  cmp "$table" "$single/$(basename "$table")" || { echo "make -j2 differs from one generate"; exit 1; }
done
[ "$(grep -c ' built ' "$dir/make.log")" = 35 ] || { echo "make did not build each table once"; exit 1; }
make -s -j2 -f "$dir/Makefile" > "$dir/again.log"
[ ! -s "$dir/again.log" ] || { echo "a second make rebuilt something"; cat "$dir/again.log"; exit 1; }
echo "make -j2 built the set"
