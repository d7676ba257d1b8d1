#!/usr/bin/env bash
# The watching tools under Xvfb, driven by keys: C and Shift+C cycle the colour quantity (each a
# line naming it, its palette and range), L turns trails on, "pick" picks the body nearest the
# middle, F follows it, G the centre of mass, Home resets the view; --color, --trails and
# --color-range start with them. Usage: view_tools.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
viewer_test "$@"
"$orrery" --solver cpu --n 500 --preset plummer --frames 14 \
  --keys c,c,c,c,c,C,l,pick,f,g,home,l --screenshot tools.png >tools.out 2>&1 ||
  { cat tools.out; fail "exit $?"; }
cat tools.out
got=$(grep -v '^orrery: ' tools.out | sed -E 's/ \(.*//; s/body [0-9]+/body #/' | tr '\n' '|')
want="color acceleration|color density|color mass|color potential|color origin|color potential|"
want+="trails 32 positions of 500 bodies|pick body #|follow body #|follow the centre of mass|"
want+="camera reset|trails off|screenshot tools.png|"
[ "$got" = "$want" ] || fail "printed '$got', expected '$want'"
grep -q "^color acceleration (viridis, log " tools.out || fail "acceleration: not viridis, log"
grep -q "^color density (magma, log " tools.out || fail "density: not magma, log"
[ -s tools.png ] || fail "no screenshot"
# Started from the command line: a fixed range, trails of a sample.
"$orrery" --solver cpu --n 500 --preset collision --frames 6 --color speed --palette magma \
  --color-range 0,3 --trails 8 --trail-bodies 100 --keys l,l >start.out 2>&1 ||
  { cat start.out; fail "start: exit $?"; }
cat start.out
expect_line start.out "^trails off"
expect_line start.out "^trails 8 positions of 100 bodies"
# Speed and mass are read from the state itself: on the CPU path their ranges fit too (they
# stayed 0 to 1 there, every body one colour).
for q in speed mass; do
  "$orrery" --solver cpu --n 500 --preset collision --frames 8 --color $q --keys fit >fit.out 2>&1 ||
    { cat fit.out; fail "fit $q: exit $?"; }
  expect_line fit.out "^color range [0-9.e+-]+ to [0-9.e+-]+ \\(percentiles"
done
echo PASS
