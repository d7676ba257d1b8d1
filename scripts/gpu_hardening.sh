#!/usr/bin/env bash
# Issue 8's checks on the GPU machine, from the repo root after `. .gpu/prelude.sh`, with a slim
# build (scripts/gpu_slim.sh) in SLIM and, optionally, the previous commit's orrery-bench at
# SLIM/old-bench for a same-run comparison. Logs go to OUT_DIR; a table is printed last.
#   scripts/gpu_hardening.sh SLIM OUT_DIR tests|sanitize
#   tests:    GPU and CPU test suites, bench before/after (cuda-static, cuda-fast at 65536 and
#             1048576, interleaved twice), viewer checks (non-finite on the device, hardening.sh)
#   sanitize: compute-sanitizer memcheck, racecheck, initcheck over orrery_gpu_tests
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
mode=$3
export PATH=$PATH:/usr/local/cuda/bin
. "$(dirname "$0")/gpu_checks.sh"
if [ "$mode" = tests ]; then
  "$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
  row "orrery_gpu_tests (exit $?)" "$(passed "$out/gpu-tests.log")"
  ORRERY_BENCH=$slim/src/bench/orrery-bench "$slim/tests/orrery_tests" >"$out/cpu-tests.log" 2>&1
  row "orrery_tests (exit $?)" "$(passed "$out/cpu-tests.log")"
  for rep in 1 2; do
    for v in old new; do
      b=$slim/src/bench/orrery-bench
      [ $v = old ] && b=$slim/old-bench
      [ -x "$b" ] || continue
      bench_rows "bench $v #$rep" "$out/bench-$v-$rep.txt" "$b" --solver cuda-static,cuda-fast \
        --n 65536,1048576 --steps 10 --warmup 2
    done
  done
  o=$slim/src/app/orrery
  env -u DISPLAY "$o" --headless --solver cuda-fast --n 16384 --dt 1e30 --frames 40 \
    --width 640 --height 360 >"$out/viewer-nonfinite.log" 2>&1
  row "viewer non-finite, cuda-fast (exit $?)" "$(grep -E 'non-finite' "$out/viewer-nonfinite.log")"
  env -u DISPLAY "$o" --headless --solver cpu-omp --n 512 --dt 1e30 --frames 10 \
    --width 640 --height 360 >"$out/viewer-nonfinite-cpu.log" 2>&1
  row "viewer non-finite, cpu-omp (exit $?)" "$(grep -E 'non-finite' "$out/viewer-nonfinite-cpu.log")"
  env -u DISPLAY "$o" --headless --n 65536 --frames 120 --screenshot "$out/headless.png" \
    >"$out/viewer-headless.log" 2>&1
  row "viewer headless default (exit $?)" "$(grep -E 'summary' "$out/viewer-headless.log" | cut -c1-120)"
  bash tests/viewer/hardening.sh "$o" "$out" >"$out/viewer-hardening.log" 2>&1
  row "tests/viewer/hardening.sh (exit $?)" "$(tail -1 "$out/viewer-hardening.log")"
else
  # Each tool over the whole suite, in 12 gtest shards run side by side (racecheck is slow).
  shards=12
  for tool in memcheck initcheck racecheck; do
    start=$(date +%s)
    for i in $(seq 0 $((shards - 1))); do
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout 400 compute-sanitizer --tool "$tool" \
        --error-exitcode 9 "$slim/tests/orrery_gpu_tests" >"$out/sanitizer-$tool-$i.log" 2>&1 &
    done
    codes=""
    for job in $(jobs -p); do wait "$job"; codes="$codes$?"; done
    cat "$out"/sanitizer-$tool-*.log >"$out/sanitizer-$tool.log"
    rm -f "$out"/sanitizer-$tool-*.log
    tests=$(grep -c '^\[       OK \]' "$out/sanitizer-$tool.log")
    errors=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
    row "compute-sanitizer $tool ($(( $(date +%s) - start )) s)" \
      "exit codes $codes; $tests tests OK; $errors"
  done
fi
printf '%s\n' "${table[@]}"
