# Runs one CLI golden case: cmake -DEGTB=<egtb> -DCASE=<dir/name> -DEXIT_CODE=<n> -P run_golden.cmake
# Arguments come from CASE.cmd (one per line, so a FEN with blanks is one argument); stdout must
# equal CASE.golden, stderr CASE.stderr (or be empty), the exit code EXIT_CODE. CASE.stdin, when
# present, is the standard input.
# With the environment variable EGTB_UPDATE_GOLDEN set, the outputs are written to the files instead.
file(STRINGS "${CASE}.cmd" arguments)
set(input "")
if(EXISTS "${CASE}.stdin")
  set(input INPUT_FILE "${CASE}.stdin")
endif()
execute_process(
  COMMAND "${EGTB}" ${arguments}
  ${input}
  OUTPUT_VARIABLE stdout
  ERROR_VARIABLE stderr
  RESULT_VARIABLE exit_code)

if(DEFINED ENV{EGTB_UPDATE_GOLDEN})
  file(WRITE "${CASE}.golden" "${stdout}")
  if(NOT stderr STREQUAL "")
    file(WRITE "${CASE}.stderr" "${stderr}")
  endif()
endif()

set(failures "")
if(NOT exit_code STREQUAL "${EXIT_CODE}")
  string(APPEND failures "exit code ${exit_code}, expected ${EXIT_CODE}\n")
endif()
file(READ "${CASE}.golden" expected_stdout)
if(NOT stdout STREQUAL expected_stdout)
  string(APPEND failures "stdout differs from ${CASE}.golden:\n--- expected\n${expected_stdout}--- actual\n${stdout}")
endif()
set(expected_stderr "")
if(EXISTS "${CASE}.stderr")
  file(READ "${CASE}.stderr" expected_stderr)
endif()
if(NOT stderr STREQUAL expected_stderr)
  string(APPEND failures "stderr differs:\n--- expected\n${expected_stderr}--- actual\n${stderr}")
endif()
if(NOT failures STREQUAL "")
  list(JOIN arguments "' '" shown)
  message(FATAL_ERROR "egtb '${shown}'\n${failures}")
endif()
