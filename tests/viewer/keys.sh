#!/usr/bin/env bash
# Under Xvfb: start the viewer, wait for its window, send S, B, Space, Esc through xdotool, check the
# announced switches and a clean exit with the summary line. Usage: keys.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
command -v xdotool >/dev/null || skip "xdotool is not installed"
in_xvfb "$@"
orrery=$1 dir=$2
out="$dir/keys.out"
"$orrery" --solver cpu --n 1024 >"$out" 2>&1 &
pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Orrery$' | head -1)
[ -n "$wid" ] || { kill "$pid"; fail "the window did not appear"; }
# Wait for the first frames (the start-up lines) before typing.
for _ in $(seq 100); do grep -q '^orrery: solver' "$out" && break; sleep 0.1; done
xdotool windowfocus --sync "$wid"
for key in s b space Escape; do
  xdotool key "$key"
  sleep 0.4
done
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  cat "$out"
  fail "the viewer did not quit on Esc"
fi
wait "$pid"
rc=$?
cat "$out"
[ $rc -eq 0 ] || fail "orrery exited $rc"
expect_line "$out" '^solver cpu-omp$'
expect_line "$out" '^block: cpu-omp runs on the CPU'
expect_line "$out" '^paused$'
expect_line "$out" '^quit$'
expect_line "$out" '^orrery: summary: [0-9]+ frames .*solver cpu-omp, n 1024, path CPU'
# In order: S, B, Space, Esc.
order=$(grep -E '^(solver cpu-omp|block: |paused|quit)' "$out" | cut -c1-6 | tr '\n' ' ')
[ "$order" = "solver block: paused quit " ] || fail "switches out of order: $order"
echo PASS
