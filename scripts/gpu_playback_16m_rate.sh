#!/usr/bin/env bash
# On the GPU machine (after `. .gpu/prelude.sh`): the outputs a second a 16,777,216-body series
# sustains, headless on the frame clock (each frame waits for its outputs; --play-speed 60: one
# output a frame, so FPS is outputs a second), looping: re-read each pass with the default 2 GB
# read-ahead, and held with 8 GB. build-x/after.tar.xz is a slim build packed with tar.
set -u
O=$OUT/r; mkdir -p $O
mkdir -p /tmp/after; tar xJf build-x/after.tar.xz -C /tmp/after
tar xJf /tmp/after/lib.tar.xz -C /tmp; export LD_LIBRARY_PATH=/tmp/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/s16
/tmp/after/src/bench/orrery-bench --preset plummer --n 16777216 --solver cuda-bh --steps 10 \
  --warmup 0 --save-every 2 --series /tmp/s16/snap_%03d.orrery > $O/write16.txt 2>&1
cat /tmp/s16/* > /dev/null
for run in "reread_smooth" "reread_raw --play-raw" "held_smooth --play-memory 8192" "held_raw --play-memory 8192 --play-raw"; do
  set -- $run; name=$1; shift
  timeout -s INT 120 /tmp/after/src/app/orrery --headless --play-clock frames --play-speed 60 --play-loop --frames 90 \
    --load '/tmp/s16/snap_*.orrery' --width 1280 --height 720 "$@" > $O/16m-$name.txt 2>&1
  echo "16M $name: $(grep -E '^orrery: (summary|playback: at)' $O/16m-$name.txt | sed -E 's/, draw .*//; s/orrery: summary: //; s/orrery: playback: //' | tr '\n' ' ')"
done
