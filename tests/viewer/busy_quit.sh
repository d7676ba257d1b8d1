#!/usr/bin/env bash
# Issue 8, defect 1: the window stays alive while a CPU step takes minutes. Under Xvfb, `--solver
# cpu --n 262144` (one step is 6.9e10 interactions, minutes here); Esc must end the process within
# 1 s, and the panel shows the step's progress meanwhile. Usage: busy_quit.sh ORRERY WORKDIR
set -u
. "$(dirname "$0")/common.sh"
command -v xdotool >/dev/null || skip "xdotool is not installed"
in_xvfb "$@"
orrery=$1 dir=$2
out="$dir/busy_quit.out"
"$orrery" --solver cpu --n 262144 >"$out" 2>&1 &
pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Orrery$' | head -1)
[ -n "$wid" ] || { kill "$pid"; fail "the window did not appear"; }
for _ in $(seq 100); do grep -q '^orrery: solver' "$out" && break; sleep 0.1; done
sleep 2  # well into the first step
kill -0 "$pid" 2>/dev/null || fail "the viewer ended by itself"
timeout 10 xdotool windowfocus --sync "$wid" || true
t0=$(date +%s%N)
xdotool key Escape
while kill -0 "$pid" 2>/dev/null; do
  (( ($(date +%s%N) - t0) / 1000000 > 5000 )) && break
  sleep 0.02
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if kill -0 "$pid" 2>/dev/null; then
  kill -9 "$pid"
  cat "$out"
  fail "still running 5 s after Esc"
fi
wait "$pid"
rc=$?
cat "$out"
echo "quit $ms ms after Esc"
[ $rc -eq 0 ] || fail "exit $rc"
# The promise is 1 s; a sanitized build (scripts/sanitize.sh) runs several times slower and sets
# a wider bar, since there the test is about Esc being heard at all, not its speed.
limit=${ORRERY_BUSY_QUIT_MS:-1000}
[ "$ms" -le "$limit" ] || fail "Esc took $ms ms (limit $limit)"
expect_line "$out" '^quit$'
expect_line "$out" '^orrery: summary: .*solver cpu, n 262144'
echo PASS
