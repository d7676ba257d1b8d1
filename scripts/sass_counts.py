#!/usr/bin/env python3
"""Counts SASS instructions per interaction in the inner loop of each n-body kernel.

Usage: cuobjdump --dump-sass BINARY | scripts/sass_counts.py
For each kernel it finds the loop body (a label and the backward branch to it) holding the most
MUFU.RSQ instructions - one per interaction - and prints each opcode class divided by that count.
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


def loop_counts(body):
    """Opcode counts of the loop (a backward branch) with the most MUFU.RSQ instructions."""
    index, insts = {}, []
    for line in body:
        m = inst_re.search(line)
        if m:
            index[int(m.group(1), 16)] = len(insts)
            insts.append((m.group(2), m.group(3)))
    best = None
    for end, (op, args) in enumerate(insts):
        if not op.startswith("BRA"):
            continue
        t = re.search(r"0x([0-9a-f]+)", args)
        start = index.get(int(t.group(1), 16)) if t else None
        if start is None or start > end:
            continue
        c = Counter(o for o, _ in insts[start:end + 1])
        if best is None or c["MUFU.RSQ"] > best["MUFU.RSQ"]:
            best = c
    return best


def main():
    rows = []
    for name, body in kernels(sys.stdin):
        c = loop_counts(body)
        if not c or c["MUFU.RSQ"] == 0:
            continue
        k = c["MUFU.RSQ"]
        groups = {
            "FADD": sum(v for o, v in c.items() if o.startswith("FADD")),
            "FMUL": sum(v for o, v in c.items() if o.startswith("FMUL")),
            "FFMA": sum(v for o, v in c.items() if o.startswith("FFMA")),
            "MUFU": sum(v for o, v in c.items() if o.startswith("MUFU")),
            "LDS": sum(v for o, v in c.items() if o.startswith("LDS")),
        }
        total = sum(c.values())
        rows.append((name, k, groups, total))
    print(f"{'kernel':70s} {'inter':>5s} " + " ".join(f"{g:>5s}" for g in
          ["FADD", "FMUL", "FFMA", "MUFU", "LDS", "all"]) + "   (per interaction)")
    for name, k, g, total in rows:
        cells = " ".join(f"{g[x] / k:5.2f}" for x in ["FADD", "FMUL", "FFMA", "MUFU", "LDS"])
        print(f"{name[:70]:70s} {k:5d} {cells} {total / k:5.2f}")


if __name__ == "__main__":
    main()
