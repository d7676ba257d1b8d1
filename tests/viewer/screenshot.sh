#!/usr/bin/env bash
# Under Xvfb (Mesa): 30 frames of CPU bodies, a screenshot with visible bodies, exit 0, summary line.
# Usage: screenshot.sh ORRERY PNG_CHECK WORKDIR
set -u
. "$(dirname "$0")/common.sh"
in_xvfb "$@"
orrery=$1 check=$2 dir=$3
png="$dir/viewer_screenshot.png"
rm -f "$png"
"$orrery" --solver cpu --n 2048 --frames 30 --screenshot "$png" --hide-panel >"$dir/screenshot.out" 2>&1
rc=$?
cat "$dir/screenshot.out"
[ $rc -eq 0 ] || fail "orrery exited $rc"
expect_line "$dir/screenshot.out" "^screenshot $png\$"
expect_line "$dir/screenshot.out" "^orrery: summary: 30 frames .*solver cpu, n 2048, path CPU"
[ -s "$png" ] || fail "no PNG written"
"$check" "$png" 1280 720 270 90 || fail "the screenshot shows no bodies"
# Where OpenGL runs on the CPU (Mesa's llvmpipe, as here), auto draws with the CPU splat; the same
# frame (paused: the starting state, whatever the CPU steps took) drawn by GL point sprites and by
# the CPU splat must agree (the overlay's box left out).
if grep -q "^orrery: OpenGL: llvmpipe" "$dir/screenshot.out"; then
  expect_line "$dir/screenshot.out" "^orrery: drawing: cpu-splat "
fi
for d in gl cpu; do
  "$orrery" --solver cpu --n 2048 --frames 5 --paused --hide-panel --draw "$d" \
    --screenshot "$dir/same-frame-$d.png" >"$dir/same-frame-$d.out" 2>&1 || fail "--draw $d: exit $?"
  expect_line "$dir/same-frame-$d.out" "summary: 5 frames .*drawing $([ "$d" = gl ] && echo gl-sprites || echo cpu-splat)"
done
"$check" "$dir/same-frame-cpu.png" 1280 720 270 90 || fail "the CPU splat's picture shows no bodies"
"$(dirname "$check")/orrery_png_diff" "$dir/same-frame-gl.png" "$dir/same-frame-cpu.png" 270 90 ||
  fail "GL sprites and the CPU splat drew different pictures"
echo PASS
