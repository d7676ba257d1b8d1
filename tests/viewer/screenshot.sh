#!/usr/bin/env bash
# Under Xvfb (Mesa): 30 frames of CPU bodies, a screenshot with visible bodies, exit 0, summary line.
# Usage: screenshot.sh ORRERY PNG_CHECK WORKDIR
set -u
. "$(dirname "$0")/common.sh"
in_xvfb "$@"
orrery=$1 check=$2 dir=$3
png="$dir/viewer_screenshot.png"
rm -f "$png"
"$orrery" --solver cpu --n 2048 --frames 30 --screenshot "$png" --hide-panel >"$dir/screenshot.out" 2>&1
rc=$?
cat "$dir/screenshot.out"
[ $rc -eq 0 ] || fail "orrery exited $rc"
expect_line "$dir/screenshot.out" "^screenshot $png\$"
expect_line "$dir/screenshot.out" "^orrery: summary: 30 frames .*solver cpu, n 2048, path CPU"
[ -s "$png" ] || fail "no PNG written"
"$check" "$png" 1280 720 270 90 || fail "the screenshot shows no bodies"
echo PASS
