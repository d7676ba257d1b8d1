#!/usr/bin/env bash
# On the GPU machine: the checks and figures of the package issue (46) in one call.
#   NEW, OLD: scripts/gpu_slim.sh folders of this build and of the baseline, unpacked; PY: a folder
#   holding src/sim/liborrery_sim.a and src/bench/orrery-bench of a CUDA build without HDF5 (the
#   machine has no libhdf5), for the Python module that scripts/gpu_python.sh builds there.
# 1. orrery_gpu_tests, and compute-sanitizer's memcheck of the test-particle tests;
# 2. cuda-fast and cuda-bh, old against new, alternated twice: nothing got slower;
# 3. scripts/gpu_python.sh: the Python tests there and stepping from Python against orrery-bench;
# 4. scripts/gpu_test_particles.sh: what test particles cost.
# Usage (device, after `. .gpu/prelude.sh` and NEW/lib.tar.xz unpacked into /tmp):
#   scripts/gpu_package.sh NEW OLD PY OUT
set -uo pipefail
new=$1 old=$2 py=$3 out=$4
mkdir -p "$out"
echo "== orrery_gpu_tests"
"$new/tests/orrery_gpu_tests" >"$out/gpu_tests.txt" 2>&1
grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests ran" "$out/gpu_tests.txt" | head -12
echo "== memcheck: test particles"
compute-sanitizer --tool memcheck "$new/tests/orrery_gpu_tests" --gtest_filter='GpuTestParticles*' \
  2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED" | head -4
echo "== old against new (steps: median ms)"
for round in 1 2; do
  for side in old new; do
    dir=$old; [ "$side" = new ] && dir=$new
    for run in "cuda-fast 1048576 10" "cuda-bh 1048576 30" "cuda-fast 65536 50"; do
      set -- $run
      "$dir/src/bench/orrery-bench" --solver "$1" --n "$2" --preset plummer --steps "$3" --warmup 3 \
        >"$out/ab_${side}_${1}_${2}_$round.txt" 2>&1
      printf '%s round %s %-9s %8s: %s\n' "$side" "$round" "$1" "$2" \
        "$(grep -E "^$1 " "$out/ab_${side}_${1}_${2}_$round.txt" | head -1)"
    done
  done
done
export ORRERY_VIEWER=$new/src/app/orrery
scripts/gpu_python.sh "$py" "$out/py" 2>&1 | tail -12
scripts/gpu_test_particles.sh "$py/src/bench/orrery-bench" "$out/tp" 2>&1 | tail -24
