#!/usr/bin/python3
"""Draws docs/convergence.png and docs/energy-drift.png from orrery-bench output.

Usage:
  scripts/plot_physics.py convergence OUT.png CONVERGENCE.csv   (orrery-bench --convergence --csv)
  scripts/plot_physics.py drift OUT.png TRACE.csv [MORE.csv ...]  (orrery-bench --trace)
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


def main(argv):
    if len(argv) < 4 or argv[1] not in ("convergence", "drift"):
        sys.exit(__doc__)
    if argv[1] == "convergence":
        convergence(argv[2], argv[3])
    else:
        drift(argv[2], argv[3:])


if __name__ == "__main__":
    main(sys.argv)
