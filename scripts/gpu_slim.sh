#!/usr/bin/env bash
# The GPU machine has no libhdf5 or libhwy: this copies them (where the build links them) and the
# libraries they need (not glibc's or the C++ runtime: that machine's are newer) into SLIM_DIR/lib, xz-packed;
# run there with `tar xJf SLIM_DIR/lib.tar.xz -C /tmp && export LD_LIBRARY_PATH=/tmp/lib`.
# Copies what a GPU-machine run needs out of a build tree (the executables, the viewer's shaders),
# in the same layout, so it travels under the device tool's size limit beside the staged .gpu/.
# Usage: scripts/gpu_slim.sh BUILD_DIR SLIM_DIR [--xz]   (SLIM_DIR is replaced; name it build-*,
# which git ignores). With --xz SLIM_DIR holds only slim.tar.xz (a fifth of the size, for runs that
# also carry Xvfb and Mesa); unpack it there with `tar xJf SLIM_DIR/slim.tar.xz -C SOME_DIR`.
set -euo pipefail
build=$1 slim=$2 xz=${3:-}
rm -rf "$slim"
[ -x "$build/src/bench/orrery-bench" ] || { echo "gpu_slim: $build/src/bench/orrery-bench is missing (build it first)" >&2; exit 1; }
# Whatever of the rest was built (a run over MPI ranks needs only the bench and orrery_mpi_check).
for f in src/app/orrery src/bench/orrery-bench tests/orrery_tests tests/orrery_gpu_tests \
         tests/orrery_gfx_tests tests/viewer/orrery_png_check tests/viewer/orrery_png_diff \
         tests/orrery_mpi_check; do
  [ -x "$build/$f" ] || continue
  mkdir -p "$slim/$(dirname "$f")"
  cp "$build/$f" "$slim/$f"
done
[ -d "$build/src/app/shaders" ] && cp -r "$build/src/app/shaders" "$slim/src/app/shaders"
# The simulation layer, for building the Python module there with that machine's python3.
if [ -f "$build/src/sim/liborrery_sim.a" ]; then
  mkdir -p "$slim/src/sim" && cp "$build/src/sim/liborrery_sim.a" "$slim/src/sim/"
fi
hdf5=$(ldd "$build/src/bench/orrery-bench" | awk '/libhdf5/{print $3}')
hwy=$(ldd "$build/src/bench/orrery-bench" | awk '/libhwy/{print $3}')  # the CPU's SIMD sums
if [ -n "$hdf5$hwy" ]; then
  mkdir -p "$slim/lib"
  { echo "$hwy"; [ -z "$hdf5" ] || { echo "$hdf5"; ldd "$hdf5" | awk '/=>/{print $3}'; }; } |
    grep . |
    grep -v -E '/(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+)\.so|ld-linux' |
    while read -r lib; do cp -L "$lib" "$slim/lib/"; done
  tar cJf "$slim/lib.tar.xz" -C "$slim" lib
  rm -rf "$slim/lib"
fi
if [ "$xz" = "--xz" ]; then
  tar cJf "$slim.tar.xz" -C "$slim" .
  rm -rf "$slim"
  mkdir -p "$slim"
  mv "$slim.tar.xz" "$slim/slim.tar.xz"
fi
du -sh "$slim"
