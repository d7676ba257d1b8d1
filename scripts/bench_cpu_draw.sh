#!/usr/bin/env bash
# The viewer on the CPU path under Xvfb (Mesa's llvmpipe), as ./scripts/run.sh starts it (no --n:
# sized to the CPU), in two builds interleaved: before (GL point sprites, the only way then) and
# after (auto: the CPU splat here; and --draw gl for the same build's GL sprites). Each run is 300
# frames at 1280x720 with the panel shown; the summary line has FPS, steps a second and the draw.
#   scripts/bench_cpu_draw.sh OLD_ORRERY NEW_ORRERY [ROUNDS] > raw.txt
set -u
old=$1 new=$2 rounds=${3:-3}
run() {
  local label=$1
  shift
  echo "### $label"
  xvfb-run -a -s "-screen 0 1600x900x24" "$@" --frames 300 2>&1 | grep -E '^orrery: (solver|drawing|summary)'
}
for round in $(seq "$rounds"); do
  run "before #$round" "$old"
  run "after #$round (auto)" "$new"
  run "after #$round (--draw gl)" "$new" --draw gl
done
