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
# 10 keys, the last (esc) on frame 11. d switches between GL sprites and the splat of the machine:
# from the CUDA splat (zero-copy path) or the CPU splat (Mesa's software EGL) to GL sprites, or from
# GL sprites (a hardware OpenGL without CUDA) to the CPU splat.
(cd "$dir" && rm -f orrery-*.png &&
  env -u DISPLAY "$orrery" --headless --solver cpu --n 256 --frames 50 --width 320 --height 180 \
    --keys s,b,sweep,space,.,4,6,d,f12,esc >"$dir/headless_keys.out" 2>&1) || fail "scripted keys: exit $?"
cat "$dir/headless_keys.out"
got=$(grep -v '^orrery: ' "$dir/headless_keys.out" | sed -E 's/orrery-[0-9-]*\.png/PNG/; s/^draw (gl-sprites|cpu-splat)$/DRAW/' | tr '\n' '|')
want="solver cpu-omp|block: cpu-omp runs on the CPU and has no block size|sweep: cpu-omp runs on the CPU and has no block sizes|paused|step|preset disk|preset plummer|DRAW|screenshot PNG|quit|"
[ "$got" = "$want" ] || fail "scripted keys printed '$got', expected '$want'"
expect_line "$dir/headless_keys.out" '^orrery: summary: 11 frames '
# Issue 25: with no --n and no GPU, N is sized to the CPU: cpu-omp and cpu-bh probed, the one that
# reached the larger N started with it, all printed; a typed solver is probed alone.
if ! nvidia-smi -L >/dev/null 2>&1; then
  env -u DISPLAY "$orrery" --headless --frames 2 --width 320 --height 180 >"$dir/headless_sized.out" 2>&1 ||
    fail "sized to the CPU: exit $?"
  cat "$dir/headless_sized.out"
  line=$(grep '^orrery: solver ' "$dir/headless_sized.out")
  [[ $line =~ ^orrery:\ solver\ (cpu-omp|cpu-bh),\ n\ ([0-9]+)\ \(sized\ to\ this\ CPU:\ the\ largest\ power\ of\ two\ whose\ step\ takes\ under\ 25\ ms\ \(cpu-omp\ ([0-9]+),\ cpu-bh\ ([0-9]+)\),\ with\ (cpu-omp|cpu-bh)\ at\ [0-9.]+\ ms\;\ probed\ in\ 0\.[0-9]+\ s\;\ --n\ changes\ it\) ]] ||
    fail "no CPU sizing line: $line"
  solver=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]} omp=${BASH_REMATCH[3]} bh=${BASH_REMATCH[4]}
  want_solver=cpu-omp want_n=$omp
  ((bh > omp)) && want_solver=cpu-bh want_n=$bh
  # At the same N the faster step wins, which the line does not show: either may start.
  ((bh == omp)) && want_solver=$solver
  [ "$solver" = "$want_solver" ] && [ "$n" = "$want_n" ] && [ "${BASH_REMATCH[5]}" = "$solver" ] ||
    fail "started $solver at $n, but the probe found cpu-omp $omp, cpu-bh $bh"
  ((n >= 256 && (n & (n - 1)) == 0)) || fail "N $n is not a power of two of at least 256"
  env -u DISPLAY "$orrery" --headless --solver cpu --frames 2 --width 320 --height 180 \
    >"$dir/headless_sized_cpu.out" 2>&1 || fail "sized for cpu: exit $?"
  expect_line "$dir/headless_sized_cpu.out" '^orrery: solver cpu, n [0-9]+ \(sized to this CPU: .* \(cpu [0-9]+\), with cpu at '
fi
echo PASS
