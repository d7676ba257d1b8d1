#!/usr/bin/env bash
# On the GPU machine: builds the Python module against the carried simulation library with that
# machine's python3 and its pip pybind11, runs the Python tests there (GPU tests included), and
# times stepping from Python against orrery-bench at N = 1,048,576 in the same run.
# Usage (device, after `. .gpu/prelude.sh`): scripts/gpu_python.sh SLIM OUT
#   SLIM: a scripts/gpu_slim.sh folder of a CUDA build (it holds src/sim/liborrery_sim.a), configured
#   with -DORRERY_WITH_HDF5=OFF: the GPU machine has no libhdf5 (nor its 40 dependencies). Unpack
#   SLIM/lib.tar.xz into /tmp first (Highway's libhwy, which the CPU sums need).
set -uo pipefail
slim=$1 out=$2
mkdir -p "$out"
py=python3
pkg=/tmp/orrery-py/orrery
mkdir -p "$pkg"
cp python/orrery/*.py python/orrery/*.pyi python/orrery/py.typed "$pkg/" 2>/dev/null
printf 'VIEWER = "%s"\n' "$(pwd)/$slim/src/app/orrery" > "$pkg/_build.py"
suffix=$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
echo "== build the module ($($py --version), pybind11 $($py -m pybind11 --version))"
g++ -O2 -std=c++17 -shared -fPIC -fvisibility=hidden -DORRERY_HAVE_CUDA=1 -Iinclude \
  $($py -m pybind11 --includes) src/python/*.cpp "$slim/src/sim/liborrery_sim.a" \
  $(ls /tmp/lib/libhwy.so* 2>/dev/null | head -1) \
  -L/usr/local/cuda/lib64 -lcudart_static -lgomp -ldl -lrt -lpthread \
  -o "$pkg/_orrery$suffix" 2>&1 | tail -20
export PYTHONPATH=/tmp/orrery-py PYTHONUNBUFFERED=1
$py -c 'import orrery; print("devices:", orrery.devices())' || exit 1

echo "== pytest"
(cd tests/python && $py -m pytest -q -p no:cacheprovider -rs . 2>&1 | tee "$out/pytest.txt" | tail -25)

echo "== cost: Python against orrery-bench, N = 1048576, alternated twice"
# The bench times a step by its phases' CUDA events; Python by the host clock around step(),
# and by the same phase events (sim.phases(), a mean per step): both are printed.
for round in 1 2; do
"$slim/src/bench/orrery-bench" --solver cuda-bh,cuda-fast --n 1048576 --preset plummer \
  --steps 30 --warmup 3 --gpus 1 2>&1 | tee "$out/bench_$round.txt" | grep -E "^cuda-"
$py - <<'EOF' 2>&1 | tee "$out/python_$round.txt"
import statistics, time
import orrery
for solver in ["cuda-bh", "cuda-fast"]:
    sim = orrery.Simulation(n=1048576, preset="plummer", seed=1, solver=solver, gpus=1)
    sim.step(3)  # warm-up (cuda-fast tunes)
    each = []
    for _ in range(30):
        t = time.perf_counter(); sim.step(1); each.append(1e3 * (time.perf_counter() - t))
    t = time.perf_counter(); sim.step(30); whole = 1e3 * (time.perf_counter() - t) / 30
    events = sum(sim.phases().values())
    print(f"{solver:10s} python step(1) x30: median {statistics.median(each):8.3f} ms  "
          f"min {min(each):8.3f} ms | step(30): {whole:8.3f} ms a step, phase events "
          f"{events:8.3f} ms a step | {sim.config}")
EOF
done
