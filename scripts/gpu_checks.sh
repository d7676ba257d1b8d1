# Sourced by the scripts/gpu_*.sh measurements on the GPU machine (from the repo root after
# `. .gpu/prelude.sh`): a table of rows printed last, the test suites' rows, a bench run's rows,
# the checks the before/after scripts run on the new build - the GPU and GL tests, the viewer
# checks (tests/viewer/gpu_check.sh), compute-sanitizer's memcheck over the Simulation's device
# paths, the collider and the colour passes - and the viewer's summary line.
table=()
row() { table+=("$(printf '%-44s %s' "$1" "$2")"); }

# A suite's outcome: the gtest lines that say it.
passed() { grep -E '^\[  (PASSED|FAILED|SKIPPED) '"${2:+|$2}" "$1" | tr '\n' ' '; }

# test_rows SLIM OUT_DIR [GFX_PATTERN]: the GPU and GL suites, a row each (the GL row also shows
# the lines GFX_PATTERN finds).
test_rows() {
  "$1/tests/orrery_gpu_tests" >"$2/gpu-tests.log" 2>&1
  row "orrery_gpu_tests (exit $?)" "$(passed "$2/gpu-tests.log")"
  ORRERY_SHADER_DIR=$1/src/app/shaders "$1/tests/orrery_gfx_tests" >"$2/gfx-tests.log" 2>&1
  row "orrery_gfx_tests (exit $?)" "$(passed "$2/gfx-tests.log" "${3:-}")"
}

# bench_rows LABEL LOG BENCH ARGS...: runs BENCH ARGS into LOG and adds a row of ms a step (and
# interactions a second) for each result line, "LABEL solver N=n".
bench_rows() {
  local label=$1 log=$2 b=$3 s n blk ms ips rest
  shift 3
  "$b" "$@" >"$log" 2>&1
  while read -r s n blk ms ips rest; do
    row "$label $s N=$n" "$ms ms/step  $ips interactions/s"
  done < <(grep -E '^(cpu|cuda)[-a-z]* +[0-9]' "$log")
}

# gpu_checks NEW_SLIM OUT_DIR MEMCHECK_SECONDS: the checks' rows; logs in OUT_DIR.
gpu_checks() {
  local new=$1 out=$2 seconds=$3
  test_rows "$new" "$out"
  tests/viewer/gpu_check.sh "$new" "$out/viewer" >"$out/viewer-check.log" 2>&1
  row "viewer checks (exit $?)" "$(grep -c '^PASS' "$out/viewer-check.log") PASS, $(grep -c '^FAIL' "$out/viewer-check.log") FAIL"
  timeout "$seconds" compute-sanitizer --tool memcheck --leak-check full "$new/tests/orrery_gpu_tests" \
    --gtest_filter='Cuda/GpuSystem.*:*GpuCollisions*:GpuViewTools.Simulation*:GpuViewTools.OneBody*:*Precision*:*Adaptive*' \
    >"$out/memcheck.log" 2>&1
  row "memcheck (exit $?)" "$(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED) ' "$out/memcheck.log" | tr '\n' ' ')"
}

# The viewer's frame rate from its summary line.
summary() { grep -o 'mean [0-9.]* FPS ([0-9.]* ms/frame)' "$1"; }

# viewer_row LABEL LOG SLIM ARGS...: the viewer of SLIM headless with ARGS, its frame rate a row.
viewer_row() {
  local label=$1 log=$2 d=$3
  shift 3
  env -u DISPLAY "$d/src/app/orrery" --headless "$@" >"$log" 2>&1
  row "$label" "$(summary "$log")"
}
