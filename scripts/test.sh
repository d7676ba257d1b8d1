#!/usr/bin/env bash
# Sets up, builds (Release, in build/) and runs the tests; arguments go to ctest (e.g. -L gpu).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure --no-tests=error "$@"
