"""Issue 42: Ctrl-C during a long load() used to wait for the whole load. The load now releases
the GIL and looks at the main thread's signals after each chunk it reads: a handler that raises
(Ctrl-C's KeyboardInterrupt; here an alarm's) cancels the load, and its exception comes out."""
import signal
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import signal, sys, time
    import orrery
    path = sys.argv[1]
    orrery.Simulation(n=4_000_000, preset="random", solver="cpu").save(path)
    t0 = time.monotonic()
    orrery.load(path)
    whole = time.monotonic() - t0
    ran = []
    def alarm(*_):
        ran.append(time.monotonic())
        raise KeyboardInterrupt
    signal.signal(signal.SIGALRM, alarm)
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, 0.01)
    try:
        orrery.load(path)
        print("loaded", whole)
    except KeyboardInterrupt:
        print("interrupted", whole, ran[0] - start, time.monotonic() - start)
""")


def test_a_signal_stops_a_long_load(tmp_path):
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "big.orrery")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    words = r.stdout.split()
    assert words[0] == "interrupted", r.stdout
    whole, handled, ended = map(float, words[1:])
    # The handler ran while the load read (not after it), and the load stopped there.
    assert handled < 0.5 * whole, r.stdout
    assert ended < 0.6 * whole, r.stdout
