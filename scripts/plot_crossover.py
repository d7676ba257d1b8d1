#!/usr/bin/python3
"""Draws ms per step against N for several solvers, from `orrery-bench --csv` timing files.

Usage: scripts/plot_crossover.py OUT.png TITLE RESULTS.csv [MORE.csv ...]
Needs Debian's python3-matplotlib (run it with /usr/bin/python3). One line per solver (and theta,
for tree codes), log-log, so the N where a tree code overtakes an all-pairs solver can be read.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    out, title, paths = argv[1], argv[2], argv[3:]
    lines = defaultdict(list)
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                label = r["solver"]
                if r.get("theta") not in (None, "", "null"):
                    label += " (theta %s)" % r["theta"]
                lines[label].append((int(r["n"]), float(r["ms_median"])))
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for label, pts in sorted(lines.items()):
        pts.sort()
        ax.loglog([n for n, _ in pts], [ms for _, ms in pts], "o-", label=label, markersize=4)
    ax.set_xlabel("N (bodies)")
    ax.set_ylabel("median ms per step")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv)
