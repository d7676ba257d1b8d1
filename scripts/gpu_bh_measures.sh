# Sourced by the cuda-bh measurements (scripts/gpu_bh_clustered.sh, scripts/gpu_bh_groups.sh) with
# $out set: cuda-bh's accuracy and step times at theta 0.5 and eps 0.01, logged under $out.

# accuracy BENCH N PRESET -> median rms p99 max interactions/body
accuracy() {
  "$1" --accuracy --solver cuda-bh --n "$2" --preset "$3" --theta 0.5 --softening 0.01 2>&1 |
    tee -a "$out/accuracy.log" | awk '/^cuda-bh/ {print $6, $7, $8, $9, $10}'
}

# step_ms BENCH N PRESET STEPS WARMUP -> ms a step / the walk's ms
step_ms() {
  "$1" --solver cuda-bh --n "$2" --preset "$3" --gravity on --theta 0.5 --softening 0.01 \
    --steps "$4" --warmup "$5" --phases 2>&1 | tee -a "$out/time.log" |
    awk '/^cuda-bh/ {printf "%s/%s", $4, $14}'
}

# step_table BEFORE AFTER STEPS WARMUP: step times at 1M on five presets in two interleaved
# rounds, then 16M plummer (3 after 1).
step_table() {
  local before=$1 after=$2 steps=$3 warmup=$4 round p
  echo "cuda-bh ms a step / the walk's ms (median of $steps after $warmup), N 1048576, two rounds"
  for round in 1 2; do
    for p in plummer random box clumps plummer-halo; do
      echo "$round $p before $(step_ms "$before" 1048576 $p "$steps" "$warmup")" \
        "after $(step_ms "$after" 1048576 $p "$steps" "$warmup")"
    done
  done
  echo "N 16777216 plummer (3 after 1): before $(step_ms "$before" 16777216 plummer 3 1)" \
    "after $(step_ms "$after" 16777216 plummer 3 1)"
}
