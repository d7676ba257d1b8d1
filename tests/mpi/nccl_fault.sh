#!/usr/bin/env bash
# A rank that cannot reach the others over NCCL (here: no network interface NCCL may use) ends a
# cuda-bh run over 2 ranks on every rank within seconds, with one line naming a rank and NCCL.
# Skipped (77) on a host with fewer than 2 GPUs. Usage: nccl_fault.sh MPIEXEC ORRERY_BENCH
set -u
mpiexec=$1 bench=$2
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
[ "$gpus" -ge 2 ] || { echo "skipped: $gpus GPUs (2 needed)"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
args=(--decompose --solver cuda-bh --n 100000 --preset plummer --steps 2 --warmup 0)
run() {  # $1: what; then mpirun's application context(s)
  local what=$1 t0=$SECONDS
  shift
  out=$(ORRERY_MPI_TIMEOUT=10 timeout 120 "$mpiexec" --allow-run-as-root --bind-to none "$@" 2>&1)
  rc=$? took=$((SECONDS - t0))
  echo "$out" | grep -v "^ *$" | tail -4
  [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "$what: exit $rc (124: the run hung)"
  [ "$took" -le 60 ] || fail "$what: the run took $took s to end"
  echo "$out" | grep -qE "^orrery: rank [01]: .*NCCL" || fail "$what: no line names a rank and NCCL"
  echo "ok: $what ends the run in $took s (exit $rc)"
}
run "rank 1 without NCCL's network" -np 1 "$bench" "${args[@]}" : \
  -np 1 -x NCCL_SOCKET_IFNAME==no-such-interface "$bench" "${args[@]}"
run "every rank without NCCL's network" -np 2 -x NCCL_SOCKET_IFNAME==no-such-interface \
  "$bench" "${args[@]}"
