#!/bin/bash
# docs/cli.md against the command line: every command's section there must hold, as the first
# fenced block after its heading, exactly what `egtb <command> --help` prints.
#
#   bash tests/cli/cli_doc.sh EGTB DOC           check: exit 1 naming each command whose block
#                                                differs, is missing, or names no command
#   bash tests/cli/cli_doc.sh EGTB DOC --write   rewrite the blocks from --help, append a section
#                                                for each command that has none; prose is kept
#
# The commands are those `egtb --help` lists, and the benchmarks `egtb bench --help` lists. A
# section's heading is the command in backquotes, at any level:
#
#   ## `egtb generate`          <- heading
#
#   ```text                     <- the first fenced block after it: `egtb generate --help`
#   Usage: egtb generate ...
#   ```
#
#   Prose after the block is free text.
#
# `egtb --help` itself is the block of the heading `egtb`.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 || ($# -eq 3 && $3 != --write) ]]; then
  echo "usage: bash tests/cli/cli_doc.sh EGTB DOC [--write]" >&2
  exit 2
fi
egtb=$1
doc=$2
write=${3:-}
[[ -f $doc ]] || { echo "cli_doc: $doc: no such file" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The commands, one a line: "egtb" itself, "egtb generate", ..., "egtb bench perft", ...: the names
# listed under a help text's heading line ("Commands:", "Benchmarks:") up to a blank line.
listed() { awk -v heading="$1" -v prefix="$2" '$0 == heading {on = 1; next} on && /^$/ {exit} on {print prefix $1}'; }
{
  echo egtb
  "$egtb" --help | listed "Commands:" "egtb "
  "$egtb" bench --help | listed "Benchmarks:" "egtb bench "
} > "$work/commands"
grep -qx 'egtb generate' "$work/commands" || { echo "cli_doc: '$egtb --help' lists no commands" >&2; exit 2; }

# Each command's help in $work/help/<command with _ for spaces>.
mkdir "$work/help" "$work/doc"
while IFS= read -r command; do
  read -ra words <<< "${command#egtb}"
  "$egtb" "${words[@]}" --help > "$work/help/${command// /_}"
done < "$work/commands"

# The sections of a page: each heading `egtb ...` (at any level) to $3/sections, the first fenced
# block after it to $3/<command with _ for spaces>.
split_page() {
  awk -v dir="$2" '
    /^#+ `egtb[^`]*`$/ {
      name = $0; sub(/^#+ `/, "", name); sub(/`$/, "", name)
      print name > (dir "/sections")
      file = name; gsub(/ /, "_", file); file = dir "/" file
      printf "" > file
      state = 1; next
    }
    /^#+ / { state = 0; next }
    state == 1 && /^```/ { state = 2; next }
    state == 2 && /^```$/ { state = 0; next }
    state == 2 { print > file }
  ' "$1"
  touch "$2/sections"
}

if [[ $write == --write ]]; then
  # Each known command's block replaced by its help; a section of no command left for the check to
  # report; a section appended for each command that has none.
  awk -v help="$work/help" -v commands="$work/commands" '
    BEGIN { while ((getline c < commands) > 0) known[c] = 1 }
    /^#+ `egtb[^`]*`$/ {
      name = $0; sub(/^#+ `/, "", name); sub(/`$/, "", name)
      seen[name] = 1; state = (name in known) ? 1 : 0; print; next
    }
    /^#+ / { state = 0; print; next }
    state == 1 && /^```/ {
      print; file = name; gsub(/ /, "_", file); file = help "/" file
      while ((getline line < file) > 0) print line
      close(file); state = 2; next
    }
    state == 2 && /^```$/ { state = 0; print; next }
    state == 2 { next }
    { print }
    END {
      close(commands)
      while ((getline c < commands) > 0) {
        if (c in seen) continue
        file = c; gsub(/ /, "_", file); file = help "/" file
        printf "\n## `%s`\n\n```text\n", c
        while ((getline line < file) > 0) print line
        print "```"
        print "cli_doc: added a section for " c > "/dev/stderr"
      }
    }
  ' "$doc" > "$work/new"
  cp "$work/new" "$doc"
fi

split_page "$doc" "$work/doc"
status=0
while IFS= read -r command; do
  file=${command// /_}
  if ! grep -qxF -- "$command" "$work/doc/sections"; then
    echo "cli_doc: $doc has no section \`$command\` (run: bash tests/cli/cli_doc.sh EGTB $doc --write)"
    status=1
  elif ! cmp -s "$work/doc/$file" "$work/help/$file"; then
    echo "cli_doc: $doc: the block of \`$command\` is not what '$command --help' prints:"
    diff -u --label "$doc, \`$command\`" --label "$command --help" "$work/doc/$file" "$work/help/$file" || true
    status=1
  fi
done < "$work/commands"
# Sections of commands that do not exist (a renamed or removed command).
while IFS= read -r section; do
  echo "cli_doc: $doc has a section for \`$section\`, which egtb does not list"
  status=1
done < <(grep -vxFf "$work/commands" "$work/doc/sections" || true)
exit $status
