#!/usr/bin/env bash
# --bloom (issue 44): the glow around dense regions, on by default: the picture with it is
# brighter than without it around the galaxies' cores only, GL sprites and the CPU splat make the
# same glow (their own shaders and C++), and a bad word is one line and exit 2. Headless (EGL;
# skips where none works). Usage: bloom.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
orrery=$1 dir=$2/bloom
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || fail "no $dir"
py=/usr/bin/python3
"$py" -c "import numpy, matplotlib.image" 2>/dev/null || py=python3
"$py" -c "import numpy, matplotlib.image" 2>/dev/null || skip "no Python with numpy and matplotlib"
run() { env -u DISPLAY "$orrery" --headless --solver cpu-bh --n 20000 --preset collision \
  --frames 3 --paused --hud none --width 640 --height 360 "$@"; }
run --n 50 --frames 1 >probe.out 2>&1
grep -q "cannot create a headless OpenGL" probe.out && skip "no EGL display here"
for d in cpu gl; do
  for b in on off; do
    run --draw $d --bloom $b --screenshot $b-$d.png >$b-$d.out 2>&1 || { cat $b-$d.out; fail "--draw $d --bloom $b: exit $?"; }
  done
done
run --draw cpu --screenshot default.png >default.out 2>&1 || fail "default: exit $?"
cmp -s default.png on-cpu.png || fail "bloom is not on by default"
"$py" - <<'PY' || fail "the glow is wrong"
import numpy as np, matplotlib.image as m
p = {k: m.imread(f"{k}.png")[..., :3].astype(np.float64) for k in ("on-cpu", "off-cpu", "on-gl", "off-gl")}
for d in ("cpu", "gl"):
    glow = (p[f"on-{d}"] - p[f"off-{d}"]).sum(axis=2)
    lit = glow > 0.03
    print(f"{d}: the glow lights {lit.mean():.2%} of the picture, at most {glow.max():.3f}, never darkens: {glow.min():.4f}")
    assert glow.min() > -0.01, "the glow darkened a pixel"
    assert 0.002 < lit.mean() < 0.2, "no glow, or a glow over everything"
both = np.abs(p["on-cpu"] - p["on-gl"])
print(f"GL and CPU with the glow: mean difference {both.mean():.5f}, largest {both.max():.4f}")
assert both.mean() < 0.002 and both.max() < 0.05
PY
refuses '^orrery: error: --bloom: bright not in \{on,off\}' --bloom bright
echo PASS
