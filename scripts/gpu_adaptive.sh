#!/usr/bin/env bash
# Issue 26's adaptive step on the GPU machine, from the repo root after `. .gpu/prelude.sh`: every
# GPU test, the existing float figures (which must not move), the adaptive step's cost beside a
# fixed step in the same call, and a Plummer sphere's energy with either. Logs go to OUT_DIR; a
# short table last.
#   scripts/gpu_adaptive.sh SLIM OUT_DIR
. "$(dirname "$0")/gpu_slim_env.sh"
"$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
echo "orrery_gpu_tests exit $?" >>"$out/summary.txt"
{
  "$bench" --solver cuda-static,cuda-fast --n 65536 --steps 20 --warmup 3
  "$bench" --solver cuda-fast --n 1048576 --steps 5 --warmup 1
  "$bench" --solver cuda-bh --preset plummer --n 1048576 --steps 10 --warmup 2 --phases
} >"$out/existing.log" 2>&1
{
  for dt in 0.016 auto; do
    "$bench" --solver cuda-bh --preset plummer --n 1048576 --integrator leapfrog --dt $dt \
      --steps 10 --warmup 2 --phases
    "$bench" --solver cuda-fast --preset plummer --n 65536 --integrator leapfrog --dt $dt \
      --steps 20 --warmup 3 --phases
    "$bench" --solver cuda-fast --preset plummer --n 65536 --integrator leapfrog --dt $dt \
      --precision double --steps 10 --warmup 2 --phases
  done
} >"$out/overhead.log" 2>&1
{
  "$bench" --solver cuda-fast --preset plummer --n 65536 --integrator yoshida4 --dt auto \
    --steps 400 --warmup 0 --diagnostics --precision double
  "$bench" --solver cuda-fast --preset plummer --n 65536 --integrator yoshida4 --dt 0.016 \
    --steps 400 --warmup 0 --diagnostics --precision double
} >"$out/plummer-energy.log" 2>&1
cat "$out/summary.txt"
grep -E "^(cuda-|solver)" "$out/existing.log"
grep -E "^(cuda-|preset)" "$out/overhead.log"
grep -E "^cuda-fast" "$out/plummer-energy.log"
grep -E "Adaptive|FAILED|PASSED|cuda-fast double, e" "$out/gpu-tests.log" | head -20
