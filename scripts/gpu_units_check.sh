#!/usr/bin/env bash
# On the GPU machine (after `. .gpu/prelude.sh`): issue 43's before-and-after. Opens the
# 16,777,216-particle HDF5 file (scripts/gpu_hdf5_load.sh) with both builds, times saving 1,048,576
# bodies to HDF5 with both (and the new one with physical units, which converts every number),
# and runs the GPU tests. Usage: scripts/gpu_units_check.sh OLD_SLIM NEW_SLIM OUT
set -uo pipefail
old=$1 new=$2 out=$3
mkdir -p "$out/old" "$out/new"
"$new/tests/orrery_gpu_tests" --gtest_brief=1 >"$out/gpu_tests.txt" 2>&1
tail -3 "$out/gpu_tests.txt"
for v in old new; do
  slim=${!v}
  [[ -f $slim/lib.tar.xz ]] || cp "$new/lib.tar.xz" "$slim/"
  scripts/gpu_hdf5_load.sh "$slim" "$out/$v" >"$out/$v/hdf5_load.log" 2>&1
done
export LD_LIBRARY_PATH=/tmp/orrery-hdf5/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
wall() {
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }'
}
save_runs() {  # label, bench, extra args...
  local label=$1 bench=$2
  shift 2
  local with without
  for k in 1 2 3; do
    without+=" $(wall "$bench" --preset plummer --n 1048576 --solver cuda-fast --steps 1 --warmup 0 "$@")"
    with+=" $(wall "$bench" --preset plummer --n 1048576 --solver cuda-fast --steps 1 --warmup 0 "$@" --save /tmp/s.hdf5)"
  done
  echo "$label: without --save:$without s; with --save s.hdf5:$with s; file $(stat -c %s /tmp/s.hdf5) bytes"
}
{
  save_runs "old" "$old/src/bench/orrery-bench"
  save_runs "new" "$new/src/bench/orrery-bench"
  save_runs "new, --units '1 pc, 1 Msun'" "$new/src/bench/orrery-bench" --units "1 pc, 1 Msun"
} | tee "$out/save_1m.txt"
for v in old new; do
  slim=${!v}
  "$slim/src/bench/orrery-bench" --solver cuda-fast --n 65536,1048576 --steps 20 --warmup 3 \
    >"$out/$v/bench.txt" 2>&1
done
echo "--- HDF5 open (viewer read / on the GPU / wall), old then new"
grep -h -E "loaded|wall" "$out/old/viewer_load.txt" "$out/new/viewer_load.txt"
grep -h "saved state" "$out/old/viewer_save.txt" "$out/new/viewer_save.txt"
echo "--- bench, old then new"
grep -h -E "^cuda" "$out/old/bench.txt" "$out/new/bench.txt"
