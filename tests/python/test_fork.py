"""Issue 42: a forked child used to hang in its first OpenMP step (GNU libgomp cannot restart its
thread pool after fork): os.fork() after a step, and any multiprocessing pool with the 'fork'
start method (Python 3.11's default on Linux) whose worker steps after the parent stepped. A child
forked from a threaded process now runs its parallel regions on one thread; 'spawn' workers get a
fresh pool. Each probe is a script of its own, under a timeout: a hang is a failed test."""
import subprocess
import sys
import textwrap

import pytest


def run_script(tmp_path, code, timeout=60):
    script = tmp_path / "probe.py"
    script.write_text(textwrap.dedent(code))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=timeout, cwd=tmp_path)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout.split()


@pytest.mark.parametrize("solver", ["cpu-omp", "cpu-bh"])
def test_a_child_forked_after_a_step_steps_as_the_parent_does(tmp_path, solver):
    out = run_script(tmp_path, f"""
        import os
        import numpy as np
        import orrery
        s = orrery.Simulation(n=6000, preset="plummer", solver="{solver}", dt=0.001)
        s.step(1)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            s.step(2)
            os.write(w, s.positions.tobytes())
            os._exit(0)
        os.close(w)
        data = b""
        while chunk := os.read(r, 1 << 20):
            data += chunk
        _, status = os.waitpid(pid, 0)
        s.step(2)
        child = np.frombuffer(data, dtype=np.float32).reshape(-1, 3)
        print(os.waitstatus_to_exitcode(status), s.steps, np.array_equal(child, s.positions))
    """)
    # The child's one thread sums each body as the parent's pool does: the same state.
    assert out == ["0", "3", "True"]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_pool_workers_make_and_step_simulations_after_the_parent_stepped(tmp_path, method):
    out = run_script(tmp_path, f"""
        import multiprocessing as mp
        import orrery

        def work(solver):
            s = orrery.Simulation(n=3000, preset="plummer", solver=solver, dt=0.001)
            s.step(3)
            return s.steps

        if __name__ == "__main__":
            parent = orrery.Simulation(n=3000, preset="plummer", solver="cpu-omp")
            parent.step(2)  # the parent's pool exists now
            with mp.get_context("{method}").Pool(2) as pool:
                print(*pool.map(work, ["cpu-omp", "cpu-bh", "cpu-omp", "cpu-bh"]))
    """)
    assert out == ["3", "3", "3", "3"]
