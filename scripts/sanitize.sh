#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer (C++; no CUDA, whose code
# compute-sanitizer checks on a GPU machine) into build-asan/ and runs the whole test suite there.
# Every memory error and undefined behaviour fails the run. Leaks are checked in every test that
# does not open a GL context (CTest label `gl`): Mesa's drivers are dlopen()ed and unloaded at exit,
# and LeakSanitizer then reports two 56-byte blocks of theirs with no stack left to suppress by;
# the `gl` tests run with leak checking off (memory errors and UB still checked), as do the `mpi`
# ones (Open MPI's own allocations). Arguments go to ctest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./scripts/setup.sh
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DORRERY_ENABLE_CUDA=OFF \
  -DORRERY_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$(nproc)"
asan=strict_string_checks=1:detect_stack_use_after_return=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ASAN_OPTIONS=$asan:detect_leaks=1 ctest --test-dir build-asan --output-on-failure -LE "gl|mpi" "$@"
# Open MPI keeps its own allocations to the end (LeakSanitizer counts them): the distributed run's
# tests are checked for memory errors and UB, not leaks.
ASAN_OPTIONS=$asan:detect_leaks=0 ctest --test-dir build-asan --output-on-failure -L mpi "$@"
# The viewer's quit-while-busy test allows 1 s in a release build; AddressSanitizer's slower exit
# gets 4.
ORRERY_BUSY_QUIT_MS=4000 ASAN_OPTIONS=$asan:detect_leaks=0 \
  ctest --test-dir build-asan --output-on-failure -L gl "$@"
