#!/usr/bin/env python3
"""Checks Orrery's TIPSY files against an independent reader and writer, written from the format's
documentation with Python's standard library alone (struct):

  header: double time; int nbodies, ndim, nsph, ndark, nstar; (int pad: the standard tools' 4
          bytes to a 32-byte header; some files have none)
  gas:    float mass, pos[3], vel[3], rho, temp, hsmooth, metals, phi
  dark:   float mass, pos[3], vel[3], eps, phi
  star:   float mass, pos[3], vel[3], metals, tform, eps, phi

Standard files are big-endian (XDR); native ones little-endian.

usage: tipsy_check.py BENCH CONVERT SCRATCH_DIR
  1. orrery-bench saves a run's last state as TIPSY and as CSV; this reader's bodies must equal
     the CSV's, bit for bit in float32.
  2. this writer makes files with gas, dark and star particles (big-endian with the padding,
     little-endian without); Orrery converts them to CSV; the CSV must hold this writer's bodies,
     gas then dark then star.
"""
import csv
import os
import struct
import subprocess
import sys

RECORD = {"gas": 12, "dark": 9, "star": 11}


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def read_tipsy(path):
    data = open(path, "rb").read()
    for order in (">", "<"):
        time, nbodies, ndim, nsph, ndark, nstar = struct.unpack_from(order + "diiiii", data, 0)
        if ndim != 3 or min(nsph, ndark, nstar) < 0 or nsph + ndark + nstar != nbodies:
            continue
        body = 4 * (12 * nsph + 9 * ndark + 11 * nstar)
        for header in (32, 28):
            if len(data) == header + body:
                break
        else:
            continue
        bodies, at = [], header
        for kind, count in (("gas", nsph), ("dark", ndark), ("star", nstar)):
            n = RECORD[kind]
            for _ in range(count):
                rec = struct.unpack_from(order + "%df" % n, data, at)
                at += 4 * n
                bodies.append((kind, rec[0], rec[1:4], rec[4:7], rec[7:]))
        return {"order": order, "header": header, "time": time, "counts": (nsph, ndark, nstar),
                "bodies": bodies}
    raise SystemExit("%s: not a TIPSY file this reader understands" % path)


def write_tipsy(path, order, padded, time, gas, dark, star):
    out = struct.pack(order + "diiiii", time, len(gas) + len(dark) + len(star), 3, len(gas),
                      len(dark), len(star))
    if padded:
        out += struct.pack(order + "i", 0)
    for recs, n in ((gas, 12), (dark, 9), (star, 11)):
        for r in recs:
            assert len(r) == n
            out += struct.pack(order + "%df" % n, *r)
    open(path, "wb").write(out)


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["x", "y", "z", "vx", "vy", "vz", "mass", "radius"], rows[0]
    return [[float(v) for v in r] for r in rows[1:]]


def fail(msg):
    print("tipsy_check: FAILED: " + msg)
    sys.exit(1)


def main():
    bench, convert, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    # 1. Orrery writes, this reads.
    t, c = os.path.join(scratch, "run.tipsy"), os.path.join(scratch, "run.csv")
    subprocess.run([bench, "--solver", "cpu", "--preset", "disk", "--n", "257", "--steps", "3",
                    "--warmup", "0", "--save", t, "--export-csv", c], check=True,
                   stdout=subprocess.DEVNULL)
    got = read_tipsy(t)
    if got["order"] != ">" or got["header"] != 32:
        fail("Orrery's TIPSY is not big-endian with a 32-byte header")
    if got["counts"] != (0, 257, 0):
        fail("counts %s, expected 257 dark particles" % (got["counts"],))
    if not (got["time"] > 0):
        fail("time %r" % got["time"])
    rows = read_csv(c)
    for i, ((kind, mass, pos, vel, rest), r) in enumerate(zip(got["bodies"], rows)):
        want = [f32(v) for v in r]
        if list(pos) != want[0:3] or list(vel) != want[3:6] or mass != want[6]:
            fail("body %d: TIPSY %r %r %r, CSV %r" % (i, mass, pos, vel, r))
        if rest[0] != f32(0.1):  # eps: the run's softening
            fail("body %d: eps %r" % (i, rest[0]))
    print("tipsy_check: Orrery's TIPSY of 257 bodies matches its CSV in every float")
    # 2. This writes, Orrery reads.
    gas = [[0.5 + i, 1.0 * i, -2.0, 3.25, 0.125, -i, 7.0, 1, 2, 3, 4, 5] for i in range(3)]
    dark = [[2.0, -1.5 * i, 0.0, 1e-3, 4.0, 5.0, -6.0 + i, 0.05, -1] for i in range(4)]
    star = [[0.25 * (i + 1), 10.0, 20.0 + i, 30.0, -0.5, 0.75, i / 3.0, 0.02, 1.5, 0.01, -2]
            for i in range(5)]
    expected = [r[0:7] for r in gas + dark + star]
    for order, padded in ((">", True), ("<", False), ("<", True), (">", False)):
        name = "mixed-%s-%s" % ("big" if order == ">" else "little", "pad" if padded else "nopad")
        p, q = os.path.join(scratch, name + ".tipsy"), os.path.join(scratch, name + ".csv")
        write_tipsy(p, order, padded, 2.5, gas, dark, star)
        subprocess.run([convert, p, q], check=True)
        rows = read_csv(q)
        if len(rows) != 12:
            fail("%s: %d bodies, expected 12" % (name, len(rows)))
        for i, (r, e) in enumerate(zip(rows, expected)):
            mass, pos, vel = e[0], e[1:4], e[4:7]
            if [f32(v) for v in r[0:3]] != [f32(v) for v in pos] or \
               [f32(v) for v in r[3:6]] != [f32(v) for v in vel] or f32(r[6]) != f32(mass) or \
               r[7] != 0.0:
                fail("%s: body %d: Orrery read %r, written %r" % (name, i, r, e))
        # And back: Orrery's TIPSY of what it read holds the same bodies (as dark particles).
        back = os.path.join(scratch, name + "-back.tipsy")
        subprocess.run([convert, p, back], check=True)
        again = read_tipsy(back)
        if [b[1] for b in again["bodies"]] != [f32(e[0]) for e in expected] or again["time"] != 2.5:
            fail("%s: Orrery's TIPSY of it differs" % name)
    print("tipsy_check: 4 files of gas, dark and star particles (both byte orders, with and "
          "without padding) read by Orrery as written")


if __name__ == "__main__":
    main()
