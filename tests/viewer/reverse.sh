#!/usr/bin/env bash
# Time reversal in the viewer, under Xvfb: Backspace flips the direction with leapfrog (one line
# each way), R starts the new state forwards, and euler with damping below 1 is refused with a
# line, the run going on. Usage: reverse.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
viewer_test "$@"
"$orrery" --solver cpu --n 300 --integrator leapfrog --frames 8 \
  --keys backspace,.,backspace,backspace,r,backspace >rev.out 2>&1 || { cat rev.out; fail "exit $?"; }
cat rev.out
got=$(grep -v '^orrery: ' rev.out | tr '\n' '|')
want="time runs backwards|step|time runs forwards|time runs backwards|reset|time runs backwards|"
[ "$got" = "$want" ] || fail "printed '$got', expected '$want'"
"$orrery" --solver cpu --n 300 --damping 0.9 --frames 4 --keys backspace >rev2.out 2>&1 ||
  { cat rev2.out; fail "damped run: exit $?"; }
cat rev2.out
expect_line rev2.out "^orrery: refused: time cannot run backwards with euler and damping 0.9"
expect_line rev2.out "^orrery: summary: 4 frames "
grep -q "^time runs" rev2.out && fail "a damped euler run turned back"
echo PASS
