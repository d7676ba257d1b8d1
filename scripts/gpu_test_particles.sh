#!/usr/bin/env bash
# On the GPU machine, after scripts/gpu_python.sh (whose module is in /tmp/orrery-py): the cost of
# test particles. Writes three 1,048,576-body Plummer spheres as Orrery snapshots, all bodies with
# mass, the first 10% and the first 1% (the rest massless), and times orrery-bench on each with
# cuda-fast and cuda-bh.
# Usage (device, after `. .gpu/prelude.sh`): scripts/gpu_test_particles.sh BENCH OUT
set -uo pipefail
bench=$1 out=$2
mkdir -p "$out"
export PYTHONPATH=/tmp/orrery-py
python3 - <<'PY'
import orrery
base = orrery.Simulation(1048576, "plummer", seed=1, solver="cpu")
for share in ("1", "0.1", "0.01"):
    m = base.masses.copy()
    m[int(len(m) * float(share)):] = 0
    sim = orrery.Simulation.from_arrays(base.positions, base.velocities, m, solver="cpu")
    print(f"sources {share}: n_active {sim.n_active}")
    sim.save(f"/tmp/tp_{share}.orrery")
PY
for share in 1 0.1 0.01; do
  echo "== sources: $share of 1048576"
  "$bench" --load "/tmp/tp_$share.orrery" --solver cuda-fast,cuda-bh --steps 10 --warmup 2 2>&1 |
    tee "$out/tp_$share.txt" | grep -v "^$" | tail -6
done
