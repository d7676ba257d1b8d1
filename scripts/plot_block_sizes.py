#!/usr/bin/env python3
"""Draws interactions/s against block size, one panel per N, from `orrery-bench --csv` output.

Usage: scripts/plot_block_sizes.py RESULTS.csv docs/block-sizes.png
Needs Debian's python3-matplotlib. Lines for cuda-dynamic and cuda-static; for cuda-fast, its
best (autotuned) configuration at each block size.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def column(header, *names):
    for n in names:
        if n in header:
            return n
    sys.exit(f"plot_block_sizes: none of the columns {names} in the CSV header {header}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot_block_sizes: the CSV has no rows")
    header = rows[0].keys()
    c_solver = column(header, "solver")
    c_n = column(header, "n", "N")
    c_block = column(header, "block", "block_size")
    c_rate = column(header, "interactions_per_s", "interactions/s", "interactions_per_second")
    data = defaultdict(lambda: defaultdict(dict))  # n -> solver -> block -> rate
    for r in rows:
        if r[c_block] in ("", "-", "0") or not r[c_solver].startswith("cuda-"):
            continue
        n, b, rate = int(r[c_n]), int(r[c_block]), float(r[c_rate])
        best = data[n][r[c_solver]].get(b, 0.0)
        data[n][r[c_solver]][b] = max(best, rate)
    sizes = sorted(data)
    if not sizes:
        sys.exit("plot_block_sizes: no GPU rows with a block size in the CSV")
    fig, axes = plt.subplots(1, len(sizes), figsize=(5.5 * len(sizes), 4.2), squeeze=False)
    style = {"cuda-dynamic": ("o-", "#4c72b0"), "cuda-static": ("s-", "#dd8452"),
             "cuda-fast": ("^-", "#55a868")}
    for ax, n in zip(axes[0], sizes):
        for solver in ("cuda-dynamic", "cuda-static", "cuda-fast"):
            pts = data[n].get(solver)
            if not pts:
                continue
            xs = sorted(pts)
            marker, colour = style[solver]
            label = solver + (" (best R, split)" if solver == "cuda-fast" else "")
            ax.plot(xs, [pts[x] / 1e12 for x in xs], marker, color=colour, label=label)
        ax.set_xscale("log", base=2)
        ax.set_xticks([32, 64, 128, 256, 512, 1024])
        ax.set_xticklabels(["32", "64", "128", "256", "512", "1024"])
        ax.set_xlabel("block size (threads)")
        ax.set_ylabel("interactions/s (1e12)")
        ax.set_title(f"N = {n:,}")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="lower right")
    fig.suptitle("Orrery: interactions per second against block size")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print(f"wrote {sys.argv[2]}")


if __name__ == "__main__":
    main()
