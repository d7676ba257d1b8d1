#!/usr/bin/env bash
# Bad command-line values: exit code 2 and exactly one line on stderr, before any window opens.
# Usage: bad_cli.sh ORRERY
set -u
. "$(dirname "$0")/common.sh"
orrery=$1
status=0
check() {
  local err rc lines
  err=$("$orrery" "$@" --frames 1 2>&1 >/dev/null)
  rc=$?
  lines=$(printf '%s\n' "$err" | grep -c .)
  if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || [[ "$err" != "orrery: error: "* ]]; then
    echo "FAIL: orrery $* -> exit $rc, $lines stderr lines: $err"
    status=1
  else
    echo "ok: orrery $* -> $err"
  fi
}
check --n 0
check --n abc
check --solver nope
check --block 100 --solver cpu
check --dt -1
check --softening 0
check --damping 2
check --preset galaxy
check --vsync maybe
check --width 10
check --steps-per-frame 0
check --frames 0
check --seed -1
check --screenshot shot.jpg
check --no-such-flag
check --keys s,nope
check --draw nope
# Issue 8's defects: every one is refused in one line before anything runs.
check --softening 1e-20
# A --save name no format writes (issue 41): refused before the run, with the extensions.
check --save run.out
# The camera's rows (issue 41): each out of its bounds, or not a number.
check --camera-distance 0
check --camera-elevation 89
check --camera-azimuth nan
check --fov 1
check --softening 1e-13
check --seed 18446744073709551616
check --point-radius nan
check --n --
check --n 99999999999999999999
check --n ''
check --dt 1e39
check --dt inf
check --width 1e3
check --screenshot /tmp/orrery-missing-dir-$$/x.png
check --screenshot /proc/x.png
# The step pipeline's integrators (issue 9).
check --integrator nope
check --integrator leapfrog --damping 0.9
check --integrator yoshida4 --damping 0
# Barnes-Hut's opening angle (issue 10).
check --theta -1
check --theta nan
check --theta 5
check --theta abc
# Collisions (issue 11).
check --restitution 1.5
check --restitution nan
check --restitution -0.1
check --radius -1
check --radius inf
check --box 0
check --box -3
check --collisions nope
check --gravity maybe
check --preset pool
# Snapshots (issue 12): bad files and places, before anything opens.
junk=$(mktemp)
head -c 999 /dev/urandom >"$junk"
check --load /tmp/orrery-missing-dir-$$/x.orrery
check --load "$junk"
check --load /dev/zero
check --load "$junk" --n 5
check --save /tmp/orrery-missing-dir-$$/x.orrery
check --export-csv /tmp/orrery-missing-dir-$$/x.csv
check --save /tmp
rm -f "$junk"
# Scene files (issue 12).
junk=$(mktemp)
echo '{"initial": {"preset": "disk"}, "speed": 3}' >"$junk"
check --scene "$junk"
check --scene /tmp/orrery-missing-dir-$$/s.json
check --scene "$junk" --load "$junk"
rm -f "$junk"
# Recording (issue 12).
check --record clip.avi
check --record /tmp/orrery-missing-dir-$$/x.y4m
check --record-fps 0
check --record-fps 1000
# Watching tools (issue 13).
check --trails -1
check --trails 100000
check --trails 1
check --trail-bodies -5
check --color nope
check --palette jet
check --color-scale cubic
check --color-range 5,1
check --color-range 1
check --color-range 0,1 --color-scale log
# Issue 21: an empty value is refused, never taken for "not given".
for o in --save --load --scene --export-csv --screenshot --record --keys --solver; do
  check "$o" ''
done
# Issue 21: walls smaller than the bodies.
check --solver cpu --n 64 --box 0.01 --radius 5 --headless
# Issue 21: a pasted 100 KB value is cut in the one error line.
big=$(head -c 100000 /dev/zero | tr '\0' 'x')
for o in --n --palette --solver --dt; do
  err=$("$orrery" "$o" "$big" --frames 1 2>&1 >/dev/null)
  if [ ${#err} -lt 500 ] && [[ "$err" == "orrery: error: "* ]]; then
    echo "ok: orrery $o <100 KB> -> ${#err} characters"
  else
    echo "FAIL: orrery $o <100 KB> -> ${#err} characters: ${err:0:200}"
    status=1
  fi
done
# Issue 21: two outputs naming one file, however spelled; places that take no file, as root too.
same=$(mktemp -d)
check --save "$same/x.out" --export-csv "$same/./x.out"
check --screenshot "$same/g.png" --export-csv "$same/g.png"
check --record "$same/r.y4m" --save "$same/r.y4m"
ln -s x.out "$same/link.out"
check --save "$same/link.out" --export-csv "$same/x.out"
[ -d /proc/self ] && check --save /proc/orrery-x.orrery
[ -d /proc/self ] && check --export-csv /proc/orrery-x.csv
rm -rf "$same"
# Issue 21: more bodies than the host's memory holds on the CPU path are refused before anything
# is allocated (N = 2^27 failed in GL after 35 s), and a scene's N above the viewer's limit before
# its bodies are made (n = 2^31 - 1 ended in bad_alloc).
avail_kib=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
[ -n "$avail_kib" ] && [ "$avail_kib" -lt $(( 134217728 * 192 / 1024 )) ] && check --solver cpu --n 134217728
big=$(mktemp --suffix .json)
printf '{"initial": {"preset": "disk", "n": 2147483647}}' >"$big"
check --scene "$big"
rm -f "$big"
# Issue 27: GPU counts no solver or machine can run.
check --gpus 0
check --gpus -1
check --gpus two
check --solver cpu --gpus 2
check --solver cpu-omp --gpus 4097
# Without a GPU the CUDA splat cannot draw: refused before anything opens.
nvidia-smi -L >/dev/null 2>&1 || check --draw cuda
exit $status
