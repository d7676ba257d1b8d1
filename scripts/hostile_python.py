#!/usr/bin/env python3
"""The hostile pass's Python twin: the module driven as a hostile user would (issue 42's probes):
one Simulation from several threads, memory limits, fork, a clock that cannot move, restarts over
every solver, precision, step and format, files that lie, and every value and message. Each probe
is a snippet run in a fresh interpreter under a time limit, and is classed:

  CRASH  killed by a signal, or a C++/libc abort ("double free", "terminate called") in its output
  HANG   still running at the limit
  LOST   state or a file lost: a torn or non-finite state, a run that forked from its restart, a
         file that was promised and is missing
  LIE    the result or the docs' promise is false: a value accepted that the docs refuse, a time
         or count that is wrong, a file loaded with what it does not say
  NOISE  the right refusal, but not one line naming the keyword (or the file and field)
  ok     everything else

Usage: scripts/hostile_python.py BUILD_DIR [LOG]   (exit 1 when any probe is not ok)
A probe prints its verdict last ("ok", or "LIE: why"); helpers below give it words for that.
"""
import itertools
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from hostile_report import report

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
LOG = sys.argv[2] if len(sys.argv) > 2 else None
BENCH = os.path.join(BUILD, "src/bench/orrery-bench")
WORK = tempfile.mkdtemp(prefix="orrery-hostile-py-")

# Given to every probe: the module, numpy, the work folder and the verdicts.
PRELUDE = r'''
import os, sys, threading, time, signal, subprocess, resource
import numpy as np
import orrery
W = sys.argv[1]
BENCH = sys.argv[2]
def say(verdict, why=""):
    print(verdict + (": " + why if why else ""))
    sys.stdout.flush()
    os._exit(0)
def lie(why): say("LIE", why)
def lost(why): say("LOST", why)
def refused(fn, kind, *words):
    """fn must raise `kind` in one line holding each of `words`: else LIE (accepted) or NOISE."""
    try:
        fn()
    except kind as e:
        text = str(e)
        if "\n" in text or not all(w in text for w in words):
            say("NOISE", f"{type(e).__name__}: {text!r} lacks {words}")
        return text
    except Exception as e:
        say("NOISE", f"{type(e).__name__} where {kind.__name__} was promised: {e}")
    lie(f"accepted where {kind.__name__} naming {words} was promised")
def small(**kw):
    args = dict(n=64, preset="plummer", seed=1, solver="cpu")
    args.update(kw)
    return orrery.Simulation(**args)
def at_time(sim, t, name):
    """sim saved with its clock at t (Orrery's format: the f64 time at byte 32, resealed)."""
    import struct
    path = W + "/" + name
    sim.save(path)
    b = bytearray(open(path, "rb").read())
    b[32:40] = struct.pack("<d", t)
    h = 0xcbf29ce484222325
    for x in bytes(b[:-8]):
        h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    b[-8:] = struct.pack("<Q", h)
    open(path, "wb").write(bytes(b))
    return orrery.load(path)
def h5():
    try:
        import h5py
        return h5py
    except ImportError:
        say("ok", "skipped: no h5py")
'''

probes = []  # (name, code, limit)


def probe(name, code, limit=60):
    probes.append((name, code, limit))


# --- one Simulation from several threads ------------------------------------------------------
probe("threads: solver switched during step", r'''
s = small(n=3000, solver="cpu-bh")
def switch():
    for k in range(20):
        s.solver = ["cpu", "cpu-bh", "cpu-omp"][k % 3]
t = threading.Thread(target=switch); t.start()
for _ in range(10): s.step(2)
t.join()
if not np.isfinite(s.positions).all(): lost("non-finite state")
say("ok")''')
probe("threads: accelerations during a cpu-bh step", r'''
s = small(n=4000, solver="cpu-bh")
t = threading.Thread(target=lambda: [s.accelerations() for _ in range(10)]); t.start()
for _ in range(10): s.step(1)
t.join()
say("ok")''')
probe("threads: two threads step(5) twenty times each", r'''
s = small(dt=0.01)
ts = [threading.Thread(target=lambda: [s.step(5) for _ in range(20)]) for _ in range(2)]
[t.start() for t in ts]; [t.join() for t in ts]
if s.steps != 200: lie(f"{s.steps} steps counted")
if abs(s.time - 200 * float(np.float32(0.01))) > 1e-9: lie(f"clock at {s.time}")
say("ok")''')
probe("threads: positions assigned during steps", r'''
s = small(n=2000, solver="cpu-omp")
pos = s.positions
t = threading.Thread(target=lambda: [s.step(3) for _ in range(10)]); t.start()
for _ in range(20): s.positions = pos
t.join()
if not np.isfinite(s.positions).all(): lost("NaN state")
say("ok")''')
probe("threads: dt set during integrate(2.0)", r'''
s = small(dt=0.01)
t = threading.Thread(target=lambda: s.integrate(2.0)); t.start()
time.sleep(0.01); s.dt = 0.02
t.join()
if abs(s.time - 2.0) > 1e-6: lie(f"integrate(2.0) returned at t = {s.time}")
say("ok")''')

# --- memory -----------------------------------------------------------------------------------
LIMIT = r'''
def room(extra):
    size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + extra,) * 2)
'''
probe("memory: cpu-bh at 4M bodies under an address limit", LIMIT + r'''
room(900_000_000)
try:
    orrery.Simulation(n=4_000_000, preset="random", solver="cpu-bh").step(1)
except ValueError as e:
    if "needs about" not in str(e): say("NOISE", str(e))
except MemoryError:
    pass
say("ok")''', limit=120)
probe("memory: save under pressure", LIMIT + r'''
s = orrery.Simulation(n=1_000_000, preset="random", solver="cpu")
room(40_000_000)
try:
    s.save(W + "/pressed.hdf5")
except MemoryError:
    pass
except OSError as e:
    if "bad_alloc" in str(e): lie("OSError: std::bad_alloc where MemoryError is promised")
say("ok")''', limit=120)

# --- objects that were never made, or made twice -------------------------------------------
probe("objects: step on a never-made Simulation", r'''
refused(lambda: orrery.Simulation.__new__(orrery.Simulation).step(1), TypeError, "never made")
say("ok")''')
probe("objects: __init__ twice", r'''
s = small()
refused(lambda: s.__init__(n=5), RuntimeError, "__init__")
if s.n != 64: lost("the live object changed")
say("ok")''')

# --- fork and spawn -------------------------------------------------------------------------
probe("fork: a child steps after the parent stepped", r'''
s = small(n=3000, solver="cpu-omp"); s.step(1)
pid = os.fork()
if pid == 0:
    s.step(1); os._exit(0 if np.isfinite(s.positions).all() else 3)
_, status = os.waitpid(pid, 0)
if os.waitstatus_to_exitcode(status) != 0: lost(f"child ended {status}")
say("ok")''', limit=30)
MP_WORK = """
import orrery
def work(seed):
    s = orrery.Simulation(n=2000, preset="plummer", seed=seed, solver="cpu-bh")
    s.step(2)
    return s.steps
"""
for method in ["fork", "spawn"]:
    probe(f"fork: a multiprocessing pool ({method}) makes cpu-bh runs", r'''
import multiprocessing as mp
open(W + "/mpwork.py", "w").write(%r)
sys.path.insert(0, W)
import mpwork
small(n=2000, solver="cpu-omp").step(1)
with mp.get_context("%s").Pool(2) as pool:
    if pool.map(mpwork.work, [1, 2, 3]) != [2, 2, 2]: lie("wrong step counts")
say("ok")''' % (MP_WORK, method), limit=60)

# --- a clock that cannot move -----------------------------------------------------------------
probe("clock: integrate with dt='auto' at time 1e17", r'''
s = at_time(small(dt="auto"), 1e17, "late-auto.orrery")
refused(lambda: s.integrate(1e17 + 1e3), RuntimeError, "time")
say("ok")''', limit=30)
probe("clock: fixed steps at time 1e17", r'''
s = at_time(small(dt=0.01), 1e17, "late.orrery")
refused(lambda: s.step(10), RuntimeError, "time")
if s.steps != 0: lie(f"{s.steps} steps counted that did not move the clock")
say("ok")''', limit=30)

# --- restarts over the whole matrix -----------------------------------------------------------
RESTART = r'''
solver, precision, dt, integrator, ext = %r, %r, %r, %r, %r
if ext == ".hdf5":
    try:
        small().save(W + "/probe-%s.hdf5")
    except OSError as e:
        if "no HDF5" in str(e): say("ok", "skipped: no HDF5")
        raise
cfg = dict(solver=solver, precision=precision, dt=dt, integrator=integrator)
a = orrery.Simulation(n=300, preset="plummer", seed=2, **cfg); a.step(20)
b = orrery.Simulation(n=300, preset="plummer", seed=2, **cfg); b.step(10)
path = W + "/restart-%s" + ext
b.save(path)
c = orrery.load(path)
if c.precision != precision: lie(f"loaded as {c.precision}")
c.step(10)
if (c.time, c.steps) != (a.time, a.steps): lost(f"time {c.time} / {a.time}, steps {c.steps}")
if not (np.array_equal(c.positions, a.positions) and np.array_equal(c.velocities, a.velocities)):
    lost("the restart forked from the run")
say("ok")'''
for k, (solver, precision, dt, integrator, ext) in enumerate(itertools.product(
        ["cpu", "cpu-omp", "cpu-bh"], ["single", "double"], [0.001, "auto"],
        ["euler", "leapfrog", "yoshida4"], [".orrery", ".hdf5"])):
    if solver == "cpu-bh" and precision == "double":
        continue  # refused by design: a tree code has no double path
    probe(f"restart: {solver} {precision} dt={dt} {integrator} {ext}",
          RESTART % (solver, precision, dt, integrator, ext, k, k))
probe("restart: the bench keeps a loaded file's time", r'''
at_time(small(), 103.7, "timed.orrery").save(W + "/timed.hdf5")
r = subprocess.run([BENCH, "--load", W + "/timed.hdf5", "--solver", "cpu", "--steps", "1",
                    "--warmup", "0", "--save", W + "/timed-out.orrery"], capture_output=True)
if r.returncode != 0: say("NOISE", r.stderr.decode()[-200:])
t = orrery.load(W + "/timed-out.orrery").time
if abs(t - (103.7 + float(np.float32(0.016)))) > 1e-9: lost(f"saved time {t}")
say("ok")''')
probe("restart: a double run's dt stays 0.1", r'''
s = small(precision="double", dt=0.1); s.step(10)
if s.time != 1.0: lie(f"ten steps of 0.1 reach {s.time!r}")
say("ok")''')

# --- files that lie or say nothing ------------------------------------------------------------
probe("hdf5: an h5py-written integrator 'rk4'", r'''
h5py = h5(); small().save(W + "/vlen.hdf5")
with h5py.File(W + "/vlen.hdf5", "r+") as f:
    del f["Orrery"].attrs["integrator"]; f["Orrery"].attrs["integrator"] = "rk4"
refused(lambda: orrery.load(W + "/vlen.hdf5"), ValueError, "vlen.hdf5", "rk4")
say("ok")''')
probe("hdf5: adaptive and reversed together", r'''
h5py = h5(); small(dt="auto", integrator="leapfrog").save(W + "/rev.hdf5")
with h5py.File(W + "/rev.hdf5", "r+") as f: f["Orrery"].attrs["time_reversed"] = 1.0
refused(lambda: orrery.load(W + "/rev.hdf5"), ValueError, "rev.hdf5")
say("ok")''')
probe("hdf5: a time that is not finite in G = 1", r'''
h5py = h5(); small().save(W + "/t.hdf5")
with h5py.File(W + "/t.hdf5", "r+") as f:
    del f["Orrery"]; f["Header"].attrs["Time"] = 1e307
refused(lambda: orrery.load(W + "/t.hdf5"), ValueError, "t.hdf5", "not finite")
say("ok")''')
HDF5_LIES = {
    "negative IDs": ('f["PartType1/ParticleIDs"][...]; del f["PartType1/ParticleIDs"]; '
                     'f["PartType1/ParticleIDs"] = -np.arange(1, 65, dtype=np.int64)',
                     "ParticleIDs"),
    "Masses against MassTable": ('mt = f["Header"].attrs["MassTable"].copy(); mt[1] = 7.0; '
                                 'f["Header"].attrs["MassTable"] = mt', "MassTable"),
    "fractional counts": ('f["Header"].attrs["NumPart_ThisFile"] = '
                          'np.array([0, 64.5, 0, 0, 0, 0])', "NumPart_ThisFile"),
    "an external link": ('del f["PartType1/Coordinates"]; '
                         'f["PartType1/Coordinates"] = h5py.ExternalLink("other.hdf5", "/x")',
                         "Coordinates"),
    "never-written datasets": ('del f["PartType1/Coordinates"]; '
                               'f.create_dataset("PartType1/Coordinates", (64, 3), "f4")',
                               "Coordinates"),
}
for what, (edit, field) in HDF5_LIES.items():
    probe(f"hdf5: {what}", r'''
h5py = h5(); small().save(W + "/lie-%d.hdf5")
with h5py.File(W + "/lie-%d.hdf5", "r+") as f:
    %s
refused(lambda: orrery.load(W + "/lie-%d.hdf5"), ValueError, "lie-%d.hdf5", %r)
say("ok")''' % ((len(probes),) * 2 + (edit,) + (len(probes),) * 2 + (field,)))
probe("gadget-2: format 1 with U where MASS belongs", r'''
import struct
def blk(b): return struct.pack("<I", len(b)) + b + struct.pack("<I", len(b))
h = struct.pack("<6I", 3, 0, 0, 0, 0, 0) + bytes(48) + bytes(16) + bytes(8) + \
    struct.pack("<6I", 3, 0, 0, 0, 0, 0) + struct.pack("<2I", 0, 1) + bytes(8)
f = blk(h.ljust(256, b"\0")) + blk(struct.pack("<9f", *range(9))) + \
    blk(struct.pack("<9f", *range(9))) + blk(struct.pack("<3I", 1, 2, 3)) + \
    blk(struct.pack("<3f", 5, 5, 5))
open(W + "/u.dat", "wb").write(f)
refused(lambda: orrery.load(W + "/u.dat"), ValueError, "u.dat", "MASS")
say("ok")''')
probe("files: save('x.json') (a scene is not a snapshot)", r'''
s = small()
refused(lambda: s.save(W + "/x.json"), ValueError, "x.json", ".json")
if os.path.exists(W + "/x.json"): lie("a file was written that load() refuses")
say("ok")''')
probe("files: load('zz') with only zz.0", r'''
small().save(W + "/zz.orrery"); os.rename(W + "/zz.orrery", W + "/zz.0")
refused(lambda: orrery.load(W + "/zz"), ValueError, "zz.0")
say("ok")''')
probe("files: gadget_g on an Orrery file", r'''
small().save(W + "/g.orrery")
refused(lambda: orrery.load(W + "/g.orrery", gadget_g=1.0), ValueError, "gadget_g")
say("ok")''')
probe("units: names, factors and files that bring their own", r'''
for bad in ["", "1 furlong, 1 Msun", "0 pc, 1 Msun", "inf pc, 1 Msun", "1 pc", "pc, Msun, km/s, s"]:
    refused(lambda: small(units=bad), ValueError, "units")
refused(lambda: small(units=5), TypeError, "units")
small(units="1 kpc, 1e10 Msun").save(W + "/u.hdf5")
refused(lambda: orrery.load(W + "/u.hdf5", units="1 pc, 1 Msun"), ValueError, "u.hdf5", "its own units")
refused(lambda: orrery.load(W + "/u.hdf5", gadget_g=2.0), ValueError, "u.hdf5", "its own units")
refused(lambda: small().positions_in("kpc"), ValueError, "no physical scale")
refused(lambda: small(units="1 pc, 1 Msun").time_in("fortnight"), ValueError, "fortnight")
import h5py
with h5py.File(W + "/u.hdf5", "a") as f:
    f["Units"].attrs["UnitMass_in_g"] = -5.0
refused(lambda: orrery.load(W + "/u.hdf5"), ValueError, "UnitMass_in_g")
say("ok")''')
probe("files: bodies outside the walls", r'''
pos = np.zeros((2, 3)); pos[1] = [0, 30, 0]
refused(lambda: orrery.Simulation.from_arrays(pos, None, 1.0, box=20, gravity=False,
                                              solver="cpu"), ValueError, "outside the walls")
say("ok")''')
probe("files: an edited state keeps nothing of the old forces", r'''
s = small(dt="auto"); s.step(3)
p = s.positions.copy(); p[0, 0] += 0.5; s.positions = p
s.save(W + "/edit.orrery")
if open(W + "/edit.orrery", "rb").read()[8] != 3: lie("the old evaluation was saved")
say("ok")''')

# --- values and messages: every keyword names itself in one line -------------------------------
VALUES = [
    ("s.gravity = None", "TypeError", "gravity"),
    ("s.gravity = float('nan')", "TypeError", "gravity"),
    ("s.gravity = 0.5", "TypeError", "gravity"),
    ("s.softening = True", "TypeError", "softening"),
    ("s.block = np.float32(0.5)", "TypeError", "block"),
    ("s.step(True)", "TypeError", "step"),
    ("orrery.Simulation(n=True)", "TypeError", "n"),
    ("orrery.Simulation(n=8, gpus=0)", "ValueError", "gpus"),
    ("orrery.Simulation(n=2**31)", "ValueError", "n"),
    ("orrery.Simulation(n=8, seed=-1)", "ValueError", "seed"),
    ("s.step(2**63)", "ValueError", "step"),
    ("orrery.Simulation(n=8, dt=10**400)", "ValueError", "dt"),
    ("s.softening = 'a'", "TypeError", "softening"),
    ("s.theta = [1]", "TypeError", "theta"),
    ("s.dt = -1", "ValueError", "dt"),
    ("s.damping = 2", "ValueError", "damping"),
    ("s.save(W + '/x\\0y.orrery')", "ValueError", "NUL"),
    ("s.save('.')", "IsADirectoryError", "folder"),
    ("orrery.load(W + '/missing.orrery')", "FileNotFoundError", "missing.orrery"),
]
for code, kind, word in VALUES:
    probe(f"values: {code}", r'''
s = small()
refused(lambda: exec(%r), %s, %r)
say("ok")''' % (code, kind, word))
probe("messages: a loop of links", r'''
os.symlink(W + "/loop.orrery", W + "/loop.orrery")
refused(lambda: orrery.load(W + "/loop.orrery"), OSError, "symbolic links")
say("ok")''')
probe("messages: load takes bytes as save does", r'''
s = small(); s.save(os.fsencode(W + "/b.orrery"))
if orrery.load(os.fsencode(W + "/b.orrery")).n != 64: lie("bytes names refused")
say("ok")''')

# --- interrupts ---------------------------------------------------------------------------
probe("interrupt: Ctrl-C during a long load", r'''
orrery.Simulation(n=4_000_000, preset="random", solver="cpu").save(W + "/big.orrery")
t0 = time.monotonic(); orrery.load(W + "/big.orrery"); whole = time.monotonic() - t0
def alarm(*_): raise KeyboardInterrupt
signal.signal(signal.SIGALRM, alarm)
start = time.monotonic()
signal.setitimer(signal.ITIMER_REAL, 0.01)
try:
    orrery.load(W + "/big.orrery")
except KeyboardInterrupt:
    if time.monotonic() - start > 0.6 * whole: lie("the load ran to its end first")
    say("ok")
lie("the load ignored Ctrl-C")''', limit=120)
probe("interrupt: exit with a worker in integrate()", r'''
s = small(n=3000, solver="cpu-omp")
threading.Thread(target=lambda: s.integrate(1e9), daemon=False).start()
time.sleep(0.3)
print("ok"); sys.stdout.flush()
sys.exit(0)''', limit=30)


# --- issue 46: IDs, add and remove, copies and pickles ------------------------------------------
probe("ids: add with IDs that lie (huge, float, taken, repeated, empty)", r"""
s = small(); s.step(2)
n, t, ids = s.n, s.time, s.ids.copy()
refused(lambda: s.add([[1, 2, 3]], mass=1.0, ids=[2**64]), ValueError, "ids")
refused(lambda: s.add([[1, 2, 3]], mass=1.0, ids=[1.0]), TypeError, "whole numbers")
refused(lambda: s.add([[1, 2, 3]], mass=1.0, ids=[3]), ValueError, "ID 3 is taken")
refused(lambda: s.add([[1, 2, 3], [4, 5, 6]], mass=1.0, ids=[99, 99]), ValueError, "twice")
refused(lambda: s.add(np.zeros((0, 3)), mass=1.0), ValueError, "pos")
refused(lambda: s.add([[1, 2, 3]], mass=float("inf")), ValueError, "not finite")
refused(lambda: s.add([[1e39, 2, 3]], mass=1.0), ValueError, "not finite")
refused(lambda: s.add([[1, 2, 3]], mass=1.0, vel=[[np.nan, 0, 0]]), ValueError, "not finite")
if s.n != n or s.time != t or not np.array_equal(s.ids, ids):
    lost("a refused add changed the state")
say("ok")
""")
probe("ids: remove what is not there, everything, or twice", r"""
s = small()
refused(lambda: s.remove([64]), ValueError, "no body has ID 64")
refused(lambda: s.remove(list(range(64))), ValueError, "at least one body")
refused(lambda: s.remove([1, 1]), ValueError, "twice")
refused(lambda: s.remove(-1), ValueError, "negative")
s.remove(list(range(63)))
if s.n != 1 or list(s.ids) != [63]:
    lie(f"removing 63 of 64 left {s.n} bodies, IDs {list(s.ids)}")
s.step(3)
if not np.isfinite(s.positions).all():
    lost("one body left is not finite")
say("ok")
""")
probe("ids: add then step on every CPU solver, merging", r"""
for solver in ("cpu", "cpu-omp", "cpu-bh"):
    s = orrery.Simulation(n=200, preset="plummer", solver=solver, collisions="merge", radius=0.2,
                          integrator="leapfrog", dt=0.01)
    s.add(np.random.default_rng(1).normal(size=(50, 3)), mass=0.005)
    s.step(40)
    ids = s.ids
    if len(np.unique(ids)) != s.n or ids.max() >= 250:
        lie(f"{solver}: IDs after merges {s.n} bodies, {len(np.unique(ids))} distinct")
say("ok")
""")
probe("pickle: another version, a torn payload, a huge one", r"""
import pickle
s = small(); s.step(3)
f, (v, data) = s.__reduce__()
refused(lambda: f("9.9.9", data), ValueError, "9.9.9")
refused(lambda: f(v, data[: len(data) // 2]), ValueError)
refused(lambda: f(v, b"\0" * 10), ValueError)
twin = pickle.loads(pickle.dumps(s))
twin.step(2); s.step(2)
if not np.array_equal(twin.positions, s.positions):
    lie("a pickled twin stepped to other positions")
say("ok")
""")
probe("arrays: read-only, and their flags cannot be set back", r"""
s = small()
a = s.positions
try:
    a.flags.writeable = True
    a[0, 0] = 5.0
    if s.positions[0, 0] == 5.0:
        lie("a write reached the state through a copy")
except ValueError:
    pass
say("ok")
""")

def run_probe(p):
    name, code, limit = p
    t0 = time.time()
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    try:
        r = subprocess.run([sys.executable, "-c", PRELUDE + code, WORK, BENCH],
                           capture_output=True, text=True, timeout=limit, cwd=WORK, env=env)
    except subprocess.TimeoutExpired:
        return "HANG", name, "", time.time() - t0
    text = r.stdout + r.stderr
    last = (r.stdout.strip().splitlines() or [""])[-1]
    if r.returncode < 0 or any(s in text for s in ["terminate called", "Segmentation fault",
                                                   "double free", "Fatal Python error",
                                                   "core dumped", "Aborted"]):
        return "CRASH", name, text.strip()[-300:], time.time() - t0
    verdict = last.split(":")[0]
    if verdict not in ("ok", "LIE", "LOST", "NOISE"):
        return "UNEXPECTED", name, text.strip()[-300:], time.time() - t0
    return verdict, name, last if verdict == "ok" else text.strip()[-300:], time.time() - t0


def main():
    if not os.path.isdir(os.path.join(BUILD, "python", "orrery")):
        sys.exit(f"hostile_python: no Python module under {BUILD}/python")
    heavy = [p for p in probes if "memory" in p[0] or "interrupt" in p[0] or "fork" in p[0]]
    light = [p for p in probes if p not in heavy]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run_probe, light))
    results += [run_probe(p) for p in heavy]  # memory- and timing-sensitive: one at a time
    lines = [(verdict, f"{verdict:10} {secs:5.1f}s  {name}  :: "
                       + why.replace("\n", " / ")[:400]) for verdict, name, why, secs in results]
    sys.exit(0 if report("hostile_python", "probes", lines, LOG, WORK) else 1)


if __name__ == "__main__":
    main()
