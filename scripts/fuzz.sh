#!/usr/bin/env bash
# Builds the libFuzzer targets of both programs' command-line parsers and of the file loaders
# (Orrery's snapshots with HDF5, TIPSY, GADGET-2, scene files; clang, ASan + UBSan, in build-fuzz/)
# and runs each parser for SECONDS (default 60) and each loader for half of it, from the corpus in
# tests/fuzz/corpus. New inputs go to a scratch folder, not into the repository. Any crash, hang
# (over 10 s for one input), leak or sanitizer report fails the run (libhdf5 runs in a child
# process, src/sim/io/isolated.h: its faults are the loader's error lines). Usage: fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
./scripts/setup.sh clang libclang-rt-14-dev
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DORRERY_ENABLE_CUDA=OFF -DORRERY_FUZZ=ON -DORRERY_BUILD_VIEWER=OFF -DORRERY_BUILD_BENCH=OFF \
  -DORRERY_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0
# Each entry: the corpus folder, the executable, the seconds (the loaders get half).
for entry in "viewer fuzz_viewer_cli $seconds" "bench fuzz_bench_cli $seconds" \
             "snapshot fuzz_snapshot $((seconds / 2))" "tipsy fuzz_tipsy $((seconds / 2))" \
             "gadget fuzz_gadget $((seconds / 2))" \
             "scene fuzz_scene $((seconds / 2))"; do
  read -r target exe secs <<<"$entry"
  mkdir -p "$scratch/$target" "$scratch/$target-artifacts"
  echo "fuzz: $target for ${secs} s"
  # -close_fd_mask=3: the parsers' own error lines and --help text stay out of the log.
  # A fixed seed (ORRERY_FUZZ_SEED, default 1) makes a CI run repeatable; set 0 for a fresh one.
  if ! (cd "$scratch" && "$OLDPWD/build-fuzz/tests/fuzz/$exe" -max_total_time="$secs" -seed="${ORRERY_FUZZ_SEED:-1}" \
        -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
        -artifact_prefix="$scratch/$target-artifacts/" "$scratch/$target" \
        "$OLDPWD/tests/fuzz/corpus/$target" 2>"$scratch/$target.log"); then
    status=1
    echo "fuzz: $target FAILED"
    tail -n 60 "$scratch/$target.log"
    for f in "$scratch/$target-artifacts"/*; do
      [ -e "$f" ] && { echo "input ($f):"; od -c "$f" | head -20; }
    done
  fi
  grep -E "^(stat::number_of_executed_runs|stat::new_units_added|Done [0-9]+ runs)" "$scratch/$target.log" || true
done
[ $status -eq 0 ] && echo "fuzz: every target ran its time: no crash, hang or sanitizer report"
exit $status
