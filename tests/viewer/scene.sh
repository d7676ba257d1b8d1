#!/usr/bin/env bash
# Scene files in the viewer, under Xvfb: --scene starts from one; the panel's list (the shipped
# scenes, through ORRERY_SCENE_DIR) loads one (scene7: the box gas, alphabetically); Save scene
# writes the current settings, and that file starts a run again. Usage: scene.sh ORRERY SCENES WORKDIR
set -u
. "$(dirname "$0")/common.sh"
in_xvfb "$@"
orrery=$1 scenes=$2 dir=$3
cd "$dir" && rm -f orrery-scene-*.json
"$orrery" --scene "$scenes/disk.json" --solver cpu --n 700 --frames 3 >scene1.out 2>&1 ||
  { cat scene1.out; fail "--scene: exit $?"; }
cat scene1.out
expect_line scene1.out "^orrery: scene .*/disk.json \(700 bodies\)$"
expect_line scene1.out "^orrery: solver cpu, n 700, .*integrator leapfrog"
# The list is sorted by file name: accretion, box, collision, disk, expand, galaxy-merger-1m,
# plummer, random, shell. scene2 is box.json.
ORRERY_SCENE_DIR=$scenes "$orrery" --solver cpu --n 600 --frames 6 --keys scene2,savescene \
  >scene2.out 2>&1 || { cat scene2.out; fail "scene list: exit $?"; }
cat scene2.out
expect_line scene2.out "^scene Gas of balls \(600 bodies\)$"
expect_line scene2.out "^scene saved to orrery-scene-[0-9-]+\.json"
saved=$(ls orrery-scene-*.json | head -1)
grep -q '"preset": "box"' "$saved" || fail "the saved scene is not the box gas: $(cat "$saved")"
grep -q '"gravity": false' "$saved" || fail "the saved scene lost gravity off"
"$orrery" --scene "$saved" --frames 2 >scene3.out 2>&1 || { cat scene3.out; fail "saved scene: exit $?"; }
expect_line scene3.out "gravity off, collisions bounce"
rm -f orrery-scene-*.json
# Issue 21: a GPU scene on a machine without a GPU says both numbers of bodies (it silently ran
# 2048 instead of the scene's 1048576).
if ! nvidia-smi -L >/dev/null 2>&1; then
  "$orrery" --scene "$scenes/galaxy-merger-1m.json" --frames 1 >scene4.out 2>&1 ||
    { cat scene4.out; fail "the GPU scene on the CPU: exit $?"; }
  expect_line scene4.out "cannot run here; using cpu-omp, with [0-9]+ bodies instead of the scene's 1048576 \(--n sets it\)$"
fi
echo PASS
