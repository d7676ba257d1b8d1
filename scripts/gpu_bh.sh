#!/usr/bin/env bash
# Issue 10's figures on the GPU machine, from the repo root after `. .gpu/prelude.sh`, with a slim
# build (scripts/gpu_slim.sh) in SLIM: accuracy and speed of cpu-bh and cuda-bh on plummer, random
# and collision at theta 0.3-1.0, the large-N steps with phases, the crossovers with the all-pairs
# solvers, --max-n 60, and the GPU tests. Logs go to OUT_DIR (packed into OUT_DIR.tar.gz); a table
# is printed last.   scripts/gpu_bh.sh SLIM OUT_DIR
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
b=$slim/src/bench/orrery-bench
table=()
row() { table+=("$(printf '%-40s %s' "$1" "$2")"); }
"$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
row "orrery_gpu_tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-tests.log" | tr '\n' ' ')"
for preset in plummer random collision; do
  "$b" --accuracy --solver cuda-bh,cpu-bh --n 1048576 --preset $preset --theta 0.3,0.5,0.75,1.0 \
    --cpu-max-n 2000000 --csv "$out/accuracy-$preset.csv" >"$out/accuracy-$preset.txt" 2>&1
  row "accuracy $preset (exit $?)" ""
  "$b" --solver cuda-bh --n 1048576 --preset $preset --theta 0.3,0.5,0.75,1.0 --steps 5 \
    --warmup 2 --phases --csv "$out/time-$preset.csv" >"$out/time-$preset.txt" 2>&1
  row "time $preset 1M (exit $?)" ""
  while read -r line; do row "  " "$line"; done < <(grep -E '^cuda-bh' "$out/time-$preset.txt" | awk '{print $1, $2, $4, $NF}')
done
"$b" --solver cuda-bh --n 4194304,16777216 --preset plummer --theta 0.5,0.75 --steps 3 \
  --warmup 1 --phases --csv "$out/time-large.csv" >"$out/time-large.txt" 2>&1
row "time plummer 4M, 16M (exit $?)" ""
while read -r line; do row "  " "$line"; done < <(grep -E '^cuda-bh' "$out/time-large.txt" | awk '{print $1, $2, $4, $NF}')
"$b" --solver cuda-bh,cuda-fast --n 4096,8192,16384,32768,65536,131072,262144 --preset plummer \
  --steps 5 --warmup 2 --csv "$out/cross-gpu.csv" >"$out/cross-gpu.txt" 2>&1
row "crossover cuda-bh / cuda-fast (exit $?)" ""
"$b" --solver cpu-bh,cpu-omp --n 1024,2048,4096,8192,16384,32768 --preset plummer --steps 3 \
  --warmup 1 --csv "$out/cross-cpu.csv" >"$out/cross-cpu.txt" 2>&1
row "crossover cpu-bh / cpu-omp (exit $?)" ""
"$b" --solver cpu-bh,cuda-bh --max-n 60 --preset plummer --csv "$out/max-n-60.csv" \
  >"$out/max-n-60.txt" 2>&1
row "--max-n 60 (exit $?)" ""
while read -r line; do row "  " "$line"; done < <(grep -E '^(cpu|cuda)-bh ' "$out/max-n-60.txt")
printf '%s\n' "${table[@]}" | tee "$out/table.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out"
