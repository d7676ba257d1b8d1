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
# viewer_test "$@": under Xvfb, with orrery=$1 and dir=$2, in dir.
viewer_test() {
  in_xvfb "$@"
  orrery=$1 dir=$2
  cd "$dir" || fail "no $dir"
}
# escape_while_busy OUT SECONDS_IN LIMIT_MS ORRERY_ARGS...: starts the viewer with its output in
# OUT, waits for its window and SECONDS_IN more, presses Esc, and waits up to LIMIT_MS for it to
# end. Sets pid, and ms (the time from Esc to the end, or LIMIT_MS where it did not end; then
# the process is killed).
escape_while_busy() {
  local out=$1 wait_s=$2 limit=$3 wid t0
  shift 3
  "$orrery" "$@" >"$out" 2>&1 &
  pid=$!
  wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Orrery$' | head -1)
  [ -n "$wid" ] || { kill "$pid"; fail "the window did not appear"; }
  for _ in $(seq 100); do grep -q '^orrery: solver' "$out" && break; sleep 0.1; done
  sleep "$wait_s"
  kill -0 "$pid" 2>/dev/null || fail "the viewer ended by itself"
  timeout 10 xdotool windowfocus --sync "$wid" || true
  t0=$(date +%s%N)
  xdotool key Escape
  while kill -0 "$pid" 2>/dev/null; do
    (( ($(date +%s%N) - t0) / 1000000 > limit )) && break
    sleep 0.02
  done
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    cat "$out"
    fail "still running $limit ms after Esc"
  fi
  echo "quit $ms ms after Esc"
}
# refuses REGEX ARGS...: $orrery headless on 100 bodies for a frame with ARGS exits 2 and says
# why in one line on stderr matching REGEX (its output in refused.out and refused.err here).
refuses() {
  local want=$1
  shift
  env -u DISPLAY "$orrery" --headless --solver cpu --n 100 --frames 1 "$@" >refused.out 2>refused.err
  local rc=$?
  [ $rc -eq 2 ] || { cat refused.out refused.err; fail "$*: exit $rc, not 2"; }
  [ "$(wc -l <refused.err)" -eq 1 ] || { cat refused.err; fail "$*: not one line"; }
  grep -Eq -e "$want" refused.err || { cat refused.err; fail "$*: no '$want'"; }
}
