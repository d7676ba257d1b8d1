#!/usr/bin/env bash
# The 4-GPU targets of issue 47 on a GPU kind of several GPUs, after
# `. .gpu/prelude.sh; . .gpu/mpi/env.sh`. Usage: scripts/gpu_scale.sh SLIM OUT_DIR PART...
#   checks   orrery_mpi_check --gpu on 1..GPUs ranks (forces against one process's cuda-bh)
#   billion  2^30 bodies (Plummer, theta 0.5) on GPUs ranks, with each GPU's memory (the row's
#            `GB peak`: the most the run's own buffers held at once on any rank)
#   weak     64M bodies a rank on 1, 2, 4 ... GPUs ranks
#   strong   134,217,728 bodies: one process on one GPU, one process spread over every GPU (the
#            bodies replicated), then 1, 2, 4 ... GPUs ranks
# Each rank gets the host's cores divided by the ranks (OpenMP: the set-up draws and sorts on
# them) and is bound to none: Open MPI binds a rank to one core when there are two or fewer.
. scripts/gpu_slim_env.sh "$1" "$2"
shift 2
gpus=$(nvidia-smi -L | wc -l)
cores=$(nproc)
counts=()
for ((np = 1; np <= gpus; np *= 2)); do counts+=("$np"); done
export ORRERY_MPI_TIMEOUT=${ORRERY_MPI_TIMEOUT:-300}  # the set-up's collectives wait on sorts
ranks() {
  local np=$1
  shift
  timeout "${RUN_TIMEOUT:-560}" mpirun --bind-to none -x OMP_NUM_THREADS=$((cores / np)) -x ORRERY_MPI_TIMEOUT \
    -np "$np" "$@"
}
decomposed() {  # NP N [options]: the table's row, or what went wrong
  local np=$1 n=$2
  shift 2
  ranks "$np" "$bench" --decompose --solver cuda-bh --n "$n" --preset plummer "$@" 2>&1 |
    grep --line-buffered -E "^set-up|^cuda-bh |^energy|error|rank|orrery-bench:" |
    grep --line-buffered -v "^orrery-bench: decomposed"
  echo "rc=${PIPESTATUS[0]}"
}
for part in "$@"; do
  echo "=== $part ($gpus GPUs, $cores cores) $(date -u +%H:%M:%S)"
  case $part in
    checks)
      for np in $(seq "${CHECK_FROM:-1}" "$gpus"); do
        echo "== orrery_mpi_check --gpu on $np ranks"
        ranks "$np" "$slim/tests/orrery_mpi_check" --gpu 2>&1 | tail -4
        echo "rc=${PIPESTATUS[0]}"
      done
      ;;
    billion)
      echo "== N=1073741824 over $gpus ranks"
      decomposed "$gpus" 1073741824 --steps 3 --warmup 1
      ;;
    weak)
      for np in "${counts[@]}"; do
        echo "== N=$((67108864 * np)) over $np ranks (64M a rank)"
        decomposed "$np" $((67108864 * np)) --steps 5 --warmup 1
      done
      ;;
    strong)
      n=134217728
      for g in 1 "$gpus"; do
        echo "== N=$n one process on $g GPUs"
        timeout "${RUN_TIMEOUT:-400}" "$bench" --solver cuda-bh --n $n --preset plummer --steps 5 --warmup 1 \
          --gpus "$g" 2>&1 | grep -E "^ *cuda-bh|error"
      done
      for np in "${counts[@]}"; do
        echo "== N=$n over $np ranks"
        decomposed "$np" $n --steps 5 --warmup 1
      done
      ;;
    *) echo "gpu_scale.sh: no part '$part' (checks, billion, weak, strong)" ;;
  esac
done 2>&1 | tee "$out/scale.txt"
