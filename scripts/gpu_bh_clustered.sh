#!/usr/bin/env bash
# Issue 24's comparison on the GPU machine, from the repo root after `. .gpu/prelude.sh`: cuda-bh's
# accuracy (theta 0.5, eps 0.01, 8,192 targets at N = 1,048,576) and step time (5 steps after 2,
# --phases) on every preset the issue names, for a build before a change (its orrery-bench in
# BEFORE) and after it (a slim build in SLIM), interleaved in one call; then the GPU tests.
# Logs go to OUT_DIR; a table is printed last.
#   scripts/gpu_bh_clustered.sh BEFORE_BENCH SLIM OUT_DIR
set -u
before=$1
slim=$(cd "$2" && pwd)
out=$(mkdir -p "$3" && cd "$3" && pwd)
after=$slim/src/bench/orrery-bench
presets="plummer collision random clumps plummer-halo box"
for p in $presets; do
  for which in before after; do
    b=$before
    [ $which = after ] && b=$after
    "$b" --accuracy --solver cuda-bh --n 1048576 --preset "$p" --theta 0.5 --softening 0.01 \
      >"$out/accuracy-$p-$which.txt" 2>&1
  done
done
for round in 1 2; do
  for p in plummer random clumps plummer-halo; do
    for which in before after; do
      b=$before
      [ $which = after ] && b=$after
      "$b" --solver cuda-bh --n 1048576 --preset "$p" --theta 0.5 --softening 0.01 --steps 5 \
        --warmup 2 --phases >>"$out/time-$which-$round.txt" 2>&1
    done
  done
done
"$slim/tests/orrery_gpu_tests" --gtest_filter='CudaBh*' >"$out/gpu-bh-tests.log" 2>&1
{
  echo "accuracy, cuda-bh, N 1048576, theta 0.5, eps 0.01: median rms p99 max interactions/body"
  for p in $presets; do
    for which in before after; do
      printf '%-13s %-6s %s\n' "$p" "$which" \
        "$(grep -E '^cuda-bh' "$out/accuracy-$p-$which.txt" | awk '{print $6, $7, $8, $9, $10}')"
    done
  done
  echo "ms a step (median of 5) and the walk's ms, rounds 1 and 2, presets in order:"
  echo "plummer random clumps plummer-halo"
  for which in before after; do
    for round in 1 2; do
      echo "$which $round: $(grep -E '^cuda-bh' "$out/time-$which-$round.txt" |
        awk '{printf "%s/%s  ", $4, $14}')"
    done
  done
  grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-bh-tests.log"
} | tee "$out/table.txt"
