#!/usr/bin/env bash
# Issue 24's measurements on the GPU machine, from the repo root after `. .gpu/prelude.sh`, for a
# build before a change (its orrery-bench in BEFORE) and after it (a slim build in SLIM):
# cuda-bh's accuracy (theta 0.5, eps 0.01) at 65,536 and 1,048,576 on every preset the issue names;
# step times at 1M (5 steps after 2, --phases, two interleaved rounds) and at 16M (plummer); the
# energy over ten crossing times (leapfrog, 65,536 plummer: --trace); then the cuda-bh GPU tests.
# Logs go to OUT_DIR; a table is printed last.
#   scripts/gpu_bh_clustered.sh BEFORE_BENCH SLIM OUT_DIR
set -u
before=$1
slim=$(cd "$2" && pwd)
out=$(mkdir -p "$3" && cd "$3" && pwd)
after=$slim/src/bench/orrery-bench
presets="plummer collision random clumps plummer-halo box"
. "$(dirname "$0")/gpu_bh_measures.sh"
{
  echo "accuracy, cuda-bh, theta 0.5, eps 0.01: median rms p99 max interactions/body"
  for n in 65536 1048576; do
    for p in $presets; do
      echo "$n $p before $(accuracy "$before" $n $p)"
      echo "$n $p after  $(accuracy "$after" $n $p)"
    done
  done
  step_table "$before" "$after" 5 2
} | tee "$out/table.txt"
# Ten crossing times of the plummer preset (31.6 time units each) at dt 0.016 and eps 0.1.
"$after" --solver cuda-bh --n 65536 --preset plummer --integrator leapfrog --theta 0.5 \
  --steps 19760 --warmup 0 --diagnostics --trace "$out/energy.csv" --trace-every 247 \
  >"$out/energy.log" 2>&1
"$slim/tests/orrery_gpu_tests" --gtest_filter='CudaBh*' >"$out/gpu-bh-tests.log" 2>&1
{
  echo "energy: $(tail -1 "$out/energy.csv")"
  grep -E '^\[  (PASSED|FAILED) |FAILED  \]' "$out/gpu-bh-tests.log"
} | tee -a "$out/table.txt"
