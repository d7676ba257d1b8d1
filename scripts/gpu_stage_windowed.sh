#!/usr/bin/env bash
# Stages the windowed viewer checks' runtime into .gpux/ (ignored by git) so it travels to the GPU
# machine beside the repository within a device call's 64 MiB: ../shared/gpu/stage --xvfb's
# packages (Xvfb, Mesa's swrast for GLX, the client libraries) unpacked, trimmed to what they load
# (no docs, locales or other DRI drivers) and packed into one xz archive (about 48 MB instead of
# 59), with a prelude that unpacks it, starts Xvfb on :7 and sets NVIDIA's GLX.
# Then: scripts/gpu_slim.sh BUILD build-gpu-slimx --xz; run with carry [".gpux", "build-gpu-slimx"]
# and a command starting `. .gpux/prelude.sh;` (tar xJf build-gpu-slimx/slim.tar.xz -C /tmp/slim;
# tests/viewer/gpu_check.sh /tmp/slim OUT).
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p .git/info
grep -qsx '/.gpux/' .git/info/exclude || echo '/.gpux/' >> .git/info/exclude
../shared/gpu/stage --xvfb >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in .gpu/rt/*.deb; do dpkg -x "$f" "$work"; done
rm -rf "$work"/usr/share/{doc,man,lintian,locale,bug,icu,doc-base}
lib=$work/usr/lib/x86_64-linux-gnu
rm -f "$lib"/libicui18n* "$lib"/libicuio* "$lib"/libicutest* "$lib"/libicutu*
find "$lib/dri" -type f ! -name swrast_dri.so -delete
rm -rf .gpux
mkdir -p .gpux/sys
cp .gpu/sys/*.deb .gpux/sys/
tar -C "$work" -cf - . | xz -9e -T2 > .gpux/xvfb-min.tar.xz
cat > .gpux/prelude.sh <<'PRELUDE'
# Source at the start of a device command: the glvnd front ends, the trimmed Xvfb runtime, Xvfb on
# :7, NVIDIA's GLX for GLFW windows (__GLX_VENDOR_LIBRARY_NAME=mesa on one command for Mesa's).
_g=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for f in "$_g"/sys/*.deb; do dpkg -x "$f" /; done; ldconfig
mkdir -p /tmp/rt; tar xJf "$_g/xvfb-min.tar.xz" -C /tmp/rt
export LD_LIBRARY_PATH=/tmp/rt/usr/lib/x86_64-linux-gnu:/tmp/rt/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
export LIBGL_DRIVERS_PATH=/tmp/rt/usr/lib/x86_64-linux-gnu/dri
[ -e /usr/bin/xkbcomp ] || cp /tmp/rt/usr/bin/xkbcomp /usr/bin/
/tmp/rt/usr/bin/Xvfb :7 -screen 0 1920x1080x24 -xkbdir /tmp/rt/usr/share/X11/xkb +extension GLX >/tmp/xvfb.log 2>&1 &
sleep 2
export DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME=${__GLX_VENDOR_LIBRARY_NAME:-nvidia}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
unset _g
PRELUDE
../shared/gpu/stage >/dev/null  # .gpu/ back to the plain EGL stage
du -sh .gpux
