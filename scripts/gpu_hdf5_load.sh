#!/usr/bin/env bash
# On the GPU machine (after `. .gpu/prelude.sh`): writes a 16,777,216-particle GADGET-4-layout
# HDF5 file with h5py (12M halo, 4M disk, IDs, a MassTable) and times opening it: orrery-bench's
# load, and the viewer's (headless, read and on the GPU). Then the viewer saves what its buffers
# hold without a step, and h5py compares that with the file: every body, type and ID. Unpacks the
# libhdf5 that scripts/gpu_slim.sh packed. Usage: scripts/gpu_hdf5_load.sh SLIM OUT
set -euo pipefail
slim=$1 out=$2
mkdir -p /tmp/orrery-hdf5 && tar xJf "$slim/lib.tar.xz" -C /tmp/orrery-hdf5
export LD_LIBRARY_PATH=/tmp/orrery-hdf5/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
python3 - <<'PY'
import time, numpy as np, h5py
n1, n2 = 12 * 2**20, 4 * 2**20
rng = np.random.default_rng(7)
t = time.time()
with h5py.File("/tmp/big.hdf5", "w") as f:
    h = f.create_group("Header")
    h.attrs["NumPart_ThisFile"] = np.array([0, n1, n2, 0, 0, 0], dtype=np.int64)
    h.attrs["NumPart_Total"] = np.array([0, n1, n2, 0, 0, 0], dtype=np.uint64)
    h.attrs["MassTable"] = np.array([0, 1.0 / n1, 0.25 / n2, 0, 0, 0])
    h.attrs["Time"], h.attrs["Redshift"], h.attrs["BoxSize"] = 1.0, 0.0, 0.0
    for t_, n, s in [(1, n1, 20.0), (2, n2, 5.0)]:
        g = f.create_group(f"PartType{t_}")
        g["Coordinates"] = (rng.standard_normal((n, 3), dtype=np.float32) * s)
        g["Velocities"] = rng.standard_normal((n, 3), dtype=np.float32) * 10
        g["ParticleIDs"] = np.arange(n, dtype=np.uint64) + (0 if t_ == 1 else n1)
print(f"h5py wrote /tmp/big.hdf5 ({n1 + n2} particles) in {time.time() - t:.1f} s")
PY
ls -la /tmp/big.hdf5 | tee "$out/hdf5_file.txt"
wall() {  # runs the command, then prints its wall time
  local s e
  s=$(date +%s.%N)
  "$@"
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { printf "wall %.2f s\n", e - s }'
}
for k in 1 2 3; do
  wall "$slim/src/app/orrery" --headless --paused --load /tmp/big.hdf5 --solver cuda-bh \
    --gadget-g 1 --frames 2 --width 640 --height 360 --screenshot "$out/big-$k.png" 2>&1 |
    grep -E "loaded|wall|error" | tee -a "$out/viewer_load.txt"
done
wall "$slim/src/bench/orrery-bench" --load /tmp/big.hdf5 --gadget-g 1 --solver cuda-bh --steps 3 \
  --warmup 1 2>&1 | tail -5 | tee "$out/bench_load.txt"
"$slim/src/app/orrery" --headless --paused --load /tmp/big.hdf5 --solver cuda-bh --gadget-g 1 \
  --frames 2 --width 640 --height 360 --save /tmp/big-saved.hdf5 2>&1 | grep -E "saved|error" |
  tee "$out/viewer_save.txt"
python3 - <<'PY' | tee -a "$out/viewer_save.txt"
import numpy as np, h5py
with h5py.File("/tmp/big.hdf5") as a, h5py.File("/tmp/big-saved.hdf5") as b:
    same = True
    for t in (1, 2):
        g, h = a[f"PartType{t}"], b[f"PartType{t}"]
        for k in ("Coordinates", "Velocities", "ParticleIDs"):
            same &= np.array_equal(g[k][:], h[k][:])
        same &= np.array_equal(np.full(g["ParticleIDs"].shape, a["Header"].attrs["MassTable"][t],
                                       dtype=np.float32), h["Masses"][:])
print("saved state equals the file:", "yes" if same else "NO")
PY
