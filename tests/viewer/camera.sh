#!/usr/bin/env bash
# The camera as state (issue 44): a keyframe path lands on its keys frame by frame (pixel for
# pixel the same picture as the view typed), a recording follows it, roll turns the picture,
# orbit turns the azimuth at its rate, --keep-frame keeps an expanding system in the picture,
# --follow keeps a body in the middle, a scene carries all of it, and bad input is one line and
# exit 2. Headless (EGL; skips where none works). Usage: camera.sh ORRERY WORKDIR [ORRERY-BENCH]
set -u
. "$(dirname "$0")/common.sh"
orrery=$1 dir=$2/camera bench=${3:-}
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || fail "no $dir"
py=/usr/bin/python3  # Debian's, with numpy and matplotlib (scripts/setup.sh), else one with numpy
"$py" -c "import numpy" 2>/dev/null || py=python3
# The CPU splat: the same picture bit for bit on every machine (GL and CUDA add in any order).
run() { env -u DISPLAY "$orrery" --headless --solver cpu-bh --hud none --draw cpu "$@"; }
# The view line's value of one option: view OUT --camera-distance
view() { sed -nE "s/^orrery: view: .*$2 ([^ ]+).*/\1/p" "$1"; }
run --n 50 --frames 1 >probe.out 2>&1
grep -q "cannot create a headless OpenGL" probe.out && skip "no EGL display here"

# A path from 80 to 20 over one second: frame 30 (t = 0.5 s) is the geometric mean, 40, and from
# frame 60 on the last key, 20 - the same PNG bytes as those distances typed.
cat >path.json <<'EOF'
{"easing": "smooth", "keys": [{"t": 0, "camera_distance": 80}, {"t": 1, "camera_distance": 20}]}
EOF
small="--n 3000 --paused --width 320 --height 180"
run $small --frames 31 --camera-path path.json --screenshot mid.png >mid.out 2>&1 || fail "path: exit $?"
run $small --frames 3 --camera-distance 40 --screenshot d40.png >d40.out 2>&1 || fail "d40: exit $?"
run $small --frames 90 --camera-path path.json --screenshot end.png >end.out 2>&1 || fail "end: exit $?"
run $small --frames 3 --camera-distance 20 --screenshot d20.png >d20.out 2>&1 || fail "d20: exit $?"
cmp -s mid.png d40.png || fail "the path's middle frame is not the view at distance 40"
cmp -s end.png d20.png || fail "the path's end is not the view at distance 20"
cmp -s mid.png end.png && fail "the path did not move the camera"
expect_line end.out '^camera path: done at its last key \(t = 1 s\)'
expect_line mid.out '^orrery: view: --camera-distance 40 '

# A recording follows the path frame by frame: its first and last frames differ, where a paused
# recording's without a path are the same.
run $small --frames 31 --camera-path path.json --record path.y4m >rec.out 2>&1 || fail "record: exit $?"
run $small --frames 31 --record still.y4m >still.out 2>&1 || fail "still record: exit $?"
"$py" - <<'PY' || fail "the recording did not follow the path"
def frames(name):
    data = open(name, "rb").read()
    header, _, rest = data.partition(b"\n")
    w = int(header.split(b" W")[1].split()[0]); h = int(header.split(b" H")[1].split()[0])
    size = w * h * 3 // 2
    chunks = rest.split(b"FRAME\n")[1:]
    assert all(len(c) == size for c in chunks), "frame sizes"
    return chunks
moving, still = frames("path.y4m"), frames("still.y4m")
print(f"path: {len(moving)} frames, still: {len(still)}")
assert len(moving) == 31 and len(still) == 31
assert moving[0] != moving[-1], "a path's recording stood still"
assert moving[15] != moving[-1] and moving[0] != moving[15]
assert still[0] == still[-1], "a paused recording without a path moved"
PY

# Roll 90 on a square picture: the bodies turn a quarter turn (clockwise, the camera turning
# counter-clockwise).
sq="--n 3000 --paused --frames 3 --width 256 --height 256 --preset disk --camera-elevation 60"
run $sq --screenshot roll0.png >roll0.out 2>&1 || fail "roll 0: exit $?"
run $sq --camera-roll 90 --screenshot roll90.png >roll90.out 2>&1 || fail "roll 90: exit $?"
if "$py" -c "import matplotlib.image, numpy" 2>/dev/null; then
"$py" - <<'PY' || fail "roll did not turn the picture"
import numpy as np, matplotlib.image as mpimg
a = mpimg.imread("roll0.png")[..., :3].sum(axis=2)
b = mpimg.imread("roll90.png")[..., :3].sum(axis=2)
def corr(x, y):
    x = x - x.mean(); y = y - y.mean()
    return float((x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum()))
cw, ccw, none = corr(np.rot90(a, -1), b), corr(np.rot90(a, 1), b), corr(a, b)
print(f"roll 90 against roll 0 turned clockwise {cw:.3f}, counter-clockwise {ccw:.3f}, not {none:.3f}")
assert cw > 0.9 and cw > ccw + 0.2 and cw > none + 0.2
PY
else
  echo "SKIP: roll's picture check: no matplotlib (python3-matplotlib)"
fi

# Orbit: 90 degrees a second for 60 frames at 60 a second is a quarter turn.
run --n 500 --paused --frames 61 --orbit 90 --width 160 --height 90 >orbit.out 2>&1 || fail "orbit: exit $?"
az=$(view orbit.out --camera-azimuth)
"$py" -c "import sys; a = float('$az'); sys.exit(0 if abs(a - 90) < 0.01 else 1)" ||
  fail "--orbit 90 for one second ended at azimuth '$az'"

# --keep-frame: an expanding system keeps its frame (the distance follows its 95% sphere), where
# without it the camera stays where the start framed it. The runs start from the expand preset
# after 400 steps that the bench takes exactly: before that, its 95% sphere shrinks and grows
# again, and a viewer's CPU steps do not keep pace with its frames on a loaded machine.
if [ -n "$bench" ]; then
  "$bench" --preset expand --n 2000 --solver cpu-bh --cpu-max-n 2000 --integrator leapfrog \
    --steps 400 --warmup 0 --save grown.orrery >grown.out 2>&1 || fail "the bench's start: exit $?"
  grow="--load grown.orrery --frames 300 --width 160 --height 90"
  run $grow >free.out 2>&1 || fail "free: exit $?"
  run $grow --keep-frame --save kept.orrery >kept.out 2>&1 || fail "kept: exit $?"
  # The framing of the state the kept run ended with, afresh (K): the same state, whatever number
  # of steps the CPU run took in its frames.
  run --load kept.orrery --paused --frames 3 --width 160 --height 90 --keys k >fresh.out 2>&1 ||
    fail "fresh: exit $?"
  free=$(view free.out --camera-distance) kept=$(view kept.out --camera-distance)
  fresh=$(sed -nE 's/^frame bodies:0.95: radius [^ ]+ distance ([^ ]+)$/\1/p; s/^frame bodies:0.95: radius [^,]+, distance ([^ ]+)$/\1/p' fresh.out)
  echo "distance: free $free, kept $kept, framed afresh at the end $fresh"
  "$py" -c "import sys; f, k, n = $free, $kept, $fresh; sys.exit(0 if k > 1.3 * f and 0.75 * n < k < 1.05 * n else 1)" ||
    fail "--keep-frame did not keep the frame (free $free, kept $kept, afresh $fresh)"
else
  echo "--keep-frame: not checked (no orrery-bench in this build to make its start)"
fi

# --follow body:5 keeps body 5 in the middle: the point looked at is where it was before the
# last frame's step.
run --n 500 --preset random --integrator leapfrog --frames 30 --follow body:5 --export-csv f.csv \
  >follow.out 2>&1 || fail "follow: exit $?"
x=$(view follow.out --camera-x) y=$(view follow.out --camera-y) z=$(view follow.out --camera-z)
"$py" - "$x" "$y" "$z" <<'PY' || fail "--follow body:5 did not follow it"
import sys, numpy as np
target = np.array([float(v) for v in sys.argv[1:4]])
body = np.loadtxt("f.csv", delimiter=",", skiprows=1)[5, :3]
print(f"looking at {target}, body 5 at {body}")
assert np.linalg.norm(target - body) < 0.1
PY

# A scene carries the camera's motion: its orbit turns the camera, its path sets the fov.
cat >scene.json <<'EOF'
{"initial": {"preset": "plummer", "n": 400}, "frame": "mass:0.9", "orbit": 45, "keep_frame": true,
 "camera_path": {"keys": [{"t": 0, "fov": 30}, {"t": 0.5, "fov": 60}]}}
EOF
run --scene scene.json --frames 61 --paused --width 160 --height 90 >scene.out 2>&1 || fail "scene: exit $?"
expect_line scene.out '^orrery: view: .*--fov 60 .*--orbit 45$'

# Bad input: one line on stderr, exit 2.
cat >unsorted.json <<'EOF'
{"keys": [{"t": 2, "camera_distance": 10}, {"t": 1, "camera_distance": 20}]}
EOF
cat >dup.json <<'EOF'
{"keys": [{"t": 1}, {"t": 1}]}
EOF
echo '{"keys": []}' >nokeys.json
refuses "--frame 'half': must be all, none" --frame half
refuses "--frame 'mass:0': the fraction must be in \(0, 1\]" --frame mass:0
refuses "--frame 'bodies:2'" --frame bodies:2
refuses "--follow 'body:-1'" --follow body:-1
refuses "--follow 'centre': must be none, com" --follow centre
refuses "--follow body:100: there are 100 bodies" --follow body:100
refuses "--keep-frame with --frame none" --keep-frame --frame none
refuses "camera roll 200" --camera-roll 200
refuses "--camera-x" --camera-x nan
refuses "--orbit" --orbit 1e9
refuses "unsorted.json: keys\[1\].t: 1 comes before" --camera-path unsorted.json
refuses "dup.json: keys\[1\].t: 1 repeats" --camera-path dup.json
refuses "nokeys.json: keys: must be a non-empty array" --camera-path nokeys.json
refuses "missing.json" --camera-path missing.json
refuses "--camera-path: empty value" --camera-path ''
echo PASS
