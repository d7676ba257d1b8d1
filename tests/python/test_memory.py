"""Issue 42: the up-front memory check is sized per solver and precision (measured: docs/
robustness.md) and sees an address-space limit (ulimit -v), so a state that cannot fit is refused
in one line before anything is allocated, where a cpu-bh step at 4M bodies under ulimit -v 900000
used to abort the interpreter (its step peaks near 200 bytes a body; the check assumed 128)."""
import subprocess
import sys
import textwrap

import pytest

import orrery

SCRIPT = textwrap.dedent("""
    import resource, sys
    import orrery
    orrery.devices()  # the CUDA driver's address space, where there is one, before the limit
    def size():
        return int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
    # Room for about 170 bytes a body at 4M bodies: cpu's 112 fits, cpu-bh's 256 does not.
    resource.setrlimit(resource.RLIMIT_AS, (size() + 700_000_000,) * 2)
    solver, precision = sys.argv[1], sys.argv[2]
    try:
        s = orrery.Simulation(n=4_000_000, preset="random", solver=solver, precision=precision)
    except ValueError as e:
        print("refused:", e)
    else:
        print("made", s.n)
""")


def run(solver, precision):
    if solver not in [s["name"] for s in orrery.solvers()]:
        pytest.skip(f"no {solver} in this build")
    r = subprocess.run([sys.executable, "-c", SCRIPT, solver, precision], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


@pytest.mark.parametrize("solver,precision,fits", [("cpu", "single", True),
                                                   ("cpu-bh", "single", False),
                                                   ("cpu", "double", False)])
def test_the_check_knows_each_solver_and_the_address_limit(solver, precision, fits):
    out = run(solver, precision)
    if fits:
        assert out == "made 4000000"
    else:
        assert out.startswith("refused: N = 4000000 needs about"), out
        assert "bytes a body" in out and "are available" in out and "\n" not in out

