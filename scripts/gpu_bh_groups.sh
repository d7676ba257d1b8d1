#!/usr/bin/env bash
# A trial of cuda-bh's walk (groups of up to 64 bodies, two a lane: not kept, docs/barnes-hut.md)
# against a build before it, and cpu-bh's parallel build against one before it, on the GPU
# machine, from the repo root after `. .gpu/prelude.sh`: the GPU tests; accuracy at 1M on every preset (theta 0.5, eps 0.01); step
# times at 1M (two interleaved rounds) and 16M; cpu-bh at 1M on the host's cores. Logs go to
# OUT_DIR; a table is printed last.
#   [SKIP_ACCURACY=1] scripts/gpu_bh_groups.sh SLIM OUT_DIR BEFORE_GPU_BENCH BEFORE_CPU_BENCH
. "$(dirname "$0")/gpu_slim_env.sh"
before=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
before_cpu=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
"$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
echo "orrery_gpu_tests (exit $?): $(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-tests.log" | tr '\n' ' ')" >"$out/table.txt"
grep -E '^\[  FAILED  \]' "$out/gpu-tests.log" >>"$out/table.txt"
. "$(dirname "$0")/gpu_bh_measures.sh"
cpu_ms() {  # bench -> cpu-bh 1M plummer ms a step / the build's ms
  "$1" --solver cpu-bh --n 1048576 --preset plummer --cpu-max-n 1048576 --steps 3 --warmup 1 \
    --phases 2>&1 | tee -a "$out/cpu-bh.log" | awk '/^cpu-bh/ {printf "%s/%s", $4, $12}'
}
{
  if [ -z "${SKIP_ACCURACY:-}" ]; then
    echo "accuracy at 1M, theta 0.5, eps 0.01: median rms p99 max interactions/body"
    for p in plummer collision random clumps plummer-halo box; do
      echo "$p before $(accuracy "$before" 1048576 $p)"
      echo "$p after  $(accuracy "$bench" 1048576 $p)"
    done
  fi
  step_table "$before" "$bench" 10 3
  echo "cpu-bh 1M plummer on $(nproc) host threads, ms a step / the build's ms (3 after 1), two rounds"
  for round in 1 2; do
    echo "$round before $(cpu_ms "$before_cpu") after $(cpu_ms "$bench")"
  done
} >>"$out/table.txt" 2>&1
cat "$out/table.txt"
