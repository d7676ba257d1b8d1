#!/usr/bin/env bash
# Issue 21: colouring by acceleration on a CPU solver is a whole force pass (minutes at
# N = 200,000 with cpu-omp here). It runs off the UI thread: Esc ends the viewer within 2 s while
# it is in flight (it once had no effect 50 s later); a range fit asked meanwhile is done when the
# values arrive. Usage: color_busy.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
command -v xdotool >/dev/null || skip "xdotool is not installed"
in_xvfb "$@"
orrery=$1 dir=$2
out="$dir/color_busy.out"
"$orrery" --solver cpu-omp --n 200000 --color acceleration >"$out" 2>&1 &
pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Orrery$' | head -1)
[ -n "$wid" ] || { kill "$pid"; fail "the window did not appear"; }
for _ in $(seq 100); do grep -q '^orrery: solver' "$out" && break; sleep 0.1; done
sleep 3  # the first step and the first colour pass are both in flight
kill -0 "$pid" 2>/dev/null || fail "the viewer ended by itself"
timeout 10 xdotool windowfocus --sync "$wid" || true
t0=$(date +%s%N)
xdotool key Escape
while kill -0 "$pid" 2>/dev/null; do
  [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 2000 ] && break
  sleep 0.05
done
if kill -0 "$pid" 2>/dev/null; then
  kill -9 "$pid"
  cat "$out"
  fail "Esc during the colour pass: still running after 2 s"
fi
echo "quit $(( ($(date +%s%N) - t0) / 1000000 )) ms after Esc"
# Headless: F (fit) asked while the values are being made fits the range once they arrive.
env -u DISPLAY "$orrery" --headless --solver cpu --n 3000 --frames 30 --color acceleration \
  --width 320 --height 180 --keys fit --screenshot "$dir/color_busy.png" >"$dir/color_busy_last.out" 2>&1 \
  || { cat "$dir/color_busy_last.out"; fail "the headless colour run failed"; }
grep -q "cannot create a headless OpenGL" "$dir/color_busy_last.out" && { echo PASS; exit 0; }
expect_line "$dir/color_busy_last.out" "^color range [0-9.e+-]+ to [0-9.e+-]+ \\(percentiles"
echo PASS
