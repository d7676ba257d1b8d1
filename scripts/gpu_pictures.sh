#!/usr/bin/env bash
# Issue 44's camera and density map on the GPU machine, from the repo root after
# `. .gpu/prelude.sh`, with the new slim build in NEW and the old one in OLD: the GPU and GL tests,
# memcheck of the density map's kernels, the camera and density viewer tests, the density map's
# time at 1M and 16M bodies (and per kernel, from ncu), and the viewer's frame rate at 1M under
# cuda-bh old against new, twice, with the minimal HUD (the new with its bloom on, as by
# default, and off) and with the density map.
#   [PART=checks|figures] scripts/gpu_pictures.sh NEW_SLIM OLD_SLIM OUT_DIR
. "$(dirname "$0")/gpu_slim_env.sh"
old=$(cd "$2" && pwd)
out=$(mkdir -p "$3" && cd "$3" && pwd)
o=$slim/src/app/orrery
. "$(dirname "$0")/gpu_checks.sh"
checks() {
test_rows "$slim" "$out"
timeout 300 compute-sanitizer --tool memcheck "$slim/tests/orrery_gpu_tests" \
  --gtest_filter='DensityMapGpu.*:BloomGpu.*' >"$out/memcheck.log" 2>&1
row "memcheck density, bloom (exit $?)" "$(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED) ' "$out/memcheck.log" | tr '\n' ' ')"
for t in camera density bloom; do
  args=("$o" "$out/viewer")
  [ $t = density ] && args=("$o" "$slim/tests/viewer/orrery_png_check" "$PWD" "$out/viewer")
  bash tests/viewer/$t.sh "${args[@]}" >"$out/viewer-$t.log" 2>&1
  row "viewer $t.sh (exit $?)" "$(tail -1 "$out/viewer-$t.log")"
done
}
# PART=checks runs the tests alone, PART=figures the figures alone (a call each: 10 minutes).
[ "${PART:-all}" = figures ] || checks
[ "${PART:-all}" = checks ] && { printf '%s\n' "${table[@]}"; exit 0; }
# The density map's time: 8 frames that step, each a new map; the exit line has the newest's.
for n in 1048576 16777216; do
  env -u DISPLAY "$o" --headless --solver cuda-bh --preset plummer --n $n --frames 8 --mode density \
    --hud minimal --screenshot "$out/density-$n.png" >"$out/density-$n.log" 2>&1
  row "density map N=$n (exit $?)" "$(grep -o 'the newest in [0-9.]* ms ([A-Z]*)' "$out/density-$n.log")"
done
# Where a 16M-body map's time goes: each kernel of the newest map (ncu), summed by kind.
timeout 240 ncu --metrics gpu__time_duration.sum --csv env -u DISPLAY "$o" --headless \
  --solver cuda-bh --preset plummer --n 16777216 --frames 2 --paused --mode density --draw gl \
  >"$out/ncu-density.csv" 2>"$out/ncu.err"
row "ncu (exit $?)" "$(python3 - "$out/ncu-density.csv" <<'PY'
import csv, io, sys, collections
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
rows = list(csv.reader(io.StringIO("\n".join(l for l in lines[start:] if l.startswith('"')))))
head, rows = rows[0], rows[1:]
k, v = head.index("Kernel Name"), head.index("Metric Value")
last = max(i for i, r in enumerate(rows) if "bounds_kernel" in r[k])  # the newest map's start
kinds = collections.OrderedDict()
for r in rows[last:]:
    name = next((n for n in ("bounds", "keys", "RadixSort", "select", "deposit") if n in r[k]), "other")
    kinds[name] = kinds.get(name, 0.0) + float(r[v].replace(",", "")) / 1e6
print(", ".join(f"{n} {t:.1f} ms" for n, t in kinds.items()), f"(GPU total {sum(kinds.values()):.1f} ms)")
PY
)"
for rep in 1 2; do
  for v in old new; do
    d=$old
    [ $v = new ] && d=$slim
    viewer_row "$v #$rep viewer 1M cuda-bh" "$out/frame-$v-$rep.log" "$d" --solver cuda-bh --n 1048576 --frames 300
    viewer_row "$v #$rep 1M cuda-bh --hud minimal" "$out/hud-$v-$rep.log" "$d" --solver cuda-bh --n 1048576 --frames 300 --hud minimal
  done
  viewer_row "new #$rep 1M cuda-bh --bloom off" "$out/nobloom-$rep.log" "$slim" --solver cuda-bh --n 1048576 --frames 300 --bloom off
  viewer_row "new #$rep 1M cuda-bh --mode density" "$out/map-$rep.log" "$slim" --solver cuda-bh --n 1048576 --frames 120 --mode density
done
printf '%s\n' "${table[@]}"
