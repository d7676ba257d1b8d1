#!/usr/bin/env bash
# Issue 27's checks and figures on a several-GPU machine, from the repo root after
# `. .gpu/prelude.sh`: finds NCCL (libnccl.so.2, shipped with CUDA or PyTorch there), shows how the
# GPUs are linked, runs the GPU tests (the spread ones first), --compare on every GPU count, the
# viewer headless on every GPU, then times one GPU against all of them side by side, twice:
# cuda-fast and cuda-static at 1,048,576, cuda-bh at 1,048,576 and 16,777,216 plummer; with a
# BEFORE bench (the commit before), its one-GPU figures interleaved with ours.
# Everything it writes is also packed into OUT_DIR.tar.gz (the device tool returns few files).
#   scripts/gpu_spread.sh SLIM OUT_DIR [BEFORE_SLIM] [figures]   (slims from scripts/gpu_slim.sh;
#   `figures`: the timings alone, no tests or viewer; SKIP_SUITE=1: the spread tests but not the
#   whole GPU suite)
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
before=${3:-}
only_figures=${4:-}
[ -n "$before" ] && before=$(cd "$before" && pwd)
nccl=$(find / -xdev -name 'libnccl.so.2' 2>/dev/null | head -1)
[ -n "$nccl" ] && export LD_LIBRARY_PATH="$(dirname "$nccl"):${LD_LIBRARY_PATH:-}"
echo "NCCL: ${nccl:-not found}" >"$out/nccl.txt"
nvidia-smi topo -m >"$out/topo.txt" 2>&1
gpus=$(nvidia-smi -L | wc -l)
table=()
row() { table+=("$(printf '%-46s %s' "$1" "$2")"); }
b=$slim/src/bench/orrery-bench
list=1
for g in $(seq 2 "$gpus"); do list="$list,$g"; done
if [ -z "$only_figures" ]; then
timeout 300 "$slim/tests/orrery_gpu_tests" --gtest_filter='Spread*' >"$out/spread-tests.log" 2>&1
row "spread tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/spread-tests.log" | tr '\n' ' ')"
"$b" --solver cuda-fast,cuda-bh,cuda-static,cuda-dynamic --n 4097 --compare --gpus "$list" \
  >"$out/compare.txt" 2>&1
row "--compare --gpus $list (exit $?)" "$(grep -c ' ok ' "$out/compare.txt") ok, $(grep -c FAIL "$out/compare.txt") FAIL"
if [ -z "${SKIP_SUITE:-}" ]; then
  timeout 400 "$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
  row "orrery_gpu_tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-tests.log" | tr '\n' ' ')"
fi
for s in cuda-fast cuda-bh; do
  timeout 120 "$slim/src/app/orrery" --headless --solver $s --gpus "$gpus" --preset collision \
    --n 1048576 --frames 40 --screenshot "$out/viewer-$s-x$gpus.png" >"$out/viewer-$s.log" 2>&1
  row "viewer $s --gpus $gpus (exit $?)" "$(grep -o 'mean [0-9.]* FPS ([0-9.]* ms/frame), sim [0-9.]* ms/frame' "$out/viewer-$s.log")"
  tail -3 "$out/viewer-$s.log"
done
fi
for rep in 1 2; do
  if [ -n "$before" ]; then
    "$before/src/bench/orrery-bench" --solver cuda-fast,cuda-static --n 1048576 --steps 5 \
      --warmup 2 >"$out/allpairs-before-$rep.txt" 2>&1
    "$before/src/bench/orrery-bench" --solver cuda-bh --preset plummer --n 1048576,16777216 \
      --steps 5 --warmup 2 >"$out/bh-before-$rep.txt" 2>&1
    while read -r s n blk ms rest; do
      row "#$rep before $s N=$n" "$ms ms/step"
    done < <(grep -hE '^cuda-(static|fast|bh) +[0-9]' "$out/allpairs-before-$rep.txt" "$out/bh-before-$rep.txt")
  fi
  "$b" --solver cuda-fast,cuda-static --n 1048576 --steps 5 --warmup 2 --gpus "$list" --phases \
    >"$out/allpairs-$rep.txt" 2>&1
  "$b" --solver cuda-bh --preset plummer --n 1048576,16777216 --steps 5 --warmup 2 --gpus "$list" \
    --phases >"$out/bh-$rep.txt" 2>&1
  while read -r s n blk ms rest; do
    row "#$rep $s x1 N=$n" "$ms ms/step"
  done < <(grep -hE '^cuda-(static|fast|bh) +[0-9]' "$out/allpairs-$rep.txt" "$out/bh-$rep.txt")
  while read -r s x n blk ms rest; do
    row "#$rep $s $x N=$n" "$ms ms/step"
  done < <(grep -hE '^cuda-(static|fast|bh) x' "$out/allpairs-$rep.txt" "$out/bh-$rep.txt")
done
printf '%s\n' "${table[@]}" | tee "$out/table.txt"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
