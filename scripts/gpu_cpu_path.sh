#!/usr/bin/env bash
# Issue 25 on the GPU machine, from the repo root after `. .gpu/prelude.sh`: every GPU test (the
# octree and contact headers changed under them), the SIMD and CPU-solver tests on that machine's
# CPU, the CUDA figures the change must leave alone, and the CPU solvers on its cores, before (a
# CPU-only bench of the commit before, SLIM/before-cpu-bench) and after, interleaved. Logs go to
# OUT_DIR; a short table last.
#   scripts/gpu_cpu_path.sh SLIM OUT_DIR
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
mkdir -p /tmp/h && tar xJf "$slim/lib.tar.xz" -C /tmp/h && export LD_LIBRARY_PATH=/tmp/h/lib:${LD_LIBRARY_PATH:-}
new=$slim/src/bench/orrery-bench old=$slim/before-cpu-bench
{ lscpu | grep -E '^Model name|^CPU\(s\)|^Thread|^L2|^L3'; grep -o -w -E 'avx512f|avx2|fma' /proc/cpuinfo | sort | uniq -c; } >"$out/cpu.txt"
"$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
echo "orrery_gpu_tests exit $?" >>"$out/summary.txt"
"$slim/tests/orrery_tests" --gtest_filter='SimdSums.*:CpuSolver.*:CpuBh.*:Collisions.*:CellField.*' \
  >"$out/cpu-tests.log" 2>&1
echo "orrery_tests (SIMD, CPU solvers, collisions) exit $?" >>"$out/summary.txt"
{
  "$new" --solver cuda-static,cuda-fast --n 65536 --steps 20 --warmup 3
  "$new" --solver cuda-fast --n 1048576 --steps 5 --warmup 1
  "$new" --solver cuda-bh --preset plummer --n 1048576 --steps 20 --warmup 3 --phases
  "$new" --solver cuda-static --preset box --n 1048576 --steps 20 --warmup 3 --phases
} >"$out/cuda.log" 2>&1
for round in 1 2; do
  for b in "$old" "$new"; do
    echo "### $([ "$b" = "$old" ] && echo before || echo after) #$round"
    "$b" --solver cpu-omp --n 65536 --preset plummer --steps 3 --warmup 1
    "$b" --solver cpu-bh --n 1048576 --preset plummer --steps 3 --warmup 1 --phases --cpu-max-n 1048576
    "$b" --solver cpu-omp --preset box --n 1048576 --steps 10 --warmup 2 --phases --cpu-max-n 1048576
  done
done >"$out/cpu-solvers.log" 2>&1
for level in $("$new" --n 1 --steps 1 --solver cpu 2>/dev/null | sed -n 's/^CPU: .*(of \(.*\))$/\1/p' | tr -d ,); do
  "$new" --simd "$level" --solver cpu-omp --n 65536 --preset plummer --steps 3 --warmup 1 2>&1 | tail -1
done >"$out/cpu-levels.log"
cat "$out/cpu.txt" "$out/summary.txt"
grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$out/gpu-tests.log" "$out/cpu-tests.log" | head -20
grep -E '^cuda' "$out/cuda.log" | cut -c1-60
grep -E '^###|^cpu' "$out/cpu-solvers.log" | cut -c1-60
cut -c1-60,100-140 "$out/cpu-levels.log"
