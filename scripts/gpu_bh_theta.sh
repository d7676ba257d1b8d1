#!/usr/bin/env bash
# Issue 24's table on the GPU machine, from the repo root after `. .gpu/prelude.sh`: for every
# preset the issue names and theta 0.3, 0.5, 0.75 and 1.0 at N = 1,048,576 (eps 0.01), cuda-bh's
# step time (median of 5 after 2, --phases; `box` with --gravity on) and both tree codes' accuracy
# (8,192 sampled targets) with their interactions per body. Logs go to OUT_DIR; the table last.
# CODES (default "cuda-bh cpu-bh") names the codes whose accuracy is read.
#   scripts/gpu_bh_theta.sh SLIM OUT_DIR
set -u
bench=$(cd "$1" && pwd)/src/bench/orrery-bench
out=$(mkdir -p "$2" && cd "$2" && pwd)
n=1048576
{
  echo "| preset | theta | code | median | RMS | 99th pct | max | interactions / body | ms / step |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for p in plummer collision random clumps plummer-halo box; do
    for t in 0.3 0.5 0.75 1.0; do
      ms=$("$bench" --solver cuda-bh --n $n --preset $p --gravity on --theta $t --softening 0.01 \
        --steps 5 --warmup 2 --phases 2>&1 | tee -a "$out/time.log" | awk '/^cuda-bh/ {print $4}')
      for code in ${CODES:-cuda-bh cpu-bh}; do
        "$bench" --accuracy --solver $code --n $n --preset $p --theta $t --softening 0.01 2>&1 |
          tee -a "$out/accuracy.log" |
          awk -v p=$p -v t=$t -v c=$code -v ms="$ms" '$1 == c {
            if (c != "cuda-bh") ms = "";
            printf "| %s | %s | %s | %.1e | %.1e | %.1e | %.1e | %d | %s |\n",
              p, t, c, $6, $7, $8, $9, $10 + 0.5, ms }'
      done
    done
  done
} | tee "$out/table.md"
