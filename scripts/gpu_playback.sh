#!/usr/bin/env bash
# On the GPU machine: playing a 1,048,576-body series back in the viewer (issue 45's targets).
# orrery-bench writes 11 outputs of a cuda-bh run (Orrery's format), then the viewer plays them
# headless (EGL, the CUDA splat): smoothly at 1 output a second (each frame interpolates), smoothly
# at 20 outputs a second (each frame waits for the outputs it needs), and raw at 20 a second; then
# looping at 20 a second with a 256 MB read-ahead (5 outputs held: each pass reads them again from
# the page cache), smooth and raw: the outputs a second a re-read series sustains.
# Each headless frame is 1/60 s of play, so the summary's FPS over 60 is the pace against real time.
# Usage (device, after `. .gpu/prelude.sh` and SLIM/lib.tar.xz unpacked into /tmp): 
#   scripts/gpu_playback.sh SLIM OUT
set -uo pipefail
slim=$1 out=$2
mkdir -p "$out" /tmp/series
"$slim/src/bench/orrery-bench" --preset collision --n 1048576 --solver cuda-bh --steps 20 \
  --warmup 0 --save-every 2 --series /tmp/series/snap_%03d.orrery >"$out/write.txt" 2>&1
ls -la /tmp/series | tail -3
cat /tmp/series/* >/dev/null  # a warm page cache
for run in "smooth1 --play-speed 1 --frames 600" "smooth20 --play-speed 20 --frames 300" \
           "raw20 --play-speed 20 --play-raw --frames 300" \
           "reread_smooth --play-speed 20 --play-loop --play-memory 256 --frames 300" \
           "reread_raw --play-speed 20 --play-loop --play-memory 256 --play-raw --frames 300"; do
  set -- $run
  name=$1
  shift
  "$slim/src/app/orrery" --headless --load '/tmp/series/snap_*.orrery' --width 1280 --height 720 \
    "$@" >"$out/$name.txt" 2>&1
  echo "== $name: $(grep -E '^orrery: (summary|playback: at)' "$out/$name.txt" | sed -E 's/, draw .*//' | tr '\n' ' ')"
done
