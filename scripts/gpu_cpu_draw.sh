#!/usr/bin/env bash
# The CPU draw path's checks on the GPU machine, from the repo root after `. .gpu/prelude.sh`, with
# a slim build (scripts/gpu_slim.sh) in SLIM: the GPU and GL tests (the GL ones on NVIDIA's EGL, a
# hardware OpenGL), the same frame drawn headless by the CUDA splat, GL sprites and the CPU splat
# (png_diff), and the existing figures. Logs and pictures go to OUT_DIR; a table is printed last.
#   scripts/gpu_cpu_draw.sh SLIM OUT_DIR
. "$(dirname "$0")/gpu_slim_env.sh"
o=$slim/src/app/orrery
. "$(dirname "$0")/gpu_checks.sh"
test_rows "$slim" "$out" "gl vs cpu draw"
cd "$out" || exit 1
for d in cuda gl cpu; do
  env -u DISPLAY "$o" --headless --solver cuda-static --n 16384 --frames 5 --hide-panel \
    --draw "$d" --screenshot "$out/same-frame-$d.png" >"same-frame-$d.log" 2>&1
  row "same frame --draw $d (exit $?)" "$(grep -o 'drawing: [a-z-]*\|draw [0-9.]* ms/frame[^)]*)*' "same-frame-$d.log" | tr '\n' ' ')"
done
for d in gl cpu; do
  "$slim/tests/viewer/orrery_png_diff" same-frame-cuda.png "same-frame-$d.png" 270 90 >"diff-$d.log" 2>&1
  row "png_diff cuda vs $d (exit $?)" "$(cat "diff-$d.log" | tr '\n' ' ')"
done
# The CPU splat's cost at 1280x720, cuda-fast 65,536 (300 frames, panel shown), beside the others.
for d in cuda gl cpu; do
  env -u DISPLAY "$o" --headless --solver cuda-fast --n 65536 --frames 300 --draw "$d" \
    >"fps-$d.log" 2>&1
  row "65536 --draw $d (exit $?)" "$(grep -o 'mean [0-9.]* FPS.*draw [^(]*([^)]*)\|mean [0-9.]* FPS.*draw [0-9.]* ms/frame' "fps-$d.log")"
done
# Existing figures.
"$bench" --solver cuda-static,cuda-fast --n 65536 --steps 50 --warmup 5 >bench-65536.log 2>&1
"$bench" --solver cuda-bh --n 1048576 --preset plummer --theta 0.5 --steps 20 --warmup 3 >bench-bh.log 2>&1
row "bench 65536" "$(grep -E '^cuda-(static|fast) ' bench-65536.log | awk '{print $1, $4}' | tr '\n' ' ')"
row "bench cuda-bh 1M" "$(grep -E '^cuda-bh ' bench-bh.log | awk '{print $1, $4}' | tr '\n' ' ')"
printf '%s\n' "${table[@]}"
