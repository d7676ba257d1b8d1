"""Help and docs in step with the registries (issue 46): every preset, solver and integrator the
engine knows is named in both programs' --help and in the docs of each surface, every format in
the help and formats.md, every palette in the viewer's help and usage.md, so a list cannot drift
from the code unnoticed."""
import os
import subprocess

import pytest

import orrery
from conftest import bench_path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")


def text(name):
    with open(os.path.join(ROOT, "docs", name)) as f:
        return f.read()


def program_help(program):
    try:
        viewer = orrery.viewer_path()
    except RuntimeError as e:
        pytest.skip(str(e))
    path = viewer if program == "orrery" else bench_path()
    return subprocess.run([path, "--help"], capture_output=True, text=True, check=True).stdout


NAMES = {
    "preset": orrery.presets(),
    "solver": [s["name"] for s in orrery.solvers()],
    "integrator": orrery.integrators(),
}


@pytest.mark.parametrize("kind", sorted(NAMES))
@pytest.mark.parametrize("where", ["orrery --help", "orrery-bench --help", "usage.md",
                                   "python.md"])
def test_every_name_is_in_the_help_and_the_docs(kind, where):
    body = program_help(where.split()[0]) if where.endswith("--help") else text(where)
    missing = [n for n in NAMES[kind] if n not in body]
    assert not missing, f"{where} does not name the {kind}s {missing}"


def test_every_format_is_in_the_help_and_the_docs():
    formats = orrery.formats()
    assert {"Orrery", "TIPSY", "GADGET-2", "HDF5", "CSV"} <= {f["name"] for f in formats}
    for where in ("orrery --help", "orrery-bench --help", "formats.md", "python.md"):
        body = program_help(where.split()[0]) if where.endswith("--help") else text(where)
        written = [f for f in formats if f["written"]]
        missing = [f["name"] for f in (formats if where == "formats.md" else written)
                   if f["name"] not in body]
        assert not missing, f"{where} does not name the formats {missing}"
        if where.endswith("--help") or where == "python.md":
            gone = [e for f in written for e in f["extensions"][:1] if e not in body]
            assert not gone, f"{where} does not name the extensions {gone}"


def test_every_palette_is_in_the_help_and_the_docs():
    import re
    help_text = program_help("orrery")
    listed = re.search(r"--palette NAME:\{([^}]*)\}", help_text)
    assert listed, "the viewer's --help lists no palettes"
    palettes = listed.group(1).split(",")
    assert len(palettes) >= 8
    usage = text("usage.md")
    missing = [p for p in palettes if f"`{p}`" not in usage]
    assert not missing, f"usage.md does not name the palettes {missing}"
