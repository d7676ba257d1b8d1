#!/usr/bin/env bash
# Issue 8's viewer defects, headless (EGL): decimal numbers, values honoured rather than clamped, a
# non-finite state paused with the step named, an image size this GL cannot draw refused before
# the run with its maximum, and a screenshot that cannot be written after the run losing nothing.
# Usage: hardening.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
orrery=$1 dir=$2
run() {  # run NAME ARGS...: headless, output in $dir/hardening_NAME.out, exit code in $rc
  local name=$1
  shift
  env -u DISPLAY "$orrery" --headless "$@" >"$dir/hardening_$name.out" 2>&1
  rc=$?
  grep -q "cannot create a headless OpenGL" "$dir/hardening_$name.out" && skip "no EGL display here"
  cat "$dir/hardening_$name.out"
}
# Defect 3: --n 010 is ten bodies, not eight.
run octal --width 320 --height 180 --solver cpu --n 010 --frames 2
[ $rc -eq 0 ] || fail "--n 010 exited $rc"
expect_line "$dir/hardening_octal.out" '^orrery: solver cpu, n 10, '
# Defect 2: a time step outside the panel's slider is honoured, not clamped to [1e-6, 1].
run dt --width 320 --height 180 --solver cpu --n 64 --dt 5 --softening 0.5 --frames 2
[ $rc -eq 0 ] || fail "--dt 5 exited $rc"
expect_line "$dir/hardening_dt.out" 'dt 5, softening 0.5, damping 1, theta 0.5$'
# A state that turns non-finite pauses the run with one line naming the step.
run blowup --width 320 --height 180 --solver cpu --n 64 --dt 1e30 --frames 12
[ $rc -eq 0 ] || fail "the non-finite run exited $rc"
expect_line "$dir/hardening_blowup.out" '^orrery: non-finite state at step 1 \(body [0-9]+: its (position|velocity)[a-z ]*\): paused'
[ "$(grep -c 'non-finite' "$dir/hardening_blowup.out")" -eq 1 ] || fail "the blow-up was reported more than once"
# Issue 21: a non-finite state is not saved (--load would refuse it later): the summary, then one
# error line, exit 1, and no file.
rm -f "$dir/hardening_blown.orrery" "$dir/hardening_blown.csv"
run blown --width 320 --height 180 --solver cpu --n 64 --dt 1e30 --frames 4 \
  --save "$dir/hardening_blown.orrery" --export-csv "$dir/hardening_blown.csv"
[ $rc -eq 1 ] || fail "saving a non-finite state exited $rc, expected 1"
expect_line "$dir/hardening_blown.out" '^orrery: summary: 4 frames '
expect_line "$dir/hardening_blown.out" '^orrery: error: --save .*hardening_blown.orrery, --export-csv .*hardening_blown.csv: the state is non-finite \(body [0-9]+ at step [0-9]+\): not written'
[ "$(grep -c 'orrery: error\|cannot save' "$dir/hardening_blown.out")" -eq 1 ] || fail "not one error line"
[ -e "$dir/hardening_blown.orrery" ] && fail "a non-finite state was saved"
[ -e "$dir/hardening_blown.csv" ] && fail "a non-finite state was exported"
# Issue 21: F5's save of a non-finite state writes nothing, says so, and the run ends with exit 1
# (a save lost by a key, as one lost by --save).
run f5blown --width 320 --height 180 --solver cpu --n 64 --dt 1e30 --frames 3 --keys f5
[ $rc -eq 1 ] || fail "F5 of a non-finite state exited $rc, expected 1"
expect_line "$dir/hardening_f5blown.out" 'cannot save: .*the state is non-finite'
# Issue 21: what was silently dropped gets a line: scripted keys the run ended before, a scene
# number past the list, --trail-bodies above N, Backspace while bodies merge.
run leftover --width 320 --height 180 --solver cpu --n 64 --frames 2 --keys .,.,.,.
expect_line "$dir/hardening_leftover.out" '^orrery: --keys: 3 of the 4 keys were not applied: the run ended after 2 frames'
run scene50 --width 320 --height 180 --solver cpu --n 64 --frames 3 --keys scene50
expect_line "$dir/hardening_scene50.out" '^orrery: scene50: there are [0-9]+ scenes$'
run trailbodies --width 320 --height 180 --solver cpu --n 64 --frames 2 --trails 4 --trail-bodies 1000
expect_line "$dir/hardening_trailbodies.out" '^orrery: --trail-bodies 1000 is more than the 64 bodies: every body has a trail$'
run mergeback --width 320 --height 180 --solver cpu --n 64 --frames 3 --collisions merge --keys backspace
expect_line "$dir/hardening_mergeback.out" '^orrery: refused: time cannot run backwards while bodies merge'
grep -q '^time runs backwards' "$dir/hardening_mergeback.out" && fail "time ran backwards while merging"
# Defect 9: an offscreen image this GL cannot hold is refused before the run, naming the maximum
# (Mesa's llvmpipe cannot allocate 16384 x 16384 in RGBA16F; NVIDIA's GL can, and then it runs).
run huge --solver cpu --n 64 --frames 1 --width 16384 --height 16384
if grep -q llvmpipe "$dir/hardening_huge.out" || [ $rc -ne 0 ]; then
  [ $rc -eq 2 ] || fail "16384 x 16384: exit $rc, expected 2"
  [ "$(grep -c 'orrery: error' "$dir/hardening_huge.out")" -eq 1 ] || fail "not one error line"
  expect_line "$dir/hardening_huge.out" '^orrery: error: --width 16384 --height 16384: .*(largest|can is about) [0-9]+ x [0-9]+'
  grep -q '^orrery: summary' "$dir/hardening_huge.out" && fail "the refused size ran frames"
fi
# Defect 7's other half: a screenshot that cannot be written after the run (a full disk) still
# leaves the summary, then one error line, exit 1.
if [ -w /dev/full ]; then
  ln -sf /dev/full "$dir/hardening_full.png"
  run full --width 320 --height 180 --solver cpu --n 64 --frames 3 --screenshot "$dir/hardening_full.png"
  [ $rc -eq 1 ] || fail "a screenshot on a full disk exited $rc, expected 1"
  expect_line "$dir/hardening_full.out" '^orrery: summary: 3 frames '
  expect_line "$dir/hardening_full.out" '^orrery: error: cannot write .*hardening_full.png'
  rm -f "$dir/hardening_full.png"
  # Issue 21: a save that fails after the run is one line (it was printed twice), exit 1.
  run fullsave --width 320 --height 180 --solver cpu --n 64 --frames 2 --save /dev/full
  [ $rc -eq 1 ] || fail "--save /dev/full exited $rc, expected 1"
  [ "$(grep -c 'No space left' "$dir/hardening_fullsave.out")" -eq 1 ] || fail "the failed save was not one line"
fi
echo PASS
