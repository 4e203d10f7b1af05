#!/usr/bin/env bash
# egtb plan --max-memory: the tables whose whole solve the cost model puts above the limit are
# planned in slices (their promoting slices joined when that fits), with that estimate for their
# jobs' memory; every job passes the limit to egtb generate (JSON command, Makefile, Slurm
# script); make builds under it; a malformed size is refused; without the option no job gets it,
# and the tables are planned as egtb generate chooses (retro::default_plan): the 5-man tables
# whose promoting slices can be joined in those slices, every other table whole.
set -euo pipefail
egtb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$egtb" plan --all 5 --max-memory 1G --format json > "$dir/limit.json"
"$egtb" plan --all 5 --format json > "$dir/none.json"
python3 - "$dir/limit.json" "$dir/none.json" << 'PY'
import json, sys
limit = 1 << 30
tables = {t["signature"]: t for t in json.load(open(sys.argv[1]))["tables"]}
plain = json.load(open(sys.argv[2]))["tables"]
assert len(tables) == 145, len(tables)
sliced = [s for s, t in tables.items() if t["sliced"]]
for s, t in tables.items():
    above = t["estimated_peak_bytes"] > limit
    assert t["sliced"] == (above and t["slices"] > 1), s
    if t["sliced"]:
        assert "P" in s or "p" in s, s
        # The promoting slices are joined when that fits the limit, else each solved alone.
        joined = 0 < t["joined_slices"] and t["estimated_joined_peak_bytes"] <= limit
        assert t["planned_slices"] == (t["joined_slices"] if joined else t["slices"]), t
        estimate = t["estimated_joined_peak_bytes"] if joined else t["estimated_sliced_peak_bytes"]
        assert t["planned_peak_bytes"] == estimate < limit, t
    else:
        assert t["planned_peak_bytes"] == t["estimated_peak_bytes"], t
    assert t["memory_bytes"] >= t["planned_peak_bytes"] * 1.25, t
    assert t["command"][-2:] == ["--max-memory", str(limit)], t["command"]
# Every 5-man table above the limit can be sliced, and its slices fit: the set plans under 1 GiB.
assert max(t["planned_peak_bytes"] for t in tables.values()) < limit
assert len(sliced) > 40, sliced
krpkr, kqrkr = tables["KRPkr"], tables["KQRkr"]
assert krpkr["sliced"] and krpkr["slices"] == 24 and krpkr["planned_slices"] == 21, krpkr
assert not kqrkr["sliced"] and kqrkr["slices"] == 1, kqrkr
# A slice holds a 24th of KRPkr's positions: its estimate is well under half the whole one.
assert krpkr["estimated_sliced_peak_bytes"] < krpkr["estimated_peak_bytes"] / 2, krpkr
for t in plain:
    assert "--max-memory" not in t["command"], t
    assert not t["lean"], t
    joined = t["joined_slices"] > 0
    assert t["sliced"] == joined, t
    assert t["planned_slices"] == (t["joined_slices"] if joined else 1), t
    assert t["planned_peak_bytes"] == (t["estimated_joined_peak_bytes"] if joined else t["estimated_peak_bytes"]), t
plain = {t["signature"]: t for t in plain}
assert plain["KRPkr"]["planned_slices"] == 21 and not plain["KQPkp"]["sliced"], (plain["KRPkr"], plain["KQPkp"])
PY

# Between the two estimates of KRPkr (24 slices, and its 4 promoting ones joined: 21) the limit
# keeps the slices apart.
between=$("$egtb" plan KRPkr --max-memory 1G --format json | python3 -c '
import json, sys
t = [t for t in json.load(sys.stdin)["tables"] if t["signature"] == "KRPkr"][0]
assert t["estimated_sliced_peak_bytes"] < t["estimated_joined_peak_bytes"], t
print((t["estimated_sliced_peak_bytes"] + t["estimated_joined_peak_bytes"]) // 2)')
"$egtb" plan KRPkr --max-memory "$between" --format make | grep -q '^# KRPkr: .* in 24 slices$' ||
  { echo "KRPkr under $between bytes is not planned in 24 slices"; exit 1; }

# The Makefile passes the limit (MAX_MEMORY may be overridden) and its comments tell the slices;
# make builds KRkp's closure under 1 MiB, KRkp in its 24 slices.
"$egtb" plan KRkp --max-memory 1M --format make --dir "$dir/make" > "$dir/Makefile"
grep -q '^MAX_MEMORY ?= 1048576$' "$dir/Makefile" || { echo "no MAX_MEMORY:"; cat "$dir/Makefile"; exit 1; }
grep -q '^GENERATE = .* --max-memory \$(MAX_MEMORY)$' "$dir/Makefile" || { echo "GENERATE without the limit"; exit 1; }
grep -q '^# KRkp: .* in 24 slices$' "$dir/Makefile" || { echo "KRkp's rule does not tell its slices"; exit 1; }
make -s -C "$dir" -j2 > "$dir/make.out"
grep -q '^KRkp .* in 24 slices$' "$dir/make.out" || { echo "make did not build KRkp in slices:"; cat "$dir/make.out"; exit 1; }
"$egtb" plan --all 4 --format make | grep -q 'MAX_MEMORY\|--max-memory' && { echo "a limit without --max-memory"; exit 1; }

# Slurm: the sliced table's job asks for the JSON's memory and passes the limit.
"$egtb" plan KRPkr --max-memory 1G --format slurm --out "$dir/slurm" > /dev/null
mem=$(python3 -c "import json,sys; t=[t for t in json.load(open(sys.argv[1]))['tables'] if t['signature']=='KRPkr'][0]; print(t['memory_bytes'] >> 20)" "$dir/limit.json")
grep -q "^#SBATCH --mem=${mem}M$" "$dir/slurm/KRPkr.sbatch" || { echo "--mem is not ${mem}M:"; cat "$dir/slurm/KRPkr.sbatch"; exit 1; }
grep -q "'--max-memory' '1073741824'" "$dir/slurm/KRPkr.sbatch" || { echo "the job lacks the limit"; exit 1; }
grep -q "peak [0-9]* MB in 21 slices" "$dir/slurm/KRPkr.sbatch" || { echo "the job's comment lacks the slices"; exit 1; }

status=0
"$egtb" plan KRPkr --max-memory 1.5G 2> "$dir/err" > /dev/null || status=$?
[ "$status" = 2 ] && grep -q "max-memory must be a size such as 800M or 2G" "$dir/err" ||
  { echo "a malformed size was not refused ($status):"; cat "$dir/err"; exit 1; }
echo "plan --max-memory: slices planned, passed to every job, built by make; a malformed size refused"
