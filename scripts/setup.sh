#!/usr/bin/env bash
# Installs the Debian packages Orrery needs that are missing (apt-get, through sudo when not root).
# Extra package names as arguments are installed too (scripts/fuzz.sh asks for clang).
set -euo pipefail

packages=(cmake g++ pkg-config libglfw3-dev libglew-dev libglm-dev libimgui-dev libstb-dev libhwy-dev
          libcli11-dev libgtest-dev libbenchmark-dev libomp-dev xvfb xauth xdotool python3 ffmpeg
          nlohmann-json3-dev pybind11-dev python3-dev python3-numpy python3-pytest
          python3-matplotlib python3-h5py libhdf5-dev python3-yt python3-unyt
          python3-pip python3-setuptools python3-wheel python3-venv libopenmpi-dev openmpi-bin "$@")

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "setup: no dpkg-query (not Debian?); make sure these are installed: ${packages[*]}" >&2
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} Debian packages are installed"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup: missing packages (${missing[*]}), and not root with no sudo to install them" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
