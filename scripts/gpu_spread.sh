#!/usr/bin/env bash
# Issue 27's checks and figures on a several-GPU machine, from the repo root after
# `. .gpu/prelude.sh`: finds NCCL (libnccl.so.2, shipped with CUDA or PyTorch there), shows how the
# GPUs are linked, runs the GPU tests (the spread ones first), then times one GPU against all of
# them side by side in one run: cuda-fast and cuda-static at 1,048,576, cuda-bh at 1,048,576 and
# 16,777,216 plummer, and --compare with every GPU.
#   scripts/gpu_spread.sh SLIM OUT_DIR [QUICK]   (SLIM from scripts/gpu_slim.sh; QUICK: tests only)
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
quick=${3:-}
nccl=$(find / -xdev -name 'libnccl.so.2' 2>/dev/null | head -1)
[ -n "$nccl" ] && export LD_LIBRARY_PATH="$(dirname "$nccl"):${LD_LIBRARY_PATH:-}"
echo "NCCL: ${nccl:-not found}" | tee "$out/nccl.txt"
nvidia-smi topo -m >"$out/topo.txt" 2>&1
gpus=$(nvidia-smi -L | wc -l)
table=()
row() { table+=("$(printf '%-44s %s' "$1" "$2")"); }
b=$slim/src/bench/orrery-bench
timeout 300 "$slim/tests/orrery_gpu_tests" --gtest_filter='Spread*' >"$out/spread-tests.log" 2>&1
row "spread tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/spread-tests.log" | tr '\n' ' ')"
list=1
for g in $(seq 2 "$gpus"); do list="$list,$g"; done
"$b" --solver cuda-fast,cuda-bh,cuda-static --n 4097 --compare --gpus "$list" \
  >"$out/compare.txt" 2>&1
row "--compare --gpus $list (exit $?)" "$(grep -c ' ok ' "$out/compare.txt") ok, $(grep -c FAIL "$out/compare.txt") FAIL"
if [ -z "$quick" ]; then
  timeout 400 "$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
  row "orrery_gpu_tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-tests.log" | tr '\n' ' ')"
  "$b" --solver cuda-fast,cuda-static --n 1048576 --steps 5 --warmup 2 --gpus "$list" --phases \
    >"$out/allpairs.txt" 2>&1
  "$b" --solver cuda-bh --preset plummer --n 1048576,16777216 --steps 5 --warmup 2 --gpus "$list" \
    --phases >"$out/bh.txt" 2>&1
  while read -r s x n blk ms rest; do
    row "$s $x N=$n" "$ms ms/step"
  done < <(grep -hE '^cuda-(static|fast|bh) x' "$out/allpairs.txt" "$out/bh.txt")
  while read -r s n blk ms rest; do
    row "$s x1 N=$n" "$ms ms/step"
  done < <(grep -hE '^cuda-(static|fast|bh) +[0-9]' "$out/allpairs.txt" "$out/bh.txt")
fi
printf '%s\n' "${table[@]}"
