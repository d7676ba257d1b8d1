#!/usr/bin/env python3
"""Counts SASS instructions per interaction in the inner loop of each n-body kernel.

Usage: cuobjdump --dump-sass BINARY | scripts/sass_counts.py [--all-loops]
For each kernel it finds the loop body (a backward branch) holding the most MUFU.RSQ
instructions - one per interaction, or per pair in cuda-fast's pair mode - and prints each opcode
class divided by that count; --all-loops lists every loop that holds one.
"""
import re
import sys
from collections import Counter

func_re = re.compile(r"Function : (\S+)")
inst_re = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?);")


def kernels(lines):
    name, body = None, []
    for line in lines:
        m = func_re.search(line)
        if m:
            if name:
                yield name, body
            name, body = m.group(1), []
        elif name:
            body.append(line)
    if name:
        yield name, body


def loops(body):
    """Opcode counts of every loop (a backward branch) holding MUFU.RSQ instructions."""
    index, insts = {}, []
    for line in body:
        m = inst_re.search(line)
        if m:
            index[int(m.group(1), 16)] = len(insts)
            insts.append((m.group(2), m.group(3)))
    found = []
    for end, (op, args) in enumerate(insts):
        if not op.startswith("BRA"):
            continue
        t = re.search(r"0x([0-9a-f]+)", args)
        start = index.get(int(t.group(1), 16)) if t else None
        if start is None or start > end:
            continue
        c = Counter(o for o, _ in insts[start:end + 1])
        if c["MUFU.RSQ"] > 0:
            found.append(c)
    return found


def short_name(name):
    """fast_kernel<256, 4> from the mangled name, when it has that shape."""
    m = re.search(r"\d+([a-z_]+kernel)(?:I((?:Li\d+E)+)E)?", name)
    if not m:
        return name
    if not m.group(2):
        return m.group(1)
    args = re.findall(r"Li(\d+)E", m.group(2))
    return m.group(1) + "<" + ", ".join(args) + ">"


def main():
    every = "--all-loops" in sys.argv
    rows = []
    for name, body in kernels(sys.stdin):
        found = loops(body)
        if not found:
            continue
        if not every:  # the hottest loop: the one with the most interactions
            found = [max(found, key=lambda c: c["MUFU.RSQ"])]
        for c in found:
            rows.append(row(short_name(name), c))
    print(f"{'kernel':30s} {'inter':>5s} " + " ".join(f"{g:>5s}" for g in
          ["FADD", "FMUL", "FFMA", "MUFU", "LDS", "SHFL", "all"]) + "   (per MUFU.RSQ)")
    for name, k, g, total in rows:
        cells = " ".join(f"{g[x] / k:5.2f}" for x in ["FADD", "FMUL", "FFMA", "MUFU", "LDS", "SHFL"])
        print(f"{name[:30]:30s} {k:5d} {cells} {total / k:5.2f}")


def row(name, c):
    k = c["MUFU.RSQ"]
    groups = {g: sum(v for o, v in c.items() if o.startswith(g))
              for g in ["FADD", "FMUL", "FFMA", "MUFU", "LDS", "SHFL"]}
    return name, k, groups, sum(c.values())


if __name__ == "__main__":
    main()
