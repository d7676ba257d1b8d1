#!/usr/bin/env python3
"""The host memory a body costs each CPU solver at the peak of a step, as the up-front checks
(SolverInfo::host_bytes_per_body) assume it: each case in a fresh interpreter, the peak resident
size (ru_maxrss) after making a Simulation and taking one step, less the interpreter's own before
it. Prints one line a case and the bytes a body; docs/robustness.md ("Clear limits") has a run.

Usage: PYTHONPATH=build/python scripts/measure_host_memory.py [CASE ...]
A case is solver:precision:n; the default list is the one docs/robustness.md reports."""
import subprocess
import sys

PROBE = """
import resource, sys
import orrery
solver, precision, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
s = orrery.Simulation(n=n, preset="random", solver=solver, precision=precision, seed=1)
s.step(1)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024)
"""

DEFAULT = ["cpu:single:32768", "cpu:single:131072", "cpu:double:32768", "cpu:double:131072",
           "cpu-omp:single:32768", "cpu-omp:single:131072", "cpu-omp:double:32768",
           "cpu-omp:double:131072", "cpu-bh:single:262144", "cpu-bh:single:1048576",
           "cpu-bh:single:4194304"]


def main():
    print(f"{'solver':8} {'precision':9} {'N':>9} {'peak bytes':>12} {'bytes/body':>10}")
    for case in sys.argv[1:] or DEFAULT:
        solver, precision, n = case.split(":")
        out = subprocess.run([sys.executable, "-c", PROBE, solver, precision, n],
                             capture_output=True, text=True, check=True).stdout
        peak = int(out.split()[-1])
        print(f"{solver:8} {precision:9} {int(n):>9} {peak:>12} {peak / int(n):>10.0f}")


if __name__ == "__main__":
    main()
