#!/usr/bin/env bash
# Issue 45's cost of writing a series, on the GPU machine from the repo root after
# `. .gpu/prelude.sh`, with a slim build (scripts/gpu_slim.sh) in SLIM: a 1M-body cuda-bh run
# (plummer, 100 steps) with and without --save-every 10 (11 HDF5 outputs), and the time of one
# save alone (a 1-step run with and without --save), each wall clock, alternated twice. Files go
# to /tmp/series; the table is printed.   scripts/gpu_series.sh SLIM OUT_DIR
. "$(dirname "$0")/gpu_slim_env.sh"
run=(--solver cuda-bh --preset plummer --n 1048576 --warmup 0)
wall() {  # seconds the bench takes with these arguments
  local t0 t1
  t0=$(date +%s.%N)
  "$bench" "${run[@]}" "$@" >>"$out/series.log" 2>&1 || echo "exit $? for $*" >>"$out/series.log"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
for round in 1 2; do
  rm -rf /tmp/series && mkdir -p /tmp/series
  plain=$(wall --steps 100)
  series=$(wall --steps 100 --save-every 10 --series /tmp/series/snapshot_%03d.hdf5)
  outputs=$(ls /tmp/series | wc -l)
  one=$(wall --steps 1)
  saved=$(wall --steps 1 --save /tmp/series/one.hdf5)
  echo "round $round: 100 steps ${plain} s; with --save-every 10 ${series} s ($outputs outputs);" \
    "1 step ${one} s, with one --save ${saved} s"
done | tee "$out/table.txt"
ls -la /tmp/series | head -5 >>"$out/table.txt"
