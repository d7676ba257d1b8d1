#!/usr/bin/env bash
# Issue 25's figures on this machine: the CPU solvers of two builds of orrery-bench (before, after),
# interleaved twice, then the after build's SIMD levels and its cpu-omp / cpu-bh crossover.
#   scripts/bench_cpu_path.sh OLD_BENCH NEW_BENCH > raw.txt
set -u
old=$1 new=$2
runs() {
  "$1" --solver cpu-omp --n 16384 --preset plummer --steps 5 --warmup 1
  "$1" --solver cpu-bh --n 16384,65536 --preset plummer --theta 0.5 --steps 5 --warmup 1 --phases
  "$1" --solver cpu-omp --preset box --n 65536 --steps 20 --warmup 2 --phases
}
for round in 1 2; do
  echo "### before #$round"; runs "$old" 2>&1 | grep -E '^(cpu|CPU)'
  echo "### after #$round"; runs "$new" 2>&1 | grep -E '^(cpu|CPU)'
done
echo "### after: cpu-omp at each SIMD level, N = 16384 plummer"
for level in $("$new" --n 1 --steps 1 --solver cpu 2>/dev/null | sed -n 's/^CPU: .*(of \(.*\))$/\1/p' | tr -d ,); do
  "$new" --simd "$level" --solver cpu-omp --n 16384 --preset plummer --steps 5 --warmup 1 2>&1 | grep '^cpu'
done
echo "### after: crossover, plummer, theta 0.5"
"$new" --solver cpu-omp,cpu-bh --n 512,1024,2048,4096,8192,16384,32768 --preset plummer --steps 5 \
  --warmup 1 2>&1 | grep '^cpu'
