#!/usr/bin/env bash
# Sets up, builds (Release, in build/) and launches the viewer; arguments go to the viewer.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
if [[ ! -x build/src/app/orrery ]]; then
  echo "run: build/src/app/orrery was not built (is the viewer disabled with ORRERY_BUILD_VIEWER=OFF?)" >&2
  exit 1
fi
exec build/src/app/orrery "$@"
