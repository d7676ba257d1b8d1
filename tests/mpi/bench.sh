#!/usr/bin/env bash
# orrery-bench --decompose under mpirun: a cpu-bh run over 3 ranks prints its row (balanced, its
# energy kept as one process keeps it), and bad input is one line and exit 2 (no mpirun, another
# solver, cuda-bh with no GPU, several N, an output file, the adaptive step, collisions, fewer bodies than ranks).
# Its snapshots (--save-every, --save) are the whole run's, written by rank 0.
# Usage: bench.sh MPIEXEC ORRERY-BENCH
set -u
mpiexec=$1 bench=$2
fail() { echo "FAIL: $*"; exit 1; }
run=(--decompose --solver cpu-bh --preset plummer --n 30011 --steps 6 --warmup 1
     --integrator leapfrog --diagnostics --rebalance-every 3)
out=$(OMP_NUM_THREADS=1 timeout 300 "$mpiexec" -np 3 --oversubscribe --allow-run-as-root "$bench" "${run[@]}" 2>&1)
rc=$?
echo "$out" | tail -4
[ "$rc" -eq 0 ] || fail "the decomposed run: exit $rc"
row=$(echo "$out" | grep -E '^cpu-bh +30011 +3 ')
[ -n "$row" ] || fail "no row for 30011 bodies on 3 ranks"
[ "$(echo "$out" | grep -c '^cpu-bh ')" -eq 1 ] || fail "more than one rank printed the table"
balance=$(echo "$row" | awk '{print $6}')
awk -v b="$balance" 'BEGIN { exit !(b >= 1 && b < 1.05) }' || fail "balance $balance"
drift=$(echo "$out" | sed -nE 's/^energy .* drift ([^;]+);.*/\1/p')
awk -v d="$drift" 'BEGIN { exit !(d < 1e-4 && d > -1e-4) }' || fail "energy drift '$drift'"
# Snapshots of the run over the ranks, written by rank 0: a series every 2 steps and the last
# state; each loads in one process. A series that would overwrite a file is one line, exit 2.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
snaps=(--decompose --solver cpu-bh --preset plummer --n 3001 --steps 4 --warmup 0
       --save-every 2 --series "$dir/s_%02d.orrery" --save "$dir/last.hdf5")
o=$(OMP_NUM_THREADS=1 timeout 300 "$mpiexec" -np 3 --oversubscribe --allow-run-as-root "$bench" "${snaps[@]}" 2>&1)
rc=$?
echo "$o" | grep "^orrery-bench: s"
[ "$rc" -eq 0 ] || fail "snapshots over the ranks: exit $rc ($o)"
for f in s_00.orrery s_01.orrery s_02.orrery last.hdf5; do [ -s "$dir/$f" ] || fail "no $f"; done
[ ! -e "$dir/s_03.orrery" ] || fail "a fourth output of 4 steps every 2"
[ "$(echo "$o" | grep -c "^orrery-bench: series: 3 outputs, $dir/s_00.orrery to $dir/s_02.orrery$")" -eq 1 ] ||
  fail "the series' line: $o"
echo "$o" | grep -q "^orrery-bench: saved $dir/last.hdf5 (HDF5, 3001 bodies, step 4, time 0\\.064[0-9]*)$" ||
  fail "the save's line: $o"
for f in s_02.orrery last.hdf5; do
  l=$("$bench" --load "$dir/$f" --solver cpu-bh --steps 1 --warmup 0 2>&1) || fail "--load $f: $l"
  echo "$l" | grep -qE '^ *cpu-bh +3001 ' || fail "--load $f: no row of 3001 bodies: $l"
done
o=$(OMP_NUM_THREADS=1 timeout 300 "$mpiexec" -np 3 --oversubscribe --allow-run-as-root "$bench" "${snaps[@]}" 2>&1)
rc=$?
[ "$rc" -eq 2 ] && [ "$(echo "$o" | grep -c 'exists already')" -eq 1 ] ||
  fail "a series over an existing file: exit $rc, not one line ($o)"
one_line() {  # $1: what; the rest: the command; exit 2 and one line naming what
  local what=$1
  shift
  local o
  o=$("$@" 2>&1)
  local r=$?
  [ "$r" -eq 2 ] || fail "$what: exit $r ($o)"
  [ "$(echo "$o" | wc -l)" -eq 1 ] || fail "$what: not one line: $o"
  echo "$o" | grep -q -- "--decompose\|--rebalance-every" || fail "$what: $o"
}
env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMIX_RANK "$bench" "${run[@]}" >/dev/null 2>&1
[ $? -eq 2 ] || fail "without mpirun: not exit 2"
one_line "without mpirun" env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMIX_RANK "$bench" "${run[@]}"
one_line "another solver" env OMPI_COMM_WORLD_SIZE=2 "$bench" --decompose --solver cuda-fast --n 1000
one_line "several N" env OMPI_COMM_WORLD_SIZE=2 "$bench" --decompose --solver cpu-bh --n 1000,2000
one_line "an output file" env OMPI_COMM_WORLD_SIZE=2 "$bench" --decompose --solver cpu-bh --n 1000 --csv x.csv
few=$(timeout 120 "$mpiexec" -np 3 --oversubscribe --allow-run-as-root "$bench" --decompose --solver cpu-bh --n 2 2>&1)
[ "$(echo "$few" | grep -c '^orrery-bench: error: 2 bodies on 3 ranks')" -eq 1 ] ||
  fail "fewer bodies than ranks: not one line from rank 0: $few"
one_line "the adaptive step" env OMPI_COMM_WORLD_SIZE=2 "$bench" --decompose --solver cpu-bh --n 1000 --dt auto
one_line "collisions" env OMPI_COMM_WORLD_SIZE=2 "$bench" --decompose --solver cpu-bh --n 1000 --preset box
one_line "rebalance alone" "$bench" --solver cpu-bh --n 1000 --rebalance-every 4
# cuda-bh over ranks where there is no GPU (CI): one line from each rank, exit 2.
if ! nvidia-smi >/dev/null 2>&1; then
  o=$(env OMPI_COMM_WORLD_SIZE=2 "$bench" --decompose --solver cuda-bh --n 1000 2>&1)
  r=$?
  [ "$r" -eq 2 ] && [ "$(echo "$o" | wc -l)" -eq 1 ] && echo "$o" | grep -q "CUDA device" ||
    fail "cuda-bh with no GPU: exit $r ($o)"
fi
echo "ok: $row"
