# Helpers of the CLI test scripts (sourced, after egtb=PATH): a scratch directory $work removed on
# exit, fail MESSAGE (counted; finish exits 1 if any), expect STATUS PATTERN ARGS... (egtb ARGS
# exits with STATUS and its stderr holds PATTERN; stdout in $work/out, stderr in $work/err).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

expect() {
  local status=$1 pattern=$2
  shift 2
  "$egtb" "$@" > "$work/out" 2> "$work/err"
  local got=$?
  [ "$got" -eq "$status" ] || fail "egtb $*: exit status $got, expected $status; stderr: $(cat "$work/err")"
  grep -q -- "$pattern" "$work/err" || fail "egtb $*: stderr lacks '$pattern': $(cat "$work/err")"
}

# finish MESSAGE: exit 1 after failures, else print MESSAGE.
finish() {
  [ "$failures" -eq 0 ] || exit 1
  echo "$1"
}
