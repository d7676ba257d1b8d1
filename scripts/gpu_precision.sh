#!/usr/bin/env bash
# Issue 26's double precision on the GPU machine, from the repo root after `. .gpu/prelude.sh`:
# every GPU test, the double all-pairs figures at 1,048,576 beside the float ones (which must not
# move), NVIDIA's nbody sample where the machine has it, and the 16,384-body Plummer sphere's
# energy over a crossing time at two steps. Logs go to OUT_DIR; a short table last.
#   scripts/gpu_precision.sh SLIM OUT_DIR
. "$(dirname "$0")/gpu_slim_env.sh"
{ command -v nbody; ls -d /usr/local/cuda*/extras/demo_suite 2>/dev/null;
  find / -xdev -name 'nbody*' -type f -perm -u+x 2>/dev/null | head; } >"$out/nbody-search.txt" 2>&1
"$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
echo "orrery_gpu_tests exit $?" >>"$out/summary.txt"
{
  for round in 1 2; do
    "$bench" --solver cuda-fast --n 1048576 --steps 5 --warmup 1 --precision double
    "$bench" --solver cuda-fast --n 1048576 --steps 5 --warmup 1
  done
  "$bench" --solver cuda-static,cuda-dynamic --n 262144 --steps 3 --warmup 1 --precision double
  "$bench" --solver cuda-static --n 1048576 --steps 5 --warmup 1
  "$bench" --solver cuda-static,cuda-fast --n 65536 --steps 20 --warmup 3
  "$bench" --solver cuda-fast --n 65536,262144 --steps 10 --warmup 2 --precision double
} >"$out/bench.log" 2>&1
for dt in 0.016 0.008; do
  steps=$(python3 -c "import math; print(math.ceil(31.6227766/$dt))")
  "$bench" --solver cuda-fast --preset plummer --n 16384 --integrator yoshida4 --dt $dt \
    --precision double --steps "$steps" --warmup 0 --diagnostics >>"$out/plummer-energy.log" 2>&1
done
nb=$(head -1 "$out/nbody-search.txt")
if [ -n "$nb" ] && [ -x "$nb" ]; then
  "$nb" -benchmark -fp64 -numbodies=1048576 >"$out/nbody-fp64.log" 2>&1
fi
cat "$out/summary.txt"
grep -E "^(cuda-|solver)" "$out/bench.log"
grep -E "^cuda-fast|dE" "$out/plummer-energy.log"
grep -E "Plummer 16384|FAILED|PASSED" "$out/gpu-tests.log" | head -20
cat "$out/nbody-search.txt"
