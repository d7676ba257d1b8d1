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
# Scripted keys (--keys) drive the same actions as typed ones, one per frame from the second:
# 10 keys, the last (esc) on frame 11. d switches from the CUDA splat to GL sprites on the zero-copy
# path, and is refused (GL sprites stay) on the others.
(cd "$dir" && rm -f orrery-*.png &&
  env -u DISPLAY "$orrery" --headless --solver cpu --n 256 --frames 50 --width 320 --height 180 \
    --keys s,b,sweep,space,.,4,6,d,f12,esc >"$dir/headless_keys.out" 2>&1) || fail "scripted keys: exit $?"
cat "$dir/headless_keys.out"
got=$(grep -v '^orrery: ' "$dir/headless_keys.out" | sed -E 's/orrery-[0-9-]*\.png/PNG/; s/^draw(: .*; drawing)? gl-sprites$/DRAW/' | tr '\n' '|')
want="solver cpu-omp|block: cpu-omp runs on the CPU and has no block size|sweep: cpu-omp runs on the CPU and has no block sizes|paused|step|preset disk|preset plummer|DRAW|screenshot PNG|quit|"
[ "$got" = "$want" ] || fail "scripted keys printed '$got', expected '$want'"
expect_line "$dir/headless_keys.out" '^orrery: summary: 11 frames '
echo PASS
