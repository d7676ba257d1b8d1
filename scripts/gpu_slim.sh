#!/usr/bin/env bash
# The GPU machine has no libhdf5: configure the build tree with -DORRERY_WITH_HDF5=OFF.
# Copies what a GPU-machine run needs out of a build tree (the executables, the viewer's shaders),
# in the same layout, so it travels under the device tool's size limit beside the staged .gpu/.
# Usage: scripts/gpu_slim.sh BUILD_DIR SLIM_DIR [--xz]   (SLIM_DIR is replaced; name it build-*,
# which git ignores). With --xz SLIM_DIR holds only slim.tar.xz (a fifth of the size, for runs that
# also carry Xvfb and Mesa); unpack it there with `tar xJf SLIM_DIR/slim.tar.xz -C SOME_DIR`.
set -euo pipefail
build=$1 slim=$2 xz=${3:-}
rm -rf "$slim"
for f in src/app/orrery src/bench/orrery-bench tests/orrery_tests tests/orrery_gpu_tests \
         tests/orrery_gfx_tests tests/viewer/orrery_png_check tests/viewer/orrery_png_diff; do
  [ -x "$build/$f" ] || { echo "gpu_slim: $build/$f is missing (build it first)" >&2; exit 1; }
  mkdir -p "$slim/$(dirname "$f")"
  cp "$build/$f" "$slim/$f"
done
cp -r "$build/src/app/shaders" "$slim/src/app/shaders"
# The simulation layer, for building the Python module there with that machine's python3.
if [ -f "$build/src/sim/liborrery_sim.a" ]; then
  mkdir -p "$slim/src/sim" && cp "$build/src/sim/liborrery_sim.a" "$slim/src/sim/"
fi
if [ "$xz" = "--xz" ]; then
  tar cJf "$slim.tar.xz" -C "$slim" .
  rm -rf "$slim"
  mkdir -p "$slim"
  mv "$slim.tar.xz" "$slim/slim.tar.xz"
fi
du -sh "$slim"
