#!/usr/bin/env bash
# Installs this build (`cmake --install`, every component) into a scratch prefix, then builds and
# runs tests/install/consumer against it with find_package(orrery): the installed headers, library
# and package config must be enough. Also runs the installed programs' --version, and configures a
# project that adds Orrery's source as a subproject (its tests must then be off).
# Usage: consumer.sh BUILD_DIR SCRATCH VERSION
set -euo pipefail
build=$1 scratch=$2 version=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
for p in orrery-bench orrery; do
  if [[ -x $scratch/prefix/bin/$p ]]; then
    "$scratch/prefix/bin/$p" --version | grep -q "^$p $version" || { echo "$p --version is wrong"; exit 1; }
  fi
done
cmake -S "$here/consumer" -B "$scratch/consumer" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$scratch/prefix" >"$scratch/configure.log" 2>&1 || { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/consumer" >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; exit 1; }
"$scratch/consumer/plummer_steps" "$version"
cmake -S "$here/superproject" -B "$scratch/superproject" -DORRERY_SOURCE="$here/../.." \
      -DORRERY_BUILD_PYTHON=OFF >"$scratch/superproject.log" 2>&1 || { cat "$scratch/superproject.log"; exit 1; }
echo "a superproject's add_subdirectory: orrery::sim without Orrery's tests"
