#!/usr/bin/env bash
# On the GPU machine (after `. .gpu/prelude.sh`): issue 45's close-out, a new slim build against an
# older one in one call. build-x/after.tar.xz and build-x/prev.tar.xz are slim builds
# (scripts/gpu_slim.sh) packed with tar; results go under $OUT/r.
set -u
O=$OUT/r; mkdir -p $O
for v in after prev; do mkdir -p /tmp/$v; tar xJf build-x/$v.tar.xz -C /tmp/$v; done
tar xJf /tmp/after/lib.tar.xz -C /tmp; export LD_LIBRARY_PATH=/tmp/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $O/gpu.txt
/tmp/after/tests/orrery_gpu_tests > $O/gputests.txt 2>&1
echo "gpu tests: $(grep -E '^\[  (PASSED|FAILED)|tests? skipped|FAILED  \]' $O/gputests.txt | tr '\n' ' ')"
compute-sanitizer --tool memcheck /tmp/after/tests/orrery_gpu_tests --gtest_filter='GpuPlayback.*:GpuViewTools.SimulationQuantities*' > $O/memcheck.txt 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY' $O/memcheck.txt)"
mkdir -p /tmp/s16
/tmp/after/src/bench/orrery-bench --preset plummer --n 16777216 --solver cuda-bh --steps 10 \
  --warmup 0 --save-every 2 --series /tmp/s16/snap_%03d.orrery > $O/write16.txt 2>&1
cat /tmp/s16/* > /dev/null
for v in after prev after prev; do for mode in smooth raw; do
  extra=; [ $mode = raw ] && extra=--play-raw
  timeout -s INT 60 /tmp/$v/src/app/orrery --headless --play-clock wall --frames 1500 \
    --load '/tmp/s16/snap_*.orrery' --width 1280 --height 720 --play-speed 1 $extra > $O/16m-$v-$mode.txt 2>&1
  echo "16M $v $mode: $(grep -E '^orrery: (summary|playback: at)' $O/16m-$v-$mode.txt | sed -E 's/, draw .*//; s/orrery: summary: //; s/orrery: playback: //' | tr '\n' ' ')"
done; done
rm -rf /tmp/s16
for v in after prev; do echo "--- 1M $v"; scripts/gpu_playback.sh /tmp/$v $O/1m-$v; done
for v in after prev after prev; do
  echo "viewer 1M cuda-bh $v: $(/tmp/$v/src/app/orrery --headless --solver cuda-bh --n 1048576 --frames 300 2>&1 | grep -E '^orrery: summary' | sed -E 's/, draw .*//')"
done
for v in after prev; do echo "--- series $v"; scripts/gpu_series.sh /tmp/$v $O/series-$v; done
for v in after prev; do /tmp/$v/src/bench/orrery-bench --solver cuda-fast,cuda-bh --preset plummer --n 1048576 --steps 10 --warmup 2 > $O/bench-$v.txt 2>&1; echo "bench $v:"; grep -E "^cuda" $O/bench-$v.txt | awk '{print $1, $2, $4}'; done
