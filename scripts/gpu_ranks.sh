#!/usr/bin/env bash
# cuda-bh over MPI ranks on the GPU machine (issue 47), after `. .gpu/prelude.sh; . .gpu/mpi/env.sh`:
# the forces against one process's cuda-bh (orrery_mpi_check --gpu on 1-3 ranks, a GPU each),
# at each N one process on one GPU (the previous build's beside it where PREV_SLIM is given), one
# process spread over every GPU (--gpus, bodies replicated) and 1..GPUs ranks, the energy over ranks, and the refusal of more ranks
# than GPUs. Usage: scripts/gpu_ranks.sh SLIM OUT_DIR [PREV_SLIM] [N...]
. scripts/gpu_slim_env.sh "$1" "$2"
prev=${3:-}
shift 3 2>/dev/null || shift $#
ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(1000003 4000037 16000057)
check=$slim/tests/orrery_mpi_check
gpus=$(nvidia-smi -L | wc -l)
mpi() { timeout 300 mpirun --oversubscribe --bind-to none "$@"; }
{
  for np in 1 2 3; do
    echo "== orrery_mpi_check --gpu on $np ranks ($gpus GPUs)"
    mpi -np "$np" "$check" --gpu
    echo "rc=$?"
  done
} >"$out/checks.txt" 2>&1
common=(--preset plummer --steps 8 --warmup 2)
one() { "$1" --solver cuda-bh --n "$2" "${common[@]}" "${@:3}" 2>&1 | grep -E "^ *cuda-bh|error"; }
{
  for n in "${ns[@]}"; do
    echo "== N=$n one process, one GPU"
    one "$bench" "$n" --gpus 1
    if [ -n "$prev" ]; then
      echo "== N=$n one process, one GPU, previous build"
      one "$prev/src/bench/orrery-bench" "$n" --gpus 1
    fi
    echo "== N=$n one process spread over $gpus GPUs"
    one "$bench" "$n" --gpus "$gpus"
    for np in $(seq 1 "$gpus"); do
      echo "== N=$n over $np ranks"
      o=$(mpi -np "$np" "$bench" --decompose --solver cuda-bh --n "$n" "${common[@]}" 2>&1)
      echo "$o" | grep -q "^cuda-bh " && echo "$o" | tail -1 || echo "$o" | grep -v "^---" | head -12
    done
  done
  echo "== energy, 1M bodies, leapfrog, 1 rank then $gpus"
  for np in 1 "$gpus"; do
    mpi -np "$np" "$bench" --decompose --solver cuda-bh --n 1000003 --preset plummer --steps 8 \
      --warmup 0 --integrator leapfrog --diagnostics --rebalance-every 4 2>&1 | tail -3
  done
  echo "== more ranks than GPUs"
  mpi -np $((gpus + 1)) "$bench" --decompose --solver cuda-bh --n 100000 2>&1
  echo "rc=$?"
} >"$out/bench.txt" 2>&1
echo "--- checks"; grep -E "ok|FAIL|rc=|skipped|error" "$out/checks.txt" | cut -c1-220
echo "--- bench"; cat "$out/bench.txt" | cut -c1-200
