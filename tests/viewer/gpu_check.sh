#!/usr/bin/env bash
# The viewer's checks that need the GPU machine. Run from the repo root after `. .gpu/prelude.sh`
# (staged with --xvfb for the windowed checks): headless zero-copy with the CUDA splat, GL sprites
# against the CUDA splat on the same frame, scripted solver and draw switches across CPU and GPU,
# GLFW under Xvfb with NVIDIA (zero-copy) and Mesa (staged copy), headless FPS of both draw modes
# beside orrery-bench's solver-only time.
# Writes logs and screenshots to OUT_DIR and prints one verdict line per check.
# Usage: tests/viewer/gpu_check.sh BUILD_DIR OUT_DIR
set -u
build=$(cd "$1" && pwd)
orrery=$build/src/app/orrery
out=$(mkdir -p "$2" && cd "$2" && pwd)
status=0

# check NAME LOG RC REGEX...: RC is 0, every REGEX has a matching line in LOG, and no line reports
# an error.
check() {
  local name=$1 log=$2 rc=$3 ok=1
  shift 3
  [ "$rc" -eq 0 ] || ok=0
  for re in "$@"; do grep -Eq "$re" "$log" || { echo "   missing: $re"; ok=0; }; done
  # The staged-copy line quotes CUDA's registration error on purpose: that one is expected.
  if grep -i "error" "$log" | grep -qv "render path: staged copy"; then
    grep -i error "$log" | grep -v "render path: staged copy" | sed 's/^/   /'
    ok=0
  fi
  if [ $ok -eq 1 ]; then echo "PASS $name"; else echo "FAIL $name (exit $rc, see $log)"; status=1; fi
}

cd "$out" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# 1. Headless EGL on the NVIDIA device: zero-copy interop and a screenshot with bodies.
env -u DISPLAY "$orrery" --headless --solver cuda-static --n 65536 --frames 200 \
  --screenshot "$out/headless-zero-copy.png" >headless.log 2>&1
check "headless zero-copy" headless.log $? "headless context: EGL device .*CUDA device 0" \
  "render path: zero-copy interop" "drawing: cuda-splat" "^screenshot " \
  "summary: 200 frames .*path zero-copy interop, drawing cuda-splat"

# 1b. The same frame drawn by GL point sprites and by the CUDA splat: the pictures must agree
#     (the overlay's box, whose FPS text differs, is left out).
for d in gl cuda; do
  env -u DISPLAY "$orrery" --headless --solver cuda-static --n 16384 --frames 5 --hide-panel \
    --draw "$d" --screenshot "$out/same-frame-$d.png" >"same-frame-$d.log" 2>&1 || echo "   --draw $d: exit $?"
done
"$build/tests/viewer/orrery_png_diff" "$out/same-frame-gl.png" "$out/same-frame-cuda.png" 270 90 \
  >same-frame.log 2>&1
check "gl sprites = cuda splat" same-frame.log $? "^png_diff: mean"

# 2. Headless scripted switches: GPU -> CPU -> GPU residency moves, block sizes, a sweep, F12.
#    Solver order: cpu, cpu-omp, cpu-bh, cuda-dynamic, cuda-static, cuda-fast (default), cuda-bh.
# (On a machine with several GPUs the solvers that spread use them all: "... on 2 GPUs".)
g='( on [0-9]+ GPUs)?'
env -u DISPLAY "$orrery" --headless --n 16384 --frames 40 \
  --keys S,b,b,B,sweep,S,S,s,s,s,b,sweep,d,d,space,.,r,5,f12,esc \
  --screenshot "$out/headless-switches.png" >switches.log 2>&1
check "headless switches" switches.log $? "^solver cuda-static block 256$g\$" "^solver cuda-static block 512$g\$" \
  "^sweep cuda-static n 16384: 32 .* 1024 .*best" "^solver cpu-bh$" "^solver cuda-dynamic block 256$g\$" \
  "^solver cuda-fast block" "^sweep cuda-fast n 16384" "^draw gl-sprites$" "^draw cuda-splat$" \
  "^preset collision$" "^screenshot orrery-" "^quit$"

if [ -n "${DISPLAY:-}" ]; then
  # 3. GLFW window under Xvfb with NVIDIA's GLX: the context is on the CUDA device -> zero-copy.
  __GLX_VENDOR_LIBRARY_NAME=nvidia "$orrery" --solver cuda-static --n 65536 --frames 200 --vsync off \
    --screenshot "$out/xvfb-nvidia.png" >xvfb-nvidia.log 2>&1
  check "xvfb nvidia zero-copy" xvfb-nvidia.log $? "OpenGL: NVIDIA" "render path: zero-copy interop" \
    "drawing: cuda-splat" \
    "summary: 200 frames .*path zero-copy interop"
  # 4. The same with Mesa's GLX (llvmpipe): registration fails -> staged copy, still renders; the
  #    scripted keys move the state GPU -> CPU -> GPU through the staging arrays.
  __GLX_VENDOR_LIBRARY_NAME=mesa "$orrery" --solver cuda-static --n 16384 --frames 60 --vsync off \
    --keys S,S,s,s --screenshot "$out/xvfb-mesa.png" >xvfb-mesa.log 2>&1
  check "xvfb mesa staged copy" xvfb-mesa.log $? "OpenGL: llvmpipe" "render path: staged copy" \
    "drawing: cpu-splat" \
    "^solver cpu-bh$" "summary: 60 frames .*path staged copy"
else
  echo "SKIP xvfb checks: no DISPLAY (stage with ../shared/gpu/stage --xvfb)"
fi

# 5. Headless FPS with cuda-static (panel shown, as a user sees it), in both draw modes, beside
#    orrery-bench's solver-only time at the same N (block 256, the viewer's default for cuda-static):
#    frame ms - bench ms is the cost of interop, drawing and UI.
"$build/src/bench/orrery-bench" --solver cuda-static --block 256 --n 16384,65536,262144 --steps 50 \
  --warmup 5 >bench.log 2>&1 || { echo "FAIL orrery-bench (see bench.log)"; status=1; }
for n in 16384 65536 262144; do
  for d in cuda gl; do
    env -u DISPLAY "$orrery" --headless --solver cuda-static --n "$n" --frames 300 --draw "$d" \
      >"fps-$n-$d.log" 2>&1 || { echo "FAIL fps N=$n --draw $d (see fps-$n-$d.log)"; status=1; }
  done
done
echo "N        draw   mean FPS   frame ms   sim ms  draw ms  bench ms  frame-bench ms"
for n in 16384 65536 262144; do
  bench=$(awk -v n="$n" '$1 == "cuda-static" && $2 == n { print $4 }' bench.log)
  for d in cuda gl; do
    grep summary "fps-$n-$d.log" |
      sed -E 's/.*mean ([0-9.]+) FPS \(([0-9.]+) ms\/frame\), sim ([0-9.]+) ms\/frame, draw ([0-9.]+) ms.*/\1 \2 \3 \4/' |
      awk -v n="$n" -v d="$d" -v b="${bench:-nan}" \
        '{ printf "%-8s %-5s %9.1f %10.3f %8.3f %8.3f %9.3f %15.3f\n", n, d, $1, $2, $3, $4, b, $2 - b }'
  done
done
exit $status
