"""Shared fixtures of the Python module's tests: the module from the build tree (PYTHONPATH set by
ctest) or an installed one (scripts/pip_check.sh), and markers for what this machine lacks (a GPU,
a display, EGL)."""
import os

import pytest

import orrery

HAVE_GPU = any(s["gpu"] and s["available"] for s in orrery.solvers())
GPU_SOLVERS = [s["name"] for s in orrery.solvers() if s["gpu"]]
WHY_NO_GPU = next((s["why_not"] for s in orrery.solvers() if s["gpu"] and s["why_not"]),
                  "this build has no CUDA solvers")

needs_gpu = pytest.mark.skipif(not HAVE_GPU, reason=f"no GPU: {WHY_NO_GPU}")
needs_display = pytest.mark.skipif(not (os.environ.get("DISPLAY") or
                                        os.environ.get("WAYLAND_DISPLAY")),
                                   reason="no display (DISPLAY unset): show() needs a window")


def _hdf5_in_build():
    """Whether this build reads and writes HDF5 (libhdf5 was found when it was configured)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        try:
            orrery.Simulation(n=2, preset="random", solver="cpu").save(d + "/probe.hdf5")
        except OSError as e:
            if "no HDF5 support" in str(e):
                return False
            raise
    return True


HAVE_HDF5 = _hdf5_in_build()
needs_hdf5 = pytest.mark.skipif(not HAVE_HDF5,
                                reason="this build has no HDF5 (configured without libhdf5)")


def bench_path():
    """orrery-bench beside the viewer: in bin/ installed, in src/bench/ of a build tree."""
    viewer = orrery.viewer_path()
    for path in (os.path.join(os.path.dirname(viewer), "orrery-bench"),
                 os.path.join(os.path.dirname(os.path.dirname(viewer)), "bench", "orrery-bench")):
        if os.path.exists(path):
            return path
    pytest.skip(f"no orrery-bench beside {viewer}")


@pytest.fixture
def tmp(tmp_path):
    return tmp_path
