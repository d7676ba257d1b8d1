#!/usr/bin/env bash
# Issue 9's checks and figures on the GPU machine, from the repo root after `. .gpu/prelude.sh`,
# with a slim build (scripts/gpu_slim.sh) in SLIM and, optionally, the previous commit's
# orrery-bench at SLIM/old-bench for a same-run comparison. Logs go to OUT_DIR; a table last.
#   scripts/gpu_pipeline.sh SLIM OUT_DIR tests     GPU and CPU suites; bench before/after
#                                                  (euler, the three CUDA solvers at 65536 and
#                                                  1048576, interleaved twice)
#   scripts/gpu_pipeline.sh SLIM OUT_DIR figures   integrators with phases and diagnostics, --max-n
#                                                  60, convergence, energy traces on plummer, the
#                                                  viewer headless, compute-sanitizer on the new
#                                                  device code
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
mode=$3
export PATH=$PATH:/usr/local/cuda/bin
bench=$slim/src/bench/orrery-bench
. "$(dirname "$0")/gpu_checks.sh"
if [ "$mode" = tests ]; then
  "$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
  row "orrery_gpu_tests (exit $?)" "$(passed "$out/gpu-tests.log")"
  ORRERY_BENCH=$bench "$slim/tests/orrery_tests" >"$out/cpu-tests.log" 2>&1
  row "orrery_tests (exit $?)" "$(passed "$out/cpu-tests.log")"
  for rep in 1 2; do
    for v in old new; do
      b=$bench
      [ $v = old ] && b=$slim/old-bench
      [ -x "$b" ] || continue
      bench_rows "bench $v #$rep" "$out/bench-$v-$rep.txt" "$b" --solver cuda-dynamic,cuda-static,cuda-fast \
        --n 65536,1048576 --steps 10 --warmup 2
    done
  done
else
  for integ in euler leapfrog yoshida4; do
    "$bench" --solver cuda-fast --n 65536,1048576 --preset plummer --integrator $integ --phases \
      --diagnostics --steps 10 --warmup 2 --csv "$out/integrators-$integ.csv" \
      >"$out/integrators-$integ.txt" 2>&1
    while read -r s n blk ms ips gf rest; do
      row "$integ $s N=$n" "$ms ms/step  $ips int/s  $(echo "$rest" | cut -c1-110)"
    done < <(grep -E '^cuda-fast ' "$out/integrators-$integ.txt")
  done
  "$bench" --solver all --max-n 60 --csv "$out/max-n-60.csv" >"$out/max-n-60.txt" 2>&1
  row "--max-n 60 (exit $?)" ""
  while read -r line; do row "  " "$line"; done < <(grep -E '^(cpu|cuda)' "$out/max-n-60.txt")
  "$bench" --convergence --solver cpu,cuda-fast,cuda-static --csv "$out/convergence.csv" \
    >"$out/convergence.txt" 2>&1
  row "--convergence (exit $?)" "$(grep -c '^cuda' "$out/convergence.txt") GPU rows"
  for integ in euler leapfrog yoshida4; do
    "$bench" --solver cuda-fast --n 65536 --preset plummer --integrator $integ --dt 0.1 \
      --steps 2000 --warmup 0 --trace "$out/trace-$integ.csv" --trace-every 20 --diagnostics \
      >"$out/trace-$integ.txt" 2>&1
    row "trace $integ dt 0.1 2000 steps (exit $?)" "$(grep -E '^cuda-fast ' "$out/trace-$integ.txt" | cut -c1-150)"
  done
  o=$slim/src/app/orrery
  env -u DISPLAY "$o" --headless --solver cuda-fast --preset plummer --integrator leapfrog \
    --n 65536 --frames 300 --screenshot "$out/plummer-leapfrog.png" >"$out/viewer.log" 2>&1
  row "viewer headless plummer leapfrog (exit $?)" "$(grep -E 'summary' "$out/viewer.log" | cut -c1-150)"
  row "  " "$(grep -E 'summary' "$out/viewer.log" | sed 's/.*drawing/drawing/')"
  env -u DISPLAY "$o" --headless --solver cuda-fast --preset plummer --integrator leapfrog \
    --n 1048576 --frames 31 >"$out/viewer-1m.log" 2>&1
  row "viewer headless N=1048576 (exit $?)" "$(grep -E 'summary' "$out/viewer-1m.log" | cut -c1-150)"
  row "  " "$(grep -E 'summary' "$out/viewer-1m.log" | sed 's/.*drawing/drawing/')"
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$slim/tests/orrery_gpu_tests" \
    --gtest_filter='Cuda/GpuSystem.DiagnosticsMatch*:Cuda/GpuSystem.Counts*:Cuda/GpuSystem.Leapfrogs*:Cuda/GpuSystem.IntegratorsMatchCpu*' \
    >"$out/sanitizer-memcheck.log" 2>&1
  row "compute-sanitizer memcheck (exit $?)" "$(grep -E 'ERROR SUMMARY' "$out/sanitizer-memcheck.log" | sort | uniq -c | tr '\n' ';')"
  timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 "$slim/tests/orrery_gpu_tests" \
    --gtest_filter='Cuda/GpuSystem.DiagnosticsMatch*' >"$out/sanitizer-racecheck.log" 2>&1
  row "compute-sanitizer racecheck (exit $?)" "$(grep -E 'RACECHECK SUMMARY' "$out/sanitizer-racecheck.log" | sort | uniq -c | tr '\n' ';')"
fi
printf '%s\n' "${table[@]}" | tee "$out/table.txt"
# The device tool brings back a few files: everything in one archive.
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out"
