#!/usr/bin/env python3
"""A hostile user's pass over both programs: bad values for every option, damaged and lying files,
outputs that cannot be written, memory-hungry sizes and signals. Each case runs under a time limit
and is classed:

  CRASH  killed by a signal it did not ask for, or a C++/sanitizer abort in its output
  HANG   still running at the limit
  LOST   an output the run reported as written is missing, empty, or replaced something it should
         not have (a device node, a symlink), or a run that lost an output exited 0
  NOISE  a refusal (exit 2) that did not say it in exactly one line starting with the program's name
  ok     everything else

Usage: scripts/hostile_pass.py BUILD_DIR [LOG]   (exit 1 when any case is not ok)
The viewer runs under xvfb-run with the CPU solvers; root-only cases (/proc, /dev/full) are skipped
with the reason when not root.
"""
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from hostile_report import report

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
LOG = sys.argv[2] if len(sys.argv) > 2 else None
BENCH = os.path.join(BUILD, "src/bench/orrery-bench")
VIEW = os.path.join(BUILD, "src/app/orrery")
ROOT = os.geteuid() == 0
WORK = tempfile.mkdtemp(prefix="orrery-hostile-")
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24"]
QUICK_B = ["--solver", "cpu", "--n", "256", "--steps", "2", "--warmup", "0"]
QUICK_V = ["--solver", "cpu", "--n", "256", "--frames", "3", "--vsync", "off"]

cases = []  # (name, argv, options)


def case(name, argv, expect=None, limit=60, outputs=(), check=None, env=None, pre=None,
         send=None, viewer=False):
    """expect: the exit codes the case may end with (None: any that is not a crash)."""
    cases.append(dict(name=name, argv=argv, expect=expect, limit=limit, outputs=outputs,
                      check=check, env=env, pre=pre, send=send, viewer=viewer))


def w(name, data=b""):
    p = os.path.join(WORK, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


def bench(name, args, **kw):
    case("bench " + name, [BENCH] + args, **kw)


def view(name, args, **kw):
    case("view " + name, XVFB + [VIEW] + args, viewer=True, **kw)


# --- every option with values it must refuse -------------------------------------------------
BAD_NUM = ["", " ", "abc", "nan", "inf", "-inf", "1e999", "-1", "0x10", "1,", "9" * 400, "1e-60",
           "--", "+-1", "1.5.2", "\t3"]
common_num = ["--n", "--seed", "--dt", "--softening", "--damping", "--restitution", "--radius",
              "--box", "--theta", "--block", "--gpus"]
for opt in common_num + ["--steps", "--warmup", "--cpu-max-n", "--trace-every", "--max-n"]:
    for v in BAD_NUM:
        if opt in ("--seed",) and v in ("0x10",):
            pass
        bench(f"{opt} {v[:20]!r}", QUICK_B + [opt, v] if opt not in ("--n", "--steps", "--warmup")
              else ["--solver", "cpu"] + [opt, v], expect={2})
for opt in common_num + ["--steps-per-frame", "--width", "--height", "--frames", "--point-radius",
                         "--trails", "--trail-bodies", "--record-fps", "--color-range"]:
    for v in ["", "nan", "-1", "1e999", "abc", "9" * 400]:
        view(f"{opt} {v[:20]!r}", QUICK_V + [opt, v], expect={2})
for opt, vals in {"--solver": ["", "cuda", "cpu,", "CPU", "all,cpu"],
                  "--preset": ["", "galaxy", "plummer,box"],
                  "--integrator": ["", "rk4", "Euler"],
                  "--collisions": ["", "on", "bounce,merge"],
                  "--gravity": ["", "yes", "0"]}.items():
    for v in vals:
        bench(f"{opt} {v!r}", QUICK_B + [opt, v], expect={2})
        if opt != "--solver" or v not in ("all,cpu",):
            view(f"{opt} {v!r}", QUICK_V + [opt, v], expect={2})
for v in ["", "parsec", "1 kpc", "1 furlong, 1 Msun", "0 kpc, 1 Msun", "-1 pc, 1 Msun",
          "nan kpc, 1 Msun", "1e999 kpc, 1 Msun", "1 kpc, 1 Msun, 0 km/s", "1 kpc,,1 Msun",
          "1 kpc, 1 Msun, 1 km/s, 1 s", "9" * 400]:
    bench(f"--units {v[:24]!r}", QUICK_B + ["--units", v], expect={2})
    view(f"--units {v[:24]!r}", QUICK_V + ["--units", v], expect={2})
bench("--units henon over its limit", ["--solver", "cpu", "--n", "200000", "--steps", "1",
                                       "--units", "henon"], expect={2})
for opt in ["--vsync", "--draw", "--color", "--palette", "--color-scale", "--hud"]:
    view(f"{opt} bogus", QUICK_V + [opt, "bogus"], expect={2})
for v in ["", "zz", "s,,s", "F99", "scene50"]:
    view(f"--keys {v!r}", QUICK_V + ["--keys", v], expect={0, 2})
bench("unknown flag", QUICK_B + ["--nbodies", "5"], expect={2})
view("unknown flag", QUICK_V + ["--nbodies", "5"], expect={2})
bench("positional junk", QUICK_B + ["junk"], expect={2})
bench("damping with leapfrog", QUICK_B + ["--integrator", "leapfrog", "--damping", "0.9"],
      expect={2})
bench("box smaller than balls", QUICK_B + ["--box", "0.01", "--radius", "5"], expect={2})
bench("max-n without limit", ["--solver", "cpu-bh", "--max-n", "1", "--cpu-max-n", "2048"],
      expect={0, 1}, limit=120)

# --- damaged and lying inputs -----------------------------------------------------------------
good = os.path.join(WORK, "good.orrery")
subprocess.run([BENCH] + QUICK_B + ["--save", good], capture_output=True)
tipsy = os.path.join(WORK, "good.tipsy")
subprocess.run([BENCH] + QUICK_B + ["--save", tipsy], capture_output=True)
gdata = open(good, "rb").read() if os.path.exists(good) else b""
tdata = open(tipsy, "rb").read() if os.path.exists(tipsy) else b""
damaged = {
    "empty": b"", "one byte": b"\0", "text": b"hello world\n" * 10,
    "random 4k": os.urandom(4096), "zeros 1M": b"\0" * (1 << 20),
}
for cut in [4, 16, 64, 255, 256, 300, len(gdata) // 2, len(gdata) - 1]:
    damaged[f"orrery cut {cut}"] = gdata[:cut]
for cut in [8, 28, 32, len(tdata) // 2, len(tdata) - 4]:
    damaged[f"tipsy cut {cut}"] = tdata[:cut]
for off in [8, 12, 16, 20, 24, 32, 40, 64, 100, 200]:
    if off + 4 <= len(gdata):
        for val in [b"\xff\xff\xff\x7f", b"\0\0\0\0", b"\xff\xff\xff\xff"]:
            d = bytearray(gdata)
            d[off:off + 4] = val
            damaged[f"orrery @{off}={val.hex()}"] = bytes(d)
for off in [8, 12, 16, 20, 24]:
    if off + 4 <= len(tdata):
        for val in [b"\x7f\xff\xff\xff", b"\0\0\0\0", b"\x00\x00\x10\x00"]:
            d = bytearray(tdata)
            d[off:off + 4] = val
            damaged[f"tipsy @{off}={val.hex()}"] = bytes(d)
nan_body = bytearray(gdata)
if len(nan_body) > 400:
    nan_body[-40:-36] = b"\x00\x00\xc0\x7f"
    damaged["orrery nan body"] = bytes(nan_body)
for label, data in damaged.items():
    p = w("in-" + label.replace(" ", "_").replace("@", "at").replace("=", "-") + ".bin", data)
    bench(f"--load {label}", QUICK_B[:2] + ["--steps", "2", "--warmup", "0", "--load", p],
          expect={0, 2})
for label in ["empty", "random 4k", "orrery cut 300", "tipsy cut 32", "orrery nan body"]:
    p = os.path.join(WORK, "in-" + label.replace(" ", "_") + ".bin")
    view(f"--load {label}", ["--solver", "cpu", "--frames", "3", "--load", p], expect={0, 2})
fifo = os.path.join(WORK, "fifo")
os.mkfifo(fifo)
for src in ["/dev/zero", "/dev/null", "/proc/self/mem", WORK, fifo, "/nonexistent/x"]:
    bench(f"--load {src}", QUICK_B[:2] + ["--load", src], expect={2}, limit=20)
    bench(f"--scene {src}", QUICK_B[:2] + ["--scene", src], expect={2}, limit=20)
view("--load fifo", ["--frames", "3", "--load", fifo], expect={2}, limit=20)

scenes = {
    "not json": "{", "array": "[]", "null": "null", "deep": "[" * 100000,
    "n negative": '{"initial": {"preset": "plummer", "n": -5}}',
    "n huge": '{"initial": {"preset": "plummer", "n": 2147483647}}',
    "n float": '{"initial": {"preset": "plummer", "n": 1.5}}',
    "n string": '{"initial": {"preset": "plummer", "n": "many"}}',
    "dup": '{"initial": {"preset": "plummer", "n": 64, "n": 65}}',
    "unknown key": '{"initial": {"preset": "plummer", "n": 64}, "colour": 3}',
    "dt nan": '{"initial": {"preset": "plummer", "n": 64}, "params": {"dt": "nan"}}',
    "dt 0": '{"initial": {"preset": "plummer", "n": 64}, "params": {"dt": 0}}',
    "snapshot missing": '{"initial": {"snapshot": "nope.orrery"}}',
    "snapshot self": '{"initial": {"snapshot": "self.json"}}',
    "solver bad": '{"initial": {"preset": "plummer", "n": 64}, "solver": "warp"}',
    "utf8 bad": b'{"initial": {"preset": "pl\xff\xfeummer", "n": 64}}',
    "bom": "\ufeff{}",
}
for label, text in scenes.items():
    data = text if isinstance(text, bytes) else text.encode()
    p = w("self.json" if label == "snapshot self" else "scene-" + label.replace(" ", "_") + ".json",
          data)
    bench(f"--scene {label}", ["--solver", "cpu", "--steps", "1", "--warmup", "0", "--scene", p],
          expect={0, 2})
    if label in ("n huge", "dup", "deep", "utf8 bad"):
        view(f"--scene {label}", ["--solver", "cpu", "--frames", "3", "--scene", p],
             expect={0, 2})

# --- outputs that cannot be written, or must not be replaced ----------------------------------
def unchanged_device(path):
    return lambda: stat.S_ISCHR(os.stat(path).st_mode) or f"{path} is no longer a device"


os.makedirs(os.path.join(WORK, "ro"), exist_ok=True)
os.chmod(os.path.join(WORK, "ro"), 0o555)
target = w("target.orrery", b"keep me")
link = os.path.join(WORK, "link.orrery")
os.symlink(target, link)
priv = w("private.orrery", b"x")
os.chmod(priv, 0o600)
for opt in ["--save", "--export-csv", "--csv", "--json", "--trace"]:
    bench(f"{opt} /dev/full", QUICK_B + [opt, "/dev/full"], expect={1, 2},
          check=unchanged_device("/dev/full"))
    bench(f"{opt} /dev/null", QUICK_B + [opt, "/dev/null"], expect={0, 2},
          check=unchanged_device("/dev/null"))
    bench(f"{opt} missing folder", QUICK_B + [opt, WORK + "/no/such/x"], expect={2})
    bench(f"{opt} a folder", QUICK_B + [opt, WORK], expect={2})
    if ROOT:
        bench(f"{opt} /proc", QUICK_B + [opt, "/proc/x.out"], expect={2})
        bench(f"{opt} /sys", QUICK_B + [opt, "/sys/x.out"], expect={2})
for a, b in [("--save", "--export-csv"), ("--csv", "--save"), ("--trace", "--export-csv"),
             ("--json", "--csv")]:
    bench(f"{a} and {b} one file", QUICK_B + [a, WORK + "/same.out", b, WORK + "/./same.out"],
          expect={2})
bench("--save through symlink keeps link",
      QUICK_B + ["--save", link], expect={0},
      check=lambda: os.path.islink(link) or "the symlink was replaced")
bench("--save keeps 0600", QUICK_B + ["--save", priv], expect={0},
      check=lambda: stat.S_IMODE(os.stat(priv).st_mode) == 0o600 or "mode changed")
view("--screenshot /dev/full", QUICK_V + ["--screenshot", "/dev/full"], expect={1, 2},
     check=unchanged_device("/dev/full"))
view("--record missing folder", QUICK_V + ["--record", WORK + "/no/such/r.y4m"], expect={2})
view("--record and --save one file",
     QUICK_V + ["--record", WORK + "/r.y4m", "--save", WORK + "/r.y4m"], expect={2})
view("--screenshot and --export-csv one file",
     QUICK_V + ["--screenshot", WORK + "/g.png", "--export-csv", WORK + "/./g.png"], expect={2})
view("--save read-only folder", QUICK_V + ["--save", WORK + "/ro/x.orrery"],
     expect={2} if not ROOT else {0})
if ROOT:
    view("--record /proc", QUICK_V + ["--record", "/proc/r.y4m"], expect={2})
    view("--save /proc", QUICK_V + ["--save", "/proc/x.orrery"], expect={2})

# A small full disk: outputs that run out of room must say so and exit non-zero.
tiny = os.path.join(WORK, "tiny")
os.makedirs(tiny)
mounted = ROOT and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny],
                                  capture_output=True).returncode == 0
if mounted:
    bench("--save onto a full disk", ["--solver", "cpu", "--n", "8192", "--steps", "1",
                                      "--warmup", "0", "--save", tiny + "/big.orrery"],
          expect={1}, limit=120,
          check=lambda: not os.path.exists(tiny + "/big.orrery") or "a partial file was left")
    bench("--export-csv onto a full disk", ["--solver", "cpu", "--n", "8192", "--steps", "1",
                                            "--warmup", "0", "--export-csv", tiny + "/big.csv"],
          expect={1}, limit=120)
    view("--record onto a full disk", QUICK_V[:4] + ["--frames", "20", "--vsync", "off",
                                                     "--record", tiny + "/r.y4m"],
         expect={1}, limit=120)

# A snapshot series: bad patterns and intervals, names in the way, and a disk that fills mid-run
# (every output before the failure whole, no temporary file left, exit 1).
for pat in ["%n", "%s.orrery", "x_%d_%d.orrery", "", "x.orrery", "x_%d.out", "x_%999d.orrery",
            "%", "x_%-3d.orrery"]:
    bench(f"--series {pat!r}", QUICK_B + ["--save-every", "1", "--series", WORK + "/" + pat],
          expect={2})
for every in ["0", "-1", "", "1.5", "time=", "time=0", "time=inf", "time=nan", "steps=x",
              "9" * 30]:
    bench(f"--save-every {every!r}",
          QUICK_B + ["--save-every", every, "--series", WORK + "/e_%d.orrery"], expect={2})
bench("--series without --save-every", QUICK_B + ["--series", WORK + "/f_%d.orrery"], expect={2})
w("taken_002.orrery", b"someone's")
bench("--series onto an existing output", QUICK_B + ["--save-every", "1", "--series",
                                                     WORK + "/taken_%03d.orrery"], expect={2},
      check=lambda: open(WORK + "/taken_002.orrery", "rb").read() == b"someone's" or "overwritten")
# Its own small disk: the cases run later, side by side, and the others fill theirs.
tiny_series = os.path.join(WORK, "tiny_series")
os.makedirs(tiny_series)
series_mounted = mounted and subprocess.run(
    ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny_series],
    capture_output=True).returncode == 0
if series_mounted:
    def whole_series():
        names = sorted(os.listdir(tiny_series))
        sizes = {os.path.getsize(os.path.join(tiny_series, n)) for n in names}
        if len(names) < 2 or len(sizes) != 1 or any(not n.startswith("s_") for n in names):
            return f"outputs not whole: {names} {sizes}"
        return True
    bench("--save-every onto a disk that fills", ["--solver", "cpu", "--n", "300", "--steps", "40",
                                                  "--warmup", "0", "--save-every", "1",
                                                  "--series", tiny_series + "/s_%03d.orrery"],
          expect={1}, limit=120, check=whole_series)

# The camera, the density map and the glow (issue 44): bad words, lying and damaged path files,
# non-finite and out-of-range rows, and the largest picture.
for flag, bad in [("--frame", "mass:"), ("--frame", "mass:0"), ("--frame", "bodies:1e999"),
                  ("--frame", "x" * 10000), ("--follow", "body:"), ("--follow", "body:-1"),
                  ("--follow", "body:99999999999999999999"), ("--follow", "body:256"),
                  ("--camera-roll", "nan"), ("--camera-x", "inf"), ("--camera-y", "1e39"),
                  ("--orbit", "-inf"), ("--fov", "0"), ("--mode", ""), ("--mode", "Density"),
                  ("--bloom", "1"), ("--camera-path", "")]:
    view(f"{flag} {bad[:20]!r}", QUICK_V + [flag, bad], expect={2})
view("--keep-frame --frame none", QUICK_V + ["--keep-frame", "--frame", "none"], expect={2})
paths = {
    "empty": b"",
    "binary": bytes(range(256)) * 64,
    "no keys": b'{"keys": []}',
    "unsorted": b'{"keys": [{"t": 2}, {"t": 1}]}',
    "duplicate": b'{"keys": [{"t": 1}, {"t": 1}]}',
    "negative t": b'{"keys": [{"t": -1}]}',
    "huge t": b'{"keys": [{"t": 1e999}]}',
    "key twice": b'{"keys": [{"t": 0, "t": 1}]}',
    "deep": b"[" * 100000 + b"]" * 100000,
    "wrong type": b'{"keys": [{"t": 0, "camera_distance": "far"}]}',
    "out of bounds": b'{"keys": [{"t": 0, "camera_elevation": 89}]}',
    "orbit in a key": b'{"keys": [{"t": 0, "orbit": 3}]}',
    "not utf-8": b'{"keys": [{"t": 0, "\xff\xfe": 1}]}',
}
for name, data in paths.items():
    view(f"--camera-path {name}", QUICK_V + ["--camera-path", w("path-" + name.replace(" ", "_")
                                                                    + ".json", data)],
         expect={2})
view("--camera-path a folder", QUICK_V + ["--camera-path", WORK], expect={2})
view("--camera-path missing", QUICK_V + ["--camera-path", WORK + "/no.json"], expect={2})
view("--camera-path /dev/zero", QUICK_V + ["--camera-path", "/dev/zero"], expect={2}, limit=60)
view("density map 7680x4320", ["--solver", "cpu", "--n", "2000", "--frames", "2", "--paused",
                               "--headless", "--mode", "density", "--width", "7680", "--height",
                               "4320", "--screenshot", WORK + "/big_density.png"], expect={0, 2},
     limit=180)
view("density map one body", ["--solver", "cpu", "--n", "1", "--frames", "3", "--mode", "density",
                              "--vsync", "off"], expect={0})
view("density map of bodies behind the camera", QUICK_V + ["--mode", "density", "--camera-z",
                                                          "1000", "--camera-distance", "1"],
     expect={0})

# --- memory and time ---------------------------------------------------------------------------
bench("n 2^31-1 cpu", ["--solver", "cpu", "--n", "2147483647", "--steps", "1"], expect={0, 1, 2},
      limit=60)
bench("contacts at N 65536 radius 1000 under ulimit",
      ["--solver", "cpu", "--n", "65536", "--steps", "1", "--warmup", "0", "--collisions",
       "bounce", "--radius", "1000", "--gravity", "off"], expect={0, 1, 2}, limit=300,
      pre=lambda: __import__("resource").setrlimit(
          __import__("resource").RLIMIT_AS, (8_000_000_000, 8_000_000_000)))
view("n 134217728 cpu", ["--solver", "cpu", "--n", "134217728", "--frames", "2"],
     expect={1, 2}, limit=120)
view("scene n 2^31-1", ["--frames", "2", "--scene", os.path.join(WORK, "scene-n_huge.json")],
     expect={1, 2}, limit=120)

# --- signals -----------------------------------------------------------------------------------
for sig in [signal.SIGINT, signal.SIGTERM]:
    out = os.path.join(WORK, f"sig{int(sig)}.y4m")
    view(f"{sig.name} while recording", ["--solver", "cpu", "--n", "1024", "--vsync", "off",
                                         "--frames", "100000", "--record", out],
         expect={128 + int(sig)}, send=(sig, 6.0),
         check=lambda out=out: (os.path.exists(out) and os.path.getsize(out) > 0
                                and not os.path.exists(out + ".part"))
         or "recording not finished")
    left = [WORK + f"/sig{int(sig)}.{ext}" for ext in ("orrery", "csv", "json")]
    bench(f"{sig.name} during a run", ["--solver", "cpu", "--n", "16384", "--steps", "1000",
                                       "--save", left[0], "--csv", left[1], "--json", left[2]],
          expect={128 + int(sig)}, send=(sig, 3.0),
          check=lambda left=left: not any(os.path.exists(f) or os.path.exists(f + ".part")
                                          for f in left) or "an output file was left")


def run_case(c):
    env = dict(os.environ, **(c["env"] or {}))
    t0 = time.time()
    p = subprocess.Popen(c["argv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         cwd=WORK, preexec_fn=c["pre"], start_new_session=True)
    if c["send"]:
        sig, after = c["send"]
        time.sleep(after)
        # The viewer runs under xvfb-run: signal the program itself, not the wrapper.
        prog = os.path.basename(c["argv"][-1] if False else (VIEW if c["viewer"] else BENCH))
        pids = subprocess.run(["pgrep", "-s", str(p.pid), "-x", prog[:15]],
                              capture_output=True, text=True).stdout.split()
        for pid in pids or [str(p.pid)]:
            os.kill(int(pid), sig)
    try:
        out, err = p.communicate(timeout=c["limit"])
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return "HANG", c, None, err.decode(errors="replace"), time.time() - t0
    rc = p.returncode
    err = err.decode(errors="replace")
    text = out.decode(errors="replace") + err
    verdict = "ok"
    why = ""
    if rc < 0 or (rc >= 128 and not (c["expect"] and rc in c["expect"])) or any(
            s in text for s in ["terminate called", "Segmentation", "AddressSanitizer",
                                "core dumped", "Aborted", "std::bad_alloc"]):
        verdict = "CRASH"
    elif c["check"] and c["check"]() is not True:
        verdict, why = "LOST", c["check"]()
    elif c["expect"] and rc not in c["expect"]:
        verdict, why = ("LOST" if rc == 0 else "UNEXPECTED"), f"exit {rc}, expected {c['expect']}"
    elif rc == 2:
        lines = [l for l in err.splitlines() if l.strip() and "xvfb-run" not in l]
        if len(lines) != 1 or not lines[0].startswith(("orrery", "orrery-bench")):
            verdict, why = "NOISE", f"{len(lines)} lines"
    return verdict, c, rc, (why + " | " if why else "") + err.strip()[-300:], time.time() - t0


def main():
    if not (os.path.exists(BENCH) and os.path.exists(VIEW)):
        sys.exit(f"hostile_pass: no programs under {BUILD}")
    light = [c for c in cases if not c["send"] and "ulimit" not in c["name"]]
    heavy = [c for c in cases if c not in light]
    results = []
    with ThreadPoolExecutor(max_workers=4) as pool:
        results += list(pool.map(run_case, light))
    results += [run_case(c) for c in heavy]  # timing-sensitive: one at a time
    if mounted:
        subprocess.run(["umount", tiny])
    if series_mounted:
        subprocess.run(["umount", tiny_series])
    os.chmod(os.path.join(WORK, "ro"), 0o755)
    lines = [(verdict, f"{verdict:10} rc={rc!s:4} {secs:5.1f}s  {c['name']}  :: "
                       + err.replace("\n", " / ")[:400]) for verdict, c, rc, err, secs in results]
    all_ok = report("hostile_pass", "cases", lines, LOG, WORK)
    if not ROOT:
        print("hostile_pass: not root: /proc, /sys and full-disk cases skipped")
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
