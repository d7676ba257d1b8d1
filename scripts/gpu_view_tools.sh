#!/usr/bin/env bash
# Issue 13's checks and figures on the GPU machine, from the repo root after `. .gpu/prelude.sh`,
# with a slim build (scripts/gpu_slim.sh) in SLIM: the GPU and GL tests, the cost of trails (K = 32
# at N = 65,536, CUDA splat and GL lines) and of each colour quantity, the default N sized to the
# GPU, picking and following at 1,048,576 bodies, and headless screenshots of each mode. Logs and
# pictures go to OUT_DIR; a table is printed last.   scripts/gpu_view_tools.sh SLIM OUT_DIR
. "$(dirname "$0")/gpu_slim_env.sh"
o=$slim/src/app/orrery
. "$(dirname "$0")/gpu_checks.sh"
test_rows "$slim" "$out"
cd "$out" || exit 1
summary() { grep -o 'mean [0-9.]* FPS ([0-9.]* ms/frame), sim [0-9.]* ms/frame, draw [^(]*' "$1"; }
# Trails and colour quantities at 65,536 bodies (cuda-fast, 600 frames each, panel hidden).
for draw in cuda gl; do
  for v in "plain" "trails --trails 32" "accel --color acceleration" "density --color density" \
           "potential --color potential" "origin --color origin"; do
    set -- $v
    name=$1
    shift
    env -u DISPLAY "$o" --headless --solver cuda-fast --n 65536 --frames 600 --hide-panel \
      --draw $draw "$@" >"cost-$draw-$name.log" 2>&1
    row "65536 $draw $name (exit $?)" "$(summary "cost-$draw-$name.log")"
  done
done
# The default N, sized to this GPU.
env -u DISPLAY "$o" --headless --frames 120 >auto-n.log 2>&1
row "no --n (exit $?)" "$(grep -o 'n [0-9]* (sized[^)]*)' auto-n.log)"
row "  its frames" "$(summary auto-n.log)"
# Picking and following at 1,048,576 bodies; the panel's readout in a screenshot.
env -u DISPLAY "$o" --headless --solver cuda-bh --integrator leapfrog --n 1048576 --frames 90 \
  --preset plummer --keys pick,f --screenshot pick-1m.png >pick-1m.log 2>&1
row "1M pick, follow (exit $?)" "$(grep -E '^(pick|follow)' pick-1m.log | tr '\n' ' ')"
# Screenshots of each mode: two 1M-body galaxies after 160 frames (cuda-bh, leapfrog).
for v in "speed --color speed --trails 32 --trail-bodies 65536" "density --color density" \
         "acceleration --color acceleration" "potential --color potential" \
         "origin --color origin" "mass --color mass --preset accretion"; do
  set -- $v
  name=$1
  shift
  env -u DISPLAY "$o" --headless --solver cuda-bh --integrator leapfrog --n 1048576 --frames 160 \
    --hide-panel "$@" --screenshot "mode-$name.png" >"mode-$name.log" 2>&1
  row "mode $name (exit $?)" "$(summary "mode-$name.log")"
done
env -u DISPLAY "$o" --headless --solver cuda-fast --n 65536 --frames 120 --trails 32 --keys pick \
  --color speed --screenshot panel-trails.png >panel-trails.log 2>&1
row "panel + trails 64K (exit $?)" "$(summary panel-trails.log)"
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
printf '%s\n' "${table[@]}"
