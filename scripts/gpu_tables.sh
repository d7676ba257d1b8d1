#!/usr/bin/env bash
# Issue 41's checks and figures on the GPU machine, from the repo root after `. .gpu/prelude.sh`:
# the GPU and GL tests, the viewer checks (tests/viewer/gpu_check.sh), compute-sanitizer on the
# paths the change touched (colour by each quantity, the collider the Simulation now chooses, the
# gravity-off coast), then the before/after figures the issue names, interleaved twice in one run:
# cuda-fast at 65,536 and 1,048,576, cuda-bh at 1,048,576 and 16,777,216 (plummer), cpu-bh at
# 65,536, and the viewer's headless frame at 1,048,576 under cuda-bh.
#   [SKIP_CHECKS=1] scripts/gpu_tables.sh NEW_SLIM OLD_SLIM OUT_DIR [MEMCHECK_SECONDS, default 300]   (slims from
#   scripts/gpu_slim.sh; OLD_SLIM
#   needs only src/bench/orrery-bench, src/app/orrery and src/app/shaders)
set -u
new=$(cd "$1" && pwd)
old=$(cd "$2" && pwd)
out=$(mkdir -p "$3" && cd "$3" && pwd)
. "$(dirname "$0")/gpu_checks.sh"
[ -n "${SKIP_CHECKS:-}" ] || gpu_checks "$new" "$out" "${4:-300}"
for rep in 1 2; do
  for v in old new; do
    d=$old
    [ $v = new ] && d=$new
    b=$d/src/bench/orrery-bench
    bench_rows "$v #$rep" "$out/fast-$v-$rep.txt" "$b" --solver cuda-fast --n 65536,1048576 \
      --steps 10 --warmup 2
    bench_rows "$v #$rep plummer" "$out/bh-$v-$rep.txt" "$b" --solver cuda-bh --preset plummer \
      --n 1048576,16777216 --steps 10 --warmup 2
    bench_rows "$v #$rep plummer" "$out/cpubh-$v-$rep.txt" "$b" --solver cpu-bh --preset plummer \
      --n 65536 --steps 10 --warmup 2
    viewer_row "$v #$rep viewer 1M cuda-bh" "$out/frame-$v-$rep.log" "$d" --solver cuda-bh --n 1048576 --frames 300
  done
done
[ -e "$out/viewer-check.log" ] && grep -E '^(PASS|FAIL|SKIP)' "$out/viewer-check.log"
printf '%s\n' "${table[@]}"
