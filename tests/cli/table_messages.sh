#!/usr/bin/env bash
# Messages about table directories and files that are not what they should be:
# - a --dir that is a regular file is named as such, not as a missing table;
# - errors of the file system name the operation and the path, without "filesystem error:";
# - a table file holding another signature (KQk.egtb with KBk's table) is named as such, and
#   generate leaves it as it is.
set -uo pipefail
egtb=$1
# shellcheck source=tests/cli/script_support.sh
. "$(dirname "$0")/script_support.sh"

# A --dir that is a regular file.
touch "$work/file"
expect 1 "$work/file: is not a directory" probe "8/8/8/8/8/8/1Q6/k1K5 b - - 0 1" --dir "$work/file"
expect 1 "$work/file: is not a directory" query KQk --dir "$work/file" mate
expect 1 "$work/file: is not a directory" stats KQk --dir "$work/file"
expect 1 "$work/file" generate KQk --dir "$work/file"
grep -q "filesystem error" "$work/err" && fail "generate --dir FILE: raw message: $(cat "$work/err")"
expect 1 "$work/file/sub" generate KQk --dir "$work/file/sub"
grep -q "filesystem error" "$work/err" && fail "generate --dir FILE/sub: raw message: $(cat "$work/err")"

"$egtb" generate KBk --dir "$work/full" > /dev/null 2>&1 || fail "generate failed"

# A misnamed table file: KQk.egtb holding KBk's table.
mkdir "$work/misnamed"
cp "$work/full/KBk.egtb" "$work/misnamed/KQk.egtb"
expect 0 "warning: the file is named after KQk but holds the table KBk" info "$work/misnamed/KQk.egtb"
for args in "probe 8/8/8/8/8/8/1Q6/k1K5 b - - 0 1" "stats KQk" "query KQk mate"; do
  read -r -a words <<< "$args"
  if [ "${words[0]}" = probe ]; then words=(probe "${words[*]:1}"); fi
  expect 1 "KQk.egtb: holds the table KBk, not KQk" "${words[@]}" --dir "$work/misnamed"
done
# generate does not build over it (KPk promotes to KQk): it stops, naming the table the file holds.
expect 1 "KQk.egtb: holds the whole table of KBk under lasker rules, not KQk" generate KPk --dir "$work/misnamed"
cmp -s "$work/full/KBk.egtb" "$work/misnamed/KQk.egtb" || fail "generate KPk changed the misnamed KQk.egtb"

finish "every message named its table or path"
