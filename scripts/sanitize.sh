#!/usr/bin/env bash
# The fast tests under AddressSanitizer and UndefinedBehaviorSanitizer (clang 16, the build-fuzz
# build of scripts/sanitized_build.sh, whose libraries scripts/fuzz.sh builds too): egtb and the
# Catch2 binaries below are built there and their fast tests run, but for those too heavy under
# the sanitizers for CI. Any report of either sanitizer (a leak included) fails its test.
# Left out, with their CPU time under the sanitizers on the shared two-core machine:
#   test_retro: forward escapes (163 s), exits a word at a time (140 s), word un-moves (53 s),
#     the solver's output on 1-3 threads (42 s), word validity (26 s), exit candidates (11 s),
#     a paged table read entry by entry (10 s), and the equivalences of the lean and sliced paths
#     with the normal one on whole tables (a pawn table's slices joined, the lean path in slices:
#     each some 340 s wall on the loaded machine; the lean path on a pawnless table 121 s), whose
#     code the smaller lean cases still run; a solution read out in every storage order (222 s
#     wall beside another test: it solves KRPk's and KPPk's closures), whose writer the file and
#     placement slice cases still run;
#   test_indexing, whose fast cases under the sanitizers are 107 s of its 115 (counts from the
#     index 52 s, unplayable e.p. rights 22 s, round trip over KBNk KPkp 21 s, weight runs 12 s)
#     and whose build would cost some 30 s more;
#   test_query_scan: whole-table physical counts (11 s), the listing limit (7 s);
#   test_pgn's 100 MB of NUL bytes (77 s; fuzz_pgn reads such input);
#   test_value_files: every entry of nine value files against their tables (129 s) and probes of
#     random positions against the full probe (33 s);
#   test_stats_counting (129 s), tables:verify-34* (minutes), cli:cooperating_generate and
#     cli:plan_make (each builds the 3-4-man set again, about 4 minutes), cli:max_memory and
#     cli:plan_max_memory (each some 110 s: generations under memory limits the retro cases cover),
#     cli:size_scripts and cli:doc_selftest (80 s and 59 s, mostly scripts), the tests of the
#     other two rule sets (their tables, some 130 s; cli:output_errors, test_rules_tables,
#     test_server's three cases of other rules), test_api, and the C library, the Python module and the web page
#     (not built here: the C library's tests compile programs with the system's cc against an
#     installed copy, and the module runs in python3; both would need the sanitizers' runtime
#     preloaded).
# test_server runs without its three cases of other rules: 24 cases in some 7 CPU seconds.
# The 3-4-man tables of the fixture tables_34 are the main build's when it has them (build/test-
# tables, as the README's test command leaves it): copied into build-fuzz, they are what the
# sanitized `egtb generate --all 4` would write (the tables are the same bytes from any build:
# tests/tables/tables34.sha256), so the fixture checks their checksums and keeps them, where
# solving them under the sanitizers took some 100 s. The solver still runs under the sanitizers
# in test_retro's cases (3-4-man tables whole, in slices, from paged subtables) and in
# cli:force_generate.
# Usage: bash scripts/sanitize.sh. Used by .ci/run; docs/testing.md, "Fuzzing and sanitizers", says more.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/sanitized_build.sh egtb test_core test_query test_query_scan test_store test_line test_pgn \
  test_stats test_retro test_server test_value_files size_lab

heavy="forward escapes|exits a word at a time|word un-moves|solver.s output does not depend|word validity"
heavy+="|exit candidates|a paged table reads every entry|Whole-table physical counts|A listing limit stops"
heavy+="|promoting slices joined|the lean path solves a (pawn table in slices|table as the normal path)"
heavy+="|NUL bytes are errors at their place|a solution reads out in every storage order"
heavy+="|a value file reads every entry as its table|Tablebase::probe_value answers the full probe"
heavy+="|cli:(cooperating_generate|plan_make|output_errors|probe_rules_passes|probe_rules_wins_json)"
heavy+="|cli:(max_memory|plan_max_memory|size_scripts|doc_selftest)$"
heavy+="|cli:(query_rules_value_depth|stats_rules_wins|compare_rules)"
heavy+="|test_server:(Other rules|egtb serve --rules)"
if [ -d build/test-tables ]; then
  mkdir -p build-fuzz/test-tables
  find build/test-tables -maxdepth 1 -name 'K*.egtb' ! -name '*.stalemate-*' -exec cp {} build-fuzz/test-tables/ \;
fi
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# -FS: the tables of the other rule sets are not built (test_server's fixtures name them).
ctest --test-dir build-fuzz -LE slow -j2 --output-on-failure -E "$heavy" -FS "stalemate" \
  -R "^(cli|test_core|test_query|test_query_scan|test_store|test_line|test_pgn|test_stats|test_retro|test_server|test_value_files):"
