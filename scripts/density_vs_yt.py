"""The density map of GADGET-2's galaxy file beside yt's ParticleProjectionPlot of the same file:
docs/density-vs-yt.png. Orrery draws the bodies' smoothed surface density looking down z with a
narrow field of view (nearly the orthographic projection yt makes) over the same 300 kpc (yt on its 256 x 256 pixels).
    PYTHONPATH=build/python python3 scripts/density_vs_yt.py assets/gadget/galaxy.dat OUT.png"""
import math
import os
import sys
import tempfile

import matplotlib
matplotlib.use("Agg")
import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import yt

import orrery

galaxy, out = sys.argv[1], sys.argv[2]
width_kpc, fov = 300.0, 10.0
distance = 0.5 * width_kpc / math.tan(math.radians(0.5 * fov))
with tempfile.TemporaryDirectory() as tmp:
    sim = orrery.load(galaxy, solver="cpu")
    ours = os.path.join(tmp, "orrery.png")
    sim.render(ours, width=800, height=800, mode="density", hud="minimal", frame="none",
               camera={"distance": distance, "fov": fov, "centre": (0, 0, 0)})
    h5 = os.path.join(tmp, "galaxy.hdf5")
    sim.save(h5)
    ds = yt.load(h5)
    p = yt.ParticleProjectionPlot(ds, "z", ("all", "particle_mass"), center=[0, 0, 0],
                                  width=(width_kpc, "kpc"), density=True)
    p.set_buff_size(256)
    p.set_unit(("all", "particle_mass"), "Msun/pc**2")
    p.set_cmap(("all", "particle_mass"), "magma")
    theirs = os.path.join(tmp, "yt.png")
    p.save(theirs)
    fig, ax = plt.subplots(1, 2, figsize=(14, 6.6), dpi=110)
    for a, f, title in [(ax[0], ours, "Orrery: --mode density (SPH kernel, 32 neighbours)"),
                        (ax[1], theirs, "yt 4.1: ParticleProjectionPlot (particle_mass, 256 x 256 pixels)")]:
        a.imshow(mpimg.imread(f))
        a.set_title(title, fontsize=11)
        a.axis("off")
    fig.suptitle("GADGET-2's galaxy-collision initial conditions (60,000 particles), 300 kpc across, "
                 "looking down z", fontsize=12)
    fig.tight_layout()
    fig.savefig(out)
print("wrote", out)
