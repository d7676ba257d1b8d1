#!/usr/bin/env bash
# On the GPU machine: a 16,777,216-body series played back headless on the wall clock (--play-clock
# wall: frames never wait for the disk, as in a window): the exit line's longest frame while
# playing shows whether loading outputs stalls the UI (the bar: no frame over 50 ms).
# orrery-bench writes 6 outputs of a cuda-bh run (Orrery's format, 512 MB each), then the viewer
# plays them at 1 output a second for 1,500 frames, smoothly (the motion on the GPU) and raw.
# Usage (device, after `. .gpu/prelude.sh` and SLIM/lib.tar.xz unpacked into /tmp): 
#   scripts/gpu_playback_16m.sh SLIM OUT
set -uo pipefail
slim=$1 out=$2
mkdir -p "$out" /tmp/s16
"$slim/src/bench/orrery-bench" --preset plummer --n 16777216 --solver cuda-bh --steps 10 \
  --warmup 0 --save-every 2 --series /tmp/s16/snap_%03d.orrery >"$out/write16.txt" 2>&1
ls -la /tmp/s16 | tail -2
cat /tmp/s16/* >/dev/null
for run in "smooth16 --play-speed 1" "raw16 --play-speed 1 --play-raw"; do
  set -- $run
  name=$1
  shift
  # 1,500 frames (a Ctrl-C after 60 s as a guard: the viewer ends as with Esc, with its exit lines).
  timeout -s INT 60 "$slim/src/app/orrery" --headless --play-clock wall --frames 1500 \
    --load '/tmp/s16/snap_*.orrery' --width 1280 --height 720 "$@" >"$out/$name.txt" 2>&1
  echo "== $name: $(grep -E '^orrery: (summary|playback: at)' "$out/$name.txt" | sed -E 's/, draw .*//' | tr '\n' ' ')"
done
