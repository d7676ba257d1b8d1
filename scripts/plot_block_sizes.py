#!/usr/bin/python3
"""Draws interactions/s against block size, one panel per N, from `orrery-bench --csv` output.

Usage: scripts/plot_block_sizes.py [--n LIST] [--ref N=RATE,...] [--ref-label TEXT] OUT.png RESULTS.csv [MORE.csv ...]
Needs Debian's python3-matplotlib (run it with /usr/bin/python3). Lines for cuda-dynamic and cuda-static; for cuda-fast, its
best (autotuned) configuration at each block size.
"""
import argparse
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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", help="comma-separated N to plot (default: every N in the files)")
    ap.add_argument("--ref", help="reference rates drawn as dashed lines, e.g. 65536=1.409e12,...")
    ap.add_argument("--ref-label", default="reference")
    ap.add_argument("out")
    ap.add_argument("csv", nargs="+")
    args = ap.parse_args()
    keep = {int(x) for x in args.n.split(",")} if args.n else None
    refs = {}
    for item in (args.ref.split(",") if args.ref else []):
        n, rate = item.split("=")
        refs[int(n)] = float(rate)
    rows = []
    for path in args.csv:
        with open(path, newline="") as f:
            rows += list(csv.DictReader(f))
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
        if keep is not None and n not in keep:
            continue
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
            label = solver + (" (autotuned)" if solver == "cuda-fast" else "")
            ax.plot(xs, [pts[x] / 1e12 for x in xs], marker, color=colour, label=label)
        if n in refs:
            ax.axhline(refs[n] / 1e12, color="#555555", linestyle="--", linewidth=1,
                       label=args.ref_label)
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
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
