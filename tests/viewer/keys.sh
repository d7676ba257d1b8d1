#!/usr/bin/env bash
# Under Xvfb: start the viewer, wait for its window, type keys through xdotool, check the announced
# switches (in order) and a clean exit with the summary line.
#   keys.sh ORRERY WORKDIR basic   S, B, Space, Esc (the issue's check)
#   keys.sh ORRERY WORKDIR more    Shift+S, R, I twice, T, 4, H, '.', Space, F12, F11 twice, 1, 7,
#                                  8, Esc
#   keys.sh ORRERY WORKDIR files   F9 on a damaged quick-save file (refused, the run goes on), F5,
#                                  '.', F9 (back to the saved step), Esc
set -u
. "$(dirname "$0")/common.sh"
command -v xdotool >/dev/null || skip "xdotool is not installed"
in_xvfb "$@"
orrery=$1 dir=$2 mode=${3:-basic}
case $mode in
  basic)
    keys=(s b space Escape)
    expected=("solver cpu-omp" "block: cpu-omp runs on the CPU and has no block size" "paused" "quit")
    final="cpu-omp" ;;
  more)
    keys=(shift+s r i i t 4 h period space F12 F11 F11 1 7 8 9 0 Escape)
    # Shift+S from cpu wraps to the last solver of the list: cpu-bh (the viewer runs on Mesa here:
    # CPU solvers only).
    expected=("solver cpu-bh" "reset" "integrator leapfrog" "integrator yoshida4"
              "tree overlay on (depth 3)" "preset disk"
              "panel hidden" "step" "resumed"
              "screenshot orrery-*.png" "fullscreen on" "fullscreen off" "preset random"
              "preset box" "preset accretion" "preset clumps" "preset plummer-halo" "quit")
    final="cpu-bh" ;;
  files)
    keys=(F9 F5 period F9 Escape)
    expected=("saved orrery-quick.orrery (Orrery, 1024 bodies, step *)" "step"
              "loaded orrery-quick.orrery (Orrery, 1024 bodies, step *)" "quit")
    final="cpu" ;;
  *) fail "unknown mode $mode" ;;
esac
out="$dir/keys_$mode.out"
cd "$dir" && rm -f orrery-*.png
[ "$mode" = files ] && head -c 777 /dev/urandom >orrery-quick.orrery
"$orrery" --solver cpu --n 1024 >"$out" 2>&1 &
pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Orrery$' | head -1)
[ -n "$wid" ] || { kill "$pid"; fail "the window did not appear"; }
# Wait for the start-up lines before typing.
for _ in $(seq 100); do grep -q '^orrery: solver' "$out" && break; sleep 0.1; done
timeout 10 xdotool windowfocus --sync "$wid" || true
for key in "${keys[@]}"; do
  xdotool key "$key"
  sleep 0.4
done
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  cat "$out"
  fail "the viewer did not quit on Esc"
fi
wait "$pid"
rc=$?
cat "$out"
[ $rc -eq 0 ] || fail "orrery exited $rc"
# The switch lines, in order, are exactly the expected ones (glob patterns).
mapfile -t got < <(grep -v '^orrery: ' "$out")
[ ${#got[@]} -eq ${#expected[@]} ] || fail "expected ${#expected[@]} switch lines, got ${#got[@]}"
for i in "${!expected[@]}"; do
  # shellcheck disable=SC2053
  [[ "${got[$i]}" == ${expected[$i]} ]] || fail "line $((i + 1)): '${got[$i]}', expected '${expected[$i]}'"
done
expect_line "$out" "^orrery: summary: [0-9]+ frames .*solver $final, n [0-9]+, path CPU"  # accretion merges
if [ "$mode" = files ]; then
  expect_line "$out" "^orrery: cannot load: orrery-quick.orrery: neither an Orrery snapshot"
  saved=$(sed -nE 's/^saved .*step ([0-9]+)\)$/\1/p' "$out")
  loaded=$(sed -nE 's/^loaded .*step ([0-9]+)\)$/\1/p' "$out")
  [ -n "$saved" ] && [ "$saved" = "$loaded" ] || fail "F5 saved step '$saved', F9 loaded step '$loaded'"
  rm -f orrery-quick.orrery
fi
if [ "$mode" = more ]; then
  shot=$(ls orrery-*.png 2>/dev/null | head -1)
  [ -s "$shot" ] || fail "F12 wrote no PNG"
fi
echo PASS
