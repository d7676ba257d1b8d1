#!/usr/bin/env bash
# Under Xvfb (Mesa): --hud none draws the bodies alone, --hud minimal adds only the time label (top
# left), the scale bar (bottom left) and the colour bar (bottom right), --hud full the panel; the
# same paused frame each time, compared pixel by pixel. A bad word is one line and exit 2.
# Usage: hud.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
in_xvfb "$@"
orrery=$1 dir=$2
py=/usr/bin/python3  # Debian's, with python3-matplotlib (scripts/setup.sh)
[ -x "$py" ] || py=python3
"$py" -c "import matplotlib.image, numpy" 2>/dev/null || skip "no matplotlib (python3-matplotlib)"
for h in none minimal full; do
  "$orrery" --solver cpu --preset plummer --n 3000 --frames 4 --paused --hud "$h" \
    --screenshot "$dir/hud-$h.png" >"$dir/hud-$h.out" 2>&1 || { cat "$dir/hud-$h.out"; fail "--hud $h: exit $?"; }
done
"$py" - "$dir" <<'PY' || fail "the HUDs drew the wrong things"
import sys
import numpy as np
import matplotlib.image as mpimg
d = sys.argv[1]
none, minimal, full = (mpimg.imread(f"{d}/hud-{h}.png")[..., :3] for h in ("none", "minimal", "full"))
h, w = none.shape[:2]
diff = np.abs(minimal - none).sum(axis=2) > 0.05
ys, xs = np.nonzero(diff)
corners = ((xs < 260) & (ys < 40)) | ((xs < 400) & (ys > h - 60)) | ((xs > w - 260) & (ys > h - 110))
print(f"minimal differs from none at {diff.sum()} pixels, {int((~corners).sum())} outside its corners")
assert diff.sum() > 200, "minimal drew no HUD"
assert (~corners).sum() == 0, "minimal drew outside its corners"
assert diff[:40, :260].sum() > 20, "no time label"
assert diff[h - 60:, :400].sum() > 50, "no scale bar"
assert diff[h - 110:, w - 260:].sum() > 200, "no colour bar"
panel = np.abs(full - none).sum(axis=2)[:300, :380] > 0.05
assert panel.sum() > 20000, "full drew no panel"
PY
"$orrery" --solver cpu --n 100 --frames 1 --hud bogus >"$dir/hud-bad.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--hud bogus: exit $rc"
[ "$(wc -l <"$dir/hud-bad.out")" -eq 1 ] || fail "--hud bogus: not one line"
expect_line "$dir/hud-bad.out" "^orrery: error: --hud: bogus not in \{full,minimal,none\}"
echo PASS
