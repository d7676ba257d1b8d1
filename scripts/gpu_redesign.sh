#!/usr/bin/env bash
# Issue 20's checks and figures on the GPU machine, from the repo root after `. .gpu/prelude.sh`:
# the GPU and GL tests, the viewer checks (tests/viewer/gpu_check.sh), compute-sanitizer on the
# Simulation's device paths, then the redesign's before/after figures interleaved twice in one
# run: cuda-static and cuda-fast at 65,536 and 1,048,576, cuda-bh at 1,048,576 plummer, the
# collision phases at 1,048,576 box, and the viewer's headless frame at 65,536 (cuda-static).
#   scripts/gpu_redesign.sh NEW_SLIM OLD_SLIM OUT_DIR   (slims from scripts/gpu_slim.sh; OLD_SLIM
#   needs only src/bench/orrery-bench, src/app/orrery and src/app/shaders)
set -u
new=$(cd "$1" && pwd)
old=$(cd "$2" && pwd)
out=$(mkdir -p "$3" && cd "$3" && pwd)
. "$(dirname "$0")/gpu_checks.sh"
gpu_checks "$new" "$out" 120
for rep in 1 2; do
  for v in old new; do
    d=$old
    [ $v = new ] && d=$new
    b=$d/src/bench/orrery-bench
    bench_rows "$v #$rep" "$out/allpairs-$v-$rep.txt" "$b" --solver cuda-static,cuda-fast \
      --n 65536,1048576 --steps 10 --warmup 2
    "$b" --solver cuda-bh --preset plummer --n 1048576 --steps 10 --warmup 2 --phases \
      >"$out/bh-$v-$rep.txt" 2>&1
    row "$v #$rep cuda-bh plummer 1M" "$(grep -E '^cuda-bh ' "$out/bh-$v-$rep.txt" | awk '{print $4 " ms/step"}')"
    "$b" --solver cuda-fast --preset box --n 1048576 --steps 100 --warmup 10 --phases \
      >"$out/box-$v-$rep.txt" 2>&1
    row "$v #$rep box 1M (phases)" "$(grep -E '^cuda-fast ' "$out/box-$v-$rep.txt" | cut -c1-120)"
    viewer_row "$v #$rep viewer 65536 cuda-static" "$out/frame-$v-$rep.log" "$d" --solver cuda-static --n 65536 --frames 300
  done
done
grep -E '^(PASS|FAIL|SKIP)' "$out/viewer-check.log"
printf '%s\n' "${table[@]}"
