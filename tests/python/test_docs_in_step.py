"""Help and docs in step with the registries (issue 46): every preset, solver and integrator the
engine knows is named in both programs' --help and in the docs of each surface, so a list cannot
drift from the code unnoticed."""
import os
import subprocess

import pytest

import orrery

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
    path = viewer if program == "orrery" else os.path.join(
        os.path.dirname(os.path.dirname(viewer)), "bench", "orrery-bench")
    if not os.path.exists(path):
        pytest.skip(f"{path} is not built here")
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
