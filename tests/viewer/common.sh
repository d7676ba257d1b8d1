# Shared helpers of the viewer test scripts (sourced): skipping, Xvfb re-exec, output checks.
skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*"
  exit 1
}
# Re-runs the calling script under xvfb-run with a 24-bit screen, once.
in_xvfb() {
  if [ -z "${ORRERY_IN_XVFB:-}" ]; then
    command -v xvfb-run >/dev/null || skip "xvfb-run is not installed (apt-get install xvfb xauth)"
    ORRERY_IN_XVFB=1 exec xvfb-run -a -s "-screen 0 1920x1080x24" bash "$0" "$@"
  fi
}
# expect_line FILE REGEX: FILE has a line matching REGEX.
expect_line() {
  grep -Eq "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "no line matching '$2' in $1"; }
}
