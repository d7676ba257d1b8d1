"""The engine is built by CMake: `build_engine` configures, builds and installs the `runtime` and
`python` components into a staging folder, and the wheel takes the module from there into
site-packages and the programs and the viewer's files (bin/, share/orrery/) into the environment's
prefix, the layout `cmake --install` makes, so that the module finds the viewer beside it.

Environment: ORRERY_CMAKE_ARGS (more CMake options, e.g. "-DORRERY_ENABLE_CUDA=OFF" for the
CPU-only build or "-DCMAKE_CUDA_ARCHITECTURES=90"), CMAKE_BUILD_PARALLEL_LEVEL (jobs)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Command, Distribution, setup
from setuptools.command.build import build
from setuptools.command.build_py import build_py
from setuptools.command.install import install

ROOT = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(ROOT, "build-pip"), exist_ok=True)  # setup.cfg's scratch folder


def check_environment():
    """One line, before pip's first step fails deeper, for what an offline build needs here."""
    needs = [m for m in ("numpy", "wheel") if subprocess.run(
        [sys.executable, "-c", f"import {m}"], capture_output=True).returncode != 0]
    if needs:
        sys.exit(f"orrery: {sys.executable} has no {' and no '.join(needs)}: make the environment "
                 "with `/usr/bin/python3 -m venv --system-site-packages ENV` over Debian's "
                 "python3-numpy and python3-wheel, or install them into it")


def version():
    """CMake's project version, with `git describe` as a PEP 440 local label in a checkout: the
    rule of version_pep440() in src/sim/core/version.cpp, so the metadata and __version__ agree."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        number = re.search(r"project\(orrery VERSION ([0-9.]+)", f.read()).group(1)
    if not os.path.exists(os.path.join(ROOT, ".git")):
        return number
    try:
        git = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return number
    if not git:
        return number
    label = re.sub(r"[^A-Za-z0-9]", ".", git)
    if ".g" not in label:
        label = "g" + label
    return f"{number}+{label}"


class EngineDistribution(Distribution):
    def has_ext_modules(self):
        return True  # the module is compiled: a wheel for this platform and Python


class build_engine(Command):
    description = "configure, build and stage the engine with CMake"
    user_options = []

    def initialize_options(self):
        self.build_temp = None

    def finalize_options(self):
        self.set_undefined_options("build", ("build_temp", "build_temp"))
        self.stage = os.path.join(os.path.abspath(self.build_temp), "stage")

    def run(self):
        python = sys.executable
        if shutil.which("cmake") is None:
            sys.exit("orrery: no cmake on PATH (Debian: cmake; scripts/setup.sh installs it)")
        cmake_build = os.path.join(os.path.abspath(self.build_temp), "cmake")
        site = os.path.relpath(sysconfig.get_path("platlib"), sysconfig.get_path("data"))
        args = ["-DCMAKE_BUILD_TYPE=Release", "-DORRERY_BUILD_TESTS=OFF",
                f"-DPython_EXECUTABLE={python}", f"-DORRERY_PYTHON_INSTALL_DIR={site}",
                "-DCMAKE_INSTALL_BINDIR=bin", "-DCMAKE_INSTALL_DATADIR=share"]
        args += shlex.split(os.environ.get("ORRERY_CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        self.spawn(["cmake", "-S", ROOT, "-B", cmake_build, *args])
        self.spawn(["cmake", "--build", cmake_build, "-j", jobs])
        shutil.rmtree(self.stage, ignore_errors=True)
        for component in ("runtime", "python"):
            self.spawn(["cmake", "--install", cmake_build, "--prefix", self.stage,
                        "--component", component])
        module = os.path.join(self.stage, site, "orrery")
        if not any(n.startswith("_orrery") for n in os.listdir(module)):
            sys.exit("orrery: CMake built no Python module (is pybind11-dev installed?)")
        self.module = module
        # The programs and the viewer's files, for install_data: (folder, [files]) under the prefix.
        data = []
        for top in ("bin", "share"):
            for folder, _, files in os.walk(os.path.join(self.stage, top)):
                if files:
                    data.append((os.path.relpath(folder, self.stage),
                                 [os.path.join(folder, f) for f in sorted(files)]))
        self.distribution.data_files = data


class build_with_engine(build):
    sub_commands = [("build_engine", None)] + build.sub_commands


class build_py_with_engine(build_py):
    def run(self):
        super().run()
        engine = self.get_finalized_command("build_engine")
        self.run_command("build_engine")
        target = os.path.join(self.build_lib, "orrery")
        os.makedirs(target, exist_ok=True)
        for name in os.listdir(engine.module):
            self.copy_file(os.path.join(engine.module, name), os.path.join(target, name))


class install_platlib(install):
    def finalize_options(self):
        super().finalize_options()
        self.install_lib = self.install_platlib  # the module holds a compiled part


check_environment()
setup(
    version=version(),
    packages=["orrery"],
    package_dir={"orrery": "python/orrery"},
    package_data={"orrery": ["*.pyi", "py.typed"]},
    distclass=EngineDistribution,
    cmdclass={"build_engine": build_engine, "build": build_with_engine, "build_py": build_py_with_engine,
              "install": install_platlib},
)
