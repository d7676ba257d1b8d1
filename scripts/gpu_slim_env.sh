# Sourced by the scripts/gpu_*.sh measurements on the GPU machine with SLIM and OUT_DIR as $1 and
# $2: unpacks the slim build's libraries and sets slim, out (made) and bench; the GPU's name and
# clocks go to $out/gpu.txt.
set -u
slim=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
mkdir -p /tmp/h && tar xJf "$slim/lib.tar.xz" -C /tmp/h && export LD_LIBRARY_PATH=/tmp/h/lib:${LD_LIBRARY_PATH:-}
bench=$slim/src/bench/orrery-bench
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv >"$out/gpu.txt" 2>&1
