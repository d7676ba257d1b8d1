#!/usr/bin/env bash
# The install a new user does, checked in a fresh virtual environment over Debian's python3 (whose
# numpy, matplotlib, h5py and yt it sees): `pip install --no-build-isolation .`, then
# orrery.__version__ against the package metadata, both programs' --version, render(), the three
# examples and every Python test against the installed package (not the build tree), then
# uninstall; then `pip wheel .` and the wheel installed the same way.
# The engine is built CPU-only unless ORRERY_CMAKE_ARGS says otherwise (CI has no GPU; the CUDA
# build installs the same way and takes longer).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python=${ORRERY_PIP_PYTHON:-/usr/bin/python3}
export ORRERY_CMAKE_ARGS=${ORRERY_CMAKE_ARGS--DORRERY_ENABLE_CUDA=OFF}
scratch=$(mktemp -d /tmp/orrery-pip.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
"$python" -m venv --system-site-packages "$scratch/venv"
env=$scratch/venv
pip=("$env/bin/python" -m pip --disable-pip-version-check)
wrap=()
command -v xvfb-run >/dev/null && wrap=(xvfb-run -a)

installed_works() {
  cd "$scratch"  # away from the checkout, whose python/ would shadow the installed module
  "$env/bin/python" - "$env" <<'PY'
import importlib.metadata, os, sys
import orrery
env = os.path.realpath(sys.argv[1])
assert os.path.realpath(orrery.__file__).startswith(env), orrery.__file__
assert importlib.metadata.version("orrery") == orrery.__version__, importlib.metadata.version("orrery")
assert os.path.realpath(orrery.viewer_path()) == os.path.join(env, "bin", "orrery"), orrery.viewer_path()
print("installed: orrery", orrery.__version__, "from", os.path.dirname(orrery.__file__))
PY
  "$env/bin/orrery" --version
  "$env/bin/orrery-bench" --version
  cd "$root"
}

echo "pip_check: pip install . (ORRERY_CMAKE_ARGS=$ORRERY_CMAKE_ARGS)"
"${pip[@]}" install --no-build-isolation --no-index . >"$scratch/install.log" 2>&1 ||
  { tail -40 "$scratch/install.log"; exit 1; }
installed_works
(cd "$scratch" && "${wrap[@]}" "$env/bin/python" -c "
import orrery
sim = orrery.Simulation(4096, 'plummer')
sim.integrate(0.05)
sim.render('render.png', width=320, height=240)
print('render():', open('render.png', 'rb').read(8) == b'\x89PNG\r\n\x1a\n')" | grep -q "render(): True")
echo "render(): a PNG"
for ex in "galaxy_merger.py 2048 $scratch/merger.png" "lagrangian_radii.py 2048 $scratch/radii.png" \
          "tipsy_file.py"; do
  # shellcheck disable=SC2086
  (cd "$scratch" && MPLBACKEND=Agg "$env/bin/python" "$root/examples/"$ex >"$scratch/example.log" 2>&1) ||
    { cat "$scratch/example.log"; exit 1; }
  echo "example ${ex%% *}: ran"
done
(cd "$root/tests/python" && "${wrap[@]}" "$env/bin/python" -m pytest -q -p no:cacheprovider . | tail -1)
"${pip[@]}" uninstall -y orrery >/dev/null
# pip removes every file it installed (it may leave emptied folders).
[[ ! -e $env/bin/orrery && ! -e $env/bin/orrery-bench && -z $(find "$env/share" -type f -path '*orrery*') ]] ||
  { echo "pip_check: uninstall left files behind"; exit 1; }
if (cd "$scratch" && "$env/bin/python" -c "import orrery" 2>/dev/null); then
  echo "pip_check: orrery still imports after uninstall"; exit 1
fi
echo "uninstall: gone"

echo "pip_check: pip wheel ."
"${pip[@]}" wheel --no-build-isolation --no-index --no-deps -w "$scratch/dist" . >"$scratch/wheel.log" 2>&1 ||
  { tail -40 "$scratch/wheel.log"; exit 1; }
"${pip[@]}" install --no-index "$scratch"/dist/orrery-*.whl >/dev/null
echo "wheel: $(basename "$scratch"/dist/orrery-*.whl)"
installed_works
"${pip[@]}" uninstall -y orrery >/dev/null
echo "pip_check: passed"
