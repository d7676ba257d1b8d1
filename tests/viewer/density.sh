#!/usr/bin/env bash
# --mode density (issue 44): the bodies' smoothed surface density instead of their sprites, lit
# and not the sprites' picture; the exit line gives its size, time and range, in Msun/pc^2 for a
# GADGET file with units; M switches; a bad word is one line and exit 2. Headless (EGL; skips
# where none works). Usage: density.sh ORRERY PNG_CHECK SOURCE_DIR WORKDIR
set -u
. "$(dirname "$0")/common.sh"
orrery=$1 check=$2 src=$3 dir=$4/density
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || fail "no $dir"
run() { env -u DISPLAY "$orrery" --headless --solver cpu-bh --width 320 --height 180 --paused "$@"; }
run --n 50 --frames 1 >probe.out 2>&1
grep -q "cannot create a headless OpenGL" probe.out && skip "no EGL display here"
run --n 3000 --preset plummer --frames 2 --hud none --mode density --screenshot map.png >map.out 2>&1 ||
  { cat map.out; fail "--mode density: exit $?"; }
run --n 3000 --preset plummer --frames 2 --hud none --screenshot bodies.png >bodies.out 2>&1 ||
  fail "bodies: exit $?"
# Lit well beyond the sprites (png_check refuses a picture more than half lit: a map may be).
lit=$("$check" map.png 320 180 2>&1 | sed -nE 's/.*, ([0-9]+) of 57600 pixels lit.*/\1/p')
[ -n "$lit" ] && [ "$lit" -gt 5000 ] || fail "the density map is dark ($lit pixels lit)"
cmp -s map.png bodies.png && fail "the density map is the bodies' picture"
expect_line map.out '^orrery: density map: 3000 bodies on 320 x 180 pixels, the newest in [0-9.]+ ms \((CPU|GPU)\); surface density [0-9.e+-]+ to [0-9.e+-]+ mass/length\^2$'
# A GADGET file brings its units: the range is in Msun/pc^2.
run --load "$src/assets/gadget/galaxy.dat" --frames 2 --hud minimal --mode density >gadget.out 2>&1 ||
  { cat gadget.out; fail "GADGET density map: exit $?"; }
expect_line gadget.out '^orrery: density map: .* Msun/pc\^2$'
# M switches the picture.
run --n 500 --frames 3 --keys m >keys.out 2>&1 || fail "m: exit $?"
expect_line keys.out '^picture: density map$'
expect_line keys.out '^orrery: density map: 500 bodies'
refuses '^orrery: error: --mode: heat not in \{bodies,density\}' --mode heat
echo PASS
