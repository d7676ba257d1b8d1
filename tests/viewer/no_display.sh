#!/usr/bin/env bash
# No display and no --headless: a clear message naming --headless, a non-zero exit, no crash.
# Usage: no_display.sh ORRERY
set -u
. "$(dirname "$0")/common.sh"
err=$(env -u DISPLAY -u WAYLAND_DISPLAY "$1" --solver cpu --n 64 --frames 1 2>&1 >/dev/null)
rc=$?
echo "exit $rc: $err"
[ $rc -ne 0 ] || fail "exit code 0 without a display"
[ $rc -lt 128 ] || fail "crashed (exit $rc)"
[[ "$err" == *"--headless"* ]] || fail "the message does not point at --headless"
echo PASS
