# Sourced by scripts/gpu_redesign.sh and scripts/gpu_tables.sh on the GPU machine (from the repo
# root after `. .gpu/prelude.sh`): a table of rows printed last, the checks both run on the new
# build - the GPU and GL tests, the viewer checks (tests/viewer/gpu_check.sh), compute-sanitizer's
# memcheck over the Simulation's device paths, the collider and the colour passes - and the
# viewer's summary line.
table=()
row() { table+=("$(printf '%-44s %s' "$1" "$2")"); }

# gpu_checks NEW_SLIM OUT_DIR MEMCHECK_SECONDS: the checks' rows; logs in OUT_DIR.
gpu_checks() {
  local new=$1 out=$2 seconds=$3
  "$new/tests/orrery_gpu_tests" >"$out/gpu-tests.log" 2>&1
  row "orrery_gpu_tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu-tests.log" | tr '\n' ' ')"
  ORRERY_SHADER_DIR=$new/src/app/shaders "$new/tests/orrery_gfx_tests" >"$out/gfx-tests.log" 2>&1
  row "orrery_gfx_tests (exit $?)" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gfx-tests.log" | tr '\n' ' ')"
  tests/viewer/gpu_check.sh "$new" "$out/viewer" >"$out/viewer-check.log" 2>&1
  row "viewer checks (exit $?)" "$(grep -c '^PASS' "$out/viewer-check.log") PASS, $(grep -c '^FAIL' "$out/viewer-check.log") FAIL"
  timeout "$seconds" compute-sanitizer --tool memcheck --leak-check full "$new/tests/orrery_gpu_tests" \
    --gtest_filter='Cuda/GpuSystem.*:*GpuCollisions*:GpuViewTools.Simulation*:GpuViewTools.OneBody*:*Precision*:*Adaptive*' \
    >"$out/memcheck.log" 2>&1
  row "memcheck (exit $?)" "$(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED) ' "$out/memcheck.log" | tr '\n' ' ')"
}

# The viewer's frame rate from its summary line.
summary() { grep -o 'mean [0-9.]* FPS ([0-9.]* ms/frame)' "$1"; }
