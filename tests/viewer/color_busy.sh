#!/usr/bin/env bash
# Issue 21: colouring by acceleration on a CPU solver is a whole force pass (minutes at
# N = 200,000 with cpu-omp here). It runs off the UI thread: Esc ends the viewer within 2 s while
# it is in flight (it once had no effect 50 s later); a range fit asked meanwhile is done when the
# values arrive. Usage: color_busy.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
command -v xdotool >/dev/null || skip "xdotool is not installed"
viewer_test "$@"
out="$dir/color_busy.out"
# 3 s: the first step and the first colour pass are both in flight.
escape_while_busy "$out" 3 2000 --solver cpu-omp --n 200000 --color acceleration
# Headless: F (fit) asked while the values are being made fits the range once they arrive.
env -u DISPLAY "$orrery" --headless --solver cpu --n 3000 --frames 30 --color acceleration \
  --width 320 --height 180 --keys fit --screenshot "$dir/color_busy.png" >"$dir/color_busy_last.out" 2>&1 \
  || { cat "$dir/color_busy_last.out"; fail "the headless colour run failed"; }
grep -q "cannot create a headless OpenGL" "$dir/color_busy_last.out" && { echo PASS; exit 0; }
expect_line "$dir/color_busy_last.out" "^color range [0-9.e+-]+ to [0-9.e+-]+ \\(percentiles"
echo PASS
