#!/usr/bin/env bash
# Issue 11's figures on the GPU machine, from the repo root after `. .gpu/prelude.sh`, with a slim
# build (scripts/gpu_slim.sh) in SLIM and, optionally, the previous commit's orrery-bench at
# SLIM/prev-bench for a same-run comparison: the GPU tests, the collision phases on `box` (gravity
# off, e = 1 and 0.5) at N = 65,536 and 1,048,576, their cost next to a gravity step (`collision`
# with bounce through cuda-bh, `accretion` with merges), old against new for the all-pairs
# solvers, and headless screenshots. Logs go to OUT_DIR (packed into OUT_DIR.tar.gz); a table is
# printed last.   scripts/gpu_collisions.sh SLIM OUT_DIR
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
b=$slim/src/bench/orrery-bench
prev=$slim/prev-bench
table=()
row() { table+=("$(printf '%-44s %s' "$1" "$2")"); }
rows() { while read -r line; do row "  " "$line"; done < <(grep -E "$1" "$2" | awk "$3"); }
"$slim/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
row "orrery_gpu_tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-tests.log" | tr '\n' ' ')"
"$slim/tests/orrery_gpu_tests" --gtest_filter='GpuCollisions*' >"$out/gpu-collision-tests.log" 2>&1
row "GpuCollisions alone (exit $?)" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-collision-tests.log" | tr '\n' ' ')"
# The collision phases: grid, contacts, resolve (median ms of 200 steps).
for e in 1 0.5; do
  "$b" --solver cuda-fast --preset box --restitution $e --n 65536,1048576 --steps 200 --warmup 20 \
    --phases --diagnostics --csv "$out/box-e$e.csv" >"$out/box-e$e.txt" 2>&1
  row "box e=$e (exit $?)" "N ms/step grid contacts resolve"
  rows '^cuda-fast' "$out/box-e$e.txt" '{print $2, $4}'
done
"$b" --solver cuda-fast --preset box --n 4194304,16777216 --steps 50 --warmup 10 --phases \
  --csv "$out/box-large.csv" >"$out/box-large.txt" 2>&1
row "box 4M, 16M (exit $?)" ""
# Next to a gravity step: galaxies colliding with bounces, and the accretion cloud merging.
"$b" --solver cuda-bh,cuda-fast --preset collision --collisions bounce --n 65536 --steps 50 \
  --warmup 5 --phases --integrator leapfrog --csv "$out/galaxies-64k.csv" >"$out/galaxies-64k.txt" 2>&1
row "collision+bounce 64K (exit $?)" ""
"$b" --solver cuda-bh --preset collision --collisions bounce --n 1048576 --steps 20 --warmup 5 \
  --phases --integrator leapfrog --csv "$out/galaxies-1m.csv" >"$out/galaxies-1m.txt" 2>&1
row "collision+bounce 1M cuda-bh (exit $?)" ""
"$b" --solver cuda-bh --preset accretion --n 1048576 --steps 100 --warmup 0 --phases \
  --integrator leapfrog --diagnostics --csv "$out/accretion-1m.csv" >"$out/accretion-1m.txt" 2>&1
row "accretion 1M cuda-bh (exit $?)" ""
"$b" --solver cuda-fast --preset accretion --n 65536 --steps 300 --warmup 0 --phases \
  --integrator leapfrog --diagnostics --csv "$out/accretion-64k.csv" >"$out/accretion-64k.txt" 2>&1
row "accretion 64K cuda-fast (exit $?)" ""
# Old against new: the all-pairs solvers with collisions off, interleaved twice.
if [ -x "$prev" ]; then
  for k in 1 2; do
    "$prev" --solver cuda-static,cuda-fast,cuda-bh --n 65536,1048576 --steps 20 --warmup 3 \
      >"$out/prev-$k.txt" 2>&1
    "$b" --solver cuda-static,cuda-fast,cuda-bh --n 65536,1048576 --steps 20 --warmup 3 \
      >"$out/new-$k.txt" 2>&1
  done
  row "old vs new (ms/step)" ""
  for k in 1 2; do
    paste <(grep -E '^cuda' "$out/prev-$k.txt" | awk '{print $1, $2, $4}') \
      <(grep -E '^cuda' "$out/new-$k.txt" | awk '{print $4}') >"$out/old-new-$k.txt"
    rows '.' "$out/old-new-$k.txt" '{printf "%s %s old %s new %s (%+.1f%%)\n", $1, $2, $3, $4, 100*($4-$3)/$3}'
  done
fi
# Headless screenshots: the box gas, the accretion cloud after its collapse, galaxies with merges.
o=$slim/src/app/orrery
env -u DISPLAY "$o" --headless --solver cuda-fast --preset box --n 1048576 --frames 300 \
  --screenshot "$out/box-1m.png" >"$out/viewer-box.log" 2>&1
row "viewer box 1M (exit $?)" "$(grep -E 'summary' "$out/viewer-box.log" | cut -c1-120)"
env -u DISPLAY "$o" --headless --solver cuda-bh --preset accretion --integrator leapfrog \
  --n 262144 --frames 350 --screenshot "$out/accretion-256k.png" >"$out/viewer-accretion.log" 2>&1
row "viewer accretion 256K (exit $?)" "$(grep -E 'summary' "$out/viewer-accretion.log" | cut -c1-120)"
env -u DISPLAY "$o" --headless --solver cuda-bh --preset collision --collisions merge \
  --integrator leapfrog --n 1048576 --frames 400 --hide-panel \
  --screenshot "$out/galaxies-merge-1m.png" >"$out/viewer-galaxies.log" 2>&1
row "viewer galaxies merge 1M (exit $?)" "$(grep -E 'summary' "$out/viewer-galaxies.log" | cut -c1-120)"
for f in box-e1 box-e0.5 box-large galaxies-64k galaxies-1m accretion-1m accretion-64k; do
  row "$f" ""
  rows '^cuda' "$out/$f.txt" '{print $1, $2, $4}'
done
printf '%s\n' "${table[@]}" | tee "$out/table.txt"
cp "$out"/*.png "$(dirname "$out")/" 2>/dev/null
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out"
