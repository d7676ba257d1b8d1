"""Issue 42: one Simulation driven from several Python threads. step() and integrate() release the
GIL, so another thread's call used to run inside a step: switching the solver segfaulted, a cpu-bh
step beside accelerations() aborted with a double free, two threads' steps were miscounted, an
assignment left NaN and a dt set mid-integrate() ended it early. Every call now holds the object's
lock: a second thread's call waits until the first returns. Each probe runs in its own
interpreter, so a crash is a failed test, not a lost run."""
import subprocess
import sys
import textwrap

PRELUDE = """
import threading, time
import numpy as np
import orrery

def during(long_call, call):
    # call() issued 0.2 s into long_call() on another thread (about 1 s long): call's result, and
    # whether it was issued while long_call() was still in flight (else the probe proves nothing).
    end = []
    t = threading.Thread(target=lambda: (long_call(), end.append(time.monotonic())))
    t.start()
    time.sleep(0.2)
    issued = time.monotonic()
    result = call()
    t.join()
    return result, issued < end[0]
"""


def run_probe(code, timeout=120):
    r = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout.split()


def test_two_threads_stepping_count_every_step_as_one_thread_would():
    out = run_probe("""
        a = orrery.Simulation(n=3000, preset="plummer", solver="cpu-omp", dt=0.001)
        b = orrery.Simulation(n=3000, preset="plummer", solver="cpu-omp", dt=0.001)
        def work():
            for _ in range(20):
                a.step(5)
        ts = [threading.Thread(target=work) for _ in range(2)]
        for t in ts: t.start()
        for t in ts: t.join()
        for _ in range(40):
            b.step(5)
        print(a.steps, b.steps, a.time == b.time, np.array_equal(a.positions, b.positions))
    """)
    assert out == ["200", "200", "True", "True"]


def test_switching_the_solver_during_a_step_waits_for_it():
    out = run_probe("""
        s = orrery.Simulation(n=12000, preset="plummer", solver="cpu-omp", dt=0.001)
        steps, in_flight = during(lambda: s.step(100), lambda: (setattr(s, "solver", "cpu-bh"),
                                                                 s.steps)[1])
        s.step(1)
        print(steps, s.solver, s.steps, in_flight)
    """)
    assert out == ["100", "cpu-bh", "101", "True"]


def test_reading_accelerations_beside_a_tree_step():
    out = run_probe("""
        s = orrery.Simulation(n=60000, preset="plummer", solver="cpu-bh", dt=0.001)
        reads, in_flight = during(lambda: s.step(20), lambda: [s.accelerations() for _ in range(3)])
        print(all(np.isfinite(r).all() for r in reads), s.steps, in_flight)
    """)
    assert out == ["True", "20", "True"]


def test_assigning_positions_during_a_step_lands_after_it():
    out = run_probe("""
        s = orrery.Simulation(n=12000, preset="plummer", solver="cpu-omp", dt=0.001)
        new = np.asarray(s.positions) * 2
        _, in_flight = during(lambda: s.step(100), lambda: setattr(s, "positions", new))
        print(np.isfinite(s.positions).all(), np.array_equal(s.positions, new), s.steps, in_flight)
    """)
    assert out == ["True", "True", "100", "True"]


def test_a_dt_set_during_integrate_waits_and_integrate_lands_on_its_time():
    out = run_probe("""
        s = orrery.Simulation(n=8000, preset="plummer", solver="cpu-omp", dt=0.01)
        _, in_flight = during(lambda: s.integrate(2.0), lambda: setattr(s, "dt", 0.5))
        print(repr(s.time), s.dt, in_flight)
    """)
    assert abs(float(out[0]) - 2.0) < 1e-6
    assert out[1:] == ["0.5", "True"]


def test_an_object_init_never_made_is_refused_and_init_runs_once():
    out = run_probe("""
        s = orrery.Simulation.__new__(orrery.Simulation)
        print(repr(s))
        for what in (lambda: s.n, lambda: s.step(1), lambda: s.positions, lambda: s.diagnostics(),
                     lambda: setattr(s, "dt", 0.1)):
            try:
                what()
                print("no-error")
            except TypeError as e:
                print("never-made" if "never made" in str(e) else "other-TypeError")
        live = orrery.Simulation(n=10, preset="random", solver="cpu")
        try:
            live.__init__(n=20, preset="random", solver="cpu")
            print("reinit", live.n)
        except RuntimeError:
            print("RuntimeError", live.n)
    """)
    assert out == ["<orrery.Simulation:", "never", "made>"] + ["never-made"] * 5 + [
        "RuntimeError", "10"]


def test_the_interpreter_exits_while_another_thread_integrates():
    """Issue 42: a thread in integrate() ignored the main thread's KeyboardInterrupt and the
    interpreter could not exit. At exit the run in flight stops between two steps."""
    for end in ("pass", "raise KeyboardInterrupt"):
        code = PRELUDE + textwrap.dedent(f"""
            s = orrery.Simulation(n=4000, preset="plummer", solver="cpu-omp", dt=0.001)
            t = threading.Thread(target=lambda: s.integrate(1e9))
            t.start()
            time.sleep(0.3)
            print("main done", flush=True)
            {end}
        """)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=60)
        assert r.stdout.split() == ["main", "done"]
        assert r.returncode in (0, 1, -2, 130), r.stderr
