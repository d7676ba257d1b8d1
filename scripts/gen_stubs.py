#!/usr/bin/env python3
"""Writes the parameter rows' lines of python/orrery/_orrery.pyi from the engine's table: each row
that is a Simulation keyword (orrery.parameters(), keyword True) is a keyword of __init__ and a
property, between the "parameter rows" markers. With --check, exits 1 when the file differs from
what it would write (the Python tests check this). Run with the built module on PYTHONPATH:
  PYTHONPATH=build/python python3 scripts/gen_stubs.py [--check]
"""
import os
import re
import sys

STUBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "orrery",
                     "_orrery.pyi")
BEGIN = "# parameter rows (scripts/gen_stubs.py writes these from orrery.parameters())"
END = "# end of the parameter rows"


def stubs_from(text, rows):
    """The stub text with each marked block rewritten from the rows."""
    names = [r["name"] for r in rows if r["keyword"]]

    def block(match):
        indent, first_line = match.group(1), match.group(2)
        keyword = "= None" in first_line  # __init__'s block, else the properties'
        lines = [f"{indent}{n}: Optional[float] = None," if keyword else f"{indent}{n}: float"
                 for n in names]
        return f"{indent}{BEGIN}\n" + "\n".join(lines) + f"\n{indent}{END}"

    pattern = re.compile(r"^( *)" + re.escape(BEGIN) + r"\n(.*?)\n.*?^ *" + re.escape(END),
                         re.S | re.M)
    return pattern.sub(block, text)


def main():
    import orrery
    text = open(STUBS).read()
    new = stubs_from(text, orrery.parameters())
    if "--check" in sys.argv:
        if new != text:
            print("gen_stubs: python/orrery/_orrery.pyi differs from the parameter table; run "
                  "scripts/gen_stubs.py", file=sys.stderr)
            return 1
        return 0
    with open(STUBS, "w") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
