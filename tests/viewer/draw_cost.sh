#!/usr/bin/env bash
# Where the viewer's frame time goes beside the solver, on the GPU machine: headless cuda-static at
# one N in both draw modes, with and without the panel, at full and tiny image size, and paused
# (frames that only draw). Run from the repo root after `. .gpu/prelude.sh`.
# Usage: tests/viewer/draw_cost.sh BUILD_DIR OUT_DIR [N]
set -u
build=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
n=${3:-65536}
orrery=$build/src/app/orrery
"$build/src/bench/orrery-bench" --solver cuda-static --block 256 --n "$n" --steps 50 --warmup 5 \
  >"$out/cost-bench.log" 2>&1
bench=$(awk -v n="$n" '$1 == "cuda-static" && $2 == n { print $4 }' "$out/cost-bench.log")
echo "N $n, orrery-bench cuda-static block 256: ${bench:-?} ms/step"
echo "variant                       frame ms   sim ms   frame-bench   draw (summary)"
run() {
  local name=$1
  shift
  env -u DISPLAY "$orrery" --headless --solver cuda-static --n "$n" --frames 300 "$@" \
    >"$out/cost-$name.log" 2>&1 || { echo "$name: exit $?"; return; }
  grep summary "$out/cost-$name.log" |
    sed -E 's/.*\(([0-9.]+) ms\/frame\), sim ([0-9.]+) ms\/frame, draw (.*) \(means after.*/\1 \2 \3/' |
    awk -v name="$name" -v b="${bench:-0}" '{ d = $3; for (i = 4; i <= NF; ++i) d = d " " $i;
      printf "%-28s %9.3f %8.3f %13.3f   %s\n", name, $1, $2, $1 - b, d }'
}
run cuda-panel --draw cuda
run cuda --draw cuda --hide-panel
run gl --draw gl --hide-panel
run cuda-64px --draw cuda --hide-panel --width 64 --height 64
run gl-64px --draw gl --hide-panel --width 64 --height 64
run cuda-paused --draw cuda --hide-panel --keys space
run gl-paused --draw gl --hide-panel --keys space
run cuda-64px-paused --draw cuda --hide-panel --width 64 --height 64 --keys space
