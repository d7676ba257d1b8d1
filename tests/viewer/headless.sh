#!/usr/bin/env bash
# --headless through EGL (Mesa's software device here, NVIDIA's on a GPU server): same renderer,
# a screenshot with bodies. Skips where no EGL display works. Usage: headless.sh ORRERY PNG_CHECK WORKDIR
set -u
. "$(dirname "$0")/common.sh"
orrery=$1 check=$2 dir=$3
png="$dir/viewer_headless.png"
rm -f "$png"
env -u DISPLAY "$orrery" --headless --solver cpu --n 2048 --frames 10 --width 640 --height 360 \
  --screenshot "$png" >"$dir/headless.out" 2>&1
rc=$?
cat "$dir/headless.out"
grep -q "cannot create a headless OpenGL" "$dir/headless.out" && skip "no EGL display here"
[ $rc -eq 0 ] || fail "orrery --headless exited $rc"
expect_line "$dir/headless.out" '^orrery: headless context: EGL'
expect_line "$dir/headless.out" '^orrery: summary: 10 frames '
"$check" "$png" 640 360 0 0 || fail "the headless screenshot shows no bodies"
echo PASS
