#!/usr/bin/python3
"""Draws docs/convergence.png, docs/energy-drift.png and docs/bh-energy.png.

Usage:
  scripts/plot_physics.py convergence OUT.png CONVERGENCE.csv   (orrery-bench --convergence --csv)
  scripts/plot_physics.py drift OUT.png TRACE.csv [MORE.csv ...]  (orrery-bench --trace)
  scripts/plot_physics.py tree-energy OUT.png TEST.log TRACE.csv
      (the output of orrery_gpu_tests --gtest_filter=CudaBh.LeapfrogKeepsThePlummerSpheresEnergy,
      whose readings use the exact potential, and an orrery-bench --trace of the same run, whose
      readings use the tree's)
Needs Debian's python3-matplotlib (run it with /usr/bin/python3). The convergence chart fits the
slope of log(error) against log(dt) over each integrator's window above float rounding (the
windows the tests use) and prints it in the legend.
"""
import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"euler": "#d95f02", "leapfrog": "#1b9e77", "yoshida4": "#7570b3"}
# Steps per orbit where each integrator's error is in its asymptotic regime and far above float
# rounding (tests/integrator_checks.h says why).
WINDOWS = {"euler": (800, 3200), "leapfrog": (100, 400), "yoshida4": (50, 200)}


def slope(points):
    xs = [math.log(dt) for dt, _ in points]
    ys = [math.log(e) for _, e in points]
    m = len(xs)
    sx, sy = sum(xs), sum(ys)
    sxx = sum(x * x for x in xs)
    sxy = sum(x * y for x, y in zip(xs, ys))
    return (m * sxy - sx * sy) / (m * sxx - sx * sx)


def convergence(out, path):
    rows = defaultdict(list)  # (solver, integrator) -> [(steps, dt, error)]
    with open(path) as f:
        for r in csv.DictReader(f):
            rows[(r["solver"], r["integrator"])].append(
                (int(r["steps_per_orbit"]), float(r["dt"]), float(r["period_error"])))
    solvers = sorted({s for s, _ in rows})
    fig, axes = plt.subplots(1, len(solvers), figsize=(5.2 * len(solvers), 4.4), squeeze=False)
    for ax, solver in zip(axes[0], solvers):
        for integ in ("euler", "leapfrog", "yoshida4"):
            pts = sorted(rows.get((solver, integ), []), key=lambda p: p[1])
            if not pts:
                continue
            lo, hi = WINDOWS[integ]
            fit = [(dt, e) for s, dt, e in pts if lo <= s <= hi]
            label = "%s (fitted order %.2f, %d-%d steps/orbit)" % (integ, slope(fit), lo, hi)
            ax.loglog([p[1] for p in pts], [p[2] for p in pts], "o-", color=COLOURS[integ],
                      label=label, markersize=4)
            ax.loglog([dt for dt, _ in fit], [e for _, e in fit], "o", color=COLOURS[integ],
                      markersize=8, markerfacecolor="none")
        ax.set_title("%s: Kepler orbit, e = 0.5, one period" % solver)
        ax.set_xlabel("time step dt (period 2 pi)")
        ax.set_ylabel("position error / semi-major axis")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def drift(out, paths):
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    title = ""
    for path in paths:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        if not rows:
            continue
        integ = rows[0]["integrator"]
        t = [float(r["time"]) for r in rows]
        e = [abs(float(r["energy_drift"])) for r in rows]
        ax.semilogy(t[1:], [max(v, 1e-12) for v in e[1:]], color=COLOURS.get(integ, None),
                    label=integ)
        title = "%s, N = %s, plummer" % (rows[0]["solver"], rows[0]["n"])
    ax.set_title("|E - E0| / |E0| against time (%s)" % title)
    ax.set_xlabel("simulation time (crossing time 31.6)")
    ax.set_ylabel("|relative energy error|")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def tree_energy(out, log_path, trace_path):
    exact = [(0.0, 0.0)]
    with open(log_path) as f:
        for line in f:
            words = line.split()
            if len(words) == 5 and words[0] == "energy" and words[1] == "t":
                exact.append((float(words[2]), float(words[4])))
    with open(trace_path) as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    ax.plot([r[0] for r in exact], [r[1] for r in exact], color="#1b9e77", marker="o", ms=3,
            label="exact all-pairs potential (the test's reading)")
    ax.plot([float(r["time"]) for r in rows], [float(r["energy_drift"]) for r in rows],
            color="#999999", lw=0.8, label="the tree's own potential (--diagnostics)")
    for bar in (1e-5, -1e-5):
        ax.axhline(bar, color="#d95f02", ls="--", lw=1)
    ax.set_title("cuda-bh, leapfrog, theta 0.5, plummer N = 65,536: (E - E0) / |E0|")
    ax.set_xlabel("simulation time (ten crossing times of 31.6; dt 0.016, eps 0.1)")
    ax.set_ylabel("relative energy error (bar: 1e-5)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower left")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main(argv):
    modes = {"convergence": 4, "drift": 4, "tree-energy": 5}
    if len(argv) < 2 or argv[1] not in modes or len(argv) < modes[argv[1]]:
        sys.exit(__doc__)
    if argv[1] == "convergence":
        convergence(argv[2], argv[3])
    elif argv[1] == "drift":
        drift(argv[2], argv[3:])
    else:
        tree_energy(argv[2], argv[3], argv[4])


if __name__ == "__main__":
    main(sys.argv)
