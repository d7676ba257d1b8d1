#!/usr/bin/env bash
# A real mouse click under Xvfb: the viewer picks the body under the cursor (a line naming it), F
# follows it, a click on empty space picks nothing (a line saying so), and a drag orbits without
# picking. Usage: click.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
command -v xdotool >/dev/null || skip "xdotool is not installed"
viewer_test "$@"
out="$dir/click.out"
"$orrery" --solver cpu --n 3000 --preset plummer --hide-panel --width 800 --height 600 \
  >"$out" 2>&1 &
pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Orrery$' | head -1)
[ -n "$wid" ] || { kill "$pid"; fail "the window did not appear"; }
for _ in $(seq 100); do grep -q '^orrery: solver' "$out" && break; sleep 0.1; done
timeout 10 xdotool windowfocus --sync "$wid" || true
sleep 0.5
xdotool mousemove --window "$wid" 400 300 click 1  # the middle of a Plummer sphere
sleep 0.5
xdotool key f
sleep 0.4
xdotool mousemove --window "$wid" 5 595 click 1     # a corner: empty
sleep 0.5
xdotool mousemove --window "$wid" 300 300 mousedown 1  # a drag: orbits, picks nothing
sleep 0.2
xdotool mousemove --window "$wid" 330 315
sleep 0.2
xdotool mousemove --window "$wid" 360 330 mouseup 1
sleep 0.5
xdotool key Escape
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { kill "$pid"; cat "$out"; fail "the viewer did not quit on Esc"; }
wait "$pid" || { cat "$out"; fail "orrery exited $?"; }
cat "$out"
got=$(grep -v '^orrery: ' "$out" | sed -E 's/body [0-9]+/body #/' | tr '\n' '|')
want="pick body #|follow body #|pick: no body within 8 px|quit|"
[ "$got" = "$want" ] || fail "printed '$got', expected '$want'"
echo PASS
