#!/usr/bin/env bash
# On the GPU machine's 16 cores (after `. .gpu/prelude.sh`): cpu-bh at 262,144 bodies, a new
# orrery-bench (build-x/bench-new.tar.xz) against an older slim build (build-x/prev.tar.xz),
# alternated six times; the CPU's speed wanders by 10% between runs, so compare the means.
set -u
O=$OUT/r; mkdir -p $O
mkdir -p /tmp/new /tmp/prev; tar xJf build-x/bench-new.tar.xz -C /tmp/new; tar xJf build-x/prev.tar.xz -C /tmp/prev
tar xJf /tmp/prev/lib.tar.xz -C /tmp; export LD_LIBRARY_PATH=/tmp/lib:${LD_LIBRARY_PATH:-}
for v in new prev new prev new prev new prev new prev new prev; do
  /tmp/$v/src/bench/orrery-bench --solver cpu-bh --preset plummer --n 262144 --cpu-max-n 262144 --steps 30 --warmup 3 > $O/cpubh-$v.txt 2>&1
  echo "cpu-bh 262144 $v: $(grep -E '^cpu-bh' $O/cpubh-$v.txt | awk '{print $4}') ms"
done
